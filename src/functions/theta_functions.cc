// Spark's theta sketch functions (theta_sketch_agg, theta_union_agg, theta_intersection_agg,
// theta_sketch_estimate, theta_union, theta_intersection, theta_difference) and tuple sketch
// functions (tuple_*_double and tuple_*_integer) over DataSketches' compact binary images
// (sketch_theta.h, sketch_tuple.h), so sketches move freely between Ember and Spark.

#include <charconv>
#include <cmath>
#include <memory>

#include "functions/aggregate_state.h"
#include "functions/sketch_theta.h"
#include "functions/sketch_tuple.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using namespace sketch;
using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

// ---------------------------------------------------------------------------------------------
// Errors.

[[noreturn]] void throw_invalid_theta(const std::string& fn) {
  throw SparkError(ErrorKind::kRuntime, "THETA_INVALID_INPUT_SKETCH_BUFFER",
                   "Invalid call to `" + fn +
                       "`; only valid Theta sketch buffers are supported as inputs (such as those produced by the "
                       "`theta_sketch_agg` function).",
                   {{"function", "`" + fn + "`"}}, "22000");
}

[[noreturn]] void throw_invalid_tuple(const std::string& fn) {
  throw SparkError(ErrorKind::kRuntime, "TUPLE_INVALID_INPUT_SKETCH_BUFFER",
                   "Invalid call to `" + fn +
                       "`; only valid Tuple sketch buffers are supported as inputs (such as those produced by the "
                       "corresponding `tuple_sketch_agg_*` function).",
                   {{"function", "`" + fn + "`"}}, "22000");
}

[[noreturn]] void throw_wrong_family(const std::string& fn, bool want_tuple, uint8_t family) {
  const std::string got = family_name(family);
  if (want_tuple)
    throw SparkError(ErrorKind::kRuntime, "TUPLE_INVALID_INPUT_SKETCH_BUFFER_FAMILY",
                     "Invalid call to `" + fn + "`: expected TUPLE sketch family but received " + got +
                         ". Only valid Tuple sketch buffers (produced by `tuple_sketch_agg_*` functions) are "
                         "supported as inputs.",
                     {{"function", "`" + fn + "`"}, {"actualFamily", got}}, "22000");
  throw SparkError(ErrorKind::kRuntime, "THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY",
                   "Invalid call to `" + fn + "`: expected COMPACT sketch family but received " + got +
                       ". Only valid Theta sketch buffers (produced by `theta_sketch_agg`) are supported as inputs.",
                   {{"function", "`" + fn + "`"}, {"actualFamily", got}}, "22000");
}

std::string lg_nom_message(const std::string& fn, int64_t v) {
  return "Invalid call to `" + fn + "`; the `lgNomEntries` value must be between " +
         std::to_string(kMinLgNomEntries) + " and " + std::to_string(kMaxLgNomEntries) +
         ", inclusive: " + std::to_string(v) + ".";
}

CompactTheta theta_arg(const std::string& fn, std::string_view bytes) {
  CompactTheta s;
  uint8_t family = 0;
  switch (read_theta(bytes, s, family)) {
    case ReadStatus::kOk: return s;
    case ReadStatus::kWrongFamily: throw_wrong_family(fn, false, family);
    case ReadStatus::kInvalid: break;
  }
  throw_invalid_theta(fn);
}

template <typename V>
CompactTuple<V> tuple_arg(const std::string& fn, std::string_view bytes) {
  CompactTuple<V> s;
  uint8_t family = 0;
  switch (read_tuple<V>(bytes, s, family)) {
    case ReadStatus::kOk: return s;
    case ReadStatus::kWrongFamily: throw_wrong_family(fn, true, family);
    case ReadStatus::kInvalid: break;
  }
  throw_invalid_tuple(fn);
}

// ---------------------------------------------------------------------------------------------
// Hashing of input values, by their (already coerced) type.

