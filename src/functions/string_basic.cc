// String functions that need no pattern language: concatenation, lengths, case, trimming,
// padding, substrings and positions, replacement, splitting on a literal, repetition,
// ascii/chr, base64, LIKE/ILIKE, prefix tests, levenshtein, soundex and mask.
//
// Positions and lengths count code points, as Spark's UTF8String does.

#include <algorithm>
#include <cstring>

#include "functions/collation_search.h"
#include "functions/collection_util.h"
#include "functions/java_form.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

TypePtr S() { return DataType::string(); }

/// A type rule coercing the arguments per `spec` (see coerce_args) to a fixed result type.
TypeRule rule(const std::string& fn, std::string spec, TypePtr result) {
  return [fn, spec, result](const Types& a, const Config&) {
    return coerce_args(fn, a, spec, result);
  };
}

std::string join(const std::vector<std::string>& a, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < a.size(); ++i) s += (i > from ? ", " : "") + a[i];
  return s;
}

/// Renders `called(args..., defaults for missing arguments)` where `defaults[k]` is the default
/// of argument number `first_default + k`.
auto defaults_render(size_t first_default, std::vector<std::string> defaults) {
  return
      [first_default, defaults](const std::string& called, const std::vector<std::string>& args) {
        std::vector<std::string> all = args;
        for (size_t k = all.size(); k < first_default + defaults.size(); ++k)
          if (k >= first_default) all.push_back(defaults[k - first_default]);
        return called + "(" + join(all) + ")";
      };
}

// ---------------------------------------------------------------------------------------------
// Concatenation and lengths.

ColumnPtr concat_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  if (sig.result_type->id() == TypeId::kArray) return concat_arrays(a, n, sig.result_type);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string s;
    for (size_t k = 0; k < a.size(); ++k) s += a[k]->string_at(i);
    b.append_bytes(s);
  });
}

Signature concat_rule(const Types& args, const Config& conf) {
  bool all_binary = !args.empty();
  for (auto& t : args) all_binary &= t->id() == TypeId::kBinary;
  bool any_array = false;
  for (auto& t : args) any_array |= t->id() == TypeId::kArray;
  if (any_array) {
    // concat of arrays: one common array type, null when any argument is.
    std::vector<size_t> all(args.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    TypePtr t = collection_common_type("concat", args, all, conf);
    Signature s;
    s.arg_types.assign(args.size(), t);
    s.result_type = t;
    return s;
  }
  for (auto& t : args)
    if (t->is_nested())
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "concat of " + t->sql() + " is not supported yet.");
  return coerce_args("concat", args, all_binary ? "B" : "S", all_binary ? DataType::binary() : S());
}

ColumnPtr concat_ws_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i)) {
      b.append_null();
      continue;
    }
    std::string_view sep = a[0]->string_at(i);
    std::string s;
    bool first = true;
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k]->is_null(i)) continue;
      if (!first) s += sep;
      s += a[k]->string_at(i);
      first = false;
    }
    b.append_bytes(s);
  }
  return b.finish();
}

ColumnPtr length_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&,
                        int kind /*0 chars, 1 bytes, 2 bits*/) {
  bool binary = a[0]->type()->id() == TypeId::kBinary;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t v = kind == 0 && !binary ? utf8_length(s) : static_cast<int64_t>(s.size());
    b.append<int32_t>(static_cast<int32_t>(kind == 2 ? v * 8 : v));
  });
}

Signature length_rule(const std::string& fn, const Types& args) {
  std::string spec = args[0]->id() == TypeId::kBinary ? "B" : "S";
  return coerce_args(fn, args, spec, DataType::int_());
}

// ---------------------------------------------------------------------------------------------
// Case.

/// Java's String.toLowerCase(Locale.ROOT): the simple mapping, plus SpecialCasing's full and
/// conditional ones: İ becomes i and a combining dot above (U+0307), and the final sigma (Σ at
/// the end of a word becomes ς).
void lower_in_place(std::u32string& u) {
  auto cased = [](char32_t c) { return is_upper_cp(c) || is_lower_cp(c) || is_title_cp(c); };
  std::u32string out;
  out.reserve(u.size());
  for (size_t k = 0; k < u.size(); ++k) {
    char32_t c = u[k];
    if (c == 0x3A3 && k > 0 && cased(u[k - 1]) && (k + 1 == u.size() || !cased(u[k + 1]))) {
      out += char32_t{0x3C2};
    } else if (c == 0x130) {
      out += U'i';
      out += char32_t{0x307};
    } else {
      out += to_lower_cp(c);
    }
  }
  u = std::move(out);
}

template <bool kUpper>
ColumnPtr case_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return (c & 0x80) == 0; });
    std::string out(s);
    if (ascii) {
      for (char& c : out)
        c = static_cast<char>(kUpper ? to_upper_cp(static_cast<unsigned char>(c))
                                     : to_lower_cp(static_cast<unsigned char>(c)));
    } else {
      std::u32string u = utf8_decode(s);
      out.clear();
      if constexpr (kUpper) {
        // Java's String.toUpperCase uses the full case mapping (ß to "SS").
        for (char32_t c : u) append_upper_case(out, c);
      } else {
        lower_in_place(u);
        out = utf8_encode(u);
      }
    }
    b.append_bytes(out);
  });
}

ColumnPtr initcap_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // Each space-separated word: its first letter in title case, as it was (İ stays İ), the rest
  // in lower case, seen in the whole word's context (the final sigma).
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const std::u32string u = utf8_decode(a[0]->string_at(i));
    std::string out;
    for (size_t start = 0; start <= u.size();) {
      size_t end = u.find(U' ', start);
      if (end == std::u32string::npos) end = u.size();
      if (end > start) {
        std::u32string word = u.substr(start, end - start);
        const char32_t first = word[0];
        lower_in_place(word);
        append_title_case(out, first);
        out += utf8_encode(std::u32string_view(word).substr(first == 0x130 ? 2 : 1));
      }
      if (end < u.size()) out += ' ';
      start = end + 1;
    }
    b.append_bytes(out);
  });
}

