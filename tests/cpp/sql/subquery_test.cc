// Subquery decorrelation: the optimizer's subquery rules leave joins of the right kinds, no
// subquery expression, and can be switched off; what no PySpark query reaches directly (plan
// shapes, the rules off) is checked here, results against Spark in tests/python.

#include "plan/subquery.h"

#include <gtest/gtest.h>

#include <functional>

#include "common/error.h"
#include "plan/optimizer.h"
#include "sql/parser.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

using plan::JoinType;
using plan::PlanKind;
using plan::PlanPtr;

void views(plan::Session& s) {
  execute_statement(
      s, "CREATE TEMP VIEW t AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (NULL, 'c') AS t(a, b)");
  execute_statement(
      s, "CREATE TEMP VIEW u AS SELECT * FROM VALUES (1, 10), (3, 30), (NULL, 40) AS u(x, y)");
}

PlanPtr optimized(plan::Session& s, const std::string& sql) {
  return s.optimize(s.analyze(parse_query(sql)));
}

/// Join types in the plan, top-down, and whether any expression still holds a subquery.
void scan(const PlanPtr& p, std::vector<JoinType>& joins, bool& subquery) {
  if (p->kind == PlanKind::kJoin) joins.push_back(p->join_type);
  for (auto* list : {&p->exprs, &p->aggregates})
    for (auto& e : *list) subquery |= plan::has_subquery(e);
  if (p->condition) subquery |= plan::has_subquery(p->condition);
  for (auto& c : p->children) scan(c, joins, subquery);
}

std::vector<JoinType> joins_of(const PlanPtr& p, bool* subquery = nullptr) {
  std::vector<JoinType> joins;
  bool any = false;
  scan(p, joins, any);
  if (subquery) *subquery = any;
  return joins;
}

int64_t count(plan::Session& s, const std::string& sql) {
  return execute_statement(s, sql).num_rows();
}

TEST(SubqueryRewrite, ExistsAndInBecomeSemiAndAntiJoins) {
  plan::Session s("t");
  views(s);
  bool left = true;
  EXPECT_EQ(
      joins_of(optimized(s, "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE x = a)"), &left),
      std::vector<JoinType>{JoinType::kLeftSemi});
  EXPECT_FALSE(left);
  EXPECT_EQ(
      joins_of(optimized(s, "SELECT * FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE x = a)")),
      std::vector<JoinType>{JoinType::kLeftAnti});
  EXPECT_EQ(joins_of(optimized(s, "SELECT * FROM t WHERE a IN (SELECT x FROM u)")),
            std::vector<JoinType>{JoinType::kLeftSemi});
  // NOT IN over nullable columns: the anti join also matches unknown comparisons.
  PlanPtr not_in = optimized(s, "SELECT * FROM t WHERE a NOT IN (SELECT x FROM u)");
  ASSERT_EQ(joins_of(not_in), std::vector<JoinType>{JoinType::kLeftAnti});
  std::function<const plan::PlanNode*(const PlanPtr&)> find_join =
      [&](const PlanPtr& p) -> const plan::PlanNode* {
    if (p->kind == PlanKind::kJoin) return p.get();
    for (auto& c : p->children)
      if (auto* j = find_join(c)) return j;
    return nullptr;
  };
  EXPECT_NE(find_join(not_in)->condition->to_string().find("IS NULL"), std::string::npos);
  EXPECT_EQ(count(s, "SELECT * FROM t WHERE a NOT IN (SELECT x FROM u)"), 0);
  EXPECT_EQ(count(s, "SELECT * FROM t WHERE a NOT IN (SELECT x FROM u WHERE x IS NOT NULL)"), 1);
  EXPECT_EQ(count(s, "SELECT * FROM t WHERE a NOT IN (SELECT x FROM u WHERE y > 99)"), 3);
}

TEST(SubqueryRewrite, ValuesBecomeExistenceJoinsAndScalarsOuterJoins) {
  plan::Session s("t");
  views(s);
  EXPECT_EQ(joins_of(optimized(s, "SELECT a, a IN (SELECT x FROM u) FROM t")),
            std::vector<JoinType>{JoinType::kExistence});
  EXPECT_EQ(
      joins_of(optimized(s, "SELECT * FROM t WHERE a = 2 OR EXISTS (SELECT 1 FROM u WHERE x = a)")),
      std::vector<JoinType>{JoinType::kExistence});
  EXPECT_EQ(joins_of(optimized(s, "SELECT a, (SELECT count(*) FROM u WHERE x = a) FROM t")),
            std::vector<JoinType>{JoinType::kLeftOuter});
  // The COUNT bug: no matching row counts 0.
  auto r = execute_statement(s, "SELECT a FROM t WHERE (SELECT count(*) FROM u WHERE x = a) = 0");
  EXPECT_EQ(r.num_rows(), 2);
  // An uncorrelated scalar subquery is left for physical planning, which runs it once.
  bool left = false;
  EXPECT_TRUE(joins_of(optimized(s, "SELECT a, (SELECT max(x) FROM u) FROM t"), &left).empty());
  EXPECT_TRUE(left);
}

TEST(SubqueryRewrite, NonEquiCorrelationIsAJoinCondition) {
  plan::Session s("t");
  views(s);
  EXPECT_EQ(count(s, "SELECT * FROM u u1 WHERE EXISTS (SELECT 1 FROM u u2 WHERE u2.y > u1.y)"), 2);
  EXPECT_EQ(count(s, "SELECT * FROM u u1 WHERE NOT EXISTS (SELECT 1 FROM u u2 WHERE u2.y > u1.y)"),
            1);
}

TEST(SubqueryRewrite, RulesCanBeSwitchedOff) {
  plan::Session s("t");
  views(s);
  s.config().set("spark.sql.optimizer.excludedRules", "RewritePredicateSubquery");
  bool left = false;
  joins_of(optimized(s, "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE x = a)"), &left);
  EXPECT_TRUE(left);
  try {
    execute_statement(s, "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE x = a)");
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY");
  }
}

}  // namespace
}  // namespace ember::sql
