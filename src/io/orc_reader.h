#pragma once

#include <memory>

#include "io/data_source.h"

namespace ember::io {

/// The "orc" data source, through Arrow C++'s ORC adapter.
///  - Schema: from the first file with columns, or the union of all files' schemas with
///    `mergeSchema` (option or spark.sql.orc.mergeSchema); every field is nullable. Types follow
///    orc_types.h (Spark's type attribute marks timestamp_ntz and the intervals).
///  - Splits: one per stripe, read in parallel. A split decodes its stripe's projected columns
///    by byte range and emits them in batches (the adapter's streaming reader seeks through the
///    row index, which ORC's reader trusts to the point of crashing on a corrupt one). A stripe
///    belongs to the Spark split holding its first byte, as ORC's reader assigns stripes.
///  - Only the projected columns are decoded; a column missing from a file reads as nulls.
///    Columns match by name, case-insensitively unless spark.sql.caseSensitive.
/// The adapter gives no access to stripe statistics, so no stripe is skipped by predicates.
/// An unreadable file raises FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER while the schema is
/// inferred from it, FAILED_READ_FILE.NO_HINT while reading it.
std::unique_ptr<DataSourceReader> open_orc_reader(const ReadRequest& request);

/// Whether this build reads and writes ORC: the Arrow library it was built against exports the
/// ORC adapter (EMBER_ARROW_HAS_ORC at configure time).
bool orc_available();

/// UNSUPPORTED_FEATURE.ORC_UNAVAILABLE, for a build without Arrow's ORC adapter.
[[noreturn]] void throw_orc_unavailable();

}  // namespace ember::io
