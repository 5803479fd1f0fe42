#pragma once

// PartitionTopRows: the rows of each window partition that can pass a filter on a rank-like
// function (`row_number() <= k`, `rank() <= k`, `dense_rank() <= k`), kept while rows stream
// by, so that no partition's rows are ever all held or sorted.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exec/group_keys.h"
#include "exec/sort_keys.h"

namespace ember::exec {

class PartitionTopRows {
 public:
  enum class Rank { kRowNumber, kRank, kDenseRank };

  /// A row that may pass: its order key (equal keys are peers), its place in the input (batch
  /// index, then row: input order, which breaks ties between peers as a stable sort would), and
  /// where the caller holds its values.
  struct Candidate {
    NormalizedKey key;
    int64_t batch;
    uint32_t row;
    uint32_t held;
    bool operator<(const Candidate& o) const {
      if (key != o.key) return key < o.key;
      return batch != o.batch ? batch < o.batch : row < o.row;
    }
  };

  /// `limit` >= 1. Partition keys are PackedKeys when `packed_keys`, else byte strings
  /// (KeyEncoder's encodings either way).
  PartitionTopRows(Rank rank, int64_t limit, bool packed_keys);

  /// Offers a row of the partition whose key this is (partitions are numbered from 0 in order
  /// of appearance). `hash` is the key's hash (hash_packed or hash_bytes); `bytes` is read only
  /// without packed keys, `key` only with them. Returns the partition's number when the row is
  /// now one of its candidates, else kNone; rows it pushes past the limit are dropped. The
  /// candidates of a partition after any sequence of offers are the rows passing the filter
  /// among all rows offered, whatever their order.
  uint32_t offer(uint64_t hash, PackedKey key, std::string_view bytes, const Candidate& c);
  /// Asks for the table slot of a key about to be offered (some rows ahead).
  void prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask_]); }
  /// Asks for the candidates of the partition of a key about to be offered (fewer rows ahead,
  /// its slot in cache by then), unless its slot shows that the row will be turned away.
  void prefetch_candidates(uint64_t hash, NormalizedKey order_key) const {
    const Slot& s = slots_[hash & mask_];
    if (s.hash == hash && s.part != kNone && !(s.full && order_key > s.bound)) __builtin_prefetch(pool_.data() + s.begin);
  }
  static constexpr uint32_t kNone = UINT32_MAX;

  /// Offers every candidate of `other` (built with the same rank, limit and key form) to the
  /// partition of its key here, its `held` increased by `held_offset`; only the partitions of
  /// shard `shard` of `shards` (by key hash, shard_of), so that shards merge on threads of
  /// their own.
  void merge(const PartitionTopRows& other, uint32_t held_offset, size_t shard = 0, size_t shards = 1);
  static size_t shard_of(uint64_t hash, size_t shards) {
    return static_cast<size_t>((static_cast<unsigned __int128>(hash) * shards) >> 64);
  }

  size_t partitions() const { return parts_.size(); }
  /// The candidates of a partition, in (key, batch, row) order; the caller may rewrite `held`.
  std::span<Candidate> candidates(uint32_t part) {
    const Slot& s = slots_[parts_[part].slot];
    return {pool_.data() + s.begin, s.size};
  }
  std::span<const Candidate> candidates(uint32_t part) const {
    const Slot& s = slots_[parts_[part].slot];
    return {pool_.data() + s.begin, s.size};
  }
  /// Candidates over all partitions.
  int64_t size() const { return size_; }

 private:
  /// A partition, in one cache line: its key, what turns most rows away without reading its
  /// candidates (once `full`, a row whose key is above `bound` cannot pass), and its candidates
  /// at pool_[begin, begin + size), with room up to begin + capacity (a partition that outgrows
  /// its room moves to the pool's end).
  struct alignas(64) Slot {
    PackedKey key;
    NormalizedKey bound;
    uint64_t hash;
    uint64_t begin;
    uint32_t part;  // kNone: an empty slot
    uint32_t size;
    uint32_t capacity;
    uint32_t full;
  };
  /// The slot of a partition and, for byte keys, the key in arena_.
  struct Part {
    size_t slot = 0;
    uint32_t offset = 0, length = 0;
  };
  /// The slot of a key, a new partition's when the key is new.
  Slot& slot(uint64_t hash, PackedKey key, std::string_view bytes);
  /// How many of a partition's rows in order pass, by the rank function's rule.
  size_t kept(std::span<const Candidate> rows) const;
  /// Whether a row with a key above the largest of these rows cannot pass.
  bool full(std::span<const Candidate> rows) const;
  void grow();

  Rank rank_;
  size_t limit_;
  bool packed_;
  std::vector<Slot> slots_;
  uint64_t mask_;
  std::vector<Part> parts_;
  std::vector<Candidate> pool_;
  std::string arena_;
  int64_t size_ = 0;
};

}  // namespace ember::exec
