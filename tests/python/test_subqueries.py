"""Differential tests of subquery expressions in SQL: scalar, EXISTS and IN subqueries,
correlated and not, with nulls, empty subqueries and Spark's errors — Ember against Apache
Spark. The optimizer turns each into a join (plan/subquery.h); these tests check the results."""

from __future__ import annotations

import pytest

T_ROWS = [(1, "a"), (2, "b"), (None, "c"), (3, None)]
U_ROWS = [(1, 10), (3, 30), (3, 31), (None, 40)]


def views(s):
    s.createDataFrame(T_ROWS, "a int, b string").createOrReplaceTempView("sq_t")
    s.createDataFrame(U_ROWS, "x int, y int").createOrReplaceTempView("sq_u")
    s.createDataFrame([(1, 10), (3, 30)], "x int, y int").createOrReplaceTempView("sq_nn")
    return s


def sql(query):
    return lambda s: views(s).sql(query)


def test_uncorrelated_scalar(diff):
    diff(sql("SELECT a, (SELECT max(x) FROM sq_u) AS m FROM sq_t"))
    diff(sql("SELECT a, (SELECT max(x) FROM sq_u) FROM sq_t"))
    diff(sql("SELECT a FROM sq_t WHERE a < (SELECT avg(x) FROM sq_u)"))
    diff(sql("SELECT a, (SELECT x FROM sq_u WHERE y = 99) AS none FROM sq_t"))
    diff(sql("SELECT (SELECT (SELECT max(y) FROM sq_u)) AS nested"))


def test_correlated_scalar_aggregate(diff):
    diff(sql("SELECT a, (SELECT max(y) FROM sq_u WHERE sq_u.x = sq_t.a) FROM sq_t"))
    diff(sql("SELECT a FROM sq_t WHERE 30 < (SELECT sum(y) FROM sq_u WHERE x = a)"))
    diff(sql("SELECT a, (SELECT 2 * avg(y) + 1 FROM sq_u u WHERE u.x = t.a) AS v FROM sq_t t"))


def test_correlated_scalar_without_aggregate(diff, diff_error):
    # Spark accepts it when each outer row matches at most one row.
    diff(sql("SELECT a, (SELECT y FROM sq_nn WHERE sq_nn.x = sq_t.a) FROM sq_t"))
    diff(sql("SELECT a, (SELECT y FROM sq_u WHERE x = a AND y < 31) AS s FROM sq_t"))
    diff_error(lambda s: sql("SELECT a, (SELECT y FROM sq_u WHERE x = a) FROM sq_t")(s).collect(),
               "SCALAR_SUBQUERY_TOO_MANY_ROWS")


def test_count_bug(diff):
    diff(sql("SELECT a, (SELECT count(*) FROM sq_u WHERE x = a) AS c FROM sq_t"))
    diff(sql("SELECT a, (SELECT count(y) + 1 FROM sq_u WHERE x = a) AS c FROM sq_t"))
    diff(sql("SELECT a FROM sq_t WHERE (SELECT count(*) FROM sq_u WHERE x = a) = 0"))


def test_exists(diff):
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT * FROM sq_u WHERE x = a)"))
    diff(sql("SELECT * FROM sq_t WHERE NOT EXISTS (SELECT * FROM sq_u WHERE x = a)"))
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT * FROM sq_u WHERE y > 35)"))
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT * FROM sq_u WHERE y > 99)"))
    diff(sql("SELECT * FROM sq_t WHERE NOT EXISTS (SELECT * FROM sq_u WHERE y > 99)"))


def test_exists_with_non_equi_correlation(diff):
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT * FROM sq_u WHERE x = a AND y <> 30)"))
    diff(sql("SELECT * FROM sq_t WHERE NOT EXISTS (SELECT * FROM sq_u WHERE x = a AND y > a * 10)"))
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT * FROM sq_u WHERE y > a * 10)"))


def test_in_subquery(diff):
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT x FROM sq_u)"))
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT x FROM sq_u WHERE y > 99)"))
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT x FROM sq_u WHERE y = a * 10)"))
    diff(sql("SELECT * FROM sq_t WHERE (a, b) IN (SELECT x, 'a' FROM sq_u)"))
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT CAST(y / 10 AS BIGINT) FROM sq_u)"))


