// Sort and top-N.

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "exec/operators.h"
#include "common/thread_pool.h"
#include "exec/row_compare.h"
#include "exec/sort_keys.h"
#include "functions/kernel_util.h"

namespace ember::exec {

namespace {
struct LocalBatches : LocalSinkState {
  std::vector<Batch> batches;
};

}  // namespace

std::string Sort::details() const {
  std::string s = "[";
  for (size_t i = 0; i < keys_.size(); ++i)
    s += (i ? ", " : "") + keys_[i].expr->to_string() + (keys_[i].ascending ? " ASC" : " DESC") +
         (keys_[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  s += "]";
  if (limit_ >= 0) s += ", limit=" + std::to_string(limit_);
  if (offset_ > 0) s += ", offset=" + std::to_string(offset_);
  return s;
}

std::unique_ptr<LocalSinkState> Sort::open_local(ExecContext&) { return std::make_unique<LocalBatches>(); }

void Sort::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  if (batch.num_rows == 0) return;
  // Evaluate the keys once per batch and carry them as extra columns.
  size_t width = batch.columns.size();
  for (auto& k : keys_) batch.columns.push_back(evaluate(*k.expr, batch, ctx.eval));
  (void)width;
  static_cast<LocalBatches&>(local).batches.push_back(std::move(batch));
}

void Sort::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<LocalBatches&>(local).batches) input_.push_back(std::move(b));
}

void Sort::finalize(ExecContext& ctx) {
  output_.clear();
  if (input_.empty()) return;
  // Keep input order deterministic (by source index) before sorting, so ties are stable
  // across runs.
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
  size_t total_cols = input_[0].columns.size();
  Batch all = concat_batches(input_, total_cols);
  input_.clear();
  size_t width = total_cols - keys_.size();
  std::vector<ColumnPtr> key_cols;
  for (size_t k = 0; k < keys_.size(); ++k) key_cols.push_back(all.columns[width + k]);
  int64_t n = all.num_rows;
  std::vector<NormalizedKeySpec> specs;
  for (size_t k = 0; k < keys_.size(); ++k) specs.push_back({key_cols[k]->type(), keys_[k].ascending, keys_[k].nulls_first});
  // A top-N with an offset sorts the first offset + limit rows, then skips the offset.
  const int64_t first = limit_ < 0 ? -1 : (offset_ > INT64_MAX - limit_ ? INT64_MAX : offset_ + limit_);
  std::vector<int32_t> idx = sort_order(specs, key_cols, n, first);
  const int64_t skip = std::min<int64_t>(offset_, static_cast<int64_t>(idx.size()));
  n = static_cast<int64_t>(idx.size()) - skip;
  all.columns.resize(width);
  ctx.check_cancelled();
  // The output batches are gathered on all threads.
  output_.resize(static_cast<size_t>((n + kBatchRows - 1) / kBatchRows));
  ThreadPool::global().parallel_run(output_.size(), [&](size_t b) {
    const int64_t off = static_cast<int64_t>(b) * kBatchRows;
    output_[b] = gather_batch(all, idx.data() + skip + off, std::min(kBatchRows, n - off));
  });
}

std::unique_ptr<SourceState> Sort::open_source(ExecContext&) const { return std::make_unique<BatchListSource>(); }

bool Sort::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t Sort::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

}  // namespace ember::exec
