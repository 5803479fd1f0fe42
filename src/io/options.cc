#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "common/ascii.h"
#include "common/error.h"
#include "common/locale.h"
#include "io/data_source.h"

namespace ember::io {

namespace {

}  // namespace

Options::Options(const std::map<std::string, std::string>& raw) {
  for (const auto& [k, v] : raw) set(k, v);
}

void Options::set(const std::string& key, const std::string& value) { values_[ascii_lower(key)] = value; }

bool Options::has(const std::string& key) const { return values_.count(ascii_lower(key)) != 0; }

std::string Options::get(const std::string& key, const std::string& fallback) const {
  auto it = values_.find(ascii_lower(key));
  return it == values_.end() ? fallback : it->second;
}

bool Options::get_bool(const std::string& key, bool fallback) const {
  auto it = values_.find(ascii_lower(key));
  if (it == values_.end()) return fallback;
  const std::string v = ascii_lower(it->second);
  if (v == "true") return true;
  if (v == "false") return false;
  throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_2147",
                   key + " flag can be true or false.", {{"paramName", key}});
}

int64_t Options::get_int(const std::string& key, int64_t fallback) const {
  auto it = values_.find(ascii_lower(key));
  if (it == values_.end()) return fallback;
  const std::string& v = it->second;
  char* end = nullptr;
  errno = 0;
  long long r = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno != 0 || *end != '\0' || std::isspace(static_cast<unsigned char>(v[0]))) {
    throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_2146",
                     key + " should be an integer. Found " + v + ".",
                     {{"paramName", key}, {"value", v}});
  }
  return r;
}

double Options::get_double(const std::string& key, double fallback) const {
  auto it = values_.find(ascii_lower(key));
  if (it == values_.end()) return fallback;
  const std::string& v = it->second;
  char* end = nullptr;
  double r = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') {
    throw SparkError(ErrorKind::kNumberFormat, "",
                     "For input string: \"" + v + "\"", {{"paramName", key}, {"value", v}});
  }
  return r;
}

const LocaleData* locale_option(const Options& options) {
  if (!options.has("locale")) return &us_locale();
  const std::string tag = options.get("locale");
  const LocaleData* locale = find_locale(tag);
  if (!locale) {
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "The feature is not supported: the locale " + tag +
                         " (Ember knows en-US, en-GB, de, fr, es, it, pt-BR, pt-PT, nl, ja, "
                         "zh, ko, ru, pl and sv).",
                     {}, "0A000");
  }
  return locale;
}

}  // namespace ember::io
