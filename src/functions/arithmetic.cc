// Arithmetic operators: + - * / % div, unary minus, with Spark's type rules and ANSI overflow
// and division-by-zero behaviour; try_add / try_subtract / try_multiply / try_divide / try_mod,
// the same operators with null instead of overflow and division-by-zero errors (try_add and
// try_subtract also over dates, timestamps and ANSI intervals).

#include <cmath>
#include <limits>
#include <optional>

#include "common/datetime.h"
#include "functions/calendar_interval.h"
#include "functions/decimal_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

enum class Op { kAdd, kSub, kMul };

/// What an integral overflow gives: Spark's ANSI error, Java's wrap-around, or null (try_).
enum class Overflow { kError, kWrap, kNull };

const char* try_name(Op op) {
  switch (op) {
    case Op::kAdd: return "try_add";
    case Op::kSub: return "try_subtract";
    default: return "try_multiply";
  }
}

const char* symbol(Op op) {
  switch (op) {
    case Op::kAdd: return "+";
    case Op::kSub: return "-";
    default: return "*";
  }
}

template <typename T>
ColumnPtr integral_op(Op op, const Column& a, const Column& b, int64_t n, const TypePtr& rt, Overflow overflow) {
  auto apply = [op](T x, T y, T* out) -> bool {
    switch (op) {
      case Op::kAdd: return !__builtin_add_overflow(x, y, out);
      case Op::kSub: return !__builtin_sub_overflow(x, y, out);
      default: return !__builtin_mul_overflow(x, y, out);
    }
  };
  if (overflow == Overflow::kNull) return binary_fixed_nullable<T, T, T>(a, b, n, rt, apply);
  if (overflow == Overflow::kError) {
    return binary_fixed<T, T, T, true>(a, b, n, rt, [&](T x, T y) {
      T r;
      if (!apply(x, y, &r)) {
        // Spark computes TINYINT and SMALLINT in int and checks the range itself.
        if constexpr (sizeof(T) <= 2) throw_binary_arithmetic_overflow(x, symbol(op), y, try_name(op));
        throw_arithmetic_overflow("", try_name(op));
      }
      return r;
    });
  }
  return binary_fixed<T, T, T, false>(a, b, n, rt, [&](T x, T y) {
    T r;
    apply(x, y, &r);  // wraps around, as Java does
    return r;
  });
}

template <typename T>
ColumnPtr floating_op(Op op, const Column& a, const Column& b, int64_t n, const TypePtr& rt) {
  switch (op) {
    case Op::kAdd: return binary_fixed<T, T, T, false>(a, b, n, rt, [](T x, T y) { return x + y; });
    case Op::kSub: return binary_fixed<T, T, T, false>(a, b, n, rt, [](T x, T y) { return x - y; });
    default: return binary_fixed<T, T, T, false>(a, b, n, rt, [](T x, T y) { return x * y; });
  }
}

/// `try_mode`: overflow gives null (ctx.ansi must then be false, for decimals).
ColumnPtr arith_kernel(Op op, const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                       const EvalContext& ctx, bool try_mode = false) {
  const Column& a = *args[0];
  const Column& b = *args[1];
  const TypePtr& rt = sig.result_type;
  Overflow of = try_mode ? Overflow::kNull : ctx.ansi ? Overflow::kError : Overflow::kWrap;
  switch (rt->id()) {
    case TypeId::kByte: return integral_op<int8_t>(op, a, b, n, rt, of);
    case TypeId::kShort: return integral_op<int16_t>(op, a, b, n, rt, of);
    case TypeId::kInt: return integral_op<int32_t>(op, a, b, n, rt, of);
    case TypeId::kLong: return integral_op<int64_t>(op, a, b, n, rt, of);
    case TypeId::kFloat: return floating_op<float>(op, a, b, n, rt);
    case TypeId::kDouble: return floating_op<double>(op, a, b, n, rt);
    case TypeId::kDecimal:
      return decimal_arith(op == Op::kAdd ? DecimalOp::kAdd : op == Op::kSub ? DecimalOp::kSub : DecimalOp::kMul,
                           a, b, n, sig, ctx);
    default:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "Arithmetic on " + rt->sql() + " is not supported yet.");
  }
}

