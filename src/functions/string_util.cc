#include "functions/string_util.h"

#include <locale.h>

#include <clocale>
#include <cwctype>

namespace ember::functions {

std::u32string utf8_decode(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<size_t>(extra) >= s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t cp = extra == 0 ? c : (c & (0x3F >> extra));
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((d & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (!ok) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

void utf8_append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string utf8_encode(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) utf8_append(out, c);
  return out;
}

namespace {
/// The C library's Unicode case tables, independent of the process locale.
locale_t utf8_locale() {
  static locale_t loc = [] {
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
    return l ? l : newlocale(LC_CTYPE_MASK, "C", static_cast<locale_t>(0));
  }();
  return loc;
}
}  // namespace

char32_t to_upper_cp(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  return static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), utf8_locale()));
}

char32_t to_lower_cp(char32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  return static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), utf8_locale()));
}

// The C library marks a title-case letter both upper and lower case; Java neither.
bool is_upper_cp(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z';
  return iswupper_l(static_cast<wint_t>(c), utf8_locale()) && !iswlower_l(static_cast<wint_t>(c), utf8_locale());
}

bool is_lower_cp(char32_t c) {
  if (c < 0x80) return c >= 'a' && c <= 'z';
  return iswlower_l(static_cast<wint_t>(c), utf8_locale()) && !iswupper_l(static_cast<wint_t>(c), utf8_locale());
}

bool is_title_cp(char32_t c) {
  return c >= 0x80 && iswupper_l(static_cast<wint_t>(c), utf8_locale()) &&
         iswlower_l(static_cast<wint_t>(c), utf8_locale());
}

namespace {
/// Unicode's SpecialCasing.txt: the unconditional mappings of Latin letters and ligatures to
/// several code points, in title case (upper case is the same text in capitals). Empty for
/// the others.
const char* special_title_case(char32_t c) {
  switch (c) {
    case 0xDF: return "Ss";
    case 0xFB00: return "Ff";
    case 0xFB01: return "Fi";
    case 0xFB02: return "Fl";
    case 0xFB03: return "Ffi";
    case 0xFB04: return "Ffl";
    case 0xFB05:
    case 0xFB06: return "St";
    case 0x149: return "\u02BCN";
    default: return "";
  }
}
}  // namespace

void append_upper_case(std::string& out, char32_t c) {
  const std::string special = special_title_case(c);
  if (special.empty()) {
    utf8_append(out, to_upper_cp(c));
    return;
  }
  for (char ch : special) out += static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
}

void append_title_case(std::string& out, char32_t c) {
  if (const char* special = special_title_case(c); *special) {
    out += special;
    return;
  }
  if (c < 0x80) {
    utf8_append(out, to_upper_cp(c));
    return;
  }
  static const wctrans_t title = wctrans_l("totitle", utf8_locale());
  utf8_append(out, title ? static_cast<char32_t>(towctrans_l(static_cast<wint_t>(c), title, utf8_locale()))
                         : to_upper_cp(c));
}

bool is_letter_cp(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return iswalpha_l(static_cast<wint_t>(c), utf8_locale()) && !iswdigit_l(static_cast<wint_t>(c), utf8_locale());
}

bool is_digit_cp(char32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  return iswdigit_l(static_cast<wint_t>(c), utf8_locale());
}

std::string_view substring_sql(std::string_view s, int64_t pos, int64_t len) {
  int64_t n = utf8_length(s);
  int64_t start = pos > 0 ? pos - 1 : (pos < 0 ? n + pos : 0);
  int64_t end = start + len;
  if (end > INT32_MAX) end = INT32_MAX;
  start = std::max<int64_t>(start, 0);
  if (start >= end) return {};
  size_t b = utf8_offset(s, start);
  size_t e = b + utf8_offset(s.substr(b), end - start);
  return s.substr(b, e - b);
}

std::string call_sql(const std::string& name, const std::vector<TypePtr>& args) {
  std::string s = name + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i]->sql();
  return s + ")";
}

TypePtr common_type(const std::string& fn, const std::vector<TypePtr>& args, const std::vector<size_t>& which,
                    const Config& conf) {
  TypePtr t = args[which[0]];
  for (size_t k = 1; k < which.size(); ++k) {
    TypePtr w = wider_type(t, args[which[k]], conf.ansi_enabled());
    if (!w && (t->id() == TypeId::kString || args[which[k]]->id() == TypeId::kString) &&
        !t->is_nested() && !args[which[k]]->is_nested())
      w = DataType::string();
    if (!w)
      throw_type_mismatch("DATA_DIFF_TYPES",
                          "Input to `" + fn + "` should all be the same type, but it's [" +
                              t->sql() + ", " + args[which[k]]->sql() + "].",
                          call_sql(fn, args));
    t = w;
  }
  return t;
}

