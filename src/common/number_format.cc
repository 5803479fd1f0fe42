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
  // Spark runs on) print two for subnormals: the two-digit decimal nearest the value (4.9E-324,
  // 1.4E-45, 2.8E-45, 9.8E-45, 4.9E-323) — except a double whose one digit starts a higher
  // decade than the value keeps it (2 * Double.MIN_VALUE, 9.88E-324, is 1.0E-323 there; Java
  // 19's generator prints 9.9E-324).
  if (std::memchr(buf, '.', static_cast<size_t>(res.ptr - buf)) == nullptr) {
    char two[64];
    auto r2 = std::to_chars(two, two + sizeof two - 1, std::fabs(v), std::chars_format::scientific, 1);
    *res.ptr = '\0';
    *r2.ptr = '\0';
    const bool decade_up = std::strtol(std::strchr(buf, 'e') + 1, nullptr, 10) >
                           std::strtol(std::strchr(two, 'e') + 1, nullptr, 10);
    if (std::is_same_v<F, float> || !decade_up) {
      std::memcpy(buf, two, static_cast<size_t>(r2.ptr - two));
      res.ptr = buf + (r2.ptr - two);
    }
  }
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
