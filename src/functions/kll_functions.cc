// Spark's KLL quantile sketch functions over DataSketches' serialized sketches (sketch_kll.h),
// one family per item type (_bigint, _float, _double): the aggregates kll_sketch_agg_* (build
// from values) and kll_merge_agg_* (merge sketches), the scalars kll_sketch_merge_* and
// kll_sketch_to_string_*, and the readers kll_sketch_get_n_*, kll_sketch_get_quantile_*,
// kll_sketch_get_rank_*.

#include <memory>
#include <string>

#include "common/error.h"
#include "functions/aggregate_state.h"
#include "functions/collection_util.h"
#include "functions/sketch_kll.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using kll::KllSketch;

[[noreturn]] void invalid_kll_buffer(const std::string& fn) {
  throw SparkError(
      ErrorKind::kRuntime, "KLL_INVALID_INPUT_SKETCH_BUFFER",
      "Invalid call to `" + fn +
          "`; only valid KLL sketch buffers are supported as inputs (such as those produced by the "
          "`kll_sketch_agg` function).",
      {{"function", "`" + fn + "`"}}, "22000");
}

[[noreturn]] void invalid_kll_rank(const std::string& fn) {
  throw SparkError(
      ErrorKind::kArithmetic, "KLL_SKETCH_INVALID_QUANTILE_RANGE",
      "For function `" + fn + "`, the quantile value must be between 0.0 and 1.0 (inclusive).",
      {{"functionName", "`" + fn + "`"}});
}

/// The KLL item type of a function family: its suffix, C++ item type and Spark type.
template <typename T>
struct KllItem;
template <>
struct KllItem<int64_t> {
  static constexpr const char* kSuffix = "bigint";
  static TypePtr type() { return DataType::long_(); }
};
template <>
struct KllItem<float> {
  static constexpr const char* kSuffix = "float";
  static TypePtr type() { return DataType::float_(); }
};
template <>
struct KllItem<double> {
  static constexpr const char* kSuffix = "double";
  static TypePtr type() { return DataType::double_(); }
};

template <typename T>
std::string kll_name(const char* stem) {
  return std::string(stem) + KllItem<T>::kSuffix;
}

template <typename T>
KllSketch<T> read_kll(const std::string& fn, std::string_view bytes) {
  auto s = KllSketch<T>::deserialize(bytes);
  if (!s) invalid_kll_buffer(fn);
  return std::move(*s);
}

std::vector<TypePtr> arg_types(const std::vector<ArgInfo>& a) {
  std::vector<TypePtr> t;
  for (auto& x : a) t.push_back(x.type);
  return t;
}


[[noreturn]] void wrong_type(const std::string& fn, const std::vector<ArgInfo>& a, size_t i,
                             const std::string& want) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal_word(i) + " parameter requires the " + want +
                          " type, however \"" + a[i].type->sql() + "\" has the type \"" +
                          a[i].type->sql() + "\".",
                      call_sql(fn, arg_types(a)));
}

/// Scalars take sketches as BINARY, or as strings cast to it.
void require_kll_binary(const std::string& fn, const std::vector<ArgInfo>& a, size_t i) {
  const TypeId id = a[i].type->id();
  if (id != TypeId::kBinary && id != TypeId::kString && id != TypeId::kNull)
    wrong_type(fn, a, i, "\"BINARY\"");
}

/// The optional k argument of the aggregates: a constant, non-null INT in [kMinK, kMaxK],
/// checked when the query is analyzed; kDefaultK when absent.
int kll_k_argument(const std::string& fn, const std::vector<ArgInfo>& a) {
  if (a.size() < 2) return kll::kDefaultK;
  const ArgInfo& k = a[1];
  if (k.type->id() != TypeId::kInt && k.type->id() != TypeId::kNull)
    wrong_type(fn, a, 1, "\"INT\"");
  const std::string shown = call_sql(fn, arg_types(a));
  if (!k.literal)
    throw_type_mismatch(
        "NON_FOLDABLE_INPUT",
        "the input k should be a foldable int expression; however, got " + k.type->sql() + ".",
        shown);
  if (k.literal->is_null())
    throw_type_mismatch("UNEXPECTED_NULL", "The k must not be null.", shown);
  const int64_t v = k.literal->as_int();
  if (v < kll::kMinK || v > kll::kMaxK)
    throw_type_mismatch("TYPE_CHECK_FAILURE_WITH_HINT",
                        "[KLL_SKETCH_K_OUT_OF_RANGE] For function `" + fn +
                            "`, the k parameter must be between " + std::to_string(kll::kMinK) +
                            " and " + std::to_string(kll::kMaxK) + " (inclusive), but got " +
                            std::to_string(v) + ". SQLSTATE: 22003.",
                        shown);
  return static_cast<int>(v);
}

