#pragma once

#include <cstdint>
#include <string>

#include "common/config.h"

namespace ember::gpu {

/// How `spark.rapids.sql.explain` asks placement to be reported.
enum class ExplainGpu { kNone, kNotOnGpu, kAll };

/// The GPU settings of a session, read from its configuration. The RAPIDS accelerator's keys
/// are accepted with their meaning; Ember's own `spark.ember.gpu.*` keys come first where both
/// exist.
///
///   spark.rapids.sql.enabled, spark.ember.gpu.enabled   both must be true (default true)
///   spark.ember.gpu.allocFraction /
///   spark.rapids.memory.gpu.allocFraction                fraction of the free device memory the
///                                                        device pool may use (default 0.9)
///   spark.rapids.memory.gpu.reserve                      memory left to CUDA and others (640m)
///   spark.rapids.memory.pinnedPool.size                  pinned host staging pool (0: copies
///                                                        go from pageable memory)
///   spark.rapids.sql.concurrentGpuTasks                  tasks on the GPU at once (2): sorts,
///                                                        join probes, range aggregations (an
///                                                        aggregation's scan batches take none)
///   spark.rapids.sql.batchSizeBytes                      target bytes of a device batch (1g)
///   spark.rapids.sql.explain                             NONE, NOT_ON_GPU (default) or ALL
///   spark.ember.gpu.minRows                              inputs smaller than this stay on the
///                                                        CPU (100000)
///   spark.ember.gpu.joinMinBuildRows                     hash joins whose build side has fewer
///                                                        rows probe on the CPU, where the index
///                                                        stays in cache (1000000)
///   spark.ember.gpu.maxQueryMemory                       device memory one GPU operator may hold
///                                                        (0: up to the pool's limit)
///
/// Defaults come from `Config::defaults()` where it lists the key. The pool sizes take effect when
/// the process first uses the GPU (as in RAPIDS, where they are executor start-up settings); the
/// others apply per query.
struct GpuSettings {
  bool enabled = true;
  double alloc_fraction = 0.9;
  int64_t reserve_bytes = int64_t{640} << 20;
  int64_t pinned_pool_bytes = 0;
  int concurrent_tasks = 2;
  int64_t batch_size_bytes = int64_t{1} << 30;
  ExplainGpu explain = ExplainGpu::kNotOnGpu;
  int64_t min_rows = 100000;
  int64_t join_min_build_rows = 1000000;
  int64_t max_query_bytes = 0;
  /// Why `enabled` is false (the key that turned it off).
  std::string disabled_by;
};

GpuSettings read_settings(const Config& conf);

using ember::parse_bytes;

}  // namespace ember::gpu
