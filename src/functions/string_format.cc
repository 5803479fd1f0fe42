// format_number and format_string/printf: java.text.DecimalFormat ("#,##0.00", HALF_EVEN) and
// java.util.Formatter (`%5.2f`, `%-10s`, `%,d`, `%08X` ...) as Spark applies them.

#include <charconv>
#include <cmath>
#include <cstdio>

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

/// The decimal digits and exponent of the shortest representation of |v| (Java's
/// Double.toString digits): value = 0.d1d2... * 10^exp.
void shortest_digits(double v, std::string* digits, int* exp) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string s(buf, res.ptr);
  size_t e = s.find('e');
  int e10 = std::stoi(s.substr(e + 1));
  digits->clear();
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') *digits += s[i];
  *exp = e10 + 1;
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
    bool up = all[keep] >= '5';
    all.resize(keep);
    if (up) {
      int k = static_cast<int>(keep) - 1;
      while (k >= 0 && all[static_cast<size_t>(k)] == '9') all[static_cast<size_t>(k--)] = '0';
      if (k >= 0)
        all[static_cast<size_t>(k)]++;
      else {
        all.insert(0, "1");
        ++point;
      }
    }
  } else {
    all.append(keep - all.size(), '0');
  }
  std::string ip = point > 0 ? all.substr(0, static_cast<size_t>(point)) : "0";
  std::string fp = all.substr(static_cast<size_t>(std::max(point, 0)));
  std::string out = (std::signbit(v) ? "-" : "") + ip;
  if (prec > 0) out += "." + fp;
  return out;
}

ColumnPtr format_number_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const TypePtr& t = a[0]->type();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int32_t d = int_arg(a, 1, i);
    if (d < 0) {
      b.append_null();
      return;
    }
    std::string plain;
    if (t->id() == TypeId::kDecimal) {
      // Round the exact decimal value HALF_EVEN to d places.
      int128_t v = a[0]->values<int128_t>()[i];
      int scale = t->scale();
      if (scale > d) {
        int128_t p = 1;
        for (int k = 0; k < scale - d; ++k) p *= 10;
        int128_t q = v / p, r = v % p;
        int128_t twice = (r < 0 ? -r : r) * 2;
        if (twice > p || (twice == p && (q % 2 != 0))) q += v < 0 ? -1 : 1;
        v = q;
        scale = d;
      }
      plain = decimal_to_string(v, scale);
      if (scale < d) {
        if (scale == 0 && d > 0) plain += ".";
        plain.append(static_cast<size_t>(d - scale), '0');
      }
      if (v == 0 && a[0]->values<int128_t>()[i] < 0) plain = "-" + plain;
    } else if (t->is_integral()) {
      int64_t v = dispatch_fixed(t->id(), [&]<typename T>() -> int64_t {
        if constexpr (std::is_integral_v<T>)
          return static_cast<int64_t>(a[0]->values<T>()[i]);
        else
          return 0;
      });
      plain = std::to_string(v);
      if (d > 0) plain += "." + std::string(static_cast<size_t>(d), '0');
    } else {
      double v = t->id() == TypeId::kFloat ? static_cast<double>(a[0]->values<float>()[i])
                                           : a[0]->values<double>()[i];
      if (std::isnan(v)) {
        b.append_bytes("NaN");
        return;
      }
      if (std::isinf(v)) {
        b.append_bytes(v > 0 ? "\xE2\x88\x9E" : "-\xE2\x88\x9E");
        return;
      }
      // DecimalFormat rounds the exact binary value HALF_EVEN, as printf does.
      std::vector<char> buf(static_cast<size_t>(d) + 330);
      std::snprintf(buf.data(), buf.size(), "%.*f", d, v);
      plain = buf.data();
    }
    b.append_bytes(group_thousands(plain));
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
      s = pad("null", false);
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
      if (lc == 'f') {
        s = java_fixed(v, p);
        if (flags.find(',') != std::string::npos) s = group_thousands(s);
      } else {
        char buf[512];
        std::snprintf(buf, sizeof buf, lc == 'e' ? "%.*e" : "%.*g", p, v);
        s = buf;
      }
      if (!std::signbit(v) && flags.find('+') != std::string::npos) s = "+" + s;
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
        if (a[1]->id() == TypeId::kString)
          throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                           "format_number with a format pattern is not supported yet.");
        if (!a[0]->is_numeric() && a[0]->id() != TypeId::kNull)
          throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                              "The first parameter requires the \"NUMERIC\" type, however \"" +
                                  a[0]->sql() + "\" has the type \"" + a[0]->sql() + "\".",
                              call_sql("format_number", a));
        Signature s = coerce_args("format_number", a, "*I", DataType::string());
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