std::string sql_of(const std::vector<TypePtr>& args, const char* op) {
  return args[0]->sql() + " " + op + " " + args[1]->sql();
}

/// Type rule for + - * %: both sides widened to a common numeric type.
TypeRule numeric_binary(const char* op) {
  return [op](const std::vector<TypePtr>& args, const Config& conf) {
    TypePtr a = args[0], b = args[1];
    // Strings in arithmetic are implicitly cast: beside an integral operand to BIGINT in ANSI
    // mode (Spark's findWiderTypeForString), otherwise to DOUBLE.
    auto string_as = [&](const TypePtr& other) {
      return conf.ansi_enabled() && other->is_integral() ? DataType::long_() : DataType::double_();
    };
    // Two strings have no numeric type to meet at in ANSI mode.
    if (conf.ansi_enabled() && a->id() == TypeId::kString && b->id() == TypeId::kString) {
      const std::string o(op);
      const bool with_intervals = o == "+" || o == "-";
      throw_type_mismatch("BINARY_OP_WRONG_TYPE",
                          std::string("the binary operator requires the input type (\"NUMERIC\"") +
                              (with_intervals ? " or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\""
                                              : "") +
                              "), not \"" + args[0]->sql() + "\".",
                          sql_of(args, op));
    }
    if (a->id() == TypeId::kString) a = string_as(args[1]);
    if (b->id() == TypeId::kString) b = string_as(args[0]);
    if (a->id() == TypeId::kNull && b->id() == TypeId::kNull) a = b = DataType::double_();
    std::string o(op);
    DecimalOp dop = o == "+" ? DecimalOp::kAdd : o == "-" ? DecimalOp::kSub : o == "*" ? DecimalOp::kMul
                  : o == "%" ? DecimalOp::kRem : DecimalOp::kPmod;
    if (auto sig = decimal_arith_signature(dop, a, b, conf)) return *sig;
    TypePtr w = wider_type(a, b, conf.ansi_enabled());
    if (!w || !w->is_numeric()) {
      if (args[0]->equals(*args[1]) || !w) {
        throw_type_mismatch(
            args[0]->equals(*args[1]) ? "BINARY_OP_WRONG_TYPE" : "BINARY_OP_DIFF_TYPES",
            "the left and right operands of the binary operator have incompatible types (\"" +
                args[0]->sql() + "\" and \"" + args[1]->sql() + "\").",
            sql_of(args, op));
      }
      throw_type_mismatch("BINARY_OP_WRONG_TYPE",
                          "the binary operator requires the input type \"NUMERIC\", not \"" +
                              w->sql() + "\".",
                          sql_of(args, op));
    }
    Signature s;
    s.arg_types = {w, w};
    s.result_type = w;
    // Spark's remainder is always nullable (division by zero in non-ANSI mode, try_ variants).
    s.may_introduce_null = std::string(op) == "%" || std::string(op) == "pmod";
    (void)conf;
    return s;
  };
}

Signature divide_rule(const std::vector<TypePtr>& args, const Config& conf) {
  for (auto& t : args) {
    if (!(t->is_numeric() || t->id() == TypeId::kNull || t->id() == TypeId::kString))
      throw_type_mismatch("BINARY_OP_WRONG_TYPE",
                          "the binary operator requires the input type (\"DOUBLE\" or \"DECIMAL\"), not \"" +
                              t->sql() + "\".",
                          sql_of(args, "/"));
  }
  if (args[0]->id() != TypeId::kString && args[1]->id() != TypeId::kString) {
    if (auto sig = decimal_arith_signature(DecimalOp::kDiv, args[0], args[1], conf)) {
      sig->may_introduce_null = true;
      return *sig;
    }
  }
  Signature s;
  s.arg_types = {DataType::double_(), DataType::double_()};
  s.result_type = DataType::double_();
  s.may_introduce_null = true;
  return s;
}

