// Strings and bytes: encode/decode between strings and the charsets Spark accepts (decode's
// CASE-like form lives here too, under the same name), to_binary/try_to_binary (hex, utf-8,
// base64), to_base32/from_base32 and the UTF-8 validation functions.
//
// Charset errors follow Spark's default coding error action: a character a charset cannot
// represent, or bytes that are not valid in it, raise MALFORMED_CHARACTER_CODING whatever the
// ANSI mode.

#include <algorithm>
#include <cstring>

#include "functions/cast.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// UTF-8 well-formedness (Unicode table 3-7) and repair by maximal subparts.

/// Length of the well-formed prefix of the sequence starting at `s[i]` (1 to 4 bytes when it is
/// a whole character); `*complete` tells whether it is one.
size_t utf8_sequence(std::string_view s, size_t i, bool* complete) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  *complete = true;
  if (c < 0x80) return 1;
  int need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) need = 1;
  else if (c == 0xE0) need = 2, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) need = 2;
  else if (c == 0xED) need = 2, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF) need = 2;
  else if (c == 0xF0) need = 3, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) need = 3;
  else if (c == 0xF4) need = 3, hi = 0x8F;
  else {
    *complete = false;
    return 1;
  }
  size_t k = 1;
  for (int j = 0; j < need; ++j, ++k) {
    if (i + k >= s.size()) {
      *complete = false;
      return k;
    }
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    bool ok = j == 0 ? d >= lo && d <= hi : d >= 0x80 && d <= 0xBF;
    if (!ok) {
      *complete = false;
      return k;
    }
  }
  return k;
}

bool utf8_valid(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    bool complete;
    i += utf8_sequence(s, i, &complete);
    if (!complete) return false;
  }
  return true;
}

/// Replaces each maximal ill-formed subpart with U+FFFD.
std::string utf8_make_valid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    bool complete;
    size_t k = utf8_sequence(s, i, &complete);
    if (complete)
      out.append(s.substr(i, k));
    else
      out += "\xEF\xBF\xBD";
    i += k;
  }
  return out;
}

[[noreturn]] void invalid_utf8(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string bytes;
  for (unsigned char c : s) bytes += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
  throw SparkError(ErrorKind::kRuntime, "INVALID_UTF8_STRING",
                   "Invalid UTF8 byte sequence found in string: " + bytes + ".", {{"str", bytes}}, "22029");
}

// ---------------------------------------------------------------------------------------------
// Charsets.

enum class Charset { kUtf8, kAscii, kLatin1, kUtf16, kUtf16Be, kUtf16Le, kUtf32 };

Charset charset_of(std::string_view name, const char* fn) {
  static const std::pair<const char*, Charset> kNames[] = {
      {"iso-8859-1", Charset::kLatin1}, {"us-ascii", Charset::kAscii},   {"utf-16", Charset::kUtf16},
      {"utf-16be", Charset::kUtf16Be},  {"utf-16le", Charset::kUtf16Le}, {"utf-32", Charset::kUtf32},
      {"utf-8", Charset::kUtf8}};
  std::string key = lower_ascii(name);
  for (auto& [n, c] : kNames)
    if (key == n) return c;
  throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.CHARSET",
                   std::string("The value of parameter(s) `charset` in `") + fn +
                       "` is invalid: expects one of the iso-8859-1, us-ascii, utf-16, utf-16be, utf-16le, "
                       "utf-32, utf-8, but got " + std::string(name) + ".",
                   {{"parameter", "`charset`"}, {"functionName", std::string("`") + fn + "`"},
                    {"charsets", "iso-8859-1, us-ascii, utf-16, utf-16be, utf-16le, utf-32, utf-8"},
                    {"charset", std::string(name)}},
                   "22023");
}

[[noreturn]] void malformed_coding(const char* fn, std::string_view charset) {
  throw SparkError(ErrorKind::kRuntime, "MALFORMED_CHARACTER_CODING",
                   std::string("Invalid value found when performing `") + fn + "` with " + std::string(charset),
                   {{"function", std::string("`") + fn + "`"}, {"charset", std::string(charset)}}, "22000");
}

void put16(std::string& out, uint32_t u, bool big) {
  out += static_cast<char>(big ? u >> 8 : u & 0xFF);
  out += static_cast<char>(big ? u & 0xFF : u >> 8);
}

