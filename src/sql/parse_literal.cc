// Literals (numbers, typed literals, intervals), data types and parameter markers.
//
// Numbers take Spark's types: integers are INT, else BIGINT, else DECIMAL(p, 0); `1.5` is
// DECIMAL(2,1); `1e3` DOUBLE; suffixes L S Y D F BD pick BIGINT, SMALLINT, TINYINT, DOUBLE,
// FLOAT and DECIMAL.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/timezone.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::ExprKind;

namespace {

struct IntRange {
  const char* type_name;
  int64_t min, max;
};

/// Digits of `text` as an unscaled decimal: "12.50" → (1250, scale 2). False when more than 38
/// significant digits.
bool parse_decimal_digits(const std::string& text, int128_t* unscaled, int* scale, int* digits) {
  int128_t v = 0;
  int sig = 0, frac = 0;
  bool after_dot = false;
  int exponent = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      after_dot = true;
      continue;
    }
    if (c == 'e' || c == 'E') {
      exponent = std::atoi(text.c_str() + i + 1);
      break;
    }
    if (c < '0' || c > '9') break;
    if (sig > 0 || c != '0') ++sig;
    if (sig > 38) return false;
    v = v * 10 + (c - '0');
    if (after_dot) ++frac;
  }
  int s = frac - exponent;
  if (s < 0) {
    // 1E10BD: Spark turns a negative scale into zero scale.
    if (sig - s > 38) return false;
    for (int i = 0; i < -s; ++i) v *= 10;
    sig = sig == 0 ? 0 : sig - s;
    s = 0;
  }
  *unscaled = v;
  *scale = s;
  *digits = std::max(sig, 1);
  return true;
}

/// Whether the magnitude of the decimal number `text` (digits, an optional point and exponent,
/// no sign) is above that of `bound` (same form), compared exactly as Java's BigDecimal does.
bool decimal_text_above(const std::string& text, const std::string& bound) {
  // Each number as its significant digits d1 d2 ... and the power of ten of d1.
  auto normalize = [](const std::string& t) {
    std::string digits;
    long point = -1, exponent = 0;
    size_t i = 0;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
      if (t[i] == '.') point = static_cast<long>(digits.size());
      else if (t[i] >= '0' && t[i] <= '9') digits += t[i];
    }
    if (i < t.size()) exponent = std::strtol(t.c_str() + i + 1, nullptr, 10);
    if (point < 0) point = static_cast<long>(digits.size());
    size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return std::pair<std::string, long>{"", 0};
    long magnitude = point - static_cast<long>(first) - 1 + exponent;
    digits = digits.substr(first);
    digits.erase(digits.find_last_not_of('0') + 1);
    return std::pair<std::string, long>{digits, magnitude};
  };
  auto [a, ma] = normalize(text);
  auto [b, mb] = normalize(bound);
  if (a.empty() || b.empty()) return !a.empty();
  if (ma != mb) return ma > mb;
  return a > b;  // same power of ten: the digit strings compare as numbers
}

}  // namespace

