#include "common/timezone.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <unordered_map>

#include "common/datetime.h"
#include "common/error.h"

namespace ember {

namespace {

constexpr int64_t kRuleTableEndYear = 2100;
constexpr int32_t kMaxOffset = 18 * 3600;

// Java's ZoneId.SHORT_IDS: three-letter aliases accepted in place of a zone id.
const std::map<std::string, std::string>& short_ids() {
  static const std::map<std::string, std::string> kIds = {
      {"ACT", "Australia/Darwin"},
      {"AET", "Australia/Sydney"},
      {"AGT", "America/Argentina/Buenos_Aires"},
      {"ART", "Africa/Cairo"},
      {"AST", "America/Anchorage"},
      {"BET", "America/Sao_Paulo"},
      {"BST", "Asia/Dhaka"},
      {"CAT", "Africa/Harare"},
      {"CNT", "America/St_Johns"},
      {"CST", "America/Chicago"},
      {"CTT", "Asia/Shanghai"},
      {"EAT", "Africa/Addis_Ababa"},
      {"ECT", "Europe/Paris"},
      {"IET", "America/Indiana/Indianapolis"},
      {"IST", "Asia/Kolkata"},
      {"JST", "Asia/Tokyo"},
      {"MIT", "Pacific/Apia"},
      {"NET", "Asia/Yerevan"},
      {"NST", "Pacific/Auckland"},
      {"PLT", "Asia/Karachi"},
      {"PNT", "America/Phoenix"},
      {"PRT", "America/Puerto_Rico"},
      {"PST", "America/Los_Angeles"},
      {"SST", "Pacific/Guadalcanal"},
      {"VST", "Asia/Ho_Chi_Minh"},
      {"EST", "-05:00"},
      {"MST", "-07:00"},
      {"HST", "-10:00"},
  };
  return kIds;
}

bool all_digits(const std::string& s, size_t b, size_t e) {
  if (b >= e) return false;
  for (size_t i = b; i < e; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

int num(const std::string& s, size_t b, size_t e) {
  int v = 0;
  for (size_t i = b; i < e; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

// Parses an offset as java.time.ZoneOffset.of accepts it: Z, +h, +hh, +hh:mm, +hhmm,
// +hh:mm:ss, +hhmmss (and the same with -), within +-18:00.
bool parse_zone_offset(const std::string& s, int32_t* out) {
  if (s == "Z") {
    *out = 0;
    return true;
  }
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return false;
  const int sign = s[0] == '-' ? -1 : 1;
  const size_t n = s.size();
  int h = 0, m = 0, sec = 0;
  if (n == 2 && all_digits(s, 1, 2)) {
    h = num(s, 1, 2);
  } else if (n == 3 && all_digits(s, 1, 3)) {
    h = num(s, 1, 3);
  } else if (n == 6 && s[3] == ':' && all_digits(s, 1, 3) && all_digits(s, 4, 6)) {
    h = num(s, 1, 3);
    m = num(s, 4, 6);
  } else if (n == 5 && all_digits(s, 1, 5)) {
    h = num(s, 1, 3);
    m = num(s, 3, 5);
  } else if (n == 9 && s[3] == ':' && s[6] == ':' && all_digits(s, 1, 3) && all_digits(s, 4, 6) &&
             all_digits(s, 7, 9)) {
    h = num(s, 1, 3);
    m = num(s, 4, 6);
    sec = num(s, 7, 9);
  } else if (n == 7 && all_digits(s, 1, 7)) {
    h = num(s, 1, 3);
    m = num(s, 3, 5);
    sec = num(s, 5, 7);
  } else {
    return false;
  }
  if (h > 18 || m > 59 || sec > 59) return false;
  const int32_t total = sign * (h * 3600 + m * 60 + sec);
  if (total > kMaxOffset || total < -kMaxOffset) return false;
  *out = total;
  return true;
}

// Spark's getZoneId accepts "+h:mm" and "+hh:m" for compatibility with Spark 2.
std::string spark_normalize(std::string s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    if ((s[i] == '+' || s[i] == '-') && std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
        s[i + 2] == ':') {
      s.insert(i + 1, "0");
      break;
    }
  }
  const size_t n = s.size();
  if (n >= 5 && (s[n - 5] == '+' || s[n - 5] == '-') && std::isdigit(static_cast<unsigned char>(s[n - 4])) &&
      std::isdigit(static_cast<unsigned char>(s[n - 3])) && s[n - 2] == ':' &&
      std::isdigit(static_cast<unsigned char>(s[n - 1]))) {
    s.insert(n - 1, "0");
  }
  return s;
}

// A region id as java.time accepts it: [A-Za-z][A-Za-z0-9~/._+-]+, never climbing out of the
// zoneinfo directory.
bool valid_region_id(const std::string& s) {
  if (s.size() < 2 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '~' || c == '/' || c == '.' ||
          c == '_' || c == '+' || c == '-'))
      return false;
  }
  return s.find("..") == std::string::npos;
}

bool read_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// Zoneinfo directories, in order of preference.
const std::vector<std::string>& zoneinfo_dirs() {
  static const std::vector<std::string> kDirs = [] {
    namespace fs = std::filesystem;
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("EMBER_ZONEINFO"); env && *env) dirs.emplace_back(env);
    dirs.emplace_back("/usr/share/zoneinfo");
    // The `tzdata` Python package of the project's virtual environment, looked up from the
    // executable's directory upwards.
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
           dir = dir.parent_path()) {
        fs::path lib = dir / ".venv" / "lib";
        if (!fs::is_directory(lib, ec)) continue;
        for (auto& entry : fs::directory_iterator(lib, ec)) {
          fs::path zi = entry.path() / "site-packages" / "tzdata" / "zoneinfo";
          if (entry.path().filename().string().rfind("python", 0) == 0 && fs::is_directory(zi, ec))
            dirs.push_back(zi.string());
        }
        break;
      }
    }
    return dirs;
  }();
  return kDirs;
}

