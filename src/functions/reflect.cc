// reflect / java_method / try_reflect: Spark's CallMethodViaReflection calls a public static Java
// method by class and method name and returns String.valueOf of its result. Ember has no JVM;
// it knows the classes and methods of kClasses and kMethods below, and implements each with the
// JDK's semantics (results, text of numbers, exceptions). A class outside the table is "not
// found", as Spark says of a class missing from its class path.
//
// Spark picks the first public method of the class with the name and arity whose parameter
// types accept the arguments: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE map to
// the primitive or its box, STRING to java.lang.String (and to parameters it is assignable to,
// Object and CharSequence). A failing call raises the method's exception (reflect) or gives
// NULL (try_reflect).

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <random>

#include "common/error.h"
#include "common/number_format.h"
#include "functions/function.h"
#include "functions/strict_math.h"
#include "functions/string_util.h"
#include "functions/url_util.h"

namespace ember::functions {
namespace {

/// One argument of a call as Java receives it (boxed values may be null).
struct JArg {
  bool null = false;
  int64_t i = 0;  // boolean, byte, short, int, long
  double d = 0;   // float, double
  std::string s;
};

/// A Java exception thrown by a method: its class and message.
struct JavaException {
  std::string cls;
  std::string message;
};

[[noreturn]] void java_throw(std::string cls, std::string message = "") {
  throw JavaException{std::move(cls), std::move(message)};
}

/// The method's result as String.valueOf gives it; nullopt for a null or void result ("null").
using Impl = std::function<std::optional<std::string>(const std::vector<JArg>&)>;

/// A static method: parameter types as JVM descriptor letters (Z boolean, B byte, S short, I
/// int, J long, F float, D double), T for java.lang.String, Q for CharSequence, O for Object.
struct StaticMethod {
  const char* cls;
  const char* name;
  const char* params;
  Impl impl;
};

const char* const kClasses[] = {"java.lang.Math",    "java.lang.StrictMath", "java.lang.String",
                                "java.lang.Integer", "java.lang.Long",       "java.lang.Double",
                                "java.lang.Float",   "java.lang.Boolean",    "java.lang.System",
                                "java.util.UUID",    "java.net.URLEncoder",  "java.net.URLDecoder",
                                "scala.Predef"};

// ---- Java's conversions -----------------------------------------------------------------------

std::string str_i(int64_t v) { return std::to_string(v); }
std::string str_d(double v) { return java_double_string(v); }
std::string str_f(double v) { return java_float_string(static_cast<float>(v)); }

const std::string& non_null(const JArg& a) {
  if (a.null) java_throw("java.lang.NullPointerException");
  return a.s;
}

/// Integer.parseInt / Long.parseLong: an optional sign, then digits of `radix`; NumberFormatException
/// otherwise or out of range.
int64_t parse_integral(const JArg& a, int radix, int64_t lo, int64_t hi) {
  if (a.null) java_throw("java.lang.NumberFormatException", "Cannot parse null string: null");
  const std::string& s = a.s;
  if (radix < 2 || radix > 36)
    java_throw("java.lang.NumberFormatException",
               "radix " + std::to_string(radix) + (radix < 2 ? " less than Character.MIN_RADIX" : " greater than Character.MAX_RADIX"));
  auto fail = [&] { java_throw("java.lang.NumberFormatException", "For input string: \"" + s + "\"" +
                                                                     (radix == 10 ? "" : " under radix " + std::to_string(radix))); };
  size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i >= s.size()) fail();
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (d >= radix) fail();
    v = v * radix + d;
    if (v > static_cast<__int128>(hi) + 1) fail();
  }
  if (negative) v = -v;
  if (v < lo || v > hi) fail();
  return static_cast<int64_t>(v);
}

