// SQL statements run end to end on a session. Expected rows were checked against Apache
// Spark 4.3 running the same statements.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>

#include "common/error.h"
#include "plan/expression.h"
#include "sql/keywords.h"
#include "sql/parser.h"
#include "sql/shell.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

/// Rows as text, `|`-separated, in result order.
std::vector<std::string> rows(const plan::QueryResult& r) {
  std::vector<std::string> out;
  for (auto& b : r.batches) {
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string row;
      for (size_t c = 0; c < b.columns.size(); ++c) {
        Value v = b.columns[c]->value_at(i);
        std::string cell;
        const TypePtr& t = r.schema[c].type;
        if (v.is_null())
          cell = "NULL";
        else if (t->id() == TypeId::kString)
          cell = v.as_bytes();
        else if (t->id() == TypeId::kBoolean)
          cell = v.as_bool() ? "true" : "false";
        else if (t->is_integral())
          cell = std::to_string(v.as_int());
        else if (t->id() == TypeId::kDecimal)
          cell = decimal_to_string(v.as_decimal(), t->scale());
        else if (t->is_floating())
          cell = std::to_string(v.as_double());
        else
          cell = "?";
        row += (c ? "|" : "") + cell;
      }
      out.push_back(row);
    }
  }
  return out;
}

std::string names(const plan::QueryResult& r) {
  std::string s;
  for (size_t i = 0; i < r.schema.size(); ++i)
    s += (i ? "," : "") + r.schema[i].name + ":" + r.schema[i].type->simple_string();
  return s;
}

using Rows = std::vector<std::string>;

/// The error class `run` raises, or "no error".
std::string error_class_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const SparkError& e) {
    return e.error_class();
  }
  return "no error";
}

TEST(SqlExecute, UnknownTableFunctionsAreUnresolvable) {
  // Any name may be a session's table function (spark.udtf.register), so the analyzer decides.
  plan::Session s("t");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "SELECT * FROM foo(1)"); }),
            "UNRESOLVABLE_TABLE_VALUED_FUNCTION");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "SELECT * FROM range(3) t, LATERAL foo(t.id)"); }),
            "UNRESOLVABLE_TABLE_VALUED_FUNCTION");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "SELECT * FROM range(3) t JOIN LATERAL foo(t.id) f ON true"); }),
            "UNRESOLVABLE_TABLE_VALUED_FUNCTION");
}

TEST(SqlExecute, SessionFunctionsAreListedAndDropped) {
  // What spark.udf.register and spark.udtf.register add; the listing reads names alone.
  plan::Session s("t");
  s.register_function("My_Fn", plan::lit(Value::integer(1), DataType::int_()));
  s.register_table_function("my_tf", plan::lit(Value::integer(1), DataType::int_()));
  s.register_function("abs", plan::lit(Value::integer(1), DataType::int_()));
  // A session function shadowing a built-in one is listed among both, once.
  EXPECT_EQ(rows(execute_statement(s, "SHOW USER FUNCTIONS")), (Rows{"abs", "my_fn", "my_tf"}));
  EXPECT_EQ(rows(execute_statement(s, "SHOW FUNCTIONS LIKE 'my*|abs'")),
            (Rows{"abs", "my_fn", "my_tf"}));
  EXPECT_EQ(rows(execute_statement(s, "SHOW SYSTEM FUNCTIONS LIKE 'my*'")), Rows{});
  EXPECT_EQ(rows(execute_statement(s, "SHOW USER FUNCTIONS LIKE 'MY_T*'")), (Rows{"my_tf"}));
  execute_statement(s, "DROP TEMPORARY FUNCTION MY_FN");
  execute_statement(s, "DROP TEMPORARY FUNCTION IF EXISTS my_fn");
  EXPECT_EQ(rows(execute_statement(s, "SHOW USER FUNCTIONS")), (Rows{"abs", "my_tf"}));
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "DROP TEMPORARY FUNCTION my_fn"); }),
            "ROUTINE_NOT_FOUND");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "DROP FUNCTION my_tf"); }),
            "EXPECT_PERSISTENT_FUNCTION_NOT_TEMP");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "DROP TEMPORARY FUNCTION x.my_tf"); }),
            "INVALID_TEMP_OBJ_QUALIFIER");
  execute_statement(s, "DROP TEMPORARY FUNCTION system.session.my_tf");
  execute_statement(s, "DROP TEMP FUNCTION abs");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "DROP TEMPORARY FUNCTION abs"); }),
            "FORBIDDEN_OPERATION");
  EXPECT_EQ(rows(execute_statement(s, "SHOW USER FUNCTIONS")), Rows{});
}

