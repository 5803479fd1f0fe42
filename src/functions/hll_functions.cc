// Spark's HyperLogLog sketch functions: hll_sketch_agg, hll_union_agg, hll_union and
// hll_sketch_estimate, over DataSketches' serialized HLL images (sketch_hll.h), so sketches move
// freely between Ember and Spark.
//
// Spark builds a sketch per partition and merges the partial sketches through a DataSketches
// Union, starting from an empty sketch; the aggregates here merge their partial states the same
// way, taking each batch of rows as one partition.

#include <cmath>
#include <memory>

#include "functions/aggregate_state.h"
#include "functions/collection_util.h"
#include "functions/sketch_hll.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using namespace sketch;
using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;


[[noreturn]] void throw_invalid_sketch(const std::string& fn) {
  throw SparkError(ErrorKind::kRuntime, "HLL_INVALID_INPUT_SKETCH_BUFFER",
                   "Invalid call to `" + fn +
                       "`; only valid HLL sketch buffers are supported as inputs (such as those produced by the "
                       "`hll_sketch_agg` function).",
                   {{"function", "`" + fn + "`"}}, "22546");
}

[[noreturn]] void throw_different_lg_k(const std::string& fn, int left, int right) {
  throw SparkError(ErrorKind::kRuntime, "HLL_UNION_DIFFERENT_LG_K",
                   "Sketches have different `lgConfigK` values: " + std::to_string(left) + " and " +
                       std::to_string(right) + ". Set the `allowDifferentLgConfigK` parameter to true to call `" + fn +
                       "` with different `lgConfigK` values.",
                   {{"left", std::to_string(left)}, {"right", std::to_string(right)}, {"function", "`" + fn + "`"}},
                   "22000");
}

HllSketch sketch_arg(const std::string& fn, std::string_view bytes) {
  HllSketch s;
  if (!HllSketch::deserialize(bytes, s)) throw_invalid_sketch(fn);
  return s;
}

/// How an argument reads in Spark's messages: its name, or its type for other expressions.
std::string arg_text(const ArgInfo& a) { return a.name.empty() ? a.type->sql() : a.name; }

/// Spark's text of the call, with the defaulted trailing arguments it shows.
std::string shown_call(const std::string& fn, const Infos& a, const std::vector<std::string>& defaults) {
  std::string s = fn + "(";
  for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + arg_text(a[i]);
  for (size_t i = a.size(); i < defaults.size(); ++i)
    if (!defaults[i].empty()) s += ", " + defaults[i];
  return s + ")";
}

[[noreturn]] void throw_wrong_type(const std::string& shown, size_t k, const std::string& required, const ArgInfo& a) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal_word(k) + " parameter requires the " + required + " type, however \"" +
                          arg_text(a) + "\" has the type \"" + a.type->sql() + "\".",
                      shown);
}

bool is_type(const TypePtr& t, TypeId id) { return t->id() == id || t->id() == TypeId::kNull; }

/// Column names show defaulted arguments (`hll_sketch_agg(value, 12)`).
auto render_defaults(size_t first_default, std::vector<std::string> defaults) {
  return [first_default, defaults](const std::string& called, const std::vector<std::string>& args) {
    std::string s = called + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    for (size_t k = std::max(args.size(), first_default); k < first_default + defaults.size(); ++k)
      s += (k ? ", " : "") + defaults[k - first_default];
    return s + ")";
  };
}

/// The allowDifferentLgConfigK flag at row i (NULL reads as false).
bool allow_at(const Args& a, size_t k, int64_t i) {
  if (a.size() <= k || a[k]->length() == 0) return false;
  const int64_t row = a[k]->length() > i ? i : 0;
  return !a[k]->is_null(row) && a[k]->bool_at(row);
}

/// Spark's merge of two partial sketches: a union sized by the first, fed both.
HllSketch merge_sketches(const HllSketch& a, const HllSketch& b) {
  // A union takes a non-empty first sketch as it is and replays a LIST or SET second one into
  // it; only an empty first sketch lets a SET second one be taken whole.
  if (b.mode() != HllMode::kHll && !(a.empty() && b.mode() == HllMode::kSet)) {
    HllSketch r = a;
    r.update_from(b);
    return r;
  }
  HllUnion u(a.lg_k());
  u.update(a);
  u.update(b);
  return std::move(u).result();
}

