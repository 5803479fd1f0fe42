// sentences(str[, language[, country]]): the text split into sentences and each sentence into
// its words, as Spark splits it with the JDK's sentence and word BreakIterators and keeps the
// pieces that start with a letter or a digit.
//
// The boundaries follow the JDK's default rules (the locale changes them only for scripts
// without spaces, such as Thai, which Ember does not special-case):
//  - a sentence ends after `!` or `?` (with any further terminators, periods and closing
//    punctuation), and the spaces after it;
//  - after `.` (with further periods and closing punctuation) when spaces follow and the next
//    character is not a lower-case letter ("Mr. Smith" ends a sentence, "e.g. this" does not);
//  - after a paragraph separator, and at the end of the text.
//  - A word is letters joined by mid-word punctuation (apostrophes, quotes, periods, hyphens:
//    "don't", "well-known"), numbers joined by mid-number punctuation ("3.14", "1,000") and
//    letters and numbers run together ("abc123"); a number may take a leading currency sign,
//    `#` or `.` and a trailing `%`, `&` or per mille sign. Every other character is a piece of
//    its own.

#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

bool is_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B || c == 0x85 || c == 0xA0 ||
         c == 0x2028 || (c >= 0x2000 && c <= 0x200A) || c == 0x1680 || c == 0x202F || c == 0x205F || c == 0x3000;
}
bool is_closing(char32_t c) {
  return c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == 0x2019 || c == 0x201D || c == 0xBB;
}
bool is_terminator(char32_t c) { return c == '!' || c == '?' || c == 0x3002 || c == 0xFF01 || c == 0xFF1F; }
bool is_period(char32_t c) { return c == '.' || c == 0xFF0E; }
bool is_mid_word(char32_t c) {
  return c == '\'' || c == '"' || c == '.' || c == '-' || c == 0xAD || c == 0x2027 || c == 0x2010 || c == 0x2011 ||
         c == 0x2013 || c == 0x2014;
}
bool is_mid_number(char32_t c) { return c == '"' || c == '\'' || c == ',' || c == '.' || c == 0x66B; }
bool is_pre_number(char32_t c) { return c == '$' || c == '#' || c == '.' || (c >= 0xA2 && c <= 0xA5) || c == 0x20AC; }
bool is_post_number(char32_t c) { return c == '%' || c == '&' || c == 0xA2 || c == 0x66A || c == 0x2030 || c == 0x2031; }

/// Ends of the sentences of `t` (exclusive code point positions).
std::vector<size_t> sentence_ends(const std::u32string& t) {
  std::vector<size_t> ends;
  size_t i = 0;
  while (i < t.size()) {
    char32_t c = t[i++];
    if (c == 0x2029) {
      ends.push_back(i);
      continue;
    }
    if (is_terminator(c)) {
      while (i < t.size() && (is_terminator(t[i]) || is_period(t[i]) || is_closing(t[i]))) ++i;
      while (i < t.size() && is_space(t[i])) ++i;
      ends.push_back(i);
    } else if (is_period(c)) {
      while (i < t.size() && (is_period(t[i]) || is_closing(t[i]))) ++i;
      size_t after = i;
      while (after < t.size() && is_space(t[after])) ++after;
      if (after == i) continue;  // no space: "3.14", "a.b"
      if (after < t.size() && is_lower_cp(t[after])) continue;
      i = after;
      ends.push_back(i);
    }
  }
  if (ends.empty() || ends.back() != t.size()) {
    if (!t.empty()) ends.push_back(t.size());
  }
  return ends;
}

/// The end of the piece of `t` that starts at `i` (before `end`), by the word rules above.
size_t piece_end(const std::u32string& t, size_t i, size_t end) {
  auto letter = [&](size_t k) { return k < end && is_letter_cp(t[k]); };
  auto digit = [&](size_t k) { return k < end && is_digit_cp(t[k]); };
  auto number = [&](size_t k) {
    while (digit(k)) ++k;
    while (k + 1 < end && is_mid_number(t[k]) && digit(k + 1)) {
      k += 1;
      while (digit(k)) ++k;
    }
    return k;
  };
  auto word = [&](size_t k) {
    while (letter(k)) ++k;
    while (k + 1 < end && is_mid_word(t[k]) && letter(k + 1)) {
      k += 1;
      while (letter(k)) ++k;
    }
    return k;
  };
  size_t k = i;
  if (is_pre_number(t[k]) && digit(k + 1)) {
    k = number(k + 1);
  } else if (letter(k)) {
    k = word(k);
  } else if (digit(k)) {
    k = number(k);
  } else {
    return k + 1;
  }
  // Letters and numbers run together; a number may end in a post-number sign.
  while (true) {
    if (letter(k)) {
      k = word(k);
    } else if (digit(k)) {
      k = number(k);
    } else {
      break;
    }
  }
  if (k < end && digit(k - 1) && is_post_number(t[k])) ++k;
  return k;
}

ColumnPtr sentences_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  ColumnBuilder& sentences = b.child(0);
  ColumnBuilder& words = sentences.child(0);
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i)) {
      b.append_null();
      continue;
    }
    const std::u32string t = utf8_decode(a[0]->string_at(i));
    size_t start = 0;
    for (size_t end : sentence_ends(t)) {
      for (size_t k = start; k < end;) {
        size_t e = piece_end(t, k, end);
        if (is_letter_cp(t[k]) || is_digit_cp(t[k])) words.append_bytes(utf8_encode(t.substr(k, e - k)));
        k = e;
      }
      sentences.close_list();
      start = end;
    }
    b.close_list();
  }
  return b.finish();
}

}  // namespace

void register_sentences(Registry& r) {
  FunctionDef d = scalar(
      "sentences", 1, 3,
      [](const Types& a, const Config&) {
        Signature s = coerce_args("sentences", a, "S", DataType::array(DataType::array(DataType::string(), false), false));
        // Only a null text makes the result null (a null language or country means en-US), but
        // Spark declares the result nullable whatever the input.
        s.null_if_any_arg_null = false;
        s.may_introduce_null = true;
        return s;
      },
      sentences_kernel);
  d.render = [](const std::string& called, const std::vector<std::string>& args) {
    return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : "") + ", " + (args.size() > 2 ? args[2] : "") +
           ")";
  };
  d.usage = "sentences(str[, lang[, country]]) - Splits str into an array of array of words.";
  r.add(std::move(d));
}

}  // namespace ember::functions
