#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ember {

class TimeZone;
struct LocaleData;

/// A Spark datetime pattern (`yyyy-MM-dd HH:mm:ss.SSS`, `dd/MM/yyyy`, `MMM d yyyy hh:mm a`,
/// `yyyy-MM-dd'T'HH:mm:ssXXX`) compiled for parsing with the rules of java.time's
/// DateTimeFormatter as Spark configures it: the whole input must match, text is matched
/// case-insensitively, fields are range-checked (no February 30), a run of `S` accepts 1 up to
/// its length of fraction digits, and a variable-width number next to fixed-width ones leaves
/// them their digits (`yyyyMMdd`). Fields the pattern lacks default to 1970-01-01 00:00:00.
///
/// Supported letters: y u (year), M L (month, numeric or text), d, D (day of year), E (day of
/// week text, checked for syntax only), a, H, k, K, h, m, s, S, X x Z (offsets), V z (zone
/// ids), quotes and optional sections `[...]`. Others raise INVALID_DATETIME_PATTERN. Month
/// and day names and AM/PM markers are those of a locale (en-US unless given).
class DateTimePattern {
 public:
  /// Compiles `pattern`; throws SparkError for letters Ember does not support.
  explicit DateTimePattern(const std::string& pattern, const LocaleData* locale = nullptr);

  struct Result {
    int64_t year = 1970;
    int month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
    int sub_micro_nanos = 0;  // fraction digits 7..9 (TIME keeps nanoseconds)
    bool has_offset = false;
    int32_t offset_seconds = 0;
    std::string_view zone_id;  // a zone name from V or z, pointing into the input
  };
  /// Parses all of `s`; false when it does not match or a field is out of range.
  bool parse(std::string_view s, Result* out) const;

  /// Parses `s` as a date (days since the epoch).
  bool parse_date(std::string_view s, int32_t* days) const;
  /// Parses `s` as a timestamp: wall time in `zone` unless the text has an offset or zone.
  bool parse_timestamp(std::string_view s, const TimeZone& zone, int64_t* micros) const;
  /// Parses `s` as a TIMESTAMP_NTZ (any zone in the text is rejected).
  bool parse_timestamp_ntz(std::string_view s, int64_t* micros) const;

  const std::string& pattern() const { return pattern_; }

  enum class Kind : uint8_t {
    kLiteral, kYear, kYearReduced, kMonth, kMonthText, kDay, kDayOfYear, kDayOfWeekText,
    kAmPm, kHour24, kHour1To24, kHour0To11, kHour1To12, kMinute, kSecond, kFraction,
    kOffsetX, kOffsetx, kOffsetZ, kZoneId, kOptionalBegin, kOptionalEnd,
  };
  struct Element {
    Kind kind = Kind::kLiteral;
    int count = 0;             // pattern letters
    int min_width = 1, max_width = 2;
    std::string literal;
    int optional_end = -1;     // for kOptionalBegin: index of the matching kOptionalEnd
    bool standalone = false;   // kMonthText written with L
  };

 private:
  bool parse_range(std::string_view s, size_t& pos, size_t begin, size_t end, Result* r,
                   int* ampm, int* doy, int* hour12) const;

  std::string pattern_;
  const LocaleData* locale_;
  std::vector<Element> elements_;
  bool has_offset_or_zone_ = false;
};

}  // namespace ember