/// The bytes of `s` (decoded from UTF-8; invalid bytes read as U+FFFD) in `cs`.
std::string encode_to(std::string_view s, Charset cs, std::string_view name) {
  if (cs == Charset::kUtf8) return utf8_valid(s) ? std::string(s) : utf8_encode(utf8_decode(s));
  std::u32string u = utf8_decode(s);
  std::string out;
  if (cs == Charset::kUtf16 && !u.empty()) out += "\xFE\xFF";
  for (char32_t c : u) {
    switch (cs) {
      case Charset::kAscii:
      case Charset::kLatin1:
        if (c >= (cs == Charset::kAscii ? 0x80u : 0x100u)) malformed_coding("encode", name);
        out += static_cast<char>(c);
        break;
      case Charset::kUtf16:
      case Charset::kUtf16Be:
      case Charset::kUtf16Le: {
        bool big = cs != Charset::kUtf16Le;
        if (c < 0x10000) {
          put16(out, c, big);
        } else {
          put16(out, 0xD800 + ((c - 0x10000) >> 10), big);
          put16(out, 0xDC00 + ((c - 0x10000) & 0x3FF), big);
        }
        break;
      }
      default:  // UTF-32, big-endian without a byte order mark
        for (int sh = 24; sh >= 0; sh -= 8) out += static_cast<char>((c >> sh) & 0xFF);
    }
  }
  return out;
}

/// The string whose bytes in `cs` are `b`; malformed input raises MALFORMED_CHARACTER_CODING.
std::string decode_from(std::string_view b, Charset cs, std::string_view name) {
  std::string out;
  auto bad = [&]() { malformed_coding("decode", name); };
  switch (cs) {
    case Charset::kUtf8:
      if (!utf8_valid(b)) bad();
      return std::string(b);
    case Charset::kAscii:
    case Charset::kLatin1:
      for (unsigned char c : b) {
        if (cs == Charset::kAscii && c >= 0x80) bad();
        utf8_append(out, c);
      }
      return out;
    case Charset::kUtf16:
    case Charset::kUtf16Be:
    case Charset::kUtf16Le: {
      bool big = cs != Charset::kUtf16Le;
      size_t i = 0;
      auto unit = [&](size_t k) -> uint32_t {
        auto x = static_cast<unsigned char>(b[k]), y = static_cast<unsigned char>(b[k + 1]);
        return big ? (x << 8 | y) : (y << 8 | x);
      };
      if (cs == Charset::kUtf16 && b.size() >= 2) {
        // A byte order mark chooses the order (big-endian without one) and is dropped.
        uint32_t m = unit(0);
        if (m == 0xFEFF) i = 2;
        else if (m == 0xFFFE) big = false, i = 2;
      }
      if ((b.size() - i) % 2) bad();
      for (; i < b.size(); i += 2) {
        uint32_t u = unit(i);
        if (u >= 0xDC00 && u <= 0xDFFF) bad();
        if (u >= 0xD800 && u <= 0xDBFF) {
          if (i + 3 >= b.size()) bad();
          uint32_t v = unit(i + 2);
          if (v < 0xDC00 || v > 0xDFFF) bad();
          u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
          i += 2;
        }
        utf8_append(out, u);
      }
      return out;
    }
    case Charset::kUtf32: {
      size_t i = 0;
      bool big = true;
      auto word = [&](size_t k) -> uint32_t {
        uint32_t w = 0;
        for (int j = 0; j < 4; ++j)
          w |= static_cast<uint32_t>(static_cast<unsigned char>(b[k + static_cast<size_t>(j)]))
               << (big ? 24 - 8 * j : 8 * j);
        return w;
      };
      if (b.size() >= 4) {
        if (word(0) == 0xFEFF) i = 4;
        else if (word(0) == 0xFFFE0000u) big = false, i = 4;
      }
      if ((b.size() - i) % 4) bad();
      for (; i < b.size(); i += 4) {
        uint32_t u = word(i);
        if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) bad();
        utf8_append(out, u);
      }
      return out;
    }
  }
  return out;
}