int64_t be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return static_cast<int64_t>(v);
}
int32_t be32(const uint8_t* p) {
  return static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                              (uint32_t(p[2]) << 8) | uint32_t(p[3]));
}

// POSIX TZ string helpers. `pos` advances over what was consumed.
bool parse_tz_name(const std::string& s, size_t& pos) {
  if (pos < s.size() && s[pos] == '<') {
    size_t e = s.find('>', pos);
    if (e == std::string::npos) return false;
    pos = e + 1;
    return true;
  }
  size_t b = pos;
  while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos]))) ++pos;
  return pos - b >= 3;
}

// [+-]hh[:mm[:ss]], hours up to 167 (RFC 8536 extension).
bool parse_tz_time(const std::string& s, size_t& pos, int32_t* out) {
  int sign = 1;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    sign = s[pos] == '-' ? -1 : 1;
    ++pos;
  }
  int32_t parts[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      if (pos >= s.size() || s[pos] != ':') break;
      ++pos;
    }
    size_t b = pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    if (pos == b || pos - b > 3) return false;
    parts[k] = num(s, b, pos);
  }
  *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  return true;
}

bool parse_tz_date(const std::string& s, size_t& pos, TimeZone::PosixRule::Date* d) {
  auto read_int = [&](int* v) {
    size_t b = pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    if (pos == b) return false;
    *v = num(s, b, pos);
    return true;
  };
  if (pos >= s.size()) return false;
  if (s[pos] == 'M') {
    ++pos;
    d->kind = 'M';
    if (!read_int(&d->a) || pos >= s.size() || s[pos++] != '.') return false;
    if (!read_int(&d->b) || pos >= s.size() || s[pos++] != '.') return false;
    if (!read_int(&d->c)) return false;
    if (d->a < 1 || d->a > 12 || d->b < 1 || d->b > 5 || d->c > 6) return false;
  } else if (s[pos] == 'J') {
    ++pos;
    d->kind = 'J';
    if (!read_int(&d->a) || d->a < 1 || d->a > 365) return false;
  } else {
    d->kind = 'D';
    if (!read_int(&d->a) || d->a > 365) return false;
  }
  d->time = 7200;
  if (pos < s.size() && s[pos] == '/') {
    ++pos;
    if (!parse_tz_time(s, pos, &d->time)) return false;
  }
  return true;
}