ColumnPtr divide_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                        const EvalContext& ctx) {
  if (sig.result_type->id() == TypeId::kDecimal) return decimal_arith(DecimalOp::kDiv, *args[0], *args[1], n, sig, ctx);
  if (ctx.ansi) {
    return binary_fixed<double, double, double, true>(*args[0], *args[1], n, sig.result_type,
                                                      [](double x, double y) {
                                                        if (y == 0) throw_divide_by_zero();
                                                        return x / y;
                                                      });
  }
  return binary_fixed_nullable<double, double, double>(*args[0], *args[1], n, sig.result_type,
                                                       [](double x, double y, double* out) {
                                                         if (y == 0) return false;
                                                         *out = x / y;
                                                         return true;
                                                       });
}

/// `div`: Spark's IntegralDivide. Integral operands (strings too, in ANSI mode) divide as
/// BIGINT; a decimal on either side makes both decimals; two ANSI intervals of one kind divide
/// their months or microseconds. The quotient is truncated toward zero and returned as BIGINT.
Signature integral_divide_rule(const std::vector<TypePtr>& args, const Config& conf) {
  Signature s;
  s.result_type = DataType::long_();
  s.may_introduce_null = true;
  const TypeId x = args[0]->id(), y = args[1]->id();
  if ((x == TypeId::kYearMonthInterval && y == TypeId::kYearMonthInterval) ||
      (x == TypeId::kDayTimeInterval && y == TypeId::kDayTimeInterval)) {
    s.arg_types = {args[0], args[1]};
    return s;
  }
  // Spark casts a string to BIGINT in ANSI mode; its legacy coercion casts it to DOUBLE, which
  // `div` then rejects.
  auto coerced = [&](const TypePtr& t) -> TypePtr {
    if (t->id() == TypeId::kNull) return DataType::long_();
    if (t->id() == TypeId::kString) return conf.ansi_enabled() ? DataType::long_() : DataType::double_();
    return t;
  };
  TypePtr a = coerced(args[0]), b = coerced(args[1]);
  auto integral_or_decimal = [](const TypePtr& t) { return t->is_integral() || t->id() == TypeId::kDecimal; };
  if (!integral_or_decimal(a) || !integral_or_decimal(b)) {
    // Named by the function, so the message shows the call's SQL text, `(7.5 div 2)`. Operands
    // of one type fail for the type itself.
    if (a->equals(*b))
      throw_type_mismatch("BINARY_OP_WRONG_TYPE",
                          "the binary operator requires the input type (\"BIGINT\" or \"DECIMAL\" or "
                          "\"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\"), not \"" + a->sql() + "\".",
                          "div");
    throw_type_mismatch("BINARY_OP_DIFF_TYPES",
                        "the left and right operands of the binary operator have incompatible types (\"" +
                            (a->is_integral() ? DataType::long_() : a)->sql() + "\" and \"" +
                            (b->is_integral() ? DataType::long_() : b)->sql() + "\").",
                        "div");
  }
  if (a->id() == TypeId::kDecimal || b->id() == TypeId::kDecimal) {
    s.arg_types = {integral_as_decimal(a), integral_as_decimal(b)};
  } else {
    s.arg_types = {DataType::long_(), DataType::long_()};
  }
  return s;
}

