#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/expression.h"
#include "exec/join_hash_table.h"
#include "exec/operator.h"

namespace ember::exec {

/// How a hash join combines its two inputs. The probe side is children[0] (the left input),
/// the build side children[1] (the right input).
/// kExistence keeps every probe row and appends a boolean column: whether any candidate pair
/// passed (a mark join, for EXISTS / IN used as a value).
enum class HashJoinKind { kInner, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti, kExistence };

/// One probe batch's answer from a JoinProbeOffload: the pairs, in the CPU probe's order, and
/// optionally the build side's columns already gathered at those pairs.
struct JoinProbeResult {
  std::vector<int32_t> probe_rows;
  /// The build row of each pair; left empty by the offload when the caller does not need them
  /// (`need_build_rows` false and no build column left to the caller).
  std::vector<int32_t> build_rows;
  /// Every probe row has exactly one pair, in order (`probe_rows` is 0..n-1), so the probe
  /// columns need no gather.
  bool probe_identity = false;
  /// Asked for with `gather_build`: one entry per build column, that column's values at the
  /// pairs' build rows, or null where the caller gathers the column itself. Empty otherwise.
  std::vector<ColumnPtr> build_columns;
  bool has_build_rows() const { return build_rows.size() == probe_rows.size(); }
};

/// What a join asks of one probe batch.
struct JoinProbeRequest {
  bool first_only = false;      // each matching probe row's first build row only
  bool gather_build = false;    // gather the build columns the offload can, into build_columns
  /// The caller reads build_rows for more than gathering the build columns left to it (outer
  /// rows, a residual condition).
  bool need_build_rows = true;
};

/// Runs a hash join's probe somewhere else (the GPU) over the table the CPU built, with the same
/// pairs in the same order. `prepare` runs once the build side is indexed and says whether the
/// offload takes this table; `probe` answers one batch's keys, or returns false when it cannot
/// (the CPU then probes that batch). Both are called from many threads; `prepare` before any
/// `probe`.
class JoinProbeOffload {
 public:
  virtual ~JoinProbeOffload() = default;
  virtual bool prepare(const JoinHashTable& table) = 0;
  virtual bool probe(const JoinHashTable& table, const std::vector<ColumnPtr>& keys, int64_t n,
                     const JoinProbeRequest& request, JoinProbeResult& result) const = 0;
};

/// Hash join: children[1] runs first into a JoinHashTable (the build sink, one table built at
/// finalize from the batches every thread collected); then children[0] streams through
/// `execute`, which probes the table. Equal keys give candidate pairs; `condition` (bound over
/// probe columns followed by build columns) filters them. With no keys every build row is a
/// candidate (a nested-loop join). Output: probe columns then build columns (semi/anti: probe
/// columns only). Right and full outer joins emit the never-matched build rows at the end.
class HashJoin final : public PhysicalOperator {
 public:
  HashJoin(HashJoinKind kind, std::vector<PhysExprPtr> probe_keys, std::vector<PhysExprPtr> build_keys,
           std::vector<bool> null_safe, PhysExprPtr condition, std::vector<TypePtr> probe_types, std::vector<TypePtr> build_types);
  ~HashJoin() override;
  std::string name() const override;
  std::string details() const override;
  void execute(Batch& batch, ExecContext& ctx) const override;
  PhysicalOperator* build_sink() override;
  bool finish_output(Batch& out, ExecContext& ctx) const override;
  /// A left outer join standing for a scalar subquery: a probe row with two matches fails with
  /// SCALAR_SUBQUERY_TOO_MANY_ROWS.
  void require_single_match() { single_match_ = true; }
  /// The columns that operators above read, when they read fewer than all: ordinals into the
  /// full output (probe columns then build columns; semi and anti joins: probe columns), in
  /// output order. Only those are gathered and passed on. Not for existence joins.
  void set_outputs(std::vector<int> outputs) { outputs_ = std::move(outputs); }

  HashJoinKind kind() const { return kind_; }
  const std::vector<PhysExprPtr>& probe_keys() const { return probe_keys_; }
  const std::vector<bool>& null_safe() const { return null_safe_; }
  /// Hands the probe to `offload` (the GPU): the operator then shows as running there.
  void set_offload(std::unique_ptr<JoinProbeOffload> offload) { offload_ = std::move(offload); }
  const JoinProbeOffload* offload() const { return offload_.get(); }
  bool on_gpu() const override { return offload_ != nullptr; }

  /// The build sink: collects the build side's batches and indexes them once.
  class Build;

 private:
  HashJoinKind kind_;
  std::vector<PhysExprPtr> probe_keys_, build_keys_;
  std::vector<bool> null_safe_;
  PhysExprPtr condition_;
  bool single_match_ = false;
  std::vector<int> outputs_;  // empty: every column
  std::vector<TypePtr> probe_types_;
  std::unique_ptr<JoinProbeOffload> offload_;
  std::unique_ptr<Build> build_;
};

}  // namespace ember::exec