/// Double.parseDouble: surrounding whitespace (chars <= ' ') ignored, an optional f/F/d/D suffix,
/// decimal or "Infinity"/"NaN" forms.
double parse_double(const JArg& a) {
  if (a.null) java_throw("java.lang.NullPointerException");
  std::string t = a.s;
  size_t b = 0, e = t.size();
  while (b < e && static_cast<unsigned char>(t[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(t[e - 1]) <= ' ') --e;
  t = t.substr(b, e - b);
  auto fail = [&] {
    java_throw("java.lang.NumberFormatException", t.empty() ? "empty String" : "For input string: \"" + a.s + "\"");
  };
  if (t.empty()) fail();
  std::string body = t;
  size_t sign = body[0] == '+' || body[0] == '-' ? 1 : 0;
  std::string rest = body.substr(sign);
  if (rest == "Infinity") return body[0] == '-' ? -INFINITY : INFINITY;
  if (rest == "NaN") return NAN;
  char last = body.back();
  if (last == 'f' || last == 'F' || last == 'd' || last == 'D') body.pop_back();
  // Digits with at most one point, then an optional exponent.
  size_t i = sign, digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
  }
  if (digits == 0) fail();
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) fail();
  }
  if (i != body.size()) fail();
  return std::strtod(body.c_str(), nullptr);
}

