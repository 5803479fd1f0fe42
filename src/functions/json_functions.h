#pragma once

// What the JSON function family offers outside the registry: json_tuple's field extraction,
// which the Generate operator calls.

#include <vector>

#include "column/column.h"

namespace ember::functions {

/// json_tuple over a batch: for each name column in `fields`, a string column holding that
/// top-level field of each row's JSON object (strings unquoted, other values as compact JSON);
/// null where the document is null or malformed, not an object, or lacks the field.
std::vector<ColumnPtr> json_tuple_columns(const Column& json, const std::vector<ColumnPtr>& fields, int64_t n);

}  // namespace ember::functions