def test_not_in_with_nulls(diff):
    # The subquery yields a null: NOT IN is never true.
    diff(sql("SELECT * FROM sq_t WHERE a NOT IN (SELECT x FROM sq_u)"))
    # No null in the subquery: a null outer value is not true either.
    diff(sql("SELECT * FROM sq_t WHERE a NOT IN (SELECT x FROM sq_nn)"))
    # An empty subquery: every row, the null one too.
    diff(sql("SELECT * FROM sq_t WHERE a NOT IN (SELECT x FROM sq_u WHERE y > 99)"))
    diff(sql("SELECT * FROM sq_t WHERE (a, b) NOT IN (SELECT x, 'b' FROM sq_nn)"))
    diff(sql("SELECT * FROM sq_t WHERE a NOT IN (SELECT x FROM sq_u WHERE y = a * 10)"))


def test_subqueries_as_values(diff):
    diff(sql("SELECT a, EXISTS (SELECT 1 FROM sq_u WHERE x = a) FROM sq_t"))
    diff(sql("SELECT a, a IN (SELECT x FROM sq_u), a NOT IN (SELECT x FROM sq_nn) FROM sq_t"))
    diff(sql("SELECT a, CASE WHEN a IN (SELECT x FROM sq_u) THEN 'in' ELSE 'out' END AS w FROM sq_t"))
    diff(sql("SELECT * FROM sq_t WHERE a = 2 OR EXISTS (SELECT 1 FROM sq_u WHERE x = a)"))
    diff(sql("SELECT * FROM sq_t WHERE b IS NULL OR a NOT IN (SELECT x FROM sq_nn)"))


def test_subquery_in_having(diff):
    diff(sql("SELECT b, sum(a) AS s FROM sq_t GROUP BY b HAVING sum(a) > (SELECT min(x) FROM sq_u)"))
    diff(sql("SELECT b, count(*) AS c FROM sq_t GROUP BY b "
             "HAVING b IN (SELECT CASE WHEN x = 1 THEN 'a' ELSE 'c' END FROM sq_u)"))


def test_nested_subqueries(diff):
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT x FROM sq_u WHERE y > (SELECT min(y) FROM sq_nn))"))
    diff(sql("SELECT * FROM sq_t WHERE a IN (SELECT x FROM sq_u u WHERE EXISTS "
             "(SELECT 1 FROM sq_nn n WHERE n.y = u.y))"))
    diff(sql("SELECT * FROM sq_t WHERE EXISTS (SELECT 1 FROM sq_u u WHERE u.x = a AND u.y > "
             "(SELECT avg(n.y) FROM sq_nn n WHERE n.x = u.x))"))


def test_self_reference_through_view(diff):
    # The subquery reads the outer query's view: its columns stay apart from the outer ones.
    diff(sql("SELECT * FROM sq_u u1 WHERE EXISTS (SELECT 1 FROM sq_u u2 WHERE u2.x = u1.x AND u2.y <> u1.y)"))
    diff(sql("SELECT x, y FROM sq_u WHERE y = (SELECT max(y) FROM sq_u i WHERE i.x = sq_u.x)"))


def test_subquery_in_join_condition(diff):
    diff(sql("SELECT * FROM sq_t JOIN sq_nn ON a = x AND a IN (SELECT x FROM sq_u WHERE y < 20)"))


def test_scalar_subquery_too_many_columns(diff_error):
    diff_error(sql("SELECT a, (SELECT x, y FROM sq_u) FROM sq_t"),
               "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN")


def test_scalar_subquery_too_many_rows(ember):
    # Spark raises this class at run time (the classic oracle session reports it wrapped in a
    # Py4JJavaError, which carries no error class to compare).
    with pytest.raises(Exception, match="SCALAR_SUBQUERY_TOO_MANY_ROWS"):
        sql("SELECT a, (SELECT x FROM sq_u) FROM sq_t")(ember).collect()
    assert sql("SELECT (SELECT x FROM sq_u WHERE y = 10) AS one")(ember).collect()[0][0] == 1


