// CAST to and from DECIMAL(p, s): between decimals, integral, floating, boolean and string
// values, rounding HALF_UP; a value that does not fit its target is an ANSI error
// (NUMERIC_VALUE_OUT_OF_RANGE, CAST_OVERFLOW) or null.

#include <cmath>
#include <cstdlib>
#include <limits>

#include "functions/cast.h"
#include "functions/decimal_util.h"
#include "functions/kernel_util.h"
#include "io/text_parse.h"

namespace ember::functions {
namespace {

std::string_view trim_spaces(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

struct DecimalCaster {
  const Column& in;
  const TypePtr& to;
  bool ansi;
  bool try_;
  int64_t n;

  bool strict() const { return ansi && !try_; }

  /// Builds the result row by row: `f(i, &out)` returns false when the value does not fit,
  /// which is an error in strict mode (raised by `fail(i)`) and a null otherwise.
  template <typename T, typename F, typename Fail>
  ColumnPtr rows(F&& f, Fail&& fail) {
    ColumnBuilder b(to, n);
    for (int64_t i = 0; i < n; ++i) {
      if (in.is_null(i)) {
        b.append_null();
        continue;
      }
      T v{};
      if (f(i, &v)) {
        b.append<T>(v);
      } else {
        if (strict()) fail(i);
        b.append_null();
      }
    }
    return b.finish();
  }

  ColumnPtr to_decimal() {
    const int p = to->precision(), s = to->scale();
    const TypePtr& from = in.type();
    auto out_of_range_decimal = [&](int64_t i) {
      decimal_out_of_range(in.values<int128_t>()[i], from->scale(), p, s);
    };
    switch (from->id()) {
      case TypeId::kDecimal: {
        const int128_t* x = in.values<int128_t>();
        return rows<int128_t>(
            [&](int64_t i, int128_t* o) { return decimal_rescale(x[i], from->scale(), s, o) && decimal_fits(*o, p); },
            out_of_range_decimal);
      }
      case TypeId::kBoolean:
        return rows<int128_t>(
            [&](int64_t i, int128_t* o) { return decimal_rescale(in.bool_at(i) ? 1 : 0, 0, s, o) && decimal_fits(*o, p); },
            [&](int64_t i) { decimal_out_of_range(in.bool_at(i) ? 1 : 0, 0, p, s); });
      case TypeId::kFloat:
      case TypeId::kDouble: {
        auto value = [&](int64_t i) {
          return from->id() == TypeId::kFloat ? static_cast<double>(in.values<float>()[i]) : in.values<double>()[i];
        };
        // NaN and the infinities have no decimal value: NULL in every mode, as in Spark.
        ColumnBuilder b(to, n);
        for (int64_t i = 0; i < n; ++i) {
          double d = value(i);
          int128_t o = 0;
          if (in.is_null(i) || !std::isfinite(d)) {
            b.append_null();
          } else if (io::parse_decimal(format_double(d), p, s, false, &o)) {
            // Spark converts through the shortest decimal text of the double.
            b.append<int128_t>(o);
          } else if (strict()) {
            decimal_out_of_range_text(format_double(d), p, s);
          } else {
            b.append_null();
          }
        }
        return b.finish();
      }
      case TypeId::kString: {
        return rows<int128_t>(
            [&](int64_t i, int128_t* o) { return io::parse_decimal(trim_spaces(in.string_at(i)), p, s, false, o); },
            [&](int64_t i) {
              std::string_view text = trim_spaces(in.string_at(i));
              io::DecimalText d;
              if (io::parse_big_decimal(text, &d)) decimal_out_of_range_text(std::string(text), p, s);
              throw SparkError(ErrorKind::kNumberFormat, "CAST_INVALID_INPUT",
                               "The value '" + std::string(in.string_at(i)) + "' of the type \"STRING\" cannot be cast to \"" +
                                   to->sql() +
                                   "\" because it is malformed. Correct the value as per the syntax, or change "
                                   "its target type. Use `try_cast` to tolerate malformed input and return NULL "
                                   "instead.",
                               {{"expression", "'" + std::string(in.string_at(i)) + "'"},
                                {"sourceType", "\"STRING\""},
                                {"targetType", "\"" + to->sql() + "\""},
                                {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
            });
      }
      default:
        if (!from->is_integral()) return nullptr;
        return dispatch_fixed(from->id(), [&]<typename F>() -> ColumnPtr {
          const F* x = in.values<F>();
          return rows<int128_t>(
              [&](int64_t i, int128_t* o) { return decimal_rescale(static_cast<int128_t>(x[i]), 0, s, o) && decimal_fits(*o, p); },
              [&](int64_t i) { decimal_out_of_range(static_cast<int128_t>(x[i]), 0, p, s); });
        });
    }
  }

  ColumnPtr from_decimal() {
    const int s = in.type()->scale();
    const int128_t* x = in.values<int128_t>();
    switch (to->id()) {
      case TypeId::kBoolean: {
        std::vector<uint8_t> out(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = x[i] != 0;
        return make_bool_column(out, in.validity_buffer(), n);
      }
      case TypeId::kDouble:
      case TypeId::kFloat: {
        const bool compact = in.type()->precision() <= 18;
        const double scale = std::pow(10.0, s);
        auto convert = [&](int128_t v) -> double {
          if (compact) return static_cast<double>(static_cast<int64_t>(v)) / scale;
          return std::strtod(decimal_to_string(v, s).c_str(), nullptr);
        };
        if (to->id() == TypeId::kDouble)
          return unary_fixed<int128_t, double, false>(in, n, to, convert);
        return unary_fixed<int128_t, float, false>(in, n, to, [&](int128_t v) {
          return std::strtof(decimal_to_string(v, s).c_str(), nullptr);
        });
      }
      default:
        if (!to->is_integral()) return nullptr;
        return dispatch_fixed(to->id(), [&]<typename T>() -> ColumnPtr {
          return rows<T>(
              [&](int64_t i, T* o) {
                int128_t whole = x[i] / pow10_i128(s);  // truncation toward zero
                bool fits = whole >= std::numeric_limits<T>::min() && whole <= std::numeric_limits<T>::max();
                if (!fits && (try_ || ansi)) return false;
                *o = static_cast<T>(static_cast<int64_t>(whole));  // non-ANSI wraps as Java's narrowing does
                return true;
              },
              [&](int64_t i) {
                throw SparkError(ErrorKind::kArithmetic, "CAST_OVERFLOW",
                                 "The value " + decimal_to_string(x[i], s) + "BD of the type \"" + in.type()->sql() +
                                     "\" cannot be cast to \"" + to->sql() +
                                     "\" due to an overflow. Use `try_cast` to tolerate overflow and return "
                                     "NULL instead.",
                                 {{"value", decimal_to_string(x[i], s) + "BD"},
                                  {"sourceType", "\"" + in.type()->sql() + "\""},
                                  {"targetType", "\"" + to->sql() + "\""},
                                  {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
              });
        });
    }
  }
};

}  // namespace

ColumnPtr cast_decimal(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx, bool try_cast) {
  DecimalCaster c{*in, to, ctx.ansi, try_cast, in->length()};
  if (to->id() == TypeId::kDecimal) return c.to_decimal();
  if (in->type()->id() == TypeId::kDecimal) return c.from_decimal();
  return nullptr;
}

}  // namespace ember::functions
