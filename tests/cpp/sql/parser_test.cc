// The SQL parser: trees, precedence, literals and their types, statements, and errors with
// their positions. Expected texts and types were checked against Apache Spark 4.3.

#include "sql/parser.h"

#include <gtest/gtest.h>

#include <functional>

#include "common/error.h"
#include "sql/parse_error.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

using plan::ExprKind;
using plan::PlanKind;
using plan::PlanPtr;

std::string expr_text(const plan::ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::kAlias:
      return expr_text(e->children[0]) + " AS " + e->name;
    case ExprKind::kSortOrder:
      return expr_text(e->children[0]) + (e->ascending ? " ASC" : " DESC") +
             (e->nulls_first ? " NULLS FIRST" : " NULLS LAST");
    case ExprKind::kUnresolvedFunction: {
      std::string s = e->name + "(" + (e->distinct ? "DISTINCT " : "");
      for (size_t i = 0; i < e->children.size(); ++i)
        s += (i ? ", " : "") + expr_text(e->children[i]);
      s += ")";
      if (e->filter) s += " FILTER " + expr_text(e->filter);
      return s;
    }
    case ExprKind::kCast:
      return std::string(e->try_ ? "try_cast(" : "cast(") + expr_text(e->children[0]) + " AS " +
             e->type->sql() + ")";
    case ExprKind::kLiteral:
      if (e->type->id() == TypeId::kString) return "'" + e->value.as_bytes() + "'";
      return e->to_string();
    case ExprKind::kWindow: {
      std::string s = expr_text(e->children[0]) + " OVER (";
      for (auto& p : e->partition_by) s += "P " + expr_text(p) + " ";
      for (auto& o : e->order_by) s += "O " + expr_text(o) + " ";
      if (e->frame.specified)
        s += std::string(e->frame.type == plan::WindowFrame::Type::kRows ? "ROWS " : "RANGE ") +
             std::to_string(e->frame.lower) + ".." + std::to_string(e->frame.upper);
      return s + ")";
    }
    case ExprKind::kLambda: {
      std::string s = "lambda(";
      for (size_t i = 1; i < e->children.size(); ++i) s += e->children[i]->name + " ";
      return s + "-> " + expr_text(e->children[0]) + ")";
    }
    case ExprKind::kLambdaVariable:
      return "var:" + e->name;
    case ExprKind::kUnresolvedExtract:
      return expr_text(e->children[0]) + "[" + expr_text(e->children[1]) + "]";
    default:
      return e->to_string();
  }
}

std::string exprs_text(const std::vector<plan::ExprPtr>& es) {
  std::string s;
  for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + expr_text(es[i]);
  return s;
}

/// A compact rendering of an unresolved plan: one node a line, children indented.
std::string tree(const PlanPtr& p, int depth = 0) {
  std::string pad(static_cast<size_t>(depth) * 2, ' ');
  std::string line;
  switch (p->kind) {
    case PlanKind::kRange:
      line = "Range " + std::to_string(p->range_start) + " " + std::to_string(p->range_end) + " " +
             std::to_string(p->range_step);
      break;
    case PlanKind::kLocalRelation: {
      line = "LocalRelation";
      for (auto& f : p->schema)
        line += " " + f.name + ":" + f.type->simple_string() + (f.nullable ? "?" : "");
      line += " rows=" + std::to_string(p->batches.empty() ? 0 : p->batches[0].num_rows);
      break;
    }
    case PlanKind::kUnresolvedRelation: {
      line = "Relation ";
      for (size_t i = 0; i < p->table_name.size(); ++i) line += (i ? "." : "") + p->table_name[i];
      break;
    }
    case PlanKind::kProject:
      line = "Project [" + exprs_text(p->exprs) + "]";
      break;
    case PlanKind::kFilter:
      line = "Filter " + expr_text(p->condition);
      break;
    case PlanKind::kAggregate:
      line = "Aggregate [" + exprs_text(p->exprs) + "] [" + exprs_text(p->aggregates) + "]" +
             (p->aggregate_output_is_select_list ? "" : " +keys");
      break;
    case PlanKind::kSort:
      line = std::string(p->is_global ? "Sort [" : "LocalSort [") + exprs_text(p->exprs) + "]";
      break;
    case PlanKind::kLimit:
      line = "Limit " + std::to_string(p->limit);
      break;
    case PlanKind::kOffset:
      line = "Offset " + std::to_string(p->limit);
      break;
    case PlanKind::kDistinct:
      line = "Distinct";
      break;
    case PlanKind::kSubqueryAlias:
      line = "SubqueryAlias " + p->alias;
      break;
    case PlanKind::kToDF: {
      line = "ToDF";
      for (auto& n : p->names) line += " " + n;
      break;
    }
    case PlanKind::kDrop: {
      line = "Drop";
      for (auto& n : p->names) line += " " + n;
      break;
    }
    case PlanKind::kJoin:
      line = "Join " + plan::join_type_name(p->join_type) +
             (p->condition ? " ON " + expr_text(p->condition) : "");
      for (auto& c : p->using_columns) line += " USING " + c;
      break;
    case PlanKind::kSetOp:
      line =
          std::string(p->set_op == plan::SetOpType::kUnion
                          ? "Union"
                          : (p->set_op == plan::SetOpType::kIntersect ? "Intersect" : "Except")) +
          (p->is_all ? " ALL" : "");
      break;
    default:
      line = "Node" + std::to_string(static_cast<int>(p->kind));
      break;
  }
  std::string out = pad + line + "\n";
  for (auto& c : p->children) out += tree(c, depth + 1);
  return out;
}

std::string q(const std::string& sql) { return tree(parse_query(sql)); }
std::string e(const std::string& sql) { return expr_text(parse_expression(sql)); }
std::string type_of(const std::string& sql) {
  auto x = parse_expression(sql);
  EXPECT_EQ(x->kind, ExprKind::kLiteral) << sql;
  return x->type->simple_string();
}

/// The SparkError a parse raises.
SparkError parse_error(const std::string& sql) {
  try {
    parse_statement(sql);
  } catch (const SparkError& err) {
    return err;
  }
  ADD_FAILURE() << "no error for: " << sql;
  return SparkError(ErrorKind::kInternal, "NONE", "");
}

