// Constructors of nested values: array, named_struct (struct resolves to it), map,
// map_from_arrays and map_from_entries. Rows are assembled by gathering the argument columns
// into the child column in one pass, not value by value.

#include "common/error.h"
#include "functions/collection_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// The argument columns `which` interleaved row by row: row i of the result's child holds
/// args[which[0]][i], args[which[1]][i] ...; offsets step by which.size().
ColumnPtr interleave(const Args& a, const std::vector<size_t>& which, int64_t n, const TypePtr& element) {
  if (which.empty() || n == 0) return ColumnBuilder(element).finish();
  std::vector<ColumnPtr> parts;
  for (size_t k : which) parts.push_back(a[k]);
  ColumnPtr all = concat(parts);
  int64_t width = static_cast<int64_t>(which.size());
  std::vector<int32_t> picks(static_cast<size_t>(n * width));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < width; ++j) picks[static_cast<size_t>(i * width + j)] = static_cast<int32_t>(j * n + i);
  return gather(*all, picks.data(), n * width);
}

std::vector<int32_t> stepped_offsets(int64_t n, int64_t width) {
  std::vector<int32_t> off(static_cast<size_t>(n) + 1);
  for (int64_t i = 0; i <= n; ++i) off[static_cast<size_t>(i)] = static_cast<int32_t>(i * width);
  return off;
}

[[noreturn]] void throw_even_args(const std::string& fn, size_t got) {
  throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                   "The `" + fn + "` requires 2n (n > 0) parameters but the actual number is " + std::to_string(got) +
                       ". Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.",
                   {{"functionName", "`" + fn + "`"}, {"expectedNum", "2n (n > 0)"}, {"actualNum", std::to_string(got)}});
}

Signature array_rule(const Infos& a, const Config& conf) {
  std::vector<size_t> all;
  bool contains_null = false;
  for (size_t i = 0; i < a.size(); ++i) all.push_back(i), contains_null |= a[i].nullable;
  TypePtr t = collection_common_type("array", types_of(a), all, conf);
  Signature s;
  s.arg_types.assign(a.size(), t);
  s.result_type = DataType::array(t, contains_null);
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

ColumnPtr array_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<size_t> all;
  for (size_t i = 0; i < a.size(); ++i) all.push_back(i);
  ColumnPtr elems = interleave(a, all, n, sig.result_type->element_type());
  return make_list(sig.result_type, n, stepped_offsets(n, static_cast<int64_t>(a.size())), elems, nullptr);
}

Signature named_struct_rule(const Infos& a, const Config&) {
  if (a.empty() || a.size() % 2) throw_even_args("named_struct", a.size());
  std::vector<StructField> fields;
  std::vector<std::string> bad;
  for (size_t i = 0; i < a.size(); i += 2) {
    if (!a[i].literal || a[i].type->id() != TypeId::kString || a[i].literal->is_null()) {
      bad.push_back(a[i].literal && !a[i].literal->is_null() && a[i].type->id() == TypeId::kString
                        ? a[i].literal->as_bytes()
                        : "");
      continue;
    }
    fields.push_back({a[i].literal->as_bytes(), a[i + 1].type, a[i + 1].nullable, "{}"});
  }
  if (fields.size() * 2 != a.size()) {
    std::vector<TypePtr> types = types_of(a);
    throw_type_mismatch("CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                        "Only foldable `STRING` expressions are allowed to appear at odd position, but they are [...].",
                        call_sql("named_struct", types));
  }
  Signature s;
  s.arg_types = types_of(a);
  s.result_type = DataType::struct_(std::move(fields));
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

ColumnPtr named_struct_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<ColumnPtr> kids;
  for (size_t i = 1; i < a.size(); i += 2) kids.push_back(a[i]);
  return Column::make(sig.result_type, n, nullptr, nullptr, nullptr, std::move(kids));
}

Signature map_rule(const Infos& a, const Config& conf) {
  if (a.size() % 2) throw_even_args("map", a.size());
  std::vector<size_t> keys, values;
  bool value_null = false;
  for (size_t i = 0; i < a.size(); i += 2) keys.push_back(i), values.push_back(i + 1), value_null |= a[i + 1].nullable;
  std::vector<TypePtr> types = types_of(a);
  TypePtr k = collection_common_type("map", types, keys, conf);
  TypePtr v = collection_common_type("map", types, values, conf);
  Signature s;
  for (size_t i = 0; i < a.size(); ++i) s.arg_types.push_back(i % 2 ? v : k);
  s.result_type = DataType::map(k, v, value_null);
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

ColumnPtr map_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  std::vector<size_t> keys, values;
  for (size_t i = 0; i < a.size(); i += 2) keys.push_back(i), values.push_back(i + 1);
  ColumnPtr k = interleave(a, keys, n, sig.result_type->key_type());
  ColumnPtr v = interleave(a, values, n, sig.result_type->value_type());
  return build_map(sig.result_type, n, stepped_offsets(n, static_cast<int64_t>(keys.size())), k, v, nullptr, ctx);
}

