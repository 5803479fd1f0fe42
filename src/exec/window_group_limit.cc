// WindowGroupLimit: each batch's rows are offered to their partition's candidates as they come
// (PartitionTopRows); the rows taken in are copied out, so a thread holds the values of its
// candidates and of the rows dropped since its last compaction only. At
// finalize the threads' candidates merge into one table and leave in input order.

#include "exec/window_group_limit.h"

#include <algorithm>

#include "common/error.h"
#include "common/thread_pool.h"

namespace ember::exec {

namespace {

const char* rank_name(WindowGroupLimit::Rank r) {
  switch (r) {
    case WindowGroupLimit::Rank::kRowNumber: return "row_number()";
    case WindowGroupLimit::Rank::kRank: return "rank()";
    case WindowGroupLimit::Rank::kDenseRank: return "dense_rank()";
  }
  return "";
}

std::vector<TypePtr> types_of(const std::vector<PhysExprPtr>& exprs) {
  std::vector<TypePtr> types;
  for (auto& e : exprs) types.push_back(e->type);
  return types;
}

}  // namespace

struct WindowGroupLimit::Local : LocalSinkState {
  Local(Rank rank, int64_t limit, bool packed) : top(rank, limit, packed) {}
  PartitionTopRows top;
  /// The rows holding the candidates' values (`held` numbers them across the batches), and
  /// rows of candidates since dropped.
  std::vector<Batch> held;
  int64_t held_rows = 0;

