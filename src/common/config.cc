#include "common/config.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <ctime>

#include "common/error.h"
#include "common/thread_pool.h"

namespace ember {

Config::Config() = default;

Config::Config(const Config& other) {
  std::lock_guard<std::mutex> lock(other.mu_);
  values_ = other.values_;
}

const std::map<std::string, std::string>& Config::defaults() {
  static const std::map<std::string, std::string> kDefaults = {
      {"spark.sql.ansi.enabled", "true"},
      {"spark.sql.caseSensitive", "false"},
      {"spark.sql.shuffle.partitions", "200"},
      {"spark.sql.session.timeZone", ""},  // resolved to the process time zone on read
      {"spark.sql.repl.eagerEval.enabled", "false"},
      {"spark.sql.repl.eagerEval.maxNumRows", "20"},
      {"spark.sql.repl.eagerEval.truncate", "20"},
      {"spark.sql.execution.arrow.maxRecordsPerBatch", "10000"},
      {"spark.sql.pyspark.inferNestedDictAsStruct.enabled", "false"},
      {"spark.sql.pyspark.legacy.inferArrayTypeFromFirstElement.enabled", "false"},
      {"spark.sql.timestampType", "TIMESTAMP_LTZ"},
      {"spark.sql.execution.pandas.convertToArrowArraySafely", "false"},
      {"spark.sql.legacy.timeParserPolicy", "CORRECTED"},
      {"spark.sql.mapKeyDedupPolicy", "EXCEPTION"},
      {"spark.rapids.sql.enabled", "true"},
      {"spark.rapids.sql.explain", "NOT_ON_GPU"},
      {"spark.rapids.sql.concurrentGpuTasks", "2"},
      {"spark.rapids.memory.gpu.allocFraction", "0.9"},
      {"spark.rapids.memory.pinnedPool.size", "0"},
      {"spark.rapids.sql.batchSizeBytes", "1073741824"},
      {"spark.app.name", "ember"},
      {"spark.master", "local[*]"},
  };
  return kDefaults;
}

namespace {

struct StartupSettings {
  std::mutex mu;
  std::map<std::string, std::string> values;
};

StartupSettings& startup() {
  static StartupSettings s;
  return s;
}

std::optional<std::string> startup_value(const std::string& key) {
  StartupSettings& s = startup();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.values.find(key);
  if (it == s.values.end()) return std::nullopt;
  return it->second;
}

}  // namespace

void Config::set_startup(const std::string& key, const std::string& value) {
  StartupSettings& s = startup();
  std::lock_guard<std::mutex> lock(s.mu);
  s.values[key] = value;
}

std::optional<bool> Config::parse_bool(const std::string& v) {
  std::string s = v;
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "true") return true;
  if (s == "false") return false;
  return std::nullopt;
}

void Config::set(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> lock(mu_);
  values_[key] = value;
}

void Config::unset(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  values_.erase(key);
}

std::optional<std::string> Config::get(const std::string& key) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = values_.find(key);
    if (it != values_.end()) return it->second;
  }
  if (key == "spark.sql.session.timeZone") return session_time_zone();
  if (auto v = startup_value(key)) return v;
  auto d = defaults().find(key);
  if (d != defaults().end()) return d->second;
  return std::nullopt;
}

std::string Config::get_or(const std::string& key, const std::string& fallback) const {
  auto v = get(key);
  return v ? *v : fallback;
}

bool Config::get_bool(const std::string& key, bool fallback) const {
  auto v = get(key);
  if (!v) return fallback;
  auto b = parse_bool(*v);
  return b ? *b : fallback;
}

int64_t Config::get_int(const std::string& key, int64_t fallback) const {
  auto v = get(key);
  if (!v || v->empty()) return fallback;
  char* end = nullptr;
  long long r = std::strtoll(v->c_str(), &end, 10);
  return (end && *end == '\0') ? r : fallback;
}

std::string Config::session_time_zone() const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = values_.find("spark.sql.session.timeZone");
    if (it != values_.end() && !it->second.empty()) return it->second;
  }
  if (const char* tz = std::getenv("TZ")) {
    std::string s = tz;
    if (!s.empty() && s[0] == ':') s = s.substr(1);
    if (!s.empty()) return s;
  }
  return "Etc/UTC";
}

std::vector<std::pair<std::string, std::string>> Config::all() const {
  std::map<std::string, std::string> merged;
  for (auto& [k, v] : defaults()) merged[k] = v;
  merged["spark.sql.session.timeZone"] = session_time_zone();
  {
    StartupSettings& s = startup();
    std::lock_guard<std::mutex> lock(s.mu);
    for (auto& [k, v] : s.values) merged[k] = v;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [k, v] : values_) merged[k] = v;
  }
  return {merged.begin(), merged.end()};
}

bool Config::is_modifiable(const std::string& key) const {
  // Static (startup-only) settings in Spark; everything under spark.sql. is runtime-modifiable.
  static const char* kStatic[] = {"spark.master", "spark.app.name", "spark.driver.memory",
                                  "spark.executor.memory", "spark.sql.warehouse.dir"};
  for (auto* s : kStatic)
    if (key == s) return false;
  return key.rfind("spark.sql.", 0) == 0 || key.rfind("spark.rapids.", 0) == 0 ||
         key.rfind("spark.ember.", 0) == 0;
}

namespace {

[[noreturn]] void bad_size(const std::string& key, const std::string& value) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE.TYPE_MISMATCH",
                   "The value '" + value + "' in the config \"" + key +
                       "\" is invalid. It should be a size such as 512m or 1g.",
                   {{"confValue", value}, {"confName", key}});
}

}  // namespace

int64_t parse_bytes(const std::string& text, const std::string& key) {
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!s.empty() && s.back() == 'b') s.pop_back();
  int shift = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
    switch (s.back()) {
      case 'k':
        shift = 10;
        break;
      case 'm':
        shift = 20;
        break;
      case 'g':
        shift = 30;
        break;
      case 't':
        shift = 40;
        break;
      default:
        bad_size(key, text);
    }
    s.pop_back();
  }
  if (s.empty()) bad_size(key, text);
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || v < 0 || (shift > 0 && v > (INT64_MAX >> shift)))
    bad_size(key, text);
  return static_cast<int64_t>(v) << shift;
}

int64_t Config::get_bytes(const std::string& key, int64_t fallback) const {
  const auto v = get(key);
  return v ? parse_bytes(*v, key) : fallback;
}

int64_t leaf_node_default_parallelism(const Config* config) {
  int64_t partitions = static_cast<int64_t>(ThreadPool::global().size()) + 1;
  if (config) {
    partitions = config->get_int("spark.default.parallelism", partitions);
    partitions = config->get_int("spark.sql.leafNodeDefaultParallelism", partitions);
  }
  return std::max<int64_t>(1, partitions);
}

}  // namespace ember
