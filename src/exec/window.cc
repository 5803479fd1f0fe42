// The Window operator: collect, sort by partition and order keys, evaluate partitions in
// parallel chunks.

#include "exec/window.h"

#include <algorithm>
#include <numeric>

#include "common/thread_pool.h"
#include "exec/row_compare.h"
#include "exec/sort_keys.h"
#include "exec/window_functions.h"

namespace ember::exec {

namespace {
struct LocalBatches : LocalSinkState {
  std::vector<Batch> batches;
};

/// Rows per chunk a thread evaluates; chunks end at partition boundaries.
constexpr int64_t kChunkRows = 1 << 16;
}  // namespace

Window::Window(std::vector<PhysExprPtr> partition, std::vector<SortKey> order, std::vector<WindowCall> calls)
    : partition_(std::move(partition)), order_(std::move(order)), calls_(std::move(calls)) {}

std::string Window::details() const {
  std::string s = "[";
  for (size_t i = 0; i < calls_.size(); ++i) s += (i ? ", " : "") + calls_[i].display;
  s += "], [";
  for (size_t i = 0; i < partition_.size(); ++i) s += (i ? ", " : "") + partition_[i]->to_string();
  s += "], [";
  for (size_t i = 0; i < order_.size(); ++i)
    s += (i ? ", " : "") + order_[i].expr->to_string() + (order_[i].ascending ? " ASC" : " DESC") +
         (order_[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  return s + "]";
}

std::unique_ptr<LocalSinkState> Window::open_local(ExecContext&) { return std::make_unique<LocalBatches>(); }

void Window::sink(LocalSinkState& local, Batch batch, ExecContext&) {
  if (batch.num_rows == 0) return;
  static_cast<LocalBatches&>(local).batches.push_back(std::move(batch));
}

void Window::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<LocalBatches&>(local).batches) input_.push_back(std::move(b));
}

void Window::finalize(ExecContext& ctx) {
  if (input_.empty()) return;
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
  const size_t width = input_[0].columns.size();
  Batch all = concat_batches(input_, width);
  input_.clear();
  const int64_t n = all.num_rows;

  // Keys and arguments, evaluated once over all rows (input order).
  std::vector<ColumnPtr> part_cols, order_cols;
  std::vector<bool> asc, nulls_first, part_asc, part_nf;
  for (auto& p : partition_) {
    part_cols.push_back(evaluate(*p, all, ctx.eval));
    part_asc.push_back(true);
    part_nf.push_back(true);
  }
  for (auto& o : order_) {
    order_cols.push_back(evaluate(*o.expr, all, ctx.eval));
    asc.push_back(o.ascending);
    nulls_first.push_back(o.nulls_first);
  }
  std::vector<std::vector<ColumnPtr>> call_args(calls_.size());
  for (size_t c = 0; c < calls_.size(); ++c) {
    for (auto& a : calls_[c].args) call_args[c].push_back(evaluate(*a, all, ctx.eval));
    if (calls_[c].filter) call_args[c].push_back(evaluate(*calls_[c].filter, all, ctx.eval));
  }
  ctx.check_cancelled();

  RowComparator part_cmp(part_cols, part_asc, part_nf);
  RowComparator order_cmp(order_cols, asc, nulls_first);
  // Sorted by partition keys (any fixed order groups a partition's rows), then order keys.
  std::vector<NormalizedKeySpec> specs;
  std::vector<ColumnPtr> sort_cols;
  for (auto& c : part_cols) {
    specs.push_back({c->type(), true, true});
    sort_cols.push_back(c);
  }
  for (size_t k = 0; k < order_cols.size(); ++k) {
    specs.push_back({order_cols[k]->type(), asc[k], nulls_first[k]});
    sort_cols.push_back(order_cols[k]);
  }
  std::vector<int32_t> idx = stable_sort_order(specs, sort_cols, n);
  ctx.check_cancelled();

  // Partition and peer boundaries in sorted order, then chunks of whole partitions.
  std::vector<uint8_t> part_break(static_cast<size_t>(n), 0), peer_break(static_cast<size_t>(n), 0);
  std::vector<int64_t> chunk_starts{0};
  for (int64_t i = 0; i < n; ++i) {
    bool pb = i == 0 || (!part_cmp.empty() && part_cmp.compare(idx[i - 1], idx[i]) != 0);
    part_break[i] = pb;
    peer_break[i] = pb || (!order_cmp.empty() && order_cmp.compare(idx[i - 1], idx[i]) != 0);
    if (pb && i - chunk_starts.back() >= kChunkRows) chunk_starts.push_back(i);
  }
  chunk_starts.push_back(n);
  const size_t num_chunks = chunk_starts.size() - 1;

  std::vector<std::vector<Batch>> chunk_out(num_chunks);
  std::atomic<size_t> next{0};
  auto run_chunk = [&](size_t c) {
    const int64_t begin = chunk_starts[c], len = chunk_starts[c + 1] - begin;
    const int32_t* rows = idx.data() + begin;
    WindowChunk chunk;
    chunk.length = len;
    chunk.peer_break.assign(peer_break.begin() + begin, peer_break.begin() + begin + len);
    for (int64_t i = 0; i < len; ++i)
      if (part_break[begin + i]) chunk.partition_starts.push_back(i);
    chunk.partition_starts.push_back(len);
    if (!order_cols.empty()) {
      chunk.range_key = gather(*order_cols[0], rows, len);
      chunk.range_ascending = order_[0].ascending;
      chunk.range_nulls_first = order_[0].nulls_first;
    }
    Batch out = gather_batch(all, rows, len);
    for (size_t k = 0; k < calls_.size(); ++k) {
      std::vector<ColumnPtr> args;
      for (auto& a : call_args[k]) args.push_back(gather(*a, rows, len));
      out.columns.push_back(evaluate_window_call(calls_[k], args, chunk, ctx.eval));
      ctx.check_cancelled();
    }
    for (int64_t off = 0, sub = 0; off < len; off += kBatchRows, ++sub) {
      Batch piece = slice_batch(out, off, std::min(kBatchRows, len - off));
      piece.index = batch_index(static_cast<int64_t>(c), sub);
      chunk_out[c].push_back(std::move(piece));
    }
  };
  ThreadPool& pool = ThreadPool::global();
  size_t threads = std::max<size_t>(1, std::min(pool.size() + 1, num_chunks));
  pool.parallel_run(threads, [&](size_t) {
    for (size_t c = next.fetch_add(1); c < num_chunks; c = next.fetch_add(1)) run_chunk(c);
  });
  for (auto& v : chunk_out)
    for (auto& b : v) output_.push_back(std::move(b));
}

std::unique_ptr<SourceState> Window::open_source(ExecContext&) const { return std::make_unique<BatchListSource>(); }

bool Window::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t Window::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

}  // namespace ember::exec
