// Map functions: map_keys, map_values, map_entries (views of the map's own buffers, no copy),
// map_contains_key, map_concat and str_to_map.

#include "functions/collection_util.h"
#include "functions/regexp_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

void require_map(const std::string& fn, const std::vector<TypePtr>& types, size_t i) {
  if (types[i]->id() != TypeId::kMap) throw_unexpected_input(fn, types, i, "\"MAP\"");
}

/// An array column over a map's rows: same validity and offsets, `elements` as the child.
ColumnPtr over_map(const TypePtr& type, const Column& m, ColumnPtr elements) {
  return Column::make(type, m.length(), m.validity_buffer(), nullptr, m.offsets_buffer(), {std::move(elements)});
}

enum class Part { kKeys, kValues, kEntries };

Signature part_rule(const std::string& fn, Part part, const Infos& a) {
  std::vector<TypePtr> types = types_of(a);
  require_map(fn, types, 0);
  const TypePtr& m = types[0];
  Signature s;
  s.arg_types = types;
  switch (part) {
    case Part::kKeys: s.result_type = DataType::array(m->key_type(), true); break;
    case Part::kValues: s.result_type = DataType::array(m->value_type(), m->value_contains_null()); break;
    case Part::kEntries: s.result_type = DataType::array(DataType::struct_(m->fields()), false); break;
  }
  return s;
}

ColumnPtr part_kernel(Part part, const Args& a, const Signature& sig) {
  const Column& m = *a[0];
  const ColumnPtr& entries = m.child(0);
  switch (part) {
    case Part::kKeys: return over_map(sig.result_type, m, entries->child(0));
    case Part::kValues: return over_map(sig.result_type, m, entries->child(1));
    case Part::kEntries: break;
  }
  return over_map(sig.result_type, m, entries);
}

Signature contains_key_rule(const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  require_map("map_contains_key", types, 0);
  std::vector<TypePtr> pair = {types[0]->key_type(), types[1]};
  TypePtr k;
  try {
    k = collection_common_type("map_contains_key", pair, {0, 1}, conf);
  } catch (const SparkError&) {
    throw_type_mismatch("MAP_FUNCTION_DIFF_TYPES",
                        "Input to `map_contains_key` should have been \"MAP\" followed by a value with same key type, "
                        "but it's [\"" + types[0]->sql() + "\", \"" + types[1]->sql() + "\"].",
                        call_sql("map_contains_key", types));
  }
  Signature s;
  s.arg_types = {DataType::map(k, types[0]->value_type(), types[0]->value_contains_null()), k};
  s.result_type = DataType::boolean();
  s.may_introduce_null = true;  // Spark declares the result nullable whatever the arguments
  return s;
}

ColumnPtr contains_key_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  const Column& m = *a[0];
  const ColumnPtr& keys = m.child(0)->child(0);
  ValueCompare eq = value_comparator(keys, a[1]);
  const int32_t* o = m.offsets();
  std::vector<uint8_t> value(static_cast<size_t>(n)), valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (m.is_null(i) || a[1]->is_null(i)) continue;
    valid[static_cast<size_t>(i)] = 1;
    for (int32_t k = o[i]; k < o[i + 1]; ++k)
      if (eq(k, i) == 0) {
        value[static_cast<size_t>(i)] = 1;
        break;
      }
  }
  return make_bool_column(value, validity_from(valid), n);
}

Signature map_concat_rule(const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  std::vector<size_t> all;
  // Every argument must be a map, an untyped NULL included (Spark has no implicit cast here).
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i]->id() != TypeId::kMap) {
      std::string shown;
      for (size_t k = 0; k < types.size(); ++k) shown += (k ? ", \"" : "\"") + types[k]->sql() + "\"";
      throw_type_mismatch("MAP_CONCAT_DIFF_TYPES",
                          "The `map_concat` should all be of type map, but it's [" + shown + "].",
                          call_sql("map_concat", types));
    }
    all.push_back(i);
  }
  Signature s;
  TypePtr t = types.empty() ? DataType::map(DataType::string(), DataType::string(), true)
                            : collection_common_type("map_concat", types, all, conf);
  s.arg_types.assign(types.size(), t);
  s.result_type = t;
  return s;
}