TEST(SqlExecute, SqlKeywordsListsTheParsersKeywords) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT * FROM sql_keywords()");
  EXPECT_EQ(names(r), "keyword:string,reserved:boolean");
  Rows words;
  for (const auto& row : rows(r)) words.push_back(row.substr(0, row.find('|')));
  ASSERT_EQ(words.size(), keywords().size());
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  EXPECT_TRUE(std::adjacent_find(words.begin(), words.end()) == words.end());
  // Nothing is reserved unless ANSI mode enforces its reserved words.
  EXPECT_EQ(rows(execute_statement(s, "SELECT count(*) FROM sql_keywords() WHERE reserved")),
            (Rows{"0"}));
  execute_statement(s, "SET spark.sql.ansi.enforceReservedKeywords=true");
  EXPECT_EQ(rows(execute_statement(
                s, "SELECT * FROM sql_keywords() WHERE keyword IN ('SELECT', 'ZONE', 'JOIN')")),
            (Rows{"JOIN|true", "SELECT|true", "ZONE|false"}));
  EXPECT_TRUE(is_strict_non_reserved("JOIN"));
  EXPECT_FALSE(is_strict_non_reserved("SELECT"));
  EXPECT_FALSE(is_strict_non_reserved("NOT_A_KEYWORD"));
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "SELECT * FROM sql_keywords(1)"); }),
            "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
}

TEST(SqlExecute, VariantExplodeIsATableFunctionOnly) {
  plan::Session s("t");
  EXPECT_EQ(
      rows(execute_statement(
          s,
          R"(SELECT pos, key, to_json(value) FROM variant_explode(parse_json('{"b": 2, "a": [1]}')))")),
      (Rows{"0|a|[1]", "1|b|2"}));
  EXPECT_EQ(rows(execute_statement(s, "SELECT * FROM variant_explode_outer(parse_json('1'))")),
            (Rows{"NULL|NULL|NULL"}));
  EXPECT_EQ(
      error_class_of([&] { execute_statement(s, "SELECT variant_explode(parse_json('[1]'))"); }),
      "NOT_A_SCALAR_FUNCTION");
}

TEST(SqlExecute, GroupByAliasOrderBy) {
  plan::Session s("t");
  auto r =
      execute_statement(s, "SELECT id % 3 AS k, count(*) FROM range(10) GROUP BY k ORDER BY k");
  EXPECT_EQ(names(r), "k:bigint,count(1):bigint");
  EXPECT_EQ(rows(r), (Rows{"0|4", "1|3", "2|3"}));
}

TEST(SqlExecute, GroupByOrdinalHavingOrderByOrdinal) {
  plan::Session s("t");
  auto r = execute_statement(
      s, "SELECT id % 3 AS k, count(*) c FROM range(10) GROUP BY 1 HAVING c > 3 ORDER BY 2 DESC");
  EXPECT_EQ(names(r), "k:bigint,c:bigint");
  EXPECT_EQ(rows(r), (Rows{"0|4"}));
}

TEST(SqlExecute, HavingOnAnAggregateOutsideTheSelectList) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT id % 2 AS k FROM range(10) GROUP BY k HAVING sum(id) > 20");
  EXPECT_EQ(names(r), "k:bigint");
  EXPECT_EQ(rows(r), (Rows{"1"}));
  r = execute_statement(
      s, "SELECT id % 3 AS k, count(*) AS n FROM range(10) GROUP BY k ORDER BY sum(id) DESC, k");
  EXPECT_EQ(names(r), "k:bigint,n:bigint");
  EXPECT_EQ(rows(r), (Rows{"0|4", "2|3", "1|3"}));  // sums 18, 15, 12
}

