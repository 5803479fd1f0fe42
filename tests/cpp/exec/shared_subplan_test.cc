// SharedSubplan: a subplan read in several places runs once, and every reader emits its rows in
// the subplan's order, in any order of opening.

#include "exec/shared_subplan.h"

#include <gtest/gtest.h>

#include <atomic>

#include "exec/operators.h"

namespace ember::exec {
namespace {

ColumnPtr longs(const std::vector<int64_t>& values) {
  ColumnBuilder b(DataType::long_());
  for (int64_t v : values) b.append<int64_t>(v);
  return b.finish();
}

/// A source of fixed batches that counts how often it is opened.
class CountingSource final : public PhysicalOperator {
 public:
  CountingSource(std::vector<Batch> batches, std::atomic<int>& opens)
      : batches_(std::move(batches)), opens_(opens) {}
  std::string name() const override { return "CountingSource"; }
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext&) const override {
    ++opens_;
    return std::make_unique<BatchListSource>();
  }
  bool next_morsel(SourceState& state, ExecContext&, const Emit& emit) const override {
    return emit_from_list(batches_, state, emit);
  }

 private:
  std::vector<Batch> batches_;
  std::atomic<int>& opens_;
};

std::vector<int64_t> values(const std::vector<Batch>& out) {
  std::vector<int64_t> v;
  for (auto& b : out)
    for (int64_t i = 0; i < b.num_rows; ++i) v.push_back(b.columns[0]->values<int64_t>()[i]);
  return v;
}

TEST(SharedSubplan, RunsOnceForEveryReader) {
  for (bool owner_first : {true, false}) {
    std::atomic<int> opens{0};
    std::vector<Batch> input = {Batch({longs({1, 2, 3})}, 3, 0), Batch({longs({4})}, 1, 1),
                                Batch({longs({5, 6})}, 2, 2)};
    auto result = std::make_shared<SharedSubplan::Result>(7);
    auto owner =
        std::make_unique<SharedSubplan>(result, std::make_unique<CountingSource>(input, opens));
    auto reader = std::make_unique<SharedSubplan>(result);
    EXPECT_EQ(owner->name(), "SharedSubplan");
    EXPECT_EQ(reader->name(), "ReusedSubplan");
    EXPECT_EQ(reader->details(), "[id=#7]");
    // A filter over one reader: the shared rows are not changed by what a reader's pipeline does.
    auto filter_input = std::make_unique<SharedSubplan>(result);
    auto cond = std::make_shared<PhysExpr>();
    cond->kind = PhysExpr::Kind::kLiteral;
    cond->type = DataType::boolean();
    cond->value = Value::boolean(false);
    auto filter = std::make_unique<Filter>(cond);
    filter->children.push_back(std::move(filter_input));
    UnionAll u;
    if (owner_first) {
      u.children.push_back(std::move(owner));
      u.children.push_back(std::move(filter));
      u.children.push_back(std::move(reader));
    } else {
      u.children.push_back(std::move(reader));
      u.children.push_back(std::move(filter));
      u.children.push_back(std::move(owner));
    }
    ExecContext ctx;
    std::vector<Batch> out = run_plan(u, ctx);
    EXPECT_EQ(opens.load(), 1);
    EXPECT_EQ(values(out), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  }
}

TEST(SharedSubplan, ExplainShowsTheSubplanOnceUnderItsOwner) {
  std::atomic<int> opens{0};
  auto result = std::make_shared<SharedSubplan::Result>(0);
  UnionAll u;
  u.children.push_back(std::make_unique<SharedSubplan>(
      result, std::make_unique<CountingSource>(std::vector<Batch>{}, opens)));
  u.children.push_back(std::make_unique<SharedSubplan>(result));
  std::string tree = physical_tree_string(u);
  EXPECT_NE(tree.find(":- SharedSubplan [id=#0]\n:  +- CountingSource"), std::string::npos) << tree;
  EXPECT_NE(tree.find("+- ReusedSubplan [id=#0]"), std::string::npos) << tree;
  ExecContext ctx;
  EXPECT_TRUE(run_plan(u, ctx).empty());
  EXPECT_EQ(opens.load(), 1);
}

}  // namespace
}  // namespace ember::exec
