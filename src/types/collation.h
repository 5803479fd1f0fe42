#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ember {

/// Spark's string collations (`STRING COLLATE name`). A collation decides when two strings are
/// equal and how they order; the values themselves stay as they are. Spark's families:
///   UTF8_BINARY   byte order (the default, id 0)
///   UTF8_LCASE    byte order of the strings lower-cased code point by code point
///   UNICODE, de, sr_Cyrl_SRB, ...   ICU's collator for the root or a locale, with the
///                 specifiers _CI (case-insensitive), _AI (accent-insensitive), _CS / _AS
///                 (the defaults)
/// and an optional _RTRIM, which ignores trailing spaces. Names are case-insensitive; each
/// collation has one normalized name (UTF8_LCASE_RTRIM, de_CI_AI, en_USA).
///
/// Ember compares collated strings through their collation keys: byte strings whose plain
/// byte order and equality are the collation's (the lower-cased text for UTF8_LCASE, ICU's sort
/// key for the ICU family). The planner puts `collationkey(s)` where a comparison, a grouping,
/// a join, a sort or a window partition reads a collated string, so that every operator keeps
/// comparing bytes.
struct Collation {
  enum class Family { kBinary, kLowercase, kIcu };
  int id = 0;
  std::string name;    // normalized: UTF8_LCASE, UNICODE_CI, de_CI_AI, UTF8_BINARY_RTRIM
  Family family = Family::kBinary;
  std::string locale;  // ICU locale id of the ICU family ("" for UNICODE, the root)
  bool case_insensitive = false;
  bool accent_insensitive = false;
  bool rtrim = false;

  /// "spark" (UTF8_*) or "icu".
  const char* provider() const { return family == Family::kIcu ? "icu" : "spark"; }
  /// Whether equal strings are equal bytes (UTF8_BINARY alone).
  bool binary_equality() const { return family == Family::kBinary && !rtrim; }
};

constexpr int kUtf8BinaryCollation = 0;

/// The id of the collation `name` names (any letter case), registering it on first use.
/// Throws COLLATION_INVALID_NAME for a name that is not one.
int collation_id(const std::string& name);
/// The collation of an id collation_id returned.
const Collation& collation(int id);
/// Spark's `collation(s)` text: SYSTEM.BUILTIN.<name>.
std::string collation_full_name(int id);

/// Appends to `out` the collation key of the UTF-8 string `s`: bytes whose byte order and
/// equality are the collation's order and equality. Invalid UTF-8 is read as U+FFFD, as Spark
/// makes strings valid before it compares them.
void append_collation_key(const Collation& c, const char* s, size_t n, std::string& out);

/// Whether collations of the ICU family are available (Ember built with ICU).
bool collations_have_icu();

/// One row of collations(): a collation as Spark describes it.
struct CollationListing {
  std::string name;  // normalized (UTF8_LCASE, UNICODE_CI, de_CI_AI)
  /// The ICU family's locale, in English ("German", "Germany"); empty (null) where there is
  /// none: the root, a locale without a country, the UTF8 family.
  std::string language, country;
  bool accent_sensitive = true;
  bool case_sensitive = true;
  std::string pad_attribute;  // NO_PAD, or RTRIM for the _RTRIM collations
  std::string icu_version;    // the ICU family's: the ICU release, four parts; empty for UTF8_*
};

/// The collations Spark lists: UTF8_BINARY and UTF8_LCASE and their _RTRIM forms, then the ICU
/// family (each locale and the root, UNICODE, with each combination of _CI, _AI and _RTRIM)
/// sorted by name.
std::vector<CollationListing> list_collations();

/// UTF8_LCASE's lower case of one code point, the mapping its keys use: ICU's simple lower-case
/// mapping, with the final sigma (U+03C2) read as the sigma. U+0130 (İ) lower-cases to two code
/// points, i and U+0307; it is returned as kLowercaseDottedI, a value outside Unicode that stands
/// for the pair. Without ICU only ASCII has a mapping; other code points raise
/// UNSUPPORTED_FEATURE, as UTF8_LCASE keys of non-ASCII text do.
constexpr char32_t kLowercaseDottedI = 0x690307;
char32_t lowercase_code_point(char32_t cp);

}  // namespace ember
