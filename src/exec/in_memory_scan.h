#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/operator.h"

namespace ember::exec {

/// The rows of one cached relation (DataFrame.cache / persist, CACHE TABLE) as column batches.
/// They are filled once, by the first query that reads them, and then shared, read-only, by
/// every later query until the cache entry is dropped or refreshed (which replaces the store).
class CachedBatches {
 public:
  /// Whether the rows have been computed.
  bool materialized() const;
  /// The rows, running `compute` under the store's lock the first time. A failure leaves the
  /// store empty, so that a later query tries again.
  const std::vector<Batch>& get(const std::function<std::vector<Batch>()>& compute);
  /// Bytes the batches hold (Batch::memory_size); 0 until materialized.
  int64_t memory_bytes() const { return bytes_.load(); }
  /// Row count once materialized, -1 before.
  int64_t num_rows() const { return rows_.load(); }
  /// How many times the rows were computed (1 once materialized: reuse never recomputes).
  int64_t materializations() const { return materializations_.load(); }

 private:
  mutable std::mutex mu_;
  bool done_ = false;
  std::vector<Batch> batches_;
  std::atomic<int64_t> bytes_{0};
  std::atomic<int64_t> rows_{-1};
  std::atomic<int64_t> materializations_{0};
};

/// Spark's InMemoryTableScan: reads the columns `projection` of a cached relation. Its only
/// child is an `InMemoryRelation` over the cached plan; the first scan of the store runs that
/// plan (a nested run_plan, as SharedSubplan does) and keeps its batches. The child is never
/// part of the scan's pipeline, which starts at the scan.
class InMemoryTableScan final : public PhysicalOperator {
 public:
  InMemoryTableScan(std::shared_ptr<CachedBatches> store, std::vector<int> projection,
                    std::string columns, OperatorPtr relation);
  std::string name() const override { return "InMemoryTableScan"; }
  std::string details() const override { return columns_; }
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

 private:
  std::shared_ptr<CachedBatches> store_;
  std::vector<int> projection_;
  std::string columns_;
};

/// Spark's InMemoryRelation line of a plan: the cached relation with its storage level, over
/// the plan that computes it. Passes its child's batches through.
class InMemoryRelation final : public PhysicalOperator {
 public:
  explicit InMemoryRelation(std::string details) : details_(std::move(details)) {}
  std::string name() const override { return "InMemoryRelation"; }
  std::string details() const override { return details_; }
  void execute(Batch&, ExecContext&) const override {}

 private:
  std::string details_;
};

}  // namespace ember::exec