TEST(SqlExecute, GroupByNameThatIsBothAnAliasAndAColumn) {
  plan::Session s("t");
  execute_statement(s, "CREATE TEMP VIEW kv AS SELECT id AS a, id % 2 AS b FROM range(4)");
  // `a` is a column of kv: Spark groups by the column, and then b is not grouped.
  EXPECT_EQ(error_class_of(
                [&] { execute_statement(s, "SELECT b AS a, count(*) AS n FROM kv GROUP BY a"); }),
            "MISSING_AGGREGATION");
  // `k` is not a column: the alias stands for b.
  auto r = execute_statement(s, "SELECT b AS k, count(*) AS n FROM kv GROUP BY k ORDER BY k");
  EXPECT_EQ(rows(r), (Rows{"0|2", "1|2"}));
}

TEST(SqlExecute, OrderByAColumnNotSelected) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT id * 2 AS x FROM range(5) ORDER BY id DESC");
  EXPECT_EQ(rows(r), (Rows{"8", "6", "4", "2", "0"}));
}

TEST(SqlExecute, OrderByPositionOfAStarColumn) {
  plan::Session s("t");
  execute_statement(s, "CREATE TEMP VIEW pairs AS SELECT id AS a, 10 - id AS b FROM range(4)");
  auto r = execute_statement(s, "SELECT * FROM pairs ORDER BY 2");
  EXPECT_EQ(rows(r), (Rows{"3|7", "2|8", "1|9", "0|10"}));
  r = execute_statement(s, "SELECT p.* FROM pairs p ORDER BY 1 DESC LIMIT 1");
  EXPECT_EQ(rows(r), (Rows{"3|7"}));
}

TEST(SqlExecute, LateralColumnAliases) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT id * 2 AS d, d + 1 AS e FROM range(3) ORDER BY id");
  EXPECT_EQ(names(r), "d:bigint,e:bigint");
  EXPECT_EQ(rows(r), (Rows{"0|1", "2|3", "4|5"}));
  // A FROM column of the same name wins over the alias, as in Spark.
  r = execute_statement(s, "SELECT 5 AS id, id + 1 AS next FROM range(2)");
  EXPECT_EQ(rows(r), (Rows{"5|1", "5|2"}));
}

TEST(SqlExecute, WhereLimitOffsetAndCte) {
  plan::Session s("t");
  auto r = execute_statement(s, "WITH c AS (SELECT id FROM range(5)) SELECT * FROM c WHERE id > 2");
  EXPECT_EQ(rows(r), (Rows{"3", "4"}));
  r = execute_statement(s,
                        "SELECT id FROM range(10) WHERE id BETWEEN 2 AND 8 AND id NOT IN (4, 5) "
                        "ORDER BY id DESC LIMIT 3 OFFSET 1");
  EXPECT_EQ(rows(r), (Rows{"7", "6", "3"}));
}

TEST(SqlExecute, ValuesAndUnion) {
  plan::Session s("t");
  auto r = execute_statement(s, "SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(x, y)");
  EXPECT_EQ(names(r), "x:int,y:string");
  EXPECT_EQ(rows(r), (Rows{"1|a", "2|b"}));
  r = execute_statement(s, "VALUES (1, 2.5), (3, NULL)");
  EXPECT_EQ(names(r), "col1:int,col2:decimal(2,1)");
  EXPECT_EQ(rows(r), (Rows{"1|2.5", "3|NULL"}));
  r = execute_statement(s, "SELECT 1 AS a UNION ALL SELECT 2 UNION ALL SELECT 1");
  EXPECT_EQ(names(r), "a:int");
  EXPECT_EQ(rows(r), (Rows{"1", "2", "1"}));
}

/// The analyzed plan under the subquery aliases of `sql`, a query.
plan::PlanPtr analyzed_relation(plan::Session& s, const std::string& sql) {
  plan::PlanPtr p = s.analyze(parse_query(sql));
  while (p->kind == plan::PlanKind::kSubqueryAlias || p->kind == plan::PlanKind::kProject)
    p = p->children[0];
  return p;
}