/// Math.round(double): floor(x + 0.5) as a long, NaN to 0, saturating.
int64_t java_round(double x) {
  if (std::isnan(x)) return 0;
  double r = std::floor(x + 0.5);
  // x + 0.5 rounds up for the largest double below 0.5.
  if (x == 0.49999999999999994) r = 0;
  if (r >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
  if (r < -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

int64_t floor_div(int64_t x, int64_t y) {
  if (y == 0) java_throw("java.lang.ArithmeticException", "/ by zero");
  if (x == std::numeric_limits<int64_t>::min() && y == -1) return x;
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}

int64_t floor_mod(int64_t x, int64_t y) {
  if (y == 0) java_throw("java.lang.ArithmeticException", "/ by zero");
  if (y == -1) return 0;
  return x - floor_div(x, y) * y;
}

template <typename T>
std::string exact(__int128 v, const char* type) {
  if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
    java_throw("java.lang.ArithmeticException", std::string(type) + " overflow");
  return std::to_string(static_cast<int64_t>(v));
}

std::string to_radix(uint64_t v, int shift) {
  if (v == 0) return "0";
  std::string out;
  const uint64_t mask = (uint64_t{1} << shift) - 1;
  while (v != 0) {
    out.insert(out.begin(), "0123456789abcdef"[v & mask]);
    v >>= shift;
  }
  return out;
}

/// Integer.toString(i, radix) / Long.toString: radixes outside [2, 36] become 10.
std::string to_string_radix(int64_t v, int64_t radix) {
  if (radix < 2 || radix > 36) radix = 10;
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : static_cast<unsigned __int128>(v);
  std::string out;
  while (u != 0) {
    out.insert(out.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[static_cast<int>(u % static_cast<unsigned>(radix))]);
    u /= static_cast<unsigned>(radix);
  }
  return negative ? "-" + out : out;
}

// ---- java.util.UUID ----------------------------------------------------------------------------

std::string uuid_text(uint64_t hi, uint64_t lo) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 15; i >= 0; --i) {
    out += kHex[(hi >> (4 * i)) & 15];
    if (i == 8 || i == 4 || i == 0) out += '-';
  }
  for (int i = 15; i >= 0; --i) {
    out += kHex[(lo >> (4 * i)) & 15];
    if (i == 12) out += '-';
  }
  return out;
}

/// UUID.fromString: five '-'-separated hex fields (Long.parseLong(field, 16)), masked to 32, 16,
/// 16, 16 and 48 bits.
std::string uuid_from_string(const JArg& a) {
  const std::string& s = non_null(a);
  if (s.size() > 36) java_throw("java.lang.IllegalArgumentException", "UUID string too large");
  std::vector<std::string> parts;
  size_t from = 0;
  for (;;) {
    size_t dash = s.find('-', from);
    parts.push_back(s.substr(from, dash == std::string::npos ? std::string::npos : dash - from));
    if (dash == std::string::npos) break;
    from = dash + 1;
  }
  if (parts.size() != 5) java_throw("java.lang.IllegalArgumentException", "Invalid UUID string: " + s);
  uint64_t f[5];
  for (int k = 0; k < 5; ++k) {
    JArg p;
    p.s = parts[static_cast<size_t>(k)];
    try {
      f[k] = static_cast<uint64_t>(parse_integral(p, 16, std::numeric_limits<int64_t>::min(),
                                                  std::numeric_limits<int64_t>::max()));
    } catch (const JavaException&) {
      java_throw("java.lang.NumberFormatException", "Error at index " + std::to_string(0) + " in: \"" + p.s + "\"");
    }
  }
  uint64_t hi = ((f[0] & 0xffffffffu) << 32) | ((f[1] & 0xffffu) << 16) | (f[2] & 0xffffu);
  uint64_t lo = ((f[3] & 0xffffu) << 48) | (f[4] & 0xffffffffffffu);
  return uuid_text(hi, lo);
}

std::string random_uuid() {
  thread_local std::mt19937_64 gen{std::random_device{}()};
  uint64_t hi = gen(), lo = gen();
  hi = (hi & ~uint64_t{0xf000}) | 0x4000;  // version 4
  lo = (lo & ~(uint64_t{3} << 62)) | (uint64_t{2} << 62);  // IETF variant
  return uuid_text(hi, lo);
}

// ---- The table ---------------------------------------------------------------------------------

using A = const std::vector<JArg>&;

std::optional<std::string> some(std::string s) { return s; }

/// String.equalsIgnoreCase for ASCII names (charset names, "true").
bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

/// The static methods of java.lang.Math or, with `strict`, java.lang.StrictMath. StrictMath runs
/// fdlibm's algorithms (strict_math.h), and java.lang.Math runs the same code for most of its
/// methods; HotSpot replaces Math's sin, cos, tan, exp, log, log10 and pow with intrinsics of
/// its own, which follow neither fdlibm nor the C library to the last bit. The C library's
/// results are the nearer of the two, so those keep them.
void add_math(std::vector<StaticMethod>& m, const char* cls, bool strict) {
  auto d1 = [&](const char* name, double (*f)(double)) {
    m.push_back({cls, name, "D", [f](A a) { return some(str_d(f(a[0].d))); }});
  };
  m.push_back({cls, "abs", "I", [](A a) { return some(str_i(static_cast<int32_t>(a[0].i < 0 ? -static_cast<uint32_t>(a[0].i) : a[0].i))); }});
  m.push_back({cls, "abs", "J", [](A a) { return some(str_i(a[0].i == INT64_MIN ? a[0].i : std::llabs(a[0].i))); }});
  m.push_back({cls, "abs", "F", [](A a) { return some(str_f(std::fabs(a[0].d))); }});
  m.push_back({cls, "abs", "D", [](A a) { return some(str_d(std::fabs(a[0].d))); }});
  for (const char* name : {"max", "min"}) {
    bool mx = std::string(name) == "max";
    m.push_back({cls, name, "II", [mx](A a) { return some(str_i(mx ? std::max(a[0].i, a[1].i) : std::min(a[0].i, a[1].i))); }});
    m.push_back({cls, name, "JJ", [mx](A a) { return some(str_i(mx ? std::max(a[0].i, a[1].i) : std::min(a[0].i, a[1].i))); }});
    auto fmax = [mx](double x, double y) -> double {
      if (std::isnan(x) || std::isnan(y)) return NAN;
      if (x == 0 && y == 0) return mx ? (std::signbit(x) ? y : x) : (std::signbit(x) ? x : y);
      return mx ? std::max(x, y) : std::min(x, y);
    };
    m.push_back({cls, name, "FF", [fmax](A a) { return some(str_f(fmax(a[0].d, a[1].d))); }});
    m.push_back({cls, name, "DD", [fmax](A a) { return some(str_d(fmax(a[0].d, a[1].d))); }});
  }
  d1("sqrt", [](double x) { return std::sqrt(x); });
  d1("cbrt", strict_math::cbrt);
  d1("expm1", strict_math::expm1);
  d1("log1p", strict_math::log1p);
  const struct {
    const char* name;
    double (*c_library)(double);
    double (*fdlibm)(double);
  } intrinsics[] = {
      {"exp", [](double x) { return std::exp(x); }, strict_math::exp},
      {"log", [](double x) { return std::log(x); }, strict_math::log},
      {"log10", [](double x) { return std::log10(x); }, strict_math::log10},
      {"sin", [](double x) { return std::sin(x); }, strict_math::sin},
      {"cos", [](double x) { return std::cos(x); }, strict_math::cos},
      {"tan", [](double x) { return std::tan(x); }, strict_math::tan},
  };
  for (const auto& f : intrinsics) d1(f.name, strict ? f.fdlibm : f.c_library);
  d1("asin", strict_math::asin);
  d1("acos", strict_math::acos);
  d1("atan", strict_math::atan);
  d1("sinh", strict_math::sinh);
  d1("cosh", strict_math::cosh);
  d1("tanh", strict_math::tanh);
  d1("ceil", [](double x) { return std::ceil(x); });
  d1("floor", [](double x) { return std::floor(x); });
  d1("rint", [](double x) { return std::nearbyint(x); });
  d1("signum", [](double x) { return std::isnan(x) || x == 0 ? x : (x > 0 ? 1.0 : -1.0); });
  d1("toRadians", [](double x) { return x * 0.017453292519943295; });
  d1("toDegrees", [](double x) { return x * 57.29577951308232; });
  m.push_back({cls, "signum", "F", [](A a) {
                 double x = a[0].d;
                 return some(str_f(std::isnan(x) || x == 0 ? x : (x > 0 ? 1.0 : -1.0)));
               }});
  if (strict) {
    m.push_back(
        {cls, "pow", "DD", [](A a) { return some(str_d(strict_math::pow(a[0].d, a[1].d))); }});
  } else {
    m.push_back({cls, "pow", "DD", [](A a) {
                   // Java: pow(x, NaN) is NaN even for x = 1; pow(±1, ±Infinity) is NaN.
                   double x = a[0].d, y = a[1].d;
                   if (std::isnan(y) || (std::fabs(x) == 1 && std::isinf(y)))
                     return some(str_d(NAN));
                   return some(str_d(std::pow(x, y)));
                 }});
  }
  m.push_back(
      {cls, "atan2", "DD", [](A a) { return some(str_d(strict_math::atan2(a[0].d, a[1].d))); }});
  m.push_back(
      {cls, "hypot", "DD", [](A a) { return some(str_d(strict_math::hypot(a[0].d, a[1].d))); }});
  m.push_back({cls, "round", "D", [](A a) { return some(str_i(java_round(a[0].d))); }});
  m.push_back({cls, "round", "F", [](A a) {
                 double x = a[0].d;
                 if (std::isnan(x)) return some("0");
                 double r = std::floor(static_cast<double>(static_cast<float>(x)) + 0.5);
                 r = std::min(std::max(r, -2147483648.0), 2147483647.0);
                 return some(str_i(static_cast<int64_t>(r)));
               }});
  m.push_back({cls, "floorDiv", "II", [](A a) { return some(str_i(static_cast<int32_t>(floor_div(a[0].i, a[1].i)))); }});
  m.push_back({cls, "floorDiv", "JJ", [](A a) { return some(str_i(floor_div(a[0].i, a[1].i))); }});
  m.push_back({cls, "floorMod", "II", [](A a) { return some(str_i(floor_mod(a[0].i, a[1].i))); }});
  m.push_back({cls, "floorMod", "JJ", [](A a) { return some(str_i(floor_mod(a[0].i, a[1].i))); }});
  m.push_back({cls, "addExact", "II", [](A a) { return some(exact<int32_t>(static_cast<__int128>(a[0].i) + a[1].i, "integer")); }});
  m.push_back({cls, "addExact", "JJ", [](A a) { return some(exact<int64_t>(static_cast<__int128>(a[0].i) + a[1].i, "long")); }});
  m.push_back({cls, "subtractExact", "II", [](A a) { return some(exact<int32_t>(static_cast<__int128>(a[0].i) - a[1].i, "integer")); }});
  m.push_back({cls, "subtractExact", "JJ", [](A a) { return some(exact<int64_t>(static_cast<__int128>(a[0].i) - a[1].i, "long")); }});
  m.push_back({cls, "multiplyExact", "II", [](A a) { return some(exact<int32_t>(static_cast<__int128>(a[0].i) * a[1].i, "integer")); }});
  m.push_back({cls, "multiplyExact", "JJ", [](A a) { return some(exact<int64_t>(static_cast<__int128>(a[0].i) * a[1].i, "long")); }});
  m.push_back({cls, "negateExact", "I", [](A a) { return some(exact<int32_t>(-static_cast<__int128>(a[0].i), "integer")); }});
  m.push_back({cls, "negateExact", "J", [](A a) { return some(exact<int64_t>(-static_cast<__int128>(a[0].i), "long")); }});
  m.push_back({cls, "toIntExact", "J", [](A a) { return some(exact<int32_t>(a[0].i, "integer")); }});
}

std::vector<StaticMethod> build_methods() {
  std::vector<StaticMethod> m;
  add_math(m, "java.lang.Math", false);
  add_math(m, "java.lang.StrictMath", true);
  // String.valueOf: the primitives', then valueOf(Object), which a STRING argument reaches.
  m.push_back({"java.lang.String", "valueOf", "Z", [](A a) { return some(a[0].i ? "true" : "false"); }});
  m.push_back({"java.lang.String", "valueOf", "I", [](A a) { return some(str_i(a[0].i)); }});
  m.push_back({"java.lang.String", "valueOf", "J", [](A a) { return some(str_i(a[0].i)); }});
  m.push_back({"java.lang.String", "valueOf", "F", [](A a) { return some(str_f(a[0].d)); }});
  m.push_back({"java.lang.String", "valueOf", "D", [](A a) { return some(str_d(a[0].d)); }});
  m.push_back({"java.lang.String", "valueOf", "O", [](A a) {
                 return a[0].null ? some("null") : some(a[0].s);
               }});
  for (const char* cls : {"java.lang.Integer", "java.lang.Long"}) {
    const bool is_int = std::string(cls) == "java.lang.Integer";
    const int64_t lo = is_int ? INT32_MIN : INT64_MIN, hi = is_int ? INT32_MAX : INT64_MAX;
    const char* p = is_int ? "I" : "J";
    const int bits = is_int ? 32 : 64;
    const char* parse = is_int ? "parseInt" : "parseLong";
    m.push_back({cls, parse, "T", [lo, hi](A a) { return some(str_i(parse_integral(a[0], 10, lo, hi))); }});
    m.push_back({cls, parse, "TI", [lo, hi](A a) { return some(str_i(parse_integral(a[0], static_cast<int>(a[1].i), lo, hi))); }});
    m.push_back({cls, "valueOf", "T", [lo, hi](A a) { return some(str_i(parse_integral(a[0], 10, lo, hi))); }});
    m.push_back({cls, "valueOf", p, [](A a) { return some(str_i(a[0].i)); }});
    m.push_back({cls, "toString", p, [](A a) { return some(str_i(a[0].i)); }});
    m.push_back({cls, "toString", is_int ? "II" : "JI", [](A a) { return some(to_string_radix(a[0].i, a[1].i)); }});
    auto unsigned_of = [bits](int64_t v) {
      return bits == 32 ? static_cast<uint64_t>(static_cast<uint32_t>(v)) : static_cast<uint64_t>(v);
    };
    m.push_back({cls, "toHexString", p, [unsigned_of](A a) { return some(to_radix(unsigned_of(a[0].i), 4)); }});
    m.push_back({cls, "toOctalString", p, [unsigned_of](A a) {
                   uint64_t v = unsigned_of(a[0].i);
                   std::string out;
                   do {
                     out.insert(out.begin(), static_cast<char>('0' + (v & 7)));
                     v >>= 3;
                   } while (v != 0);
                   return some(out);
                 }});
    m.push_back({cls, "toBinaryString", p, [unsigned_of](A a) { return some(to_radix(unsigned_of(a[0].i), 1)); }});
    m.push_back({cls, "bitCount", p, [unsigned_of](A a) { return some(str_i(__builtin_popcountll(unsigned_of(a[0].i)))); }});
    m.push_back({cls, "signum", p, [](A a) { return some(str_i(a[0].i > 0 ? 1 : a[0].i < 0 ? -1 : 0)); }});
    m.push_back({cls, "max", is_int ? "II" : "JJ", [](A a) { return some(str_i(std::max(a[0].i, a[1].i))); }});
    m.push_back({cls, "min", is_int ? "II" : "JJ", [](A a) { return some(str_i(std::min(a[0].i, a[1].i))); }});
    m.push_back({cls, "sum", is_int ? "II" : "JJ", [is_int](A a) {
                   uint64_t s = static_cast<uint64_t>(a[0].i) + static_cast<uint64_t>(a[1].i);
                   return some(str_i(is_int ? static_cast<int32_t>(static_cast<uint32_t>(s)) : static_cast<int64_t>(s)));
                 }});
  }
  for (const char* cls : {"java.lang.Double", "java.lang.Float"}) {
    const bool is_double = std::string(cls) == "java.lang.Double";
    auto text = [is_double](double v) { return is_double ? str_d(v) : str_f(v); };
    const char* p = is_double ? "D" : "F";
    m.push_back({cls, is_double ? "parseDouble" : "parseFloat", "T", [text](A a) { return some(text(parse_double(a[0]))); }});
    m.push_back({cls, "valueOf", "T", [text](A a) { return some(text(parse_double(a[0]))); }});
    m.push_back({cls, "valueOf", p, [text](A a) { return some(text(a[0].d)); }});
    m.push_back({cls, "toString", p, [text](A a) { return some(text(a[0].d)); }});
    m.push_back({cls, "isNaN", p, [](A a) { return some(std::isnan(a[0].d) ? "true" : "false"); }});
    m.push_back({cls, "isInfinite", p, [](A a) { return some(std::isinf(a[0].d) ? "true" : "false"); }});
    m.push_back({cls, "isFinite", p, [](A a) { return some(std::isfinite(a[0].d) ? "true" : "false"); }});
  }
  m.push_back({"java.lang.Boolean", "parseBoolean", "T", [](A a) {
                 return some(!a[0].null && equals_ignore_case(a[0].s, "true") ? "true" : "false");
               }});
  m.push_back({"java.lang.Boolean", "valueOf", "Z", [](A a) { return some(a[0].i ? "true" : "false"); }});
  m.push_back({"java.lang.Boolean", "valueOf", "T", [](A a) {
                 return some(!a[0].null && equals_ignore_case(a[0].s, "true") ? "true" : "false");
               }});
  m.push_back({"java.lang.Boolean", "toString", "Z", [](A a) { return some(a[0].i ? "true" : "false"); }});
  m.push_back({"java.lang.System", "lineSeparator", "", [](A) { return some("\n"); }});
  m.push_back({"java.util.UUID", "randomUUID", "", [](A) { return some(random_uuid()); }});
  m.push_back({"java.util.UUID", "fromString", "T", [](A a) { return some(uuid_from_string(a[0])); }});
  auto charset = [](const JArg& c) {
    const std::string& name = non_null(c);
    if (!equals_ignore_case(name, "UTF-8") && !equals_ignore_case(name, "UTF8"))
      java_throw("java.io.UnsupportedEncodingException", name);
  };
  m.push_back({"java.net.URLEncoder", "encode", "TT", [charset](A a) {
                 charset(a[1]);
                 return some(java_url_encode(non_null(a[0])));
               }});
  m.push_back({"java.net.URLDecoder", "decode", "TT", [charset](A a) {
                 charset(a[1]);
                 std::string out;
                 if (!java_url_decode(non_null(a[0]), &out))
                   java_throw("java.lang.IllegalArgumentException",
                              "URLDecoder: Illegal hex characters in escape (%) pattern");
                 return some(out);
               }});
  m.push_back({"scala.Predef", "require", "Z", [](A a) -> std::optional<std::string> {
                 if (!a[0].i) java_throw("java.lang.IllegalArgumentException", "requirement failed");
                 return std::nullopt;
               }});
  return m;
}

const std::vector<StaticMethod>& methods() {
  static const std::vector<StaticMethod> m = build_methods();
  return m;
}

bool class_exists(const std::string& cls) {
  for (const char* c : kClasses)
    if (cls == c) return true;
  return false;
}

/// Whether a parameter of descriptor `p` accepts an argument of type `t` (Spark's typeMapping
/// and Class.isAssignableFrom).
bool accepts(char p, TypeId t) {
  switch (t) {
    case TypeId::kBoolean: return p == 'Z' || p == 'O';
    case TypeId::kByte: return p == 'B' || p == 'O';
    case TypeId::kShort: return p == 'S' || p == 'O';
    case TypeId::kInt: return p == 'I' || p == 'O';
    case TypeId::kLong: return p == 'J' || p == 'O';
    case TypeId::kFloat: return p == 'F' || p == 'O';
    case TypeId::kDouble: return p == 'D' || p == 'O';
    case TypeId::kString: return p == 'T' || p == 'Q' || p == 'O';
    default: return false;
  }
}

const StaticMethod* find_method(const std::string& cls, const std::string& name, const std::vector<TypeId>& args) {
  for (const StaticMethod& m : methods()) {
    if (cls != m.cls || name != m.name || std::string(m.params).size() != args.size()) continue;
    bool ok = true;
    for (size_t k = 0; k < args.size() && ok; ++k) ok = accepts(m.params[k], args[k]);
    if (ok) return &m;
  }
  return nullptr;
}

bool reflectable(TypeId t) {
  switch (t) {
    case TypeId::kBoolean: case TypeId::kByte: case TypeId::kShort: case TypeId::kInt: case TypeId::kLong:
    case TypeId::kFloat: case TypeId::kDouble: case TypeId::kString: return true;
    default: return false;
  }
}

/// The constant class or method name of argument `k`, or a NON_FOLDABLE_INPUT error.
std::string constant_name(const std::vector<ArgInfo>& a, size_t k, const std::string& call) {
  const char* what = k == 0 ? "class" : "method";
  if (a[k].type->id() != TypeId::kString || !a[k].literal || a[k].literal->is_null())
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        std::string("the input `") + what + "` should be a foldable \"STRING\" expression; however, got \"" +
                            a[k].type->sql() + "\".",
                        call);
  return a[k].literal->as_bytes();
}