// ---------------------------------------------------------------------------------------------
// Aggregates.

/// kll_sketch_agg_* (values into a sketch of parameter k) and kll_merge_agg_* (sketches merged
/// into one of parameter k, or, without k, of the first sketch's). A group's sketch is created
/// on its first input; a group without one (empty or all-null input) gives the empty sketch.
template <typename T>
class KllAggregate final : public HeapStateAggregate<KllSketch<T>> {
 public:
  /// `k` is 0 for kll_merge_agg_* called without one.
  KllAggregate(bool merge_sketches, int k, std::string fn)
      : merge_(merge_sketches), k_(k), fn_(std::move(fn)) {}

  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      HeapState<KllSketch<T>>& s = state(states[i]);
      if (!merge_) {
        s.get_or_create(k_).update(c.values<T>()[i]);
        continue;
      }
      KllSketch<T> input = read_kll<T>(fn_, c.string_at(i));
      s.get_or_create(k_ ? k_ : input.k()).merge(input);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const KllSketch<T>* s = state(src).get();
    if (!s) return;
    HeapState<KllSketch<T>>& d = state(dst);
    if (!d)
      d.assign(*s);
    else
      d->merge(*s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const KllSketch<T>* s = state(states[i]).get();
      out.append_bytes(s ? s->serialize() : KllSketch<T>(k_ ? k_ : kll::kDefaultK).serialize());
    }
  }

 private:
  using HeapStateAggregate<KllSketch<T>>::state;
  bool merge_;
  int k_;
  std::string fn_;
};

/// The value types kll_sketch_agg_* takes, and the item type they are cast to.
template <typename T>
bool kll_value_ok(TypeId id);
template <>
bool kll_value_ok<int64_t>(TypeId id) {
  return id == TypeId::kByte || id == TypeId::kShort || id == TypeId::kInt || id == TypeId::kLong;
}
template <>
bool kll_value_ok<float>(TypeId id) {
  return id == TypeId::kFloat;
}
template <>
bool kll_value_ok<double>(TypeId id) {
  return id == TypeId::kFloat || id == TypeId::kDouble;
}

template <typename T>
const char* kll_value_types() {
  if constexpr (std::is_same_v<T, int64_t>)
    return "(\"TINYINT\" or \"INT\" or \"BIGINT\" or \"SMALLINT\")";
  else if constexpr (std::is_same_v<T, float>)
    return "\"FLOAT\"";
  else
    return "(\"FLOAT\" or \"DOUBLE\")";
}