// Local seconds (since the local epoch) at which a rule date occurs in `year`.
int64_t rule_local_seconds(const TimeZone::PosixRule::Date& d, int64_t year) {
  int64_t day;
  switch (d.kind) {
    case 'J': {
      day = days_from_civil(year, 1, 1) + d.a - 1;
      if (is_leap_year(year) && d.a >= 60) ++day;
      break;
    }
    case 'D': day = days_from_civil(year, 1, 1) + d.a; break;
    default: {
      const int64_t first = days_from_civil(year, d.a, 1);
      const int wd_first = iso_day_of_week(first) % 7;  // 0 = Sunday
      int64_t dom = 1 + (d.c - wd_first + 7) % 7 + (d.b - 1) * 7;
      if (dom > days_in_month(year, d.a)) dom -= 7;
      day = first + dom - 1;
      break;
    }
  }
  return day * kSecondsPerDay + d.time;
}

int64_t year_of_seconds(int64_t seconds) {
  return civil_from_days(floor_div(seconds, kSecondsPerDay)).year;
}

}  // namespace

bool TimeZone::PosixRule::parse(const std::string& tz) {
  size_t pos = 0;
  if (!parse_tz_name(tz, pos)) return false;
  int32_t off;
  if (!parse_tz_time(tz, pos, &off)) return false;
  std_offset = -off;
  dst_offset = std_offset;
  has_dst = false;
  if (pos == tz.size()) return true;
  if (!parse_tz_name(tz, pos)) return false;
  has_dst = true;
  dst_offset = std_offset + 3600;
  if (pos < tz.size() && tz[pos] != ',') {
    if (!parse_tz_time(tz, pos, &off)) return false;
    dst_offset = -off;
  }
  if (pos == tz.size()) {
    // No rule given: the US rules, as POSIX implementations default to.
    start = {'M', 3, 2, 0, 7200};
    end = {'M', 11, 1, 0, 7200};
    return true;
  }
  if (tz[pos++] != ',' || !parse_tz_date(tz, pos, &start)) return false;
  if (pos >= tz.size() || tz[pos++] != ',' || !parse_tz_date(tz, pos, &end)) return false;
  return pos == tz.size();
}

int64_t TimeZone::PosixRule::start_utc(int64_t year) const {
  return rule_local_seconds(start, year) - std_offset;
}

int64_t TimeZone::PosixRule::end_utc(int64_t year) const {
  return rule_local_seconds(end, year) - dst_offset;
}

int32_t TimeZone::PosixRule::offset_at_utc(int64_t t) const {
  if (!has_dst) return std_offset;
  const int64_t year = year_of_seconds(t + std_offset);
  const int64_t s = start_utc(year), e = end_utc(year);
  const bool dst = s < e ? (t >= s && t < e) : !(t >= e && t < s);
  return dst ? dst_offset : std_offset;
}

int32_t TimeZone::PosixRule::offset_at_local(int64_t local) const {
  if (!has_dst) return std_offset;
  const int64_t year = year_of_seconds(local);
  const int32_t hi = std::max(std_offset, dst_offset);
  // At each transition the offset before it stays in force until local time reaches
  // transition + max(before, after): this covers both the gap and the overlap.
  const int64_t s = start_utc(year) + hi, e = end_utc(year) + hi;
  const bool dst = s < e ? (local >= s && local < e) : !(local >= e && local < s);
  return dst ? dst_offset : std_offset;
}

