// Math functions: abs, ceil/floor, round/bround, the double-valued unary and binary functions
// (sqrt, exp, logarithms, trigonometry, pow, atan2, hypot), signum, greatest/least, bitwise
// operators and shifts, factorial, hex/unhex/bin,
// with Spark's result types, column names, null results and ANSI overflow errors. The
// double-valued functions give Spark's doubles to the last bit where Spark computes them with
// Java's StrictMath (strict_math.h), directly or through java.lang.Math.
//
// Decimal arguments are not supported yet (they need decimal arithmetic); ceil/floor with a
// scale (whose result is a decimal) are not registered yet.

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "functions/collection_util.h"
#include "functions/decimal_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "functions/strict_math.h"

namespace ember::functions {
namespace {

std::string call_sql(const std::string& name, const std::vector<TypePtr>& args) {
  std::string s = name + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i]->sql();
  return s + ")";
}

[[noreturn]] void wrong_type(const std::string& fn, const std::vector<TypePtr>& args, size_t i,
                             const std::string& required) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal_word(i) +
                          " parameter requires the " + required + " type, however \"" +
                          args[i]->sql() + "\" has the type \"" + args[i]->sql() + "\".",
                      call_sql(fn, args));
}

/// Numbers (decimals included), strings and NULLs become doubles, as Spark's implicit casts for
/// math functions do.
TypePtr as_double_input(const std::string& fn, const std::vector<TypePtr>& args, size_t i) {
  const TypePtr& t = args[i];
  if (t->is_numeric() || t->id() == TypeId::kString || t->id() == TypeId::kNull)
    return DataType::double_();
  wrong_type(fn, args, i, "\"DOUBLE\"");
}

/// The integral types pass through; strings and NULLs become `fallback`.
TypePtr integral_input(const std::string& fn, const std::vector<TypePtr>& args, size_t i,
                       const TypePtr& fallback, const std::string& required) {
  const TypePtr& t = args[i];
  if (t->is_integral()) return t;
  if (t->id() == TypeId::kString || t->id() == TypeId::kNull) return fallback;
  wrong_type(fn, args, i, required);
}

/// An argument Spark implicitly casts to `to` (an integral type) from any number or string
/// (fractions truncate; ANSI mode checks the range).
TypePtr numeric_input(const std::string& fn, const std::vector<TypePtr>& args, size_t i, const TypePtr& to,
                      const std::string& required) {
  const TypePtr& t = args[i];
  if (t->is_numeric() || t->id() == TypeId::kString || t->id() == TypeId::kNull) return to;
  wrong_type(fn, args, i, required);
}

