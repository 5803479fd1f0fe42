#pragma once

#include <memory>

#include "io/data_source.h"

namespace ember::io {

/// The "csv" data source: Spark's CSV reader options and semantics (see CsvOptions,
/// CsvTokenizer and CsvTypeInference). Files are split into byte ranges aligned to line starts
/// the way Hadoop's line reader splits them (a split owns the lines that start after its
/// first byte, up to and including one starting at its last byte), except in multiLine mode
/// and for encodings other than UTF-8, where each file is one split. Values are parsed
/// straight into columns of the target types; only projected columns are converted.
std::unique_ptr<DataSourceReader> open_csv_reader(const ReadRequest& request);

}  // namespace ember::io
