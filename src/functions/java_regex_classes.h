#pragma once

// The character classes of Java's regular expressions, written as RE2 reads them, for the
// translation in java_regex_syntax.cc: Java's property names (\p{IsAlphabetic}, \p{InGreek},
// \p{javaMirrored}, the POSIX names), and the set operations on classes RE2 lacks (negated
// members inside brackets, intersections), done on explicit ranges of code points.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions::java_regex {

struct CodePointRange {
  char32_t first;
  char32_t last;
};

/// Sorted, disjoint and not adjacent ranges.
using RangeSet = std::vector<CodePointRange>;

constexpr char32_t kMaxCodePoint = 0x10FFFF;

/// Java's \h: horizontal white space, as the text of a class.
extern const char* const kHorizontalSpace;

/// A character class as RE2 writes it: the text that goes between the brackets, and that of
/// its complement inside brackets (empty when RE2 has no way to write it there).
struct ClassText {
  std::string body;
  std::string negated_body;
};

/// `c` as an RE2 escape, \x{...}.
std::string code_point(char32_t c);

/// The class a \p{name} stands for in Java, nullopt for names left to RE2 as written.
/// `unicode_classes`: UNICODE_CHARACTER_CLASS is on, under which the POSIX names mean their
/// Unicode properties.
std::optional<ClassText> property(std::string_view name, bool unicode_classes);

/// A class from the tables generated from the JDK (java_regex_properties.inc), by a java* name
/// or a binary property's key (upper case, without spaces, hyphens and underscores).
std::optional<ClassText> java_table(std::string_view key);

RangeSet normalized(RangeSet r);
RangeSet complement(const RangeSet& r);
RangeSet intersection(const RangeSet& a, const RangeSet& b);
ClassText text_of(const RangeSet& r);

/// The code points of the RE2 class body `body` (case-folded with `fold_case`), as RE2's own
/// Unicode tables define them: listed by running the class over every code point, which takes
/// a few milliseconds and is cached. Throws JavaRegexError without RE2.
RangeSet set_of(const std::string& body, bool fold_case = false);

/// The complement of a class, from its negated text when RE2 can write it inside brackets, else
/// computed from its code points.
ClassText complement_of(const ClassText& t);
ClassText union_of(const ClassText& a, const ClassText& b);
ClassText intersection_of(const ClassText& a, const ClassText& b);

/// The characters `lo`-`hi` under CASE_INSENSITIVE: with UNICODE_CASE every case of each (as
/// RE2 folds them), without it only ASCII letters fold, as in Java.
ClassText folded_range(char32_t lo, char32_t hi, bool unicode_case);

}  // namespace ember::functions::java_regex