template <typename T>
FunctionDef kll_aggregate(bool merge_sketches) {
  const std::string fn = kll_name<T>(merge_sketches ? "kll_merge_agg_" : "kll_sketch_agg_");
  FunctionDef d;
  d.name = fn;
  d.kind = FunctionKind::kAggregate;
  d.min_args = 1;
  d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [fn, merge_sketches](const std::vector<ArgInfo>& a, const Config&) {
    const TypeId id = a[0].type->id();
    if (merge_sketches) {
      if (id != TypeId::kBinary && id != TypeId::kNull) wrong_type(fn, a, 0, "\"BINARY\"");
    } else if (!kll_value_ok<T>(id) && id != TypeId::kNull) {
      wrong_type(fn, a, 0, kll_value_types<T>());
    }
    const int k = kll_k_argument(fn, a);
    Signature s;
    s.arg_types = {merge_sketches ? DataType::binary() : KllItem<T>::type()};
    if (a.size() > 1) s.arg_types.push_back(DataType::int_());
    s.parameters = {static_cast<double>(merge_sketches && a.size() < 2 ? 0 : k)};
    s.result_type = DataType::binary();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [fn, merge_sketches](const Signature& sig, const EvalContext&) {
    return std::make_unique<KllAggregate<T>>(merge_sketches, static_cast<int>(sig.parameters[0]),
                                             fn);
  };
  d.may_throw = merge_sketches;
  d.usage = merge_sketches ? fn + "(sketch[, k]) - Merges KLL sketches into one with parameter k "
                                  "(by default the first "
                                  "sketch's)."
                           : fn + "(expr[, k]) - Returns a KLL quantile sketch of the values, with "
                                  "parameter k (default 200, "
                                  "8 to 65535).";
  return d;
}

// ---------------------------------------------------------------------------------------------
// Scalars.

template <typename T>
FunctionDef kll_merge() {
  const std::string fn = kll_name<T>("kll_sketch_merge_");
  FunctionDef d;
  d.name = fn;
  d.min_args = d.max_args = 2;
  d.arg_type_rule = [fn](const std::vector<ArgInfo>& a, const Config&) {
    require_kll_binary(fn, a, 0);
    require_kll_binary(fn, a, 1);
    Signature s;
    s.arg_types = {DataType::binary(), DataType::binary()};
    s.result_type = DataType::binary();
    return s;
  };
  d.kernel = [fn](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig,
                  const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      KllSketch<T> left = read_kll<T>(fn, a[0]->string_at(i));
      left.merge(read_kll<T>(fn, a[1]->string_at(i)));
      b.append_bytes(left.serialize());
    });
  };
  d.may_throw = true;
  d.usage = fn + "(left, right) - Merges two KLL sketches; the result keeps the left one's k.";
  return d;
}

/// A function of one KLL sketch: `append(sketch, builder)` writes its value of type `result`.
template <typename T, typename Append>
FunctionDef kll_reader(const char* prefix, TypePtr result, const std::string& what, Append append) {
  const std::string fn = kll_name<T>(prefix);
  FunctionDef d;
  d.name = fn;
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [fn, result](const std::vector<ArgInfo>& a, const Config&) {
    require_kll_binary(fn, a, 0);
    Signature s;
    s.arg_types = {DataType::binary()};
    s.result_type = result;
    return s;
  };
  d.kernel = [fn, append](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig,
                          const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      append(read_kll<T>(fn, a[0]->string_at(i)), b);
    });
  };
  d.may_throw = true;
  d.usage = fn + "(sketch) - " + what;
  return d;
}

template <typename T>
FunctionDef kll_to_string() {
  return kll_reader<T>("kll_sketch_to_string_", DataType::string(),
                       "Returns a summary of a KLL sketch: its parameters, size, error bounds and "
                       "extremes.",
                       [](const KllSketch<T>& k, ColumnBuilder& b) { b.append_bytes(k.summary()); });
}

template <typename T>
FunctionDef kll_get_n() {
  return kll_reader<T>("kll_sketch_get_n_", DataType::long_(),
                       "Returns the number of items collected in a KLL sketch.",
                       [](const KllSketch<T>& k, ColumnBuilder& b) { b.append<int64_t>(k.n()); });
}