ColumnPtr map_concat_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  std::vector<ColumnPtr> keys, values;
  std::vector<int32_t> shift;
  int32_t total = 0;
  for (auto& m : a) {
    keys.push_back(m->child(0)->child(0));
    values.push_back(m->child(0)->child(1));
    shift.push_back(total);
    total += static_cast<int32_t>(m->child(0)->length());
  }
  std::vector<int32_t> picks, offsets = {0};
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (auto& m : a) null |= m->is_null(i);
    if (null) {
      valid[static_cast<size_t>(i)] = 0;
    } else {
      for (size_t k = 0; k < a.size(); ++k) {
        const int32_t* o = a[k]->offsets();
        for (int32_t p = o[i]; p < o[i + 1]; ++p) picks.push_back(shift[k] + p);
      }
    }
    offsets.push_back(static_cast<int32_t>(picks.size()));
  }
  int64_t m = static_cast<int64_t>(picks.size());
  if (a.empty()) return build_map(sig.result_type, n, offsets, ColumnBuilder(sig.result_type->key_type()).finish(),
                                  ColumnBuilder(sig.result_type->value_type()).finish(), nullptr, ctx);
  ColumnPtr k = gather(*concat(keys), picks.data(), m);
  ColumnPtr v = gather(*concat(values), picks.data(), m);
  return build_map(sig.result_type, n, offsets, k, v, validity_from(valid), ctx);
}

/// str_to_map(text, pairDelim = ',', keyValueDelim = ':'): both delimiters are regular
/// expressions; each pair splits at its first key-value delimiter (a pair without one maps to
/// null); duplicate keys follow spark.sql.mapKeyDedupPolicy.
ColumnPtr str_to_map_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  JavaRegex regex("str_to_map");
  ColumnBuilder keys(DataType::string()), values(DataType::string());
  std::vector<int32_t> offsets(static_cast<size_t>(n) + 1, 0);
  std::vector<uint8_t> valid(static_cast<size_t>(n), 0);
  int32_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (const auto& c : a) null = null || c->is_null(i);
    if (!null) {
      valid[static_cast<size_t>(i)] = 1;
      const std::string_view pair_delim = a.size() > 1 ? a[1]->string_at(i) : ",";
      const std::string_view kv_delim = a.size() > 2 ? a[2]->string_at(i) : ":";
      // The pieces point into the row's text, which outlives this iteration.
      for (std::string_view pair : regex.split(pair_delim, a[0]->string_at(i), -1)) {
        std::vector<std::string_view> kv;
        {
          auto parts = regex.split(kv_delim, pair, 2);
          kv.assign(parts.begin(), parts.end());
        }
        keys.append_bytes(kv[0]);
        if (kv.size() > 1) values.append_bytes(kv[1]);
        else values.append_null();
        ++count;
      }
    }
    offsets[static_cast<size_t>(i) + 1] = count;
  }
  BufferPtr validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  for (int64_t i = 0; i < n; ++i)
    if (valid[static_cast<size_t>(i)]) set_bit(validity->mutable_data(), i);
  return build_map(sig.result_type, n, offsets, keys.finish(), values.finish(), validity, ctx);
}

}  // namespace

void register_map_functions(Registry& r) {
  {
    FunctionDef d = scalar(
        "str_to_map", 1, 3,
        [](const std::vector<TypePtr>& t, const Config&) {
          return coerce_args("str_to_map", t, "S", DataType::map(DataType::string(), DataType::string(), true));
        },
        str_to_map_kernel);
    d.may_throw = true;
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : ",") + ", " + (args.size() > 2 ? args[2] : ":") +
             ")";
    };
    r.add(std::move(d));
  }
  struct PartFn {
    const char* name;
    Part part;
  };
  for (PartFn f : {PartFn{"map_keys", Part::kKeys}, PartFn{"map_values", Part::kValues},
                   PartFn{"map_entries", Part::kEntries}}) {
    std::string name = f.name;
    Part part = f.part;
    r.add(scalar_args(
        name, 1, 1, [name, part](const Infos& a, const Config&) { return part_rule(name, part, a); },
        [part](const Args& a, int64_t, const Signature& sig, const EvalContext&) { return part_kernel(part, a, sig); }));
  }
  r.add(scalar_args("map_contains_key", 2, 2, contains_key_rule, contains_key_kernel));
  {
    FunctionDef d = scalar_args("map_concat", 0, -1, map_concat_rule, map_concat_kernel);
    d.may_throw = true;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
