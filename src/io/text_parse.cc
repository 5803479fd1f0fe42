#include "io/text_parse.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace ember::io {

namespace {

inline bool is_digit(char c) { return static_cast<unsigned>(c - '0') <= 9; }
inline bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr float kPow10f[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

std::string_view java_trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

// The shape of a Java floating-point literal after trimming and sign.
struct FloatText {
  bool negative = false;
  bool hex = false;
  bool special_nan = false, special_inf = false;
  std::string_view body;  // without sign and suffix: what from_chars reads
  // Decimal fast path: the value is mantissa * 10^exp10 when exact is true.
  uint64_t mantissa = 0;
  int sig_digits = 0;
  int64_t exp10 = 0;
  bool exact = true;
};

bool scan_float(std::string_view s, FloatText* f) {
  s = java_trim(s);
  if (s.empty()) return false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    f->negative = s[0] == '-';
    i = 1;
  }
  std::string_view rest = s.substr(i);
  if (rest == "NaN") {
    f->special_nan = true;
    return true;
  }
  if (rest == "Infinity") {
    f->special_inf = true;
    return true;
  }
  // An optional type suffix.
  if (!rest.empty()) {
    const char last = rest.back();
    if (last == 'f' || last == 'F' || last == 'd' || last == 'D') rest.remove_suffix(1);
  }
  if (rest.empty()) return false;
  f->body = rest;
  size_t j = 0;
  const size_t n = rest.size();
  if (n > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) {
    f->hex = true;
    j = 2;
    size_t digits = 0;
    while (j < n && is_hex(rest[j])) ++j, ++digits;
    if (j < n && rest[j] == '.') {
      ++j;
      while (j < n && is_hex(rest[j])) ++j, ++digits;
    }
    if (digits == 0 || j >= n || (rest[j] != 'p' && rest[j] != 'P')) return false;
    ++j;
    if (j < n && (rest[j] == '+' || rest[j] == '-')) ++j;
    const size_t e0 = j;
    while (j < n && is_digit(rest[j])) ++j;
    if (j == e0 || j != n) return false;
    f->body = rest.substr(2);
    return true;
  }
  size_t digits = 0;
  int frac_digits = 0;
  auto take = [&](char c) {
    ++digits;
    if (f->mantissa == 0 && c == '0') return;  // leading zeros carry no precision
    if (f->sig_digits < 19) {
      f->mantissa = f->mantissa * 10 + static_cast<uint64_t>(c - '0');
      ++f->sig_digits;
    } else {
      f->exact = false;
    }
  };
  while (j < n && is_digit(rest[j])) take(rest[j++]);
  if (j < n && rest[j] == '.') {
    ++j;
    while (j < n && is_digit(rest[j])) {
      take(rest[j++]);
      ++frac_digits;
    }
  }
  if (digits == 0) return false;
  int64_t exp = 0;
  if (j < n && (rest[j] == 'e' || rest[j] == 'E')) {
    ++j;
    bool eneg = false;
    if (j < n && (rest[j] == '+' || rest[j] == '-')) eneg = rest[j++] == '-';
    const size_t e0 = j;
    while (j < n && is_digit(rest[j])) {
      if (exp < 100000) exp = exp * 10 + (rest[j] - '0');
      ++j;
    }
    if (j == e0) return false;
    if (eneg) exp = -exp;
  }
  if (j != n) return false;
  f->exp10 = exp - frac_digits;
  return true;
}

template <typename T>
bool finish_float(const FloatText& f, T* out) {
  T v;
  if (f.special_nan) {
    *out = std::numeric_limits<T>::quiet_NaN();
    return true;
  }
  if (f.special_inf) {
    v = std::numeric_limits<T>::infinity();
  } else if (!f.hex && f.exact && f.mantissa == 0) {
    v = 0;
  } else {
    const char* b = f.body.data();
    const char* e = b + f.body.size();
    auto r = std::from_chars(b, e, v, f.hex ? std::chars_format::hex : std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range) {
      // from_chars reports overflow and underflow; Java rounds to infinity or zero.
      v = f.hex || f.exp10 + f.sig_digits > 0 ? std::numeric_limits<T>::infinity() : T(0);
    } else if (r.ec != std::errc() || r.ptr != e) {
      return false;
    }
  }
  *out = f.negative ? -v : v;
  return true;
}

}  // namespace

bool parse_java_integer(std::string_view s, int64_t min, int64_t max, int64_t* out) {
  const size_t n = s.size();
  if (n == 0) return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    if (n == 1) return false;
    i = 1;
  }
  // Accumulate negatively so that INT64_MIN is representable.
  int64_t acc = 0;
  for (; i < n; ++i) {
    const unsigned d = static_cast<unsigned>(s[i] - '0');
    if (d > 9) return false;
    if (acc < (INT64_MIN + static_cast<int64_t>(d)) / 10) return false;
    acc = acc * 10 - static_cast<int64_t>(d);
  }
  if (!neg) {
    if (acc == INT64_MIN) return false;
    acc = -acc;
  }
  if (acc < min || acc > max) return false;
  *out = acc;
  return true;
}

bool parse_java_double(std::string_view s, double* out) {
  FloatText f;
  if (!scan_float(s, &f)) return false;
  // Clinger's fast path: both operands exact doubles, one correctly rounded operation.
  if (!f.special_nan && !f.special_inf && !f.hex && f.exact && f.mantissa < (1ull << 53) &&
      f.exp10 >= -22 && f.exp10 <= 22) {
    double v = static_cast<double>(f.mantissa);
    v = f.exp10 >= 0 ? v * kPow10[f.exp10] : v / kPow10[-f.exp10];
    *out = f.negative ? -v : v;
    return true;
  }
  return finish_float(f, out);
}

