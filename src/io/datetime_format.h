#pragma once

#include <cstdint>
#include <string>

namespace ember {
class TimeZone;
struct LocaleData;
}

namespace ember::io {

/// Formats dates and timestamps with the datetime patterns of Spark's file writers
/// (dateFormat, timestampFormat, timestampNTZFormat). Supports the letters writers use: y, M,
/// d, H, h, a, m, s, S (fraction, truncated to the pattern's width), X/x/Z (offsets), E (day
/// names), quoted literals and optional sections `[...]`, which print in full as
/// java.time does when every field is available. Other letters raise INVALID_DATETIME_PATTERN.
/// Names (M L E with 3 or more letters) and AM/PM markers are those of a locale (en-US unless
/// given).
class DateTimeFormatter {
 public:
  explicit DateTimeFormatter(std::string pattern, const LocaleData* locale = nullptr);
  std::string format_date(int32_t days) const;
  /// A UTC instant shown in `zone`.
  std::string format_timestamp(int64_t utc_micros, const TimeZone& zone) const;
  /// A local date-time without zone (offset letters are an error for it).
  std::string format_timestamp_ntz(int64_t micros) const;

 private:
  std::string format(int64_t local_micros, int64_t offset_seconds, bool has_offset) const;
  std::string pattern_;
  const LocaleData* locale_;
};

}  // namespace ember::io