Signature reflect_rule(const std::vector<ArgInfo>& a, const Config&) {
  std::string call = "reflect(";
  for (size_t k = 0; k < a.size(); ++k) call += (k ? ", " : "") + a[k].type->sql();
  call += ")";
  const std::string cls = constant_name(a, 0, call);
  const std::string name = constant_name(a, 1, call);
  std::vector<TypeId> types;
  static const char* kAccepted =
      "(\"BOOLEAN\" or \"TINYINT\" or \"SMALLINT\" or \"INT\" or \"BIGINT\" or \"FLOAT\" or \"DOUBLE\" or \"STRING\")";
  for (size_t k = 2; k < a.size(); ++k) {
    if (!reflectable(a[k].type->id()))
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The " + ordinal_number(k) + " parameter requires the " + kAccepted + " type, however \"" +
                              a[k].type->sql() + "\" has the type \"" + a[k].type->sql() + "\".",
                          call);
    types.push_back(a[k].type->id());
  }
  if (!class_exists(cls))
    throw_type_mismatch("UNEXPECTED_CLASS_TYPE", "class " + cls + " not found.", call);
  if (!find_method(cls, name, types))
    throw_type_mismatch("UNEXPECTED_STATIC_METHOD",
                        "cannot find a static method " + name + " that matches the argument types in " + cls + ".",
                        call);
  Signature s;
  for (auto& x : a) s.arg_types.push_back(x.type);
  s.result_type = DataType::string();
  s.null_if_any_arg_null = false;
  s.may_introduce_null = true;  // Spark declares the result nullable
  return s;
}

