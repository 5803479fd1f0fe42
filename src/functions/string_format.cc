// format_number and format_string/printf: java.text.DecimalFormat ("#,##0.00", HALF_EVEN) and
// java.util.Formatter (`%5.2f`, `%-10s`, `%,d`, `%08X` ...) as Spark applies them.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "common/datetime.h"
#include "functions/cast.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

/// Inserts ',' every three digits of the integer part of a plain decimal string.
std::string group_thousands(const std::string& s) {
  size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
  size_t dot = s.find('.');
  size_t end = dot == std::string::npos ? s.size() : dot;
  std::string out = s.substr(0, start);
  for (size_t i = start; i < end; ++i) {
    out += s[i];
    size_t left = end - i - 1;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out + s.substr(end);
}

/// The decimal digits and exponent of Java's Double.toString of |v| (the shortest digits, two
/// where one would do, as for 4.9E-324): value = 0.d1d2... * 10^exp.
void shortest_digits(double v, std::string* digits, int* exp) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  if (std::memchr(buf, '.', static_cast<size_t>(res.ptr - buf)) == nullptr)
    res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific, 1);
  std::string s(buf, res.ptr);
  size_t e = s.find('e');
  int e10 = std::stoi(s.substr(e + 1));
  digits->clear();
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') *digits += s[i];
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
  *exp = e10 + 1;
}

/// Cuts the decimal digits `digits` to their first `keep` (fewer than it has), rounding HALF_UP
/// on the first digit dropped. Returns whether the carry ran past the first digit (`999` kept
/// to 2 -> `100`: one digit longer).
bool round_half_up(std::string& digits, size_t keep) {
  const bool up = digits[keep] >= '5';
  digits.resize(keep);
  if (!up) return false;
  size_t k = keep;
  while (k > 0 && digits[k - 1] == '9') digits[--k] = '0';
  if (k > 0) {
    digits[k - 1]++;
    return false;
  }
  digits.insert(0, "1");
  return true;
}

/// Fixed notation with `prec` fraction digits of Java's decimal view of `v`, rounded HALF_UP
/// (java.util.Formatter's %f).
std::string java_fixed(double v, int prec) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  std::string digits;
  int exp;
  if (v == 0)
    digits = "0", exp = 1;
  else
    shortest_digits(v, &digits, &exp);
  // Digits of the integer part and the fraction, as a plain string of digits with a point
  // after `point` of them.
  std::string all;
  int point;
  if (exp <= 0) {
    all = std::string(static_cast<size_t>(-exp), '0') + digits;
    point = 0;
  } else {
    all = digits;
    if (static_cast<int>(all.size()) < exp) all.append(static_cast<size_t>(exp) - all.size(), '0');
    point = exp;
  }
  size_t keep = static_cast<size_t>(point + prec);
  if (all.size() > keep) {
    if (round_half_up(all, keep)) ++point;
  } else {
    all.append(keep - all.size(), '0');
  }
  std::string ip = point > 0 ? all.substr(0, static_cast<size_t>(point)) : "0";
  std::string fp = all.substr(static_cast<size_t>(std::max(point, 0)));
  std::string out = (std::signbit(v) ? "-" : "") + ip;
  if (prec > 0) out += "." + fp;
  return out;
}

/// Java's %e of `v`: the shortest decimal digits of |v| rounded HALF_UP to `prec` fraction
/// digits, `d.ddde+XX` with at least two exponent digits.
std::string java_scientific(double v, int prec) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  std::string digits = "0";
  int exp = 1;
  if (v != 0) shortest_digits(v, &digits, &exp);
  size_t keep = static_cast<size_t>(prec) + 1;
  if (digits.size() > keep && round_half_up(digits, keep)) {
    digits.pop_back();  // 99.9 -> 100.0: one more digit before the point
    ++exp;
  }
  digits.append(keep - digits.size(), '0');
  int e = v == 0 ? 0 : exp - 1;
  std::string out = std::signbit(v) ? "-" : "";
  out += digits.substr(0, 1);
  if (prec > 0) out += "." + digits.substr(1);
  std::string ed = std::to_string(e < 0 ? -e : e);
  if (ed.size() < 2) ed.insert(0, "0");
  return out + (e < 0 ? "e-" : "e+") + ed;
}

