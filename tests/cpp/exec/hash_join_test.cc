// HashJoin's output columns: a join told which columns the operators above read passes on
// exactly those, in that order, for matched pairs, semi joins and the unmatched build rows of
// an outer join alike, with the same rows as the full output.

#include "exec/hash_join.h"

#include <gtest/gtest.h>

#include "exec/operators.h"

namespace ember::exec {
namespace {

ColumnPtr longs(const std::vector<int64_t>& values) {
  ColumnBuilder b(DataType::long_());
  for (int64_t v : values) b.append<int64_t>(v);
  return b.finish();
}

PhysExprPtr column(int i) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kColumn;
  e->column = i;
  e->type = DataType::long_();
  return e;
}

/// Rows of the join's output as vectors of values (-1 for null), in output order.
std::vector<std::vector<int64_t>> run(HashJoinKind kind, std::vector<int> outputs) {
  // Probe (k, a): keys 1, 2, 3; build (k, b): keys 2, 3, 3, 4.
  std::vector<Batch> probe = {Batch({longs({1, 2, 3}), longs({10, 20, 30})}, 3, 0)};
  std::vector<Batch> build = {Batch({longs({2, 3, 3, 4}), longs({200, 300, 301, 400})}, 4, 0)};
  auto join = std::make_unique<HashJoin>(kind, std::vector<PhysExprPtr>{column(0)},
                                         std::vector<PhysExprPtr>{column(0)}, std::vector<bool>{false},
                                         nullptr, std::vector<TypePtr>{DataType::long_(), DataType::long_()},
                                         std::vector<TypePtr>{DataType::long_(), DataType::long_()});
  if (!outputs.empty()) join->set_outputs(std::move(outputs));
  join->children.push_back(std::make_unique<LocalScan>(probe, std::vector<int>{0, 1}));
  join->children.push_back(std::make_unique<LocalScan>(build, std::vector<int>{0, 1}));
  ExecContext ctx;
  std::vector<std::vector<int64_t>> rows;
  for (auto& b : run_plan(*join, ctx))
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::vector<int64_t> row;
      for (auto& c : b.columns) row.push_back(c->is_null(i) ? -1 : c->values<int64_t>()[i]);
      rows.push_back(std::move(row));
    }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The full output's rows restricted to `outputs`.
std::vector<std::vector<int64_t>> project(const std::vector<std::vector<int64_t>>& rows, const std::vector<int>& outputs) {
  std::vector<std::vector<int64_t>> out;
  for (auto& r : rows) {
    std::vector<int64_t> p;
    for (int c : outputs) p.push_back(r[static_cast<size_t>(c)]);
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HashJoinOutputs, PassOnOnlyTheNamedColumns) {
  for (HashJoinKind kind : {HashJoinKind::kInner, HashJoinKind::kLeftOuter, HashJoinKind::kRightOuter,
                            HashJoinKind::kFullOuter}) {
    auto full = run(kind, {});
    ASSERT_FALSE(full.empty());
    ASSERT_EQ(full[0].size(), 4u);
    for (std::vector<int> outputs : {std::vector<int>{3, 1}, std::vector<int>{1}, std::vector<int>{2}}) {
      auto pruned = run(kind, outputs);
      EXPECT_EQ(pruned, project(full, outputs)) << static_cast<int>(kind) << " " << outputs[0];
    }
  }
  for (HashJoinKind kind : {HashJoinKind::kLeftSemi, HashJoinKind::kLeftAnti}) {
    auto full = run(kind, {});
    ASSERT_EQ(full.empty() ? 2u : full[0].size(), 2u);
    EXPECT_EQ(run(kind, {1}), project(full, {1})) << static_cast<int>(kind);
  }
  // The right outer join's unmatched build row (key 4) keeps its build column.
  EXPECT_EQ(run(HashJoinKind::kRightOuter, {3, 1}),
            (std::vector<std::vector<int64_t>>{{200, 20}, {300, 30}, {301, 30}, {400, -1}}));
}

}  // namespace
}  // namespace ember::exec
