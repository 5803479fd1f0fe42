#pragma once

#include <cstdint>
#include <functional>

#include "column/column.h"

namespace ember {

/// Compares a row of one column with a row of another of the same type (both non-null) by
/// value, in Spark's ordering: <0, 0 or >0. NaN sorts above every other floating value and
/// equals itself; -0.0 equals 0.0; structs compare field by field and arrays element by
/// element, nulls first. Sorting, grouping-free equality (array_contains, array_distinct ...)
/// and the collection functions all use this one definition.
using ValueCompare = std::function<int(int64_t, int64_t)>;
ValueCompare value_comparator(const ColumnPtr& a, const ColumnPtr& b);
/// Rows of one column compared with each other.
inline ValueCompare value_comparator(const ColumnPtr& c) { return value_comparator(c, c); }

/// Whether Spark orders values of `type` (RowOrdering.isOrderable): atomic types, and structs and
/// arrays of orderable types; not maps, calendar intervals or variants.
bool orderable(const DataType& type);

/// The same ordering over two non-null `Value`s of `type` (nested nulls first), for the
/// row-at-a-time states that keep values rather than rows (max / min of structs and arrays,
/// max_by / min_by keys).
int compare_values(const Value& a, const Value& b, const DataType& type);

}  // namespace ember
