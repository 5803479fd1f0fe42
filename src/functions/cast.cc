// CAST between Spark types.

#include "functions/cast.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/variant_util.h"
#include "common/number_format.h"
#include "functions/decimal_util.h"
#include "functions/kernel_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

/// CAST_INVALID_INPUT of a value shown as `shown` (strings quoted, NaN not).
[[noreturn]] void invalid_input_shown(const std::string& shown, const TypePtr& from, const TypePtr& to) {
  throw SparkError(ErrorKind::kNumberFormat, "CAST_INVALID_INPUT",
                   "The value " + shown + " of the type \"" + from->sql() +
                       "\" cannot be cast to \"" + to->sql() +
                       "\" because it is malformed. Correct the value as per the syntax, or change its "
                       "target type. Use `try_cast` to tolerate malformed input and return NULL "
                       "instead.",
                   {{"expression", shown},
                    {"sourceType", "\"" + from->sql() + "\""},
                    {"targetType", "\"" + to->sql() + "\""},
                    {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
}

[[noreturn]] void invalid_input(const std::string& value, const TypePtr& from, const TypePtr& to) {
  invalid_input_shown("'" + value + "'", from, to);
}

[[noreturn]] void cast_overflow(const std::string& value, const TypePtr& from, const TypePtr& to) {
  throw SparkError(ErrorKind::kArithmetic, "CAST_OVERFLOW",
                   "The value " + value + " of the type \"" + from->sql() +
                       "\" cannot be cast to \"" + to->sql() +
                       "\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL "
                       "instead.",
                   {{"value", value},
                    {"sourceType", "\"" + from->sql() + "\""},
                    {"targetType", "\"" + to->sql() + "\""},
                    {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
}

std::string_view trim_ws(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

/// A string as a long, as Spark casts it: optional whitespace and sign, digits, and (only where
/// `allow_fraction`, the legacy non-ANSI cast) a fractional part that is dropped.
bool parse_long(std::string_view s, int64_t* out, bool allow_fraction) {
  s = trim_ws(s);
  if (s.empty()) return false;
  bool neg = false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    ++i;
  }
  if (i >= s.size()) return false;
  uint64_t v = 0;
  bool any = false;
  for (; i < s.size() && s[i] != '.'; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    any = true;
    if (v > (uint64_t{1} << 63) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
    if (v > (uint64_t{1} << 63)) return false;
  }
  // The legacy cast accepts a fractional part and truncates it ("1.9" -> 1).
  if (i < s.size()) {
    if (!allow_fraction) return false;
    ++i;
    for (; i < s.size(); ++i)
      if (s[i] < '0' || s[i] > '9') return false;
  }
  if (!any && i == s.size() && s.find('.') == std::string_view::npos) return false;
  if (!neg && v > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

/// Spark's string-to-double cast: Java's Double.parseDouble, then, for text it rejects, the
/// special words Spark adds (`inf`, `+infinity`, `nan` ... in any case). Java's grammar is a sign,
/// then `NaN` or `Infinity` exactly as written, or a decimal number (or a hexadecimal one with a
/// binary exponent, `0x1.8p1`) with an optional type suffix `d`, `D`, `f` or `F`.
bool parse_double(std::string_view s, double* out) {
  s = trim_ws(s);
  if (s.empty()) return false;
  std::string low;
  for (char c : s) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (low == "nan") { *out = NAN; return true; }
  if (low == "inf" || low == "+inf" || low == "infinity" || low == "+infinity") { *out = INFINITY; return true; }
  if (low == "-inf" || low == "-infinity") { *out = -INFINITY; return true; }
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "NaN") { *out = NAN; return true; }
  if (s == "Infinity") { *out = neg ? -INFINITY : INFINITY; return true; }
  const char last = s.empty() ? '\0' : s.back();
  if (last == 'd' || last == 'D' || last == 'f' || last == 'F') s.remove_suffix(1);
  if (s.empty()) return false;
  auto format = std::chars_format::general;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    if (s.find_first_of("pP") == std::string_view::npos) return false;  // Java requires it
    format = std::chars_format::hex;
  }
  // from_chars would also read a sign, `inf` and `nan`, which Java's number grammar does not.
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) return false;
  double v;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v, format);
  if (res.ptr != s.data() + s.size()) return false;
  // Out of range: Java rounds to infinity or zero where from_chars reports an error.
  if (res.ec == std::errc::result_out_of_range) {
    v = std::strtod((format == std::chars_format::hex ? "0x" + std::string(s) : std::string(s)).c_str(), nullptr);
  } else if (res.ec != std::errc()) {
    return false;
  }
  *out = neg ? -v : v;
  return true;
}

template <typename T>
constexpr bool in_range(double v) {
  return v >= static_cast<double>(std::numeric_limits<T>::min()) &&
         v < -static_cast<double>(std::numeric_limits<T>::min());
}

struct Caster {
  const ColumnPtr& in;
  const TypePtr& to;
  const EvalContext& ctx;
  bool try_;
  int64_t n;

  bool strict() const { return ctx.ansi && !try_; }

  ColumnPtr run() {
    const TypePtr& from = in->type();
    if (from->equals(*to)) return in;
    if (from->id() == TypeId::kString && to->id() == TypeId::kString)  // another collation: same text
      return Column::make(to, n, in->validity_buffer(), in->data_buffer(), in->offsets_buffer(), {}, in->null_count());
    if (from->id() == TypeId::kNull) return Column::all_null(to, n);
    if (from->id() == TypeId::kVariant) return cast_from_variant(in, to, ctx, try_);
    if (to->id() == TypeId::kVariant) return cast_to_variant(in);
    if (from->id() == TypeId::kTime || to->id() == TypeId::kTime) {
      if (ColumnPtr c = time()) return c;
    }
    if (from->id() == TypeId::kDecimal || to->id() == TypeId::kDecimal) {
      if (ColumnPtr c = cast_decimal(in, to, ctx, try_)) return c;
    }
    if (to->id() == TypeId::kString) return to_string();
    if (from->id() == TypeId::kString) return from_string();
    if (to->id() == TypeId::kBinary && from->is_integral()) return integral_to_binary();
    if (from->is_datetime() || to->is_datetime()) return datetime();
    if (to->is_numeric() && (from->is_numeric() || from->id() == TypeId::kBoolean)) return numeric();
    if (to->id() == TypeId::kBoolean && from->is_numeric()) return numeric_to_bool();
    if (from->is_nested() && to->id() == from->id()) return nested();
    if (from->is_ansi_interval() && to->id() == from->id()) return interval_fields();
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "Cast from " + from->sql() + " to " + to->sql() + " is not supported yet.");
  }

  /// An ANSI interval to another of its kind: the value cut to the target's last field
  /// (INTERVAL '1 02:03' DAY TO MINUTE as DAY TO HOUR is 1 day 2 hours), towards zero.
  ColumnPtr interval_fields() {
    if (to->id() == TypeId::kYearMonthInterval) {
      const int32_t unit = to->end_field() == 0 ? 12 : 1;
      auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
      const int32_t* v = in->values<int32_t>();
      int32_t* o = data->mutable_as<int32_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = v[i] - v[i] % unit;
      return Column::make(to, n, in->validity_buffer(), data);
    }
    static constexpr int64_t kUnits[] = {kMicrosPerDay, 3600LL * 1000000, 60LL * 1000000, 1};
    const int64_t unit = kUnits[std::min(std::max(to->end_field(), 0), 3)];
    auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int64_t));
    const int64_t* v = in->values<int64_t>();
    int64_t* o = data->mutable_as<int64_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = v[i] - v[i] % unit;
    return Column::make(to, n, in->validity_buffer(), data);
  }

  /// Array, map and struct casts: the children cast to the target's element, entry or field
  /// types; offsets and validity stay.
  ColumnPtr nested() {
    std::vector<ColumnPtr> kids;
    if (to->id() == TypeId::kStruct) {
      if (to->fields().size() != in->children().size())
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "Cast from " + in->type()->sql() + " to " + to->sql() + " is not supported yet.");
      for (size_t f = 0; f < to->fields().size(); ++f)
        kids.push_back(cast_column(in->child(f), to->fields()[f].type, ctx, try_));
    } else if (to->id() == TypeId::kArray) {
      kids.push_back(cast_column(in->child(0), to->element_type(), ctx, try_));
    } else {
      kids.push_back(cast_column(in->child(0), DataType::struct_(to->fields()), ctx, try_));
    }
    return Column::make(to, n, in->validity_buffer(), nullptr, in->offsets_buffer(), std::move(kids));
  }

  /// Arrays, maps and structs as Spark's CAST prints them: `[1, null]`, `{a -> 1, b -> null}`,
  /// `{1, x}`. Elements are cast to STRING as values of their own type are. With
  /// spark.sql.legacy.castComplexTypesToString.enabled maps and structs take square brackets and
  /// null elements print as nothing: `[1,, 3]`, `[a -> 1, b ->]`, `[, x]`.
  ColumnPtr complex_to_string() {
    const TypePtr& from = in->type();
    const bool legacy = ctx.config && ctx.config->get_bool("spark.sql.legacy.castComplexTypesToString.enabled", false);
    const char open = from->id() == TypeId::kArray || legacy ? '[' : '{';
    const char close = open == '[' ? ']' : '}';
    const std::string_view null_text = legacy ? "" : "null";
    auto text = [&](const ColumnPtr& c) { return cast_column(c, DataType::string(), ctx, try_); };
    // One element: ", " before all but the first; a null one is `null_text` (nothing at all,
    // not even the space, when that is empty).
    auto append = [&](std::string& out, const Column& c, int64_t i, bool first) {
      if (!first) out += ',';
      if (c.is_null(i)) {
        if (!null_text.empty()) out += (first ? "" : " ") + std::string(null_text);
        return;
      }
      if (!first) out += ' ';
      out += c.string_at(i);
    };
    std::vector<ColumnPtr> parts;
    if (from->id() == TypeId::kArray) {
      parts.push_back(text(in->child(0)));
    } else if (from->id() == TypeId::kMap) {
      parts.push_back(text(in->child(0)->child(0)));
      parts.push_back(text(in->child(0)->child(1)));
    } else {
      for (const ColumnPtr& f : in->children()) parts.push_back(text(f));
    }
    ColumnBuilder b(DataType::string(), n);
    std::string out;
    for (int64_t i = 0; i < n; ++i) {
      if (in->is_null(i)) {
        b.append_null();
        continue;
      }
      out.assign(1, open);
      if (from->id() == TypeId::kArray) {
        const int32_t* o = in->offsets();
        for (int32_t k = o[i]; k < o[i + 1]; ++k) append(out, *parts[0], k, k == o[i]);
      } else if (from->id() == TypeId::kMap) {
        const int32_t* o = in->offsets();
        for (int32_t k = o[i]; k < o[i + 1]; ++k) {
          if (k != o[i]) out += ", ";
          out += parts[0]->string_at(k);
          out += " ->";
          if (!parts[1]->is_null(k)) {
            out += ' ';
            out += parts[1]->string_at(k);
          } else if (!null_text.empty()) {
            out += ' ';
            out += null_text;
          }
        }
      } else {
        for (size_t f = 0; f < parts.size(); ++f) append(out, *parts[f], i, f == 0);
      }
      out += close;
      b.append_bytes(out);
    }
    return b.finish();
  }

  ColumnPtr to_string() {
    const TypePtr& from = in->type();
    if (from->is_nested()) return complex_to_string();
    ColumnBuilder b(DataType::string(), n);
    for (int64_t i = 0; i < n; ++i) {
      if (in->is_null(i)) {
        b.append_null();
        continue;
      }
      switch (from->id()) {
        case TypeId::kBoolean: b.append_bytes(in->bool_at(i) ? "true" : "false"); break;
        case TypeId::kByte: b.append_bytes(std::to_string(in->values<int8_t>()[i])); break;
        case TypeId::kShort: b.append_bytes(std::to_string(in->values<int16_t>()[i])); break;
        case TypeId::kInt: b.append_bytes(std::to_string(in->values<int32_t>()[i])); break;
        case TypeId::kLong: b.append_bytes(std::to_string(in->values<int64_t>()[i])); break;
        case TypeId::kFloat: b.append_bytes(format_float(in->values<float>()[i])); break;
        case TypeId::kDouble: b.append_bytes(format_double(in->values<double>()[i])); break;
        // Outside ANSI mode Spark prints a decimal as BigDecimal.toString does (0E-18).
        case TypeId::kDecimal:
          b.append_bytes(ctx.ansi ? decimal_to_string(in->values<int128_t>()[i], from->scale())
                                  : java_decimal_string(in->values<int128_t>()[i], from->scale()));
          break;
        case TypeId::kBinary: b.append_bytes(in->string_at(i)); break;
        case TypeId::kDate: b.append_bytes(format_date(in->values<int32_t>()[i])); break;
        case TypeId::kTimestamp: b.append_bytes(format_timestamp(in->values<int64_t>()[i], zone())); break;
        case TypeId::kTimestampNtz: b.append_bytes(format_timestamp_ntz(in->values<int64_t>()[i])); break;
        case TypeId::kTime: b.append_bytes(format_time(in->values<int64_t>()[i])); break;
        case TypeId::kCalendarInterval:
          b.append_bytes(format_calendar_interval(in->values<CalendarInterval>()[i]));
          break;
        case TypeId::kYearMonthInterval:
          b.append_bytes(year_month_interval_text(in->values<int32_t>()[i], from->start_field(), from->end_field()));
          break;
        case TypeId::kDayTimeInterval:
          b.append_bytes(format_day_time_interval(in->values<int64_t>()[i], from->start_field(), from->end_field()));
          break;
        default:
          throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                           "Cast from " + from->sql() + " to STRING is not supported yet.");
      }
    }
    return b.finish();
  }

  ColumnPtr from_string() {
    ColumnBuilder b(to, n);
    for (int64_t i = 0; i < n; ++i) {
      if (in->is_null(i)) {
        b.append_null();
        continue;
      }
      std::string_view s = in->string_at(i);
      bool ok = true;
      switch (to->id()) {
        case TypeId::kBoolean: {
          std::string low;
          for (char c : trim_ws(s)) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (low == "true" || low == "t" || low == "yes" || low == "y" || low == "1") b.append_bool(true);
          else if (low == "false" || low == "f" || low == "no" || low == "n" || low == "0") b.append_bool(false);
          else ok = false;
          break;
        }
        case TypeId::kByte:
        case TypeId::kShort:
        case TypeId::kInt:
        case TypeId::kLong: {
          int64_t v;
          ok = parse_long(s, &v, !ctx.ansi && !try_);
          if (ok) {
            switch (to->id()) {
              case TypeId::kByte: ok = v >= INT8_MIN && v <= INT8_MAX; if (ok) b.append<int8_t>(static_cast<int8_t>(v)); break;
              case TypeId::kShort: ok = v >= INT16_MIN && v <= INT16_MAX; if (ok) b.append<int16_t>(static_cast<int16_t>(v)); break;
              case TypeId::kInt: ok = v >= INT32_MIN && v <= INT32_MAX; if (ok) b.append<int32_t>(static_cast<int32_t>(v)); break;
              default: b.append<int64_t>(v);
            }
          }
          break;
        }
        case TypeId::kFloat:
        case TypeId::kDouble: {
          double v;
          ok = parse_double(s, &v);
          if (ok) {
            if (to->id() == TypeId::kFloat) b.append<float>(static_cast<float>(v));
            else b.append<double>(v);
          }
          break;
        }
        case TypeId::kBinary: b.append_bytes(s); break;
        case TypeId::kDate: {
          int32_t d;
          ok = parse_date(s, &d);
          if (ok) b.append<int32_t>(d);
          break;
        }
        case TypeId::kTimestamp:
        case TypeId::kTimestampNtz: {
          int64_t us;
          ok = to->id() == TypeId::kTimestamp ? parse_timestamp(s, zone(), &us) : parse_timestamp_ntz(s, &us);
          if (ok) b.append<int64_t>(us);
          break;
        }
        case TypeId::kTime: {
          int64_t nanos;
          ok = parse_time(s, &nanos);
          if (ok) b.append<int64_t>(truncate_time(nanos, to->time_precision()));
          break;
        }
        case TypeId::kCalendarInterval: {
          // Text that is not an interval is NULL whatever the ANSI mode, as in Spark.
          if (auto v = parse_calendar_interval(s)) b.append<CalendarInterval>(*v);
          else b.append_null();
          break;
        }
        default:
          throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                           "Cast from STRING to " + to->sql() + " is not supported yet.");
      }
      if (!ok) {
        if (strict()) invalid_input(std::string(s), in->type(), to);
        b.append_null();
      }
    }
    return b.finish();
  }

  const TimeZone& zone() const { return TimeZone::get(ctx.time_zone); }

  /// Casts from and to TIME other than string ones: TIME(p) -> TIME(q) truncates the fraction;
  /// a timestamp gives its local time of day; a time becomes a timestamp of today (the session
  /// zone's date); a time to a number is its seconds since midnight (whole seconds for
  /// integers, with the fraction for decimals). Null when the pair is left to other paths.
  ColumnPtr time() {
    const TypePtr& from = in->type();
    const TypeId f = from->id(), t = to->id();
    if (f == TypeId::kTime && t == TypeId::kTime) {
      const int p = to->time_precision();
      return unary_fixed<int64_t, int64_t, false>(*in, n, to, [p](int64_t v) { return truncate_time(v, p); });
    }
    if ((f == TypeId::kTimestamp || f == TypeId::kTimestampNtz) && t == TypeId::kTime) {
      const TimeZone& z = zone();
      const int p = to->time_precision();
      const bool ltz = f == TypeId::kTimestamp;
      return unary_fixed<int64_t, int64_t, false>(*in, n, to, [&z, p, ltz](int64_t us) {
        int64_t local = ltz ? z.utc_to_local_micros(us) : us;
        return truncate_time(floor_mod(local, kMicrosPerDay) * kNanosPerMicro, p);
      });
    }
    if (f == TypeId::kTime && (t == TypeId::kTimestamp || t == TypeId::kTimestampNtz)) {
      const TimeZone& z = zone();
      const int64_t today = floor_div(z.utc_to_local_micros(ctx.now()), kMicrosPerDay);
      const bool ltz = t == TypeId::kTimestamp;
      return unary_fixed<int64_t, int64_t, false>(*in, n, to, [&z, today, ltz](int64_t nanos) {
        int64_t local = today * kMicrosPerDay + nanos / kNanosPerMicro;
        return ltz ? z.local_to_utc_micros(local) : local;
      });
    }
    if (f == TypeId::kTime && t == TypeId::kDecimal) {
      // Exact seconds as DECIMAL(14, 9), then the decimal cast's rounding and range rules.
      auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int128_t));
      int128_t* d = data->mutable_as<int128_t>();
      for (int64_t i = 0; i < n; ++i) d[i] = in->values<int64_t>()[i];
      return cast_decimal(Column::make(DataType::decimal(14, 9), n, in->validity_buffer(), data),
                          to, ctx, try_);
    }
    if (f == TypeId::kTime && to->is_integral()) {
      return dispatch_fixed(t, [&]<typename T>() -> ColumnPtr {
        ColumnBuilder b(to, n);
        for (int64_t i = 0; i < n; ++i) {
          if (in->is_null(i)) {
            b.append_null();
            continue;
          }
          const int64_t secs = in->values<int64_t>()[i] / kNanosPerSecond;
          if (secs > std::numeric_limits<T>::max()) {
            if (strict()) {
              cast_overflow("TIME '" + format_time(in->values<int64_t>()[i]) + "'", from, to);
            }
            b.append_null();
            continue;
          }
          b.append<T>(static_cast<T>(secs));
        }
        return b.finish();
      });
    }
    return nullptr;
  }

  /// Casts between DATE, TIMESTAMP, TIMESTAMP_NTZ and the numbers (seconds since the epoch).
  ColumnPtr datetime() {
    const TypePtr& from = in->type();
    TypeId f = from->id(), t = to->id();
    auto unsupported = [&]() -> ColumnPtr {
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "Cast from " + from->sql() + " to " + to->sql() + " is not supported yet.");
    };
    ColumnBuilder b(to, n);
    for (int64_t i = 0; i < n; ++i) {
      if (in->is_null(i)) {
        b.append_null();
        continue;
      }
      if (f == TypeId::kDate) {
        int64_t days = in->values<int32_t>()[i];
        if (t == TypeId::kTimestamp) b.append<int64_t>(zone().local_to_utc_micros(days * kMicrosPerDay));
        else if (t == TypeId::kTimestampNtz) b.append<int64_t>(days * kMicrosPerDay);
        // Spark's legacy cast of a date to a number or boolean (ANSI mode refuses it) is NULL.
        else if (to->is_numeric() || t == TypeId::kBoolean) b.append_null();
        else return unsupported();
      } else if (t == TypeId::kTimestamp && f == TypeId::kDecimal) {
        // Seconds times 10^6 as Scala's BigDecimal multiplies (rounded to 34 significant
        // digits, HALF_EVEN), truncated toward zero; like BigDecimal.longValue, only the low 64
        // bits of a wider result remain (in every mode).
        int128_t v = in->values<int128_t>()[i];
        int scale = from->scale();
        const unsigned __int128 mag = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
        int digits = 1;
        for (unsigned __int128 p = 10; digits < 39 && mag >= p; p *= 10) ++digits;
        if (digits > 34) {
          const int128_t unit = pow10_i128(digits - 34);
          int128_t q = v / unit, r = v % unit;
          const int128_t twice = (r < 0 ? -r : r) * 2;
          if (twice > unit || (twice == unit && q % 2 != 0)) q += v < 0 ? -1 : 1;
          v = q;
          scale -= digits - 34;
        }
        uint64_t us;
        if (scale >= 6)
          us = static_cast<uint64_t>(static_cast<unsigned __int128>(v / pow10_i128(scale - 6)));
        else
          us = static_cast<uint64_t>(static_cast<unsigned __int128>(v)) * static_cast<uint64_t>(pow10_i128(6 - scale));
        b.append<int64_t>(static_cast<int64_t>(us));
      } else if (f == TypeId::kTimestamp || f == TypeId::kTimestampNtz) {
        int64_t us = in->values<int64_t>()[i];
        int64_t local = f == TypeId::kTimestamp ? zone().utc_to_local_micros(us) : us;
        switch (t) {
          case TypeId::kDate: b.append<int32_t>(static_cast<int32_t>(floor_div(local, kMicrosPerDay))); break;
          case TypeId::kTimestamp: b.append<int64_t>(zone().local_to_utc_micros(us)); break;
          case TypeId::kTimestampNtz: b.append<int64_t>(local); break;
          case TypeId::kLong: b.append<int64_t>(floor_div(us, kMicrosPerSecond)); break;
          case TypeId::kInt: b.append<int32_t>(static_cast<int32_t>(floor_div(us, kMicrosPerSecond))); break;
          case TypeId::kDouble: b.append<double>(static_cast<double>(us) / 1e6); break;
          case TypeId::kFloat: b.append<float>(static_cast<float>(static_cast<double>(us) / 1e6)); break;
          default: return unsupported();
        }
      } else if (t == TypeId::kTimestamp && from->is_numeric() && from->id() != TypeId::kDecimal) {
        double secs = dispatch_fixed(f, [&]<typename T>() { return static_cast<double>(in->values<T>()[i]); });
        if (from->is_integral()) {
          int64_t v = dispatch_fixed(f, [&]<typename T>() -> int64_t {
            if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(in->values<T>()[i]);
            else return 0;
          });
          // Seconds beyond the range saturate at the extreme microseconds in every mode, as
          // Spark's conversion does.
          int64_t us;
          if (__builtin_mul_overflow(v, kMicrosPerSecond, &us)) us = v > 0 ? INT64_MAX : INT64_MIN;
          b.append<int64_t>(us);
        } else {
          if (std::isnan(secs) || std::isinf(secs)) {
            if (strict()) invalid_input_shown(format_double(secs), from, to);
            b.append_null();
            continue;
          }
          // The microseconds convert as Java's (long) does, saturating; ANSI mode checks them
          // as a cast of the DOUBLE product to BIGINT.
          const double us = secs * 1e6;
          const bool fits = us >= -9223372036854775808.0 && us < 9223372036854775808.0;
          if (!fits && strict()) cast_overflow(format_double(us) + "D", DataType::double_(), DataType::long_());
          b.append<int64_t>(fits ? static_cast<int64_t>(us)
                                 : us > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min());
        }
      } else {
        return unsupported();
      }
    }
    return b.finish();
  }

  /// Spark's legacy cast of an integral to BINARY: its two's complement bytes, big-endian, as
  /// many as the type is wide (ANSI mode refuses the cast during analysis).
  ColumnPtr integral_to_binary() {
    return dispatch_fixed(in->type()->id(), [&]<typename T>() -> ColumnPtr {
      ColumnBuilder b(to, n);
      if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
        const T* x = in->values<T>();
        char bytes[sizeof(T)];
        for (int64_t i = 0; i < n; ++i) {
          if (in->is_null(i)) {
            b.append_null();
            continue;
          }
          auto u = static_cast<std::make_unsigned_t<T>>(x[i]);
          for (size_t k = sizeof(T); k-- > 0; u = static_cast<std::make_unsigned_t<T>>(u >> 8))
            bytes[k] = static_cast<char>(u & 0xFF);
          b.append_bytes(std::string_view(bytes, sizeof(T)));
        }
      }
      return b.finish();
    });
  }

  ColumnPtr numeric_to_bool() {
    return dispatch_fixed(in->type()->id(), [&]<typename F>() -> ColumnPtr {
      std::vector<uint8_t> out(static_cast<size_t>(n));
      const F* x = in->values<F>();
      for (int64_t i = 0; i < n; ++i) out[i] = x[i] != F{};
      return make_bool_column(out, in->validity_buffer(), n);
    });
  }

  ColumnPtr numeric() {
    const TypePtr& from = in->type();
    if (from->id() == TypeId::kDecimal || to->id() == TypeId::kDecimal)
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "Cast from " + from->sql() + " to " + to->sql() + " is not supported yet.");
    if (from->id() == TypeId::kBoolean) {
      return dispatch_fixed(to->id(), [&]<typename T>() -> ColumnPtr {
        auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(T));
        for (int64_t i = 0; i < n; ++i) data->mutable_as<T>()[i] = in->bool_at(i) ? T(1) : T(0);
        return Column::make(to, n, in->validity_buffer(), data);
      });
    }
    return dispatch_fixed(from->id(), [&]<typename F>() -> ColumnPtr {
      return dispatch_fixed(to->id(), [&]<typename T>() -> ColumnPtr { return convert<F, T>(); });
    });
  }

  template <typename F, typename T>
  ColumnPtr convert() {
    const F* x = in->values<F>();
    if constexpr (std::is_floating_point_v<T>) {
      return unary_fixed<F, T, false>(*in, n, to, [](F v) { return static_cast<T>(v); });
    } else if constexpr (std::is_floating_point_v<F>) {
      // Floating to integral: truncation; NaN/overflow → error (ANSI) or Java's saturation
      // for int/long and wrap for byte/short (non-ANSI).
      ColumnBuilder b(to, n);
      for (int64_t i = 0; i < n; ++i) {
        if (in->is_null(i)) {
          b.append_null();
          continue;
        }
        double v = static_cast<double>(x[i]);
        bool fits = !std::isnan(v) && in_range<T>(std::trunc(v)) ;
        if (!fits) {
          if (strict()) cast_overflow(format_double(v) + (std::is_same_v<F, float> ? "" : "D"), in->type(), to);
          if (try_) {
            b.append_null();
            continue;
          }
          int64_t sat = std::isnan(v) ? 0 : (v > 0 ? INT64_MAX : INT64_MIN);
          if constexpr (sizeof(T) == 4) sat = std::isnan(v) ? 0 : (v > 0 ? INT32_MAX : INT32_MIN);
          b.append<T>(static_cast<T>(sat));
          continue;
        }
        b.append<T>(static_cast<T>(v));
      }
      return b.finish();
    } else {
      if constexpr (sizeof(T) >= sizeof(F)) {
        return unary_fixed<F, T, false>(*in, n, to, [](F v) { return static_cast<T>(v); });
      } else {
        ColumnBuilder b(to, n);
        for (int64_t i = 0; i < n; ++i) {
          if (in->is_null(i)) {
            b.append_null();
            continue;
          }
          F v = x[i];
          if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
            if (strict()) {
              std::string suffix = sizeof(F) == 8 ? "L" : (sizeof(F) == 2 ? "S" : (sizeof(F) == 1 ? "Y" : ""));
              cast_overflow(int128_to_string(static_cast<int128_t>(v)) + suffix, in->type(), to);
            }
            if (try_) {
              b.append_null();
              continue;
            }
          }
          b.append<T>(static_cast<T>(v));
        }
        return b.finish();
      }
    }
  }
};

}  // namespace