/// The decimal quotient a / b truncated toward zero (unscaled values at scales s1 and s2), as
/// text: for the error of a quotient wider than its type.
std::string truncated_quotient_text(int128_t a, int128_t b, int s1, int s2) {
  // a / b = (A / 10^s1) / (B / 10^s2) = A * 10^(s2 - s1) / B; |A|, |B| < 10^38.
  const int shift = s2 - s1;
  const bool negative = (a < 0) != (b < 0);
  const int128_t ma = a < 0 ? -a : a, mb = b < 0 ? -b : b;
  std::string text;
  int128_t q;
  if (shift <= 0) {
    decimal_divide(ma, mb, shift, &q, false);
    text = decimal_to_string(q, 0);
  } else {
    // The whole part of A / B, then the next `shift` digits: each fits in 128 bits.
    const int128_t whole = ma / mb;
    decimal_divide(ma % mb, mb, shift, &q, false);
    std::string rest = decimal_to_string(q, 0);
    text = whole == 0 ? rest : decimal_to_string(whole, 0) + std::string(static_cast<size_t>(shift) - rest.size(), '0') + rest;
  }
  return negative && text != "0" ? "-" + text : text;
}

ColumnPtr integral_divide_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                                 const EvalContext& ctx) {
  const Column& a = *args[0];
  const Column& b = *args[1];
  const TypePtr& rt = sig.result_type;
  const bool ansi = ctx.ansi;
  // One row: false gives null (division by zero or decimal overflow outside ANSI mode).
  auto longs = [&](int64_t x, int64_t y, int64_t* out) {
    if (y == 0) {
      if (ansi) throw_divide_by_zero();
      return false;
    }
    if (x == std::numeric_limits<int64_t>::min() && y == -1) {
      if (ansi) throw_arithmetic_overflow_message("Overflow in integral divide", "try_divide");
      *out = x;  // wraps around, as Java does
      return true;
    }
    *out = x / y;
    return true;
  };
  switch (a.type()->id()) {
    case TypeId::kYearMonthInterval:
      return binary_fixed_nullable<int32_t, int32_t, int64_t>(
          a, b, n, rt, [&](int32_t x, int32_t y, int64_t* out) { return longs(x, y, out); });
    case TypeId::kDecimal: {
      const int s1 = a.type()->scale(), s2 = b.type()->scale();
      const int bound = std::min<int>(DataType::kMaxDecimalPrecision, a.type()->precision() - s1 + s2);
      return binary_fixed_nullable<int128_t, int128_t, int64_t>(a, b, n, rt, [&](int128_t x, int128_t y, int64_t* out) {
        if (y == 0) {
          if (ansi) throw_divide_by_zero();
          return false;
        }
        int128_t q;
        if (!decimal_divide(x, y, s2 - s1, &q, false) || !decimal_fits(q, bound)) {
          if (ansi) decimal_out_of_range_text(truncated_quotient_text(x, y, s1, s2), bound, 0);
          return false;
        }
        // Spark returns the quotient's low 64 bits (BigDecimal.longValue).
        *out = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(q)));
        return true;
      });
    }
    default: return binary_fixed_nullable<int64_t, int64_t, int64_t>(a, b, n, rt, longs);
  }
}

template <typename T>
ColumnPtr remainder_typed(const Column& a, const Column& b, int64_t n, const TypePtr& rt, bool ansi, bool pmod) {
  auto rem = [pmod](T x, T y) -> T {
    T r;
    if constexpr (std::is_floating_point_v<T>) {
      r = std::fmod(x, y);
      if (pmod && r < 0) r = std::fmod(r + y, y);
    } else {
      if (y == -1) return 0;  // avoids the INT_MIN % -1 trap; the result is 0 in Java too
      r = static_cast<T>(x % y);
      if (pmod && r < 0) r = static_cast<T>((r + y) % y);
    }
    return r;
  };
  if (ansi) {
    return binary_fixed<T, T, T, true>(a, b, n, rt, [&](T x, T y) {
      if (y == 0) throw_remainder_by_zero();
      return rem(x, y);
    });
  }
  return binary_fixed_nullable<T, T, T>(a, b, n, rt, [&](T x, T y, T* out) {
    if (y == 0) return false;
    *out = rem(x, y);
    return true;
  });
}