// --- Expressions -----------------------------------------------------------------------------

TEST(SqlExpression, ArithmeticPrecedence) {
  EXPECT_EQ(e("a + 1 * 2"), "+(a, *(1, 2))");
  EXPECT_EQ(e("(a + 1) * 2"), "*(+(a, 1), 2)");
  EXPECT_EQ(e("3 - 2 - 1"), "-(-(3, 2), 1)");
  EXPECT_EQ(e("2 * 3 % 4"), "%(*(2, 3), 4)");
  EXPECT_EQ(e("1 + 2 || 3"), "concat(+(1, 2), 3)");
  EXPECT_EQ(e("1 | 2 & 3 ^ 4"), "|(1, ^(&(2, 3), 4))");
  EXPECT_EQ(e("a DIV 2"), "div(a, 2)");
  EXPECT_EQ(e("1 << 2 + 1"), "<<(1, +(2, 1))");
  EXPECT_EQ(e("8 >> 1"), ">>(8, 1)");
  EXPECT_EQ(e("-8 >>> 1"), ">>>(-8, 1)");
}

TEST(SqlExpression, UnaryMinusFoldsIntoNumbers) {
  EXPECT_EQ(e("- 2 * 3"), "*(-2, 3)");
  EXPECT_EQ(e("-a * 2"), "*(-(a), 2)");
  EXPECT_EQ(e("+a"), "positive(a)");
  EXPECT_EQ(e("~a"), "~(a)");
  EXPECT_EQ(type_of("-2147483648"), "int");
  EXPECT_EQ(type_of("-9223372036854775808"), "bigint");
  EXPECT_EQ(type_of("-9223372036854775809"), "decimal(19,0)");
}

TEST(SqlExpression, ComparisonsAndBooleans) {
  EXPECT_EQ(e("a = 1"), "==(a, 1)");
  EXPECT_EQ(e("a == 1"), "==(a, 1)");
  EXPECT_EQ(e("a <> 1"), "not(==(a, 1))");
  EXPECT_EQ(e("a != 1"), "not(==(a, 1))");
  EXPECT_EQ(e("a <=> 1"), "<=>(a, 1)");
  EXPECT_EQ(e("a < 1 AND b >= 2 OR NOT c"), "or(and(<(a, 1), >=(b, 2)), not(c))");
  EXPECT_EQ(e("a OR b AND c"), "or(a, and(b, c))");
  EXPECT_EQ(e("NOT a = 1"), "not(==(a, 1))");
  EXPECT_EQ(e("!true"), "not(true)");
  EXPECT_EQ(e("1 = 1 = true"), "==(==(1, 1), true)");
}

TEST(SqlExpression, Predicates) {
  EXPECT_EQ(e("a BETWEEN 1 AND 2"), "between(a, 1, 2)");
  EXPECT_EQ(e("a NOT BETWEEN 1 AND 2"), "not(between(a, 1, 2))");
  EXPECT_EQ(e("a IN (1, 2)"), "in(a, 1, 2)");
  EXPECT_EQ(e("a NOT IN (1, 2)"), "not(in(a, 1, 2))");
  EXPECT_EQ(e("b IS NULL"), "isnull(b)");
  EXPECT_EQ(e("b IS NOT NULL"), "isnotnull(b)");
  EXPECT_EQ(e("a = 1 IS NULL"), "isnull(==(a, 1))");
  EXPECT_EQ(e("a IS DISTINCT FROM 1"), "not(<=>(a, 1))");
  EXPECT_EQ(e("a IS NOT DISTINCT FROM 1"), "<=>(a, 1)");
  EXPECT_EQ(e("a IS TRUE"), "<=>(a, true)");
  EXPECT_EQ(e("a IS NOT FALSE"), "not(<=>(a, false))");
  EXPECT_EQ(e("b LIKE 'a%'"), "like(b, 'a%')");
  EXPECT_EQ(e("b NOT LIKE 'a%'"), "not(like(b, 'a%'))");
  EXPECT_EQ(e("b ILIKE 'A%'"), "ilike(b, 'A%')");
  EXPECT_EQ(e("b RLIKE 'a'"), "rlike(b, 'a')");
  EXPECT_EQ(e("b REGEXP 'a'"), "rlike(b, 'a')");
  EXPECT_EQ(e("b LIKE 'a/%' ESCAPE '/'"), "like(b, 'a/%', '/')");
}

TEST(SqlExpression, CaseCastAndFunctions) {
  EXPECT_EQ(e("CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END"),
            "when(==(a, 1), 'one', ==(a, 2), 'two', 'many')");
  EXPECT_EQ(e("CASE a WHEN 1 THEN 'x' END"), "when(==(a, 1), 'x')");
  EXPECT_EQ(e("CAST(a AS STRING)"), "cast(a AS STRING)");
  EXPECT_EQ(e("CAST(1 AS DECIMAL(10, 2))"), "cast(1 AS DECIMAL(10,2))");
  EXPECT_EQ(e("a::bigint"), "cast(a AS BIGINT)");
  EXPECT_EQ(e("-a::int"), "-(cast(a AS INT))");
  EXPECT_EQ(e("TRY_CAST(b AS INT)"), "try_cast(b AS INT)");
  EXPECT_EQ(e("CAST(x AS array<array<int>>)"), "cast(x AS ARRAY<ARRAY<INT>>)");
  EXPECT_EQ(e("count(*)"), "count(*)");
  EXPECT_EQ(e("count(DISTINCT a, b)"), "count(DISTINCT a, b)");
  EXPECT_EQ(e("sum(a) FILTER (WHERE a > 1)"), "sum(a) FILTER >(a, 1)");
  EXPECT_EQ(e("count(DISTINCT)"), "count(DISTINCT)");  // a column named DISTINCT, as in Spark
  EXPECT_EQ(e("upper(t.b)"), "upper(t.b)");
  EXPECT_EQ(e("system.builtin.abs(-1)"), "abs(-1)");
  EXPECT_EQ(e("current_date"), "current_date()");
  EXPECT_EQ(e("EXTRACT(YEAR FROM d)"), "extract('YEAR', d)");
  EXPECT_EQ(e("TRIM(BOTH 'x' FROM s)"), "trim('x', s)");
  EXPECT_EQ(e("TRIM(LEADING FROM s)"), "ltrim(s)");
  EXPECT_EQ(e("SUBSTRING(s FROM 2 FOR 3)"), "substring(s, 2, 3)");
  EXPECT_EQ(e("POSITION('a' IN s)"), "locate('a', s)");
  EXPECT_EQ(e("first(a) IGNORE NULLS"), "first(a, true)");
  EXPECT_EQ(e("(1, 2)"), "named_struct('col1', 1, 'col2', 2)");
  EXPECT_EQ(e("struct(1 AS x, b)"), "struct(1 AS x, b)");
  EXPECT_EQ(e("-2::string"), "cast(-2 AS STRING)");
  EXPECT_EQ(e("a[0].b"), "a[0]['b']");
  EXPECT_EQ(e("transform(xs, x -> x + 1)"), "transform(xs, lambda(x -> +(var:x, 1)))");
  EXPECT_EQ(e("zip_with(a, b, (x, y) -> x * y)"), "zip_with(a, b, lambda(x y -> *(var:x, var:y)))");
}