Signature map_from_arrays_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  for (size_t i = 0; i < 2; ++i)
    if (types[i]->id() != TypeId::kArray && types[i]->id() != TypeId::kNull)
      throw_unexpected_input("map_from_arrays", types, i, "\"ARRAY\"");
  auto elem = [](const TypePtr& t) { return t->id() == TypeId::kArray ? t->element_type() : DataType::null(); };
  Signature s;
  s.arg_types = types;
  s.result_type = DataType::map(elem(types[0]), elem(types[1]),
                                types[1]->id() != TypeId::kArray || types[1]->contains_null());
  return s;
}

ColumnPtr map_from_arrays_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  BufferPtr validity = and_validity({a[0].get(), a[1].get()}, n);
  const uint8_t* v = validity ? validity->data() : nullptr;
  std::vector<int32_t> key_pick, value_pick, offsets(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (!v || get_bit(v, i)) {
      const int32_t* ko = a[0]->offsets();
      const int32_t* vo = a[1]->offsets();
      if (ko[i + 1] - ko[i] != vo[i + 1] - vo[i])
        throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_2128",
                         "The key array and value array of MapData must have the same length.");
      for (int32_t k = 0; k < ko[i + 1] - ko[i]; ++k) key_pick.push_back(ko[i] + k), value_pick.push_back(vo[i] + k);
    }
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(key_pick.size());
  }
  int64_t m = static_cast<int64_t>(key_pick.size());
  ColumnPtr keys = gather(*a[0]->child(0), key_pick.data(), m);
  ColumnPtr values = gather(*a[1]->child(0), value_pick.data(), m);
  return build_map(sig.result_type, n, offsets, keys, values, validity, ctx);
}

Signature map_from_entries_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  const TypePtr& t = types[0];
  if (t->id() != TypeId::kArray || t->element_type()->id() != TypeId::kStruct ||
      t->element_type()->fields().size() != 2)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"ARRAY\" of pair \"STRUCT\" type, however \"" + t->sql() +
                            "\" has the type \"" + t->sql() + "\".",
                        call_sql("map_from_entries", types));
  const auto& f = t->element_type()->fields();
  Signature s;
  s.arg_types = types;
  s.result_type = DataType::map(f[0].type, f[1].type, f[1].nullable);
  s.may_introduce_null = t->contains_null();
  return s;
}

ColumnPtr map_from_entries_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const Column& arr = *a[0];
  const ColumnPtr& entries = arr.child(0);
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  std::vector<int32_t> offsets(static_cast<size_t>(n) + 1, 0);
  std::vector<int32_t> picks;
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    bool ok = arr.is_valid(i);
    for (int32_t k = o[i]; ok && k < o[i + 1]; ++k) ok = entries->is_valid(k);
    valid[static_cast<size_t>(i)] = ok;
    if (ok)
      for (int32_t k = o[i]; k < o[i + 1]; ++k) picks.push_back(k);
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(picks.size());
  }
  int64_t m = static_cast<int64_t>(picks.size());
  ColumnPtr keys = gather(*entries->child(0), picks.data(), m);
  ColumnPtr values = gather(*entries->child(1), picks.data(), m);
  return build_map(sig.result_type, n, offsets, keys, values, validity_from(valid), ctx);
}

}  // namespace

void register_collection_constructors(Registry& r) {
  r.add(scalar_args("array", 0, -1, array_rule, array_kernel));
  r.add(scalar_args("named_struct", 0, -1, named_struct_rule, named_struct_kernel));
  r.add(scalar_args("map", 0, -1, map_rule, map_kernel));
  r.add(scalar_args("map_from_arrays", 2, 2, map_from_arrays_rule, map_from_arrays_kernel));
  r.add(scalar_args("map_from_entries", 1, 1, map_from_entries_rule, map_from_entries_kernel));
}

}  // namespace ember::functions