// ---------------------------------------------------------------------------------------------
// hll_sketch_agg(col[, lgConfigK]).

/// The coupon of row i of `c` (not null): integers hash as longs, strings and binaries as
/// their bytes.
uint32_t row_coupon(const Column& c, int64_t i) {
  switch (c.type()->id()) {
    case TypeId::kInt: return hll_coupon_long(c.values<int32_t>()[i]);
    case TypeId::kLong: return hll_coupon_long(c.values<int64_t>()[i]);
    case TypeId::kString:
    case TypeId::kBinary: return hll_coupon_bytes(c.string_at(i));
    default: return 0;
  }
}

/// A group's sketch. Each batch's rows build a sketch of their own that is then merged into
/// the group's, as Spark builds one sketch per partition and merges them: the result does not
/// depend on which thread saw which batch once the batches' sketches reach HLL mode, and input
/// that fits one batch gives Spark's one-partition sketch.
struct SketchState {
  explicit SketchState(int lg_k) : merged(lg_k), batch(lg_k) {}
  HllSketch merged;
  HllSketch batch;
  bool started = false;  // `merged` holds at least one batch's sketch
  bool pending = false;  // `batch` has rows of the batch being added
};

/// State: the group's `SketchState`, made by `init`.
class HllSketchAggregate final : public HeapStateAggregate<SketchState> {
 public:
  explicit HllSketchAggregate(int lg_k) : lg_k_(lg_k) {}
  void init(uint8_t* s) const override { state(s).create(lg_k_); }
  void update(uint8_t** states, const Args& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    std::vector<SketchState*> touched;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      SketchState& st = *state(states[i]);
      if (!st.pending) {
        st.pending = true;
        touched.push_back(&st);
      }
      st.batch.update(row_coupon(c, i));
    }
    for (SketchState* st : touched) {
      add(*st, std::move(st->batch));
      st->batch = HllSketch(lg_k_);
      st->pending = false;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const SketchState& s = *state(src);
    if (s.started) add(*state(dst), s.merged);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    // Spark's final step merges every partial sketch into an empty one.
    for (int64_t i = 0; i < n; ++i) {
      const SketchState& st = *state(states[i]);
      out.append_bytes(merge_sketches(HllSketch(lg_k_), st.merged).serialize());
    }
  }

 private:
  static void add(SketchState& st, HllSketch partial) {
    if (!st.started)
      st.merged = std::move(partial);
    else if (partial.mode() != HllMode::kHll && !st.merged.empty())
      st.merged.update_from(partial);  // what merge_sketches gives, without the copies
    else
      st.merged = merge_sketches(st.merged, partial);
    st.started = true;
  }
  int lg_k_;
};

/// lgConfigK must be a constant INT in [4, 21] (NULL reads as 0).
int lg_config_k(const Infos& a, const std::string& shown) {
  if (a.size() < 2) return kHllDefaultLgK;
  if (!is_type(a[1].type, TypeId::kInt)) throw_wrong_type(shown, 1, "\"INT\"", a[1]);
  if (!a[1].literal)
    throw SparkError(ErrorKind::kRuntime, "HLL_K_MUST_BE_CONSTANT",
                     "Invalid call to `hll_sketch_agg`; the `K` value must be a constant value, but got a "
                     "non-constant expression.",
                     {{"function", "`hll_sketch_agg`"}}, "42K0E");
  const int64_t v = a[1].literal->is_null() ? 0 : a[1].literal->as_int();
  if (v < kHllMinLgK || v > kHllMaxLgK)
    throw SparkError(ErrorKind::kRuntime, "HLL_INVALID_LG_K",
                     "Invalid call to `hll_sketch_agg`; the `lgConfigK` value must be between " +
                         std::to_string(kHllMinLgK) + " and " + std::to_string(kHllMaxLgK) +
                         ", inclusive: " + std::to_string(v) + ".",
                     {{"function", "`hll_sketch_agg`"}, {"min", std::to_string(kHllMinLgK)},
                      {"max", std::to_string(kHllMaxLgK)}, {"value", std::to_string(v)}},
                     "22546");
  return static_cast<int>(v);
}

