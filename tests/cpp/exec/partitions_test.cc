// Spark partitions through the executor: a range's slices (their bounds without overflow, each
// morsel inside one partition, whole partitions on request), the position of every batch's
// first row in its partition, positions counted after an operator that drops rows, one
// partition after a sink, a sort within partitions keeping them, a union's numbering, slices
// keeping their rows' positions, and the exchanges' partitionings.

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <set>

#include "exec/operators.h"
#include "exec_test_util.h"
#include "functions/function.h"

namespace ember::exec {
namespace {

using test_util::column;

PhysExprPtr literal(Value v, TypePtr type) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kLiteral;
  e->value = std::move(v);
  e->type = std::move(type);
  return e;
}

PhysExprPtr call(const std::string& name, std::vector<PhysExprPtr> args) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kCall;
  e->function = functions::Registry::instance().find(name);
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type);
  e->signature = e->function->type_rule(types, Config());
  e->type = e->signature.result_type;
  e->children = std::move(args);
  return e;
}

/// (id, spark_partition_id(), monotonically_increasing_id()) of every output row, by id.
std::map<int64_t, std::pair<int64_t, int64_t>> numbered(PhysicalOperator& root) {
  ExecContext ctx;
  std::map<int64_t, std::pair<int64_t, int64_t>> out;
  for (const Batch& b : run_plan(root, ctx))
    for (int64_t i = 0; i < b.num_rows; ++i)
      out[b.columns[0]->values<int64_t>()[i]] = {b.columns[1]->values<int32_t>()[i], b.columns[2]->values<int64_t>()[i]};
  return out;
}

OperatorPtr numbering(OperatorPtr input) {
  auto project = std::make_unique<Project>(std::vector<PhysExprPtr>{
      column(0, DataType::long_()), call("spark_partition_id", {}), call("monotonically_increasing_id", {})});
  project->children.push_back(std::move(input));
  return project;
}