/// Java's (long) conversion of a double: saturating, NaN becomes 0.
int64_t java_d2l(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

/// The value of a constant integer argument (the scale of round, for example); null → nullopt.
std::optional<int64_t> constant_int(const Column& c) {
  if (c.length() == 0 || c.is_null(0)) return std::nullopt;
  return dispatch_fixed(c.type()->id(), [&]<typename T>() -> int64_t {
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(c.values<T>()[0]);
    else return static_cast<int64_t>(c.values<T>()[0]);
  });
}

// ---------------------------------------------------------------------------------------------
// Double-valued unary and binary functions.

struct UnaryDouble {
  const char* name;
  const char* display;
  std::vector<std::string> aliases;
  double (*fn)(double);
  /// Inputs at or below this bound give NULL (Spark's logarithms); NaN when none.
  double null_at_or_below;
};

// Java's Math.toDegrees / toRadians multiply by these constants.
constexpr double kRadiansToDegrees = 57.29577951308232;
constexpr double kDegreesToRadians = 0.017453292519943295;

double java_signum(double x) {
  if (std::isnan(x) || x == 0) return x;
  return x > 0 ? 1.0 : -1.0;
}

/// asinh as Spark computes it (ExpressionImplUtils.asinh): on |x|, then with x's sign.
double spark_asinh(double x) {
  const double a = std::fabs(x);
  double r;
  if (std::isinf(a) || std::isnan(a) || a < 0x1p-28) {
    r = a;
  } else if (a > 0x1p28) {
    r = strict_math::log(a) + strict_math::log(2.0);
  } else if (a > 2.0) {
    r = strict_math::log(2.0 * a + 1.0 / (std::sqrt(x * x + 1.0) + a));
  } else {
    const double t = x * x;
    r = strict_math::log1p(a + t / (1.0 + std::sqrt(1.0 + t)));
  }
  return std::copysign(r, x);
}

/// acosh as Spark computes it (ExpressionImplUtils.acosh).
double spark_acosh(double x) {
  if (x < 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (x >= 0x1p28) return strict_math::log(x) + strict_math::log(2.0);
  if (x == 1.0) return 0.0;
  if (x > 2.0) return strict_math::log(2.0 * x - 1.0 / (x + std::sqrt(x * x - 1.0)));
  const double t = x - 1.0;
  return strict_math::log1p(t + std::sqrt(2.0 * t + t * t));
}

/// log2 and atanh as Spark composes them from StrictMath's logarithms.
double spark_log2(double x) { return strict_math::log(x) / strict_math::log(2.0); }
double spark_atanh(double x) { return 0.5 * (strict_math::log1p(x) - strict_math::log1p(-x)); }

// Spark computes exp, expm1, the logarithms, atanh, asinh and acosh with Java's StrictMath,
// and the rest with java.lang.Math, which runs StrictMath's code for asin, acos, atan, sinh,
// cosh, tanh and cbrt. sin, cos and tan (and cot, sec, csc from them) are the JVM's own
// intrinsics, which follow neither fdlibm nor the C library to the last bit; the C library's
// results are the nearer of the two, so those keep them.
const std::vector<UnaryDouble>& unary_doubles() {
  static const double kNone = std::numeric_limits<double>::quiet_NaN();
  static const std::vector<UnaryDouble> fns = {
      {"sqrt", "SQRT", {}, [](double x) { return std::sqrt(x); }, kNone},
      {"cbrt", "CBRT", {}, strict_math::cbrt, kNone},
      {"exp", "EXP", {}, strict_math::exp, kNone},
      {"expm1", "EXPM1", {}, strict_math::expm1, kNone},
      {"ln", "ln", {}, strict_math::log, 0.0},
      {"log10", "LOG10", {}, strict_math::log10, 0.0},
      {"log2", "LOG2", {}, spark_log2, 0.0},
      {"log1p", "LOG1P", {}, strict_math::log1p, -1.0},
      {"sin", "SIN", {}, [](double x) { return std::sin(x); }, kNone},
      {"cos", "COS", {}, [](double x) { return std::cos(x); }, kNone},
      {"tan", "TAN", {}, [](double x) { return std::tan(x); }, kNone},
      {"cot", "COT", {}, [](double x) { return 1.0 / std::tan(x); }, kNone},
      {"sec", "SEC", {}, [](double x) { return 1.0 / std::cos(x); }, kNone},
      {"csc", "CSC", {}, [](double x) { return 1.0 / std::sin(x); }, kNone},
      {"asin", "ASIN", {}, strict_math::asin, kNone},
      {"acos", "ACOS", {}, strict_math::acos, kNone},
      {"atan", "ATAN", {}, strict_math::atan, kNone},
      {"sinh", "SINH", {}, strict_math::sinh, kNone},
      {"cosh", "COSH", {}, strict_math::cosh, kNone},
      {"tanh", "TANH", {}, strict_math::tanh, kNone},
      {"asinh", "ASINH", {}, spark_asinh, kNone},
      {"acosh", "ACOSH", {}, spark_acosh, kNone},
      {"atanh", "ATANH", {}, spark_atanh, kNone},
      {"degrees", "DEGREES", {}, [](double x) { return x * kRadiansToDegrees; }, kNone},
      {"radians", "RADIANS", {}, [](double x) { return x * kDegreesToRadians; }, kNone},
      {"signum", "SIGNUM", {"sign"}, java_signum, kNone},
      {"rint", "rint", {}, [](double x) { return std::nearbyint(x); }, kNone},
  };
  return fns;
}

void register_unary_doubles(Registry& r) {
  for (const UnaryDouble& u : unary_doubles()) {
    FunctionDef d;
    d.name = u.name;
    d.aliases = u.aliases;
    d.display_name = u.display;
    d.min_args = d.max_args = 1;
    std::string name = u.name;
    bool nulls = !std::isnan(u.null_at_or_below);
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      s.arg_types = {as_double_input(name, args, 0)};
      s.result_type = DataType::double_();
      // Spark's unary math expressions are nullable whatever their argument.
      s.may_introduce_null = true;
      return s;
    };
    auto fn = u.fn;
    double bound = u.null_at_or_below;
    d.kernel = [fn, bound, nulls](const std::vector<ColumnPtr>& args, int64_t n,
                                  const Signature& sig, const EvalContext&) -> ColumnPtr {
      if (!nulls) return unary_fixed<double, double, false>(*args[0], n, sig.result_type, fn);
      ColumnBuilder b(sig.result_type, n);
      const Column& a = *args[0];
      const double* x = a.values<double>();
      for (int64_t i = 0; i < n; ++i) {
        if (a.is_null(i) || x[i] <= bound) b.append_null();
        else b.append<double>(fn(x[i]));
      }
      return b.finish();
    };
    d.gpu_supported = false;
    d.usage = std::string(u.name) + "(expr) - Returns the " + u.name + " of expr as a double.";
    r.add(std::move(d));
  }
}

/// atan2 as Spark calls it: with 0.0 added to both arguments, which turns -0.0 into 0.0.
double spark_atan2(double y, double x) { return strict_math::atan2(y + 0.0, x + 0.0); }

void register_binary_doubles(Registry& r) {
  struct Spec {
    const char* name;
    const char* display;
    std::vector<std::string> aliases;
    double (*fn)(double, double);
  };
  std::vector<Spec> specs = {
      {"power", "POWER", {"pow"}, strict_math::pow},
      {"atan2", "ATAN2", {}, spark_atan2},
      {"hypot", "HYPOT", {}, strict_math::hypot},
  };
  for (const Spec& sp : specs) {
    FunctionDef d;
    d.name = sp.name;
    d.aliases = sp.aliases;
    d.display_name = sp.display;
    d.min_args = d.max_args = 2;
    std::string name = sp.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      s.arg_types = {as_double_input(name, args, 0), as_double_input(name, args, 1)};
      s.result_type = DataType::double_();
      return s;
    };
    auto fn = sp.fn;
    d.kernel = [fn](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                    const EvalContext&) {
      return binary_fixed<double, double, double, false>(*args[0], *args[1], n, sig.result_type,
                                                         fn);
    };
    d.usage = std::string(sp.name) + "(expr1, expr2) - Double-valued " + sp.name + ".";
    r.add(std::move(d));
  }
  // log(base, x): NULL when either is not positive; log(x) is the natural logarithm.
  FunctionDef d;
  d.name = "log";
  d.display_name = "LOG";
  d.min_args = 1;
  d.max_args = 2;
  d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
    Signature s;
    for (size_t i = 0; i < args.size(); ++i) s.arg_types.push_back(as_double_input("log", args, i));
    s.result_type = DataType::double_();
    s.may_introduce_null = true;
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                const EvalContext&) -> ColumnPtr {
    if (args.size() == 1) {
      return binary_fixed_nullable<double, double, double>(
          *args[0], *args[0], n, sig.result_type, [](double x, double, double* out) {
            if (x <= 0) return false;
            *out = strict_math::log(x);
            return true;
          });
    }
    return binary_fixed_nullable<double, double, double>(
        *args[0], *args[1], n, sig.result_type, [](double base, double x, double* out) {
          if (base <= 0 || x <= 0) return false;
          *out = strict_math::log(x) / strict_math::log(base);
          return true;
        });
  };
  d.usage = "log(base, expr) - Returns the logarithm of expr with base.";
  r.add(std::move(d));
}

