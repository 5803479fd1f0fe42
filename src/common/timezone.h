#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ember {

/// A time zone as java.time's ZoneId understands it: a region ("America/Los_Angeles") whose
/// rules come from the IANA TZif files, or a fixed offset ("UTC", "Z", "+08:00", "-8",
/// "UTC+8", "GMT-05:30"), including Java's short aliases ("PST", "EST").
///
/// Region rules are read from /usr/share/zoneinfo, or from the directory named by the
/// EMBER_ZONEINFO environment variable, or from the `tzdata` Python package of the project's
/// virtual environment (found next to the running executable). Transitions are looked up in
/// a table that is extended with the zone's POSIX footer rule up to the year 2100; later
/// instants evaluate the rule directly, so every instant has an answer.
///
/// Objects are immutable after construction and safe to share between threads.
class TimeZone {
 public:
  /// The process-wide, thread-safe cache. Throws SparkError INVALID_TIMEZONE for a name that
  /// is neither a known region nor a valid offset. The reference stays valid for the life of
  /// the process.
  static const TimeZone& get(const std::string& name);
  /// Like get(), but returns nullptr instead of throwing.
  static const TimeZone* find(const std::string& name);
  static const TimeZone& utc();

  /// Loads a zone without the cache, reading region files from `zoneinfo_dir` (tests).
  /// Returns nullptr when the name is unknown.
  static std::unique_ptr<TimeZone> load(const std::string& name, const std::string& zoneinfo_dir);

  /// The name the zone was requested by.
  const std::string& name() const { return name_; }
  bool is_fixed() const { return fixed_; }
  /// The offset of a fixed zone (seconds east of UTC); 0 for regions.
  int32_t fixed_offset() const { return fixed_ ? initial_offset_ : 0; }

  /// Seconds to add to a UTC instant to get local wall-clock time.
  int64_t offset_seconds_at_utc(int64_t epoch_seconds) const {
    return fixed_ ? initial_offset_ : region_offset_at_utc(epoch_seconds);
  }
  /// The offset to subtract from a local wall-clock time (seconds since the local epoch) to
  /// get UTC, resolved like java.time's ZonedDateTime.of: in a gap the offset before the
  /// transition is used (the time moves forward by the gap's length); in an overlap the
  /// earlier of the two instants (the offset before the transition) is chosen.
  int64_t offset_seconds_at_local(int64_t local_seconds) const {
    return fixed_ ? initial_offset_ : region_offset_at_local(local_seconds);
  }

  int64_t local_to_utc_micros(int64_t local_micros) const;
  int64_t utc_to_local_micros(int64_t utc_micros) const;

  TimeZone(const TimeZone&) = delete;
  TimeZone& operator=(const TimeZone&) = delete;

  /// A daylight-saving rule in POSIX TZ form ("PST8PDT,M3.2.0,M11.1.0"), public for tests.
  struct PosixRule {
    int32_t std_offset = 0;  // seconds east of UTC
    int32_t dst_offset = 0;
    bool has_dst = false;
    // A transition date: kind 'J' (1..365, no Feb 29), 'D' (0..365), 'M' (month.week.day).
    struct Date {
      char kind = 'M';
      int a = 0, b = 0, c = 0;  // J/D: day in a; M: month a, week b, weekday c
      int32_t time = 7200;      // local seconds after midnight (may be negative or > 24h)
    };
    Date start, end;
    /// Parses a POSIX TZ string; false when it is malformed.
    bool parse(const std::string& tz);
    /// UTC instants at which DST starts and ends in `year`.
    int64_t start_utc(int64_t year) const;
    int64_t end_utc(int64_t year) const;
    int32_t offset_at_utc(int64_t epoch_seconds) const;
    int32_t offset_at_local(int64_t local_seconds) const;
  };

 private:
  explicit TimeZone(std::string name) : name_(std::move(name)) {}
  static std::unique_ptr<TimeZone> make(const std::string& name, const std::string* dir);
  int64_t region_offset_at_utc(int64_t epoch_seconds) const;
  int64_t region_offset_at_local(int64_t local_seconds) const;
  bool load_tzif(const std::string& bytes);
  void build_local_switches();

  std::string name_;
  bool fixed_ = false;
  int32_t initial_offset_ = 0;  // before the first transition (or the fixed offset)
  // Transitions in ascending UTC order, each with the offset in effect from it on.
  std::vector<int64_t> trans_utc_;
  std::vector<int32_t> trans_offset_;
  // Local wall-clock times at which offset_seconds_at_local switches to trans_offset_[i]:
  // trans_utc_[i] + max(offset before, offset after).
  std::vector<int64_t> local_switch_;
  bool has_rule_ = false;  // instants after table_end_utc_ follow rule_
  PosixRule rule_;
  int64_t table_end_utc_ = 0;
  int64_t table_end_local_ = 0;
};

}  // namespace ember