TEST(RangePartitions, SlicesAsSparksRangeExec) {
  RangeScan r(0, 10, 1, 4);
  EXPECT_EQ(r.output_partitions(), 4);
  std::vector<uint64_t> starts;
  for (int64_t i = 0; i <= 4; ++i) starts.push_back(r.partition_start(i));
  EXPECT_EQ(starts, (std::vector<uint64_t>{0, 2, 5, 7, 10}));
  // i * count overflows 64 bits for the largest ranges.
  RangeScan big(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 1, 3);
  EXPECT_EQ(big.partition_start(3), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(big.partition_start(1), std::numeric_limits<uint64_t>::max() / 3);
}

TEST(RangePartitions, BatchesStayInsideOnePartition) {
  // Partitions larger than a batch: each batch knows its partition and first row's position.
  const int64_t n = 3 * kBatchRows + 5;
  for (bool whole : {false, true}) {
    RangeScan r(0, n, 1, 2);
    ExecContext ctx;
    auto state = r.open_source(ctx);
    state->whole_partitions = whole;
    EXPECT_EQ(r.max_parallelism(*state), whole ? 2u : 4u);
    std::vector<Batch> batches;
    while (r.next_morsel(*state, ctx, [&](Batch b) { batches.push_back(std::move(b)); })) {
    }
    int64_t rows = 0;
    for (const Batch& b : batches) {
      const int64_t first = b.columns[0]->values<int64_t>()[0];
      const int64_t partition = first < n / 2 ? 0 : 1;
      EXPECT_EQ(b.partition, partition);
      EXPECT_EQ(b.partition_row, first - (partition == 0 ? 0 : n / 2));
      EXPECT_LE(first + b.num_rows, partition == 0 ? n / 2 : n);
      rows += b.num_rows;
    }
    EXPECT_EQ(rows, n);
  }
}

TEST(RangePartitions, IdsCountRowsThatReachTheProjection) {
  // range(0, 200000, 1, 3) with a filter before the numbering: ids count the kept rows of each
  // partition, across batches, as a Spark task counts them.
  auto range = std::make_unique<RangeScan>(0, 200000, 1, 3);
  auto filter = std::make_unique<Filter>(call("=", {call("%", {column(0, DataType::long_()), literal(Value::integer(3), DataType::long_())}),
                                                   literal(Value::integer(0), DataType::long_())}));
  filter->children.push_back(std::move(range));
  auto rows = numbered(*numbering(std::move(filter)));
  ASSERT_EQ(rows.size(), 66667u);
  for (auto& [id, where] : rows) {
    const int64_t partition = id < 66666 ? 0 : id < 133333 ? 1 : 2;
    const int64_t begin = partition == 0 ? 0 : partition == 1 ? 66666 : 133333;
    // Kept rows before `id` in its partition: multiples of 3 in [begin, id).
    const int64_t kept_before = (id + 2) / 3 - (begin + 2) / 3;
    EXPECT_EQ(where.first, partition) << id;
    ASSERT_EQ(where.second, (partition << 33) + kept_before) << id;
  }
}

TEST(RangePartitions, SinkOutputIsOnePartitionAndUnionsNumberInTurn) {
  // A sort's output: one partition numbered in order.
  auto sorted = std::make_unique<Sort>(std::vector<SortKey>{{column(0, DataType::long_()), false, true}});
  sorted->children.push_back(std::make_unique<RangeScan>(0, 5, 1, 3));
  auto rows = numbered(*numbering(std::move(sorted)));
  for (int64_t id = 0; id < 5; ++id) EXPECT_EQ(rows[id], std::make_pair(int64_t{0}, 4 - id));
  // Union of range(0, 3, 1, 2) and range(10, 13, 1, 3): partitions 0-1, then 2-4.
  auto u = std::make_unique<UnionAll>();
  u->children.push_back(std::make_unique<RangeScan>(0, 3, 1, 2));
  u->children.push_back(std::make_unique<RangeScan>(10, 13, 1, 3));
  EXPECT_EQ(u->output_partitions(), 5);
  rows = numbered(*numbering(std::move(u)));
  EXPECT_EQ(rows[0], std::make_pair(int64_t{0}, int64_t{0}));
  EXPECT_EQ(rows[2], std::make_pair(int64_t{1}, (int64_t{1} << 33) + 1));
  EXPECT_EQ(rows[10], std::make_pair(int64_t{2}, int64_t{2} << 33));
  EXPECT_EQ(rows[12], std::make_pair(int64_t{4}, int64_t{4} << 33));
}

TEST(RangePartitions, SortWithinPartitionsKeepsEachPartition) {
  // range(0, 10, 1, 3) sorted by id descending within partitions: slices [0, 3), [3, 6) and
  // [6, 10) stay partitions 0, 1 and 2, each in reverse.
  auto sorted = std::make_unique<Sort>(std::vector<SortKey>{{column(0, DataType::long_()), false, true}}, -1, 0, true);
  sorted->children.push_back(std::make_unique<RangeScan>(0, 10, 1, 3));
  EXPECT_EQ(sorted->output_partitions(), 3);
  auto rows = numbered(*numbering(std::move(sorted)));
  ASSERT_EQ(rows.size(), 10u);
  for (auto& [id, where] : rows) {
    const int64_t partition = id < 3 ? 0 : id < 6 ? 1 : 2;
    const int64_t end = partition == 0 ? 3 : partition == 1 ? 6 : 10;
    EXPECT_EQ(where.first, partition) << id;
    EXPECT_EQ(where.second, (partition << 33) + (end - 1 - id)) << id;
  }
}

TEST(BatchPartition, SlicesKeepPositions) {
  Batch b({Column::constant(DataType::long_(), Value::integer(1), 10)}, 10);
  b.partition = 3;
  b.partition_row = 100;
  Batch s = slice_batch(b, 4, 3);
  EXPECT_EQ(s.partition, 3);
  EXPECT_EQ(s.partition_row, 104);
  Batch c = concat_batches({s, slice_batch(b, 7, 3)}, 1);
  EXPECT_EQ(c.partition, 3);
  EXPECT_EQ(c.partition_row, 104);
}

}  // namespace
}  // namespace ember::exec