bool parse_java_float(std::string_view s, float* out) {
  FloatText f;
  if (!scan_float(s, &f)) return false;
  if (!f.special_nan && !f.special_inf && !f.hex && f.exact && f.mantissa < (1ull << 24) &&
      f.exp10 >= -10 && f.exp10 <= 10) {
    float v = static_cast<float>(f.mantissa);
    v = f.exp10 >= 0 ? v * kPow10f[f.exp10] : v / kPow10f[-f.exp10];
    *out = f.negative ? -v : v;
    return true;
  }
  return finish_float(f, out);
}

bool parse_java_boolean(std::string_view s, bool* out) {
  auto ieq = [&](const char* w, size_t n) {
    if (s.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
      if ((s[i] | 0x20) != w[i]) return false;
    return true;
  };
  if (ieq("true", 4)) {
    *out = true;
    return true;
  }
  if (ieq("false", 5)) {
    *out = false;
    return true;
  }
  return false;
}

bool parse_big_decimal(std::string_view s, DecimalText* out) {
  const size_t n = s.size();
  size_t i = 0;
  if (n == 0) return false;
  if (s[0] == '+' || s[0] == '-') {
    out->negative = s[0] == '-';
    i = 1;
  }
  const size_t start = i;
  int int_digits = 0, frac_digits = 0;
  while (i < n && is_digit(s[i])) ++i, ++int_digits;
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && is_digit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return false;
  out->digits = s.substr(start, i - start);
  out->int_digits = int_digits;
  int64_t exp = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    const size_t e0 = i;
    while (i < n && is_digit(s[i])) {
      exp = exp * 10 + (s[i] - '0');
      if (exp > 1000000000) return false;  // BigDecimal's exponent is an int
      ++i;
    }
    if (i == e0) return false;
    if (eneg) exp = -exp;
  }
  if (i != n) return false;
  out->exponent = exp;
  out->scale = frac_digits - exp;
  int precision = 0;
  bool leading = true;
  for (char c : out->digits) {
    if (c == '.') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++precision;
  }
  out->precision = precision == 0 ? 1 : precision;
  return true;
}

bool parse_decimal(std::string_view s, int precision, int scale, bool strip_commas,
                   int128_t* out) {
  char buf[128];
  std::string heap;
  if (strip_commas && std::memchr(s.data(), ',', s.size()) != nullptr) {
    char* dst = buf;
    if (s.size() > sizeof(buf)) {
      heap.resize(s.size());
      dst = heap.data();
    }
    size_t k = 0;
    for (char c : s)
      if (c != ',') dst[k++] = c;
    s = std::string_view(dst, k);
  }
  DecimalText t;
  if (!parse_big_decimal(s, &t)) return false;
  int128_t limit = 1;
  for (int k = 0; k < precision; ++k) limit *= 10;
  // The power of ten (in units of 10^-scale) of the first significand digit.
  const int64_t top = t.int_digits - 1 + t.exponent + scale;
  int128_t acc = 0;
  bool round_up = false;
  int64_t pos = top;
  bool cut = false;
  for (char c : t.digits) {
    if (c == '.') continue;
    if (pos < 0) {
      round_up = pos == -1 && c >= '5';
      cut = true;
      break;
    }
    if (pos > precision + 1 && c != '0') return false;  // certainly too large
    acc = acc * 10 + (c - '0');
    if (acc >= limit) return false;
    --pos;
  }
  if (!cut) {
    // Digits ran out above the target scale: pad with zeros.
    for (int64_t k = 0; k <= pos && acc != 0; ++k) {
      acc *= 10;
      if (acc >= limit) return false;
    }
  }
  if (round_up) {
    acc += 1;
    if (acc >= limit) return false;
  }
  *out = t.negative ? -acc : acc;
  return true;
}

bool parse_locale_decimal(std::string_view s, const LocaleData& locale, int precision, int scale, int128_t* out) {
  if (locale.is_us()) return parse_decimal(s, precision, scale, true, out);
  std::string text;
  return locale_number_text(s, locale, &text) && parse_decimal(text, precision, scale, false, out);
}

bool locale_number_text(std::string_view s, const LocaleData& locale, std::string* out) {
  out->clear();
  auto at = [&](size_t i, const char* symbol) {
    const std::string_view sym(symbol);
    return !sym.empty() && s.substr(i, sym.size()) == sym;
  };
  auto digit = [&](size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
  size_t i = 0;
  if (at(0, locale.minus_sign)) {
    *out += '-';
    i += std::string_view(locale.minus_sign).size();
  }
  bool digits = false;
  bool fraction = false;
  while (i < s.size()) {
    if (digit(i)) {
      *out += s[i++];
      digits = true;
    } else if (!fraction && at(i, locale.decimal_separator)) {
      *out += '.';
      fraction = true;
      i += std::string_view(locale.decimal_separator).size();
    } else if (!fraction && digits && at(i, locale.grouping_separator)) {
      i += std::string_view(locale.grouping_separator).size();
    } else if (digits && at(i, locale.exponent_separator)) {
      *out += 'E';
      i += std::string_view(locale.exponent_separator).size();
      if (at(i, locale.minus_sign)) {
        *out += '-';
        i += std::string_view(locale.minus_sign).size();
      }
      if (!digit(i)) return false;
      while (digit(i)) *out += s[i++];
      return i == s.size();
    } else {
      return false;
    }
  }
  return digits;
}

}  // namespace ember::io
