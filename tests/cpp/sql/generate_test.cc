// Generators from SQL: LATERAL VIEW parsing, generator table functions, the Generate node in
// EXPLAIN, and results end to end. Expected plans and rows were checked against Apache Spark 4.

#include <gtest/gtest.h>

#include "common/error.h"
#include "sql/parser.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

using plan::PlanKind;
using plan::PlanPtr;

std::string cell(const plan::QueryResult& r, int64_t row, size_t col) {
  int64_t seen = 0;
  for (auto& b : r.batches) {
    if (row < seen + b.num_rows) {
      Value v = b.columns[col]->value_at(row - seen);
      if (v.is_null()) return "NULL";
      return r.schema[col].type->id() == TypeId::kString ? v.as_bytes() : std::to_string(v.as_int());
    }
    seen += b.num_rows;
  }
  return "?";
}

std::string error_class(plan::Session& s, const std::string& sql) {
  try {
    execute_statement(s, sql);
  } catch (const SparkError& e) {
    return e.error_class();
  }
  return "";
}

TEST(SqlGenerate, LateralViewsParseIntoGenerateNodes) {
  PlanPtr q = parse_query("SELECT * FROM t LATERAL VIEW OUTER explode(a) x AS c LATERAL VIEW posexplode(m) y p, k, v");
  const plan::PlanNode* n = q.get();
  while (n->kind != PlanKind::kGenerate) n = n->children[0].get();
  // The last LATERAL VIEW is the outermost.
  EXPECT_EQ(n->alias, "y");
  EXPECT_EQ(n->names, (std::vector<std::string>{"p", "k", "v"}));
  EXPECT_FALSE(n->exprs[0]->outer);
  const plan::PlanNode* inner = n->children[0].get();
  ASSERT_EQ(inner->kind, PlanKind::kGenerate);
  EXPECT_EQ(inner->alias, "x");
  EXPECT_EQ(inner->names, (std::vector<std::string>{"c"}));
  EXPECT_TRUE(inner->exprs[0]->outer);
  EXPECT_EQ(inner->children[0]->kind, PlanKind::kUnresolvedRelation);
}

TEST(SqlGenerate, ExplainShowsGenerateAsSparkDoes) {
  plan::Session s("t");
  auto r = execute_statement(s, "EXPLAIN EXTENDED SELECT id, explode(array(id, 1L)) AS x FROM range(2)");
  std::string text = cell(r, 0, 0);
  EXPECT_NE(text.find("Generate explode(array(id#"), std::string::npos) << text;
  EXPECT_NE(text.find("), false, [x#"), std::string::npos) << text;
  // The physical operator lists the child columns it keeps.
  EXPECT_NE(text.find("), [id#"), std::string::npos) << text;
  r = execute_statement(s, "EXPLAIN SELECT * FROM range(2) LATERAL VIEW OUTER explode(array(id)) t AS c");
  EXPECT_NE(cell(r, 0, 0).find(", true, [c#"), std::string::npos) << cell(r, 0, 0);
}

TEST(SqlGenerate, TableFunctionsAndLateralViewsRun) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT * FROM posexplode(array('a', 'b')) AS g(p, v)");
  ASSERT_EQ(r.num_rows(), 2);
  EXPECT_EQ(r.schema[0].name, "p");
  EXPECT_FALSE(r.schema[0].nullable);
  EXPECT_EQ(cell(r, 1, 0) + cell(r, 1, 1), "1b");
  r = execute_statement(s,
                        "SELECT id, c FROM range(3) LATERAL VIEW OUTER explode(slice(array(1L, 2L), 1, CAST(id AS INT))) x AS c "
                        "WHERE id <> 1 ORDER BY id, c");
  ASSERT_EQ(r.num_rows(), 3);
  EXPECT_EQ(cell(r, 0, 0) + ":" + cell(r, 0, 1), "0:NULL");
  EXPECT_EQ(cell(r, 1, 0) + ":" + cell(r, 1, 1), "2:1");
  EXPECT_EQ(cell(r, 2, 0) + ":" + cell(r, 2, 1), "2:2");
  EXPECT_TRUE(r.schema[1].nullable);
}

TEST(SqlGenerate, Errors) {
  plan::Session s("t");
  EXPECT_EQ(error_class(s, "SELECT explode(array(1)) + 1"), "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS");
  EXPECT_EQ(error_class(s, "SELECT id FROM range(2) WHERE explode(array(id)) > 0"),
            "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT");
  EXPECT_EQ(error_class(s, "SELECT * FROM range(2) LATERAL VIEW upper('a') x"), "UNSUPPORTED_GENERATOR.NOT_GENERATOR");
  EXPECT_EQ(error_class(s, "SELECT posexplode(array(1)) AS x"), "UDTF_ALIAS_NUMBER_MISMATCH");
  EXPECT_EQ(error_class(s, "SELECT explode(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_EQ(error_class(s, "SELECT stack(2, 1, 'a')"), "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES");
}

}  // namespace
}  // namespace ember::sql