namespace ember::exec {
namespace {

/// The partition of each id after `exchange` over range(0, n, 1, slices).
std::map<int64_t, int64_t> exchanged(ShuffleExchange::Kind kind, int64_t n, int64_t slices, int64_t partitions,
                                     std::vector<SortKey> keys) {
  auto exchange = std::make_unique<ShuffleExchange>(kind, partitions, std::move(keys), "");
  exchange->children.push_back(std::make_unique<RangeScan>(0, n, 1, slices));
  EXPECT_EQ(exchange->output_partitions(), partitions);
  auto rows = numbered(*numbering(std::move(exchange)));
  std::map<int64_t, int64_t> out;
  for (auto& [id, where] : rows) out[id] = where.first;
  return out;
}

TEST(ExchangePartitions, RoundRobinStartsWhereSparksGeneratorSays) {
  // range(3) in two slices repartitioned into 7: Spark writes files 0, 3 and 6.
  auto rows = exchanged(ShuffleExchange::Kind::kRoundRobin, 3, 2, 7, {});
  std::set<int64_t> used;
  for (auto& [id, p] : rows) used.insert(p);
  EXPECT_EQ(used, (std::set<int64_t>{0, 3, 6}));
  // A slice's rows go to consecutive partitions.
  EXPECT_EQ(rows[2], (rows[1] + 1) % 7);
  for (int64_t p = 0; p < 50; ++p) {
    EXPECT_GE(ShuffleExchange::round_robin_start(p, 8), 0);
    EXPECT_LT(ShuffleExchange::round_robin_start(p, 13), 13);
  }
}

TEST(ExchangePartitions, RangeBoundsSkipDuplicateKeys) {
  // 100 rows of id % 3 into 5 ranges: the bounds are 0, 1 and 2, so three partitions hold rows.
  auto key = call("%", {column(0, DataType::long_()), literal(Value::integer(3), DataType::long_())});
  auto rows = exchanged(ShuffleExchange::Kind::kRange, 100, 2, 5, {{key, true, true}});
  for (auto& [id, p] : rows) EXPECT_EQ(p, id % 3) << id;
  // Distinct keys split into equal runs.
  auto sorted = exchanged(ShuffleExchange::Kind::kRange, 100, 2, 4, {{column(0, DataType::long_()), true, true}});
  for (auto& [id, p] : sorted) EXPECT_EQ(p, id / 25) << id;
  auto descending = exchanged(ShuffleExchange::Kind::kRange, 100, 2, 4, {{column(0, DataType::long_()), false, true}});
  for (auto& [id, p] : descending) EXPECT_EQ(p, (99 - id) / 25) << id;
}

TEST(ExchangePartitions, HashPartitionCountFollowsTheRows) {
  // A partition per 30 rows, at most 8: 100 rows fill 4, 10 rows one, 1000 rows stop at 8.
  // The key id % 7 has seven values of 14 or 15 rows among 100: each value's rows in one
  // partition, the values spread so that no partition has more than two.
  auto key = call("hash", {call("%", {column(0, DataType::long_()), literal(Value::integer(7), DataType::long_())})});
  for (auto [n, count] : {std::pair<int64_t, int64_t>{100, 4}, {10, 1}, {1000, 8}}) {
    auto exchange = std::make_unique<ShuffleExchange>(ShuffleExchange::Kind::kHash, 8, std::vector<SortKey>{{key, true, true}},
                                                      "", 30);
    exchange->children.push_back(std::make_unique<RangeScan>(0, n, 1, 3));
    auto rows = numbered(*numbering(std::move(exchange)));
    ASSERT_EQ(rows.size(), static_cast<size_t>(n));
    std::map<int64_t, int64_t> partition_of_value;
    std::map<int64_t, std::set<int64_t>> values_of_partition;
    for (auto& [id, where] : rows) {
      auto [it, fresh] = partition_of_value.emplace(id % 7, where.first);
      EXPECT_EQ(it->second, where.first) << id;
      values_of_partition[where.first].insert(id % 7);
    }
    EXPECT_EQ(static_cast<int64_t>(values_of_partition.size()), std::min<int64_t>(count, 7)) << n;
    for (auto& [p, values] : values_of_partition) EXPECT_LE(values.size(), n == 10 ? 7u : 2u) << n;
  }
}

TEST(ExchangePartitions, CoalesceGroupsNeighbouringPartitions) {
  auto coalesce = std::make_unique<Coalesce>(3);
  coalesce->children.push_back(std::make_unique<RangeScan>(0, 100, 1, 10));
  EXPECT_EQ(coalesce->output_partitions(), 3);
  auto rows = numbered(*numbering(std::move(coalesce)));
  // Slices [0, 3), [3, 6), [6, 10) of ten rows each.
  for (auto& [id, where] : rows) EXPECT_EQ(where.first, id < 30 ? 0 : id < 60 ? 1 : 2) << id;
  auto wide = std::make_unique<Coalesce>(20);
  wide->children.push_back(std::make_unique<RangeScan>(0, 100, 1, 10));
  EXPECT_EQ(wide->output_partitions(), 10);
}

}  // namespace
}  // namespace ember::exec
