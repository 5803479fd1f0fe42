#include "gpu/settings.h"

#include <cctype>
#include <cstdlib>

#include "common/error.h"

namespace ember::gpu {
namespace {

[[noreturn]] void bad_value(const std::string& key, const std::string& value,
                            const std::string& expected) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE.TYPE_MISMATCH",
                   "The value '" + value + "' in the config \"" + key +
                       "\" is invalid. It should be " + expected + ".",
                   {{"confValue", value}, {"confName", key}});
}

double read_fraction(const Config& conf, const std::string& key, double fallback) {
  auto v = conf.get(key);
  if (!v) return fallback;
  char* end = nullptr;
  double d = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || !(d > 0.0 && d <= 1.0))
    bad_value(key, *v, "a fraction in (0, 1]");
  return d;
}

}  // namespace

GpuSettings read_settings(const Config& conf) {
  GpuSettings s;
  if (!conf.get_bool("spark.rapids.sql.enabled", true)) {
    s.enabled = false;
    s.disabled_by = "spark.rapids.sql.enabled is false";
  } else if (!conf.get_bool("spark.ember.gpu.enabled", true)) {
    s.enabled = false;
    s.disabled_by = "spark.ember.gpu.enabled is false";
  }
  if (conf.get("spark.ember.gpu.allocFraction"))
    s.alloc_fraction = read_fraction(conf, "spark.ember.gpu.allocFraction", s.alloc_fraction);
  else
    s.alloc_fraction =
        read_fraction(conf, "spark.rapids.memory.gpu.allocFraction", s.alloc_fraction);
  if (auto v = conf.get("spark.rapids.memory.gpu.reserve"))
    s.reserve_bytes = parse_bytes(*v, "spark.rapids.memory.gpu.reserve");
  if (auto v = conf.get("spark.rapids.memory.pinnedPool.size"))
    s.pinned_pool_bytes = parse_bytes(*v, "spark.rapids.memory.pinnedPool.size");
  if (auto v = conf.get("spark.rapids.sql.batchSizeBytes"))
    s.batch_size_bytes = parse_bytes(*v, "spark.rapids.sql.batchSizeBytes");
  int64_t tasks = conf.get_int("spark.rapids.sql.concurrentGpuTasks", 2);
  if (tasks < 1)
    bad_value("spark.rapids.sql.concurrentGpuTasks", std::to_string(tasks), "a positive integer");
  s.concurrent_tasks = static_cast<int>(std::min<int64_t>(tasks, 1024));
  s.min_rows = conf.get_int("spark.ember.gpu.minRows", s.min_rows);
  s.join_min_build_rows = conf.get_int("spark.ember.gpu.joinMinBuildRows", s.join_min_build_rows);
  if (auto v = conf.get("spark.ember.gpu.maxQueryMemory"))
    s.max_query_bytes = parse_bytes(*v, "spark.ember.gpu.maxQueryMemory");
  std::string explain = conf.get_or("spark.rapids.sql.explain", "NOT_ON_GPU");
  for (auto& c : explain) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (explain == "NONE")
    s.explain = ExplainGpu::kNone;
  else if (explain == "ALL")
    s.explain = ExplainGpu::kAll;
  else if (explain == "NOT_ON_GPU")
    s.explain = ExplainGpu::kNotOnGpu;
  else
    bad_value("spark.rapids.sql.explain", explain, "one of NONE, NOT_ON_GPU, ALL");
  return s;
}

}  // namespace ember::gpu
