#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/config.h"
#include "exec/hash_join.h"
#include "exec/operators.h"
#include "gpu/settings.h"

namespace ember::plan {

/// Decides, per physical operator, whether it runs on the GPU, and records why not.
///
/// The physical planner notes the bound expressions of the operators it creates (the operators
/// keep them private); `apply` then walks the finished tree and replaces each subtree the GPU
/// can run by its GPU operator: a hash aggregate over filters and projections over a range or
/// a CPU source, fused into one GpuHashAggregate, sorts by numeric keys (GpuSort), and the probe of
/// hash joins on integer keys (GpuJoinProbe). An operator
/// runs on the GPU when every expression and type in it is supported, spark.rapids.sql.enabled and
/// spark.ember.gpu.enabled are true, a usable device is present, and its input has at least
/// spark.ember.gpu.minRows rows; the GPU operator falls back to the CPU operators at run time when
/// the device cannot finish.
class GpuPlacement {
 public:
  explicit GpuPlacement(const Config& conf);

  void note_range(const exec::PhysicalOperator* op, int64_t start, int64_t end, int64_t step);
  void note_project(const exec::PhysicalOperator* op, std::vector<exec::PhysExprPtr> exprs);
  /// `passed`: the input columns the filter passes on, when it passes on fewer than all.
  void note_filter(const exec::PhysicalOperator* op, exec::PhysExprPtr condition,
                   std::vector<exec::PhysExprPtr> passed = {});
  void note_aggregate(const exec::PhysicalOperator* op, std::vector<exec::PhysExprPtr> keys,
                      std::vector<exec::AggregateCall> calls);
  void note_sort(const exec::PhysicalOperator* op, std::vector<exec::SortKey> keys, int64_t limit);

  /// Moves what can run on the GPU there; returns the placement report for explain, as
  /// spark.rapids.sql.explain asks (RAPIDS' format: `*Exec <HashAggregate> will run on GPU`,
  /// `!Exec <Filter> cannot run on GPU because expression rlike is not supported`).
  std::vector<std::string> apply(exec::OperatorPtr& root);

 private:
  struct Note {
    enum Kind { kRange, kProject, kFilter, kAggregate, kSort } kind = kRange;
    int64_t start = 0, end = 0, step = 1, partitions = 1;
    std::vector<exec::PhysExprPtr> exprs;  // project: outputs; filter: [condition]; aggregate: keys
    std::vector<exec::PhysExprPtr> passed;  // filter: the input columns it passes on (empty: all)
    std::vector<exec::AggregateCall> calls;
    std::vector<exec::SortKey> sort_keys;
    int64_t limit = -1;
  };
  const Note* note(const exec::PhysicalOperator* op) const;
  void place(exec::OperatorPtr& op, const std::string& blocked);
  /// Why `spark.rapids.sql.exec.<Name>Exec=false` keeps `op` on the CPU, or "".
  std::string disabled_reason(const exec::PhysicalOperator& op) const;
  /// The operator below the filters and projections under aggregate `agg` (their notes, top
  /// down, into `steps`): where a fused GPU aggregation would take its input from.
  const exec::PhysicalOperator* input_chain(const exec::PhysicalOperator* agg,
                                            std::vector<const Note*>* steps) const;
  /// That operator when a fused aggregation can read it (a range or a source), else nullptr.
  const exec::PhysicalOperator* fused_input(const exec::PhysicalOperator* agg) const;
  /// Builds the GPU aggregate for `op`, or returns the reason it cannot run on the GPU.
  std::string try_aggregate(exec::OperatorPtr& op);
  /// Replaces a sort by GpuSort, or returns the reason it cannot run on the GPU.
  std::string try_sort(exec::OperatorPtr& op);
  /// Hands a hash join's probe to the GPU (GpuJoinProbe), or returns the reason it cannot.
  std::string try_join(exec::HashJoin& join);
  std::string cpu_reason(const exec::PhysicalOperator& op) const;
  void report(const exec::PhysicalOperator& op, bool gpu, const std::string& reason);

  const Config& conf_;
  gpu::GpuSettings settings_;
  std::map<const exec::PhysicalOperator*, Note> notes_;
  std::vector<std::string> lines_;
};

}  // namespace ember::plan
