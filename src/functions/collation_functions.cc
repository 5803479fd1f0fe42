// String collations as functions: collate (`s COLLATE name`), collation, and the internal
// collationkey the planner compares collated strings by (types/collation.h).

#include "functions/collection_util.h"
#include "functions/string_util.h"
#include "types/collation.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;

void require_string(const std::string& fn, const ArgInfo& a, const char* ordinal, const std::string& shown) {
  if (a.type->id() == TypeId::kString || a.type->id() == TypeId::kNull) return;
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal + " parameter requires the \"STRING\" type, however \"" +
                          shown + "\" has the type \"" + a.type->sql() + "\".",
                      fn);
}

}  // namespace

void register_collation_functions(Registry& r) {
  {
    FunctionDef d = scalar_args(
        "collate", 2, 2,
        [](const std::vector<ArgInfo>& a, const Config&) {
          require_string("collate", a[0], "first", "");
          if (!a[1].literal || a[1].literal->is_null() || a[1].type->id() != TypeId::kString)
            throw_type_mismatch("NON_FOLDABLE_INPUT",
                                "the input collation should be a foldable \"STRING\" expression; however, got a "
                                "non-constant value.",
                                "collate");
          Signature s;
          s.arg_types = {a[0].type->id() == TypeId::kNull ? DataType::string() : a[0].type, a[1].type};
          s.result_type = DataType::string(collation_id(a[1].literal->as_bytes()));
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          // The same text, typed with the collation.
          const Column& c = *a[0];
          if (c.type()->id() != TypeId::kString) return Column::all_null(sig.result_type, n);
          return Column::make(sig.result_type, n, c.validity_buffer(), c.data_buffer(), c.offsets_buffer(), {},
                              c.null_count());
        });
    d.constant_args = {1};
    d.usage = "collate(expr, collationName) - Marks a given expression with the specified collation.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar_args(
        "collation", 1, 1,
        [](const std::vector<ArgInfo>& a, const Config&) {
          require_string("collation", a[0], "first", "");
          Signature s;
          s.arg_types = {a[0].type};
          s.result_type = DataType::string();
          s.never_null = true;
          s.null_if_any_arg_null = false;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return Column::constant(sig.result_type, Value::bytes(collation_full_name(a[0]->type()->collation_id())),
                                  n);
        });
    d.usage = "collation(expr) - Returns the collation name of a given expression.";
    r.add(std::move(d));
  }
  {
    // The bytes whose byte order and equality are the collation's: what joins, groupings,
    // sorts and comparisons of collated strings read.
    FunctionDef d = scalar_args(
        "collationkey", 1, 1,
        [](const std::vector<ArgInfo>& a, const Config&) {
          Signature s;
          s.arg_types = {a[0].type};
          s.result_type = DataType::binary();
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          const Column& c = *a[0];
          const Collation& coll = collation(c.type()->collation_id());
          ColumnBuilder b(sig.result_type, n);
          std::string key;
          for (int64_t i = 0; i < n; ++i) {
            if (c.is_null(i)) {
              b.append_null();
              continue;
            }
            std::string_view s = c.string_at(i);
            key.clear();
            append_collation_key(coll, s.data(), s.size(), key);
            b.append_bytes(key);
          }
          return b.finish();
        });
    d.internal = true;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