/// The sketch hash of row i of `c` (not null), 0 when the value is ignored (empty strings,
/// binaries and arrays). Integers hash as longs, floats as doubles, strings as their UTF-8
/// bytes, arrays as their elements' little-endian bytes (null elements as 0).
uint64_t key_hash(const Column& c, int64_t i) {
  switch (c.type()->id()) {
    case TypeId::kInt: return hash_long(c.values<int32_t>()[i]);
    case TypeId::kLong: return hash_long(c.values<int64_t>()[i]);
    case TypeId::kFloat: return hash_double(static_cast<double>(c.values<float>()[i]));
    case TypeId::kDouble: return hash_double(c.values<double>()[i]);
    case TypeId::kString:
    case TypeId::kBinary: return hash_bytes(c.string_at(i));
    case TypeId::kArray: {
      const Column& e = *c.child(0);
      const int32_t begin = c.offsets()[i], end = c.offsets()[i + 1];
      const auto n = static_cast<size_t>(end - begin);
      if (e.type()->id() == TypeId::kInt) {
        std::vector<int32_t> v(n);
        for (size_t k = 0; k < n; ++k) v[k] = e.is_null(begin + static_cast<int64_t>(k)) ? 0 : e.values<int32_t>()[begin + k];
        return hash_ints(v.data(), n);
      }
      std::vector<int64_t> v(n);
      for (size_t k = 0; k < n; ++k) v[k] = e.is_null(begin + static_cast<int64_t>(k)) ? 0 : e.values<int64_t>()[begin + k];
      return hash_longs(v.data(), n);
    }
    default: return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Argument rules.

const char* kKeyTypes =
    "(\"ARRAY<INT>\" or \"ARRAY<BIGINT>\" or \"BINARY\" or \"DOUBLE\" or \"FLOAT\" or \"INT\" or \"BIGINT\" or "
    "\"STRING\")";
const char* kOrdinals[] = {"first", "second", "third", "fourth", "fifth"};

std::string shown_call(const std::string& fn, const Infos& a, const std::vector<std::string>& defaults = {}) {
  std::string s = fn + "(";
  for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i].type->sql();
  for (size_t i = a.size(); i < defaults.size(); ++i)
    if (!defaults[i].empty()) s += ", " + defaults[i];
  return s + ")";
}

[[noreturn]] void throw_wrong_type(const std::string& shown, size_t k, const std::string& required, const TypePtr& t) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + kOrdinals[k] + " parameter requires the " + required +
                          " type, however \"" + t->sql() + "\" has the type \"" + t->sql() + "\".",
                      shown);
}

bool is_array_of(const TypePtr& t, TypeId id) { return t->id() == TypeId::kArray && t->element_type()->id() == id; }

/// Key types theta_sketch_agg takes as they are (no implicit casts).
bool theta_key_ok(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kNull:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kString:
    case TypeId::kBinary: return true;
    default: return is_array_of(t, TypeId::kInt) || is_array_of(t, TypeId::kLong);
  }
}

/// The type a tuple sketch key is implicitly cast to: other numbers become DOUBLE, small
/// integer arrays ARRAY<INT> (without ANSI mode, arrays of any numbers), dates, timestamps,
/// booleans and intervals STRING; nullptr when there is none.
TypePtr tuple_key_type(const TypePtr& t, bool ansi) {
  if (theta_key_ok(t)) return t;
  switch (t->id()) {
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kDecimal: return DataType::double_();
    case TypeId::kBoolean:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: return DataType::string();
    default: break;
  }
  if (is_array_of(t, TypeId::kByte) || is_array_of(t, TypeId::kShort) ||
      (!ansi && t->id() == TypeId::kArray && t->element_type()->is_numeric()))
    return DataType::array(DataType::int_(), t->contains_null());
  return nullptr;
}

bool is_binary_arg(const TypePtr& t) { return t->id() == TypeId::kBinary || t->id() == TypeId::kNull; }

void check_binary(const std::string& shown, const Infos& a, size_t k) {
  if (!is_binary_arg(a[k].type)) throw_wrong_type(shown, k, "\"BINARY\"", a[k].type);
}

/// A literal as an integer, the way an implicit cast to INT reads it.
int64_t literal_int(const Value& v, const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kFloat:
    case TypeId::kDouble: return static_cast<int64_t>(v.as_double());
    case TypeId::kString: {
      const std::string& s = v.as_bytes();
      int64_t r = 0;
      auto b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
      const char* end = s.data() + (e == std::string::npos ? 0 : e + 1);
      auto parsed = b == std::string::npos ? std::from_chars_result{s.data(), std::errc::invalid_argument}
                                           : std::from_chars(s.data() + b, end, r);
      if (parsed.ec != std::errc() || parsed.ptr != end)
        throw SparkError(ErrorKind::kNumberFormat, "CAST_INVALID_INPUT",
                         "The value '" + s +
                             "' of the type \"STRING\" cannot be cast to \"INT\" because it is malformed. Correct the "
                             "value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed "
                             "input and return NULL instead.",
                         {{"expression", "'" + s + "'"}, {"sourceType", "\"STRING\""}, {"targetType", "\"INT\""},
                          {"ansiConfig", "\"spark.sql.ansi.enabled\""}},
                         "22018");
      return r;
    }
    case TypeId::kDecimal: {
      int128_t x = v.as_decimal();
      for (int i = 0; i < t->scale(); ++i) x /= 10;
      return static_cast<int64_t>(x);
    }
    default: return v.as_int();
  }
}