/// Java's %g: `prec` significant digits (0 counts as 1), in fixed notation when the rounded
/// magnitude is in [1e-4, 10^prec), else scientific; trailing zeros are kept.
std::string java_general(double v, int prec) {
  if (std::isnan(v) || std::isinf(v)) return java_fixed(v, 0);
  if (prec == 0) prec = 1;
  if (v == 0) return java_fixed(v, prec - 1);
  std::string sci = java_scientific(v, prec - 1);
  int e = std::stoi(sci.substr(sci.find('e') + 1));
  if (e < -4 || e >= prec) return sci;
  return java_fixed(v, prec - 1 - e);
}

/// A java.text.DecimalFormat pattern as format_number applies it (English symbols, HALF_EVEN):
/// `prefix [#,]*[0,]*[.0*#*] suffix[;negative prefix # negative suffix]`, with quoted text and a
/// `%` (times 100) or `‰` (times 1000) in the prefix or suffix. Scientific patterns (`0.0E0`)
/// are refused.
struct DecimalPattern {
  std::string prefix, suffix, neg_prefix, neg_suffix;
  int min_int = 1, min_frac = 0, max_frac = 0;
  int group = 0;  // digits per group; 0: no grouping
  int shift = 0;  // decimal digits the multiplier adds (2 for %, 3 for ‰)

  [[noreturn]] static void invalid(const std::string& why) {
    // Java's IllegalArgumentException, which Spark passes on without an error class.
    throw SparkError(ErrorKind::kIllegalArgument, "", why);
  }

  /// Spark's pattern for d decimal places: #,###,###,###,###,###,##0 and d zeros after a point.
  static DecimalPattern with_places(int d) {
    DecimalPattern p;
    p.min_frac = p.max_frac = d;
    return p;
  }

  DecimalPattern() : neg_prefix("-"), group(3) {}