void register_constants(Registry& r) {
  struct Spec {
    const char* name;
    const char* display;
    double value;
  };
  for (Spec sp : {Spec{"e", "E", M_E}, Spec{"pi", "PI", M_PI}}) {
    FunctionDef d;
    d.name = sp.name;
    d.display_name = sp.display;
    d.min_args = d.max_args = 0;
    d.type_rule = [](const std::vector<TypePtr>&, const Config&) {
      Signature s;
      s.result_type = DataType::double_();
      s.never_null = true;
      return s;
    };
    double v = sp.value;
    d.kernel = [v](const std::vector<ColumnPtr>&, int64_t n, const Signature& sig,
                   const EvalContext&) {
      return Column::constant(sig.result_type, Value::floating(v), n);
    };
    d.usage = std::string(sp.name) + "() - Returns the constant " + sp.display + ".";
    r.add(std::move(d));
  }
}

// ---------------------------------------------------------------------------------------------
// abs, positive, ceil, floor.

/// ceil/floor of a decimal to `scale` digits (negative: tens, hundreds ...), on the exact value.
/// A result beyond 38 digits is NUMERIC_VALUE_OUT_OF_RANGE in every mode, as in Spark.
ColumnPtr floor_ceil_decimal(const Column& a, int64_t n, const Signature& sig, int64_t scale, bool ceil) {
  const int in_scale = sig.arg_types[0]->scale();
  const int out_precision = sig.result_type->precision();
  const int64_t drop = in_scale - std::min<int64_t>(scale, in_scale);
  const int64_t pad = scale < 0 ? -scale : 0;
  ColumnBuilder b(sig.result_type, n);
  const int128_t* x = a.values<int128_t>();
  // Spark reports a result beyond 38 digits in every mode, naming the rounded value in full
  // and as Java's BigDecimal prints it (1E+100).
  auto out_of_range = [&](int128_t q) {
    std::string full = int128_to_string(q) + std::string(static_cast<size_t>(pad), '0');
    decimal_rounded_out_of_range(full, java_decimal_string(q, static_cast<int>(-pad)),
                                 sig.result_type->precision(), sig.result_type->scale());
  };
  for (int64_t i = 0; i < n; ++i) {
    if (a.is_null(i)) {
      b.append_null();
      continue;
    }
    int128_t v = x[i];
    if (drop > 0) {
      // Quotient toward zero, then one step up (ceil, positive remainder) or down (floor,
      // negative remainder). Beyond 38 digits every value's quotient is 0.
      int128_t q = 0, rem = v;
      if (drop <= 38) {
        const int128_t f = pow10_i128(static_cast<int>(drop));
        q = v / f;
        rem = v % f;
      }
      if (ceil && rem > 0) q += 1;
      if (!ceil && rem < 0) q -= 1;
      v = q;
    }
    if (pad > 0 && v != 0) {
      if (pad > 38 || !decimal_fits(v, 38 - static_cast<int>(pad))) out_of_range(v);
      v *= pow10_i128(static_cast<int>(pad));
    }
    if (!decimal_fits(v, out_precision)) {
      b.append_null();
      continue;
    }
    b.append<int128_t>(v);
  }
  return b.finish();
}

