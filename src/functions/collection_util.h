#pragma once

// What the array, map and struct function families share: the layout helpers that build
// nested columns from offsets and a child column (so kernels gather elements in bulk instead of
// appending values one by one), the common element type of constructor arguments, and the
// runtime errors Spark raises for bad indexes and map keys.

#include <string>
#include <vector>

#include "column/compare.h"
#include "functions/string_util.h"

namespace ember::functions {

/// An array (or map) column of n rows from n+1 offsets into `elements`; `validity` may be null.
ColumnPtr make_list(const TypePtr& type, int64_t n, const std::vector<int32_t>& offsets, ColumnPtr elements,
                    BufferPtr validity);
/// The elements of an array column as a list of row positions into child(0), gathered into a new
/// array column: row i holds elements picks[offsets[i] .. offsets[i+1]) (-1 makes a null element).
ColumnPtr gather_list(const TypePtr& type, const Column& array, const std::vector<int32_t>& offsets,
                      const std::vector<int32_t>& picks, BufferPtr validity);
/// A validity bitmap from one byte per row; null when every row is valid.
BufferPtr validity_from(const std::vector<uint8_t>& valid);

/// Positions [begin, end) of `elems` without repeats: the first occurrence of each value (one
/// null at most), in their original order. `cmp` compares rows of `elems`.
std::vector<int32_t> distinct_positions(const Column& elems, const ValueCompare& cmp, int32_t begin, int32_t end);

/// `c` with every floating-point value, at any depth of arrays, maps and structs, in Spark's
/// normal form (NormalizeFloatingNumbers): -0.0 as 0.0 and every NaN as the one canonical NaN.
/// The same column when it holds no floating-point values to change.
ColumnPtr normalize_floats(const ColumnPtr& c);

/// Spark's wider common type of arguments `which`, through nested types (array<int> beside
/// array<bigint> is array<bigint>, nullability merged); DATA_DIFF_TYPES naming `fn` otherwise.
TypePtr collection_common_type(const std::string& fn, const std::vector<TypePtr>& args,
                               const std::vector<size_t>& which, const Config& conf);

/// The type an argument is checked against in messages: "ARRAY", "MAP" ...
[[noreturn]] void throw_unexpected_input(const std::string& fn, const std::vector<TypePtr>& args, size_t index,
                                         const std::string& required);
/// Ordinal words for messages: "first", "second" ...
std::string ordinal_word(size_t index);

/// Runtime errors of element access and map construction, with Spark's classes and messages.
[[noreturn]] void throw_invalid_index_of_zero();
[[noreturn]] void throw_array_index_out_of_bounds(int64_t index, int64_t size, bool element_at);
[[noreturn]] void throw_null_map_key();
[[noreturn]] void throw_duplicated_map_key(const Column& keys, int64_t row);

/// Builds map rows from key and value columns (same length), row i holding the pairs
/// [offsets[i], offsets[i+1]). Null keys raise NULL_MAP_KEY; duplicate keys raise
/// DUPLICATED_MAP_KEY unless spark.sql.mapKeyDedupPolicy is LAST_WIN, where the last value wins
/// at the first key's position.
ColumnPtr build_map(const TypePtr& type, int64_t n, const std::vector<int32_t>& offsets, const ColumnPtr& keys,
                    const ColumnPtr& values, BufferPtr validity, const EvalContext& ctx);

}  // namespace ember::functions

namespace ember::functions {
/// A scalar FunctionDef whose type rule sees argument nullability and literals.
FunctionDef scalar_args(std::string name, int min_args, int max_args, ArgTypeRule rule, ScalarKernel kernel,
                        std::vector<std::string> aliases = {});
/// The types of `args`, for messages and for the plain type helpers.
std::vector<TypePtr> types_of(const std::vector<ArgInfo>& args);
}  // namespace ember::functions

namespace ember::functions {
/// concat over array arguments of one type (concat's array form).
ColumnPtr concat_arrays(const std::vector<ColumnPtr>& args, int64_t n, const TypePtr& type);
}  // namespace ember::functions