ScalarKernel remainder_kernel(bool pmod) {
  return [pmod](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                const EvalContext& ctx) -> ColumnPtr {
    const TypePtr& rt = sig.result_type;
    switch (rt->id()) {
      case TypeId::kDecimal:
        return decimal_arith(pmod ? DecimalOp::kPmod : DecimalOp::kRem, *args[0], *args[1], n, sig, ctx);
      case TypeId::kByte: return remainder_typed<int8_t>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      case TypeId::kShort: return remainder_typed<int16_t>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      case TypeId::kInt: return remainder_typed<int32_t>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      case TypeId::kLong: return remainder_typed<int64_t>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      case TypeId::kFloat: return remainder_typed<float>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      case TypeId::kDouble: return remainder_typed<double>(*args[0], *args[1], n, rt, ctx.ansi, pmod);
      default:
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "Remainder on " + rt->sql() + " is not supported yet.");
    }
  };
}

Signature unary_numeric_rule(const std::vector<TypePtr>& args, const Config&) {
  TypePtr t = args[0]->id() == TypeId::kString || args[0]->id() == TypeId::kNull ? DataType::double_() : args[0];
  if (!t->is_numeric() && t->id() != TypeId::kDayTimeInterval && t->id() != TypeId::kYearMonthInterval &&
      t->id() != TypeId::kCalendarInterval)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"NUMERIC\" type, however \"" + args[0]->sql() +
                            "\" has the type \"" + args[0]->sql() + "\".",
                        "-" + args[0]->sql());
  Signature s;
  s.arg_types = {t};
  s.result_type = t;
  return s;
}

ColumnPtr negate_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                        const EvalContext& ctx) {
  const Column& a = *args[0];
  const TypePtr& rt = sig.result_type;
  if (rt->id() == TypeId::kCalendarInterval) {
    // Every field negated; the minimum of a field overflows whatever the ANSI mode.
    return unary_fixed<CalendarInterval, CalendarInterval, true>(a, n, rt, [](const CalendarInterval& x) {
      CalendarInterval r;
      if (!negate_calendar_interval(x, &r)) throw_arithmetic_overflow("", nullptr);
      return r;
    });
  }
  return dispatch_fixed(rt->id(), [&]<typename T>() -> ColumnPtr {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, int128_t>) {
      if (ctx.ansi)
        return unary_fixed<T, T, true>(a, n, rt, [](T x) {
          if (x == std::numeric_limits<T>::min()) throw_arithmetic_overflow("", nullptr);
          return static_cast<T>(-x);
        });
      return unary_fixed<T, T, false>(a, n, rt, [](T x) {
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) - static_cast<std::make_unsigned_t<T>>(x));
      });
    } else if constexpr (std::is_same_v<T, int128_t>) {
      const int precision = rt->precision(), scale = rt->scale();
      return unary_fixed<T, T, false>(a, n, rt, [=](T x) { return decimal_negate(x, precision, scale); });
    } else {
      return unary_fixed<T, T, false>(a, n, rt, [](T x) { return static_cast<T>(-x); });
    }
  });
}

/// The kernel of an operator's try_ form: non-ANSI evaluation (null for division by zero and
/// decimal overflow) with integral overflow as null too.
ScalarKernel try_kernel(ScalarKernel kernel) {
  return [kernel](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, const EvalContext& ctx) {
    EvalContext lenient = ctx;
    lenient.ansi = false;
    return kernel(args, n, sig, lenient);
  };
}

/// try_add / try_subtract over dates and ANSI intervals: date ± days (integral, wrapping around
/// as date_add does), date ± year-month interval (months added as add_months does), interval ±
/// interval of the same kind, timestamp ± day-time interval. Overflow gives null otherwise. kNone for other argument types, which
/// take the numeric rules.
enum class DateTimeOperands { kNone, kDateDays, kDateMonths, kYearMonth, kDayTime, kTimestampMicros };

