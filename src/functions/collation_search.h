#pragma once

// The text searches of Spark's string functions under a collation (types/collation.h): where
// a pattern matches, what replace, split_part, substring_index, translate and the trims with a
// character set make of a string, as Spark computes them for each family of collations:
//   UTF8_BINARY   code point (byte) equality;
//   UTF8_LCASE    the lower cases of the code points compared one by one, as UTF8_LCASE keys
//                 lower-case them (İ reads as i and U+0307, so that a match may not end or start
//                 inside it; the final sigma reads as the sigma);
//   ICU family    ICU's string search (usearch) with the collation's collator, on UTF-16 text.
// RTRIM variants ignore the trailing spaces of some arguments, as each function states.
// Positions are 0-based code point indices. Invalid UTF-8 reads as U+FFFD.
//
// Kernels keep their byte search for UTF8_BINARY and call these only for other collations.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "functions/function.h"
#include "types/collation.h"

namespace ember::functions {

/// The collation a call's string arguments carry (the analyzer gives every string argument of a
/// call its collation); UTF8_BINARY when none does.
const Collation& call_collation(const Signature& sig);

/// contains / startswith / endswith. RTRIM collations ignore the trailing spaces of both.
bool collated_contains(const Collation& c, std::string_view s, std::string_view p);
bool collated_starts_with(const Collation& c, std::string_view s, std::string_view p);
bool collated_ends_with(const Collation& c, std::string_view s, std::string_view p);

/// The starts of every match of the non-empty `p` in `s`, overlapping ones included, in order.
std::vector<int64_t> collated_match_starts(const Collation& c, std::string_view s,
                                           std::string_view p);

/// instr(s, p, pos, occurrence) (occurrence > 0): the 1-based position of the occurrence-th
/// match counting from code point `pos` (backwards from the end when negative), 0 when none
/// or pos is 0; an empty pattern is found at 1. RTRIM collations ignore p's trailing spaces.
/// A negative pos under an ICU collation counts the matches ICU's backward overlapping search
/// finds from code point len + pos + 1, as Spark does (they may start past that point).
int32_t collated_instr(const Collation& c, std::string_view s, std::string_view p, int64_t pos,
                       int64_t occurrence);
/// locate(p, s, pos) for pos >= 1: the 1-based position of the first match at or after code
/// point pos, 0 when none; an empty pattern is found at 1, wherever pos is (as Spark 4 does).
int32_t collated_locate(const Collation& c, std::string_view s, std::string_view p, int64_t pos);

/// replace(s, search, replacement): non-overlapping matches from the left. RTRIM is ignored.
std::string collated_replace(const Collation& c, std::string_view s, std::string_view search,
                             std::string_view replacement);
/// split_part's pieces: `s` cut at the non-overlapping matches of `d` ([s] for an empty `d`,
/// [""] for an empty `s`). RTRIM collations ignore d's trailing spaces.
std::vector<std::string> collated_split(const Collation& c, std::string_view s, std::string_view d);
/// substring_index(s, d, count). RTRIM collations ignore d's trailing spaces.
std::string collated_substring_index(const Collation& c, std::string_view s, std::string_view d,
                                     int64_t count);
/// translate(s, from, to): each character of `from` (the first of equal ones) stands for the
/// character of `to` at its index, or for nothing past the end of `to`. Under a collation a
/// character of `s` matches every equal character of `from`; where several do, the one first
/// in the order of Java's HashMap of them wins, as in Spark. RTRIM is ignored.
std::string collated_translate(const Collation& c, std::string_view s, std::string_view from,
                               std::string_view to);
/// trim / ltrim / rtrim / btrim with a character set: the characters of `chars` removed from
/// the chosen ends. The right end of RTRIM collations keeps its trailing spaces unless `chars`
/// holds a space.
std::string collated_trim(const Collation& c, std::string_view s, std::string_view chars, bool left,
                          bool right);
/// find_in_set(word, set): the 1-based index of the first comma-separated item of `set` equal
/// to `word` under the collation; 0 when none or when `word` holds a comma.
int32_t collated_find_in_set(const Collation& c, std::string_view word, std::string_view set);

/// The order in which Java's HashMap<String, _> iterates the one-character strings of `keys`
/// (given in insertion order, without duplicates): Spark's translate and its dictionaries
/// depend on it.
std::vector<size_t> java_hash_map_order(const std::u32string& keys);

}  // namespace ember::functions