TEST(SqlExpression, DoubleQuotedIdentifiersOption) {
  ParseOptions o;
  o.double_quoted_identifiers = true;
  EXPECT_EQ(expr_text(parse_expression("\"my col\" + 1", o)), "+(my col, 1)");
  EXPECT_EQ(expr_text(parse_expression("'s'", o)), "'s'");
}

TEST(SqlExpression, NamedExpressions) {
  EXPECT_EQ(e("a + 1 AS b"), "+(a, 1) AS b");
  EXPECT_EQ(e("a b"), "a AS b");
  EXPECT_EQ(e("a AS `weird name`"), "a AS weird name");
  EXPECT_EQ(e("`a``b`"), "a`b");
  EXPECT_EQ(e("*"), "*");
  EXPECT_EQ(e("t.*"), "t.*");
}

TEST(SqlExpression, Windows) {
  EXPECT_EQ(e("row_number() OVER (PARTITION BY a ORDER BY b DESC)"),
            "row_number() OVER (P a O b DESC NULLS LAST )");
  EXPECT_EQ(e("sum(x) OVER (ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)"),
            "sum(x) OVER (O t ASC NULLS FIRST ROWS -2..0)");
  EXPECT_EQ(e("sum(x) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING)"),
            "sum(x) OVER (ROWS -9223372036854775808..1)");
  EXPECT_EQ(e("sum(x) OVER (RANGE 3 PRECEDING)"), "sum(x) OVER (RANGE -3..0)");
}

// --- Literals ----------------------------------------------------------------------------------

TEST(SqlLiteral, NumericTypesFollowSpark) {
  EXPECT_EQ(type_of("1"), "int");
  EXPECT_EQ(type_of("2147483647"), "int");
  EXPECT_EQ(type_of("2147483648"), "bigint");
  EXPECT_EQ(type_of("9223372036854775807"), "bigint");
  EXPECT_EQ(type_of("9223372036854775808"), "decimal(19,0)");
  EXPECT_EQ(type_of("12345678901234567890123456789012345678"), "decimal(38,0)");
  EXPECT_EQ(type_of("1L"), "bigint");
  EXPECT_EQ(type_of("1S"), "smallint");
  EXPECT_EQ(type_of("1Y"), "tinyint");
  EXPECT_EQ(type_of("1D"), "double");
  EXPECT_EQ(type_of("1F"), "float");
  EXPECT_EQ(type_of("1BD"), "decimal(1,0)");
  EXPECT_EQ(type_of("1.5"), "decimal(2,1)");
  EXPECT_EQ(type_of("1.50"), "decimal(3,2)");
  EXPECT_EQ(type_of("0.001"), "decimal(3,3)");
  EXPECT_EQ(type_of(".5"), "decimal(1,1)");
  EXPECT_EQ(type_of("1."), "decimal(1,0)");
  EXPECT_EQ(type_of("0.0"), "decimal(1,1)");
  EXPECT_EQ(type_of("00.5"), "decimal(1,1)");
  EXPECT_EQ(type_of("123.456BD"), "decimal(6,3)");
  EXPECT_EQ(type_of("1E10BD"), "decimal(11,0)");
  EXPECT_EQ(type_of("1e3"), "double");
  EXPECT_EQ(type_of("1.5e2"), "double");
  EXPECT_EQ(type_of(".5e1"), "double");
  EXPECT_EQ(type_of("1.5D"), "double");
  EXPECT_EQ(type_of("1.5F"), "float");
  EXPECT_EQ(parse_expression("1e3")->value.as_double(), 1000.0);
  // The largest values as their shortest text, and digits that equal them exactly.
  EXPECT_EQ(parse_expression("-1.7976931348623157E308D")->value.as_double(), -1.7976931348623157E308);
  EXPECT_EQ(parse_expression("0.17976931348623157E309D")->value.as_double(), 1.7976931348623157E308);
  EXPECT_EQ(parse_expression("3.4028234663852886E38F")->value.as_double(), 3.4028234663852886E38);
  EXPECT_EQ(parse_expression("1E-400D")->value.as_double(), 0.0);
  EXPECT_EQ(parse_expression("1E10BD")->value.as_decimal(), static_cast<int128_t>(10000000000LL));
}