/// theta_*: lgNomEntries must be an INT constant; out-of-range values (NULL reads as 0) fail
/// at run time, as in Spark.
int theta_lg_nom(const std::string& fn, const Infos& a, size_t k, const std::string& shown, bool null_ok = false) {
  if (a.size() <= k) return kDefaultLgNomEntries;
  const TypePtr& t = a[k].type;
  if (t->id() != TypeId::kInt && t->id() != TypeId::kNull) throw_wrong_type(shown, k, "\"INT\"", t);
  if (!a[k].literal)
    throw SparkError(ErrorKind::kAnalysis, "THETA_LG_NOM_ENTRIES_MUST_BE_CONSTANT",
                     "Invalid call to `" + fn +
                         "`; the `lgNomEntries` value must be a constant value, but got a non-constant expression.",
                     {{"function", "`" + fn + "`"}}, "42K0E");
  if (null_ok && a[k].literal->is_null()) return kDefaultLgNomEntries;
  const int64_t v = a[k].literal->is_null() ? 0 : a[k].literal->as_int();
  if (v < kMinLgNomEntries || v > kMaxLgNomEntries)
    throw SparkError(ErrorKind::kRuntime, "SKETCH_INVALID_LG_NOM_ENTRIES", lg_nom_message(fn, v),
                     {{"function", "`" + fn + "`"}, {"min", std::to_string(kMinLgNomEntries)},
                      {"max", std::to_string(kMaxLgNomEntries)}, {"value", std::to_string(v)}},
                     "22003");
  return static_cast<int>(v);
}

/// tuple_*: lgNomEntries is cast to INT and must be a non-null constant in range, checked
/// when the query is analyzed.
void tuple_lg_nom(const std::string& fn, const Infos& a, size_t k, const std::string& shown) {
  if (a.size() <= k) return;
  const TypePtr& t = a[k].type;
  if (!t->is_numeric() && t->id() != TypeId::kString && t->id() != TypeId::kNull)
    throw_wrong_type(shown, k, "\"INT\"", t);
  if (!a[k].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input lgNomEntries should be a foldable int expression; however, got " + t->sql() + ".",
                        shown);
  if (a[k].literal->is_null())
    throw_type_mismatch("UNEXPECTED_NULL", "The lgNomEntries must not be null.", shown);
  const int64_t v = literal_int(*a[k].literal, t);
  if (v < kMinLgNomEntries || v > kMaxLgNomEntries)
    throw_type_mismatch("TYPE_CHECK_FAILURE_WITH_HINT",
                        "[SKETCH_INVALID_LG_NOM_ENTRIES] " + lg_nom_message(fn, v) + " SQLSTATE: 22003.", shown);
}

