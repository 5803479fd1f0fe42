#pragma once

// WindowGroupLimit: below a Window whose rows are then filtered on a rank-like function
// (`row_number() OVER w <= k`, also rank and dense_rank), keeps of each partition only the rows
// that can pass that filter, so the Window sorts k rows per partition instead of all of them.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/group_keys.h"
#include "exec/operators.h"
#include "exec/partition_top_rows.h"

namespace ember::exec {

/// A sink that streams: each thread keeps, per partition, the rows that can still pass
/// (PartitionTopRows) and the values of those rows only; the threads' candidates are merged at
/// finalize and leave in input order (batch index, then row).
class WindowGroupLimit final : public PhysicalOperator {
 public:
  using Rank = PartitionTopRows::Rank;

  /// `order` must fit normalized keys (normalized_keys_fit); `limit` >= 1.
  WindowGroupLimit(std::vector<PhysExprPtr> partition, std::vector<SortKey> order, Rank rank,
                   int64_t limit);
  ~WindowGroupLimit() override;
  std::string name() const override { return "WindowGroupLimit"; }
  std::string details() const override;
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

  /// One thread's candidates and the rows holding their values.
  struct Local;

 private:
  std::vector<PhysExprPtr> partition_;
  std::vector<SortKey> order_;
  Rank rank_;
  int64_t limit_;
  KeyEncoder encoder_;  // partition keys
  bool packed_keys_;    // partition keys as PackedKeys (else byte strings)
  std::mutex mu_;
  std::vector<std::unique_ptr<Local>> locals_;
  std::vector<Batch> output_;
};

}  // namespace ember::exec
