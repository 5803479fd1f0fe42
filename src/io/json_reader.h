#pragma once

#include <memory>

#include "io/data_source.h"

namespace ember::io {

/// The "json" data source: JSON Lines (one record per line, a top-level array holding several),
/// or one document per file with `multiLine`. The schema is inferred as Spark infers it: fields
/// sorted by name; integers bigint (decimal or double beyond), other numbers double, booleans,
/// strings, nested structs and arrays, conflicting types widened or made strings, all-null
/// fields strings; `primitivesAsString` makes every primitive a string. Modes PERMISSIVE (bad
/// records' text in `columnNameOfCorruptRecord` when the schema has it), DROPMALFORMED and
/// FAILFAST. JSON Lines files split into byte ranges (see line_splits.h); multiLine and
/// compressed files are one split each.
std::unique_ptr<DataSourceReader> open_json_reader(const ReadRequest& request);

}  // namespace ember::io