  explicit DecimalPattern(std::string_view pattern) : DecimalPattern() {
    if (pattern.empty()) return;
    size_t i = 0;
    prefix = affix(pattern, i);
    int left = 0, zeros = 0, right = 0, right_zeros = 0, since_comma = -1;
    bool point = false;
    for (; i < pattern.size(); ++i) {
      const char c = pattern[i];
      if (c == '#' || c == '0') {
        if (point) {
          ++right;
          if (c == '0') {
            if (right != right_zeros + 1) invalid("Unexpected '0' in pattern \"" + std::string(pattern) + '"');
            ++right_zeros;
          }
        } else {
          if (c == '0') ++zeros;
          else if (zeros > 0) invalid("Unexpected '0' in pattern \"" + std::string(pattern) + '"');
          else ++left;
        }
        if (since_comma >= 0 && !point) ++since_comma;
      } else if (c == ',' && !point) {
        since_comma = 0;
      } else if (c == '.') {
        if (point) invalid("Multiple decimal separators in pattern \"" + std::string(pattern) + '"');
        point = true;
      } else if (c == 'E') {
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "format_number with a scientific pattern is not supported yet.");
      } else {
        break;
      }
    }
    suffix = affix(pattern, i);
    if (i < pattern.size()) {
      if (pattern[i] != ';') invalid("Malformed pattern \"" + std::string(pattern) + '"');
      ++i;
      // The negative subpattern gives only its prefix and suffix.
      neg_prefix = affix(pattern, i);
      while (i < pattern.size() && std::string_view("#0,.").find(pattern[i]) != std::string_view::npos) ++i;
      neg_suffix = affix(pattern, i);
    } else {
      neg_prefix = "-" + prefix;
      neg_suffix = suffix;
    }
    // "#.##" keeps one integer digit, as a pattern without zeros does.
    if (zeros == 0 && left > 0 && point) zeros = 1;
    min_int = zeros;
    min_frac = right_zeros;
    max_frac = right;
    group = since_comma > 0 ? since_comma : 0;
  }

  /// Literal text up to the next special character; quotes hold text ('' is a quote), % and ‰
  /// set the multiplier.
  std::string affix(std::string_view p, size_t& i) {
    std::string out;
    while (i < p.size()) {
      const char c = p[i];
      if (c == '\'') {
        size_t j = i + 1;
        if (j < p.size() && p[j] == '\'') {
          out += '\'';
          i = j + 1;
          continue;
        }
        while (j < p.size() && p[j] != '\'') out += p[j++];
        i = j + 1;
        continue;
      }
      if (std::string_view("#0,.;").find(c) != std::string_view::npos) break;
      if (c == '%') shift = 2;
      if (p.substr(i, 3) == "\xE2\x80\xB0") shift = 3;
      out += c;
      ++i;
    }
    return out;
  }

  /// Formats 0.digits × 10^exp (digits without leading zeros, or empty for zero). `tie` says how
  /// the exact value compares with the digits where only a final 5 is dropped: -1 below, 0
  /// exactly, 1 above (a double's shortest digits may stand for a value on either side).
  std::string format(bool negative, std::string digits, int exp, int tie = 0) const {
    exp = digits.empty() ? 0 : exp + shift;
    // Round HALF_EVEN to max_frac places: keep the first `keep` digits.
    const int keep = exp + max_frac;
    if (keep < static_cast<int>(digits.size())) {
      bool up = false;
      if (keep >= 0) {
        const char first = digits[static_cast<size_t>(keep)];
        bool rest = digits.find_first_not_of('0', static_cast<size_t>(keep) + 1) != std::string::npos;
        if (first > '5' || (first == '5' && (rest || tie > 0))) up = true;
        else if (first == '5' && tie == 0) up = keep > 0 && (digits[static_cast<size_t>(keep) - 1] - '0') % 2 == 1;
      }
      digits.resize(static_cast<size_t>(std::max(keep, 0)));
      if (up) {
        int k = keep - 1;
        while (k >= 0 && digits[static_cast<size_t>(k)] == '9') digits[static_cast<size_t>(k--)] = '0';
        if (k >= 0) {
          digits[static_cast<size_t>(k)]++;
        } else {
          digits.insert(0, "1");
          ++exp;
        }
      }
      while (!digits.empty() && digits.back() == '0') digits.pop_back();
      if (digits.empty()) exp = 0;
    }
    std::string int_part, frac_part;
    for (int k = 0; k < exp; ++k) int_part += k < static_cast<int>(digits.size()) ? digits[static_cast<size_t>(k)] : '0';
    if (exp < 0) frac_part.assign(static_cast<size_t>(-exp), '0');
    if (static_cast<int>(digits.size()) > std::max(exp, 0)) frac_part += digits.substr(static_cast<size_t>(std::max(exp, 0)));
    frac_part = frac_part.substr(0, static_cast<size_t>(max_frac));
    while (static_cast<int>(frac_part.size()) > min_frac && frac_part.back() == '0') frac_part.pop_back();
    while (static_cast<int>(frac_part.size()) < min_frac) frac_part += '0';
    if (static_cast<int>(int_part.size()) < min_int) int_part.insert(0, static_cast<size_t>(min_int) - int_part.size(), '0');
    std::string grouped;
    for (size_t k = 0; k < int_part.size(); ++k) {
      grouped += int_part[k];
      const size_t left = int_part.size() - k - 1;
      if (group > 0 && left > 0 && left % static_cast<size_t>(group) == 0) grouped += ',';
    }
    std::string body = grouped;
    if (!frac_part.empty()) body += "." + frac_part;
    if (body.empty()) body = "0";
    return negative ? neg_prefix + body + neg_suffix : prefix + body + suffix;
  }
};