// ---------------------------------------------------------------------------------------------
// Trimming and padding.

enum class TrimSide { kBoth, kLeading, kTrailing };

std::string trim_chars(std::string_view s, const std::u32string* chars, TrimSide side) {
  if (!chars) {
    size_t b = 0, e = s.size();
    if (side != TrimSide::kTrailing)
      while (b < e && s[b] == ' ') ++b;
    if (side != TrimSide::kLeading)
      while (e > b && s[e - 1] == ' ') --e;
    return std::string(s.substr(b, e - b));
  }
  std::u32string u = utf8_decode(s);
  auto in = [&](char32_t c) { return chars->find(c) != std::u32string::npos; };
  size_t b = 0, e = u.size();
  if (side != TrimSide::kTrailing)
    while (b < e && in(u[b])) ++b;
  if (side != TrimSide::kLeading)
    while (e > b && in(u[e - 1])) --e;
  return utf8_encode(std::u32string_view(u).substr(b, e - b));
}

/// trim(str) / trim(str, chars); btrim is trim by another name with its own display.
FunctionDef trim_def(const std::string& name, TrimSide side) {
  FunctionDef d = scalar(name, 1, 2, rule(name, "S", S()),
                         [side, btrim = name == "btrim"](const Args& a, int64_t n,
                                                         const Signature& sig, const EvalContext&) {
                           const Collation& coll = call_collation(sig);
                           if (a.size() == 2 && !coll.binary_equality()) {
                             // trim(chars, str) for trim/ltrim/rtrim, btrim(str, chars).
                             const size_t src = btrim ? 0 : 1;
                             return map_rows(
                                 a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                                   b.append_bytes(collated_trim(
                                       coll, a[src]->string_at(i), a[1 - src]->string_at(i),
                                       side != TrimSide::kTrailing, side != TrimSide::kLeading));
                                 });
                           }
                           return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                             if (a.size() == 1) {
                               b.append_bytes(trim_chars(a[0]->string_at(i), nullptr, side));
                             } else {
                               // trim(chars, str) for trim/ltrim/rtrim, as Spark's function
                               // registry takes them; btrim(str, chars).
                               size_t src = btrim ? 0 : 1;
                               std::u32string chars = utf8_decode(a[1 - src]->string_at(i));
                               b.append_bytes(trim_chars(a[src]->string_at(i), &chars, side));
                             }
                           });
                         });
  if (name != "btrim") {
    const char* word = side == TrimSide::kBoth      ? "BOTH"
                       : side == TrimSide::kLeading ? "LEADING"
                                                    : "TRAILING";
    d.render = [word](const std::string& called, const std::vector<std::string>& args) {
      if (args.size() == 1) return called + "(" + args[0] + ")";
      return std::string("TRIM(") + word + " " + args[0] + " FROM " + args[1] + ")";
    };
  }
  return d;
}

template <bool kLeft>
ColumnPtr pad_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  bool binary = sig.result_type->id() == TypeId::kBinary;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t len = int_arg(a, 1, i);
    std::string_view pad =
        a.size() > 2 ? a[2]->string_at(i) : (binary ? std::string_view("\0", 1) : " ");
    if (len <= 0) {
      b.append_bytes("");
      return;
    }
    if (binary) {
      int64_t have = static_cast<int64_t>(s.size());
      if (have >= len || pad.empty()) {
        b.append_bytes(s.substr(0, static_cast<size_t>(std::min(have, len))));
        return;
      }
      std::string fill;
      while (static_cast<int64_t>(fill.size()) < len - have) fill += pad;
      fill.resize(static_cast<size_t>(len - have));
      b.append_bytes(kLeft ? fill + std::string(s) : std::string(s) + fill);
      return;
    }
    int64_t have = utf8_length(s);
    if (have >= len || pad.empty()) {
      b.append_bytes(s.substr(0, utf8_offset(s, len)));
      return;
    }
    int64_t need = len - have, pad_len = utf8_length(pad);
    std::string fill;
    for (int64_t k = 0; k < need / pad_len; ++k) fill += pad;
    fill += pad.substr(0, utf8_offset(pad, need % pad_len));
    b.append_bytes(kLeft ? fill + std::string(s) : std::string(s) + fill);
  });
}

// ---------------------------------------------------------------------------------------------
// Substrings and positions.

/// SQL's substring of bytes (1-based `pos`, negative from the end), for BINARY values.
std::string_view binary_substring_sql(std::string_view s, int64_t pos, int64_t len) {
  int64_t sz = static_cast<int64_t>(s.size());
  int64_t start = pos > 0 ? pos - 1 : (pos < 0 ? sz + pos : 0);
  int64_t end = std::min<int64_t>(start + len, INT32_MAX);
  start = std::max<int64_t>(start, 0);
  end = std::min(end, sz);
  return start >= end ? std::string_view() : s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
}

ColumnPtr substring_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  bool binary = sig.result_type->id() == TypeId::kBinary;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t pos = int_arg(a, 1, i);
    int64_t len = a.size() > 2 ? int_arg(a, 2, i) : INT32_MAX;
    if (binary)
      b.append_bytes(binary_substring_sql(s, pos, len));
    else
      b.append_bytes(substring_sql(s, pos, len));
  });
}

Signature substring_rule(const std::string& fn, const Types& args) {
  bool binary = args[0]->id() == TypeId::kBinary;
  Signature s = coerce_args(fn, args, binary ? "BI" : "SI", binary ? DataType::binary() : S());
  return s;
}