TEST(SqlLiteral, StringsAndOthers) {
  EXPECT_EQ(e("'a' 'b'"), "'ab'");
  EXPECT_EQ(e("\"b\""), "'b'");
  EXPECT_EQ(e("'it''s'"), "'it's'");
  EXPECT_EQ(e("\"x\"\"y\""), "'x\"y'");
  EXPECT_EQ(e("'a\\tb'"), "'a\tb'");
  EXPECT_EQ(e("'a\\'b'"), "'a'b'");
  EXPECT_EQ(e("r'a\\tb'"), "'a\\tb'");
  EXPECT_EQ(e("'\\u0041\\101\\n'"), "'AA\n'");
  EXPECT_EQ(type_of("TRUE"), "boolean");
  EXPECT_EQ(type_of("NULL"), "void");
  EXPECT_EQ(type_of("X'0A'"), "binary");
  EXPECT_EQ(parse_expression("X'ABC'")->value.as_bytes(), std::string("\x0a\xbc", 2));
  EXPECT_EQ(type_of("DATE '2020-01-01'"), "date");
  EXPECT_EQ(parse_expression("DATE '2020-01-02'")->value.as_int(), 18263);
  EXPECT_EQ(type_of("TIMESTAMP '2020-01-01 00:00:00'"), "timestamp");
  EXPECT_EQ(parse_expression("TIMESTAMP '1970-01-01 00:00:01'")->value.as_int(), 1000000);
  ParseOptions tokyo;
  tokyo.time_zone = "+09:00";
  EXPECT_EQ(parse_expression("TIMESTAMP '1970-01-01 09:00:00'", tokyo)->value.as_int(), 0);
  EXPECT_EQ(type_of("TIMESTAMP_NTZ '2020-01-01 00:00:00'"), "timestamp_ntz");
}

TEST(SqlLiteral, Intervals) {
  EXPECT_EQ(type_of("INTERVAL 1 DAY"), "interval day");
  EXPECT_EQ(parse_expression("INTERVAL 1 DAY")->value.as_int(), 86400000000LL);
  EXPECT_EQ(type_of("INTERVAL '1' YEAR"), "interval year");
  EXPECT_EQ(type_of("INTERVAL 2 HOURS 3 MINUTES"), "interval hour to minute");
  EXPECT_EQ(parse_expression("INTERVAL 2 HOURS 3 MINUTES")->value.as_int(),
            (2 * 3600 + 3 * 60) * 1000000LL);
  EXPECT_EQ(type_of("INTERVAL 1 YEAR 2 MONTHS"), "interval year to month");
  EXPECT_EQ(parse_expression("INTERVAL 1 YEAR 2 MONTHS")->value.as_int(), 14);
  EXPECT_EQ(type_of("INTERVAL '1-2' YEAR TO MONTH"), "interval year to month");
  EXPECT_EQ(parse_expression("INTERVAL '1 02:03:04.5' DAY TO SECOND")->value.as_int(),
            ((24 + 2) * 3600 + 3 * 60 + 4) * 1000000LL + 500000);
  EXPECT_EQ(parse_expression("INTERVAL 1.5 SECONDS")->value.as_int(), 1500000);
  EXPECT_EQ(type_of("INTERVAL 3 WEEKS"), "interval day");
  EXPECT_EQ(parse_expression("INTERVAL -2 HOURS")->value.as_int(), -7200000000LL);
}

TEST(SqlLiteral, ParameterMarkers) {
  ParseOptions o;
  o.parameters.named["x"] = plan::lit(Value::integer(5), DataType::int_());
  o.parameters.positional = {plan::lit(Value::integer(7), DataType::int_()),
                             plan::lit(Value::bytes("a"), DataType::string())};
  EXPECT_EQ(expr_text(parse_expression(":x + 1", o)), "+(5, 1)");
  EXPECT_EQ(tree(parse_query("SELECT ?, ?", o)), "Project [7, 'a']\n  Project []\n    Range 0 1 1\n");
}

// --- Queries -----------------------------------------------------------------------------------

TEST(SqlQuery, SelectFromWhere) {
  EXPECT_EQ(q("SELECT a, b + 1 AS c FROM t WHERE a > 1"),
            "Project [a, +(b, 1) AS c]\n"
            "  Filter >(a, 1)\n"
            "    Relation t\n");
  EXPECT_EQ(q("SELECT 1"), "Project [1]\n  Project []\n    Range 0 1 1\n");
  EXPECT_EQ(q("SELECT t1.a FROM db.t t1"),
            "Project [t1.a]\n  SubqueryAlias t1\n    Relation db.t\n");
  EXPECT_EQ(q("SELECT * FROM t AS x(p, q)"),
            "Project [*]\n  SubqueryAlias x\n    ToDF p q\n      Relation t\n");
  EXPECT_EQ(q("SELECT DISTINCT a FROM t"), "Distinct\n  Project [a]\n    Relation t\n");
  EXPECT_EQ(q("TABLE t"), "Relation t\n");
  EXPECT_EQ(q("FROM t SELECT a"), "Project [a]\n  Relation t\n");
  EXPECT_EQ(q("SELECT /*+ BROADCAST(t) */ a FROM t -- done"), "Project [a]\n  Relation t\n");
}

TEST(SqlQuery, KeywordsAsNames) {
  // Spark reserves no keyword by default: a clause keyword with nothing after it is a name.
  EXPECT_EQ(q("SELECT 1 FROM"), "Project [1 AS FROM]\n  Project []\n    Range 0 1 1\n");
  EXPECT_EQ(q("SELECT * FROM t WHERE"), "Project [*]\n  SubqueryAlias WHERE\n    Relation t\n");
  EXPECT_EQ(q("SELECT 1 AS select, 2 AS from"),
            "Project [1 AS select, 2 AS from]\n  Project []\n    Range 0 1 1\n");
  EXPECT_EQ(q("SELECT date, timestamp FROM t"), "Project [date, timestamp]\n  Relation t\n");
}

TEST(SqlQuery, Aggregation) {
  EXPECT_EQ(q("SELECT id % 3 AS k, count(*) FROM range(10) GROUP BY k ORDER BY k"),
            "Sort [k ASC NULLS FIRST]\n"
            "  Aggregate [%(id, 3)] [%(id, 3) AS k, count(*)]\n"
            "    Range 0 10 1\n");
  EXPECT_EQ(q("SELECT a, count(*) c FROM t GROUP BY 1 HAVING c > 3 ORDER BY 2 DESC"),
            "Sort [c DESC NULLS LAST]\n"
            "  Filter >(c, 3)\n"
            "    Aggregate [a] [a, count(*) AS c]\n"
            "      Relation t\n");
  EXPECT_EQ(q("SELECT count(*) FROM t"), "Aggregate [] [count(*)]\n  Relation t\n");
  EXPECT_EQ(q("SELECT a, b, count(*) FROM t GROUP BY ALL"),
            "Aggregate [a, b] [a, b, count(*)]\n  Relation t\n");
  // An alias that reads the column of its own name groups by the column, as Spark does.
  EXPECT_EQ(q("SELECT a + 1 AS a, count(*) FROM t GROUP BY a"),
            "Aggregate [a] [+(a, 1) AS a, count(*)]\n  Relation t\n");
}

