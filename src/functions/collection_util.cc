#include "functions/collection_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "column/value.h"
#include "common/error.h"
#include "functions/cast.h"

namespace ember::functions {

namespace {
/// The NaN Java's floatToIntBits / doubleToLongBits map every NaN to.
template <typename T>
const T kNaN = std::numeric_limits<T>::quiet_NaN();
}  // namespace

ColumnPtr make_list(const TypePtr& type, int64_t n, const std::vector<int32_t>& offsets, ColumnPtr elements,
                    BufferPtr validity) {
  auto off = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int32_t));
  std::copy(offsets.begin(), offsets.begin() + n + 1, off->mutable_as<int32_t>());
  return Column::make(type, n, std::move(validity), nullptr, off, {std::move(elements)});
}

ColumnPtr gather_list(const TypePtr& type, const Column& array, const std::vector<int32_t>& offsets,
                      const std::vector<int32_t>& picks, BufferPtr validity) {
  ColumnPtr elements = gather(*array.child(0), picks.data(), static_cast<int64_t>(picks.size()));
  if (!elements->type()->equals(*type->element_type()) && type->id() == TypeId::kArray) {
    // The result may declare containsNull where the input did not (a -1 pick); the values stand.
    elements = Column::make(type->element_type(), elements->length(), elements->validity_buffer(),
                            elements->data_buffer(), elements->offsets_buffer(), elements->children());
  }
  return make_list(type, static_cast<int64_t>(offsets.size()) - 1, offsets, std::move(elements), std::move(validity));
}

BufferPtr validity_from(const std::vector<uint8_t>& valid) {
  int64_t n = static_cast<int64_t>(valid.size());
  if (std::all_of(valid.begin(), valid.end(), [](uint8_t v) { return v != 0; })) return nullptr;
  auto bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  for (int64_t i = 0; i < n; ++i)
    if (valid[static_cast<size_t>(i)]) set_bit(bits->mutable_data(), i);
  return bits;
}

namespace {
template <typename T>
ColumnPtr normalize_fixed(const ColumnPtr& c) {
  const T* v = c->values<T>();
  const int64_t n = c->length();
  auto changes = [](T x) { return (x == T(0) && std::signbit(x)) || (std::isnan(x) && std::memcmp(&x, &kNaN<T>, sizeof(T)) != 0); };
  int64_t first = 0;
  while (first < n && !changes(v[first])) ++first;
  if (first == n) return c;
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(T));
  T* out = data->mutable_as<T>();
  std::memcpy(out, v, static_cast<size_t>(n) * sizeof(T));
  for (int64_t i = first; i < n; ++i) {
    if (out[i] == T(0)) out[i] = T(0);
    else if (std::isnan(out[i])) out[i] = kNaN<T>;
  }
  return Column::make(c->type(), n, c->validity_buffer(), data, nullptr, {}, -1);
}
}  // namespace

ColumnPtr normalize_floats(const ColumnPtr& c) {
  switch (c->type()->id()) {
    case TypeId::kFloat: return c->length() ? normalize_fixed<float>(c) : c;
    case TypeId::kDouble: return c->length() ? normalize_fixed<double>(c) : c;
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kStruct: {
      std::vector<ColumnPtr> children;
      bool changed = false;
      for (const ColumnPtr& child : c->children()) {
        children.push_back(normalize_floats(child));
        changed |= children.back() != child;
      }
      if (!changed) return c;
      return Column::make(c->type(), c->length(), c->validity_buffer(), c->data_buffer(), c->offsets_buffer(),
                          std::move(children));
    }
    default: return c;
  }
}

/// Positions [begin, end) of `elems` without repeats: the first occurrence of each value (one
/// null at most), in their original order.
std::vector<int32_t> distinct_positions(const Column& elems, const ValueCompare& cmp, int32_t begin, int32_t end) {
  std::vector<int32_t> order(static_cast<size_t>(end - begin));
  std::iota(order.begin(), order.end(), begin);
  auto less = [&](int32_t x, int32_t y) {
    bool xn = elems.is_null(x), yn = elems.is_null(y);
    if (xn || yn) return xn && !yn;
    return cmp(x, y) < 0;
  };
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<int32_t> keep;
  for (size_t k = 0; k < order.size(); ++k)
    if (k == 0 || less(order[k - 1], order[k])) keep.push_back(order[k]);
  std::sort(keep.begin(), keep.end());
  return keep;
}