std::string format_double(double v) { return java_double_string(v); }
std::string format_float(float v) { return java_float_string(v); }

bool can_cast(const DataType& from, const DataType& to, bool ansi) {
  if (from.equals(to) || from.id() == TypeId::kNull) return true;
  // Spark's legacy cast of a date to a number or boolean (always NULL).
  if (from.id() == TypeId::kDate && (to.is_numeric() || to.id() == TypeId::kBoolean)) return !ansi;
  if (from.id() == TypeId::kVariant) return can_cast_from_variant(to);
  if (to.id() == TypeId::kVariant) return can_cast_to_variant(from);
  if (to.id() == TypeId::kString) return true;
  if (from.id() == TypeId::kString) return !to.is_nested();
  auto scalar = [](const DataType& t) { return t.is_numeric() || t.id() == TypeId::kBoolean; };
  if (scalar(from) && scalar(to)) return true;
  if (from.is_datetime() && to.is_datetime()) return true;
  if (from.id() == TypeId::kTime || to.id() == TypeId::kTime) {
    const TypeId f = from.id(), t = to.id();
    if (f == TypeId::kTime) {
      return t == TypeId::kTime || t == TypeId::kTimestamp || t == TypeId::kTimestampNtz ||
             to.is_integral() || t == TypeId::kDecimal;
    }
    return f == TypeId::kTimestamp || f == TypeId::kTimestampNtz;
  }
  if (from.is_numeric() && to.id() == TypeId::kTimestamp) return true;
  if (from.id() == TypeId::kTimestamp && to.is_numeric()) return true;
  if (from.id() == TypeId::kBinary) return false;
  // Integral to BINARY is a legacy cast (ANSI mode suggests turning ANSI mode off).
  if (from.is_integral() && to.id() == TypeId::kBinary) return !ansi;
  if (from.is_nested() && to.is_nested()) return from.id() == to.id();
  if (from.is_ansi_interval()) return from.id() == to.id();
  return false;
}

