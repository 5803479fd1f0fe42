// Time window durations (see time_window.h); the rewrite itself is Analyzer::with_time_window.

#include "plan/time_window.h"

#include <cctype>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/calendar_interval.h"
#include "common/error.h"

namespace ember::plan {

int64_t parse_window_duration(const std::string& text) {
  auto fail = [&]() -> int64_t { throw_cannot_parse_interval(text, ErrorKind::kIllegalArgument); };
  std::vector<std::string> words;
  {
    std::istringstream in(text);
    std::string w;
    while (in >> w) {
      for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      words.push_back(w);
    }
  }
  size_t i = 0;
  if (i < words.size() && words[i] == "interval") ++i;
  if (i >= words.size() || (words.size() - i) % 2 != 0) return fail();
  long double micros = 0;
  bool months = false;
  for (; i < words.size(); i += 2) {
    const std::string& num = words[i];
    std::string unit = words[i + 1];
    if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
    size_t used = 0;
    long double v = 0;
    try {
      v = std::stold(num, &used);
    } catch (const std::exception&) {
      return fail();
    }
    if (used != num.size() || !std::isfinite(static_cast<double>(v))) return fail();
    const bool whole = v == std::floor(v);
    if (unit == "microsecond" && whole) micros += v;
    else if (unit == "millisecond" && whole) micros += v * 1000;
    else if (unit == "second") micros += std::round(v * 1000000);
    else if (unit == "minute" && whole) micros += v * 60000000LL;
    else if (unit == "hour" && whole) micros += v * 3600000000LL;
    else if (unit == "day" && whole) micros += v * 86400000000LL;
    else if (unit == "week" && whole) micros += v * 7 * 86400000000LL;
    else if ((unit == "month" || unit == "year") && whole) months = months || v != 0;
    else return fail();
  }
  if (months)
    throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3231",
                     "Intervals greater than a month is not supported (" + text + ").");
  if (micros > 9.2e18L || micros < -9.2e18L) return fail();
  return static_cast<int64_t>(micros);
}

}  // namespace ember::plan