void register_abs_positive(Registry& r) {
  {
    FunctionDef d;
    d.name = "abs";
    d.min_args = d.max_args = 1;
    d.usage = "abs(expr) - Returns the absolute value of the numeric or interval value.";
    d.examples = {{"SELECT abs(-1)", "1"}, {"SELECT abs(-2.5D)", "2.5"}};
    d.since = "1.2.0";
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      TypePtr t = args[0];
      if (t->id() == TypeId::kString || t->id() == TypeId::kNull) t = DataType::double_();
      if (!t->is_numeric()) wrong_type("abs", args, 0, "(\"NUMERIC\" or \"INTERVAL\")");
      Signature s;
      s.arg_types = {t};
      s.result_type = t;
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext& ctx) {
      const TypePtr& rt = sig.result_type;
      return dispatch_fixed(rt->id(), [&]<typename T>() -> ColumnPtr {
        if constexpr (std::is_floating_point_v<T>) {
          return unary_fixed<T, T, false>(*args[0], n, rt, [](T x) { return std::fabs(x); });
        } else if constexpr (std::is_same_v<T, int128_t>) {
          const int precision = rt->precision(), scale = rt->scale();
          return unary_fixed<T, T, false>(*args[0], n, rt, [=](T x) {
            return x < 0 ? decimal_negate(x, precision, scale) : x;
          });
        } else {
          if (ctx.ansi)
            return unary_fixed<T, T, true>(*args[0], n, rt, [](T x) {
              if (x == std::numeric_limits<T>::min()) throw_arithmetic_overflow("", nullptr);
              return static_cast<T>(x < 0 ? -x : x);
            });
          return unary_fixed<T, T, false>(*args[0], n, rt, [](T x) {
            return x < 0 ? static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) -
                                          static_cast<std::make_unsigned_t<T>>(x))
                         : x;
          });
        }
      });
    };
    d.gpu_supported = false;
    d.usage = "abs(expr) - Returns the absolute value of the numeric value.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "positive";
    d.min_args = d.max_args = 1;
    d.display = Display::kPrefix;
    d.display_name = "+";
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      TypePtr t = args[0];
      if (t->id() == TypeId::kString || t->id() == TypeId::kNull) t = DataType::double_();
      if (!t->is_numeric() && t->id() != TypeId::kDayTimeInterval &&
          t->id() != TypeId::kYearMonthInterval)
        wrong_type("positive", args, 0, "(\"NUMERIC\" or \"INTERVAL\")");
      Signature s;
      s.arg_types = {t};
      s.result_type = t;
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t, const Signature&,
                  const EvalContext&) { return args[0]; };
    d.usage = "positive(expr) - Returns the value of expr.";
    r.add(std::move(d));
  }
  for (bool ceil : {true, false}) {
    FunctionDef d;
    d.name = ceil ? "ceil" : "floor";
    if (ceil) d.aliases = {"ceiling"};
    d.min_args = 1;
    d.max_args = 2;
    std::string name = d.name;
    d.arg_type_rule = [name](const std::vector<ArgInfo>& info, const Config&) {
      std::vector<TypePtr> args;
      for (auto& a : info) args.push_back(a.type);
      const TypePtr& t = args[0];
      Signature s;
      if (args.size() == 1) {
        // A decimal keeps its integral digits (one more for the carry) at scale 0; other numbers
        // become longs.
        if (t->id() == TypeId::kDecimal) {
          s.arg_types = {t};
          s.result_type = DataType::decimal(std::min(t->precision() - t->scale() + 1, 38), 0);
          s.may_introduce_null = true;  // as Spark's decimal ceil/floor declares
        } else {
          s.arg_types = {t->is_integral() ? DataType::long_() : as_double_input(name, args, 0)};
          s.result_type = DataType::long_();
        }
        return s;
      }
      // ceil(x, scale): the scale is a constant INT; x is taken as a decimal (integers at their
      // digits, float as DECIMAL(14,7), double as DECIMAL(30,15), strings and NULL as
      // DECIMAL(38,18)) and the result is a decimal at the scale asked for.
      if (!info[1].literal || info[1].type->id() != TypeId::kInt)
        throw SparkError(ErrorKind::kAnalysis, "NON_FOLDABLE_ARGUMENT",
                         "The function `" + name + "` requires the parameter `scale` to be a foldable "
                         "expression of the type \"INT\", but the actual argument is a non-foldable.",
                         {{"funcName", "`" + name + "`"}, {"paramName", "`scale`"},
                          {"paramType", "\"INT\""}});
      TypePtr in;
      switch (t->id()) {
        case TypeId::kDecimal: in = t; break;
        case TypeId::kByte: in = DataType::decimal(3, 0); break;
        case TypeId::kShort: in = DataType::decimal(5, 0); break;
        case TypeId::kInt: in = DataType::decimal(10, 0); break;
        case TypeId::kLong: in = DataType::decimal(20, 0); break;
        case TypeId::kFloat: in = DataType::decimal(14, 7); break;
        case TypeId::kDouble: in = DataType::decimal(30, 15); break;
        case TypeId::kString:
        case TypeId::kNull: in = DataType::decimal(38, 18); break;
        default: wrong_type(name, args, 0, "\"DECIMAL\"");
      }
      const int64_t scale = info[1].literal->as_int();
      const int p = in->precision(), sc = in->scale(), integral = p - sc + 1;
      s.arg_types = {in, DataType::int_()};
      if (scale < 0) {
        s.result_type = DataType::decimal(std::min<int64_t>(std::max<int64_t>(integral, 1 - scale), 38), 0);
      } else {
        const int ns = static_cast<int>(std::min<int64_t>(sc, scale));
        s.result_type = DataType::decimal(std::min(integral + ns, 38), ns);
      }
      s.may_introduce_null = true;
      return s;
    };
    d.kernel = [ceil](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                      const EvalContext& ctx) -> ColumnPtr {
      if (sig.result_type->id() == TypeId::kDecimal) {
        int64_t scale = 0;
        if (args.size() == 2) {
          auto v = constant_int(*args[1]);
          if (!v) return Column::all_null(sig.result_type, n);
          scale = *v;
        }
        return floor_ceil_decimal(*args[0], n, sig, scale, ceil);
      }
      if (args[0]->type()->id() == TypeId::kLong) return args[0];
      bool ansi = ctx.ansi;
      // ANSI mode rejects a result outside the long range (NaN and infinities included);
      // otherwise the conversion saturates as Java's does.
      return unary_fixed<double, int64_t, true>(*args[0], n, sig.result_type, [ceil, ansi](double x) {
        double v = ceil ? std::ceil(x) : std::floor(x);
        if (ansi && !(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
          throw_arithmetic_overflow("", nullptr);
        return java_d2l(v);
      });
    };
    // One argument: CEIL(x) / FLOOR(x), as Spark names it; with a scale: ceil(x, s).
    // Called by an alias (ceiling), or with a scale: by that name.
    d.render = [name](const std::string& called, const std::vector<std::string>& a) {
      if (a.size() == 1 && called == name) return std::string(name == "ceil" ? "CEIL" : "FLOOR") + "(" + a[0] + ")";
      return called + "(" + a[0] + (a.size() > 1 ? ", " + a[1] : std::string()) + ")";
    };
    d.gpu_supported = false;
    d.usage = name + "(expr[, scale]) - Returns the " + (ceil ? "smallest number not smaller" : "largest number not greater") + " than expr, rounded to scale decimal places.";
    r.add(std::move(d));
  }
}

// ---------------------------------------------------------------------------------------------
// round / bround.

/// Rounds `x` to `scale` decimal places as Spark does: through the decimal text of the double
/// (Java's `BigDecimal(Double.toString(x))`), so 2.675 rounds to 2.68 although its binary value
/// is a little below 2.675. Zero results are positive zero, as BigDecimal has no negative zero.
double round_double(double x, int64_t scale, bool half_even) {
  if (std::isnan(x) || std::isinf(x)) return x;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), std::fabs(x), std::chars_format::scientific);
  std::string text(buf, res.ptr);
  size_t e = text.find('e');
  int exp10 = std::stoi(text.substr(e + 1));
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (text[i] != '.') digits += text[i];
  // value = 0.digits * 10^(exp10 + 1); keep the digits left of position exp10 + 1 + scale.
  int64_t keep = static_cast<int64_t>(exp10) + 1 + scale;
  if (keep >= static_cast<int64_t>(digits.size())) return x;
  if (keep < 0) return 0.0;
  std::string kept = digits.substr(0, static_cast<size_t>(keep));
  int next = digits[static_cast<size_t>(keep)] - '0';
  bool rest = digits.find_first_not_of('0', static_cast<size_t>(keep) + 1) != std::string::npos;
  bool up;
  if (!half_even) {
    up = next >= 5;
  } else {
    int last = kept.empty() ? 0 : kept.back() - '0';
    up = next > 5 || (next == 5 && (rest || (last & 1)));
  }
  if (up) {
    int i = static_cast<int>(kept.size()) - 1;
    while (i >= 0 && kept[static_cast<size_t>(i)] == '9') kept[static_cast<size_t>(i--)] = '0';
    if (i < 0) {
      kept.insert(kept.begin(), '1');
      ++exp10;
      ++keep;
    } else {
      ++kept[static_cast<size_t>(i)];
    }
  }
  if (kept.empty() || kept.find_first_not_of('0') == std::string::npos) return 0.0;
  // kept * 10^(exp10 + 1 - keep)
  std::string out = kept + "e" + std::to_string(static_cast<int64_t>(exp10) + 1 - keep);
  double v = std::strtod(out.c_str(), nullptr);
  return x < 0 ? -v : v;
}