TEST(SqlExecute, ValuesThatFoldAreOneLocalBatch) {
  plan::Session s("t");
  // Widened types (INT and DOUBLE), folded expressions and nested values: one batch of rows.
  plan::PlanPtr p = analyzed_relation(s,
                                      "SELECT * FROM VALUES (1, named_struct('a', 1 + 1)), (2.5D, "
                                      "NULL), (abs(-3), named_struct('a', 7)) AS t(x, y)");
  ASSERT_EQ(p->kind, plan::PlanKind::kLocalRelation);
  ASSERT_EQ(p->batches.size(), 1u);
  EXPECT_EQ(p->batches[0].num_rows, 3);
  EXPECT_EQ(p->output[0]->type->simple_string(), "double");
  EXPECT_EQ(p->batches[0].columns[1]->value_at(0).as_list()[0].as_int(), 2);
  EXPECT_TRUE(p->batches[0].columns[1]->value_at(1).is_null());
  // A value that differs from call to call cannot be one (Spark evaluates the table once); one
  // whose evaluation fails is an error of the table, wherever the query reads it.
  EXPECT_EQ(
      error_class_of([&] { analyzed_relation(s, "SELECT * FROM VALUES (1D), (rand(1)) AS t(x)"); }),
      "INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE");
  EXPECT_EQ(error_class_of(
                [&] { execute_statement(s, "SELECT * FROM VALUES (1), (1 / 0) AS t(x) LIMIT 1"); }),
            "INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION");
  // A value that does not fold to a literal (a higher-order function) keeps the rows a union.
  EXPECT_EQ(
      analyzed_relation(s, "SELECT * FROM VALUES (1), (size(transform(array(1), x -> x))) AS t(x)")
          ->kind,
      plan::PlanKind::kSetOp);
  auto r = execute_statement(
      s, "SELECT x, count(*) FROM VALUES (1), (1 + 0), (2L) AS t(x) GROUP BY x ORDER BY x");
  EXPECT_EQ(rows(r), (Rows{"1|2", "2|1"}));
}

TEST(SqlExecute, ValuesAreTypedAsAWhole) {
  plan::Session s("t");
  // Each column takes the wider type of all its values, without promoting numbers to strings.
  plan::PlanPtr p = analyzed_relation(
      s, "SELECT * FROM VALUES (1, array(1)), (2L, array(NULL)), (1.5, array(2L)) AS t(x, y)");
  ASSERT_EQ(p->kind, plan::PlanKind::kLocalRelation);
  EXPECT_EQ(p->output[0]->type->simple_string(), "decimal(21,1)");
  EXPECT_EQ(p->output[1]->type->simple_string(), "array<bigint>");
  EXPECT_EQ(error_class_of([&] { analyzed_relation(s, "SELECT * FROM VALUES (1), ('a') AS t(x)"); }),
            "INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE");
  // A value that cannot be evaluated once is reported before the types of its column.
  EXPECT_EQ(error_class_of([&] { analyzed_relation(s, "SELECT * FROM VALUES (rand()), ('a') AS t(x)"); }),
            "INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE");
}

TEST(SqlExecute, ExpressionsAndLiterals) {
  plan::Session s("t");
  auto r = execute_statement(s,
                             "SELECT 1 + 2 * 3, 7 % 3, CASE WHEN 1 = 1 THEN 'y' ELSE 'n' END, "
                             "CAST('5' AS INT) + 1, 2147483648, 1.5, NULL IS NULL, 'x' <> 'y'");
  EXPECT_EQ(rows(r), (Rows{"7|1|y|6|2147483648|1.5|true|true"}));
}