ColumnPtr left_right_kernel(const Args& a, int64_t n, const Signature& sig, bool left) {
  const bool binary = sig.result_type->id() == TypeId::kBinary;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t len = int_arg(a, 1, i);
    if (len <= 0)
      b.append_bytes("");
    else if (binary)
      b.append_bytes(binary_substring_sql(s, 1, len));
    else if (left)
      b.append_bytes(substring_sql(s, 1, len));
    else
      b.append_bytes(substring_sql(s, -len, INT32_MAX));
  });
}

/// Code point index (0-based) of `needle` in `hay` at or after code point `from`; -1 if absent.
int64_t index_of(std::string_view hay, std::string_view needle, int64_t from) {
  size_t start = utf8_offset(hay, from);
  if (from > 0 && start >= hay.size() && !(needle.empty() && from <= utf8_length(hay))) return -1;
  size_t at = hay.find(needle, start);
  if (at == std::string_view::npos) return -1;
  return utf8_length(hay.substr(0, at));
}

/// instr(str, substr, pos, occurrence): the 1-based code point position of the occurrence-th
/// match of `needle` counting from code point `pos` (from the end, backwards, when negative);
/// matches may overlap. 0 when there is none or pos is 0; an empty needle is found at 1.
int32_t instr_at(std::string_view hay, std::string_view needle, int64_t pos, int64_t occurrence) {
  if (needle.empty()) return 1;
  if (pos == 0) return 0;
  int64_t len = utf8_length(hay);
  if (pos > 0) {
    if (pos > len) return 0;
    size_t at = utf8_offset(hay, pos - 1);
    while (true) {
      at = hay.find(needle, at);
      if (at == std::string_view::npos) return 0;
      if (--occurrence == 0) return static_cast<int32_t>(utf8_length(hay.substr(0, at)) + 1);
      ++at;
    }
  }
  if (len + pos < 0) return 0;
  size_t limit = utf8_offset(hay, len + pos);
  while (true) {
    size_t at = hay.rfind(needle, limit);
    if (at == std::string_view::npos) return 0;
    if (--occurrence == 0) return static_cast<int32_t>(utf8_length(hay.substr(0, at)) + 1);
    if (at == 0) return 0;
    limit = at - 1;
  }
}

ColumnPtr instr_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Collation& coll = call_collation(sig);
  const bool binary = coll.binary_equality();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int64_t pos = a.size() > 2 ? int_arg(a, 2, i) : 1;
    int64_t occurrence = a.size() > 3 ? int_arg(a, 3, i) : 1;
    if (occurrence <= 0)
      throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.OCCURRENCE",
                       "The value of parameter(s) `occurrence` in `instr` is invalid: expects a positive "
                       "integer, but got " + std::to_string(occurrence) + ".",
                       {{"parameter", "`occurrence`"}, {"functionName", "`instr`"},
                        {"invalidValue", std::to_string(occurrence)}},
                       "22023");
    b.append<int32_t>(
        binary ? instr_at(a[0]->string_at(i), a[1]->string_at(i), pos, occurrence)
               : collated_instr(coll, a[0]->string_at(i), a[1]->string_at(i), pos, occurrence));
  });
}

ColumnPtr locate_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // locate(substr, str[, pos]); a null pos gives 0 (Spark follows Hive here).
  const Collation& coll = call_collation(sig);
  const bool binary = coll.binary_equality();
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (a.size() > 2 && a[2]->is_null(i)) {
      b.append<int32_t>(0);
      continue;
    }
    if (a[0]->is_null(i) || a[1]->is_null(i)) {
      b.append_null();
      continue;
    }
    int64_t pos = a.size() > 2 ? int_arg(a, 2, i) : 1;
    if (pos < 1) {
      b.append<int32_t>(0);
      continue;
    }
    // Spark 4 finds an empty substring at 1, wherever the search starts.
    if (a[0]->string_at(i).empty()) {
      b.append<int32_t>(1);
      continue;
    }
    if (!binary) {
      b.append<int32_t>(collated_locate(coll, a[1]->string_at(i), a[0]->string_at(i), pos));
      continue;
    }
    b.append<int32_t>(
        static_cast<int32_t>(index_of(a[1]->string_at(i), a[0]->string_at(i), pos - 1) + 1));
  }
  return b.finish();
}

// ---------------------------------------------------------------------------------------------
// Replacement.

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(s);
  std::string out;
  size_t i = 0;
  while (true) {
    size_t at = s.find(from, i);
    if (at == std::string_view::npos) break;
    out.append(s.substr(i, at - i));
    out.append(to);
    i = at + from.size();
  }
  out.append(s.substr(i));
  return out;
}

ColumnPtr translate_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // RTRIM does not change translate: UTF8_BINARY_RTRIM keeps the byte path.
  const Collation& coll = call_collation(sig);
  if (coll.family != Collation::Family::kBinary)
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      b.append_bytes(
          collated_translate(coll, a[0]->string_at(i), a[1]->string_at(i), a[2]->string_at(i)));
    });
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::u32string from = utf8_decode(a[1]->string_at(i)), to = utf8_decode(a[2]->string_at(i));
    std::u32string s = utf8_decode(a[0]->string_at(i));
    std::string out;
    for (char32_t c : s) {
      size_t k = from.find(c);
      if (k == std::u32string::npos)
        utf8_append(out, c);
      else if (k < to.size())
        utf8_append(out, to[k]);
    }
    b.append_bytes(out);
  });
}

ColumnPtr overlay_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // BINARY values overlay bytes, strings characters.
  const bool binary = sig.result_type->id() == TypeId::kBinary;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i), r = a[1]->string_at(i);
    int64_t pos = int_arg(a, 2, i);
    int64_t len = a.size() > 3 ? int_arg(a, 3, i) : -1;
    if (len < 0) len = binary ? static_cast<int64_t>(r.size()) : utf8_length(r);
    std::string out(binary ? binary_substring_sql(s, 1, pos - 1) : substring_sql(s, 1, pos - 1));
    out += r;
    out += binary ? binary_substring_sql(s, pos + len, INT32_MAX) : substring_sql(s, pos + len, INT32_MAX);
    b.append_bytes(out);
  });
}