TEST(SqlQuery, HavingAndOrderByUseHiddenAggregates) {
  EXPECT_EQ(q("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 0 ORDER BY count(*) DESC, a"),
            "Drop __sql_hidden_0\n"
            "  Sort [__sql_hidden_0 DESC NULLS LAST, a ASC NULLS FIRST]\n"
            "    Filter >(__sql_hidden_0, 0)\n"
            "      Aggregate [a] [a, count(*), count(*) AS __sql_hidden_0]\n"
            "        Relation t\n");
  EXPECT_EQ(q("SELECT count(*) FROM t GROUP BY a HAVING a > 1"),
            "Drop __sql_hidden_0\n"
            "  Filter >(__sql_hidden_0, 1)\n"
            "    Aggregate [a] [count(*), a AS __sql_hidden_0]\n"
            "      Relation t\n");
}

TEST(SqlQuery, OrderByOutsideTheSelectList) {
  // Keys the projection keeps sort above it; others sort below it on the FROM columns.
  EXPECT_EQ(q("SELECT a AS x FROM t ORDER BY x"),
            "Sort [x ASC NULLS FIRST]\n  Project [a AS x]\n    Relation t\n");
  EXPECT_EQ(q("SELECT a AS x FROM t ORDER BY c, x DESC"),
            "Project [a AS x]\n  Sort [c ASC NULLS FIRST, a DESC NULLS LAST]\n    Relation t\n");
  EXPECT_EQ(q("SELECT a + 1 FROM t ORDER BY 1"),
            "Project [+(a, 1)]\n  Sort [+(a, 1) ASC NULLS FIRST]\n    Relation t\n");
  EXPECT_EQ(q("SELECT * FROM t ORDER BY b DESC NULLS LAST, a LIMIT 2 OFFSET 1"),
            "Limit 2\n  Offset 1\n    Sort [b DESC NULLS LAST, a ASC NULLS FIRST]\n      Project "
            "[*]\n        Relation t\n");
  EXPECT_EQ(q("SELECT a FROM t SORT BY a"),
            "LocalSort [a ASC NULLS FIRST]\n  Project [a]\n    Relation t\n");
  EXPECT_EQ(q("SELECT a FROM t LIMIT 1 + 1"), "Limit 2\n  Project [a]\n    Relation t\n");
  EXPECT_EQ(q("SELECT a FROM t LIMIT ALL"), "Project [a]\n  Relation t\n");
}

TEST(SqlQuery, OrderByPositionWithinAStar) {
  EXPECT_EQ(parse_error("SELECT * FROM t ORDER BY 2").error_class(), "UNSUPPORTED_FEATURE");
  ParseOptions o;
  o.relation_columns = [](const PlanPtr&) {
    return std::vector<std::pair<std::string, std::string>>{{"t", "a"}, {"t", "b"}, {"u", "c"}};
  };
  EXPECT_EQ(
      tree(parse_query("SELECT *, 1 AS one FROM t ORDER BY 2 DESC, 4", o)),
      "Sort [t.b DESC NULLS LAST, one ASC NULLS FIRST]\n  Project [*, 1 AS one]\n    Relation t\n");
  EXPECT_EQ(tree(parse_query("SELECT u.*, t.* FROM t ORDER BY 2", o)),
            "Sort [t.a ASC NULLS FIRST]\n  Project [u.*, t.*]\n    Relation t\n");
  try {
    parse_query("SELECT * FROM t ORDER BY 4", o);
    ADD_FAILURE() << "expected ORDER_BY_POS_OUT_OF_RANGE";
  } catch (const SparkError& err) {
    EXPECT_EQ(err.error_class(), "ORDER_BY_POS_OUT_OF_RANGE");
    EXPECT_EQ(err.params().at("size"), "3");
  }
}

TEST(SqlQuery, SetOperations) {
  EXPECT_EQ(q("SELECT 1 AS a UNION SELECT 2 UNION ALL SELECT 1"),
            "Union ALL\n"
            "  Distinct\n"
            "    Union ALL\n"
            "      Project [1 AS a]\n        Project []\n          Range 0 1 1\n"
            "      Project [2]\n        Project []\n          Range 0 1 1\n"
            "  Project [1]\n    Project []\n      Range 0 1 1\n");
  // INTERSECT binds tighter than UNION.
  EXPECT_EQ(q("SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3"),
            "Union ALL\n"
            "  Project [1]\n    Project []\n      Range 0 1 1\n"
            "  Intersect\n"
            "    Project [2]\n      Project []\n        Range 0 1 1\n"
            "    Project [3]\n      Project []\n        Range 0 1 1\n");
  EXPECT_EQ(q("SELECT a FROM t EXCEPT ALL SELECT a FROM u ORDER BY 1"),
            "Sort [a ASC NULLS FIRST]\n"
            "  Except ALL\n"
            "    Project [a]\n      Relation t\n"
            "    Project [a]\n      Relation u\n");
}

TEST(SqlQuery, FromClauseRelations) {
  EXPECT_EQ(q("SELECT * FROM range(1, 10, 3)"), "Project [*]\n  Range 1 10 3\n");
  EXPECT_EQ(q("SELECT * FROM range(5) r"), "Project [*]\n  SubqueryAlias r\n    Range 0 5 1\n");
  EXPECT_EQ(q("SELECT a FROM (SELECT a FROM t)"),
            "Project [a]\n  SubqueryAlias __auto_generated_subquery_name\n    Project [a]\n      "
            "Relation t\n");
  EXPECT_EQ(q("WITH c AS (SELECT id FROM range(5)) SELECT * FROM c WHERE id > 2"),
            "Project [*]\n  Filter >(id, 2)\n    SubqueryAlias c\n      Project [id]\n        "
            "Range 0 5 1\n");
  EXPECT_EQ(q("WITH c(x) AS (SELECT 1) SELECT x FROM c"),
            "Project [x]\n  SubqueryAlias c\n    ToDF x\n      Project [1]\n        Project []\n          Range 0 1 1\n");
}

