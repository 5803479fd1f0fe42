// Streaming operators: projection and filter.

#include "exec/operators.h"

namespace ember::exec {

std::string Project::details() const {
  std::string s = "[";
  for (size_t i = 0; i < exprs_.size(); ++i) s += (i ? ", " : "") + exprs_[i]->to_string();
  return s + "]";
}

void Project::execute(Batch& batch, ExecContext& ctx) const {
  batch.columns = evaluate_in_row_order(exprs_, batch, ctx.eval);
}

bool Project::numbers_rows() const {
  for (auto& e : exprs_)
    if (exec::numbers_rows(*e)) return true;
  return false;
}

void Filter::execute(Batch& batch, ExecContext& ctx) const {
  ColumnPtr pred = evaluate_in_row_order({condition_}, batch, ctx.eval)[0];
  std::vector<int32_t> rows = true_rows(*pred);
  if (!outputs_.empty()) {
    std::vector<ColumnPtr> kept;
    kept.reserve(outputs_.size());
    for (int i : outputs_) kept.push_back(batch.columns[static_cast<size_t>(i)]);
    batch.columns = std::move(kept);
  }
  if (static_cast<int64_t>(rows.size()) == batch.num_rows) return;
  batch = gather_batch(batch, rows.data(), static_cast<int64_t>(rows.size()));
}

}  // namespace ember::exec
