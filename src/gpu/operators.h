#pragma once

// The GPU physical operators, siblings of exec/operators.h; each is implemented in the file named
// after its CPU twin.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/hash_join.h"
#include "exec/operators.h"
#include "gpu/aggregate_layout.h"
#include "gpu/memory.h"
#include "gpu/program.h"
#include "gpu/settings.h"

namespace ember::gpu {

/// An operator whose work runs fused inside the GPU operator above it (a range, filter or
/// projection). It stays in the tree so that explain shows it, as `Gpu<name>`; a batch passing
/// through it is left unchanged.
class GpuFusedStage final : public exec::PhysicalOperator {
 public:
  GpuFusedStage(std::string name, std::string details)
      : name_(std::move(name)), details_(std::move(details)) {}
  std::string name() const override { return name_; }
  std::string details() const override { return details_; }
  bool on_gpu() const override { return true; }
  void execute(Batch&, exec::ExecContext&) const override {}

 private:
  std::string name_, details_;
};

/// Stands in the GPU operator's tree for a CPU source that belongs to the GPU operator's CPU
/// fallback: it hands out that source's morsels, so the source can be read by either.
class GpuSourceRef final : public exec::PhysicalOperator {
 public:
  explicit GpuSourceRef(const exec::PhysicalOperator* source) : source_(source) {}
  std::string name() const override { return source_->name(); }
  std::string details() const override { return source_->details(); }
  bool is_source() const override { return true; }
  std::unique_ptr<exec::SourceState> open_source(exec::ExecContext& ctx) const override {
    return source_->open_source(ctx);
  }
  bool next_morsel(exec::SourceState& s, exec::ExecContext& ctx,
                   const exec::Emit& emit) const override {
    return source_->next_morsel(s, ctx, emit);
  }
  size_t max_parallelism(const exec::SourceState& s) const override {
    return source_->max_parallelism(s);
  }
  int64_t output_partitions() const override { return source_->output_partitions(); }
  bool knows_positions() const override { return source_->knows_positions(); }
  const exec::PhysicalOperator* source() const { return source_; }

 private:
  const exec::PhysicalOperator* source_;
};

/// What a fused GPU aggregation computes: a range (generated on the device) or the batches of a
/// CPU source (copied in), the filters and projections over it (bottom up), and the hash
/// aggregate on top.
struct FusedAggregatePlan {
  struct Step {
    bool filter = false;
    std::vector<exec::PhysExprPtr> exprs;  // a filter's condition is exprs[0]
  };
  bool range = true;
  std::vector<TypePtr> source_types;  // batches: the source's columns (only referenced ones matter)
  int64_t start = 0, end = 0, step = 1;
  int64_t partitions = 1;  // Spark's slices of the range (exec::RangeScan)
  std::vector<Step> steps;
  std::vector<exec::PhysExprPtr> keys;
  std::vector<exec::AggregateCall> calls;

  /// Rows of the range (without overflow).
  uint64_t rows() const;
};

/// The program and group layout of a fused aggregation. Throws Unsupported.
struct CompiledAggregate {
  CompiledAggregate(const FusedAggregatePlan& plan, bool ansi, bool legacy_statistics);
  Program program;
  std::unique_ptr<AggregateLayout> layout;
};

/// What the last run of a GPU operator did (for tests, metrics and the benchmark).
struct GpuRunStats {
  bool on_gpu = false;
  std::string fallback_reason;  // why it ran on the CPU instead
  int attempts = 0;             // kernel runs (more than one when the group table grew)
  double kernel_ms = 0;         // the last kernel run, launch to results on the host
  double total_ms = 0;          // everything, tables and copies included
  int64_t groups = 0;
  int64_t device_peak_bytes = 0;
  int64_t uploaded_bytes = 0;  // host → device, batches only
};

/// Source → filters/projections → hash aggregate in one GPU pass (see fused_aggregate.h).
///
/// Over a range it is a source: the range is generated on the device, the whole aggregation runs
/// when the pipeline opens it, and its output batches are then handed out. Over another source
/// it is a sink: each thread copies its batches' referenced columns to the device (split in
/// halves and retried when device memory runs short) and runs the kernel into the shared group
/// table, which grows between batches. When the GPU cannot finish (no usable device, memory
/// exhausted, an ANSI error raised on some row, a full table), the original CPU operators run
/// instead, so results and errors are those of the CPU engine.
class GpuHashAggregate final : public exec::PhysicalOperator {
 public:
  /// `cpu` computes the same result on the CPU (the HashAggregate and its inputs). Throws
  /// Unsupported when the plan cannot run on the GPU.
  GpuHashAggregate(FusedAggregatePlan plan, exec::OperatorPtr cpu, const GpuSettings& settings,
                   bool ansi, bool legacy_statistics);
  ~GpuHashAggregate() override;

  std::string name() const override { return "HashAggregate"; }
  std::string details() const override { return cpu_->details(); }
  bool on_gpu() const override { return true; }
  bool is_source() const override { return plan_.range; }
  bool is_sink() const override { return !plan_.range; }
  std::unique_ptr<exec::SourceState> open_source(exec::ExecContext& ctx) const override;
  std::unique_ptr<exec::LocalSinkState> open_local(exec::ExecContext& ctx) override;
  void sink(exec::LocalSinkState& local, Batch batch, exec::ExecContext& ctx) override;
  void finalize(exec::ExecContext& ctx) override;
  bool next_morsel(exec::SourceState& state, exec::ExecContext& ctx,
                   const exec::Emit& emit) const override;
  size_t max_parallelism(const exec::SourceState&) const override;

