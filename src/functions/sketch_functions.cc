// Sketch aggregates: approx_count_distinct (HyperLogLog++ over Spark's XXH64 hash of each value,
// hyperloglogplus.h) and count_min_sketch (Spark's serialized CountMinSketch,
// count_min_sketch.h). The KLL sketch functions are in kll_functions.cc.

#include <memory>
#include <string>
#include <tuple>

#include "common/error.h"
#include "common/number_format.h"
#include "functions/aggregate_state.h"
#include "functions/collection_util.h"
#include "functions/count_min_sketch.h"
#include "functions/hyperloglogplus.h"
#include "functions/string_util.h"
#include "functions/value_hash.h"

namespace ember::functions {
namespace {

using hllpp::HyperLogLogPlusPlus;

constexpr double kDefaultRelativeSD = 0.05;
constexpr int64_t kHashSeed = 42;
/// Precisions past this one need more memory than Spark's aggregation buffer grants.
constexpr int kMaxHllppPrecision = 20;

/// approx_count_distinct(col [, rsd]): one HyperLogLog++ per group, allocated on its first value
/// with the precision of the constant rsd argument (checked by the type rule).
class ApproxCountDistinct final : public HeapStateAggregate<HyperLogLogPlusPlus> {
 public:
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull || n == 0) return;
    const int precision =
        hllpp::precision_for(args.size() > 1 ? args[1]->value_at(0).as_double() : kDefaultRelativeSD);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      state(states[i]).get_or_create(precision).add_hash(
          static_cast<uint64_t>(xxhash64_value(c, i, kHashSeed)));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const HyperLogLogPlusPlus* s = state(src).get();
    if (!s) return;
    HeapState<HyperLogLogPlusPlus>& d = state(dst);
    if (!d)
      d.assign(*s);
    else
      d->merge(*s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const HyperLogLogPlusPlus* h = state(states[i]).get();
      out.append<int64_t>(h ? h->estimate() : 0);
    }
  }
};

[[noreturn]] void failed_function_call(const std::string& fn) {
  throw SparkError(ErrorKind::kAnalysis, "FAILED_FUNCTION_CALL",
                   "Failed preparing of the function `" + fn + "` for call. Please, double check function's arguments.",
                   {{"funcName", "`" + fn + "`"}});
}

/// The precision an approx_count_distinct call asks for: its rsd must be a non-null DOUBLE or
/// DECIMAL literal, and give between 4 and kMaxHllppPrecision address bits.
int hllpp_precision(const std::vector<ArgInfo>& a) {
  if (a.size() < 2) return hllpp::precision_for(kDefaultRelativeSD);
  const ArgInfo& rsd = a[1];
  const TypeId id = rsd.type->id();
  if (!rsd.literal || rsd.literal->is_null() || (id != TypeId::kDouble && id != TypeId::kDecimal))
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1104",
                     "The second argument should be a double literal.", {});
  // A decimal literal converts as Decimal.toDouble does: through its decimal text.
  double v = id == TypeId::kDouble ? rsd.literal->as_double()
                                   : std::stod(decimal_to_string(rsd.literal->as_decimal(), rsd.type->scale()));
  int p = hllpp::precision_for(v);
  if (p < 4 || p > kMaxHllppPrecision) failed_function_call("approx_count_distinct");
  return p;
}

FunctionDef approx_count_distinct() {
  FunctionDef d;
  d.name = "approx_count_distinct";
  d.kind = FunctionKind::kAggregate;
  d.min_args = 1;
  d.max_args = 2;
  d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    hllpp_precision(a);
    if (!value_hashable(*a[0].type))
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "approx_count_distinct of " + a[0].type->sql() + " is not supported yet.");
    Signature s;
    s.arg_types = {a[0].type};
    if (a.size() > 1) s.arg_types.push_back(DataType::double_());
    s.result_type = DataType::long_();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<ApproxCountDistinct>(); };
  // Spark names the column after the value only: approx_count_distinct(v).
  d.render = [](const std::string& called, const std::vector<std::string>& args) {
    return called + "(" + args[0] + ")";
  };
  d.usage =
      "approx_count_distinct(expr[, relativeSD]) - Returns the estimated cardinality by HyperLogLog++. "
      "`relativeSD` defines the maximum relative standard deviation allowed.";
  return d;
}

/// count_min_sketch(col, eps, confidence, seed): one sketch per group, created on the group's
/// first row or merge with the call's constant parameters (checked and passed on by the type
/// rule); a group without any (an empty global aggregate) is the empty sketch.
class CountMinSketchAggregate final : public HeapStateAggregate<cms::CountMinSketch> {
 public:
  CountMinSketchAggregate(int32_t depth, int32_t width, int32_t seed)
      : empty_(depth, width, seed) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    const TypeId id = c.type()->id();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      cms::CountMinSketch& s = state(states[i]).get_or_create(empty_);
      if (id == TypeId::kNull || c.is_null(i)) continue;
      switch (id) {
        case TypeId::kByte:
          s.add_long(c.values<int8_t>()[i]);
          break;
        case TypeId::kShort:
          s.add_long(c.values<int16_t>()[i]);
          break;
        case TypeId::kInt:
          s.add_long(c.values<int32_t>()[i]);
          break;
        case TypeId::kLong:
          s.add_long(c.values<int64_t>()[i]);
          break;
        default:
          s.add_bytes(c.string_at(i));
          break;
      }
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const cms::CountMinSketch* s = state(src).get();
    if (!s) return;
    HeapState<cms::CountMinSketch>& d = state(dst);
    if (!d)
      d.assign(*s);
    else
      d->merge(*s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const cms::CountMinSketch* s = state(states[i]).get();
      out.append_bytes((s ? *s : empty_).serialize());
    }
  }

 private:
  cms::CountMinSketch empty_;
};