// ---------------------------------------------------------------------------------------------
// Splitting on a literal delimiter, repetition, reversal.

[[noreturn]] void invalid_index_of_zero() {
  throw SparkError(ErrorKind::kRuntime, "INVALID_INDEX_OF_ZERO",
                   "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element "
                   "has index 1).");
}

ColumnPtr split_part_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Collation& coll = call_collation(sig);
  if (!coll.binary_equality())
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      const int64_t k = int_arg(a, 2, i);
      if (k == 0) invalid_index_of_zero();
      const std::vector<std::string> parts =
          collated_split(coll, a[0]->string_at(i), a[1]->string_at(i));
      const auto m = static_cast<int64_t>(parts.size());
      const int64_t idx = k > 0 ? k - 1 : m + k;
      b.append_bytes(idx >= 0 && idx < m ? std::string_view(parts[static_cast<size_t>(idx)])
                                         : std::string_view());
    });
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i), d = a[1]->string_at(i);
    int64_t k = int_arg(a, 2, i);
    if (k == 0) invalid_index_of_zero();
    std::vector<std::string_view> parts;
    if (d.empty()) {
      parts.push_back(s);
    } else {
      size_t at = 0;
      while (true) {
        size_t f = s.find(d, at);
        if (f == std::string_view::npos) break;
        parts.push_back(s.substr(at, f - at));
        at = f + d.size();
      }
      parts.push_back(s.substr(at));
    }
    int64_t m = static_cast<int64_t>(parts.size());
    int64_t idx = k > 0 ? k - 1 : m + k;
    b.append_bytes(idx >= 0 && idx < m ? parts[static_cast<size_t>(idx)] : std::string_view());
  });
}

ColumnPtr repeat_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t times = int_arg(a, 1, i);
    std::string out;
    if (times > 0) {
      if (static_cast<int64_t>(s.size()) * times > INT32_MAX)
        throw SparkError(ErrorKind::kRuntime, "COLLECTION_SIZE_LIMIT_EXCEEDED",
                         "Can't create array with " +
                             std::to_string(static_cast<int64_t>(s.size()) * times) +
                             " elements which exceeding the array size limit 2147483632.");
      out.reserve(s.size() * static_cast<size_t>(times));
      for (int64_t k = 0; k < times; ++k) out += s;
    }
    b.append_bytes(out);
  });
}

ColumnPtr reverse_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  if (sig.result_type->id() == TypeId::kArray) {
    // reverse(array): the elements in reverse order.
    const Column& items = *a[0]->child(0);
    const int32_t* off = a[0]->offsets();
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      for (int32_t k = off[i + 1] - 1; k >= off[i]; --k) b.child(0).append_from(items, k);
      b.close_list();
    });
  }
  if (sig.result_type->id() == TypeId::kBinary) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      std::string v(a[0]->string_at(i));
      std::reverse(v.begin(), v.end());
      b.append_bytes(v);
    });
  }
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::u32string u = utf8_decode(a[0]->string_at(i));
    std::reverse(u.begin(), u.end());
    b.append_bytes(utf8_encode(u));
  });
}

// ---------------------------------------------------------------------------------------------
// ascii, chr, base64.

ColumnPtr ascii_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    if (s.empty()) {
      b.append<int32_t>(0);
      return;
    }
    std::u32string u = utf8_decode(s.substr(0, utf8_offset(s, 1)));
    b.append<int32_t>(static_cast<int32_t>(u[0]));
  });
}

ColumnPtr chr_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int64_t v = long_arg(a, 0, i);
    std::string out;
    if (v >= 0) utf8_append(out, static_cast<char32_t>(v & 0xFF));
    b.append_bytes(out);
  });
}

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

ColumnPtr base64_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  // Spark chunks the output into 76-character lines (MIME) unless
  // spark.sql.chunkBase64String.enabled is false.
  bool chunk =
      !ctx.config || ctx.config->get_or("spark.sql.chunkBase64String.enabled", "true") != "false";
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    std::string out;
    size_t k = 0;
    for (; k + 2 < s.size(); k += 3) {
      uint32_t v = (static_cast<uint8_t>(s[k]) << 16) | (static_cast<uint8_t>(s[k + 1]) << 8) |
                   static_cast<uint8_t>(s[k + 2]);
      for (int j = 3; j >= 0; --j) out += kB64[(v >> (6 * j)) & 63];
    }
    if (k < s.size()) {
      uint32_t v = static_cast<uint8_t>(s[k]) << 16;
      if (k + 1 < s.size()) v |= static_cast<uint8_t>(s[k + 1]) << 8;
      out += kB64[(v >> 18) & 63];
      out += kB64[(v >> 12) & 63];
      out += k + 1 < s.size() ? kB64[(v >> 6) & 63] : '=';
      out += '=';
    }
    if (chunk && out.size() > 76) {
      std::string c;
      for (size_t p = 0; p < out.size(); p += 76) {
        if (p) c += "\r\n";
        c += out.substr(p, 76);
      }
      out = std::move(c);
    }
    b.append_bytes(out);
  });
}

ColumnPtr unbase64_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string out;
    // Spark lets the decoder's IllegalArgumentException through, without an error class.
    std::string error = java_mime_unbase64(a[0]->string_at(i), &out);
    if (!error.empty()) throw SparkError(ErrorKind::kIllegalArgument, "", error);
    b.append_bytes(out);
  });
}

// ---------------------------------------------------------------------------------------------
// LIKE / ILIKE.

