#pragma once

#include <memory>

#include "io/data_source.h"

namespace ember::io {

/// The "text" data source: one `value` string per line (lines end at \n, \r\n or \r, or at
/// the `lineSep` option), or one row per file with `wholetext`. Files split into byte ranges
/// (see line_splits.h) unless compressed, whole-text or with another `lineSep`; lines stream
/// out in batches. Compressed files (.gz, .bz2, .zst) are read transparently.
std::unique_ptr<DataSourceReader> open_text_reader(const ReadRequest& request);

}  // namespace ember::io