/// tuple_*: the summary mode is a non-null constant string naming a mode.
void tuple_mode(const std::string& fn, const Infos& a, size_t k, const std::string& shown) {
  if (a.size() <= k) return;
  const TypePtr& t = a[k].type;
  if (t->is_nested() || t->id() == TypeId::kBinary) throw_wrong_type(shown, k, "\"STRING\"", t);
  if (!a[k].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input mode should be a foldable string expression; however, got " + t->sql() + ".",
                        shown);
  if (a[k].literal->is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The mode must not be null.", shown);
  const Value& v = *a[k].literal;
  std::string text;
  if (t->id() == TypeId::kString) text = v.as_bytes();
  else if (t->is_integral()) text = std::to_string(v.as_int());
  else if (t->id() == TypeId::kBoolean) text = v.as_bool() ? "true" : "false";
  else text = t->sql();
  SummaryMode m;
  if (!parse_summary_mode(text, m))
    throw_type_mismatch("TYPE_CHECK_FAILURE_WITH_HINT",
                        "[TUPLE_INVALID_SKETCH_MODE] Invalid call to `" + fn + "`: mode '" + text +
                            "' is not supported. Valid modes are: sum, min, max, alwaysone. SQLSTATE: 22023.",
                        shown);
}

int lg_at(const Args& a, size_t k) {
  if (a.size() <= k || a[k]->length() == 0 || a[k]->is_null(0)) return kDefaultLgNomEntries;
  return a[k]->values<int32_t>()[0];
}

SummaryMode mode_at(const Args& a, size_t k) {
  SummaryMode m = SummaryMode::kSum;
  if (a.size() > k && a[k]->length() > 0 && !a[k]->is_null(0)) parse_summary_mode(a[k]->string_at(0), m);
  return m;
}

/// Column names show defaulted arguments (`theta_sketch_agg(value, 12)`).
auto render_defaults(size_t first_default, std::vector<std::string> defaults) {
  return [first_default, defaults](const std::string& called, const std::vector<std::string>& args) {
    std::string s = called + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    for (size_t k = std::max(args.size(), first_default); k < first_default + defaults.size(); ++k)
      s += (k ? ", " : "") + defaults[k - first_default];
    return s + ")";
  };
}

Signature binary_aggregate_signature(std::vector<TypePtr> args) {
  Signature s;
  s.arg_types = std::move(args);
  s.result_type = DataType::binary();
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Theta aggregates.

enum class ThetaAgg { kSketch, kUnion, kIntersection };

class ThetaAggregate final : public AggregateFunction {
 public:
  ThetaAggregate(ThetaAgg kind, std::string fn) : kind_(kind), fn_(std::move(fn)) {}
  size_t state_size() const override { return sizeof(void*); }
  void init(uint8_t* s) const override {
    if (kind_ == ThetaAgg::kIntersection)
      *reinterpret_cast<ThetaIntersection**>(s) = new ThetaIntersection();
    else
      *reinterpret_cast<ThetaAccumulator**>(s) = new ThetaAccumulator();
  }
  void update(uint8_t** states, const Args& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const int lg = lg_at(args, 1);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      if (kind_ == ThetaAgg::kIntersection) {
        (*reinterpret_cast<ThetaIntersection**>(states[i]))->update(theta_arg(fn_, c.string_at(i)));
        continue;
      }
      ThetaAccumulator& acc = **reinterpret_cast<ThetaAccumulator**>(states[i]);
      if (acc.pristine() && acc.lg_k() != lg) acc = ThetaAccumulator(lg);
      if (kind_ == ThetaAgg::kSketch)
        acc.update_hash(key_hash(c, i));
      else
        acc.merge(theta_arg(fn_, c.string_at(i)));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    if (kind_ == ThetaAgg::kIntersection) {
      (*reinterpret_cast<ThetaIntersection**>(dst))->merge(**reinterpret_cast<ThetaIntersection* const*>(src));
      return;
    }
    ThetaAccumulator& d = **reinterpret_cast<ThetaAccumulator**>(dst);
    const ThetaAccumulator& s = **reinterpret_cast<ThetaAccumulator* const*>(src);
    if (d.pristine() && d.lg_k() != s.lg_k()) d = ThetaAccumulator(s.lg_k());
    d.merge(s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      CompactTheta r = kind_ == ThetaAgg::kIntersection
                           ? (*reinterpret_cast<ThetaIntersection* const*>(states[i]))->result()
                           : (*reinterpret_cast<ThetaAccumulator* const*>(states[i]))->result();
      out.append_bytes(r.serialize());
    }
  }
  void destroy(uint8_t* s) const override {
    if (kind_ == ThetaAgg::kIntersection)
      delete *reinterpret_cast<ThetaIntersection**>(s);
    else
      delete *reinterpret_cast<ThetaAccumulator**>(s);
  }
  bool needs_destroy() const override { return true; }

 private:
  ThetaAgg kind_;
  std::string fn_;
};

FunctionDef theta_aggregate(const std::string& name, ThetaAgg kind, std::string usage) {
  FunctionDef d;
  d.name = name;
  d.kind = FunctionKind::kAggregate;
  d.min_args = 1;
  d.max_args = kind == ThetaAgg::kIntersection ? 1 : 2;
  d.constant_args = {1};
  d.arg_type_rule = [name, kind](const Infos& a, const Config&) {
    const std::string shown = shown_call(name, a, kind == ThetaAgg::kIntersection ? std::vector<std::string>{}
                                                                                   : std::vector<std::string>{"", "12"});
    if (kind == ThetaAgg::kSketch) {
      if (!theta_key_ok(a[0].type)) throw_wrong_type(shown, 0, kKeyTypes, a[0].type);
    } else {
      check_binary(shown, a, 0);
    }
    theta_lg_nom(name, a, 1, shown);
    std::vector<TypePtr> types;
    for (auto& x : a) types.push_back(x.type);
    return binary_aggregate_signature(types);
  };
  d.aggregate = [kind, name](const Signature&, const EvalContext&) {
    return std::make_unique<ThetaAggregate>(kind, name);
  };
  if (kind != ThetaAgg::kIntersection) d.render = render_defaults(1, {"12"});
  d.may_throw = kind != ThetaAgg::kSketch;
  d.usage = std::move(usage);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Tuple aggregates.

enum class TupleAgg { kSketch, kUnion, kIntersection };

/// A tuple aggregate's state. Its result is always the union's (cut to the k smallest hashes),
/// which is what Spark returns whenever a group's rows come from more than one partition; from
/// a single partition Spark keeps the update sketch uncut, a result that depends on how rows
/// were partitioned.
template <typename V>
struct TupleState {
  bool configured = false;
  SummaryMode mode = SummaryMode::kSum;
  TupleTable<V> table;
  TupleIntersection<V> intersection{SummaryMode::kSum};
};

/// State: the group's `TupleState`, made by `init`.
template <typename V>
class TupleAggregate final : public HeapStateAggregate<TupleState<V>> {
 public:
  TupleAggregate(TupleAgg kind, std::string fn) : kind_(kind), fn_(std::move(fn)) {}
  void init(uint8_t* s) const override { state(s).create(); }
  void update(uint8_t** states, const Args& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    // tuple_sketch_agg(key, summary, lg, mode), tuple_union_agg(sketch, lg, mode),
    // tuple_intersection_agg(sketch, mode).
    const size_t lg_arg = kind_ == TupleAgg::kSketch ? 2 : 1;
    const int lg = kind_ == TupleAgg::kIntersection ? kDefaultLgNomEntries : lg_at(args, lg_arg);
    const SummaryMode mode = mode_at(args, kind_ == TupleAgg::kIntersection ? 1 : lg_arg + 1);
    const Column* summary = kind_ == TupleAgg::kSketch ? args[1].get() : nullptr;
    if (summary && summary->type()->id() == TypeId::kNull) return;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i) || (summary && summary->is_null(i))) continue;
      TupleState<V>& st = *state(states[i]);
      if (!st.configured) configure(st, lg, mode);
      switch (kind_) {
        case TupleAgg::kSketch: st.table.update(key_hash(c, i), summary->values<V>()[i], st.mode); break;
        case TupleAgg::kUnion: st.table.merge(tuple_arg<V>(fn_, c.string_at(i)), st.mode); break;
        case TupleAgg::kIntersection: st.intersection.update(tuple_arg<V>(fn_, c.string_at(i))); break;
      }
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    TupleState<V>& d = *state(dst);
    const TupleState<V>& s = *state(src);
    if (!s.configured) return;
    if (!d.configured) {
      d = s;  // a fresh state takes the other as it is
      return;
    }
    if (kind_ == TupleAgg::kIntersection)
      d.intersection.merge(s.intersection);
    else
      d.table.merge(s.table, d.mode);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const TupleState<V>& st = *state(states[i]);
      CompactTuple<V> r = kind_ == TupleAgg::kIntersection ? st.intersection.result() : st.table.result();
      out.append_bytes(r.serialize());
    }
  }

 private:
  using HeapStateAggregate<TupleState<V>>::state;
  static void configure(TupleState<V>& st, int lg, SummaryMode mode) {
    st.configured = true;
    st.mode = mode;
    st.table = TupleTable<V>(lg);
    st.intersection = TupleIntersection<V>(mode);
  }
  TupleAgg kind_;
  std::string fn_;
};