/// Applies `f(value, charset name)` row by row; the charset argument is parsed once per
/// distinct value.
template <typename F>
ColumnPtr with_charset(const Args& a, int64_t n, const TypePtr& rtype, const char* fn, F f) {
  std::string last_name;
  Charset cs = Charset::kUtf8;
  bool parsed = false;
  return map_rows(a, n, rtype, [&](int64_t i, ColumnBuilder& b) {
    std::string_view name = a[1]->string_at(i);
    if (!parsed || name != last_name) {
      cs = charset_of(name, fn);
      last_name = std::string(name);
      parsed = true;
    }
    b.append_bytes(f(a[0]->string_at(i), cs, name));
  });
}

// ---------------------------------------------------------------------------------------------
// decode(expr, search, result, ..., default): the first result whose search value is equal to
// expr (null equal to null), else the default (or null).

/// The result type of a decode without a default: Spark's missing default is a STRING null, so
/// the results' type meets STRING (integers widen to BIGINT and fractions to DOUBLE in ANSI
/// mode; everything but STRING itself fails otherwise).
TypePtr with_string_default(const TypePtr& t, bool ansi) {
  switch (t->id()) {
    case TypeId::kNull:
    case TypeId::kString: return DataType::string();
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong: if (ansi) return DataType::long_(); break;
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal: if (ansi) return DataType::double_(); break;
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kBoolean:
    case TypeId::kBinary: if (ansi) return t; break;
    default: break;
  }
  throw_type_mismatch("DATA_DIFF_TYPES",
                      "Input to `casewhen` should all be the same type, but it's [\"" + t->sql() + "\", \"STRING\"].",
                      "decode");
}

Signature decode_case_rule(const Types& a, const Config& conf) {
  std::vector<size_t> results;
  for (size_t k = 2; k < a.size(); k += 2) results.push_back(k);
  bool has_default = a.size() % 2 == 0;
  if (has_default) results.push_back(a.size() - 1);
  TypePtr rt = common_type("decode", a, results, conf);
  if (!has_default) rt = with_string_default(rt, conf.ansi_enabled());
  else if (rt->id() == TypeId::kNull) rt = DataType::string();
  static const FunctionDef* eq = Registry::instance().find("<=>");
  for (size_t k = 1; k + (has_default ? 1 : 0) < a.size(); k += 2) eq->type_rule({a[0], a[k]}, conf);
  Signature s;
  s.arg_types = a;
  for (size_t k : results) s.arg_types[k] = rt;
  s.result_type = rt;
  s.null_if_any_arg_null = false;
  s.may_introduce_null = !has_default;
  for (size_t k : results) s.nullable_from.push_back(static_cast<int>(k));
  return s;
}

ColumnPtr decode_case_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  static const FunctionDef* eq = Registry::instance().find("<=>");
  const Config conf = ctx.config ? *ctx.config : Config();
  bool has_default = a.size() % 2 == 0;
  size_t pairs = (a.size() - 1) / 2;
  std::vector<ColumnPtr> hits;
  for (size_t p = 0; p < pairs; ++p) {
    const ColumnPtr& search = a[1 + 2 * p];
    Signature es = eq->type_rule({a[0]->type(), search->type()}, conf);
    Args pair = {a[0], search};
    for (size_t k = 0; k < 2; ++k)
      if (!pair[k]->type()->equals(*es.arg_types[k])) pair[k] = cast_column(pair[k], es.arg_types[k], ctx);
    hits.push_back(eq->kernel(pair, n, es, ctx));
  }
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    const Column* pick = has_default ? a.back().get() : nullptr;
    for (size_t p = 0; p < pairs; ++p)
      if (hits[p]->is_valid(i) && hits[p]->bool_at(i)) {
        pick = a[2 + 2 * p].get();
        break;
      }
    if (pick)
      b.append_from(*pick, i);
    else
      b.append_null();
  }
  return b.finish();
}

// ---------------------------------------------------------------------------------------------
// to_binary / try_to_binary.

enum class BinaryFormat { kHex, kUtf8, kBase64, kInvalid, kNull };

bool unhex(std::string_view s, std::string* out) {
  auto val = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  };
  out->clear();
  size_t i = 0;
  if (s.size() % 2) {
    int v = val(s[0]);
    if (v < 0) return false;
    *out += static_cast<char>(v);
    i = 1;
  }
  for (; i < s.size(); i += 2) {
    int h = val(s[i]), l = val(s[i + 1]);
    if (h < 0 || l < 0) return false;
    *out += static_cast<char>(h << 4 | l);
  }
  return true;
}

