// WindowGroupLimit: the rows are numbered by partition and grouped partition by partition; in
// each partition a selection (nth_element) finds the k smallest (order key, row) entries, or the
// k-th smallest distinct key for dense_rank, and the rows within those bounds go on, in input
// order. Partitions are spread over threads by the hash of their key, so no lock is shared.

#include "exec/window_group_limit.h"

#include <algorithm>
#include <string_view>

#include "common/thread_pool.h"
#include "exec/group_keys.h"
#include "exec/sort_keys.h"

namespace ember::exec {

namespace {
struct LocalBatches : LocalSinkState {
  std::vector<Batch> batches;
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
  bool use_packed = false;
  if (one_partition) {
    // No PARTITION BY: every row is in the one partition (hash 0, one thread).
  } else {
    if (encoder.can_pack() || encoder.can_pack_short_strings()) {
      packed.resize(static_cast<size_t>(n));
      use_packed = encoder.try_encode_packed(part_cols, n, packed.data());
    }
    if (use_packed) {
      for (int64_t i = 0; i < n; ++i) hashes[i] = hash_packed(packed[i]);
    } else {
      packed.clear();
      encoder.encode(part_cols, n, arena, offsets, lengths);
      for (int64_t i = 0; i < n; ++i) hashes[i] = hash_bytes(arena.data() + offsets[i], lengths[i]);
    }
  }
  auto same_byte_key = [&](int64_t a, int64_t b) {
    if (one_partition) return true;
    return std::string_view(arena.data() + offsets[a], lengths[a]) ==
           std::string_view(arena.data() + offsets[b], lengths[b]);
  };
  ctx.check_cancelled();

  ThreadPool& pool = ThreadPool::global();
  const size_t threads = std::max<size_t>(1, std::min<size_t>(pool.size() + 1, static_cast<size_t>(n / 4096 + 1)));
  std::vector<uint8_t> keep(static_cast<size_t>(n), 0);
  const size_t k = static_cast<size_t>(limit_);
  // The thread of a partition: the high bits of its hash scaled to [0, threads) (the slots
  // below take the low bits).
  auto owner = [threads](uint64_t h) {
    return static_cast<size_t>((static_cast<unsigned __int128>(h) * threads) >> 64);
  };
  pool.parallel_run(threads, [&](size_t t) {
    // This thread's rows (those whose partition hashes to it), numbered by partition through an
    // open-addressing table; a slot holds the packed key itself (the lookup touches one cache
    // line, asked for some rows ahead), byte keys are compared with the partition's first row.
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < n; ++i)
      if (owner(hashes[static_cast<size_t>(i)]) == t) rows.push_back(i);
    std::vector<uint32_t> part_of(rows.size());
    std::vector<int64_t> first_row;
    struct Slot {
      PackedKey key;
      uint64_t hash;
      int64_t part;  // -1: empty
    };
    size_t capacity = 1024;
    while (capacity < rows.size() / 4) capacity *= 2;
    std::vector<Slot> slots(capacity, Slot{0, 0, -1});
    auto home = [&](uint64_t h) { return h & (slots.size() - 1); };
    constexpr size_t kAhead = 16;
    for (size_t r = 0; r < rows.size(); ++r) {
      if (r + kAhead < rows.size()) __builtin_prefetch(&slots[home(hashes[static_cast<size_t>(rows[r + kAhead])])]);
      const int64_t i = rows[r];
      const uint64_t h = hashes[static_cast<size_t>(i)];
      const PackedKey key = use_packed ? packed[static_cast<size_t>(i)] : PackedKey{0};
      size_t pos = home(h);
      for (;;) {
        Slot& slot = slots[pos];
        if (slot.part < 0) {
          slot = Slot{key, h, static_cast<int64_t>(first_row.size())};
          first_row.push_back(i);
          break;
        }
        if (slot.hash == h && slot.key == key &&
            (use_packed || same_byte_key(first_row[static_cast<size_t>(slot.part)], i)))
          break;
        pos = (pos + 1) & (slots.size() - 1);
      }
      part_of[r] = static_cast<uint32_t>(slots[pos].part);
      if (first_row.size() * 2 > slots.size()) {
        std::vector<Slot> bigger(slots.size() * 2, Slot{0, 0, -1});
        for (const Slot& s : slots) {
          if (s.part < 0) continue;
          size_t p = s.hash & (bigger.size() - 1);
          while (bigger[p].part >= 0) p = (p + 1) & (bigger.size() - 1);
          bigger[p] = s;
        }
        slots.swap(bigger);
      }
    }
    // The rows' entries grouped by partition (a counting sort), each partition in row order.
    const size_t parts = first_row.size();
    std::vector<size_t> start(parts + 1, 0);
    for (uint32_t p : part_of) ++start[p + 1];
    for (size_t p = 0; p < parts; ++p) start[p + 1] += start[p];
    std::vector<SortEntry> grouped(rows.size());
    {
      std::vector<size_t> at(start.begin(), start.end() - 1);
      for (size_t r = 0; r < rows.size(); ++r) grouped[at[part_of[r]]++] = entries[static_cast<size_t>(rows[r])];
    }
    std::vector<NormalizedKey> distinct;
    for (size_t p = 0; p < parts; ++p) {
      SortEntry* begin = grouped.data() + start[p];
      SortEntry* end = grouped.data() + start[p + 1];
      const size_t size = static_cast<size_t>(end - begin);
      if (size <= k) {
        // Every row of a partition of at most k rows passes any of the three filters.
        for (SortEntry* e = begin; e != end; ++e) keep[e->row] = 1;
        continue;
      }
      if (rank_ == Rank::kRowNumber) {
        // Exactly the k first rows in (key, row) order: the rows the Window, sorting stably,
        // numbers 1..k.
        std::nth_element(begin, begin + (k - 1), end);
        for (SortEntry* e = begin; e != begin + k; ++e) keep[e->row] = 1;
        continue;
      }
      // rank <= k: no more than k-1 rows strictly before, i.e. a key up to the k-th smallest
      // key; dense_rank <= k: a key up to the k-th smallest distinct key.
      NormalizedKey bound;
      if (rank_ == Rank::kRank) {
        std::nth_element(begin, begin + (k - 1), end);
        bound = begin[k - 1].key;
      } else {
        distinct.clear();
        for (SortEntry* e = begin; e != end; ++e) distinct.push_back(e->key);
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        bound = distinct.size() <= k ? distinct.back() : distinct[k - 1];
      }
      for (SortEntry* e = begin; e != end; ++e) keep[e->row] = e->key <= bound;
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