JArg arg_at(const Column& c, int64_t i) {
  JArg a;
  if (c.is_null(i)) {
    a.null = true;
    return a;
  }
  switch (c.type()->id()) {
    case TypeId::kBoolean: a.i = c.bool_at(i) ? 1 : 0; break;
    case TypeId::kByte: a.i = c.values<int8_t>()[i]; break;
    case TypeId::kShort: a.i = c.values<int16_t>()[i]; break;
    case TypeId::kInt: a.i = c.values<int32_t>()[i]; break;
    case TypeId::kLong: a.i = c.values<int64_t>()[i]; break;
    case TypeId::kFloat: a.d = c.values<float>()[i]; break;
    case TypeId::kDouble: a.d = c.values<double>()[i]; break;
    default: a.s = std::string(c.string_at(i));
  }
  return a;
}

ScalarKernel reflect_kernel(bool try_form) {
  return [try_form](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, const EvalContext&) {
    ColumnBuilder b(sig.result_type, n);
    if (n == 0) return b.finish();
    const std::string cls(args[0]->string_at(0)), name(args[1]->string_at(0));
    std::vector<TypeId> types;
    for (size_t k = 2; k < args.size(); ++k) types.push_back(args[k]->type()->id());
    const StaticMethod* m = find_method(cls, name, types);
    EMBER_CHECK(m != nullptr, "reflect's method was resolved by its type rule");
    std::vector<JArg> values(args.size() - 2);
    for (int64_t i = 0; i < n; ++i) {
      for (size_t k = 2; k < args.size(); ++k) {
        values[k - 2] = arg_at(*args[k], i);
        // Method.invoke refuses null for a primitive parameter.
        if (values[k - 2].null && m->params[k - 2] != 'T' && m->params[k - 2] != 'Q' && m->params[k - 2] != 'O') {
          if (try_form) goto null_row;
          throw SparkError(ErrorKind::kRuntime, "", "java.lang.IllegalArgumentException");
        }
      }
      try {
        std::optional<std::string> r = m->impl(values);
        b.append_bytes(r ? *r : "null");
        continue;
      } catch (const JavaException& e) {
        if (!try_form)
          throw SparkError(ErrorKind::kRuntime, "",
                           "java.lang.reflect.InvocationTargetException: " + e.cls +
                               (e.message.empty() ? "" : ": " + e.message));
      }
    null_row:
      b.append_null();
    }
    return b.finish();
  };
}

FunctionDef reflect_def(const char* name, bool try_form, const char* usage) {
  FunctionDef d;
  d.name = name;
  d.min_args = 2;
  d.max_args = -1;
  d.arg_type_rule = reflect_rule;
  d.kernel = reflect_kernel(try_form);
  d.constant_args = {0, 1};
  // Spark treats the call as nondeterministic (UUID.randomUUID, System.currentTimeMillis).
  d.deterministic = false;
  d.usage = usage;
  return d;
}

}  // namespace

void register_reflect(Registry& r) {
  FunctionDef d = reflect_def("reflect", false,
                              "reflect(class, method[, arg1[, arg2 ..]]) - Calls a static method by reflection "
                              "(the classes and methods Ember implements: see src/functions/reflect.cc).");
  d.aliases = {"java_method"};
  r.add(std::move(d));
  r.add(reflect_def("try_reflect", true,
                    "try_reflect(class, method[, arg1[, arg2 ..]]) - This is a special version of `reflect` that "
                    "returns NULL when the method throws an exception."));
}

}  // namespace ember::functions