/// The text to_binary accepts as base64 before decoding it: alphabet characters and Java's
/// whitespace (\s: space, \t, \n, \x0B, \f, \r), then at most two '=' and nothing after them.
bool base64_text_valid(std::string_view s) {
  size_t i = 0;
  for (; i < s.size() && s[i] != '='; ++i) {
    const char c = s[i];
    if (base64_sextet(c) < 0 && c != ' ' && (c < '\t' || c > '\r')) return false;
  }
  size_t padding = 0;
  for (; i < s.size(); ++i, ++padding)
    if (s[i] != '=') return false;
  return padding <= 2;
}

BinaryFormat binary_format(const std::vector<ArgInfo>& a, bool try_form) {
  if (a.size() < 2) return BinaryFormat::kHex;
  // The analyzer folds a constant format (CAST(NULL AS STRING)) to a literal first.
  if (!a[1].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `fmt` should be a foldable \"STRING\" expression; however, got \"" +
                            (a[1].name.empty() ? a[1].type->sql() : a[1].name) + "\".",
                        "to_binary(" + a[0].type->sql() + ", " + a[1].name + ")");
  if (a[1].literal->is_null()) return BinaryFormat::kNull;
  std::string f = a[1].type->id() == TypeId::kString ? lower_ascii(a[1].literal->as_bytes()) : "";
  if (f == "hex") return BinaryFormat::kHex;
  if (f == "utf-8" || f == "utf8") return BinaryFormat::kUtf8;
  if (f == "base64") return BinaryFormat::kBase64;
  if (try_form) return BinaryFormat::kInvalid;
  std::string shown = a[1].type->id() == TypeId::kString ? a[1].literal->as_bytes() : "";
  throw_type_mismatch("INVALID_ARG_VALUE",
                      "The fmt value must to be a case-insensitive \"STRING\" literal of 'hex', 'utf-8', 'utf8', "
                      "or 'base64', but got '" + shown + "'.",
                      "to_binary(" + a[0].type->sql() + ", " + shown + ")");
}

FunctionDef to_binary_def(bool try_form) {
  std::string name = try_form ? "try_to_binary" : "to_binary";
  FunctionDef d;
  d.name = name;
  d.min_args = 1;
  d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [name, try_form](const std::vector<ArgInfo>& a, const Config&) {
    binary_format(a, try_form);
    Types types;
    for (auto& x : a) types.push_back(x.type);
    Signature s = coerce_args(name, types, "SS", DataType::binary());
    s.may_introduce_null = true;
    return s;
  };
  d.kernel = [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    BinaryFormat f = BinaryFormat::kHex;
    if (a.size() > 1) {
      std::vector<ArgInfo> info(2);
      Value v = a[1]->length() == 0 || a[1]->is_null(0) ? Value() : Value::bytes(std::string(a[1]->string_at(0)));
      info[0].type = a[0]->type();
      info[1].type = a[1]->type();
      info[1].literal = &v;
      f = binary_format(info, try_form);
    }
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      std::string_view s = a[0]->string_at(i);
      std::string out;
      bool ok = true;
      switch (f) {
        case BinaryFormat::kHex: ok = unhex(s, &out); break;
        case BinaryFormat::kBase64: ok = base64_text_valid(s) && java_mime_unbase64(s, &out).empty(); break;
        case BinaryFormat::kUtf8: out = s; break;
        default: ok = false;
      }
      if (ok) {
        b.append_bytes(out);
        return;
      }
      if (try_form || f == BinaryFormat::kNull || f == BinaryFormat::kInvalid) {
        b.append_null();
        return;
      }
      std::string fmt = f == BinaryFormat::kHex ? "HEX" : "BASE64";
      throw SparkError(ErrorKind::kRuntime, "CONVERSION_INVALID_INPUT",
                       "The value '" + std::string(s) + "' ('" + fmt +
                           "') cannot be converted to \"BINARY\" because it is malformed. Correct the value as per "
                           "the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and "
                           "return NULL instead.",
                       {{"str", "'" + std::string(s) + "'"}, {"fmt", "'" + fmt + "'"},
                        {"targetType", "\"BINARY\""}, {"suggestion", "`try_to_binary`"}},
                       "22018");
    });
  };
  d.may_throw = !try_form;
  d.usage = name + "(str[, fmt]) - Converts the input str to a binary value based on the supplied fmt.";
  return d;
}