DateTimeOperands datetime_operands(const TypePtr& a, const TypePtr& b) {
  auto small_int = [](const TypePtr& t) {
    return t->id() == TypeId::kByte || t->id() == TypeId::kShort || t->id() == TypeId::kInt;
  };
  const TypeId x = a->id(), y = b->id();
  if (x == TypeId::kDate && small_int(b)) return DateTimeOperands::kDateDays;
  if (x == TypeId::kDate && y == TypeId::kYearMonthInterval) return DateTimeOperands::kDateMonths;
  if (x == TypeId::kYearMonthInterval && y == TypeId::kYearMonthInterval) return DateTimeOperands::kYearMonth;
  if (x == TypeId::kDayTimeInterval && y == TypeId::kDayTimeInterval) return DateTimeOperands::kDayTime;
  if ((x == TypeId::kTimestamp || x == TypeId::kTimestampNtz) && y == TypeId::kDayTimeInterval)
    return DateTimeOperands::kTimestampMicros;
  return DateTimeOperands::kNone;
}

/// The signature of a datetime try_add / try_subtract (nullopt for other operands); try_add also
/// takes the datetime on the right (1 + date).
std::optional<Signature> datetime_try_signature(bool add, const std::vector<TypePtr>& args) {
  TypePtr a = args[0], b = args[1];
  DateTimeOperands kind = datetime_operands(a, b);
  if (kind == DateTimeOperands::kNone && add) kind = datetime_operands(b, a);
  if (kind == DateTimeOperands::kNone) return std::nullopt;
  Signature s;
  s.arg_types = {a, b};
  s.may_introduce_null = true;
  bool swapped = datetime_operands(a, b) == DateTimeOperands::kNone;
  const TypePtr& left = swapped ? b : a;
  const TypePtr& right = swapped ? a : b;
  switch (kind) {
    case DateTimeOperands::kDateDays:
      (swapped ? s.arg_types[0] : s.arg_types[1]) = DataType::int_();
      s.result_type = DataType::date();
      break;
    case DateTimeOperands::kYearMonth:
      s.result_type = DataType::year_month_interval(std::min(left->start_field(), right->start_field()),
                                                    std::max(left->end_field(), right->end_field()));
      break;
    case DateTimeOperands::kDayTime:
      s.result_type = DataType::day_time_interval(std::min(left->start_field(), right->start_field()),
                                                  std::max(left->end_field(), right->end_field()));
      break;
    case DateTimeOperands::kDateMonths: s.result_type = DataType::date(); break;
    default: s.result_type = left; break;
  }
  return s;
}

/// Adds `months` to a date as add_months does (the day clamped to the month's last day); false
/// when the result leaves the DATE range.
bool date_plus_months(int64_t days, int64_t months, int32_t* out) {
  int64_t r = add_months_to_days(days, months);
  if (r != static_cast<int32_t>(r)) return false;
  *out = static_cast<int32_t>(r);
  return true;
}

ColumnPtr datetime_try_kernel(bool add, const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig) {
  bool swapped = datetime_operands(args[0]->type(), args[1]->type()) == DateTimeOperands::kNone;
  const Column& l = *args[swapped ? 1 : 0];
  const Column& r = *args[swapped ? 0 : 1];
  DateTimeOperands kind = datetime_operands(l.type(), r.type());
  const TypePtr& rt = sig.result_type;
  switch (kind) {
    case DateTimeOperands::kDateDays:
      // Spark rewrites date ± days to date_add / date_sub, whose int arithmetic wraps around
      // instead of failing, so try_ gives the wrapped date and never null.
      return binary_fixed_nullable<int32_t, int32_t, int32_t>(l, r, n, rt, [add](int32_t x, int32_t y, int32_t* out) {
        const uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
        *out = static_cast<int32_t>(add ? ux + uy : ux - uy);
        return true;
      });
    case DateTimeOperands::kYearMonth:
      return binary_fixed_nullable<int32_t, int32_t, int32_t>(l, r, n, rt, [add](int32_t x, int32_t y, int32_t* out) {
        return add ? !__builtin_add_overflow(x, y, out) : !__builtin_sub_overflow(x, y, out);
      });
    case DateTimeOperands::kDateMonths:
      return binary_fixed_nullable<int32_t, int32_t, int32_t>(l, r, n, rt, [add](int32_t x, int32_t y, int32_t* out) {
        return date_plus_months(x, add ? static_cast<int64_t>(y) : -static_cast<int64_t>(y), out);
      });
    default:
      return binary_fixed_nullable<int64_t, int64_t, int64_t>(l, r, n, rt, [add](int64_t x, int64_t y, int64_t* out) {
        return add ? !__builtin_add_overflow(x, y, out) : !__builtin_sub_overflow(x, y, out);
      });
  }
}

