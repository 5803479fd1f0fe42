// Hash aggregation's thread tables and their merge, driven one thread table at a time so that
// each case decides which rows every table sees: many groups (tables split into hash partitions
// and merged partition by partition, at a lowered and at the default threshold), few groups
// (one merge), skew (split and unsplit tables merged together), long strings arriving after a
// split (packed keys turned to byte keys in every partition), NULL keys throughout, and every
// kind of aggregate state (plain sums and counts, min/max, a distinct count, a list that owns
// heap memory; states that own nothing move whole into a merged table, the others merge),
// checked against a reference computed here.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exec/operators.h"
#include "exec_test_util.h"
#include "functions/function.h"

namespace ember::exec {
namespace {

using test_util::column;

AggregateCall aggregate(const std::string& name, PhysExprPtr arg, bool distinct = false) {
  AggregateCall c;
  c.function = functions::Registry::instance().find(name);
  c.signature = c.function->type_rule({arg->type}, Config());
  c.args.push_back(std::move(arg));
  c.distinct = distinct;
  c.display = name;
  return c;
}

/// One input row: a bigint key, a string key (either may be null) and a bigint value.
struct Row {
  std::optional<int64_t> k;
  std::optional<std::string> s;
  std::optional<int64_t> v;
};

using Key = std::pair<std::optional<int64_t>, std::optional<std::string>>;

/// What each group's aggregates should be.
struct Expected {
  int64_t sum = 0, count = 0;
  std::optional<int64_t> min, max;
  std::set<int64_t> distinct;
  std::vector<int64_t> list;
};

Batch make_batch(const std::vector<Row>& rows) {
  ColumnBuilder k(DataType::long_()), s(DataType::string()), v(DataType::long_());
  for (const Row& r : rows) {
    r.k ? k.append<int64_t>(*r.k) : k.append_null();
    r.s ? s.append_bytes(*r.s) : s.append_null();
    r.v ? v.append<int64_t>(*r.v) : v.append_null();
  }
  return Batch({k.finish(), s.finish(), v.finish()}, static_cast<int64_t>(rows.size()));
}

/// Aggregates `tables[t]` (the batches one thread table sinks, in order) through one
/// HashAggregate and compares every group of its output with the reference.
/// `split_groups`: the groups at which a thread table splits (HashAggregate::set_split_groups);
/// by default 32k, so that inputs of tens of thousands of groups split. `owning`: with the
/// aggregates whose states own memory (the distinct count and the list); without them, every
/// state is plain bytes.
void check(const std::vector<std::vector<std::vector<Row>>>& tables, size_t split_groups = size_t{1} << 15,
           bool owning = true) {
  const PhysExprPtr v = column(2, DataType::long_());
  std::vector<AggregateCall> calls;
  calls.push_back(aggregate("sum", v));
  calls.push_back(aggregate("count", v));
  calls.push_back(aggregate("min", v));
  calls.push_back(aggregate("max", v));
  if (owning) {
    calls.push_back(aggregate("count", v, true));
    calls.push_back(aggregate("collect_list", v));
  }
  HashAggregate agg({column(0, DataType::long_()), column(1, DataType::string())}, std::move(calls));
  agg.set_split_groups(split_groups);
  MemoryPool pool("test", MemoryPool::root());
  ExecContext ctx;
  ctx.pool = &pool;
  std::map<Key, Expected> expected;
  std::vector<std::unique_ptr<LocalSinkState>> locals;
  for (size_t t = 0; t < tables.size(); ++t) locals.push_back(agg.open_local(ctx));
  // Batches go to the tables in turn, as threads would take morsels.
  size_t most = 0;
  for (auto& batches : tables) most = std::max(most, batches.size());
  for (size_t b = 0; b < most; ++b) {
    for (size_t t = 0; t < tables.size(); ++t) {
      if (b >= tables[t].size()) continue;
      for (const Row& r : tables[t][b]) {
        Expected& e = expected[{r.k, r.s}];
        if (!r.v) continue;
        e.sum += *r.v;
        ++e.count;
        e.min = e.min ? std::min(*e.min, *r.v) : *r.v;
        e.max = e.max ? std::max(*e.max, *r.v) : *r.v;
        e.distinct.insert(*r.v);
        e.list.push_back(*r.v);
      }
      agg.sink(*locals[t], make_batch(tables[t][b]), ctx);
    }
  }
  for (auto& l : locals) agg.combine(*l, ctx);
  agg.finalize(ctx);

  auto source = agg.open_source(ctx);
  std::set<Key> seen;
  while (agg.next_morsel(*source, ctx, [&](Batch out) {
    ASSERT_EQ(out.columns.size(), owning ? 8u : 6u);
    for (int64_t i = 0; i < out.num_rows; ++i) {
      Key key{out.columns[0]->is_valid(i) ? std::optional<int64_t>(out.columns[0]->values<int64_t>()[i]) : std::nullopt,
              out.columns[1]->is_valid(i) ? std::optional<std::string>(out.columns[1]->string_at(i)) : std::nullopt};
      ASSERT_TRUE(seen.insert(key).second) << "a group twice in the output";
      auto it = expected.find(key);
      ASSERT_NE(it, expected.end()) << "a group no row has";
      const Expected& e = it->second;
      if (e.count == 0) {
        EXPECT_FALSE(out.columns[2]->is_valid(i));
        EXPECT_FALSE(out.columns[4]->is_valid(i));
      } else {
        EXPECT_EQ(out.columns[2]->values<int64_t>()[i], e.sum);
        EXPECT_EQ(out.columns[4]->values<int64_t>()[i], *e.min);
        EXPECT_EQ(out.columns[5]->values<int64_t>()[i], *e.max);
      }
      EXPECT_EQ(out.columns[3]->values<int64_t>()[i], e.count);
      if (!owning) continue;
      EXPECT_EQ(out.columns[6]->values<int64_t>()[i], static_cast<int64_t>(e.distinct.size()));
      const Column& list = *out.columns[7];
      std::vector<int64_t> got;
      for (int32_t j = list.offsets()[i]; j < list.offsets()[i + 1]; ++j)
        got.push_back(list.child(0)->values<int64_t>()[j]);
      std::vector<int64_t> want = e.list;
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      ASSERT_EQ(got, want);
    }
  })) {
  }
  EXPECT_EQ(seen.size(), expected.size());
}

/// Rows [from, to) of a table, split into batches of `batch` rows; row i has group `group(i)`.
template <typename Group>
std::vector<std::vector<Row>> rows(int64_t from, int64_t to, int64_t batch, Group&& group) {
  std::vector<std::vector<Row>> out;
  for (int64_t i = from; i < to; ++i) {
    if ((i - from) % batch == 0) out.emplace_back();
    Row r = group(i);
    r.v = i % 17 == 0 ? std::nullopt : std::optional<int64_t>(i % 1000);
    out.back().push_back(std::move(r));
  }
  return out;
}

/// Group g: key g (null every 13th group) and a short string (null every 11th group).
Row short_group(int64_t g) {
  return Row{g % 13 == 0 ? std::nullopt : std::optional<int64_t>(g),
             g % 11 == 0 ? std::nullopt : std::optional<std::string>("s" + std::to_string(g % 7)), {}};
}

Row long_group(int64_t g) {
  Row r = short_group(g);
  if (r.s) *r.s += "-a string longer than a packed key holds";
  return r;
}

TEST(HashAggregateMerge, ManyGroupsEachTableSplitsIntoPartitions) {
  // Three tables of 80k groups each, every group seen by two of them.
  std::vector<std::vector<std::vector<Row>>> tables;
  for (int64_t t = 0; t < 3; ++t)
    tables.push_back(rows(0, 80000, 4096, [t](int64_t i) { return short_group((i + t * 40000) % 120000); }));
  check(tables);
}

TEST(HashAggregateMerge, FewGroupsMergeInOneTable) {
  std::vector<std::vector<std::vector<Row>>> tables;
  for (int64_t t = 0; t < 3; ++t)
    tables.push_back(rows(t * 10000, (t + 1) * 10000, 1000, [](int64_t i) { return short_group(i % 29); }));
  check(tables);
}

TEST(HashAggregateMerge, SkewedTablesOneSplitOthersNot) {
  // The first table sees 100k groups and splits; the others see a few of the same groups.
  std::vector<std::vector<std::vector<Row>>> tables;
  tables.push_back(rows(0, 100000, 8192, [](int64_t i) { return short_group(i); }));
  tables.push_back(rows(0, 5000, 1000, [](int64_t i) { return short_group(i % 50 * 1000); }));
  tables.push_back(rows(0, 3000, 1000, [](int64_t i) { return short_group(i % 100 + 99950); }));
  check(tables);
}

TEST(HashAggregateMerge, LongStringsAfterASplitTurnEveryPartitionToByteKeys) {
  // The first table splits over packed keys, then meets strings too long to pack; the second
  // keeps packed keys (and splits); the third never splits. Long and short strings name
  // different groups, and the merge must still bring each group together once.
  std::vector<std::vector<std::vector<Row>>> tables;
  auto first = rows(0, 60000, 4096, [](int64_t i) { return short_group(i); });
  for (auto& b : rows(0, 20000, 4096, [](int64_t i) { return i % 2 ? long_group(i) : short_group(i); }))
    first.push_back(b);
  tables.push_back(first);
  tables.push_back(rows(0, 50000, 4096, [](int64_t i) { return short_group(i + 30000); }));
  tables.push_back(rows(0, 2000, 1000, [](int64_t i) { return long_group(i % 40); }));
  check(tables);
}

TEST(HashAggregateMerge, DefaultSplitThreshold) {
  // At the default threshold the first table (270k groups) splits and the second (40k groups,
  // half of them the first's) stays whole; they merge in parallel partitions.
  std::vector<std::vector<std::vector<Row>>> tables;
  tables.push_back(rows(0, 270000, 16384, [](int64_t i) { return short_group(i); }));
  tables.push_back(rows(0, 40000, 8192, [](int64_t i) { return short_group(i + 250000); }));
  check(tables, HashAggregate::kDefaultSplitGroups);
}

TEST(HashAggregateMerge, PlainStatesMoveIntoMergedTables) {
  // Only states that own nothing: groups new to a merged table take their state as it is.
  // Many groups in split tables, skew, and few groups in one merge, each group seen by several
  // tables or by one.
  std::vector<std::vector<std::vector<Row>>> many, skewed, few;
  for (int64_t t = 0; t < 3; ++t)
    many.push_back(rows(0, 60000, 4096, [t](int64_t i) { return short_group((i + t * 30000) % 100000); }));
  check(many, size_t{1} << 15, false);
  skewed.push_back(rows(0, 50000, 8192, [](int64_t i) { return long_group(i); }));
  skewed.push_back(rows(0, 4000, 1000, [](int64_t i) { return short_group(i % 40 * 1000); }));
  check(skewed, size_t{1} << 15, false);
  for (int64_t t = 0; t < 3; ++t)
    few.push_back(rows(t * 1000, (t + 1) * 1000, 300, [t](int64_t i) { return short_group(i % (20 + t * 10)); }));
  check(few, size_t{1} << 15, false);
}

TEST(HashAggregateMerge, OneTableOfManyGroups) {
  check({rows(0, 70000, 4096, [](int64_t i) { return long_group(i % 50000); })});
}

TEST(HashAggregateMerge, UnsplitTablesSpanSeveralStorageBlocks) {
  // 150k groups a table, below the default split: each table's groups fill three blocks of
  // its per-group storage, in packed and in byte keys, and come out (or merge) from all.
  check({rows(0, 150000, 16384, [](int64_t i) { return long_group(i); })}, HashAggregate::kDefaultSplitGroups);
  check({rows(0, 150000, 16384, [](int64_t i) { return short_group(i); })}, HashAggregate::kDefaultSplitGroups);
  check({rows(0, 150000, 16384, [](int64_t i) { return short_group(i); }),
         rows(0, 100000, 16384, [](int64_t i) { return long_group(i + 100000); })},
        HashAggregate::kDefaultSplitGroups);
}

}  // namespace
}  // namespace ember::exec