FunctionDef hll_sketch_agg() {
  FunctionDef d;
  d.name = "hll_sketch_agg";
  d.kind = FunctionKind::kAggregate;
  d.min_args = 1;
  d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [](const Infos& a, const Config&) {
    const std::string shown = shown_call("hll_sketch_agg", a, {"", "12"});
    switch (a[0].type->id()) {
      case TypeId::kNull:
      case TypeId::kInt:
      case TypeId::kLong:
      case TypeId::kString:
      case TypeId::kBinary: break;
      default: throw_wrong_type(shown, 0, "(\"INT\" or \"BIGINT\" or \"STRING\" or \"BINARY\")", a[0]);
    }
    const int lg_k = lg_config_k(a, shown);
    Signature s;
    for (const ArgInfo& x : a) s.arg_types.push_back(x.type);
    s.result_type = DataType::binary();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    s.parameters = {static_cast<double>(lg_k)};
    return s;
  };
  d.aggregate = [](const Signature& sig, const EvalContext&) {
    const int lg_k = sig.parameters.empty() ? kHllDefaultLgK : static_cast<int>(sig.parameters[0]);
    return std::make_unique<HllSketchAggregate>(lg_k);
  };
  d.render = render_defaults(1, {"12"});
  d.usage =
      "hll_sketch_agg(expr[, lgConfigK]) - Returns the HllSketch's updatable binary representation of the distinct "
      "values of expr (lgConfigK between 4 and 21, default 12).";
  return d;
}

// ---------------------------------------------------------------------------------------------
// hll_union_agg(col[, allowDifferentLgConfigK]).

/// A group's union, built like hll_sketch_agg's sketch: each batch's sketches go into a union
/// of their own (Spark's per-partition union), which is then merged into the group's through
/// its result sketch. Absent until a sketch arrives (no sketch at all gives the empty sketch).
struct UnionState {
  std::unique_ptr<HllUnion> merged;
  std::unique_ptr<HllUnion> batch;
  bool pending = false;
};

/// State: the group's `UnionState`, made by `init`.
class HllUnionAggregate final : public HeapStateAggregate<UnionState> {
 public:
  explicit HllUnionAggregate(bool allow) : allow_(allow) {}
  void init(uint8_t* s) const override { state(s).create(); }
  void update(uint8_t** states, const Args& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    std::vector<UnionState*> touched;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      UnionState& st = *state(states[i]);
      if (!st.pending) {
        st.pending = true;
        touched.push_back(&st);
      }
      // Spark reads input sketches in place (wrapped), not copied onto the heap.
      add(st.batch, sketch_arg(kName, c.string_at(i)), allow_at(args, 1, i), true);
    }
    for (UnionState* st : touched) {
      fold(st->merged, st->batch->result());
      st->batch.reset();
      st->pending = false;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    UnionState& s = *state(src);
    if (s.merged) fold(state(dst)->merged, s.merged->result());
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      UnionState& st = *state(states[i]);
      out.append_bytes(st.merged ? st.merged->result().serialize() : HllSketch(kHllDefaultLgK).serialize());
    }
  }

 private:
  static constexpr const char* kName = "hll_union_agg";

  /// Spark's step: a union sized by the first non-empty sketch; sketches of another lgConfigK
  /// fail unless allowed.
  static void add(std::unique_ptr<HllUnion>& u, const HllSketch& s, bool allow, bool wrapped) {
    if (!u || (u->empty() && !s.empty())) u = std::make_unique<HllUnion>(s.lg_k());
    if (!allow && !u->empty() && !s.empty() && u->lg_k() != s.lg_k()) throw_different_lg_k(kName, u->lg_k(), s.lg_k());
    u->update(s, wrapped);
  }
  /// Merges a partial union's result: Spark ships it as an image and reads it back into a
  /// fresh union, which the first partial becomes.
  void fold(std::unique_ptr<HllUnion>& u, const HllSketch& partial) const {
    if (!u) {
      u = std::make_unique<HllUnion>(partial.lg_k());
      u->update(partial);
      return;
    }
    add(u, partial, allow_, false);
  }
  // The flag's constant value: merges see no argument. (Spark requires it to be constant in
  // effect; a per-row flag is read row by row.)
  bool allow_;
};