void register_try_arithmetic(Registry& r) {
  struct Spec {
    const char* name;
    TypeRule rule;
    ScalarKernel kernel;
    const char* usage;
  };
  auto arith = [](Op op) -> ScalarKernel {
    return [op](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, const EvalContext& ctx) {
      return arith_kernel(op, args, n, sig, ctx, true);
    };
  };
  for (Spec s : {Spec{"try_add", numeric_binary("+"), arith(Op::kAdd),
                      "try_add(expr1, expr2) - Returns the sum of `expr1`and `expr2` and the result is null on "
                      "overflow."},
                 Spec{"try_subtract", numeric_binary("-"), arith(Op::kSub),
                      "try_subtract(expr1, expr2) - Returns `expr1`-`expr2` and the result is null on overflow."},
                 Spec{"try_multiply", numeric_binary("*"), arith(Op::kMul),
                      "try_multiply(expr1, expr2) - Returns `expr1`*`expr2` and the result is null on overflow."},
                 Spec{"try_divide", divide_rule, divide_kernel,
                      "try_divide(dividend, divisor) - Returns `dividend`/`divisor`. It always performs floating "
                      "point division. Its result is always null if `expr2` is 0."},
                 Spec{"try_mod", numeric_binary("%"), remainder_kernel(false),
                      "try_mod(dividend, divisor) - Returns the remainder after `expr1`/`expr2`. Its result is "
                      "always null if `expr2` is 0."}}) {
    FunctionDef d;
    d.name = s.name;
    d.min_args = d.max_args = 2;
    TypeRule rule = s.rule;
    const std::string fn = s.name;
    const bool datetime = fn == "try_add" || fn == "try_subtract";
    const bool add = fn == "try_add";
    const bool scale = fn == "try_multiply" || fn == "try_divide";
    const bool divide = fn == "try_divide";
    auto calendar = [](const std::vector<TypePtr>& args) {
      return args.size() == 2 && (args[0]->id() == TypeId::kCalendarInterval || args[1]->id() == TypeId::kCalendarInterval);
    };
    d.type_rule = [rule, datetime, add, scale, divide, calendar](const std::vector<TypePtr>& args, const Config& conf) {
      if (datetime && calendar(args)) {
        bool swap;
        if (const FunctionDef* op = calendar_interval_operator(args[0], args[1], !add, true, &swap)) {
          Signature sig = op->type_rule(swap ? std::vector{args[1], args[0]} : args, conf);
          if (swap) std::swap(sig.arg_types[0], sig.arg_types[1]);
          return sig;
        }
      }
      if (scale)
        if (auto sig = interval_scale_signature(args, divide, divide ? "/" : "*")) return *sig;
      if (datetime)
        if (auto sig = datetime_try_signature(add, args)) return *sig;
      Signature sig = rule(args, conf);
      sig.may_introduce_null = true;
      return sig;
    };
    ScalarKernel numeric = try_kernel(s.kernel);
    d.kernel = [numeric, datetime, add, scale, divide](const std::vector<ColumnPtr>& args, int64_t n,
                                                         const Signature& sig, const EvalContext& ctx) {
      const bool calendar_args = args[0]->type()->id() == TypeId::kCalendarInterval ||
                                 args[1]->type()->id() == TypeId::kCalendarInterval;
      if (scale && calendar_args) return interval_scale(args, n, sig, divide, IntervalOverflow::kNull);
      if (datetime && calendar_args) {
        bool swap;
        const FunctionDef* op = calendar_interval_operator(args[0]->type(), args[1]->type(), !add, true, &swap);
        if (!swap) return op->kernel(args, n, sig, ctx);
        Signature swapped = sig;
        std::swap(swapped.arg_types[0], swapped.arg_types[1]);
        return op->kernel({args[1], args[0]}, n, swapped, ctx);
      }
      if (datetime && (sig.result_type->is_datetime() || sig.result_type->id() == TypeId::kYearMonthInterval ||
                       sig.result_type->id() == TypeId::kDayTimeInterval))
        return datetime_try_kernel(add, args, n, sig);
      return numeric(args, n, sig, ctx);
    };
    d.usage = s.usage;
    r.add(std::move(d));
  }
}

}  // namespace