TEST(SqlQuery, InlineTables) {
  // Column aliases name the table's columns.
  EXPECT_EQ(q("SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(x, y)"),
            "Project [*]\n  SubqueryAlias v\n    LocalRelation x:int y:string rows=2\n");
  EXPECT_EQ(q("VALUES (1, 2.5), (3, NULL)"), "LocalRelation col1:int col2:decimal(2,1)? rows=2\n");
  EXPECT_EQ(q("VALUES 1, 2, 3"), "LocalRelation col1:int rows=3\n");
  // Every row must have as many values as the table has column aliases.
  SparkError err = parse_error("SELECT * FROM VALUES (1, 2), (3, 4) AS t(a)");
  EXPECT_EQ(err.error_class(), "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH");
  EXPECT_EQ(err.params().at("expectedNumCols"), "1");
  EXPECT_EQ(err.params().at("actualNumCols"), "2");
  // Mixed types unite through a UNION ALL marked as an inline table, which the analyzer types.
  EXPECT_EQ(q("VALUES (1), (2.5)"),
            "Union ALL\n  Project [1 AS col1]\n    Range 0 1 1\n  Project [2.5 AS col1]\n    Range "
            "0 1 1\n");
}

TEST(SqlQuery, Joins) {
  EXPECT_EQ(q("SELECT * FROM a JOIN b ON a.id = b.id LEFT JOIN c USING (id)"),
            "Project [*]\n"
            "  Join LeftOuter USING id\n"
            "    Join Inner ON ==(a.id, b.id)\n"
            "      Relation a\n"
            "      Relation b\n"
            "    Relation c\n");
  EXPECT_EQ(q("SELECT * FROM a, b"), "Project [*]\n  Join Inner\n    Relation a\n    Relation b\n");
  EXPECT_EQ(q("SELECT * FROM a LEFT SEMI JOIN b ON x = y"),
            "Project [*]\n  Join LeftSemi ON ==(x, y)\n    Relation a\n    Relation b\n");
  EXPECT_EQ(q("SELECT * FROM a ANTI JOIN b ON x = y"),
            "Project [*]\n  Join LeftAnti ON ==(x, y)\n    Relation a\n    Relation b\n");
  EXPECT_EQ(q("SELECT * FROM a CROSS JOIN b"),
            "Project [*]\n  Join Cross\n    Relation a\n    Relation b\n");
  EXPECT_EQ(q("SELECT * FROM a FULL OUTER JOIN b ON true"),
            "Project [*]\n  Join FullOuter ON true\n    Relation a\n    Relation b\n");
  EXPECT_EQ(q("SELECT * FROM a RIGHT JOIN b ON true"),
            "Project [*]\n  Join RightOuter ON true\n    Relation a\n    Relation b\n");
}

TEST(SqlQuery, NamedWindows) {
  EXPECT_EQ(q("SELECT rank() OVER w FROM t WINDOW w AS (PARTITION BY a ORDER BY b)"),
            "Project [rank() OVER (P a O b ASC NULLS FIRST )]\n  Relation t\n");
}

// --- Statements ----------------------------------------------------------------------------------

TEST(SqlStatement, Commands) {
  Statement s = parse_statement("SET spark.sql.ansi.enabled = false");
  EXPECT_EQ(s.kind, StatementKind::kSet);
  EXPECT_EQ(s.key, "spark.sql.ansi.enabled");
  EXPECT_EQ(s.value, "false");
  EXPECT_TRUE(s.has_value);
  s = parse_statement("SET spark.sql.shuffle.partitions");
  EXPECT_FALSE(s.has_value);
  s = parse_statement("SET");
  EXPECT_TRUE(s.key.empty());
  s = parse_statement("SET TIME ZONE 'America/New_York'");
  EXPECT_EQ(s.key, "spark.sql.session.timeZone");
  EXPECT_EQ(s.value, "America/New_York");
  s = parse_statement("CREATE OR REPLACE TEMP VIEW v (y) AS SELECT 2 AS x");
  EXPECT_EQ(s.kind, StatementKind::kCreateView);
  EXPECT_TRUE(s.replace);
  EXPECT_EQ(s.column_names, std::vector<std::string>{"y"});
  s = parse_statement("DROP VIEW IF EXISTS v;");
  EXPECT_EQ(s.kind, StatementKind::kDropView);
  EXPECT_TRUE(s.if_exists);
  s = parse_statement("EXPLAIN EXTENDED SELECT 1");
  EXPECT_EQ(s.kind, StatementKind::kExplain);
  EXPECT_EQ(s.explain_mode, plan::ExplainMode::kExtended);
  EXPECT_EQ(parse_statement("SHOW TABLES LIKE 'a*'").pattern, "a*");
  EXPECT_EQ(parse_statement("DESCRIBE QUERY SELECT 1").kind, StatementKind::kDescribe);
  EXPECT_EQ(parse_statement("USE default").kind, StatementKind::kUse);
  EXPECT_EQ(parse_statement("CACHE TABLE t").kind, StatementKind::kCacheTable);
  EXPECT_EQ(parse_statement("CREATE TABLE x (a INT) LOCATION '/x'").kind, StatementKind::kUnsupported);
  EXPECT_EQ(parse_statement("DESCRIBE TABLE EXTENDED d.t").name, (std::vector<std::string>{"d", "t"}));
}