/// How the exact value of a double compares with its shortest `digits` (-1 below, 0 equal, 1
/// above): what decides DecimalFormat's rounding where only a final 5 is dropped.
int exact_side(double v, const std::string& digits) {
  // The exact binary expansion (a double has fewer than 800 significant digits).
  std::vector<char> buf(1200);
  std::snprintf(buf.data(), buf.size(), "%.1100e", std::fabs(v));
  std::string exact;
  for (char* p = buf.data(); *p && *p != 'e'; ++p)
    if (*p != '.') exact += *p;
  const std::string head = exact.substr(0, digits.size());
  if (head != digits) return head < digits ? -1 : 1;
  return exact.find_first_not_of('0', digits.size()) == std::string::npos ? 0 : 1;
}

ColumnPtr format_number_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const TypePtr& t = a[0]->type();
  const bool places = a[1]->type()->id() != TypeId::kString;
  std::optional<DecimalPattern> pattern;
  std::string last_pattern;
  int last_places = -1;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    if (places) {
      const int32_t d = int_arg(a, 1, i);
      if (d < 0) {
        b.append_null();
        return;
      }
      if (d != last_places) pattern = DecimalPattern::with_places(d), last_places = d;
    } else {
      const std::string_view text = a[1]->string_at(i);
      if (!pattern || text != last_pattern) pattern.emplace(text), last_pattern = std::string(text);
    }
    const DecimalPattern& p = *pattern;
    std::string digits;
    int exp = 0, tie = 0;
    bool negative = false;
    if (t->id() == TypeId::kDecimal || t->is_integral()) {
      int128_t v = t->id() == TypeId::kDecimal ? a[0]->values<int128_t>()[i]
                                                : dispatch_fixed(t->id(), [&]<typename T>() -> int128_t {
                                                    if constexpr (std::is_integral_v<T>)
                                                      return static_cast<int128_t>(a[0]->values<T>()[i]);
                                                    else
                                                      return 0;
                                                  });
      const int scale = t->id() == TypeId::kDecimal ? t->scale() : 0;
      negative = v < 0;
      std::string text = int128_to_string(negative ? -v : v);
      if (text != "0") {
        digits = text;
        exp = static_cast<int>(text.size()) - scale;
        while (!digits.empty() && digits.back() == '0') digits.pop_back();
      }
    } else {
      double v = t->id() == TypeId::kFloat ? static_cast<double>(a[0]->values<float>()[i])
                                           : a[0]->values<double>()[i];
      if (std::isnan(v)) {
        b.append_bytes("NaN");
        return;
      }
      // Java multiplies a double by the pattern's multiplier before it formats it.
      if (p.shift) v *= p.shift == 2 ? 100.0 : 1000.0;
      negative = std::signbit(v);
      if (std::isinf(v)) {
        b.append_bytes((negative ? p.neg_prefix : p.prefix) + "\xE2\x88\x9E" + (negative ? p.neg_suffix : p.suffix));
        return;
      }
      if (v != 0) {
        shortest_digits(v, &digits, &exp);
        // Only a tie at the last digit needs the exact value (a long expansion).
        if (digits.back() == '5' && exp + p.max_frac == static_cast<int>(digits.size()) - 1)
          tie = exact_side(v, digits);
      }
      exp -= p.shift;
    }
    b.append_bytes(p.format(negative, digits, exp, tie));
  });
}

[[noreturn]] void format_error(const std::string& what) {
  throw SparkError(
      ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.PATTERN",
      "The value of parameter(s) `strfmt` in `format_string` is invalid: " + what + ".",
      {{"parameter", "`strfmt`"}, {"functionName", "`format_string`"}});
}