/// An escape at the end of a LIKE pattern (`next` = 0) or before a character other than `_`,
/// `%` and the escape itself. Spark shows the pattern with backslashes escaped.
[[noreturn]] void invalid_escape(std::string_view pattern, char32_t next) {
  std::string shown;
  for (char c : pattern) {
    if (c == '\\') shown += '\\';
    shown += c;
  }
  if (next == 0)
    throw SparkError(
        ErrorKind::kAnalysis, "INVALID_FORMAT.ESC_AT_THE_END",
        "The format is invalid: '" + shown + "'. The escape character is not allowed to end with.",
        {{"format", "'" + shown + "'"}});
  std::string e;
  utf8_append(e, next);
  throw SparkError(ErrorKind::kAnalysis, "INVALID_FORMAT.ESC_IN_THE_MIDDLE",
                   "The format is invalid: '" + shown +
                       "'. The escape character is not allowed to precede '" + e + "'.",
                   {{"format", "'" + shown + "'"}, {"char", "'" + e + "'"}});
}

/// A compiled LIKE pattern: literal code points, `_` (any one) and `%` (any run).
struct LikePattern {
  struct Tok {
    enum Kind { kChar, kOne, kAny } kind;
    char32_t c;
  };
  std::vector<Tok> toks;
  /// A pattern without `_` under LIKE (not ILIKE) is its literal runs between `%`s, matched on
  /// UTF-8 bytes without decoding: in valid UTF-8 no code point's bytes occur inside another's,
  /// so a byte match of a run is a code point match. Empty when the pattern has `_` or folds.
  std::vector<std::string> runs;
  bool by_runs = false;

  LikePattern(std::string_view p, char32_t esc, bool fold) {
    std::u32string u = utf8_decode(p);
    for (size_t i = 0; i < u.size(); ++i) {
      char32_t c = u[i];
      if (c == esc) {
        if (i + 1 >= u.size()) invalid_escape(p, 0);
        char32_t nx = u[i + 1];
        if (nx != '_' && nx != '%' && nx != esc) invalid_escape(p, nx);
        toks.push_back({Tok::kChar, fold ? to_lower_cp(nx) : nx});
        ++i;
      } else if (c == '_') {
        toks.push_back({Tok::kOne, 0});
      } else if (c == '%') {
        toks.push_back({Tok::kAny, 0});
      } else {
        toks.push_back({Tok::kChar, fold ? to_lower_cp(c) : c});
      }
    }
    by_runs = !fold && std::none_of(toks.begin(), toks.end(), [](const Tok& t) { return t.kind == Tok::kOne; });
    if (by_runs) {
      runs.emplace_back();
      for (const Tok& t : toks) {
        if (t.kind == Tok::kAny) runs.emplace_back();
        else utf8_append(runs.back(), t.c);
      }
    }
  }

  /// Matching by runs: the first run is a prefix, the last a suffix, and the ones between occur
  /// in order in what is left (leftmost occurrences suffice).
  bool match_runs(std::string_view s) const {
    if (runs.size() == 1) return s == runs[0];
    const std::string& prefix = runs.front();
    const std::string& suffix = runs.back();
    if (s.size() < prefix.size() + suffix.size() || !s.starts_with(prefix) || !s.ends_with(suffix)) return false;
    std::string_view middle = s.substr(prefix.size(), s.size() - prefix.size() - suffix.size());
    for (size_t r = 1; r + 1 < runs.size(); ++r) {
      if (runs[r].empty()) continue;
      size_t at = middle.find(runs[r]);
      if (at == std::string_view::npos) return false;
      middle.remove_prefix(at + runs[r].size());
    }
    return true;
  }

  /// Greedy matching with single-star backtracking: linear for patterns without many '%'.
  bool match(const std::u32string& s) const {
    size_t si = 0, pi = 0, star = std::string::npos, mark = 0;
    while (si < s.size()) {
      if (pi < toks.size() &&
          (toks[pi].kind == Tok::kOne || (toks[pi].kind == Tok::kChar && toks[pi].c == s[si]))) {
        ++si;
        ++pi;
      } else if (pi < toks.size() && toks[pi].kind == Tok::kAny) {
        star = pi++;
        mark = si;
      } else if (star != std::string::npos) {
        pi = star + 1;
        si = ++mark;
      } else {
        return false;
      }
    }
    while (pi < toks.size() && toks[pi].kind == Tok::kAny) ++pi;
    return pi == toks.size();
  }
};

FunctionDef like_def(const std::string& name, bool fold) {
  FunctionDef d = scalar(
      name, 2, 3,
      [name](const Types& a, const Config&) {
        return coerce_args(name, a, "S", DataType::boolean());
      },
      [fold](const Args& a, int64_t n, const Signature&, const EvalContext&) {
        char32_t esc = '\\';
        if (a.size() > 2 && n > 0 && a[2]->is_valid(0)) {
          std::u32string e = utf8_decode(a[2]->string_at(0));
          if (e.size() != 1)
            throw SparkError(ErrorKind::kAnalysis, "INVALID_ESCAPE_CHAR",
                             "The escape character must be a string literal of length one.");
          esc = e[0];
        }
        std::vector<uint8_t> out(static_cast<size_t>(n));
        Args two(a.begin(), a.begin() + 2);
        BufferPtr validity = and_validity({a[0].get(), a[1].get()}, n);
        std::string last;
        std::unique_ptr<LikePattern> pat;
        for (int64_t i = 0; i < n; ++i) {
          if (a[0]->is_null(i) || a[1]->is_null(i)) continue;
          std::string_view p = a[1]->string_at(i);
          if (!pat || p != last) {
            pat = std::make_unique<LikePattern>(p, esc, fold);
            last = std::string(p);
          }
          if (pat->by_runs) {
            out[static_cast<size_t>(i)] = pat->match_runs(a[0]->string_at(i));
            continue;
          }
          std::u32string s = utf8_decode(a[0]->string_at(i));
          if (fold)
            for (char32_t& c : s) c = to_lower_cp(c);
          out[static_cast<size_t>(i)] = pat->match(s);
        }
        return make_bool_column(out, validity, n);
      });
  d.render = [fold](const std::string& called, const std::vector<std::string>& args) {
    if (fold) return called + "(" + join(args) + ")";
    std::string s = args[0] + " LIKE " + args[1];
    if (args.size() > 2 && args[2] != "\\") s += " ESCAPE '" + args[2] + "'";
    return s;
  };
  return d;
}