TEST(SqlExecute, TempViewsAndCommands) {
  plan::Session s("t");
  EXPECT_TRUE(
      execute_statement(s, "CREATE TEMP VIEW v1 AS SELECT id AS x FROM range(3)").schema.empty());
  EXPECT_EQ(rows(execute_statement(s, "SELECT sum(x) FROM v1")), (Rows{"3"}));
  EXPECT_EQ(rows(execute_statement(s, "SELECT v.x FROM v1 v WHERE v.x > 1")), (Rows{"2"}));
  EXPECT_EQ(
      error_class_of([&] { execute_statement(s, "CREATE TEMPORARY VIEW v1 AS SELECT 2 AS x"); }),
      "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS");
  execute_statement(s, "CREATE OR REPLACE TEMP VIEW v1 (y) AS SELECT 2 AS x");
  auto r = execute_statement(s, "SELECT * FROM v1");
  EXPECT_EQ(names(r), "y:int");
  EXPECT_EQ(rows(r), (Rows{"2"}));
  r = execute_statement(s, "SHOW TABLES");
  EXPECT_EQ(names(r), "namespace:string,tableName:string,isTemporary:boolean");
  EXPECT_EQ(rows(r), (Rows{"|v1|true"}));
  EXPECT_EQ(rows(execute_statement(s, "DESCRIBE v1")), (Rows{"y|int|NULL"}));
  EXPECT_EQ(rows(execute_statement(s, "DESCRIBE QUERY SELECT 1 AS a, 'x' AS b")),
            (Rows{"a|int|NULL", "b|string|NULL"}));
  execute_statement(s, "DROP VIEW v1");
  execute_statement(s, "DROP VIEW IF EXISTS v1");
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "DROP VIEW v1"); }),
            "TABLE_OR_VIEW_NOT_FOUND");
}

TEST(SqlExecute, SetResetExplain) {
  plan::Session s("t");
  auto r = execute_statement(s, "SET spark.sql.ansi.enabled=false");
  EXPECT_EQ(names(r), "key:string,value:string");
  EXPECT_EQ(rows(r), (Rows{"spark.sql.ansi.enabled|false"}));
  EXPECT_FALSE(s.config().ansi_enabled());
  EXPECT_EQ(rows(execute_statement(s, "SET foo.bar")), (Rows{"foo.bar|<undefined>"}));
  execute_statement(s, "RESET");
  EXPECT_TRUE(s.config().ansi_enabled());
  r = execute_statement(s, "EXPLAIN SELECT id FROM range(3)");
  EXPECT_EQ(names(r), "plan:string");
  ASSERT_EQ(r.num_rows(), 1);
  EXPECT_NE(rows(r)[0].find("== Physical Plan =="), std::string::npos);
  EXPECT_EQ(rows(execute_statement(s, "SHOW FUNCTIONS LIKE 'count'")), (Rows{"count"}));
  EXPECT_EQ(rows(execute_statement(s, "SHOW FUNCTIONS LIKE 'count_*'")),
            (Rows{"count_if", "count_min_sketch"}));
  EXPECT_EQ(rows(execute_statement(s, "SHOW DATABASES")), (Rows{"default"}));
  EXPECT_EQ(error_class_of([&] { execute_statement(s, "USE nope"); }), "SCHEMA_NOT_FOUND");
  EXPECT_EQ(
      error_class_of([&] { execute_statement(s, "CREATE TABLE x (a INT) LOCATION '/tmp/x'"); }),
      "UNSUPPORTED_FEATURE");
}

TEST(SqlShell, RunsScriptsAndReportsErrors) {
  plan::Session s("t");
  std::ostringstream out, err;
  EXPECT_TRUE(run_script(s, "SELECT id FROM range(2);\n-- comment\nSELECT 'a;b' AS s;", out, err,
                         true, true));
  EXPECT_EQ(out.str(),
            "+---+\n|id |\n+---+\n|0  |\n|1  |\n+---+\n+---+\n|s  |\n+---+\n|a;b|\n+---+\n");
  EXPECT_NE(err.str().find("Fetched 2 row(s)"), std::string::npos);
  std::ostringstream out2, err2;
  EXPECT_FALSE(run_script(s, "SELEC 1; SELECT 2", out2, err2, false, true));
  EXPECT_EQ(out2.str(), "");
  EXPECT_EQ(
      err2.str(),
      "[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'. SQLSTATE: 42601 (line 1, pos 0)\n\n"
      "== SQL ==\nSELEC 1\n^^^\n\n");
}

TEST(SqlShell, PrintsTabSeparatedRowsLikeSparkSql) {
  plan::Session s("t");
  std::ostringstream out, err;
  EXPECT_TRUE(run_script(s, "SELECT id, CAST(NULL AS STRING) AS n, 'x y' AS s FROM range(2)", out,
                         err, false, true, OutputFormat::kTsv));
  EXPECT_EQ(out.str(), "0\tNULL\tx y\n1\tNULL\tx y\n");
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace ember::sql
