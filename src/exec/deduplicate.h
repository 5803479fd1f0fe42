#pragma once

#include <mutex>
#include <vector>

#include "exec/expression.h"
#include "exec/operator.h"

namespace ember::exec {

/// dropDuplicates(subset): keeps the first row, in source order, of each distinct key (Spark's
/// grouping equality: nulls equal, NaN equal). A sink: it needs all input to know which row
/// comes first, then emits the kept rows in source order.
class Deduplicate final : public PhysicalOperator {
 public:
  explicit Deduplicate(std::vector<PhysExprPtr> keys) : keys_(std::move(keys)) {}
  std::string name() const override { return "Deduplicate"; }
  std::string details() const override;
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

 private:
  std::vector<PhysExprPtr> keys_;
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> output_;
};

}  // namespace ember::exec
