// Higher-order map functions: map_filter, transform_keys, transform_values and map_zip_with.
// Each evaluates its lambda once per batch over the flattened entries of all rows.

#include <functional>

#include "common/error.h"
#include "functions/collection_util.h"
#include "functions/lambda.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;
using Lambdas = std::vector<const LambdaFunction*>;

void require_map(const std::string& fn, const Infos& a, size_t i) {
  if (!a[i].type || a[i].type->id() != TypeId::kMap) throw_lambda_input_type(fn, a, i, "MAP");
}

/// The (key, value) parameters of map_filter, transform_keys and transform_values.
LambdaBinder entry_binder(const std::string& fn) {
  return [fn](const Infos& a, size_t, size_t) {
    require_map(fn, a, 0);
    const TypePtr& t = a[0].type;
    return std::vector<LambdaParam>{{t->key_type(), false}, {t->value_type(), t->value_contains_null()}};
  };
}

/// The entries struct column of a map type from key and value columns.
ColumnPtr entries_of(const TypePtr& map_type, ColumnPtr keys, ColumnPtr values) {
  const auto& f = map_type->fields();
  TypePtr entry = DataType::struct_({{"key", f[0].type, false, "{}"}, {"value", f[1].type, f[1].nullable, "{}"}});
  int64_t m = keys->length();
  return Column::make(entry, m, nullptr, nullptr, nullptr, {with_type(keys, f[0].type), with_type(values, f[1].type)});
}

/// The flattened entries of a map column and the (key, value) parameter columns over them.
struct MapBindings {
  FlatElements flat;
  std::vector<ColumnPtr> params;
};
MapBindings bind_entries(const Column& map, int64_t n) {
  MapBindings b{flatten_elements(map, n), {}};
  const ColumnPtr& entries = map.child(0);
  b.params = {elements_at(entries->child(0), b.flat), elements_at(entries->child(1), b.flat)};
  return b;
}

ColumnPtr map_filter_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& map = *a[0];
  MapBindings b = bind_entries(map, n);
  ColumnPtr keep = l[0]->call(b.params, b.flat.rows);
  std::vector<int32_t> picks, offsets(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int32_t k = b.flat.offsets[static_cast<size_t>(i)]; k < b.flat.offsets[static_cast<size_t>(i) + 1]; ++k)
      if (keep->is_valid(k) && keep->bool_at(k)) picks.push_back(b.flat.positions[static_cast<size_t>(k)]);
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(picks.size());
  }
  ColumnPtr entries = gather(*map.child(0), picks.data(), static_cast<int64_t>(picks.size()));
  return make_list(sig.result_type, n, offsets, entries, map.validity_buffer());
}

/// New keys from the lambda; null keys and duplicates follow map construction's rules
/// (NULL_MAP_KEY, DUPLICATED_MAP_KEY unless spark.sql.mapKeyDedupPolicy is LAST_WIN).
ColumnPtr transform_keys_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig,
                                const EvalContext& ctx) {
  const Column& map = *a[0];
  MapBindings b = bind_entries(map, n);
  ColumnPtr keys = l[0]->call(b.params, b.flat.rows);
  return build_map(sig.result_type, n, b.flat.offsets, with_type(keys, sig.result_type->key_type()), b.params[1],
                   map.validity_buffer(), ctx);
}

ColumnPtr transform_values_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig,
                                  const EvalContext&) {
  const Column& map = *a[0];
  MapBindings b = bind_entries(map, n);
  ColumnPtr values = l[0]->call(b.params, b.flat.rows);
  return make_list(sig.result_type, n, b.flat.offsets, entries_of(sig.result_type, b.params[0], values),
                   map.validity_buffer());
}

/// Merges two maps by key: the left map's keys in order, then the right map's keys the left
/// lacks; a value missing on one side is null. A null map makes the row null.
ColumnPtr map_zip_with_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& left = *a[0];
  const Column& right = *a[1];
  const ColumnPtr& lkeys = left.child(0)->child(0);
  const ColumnPtr& rkeys = right.child(0)->child(0);
  ValueCompare same = value_comparator(lkeys, rkeys);
  const int32_t* lo = left.offsets();
  const int32_t* ro = right.offsets();
  std::vector<int32_t> rows, lpick, rpick, offsets(static_cast<size_t>(n) + 1, 0);
  // Keys come from the left map where it has them, else from the right: both are gathered and
  // one of the two chosen per binding.
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1), from_left;
  for (int64_t i = 0; i < n; ++i) {
    if (left.is_null(i) || right.is_null(i)) {
      valid[static_cast<size_t>(i)] = 0;
    } else {
      std::vector<uint8_t> right_used(static_cast<size_t>(ro[i + 1] - ro[i]), 0);
      for (int32_t p = lo[i]; p < lo[i + 1]; ++p) {
        int32_t match = -1;
        for (int32_t q = ro[i]; q < ro[i + 1] && match < 0; ++q)
          if (same(p, q) == 0) match = q;
        if (match >= 0) right_used[static_cast<size_t>(match - ro[i])] = 1;
        rows.push_back(static_cast<int32_t>(i));
        lpick.push_back(p);
        rpick.push_back(match);
        from_left.push_back(1);
      }
      for (int32_t q = ro[i]; q < ro[i + 1]; ++q) {
        if (right_used[static_cast<size_t>(q - ro[i])]) continue;
        rows.push_back(static_cast<int32_t>(i));
        lpick.push_back(-1);
        rpick.push_back(q);
        from_left.push_back(0);
      }
    }
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(rows.size());
  }
  int64_t m = static_cast<int64_t>(rows.size());
  ColumnPtr both_keys = concat({lkeys, with_type(rkeys, lkeys->type())});
  std::vector<int32_t> key_pick(static_cast<size_t>(m));
  for (size_t k = 0; k < key_pick.size(); ++k)
    key_pick[k] = from_left[k] ? lpick[k] : static_cast<int32_t>(lkeys->length()) + rpick[k];
  ColumnPtr keys = gather(*both_keys, key_pick.data(), m);
  ColumnPtr v1 = gather(*left.child(0)->child(1), lpick.data(), m);
  ColumnPtr v2 = gather(*right.child(0)->child(1), rpick.data(), m);
  ColumnPtr values = l[0]->call({keys, v1, v2}, rows);
  return make_list(sig.result_type, n, offsets, entries_of(sig.result_type, keys, values), validity_from(valid));
}

