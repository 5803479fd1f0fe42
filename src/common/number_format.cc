#include "common/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ember {

namespace {

template <typename F>
std::string java_string(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  // Where the shortest text has one digit, Java 17's Double.toString / Float.toString (the JVM
  // Spark runs on) may print two: every float subnormal takes the two-digit decimal nearest it
  // (Float.MIN_VALUE is 1.4E-45, twice it 2.8E-45), while of the doubles only Double.MIN_VALUE
  // does (4.9E-324; twice it is 1.0E-323 there). Java 19's new digit generator takes two digits
  // for every such double (9.9E-324), which is not what a Spark on Java 17 prints.
  const bool two_digits = std::is_same_v<F, float> || std::fabs(v) == std::numeric_limits<F>::denorm_min();
  if (two_digits && std::memchr(buf, '.', static_cast<size_t>(res.ptr - buf)) == nullptr)
    res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific, 1);
  *res.ptr = '\0';
  char* e = std::strchr(buf, 'e');
  const int exp = std::atoi(e + 1);  // value = d.ddd × 10^exp
  *e = '\0';
  std::string digits;
  for (char* p = buf; *p; ++p)
    if (*p != '.') digits += *p;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = std::signbit(v) ? "-" : "";
  if (exp >= -3 && exp < 7) {
    if (exp < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exp - 1), '0');
      out += digits;
    } else {
      const size_t int_digits = static_cast<size_t>(exp) + 1;
      if (digits.size() <= int_digits) {
        out += digits;
        out.append(int_digits - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, int_digits);
        out += '.';
        out += digits.substr(int_digits);
      }
    }
    return out;
  }
  out += digits[0];
  out += '.';
  out += digits.size() > 1 ? digits.substr(1) : "0";
  out += 'E';
  out += std::to_string(exp);
  return out;
}

}  // namespace

std::string java_double_string(double v) { return java_string(v); }
std::string java_float_string(float v) { return java_string(v); }

}  // namespace ember
