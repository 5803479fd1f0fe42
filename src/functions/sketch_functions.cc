// Cardinality sketches: approx_count_distinct (HyperLogLog++ over Spark's XXH64 hash of each
// value, hyperloglogplus.h).

#include <memory>
#include <string>

#include "common/error.h"
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
class ApproxCountDistinct final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(HyperLogLogPlusPlus*); }
  void init(uint8_t* s) const override { *reinterpret_cast<HyperLogLogPlusPlus**>(s) = nullptr; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull || n == 0) return;
    const int precision =
        hllpp::precision_for(args.size() > 1 ? args[1]->value_at(0).as_double() : kDefaultRelativeSD);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      auto** h = reinterpret_cast<HyperLogLogPlusPlus**>(states[i]);
      if (!*h) *h = new HyperLogLogPlusPlus(precision);
      (*h)->add_hash(static_cast<uint64_t>(xxhash64_value(c, i, kHashSeed)));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* s = *reinterpret_cast<HyperLogLogPlusPlus* const*>(src);
    if (!s) return;
    auto** d = reinterpret_cast<HyperLogLogPlusPlus**>(dst);
    if (!*d) *d = new HyperLogLogPlusPlus(*s);
    else (*d)->merge(*s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* h = *reinterpret_cast<HyperLogLogPlusPlus* const*>(states[i]);
      out.append<int64_t>(h ? h->estimate() : 0);
    }
  }
  void destroy(uint8_t* state) const override {
    auto** h = reinterpret_cast<HyperLogLogPlusPlus**>(state);
    delete *h;
    *h = nullptr;
  }
  bool needs_destroy() const override { return true; }
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

}  // namespace

void register_sketch_functions(Registry& r) { r.add(approx_count_distinct()); }

}  // namespace ember::functions
