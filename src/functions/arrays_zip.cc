// arrays_zip(a1, a2, ...): an array of structs whose i-th element holds the i-th element of
// each input array; shorter arrays give null fields, and a null array makes the row null.
// Fields are named after column (or alias) arguments and numbered ("0", "1" ...) otherwise.

#include "functions/collection_util.h"

namespace ember::functions {
namespace {

Signature arrays_zip_rule(const std::vector<ArgInfo>& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  std::vector<StructField> fields;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].type->id() != TypeId::kArray && a[k].type->id() != TypeId::kNull)
      throw_unexpected_input("arrays_zip", types, k, "\"ARRAY\"");
    TypePtr element = a[k].type->id() == TypeId::kArray ? a[k].type->element_type() : DataType::null();
    fields.push_back({a[k].name.empty() ? std::to_string(k) : a[k].name, element, true, "{}"});
  }
  Signature s;
  s.arg_types = types;
  s.result_type = DataType::array(DataType::struct_(std::move(fields)), false);
  return s;
}

ColumnPtr arrays_zip_kernel(const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    int32_t len = 0;
    for (const ColumnPtr& c : a) {
      if (c->type()->id() == TypeId::kNull || c->is_null(i)) {
        null = true;
        break;
      }
      len = std::max(len, c->offsets()[i + 1] - c->offsets()[i]);
    }
    if (null) {
      b.append_null();
      continue;
    }
    ColumnBuilder& row = b.child(0);
    for (int32_t e = 0; e < len; ++e) {
      for (size_t k = 0; k < a.size(); ++k) {
        const int32_t* off = a[k]->offsets();
        if (off[i] + e < off[i + 1])
          row.child(k).append_from(*a[k]->child(0), off[i] + e);
        else
          row.child(k).append_null();
      }
      row.close_struct(true);
    }
    b.close_list();
  }
  return b.finish();
}

}  // namespace

void register_arrays_zip(Registry& r) {
  FunctionDef d = scalar_args("arrays_zip", 0, -1, arrays_zip_rule, arrays_zip_kernel);
  d.usage =
      "arrays_zip(a1, a2, ...) - Returns a merged array of structs in which the N-th struct contains all N-th "
      "values of input arrays.";
  r.add(std::move(d));
}

}  // namespace ember::functions