/// The optional parameters of the tuple sketch functions that take named arguments.
Parameter lg_nom_parameter() { return {"lgNomEntries", Value::integer(kDefaultLgNomEntries), DataType::int_()}; }
Parameter mode_parameter() { return {"mode", Value::bytes("sum"), DataType::string()}; }

template <typename V>
FunctionDef tuple_aggregate(const std::string& name, TupleAgg kind, std::string usage) {
  constexpr bool is_double = std::is_same_v<V, double>;
  FunctionDef d;
  d.name = name;
  d.kind = FunctionKind::kAggregate;
  switch (kind) {
    case TupleAgg::kSketch:
      d.min_args = 2;
      d.max_args = 4;
      d.constant_args = {2, 3};
      d.render = render_defaults(2, {"12", "sum"});
      d.parameters = {{"key"}, {"summary"}, lg_nom_parameter(), mode_parameter()};
      break;
    case TupleAgg::kUnion:
      d.min_args = 1;
      d.max_args = 3;
      d.constant_args = {1, 2};
      d.render = render_defaults(1, {"12", "sum"});
      d.parameters = {{"child"}, lg_nom_parameter(), mode_parameter()};
      break;
    case TupleAgg::kIntersection:
      d.min_args = 1;
      d.max_args = 2;
      d.constant_args = {1};
      d.render = render_defaults(1, {"sum"});
      break;
  }
  d.arg_type_rule = [name, kind](const Infos& a, const Config& conf) {
    std::vector<std::string> defaults = kind == TupleAgg::kSketch  ? std::vector<std::string>{"", "", "12", "sum"}
                                        : kind == TupleAgg::kUnion ? std::vector<std::string>{"", "12", "sum"}
                                                                   : std::vector<std::string>{"", "sum"};
    const std::string shown = shown_call(name, a, defaults);
    std::vector<TypePtr> types;
    if (kind == TupleAgg::kSketch) {
      TypePtr key = tuple_key_type(a[0].type, conf.ansi_enabled());
      if (!key) throw_wrong_type(shown, 0, kKeyTypes, a[0].type);
      const TypePtr& v = a[1].type;
      if (!v->is_numeric() && v->id() != TypeId::kString && v->id() != TypeId::kNull)
        throw_wrong_type(shown, 1, is_double ? "\"DOUBLE\"" : "\"INT\"", v);
      types = {key, is_double ? DataType::double_() : DataType::int_()};
      tuple_lg_nom(name, a, 2, shown);
      tuple_mode(name, a, 3, shown);
      if (a.size() > 2) types.push_back(DataType::int_());
      if (a.size() > 3) types.push_back(DataType::string());
    } else {
      // These two take a STRING too (cast to BINARY), unlike the scalar tuple functions.
      if (!is_binary_arg(a[0].type) && a[0].type->id() != TypeId::kString)
        throw_wrong_type(shown, 0, "\"BINARY\"", a[0].type);
      types = {DataType::binary()};
      if (kind == TupleAgg::kUnion) {
        tuple_lg_nom(name, a, 1, shown);
        tuple_mode(name, a, 2, shown);
        if (a.size() > 1) types.push_back(DataType::int_());
        if (a.size() > 2) types.push_back(DataType::string());
      } else {
        tuple_mode(name, a, 1, shown);
        if (a.size() > 1) types.push_back(DataType::string());
      }
    }
    return binary_aggregate_signature(types);
  };
  d.aggregate = [kind, name](const Signature&, const EvalContext&) {
    return std::make_unique<TupleAggregate<V>>(kind, name);
  };
  d.may_throw = true;
  d.usage = std::move(usage);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Scalar functions.

/// A scalar over binary sketch arguments `binary_args` (nulls give null) with optional
/// trailing constant arguments, checked by `check`.
FunctionDef sketch_scalar(const std::string& name, int min_args, int max_args, size_t binary_args,
                          TypePtr result, std::function<void(const Infos&, const std::string&)> check,
                          std::vector<std::string> defaults, ScalarKernel kernel) {
  FunctionDef d;
  d.name = name;
  d.min_args = min_args;
  d.max_args = max_args;
  for (int k = static_cast<int>(binary_args); k < max_args; ++k) d.constant_args.push_back(k);
  d.arg_type_rule = [name, binary_args, result, check, defaults](const Infos& a, const Config&) {
    std::vector<std::string> shown_defaults(binary_args, "");
    shown_defaults.insert(shown_defaults.end(), defaults.begin(), defaults.end());
    const std::string shown = shown_call(name, a, shown_defaults);
    for (size_t k = 0; k < binary_args && k < a.size(); ++k) check_binary(shown, a, k);
    if (check) check(a, shown);
    Signature s;
    for (size_t k = 0; k < a.size(); ++k) s.arg_types.push_back(k < binary_args ? DataType::binary() : a[k].type);
    s.result_type = result;
    s.nullable_from.clear();
    for (size_t k = 0; k < a.size(); ++k) s.nullable_from.push_back(static_cast<int>(k));
    return s;
  };
  d.kernel = std::move(kernel);
  d.may_throw = true;
  if (!defaults.empty()) d.render = render_defaults(binary_args, defaults);
  return d;
}

/// Rows where any of the first `binary_args` arguments is null are null; others get `op`.
template <typename Op>
ColumnPtr sketch_rows(const Args& a, size_t binary_args, int64_t n, const TypePtr& rtype, Op op) {
  Args sketches(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(binary_args));
  return map_rows(sketches, n, rtype, op);
}

void register_theta(Registry& r) {
  r.add(theta_aggregate("theta_sketch_agg", ThetaAgg::kSketch,
                        "theta_sketch_agg(expr, lgNomEntries) - Returns the ThetaSketch compact binary representation "
                        "of the distinct values of expr."));
  r.add(theta_aggregate("theta_union_agg", ThetaAgg::kUnion,
                        "theta_union_agg(expr, lgNomEntries) - Returns the union of the ThetaSketch binary "
                        "representations in expr."));
  r.add(theta_aggregate("theta_intersection_agg", ThetaAgg::kIntersection,
                        "theta_intersection_agg(expr) - Returns the intersection of the ThetaSketch binary "
                        "representations in expr."));
  {
    const std::string fn = "theta_sketch_estimate";
    FunctionDef d = sketch_scalar(fn, 1, 1, 1, DataType::long_(), nullptr, {},
                                  [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                                    return sketch_rows(a, 1, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                      const double e = theta_arg(fn, a[0]->string_at(i)).estimate();
                                      b.append<int64_t>(static_cast<int64_t>(std::floor(e + 0.5)));
                                    });
                                  });
    d.usage = "theta_sketch_estimate(expr) - Returns the estimated number of unique values of a ThetaSketch.";
    r.add(std::move(d));
  }
  {
    const std::string fn = "theta_union";
    FunctionDef d = sketch_scalar(
        fn, 2, 3, 2, DataType::binary(),
        [fn](const Infos& a, const std::string& shown) { theta_lg_nom(fn, a, 2, shown, true); }, {"12"},
        [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          const int lg = lg_at(a, 2);
          // A NULL lgNomEntries gives NULL.
          return sketch_rows(a, a.size(), n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            ThetaAccumulator u(lg);
            u.merge(theta_arg(fn, a[0]->string_at(i)));
            u.merge(theta_arg(fn, a[1]->string_at(i)));
            b.append_bytes(u.result().serialize());
          });
        });
    d.usage = "theta_union(first, second, lgNomEntries) - Returns the union of two ThetaSketch binary representations.";
    r.add(std::move(d));
  }
  {
    const std::string fn = "theta_intersection";
    FunctionDef d = sketch_scalar(fn, 2, 2, 2, DataType::binary(), nullptr, {},
                                  [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                                    return sketch_rows(a, 2, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                      ThetaIntersection x;
                                      x.update(theta_arg(fn, a[0]->string_at(i)));
                                      x.update(theta_arg(fn, a[1]->string_at(i)));
                                      b.append_bytes(x.result().serialize());
                                    });
                                  });
    d.usage = "theta_intersection(first, second) - Returns the intersection of two ThetaSketch binary representations.";
    r.add(std::move(d));
  }
  {
    const std::string fn = "theta_difference";
    FunctionDef d = sketch_scalar(fn, 2, 2, 2, DataType::binary(), nullptr, {},
                                  [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                                    return sketch_rows(a, 2, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                      CompactTheta x = theta_arg(fn, a[0]->string_at(i));
                                      CompactTheta y = theta_arg(fn, a[1]->string_at(i));
                                      b.append_bytes(theta_a_not_b(x, y).serialize());
                                    });
                                  });
    d.usage = "theta_difference(first, second) - Returns the ThetaSketch of the values in first but not in second.";
    r.add(std::move(d));
  }
}

