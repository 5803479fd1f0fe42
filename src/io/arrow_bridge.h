#pragma once

// Conversions between Ember's columns and Arrow C++ arrays at the io edge (Parquet, JSON).
// Columns cross through the Arrow C data interface, so Arrow's buffers are wrapped, not copied.

#include <memory>
#include <vector>

#include <arrow/api.h>

#include "column/column.h"
#include "types/data_type.h"

namespace ember::io {

/// The Arrow type Ember's layout corresponds to for a Spark type: timestamps are microseconds
/// (UTC-adjusted ones carry the "UTC" zone), decimals are decimal128, strings utf8 with int32
/// offsets.
std::shared_ptr<arrow::DataType> to_arrow_type(const DataType& type);
std::shared_ptr<arrow::Schema> to_arrow_schema(const Schema& schema);

/// Converts arrays to the Arrow types of `target` (casting units, widening unsigned integers,
/// decoding dictionaries) and then to Ember columns. `arrays[i]` becomes column i of type
/// `target[i].type`; a null entry becomes an all-null column.
Batch batch_from_arrow(const std::vector<std::shared_ptr<arrow::Array>>& arrays, int64_t num_rows,
                       const Schema& target);

/// An Arrow record batch that shares the buffers of an Ember batch.
std::shared_ptr<arrow::RecordBatch> batch_to_arrow(const Batch& batch, const Schema& schema);

/// Throws an internal error for a failed Arrow status (callers that map Arrow failures to a
/// user error check the status themselves).
void check_arrow(const arrow::Status& status, const char* what);

}  // namespace ember::io