template <int kOp /*0 starts, 1 ends, 2 contains*/>
ColumnPtr affix_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<uint8_t> out(static_cast<size_t>(n));
  BufferPtr validity = and_validity({a[0].get(), a[1].get()}, n);
  const Collation& coll = call_collation(sig);
  if (!coll.binary_equality()) {
    for (int64_t i = 0; i < n; ++i) {
      if (a[0]->is_null(i) || a[1]->is_null(i)) continue;
      std::string_view s = a[0]->string_at(i), p = a[1]->string_at(i);
      out[static_cast<size_t>(i)] = kOp == 0   ? collated_starts_with(coll, s, p)
                                    : kOp == 1 ? collated_ends_with(coll, s, p)
                                               : collated_contains(coll, s, p);
    }
    return make_bool_column(out, validity, n);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i) || a[1]->is_null(i)) continue;
    std::string_view s = a[0]->string_at(i), p = a[1]->string_at(i);
    if constexpr (kOp == 0)
      out[static_cast<size_t>(i)] = s.starts_with(p);
    else if constexpr (kOp == 1)
      out[static_cast<size_t>(i)] = s.ends_with(p);
    else
      out[static_cast<size_t>(i)] = s.find(p) != std::string_view::npos;
  }
  return make_bool_column(out, validity, n);
}

Signature affix_rule(const std::string& fn, const Types& args) {
  bool binary = args[0]->id() == TypeId::kBinary && args[1]->id() == TypeId::kBinary;
  return coerce_args(fn, args, binary ? "B" : "S", DataType::boolean());
}

// ---------------------------------------------------------------------------------------------
// levenshtein, soundex, mask.

/// levenshtein's threshold: a NULL reads as 0, as Spark's evaluation unboxes it; the result is
/// NULL only for a NULL string.
Signature levenshtein_rule(const Types& types, const Config&) {
  Signature s = coerce_args("levenshtein", types, "SSI", DataType::int_());
  s.nullable_from = {0, 1};
  return s;
}

ColumnPtr levenshtein_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows({a[0], a[1]}, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const int32_t threshold = a.size() > 2 && !a[2]->is_null(i) ? int_arg(a, 2, i) : 0;
    // No distance is within a negative threshold.
    if (a.size() > 2 && threshold < 0) {
      b.append<int32_t>(-1);
      return;
    }
    std::u32string x = utf8_decode(a[0]->string_at(i)), y = utf8_decode(a[1]->string_at(i));
    std::vector<int32_t> prev(y.size() + 1), cur(y.size() + 1);
    for (size_t j = 0; j <= y.size(); ++j) prev[j] = static_cast<int32_t>(j);
    for (size_t p = 1; p <= x.size(); ++p) {
      cur[0] = static_cast<int32_t>(p);
      for (size_t j = 1; j <= y.size(); ++j)
        cur[j] =
            std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[p - 1] == y[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    int32_t dist = prev[y.size()];
    if (a.size() > 2 && dist > threshold) dist = -1;
    b.append<int32_t>(dist);
  });
}

ColumnPtr soundex_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // Letters A..Z map to these codes; '7' (H, W) is skipped without separating equal codes.
  static const char* kCodes = "01230127022455012623017202";
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    if (s.empty()) {
      b.append_bytes("");
      return;
    }
    char c = s[0];
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 32);
    else if (c < 'A' || c > 'Z') {
      b.append_bytes(s);
      return;
    }
    char out[4] = {c, '0', '0', '0'};
    int k = 1;
    char last = kCodes[c - 'A'];
    for (size_t j = 1; j < s.size() && k < 4; ++j) {
      char x = s[j];
      if (x >= 'a' && x <= 'z')
        x = static_cast<char>(x - 32);
      else if (x < 'A' || x > 'Z') {
        // Any other byte separates equal codes, as a vowel does.
        last = '0';
        continue;
      }
      char code = kCodes[x - 'A'];
      if (code == '7') continue;
      if (code != '0' && code != last) out[k++] = code;
      last = code;
    }
    b.append_bytes(std::string_view(out, 4));
  });
}

ColumnPtr mask_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  // A null replacement argument leaves that class of characters unchanged.
  auto repl = [&](size_t k, int64_t i, char32_t dflt, bool* keep) -> char32_t {
    *keep = false;
    if (a.size() <= k) return dflt;
    if (a[k]->is_null(i)) {
      *keep = true;
      return 0;
    }
    std::u32string u = utf8_decode(a[k]->string_at(i));
    if (u.size() != 1)
      throw SparkError(ErrorKind::kAnalysis, "INVALID_PARAMETER_VALUE.CHAR",
                       "The value of parameter(s) `" +
                           std::string(k == 1   ? "upperChar"
                                       : k == 2 ? "lowerChar"
                                       : k == 3 ? "digitChar"
                                                : "otherChar") +
                           "` in `mask` is invalid: expects one character, but got '" +
                           std::string(a[k]->string_at(i)) + "'.");
    return u[0];
  };
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i)) {
      b.append_null();
      continue;
    }
    bool ku, kl, kd, ko;
    char32_t up = repl(1, i, 'X', &ku), lo = repl(2, i, 'x', &kl), dg = repl(3, i, 'n', &kd);
    char32_t ot = 0;
    ko = true;
    if (a.size() > 4) ot = repl(4, i, 0, &ko);
    std::string out;
    for (char32_t c : utf8_decode(a[0]->string_at(i))) {
      if (is_upper_cp(c))
        utf8_append(out, ku ? c : up);
      else if (is_lower_cp(c))
        utf8_append(out, kl ? c : lo);
      else if (c >= '0' && c <= '9')
        utf8_append(out, kd ? c : dg);
      else
        utf8_append(out, ko ? c : ot);
    }
    b.append_bytes(out);
  }
  return b.finish();
}