ExprPtr Parser::number_literal(bool negate, const Token* minus) {
  const Token& t = next();
  int begin = minus ? minus->begin : t.begin;
  std::string body = t.text;
  // Strip the suffix.
  switch (t.number) {
    case NumberKind::kBigint:
    case NumberKind::kSmallint:
    case NumberKind::kTinyint:
    case NumberKind::kDouble:
    case NumberKind::kFloat:
      body.pop_back();
      break;
    case NumberKind::kBigDecimal:
      body.resize(body.size() - 2);
      break;
    default:
      break;
  }
  const std::string signed_body = (negate ? "-" : "") + body;
  auto out_of_range = [&](const std::string& type_name, const std::string& min,
                          const std::string& max) {
    fail_range(ErrorKind::kParse, "INVALID_NUMERIC_LITERAL_RANGE",
               "Numeric literal " + signed_body + " is outside the valid range for " + type_name +
                   " with minimum value of " + min + " and maximum value of " + max +
                   ". Please adjust the value accordingly.",
               {{"rawStrippedQualifier", signed_body},
                {"minValue", min},
                {"maxValue", max},
                {"typeName", type_name}},
               begin, t.stop);
  };
  // Spark raises this one from the literal's value, not as a syntax error, unless the literal
  // has the BD suffix.
  auto too_precise = [&](const std::string& precision) {
    if (t.number == NumberKind::kBigDecimal)
      fail_range(ErrorKind::kParse, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                 "Decimal precision " + precision + " exceeds max precision 38.",
                 {{"precision", precision}, {"maxPrecision", "38"}}, begin, t.stop);
    throw SparkError(ErrorKind::kArithmetic, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                     "Decimal precision " + precision + " exceeds max precision 38.",
                     {{"precision", precision}, {"maxPrecision", "38"}}, "22003");
  };
  auto decimal_value = [&]() -> ExprPtr {
    int128_t unscaled = 0;
    int scale = 0, digits = 0;
    if (!parse_decimal_digits(body, &unscaled, &scale, &digits)) {
      // The precision Spark's Decimal gives the BigDecimal: its significant digits, widened by
      // a negative scale (1E400 needs 401 digits) or to a larger positive one.
      long sig = 0, frac = 0, exp = 0;
      bool started = false, dot = false;
      size_t k = 0;
      for (; k < body.size() && body[k] != 'e' && body[k] != 'E'; ++k) {
        const char c = body[k];
        if (c == '.') dot = true;
        if (c < '0' || c > '9') continue;
        if (c != '0') started = true;
        if (started) ++sig;
        if (dot) ++frac;
      }
      if (k < body.size()) exp = std::strtol(body.c_str() + k + 1, nullptr, 10);
      sig = std::max(sig, 1L);
      const long scale_of = frac - exp;
      const std::string precision = std::to_string(scale_of < 0 ? sig - scale_of : std::max(sig, scale_of));
      too_precise(precision);
    }
    int precision = std::max(digits, scale);
    if (precision > DataType::kMaxDecimalPrecision) too_precise(std::to_string(precision));
    return plan::lit(Value::decimal(negate ? -unscaled : unscaled),
                     DataType::decimal(precision, scale));
  };
  switch (t.number) {
    case NumberKind::kInteger: {
      errno = 0;
      char* end = nullptr;
      long long v = std::strtoll(signed_body.c_str(), &end, 10);
      if (errno == ERANGE) return decimal_value();
      if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max())
        return plan::lit(Value::integer(v), DataType::int_());
      return plan::lit(Value::integer(v), DataType::long_());
    }
    case NumberKind::kBigint:
    case NumberKind::kSmallint:
    case NumberKind::kTinyint: {
      IntRange r = t.number == NumberKind::kBigint
                       ? IntRange{"bigint", std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max()}
                       : (t.number == NumberKind::kSmallint ? IntRange{"smallint", -32768, 32767}
                                                            : IntRange{"tinyint", -128, 127});
      errno = 0;
      long long v = std::strtoll(signed_body.c_str(), nullptr, 10);
      if (errno == ERANGE || v < r.min || v > r.max)
        out_of_range(r.type_name, std::to_string(r.min), std::to_string(r.max));
      TypePtr type =
          t.number == NumberKind::kBigint
              ? DataType::long_()
              : (t.number == NumberKind::kSmallint ? DataType::short_() : DataType::byte());
      return plan::lit(Value::integer(v), type);
    }
    case NumberKind::kDecimal:
    case NumberKind::kBigDecimal:
      return decimal_value();
    case NumberKind::kExponent:
    case NumberKind::kDouble: {
      // Spark compares the literal's exact value with Double.MaxValue as its shortest text
      // gives it: 1.7976931348623158E308 is out of range though it rounds to the largest double.
      if (decimal_text_above(body, "1.7976931348623157E308"))
        out_of_range("double", "-1.7976931348623157E+308", "1.7976931348623157E+308");
      double v = std::strtod(signed_body.c_str(), nullptr);
      return plan::lit(Value::floating(v), DataType::double_());
    }
    case NumberKind::kFloat: {
      // Spark compares the literal's exact value with Float.MaxValue widened to a double, as
      // that double's shortest text gives it.
      if (decimal_text_above(body, "3.4028234663852886E38"))
        out_of_range("float", "-3.4028234663852886E+38", "3.4028234663852886E+38");
      const float f = std::strtof(signed_body.c_str(), nullptr);
      return plan::lit(Value::floating(static_cast<double>(f)), DataType::float_());
    }
  }
  fail(t);
}

