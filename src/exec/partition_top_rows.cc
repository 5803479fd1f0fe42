// PartitionTopRows: an open-addressing table of partitions (a slot holds the packed key or the
// byte key's hash and what turns most rows away, so most offers touch one cache line), and per
// partition its candidates in (key, batch, row) order in one pool. A row is offered once; the filter's rule
// then drops what falls past the limit. Dropping is final: a row past the limit stays past it
// whatever rows come later, which is why the candidates do not depend on the order of offers.

#include "exec/partition_top_rows.h"

#include <algorithm>

#include "common/error.h"

namespace ember::exec {

PartitionTopRows::PartitionTopRows(Rank rank, int64_t limit, bool packed_keys)
    : rank_(rank), limit_(static_cast<size_t>(limit)), packed_(packed_keys) {
  EMBER_CHECK(limit >= 1, "PartitionTopRows: the limit must be at least 1");
  slots_.assign(1024, Slot{0, 0, 0, 0, kNone, 0, 0, 0});
  mask_ = slots_.size() - 1;
}

PartitionTopRows::Slot& PartitionTopRows::slot(uint64_t hash, PackedKey key, std::string_view bytes) {
  size_t pos = hash & mask_;
  for (;;) {
    Slot& s = slots_[pos];
    if (s.part == kNone) break;
    if (s.hash == hash && s.key == key) {
      if (packed_) return s;
      const Part& p = parts_[s.part];
      if (std::string_view(arena_.data() + p.offset, p.length) == bytes) return s;
    }
    pos = (pos + 1) & mask_;
  }
  EMBER_CHECK(parts_.size() < kNone, "PartitionTopRows: too many partitions");
  const uint32_t id = static_cast<uint32_t>(parts_.size());
  Part part;
  part.slot = pos;
  if (!packed_) {
    EMBER_CHECK(arena_.size() + bytes.size() <= UINT32_MAX, "PartitionTopRows: partition keys past 4 GiB");
    part.offset = static_cast<uint32_t>(arena_.size());
    part.length = static_cast<uint32_t>(bytes.size());
    arena_.append(bytes);
  }
  parts_.push_back(part);
  slots_[pos] = Slot{key, 0, hash, 0, id, 0, 0, 0};
  if (parts_.size() * 2 <= slots_.size()) return slots_[pos];
  grow();
  return slots_[parts_[id].slot];
}

void PartitionTopRows::grow() {
  std::vector<Slot> bigger(slots_.size() * 2, Slot{0, 0, 0, 0, kNone, 0, 0, 0});
  const uint64_t mask = bigger.size() - 1;
  for (const Slot& s : slots_) {
    if (s.part == kNone) continue;
    size_t p = s.hash & mask;
    while (bigger[p].part != kNone) p = (p + 1) & mask;
    bigger[p] = s;
    parts_[s.part].slot = p;
  }
  slots_.swap(bigger);
  mask_ = mask;
}

size_t PartitionTopRows::kept(std::span<const Candidate> rows) const {
  const size_t n = rows.size();
  switch (rank_) {
    case Rank::kRowNumber:
      // The first k in (key, batch, row) order: the rows a stable sort numbers 1..k.
      return std::min(n, limit_);
    case Rank::kRank: {
      // rank <= k: fewer than k rows strictly before, so the k-th row's peers stay too.
      if (n <= limit_) return n;
      size_t j = limit_;
      while (j < n && rows[j].key == rows[limit_ - 1].key) ++j;
      return j;
    }
    case Rank::kDenseRank: {
      // dense_rank <= k: among the k smallest distinct keys.
      size_t distinct = 0;
      for (size_t j = 0; j < n; ++j)
        if ((j == 0 || rows[j].key != rows[j - 1].key) && ++distinct > limit_) return j;
      return n;
    }
  }
  return n;
}

bool PartitionTopRows::full(std::span<const Candidate> rows) const {
  // row_number and rank: a row past the largest key of k rows has at least k rows before it;
  // dense_rank: when those rows hold k distinct keys.
  if (rows.size() < limit_) return false;
  if (rank_ != Rank::kDenseRank) return true;
  size_t distinct = 1;
  for (size_t j = 1; j < rows.size(); ++j) distinct += rows[j].key != rows[j - 1].key;
  return distinct >= limit_;
}

uint32_t PartitionTopRows::offer(uint64_t hash, PackedKey key, std::string_view bytes, const Candidate& c) {
  Slot& s = slot(hash, key, bytes);
  if (s.full && c.key > s.bound) return kNone;
  if (s.size == s.capacity) {
    // Room for one more than the limit (an offer inserts, then drops), doubled past it by ties.
    const uint32_t capacity = std::max<uint32_t>(static_cast<uint32_t>(limit_) + 1, s.capacity * 2);
    const size_t begin = pool_.size();
    pool_.resize(begin + capacity);
    std::copy(pool_.begin() + static_cast<std::ptrdiff_t>(s.begin),
              pool_.begin() + static_cast<std::ptrdiff_t>(s.begin + s.size), pool_.begin() + static_cast<std::ptrdiff_t>(begin));
    s.begin = begin;
    s.capacity = capacity;
  }
  Candidate* rows = pool_.data() + s.begin;
  const size_t at = static_cast<size_t>(std::upper_bound(rows, rows + s.size, c) - rows);
  std::copy_backward(rows + at, rows + s.size, rows + s.size + 1);
  rows[at] = c;
  const size_t keep = kept({rows, s.size + 1});
  size_ += static_cast<int64_t>(keep) - static_cast<int64_t>(s.size);
  s.size = static_cast<uint32_t>(keep);
  s.bound = rows[keep - 1].key;
  s.full = full({rows, keep});
  return at < keep ? s.part : kNone;
}

void PartitionTopRows::merge(const PartitionTopRows& other, uint32_t held_offset, size_t shard, size_t shards) {
  for (const Part& p : other.parts_) {
    const Slot& from = other.slots_[p.slot];
    if (shards > 1 && shard_of(from.hash, shards) != shard) continue;
    const std::string_view bytes(other.arena_.data() + p.offset, p.length);
    for (Candidate c : other.candidates(from.part)) {
      c.held += held_offset;
      offer(from.hash, from.key, bytes, c);
    }
  }
}

}  // namespace ember::exec