/// map_zip_with's key type: the two maps' keys widened to a common type.
TypePtr zip_key_type(const Infos& a, const Config& conf) {
  require_map("map_zip_with", a, 0);
  require_map("map_zip_with", a, 1);
  const TypePtr& k1 = a[0].type->key_type();
  const TypePtr& k2 = a[1].type->key_type();
  TypePtr k = k1->same_type(*k2) ? k1 : wider_type(k1, k2, conf.ansi_enabled());
  if (!k)
    throw_type_mismatch("MAP_ZIP_WITH_DIFF_TYPES",
                        "Input to the `map_zip_with` should have been two maps with compatible key types, but it's [\"" +
                            k1->sql() + "\", \"" + k2->sql() + "\"].",
                        "map_zip_with(" + a[0].type->sql() + ", " + a[1].type->sql() + ", lambdafunction)");
  return k;
}

}  // namespace

void register_higher_order_maps(Registry& r) {
  r.add(higher_order(
      "map_filter", 1, 2, 2, entry_binder("map_filter"),
      [](const Infos& a, const Config&) {
        require_map("map_filter", a, 0);
        Signature s = higher_order_signature(a, a[0].type, {0});
        TypeId id = a[1].type->id();
        if (id != TypeId::kBoolean && id != TypeId::kNull) throw_lambda_input_type("map_filter", a, 1, "BOOLEAN");
        s.arg_types[1] = DataType::boolean();
        return s;
      },
      map_filter_kernel, "map_filter(expr, func) - Filters entries in a map using the function."));
  {
    FunctionDef d = higher_order(
        "transform_keys", 1, 2, 2, entry_binder("transform_keys"),
        [](const Infos& a, const Config&) {
          require_map("transform_keys", a, 0);
          const TypePtr& t = a[0].type;
          // A map cannot be (or contain) a map key.
          std::function<bool(const TypePtr&)> has_map = [&](const TypePtr& x) {
            if (x->id() == TypeId::kMap) return true;
            for (auto& f : x->fields())
              if (has_map(f.type)) return true;
            return false;
          };
          if (has_map(a[1].type))
            throw_type_mismatch("INVALID_MAP_KEY_TYPE",
                                "The key of map cannot be/contain \"" + a[1].type->sql() + "\".",
                                "transform_keys(" + t->sql() + ", lambdafunction)");
          return higher_order_signature(a, DataType::map(a[1].type, t->value_type(), t->value_contains_null()), {0});
        },
        transform_keys_kernel,
        "transform_keys(expr, func) - Transforms elements in a map using the function.");
    d.may_throw = true;
    r.add(std::move(d));
  }
  r.add(higher_order(
      "transform_values", 1, 2, 2, entry_binder("transform_values"),
      [](const Infos& a, const Config&) {
        require_map("transform_values", a, 0);
        return higher_order_signature(a, DataType::map(a[0].type->key_type(), a[1].type, a[1].nullable), {0});
      },
      transform_values_kernel, "transform_values(expr, func) - Transforms values in the map using the function."));
  r.add(higher_order(
      "map_zip_with", 2, 3, 3,
      [](const Infos& a, size_t, size_t) {
        // Parameters: the key, then each map's value (null where that map lacks the key).
        TypePtr k = zip_key_type(a, Config());
        return std::vector<LambdaParam>{{k, false}, {a[0].type->value_type(), true}, {a[1].type->value_type(), true}};
      },
      [](const Infos& a, const Config& conf) {
        TypePtr k = zip_key_type(a, conf);
        Signature s = higher_order_signature(a, DataType::map(k, a[2].type, a[2].nullable), {0, 1});
        for (size_t i = 0; i < 2; ++i)
          s.arg_types[i] = DataType::map(k, a[i].type->value_type(), a[i].type->value_contains_null());
        return s;
      },
      map_zip_with_kernel,
      "map_zip_with(map1, map2, function) - Merges two given maps into a single map by applying function to the "
      "pair of values with the same key."));
}

}  // namespace ember::functions