bool Parser::at_typed_literal() const {
  const Token& t = peek();
  if (t.kind != TokenKind::kWord) return false;
  const std::string& w = t.upper;
  bool string_next = peek(1).kind == TokenKind::kString;
  if (w == "DATE" || w == "TIMESTAMP" || w == "TIMESTAMP_NTZ" || w == "TIMESTAMP_LTZ" ||
      w == "TIME" || w == "X")
    return string_next && (w != "X" || peek(1).begin == t.stop + 1);
  if (w == "INTERVAL") {
    const Token& n = peek(1);
    return n.kind == TokenKind::kString || n.kind == TokenKind::kNumber ||
           (n.is_op("-") &&
            (peek(2).kind == TokenKind::kNumber || peek(2).kind == TokenKind::kString));
  }
  return false;
}

ExprPtr Parser::typed_literal() {
  const Token& kw = peek();
  if (kw.upper == "INTERVAL") return interval_literal();
  next();
  const Token& str = next();
  const std::string& s = str.value;
  auto invalid = [&]() {
    std::string type = kw.upper;
    fail_range(ErrorKind::kParse, "INVALID_TYPED_LITERAL",
               "The value of the typed literal \"" + type + "\" is invalid: " + str.text + ".",
               {{"valueType", "\"" + type + "\""}, {"value", str.text}}, kw.begin, str.stop);
  };
  if (kw.upper == "DATE") {
    int32_t days;
    if (!parse_date(s, &days)) invalid();
    return plan::lit(Value::integer(days), DataType::date());
  }
  if (kw.upper == "TIMESTAMP" || kw.upper == "TIMESTAMP_LTZ") {
    int64_t micros;
    const TimeZone* zone = TimeZone::find(options_.time_zone);
    if (!parse_timestamp(s, zone ? *zone : TimeZone::utc(), &micros)) invalid();
    return plan::lit(Value::integer(micros), DataType::timestamp());
  }
  if (kw.upper == "TIME") {
    // The literal's type keeps its fraction digits, at least microseconds: TIME(max(6, n)).
    int64_t nanos;
    const int digits = time_string_fraction_digits(s);
    if (digits > DataType::kMaxTimePrecision || !parse_time(s, &nanos)) invalid();
    return plan::lit(Value::integer(nanos),
                     DataType::time(std::max(digits, DataType::kDefaultTimePrecision)));
  }
  if (kw.upper == "TIMESTAMP_NTZ") {
    int64_t micros;
    if (!parse_timestamp_ntz(s, &micros)) invalid();
    return plan::lit(Value::integer(micros), DataType::timestamp_ntz());
  }
  // X'hex': an odd number of digits gets a leading zero, as Spark's unhex does.
  std::string hex = s.size() % 2 ? "0" + s : s;
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto nibble = [](char c) {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) invalid();
    bytes += static_cast<char>(hi * 16 + lo);
  }
  return plan::lit(Value::bytes(bytes), DataType::binary());
}

// --- Intervals ---------------------------------------------------------------------------------