ColumnPtr substring_index_kernel(const Args& a, int64_t n, const Signature& sig,
                                 const EvalContext&) {
  const Collation& coll = call_collation(sig);
  if (!coll.binary_equality())
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      b.append_bytes(
          collated_substring_index(coll, a[0]->string_at(i), a[1]->string_at(i), int_arg(a, 2, i)));
    });
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i), d = a[1]->string_at(i);
    int64_t count = int_arg(a, 2, i);
    if (d.empty() || count == 0) {
      b.append_bytes("");
      return;
    }
    if (count > 0) {
      size_t at = 0;
      for (int64_t k = 0; k < count; ++k) {
        size_t f = s.find(d, k == 0 ? 0 : at + d.size());
        if (f == std::string_view::npos) {
          b.append_bytes(s);
          return;
        }
        at = f;
      }
      b.append_bytes(s.substr(0, at));
    } else {
      size_t at = s.size();
      for (int64_t k = 0; k < -count; ++k) {
        if (at < d.size() && k > 0) {
          b.append_bytes(s);
          return;
        }
        size_t f = k == 0 ? s.rfind(d) : (at == 0 ? std::string_view::npos : s.rfind(d, at - 1));
        if (f == std::string_view::npos) {
          b.append_bytes(s);
          return;
        }
        at = f;
      }
      b.append_bytes(s.substr(at + d.size()));
    }
  });
}

ColumnPtr find_in_set_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Collation& coll = call_collation(sig);
  if (!coll.binary_equality())
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      b.append<int32_t>(collated_find_in_set(coll, a[0]->string_at(i), a[1]->string_at(i)));
    });
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view x = a[0]->string_at(i), set = a[1]->string_at(i);
    int32_t found = 0;
    if (x.find(',') == std::string_view::npos) {
      int32_t k = 1;
      size_t at = 0;
      while (true) {
        size_t f = set.find(',', at);
        std::string_view item =
            set.substr(at, f == std::string_view::npos ? std::string_view::npos : f - at);
        if (item == x) {
          found = k;
          break;
        }
        if (f == std::string_view::npos) break;
        at = f + 1;
        ++k;
      }
    }
    b.append<int32_t>(found);
  });
}

}  // namespace