std::string cms_call_sql(const std::vector<ArgInfo>& a) {
  std::string s = "count_min_sketch(";
  for (size_t k = 0; k < a.size(); ++k) s += (k ? ", " : "") + a[k].type->sql();
  return s + ")";
}

/// The checks of count_min_sketch's arguments, in Spark's order: types, constant parameters,
/// non-null parameters, then their ranges. Returns {eps, confidence, seed}.
std::tuple<double, double, int64_t> cms_parameters(const std::vector<ArgInfo>& a) {
  const std::string sql = cms_call_sql(a);
  if (a.size() == 3)
    throw SparkError(ErrorKind::kAnalysis, "REQUIRED_PARAMETER_NOT_FOUND",
                     "Cannot invoke routine `count_min_sketch` because the parameter named `seed` is required, but "
                     "the routine call did not supply a value. Please update the routine call to supply an argument "
                     "value (either positionally at index 0 or by name) and retry the query again.",
                     {{"routineName", "`count_min_sketch`"}, {"parameterName", "`seed`"}, {"index", "0"}});
  const TypeId id = a[0].type->id();
  if (!(a[0].type->is_integral() || id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kNull))
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the (\"INTEGRAL\" or \"STRING\" or \"BINARY\") type, however \"" +
                            a[0].type->sql() + "\" has the type \"" + a[0].type->sql() + "\".",
                        sql);
  for (size_t k = 1; k < 4; ++k) {
    const TypeId t = a[k].type->id();
    bool ok = k < 3 ? t == TypeId::kDouble || t == TypeId::kNull
                    : t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kNull;
    if (!ok)
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("The ") + ordinal_word(k) + " parameter requires the " +
                              (k < 3 ? "\"DOUBLE\"" : "(\"INT\" or \"BIGINT\")") + " type, however \"" +
                              a[k].type->sql() + "\" has the type \"" + a[k].type->sql() + "\".",
                          sql);
  }
  const char* names[] = {"", "eps", "confidence", "seed"};
  for (size_t k = 1; k < 4; ++k)
    if (!a[k].literal)
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          std::string("The input ") + names[k] + " should be a foldable \"" +
                              (k < 3 ? "DOUBLE" : a[k].type->sql()) + "\" expression; however, got \"" +
                              a[k].type->sql() + "\".",
                          sql);
  for (size_t k = 1; k < 4; ++k)
    if (a[k].literal->is_null())
      throw_type_mismatch("UNEXPECTED_NULL", std::string("The ") + names[k] + " must not be null.", sql);
  const double eps = a[1].literal->as_double();
  const double confidence = a[2].literal->as_double();
  if (!(eps > 0))
    throw_type_mismatch("VALUE_OUT_OF_RANGE",
                        "The eps must be between (0.0, 1.7976931348623157E308] (current value = " +
                            java_double_string(eps) + "D).",
                        sql);
  if (!(confidence > 0 && confidence <= 1))
    throw_type_mismatch("VALUE_OUT_OF_RANGE",
                        "The confidence must be between (0.0, 1.0] (current value = " +
                            java_double_string(confidence) + "D).",
                        sql);
  return {eps, confidence, a[3].literal->as_int()};
}

FunctionDef count_min_sketch() {
  FunctionDef d;
  d.name = "count_min_sketch";
  d.kind = FunctionKind::kAggregate;
  d.min_args = 3;
  d.max_args = 4;
  d.constant_args = {1, 2, 3};
  d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    auto [eps, confidence, seed] = cms_parameters(a);
    Signature s;
    // Spark's seed is the low 32 bits of the argument.
    s.parameters = {static_cast<double>(cms::CountMinSketch::depth_for(confidence)),
                    static_cast<double>(cms::CountMinSketch::width_for(eps)),
                    static_cast<double>(static_cast<int32_t>(seed))};
    s.arg_types = {a[0].type, DataType::double_(), DataType::double_(), a[3].type};
    s.result_type = DataType::binary();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [](const Signature& sig, const EvalContext&) {
    return std::make_unique<CountMinSketchAggregate>(static_cast<int32_t>(sig.parameters[0]),
                                                     static_cast<int32_t>(sig.parameters[1]),
                                                     static_cast<int32_t>(sig.parameters[2]));
  };
  d.usage =
      "count_min_sketch(col, eps, confidence, seed) - Returns a count-min sketch of a column with the given esp, "
      "confidence and seed. The result is an array of bytes, which can be deserialized to a `CountMinSketch` "
      "before usage.";
  d.parameters = {{"column"}, {"epsilon"}, {"confidence"}, {"seed"}};
  return d;
}

}  // namespace

void register_sketch_functions(Registry& r) {
  r.add(approx_count_distinct());
  r.add(count_min_sketch());
}

}  // namespace ember::functions