template <typename T>
T round_integral(T x, int64_t scale, bool half_even, bool ansi) {
  if (scale >= 0) return x;
  if (scale < -38) scale = -38;
  int128_t p = 1;
  for (int64_t i = 0; i < -scale && p < (static_cast<int128_t>(1) << 100); ++i) p *= 10;
  int128_t v = x;
  int128_t q = v / p, rem = v % p;
  int128_t arem = rem < 0 ? -rem : rem;
  bool up = half_even ? (2 * arem > p || (2 * arem == p && (q & 1))) : 2 * arem >= p;
  if (up) q += v < 0 ? -1 : 1;
  int128_t result = q * p;
  if (result < std::numeric_limits<T>::min() || result > std::numeric_limits<T>::max()) {
    if (ansi) throw_arithmetic_overflow_message("Overflow", nullptr);
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<uint64_t>(result)));
  }
  return static_cast<T>(result);
}

/// round/bround of a decimal to `scale` digits (HALF_UP or HALF_EVEN, on the exact value),
/// null where the result does not fit its precision.
ColumnPtr round_decimal(const Column& a, int64_t n, const Signature& sig, int64_t scale, bool half_even) {
  const int in_scale = sig.arg_types[0]->scale();
  const int out_scale = sig.result_type->scale();
  const int out_precision = sig.result_type->precision();
  // Digits dropped from the input, and zeros appended to the rounded value (negative scales).
  const int64_t drop = in_scale - std::min<int64_t>(scale, in_scale);
  const int64_t pad = scale < 0 ? -scale : 0;
  ColumnBuilder b(sig.result_type, n);
  const int128_t* x = a.values<int128_t>();
  for (int64_t i = 0; i < n; ++i) {
    if (a.is_null(i)) {
      b.append_null();
      continue;
    }
    int128_t v = x[i];
    if (drop > 0) {
      if (drop > 38) {
        v = 0;
      } else {
        const int128_t f = pow10_i128(static_cast<int>(drop));
        int128_t q = v / f, rem = v % f;
        int128_t twice = (rem < 0 ? -rem : rem) * 2;
        bool up = twice > f || (twice == f && (!half_even || (q % 2 != 0)));
        if (up) q += v < 0 ? -1 : 1;
        v = q;
      }
    }
    if (pad > 0) {
      if (pad > 38 || !decimal_fits(v, 38 - static_cast<int>(pad))) {
        b.append_null();
        continue;
      }
      v *= pow10_i128(static_cast<int>(pad));
    }
    (void)out_scale;
    if (!decimal_fits(v, out_precision)) {
      b.append_null();
      continue;
    }
    b.append<int128_t>(v);
  }
  return b.finish();
}

void register_round(Registry& r) {
  for (bool half_even : {false, true}) {
    FunctionDef d;
    d.name = half_even ? "bround" : "round";
    d.min_args = 1;
    d.max_args = 2;
    d.constant_args = {1};
    std::string name = d.name;
    d.arg_type_rule = [name](const std::vector<ArgInfo>& info, const Config&) {
      std::vector<TypePtr> args;
      for (auto& a : info) args.push_back(a.type);
      TypePtr t = args[0];
      if (t->id() == TypeId::kString || t->id() == TypeId::kNull) t = DataType::double_();
      if (!t->is_numeric()) wrong_type(name, args, 0, "\"NUMERIC\"");
      Signature s;
      s.arg_types = {t};
      if (args.size() == 2) s.arg_types.push_back(integral_input(name, args, 1, DataType::int_(), "\"INT\""));
      // The scale is constant (folded before this rule runs: constant_args), whatever the type.
      if (info.size() == 2 && !info[1].literal)
        throw_type_mismatch("NON_FOLDABLE_INPUT",
                            "the input scale should be a foldable \"INT\" expression; however, got \"" +
                                args[1]->sql() + "\".",
                            call_sql(name, args));
      s.result_type = t;
      if (t->id() == TypeId::kDecimal) {
        // Spark's result: one more integral digit than the input may need, and the scale
        // asked for (at most the input's; a negative scale rounds to tens, hundreds ...).
        int64_t scale = 0;
        if (info.size() == 2) scale = info[1].literal->is_null() ? 0 : info[1].literal->as_int();
        const int p = t->precision(), sc = t->scale();
        const int integral = p - sc + 1;
        if (scale < 0) {
          s.result_type = DataType::decimal(std::min<int64_t>(std::max<int64_t>(integral, 1 - scale), 38), 0);
        } else {
          const int ns = static_cast<int>(std::min<int64_t>(sc, scale));
          s.result_type = DataType::decimal(std::min(integral + ns, 38), ns);
        }
      }
      s.may_introduce_null = true;  // Spark's round is always nullable
      return s;
    };
    d.kernel = [half_even](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                           const EvalContext& ctx) -> ColumnPtr {
      int64_t scale = 0;
      if (args.size() == 2) {
        auto v = constant_int(*args[1]);
        if (!v) return Column::all_null(sig.result_type, n);
        scale = *v;
      }
      const TypePtr& rt = sig.result_type;
      bool ansi = ctx.ansi;
      return dispatch_fixed(rt->id(), [&]<typename T>() -> ColumnPtr {
        if constexpr (std::is_floating_point_v<T>) {
          return unary_fixed<T, T, false>(*args[0], n, rt, [&](T x) {
            return static_cast<T>(round_double(static_cast<double>(x), scale, half_even));
          });
        } else if constexpr (std::is_same_v<T, int128_t>) {
          return round_decimal(*args[0], n, sig, scale, half_even);
        } else {
          return unary_fixed<T, T, true>(*args[0], n, rt, [&](T x) {
            return round_integral<T>(x, scale, half_even, ansi);
          });
        }
      });
    };
    // Spark shows the defaulted scale: round(x) is named round(x, 0).
    d.render = [](const std::string& called, const std::vector<std::string>& a) {
      return called + "(" + a[0] + ", " + (a.size() > 1 ? a[1] : std::string("0")) + ")";
    };
    d.usage = half_even ? "bround(expr, d) - Rounds expr to d decimal places, HALF_EVEN."
                        : "round(expr, d) - Rounds expr to d decimal places, HALF_UP.";
    r.add(std::move(d));
  }
}