void register_string_basic(Registry& r) {
  auto simple = [&](const std::string& name, int lo, int hi, const std::string& spec,
                    TypePtr result, ScalarKernel k, std::vector<std::string> aliases = {}) {
    r.add(scalar(name, lo, hi, rule(name, spec, result), std::move(k), std::move(aliases)));
  };
  r.add(scalar("concat", 0, -1, concat_rule, concat_kernel));
  {
    FunctionDef d = scalar(
        "concat_ws", 1, -1,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("concat_ws", a, "S", S());
          s.nullable_from = {0};
          return s;
        },
        concat_ws_kernel);
    r.add(std::move(d));
  }
  for (auto [name, kind] : {std::pair{"length", 0},
                            {"char_length", 0},
                            {"character_length", 0},
                            {"len", 0},
                            {"octet_length", 1},
                            {"bit_length", 2}}) {
    std::string fn = name;
    int k = kind;
    r.add(scalar(
        fn, 1, 1, [fn](const Types& a, const Config&) { return length_rule(fn, a); },
        [k](const Args& a, int64_t n, const Signature& s, const EvalContext& c) {
          return length_kernel(a, n, s, c, k);
        }));
  }
  simple("upper", 1, 1, "S", S(), case_kernel<true>, {"ucase"});
  simple("lower", 1, 1, "S", S(), case_kernel<false>, {"lcase"});
  simple("initcap", 1, 1, "S", S(), initcap_kernel);
  r.add(trim_def("trim", TrimSide::kBoth));
  r.add(trim_def("ltrim", TrimSide::kLeading));
  r.add(trim_def("rtrim", TrimSide::kTrailing));
  r.add(trim_def("btrim", TrimSide::kBoth));
  // Without trim characters Spark's trims keep an empty option: `trim(s, None)`.
  for (const char* name : {"trim", "ltrim", "rtrim"})
    set_java_form(name, java_form_defaults(1, {"None"}));
  for (bool left : {true, false}) {
    std::string fn = left ? "lpad" : "rpad";
    FunctionDef d = scalar(
        fn, 2, 3,
        [fn](const Types& a, const Config&) {
          bool binary =
              a[0]->id() == TypeId::kBinary && (a.size() < 3 || a[2]->id() == TypeId::kBinary);
          return coerce_args(fn, a, binary ? "BIB" : "SIS", binary ? DataType::binary() : S());
        },
        left ? ScalarKernel(pad_kernel<true>) : ScalarKernel(pad_kernel<false>));
    d.render = defaults_render(2, {" "});
    r.add(std::move(d));
  }
  for (std::string fn : {"substring", "substr"}) {
    FunctionDef d = scalar(
        fn, 2, 3, [fn](const Types& a, const Config&) { return substring_rule(fn, a); },
        substring_kernel);
    d.render = defaults_render(2, {"2147483647"});
    r.add(std::move(d));
  }
  // left of BINARY is a substring of bytes (BINARY); right of BINARY takes the value as a
  // STRING, as Spark does.
  r.add(scalar(
      "left", 2, 2,
      [](const Types& a, const Config&) {
        const bool binary = a[0]->id() == TypeId::kBinary;
        return coerce_args("left", a, binary ? "BI" : "SI", binary ? DataType::binary() : S());
      },
      [](const Args& a, int64_t n, const Signature& s, const EvalContext&) { return left_right_kernel(a, n, s, true); }));
  simple("right", 2, 2, "SI", S(),
         [](const Args& a, int64_t n, const Signature& s, const EvalContext&) {
           return left_right_kernel(a, n, s, false);
         });
  {
    FunctionDef d = scalar("instr", 2, 4, rule("instr", "SSII", DataType::int_()), instr_kernel);
    d.may_throw = true;
    // A position given without an occurrence shows the default occurrence, 1.
    d.render = [](const std::string& called, const std::vector<std::string>& a) {
      return called + "(" + join(a) + (a.size() == 3 ? ", 1" : "") + ")";
    };
    r.add(std::move(d));
  }
  for (std::string fn : {"locate", "position"}) {
    // A NULL start position gives 0, not NULL: the result is nullable only through the strings.
    TypeRule locate_rule = [fn](const Types& types, const Config&) {
      Signature s = coerce_args(fn, types, "SSI", DataType::int_());
      s.nullable_from = {0, 1};
      return s;
    };
    FunctionDef d = scalar(fn, 2, 3, std::move(locate_rule), locate_kernel);
    d.render = defaults_render(2, {"1"});
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar("replace", 2, 3, rule("replace", "S", S()),
                           [](const Args& a, int64_t n, const Signature& s, const EvalContext&) {
                             // RTRIM does not change replace: UTF8_BINARY_RTRIM keeps the byte
                             // path.
                             const Collation& coll = call_collation(s);
                             if (coll.family != Collation::Family::kBinary)
                               return map_rows(a, n, s.result_type,
                                               [&](int64_t i, ColumnBuilder& b) {
                                                 b.append_bytes(collated_replace(
                                                     coll, a[0]->string_at(i), a[1]->string_at(i),
                                                     a.size() > 2 ? a[2]->string_at(i) : ""));
                                               });
                             return map_rows(a, n, s.result_type, [&](int64_t i, ColumnBuilder& b) {
                               b.append_bytes(replace_all(a[0]->string_at(i), a[1]->string_at(i),
                                                          a.size() > 2 ? a[2]->string_at(i) : ""));
                             });
                           });
    d.render = defaults_render(2, {""});
    r.add(std::move(d));
  }
  simple("translate", 3, 3, "S", S(), translate_kernel);
  {
    FunctionDef d = scalar(
        "overlay", 3, 4,
        [](const Types& a, const Config&) {
          const bool binary = a[0]->id() == TypeId::kBinary && a[1]->id() == TypeId::kBinary;
          return coerce_args("overlay", a, binary ? "BBI" : "SSI", binary ? DataType::binary() : S());
        },
        overlay_kernel);
    d.render = defaults_render(3, {"-1"});
    r.add(std::move(d));
  }
  r.add(scalar(
      "split_part", 3, 3,
      [](const Types& a, const Config&) {
        Signature s = coerce_args("split_part", a, "SSI", S());
        s.may_introduce_null = true;
        return s;
      },
      split_part_kernel));
  simple("repeat", 2, 2, "SI", S(), repeat_kernel);
  simple("substring_index", 3, 3, "SSI", S(), substring_index_kernel);
  simple("find_in_set", 2, 2, "S", DataType::int_(), find_in_set_kernel);
  simple("space", 1, 1, "I", S(),
         [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
           return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
             b.append_bytes(std::string(static_cast<size_t>(std::max(0, int_arg(a, 0, i))), ' '));
           });
         });
  r.add(scalar(
      "reverse", 1, 1,
      [](const Types& a, const Config&) {
        if (a[0]->id() == TypeId::kArray) return coerce_args("reverse", a, "*", a[0]);
        if (a[0]->id() == TypeId::kBinary) return coerce_args("reverse", a, "B", DataType::binary());
        return coerce_args("reverse", a, "S", S());
      },
      reverse_kernel));
  simple("ascii", 1, 1, "S", DataType::int_(), ascii_kernel);
  simple("chr", 1, 1, "L", S(), chr_kernel, {"char"});
  simple("base64", 1, 1, "B", S(), base64_kernel);
  simple("unbase64", 1, 1, "S", DataType::binary(), unbase64_kernel);
  r.add(like_def("like", false));
  r.add(like_def("ilike", true));
  for (auto [fn, k] : {std::pair<std::string, ScalarKernel>{"startswith", affix_kernel<0>},
                       {"endswith", affix_kernel<1>},
                       {"contains", affix_kernel<2>}}) {
    std::string name = fn;
    r.add(scalar(
        name, 2, 2, [name](const Types& a, const Config&) { return affix_rule(name, a); }, k));
  }
  // Spark's string predicates show their class names: `StartsWith(s, x)`.
  set_java_form("startswith", java_form_class("StartsWith"));
  set_java_form("endswith", java_form_class("EndsWith"));
  set_java_form("contains", java_form_class("Contains"));
  r.add(scalar("levenshtein", 2, 3, levenshtein_rule, levenshtein_kernel));
  simple("soundex", 1, 1, "S", S(), soundex_kernel);
  {
    // Spark's mask is nullable whatever its arguments.
    FunctionDef d = scalar("mask", 1, 5, rule("mask", "S", S()), mask_kernel);
    d.type_rule = [base = d.type_rule](const std::vector<TypePtr>& a, const Config& conf) {
      Signature s = base(a, conf);
      s.may_introduce_null = true;
      return s;
    };
    d.render = defaults_render(1, {"X", "x", "n", "NULL"});
    d.parameters = {{"str"},
                    {"upperChar", Value::bytes("X"), DataType::string()},
                    {"lowerChar", Value::bytes("x"), DataType::string()},
                    {"digitChar", Value::bytes("n"), DataType::string()},
                    {"otherChar", Value(), DataType::string()}};
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