namespace {
/// Wider type of two types through nested types; nullptr when none.
TypePtr wider_nested(const TypePtr& a, const TypePtr& b, const Config& conf) {
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (a->id() != b->id() || !a->is_nested()) {
    std::vector<TypePtr> two = {a, b};
    if (a->is_nested() || b->is_nested()) return nullptr;
    TypePtr w = wider_type(a, b, conf.ansi_enabled());
    if (!w && (a->id() == TypeId::kString || b->id() == TypeId::kString)) w = DataType::string();
    return w;
  }
  switch (a->id()) {
    case TypeId::kArray: {
      TypePtr e = wider_nested(a->element_type(), b->element_type(), conf);
      return e ? DataType::array(e, a->contains_null() || b->contains_null()) : nullptr;
    }
    case TypeId::kMap: {
      TypePtr k = wider_nested(a->key_type(), b->key_type(), conf);
      TypePtr v = wider_nested(a->value_type(), b->value_type(), conf);
      return k && v ? DataType::map(k, v, a->value_contains_null() || b->value_contains_null()) : nullptr;
    }
    default: {
      const auto& fa = a->fields();
      const auto& fb = b->fields();
      if (fa.size() != fb.size()) return nullptr;
      std::vector<StructField> out;
      for (size_t i = 0; i < fa.size(); ++i) {
        if (conf.case_sensitive() ? fa[i].name != fb[i].name : !std::equal(fa[i].name.begin(), fa[i].name.end(), fb[i].name.begin(), fb[i].name.end(), [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); }))
          return nullptr;
        TypePtr t = wider_nested(fa[i].type, fb[i].type, conf);
        if (!t) return nullptr;
        out.push_back({fa[i].name, t, fa[i].nullable || fb[i].nullable, fa[i].metadata_json});
      }
      return DataType::struct_(std::move(out));
    }
  }
}
}  // namespace

TypePtr collection_common_type(const std::string& fn, const std::vector<TypePtr>& args,
                               const std::vector<size_t>& which, const Config& conf) {
  TypePtr t = DataType::null();
  for (size_t k : which) {
    TypePtr w = wider_nested(t, args[k], conf);
    if (!w) {
      std::string listed;
      for (size_t i = 0; i < which.size(); ++i) listed += (i ? " or " : "") + ("\"" + args[which[i]]->sql() + "\"");
      throw_type_mismatch("DATA_DIFF_TYPES",
                          "Input to `" + fn + "` should all be the same type, but it's (" + listed + ").",
                          call_sql(fn, args));
    }
    t = w;
  }
  return t;
}

std::string ordinal_word(size_t index) {
  // Spark's ordinals: first, second, third, then 4th, 5th, ...
  static const char* words[] = {"first", "second", "third"};
  return index < 3 ? words[index] : std::to_string(index + 1) + "th";
}

void throw_unexpected_input(const std::string& fn, const std::vector<TypePtr>& args, size_t index,
                            const std::string& required) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      "The " + ordinal_word(index) + " parameter requires the " + required + " type, however \"" +
                          args[index]->sql() + "\" has the type \"" + args[index]->sql() + "\".",
                      call_sql(fn, args));
}

void throw_invalid_index_of_zero() {
  throw SparkError(ErrorKind::kRuntime, "INVALID_INDEX_OF_ZERO",
                   "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).", {},
                   "22003");
}

void throw_array_index_out_of_bounds(int64_t index, int64_t size, bool element_at) {
  std::string head = "The index " + std::to_string(index) + " is out of bounds. The array has " +
                     std::to_string(size) + " elements. ";
  if (element_at)
    throw SparkError(ErrorKind::kRuntime, "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
                     head + "Use `try_element_at` to tolerate accessing element at invalid index and return NULL "
                            "instead.",
                     {{"indexValue", std::to_string(index)}, {"arraySize", std::to_string(size)}}, "22003");
  throw SparkError(ErrorKind::kRuntime, "INVALID_ARRAY_INDEX",
                   head + "Use the SQL function `get()` to tolerate accessing element at invalid index and return "
                          "NULL instead.",
                   {{"indexValue", std::to_string(index)}, {"arraySize", std::to_string(size)}}, "22003");
}

