#pragma once

#include <string_view>

namespace ember {

/// The locale data Spark's `locale` option reaches (java.util.Locale through java.time and
/// java.text): month and day names, AM/PM markers and decimal symbols. The table is recorded
/// from the JVM of the pinned Spark release by tools/record_locales.py. Strings are UTF-8.
struct LocaleData {
  const char* tag;
  const char* months[12];            // MMMM
  const char* months_short[12];      // MMM
  const char* standalone[12];        // LLLL
  const char* standalone_short[12];  // LLL
  const char* days[7];               // EEEE, Monday first
  const char* days_short[7];         // EEE
  const char* am;
  const char* pm;
  const char* decimal_separator;
  const char* grouping_separator;
  const char* minus_sign;
  const char* exponent_separator;

  /// Whether this is en-US, for which Spark keeps its locale-independent number parsing.
  bool is_us() const;
};

/// The data for a language tag (`de-DE`, `fr`, case-insensitive), or nullptr when Ember has
/// none for it.
const LocaleData* find_locale(std::string_view tag);

/// en-US, Spark's default.
const LocaleData& us_locale();

}  // namespace ember
