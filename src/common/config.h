#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ember {

/// A session's configuration: Spark's string key/value pairs. Keys Ember knows have defaults
/// (see `defaults()`); any other key is stored and returned as set, as Spark does for unknown
/// keys. Thread-safe: queries read it while the client may set keys.
class Config {
 public:
  Config();
  Config(const Config& other);

  void set(const std::string& key, const std::string& value);
  void unset(const std::string& key);
  /// The value set or its default; nullopt when neither exists.
  std::optional<std::string> get(const std::string& key) const;
  std::string get_or(const std::string& key, const std::string& fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;
  int64_t get_int(const std::string& key, int64_t fallback) const;
  /// A size in bytes written as Spark writes them ("4194304", "128MB", "64k"), see parse_bytes.
  int64_t get_bytes(const std::string& key, int64_t fallback) const;
  /// Every explicitly set key, plus defaults of keys that are not set.
  std::vector<std::pair<std::string, std::string>> all() const;
  bool is_modifiable(const std::string& key) const;

  /// Commonly read settings, parsed on each call (cheap; keys are few).
  bool ansi_enabled() const { return get_bool("spark.sql.ansi.enabled", true); }
  bool case_sensitive() const { return get_bool("spark.sql.caseSensitive", false); }
  std::string session_time_zone() const;

  static const std::map<std::string, std::string>& defaults();
  /// Sets a process-wide startup setting (`ember server --conf key=value`): every session sees
  /// it after its own settings and before the defaults. Static settings such as
  /// spark.sql.warehouse.dir can only come from here, as in Spark they come from the launch.
  static void set_startup(const std::string& key, const std::string& value);
  /// Parses Spark booleans ("true"/"false", case-insensitive); nullopt otherwise.
  static std::optional<bool> parse_bool(const std::string& v);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> values_;
};

/// The number of partitions Spark gives a leaf relation that names none (a range without
/// numPartitions, the packing of file splits): spark.sql.leafNodeDefaultParallelism, else
/// spark.default.parallelism, else the engine's worker threads plus the calling one (what Spark's
/// local[N] master gives, N cores). `config` may be null.
int64_t leaf_node_default_parallelism(const Config* config);

/// Parses Spark's byte strings: "1024", "64k", "640m", "1g", "1t" (binary units; case-insensitive,
/// an optional trailing "b"). Throws an IllegalArgument SparkError naming the config `key` on
/// malformed text.
int64_t parse_bytes(const std::string& text, const std::string& key);

}  // namespace ember