/// One row of java.util.Formatter.
std::string java_format(std::string_view fmt, const Args& a, int64_t row, const EvalContext& ctx) {
  std::string out;
  size_t next_arg = 1;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    size_t j = i + 1;
    // [argument_index$]
    size_t explicit_arg = 0;
    {
      size_t k = j;
      while (k < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[k]))) ++k;
      if (k < fmt.size() && fmt[k] == '$' && k > j) {
        explicit_arg = static_cast<size_t>(std::stoi(std::string(fmt.substr(j, k - j))));
        j = k + 1;
      }
    }
    std::string flags;
    while (j < fmt.size() && std::string("-#+ 0,(").find(fmt[j]) != std::string::npos)
      flags += fmt[j++];
    int width = -1, prec = -1;
    if (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) {
      width = 0;
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j])))
        width = width * 10 + (fmt[j++] - '0');
    }
    if (j < fmt.size() && fmt[j] == '.') {
      ++j;
      prec = 0;
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j])))
        prec = prec * 10 + (fmt[j++] - '0');
    }
    if (j >= fmt.size()) format_error("Conversion = '%'");
    char conv = fmt[j];
    i = j;
    bool left = flags.find('-') != std::string::npos, zero = flags.find('0') != std::string::npos;
    auto pad = [&](std::string s, bool numeric) {
      int64_t len = utf8_length(s);
      if (width > 0 && len < width) {
        size_t fill = static_cast<size_t>(width - len);
        if (left)
          s.append(fill, ' ');
        else if (zero && numeric)
          s.insert((s[0] == '-' || s[0] == '+') ? 1 : 0, fill, '0');
        else
          s.insert(0, fill, ' ');
      }
      return s;
    };
    if (conv == '%') {
      out += pad("%", false);
      continue;
    }
    if (conv == 'n') {
      out += '\n';
      continue;
    }
    size_t ai = explicit_arg ? explicit_arg : next_arg++;
    if (ai >= a.size()) format_error("Format specifier '%" + std::string(1, conv) + "'");
    const Column& c = *a[ai];
    bool null = c.is_null(row);
    TypeId id = c.type()->id();
    bool upper = std::isupper(static_cast<unsigned char>(conv));
    char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(conv)));
    std::string s;
    if (lc == 'b') {
      s = null ? "false" : (id == TypeId::kBoolean ? (c.bool_at(row) ? "true" : "false") : "true");
      if (prec >= 0) s.resize(std::min(s.size(), static_cast<size_t>(prec)));
      s = pad(s, false);
    } else if (null) {
      // Java formats a null argument as the text "null", cut to the precision.
      s = "null";
      if (prec >= 0) s.resize(std::min(s.size(), static_cast<size_t>(prec)));
      s = pad(s, false);
    } else if (lc == 's') {
      ColumnPtr one = slice(a[ai], row, 1);
      ColumnPtr str = id == TypeId::kString ? one : cast_column(one, DataType::string(), ctx);
      s = std::string(str->string_at(0));
      if (prec >= 0) s = s.substr(0, utf8_offset(s, prec));
      s = pad(s, false);
    } else if (lc == 'd' || lc == 'x' || lc == 'o') {
      if (!c.type()->is_integral())
        format_error(std::string(1, conv) + " != " + c.type()->simple_string());
      int64_t v = dispatch_fixed(id, [&]<typename T>() -> int64_t {
        if constexpr (std::is_integral_v<T>)
          return static_cast<int64_t>(c.values<T>()[row]);
        else
          return 0;
      });
      if (lc == 'd') {
        s = std::to_string(v);
        if (flags.find(',') != std::string::npos) s = group_thousands(s);
        if (v >= 0 && flags.find('+') != std::string::npos)
          s = "+" + s;
        else if (v >= 0 && flags.find(' ') != std::string::npos)
          s = " " + s;
        if (v < 0 && flags.find('(') != std::string::npos) s = "(" + s.substr(1) + ")";
      } else {
        // Java prints negative values in two's complement of the argument's width.
        int bits = static_cast<int>(c.type()->id() == TypeId::kLong    ? 64
                                    : c.type()->id() == TypeId::kInt   ? 32
                                    : c.type()->id() == TypeId::kShort ? 16
                                                                       : 8);
        uint64_t u = static_cast<uint64_t>(v);
        if (bits < 64) u &= (uint64_t{1} << bits) - 1;
        char buf[32];
        auto r = std::to_chars(buf, buf + 32, u, lc == 'x' ? 16 : 8);
        s.assign(buf, r.ptr);
        if (flags.find('#') != std::string::npos) s = (lc == 'x' ? "0x" : "0") + s;
      }
      s = pad(s, true);
    } else if (lc == 'f' || lc == 'e' || lc == 'g') {
      double v;
      if (id == TypeId::kDouble)
        v = c.values<double>()[row];
      else if (id == TypeId::kFloat)
        v = c.values<float>()[row];
      else
        format_error(std::string(1, conv) + " != " + c.type()->simple_string());
      int p = prec < 0 ? 6 : prec;
      const bool finite = std::isfinite(v);
      if (lc == 'f') {
        s = java_fixed(v, p);
      } else if (lc == 'e') {
        s = java_scientific(v, p);
      } else {
        s = java_general(v, p);
      }
      // Java groups only digits written in fixed notation, and signs no NaN.
      if (finite && flags.find(',') != std::string::npos && s.find('e') == std::string::npos)
        s = group_thousands(s);
      if (!std::isnan(v) && !std::signbit(v) && flags.find('+') != std::string::npos) s = "+" + s;
      s = pad(s, !std::isnan(v) && !std::isinf(v));
    } else if (lc == 'c') {
      if (id == TypeId::kString)
        s = std::string(c.string_at(row)).substr(0, utf8_offset(c.string_at(row), 1));
      else if (c.type()->is_integral()) {
        int64_t v = dispatch_fixed(id, [&]<typename T>() -> int64_t {
          if constexpr (std::is_integral_v<T>)
            return static_cast<int64_t>(c.values<T>()[row]);
          else
            return 0;
        });
        utf8_append(s, static_cast<char32_t>(v));
      } else {
        format_error("c != " + c.type()->simple_string());
      }
      s = pad(s, false);
    } else {
      format_error("Conversion = '" + std::string(1, conv) + "'");
    }
    if (upper) {
      std::u32string u = utf8_decode(s);
      for (char32_t& ch : u) ch = to_upper_cp(ch);
      s = utf8_encode(u);
    }
    out += s;
  }
  return out;
}

}  // namespace

