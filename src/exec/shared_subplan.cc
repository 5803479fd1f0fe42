#include "exec/shared_subplan.h"

#include "common/error.h"
#include "exec/operators.h"

namespace ember::exec {

SharedSubplan::SharedSubplan(std::shared_ptr<Result> result, OperatorPtr subplan)
    : result_(std::move(result)) {
  EMBER_CHECK(result_->owner == nullptr, "a shared subplan has one owner");
  result_->owner = this;
  children.push_back(std::move(subplan));
}

std::string SharedSubplan::details() const { return "[id=#" + std::to_string(result_->id) + "]"; }

std::unique_ptr<SourceState> SharedSubplan::open_source(ExecContext& ctx) const {
  {
    std::lock_guard<std::mutex> lock(result_->mu);
    if (!result_->done) {
      EMBER_CHECK(result_->owner != nullptr && !result_->owner->children.empty(),
                  "shared subplan without its plan");
      result_->batches = run_plan(*result_->owner->children[0], ctx);
      result_->done = true;
    }
  }
  return std::make_unique<BatchListSource>();
}

bool SharedSubplan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_batches(result_->batches, state, emit);
}

int64_t SharedSubplan::output_partitions() const {
  return result_->owner && !result_->owner->children.empty() ? result_->owner->children[0]->output_partitions() : 1;
}

size_t SharedSubplan::max_parallelism(const SourceState&) const {
  return std::max<size_t>(1, result_->batches.size());
}

}  // namespace ember::exec
