#pragma once
// What the VARIANT functions (variant.cc) and CAST share: reading a variant column's rows,
// building variant columns, and the conversions between VARIANT and the other Spark types
// (variant_cast.cc).

#include <string>
#include <string_view>
#include <vector>

#include "column/column.h"
#include "common/variant.h"
#include "functions/function.h"

namespace ember::functions {

/// Whether `t` is or contains VARIANT, which Spark neither orders, compares, groups nor
/// deduplicates.
inline bool contains_variant(const DataType& t) {
  if (t.id() == TypeId::kVariant) return true;
  for (const auto& f : t.fields())
    if (contains_variant(*f.type)) return true;
  return false;
}

/// Row i of a VARIANT column (its `value` and `metadata` children).
inline variant::Ref variant_at(const Column& c, int64_t i) {
  return variant::Ref(c.child(1)->string_at(i), c.child(0)->string_at(i));
}

/// Appends the variant `b` holds to a VARIANT column builder.
void append_variant(ColumnBuilder& out, const variant::Builder& b);

/// MALFORMED_VARIANT, for bytes that do not decode.
[[noreturn]] void throw_malformed_variant();

/// Whether Spark casts VARIANT to `to` (every type but intervals, and maps with non-string
/// keys), and `from` to VARIANT (atomic types but intervals, and arrays of them).
bool can_cast_from_variant(const DataType& to);
bool can_cast_to_variant(const DataType& from);

/// Casts variants to `to` with Spark's rules: a variant null is a SQL NULL; scalars convert as
/// CAST from their own type would; objects become structs (fields by exact name) or maps,
/// arrays arrays. A value that does not convert raises INVALID_VARIANT_CAST, or gives a null
/// when `try_cast`.
ColumnPtr cast_from_variant(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx, bool try_cast);
/// Casts one variant value into `out` (of type `to`); the same rules.
void cast_variant_value(const variant::Ref& v, const TypePtr& to, const EvalContext& ctx, bool try_cast,
                        ColumnBuilder& out);

/// Converts values to VARIANT; structs and maps (string keys) become variant objects. CAST
/// admits only what can_cast_to_variant allows; to_variant_object admits structs and maps.
ColumnPtr cast_to_variant(const ColumnPtr& in);
/// Row `row` of `c` appended to a variant builder.
void append_as_variant(variant::Builder& b, const Column& c, int64_t row);

/// One step of a variant path: an object key or an array index, and where its text ends in the
/// path (for error messages).
struct VariantPathStep {
  bool is_key;
  std::string key;
  uint32_t index = 0;
  size_t end = 0;
};

/// Spark's variant path grammar: `$` then `.key`, `['key']`, `["key"]` or `[index]` steps.
/// False for text that is no such path.
bool parse_variant_path(std::string_view p, std::vector<VariantPathStep>* out);

/// Registers the editing functions (variant_modify.cc): variant_insert, variant_set,
/// variant_delete, variant_array_append, their try_ forms, variant_strip_nulls.
void register_variant_edit_functions(Registry& r);

}  // namespace ember::functions