void register_string_format(Registry& r) {
  r.add(scalar(
      "format_number", 2, 2,
      [](const Types& a, const Config&) {
        if (!a[0]->is_numeric() && a[0]->id() != TypeId::kNull)
          throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                              "The first parameter requires the \"NUMERIC\" type, however \"" +
                                  a[0]->sql() + "\" has the type \"" + a[0]->sql() + "\".",
                              call_sql("format_number", a));
        Signature s = coerce_args("format_number", a, a[1]->id() == TypeId::kString ? "*S" : "*I", DataType::string());
        if (a[0]->id() == TypeId::kNull) s.arg_types[0] = DataType::double_();
        s.may_introduce_null = true;
        return s;
      },
      format_number_kernel));
  for (std::string fn : {"format_string", "printf"}) {
    r.add(scalar(
        fn, 1, -1,
        [fn](const Types& a, const Config&) {
          Signature s = coerce_args(fn, a, "S*", DataType::string());
          s.nullable_from = {0};
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
          ColumnBuilder b(sig.result_type, n);
          for (int64_t i = 0; i < n; ++i) {
            if (a[0]->is_null(i))
              b.append_null();
            else
              b.append_bytes(java_format(a[0]->string_at(i), a, i, ctx));
          }
          return b.finish();
        }));
  }
}

}  // namespace ember::functions
