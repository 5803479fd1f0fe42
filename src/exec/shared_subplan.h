#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "exec/operator.h"

namespace ember::exec {

/// A subplan whose output a query reads more than once (the input a ROLLUP aggregates once per
/// grouping set, a CTE or view read in several places): it runs once, when its first reader
/// opens, and every reader emits the same batches in the subplan's order.
///
/// The readers share one `Result`. One reader owns the subplan as its only child (so that
/// explain shows it once, and GPU placement may swap operators inside it); it is never run as
/// part of the reader's pipeline, which starts at the reader.
class SharedSubplan final : public PhysicalOperator {
 public:
  struct Result {
    explicit Result(int id) : id(id) {}
    const int id;
    std::mutex mu;
    bool done = false;
    const SharedSubplan* owner = nullptr;
    std::vector<Batch> batches;
  };

  /// The reader that owns `subplan`.
  SharedSubplan(std::shared_ptr<Result> result, OperatorPtr subplan);
  /// Another reader of the same result.
  explicit SharedSubplan(std::shared_ptr<Result> result) : result_(std::move(result)) {}

  const std::shared_ptr<Result>& result() const { return result_; }
  bool owns_subplan() const { return result_->owner == this; }

  std::string name() const override { return owns_subplan() ? "SharedSubplan" : "ReusedSubplan"; }
  std::string details() const override;
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;
  int64_t output_partitions() const override;

 private:
  std::shared_ptr<Result> result_;
};

}  // namespace ember::exec
