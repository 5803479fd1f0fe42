#pragma once

#include <memory>

#include "io/data_source.h"

namespace ember::io {

/// The "parquet" data source, through Arrow C++'s Parquet reader.
///  - Schema: from the footer of the first file, or the union of all files' schemas with
///    `mergeSchema` (option or spark.sql.parquet.mergeSchema); every field is nullable, as Spark
///    makes file source schemas. INT96 and UTC-adjusted TIMESTAMP columns are `timestamp`,
///    other TIMESTAMP columns `timestamp_ntz`; unsigned integers widen as Spark widens them.
///  - Splits: one per row group, read in parallel; batches stream out of each row group.
///  - Only the projected columns are decoded; a column missing from a file reads as nulls.
///    Columns match by name, case-insensitively unless spark.sql.caseSensitive.
///  - split_may_match tests pushed-down predicates against row-group statistics.
/// Unreadable files raise FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER (while opening) or
/// FAILED_READ_FILE.NO_HINT (while decoding).
std::unique_ptr<DataSourceReader> open_parquet_reader(const ReadRequest& request);

}  // namespace ember::io
