// String functions that pick, quote, compare or check whole strings: elt, quote,
// jaro_winkler_similarity and luhn_check.

#include <algorithm>

#include "functions/collection_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

// elt(n, input1, input2, ...): the n-th input; out of range is INVALID_ARRAY_INDEX in ANSI mode
// and null otherwise.
Signature elt_rule(const Types& a, const Config& conf) {
  bool all_binary = a.size() > 1;
  for (size_t k = 1; k < a.size(); ++k) all_binary &= a[k]->id() == TypeId::kBinary;
  for (size_t k = 1; k < a.size(); ++k)
    if (a[k]->is_nested())
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The " + std::to_string(k + 1) + "th parameter requires the (\"STRING\" or \"BINARY\") type, "
                          "however \"" + a[k]->sql() + "\" has the type \"" + a[k]->sql() + "\".",
                          call_sql("elt", a));
  Signature s = coerce_args("elt", a, all_binary ? "IB" : "IS", all_binary ? DataType::binary() : DataType::string());
  s.null_if_any_arg_null = false;
  s.may_introduce_null = true;
  (void)conf;
  return s;
}

ColumnPtr elt_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  ColumnBuilder b(sig.result_type, n);
  const int64_t inputs = static_cast<int64_t>(a.size()) - 1;
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i)) {
      b.append_null();
      continue;
    }
    int64_t k = int_arg(a, 0, i);
    if (k < 1 || k > inputs) {
      if (ctx.ansi) throw_array_index_out_of_bounds(k, inputs, false);
      b.append_null();
      continue;
    }
    b.append_from(*a[static_cast<size_t>(k)], i);
  }
  return b.finish();
}

/// Jaro-Winkler similarity over code points: matches within half the longer length, half the
/// transposed matches, and a bonus of 0.1 per common prefix character (up to 4), whatever the
/// Jaro similarity.
double jaro_winkler(const std::u32string& first, const std::u32string& second) {
  if (first == second) return 1.0;
  const std::u32string& longer = first.size() > second.size() ? first : second;
  const std::u32string& shorter = first.size() > second.size() ? second : first;
  const int64_t range = std::max<int64_t>(static_cast<int64_t>(longer.size()) / 2 - 1, 0);
  std::vector<int64_t> match_of(shorter.size(), -1);
  std::vector<bool> taken(longer.size(), false);
  int64_t matches = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(shorter.size()); ++i) {
    int64_t hi = std::min<int64_t>(i + range + 1, static_cast<int64_t>(longer.size()));
    for (int64_t j = std::max<int64_t>(i - range, 0); j < hi; ++j) {
      if (!taken[static_cast<size_t>(j)] && shorter[static_cast<size_t>(i)] == longer[static_cast<size_t>(j)]) {
        match_of[static_cast<size_t>(i)] = j;
        taken[static_cast<size_t>(j)] = true;
        ++matches;
        break;
      }
    }
  }
  if (matches == 0) return 0.0;
  std::u32string ms1, ms2;
  for (size_t i = 0; i < shorter.size(); ++i)
    if (match_of[i] >= 0) ms1 += shorter[i];
  for (size_t j = 0; j < longer.size(); ++j)
    if (taken[j]) ms2 += longer[j];
  int64_t half_transpositions = 0;
  for (size_t k = 0; k < ms1.size(); ++k) half_transpositions += ms1[k] != ms2[k];
  int64_t prefix = 0;
  for (size_t k = 0; k < std::min<size_t>(4, shorter.size()); ++k) {
    if (first[k] != second[k]) break;
    ++prefix;
  }
  const double m = static_cast<double>(matches);
  const double j = (m / static_cast<double>(first.size()) + m / static_cast<double>(second.size()) +
                    (m - static_cast<double>(half_transpositions) / 2) / m) /
                   3;
  return j + 0.1 * static_cast<double>(prefix) * (1.0 - j);
}

/// The value of a decimal digit of the Basic Multilingual Plane (Java's Character.isDigit and
/// getNumericValue of a UTF-16 unit), or -1 for anything else: Unicode's decimal digits come in
/// runs of ten, these are the zeros of the runs.
int bmp_digit_value(char32_t c) {
  static constexpr char32_t kZeros[] = {
      0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
      0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50,
      0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10};
  for (char32_t zero : kZeros)
    if (c >= zero && c < zero + 10) return static_cast<int>(c - zero);
  return -1;
}

/// Whether `s` is a non-empty string of digits whose Luhn checksum is a multiple of ten: from the
/// right, every second digit doubled (its two decimal digits added). Java looks at UTF-16 units,
/// so a digit outside the BMP is not a digit.
bool luhn_valid(std::string_view s) {
  std::u32string cps = utf8_decode(s);
  if (cps.empty()) return false;
  int sum = 0;
  bool second = false;
  for (auto it = cps.rbegin(); it != cps.rend(); ++it) {
    int d = bmp_digit_value(*it);
    if (d < 0) return false;
    d *= second ? 2 : 1;
    sum += d % 10 + d / 10;
    second = !second;
  }
  return sum % 10 == 0;
}

}  // namespace

void register_string_misc(Registry& r) {
  {
    FunctionDef d = scalar("elt", 2, -1, elt_rule, elt_kernel);
    d.may_throw = true;
    d.usage = "elt(n, input1, input2, ...) - Returns the n-th input, e.g., returns input2 when n is 2.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "quote", 1, 1, [](const Types& a, const Config&) { return coerce_args("quote", a, "S", DataType::string()); },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            std::string out = "'";
            for (char c : a[0]->string_at(i)) {
              if (c == '\'') out += '\\';
              out += c;
            }
            b.append_bytes(out + "'");
          });
        });
    d.usage = "quote(str) - Returns str enclosed by single quotes and each instance of single quote in it is "
              "preceded by a backslash.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "jaro_winkler_similarity", 2, 2,
        [](const Types& a, const Config&) {
          return coerce_args("jaro_winkler_similarity", a, "S", DataType::double_());
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            b.append<double>(jaro_winkler(utf8_decode(a[0]->string_at(i)), utf8_decode(a[1]->string_at(i))));
          });
        });
    d.usage = "jaro_winkler_similarity(str1, str2) - Returns the Jaro-Winkler similarity of two strings.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "luhn_check", 1, 1,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("luhn_check", a, "S", DataType::boolean());
          s.may_introduce_null = true;  // Spark declares the result nullable whatever the input
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return map_rows(a, n, sig.result_type,
                          [&](int64_t i, ColumnBuilder& b) { b.append_bool(luhn_valid(a[0]->string_at(i))); });
        });
    d.usage = "luhn_check(str ) - Checks that a string of digits is valid according to the Luhn algorithm.";
    d.examples = {{"SELECT luhn_check('8112189876')", "true"}, {"SELECT luhn_check('79927398714')", "false"}};
    d.since = "3.5.0";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