void register_arithmetic(Registry& r) {
  struct Spec {
    const char* name;
    Op op;
    const char* sym;
  };
  for (Spec s : {Spec{"+", Op::kAdd, "+"}, Spec{"-", Op::kSub, "-"}, Spec{"*", Op::kMul, "*"}}) {
    FunctionDef d;
    d.name = s.name;
    d.min_args = d.max_args = 2;
    d.type_rule = numeric_binary(s.sym);
    Op op = s.op;
    d.kernel = [op](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                    const EvalContext& ctx) { return arith_kernel(op, args, n, sig, ctx); };
    d.display = Display::kInfix;
    d.display_name = s.sym;
    d.gpu_supported = true;
    d.usage = std::string("expr1 ") + s.sym + " expr2 - Arithmetic on two numeric values.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "/";
    d.min_args = d.max_args = 2;
    d.type_rule = divide_rule;
    d.kernel = divide_kernel;
    d.display = Display::kInfix;
    d.gpu_supported = true;
    d.usage = "expr1 / expr2 - Returns expr1/expr2. It always performs floating point division.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "div";
    d.min_args = d.max_args = 2;
    d.type_rule = integral_divide_rule;
    d.kernel = integral_divide_kernel;
    d.display = Display::kInfix;
    d.display_name = "div";
    d.may_throw = true;
    d.usage = "expr1 div expr2 - Divide `expr1` by `expr2`. It returns NULL if an operand is NULL or `expr2` is 0. "
              "The result is casted to long.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "%";
    d.aliases = {"mod"};
    d.min_args = d.max_args = 2;
    d.type_rule = numeric_binary("%");
    d.kernel = remainder_kernel(false);
    d.display = Display::kInfix;
    d.gpu_supported = true;
    d.usage = "expr1 % expr2 - Returns the remainder after expr1/expr2.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "pmod";
    d.min_args = d.max_args = 2;
    d.type_rule = numeric_binary("pmod");
    d.kernel = remainder_kernel(true);
    d.usage = "pmod(expr1, expr2) - Returns the positive value of expr1 mod expr2.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "negative";
    d.min_args = d.max_args = 1;
    d.type_rule = unary_numeric_rule;
    d.kernel = negate_kernel;
    // Spark names negative(x) by its function name (an aliased UnaryMinus), and SQL's unary
    // minus (called "-") `(- x)`.
    d.display = Display::kCall;
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called == "-" ? "(- " + args[0] + ")" : called + "(" + args[0] + ")";
    };
    d.gpu_supported = true;
    d.usage = "negative(expr) - Returns the negated value of expr.";
    r.add(std::move(d));
  }
  register_try_arithmetic(r);
}

}  // namespace ember::functions