// ---------------------------------------------------------------------------------------------
// Base32 (RFC 4648 alphabet, padded on output, lenient on input).

const char* kB32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

std::string to_base32(std::string_view s) {
  std::string out;
  uint64_t acc = 0;
  int bits = 0;
  for (unsigned char c : s) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += kB32[(acc >> bits) & 31];
    }
  }
  if (bits > 0) out += kB32[(acc << (5 - bits)) & 31];
  while (out.size() % 8) out += '=';
  return out;
}

/// Characters outside the alphabet (either case) are skipped; decoding stops at padding and
/// leftover bits short of a byte are dropped, except after a lone trailing character.
std::string from_base32(std::string_view s) {
  std::string out;
  uint64_t acc = 0;
  int bits = 0;
  size_t chars = 0;
  for (char c : s) {
    if (c == '=') break;
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char* p = u ? std::strchr(kB32, u) : nullptr;
    if (!p) continue;
    acc = (acc << 5) | static_cast<uint64_t>(p - kB32);
    bits += 5;
    ++chars;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  // A lone character after whole 8-character blocks still gives a byte: the low three bits of
  // the character before it and the top three of its own.
  if (chars % 8 == 1) out += static_cast<char>((acc >> 2) & 0xFF);
  return out;
}

}  // namespace

void register_string_encode(Registry& r) {
  {
    FunctionDef d = scalar(
        "encode", 2, 2,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("encode", a, "SS", DataType::binary());
          s.may_introduce_null = true;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return with_charset(a, n, sig.result_type, "encode", encode_to);
        });
    d.may_throw = true;
    d.usage = "encode(str, charset) - Encodes the first argument using the second argument character set.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "decode", 2, -1,
        [](const Types& a, const Config& conf) {
          if (a.size() > 2) return decode_case_rule(a, conf);
          Signature s = coerce_args("decode", a, "BS", DataType::string());
          s.may_introduce_null = true;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
          if (a.size() > 2) return decode_case_kernel(a, n, sig, ctx);
          return with_charset(a, n, sig.result_type, "decode", decode_from);
        });
    d.may_throw = true;
    d.usage =
        "decode(bin, charset) - Decodes the first argument using the second argument character set. "
        "decode(expr, search, result [, search, result ] ... [, default]) - Compares expr to each search "
        "value in order and returns the result of the first that is equal, else default.";
    r.add(std::move(d));
  }
  r.add(to_binary_def(false));
  r.add(to_binary_def(true));
  r.add(scalar(
      "to_base32", 1, 1, [](const Types& a, const Config&) { return coerce_args("to_base32", a, "B", DataType::string()); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type,
                        [&](int64_t i, ColumnBuilder& b) { b.append_bytes(to_base32(a[0]->string_at(i))); });
      }));
  r.add(scalar(
      "from_base32", 1, 1,
      [](const Types& a, const Config&) { return coerce_args("from_base32", a, "S", DataType::binary()); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type,
                        [&](int64_t i, ColumnBuilder& b) { b.append_bytes(from_base32(a[0]->string_at(i))); });
      }));
  r.add(scalar(
      "is_valid_utf8", 1, 1,
      [](const Types& a, const Config&) { return coerce_args("is_valid_utf8", a, "S", DataType::boolean()); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type,
                        [&](int64_t i, ColumnBuilder& b) { b.append_bool(utf8_valid(a[0]->string_at(i))); });
      }));
  r.add(scalar(
      "make_valid_utf8", 1, 1,
      [](const Types& a, const Config&) { return coerce_args("make_valid_utf8", a, "S", DataType::string()); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type,
                        [&](int64_t i, ColumnBuilder& b) { b.append_bytes(utf8_make_valid(a[0]->string_at(i))); });
      }));
  for (bool try_form : {false, true}) {
    std::string name = try_form ? "try_validate_utf8" : "validate_utf8";
    FunctionDef d = scalar(
        name, 1, 1,
        [name, try_form](const Types& a, const Config&) {
          Signature s = coerce_args(name, a, "S", DataType::string());
          s.may_introduce_null = try_form;
          return s;
        },
        [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            std::string_view s = a[0]->string_at(i);
            if (utf8_valid(s)) b.append_bytes(s);
            else if (try_form) b.append_null();
            else invalid_utf8(s);
          });
        });
    d.may_throw = !try_form;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