bool TimeZone::load_tzif(const std::string& bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (size < 44 || std::memcmp(p, "TZif", 4) != 0) return false;
  auto counts = [&](size_t at, int32_t c[6]) {
    for (int k = 0; k < 6; ++k) c[k] = be32(p + at + 20 + 4 * k);
  };
  int32_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  counts(0, c);
  const char version = static_cast<char>(p[4]);
  size_t at = 44;
  int time_size = 4;
  if (version >= '2') {
    // Skip the 32-bit block; the 64-bit one follows with its own header.
    at += static_cast<size_t>(c[3]) * 5 + static_cast<size_t>(c[4]) * 6 + c[5] +
          static_cast<size_t>(c[2]) * 8 + c[1] + c[0];
    if (at + 44 > size || std::memcmp(p + at, "TZif", 4) != 0) return false;
    counts(at, c);
    at += 44;
    time_size = 8;
  }
  const size_t timecnt = static_cast<size_t>(c[3]), typecnt = static_cast<size_t>(c[4]);
  const size_t need = timecnt * (time_size + 1) + typecnt * 6 + c[5] +
                      static_cast<size_t>(c[2]) * (time_size + 4) + c[1] + c[0];
  if (typecnt == 0 || at + need > size) return false;
  const uint8_t* times = p + at;
  const uint8_t* idx = times + timecnt * time_size;
  const uint8_t* types = idx + timecnt;
  std::vector<int32_t> type_offset(typecnt);
  for (size_t k = 0; k < typecnt; ++k) type_offset[k] = be32(types + 6 * k);
  initial_offset_ = type_offset[0];
  trans_utc_.clear();
  trans_offset_.clear();
  for (size_t k = 0; k < timecnt; ++k) {
    const int64_t t = time_size == 8 ? be64(times + 8 * k) : be32(times + 4 * k);
    if (idx[k] >= typecnt) return false;
    const int32_t off = type_offset[idx[k]];
    const int32_t prev = trans_offset_.empty() ? initial_offset_ : trans_offset_.back();
    if (off == prev) continue;  // a change of name or DST flag only
    trans_utc_.push_back(t);
    trans_offset_.push_back(off);
  }
  // The footer: a POSIX TZ string for instants after the last transition.
  has_rule_ = false;
  if (version >= '2') {
    const size_t footer = at + need;
    if (footer < size && p[footer] == '\n') {
      const size_t end = bytes.find('\n', footer + 1);
      if (end != std::string::npos && end > footer + 1) {
        has_rule_ = rule_.parse(bytes.substr(footer + 1, end - footer - 1));
      }
    }
  }
  if (has_rule_ && !rule_.has_dst) {
    // A footer without daylight saving agrees with the last transition (or is the only rule).
    if (trans_utc_.empty()) initial_offset_ = rule_.std_offset;
    has_rule_ = false;
  }
  table_end_utc_ = INT64_MAX;
  if (has_rule_) {
    // Extend the table with the rule's transitions so that lookups in the usual range stay a
    // binary search; instants after the extended table evaluate the rule directly.
    const int64_t last = trans_utc_.empty() ? INT64_MIN : trans_utc_.back();
    const int64_t first_year = trans_utc_.empty() ? 1900 : year_of_seconds(last);
    for (int64_t y = first_year; y <= kRuleTableEndYear; ++y) {
      const int64_t s = rule_.start_utc(y), e = rule_.end_utc(y);
      std::pair<int64_t, int32_t> ts[2] = {{s, rule_.dst_offset}, {e, rule_.std_offset}};
      if (e < s) std::swap(ts[0], ts[1]);
      for (auto& [t, off] : ts) {
        if (t <= last) continue;
        const int32_t prev = trans_offset_.empty() ? initial_offset_ : trans_offset_.back();
        if (off == prev) continue;
        trans_utc_.push_back(t);
        trans_offset_.push_back(off);
      }
    }
    table_end_utc_ = days_from_civil(kRuleTableEndYear + 1, 1, 1) * kSecondsPerDay;
  }
  build_local_switches();
  return true;
}

void TimeZone::build_local_switches() {
  local_switch_.resize(trans_utc_.size());
  for (size_t k = 0; k < trans_utc_.size(); ++k) {
    const int32_t before = k == 0 ? initial_offset_ : trans_offset_[k - 1];
    local_switch_[k] = trans_utc_[k] + std::max(before, trans_offset_[k]);
  }
  // The rule takes over for local times after the table, with a day's margin so that the
  // two never disagree about the last tabled transition.
  table_end_local_ = table_end_utc_ == INT64_MAX ? INT64_MAX : table_end_utc_ + kSecondsPerDay;
}

int64_t TimeZone::region_offset_at_utc(int64_t t) const {
  if (has_rule_ && t >= table_end_utc_) return rule_.offset_at_utc(t);
  auto it = std::upper_bound(trans_utc_.begin(), trans_utc_.end(), t);
  if (it == trans_utc_.begin()) return initial_offset_;
  return trans_offset_[static_cast<size_t>(it - trans_utc_.begin()) - 1];
}

int64_t TimeZone::region_offset_at_local(int64_t local) const {
  if (has_rule_ && local >= table_end_local_) return rule_.offset_at_local(local);
  auto it = std::upper_bound(local_switch_.begin(), local_switch_.end(), local);
  if (it == local_switch_.begin()) return initial_offset_;
  return trans_offset_[static_cast<size_t>(it - local_switch_.begin()) - 1];
}