// ---------------------------------------------------------------------------------------------
// greatest / least.

/// Spark's ordering of doubles: NaN is larger than everything and equal to itself; -0.0 = 0.0.
template <typename T>
int compare_values(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

/// greatest / least of arrays and structs: per row, the argument whose value wins under Spark's
/// ordering (`better` of the comparison), nulls skipped; the rows are then gathered from the
/// arguments laid end to end.
template <typename Better>
ColumnPtr pick_nested(const std::vector<ColumnPtr>& args, int64_t n, Better better) {
  const size_t k = args.size();
  std::vector<std::vector<ValueCompare>> cmp(k, std::vector<ValueCompare>(k));
  for (size_t a = 0; a < k; ++a)
    for (size_t b = 0; b < k; ++b)
      if (a != b) cmp[a][b] = value_comparator(args[a], args[b]);
  std::vector<int32_t> indices(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int best = -1;
    for (size_t a = 0; a < k; ++a) {
      if (args[a]->is_null(i)) continue;
      if (best < 0 || better(cmp[a][static_cast<size_t>(best)](i, i))) best = static_cast<int>(a);
    }
    indices[static_cast<size_t>(i)] = best < 0 ? -1 : static_cast<int32_t>(best * n + i);
  }
  std::vector<ColumnPtr> parts;
  for (auto& a : args) parts.push_back(slice(a, 0, n));
  return gather(*concat(parts), indices.data(), n);
}

void register_greatest_least(Registry& r) {
  for (bool greatest : {true, false}) {
    FunctionDef d;
    d.name = greatest ? "greatest" : "least";
    d.min_args = 2;
    d.max_args = -1;
    std::string name = d.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config& conf) {
      TypePtr common = args[0];
      for (size_t i = 1; i < args.size() && common; ++i)
        common = wider_type(common, args[i], conf.ansi_enabled());
      if (!common) {
        std::string types;
        for (size_t i = 0; i < args.size(); ++i) types += (i ? ", " : "") + ("\"" + args[i]->sql() + "\"");
        throw_type_mismatch("DATA_DIFF_TYPES",
                            "Input to `" + name + "` should all be the same type, but it's [" +
                                types + "].",
                            call_sql(name, args));
      }
      if (common->id() == TypeId::kNull) common = DataType::null();
      // Arrays and structs of orderable types compare in Spark's ordering; maps, variants and
      // calendar intervals have none.
      if (!orderable(*common))
        throw_type_mismatch(
            "INVALID_ORDERING_TYPE",
            "The `" + name + "` does not support ordering on type \"" + common->sql() + "\".",
            call_sql(name, args));
      Signature s;
      s.arg_types.assign(args.size(), common);
      s.result_type = common;
      s.null_if_any_arg_null = false;
      s.null_if_all_args_null = true;
      return s;
    };
    d.kernel = [greatest](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                          const EvalContext&) -> ColumnPtr {
      const TypePtr& rt = sig.result_type;
      auto better = [greatest](int c) { return greatest ? c > 0 : c < 0; };
      TypeId id = rt->id();
      if (id == TypeId::kNull) return Column::all_null(rt, n);
      if (rt->is_nested()) return pick_nested(args, n, better);
      ColumnBuilder b(rt, n);
      if (id == TypeId::kString || id == TypeId::kBinary) {
        for (int64_t i = 0; i < n; ++i) {
          const Column* best = nullptr;
          std::string_view bv;
          for (auto& a : args) {
            if (a->is_null(i)) continue;
            std::string_view v = a->string_at(i);
            if (!best || better(v.compare(bv))) best = a.get(), bv = v;
          }
          if (best) b.append_bytes(bv);
          else b.append_null();
        }
        return b.finish();
      }
      if (id == TypeId::kBoolean) {
        for (int64_t i = 0; i < n; ++i) {
          int best = -1;
          for (auto& a : args) {
            if (a->is_null(i)) continue;
            int v = a->bool_at(i) ? 1 : 0;
            if (best < 0 || better(v - best)) best = v;
          }
          if (best < 0) b.append_null();
          else b.append_bool(best == 1);
        }
        return b.finish();
      }
      return dispatch_fixed(id, [&]<typename T>() -> ColumnPtr {
        for (int64_t i = 0; i < n; ++i) {
          bool found = false;
          T best{};
          for (auto& a : args) {
            if (a->is_null(i)) continue;
            T v = a->values<T>()[i];
            if (!found || better(compare_values<T>(v, best))) best = v, found = true;
          }
          if (found) b.append<T>(best);
          else b.append_null();
        }
        return b.finish();
      });
    };
    d.usage = name + "(expr, ...) - Returns the " + (greatest ? "greatest" : "least") +
              " value of all parameters, skipping null values.";
    r.add(std::move(d));
  }
}