FunctionDef hll_union_agg() {
  FunctionDef d;
  d.name = "hll_union_agg";
  d.kind = FunctionKind::kAggregate;
  d.min_args = 1;
  d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [](const Infos& a, const Config&) {
    const std::string shown = shown_call("hll_union_agg", a, {"", "false"});
    if (!is_type(a[0].type, TypeId::kBinary)) throw_wrong_type(shown, 0, "\"BINARY\"", a[0]);
    if (a.size() > 1 && !is_type(a[1].type, TypeId::kBoolean)) throw_wrong_type(shown, 1, "\"BOOLEAN\"", a[1]);
    Signature s;
    s.arg_types = {DataType::binary()};
    if (a.size() > 1) s.arg_types.push_back(DataType::boolean());
    s.result_type = DataType::binary();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    const bool allow = a.size() > 1 && a[1].literal && !a[1].literal->is_null() && a[1].literal->as_bool();
    s.parameters = {allow ? 1.0 : 0.0};
    return s;
  };
  d.aggregate = [](const Signature& sig, const EvalContext&) {
    return std::make_unique<HllUnionAggregate>(!sig.parameters.empty() && sig.parameters[0] != 0);
  };
  d.render = render_defaults(1, {"false"});
  d.may_throw = true;
  d.usage =
      "hll_union_agg(expr[, allowDifferentLgConfigK]) - Returns the HllSketch's updatable binary representation of "
      "the union of the sketches in expr.";
  return d;
}

// ---------------------------------------------------------------------------------------------
// Scalars.

FunctionDef hll_sketch_estimate() {
  FunctionDef d;
  d.name = "hll_sketch_estimate";
  d.min_args = 1;
  d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    if (!is_type(a[0].type, TypeId::kBinary))
      throw_wrong_type(shown_call("hll_sketch_estimate", a, {}), 0, "\"BINARY\"", a[0]);
    Signature s;
    s.arg_types = {DataType::binary()};
    s.result_type = DataType::long_();
    return s;
  };
  d.kernel = [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      const double e = sketch_arg("hll_sketch_estimate", a[0]->string_at(i)).estimate();
      // Java's Math.round: half up.
      b.append<int64_t>(static_cast<int64_t>(std::floor(e + 0.5)));
    });
  };
  d.may_throw = true;
  d.usage = "hll_sketch_estimate(expr) - Returns the estimated number of unique values of an HllSketch.";
  return d;
}

FunctionDef hll_union() {
  FunctionDef d;
  d.name = "hll_union";
  d.min_args = 2;
  d.max_args = 3;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    const std::string shown = shown_call("hll_union", a, {"", "", "false"});
    for (size_t k = 0; k < 2; ++k)
      if (!is_type(a[k].type, TypeId::kBinary)) throw_wrong_type(shown, k, "\"BINARY\"", a[k]);
    if (a.size() > 2 && !is_type(a[2].type, TypeId::kBoolean)) throw_wrong_type(shown, 2, "\"BOOLEAN\"", a[2]);
    Signature s;
    s.arg_types = {DataType::binary(), DataType::binary()};
    if (a.size() > 2) s.arg_types.push_back(DataType::boolean());
    s.result_type = DataType::binary();
    return s;
  };
  d.kernel = [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    const std::string fn = "hll_union";
    // A NULL flag gives NULL, like a NULL sketch.
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      const HllSketch x = sketch_arg(fn, a[0]->string_at(i));
      const HllSketch y = sketch_arg(fn, a[1]->string_at(i));
      if (!allow_at(a, 2, i) && !x.empty() && !y.empty() && x.lg_k() != y.lg_k())
        throw_different_lg_k(fn, x.lg_k(), y.lg_k());
      const int lg_k = x.empty() && !y.empty()   ? y.lg_k()
                       : !x.empty() && y.empty() ? x.lg_k()
                                                 : std::min(x.lg_k(), y.lg_k());
      HllUnion u(lg_k);
      u.update(x);
      u.update(y);
      b.append_bytes(u.result().serialize());
    });
  };
  d.render = render_defaults(2, {"false"});
  d.may_throw = true;
  d.usage =
      "hll_union(first, second[, allowDifferentLgConfigK]) - Returns the HllSketch's updatable binary representation "
      "of the union of two sketches.";
  return d;
}

}  // namespace

void register_hll_functions(Registry& r) {
  r.add(hll_sketch_agg());
  r.add(hll_union_agg());
  r.add(hll_sketch_estimate());
  r.add(hll_union());
}

}  // namespace ember::functions