int64_t TimeZone::local_to_utc_micros(int64_t local_micros) const {
  if (fixed_) return local_micros - initial_offset_ * kMicrosPerSecond;
  return local_micros -
         offset_seconds_at_local(floor_div(local_micros, kMicrosPerSecond)) * kMicrosPerSecond;
}

int64_t TimeZone::utc_to_local_micros(int64_t utc_micros) const {
  if (fixed_) return utc_micros + initial_offset_ * kMicrosPerSecond;
  return utc_micros +
         offset_seconds_at_utc(floor_div(utc_micros, kMicrosPerSecond)) * kMicrosPerSecond;
}

std::unique_ptr<TimeZone> TimeZone::make(const std::string& requested, const std::string* dir) {
  std::unique_ptr<TimeZone> tz(new TimeZone(requested));
  std::string id = requested;
  auto alias = short_ids().find(id);
  if (alias != short_ids().end()) id = alias->second;
  id = spark_normalize(id);
  int32_t off;
  if (id == "Z" || id[0] == '+' || id[0] == '-') {
    if (!parse_zone_offset(id, &off)) return nullptr;
    tz->fixed_ = true;
    tz->initial_offset_ = off;
    return tz;
  }
  for (const char* prefix : {"UTC", "GMT", "UT"}) {
    const size_t n = std::strlen(prefix);
    if (id.compare(0, n, prefix) != 0) continue;
    if (id.size() == n) {
      tz->fixed_ = true;
      tz->initial_offset_ = 0;
      return tz;
    }
    if (id[n] == '+' || id[n] == '-') {
      if (!parse_zone_offset(id.substr(n), &off)) return nullptr;
      tz->fixed_ = true;
      tz->initial_offset_ = off;
      return tz;
    }
  }
  if (!valid_region_id(id)) return nullptr;
  std::string bytes;
  bool found = false;
  if (dir) {
    found = read_file(*dir + "/" + id, &bytes);
  } else {
    for (const auto& d : zoneinfo_dirs()) {
      if (read_file(d + "/" + id, &bytes)) {
        found = true;
        break;
      }
    }
  }
  if (!found || !tz->load_tzif(bytes)) return nullptr;
  if (tz->trans_utc_.empty() && !tz->has_rule_) tz->fixed_ = true;
  return tz;
}

std::unique_ptr<TimeZone> TimeZone::load(const std::string& name, const std::string& dir) {
  if (name.empty()) return nullptr;
  return make(name, &dir);
}

const TimeZone* TimeZone::find(const std::string& name) {
  static std::shared_mutex mu;
  static std::unordered_map<std::string, std::unique_ptr<TimeZone>> cache;
  {
    std::shared_lock<std::shared_mutex> lock(mu);
    auto it = cache.find(name);
    if (it != cache.end()) return it->second.get();
  }
  if (name.empty()) return nullptr;
  auto tz = make(name, nullptr);
  if (!tz) return nullptr;
  std::unique_lock<std::shared_mutex> lock(mu);
  auto [it, inserted] = cache.emplace(name, std::move(tz));
  return it->second.get();
}

const TimeZone& TimeZone::get(const std::string& name) {
  if (const TimeZone* tz = find(name)) return *tz;
  throw SparkError(ErrorKind::kDateTime, "INVALID_TIMEZONE",
                   "The timezone: " + name +
                       " is invalid. The timezone must be either a region-based zone ID or a "
                       "zone offset. Region IDs must have the form 'area/city', such as "
                       "'America/Los_Angeles'. Zone offsets must be in the format '(+|-)HH', "
                       "'(+|-)HH:mm\xE2\x80\x99 or '(+|-)HH:mm:ss', e.g '-08' , '+01:00' or "
                       "'-13:33:33', and must be in the range from -18:00 to +18:00. 'Z' and "
                       "'UTC' are accepted as synonyms for '+00:00'.",
                   {{"timeZone", name}}, "22009");
}

const TimeZone& TimeZone::utc() {
  static const TimeZone& kUtc = get("UTC");
  return kUtc;
}

}  // namespace ember