  /// Copies the candidates' rows into one batch, dropping the others.
  void compact() {
    const Batch all = held.size() == 1 ? held[0] : concat_batches(held, held[0].columns.size());
    std::vector<int32_t> rows;
    rows.reserve(static_cast<size_t>(top.size()));
    for (uint32_t p = 0; p < top.partitions(); ++p)
      for (auto& c : top.candidates(p)) {
        rows.push_back(static_cast<int32_t>(c.held));
        c.held = static_cast<uint32_t>(rows.size() - 1);
      }
    held = {gather_batch(all, rows.data(), static_cast<int64_t>(rows.size()))};
    held_rows = static_cast<int64_t>(rows.size());
  }
};

WindowGroupLimit::WindowGroupLimit(std::vector<PhysExprPtr> partition, std::vector<SortKey> order,
                                   Rank rank, int64_t limit)
    : partition_(std::move(partition)),
      order_(std::move(order)),
      rank_(rank),
      limit_(limit),
      encoder_(types_of(partition_)),
      packed_keys_(partition_.empty() || encoder_.can_pack()) {}

WindowGroupLimit::~WindowGroupLimit() = default;

std::string WindowGroupLimit::details() const {
  std::string s = "[";
  for (size_t i = 0; i < partition_.size(); ++i) s += (i ? ", " : "") + partition_[i]->to_string();
  s += "], [";
  for (size_t i = 0; i < order_.size(); ++i)
    s += (i ? ", " : "") + order_[i].expr->to_string() + (order_[i].ascending ? " ASC" : " DESC") +
         (order_[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  return s + "], " + rank_name(rank_) + ", " + std::to_string(limit_);
}

std::unique_ptr<LocalSinkState> WindowGroupLimit::open_local(ExecContext&) {
  return std::make_unique<Local>(rank_, limit_, packed_keys_);
}

void WindowGroupLimit::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  const int64_t n = batch.num_rows;
  if (n == 0) return;
  Local& l = static_cast<Local&>(local);

  // Order keys: equal keys are peers (ties) of the window's ORDER BY.
  std::vector<ColumnPtr> order_cols;
  std::vector<NormalizedKeySpec> specs;
  for (auto& o : order_) {
    order_cols.push_back(evaluate(*o.expr, batch, ctx.eval));
    specs.push_back({order_cols.back()->type(), o.ascending, o.nulls_first});
  }
  std::vector<NormalizedKey> keys(static_cast<size_t>(n));
  encode_normalized_keys(specs, order_cols, 0, n, keys.data());

  // Partition keys, as grouping compares them, and their hashes (no PARTITION BY: one
  // partition, key 0).
  std::vector<ColumnPtr> part_cols;
  for (auto& p : partition_) part_cols.push_back(evaluate(*p, batch, ctx.eval));
  std::vector<PackedKey> packed;
  std::string arena;
  std::vector<uint32_t> offsets, lengths;
  std::vector<uint64_t> hashes(static_cast<size_t>(n), 0);
  if (!part_cols.empty() && packed_keys_) {
    packed.resize(static_cast<size_t>(n));
    encoder_.encode_packed(part_cols, n, packed.data());
    for (int64_t i = 0; i < n; ++i) hashes[static_cast<size_t>(i)] = hash_packed(packed[static_cast<size_t>(i)]);
  } else if (!part_cols.empty()) {
    encoder_.encode(part_cols, n, arena, offsets, lengths);
    for (int64_t i = 0; i < n; ++i)
      hashes[static_cast<size_t>(i)] = hash_bytes(arena.data() + offsets[static_cast<size_t>(i)], lengths[static_cast<size_t>(i)]);
  }

  // A row taken in is copied out at once, even if a later row of the batch drops it.
  std::vector<int32_t> rows;
  constexpr int64_t kAhead = 32;
  for (int64_t i = 0; i < n; ++i) {
    const size_t r = static_cast<size_t>(i);
    if (i + kAhead < n) l.top.prefetch(hashes[r + kAhead]);
    if (i + kAhead / 2 < n) l.top.prefetch_candidates(hashes[r + kAhead / 2], keys[r + kAhead / 2]);
    const PartitionTopRows::Candidate c{keys[r], batch.index, static_cast<uint32_t>(i),
                                        static_cast<uint32_t>(l.held_rows + static_cast<int64_t>(rows.size()))};
    const uint32_t part =
        packed_keys_ ? l.top.offer(hashes[r], packed.empty() ? PackedKey{0} : packed[r], {}, c)
                     : l.top.offer(hashes[r], 0, std::string_view(arena.data() + offsets[r], lengths[r]), c);
    if (part != PartitionTopRows::kNone) rows.push_back(static_cast<int32_t>(i));
  }
  ctx.check_cancelled();
  if (rows.empty()) return;
  l.held.push_back(gather_batch(batch, rows.data(), static_cast<int64_t>(rows.size())));
  l.held_rows += static_cast<int64_t>(rows.size());
  EMBER_CHECK(l.held_rows < static_cast<int64_t>(UINT32_MAX), "WindowGroupLimit: too many rows held");
  // Rows of dropped candidates pile up; once they outnumber the candidates, they go.
  if (l.held_rows > 2 * l.top.size() + kBatchRows) l.compact();
}

void WindowGroupLimit::combine(LocalSinkState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  auto moved = std::make_unique<Local>(std::move(l));
  std::lock_guard<std::mutex> lock(mu_);
  locals_.push_back(std::move(moved));
}

void WindowGroupLimit::finalize(ExecContext& ctx) {
  output_.clear();
  std::vector<std::unique_ptr<Local>> locals;
  locals.swap(locals_);
  // Every thread's held rows in turn: a candidate of thread i is at held + offsets[i].
  std::vector<uint32_t> offsets;
  std::vector<Batch> held;
  int64_t held_rows = 0;
  for (auto& l : locals) {
    offsets.push_back(static_cast<uint32_t>(held_rows));
    held_rows += l->held_rows;
    for (auto& b : l->held) held.push_back(std::move(b));
  }
  if (held_rows == 0) return;
  // The threads' candidates merge partition by partition, the partitions sharded by key hash
  // over threads.
  std::vector<std::unique_ptr<PartitionTopRows>> merged;
  std::vector<const PartitionTopRows*> tables;
  if (locals.size() == 1) {
    tables.push_back(&locals[0]->top);
  } else {
    ThreadPool& pool = ThreadPool::global();
    const size_t shards = pool.size() + 1;
    merged.resize(shards);
    pool.parallel_run(shards, [&](size_t t) {
      merged[t] = std::make_unique<PartitionTopRows>(rank_, limit_, packed_keys_);
      for (size_t i = 0; i < locals.size(); ++i) merged[t]->merge(locals[i]->top, offsets[i], t, shards);
    });
    for (auto& m : merged) tables.push_back(m.get());
  }
  ctx.check_cancelled();
  // The candidates in input order.
  struct Out {
    int64_t batch;
    uint32_t row;
    uint32_t held;
  };
  std::vector<Out> out;
  for (const PartitionTopRows* t : tables)
    for (uint32_t p = 0; p < t->partitions(); ++p)
      for (const auto& c : t->candidates(p)) out.push_back({c.batch, c.row, c.held});
  std::sort(out.begin(), out.end(),
            [](const Out& a, const Out& b) { return a.batch != b.batch ? a.batch < b.batch : a.row < b.row; });
  std::vector<int32_t> rows;
  rows.reserve(out.size());
  for (const Out& o : out) rows.push_back(static_cast<int32_t>(o.held));
  const Batch values = held.size() == 1 ? held[0] : concat_batches(held, held[0].columns.size());
  const int64_t m = static_cast<int64_t>(rows.size());
  for (int64_t off = 0; off < m; off += kBatchRows)
    output_.push_back(gather_batch(values, rows.data() + off, std::min(kBatchRows, m - off)));
}

std::unique_ptr<SourceState> WindowGroupLimit::open_source(ExecContext&) const {
  return std::make_unique<BatchListSource>();
}

bool WindowGroupLimit::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t WindowGroupLimit::max_parallelism(const SourceState&) const {
  return std::max<size_t>(1, output_.size());
}

}  // namespace ember::exec
