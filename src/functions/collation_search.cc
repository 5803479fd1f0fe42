#include "functions/collation_search.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "common/error.h"
#include "functions/string_util.h"

#ifdef EMBER_HAVE_ICU
#include <unicode/usearch.h>
#include <unicode/ustring.h>

#include "types/collation_icu.h"
#endif

namespace ember::functions {
namespace {

using U32 = std::u32string;

constexpr char32_t kDot = 0x0307;  // the combining dot above İ's lower case carries

std::string_view rtrimmed(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool lowercase_family(const Collation& c) { return c.family == Collation::Family::kLowercase; }

// ---------------------------------------------------------------------------------------------
// Code point search (UTF8_BINARY and UTF8_LCASE): the target's code points, each folded (its
// lower case for UTF8_LCASE, itself otherwise), against the folded pattern, in which İ is the
// two code points i and U+0307. A folded İ of the target is kLowercaseDottedI and reads as those
// two; a match must take both or neither.

/// A string's code points and their folded forms.
struct Folded {
  U32 cps;
  U32 folded;
};

Folded fold_text(std::string_view s, bool lower) {
  Folded t{utf8_decode(s), {}};
  if (!lower) {
    t.folded = t.cps;
    return t;
  }
  t.folded.reserve(t.cps.size());
  for (char32_t cp : t.cps) t.folded.push_back(lowercase_code_point(cp));
  return t;
}

U32 fold_pattern(std::string_view p, bool lower) {
  U32 cps = utf8_decode(p);
  if (!lower) return cps;
  U32 out;
  out.reserve(cps.size());
  for (char32_t cp : cps) {
    const char32_t l = lowercase_code_point(cp);
    if (l == kLowercaseDottedI) {
      out.push_back('i');
      out.push_back(kDot);
    } else {
      out.push_back(l);
    }
  }
  return out;
}

/// The number of target code points from `start` that the pattern matches, or -1.
int64_t match_from(const U32& t, int64_t start, const U32& p) {
  size_t k = static_cast<size_t>(start), j = 0;
  int64_t length = 0;
  bool pending = false;  // the U+0307 of a folded İ waits to be compared
  while ((k < t.size() || pending) && j < p.size()) {
    char32_t cp;
    if (pending) {
      cp = kDot;
      pending = false;
    } else {
      cp = t[k++];
      ++length;
      if (cp == kLowercaseDottedI) cp = 'i', pending = true;
    }
    if (cp != p[j++]) return -1;
  }
  return j < p.size() || pending ? -1 : length;
}

/// The number of target code points before `end` that the pattern matches (ending at `end`),
/// or -1.
int64_t match_until(const U32& t, int64_t end, const U32& p) {
  size_t k = static_cast<size_t>(end), j = p.size();
  int64_t length = 0;
  bool pending = false;  // the i of a folded İ waits to be compared
  while ((k > 0 || pending) && j > 0) {
    char32_t cp;
    if (pending) {
      cp = 'i';
      pending = false;
    } else {
      cp = t[--k];
      ++length;
      if (cp == kLowercaseDottedI) cp = kDot, pending = true;
    }
    if (cp != p[--j]) return -1;
  }
  return j > 0 || pending ? -1 : length;
}

/// The first match starting at or after `start`, or -1.
int64_t cp_find(const U32& t, const U32& p, int64_t start) {
  for (int64_t i = start; i <= static_cast<int64_t>(t.size()); ++i)
    if (match_from(t, i, p) >= 0) return i;
  return -1;
}

/// The end of the last match ending at or before `end`, or -1.
int64_t cp_rfind(const U32& t, const U32& p, int64_t end) {
  for (int64_t i = std::min<int64_t>(end, static_cast<int64_t>(t.size())); i >= 0; --i)
    if (match_until(t, i, p) >= 0) return i;
  return -1;
}

std::string encode(const U32& cps, int64_t from, int64_t to) {
  return utf8_encode(
      std::u32string_view(cps).substr(static_cast<size_t>(from), static_cast<size_t>(to - from)));
}

// ---------------------------------------------------------------------------------------------
// ICU search.

#ifdef EMBER_HAVE_ICU
std::u16string to_utf16(std::string_view s) {
  std::u16string out(s.size() + 1, u'\0');
  int32_t len = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(reinterpret_cast<UChar*>(out.data()), static_cast<int32_t>(out.size()), &len,
                       s.data(), static_cast<int32_t>(s.size()), 0xFFFD, nullptr, &status);
  EMBER_CHECK(U_SUCCESS(status), "collation search: UTF-16 conversion failed");
  out.resize(static_cast<size_t>(len));
  return out;
}

std::u16string cp_utf16(char32_t cp) {
  std::u16string out;
  if (cp >= 0x10000) {
    out.push_back(static_cast<char16_t>(0xD7C0 + (cp >> 10)));
    out.push_back(static_cast<char16_t>(0xDC00 | (cp & 0x3FF)));
  } else {
    out.push_back(static_cast<char16_t>(cp));
  }
  return out;
}

std::string to_utf8(std::u16string_view s) {
  std::string out(s.size() * 3, '\0');
  int32_t len = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strToUTF8WithSub(out.data(), static_cast<int32_t>(out.size()), &len,
                     reinterpret_cast<const UChar*>(s.data()), static_cast<int32_t>(s.size()),
                     0xFFFD, nullptr, &status);
  EMBER_CHECK(U_SUCCESS(status), "collation search: UTF-8 conversion failed");
  out.resize(static_cast<size_t>(len));
  return out;
}

/// One ICU string search of a pattern in a text with a collation's collator; both strings are
/// non-empty (ICU refuses empty ones) and must outlive the search. Offsets are UTF-16 indices.
class IcuSearch {
 public:
  IcuSearch(const Collation& c, const std::u16string& pattern, const std::u16string& text) {
    UErrorCode status = U_ZERO_ERROR;
    search_ = usearch_openFromCollator(
        reinterpret_cast<const UChar*>(pattern.data()), static_cast<int32_t>(pattern.size()),
        reinterpret_cast<const UChar*>(text.data()), static_cast<int32_t>(text.size()),
        icu_collator(c), nullptr, &status);
    EMBER_CHECK(U_SUCCESS(status), "collation search: cannot open an ICU string search");
  }
  ~IcuSearch() { usearch_close(search_); }
  IcuSearch(const IcuSearch&) = delete;
  IcuSearch& operator=(const IcuSearch&) = delete;

  void overlap(bool on) {
    UErrorCode status = U_ZERO_ERROR;
    usearch_setAttribute(search_, USEARCH_OVERLAP, on ? USEARCH_ON : USEARCH_OFF, &status);
  }
  int32_t first() { return call(usearch_first); }
  int32_t last() { return call(usearch_last); }
  int32_t next() { return call(usearch_next); }
  int32_t previous() { return call(usearch_previous); }
  void set_offset(int32_t at) {
    UErrorCode status = U_ZERO_ERROR;
    usearch_setOffset(search_, at, &status);
    EMBER_CHECK(U_SUCCESS(status), "collation search: bad offset");
  }
  int32_t offset() const { return usearch_getOffset(search_); }
  int32_t length() const { return usearch_getMatchedLength(search_); }

 private:
  int32_t call(int32_t (*step)(UStringSearch*, UErrorCode*)) {
    UErrorCode status = U_ZERO_ERROR;
    const int32_t at = step(search_, &status);
    EMBER_CHECK(U_SUCCESS(status), "collation search: ICU search failed");
    return at;
  }
  UStringSearch* search_ = nullptr;
};

constexpr int32_t kDone = USEARCH_DONE;

int64_t code_points_before(const std::u16string& s, int32_t at) {
  return u_countChar32(reinterpret_cast<const UChar*>(s.data()), at);
}
#else
[[noreturn]] void no_icu() { EMBER_UNREACHABLE("ICU collation without ICU"); }
#endif

// ---------------------------------------------------------------------------------------------
// Trimming by family.

std::unordered_set<char32_t> folded_set(std::string_view chars, bool lower) {
  std::unordered_set<char32_t> set;
  for (char32_t cp : utf8_decode(chars)) set.insert(lower ? lowercase_code_point(cp) : cp);
  return set;
}

/// The code points trimmed from the left: Spark's UTF8_LCASE walk, which reads "i" and a
/// following U+0307 as one İ when the set holds İ (and, as Spark's does, stops with the last
/// code point unread when it had to look ahead past it).
int64_t cp_trim_left(const U32& t, const std::unordered_set<char32_t>& set) {
  const bool dotted = set.count(kLowercaseDottedI) > 0;
  int64_t index = 0;
  size_t k = 0;
  bool held = false;
  char32_t hold = 0;
  while (k < t.size()) {
    char32_t cp = held ? hold : t[k++];
    held = false;
    if (cp == 'i' && k < t.size() && dotted) {
      hold = cp;
      cp = t[k++];
      if (cp == kDot) {
        index += 2;
      } else if (set.count(hold)) {
        ++index;
        hold = cp, held = true;
      } else {
        break;
      }
    } else if (set.count(cp)) {
      ++index;
    } else {
      break;
    }
  }
  return index;
}

/// The end of what remains once code points are trimmed from the right (the mirror image of
/// cp_trim_left).
int64_t cp_trim_right(const U32& t, const std::unordered_set<char32_t>& set) {
  const bool dotted = set.count(kLowercaseDottedI) > 0;
  int64_t index = static_cast<int64_t>(t.size());
  size_t k = t.size();
  bool held = false;
  char32_t hold = 0;
  while (k > 0) {
    char32_t cp = held ? hold : t[--k];
    held = false;
    if (cp == kDot && k > 0 && dotted) {
      hold = cp;
      cp = t[--k];
      if (cp == 'i') {
        index -= 2;
      } else if (set.count(hold)) {
        --index;
        hold = cp, held = true;
      } else {
        break;
      }
    } else if (set.count(cp)) {
      --index;
    } else {
      break;
    }
  }
  return index;
}

std::string trim_left_by_family(const Collation& c, std::string_view s, std::string_view chars) {
  if (c.family != Collation::Family::kIcu) {
    const Folded t = fold_text(s, lowercase_family(c));
    const int64_t from = cp_trim_left(t.folded, folded_set(chars, lowercase_family(c)));
    return from == 0 ? std::string(s) : encode(t.cps, from, static_cast<int64_t>(t.cps.size()));
  }
#ifdef EMBER_HAVE_ICU
  if (s.empty()) return std::string();
  const std::u16string src = to_utf16(s);
  const U32 trim = utf8_decode(chars);
  std::vector<std::u16string> patterns;
  for (char32_t cp : std::unordered_set<char32_t>(trim.begin(), trim.end()))
    patterns.push_back(cp_utf16(cp));
  std::vector<std::unique_ptr<IcuSearch>> searches;
  for (const auto& p : patterns) searches.push_back(std::make_unique<IcuSearch>(c, p, src));
  int32_t at = 0;
  const auto n = static_cast<int32_t>(src.size());
  while (at < n) {
    int32_t longest = 0;
    for (auto& search : searches) {
      search->set_offset(at);
      if (search->next() == at) longest = std::max(longest, search->length());
    }
    if (longest == 0) break;
    at += longest;
  }
  return to_utf8(std::u16string_view(src).substr(static_cast<size_t>(at)));
#else
  no_icu();
#endif
}

std::string trim_right_by_family(const Collation& c, std::string_view s, std::string_view chars) {
  if (c.family != Collation::Family::kIcu) {
    const Folded t = fold_text(s, lowercase_family(c));
    const int64_t to = cp_trim_right(t.folded, folded_set(chars, lowercase_family(c)));
    return to == static_cast<int64_t>(t.cps.size()) ? std::string(s) : encode(t.cps, 0, to);
  }
#ifdef EMBER_HAVE_ICU
  if (s.empty()) return std::string();
  const std::u16string src = to_utf16(s);
  const U32 trim = utf8_decode(chars);
  std::vector<std::unique_ptr<IcuSearch>> searches;
  std::vector<std::u16string> patterns;
  for (char32_t cp : std::unordered_set<char32_t>(trim.begin(), trim.end()))
    patterns.push_back(cp_utf16(cp));
  for (const auto& p : patterns) searches.push_back(std::make_unique<IcuSearch>(c, p, src));
  auto at = static_cast<int32_t>(src.size());
  while (at >= 0) {
    int32_t longest = 0;
    for (auto& search : searches) {
      // A character matches at most three UTF-16 units, so a match ending at `at` starts at
      // most three units before it; searching forward from there finds it (ICU's backward
      // search does not find the same matches).
      search->set_offset(std::max(at - 3, 0));
      int32_t m = search->next(), len = search->length();
      while (m != kDone && m < at - len) m = search->next(), len = search->length();
      if (m == at - len) longest = std::max(longest, len);
    }
    if (longest == 0) break;
    at -= longest;
  }
  return to_utf8(std::u16string_view(src).substr(0, static_cast<size_t>(at)));
#else
  no_icu();
#endif
}

/// Where a match must lie for contains, startswith and endswith.
enum class Anchor { kAnywhere, kStart, kEnd };

/// contains, startswith and endswith under an ICU collation: whether ICU finds `p` in `s`
/// (kAnywhere), its first match starts the text (kStart), or its last match ends it (kEnd). An
/// empty pattern matches every text; an empty text matches no other pattern.
bool icu_match(const Collation& c, std::string_view s, std::string_view p, Anchor anchor) {
  if (p.empty()) return true;
  if (s.empty()) return false;
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(p);
  IcuSearch search(c, pattern, text);
  switch (anchor) {
    case Anchor::kAnywhere: return search.first() != kDone;
    case Anchor::kStart: return search.first() == 0;
    case Anchor::kEnd: break;
  }
  const int32_t last = search.last();
  return last == static_cast<int32_t>(text.size()) - search.length();
#else
  (void)c;
  (void)anchor;
  no_icu();
#endif
}

/// instr with a negative position under an ICU collation, as Spark 4.3 searches: from the
/// `from`th code point of `s` (0 <= from <= its length), ICU's backward overlapping search, one
/// step per occurrence; the 1-based code point where the `occurrence`th match starts, or 0 when
/// there are fewer matches. `p` is not empty.
int32_t icu_instr_backward(const Collation& c, std::string_view s, std::string_view p, int64_t from,
                           int64_t occurrence) {
  if (s.empty()) return 0;
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(p);
  size_t unit = 0;  // the UTF-16 offset of code point `from`
  for (int64_t k = 0; k < from && unit < text.size(); ++k)
    unit += U16_IS_LEAD(text[unit]) && unit + 1 < text.size() && U16_IS_TRAIL(text[unit + 1]) ? 2 : 1;
  IcuSearch search(c, pattern, text);
  search.overlap(true);
  search.set_offset(static_cast<int32_t>(unit));
  int32_t at = kDone;
  for (int64_t k = 0; k < occurrence; ++k)
    if ((at = search.previous()) == kDone) return 0;
  return static_cast<int32_t>(code_points_before(text, at) + 1);
#else
  (void)c, (void)p, (void)from, (void)occurrence;
  no_icu();
#endif
}

}  // namespace

const Collation& call_collation(const Signature& sig) {
  for (const auto& t : sig.arg_types)
    if (t && t->id() == TypeId::kString && t->collation_id() != kUtf8BinaryCollation)
      return collation(t->collation_id());
  return collation(kUtf8BinaryCollation);
}

bool collated_contains(const Collation& c, std::string_view s, std::string_view p) {
  if (c.rtrim) s = rtrimmed(s), p = rtrimmed(p);
  switch (c.family) {
    case Collation::Family::kBinary:
      return s.find(p) != std::string_view::npos;
    case Collation::Family::kLowercase:
      return cp_find(fold_text(s, true).folded, fold_pattern(p, true), 0) >= 0;
    case Collation::Family::kIcu:
      break;
  }
  return icu_match(c, s, p, Anchor::kAnywhere);
}

bool collated_starts_with(const Collation& c, std::string_view s, std::string_view p) {
  if (c.rtrim) s = rtrimmed(s), p = rtrimmed(p);
  switch (c.family) {
    case Collation::Family::kBinary:
      return s.starts_with(p);
    case Collation::Family::kLowercase:
      return match_from(fold_text(s, true).folded, 0, fold_pattern(p, true)) >= 0;
    case Collation::Family::kIcu:
      break;
  }
  return icu_match(c, s, p, Anchor::kStart);
}

bool collated_ends_with(const Collation& c, std::string_view s, std::string_view p) {
  if (c.rtrim) s = rtrimmed(s), p = rtrimmed(p);
  switch (c.family) {
    case Collation::Family::kBinary:
      return s.ends_with(p);
    case Collation::Family::kLowercase: {
      const Folded t = fold_text(s, true);
      return match_until(t.folded, static_cast<int64_t>(t.folded.size()), fold_pattern(p, true)) >=
             0;
    }
    case Collation::Family::kIcu:
      break;
  }
  return icu_match(c, s, p, Anchor::kEnd);
}

std::vector<int64_t> collated_match_starts(const Collation& c, std::string_view s,
                                           std::string_view p) {
  std::vector<int64_t> starts;
  if (c.family != Collation::Family::kIcu) {
    const Folded t = fold_text(s, lowercase_family(c));
    const U32 pattern = fold_pattern(p, lowercase_family(c));
    for (int64_t i = 0; i <= static_cast<int64_t>(t.folded.size()); ++i)
      if (match_from(t.folded, i, pattern) >= 0) starts.push_back(i);
    return starts;
  }
  if (s.empty() || p.empty()) return starts;
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(p);
  IcuSearch search(c, pattern, text);
  search.overlap(true);
  for (int32_t m = search.first(); m != kDone; m = search.next())
    starts.push_back(code_points_before(text, m));
  return starts;
#else
  no_icu();
#endif
}

int32_t collated_instr(const Collation& c, std::string_view s, std::string_view p, int64_t pos,
                       int64_t occurrence) {
  if (c.rtrim) p = rtrimmed(p);
  if (p.empty()) return 1;
  if (pos == 0) return 0;
  const int64_t len = utf8_length(s);
  const std::vector<int64_t> starts = collated_match_starts(c, s, p);
  if (pos > 0) {
    if (pos > len) return 0;
    for (int64_t start : starts)
      if (start >= pos - 1 && --occurrence == 0) return static_cast<int32_t>(start + 1);
    return 0;
  }
  if (len + pos < 0) return 0;
  // ICU's backward search finds other matches than the forward one (it starts each step within
  // the previous match), so the occurrences are counted as it finds them.
  if (c.family == Collation::Family::kIcu) return icu_instr_backward(c, s, p, len + pos + 1, occurrence);
  for (auto it = starts.rbegin(); it != starts.rend(); ++it)
    if (*it <= len + pos && --occurrence == 0) return static_cast<int32_t>(*it + 1);
  return 0;
}

int32_t collated_locate(const Collation& c, std::string_view s, std::string_view p, int64_t pos) {
  if (c.rtrim) p = rtrimmed(p);
  if (p.empty()) return 1;
  for (int64_t start : collated_match_starts(c, s, p))
    if (start >= pos - 1) return static_cast<int32_t>(start + 1);
  return 0;
}

std::string collated_replace(const Collation& c, std::string_view s, std::string_view search,
                             std::string_view replacement) {
  if (s.empty() || search.empty()) return std::string(s);
  if (c.family == Collation::Family::kBinary) {
    std::string out;
    size_t from = 0;
    for (size_t at = s.find(search); at != std::string_view::npos; at = s.find(search, from)) {
      out.append(s.substr(from, at - from)).append(replacement);
      from = at + search.size();
    }
    return out.append(s.substr(from));
  }
  if (c.family == Collation::Family::kLowercase) {
    const Folded t = fold_text(s, true);
    const U32 p = fold_pattern(search, true);
    int64_t start = 0, end = cp_find(t.folded, p, 0);
    if (end < 0) return std::string(s);
    std::string out;
    while (end >= 0) {
      out += encode(t.cps, start, end);
      out.append(replacement);
      start = end + match_from(t.folded, end, p);
      end = cp_find(t.folded, p, start);
    }
    return out + encode(t.cps, start, static_cast<int64_t>(t.cps.size()));
  }
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(search), with = to_utf16(replacement);
  IcuSearch matches(c, pattern, text);
  std::u16string out;
  int32_t start = 0;
  for (int32_t m = matches.first(); m != kDone; m = matches.next()) {
    out.append(text, static_cast<size_t>(start), static_cast<size_t>(m - start)).append(with);
    start = m + matches.length();
  }
  out.append(text, static_cast<size_t>(start));
  return to_utf8(out);
#else
  no_icu();
#endif
}

std::vector<std::string> collated_split(const Collation& c, std::string_view s,
                                        std::string_view d) {
  if (c.rtrim) d = rtrimmed(d);
  if (d.empty()) return {std::string(s)};
  if (s.empty()) return {std::string()};
  std::vector<std::string> parts;
  if (c.family != Collation::Family::kIcu) {
    const Folded t = fold_text(s, lowercase_family(c));
    const U32 p = fold_pattern(d, lowercase_family(c));
    int64_t start = 0;
    for (int64_t m = cp_find(t.folded, p, 0); m >= 0; m = cp_find(t.folded, p, start)) {
      parts.push_back(encode(t.cps, start, m));
      start = m + match_from(t.folded, m, p);
    }
    parts.push_back(encode(t.cps, start, static_cast<int64_t>(t.cps.size())));
    return parts;
  }
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(d);
  IcuSearch matches(c, pattern, text);
  int32_t start = 0;
  for (int32_t m = matches.next(); m != kDone; m = matches.next()) {
    parts.push_back(to_utf8(std::u16string_view(text).substr(static_cast<size_t>(start),
                                                             static_cast<size_t>(m - start))));
    start = m + matches.length();
  }
  parts.push_back(to_utf8(std::u16string_view(text).substr(static_cast<size_t>(start))));
  return parts;
#else
  no_icu();
#endif
}

std::string collated_substring_index(const Collation& c, std::string_view s, std::string_view d,
                                     int64_t count) {
  if (c.rtrim) d = rtrimmed(d);
  if (d.empty() || count == 0) return std::string();
  if (c.family != Collation::Family::kIcu) {
    const Folded t = fold_text(s, lowercase_family(c));
    const U32 p = fold_pattern(d, lowercase_family(c));
    const auto n = static_cast<int64_t>(t.cps.size());
    if (count > 0) {
      int64_t at = -1;  // the start of the latest match
      for (; count > 0; --count)
        if ((at = cp_find(t.folded, p, at + 1)) < 0) return std::string(s);
      return encode(t.cps, 0, at);
    }
    int64_t at = n + 1;  // the end of the latest match
    for (; count < 0; ++count)
      if ((at = cp_rfind(t.folded, p, at - 1)) < 0) return std::string(s);
    return encode(t.cps, at, n);
  }
  if (s.empty()) return std::string();
#ifdef EMBER_HAVE_ICU
  const std::u16string text = to_utf16(s), pattern = to_utf16(d);
  IcuSearch matches(c, pattern, text);
  matches.overlap(true);
  if (count > 0) {
    int32_t at = 0;
    while (count > 0) {
      const int32_t m = matches.next();
      if (m == kDone) return std::string(s);
      if (m == at && at != 0) {
        matches.set_offset(matches.offset() + matches.length());
      } else {
        --count;
        at = m;
      }
    }
    return at == 0 ? std::string()
                   : to_utf8(std::u16string_view(text).substr(0, static_cast<size_t>(at)));
  }
  int32_t at = 0;
  for (; count < 0; ++count)
    if ((at = matches.previous()) == kDone) return std::string(s);
  at += matches.length();
  return to_utf8(std::u16string_view(text).substr(static_cast<size_t>(at)));
#else
  no_icu();
#endif
}

std::vector<size_t> java_hash_map_order(const std::u32string& keys) {
  size_t capacity = 16;
  while (keys.size() * 4 > capacity * 3) capacity *= 2;
  std::vector<std::pair<uint32_t, size_t>> buckets;
  for (size_t i = 0; i < keys.size(); ++i) {
    const char32_t cp = keys[i];
    // String.hashCode of the code point's UTF-16 form, spread as HashMap spreads it.
    uint32_t h = cp >= 0x10000 ? 31u * (0xD7C0u + (cp >> 10)) + (0xDC00u | (cp & 0x3FFu)) : cp;
    h ^= h >> 16;
    buckets.emplace_back(h & static_cast<uint32_t>(capacity - 1), i);
  }
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<size_t> order;
  for (const auto& b : buckets) order.push_back(b.second);
  return order;
}

std::string collated_translate(const Collation& c, std::string_view s, std::string_view from,
                               std::string_view to) {
  // The dictionary: each distinct character of `from`, first occurrence first, and its
  // replacement (0: none, the character is dropped; so is a U+0000 of `to`, as in Spark).
  const U32 f = utf8_decode(from), r = utf8_decode(to);
  U32 keys, values;
  for (size_t i = 0; i < f.size(); ++i) {
    if (keys.find(f[i]) != U32::npos) continue;
    keys.push_back(f[i]);
    values.push_back(i < r.size() ? r[i] : 0);
  }
  const U32 input = utf8_decode(s);
  std::string out;
  if (c.family == Collation::Family::kBinary) {
    for (char32_t cp : input) {
      const size_t k = keys.find(cp);
      if (k == U32::npos)
        utf8_append(out, cp);
      else if (values[k] != 0)
        utf8_append(out, values[k]);
    }
    return out;
  }
  const std::vector<size_t> order = java_hash_map_order(keys);
  if (c.family == Collation::Family::kLowercase) {
    std::unordered_map<char32_t, char32_t> dict;
    for (size_t k : order) dict.emplace(lowercase_code_point(keys[k]), values[k]);
    const bool dotted = dict.count(kLowercaseDottedI) > 0;
    // Spark's walk: an i followed by U+0307 reads as one İ when the dictionary holds İ; a code
    // point read ahead at the very end is kept as it is.
    size_t k = 0;
    bool held = false;
    char32_t hold = 0;
    while (k < input.size()) {
      char32_t cp = held ? hold : input[k++];
      held = false;
      if (dotted && cp == 'i' && k < input.size()) {
        const char32_t next = input[k++];
        if (next == kDot)
          cp = kLowercaseDottedI;
        else
          hold = next, held = true;
      }
      const auto it = dict.find(cp == kLowercaseDottedI ? cp : lowercase_code_point(cp));
      if (it == dict.end()) {
        if (cp == kLowercaseDottedI)
          out += "i\xCC\x87";
        else
          utf8_append(out, cp);
      } else if (it->second != 0) {
        utf8_append(out, it->second);
      }
    }
    if (held) utf8_append(out, hold);
    return out;
  }
#ifdef EMBER_HAVE_ICU
  if (s.empty()) return std::string();
  const std::u16string text = to_utf16(s);
  std::vector<std::u16string> patterns;
  for (size_t k : order) patterns.push_back(cp_utf16(keys[k]));
  std::vector<std::unique_ptr<IcuSearch>> searches;
  for (const auto& p : patterns) searches.push_back(std::make_unique<IcuSearch>(c, p, text));
  std::u16string result;
  const auto n = static_cast<int32_t>(text.size());
  int32_t at = 0;
  while (at < n) {
    int32_t longest = 0;
    size_t best = 0;
    for (size_t i = 0; i < searches.size(); ++i) {
      searches[i]->set_offset(at);
      if (searches[i]->next() == at && searches[i]->length() > longest)
        longest = searches[i]->length(), best = i;
    }
    if (longest == 0) {
      result.push_back(text[static_cast<size_t>(at++)]);
      continue;
    }
    const char32_t value = values[order[best]];
    if (value != 0) result += cp_utf16(value);
    at += longest;
  }
  return to_utf8(result);
#else
  no_icu();
#endif
}

std::string collated_trim(const Collation& c, std::string_view s, std::string_view chars, bool left,
                          bool right) {
  std::string out = left ? trim_left_by_family(c, s, chars) : std::string(s);
  if (!right) return out;
  // RTRIM collations set trailing spaces aside unless the set trims spaces itself.
  if (c.rtrim && chars.find(' ') == std::string_view::npos) {
    const std::string_view kept = rtrimmed(out);
    if (kept.empty()) return out;
    return trim_right_by_family(c, kept, chars) + out.substr(kept.size());
  }
  return trim_right_by_family(c, out, chars);
}

int32_t collated_find_in_set(const Collation& c, std::string_view word, std::string_view set) {
  if (word.find(',') != std::string_view::npos) return 0;
  std::string key, item_key;
  append_collation_key(c, word.data(), word.size(), key);
  int32_t index = 1;
  size_t at = 0;
  while (true) {
    const size_t comma = set.find(',', at);
    const std::string_view item =
        set.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    item_key.clear();
    append_collation_key(c, item.data(), item.size(), item_key);
    if (item_key == key) return index;
    if (comma == std::string_view::npos) return 0;
    at = comma + 1;
    ++index;
  }
}

}  // namespace ember::functions