  const GpuRunStats& last_run() const { return stats_; }

 private:
  void run(exec::ExecContext& ctx) const;
  void run_on_gpu() const;
  void run_on_cpu(exec::ExecContext& ctx, const std::string& reason) const;
  struct Batches;  // state of a run over batches
  void sink_rows(const Stream& stream, const Batch& batch, int64_t offset, int64_t length);
  void fail(const std::string& reason);

  FusedAggregatePlan plan_;
  std::unique_ptr<Batches> batches_;
  exec::OperatorPtr cpu_;
  GpuSettings settings_;
  CompiledAggregate compiled_;
  mutable std::vector<Batch> output_;
  mutable GpuRunStats stats_;
};

/// Sort and top-N on the GPU (CPU twin: exec/sort.cc). Like the CPU sort it collects every
/// batch with its evaluated keys, then finds the stable order of the rows on the device
/// (radix_sort.h) and gathers them on the host, so ties keep the input order exactly as the
/// CPU does; top-N keeps the first N of the full order. Inputs smaller than
/// spark.ember.gpu.minRows, and any the device cannot finish, are sorted by the CPU operator.
class GpuSort final : public exec::PhysicalOperator {
 public:
  GpuSort(std::vector<exec::SortKey> keys, int64_t limit, const GpuSettings& settings);
  ~GpuSort() override;

  std::string name() const override { return cpu_->name(); }
  std::string details() const override { return cpu_->details(); }
  bool on_gpu() const override { return true; }
  bool is_sink() const override { return true; }
  std::unique_ptr<exec::LocalSinkState> open_local(exec::ExecContext& ctx) override;
  void sink(exec::LocalSinkState& local, Batch batch, exec::ExecContext& ctx) override;
  void combine(exec::LocalSinkState& local, exec::ExecContext& ctx) override;
  void finalize(exec::ExecContext& ctx) override;
  std::unique_ptr<exec::SourceState> open_source(exec::ExecContext& ctx) const override;
  bool next_morsel(exec::SourceState& state, exec::ExecContext& ctx,
                   const exec::Emit& emit) const override;
  size_t max_parallelism(const exec::SourceState& state) const override;

  const GpuRunStats& last_run() const { return stats_; }

 private:
  void sort_on_gpu(exec::ExecContext& ctx);
  void sort_on_cpu(exec::ExecContext& ctx, const std::string& reason);

  std::vector<exec::SortKey> keys_;
  int64_t limit_;
  GpuSettings settings_;
  std::unique_ptr<exec::Sort> cpu_;  // the fallback, fed the same batches
  bool on_cpu_ = false;
  std::mutex mu_;
  std::vector<Batch> input_;  // with the keys' columns appended
  std::vector<Batch> output_;
  GpuRunStats stats_;
};

class DeviceJoinIndex;
struct DeviceColumn;

/// The probe of a hash join on the GPU (CPU twin: exec/hash_join.cc, which keeps everything
/// else: the build, residual conditions, outer rows, the columns the device does not gather).
/// Once the CPU has indexed the build side, a table over integer keys with at least
/// spark.ember.gpu.joinMinBuildRows rows is copied to the device with its fixed-width columns,
/// and each probe batch's keys are looked up there (join_probe.h); where the join's output is
/// the pairs themselves, the device also gathers those build columns for them. Smaller build
/// sides stay on the CPU, whose index then fits in its caches; a batch the device cannot finish
/// (memory) is probed by the CPU, and a device error moves the rest of the join there. Build
/// columns that do not fit in device memory are gathered by the host.
class GpuJoinProbe final : public exec::JoinProbeOffload {
 public:
  explicit GpuJoinProbe(const GpuSettings& settings);
  ~GpuJoinProbe() override;
  bool prepare(const exec::JoinHashTable& table) override;
  bool probe(const exec::JoinHashTable& table, const std::vector<ColumnPtr>& keys, int64_t n,
             const exec::JoinProbeRequest& request, exec::JoinProbeResult& result) const override;

  /// What the last run did: on_gpu once the index is on the device, fallback_reason when it is
  /// not, uploaded_bytes the index's and the build columns' size; batches probed on each side.
  const GpuRunStats& last_run() const { return stats_; }
  int64_t gpu_batches() const { return gpu_batches_.load(); }
  int64_t cpu_batches() const { return cpu_batches_.load(); }
  /// Build columns on the device (gathered there for the output).
  size_t device_columns() const;

 private:
  bool decline(const std::string& reason);

  GpuSettings settings_;
  std::unique_ptr<Stream> stream_;  // the index's and the columns' buffers live on it
  std::unique_ptr<DeviceMemoryPool> pool_;
  std::unique_ptr<DeviceJoinIndex> index_;
  std::vector<std::unique_ptr<DeviceColumn>> columns_;  // per build column; null: on the host
  std::vector<const DeviceColumn*> column_ptrs_;
  mutable std::atomic<bool> failed_{false};
  mutable std::atomic<int64_t> gpu_batches_{0}, cpu_batches_{0};
  GpuRunStats stats_;
};

}  // namespace ember::gpu