TEST(SqlStatement, ParsesTableStatements) {
  Statement s = parse_statement(
      "CREATE OR REPLACE TABLE db.t (a INT NOT NULL COMMENT 'x', p STRING) USING csv "
      "PARTITIONED BY (p) OPTIONS (header 'true') COMMENT 'c'");
  EXPECT_EQ(s.kind, StatementKind::kCreateTable);
  EXPECT_TRUE(s.replace);
  EXPECT_EQ(s.name, (std::vector<std::string>{"db", "t"}));
  ASSERT_EQ(s.table_schema.size(), 2u);
  EXPECT_FALSE(s.table_schema[0].nullable);
  EXPECT_EQ(s.provider, "csv");
  EXPECT_EQ(s.partition_by, (std::vector<std::string>{"p"}));
  EXPECT_EQ(s.table_options.at("header"), "true");
  EXPECT_EQ(s.comment, "c");

  s = parse_statement("CREATE TABLE IF NOT EXISTS t USING parquet AS SELECT 1 AS a");
  EXPECT_TRUE(s.if_not_exists);
  EXPECT_NE(s.query, nullptr);

  s = parse_statement("INSERT OVERWRITE TABLE t PARTITION (p = 1, q) (a, b) SELECT 1, 2");
  EXPECT_EQ(s.kind, StatementKind::kInsert);
  EXPECT_TRUE(s.overwrite);
  ASSERT_EQ(s.partition.size(), 2u);
  EXPECT_NE(s.partition[0].value, nullptr);
  EXPECT_EQ(s.partition[1].value, nullptr);
  EXPECT_EQ(s.column_names, (std::vector<std::string>{"a", "b"}));

  s = parse_statement("INSERT INTO t (SELECT 1)");
  EXPECT_TRUE(s.column_names.empty());
  EXPECT_NE(s.query, nullptr);

  EXPECT_EQ(parse_statement("ALTER TABLE a RENAME TO b").new_name, (std::vector<std::string>{"b"}));
  EXPECT_EQ(parse_statement("ALTER TABLE a ADD COLUMNS (c INT)").kind, StatementKind::kUnsupported);
  EXPECT_EQ(parse_statement("TRUNCATE TABLE a").kind, StatementKind::kTruncateTable);
  EXPECT_EQ(parse_statement("SHOW PARTITIONS a").kind, StatementKind::kShowPartitions);
  EXPECT_EQ(parse_statement("SHOW CREATE TABLE a").kind, StatementKind::kShowCreateTable);
  s = parse_statement("DROP SCHEMA IF EXISTS d CASCADE");
  EXPECT_EQ(s.kind, StatementKind::kDropNamespace);
  EXPECT_TRUE(s.if_exists && s.cascade);
  s = parse_statement("CREATE DATABASE IF NOT EXISTS d COMMENT 'x'");
  EXPECT_EQ(s.kind, StatementKind::kCreateNamespace);
  EXPECT_EQ(s.comment, "x");
}

TEST(SqlStatement, SplitsScripts) {
  EXPECT_EQ(split_statements("SELECT 1; SELECT ';' -- ;\n; /* ; */ SELECT `a;b`;  ;"),
            (std::vector<std::string>{"SELECT 1", "SELECT ';' -- ;", "/* ; */ SELECT `a;b`"}));
}

// --- Errors ------------------------------------------------------------------------------------

