// PartitionTopRows against brute force: for row_number, rank and dense_rank over partitions
// with ties, the candidates after offering every row (in any order, on one table or on two
// tables merged shard by shard) are exactly the rows whose rank is within the limit.

#include "exec/partition_top_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

namespace ember::exec {
namespace {

using Rank = PartitionTopRows::Rank;
using Candidate = PartitionTopRows::Candidate;

struct Row {
  int64_t partition;
  Candidate c;
};

/// (partition, batch, row) of every row whose rank in its partition is at most `limit`.
std::set<std::tuple<int64_t, int64_t, uint32_t>> brute_force(const std::vector<Row>& rows, Rank rank, size_t limit) {
  std::map<int64_t, std::vector<Candidate>> parts;
  for (const Row& r : rows) parts[r.partition].push_back(r.c);
  std::set<std::tuple<int64_t, int64_t, uint32_t>> out;
  for (auto& [p, cs] : parts) {
    std::sort(cs.begin(), cs.end());
    size_t r = 0, dense = 0;
    for (size_t i = 0; i < cs.size(); ++i) {
      const bool new_key = i == 0 || cs[i].key != cs[i - 1].key;
      if (new_key) r = i + 1, ++dense;
      const size_t value = rank == Rank::kRowNumber ? i + 1 : rank == Rank::kRank ? r : dense;
      if (value <= limit) out.insert({p, cs[i].batch, cs[i].row});
    }
  }
  return out;
}

std::set<std::tuple<int64_t, int64_t, uint32_t>> collected(const PartitionTopRows& t, const std::vector<Row>& rows) {
  std::set<std::tuple<int64_t, int64_t, uint32_t>> out;
  for (uint32_t p = 0; p < t.partitions(); ++p)
    for (const Candidate& c : t.candidates(p)) out.insert({rows[c.held].partition, c.batch, c.row});
  return out;
}

uint32_t offer(PartitionTopRows& t, const Row& r, bool packed) {
  const PackedKey key = static_cast<PackedKey>(r.partition);
  const std::string bytes = "partition-" + std::to_string(r.partition);
  if (packed) return t.offer(hash_packed(key), key, {}, r.c);
  return t.offer(hash_bytes(bytes.data(), bytes.size()), 0, bytes, r.c);
}

TEST(PartitionTopRows, KeepsTheRowsWithinTheLimitWhateverTheOrderOfOffers) {
  std::mt19937_64 rng(11);
  for (Rank rank : {Rank::kRowNumber, Rank::kRank, Rank::kDenseRank}) {
    for (size_t limit : {1u, 2u, 5u}) {
      for (bool packed : {true, false}) {
        // 3000 partitions (the table grows) of a few rows, some with many; few distinct keys.
        std::vector<Row> rows;
        for (uint32_t i = 0; i < 20000; ++i) {
          const int64_t p = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 5) : static_cast<int64_t>(rng() % 3000);
          rows.push_back({p, Candidate{static_cast<NormalizedKey>(rng() % 6), static_cast<int64_t>(i / 100), i % 100, i}});
        }
        const auto want = brute_force(rows, rank, limit);
        std::vector<size_t> order(rows.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);

        PartitionTopRows one(rank, static_cast<int64_t>(limit), packed);
        for (size_t i : order) offer(one, rows[i], packed);
        EXPECT_EQ(collected(one, rows), want) << static_cast<int>(rank) << " " << limit << " " << packed;
        int64_t total = 0;
        for (uint32_t p = 0; p < one.partitions(); ++p) {
          const auto cs = one.candidates(p);
          total += static_cast<int64_t>(cs.size());
          EXPECT_TRUE(std::is_sorted(cs.begin(), cs.end()));
        }
        EXPECT_EQ(one.size(), total);

        // Two halves on tables of their own, merged in three shards; `held` of the second
        // half's rows is counted from an offset, as a thread's held rows follow another's.
        PartitionTopRows a(rank, static_cast<int64_t>(limit), packed), b(rank, static_cast<int64_t>(limit), packed);
        const uint32_t offset = 7;
        for (size_t j = 0; j < order.size(); ++j) {
          Row r = rows[order[j]];
          if (j % 2 == 0) {
            offer(a, r, packed);
          } else {
            r.c.held -= offset;
            offer(b, r, packed);
          }
        }
        std::set<std::tuple<int64_t, int64_t, uint32_t>> merged;
        for (size_t shard = 0; shard < 3; ++shard) {
          PartitionTopRows m(rank, static_cast<int64_t>(limit), packed);
          m.merge(a, 0, shard, 3);
          m.merge(b, offset, shard, 3);
          for (auto& t : collected(m, rows)) EXPECT_TRUE(merged.insert(t).second);
        }
        EXPECT_EQ(merged, want) << static_cast<int>(rank) << " " << limit << " " << packed;
      }
    }
  }
}

// An offer answers whether the row was taken in; a row past a full partition's bound is not.
TEST(PartitionTopRows, AnOfferSaysWhetherTheRowWasTakenIn) {
  PartitionTopRows t(Rank::kRowNumber, 2, true);
  auto row = [](NormalizedKey key, uint32_t i) { return Row{1, Candidate{key, 0, i, i}}; };
  EXPECT_EQ(offer(t, row(5, 0), true), 0u);
  EXPECT_EQ(offer(t, row(3, 1), true), 0u);
  EXPECT_EQ(offer(t, row(9, 2), true), PartitionTopRows::kNone);
  EXPECT_EQ(offer(t, row(5, 3), true), PartitionTopRows::kNone);  // a peer of the bound, later
  EXPECT_EQ(offer(t, row(4, 4), true), 0u);
  EXPECT_EQ(t.size(), 2);
  const auto cs = t.candidates(0);
  EXPECT_EQ(cs[0].row, 1u);
  EXPECT_EQ(cs[1].row, 4u);
}

}  // namespace
}  // namespace ember::exec