def test_in_subquery_length_mismatch(diff_error):
    diff_error(sql("SELECT a FROM sq_t WHERE a IN (SELECT x, y FROM sq_u)"),
               "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH")
    diff_error(sql("SELECT a FROM sq_t WHERE (a, b) IN (SELECT x FROM sq_u)"),
               "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH")


def test_unresolved_column_in_subquery(diff_error):
    diff_error(sql("SELECT a FROM sq_t WHERE EXISTS (SELECT zz FROM sq_u)"), "UNRESOLVED_COLUMN")


def test_correlated_scalar_subquery_over_aliased_cte(diff):
    diff(lambda s: s.sql(
        "WITH ctr AS (SELECT a AS ka, b AS kb, sum(c) AS s FROM VALUES (1, 1, 10), (1, 2, 5), (2, 1, 20), (3, 1, 1) "
        "AS t(a, b, c) GROUP BY a, b) "
        "SELECT ka, kb, s FROM ctr ctr1 WHERE ctr1.s > (SELECT avg(s) * 1.2 FROM ctr ctr2 WHERE ctr1.kb = ctr2.kb)"))


def test_correlated_equality_repeated_in_each_disjunct(diff):
    diff(lambda s: s.sql(
        "SELECT DISTINCT name FROM VALUES ('a', 1, 'red'), ('b', 1, 'blue'), ('c', 2, 'red'), ('d', 3, 'green') "
        "AS i1(name, m, color) WHERE (SELECT count(*) FROM VALUES (1, 'red'), (1, 'blue'), (2, 'blue') AS i2(m, color) "
        "WHERE (i2.m = i1.m AND i2.color = 'red') OR (i2.m = i1.m AND i2.color = 'blue')) > 0"))


def test_scalar_subquery_reading_outer_columns_in_its_select_list(diff):
    # Outer columns in the subquery's projection are computed above the join.
    diff(sql("SELECT (SELECT a * 2) AS d FROM sq_t"))
    diff(sql("SELECT a, (SELECT a + x FROM sq_nn WHERE x = 1) AS v FROM sq_t"))
    diff(sql("SELECT a, (SELECT concat(b, y) FROM sq_nn WHERE sq_nn.x = sq_t.a) AS v FROM sq_t"))
    diff(sql("SELECT a, (SELECT coalesce(y, a) FROM sq_nn WHERE x = a) AS v FROM sq_t"))
    diff(sql("SELECT a FROM sq_t WHERE (SELECT a + 1) > 2"))
    diff(sql("SELECT id, (SELECT id * x FROM VALUES (3) v(x)) AS p FROM range(4)"))


def test_correlated_scalar_aggregate_with_non_equality_correlation(diff):
    # Grouped by the domain of the outer values the conjuncts read, matched null-safely.
    diff(sql("SELECT a, (SELECT max(y) FROM sq_u WHERE x < a) AS m FROM sq_t"))
    diff(sql("SELECT a, (SELECT count(*) FROM sq_u WHERE x <= a) AS c FROM sq_t"))
    diff(sql("SELECT a, (SELECT count(y) FROM sq_u WHERE x = a AND y > a * 10) AS c FROM sq_t"))
    diff(sql("SELECT a, b, (SELECT sum(y) FROM sq_u WHERE x <> a OR b = 'c') AS s FROM sq_t"))
    diff(sql("SELECT a FROM sq_t WHERE (SELECT count(*) FROM sq_u WHERE x < a) > 0"))
    diff(sql("SELECT t.a, l.m FROM sq_t t, LATERAL (SELECT max(y) AS m FROM sq_u WHERE x < t.a) l"))


def test_correlated_reference_in_an_aggregate(diff_error):
    diff_error(sql("SELECT a, (SELECT sum(a)) FROM sq_t"),
               "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE")


def test_scalar_subquery_over_outer_columns_too_many_rows(ember):
    with pytest.raises(Exception, match="SCALAR_SUBQUERY_TOO_MANY_ROWS"):
        sql("SELECT a, (SELECT a + x FROM sq_u) FROM sq_t")(ember).collect()
