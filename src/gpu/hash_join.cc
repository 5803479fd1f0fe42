// The GPU probe of a hash join: the device looks up each probe batch's keys in a copy of the
// CPU-built index and gathers the build side's fixed-width columns for the pairs; the CPU join
// does the rest (CPU twin: exec/hash_join.cc).

#include <chrono>

#include "gpu/device_column.h"
#include "gpu/error.h"
#include "gpu/join_probe.h"
#include "gpu/operators.h"
#include "gpu/runtime.h"

namespace ember::gpu {

GpuJoinProbe::GpuJoinProbe(const GpuSettings& settings) : settings_(settings) {}

GpuJoinProbe::~GpuJoinProbe() {
  // The index's and the columns' buffers are freed on the stream that owns them, before the
  // stream goes.
  index_.reset();
  columns_.clear();
}

size_t GpuJoinProbe::device_columns() const {
  size_t n = 0;
  for (auto& c : columns_) n += c != nullptr;
  return n;
}

bool GpuJoinProbe::decline(const std::string& reason) {
  index_.reset();
  columns_.clear();
  column_ptrs_.clear();
  stats_.on_gpu = false;
  stats_.fallback_reason = reason;
  return false;
}

bool GpuJoinProbe::prepare(const exec::JoinHashTable& table) {
  index_.reset();
  columns_.clear();
  column_ptrs_.clear();
  stats_ = GpuRunStats{};
  failed_ = false;
  gpu_batches_ = 0;
  cpu_batches_ = 0;
  if (table.mode() != exec::JoinHashTable::Mode::kDirect &&
      table.mode() != exec::JoinHashTable::Mode::kInt64)
    return decline("the build keys are not indexed as integers");
  if (table.size() < settings_.join_min_build_rows)
    return decline("the build side has " + std::to_string(table.size()) +
                   " rows, fewer than spark.ember.gpu.joinMinBuildRows (" +
                   std::to_string(settings_.join_min_build_rows) + ")");
  Runtime* runtime = Runtime::get(settings_);
  if (runtime == nullptr) return decline(Runtime::unavailable_reason());
  auto begin = std::chrono::steady_clock::now();
  try {
    GpuTaskPermit permit(*runtime, settings_.concurrent_tasks);
    if (!stream_) stream_ = std::make_unique<Stream>();
    pool_ = std::make_unique<DeviceMemoryPool>("join", &runtime->device_pool(),
                                               settings_.max_query_bytes);
    index_ = std::make_unique<DeviceJoinIndex>(table.int_index(), *pool_, *stream_);
  } catch (const GpuOutOfMemory& e) {
    return decline("the GPU ran out of memory (" + e.message() + ")");
  } catch (const GpuError& e) {
    return decline(e.message());
  } catch (const Unsupported& e) {
    return decline(e.what());
  }
  // The build columns the device can gather, while they fit: those that do not stay with the
  // host's gather, and the probe still runs here.
  int64_t column_bytes = 0;
  for (const ColumnPtr& c : table.rows().columns) {
    std::unique_ptr<DeviceColumn> d;
    if (table.size() > 0 && DeviceJoinIndex::gathers(*c->type())) {
      try {
        GpuTaskPermit permit(*runtime, settings_.concurrent_tasks);
        d = std::make_unique<DeviceColumn>(to_device(*c, *pool_, *stream_));
        stream_->synchronize();
        column_bytes += static_cast<int64_t>(d->data.size() + d->validity.size());
      } catch (const GpuOutOfMemory&) {
        d.reset();
      } catch (const GpuError& e) {
        return decline(e.message());
      }
    }
    column_ptrs_.push_back(d.get());
    columns_.push_back(std::move(d));
  }
  stats_.on_gpu = true;
  stats_.uploaded_bytes = static_cast<int64_t>(index_->bytes()) + column_bytes;
  stats_.total_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  return true;
}

bool GpuJoinProbe::probe(const exec::JoinHashTable& table, const std::vector<ColumnPtr>& keys,
                         int64_t n, const exec::JoinProbeRequest& request,
                         exec::JoinProbeResult& result) const {
  if (!index_ || failed_.load(std::memory_order_relaxed)) {
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  Runtime* runtime = Runtime::get(settings_);
  if (runtime == nullptr) {
    failed_ = true;
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  // A batch goes to the device only when a GPU task slot is free now; otherwise its thread
  // probes it on the CPU rather than wait, so the pipeline's other threads keep working while
  // spark.rapids.sql.concurrentGpuTasks threads use the device.
  GpuTaskPermit permit(*runtime, settings_.concurrent_tasks, std::try_to_lock);
  if (!permit.owns()) {
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  std::vector<int64_t> combined;
  table.combine_int_keys(keys, n, combined);
  try {
    Stream stream;
    index_->probe(combined.data(), n, request, column_ptrs_, *pool_, stream, result,
                  &runtime->pinned_pool());
  } catch (const GpuOutOfMemory&) {
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  } catch (const Unsupported&) {
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  } catch (const GpuError&) {
    failed_ = true;
    cpu_batches_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  gpu_batches_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace ember::gpu