TEST(SqlError, SyntaxErrorsNameTheTokenAndPosition) {
  SparkError err = parse_error("SELEC 1");
  EXPECT_EQ(err.error_class(), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(err.kind(), ErrorKind::kParse);
  EXPECT_EQ(err.message(), "Syntax error at or near 'SELEC'.");
  EXPECT_EQ(err.line, 1);
  EXPECT_EQ(err.line_pos, 0);
  EXPECT_EQ(err.start, 0);
  EXPECT_EQ(err.stop, 4);
  EXPECT_EQ(
      format_parse_error(err, "SELEC 1"),
      "[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'. SQLSTATE: 42601 (line 1, pos 0)\n\n"
      "== SQL ==\nSELEC 1\n^^^\n");

  err = parse_error("SELECT 1 +");
  EXPECT_EQ(err.message(), "Syntax error at or near end of input.");
  EXPECT_EQ(err.line_pos, 10);

  err = parse_error("SELECT 1 1");
  EXPECT_EQ(err.message(), "Syntax error at or near '1': extra input '1'.");
  EXPECT_EQ(err.params().at("hint"), ": extra input '1'");
  EXPECT_EQ(err.line_pos, 9);

  err = parse_error("SELECT * FROM t ORDER BY");
  EXPECT_EQ(err.message(), "Syntax error at or near 'BY': extra input 'BY'.");
  EXPECT_EQ(err.line_pos, 22);

  err = parse_error("SELECT a FROM t GROUP a");
  EXPECT_EQ(err.message(), "Syntax error at or near 'a': extra input 'a'.");

  err = parse_error("SELECT\n  a,\n  b FROM t WHRE a > 1");
  EXPECT_EQ(err.message(), "Syntax error at or near 'a'.");
  EXPECT_EQ(err.line, 3);
  EXPECT_EQ(err.line_pos, 16);

  EXPECT_EQ(parse_error("SELECT (1").line_pos, 9);
  err = parse_error("SELECT 1; SELECT 2");
  EXPECT_EQ(err.message(), "Syntax error at or near 'SELECT'.");
  EXPECT_EQ(err.line_pos, 10);
  EXPECT_EQ(parse_error("SELECT CAST(a AS) FROM t").message(), "Syntax error at or near ')'.");
  EXPECT_EQ(parse_error("SELECT 'unterminated").message(), "Syntax error at or near '''.");
  EXPECT_EQ(parse_error("SELECT `a").message(), "Syntax error at or near '`'.");
  EXPECT_EQ(parse_error("SELECT /* c */ 1 /*+ hint */").message(),
            "Syntax error at or near '/*+'.");
  EXPECT_EQ(parse_error("SELECT a FROM t WHERE a BETWEEN 1").message(),
            "Syntax error at or near end of input.");
}

TEST(SqlError, EmptyStatement) {
  EXPECT_EQ(parse_error("").error_class(), "PARSE_EMPTY_STATEMENT");
  SparkError err = parse_error("  ");
  EXPECT_EQ(err.error_class(), "PARSE_EMPTY_STATEMENT");
  EXPECT_EQ(err.line_pos, 2);
  err = parse_error("-- nothing");
  EXPECT_EQ(err.message(), "Syntax error at or near end of input.");
  EXPECT_EQ(err.line_pos, 10);
}

TEST(SqlError, LexicalAndLiteralErrors) {
  EXPECT_EQ(parse_error("SELECT 1 /* abc").error_class(), "UNCLOSED_BRACKETED_COMMENT");
  SparkError err = parse_error("SELECT 1 AS ñ");
  EXPECT_EQ(err.error_class(), "INVALID_IDENTIFIER");
  EXPECT_EQ(err.line_pos, 12);

  err = parse_error("SELECT 128Y, 1");
  EXPECT_EQ(err.error_class(), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_EQ(err.message(),
            "Numeric literal 128 is outside the valid range for tinyint with minimum value of -128 "
            "and maximum "
            "value of 127. Please adjust the value accordingly.");
  EXPECT_EQ(err.start, 7);
  EXPECT_EQ(err.stop, 10);
  EXPECT_EQ(format_parse_error(err, "SELECT 128Y, 1"),
            "[INVALID_NUMERIC_LITERAL_RANGE] " + err.message() +
                " SQLSTATE: 22003\n== SQL (line 1, position 8) ==\nSELECT 128Y, 1\n       ^^^^\n");
  EXPECT_EQ(parse_error("SELECT 9223372036854775808L").params().at("typeName"), "bigint");
  EXPECT_EQ(parse_error("SELECT 1.5e400").params().at("typeName"), "double");
  err = parse_error("SELECT 99999999999999999999999999999999999999999");
  EXPECT_EQ(err.error_class(), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
  EXPECT_EQ(err.message(), "Decimal precision 41 exceeds max precision 38.");
  EXPECT_EQ(parse_error("SELECT 1E400BD").message(), "Decimal precision 401 exceeds max precision 38.");
  EXPECT_EQ(parse_error("SELECT 0.0000000000000000000000000000000000000001BD").message(),
            "Decimal precision 40 exceeds max precision 38.");
  err = parse_error("SELECT 3.4028235E38F");
  EXPECT_EQ(err.params().at("maxValue"), "3.4028234663852886E+38");
  EXPECT_EQ(err.params().at("typeName"), "float");
  // The exact digits decide, not the value they round to.
  err = parse_error("SELECT -1.7976931348623158E308D");
  EXPECT_EQ(err.params().at("rawStrippedQualifier"), "-1.7976931348623158E308");
  EXPECT_EQ(err.params().at("typeName"), "double");
  EXPECT_EQ(parse_error("SELECT 3.40282346638528860000001E38F").params().at("typeName"), "float");
  // Double.MaxValue's 309 integral digits, plus one in the last place.
  const std::string above_max = "SELECT 17976931348623157" + std::string(291, '0') + "1D";
  EXPECT_EQ(parse_error(above_max).params().at("typeName"), "double");

  err = parse_error("SELECT CAST(1 AS foo)");
  EXPECT_EQ(err.error_class(), "UNSUPPORTED_DATATYPE");
  EXPECT_EQ(err.message(), "Unsupported data type \"FOO\".");
  EXPECT_EQ(err.start, 17);

  err = parse_error("SELECT DATE '2020-13-01'");
  EXPECT_EQ(err.error_class(), "INVALID_TYPED_LITERAL");
  EXPECT_EQ(err.message(), "The value of the typed literal \"DATE\" is invalid: '2020-13-01'.");
  EXPECT_EQ(err.start, 7);
  EXPECT_EQ(err.stop, 23);
  EXPECT_EQ(parse_error("SELECT X'0g'").error_class(), "INVALID_TYPED_LITERAL");
  EXPECT_EQ(parse_error("SELECT INTERVAL 1 YEAR 2 DAYS").message(),
            "Cannot mix year-month and day-time fields: INTERVAL 1 YEAR 2 DAYS.");

  err = parse_error("SELECT * FROM t WHERE a IN ()");
  EXPECT_EQ(err.error_class(), "INVALID_SQL_SYNTAX.EMPTY_IN_PREDICATE");
  EXPECT_EQ(err.start, 24);
  EXPECT_EQ(err.stop, 28);
}

TEST(SqlError, SelectListErrors) {
  EXPECT_EQ(parse_error("SELECT a, FROM t").error_class(), "TRAILING_COMMA_IN_SELECT");
  SparkError err = parse_error("SELECT a FROM t GROUP BY 3");
  EXPECT_EQ(err.error_class(), "GROUP_BY_POS_OUT_OF_RANGE");
  EXPECT_EQ(err.message(), "GROUP BY position 3 is not in select list (valid range is [1, 1]).");
  EXPECT_EQ(err.start, 25);
  EXPECT_EQ(parse_error("SELECT count(*) FROM t GROUP BY 1").error_class(),
            "GROUP_BY_POS_AGGREGATE");
  EXPECT_EQ(parse_error("SELECT a FROM t GROUP BY 0").error_class(), "GROUP_BY_POS_OUT_OF_RANGE");
  EXPECT_EQ(parse_error("SELECT a FROM t ORDER BY 0").error_class(), "ORDER_BY_POS_OUT_OF_RANGE");
  err = parse_error("SELECT a, b, c FROM t ORDER BY 5");
  EXPECT_EQ(err.error_class(), "ORDER_BY_POS_OUT_OF_RANGE");
  EXPECT_EQ(err.message(), "ORDER BY position 5 is not in select list (valid range is [1, 3]).");
  err = parse_error("SELECT :x");
  EXPECT_EQ(err.error_class(), "UNBOUND_SQL_PARAMETER");
  EXPECT_EQ(err.params().at("name"), "x");
  EXPECT_EQ(parse_error("SELECT ?").params().at("name"), "_7");
  // sql_keywords() and collations() take no arguments; the error covers the call.
  err = parse_error("SELECT * FROM sql_keywords(1)");
  EXPECT_EQ(err.error_class(), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
  EXPECT_EQ(err.params().at("functionName"), "`sql_keywords`");
  EXPECT_EQ(parse_error("SELECT * FROM json_tuple('{}', 'a')").error_class(), "UNSUPPORTED_FEATURE");
}

}  // namespace
}  // namespace ember::sql
