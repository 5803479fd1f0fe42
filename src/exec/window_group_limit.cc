// WindowGroupLimit: one pass over the rows keeps, per partition, the k smallest order keys in a
// bounded heap (k distinct keys for dense_rank); the rows within those bounds go on, in input
// order. Partitions are spread over threads by the hash of their key, so no lock is shared.

#include "exec/window_group_limit.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

#include "common/thread_pool.h"
#include "exec/group_keys.h"
#include "exec/sort_keys.h"

namespace ember::exec {

namespace {
struct LocalBatches : LocalSinkState {
  std::vector<Batch> batches;
};

/// What one partition keeps: row_number and rank, the k smallest (key, row) entries as a max
/// heap; dense_rank, the k smallest distinct keys.
struct GroupState {
  std::vector<SortEntry> heap;
  std::set<NormalizedKey> distinct;
};

const char* rank_name(WindowGroupLimit::Rank r) {
  switch (r) {
    case WindowGroupLimit::Rank::kRowNumber: return "row_number()";
    case WindowGroupLimit::Rank::kRank: return "rank()";
    case WindowGroupLimit::Rank::kDenseRank: return "dense_rank()";
  }
  return "";
}
}  // namespace

WindowGroupLimit::WindowGroupLimit(std::vector<PhysExprPtr> partition, std::vector<SortKey> order,
                                   Rank rank, int64_t limit)
    : partition_(std::move(partition)), order_(std::move(order)), rank_(rank), limit_(limit) {}

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
  return std::make_unique<LocalBatches>();
}

void WindowGroupLimit::sink(LocalSinkState& local, Batch batch, ExecContext&) {
  if (batch.num_rows == 0) return;
  static_cast<LocalBatches&>(local).batches.push_back(std::move(batch));
}

void WindowGroupLimit::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<LocalBatches&>(local).batches) input_.push_back(std::move(b));
}

void WindowGroupLimit::finalize(ExecContext& ctx) {
  if (input_.empty()) return;
  std::stable_sort(input_.begin(), input_.end(),
                   [](const Batch& a, const Batch& b) { return a.index < b.index; });
  Batch all = concat_batches(input_, input_[0].columns.size());
  input_.clear();
  const int64_t n = all.num_rows;

  std::vector<ColumnPtr> part_cols, order_cols;
  std::vector<TypePtr> part_types;
  std::vector<NormalizedKeySpec> specs;
  for (auto& p : partition_) {
    part_cols.push_back(evaluate(*p, all, ctx.eval));
    part_types.push_back(part_cols.back()->type());
  }
  for (auto& o : order_) {
    order_cols.push_back(evaluate(*o.expr, all, ctx.eval));
    specs.push_back({order_cols.back()->type(), o.ascending, o.nulls_first});
  }
  // Order keys: equal keys are peers (ties) of the window's ORDER BY.
  std::vector<SortEntry> entries = normalized_entries(specs, order_cols, n);

  // Partition keys, as grouping compares them, and their hashes.
  KeyEncoder encoder(part_types);
  std::vector<PackedKey> packed;
  std::string arena;
  std::vector<uint32_t> offsets, lengths;
  std::vector<uint64_t> hashes(static_cast<size_t>(n));
  const bool one_partition = part_cols.empty();
  if (one_partition) {
    // No PARTITION BY: every row is in the one partition (hash 0, one thread).
  } else if (encoder.can_pack()) {
    packed.resize(static_cast<size_t>(n));
    encoder.encode_packed(part_cols, n, packed.data());
    for (int64_t i = 0; i < n; ++i) hashes[i] = hash_packed(packed[i]);
  } else {
    encoder.encode(part_cols, n, arena, offsets, lengths);
    for (int64_t i = 0; i < n; ++i) hashes[i] = hash_bytes(arena.data() + offsets[i], lengths[i]);
  }
  ctx.check_cancelled();

  ThreadPool& pool = ThreadPool::global();
  const size_t threads = std::max<size_t>(1, std::min<size_t>(pool.size() + 1, static_cast<size_t>(n / 4096 + 1)));
  std::vector<uint8_t> keep(static_cast<size_t>(n), 0);
  const size_t k = static_cast<size_t>(limit_);
  pool.parallel_run(threads, [&](size_t t) {
    std::vector<GroupState> groups;
    std::vector<uint32_t> slot_of;  // this thread's rows, in row order: their group
    std::unordered_map<PackedKey, uint32_t, decltype(&hash_packed)> by_packed(16, &hash_packed);
    std::unordered_map<std::string_view, uint32_t> by_bytes;
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < n; ++i) {
      if (hashes[i] % threads != t) continue;
      uint32_t slot = static_cast<uint32_t>(groups.size());
      bool fresh;
      if (one_partition) {
        slot = 0, fresh = groups.empty();
      } else if (encoder.can_pack()) {
        auto [it, inserted] = by_packed.emplace(packed[i], slot);
        slot = it->second, fresh = inserted;
      } else {
        auto [it, inserted] = by_bytes.emplace(std::string_view(arena.data() + offsets[i], lengths[i]), slot);
        slot = it->second, fresh = inserted;
      }
      if (fresh) groups.emplace_back();
      rows.push_back(i);
      slot_of.push_back(slot);
      GroupState& g = groups[slot];
      const SortEntry& e = entries[static_cast<size_t>(i)];
      if (rank_ == Rank::kDenseRank) {
        if (g.distinct.size() < k) {
          g.distinct.insert(e.key);
        } else if (e.key < *g.distinct.rbegin() && g.distinct.insert(e.key).second) {
          g.distinct.erase(std::prev(g.distinct.end()));
        }
      } else if (g.heap.size() < k) {
        g.heap.push_back(e);
        std::push_heap(g.heap.begin(), g.heap.end());
      } else if (e < g.heap.front()) {
        std::pop_heap(g.heap.begin(), g.heap.end());
        g.heap.back() = e;
        std::push_heap(g.heap.begin(), g.heap.end());
      }
    }
    if (rank_ == Rank::kRowNumber) {
      // Exactly the k first rows of each partition in (key, row) order: the rows the Window,
      // sorting stably, numbers 1..k.
      for (auto& g : groups)
        for (auto& e : g.heap) keep[e.row] = 1;
      return;
    }
    // rank <= k: no more than k-1 rows strictly before, i.e. a key up to the k-th smallest key;
    // dense_rank <= k: a key up to the k-th smallest distinct key. Fewer: every row passes.
    for (size_t r = 0; r < rows.size(); ++r) {
      const GroupState& g = groups[slot_of[r]];
      const NormalizedKey key = entries[static_cast<size_t>(rows[r])].key;
      bool pass = rank_ == Rank::kRank ? g.heap.size() < k || key <= g.heap.front().key
                                       : g.distinct.size() < k || key <= *g.distinct.rbegin();
      keep[static_cast<size_t>(rows[r])] = pass;
    }
  });
  ctx.check_cancelled();

  std::vector<int32_t> kept;
  for (int64_t i = 0; i < n; ++i)
    if (keep[static_cast<size_t>(i)]) kept.push_back(static_cast<int32_t>(i));
  const int64_t m = static_cast<int64_t>(kept.size());
  for (int64_t off = 0; off < m; off += kBatchRows)
    output_.push_back(gather_batch(all, kept.data() + off, std::min(kBatchRows, m - off)));
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