void throw_null_map_key() {
  throw SparkError(ErrorKind::kRuntime, "NULL_MAP_KEY", "Cannot use null as map key.", {}, "2200E");
}

void throw_duplicated_map_key(const Column& keys, int64_t row) {
  int32_t at = static_cast<int32_t>(row);
  ColumnPtr one = gather(keys, &at, 1);
  ColumnPtr text = cast_column(one, DataType::string(), EvalContext{}, false);
  std::string key(text->string_at(0));
  throw SparkError(ErrorKind::kRuntime, "DUPLICATED_MAP_KEY",
                   "Duplicate map key " + key +
                       " was found, please check the input data.\nIf you want to remove the duplicated keys, you can "
                       "set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the key inserted at last takes "
                       "precedence.",
                   {{"key", key}, {"mapKeyDedupPolicy", "\"spark.sql.mapKeyDedupPolicy\""}}, "23505");
}

ColumnPtr build_map(const TypePtr& type, int64_t n, const std::vector<int32_t>& offsets, const ColumnPtr& keys,
                    const ColumnPtr& values, BufferPtr validity, const EvalContext& ctx) {
  bool last_win = ctx.config && ctx.config->get_or("spark.sql.mapKeyDedupPolicy", "EXCEPTION") == "LAST_WIN";
  ValueCompare eq = value_comparator(keys);
  std::vector<int32_t> key_pick, value_pick, out_offsets(static_cast<size_t>(n) + 1, 0);
  key_pick.reserve(static_cast<size_t>(keys->length()));
  value_pick.reserve(static_cast<size_t>(keys->length()));
  const uint8_t* v = validity ? validity->data() : nullptr;
  // A key column of the NULL type (`map(NULL, 1)`) holds only nulls, whatever its validity says.
  const bool null_keys = keys->type()->id() == TypeId::kNull;
  for (int64_t i = 0; i < n; ++i) {
    size_t row_start = key_pick.size();
    if (!v || get_bit(v, i)) {
      for (int32_t k = offsets[static_cast<size_t>(i)]; k < offsets[static_cast<size_t>(i) + 1]; ++k) {
        if (null_keys || keys->is_null(k)) throw_null_map_key();
        size_t dup = key_pick.size();
        for (size_t j = row_start; j < key_pick.size(); ++j)
          if (eq(key_pick[j], k) == 0) {
            dup = j;
            break;
          }
        if (dup == key_pick.size()) {
          key_pick.push_back(k);
          value_pick.push_back(k);
        } else if (last_win) {
          value_pick[dup] = k;
        } else {
          throw_duplicated_map_key(*keys, k);
        }
      }
    }
    out_offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(key_pick.size());
  }
  int64_t m = static_cast<int64_t>(key_pick.size());
  ColumnPtr k = gather(*keys, key_pick.data(), m);
  ColumnPtr val = gather(*values, value_pick.data(), m);
  const auto& fields = type->fields();
  TypePtr entry = DataType::struct_({{"key", fields[0].type, false, "{}"}, {"value", fields[1].type, fields[1].nullable, "{}"}});
  ColumnPtr entries = Column::make(entry, m, nullptr, nullptr, nullptr, {k, val});
  return make_list(type, n, out_offsets, entries, std::move(validity));
}

}  // namespace ember::functions

namespace ember::functions {
FunctionDef scalar_args(std::string name, int min_args, int max_args, ArgTypeRule rule, ScalarKernel kernel,
                        std::vector<std::string> aliases) {
  FunctionDef d;
  d.name = std::move(name);
  d.aliases = std::move(aliases);
  d.min_args = min_args;
  d.max_args = max_args;
  d.arg_type_rule = std::move(rule);
  d.kernel = std::move(kernel);
  return d;
}

std::vector<TypePtr> types_of(const std::vector<ArgInfo>& args) {
  std::vector<TypePtr> out;
  for (auto& a : args) out.push_back(a.type);
  return out;
}
}  // namespace ember::functions