namespace {

// Units, Spark's field codes: year-month YEAR=0 MONTH=1; day-time DAY=0 HOUR=1 MINUTE=2 SECOND=3.
struct Unit {
  bool year_month;
  int field;
  int64_t factor;  // months or microseconds per unit
};

bool unit_of(const std::string& word, Unit* u) {
  std::string w = ascii_upper(word);
  if (w.size() > 1 && w.back() == 'S') w.pop_back();
  if (w == "YEAR")
    *u = {true, 0, 12};
  else if (w == "MONTH")
    *u = {true, 1, 1};
  else if (w == "WEEK")
    *u = {false, 0, 7 * kMicrosPerDay};
  else if (w == "DAY")
    *u = {false, 0, kMicrosPerDay};
  else if (w == "HOUR")
    *u = {false, 1, 3600 * kMicrosPerSecond};
  else if (w == "MINUTE")
    *u = {false, 2, 60 * kMicrosPerSecond};
  else if (w == "SECOND")
    *u = {false, 3, kMicrosPerSecond};
  else if (w == "MILLISECOND")
    *u = {false, 3, 1000};
  else if (w == "MICROSECOND")
    *u = {false, 3, 1};
  else
    return false;
  return true;
}

/// Parses a decimal number of units into an integer count of the smallest unit: "1.5" with
/// factor 1000000 → 1500000. False when not a number.
bool scaled_value(const std::string& text, int64_t factor, int64_t* out) {
  std::string s = text;
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  if (b == std::string::npos) return false;
  s = s.substr(b, e - b + 1);
  bool neg = false;
  size_t i = 0;
  if (s[i] == '+' || s[i] == '-') {
    neg = s[i] == '-';
    ++i;
  }
  int64_t whole = 0;
  size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    whole = whole * 10 + (s[i++] - '0');
    ++digits;
  }
  int64_t frac = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    int64_t scale = factor;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      scale /= 10;
      frac += (s[i++] - '0') * scale;
      ++digits;
    }
  }
  if (i != s.size() || digits == 0) return false;
  *out = (whole * factor + frac) * (neg ? -1 : 1);
  return true;
}

/// 'd h:m:s.f' style strings for an interval qualified `from TO to` (day-time fields).
bool day_time_string(const std::string& text, int from, int to, int64_t* micros) {
  std::string s = text;
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  if (b == std::string::npos) return false;
  s = s.substr(b, e - b + 1);
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s = s.substr(1);
  }
  // Split into fields: day separated by a space, the rest by ':'.
  std::vector<std::string> parts;
  size_t pos = 0;
  if (from == 0 && to > 0) {
    size_t sp = s.find(' ');
    if (sp == std::string::npos) return false;
    parts.push_back(s.substr(0, sp));
    pos = sp + 1;
  }
  std::string rest = s.substr(pos);
  size_t start = 0;
  while (true) {
    size_t c = rest.find(':', start);
    parts.push_back(rest.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  if (static_cast<int>(parts.size()) != to - from + 1) return false;
  static const int64_t kFactor[] = {kMicrosPerDay, 3600 * kMicrosPerSecond, 60 * kMicrosPerSecond,
                                    kMicrosPerSecond};
  int64_t total = 0;
  for (int f = from; f <= to; ++f) {
    int64_t v;
    const std::string& part = parts[static_cast<size_t>(f - from)];
    if (f != 3 && part.find('.') != std::string::npos) return false;
    if (!scaled_value(part, kFactor[f], &v) || v < 0) return false;
    total += v;
  }
  *micros = neg ? -total : total;
  return true;
}

}  // namespace