Signature coerce_args(const std::string& fn, const std::vector<TypePtr>& args,
                      const std::string& spec, TypePtr result) {
  static const char* ordinals[] = {"first", "second", "third", "fourth", "fifth", "sixth"};
  Signature s;
  s.result_type = std::move(result);
  for (size_t i = 0; i < args.size(); ++i) {
    char want = spec.empty() ? '*' : spec[std::min(i, spec.size() - 1)];
    const TypePtr& t = args[i];
    bool is_null = t->id() == TypeId::kNull;
    bool atomic = !t->is_nested();
    TypePtr to;
    std::string required;
    switch (want) {
      case 'S':
        required = "\"STRING\"";
        if (is_null || (atomic && t->id() != TypeId::kBinary) || t->id() == TypeId::kString)
          to = DataType::string();
        else if (t->id() == TypeId::kBinary)
          to = DataType::string();
        break;
      case 'B':
        required = "\"BINARY\"";
        if (is_null || t->id() == TypeId::kBinary || t->id() == TypeId::kString)
          to = DataType::binary();
        break;
      case 'I':
        required = "\"INT\"";
        // Spark casts any numeric argument to INT implicitly (a BIGINT out of range fails the
        // cast in ANSI mode; decimals and doubles truncate).
        if (is_null || t->id() == TypeId::kString || t->is_numeric()) to = DataType::int_();
        break;
      case 'i':
        // INT without the narrowing casts: only the smaller integral types (date_add's days).
        required = "(\"INT\" or \"SMALLINT\" or \"TINYINT\")";
        if (is_null || t->id() == TypeId::kString || t->id() == TypeId::kByte || t->id() == TypeId::kShort ||
            t->id() == TypeId::kInt)
          to = DataType::int_();
        break;
      case 'L':
        required = "\"BIGINT\"";
        if (is_null || t->id() == TypeId::kString || t->is_numeric()) to = DataType::long_();
        break;
      case 'D':
        required = "\"DOUBLE\"";
        if (is_null || t->id() == TypeId::kString || t->is_numeric()) to = DataType::double_();
        break;
      case 'd':
        required = "\"DATE\"";
        if (is_null || t->id() == TypeId::kString || t->is_datetime()) to = DataType::date();
        break;
      case 't':
        required = "\"TIMESTAMP\"";
        if (t->id() == TypeId::kTimestampNtz)
          to = t;
        else if (is_null || t->id() == TypeId::kString || t->is_datetime())
          to = DataType::timestamp();
        break;
      case 'T':
        required = "\"TIMESTAMP\"";
        if (is_null || t->id() == TypeId::kString || t->is_datetime()) to = DataType::timestamp();
        break;
      case 'b':
        required = "\"BOOLEAN\"";
        if (is_null || t->id() == TypeId::kBoolean) to = DataType::boolean();
        break;
      default:
        to = t;
    }
    if (!to) {
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("The ") + ordinals[std::min<size_t>(i, 5)] +
                              " parameter requires the " + required + " type, however \"" +
                              t->sql() + "\" has the type \"" + t->sql() + "\".",
                          call_sql(fn, args));
    }
    s.arg_types.push_back(to);
  }
  return s;
}

FunctionDef scalar(std::string name, int min_args, int max_args, TypeRule rule, ScalarKernel kernel,
                   std::vector<std::string> aliases) {
  FunctionDef d;
  d.name = std::move(name);
  d.aliases = std::move(aliases);
  d.min_args = min_args;
  d.max_args = max_args;
  d.type_rule = std::move(rule);
  d.kernel = std::move(kernel);
  return d;
}

std::string year_month_interval_text(int64_t months, int start, int end) {
  const int64_t m = months < 0 ? -months : months;
  const std::string sign = months < 0 ? "-" : "";
  if (start != end) return "INTERVAL '" + sign + std::to_string(m / 12) + "-" + std::to_string(m % 12) + "' YEAR TO MONTH";
  if (start == 0) return "INTERVAL '" + sign + std::to_string(m / 12) + "' YEAR";
  return "INTERVAL '" + std::to_string(months) + "' MONTH";
}

int base64_sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::string java_mime_unbase64(std::string_view s, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int count = 0;  // sextets of the current 4-character unit
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i++];
    if (c == '=') {
      // Padding ends a unit of 2 (then "==", adjacent) or 3 characters.
      if (count == 0 || (count == 2 && (i == s.size() || s[i++] != '=')))
        return "Input byte array has wrong 4-byte ending unit";
      break;
    }
    const int v = base64_sextet(c);
    if (v < 0) continue;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      *out += static_cast<char>(acc >> 16);
      *out += static_cast<char>((acc >> 8) & 0xFF);
      *out += static_cast<char>(acc & 0xFF);
      acc = 0;
      count = 0;
    }
  }
  if (count == 1) return "Last unit does not have enough valid bits";
  if (count == 2) *out += static_cast<char>(acc >> 4);
  if (count == 3) {
    *out += static_cast<char>(acc >> 10);
    *out += static_cast<char>((acc >> 2) & 0xFF);
  }
  for (; i < s.size(); ++i)
    if (base64_sextet(s[i]) >= 0) return "Input byte array has incorrect ending byte at " + std::to_string(i + 1);
  return "";
}

}  // namespace ember::functions