/// kll_sketch_get_quantile_*(sketch, rank): the item at a normalized rank (or an array of
/// ranks) in [0, 1]; the ranks must be constant.
template <typename T>
FunctionDef kll_get_quantile() {
  const std::string fn = kll_name<T>("kll_sketch_get_quantile_");
  FunctionDef d;
  d.name = fn;
  d.min_args = d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [fn](const std::vector<ArgInfo>& a, const Config&) {
    require_kll_binary(fn, a, 0);
    const TypePtr& r = a[1].type;
    const bool array = r->id() == TypeId::kArray;
    bool ok = array ? r->element_type()->is_numeric() || r->element_type()->id() == TypeId::kNull
                    : r->is_numeric() || r->id() == TypeId::kString || r->id() == TypeId::kNull;
    if (!ok) wrong_type(fn, a, 1, "(\"DOUBLE\" or \"ARRAY<DOUBLE>\")");
    if (!a[1].literal)
      throw_type_mismatch(
          "NON_FOLDABLE_INPUT",
          "the input `rank` should be a foldable \"DOUBLE\" expression; however, got \"" +
              r->sql() + "\".",
          call_sql(fn, arg_types(a)));
    Signature s;
    s.arg_types = {DataType::binary(),
                   array ? DataType::array(DataType::double_()) : DataType::double_()};
    s.result_type = array ? DataType::array(KllItem<T>::type(), false) : KllItem<T>::type();
    return s;
  };
  d.kernel = [fn](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig,
                  const EvalContext&) {
    const bool array = sig.result_type->id() == TypeId::kArray;
    auto check = [&](double r) {
      if (!(r >= 0.0 && r <= 1.0)) invalid_kll_rank(fn);
      return r;
    };
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      KllSketch<T> s = read_kll<T>(fn, a[0]->string_at(i));
      if (s.empty()) invalid_kll_buffer(fn);
      if (!array) {
        b.append<T>(s.quantile(check(a[1]->values<double>()[i])));
        return;
      }
      const Column& ranks = *a[1];
      const Column& elems = *ranks.child(0);
      for (int32_t k = ranks.offsets()[i]; k < ranks.offsets()[i + 1]; ++k) {
        if (elems.is_null(k)) {
          b.child(0).append_null();
          continue;
        }
        b.child(0).append<T>(s.quantile(check(elems.values<double>()[k])));
      }
      b.close_list();
    });
  };
  d.may_throw = true;
  d.usage =
      fn +
      "(sketch, rank) - Returns the item at a normalized rank (or array of ranks) of a KLL sketch.";
  return d;
}

/// kll_sketch_get_rank_*(sketch, item): the normalized rank of an item (or an array of items).
template <typename T>
FunctionDef kll_get_rank() {
  const std::string fn = kll_name<T>("kll_sketch_get_rank_");
  FunctionDef d;
  d.name = fn;
  d.min_args = d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [fn](const std::vector<ArgInfo>& a, const Config&) {
    require_kll_binary(fn, a, 0);
    const TypePtr& v = a[1].type;
    const TypePtr item = KllItem<T>::type();
    const bool array = v->id() == TypeId::kArray;
    bool ok =
        array ? v->element_type()->id() == item->id() || v->element_type()->id() == TypeId::kNull
              : v->is_numeric() || v->id() == TypeId::kString || v->id() == TypeId::kNull;
    if (!ok) wrong_type(fn, a, 1, "(\"" + item->sql() + "\" or \"ARRAY<" + item->sql() + ">\")");
    if (!a[1].literal)
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          "the input `quantile` should be a foldable \"" + item->sql() +
                              "\" expression; however, got \"" + v->sql() + "\".",
                          call_sql(fn, arg_types(a)));
    Signature s;
    s.arg_types = {DataType::binary(), array ? DataType::array(item) : item};
    s.result_type = array ? DataType::array(DataType::double_(), false) : DataType::double_();
    return s;
  };
  d.kernel = [fn](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig,
                  const EvalContext&) {
    const bool array = sig.result_type->id() == TypeId::kArray;
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      KllSketch<T> s = read_kll<T>(fn, a[0]->string_at(i));
      if (s.empty()) invalid_kll_buffer(fn);
      if (!array) {
        b.append<double>(s.rank(a[1]->values<T>()[i]));
        return;
      }
      const Column& items = *a[1];
      const Column& elems = *items.child(0);
      for (int32_t k = items.offsets()[i]; k < items.offsets()[i + 1]; ++k) {
        if (elems.is_null(k)) {
          b.child(0).append_null();
          continue;
        }
        b.child(0).append<double>(s.rank(elems.values<T>()[k]));
      }
      b.close_list();
    });
  };
  d.may_throw = true;
  d.usage = fn +
            "(sketch, item) - Returns the normalized rank of an item (or array of items) in a KLL "
            "sketch.";
  return d;
}

template <typename T>
void register_kll(Registry& r) {
  r.add(kll_aggregate<T>(false));
  r.add(kll_aggregate<T>(true));
  r.add(kll_merge<T>());
  r.add(kll_to_string<T>());
  r.add(kll_get_n<T>());
  r.add(kll_get_quantile<T>());
  r.add(kll_get_rank<T>());
}

}  // namespace

void register_kll_functions(Registry& r) {
  register_kll<int64_t>(r);
  register_kll<float>(r);
  register_kll<double>(r);
}

}  // namespace ember::functions