ExprPtr Parser::interval_literal() {
  const Token& kw = next();  // INTERVAL
  auto fail_literal = [&](const std::string& detail) {
    std::string lit(text(kw.begin, last_stop()));
    fail_range(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0029", detail + ": " + lit + ".",
               {{"literal", lit}}, kw.begin, last_stop());
  };
  // INTERVAL 'string' unit [TO unit]
  if (peek().kind == TokenKind::kString || (at_op("-") && peek(1).kind == TokenKind::kString)) {
    bool neg = accept_op("-");
    const Token& str = next();
    if (!at_identifier()) {
      fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                 "The feature is not supported: interval literals without units (INTERVAL " +
                     str.text + ").",
                 {}, kw.begin, str.stop);
    }
    Unit from, to;
    if (!unit_of(peek().text, &from)) fail_here();
    next();
    bool has_to = accept_word("TO");
    if (has_to) {
      if (!unit_of(peek().text, &to) || to.year_month != from.year_month || to.field < from.field)
        fail_here();
      next();
    } else {
      to = from;
    }
    std::string s = (neg ? "-" : "") + str.value;
    auto invalid = [&]() {
      fail_range(ErrorKind::kParse, "INVALID_TYPED_LITERAL",
                 "The value of the typed literal \"INTERVAL\" is invalid: " + str.text + ".",
                 {{"valueType", "\"INTERVAL\""}, {"value", str.text}}, kw.begin, last_stop());
    };
    if (from.year_month) {
      int64_t months = 0;
      if (has_to && from.field == 0 && to.field == 1) {
        std::string v = s;
        bool negative = false;
        size_t b = v.find_first_not_of(" \t");
        if (b != std::string::npos) v = v.substr(b);
        if (!v.empty() && (v[0] == '-' || v[0] == '+')) {
          negative = v[0] == '-';
          v = v.substr(1);
        }
        size_t dash = v.find('-');
        int64_t y, m;
        if (dash == std::string::npos || !scaled_value(v.substr(0, dash), 1, &y) ||
            !scaled_value(v.substr(dash + 1), 1, &m) || m > 11 || y < 0 || m < 0)
          invalid();
        months = (y * 12 + m) * (negative ? -1 : 1);
      } else if (!scaled_value(s, from.factor, &months)) {
        invalid();
      }
      return plan::lit(Value::integer(months), DataType::year_month_interval(from.field, to.field));
    }
    int64_t micros = 0;
    if (has_to && to.field != from.field) {
      if (!day_time_string(s, from.field, to.field, &micros)) invalid();
    } else if (!scaled_value(s, from.factor, &micros)) {
      invalid();
    }
    return plan::lit(Value::integer(micros), DataType::day_time_interval(from.field, to.field));
  }
  // INTERVAL value unit [value unit ...]
  bool any_ym = false, any_dt = false;
  int64_t months = 0, micros = 0;
  int ym_from = 2, ym_to = -1, dt_from = 4, dt_to = -1;
  while (
      peek().kind == TokenKind::kNumber || peek().kind == TokenKind::kString ||
      (at_op("-") && (peek(1).kind == TokenKind::kNumber || peek(1).kind == TokenKind::kString))) {
    bool neg = accept_op("-");
    const Token& v = next();
    Unit u;
    if (!at_identifier() || !unit_of(peek().text, &u)) fail_here();
    next();
    int64_t amount;
    std::string value_text = (neg ? "-" : "") + (v.kind == TokenKind::kString ? v.value : v.text);
    if (!scaled_value(value_text, u.factor, &amount)) fail(v);
    if (u.year_month) {
      any_ym = true;
      months += amount;
      ym_from = std::min(ym_from, u.field);
      ym_to = std::max(ym_to, u.field);
    } else {
      any_dt = true;
      micros += amount;
      dt_from = std::min(dt_from, u.field);
      dt_to = std::max(dt_to, u.field);
    }
  }
  if (any_ym && any_dt) fail_literal("Cannot mix year-month and day-time fields");
  if (any_ym)
    return plan::lit(Value::integer(months), DataType::year_month_interval(ym_from, ym_to));
  return plan::lit(Value::integer(micros), DataType::day_time_interval(dt_from, dt_to));
}

// --- Types -------------------------------------------------------------------------------------