void throw_cast_mismatch(const DataType& from, const DataType& to, bool ansi, const std::string& sql) {
  const std::string src = "\"" + from.sql() + "\"", target = "\"" + to.sql() + "\"";
  std::map<std::string, std::string> params{{"sqlExpr", "\"" + sql + "\""}, {"srcType", src}, {"targetType", target}};
  const std::string head = "Cannot resolve \"" + sql + "\" due to data type mismatch: cannot cast " + src + " to " + target;
  if (ansi && can_cast(from, to, false)) {
    if (from.id() == TypeId::kDate && to.is_numeric()) {
      params["functionNames"] = "`UNIX_DATE`";
      throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION",
                       head + ". To convert values from " + src + " to " + target +
                           ", you can use the functions `UNIX_DATE` instead.",
                       params);
    }
    params["config"] = "\"spark.sql.ansi.enabled\"";
    params["configVal"] = "'false'";
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION",
                     head + " with ANSI mode on. If you have to cast " + src + " to " + target +
                         ", you can set \"spark.sql.ansi.enabled\" as 'false'.",
                     params);
  }
  throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", head + ".", params);
}

bool cast_forces_null(const DataType& from, const DataType& to) {
  const TypeId f = from.id(), t = to.id();
  if (f == TypeId::kNull || from.equals(to)) return false;
  if (f == TypeId::kVariant) return true;  // a variant null is a SQL NULL
  if (f == TypeId::kString) return t != TypeId::kBinary;
  if (t == TypeId::kString) return false;
  if (f == TypeId::kTime) return to.is_integral() || t == TypeId::kDecimal;
  if (from.is_floating() && t == TypeId::kTimestamp) return true;
  if (f == TypeId::kTimestamp && t == TypeId::kDate) return false;
  if (t == TypeId::kDate) return true;
  if (f == TypeId::kDate && t == TypeId::kTimestamp) return false;
  if (f == TypeId::kDate) return true;
  if (t == TypeId::kDecimal) {
    // Safe when every value of `from` fits: a decimal with more integral digits, or as many and
    // no fewer fraction digits (rounding cannot carry into a new digit).
    int p1, s1;
    if (f == TypeId::kDecimal) {
      p1 = from.precision();
      s1 = from.scale();
    } else if (f == TypeId::kBoolean) {
      p1 = 1;
      s1 = 0;
    } else if (from.is_integral()) {
      p1 = f == TypeId::kByte ? 3 : f == TypeId::kShort ? 5 : f == TypeId::kInt ? 10 : 20;
      s1 = 0;
    } else {
      return true;
    }
    int i1 = p1 - s1, i2 = to.precision() - to.scale();
    return !(i2 > i1 || (i2 == i1 && to.scale() >= s1));
  }
  if ((from.is_floating() || f == TypeId::kDecimal) && to.is_integral()) return true;
  return false;
}

ColumnPtr cast_column(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx, bool try_cast) {
  return Caster{in, to, ctx, try_cast, in->length()}.run();
}

ColumnPtr cast_after_valid(const std::vector<ColumnPtr>& before, const ColumnPtr& in, const TypePtr& to,
                           const EvalContext& ctx) {
  const int64_t n = in->length();
  std::vector<const Column*> cols;
  for (const ColumnPtr& c : before) cols.push_back(c.get());
  cols.push_back(in.get());
  ColumnPtr masked = in->type()->id() == TypeId::kNull
                         ? in
                         : Column::make(in->type(), n, and_validity(cols, n), in->data_buffer(),
                                        in->offsets_buffer(), in->children());
  return cast_column(masked, to, ctx);
}

}  // namespace ember::functions