template <typename V>
void register_tuple(Registry& r, const std::string& suffix) {
  constexpr bool is_double = std::is_same_v<V, double>;
  const std::string kind = is_double ? "double" : "integer";
  r.add(tuple_aggregate<V>("tuple_sketch_agg_" + suffix, TupleAgg::kSketch,
                           "tuple_sketch_agg_" + suffix + "(key, summary, lgNomEntries, mode) - Returns the TupleSketch "
                           "with " + kind + " summaries of the keys and summaries."));
  r.add(tuple_aggregate<V>("tuple_union_agg_" + suffix, TupleAgg::kUnion,
                           "tuple_union_agg_" + suffix + "(expr, lgNomEntries, mode) - Returns the union of the " + kind +
                               " TupleSketches in expr."));
  r.add(tuple_aggregate<V>("tuple_intersection_agg_" + suffix, TupleAgg::kIntersection,
                           "tuple_intersection_agg_" + suffix + "(expr, mode) - Returns the intersection of the " + kind +
                               " TupleSketches in expr."));
  // Readers of one sketch.
  {
    const std::string fn = "tuple_sketch_estimate_" + suffix;
    FunctionDef d = sketch_scalar(fn, 1, 1, 1, DataType::double_(), nullptr, {},
                                  [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                                    return sketch_rows(a, 1, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                      b.append<double>(tuple_arg<V>(fn, a[0]->string_at(i)).estimate());
                                    });
                                  });
    d.usage = fn + "(expr) - Returns the estimated number of distinct keys of a TupleSketch.";
    r.add(std::move(d));
  }
  {
    const std::string fn = "tuple_sketch_theta_" + suffix;
    FunctionDef d = sketch_scalar(fn, 1, 1, 1, DataType::double_(), nullptr, {},
                                  [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                                    return sketch_rows(a, 1, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                      b.append<double>(tuple_arg<V>(fn, a[0]->string_at(i)).theta_fraction());
                                    });
                                  });
    d.usage = fn + "(expr) - Returns the theta of a TupleSketch (between 0.0 and 1.0).";
    r.add(std::move(d));
  }
  {
    const std::string fn = "tuple_sketch_summary_" + suffix;
    TypePtr result = is_double ? DataType::double_() : DataType::long_();
    FunctionDef d = sketch_scalar(
        fn, 1, 2, 1, result, [fn](const Infos& a, const std::string& shown) { tuple_mode(fn, a, 1, shown); }, {"sum"},
        [fn](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          const SummaryMode mode = mode_at(a, 1);
          return sketch_rows(a, 1, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            CompactTuple<V> s = tuple_arg<V>(fn, a[0]->string_at(i));
            // Sums of INT summaries are BIGINT; an empty sketch gives 0 in every mode.
            using Acc = std::conditional_t<is_double, double, int64_t>;
            Acc acc = 0;
            for (size_t k = 0; k < s.summaries.size(); ++k) {
              const Acc v = s.summaries[k].value;
              switch (mode) {
                case SummaryMode::kSum: acc += v; break;
                case SummaryMode::kMin: acc = k == 0 ? v : std::min(acc, v); break;
                case SummaryMode::kMax: acc = k == 0 ? v : std::max(acc, v); break;
                case SummaryMode::kAlwaysOne: acc += 1; break;
              }
            }
            b.append<Acc>(acc);
          });
        });
    d.usage = fn + "(expr, mode) - Returns the aggregate of the summaries of a TupleSketch by mode.";
    r.add(std::move(d));
  }
  // Set operations of two tuple sketches, or of a tuple sketch and a theta sketch.
  for (bool with_theta : {false, true}) {
    const std::string fn = (with_theta ? "tuple_union_theta_" : "tuple_union_") + suffix;
    FunctionDef d = sketch_scalar(
        fn, 2, 4, 2, DataType::binary(),
        [fn](const Infos& a, const std::string& shown) {
          tuple_lg_nom(fn, a, 2, shown);
          tuple_mode(fn, a, 3, shown);
        },
        {"12", "sum"},
        [fn, with_theta](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          const int lg = lg_at(a, 2);
          const SummaryMode mode = mode_at(a, 3);
          return sketch_rows(a, 2, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            TupleTable<V> u(lg);
            u.merge(tuple_arg<V>(fn, a[0]->string_at(i)), mode);
            if (with_theta)
              u.merge_theta(theta_arg(fn, a[1]->string_at(i)), mode);
            else
              u.merge(tuple_arg<V>(fn, a[1]->string_at(i)), mode);
            b.append_bytes(u.result().serialize());
          });
        });
    d.usage = with_theta ? fn + "(tuple, theta, lgNomEntries, mode) - Returns the union of a TupleSketch and a ThetaSketch."
                         : fn + "(first, second, lgNomEntries, mode) - Returns the union of two TupleSketches.";
    d.parameters = {{"first"}, {"second"}, lg_nom_parameter(), mode_parameter()};
    r.add(std::move(d));
  }
  for (bool with_theta : {false, true}) {
    const std::string fn = (with_theta ? "tuple_intersection_theta_" : "tuple_intersection_") + suffix;
    FunctionDef d = sketch_scalar(
        fn, 2, 3, 2, DataType::binary(), [fn](const Infos& a, const std::string& shown) { tuple_mode(fn, a, 2, shown); },
        {"sum"},
        [fn, with_theta](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          const SummaryMode mode = mode_at(a, 2);
          return sketch_rows(a, 2, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            TupleIntersection<V> x(mode);
            x.update(tuple_arg<V>(fn, a[0]->string_at(i)));
            if (with_theta)
              x.update_theta(theta_arg(fn, a[1]->string_at(i)));
            else
              x.update(tuple_arg<V>(fn, a[1]->string_at(i)));
            b.append_bytes(x.result().serialize());
          });
        });
    d.usage = fn + "(first, second, mode) - Returns the intersection of a TupleSketch and a " +
              (with_theta ? "ThetaSketch." : "TupleSketch.");
    r.add(std::move(d));
  }
  for (bool with_theta : {false, true}) {
    const std::string fn = (with_theta ? "tuple_difference_theta_" : "tuple_difference_") + suffix;
    FunctionDef d = sketch_scalar(
        fn, 2, 2, 2, DataType::binary(), nullptr, {},
        [fn, with_theta](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return sketch_rows(a, 2, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            CompactTuple<V> x = tuple_arg<V>(fn, a[0]->string_at(i));
            std::vector<uint64_t> other;
            bool other_empty;
            uint64_t other_theta;
            if (with_theta) {
              CompactTheta t = theta_arg(fn, a[1]->string_at(i));
              other = std::move(t.entries);
              other_empty = t.empty;
              other_theta = t.theta;
            } else {
              CompactTuple<V> t = tuple_arg<V>(fn, a[1]->string_at(i));
              other = std::move(t.hashes);
              std::sort(other.begin(), other.end());
              other_empty = t.empty;
              other_theta = t.theta;
            }
            b.append_bytes(tuple_a_not_b(x, other_empty, other_theta, other).serialize());
          });
        });
    d.usage = fn + "(first, second) - Returns the TupleSketch of the keys of first not in second.";
    r.add(std::move(d));
  }
}

}  // namespace

void register_theta_functions(Registry& r) {
  register_theta(r);
  register_tuple<double>(r, "double");
  register_tuple<int32_t>(r, "integer");
}

}  // namespace ember::functions