TypePtr Parser::data_type() {
  int begin = peek().begin;
  // Find the extent of the type, then read it with the DDL type parser.
  std::function<void()> skip_type = [&]() {
    if (!at_identifier()) fail_here();
    std::string w = peek().kind == TokenKind::kWord ? peek().upper : "";
    next();
    if (w == "INTERVAL") {
      if (at_identifier()) next();
      if (accept_word("TO") && at_identifier()) next();
      return;
    }
    if ((w == "TIMESTAMP") && at_word("WITH")) {
      while (at_identifier() && !at_op(")")) next();
      return;
    }
    if (at_op("<") && (w == "ARRAY" || w == "MAP" || w == "STRUCT")) {
      next();
      if (w == "STRUCT") {
        while (!at_op(">")) {
          identifier();
          accept_op(":");
          skip_type();
          if (accept_word("NOT")) expect_word("NULL");
          if (accept_word("COMMENT")) {
            if (peek().kind != TokenKind::kString) fail_here();
            next();
          }
          if (!accept_op(",")) break;
        }
      } else {
        skip_type();
        if (w == "MAP") {
          expect_op(",");
          skip_type();
        }
      }
      expect_op(">");
      return;
    }
    if (at_op("(")) {
      next();
      while (!at_op(")")) {
        if (peek().kind != TokenKind::kNumber) fail_here();
        next();
        if (!accept_op(",")) break;
      }
      expect_op(")");
    }
    // STRING COLLATE name
    if (w == "STRING" && at_word("COLLATE") && at_identifier(1)) {
      next();
      next();
    }
  };
  skip_type();
  int stop = last_stop();
  std::string type_text(text(begin, stop));
  try {
    return parse_data_type(type_text);
  } catch (const SparkError& e) {
    throw positioned_error(e.kind(), e.error_class(), e.message(), e.params(), sql_, begin,
                           e.error_class() == "UNSUPPORTED_DATATYPE" ? toks_[pos_ - 1].stop : stop);
  }
}

// --- Parameters and constants -----------------------------------------------------------------

ExprPtr Parser::parameter_marker() {
  const Token& t = next();
  auto unbound = [&](const std::string& name, int stop) {
    fail_range(ErrorKind::kAnalysis, "UNBOUND_SQL_PARAMETER",
               "Found the unbound parameter: " + name +
                   ". Please, fix `args` and provide a mapping of the parameter to either a SQL "
                   "literal or "
                   "collection constructor functions such as `map()`, `array()`, `struct()`.",
               {{"name", name}}, t.begin, stop);
  };
  if (t.kind == TokenKind::kPositionalParam) {
    if (next_positional_ >= options_.parameters.positional.size()) {
      SparkError probe = positioned_error(ErrorKind::kAnalysis, "", "", {}, sql_, t.begin, t.stop);
      unbound("_" + std::to_string(probe.start), t.stop);
    }
    return options_.parameters.positional[next_positional_++];
  }
  const Token& name = next();  // `:` name
  auto it = options_.parameters.named.find(name.text);
  if (it == options_.parameters.named.end()) unbound(name.text, name.stop);
  return it->second;
}

bool Parser::fold_integer(const ExprPtr& x, int64_t* v) {
  if (x->kind == ExprKind::kLiteral) {
    if (x->value.is_null() || !x->type || !x->type->is_integral()) return false;
    *v = x->value.as_int();
    return true;
  }
  if (x->kind == ExprKind::kCast && x->type && x->type->is_integral()) return fold_integer(x->children[0], v);
  if (x->kind != ExprKind::kUnresolvedFunction) return false;
  int64_t a, b;
  if ((x->name == "negative" || x->name == "-") && x->children.size() == 1 && fold_integer(x->children[0], &a)) {
    *v = -a;
    return true;
  }
  if (x->children.size() != 2 || !fold_integer(x->children[0], &a) || !fold_integer(x->children[1], &b)) return false;
  if (x->name == "+")
    *v = a + b;
  else if (x->name == "-")
    *v = a - b;
  else if (x->name == "*")
    *v = a * b;
  else if ((x->name == "div" || x->name == "/") && b != 0)
    *v = a / b;
  else
    return false;
  return true;
}

int64_t Parser::constant_integer(const ExprPtr& e, const char* what, int begin, int stop) const {
  int64_t v;
  if (!fold_integer(e, &v)) {
    std::string name = what;
    fail_range(ErrorKind::kAnalysis, "INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE",
               "The " + name + " like expression \"" + std::string(text(begin, stop)) +
                   "\" is invalid. The " + name + " expression must evaluate to a constant value.",
               {{"name", name}, {"expr", "\"" + std::string(text(begin, stop)) + "\""}}, begin,
               stop);
  }
  return v;
}

}  // namespace ember::sql