// ---------------------------------------------------------------------------------------------
// Bitwise operators and shifts.

void register_bitwise(Registry& r) {
  enum class B { kAnd, kOr, kXor };
  struct Spec {
    const char* name;
    B op;
  };
  for (Spec sp : {Spec{"&", B::kAnd}, Spec{"|", B::kOr}, Spec{"^", B::kXor}}) {
    FunctionDef d;
    d.name = sp.name;
    d.display = Display::kInfix;
    d.min_args = d.max_args = 2;
    std::string sym = sp.name;
    d.type_rule = [sym](const std::vector<TypePtr>& args, const Config& conf) {
      TypePtr a = args[0]->id() == TypeId::kNull ? DataType::long_() : args[0];
      TypePtr b = args[1]->id() == TypeId::kNull ? a : args[1];
      if (args[0]->id() == TypeId::kNull) a = b;
      TypePtr w = wider_type(a, b, conf.ansi_enabled());
      // Operands are only widened to an integral type: other pairs keep their own types, so
      // they fail as different types unless they are one type already.
      const bool same = a->equals(*b);
      if (!w || !w->is_integral())
        throw_type_mismatch(same ? "BINARY_OP_WRONG_TYPE" : "BINARY_OP_DIFF_TYPES",
                            same ? "the binary operator requires the input type \"INTEGRAL\", not \"" +
                                       a->sql() + "\"."
                              : "the left and right operands of the binary operator have "
                                "incompatible types (\"" +
                                    args[0]->sql() + "\" and \"" + args[1]->sql() + "\").",
                            args[0]->sql() + " " + sym + " " + args[1]->sql());
      Signature s;
      s.arg_types = {w, w};
      s.result_type = w;
      return s;
    };
    B op = sp.op;
    d.kernel = [op](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                    const EvalContext&) {
      const TypePtr& rt = sig.result_type;
      return dispatch_fixed(rt->id(), [&]<typename T>() -> ColumnPtr {
        if constexpr (std::is_integral_v<T>) {
          switch (op) {
            case B::kAnd:
              return binary_fixed<T, T, T, false>(*args[0], *args[1], n, rt,
                                                  [](T x, T y) { return static_cast<T>(x & y); });
            case B::kOr:
              return binary_fixed<T, T, T, false>(*args[0], *args[1], n, rt,
                                                  [](T x, T y) { return static_cast<T>(x | y); });
            default:
              return binary_fixed<T, T, T, false>(*args[0], *args[1], n, rt,
                                                  [](T x, T y) { return static_cast<T>(x ^ y); });
          }
        } else {
          EMBER_UNREACHABLE("bitwise operator on a non-integral type");
        }
      });
    };
    d.gpu_supported = false;
    d.usage = std::string("expr1 ") + sp.name + " expr2 - Bitwise operation on integral values.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "bit_count";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      TypePtr t = args[0];
      if (t->id() == TypeId::kNull) t = DataType::long_();
      if (!t->is_integral() && t->id() != TypeId::kBoolean)
        wrong_type("bit_count", args, 0, "(\"INTEGRAL\" or \"BOOLEAN\")");
      s.arg_types = {t};
      s.result_type = DataType::int_();
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext&) -> ColumnPtr {
      const Column& a = *args[0];
      if (a.type()->id() == TypeId::kBoolean) {
        ColumnBuilder b(sig.result_type, n);
        for (int64_t i = 0; i < n; ++i) {
          if (a.is_null(i)) b.append_null();
          else b.append<int32_t>(a.bool_at(i) ? 1 : 0);
        }
        return b.finish();
      }
      return dispatch_fixed(a.type()->id(), [&]<typename T>() -> ColumnPtr {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, int128_t>) {
          // Java's bitCount of the value widened to long: negative values count 64-bit ones.
          return unary_fixed<T, int32_t, false>(a, n, sig.result_type, [](T x) {
            return __builtin_popcountll(static_cast<uint64_t>(static_cast<int64_t>(x)));
          });
        } else {
          EMBER_UNREACHABLE("bit_count on a non-integral type");
        }
      });
    };
    d.usage = "bit_count(expr) - Returns the number of bits set in expr.";
    r.add(std::move(d));
  }
  enum class S { kLeft, kRight, kRightUnsigned };
  struct ShiftSpec {
    const char* name;
    S op;
    Display display;
  };
  // Spark names a shift written as an operator `(a << b)` and one called by name
  // `shiftleft(a, b)`; both are the same expression otherwise.
  for (ShiftSpec sp : {ShiftSpec{"shiftleft", S::kLeft, Display::kCall},
                       ShiftSpec{"shiftright", S::kRight, Display::kCall},
                       ShiftSpec{"shiftrightunsigned", S::kRightUnsigned, Display::kCall},
                       ShiftSpec{"<<", S::kLeft, Display::kInfix},
                       ShiftSpec{">>", S::kRight, Display::kInfix},
                       ShiftSpec{">>>", S::kRightUnsigned, Display::kInfix}}) {
    FunctionDef d;
    d.name = sp.name;
    d.display = sp.display;
    d.min_args = d.max_args = 2;
    std::string name = sp.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      // A fractional or string base is implicitly cast to INT, the first accepted type.
      TypePtr base = args[0]->is_floating() || args[0]->id() == TypeId::kDecimal
                         ? DataType::int_()
                                            : integral_input(name, args, 0, DataType::int_(),
                                                             "(\"INT\" or \"BIGINT\")");
      if (base->id() != TypeId::kLong) base = DataType::int_();
      s.arg_types = {base, numeric_input(name, args, 1, DataType::int_(), "\"INT\"")};
      s.result_type = base;
      return s;
    };
    S op = sp.op;
    d.kernel = [op](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                    const EvalContext&) -> ColumnPtr {
      const TypePtr& rt = sig.result_type;
      auto run = [&]<typename T>() -> ColumnPtr {
        using U = std::make_unsigned_t<T>;
        constexpr int kMask = sizeof(T) * 8 - 1;
        return binary_fixed<T, int32_t, T, false>(*args[0], *args[1], n, rt, [op](T x, int32_t k) {
          int sh = k & kMask;  // Java masks the shift distance
          switch (op) {
            case S::kLeft: return static_cast<T>(static_cast<U>(x) << sh);
            case S::kRight: return static_cast<T>(x >> sh);
            default: return static_cast<T>(static_cast<U>(x) >> sh);
          }
        });
      };
      if (rt->id() == TypeId::kLong) return run.template operator()<int64_t>();
      return run.template operator()<int32_t>();
    };
    d.usage = sp.display == Display::kCall ? name + "(base, expr) - Bitwise shift."
                                           : "base " + name + " expr - Bitwise shift.";
    r.add(std::move(d));
  }
}

