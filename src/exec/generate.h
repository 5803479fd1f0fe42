#pragma once

// Generate: Spark's explode family as a streaming operator.

#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/operator.h"

namespace ember::exec {

/// What a Generate produces per input row.
///  - kExplode: one row per element of an array (`col`) or entry of a map (`key`, `value`);
///  - kPosExplode: the same, preceded by the element's position (`pos`, int);
///  - kInline: one row per struct element of an array, its fields as columns;
///  - kStack: stack(n, v1, ..., vk): `stack_rows` = n rows of the values `args`, column j of
///    row r being value r * columns + j (null past the end);
///  - kJsonTuple: json_tuple(json, k1, ..., kn): one row per input row, the named top-level
///    fields of its JSON object as strings;
///  - kVariantExplode: variant_explode(v): one row per field of a variant object (`pos`, `key`,
///    `value`, in the object's key order) or element of a variant array (`key` null); any other
///    variant, a variant null included, gives none.
/// Outer generators (explode_outer ...) give one row of nulls for a null or empty input, where
/// the others give none.
struct GeneratorSpec {
  enum class Kind { kExplode, kPosExplode, kInline, kStack, kJsonTuple, kVariantExplode };
  Kind kind = Kind::kExplode;
  bool outer = false;
  std::vector<PhysExprPtr> args;
  int64_t stack_rows = 0;
  /// Types of the generated columns, in order.
  std::vector<TypePtr> output_types;
};

/// Output = the kept input columns (`kept`, ordinals of the input batch) followed by the
/// generated columns. Each batch is processed whole and in one pass over the array offsets: the
/// per-row output counts give, for every output row, its input row and its element, and the kept
/// columns and the elements are gathered by those indices, so no value is boxed.
class Generate final : public PhysicalOperator {
 public:
  Generate(GeneratorSpec spec, std::vector<int> kept, std::string display)
      : spec_(std::move(spec)), kept_(std::move(kept)), display_(std::move(display)) {}
  std::string name() const override { return "Generate"; }
  std::string details() const override { return display_; }
  void execute(Batch& batch, ExecContext& ctx) const override;

 private:
  GeneratorSpec spec_;
  std::vector<int> kept_;
  std::string display_;
};

}  // namespace ember::exec
