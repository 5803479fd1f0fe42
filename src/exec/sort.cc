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
  std::vector<Batch> input = std::move(input_);
  input_.clear();
  if (!within_partitions_) {
    output_ = sort_rows(std::move(input), ctx);
    return;
  }
  std::stable_sort(input.begin(), input.end(), [](const Batch& a, const Batch& b) { return a.partition < b.partition; });
  std::vector<std::vector<Batch>> partitions;
  for (size_t i = 0; i < input.size(); ++i) {
    if (i == 0 || input[i].partition != input[i - 1].partition) partitions.emplace_back();
    partitions.back().push_back(std::move(input[i]));
  }
  std::vector<std::vector<Batch>> sorted(partitions.size());
  ThreadPool::global().parallel_run(partitions.size(), [&](size_t p) {
    const int64_t partition = partitions[p][0].partition;
    sorted[p] = sort_rows(std::move(partitions[p]), ctx);
    int64_t row = 0;
    for (Batch& b : sorted[p]) {
      b.partition = partition;
      b.partition_row = row;
      row += b.num_rows;
    }
  });
  for (auto& batches : sorted)
    for (Batch& b : batches) output_.push_back(std::move(b));
}

std::vector<Batch> Sort::sort_rows(std::vector<Batch> input, ExecContext& ctx) const {
  std::vector<Batch> output;
  const size_t total_cols = input[0].columns.size();
  const size_t width = total_cols - keys_.size();
  // The key columns are concatenated for the sort; the others only when many rows leave.
  std::vector<ColumnPtr> key_cols;
  for (size_t k = 0; k < keys_.size(); ++k) {
    std::vector<ColumnPtr> parts;
    for (const Batch& b : input) parts.push_back(b.columns[width + k]);
    key_cols.push_back(parts.size() == 1 ? parts[0] : concat(parts));
  }
  int64_t n = 0;
  for (const Batch& b : input) n += b.num_rows;
  const int64_t total = n;
  std::vector<NormalizedKeySpec> specs;
  for (size_t k = 0; k < keys_.size(); ++k) specs.push_back({key_cols[k]->type(), keys_[k].ascending, keys_[k].nulls_first});
  // A top-N with an offset sorts the first offset + limit rows, then skips the offset.
  const int64_t first = limit_ < 0 ? -1 : (offset_ > INT64_MAX - limit_ ? INT64_MAX : offset_ + limit_);
  std::vector<int32_t> idx = sort_order(specs, key_cols, n, first);
  key_cols.clear();
  const int64_t skip = std::min<int64_t>(offset_, static_cast<int64_t>(idx.size()));
  n = static_cast<int64_t>(idx.size()) - skip;
  ctx.check_cancelled();
  if (n <= kBatchRows && n < total / 8) {
    // Few rows leave (a top-N, the end of an offset): each is copied from its batch, so the
    // input is never concatenated.
    std::vector<int64_t> start = {0};
    for (const Batch& b : input) start.push_back(start.back() + b.num_rows);
    std::vector<std::unique_ptr<ColumnBuilder>> builders;
    for (size_t c = 0; c < width; ++c) builders.push_back(std::make_unique<ColumnBuilder>(input[0].columns[c]->type(), n));
    for (int64_t r = 0; r < n; ++r) {
      const int64_t row = idx[static_cast<size_t>(skip + r)];
      const size_t b = static_cast<size_t>(std::upper_bound(start.begin(), start.end(), row) - start.begin() - 1);
      for (size_t c = 0; c < width; ++c) builders[c]->append_from(*input[b].columns[c], row - start[b]);
    }
    Batch out;
    out.num_rows = n;
    for (auto& builder : builders) out.columns.push_back(builder->finish());
    if (n > 0) output.push_back(std::move(out));
    return output;
  }
  Batch all = concat_batches(input, width);
  input.clear();
  all.columns.resize(width);
  // The output batches are gathered on all threads.
  output.resize(static_cast<size_t>((n + kBatchRows - 1) / kBatchRows));
  ThreadPool::global().parallel_run(output.size(), [&](size_t b) {
    const int64_t off = static_cast<int64_t>(b) * kBatchRows;
    output[b] = gather_batch(all, idx.data() + skip + off, std::min(kBatchRows, n - off));
  });
  return output;
}

std::unique_ptr<SourceState> Sort::open_source(ExecContext&) const { return std::make_unique<BatchListSource>(); }

bool Sort::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return within_partitions_ ? emit_batches(output_, state, emit) : emit_from_list(output_, state, emit);
}

size_t Sort::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

int64_t Sort::output_partitions() const {
  return within_partitions_ && !children.empty() ? children[0]->output_partitions() : 1;
}

}  // namespace ember::exec