// ---------------------------------------------------------------------------------------------
// factorial, hex, unhex, bin.

void register_integer_functions(Registry& r) {
  {
    FunctionDef d;
    d.name = "factorial";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      // Any numeric argument is cast to INT implicitly, as Spark does.
      const TypePtr& t = args[0];
      if (!t->is_numeric() && t->id() != TypeId::kString && t->id() != TypeId::kNull)
        wrong_type("factorial", args, 0, "\"INT\"");
      s.arg_types = {DataType::int_()};
      s.result_type = DataType::long_();
      s.may_introduce_null = true;
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext&) {
      return binary_fixed_nullable<int32_t, int32_t, int64_t>(
          *args[0], *args[0], n, sig.result_type, [](int32_t x, int32_t, int64_t* out) {
            if (x < 0 || x > 20) return false;
            int64_t f = 1;
            for (int32_t i = 2; i <= x; ++i) f *= i;
            *out = f;
            return true;
          });
    };
    d.usage = "factorial(expr) - Returns the factorial of expr, NULL outside [0..20].";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "hex";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      const TypePtr& t = args[0];
      if (t->is_numeric() || t->id() == TypeId::kNull) s.arg_types = {DataType::long_()};
      else if (t->id() == TypeId::kString || t->id() == TypeId::kBinary) s.arg_types = {t};
      else wrong_type("hex", args, 0, "(\"BIGINT\" or \"BINARY\" or \"STRING\")");
      s.result_type = DataType::string();
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext&) {
      static const char* kDigits = "0123456789ABCDEF";
      const Column& a = *args[0];
      ColumnBuilder b(sig.result_type, n);
      bool is_long = a.type()->id() == TypeId::kLong;
      std::string out;
      for (int64_t i = 0; i < n; ++i) {
        if (a.is_null(i)) {
          b.append_null();
          continue;
        }
        out.clear();
        if (is_long) {
          uint64_t v = static_cast<uint64_t>(a.values<int64_t>()[i]);
          do {
            out.insert(out.begin(), kDigits[v & 15]);
            v >>= 4;
          } while (v);
        } else {
          for (unsigned char c : a.string_at(i)) {
            out += kDigits[c >> 4];
            out += kDigits[c & 15];
          }
        }
        b.append_bytes(out);
      }
      return b.finish();
    };
    d.usage = "hex(expr) - Converts expr to hexadecimal.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "unhex";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      const TypePtr& t = args[0];
      if (t->id() != TypeId::kString && t->id() != TypeId::kNull)
        wrong_type("unhex", args, 0, "\"STRING\"");
      s.arg_types = {DataType::string()};
      s.result_type = DataType::binary();
      s.may_introduce_null = true;
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext&) {
      auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      const Column& a = *args[0];
      ColumnBuilder b(sig.result_type, n);
      std::string out;
      for (int64_t i = 0; i < n; ++i) {
        if (a.is_null(i)) {
          b.append_null();
          continue;
        }
        std::string_view s = a.string_at(i);
        out.clear();
        bool ok = true;
        size_t pos = 0;
        if (s.size() % 2 == 1) {  // an odd length reads as if a leading 0 were present
          int v = nibble(s[0]);
          ok = v >= 0;
          out += static_cast<char>(v);
          pos = 1;
        }
        for (; ok && pos < s.size(); pos += 2) {
          int hi = nibble(s[pos]), lo = nibble(s[pos + 1]);
          if (hi < 0 || lo < 0) ok = false;
          else out += static_cast<char>((hi << 4) | lo);
        }
        if (ok) b.append_bytes(out);
        else b.append_null();
      }
      return b.finish();
    };
    d.usage = "unhex(expr) - Converts hexadecimal expr to binary.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "bin";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      s.arg_types = {numeric_input("bin", args, 0, DataType::long_(), "\"BIGINT\"")};
      s.result_type = DataType::string();
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                  const EvalContext&) {
      const Column& a = *args[0];
      ColumnBuilder b(sig.result_type, n);
      std::string out;
      for (int64_t i = 0; i < n; ++i) {
        if (a.is_null(i)) {
          b.append_null();
          continue;
        }
        uint64_t v = static_cast<uint64_t>(a.values<int64_t>()[i]);
        out.clear();
        do {
          out.insert(out.begin(), static_cast<char>('0' + (v & 1)));
          v >>= 1;
        } while (v);
        b.append_bytes(out);
      }
      return b.finish();
    };
    d.usage = "bin(expr) - Returns the binary representation of the long value expr.";
    r.add(std::move(d));
  }
}

}  // namespace

void register_math(Registry& r) {
  register_unary_doubles(r);
  register_binary_doubles(r);
  register_constants(r);
  register_abs_positive(r);
  register_round(r);
  register_greatest_least(r);
  register_bitwise(r);
  register_integer_functions(r);
}

}  // namespace ember::functions
