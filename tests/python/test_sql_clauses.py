"""Differential tests of Spark SQL clauses the TPC queries do not reach: QUALIFY, DISTRIBUTE BY,
CLUSTER BY, SORT BY, LATERAL subqueries, global temporary views — Ember against Apache Spark."""

from __future__ import annotations

import pytest
from harness import session_conf

EMP_ROWS = [
    (1, "eng", "ann", 120),
    (2, "eng", "bob", 100),
    (3, "eng", "cid", 100),
    (4, "ops", "dan", 80),
    (5, "ops", "eve", None),
    (6, "hr", "fay", 70),
    (7, None, "gus", 60),
]
EMP_SCHEMA = "id int, dept string, name string, salary int"


def views(s):
    s.createDataFrame(EMP_ROWS, EMP_SCHEMA).createOrReplaceTempView("cl_emp")
    s.createDataFrame([("eng", 2), ("ops", 1), ("hr", 3), ("fin", 1)],
                      "dept string, k int").createOrReplaceTempView("cl_dept")
    return s


def sql(query):
    return lambda s: views(s).sql(query)


# --- QUALIFY ------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [
    "SELECT id, dept, salary FROM cl_emp QUALIFY row_number() OVER (PARTITION BY dept ORDER BY salary DESC, id) = 1",
    "SELECT id, dept, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM cl_emp QUALIFY r <= 1",
    "SELECT dept, sum(salary) AS s FROM cl_emp GROUP BY dept QUALIFY rank() OVER (ORDER BY s DESC) <= 2",
    "SELECT dept, count(*) c FROM cl_emp GROUP BY dept HAVING c > 0 QUALIFY rank() OVER (ORDER BY c) = 1",
    "SELECT DISTINCT dept FROM cl_emp QUALIFY row_number() OVER (PARTITION BY dept ORDER BY id) = 1",
    "SELECT id AS salary FROM cl_emp QUALIFY salary > 90 AND rank() OVER (ORDER BY id) > 0",
    "SELECT id, salary AS s2 FROM cl_emp QUALIFY s2 > 90 AND dense_rank() OVER (ORDER BY salary) > 1",
    "SELECT id, rank() OVER (ORDER BY id) r FROM cl_emp QUALIFY id > 1 ORDER BY r DESC LIMIT 3",
    "SELECT id, salary FROM cl_emp WHERE salary > 60 QUALIFY salary > avg(salary) OVER ()",
    "SELECT id FROM cl_emp WINDOW w AS (PARTITION BY dept ORDER BY id) QUALIFY row_number() OVER w = 2",
])
def test_qualify(diff, query):
    diff(sql(query))


@pytest.mark.parametrize("query, error_class", [
    ("SELECT id FROM cl_emp QUALIFY id > 1", "QUALIFY_REQUIRES_WINDOW_FUNCTION"),
    ("SELECT id FROM cl_emp QUALIFY sum(id) > 1 AND rank() OVER (ORDER BY id) = 1",
     "QUALIFY_AGGREGATE_NOT_ALLOWED"),
])
def test_qualify_errors(diff_error, query, error_class):
    diff_error(sql(query), error_class)


# --- DISTRIBUTE BY / CLUSTER BY / SORT BY -------------------------------------------------------


@pytest.mark.parametrize("query", [
    "SELECT id, dept FROM cl_emp DISTRIBUTE BY dept",
    "SELECT id, dept FROM cl_emp CLUSTER BY dept",
    "SELECT dept, count(*) AS n FROM cl_emp GROUP BY dept DISTRIBUTE BY dept",
    "SELECT id, dept FROM cl_emp DISTRIBUTE BY dept SORT BY id",
    "SELECT * FROM (SELECT id, dept FROM cl_emp DISTRIBUTE BY id) t WHERE id > 2",
])
def test_distribute_cluster_by(diff, query):
    diff(sql(query))


def test_sort_by_within_one_partition(diff):
    # Over one partition (repartition(1)) SORT BY orders the whole result, as in Spark.
    diff(lambda s: views(s).sql("SELECT /*+ REPARTITION(1) */ id, salary FROM cl_emp SORT BY salary DESC NULLS LAST, id"),
         ordered=True)


# --- LATERAL subqueries -------------------------------------------------------------------------


@pytest.mark.parametrize("query", [
    "SELECT d.dept, t.top FROM cl_dept d, LATERAL (SELECT max(salary) AS top FROM cl_emp e WHERE e.dept = d.dept) t",
    "SELECT d.dept, x.name FROM cl_dept d JOIN LATERAL (SELECT name FROM cl_emp e WHERE e.dept = d.dept) x",
    "SELECT d.dept, x.name FROM cl_dept d LEFT JOIN LATERAL (SELECT name FROM cl_emp e WHERE e.dept = d.dept) x ON true",
    "SELECT d.dept, l.doubled FROM cl_dept d, LATERAL (SELECT d.k * 2 AS doubled) l",
    "SELECT e.id, l.v FROM cl_emp e, LATERAL (SELECT e.salary + 1 AS v) l WHERE l.v > 90",
    # One row for each left row from a keyless aggregate; counts are 0 where nothing matches.
    "SELECT d.dept, c.n, c.total, c.low FROM cl_dept d, "
    "LATERAL (SELECT count(*) AS n, sum(salary) AS total, min(name) AS low FROM cl_emp e WHERE e.dept = d.dept) c",
    "SELECT d.dept, x.name, x.tag FROM cl_dept d LEFT JOIN LATERAL "
    "(SELECT name, concat(d.dept, '-', name) AS tag FROM cl_emp e WHERE e.dept = d.dept AND e.salary > 90) x ON true",
    "SELECT d.dept, x.name FROM cl_dept d CROSS JOIN LATERAL (SELECT name FROM cl_emp e WHERE e.salary > d.k * 40) x",
    "SELECT d.dept, x.name FROM cl_dept d JOIN LATERAL (SELECT name, salary FROM cl_emp e WHERE e.dept = d.dept) x ON x.salary > 90",
    "SELECT d.dept, x.name FROM cl_dept d LEFT JOIN LATERAL (SELECT name, salary FROM cl_emp e WHERE e.dept = d.dept) x ON x.salary > 90",
    "SELECT d.dept, c.n FROM cl_dept d LEFT JOIN LATERAL (SELECT count(*) AS n FROM cl_emp e WHERE e.dept = d.dept) c ON c.n > 1",
    "SELECT a.dept, b.k, l.s FROM cl_dept a, cl_dept b, LATERAL (SELECT a.k + b.k AS s) l WHERE a.dept = b.dept",
    # Top-n per left row.
    "SELECT d.dept, l.id FROM cl_dept d, LATERAL (SELECT id FROM cl_emp WHERE dept = d.dept ORDER BY id LIMIT 1) l",
    "SELECT d.dept, l.name, l.salary FROM cl_dept d LEFT JOIN LATERAL "
    "(SELECT name, salary FROM cl_emp e WHERE e.dept = d.dept ORDER BY salary DESC NULLS LAST, name LIMIT 2) l",
])
def test_lateral_subquery(diff, query):
    diff(sql(query))


def test_lateral_join_type_error(diff_error):
    diff_error(sql("SELECT * FROM cl_dept d RIGHT JOIN LATERAL (SELECT name FROM cl_emp e WHERE e.dept = d.dept) x ON true"),
               "INVALID_LATERAL_JOIN_TYPE")


@pytest.mark.parametrize("query", [
    "SELECT * FROM cl_dept d, LATERAL (SELECT rand() > 2 AS r) l",
    "SELECT * FROM cl_dept d, LATERAL (SELECT d.k + rand() AS r) l",
    "SELECT * FROM cl_dept d JOIN LATERAL (SELECT name FROM cl_emp e WHERE e.dept = d.dept AND rand() < 2) x",
    "SELECT * FROM cl_dept d LEFT JOIN LATERAL (SELECT uuid() AS u) x ON true",
    "SELECT * FROM VALUES (1), (2) AS v(c), LATERAL explode(array(rand() < 2))",
])
def test_lateral_subquery_not_deterministic(diff_error, query):
    # Spark runs a lateral subquery once per row only when it is deterministic.
    diff_error(sql(query), "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES")


def test_lateral_subquery_not_deterministic_beside_one_row(diff):
    # Beside one row at most it may be anything; LATERAL VIEW is no subquery.
    diff(sql("SELECT c, r < 2 AS low FROM VALUES (1) AS v(c), LATERAL (SELECT rand() AS r)"))
    diff(sql("SELECT m, x < 2 AS low FROM (SELECT max(k) AS m FROM cl_dept), LATERAL explode(array(rand())) t(x)"))
    diff(sql("SELECT d.dept, x < 2 AS low FROM cl_dept d LATERAL VIEW explode(array(rand())) t AS x"))


@pytest.mark.parametrize("query", [
    "SELECT * FROM cl_dept d JOIN LATERAL (SELECT d.k * 2 AS doubled) l ON rand() < 2",
    "SELECT * FROM cl_dept d LEFT JOIN LATERAL (SELECT d.k * 2 AS doubled) l ON doubled > rand()",
    "SELECT * FROM cl_dept d JOIN LATERAL explode(array(d.k)) t(x) ON rand() < 2",
])
def test_lateral_join_condition_not_deterministic(diff_error, query):
    diff_error(sql(query), "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.LATERAL_JOIN_CONDITION_NON_DETERMINISTIC")


# --- Global temporary views ---------------------------------------------------------------------


def test_global_temp_view(diff):
    def program(s):
        views(s)
        s.sql("CREATE OR REPLACE GLOBAL TEMPORARY VIEW cl_gv AS SELECT id, name FROM cl_emp WHERE id < 4")
        return s.sql("SELECT * FROM global_temp.cl_gv")
    diff(program)


def test_global_temp_view_dataframe_api(diff):
    def program(s):
        s.createDataFrame([(1, "x")], "a int, b string").createOrReplaceGlobalTempView("cl_gv2")
        return s.table("global_temp.cl_gv2")
    diff(program)


def test_global_temp_view_needs_qualifier(diff_error):
    def program(s):
        s.createDataFrame([(1,)], "a int").createOrReplaceGlobalTempView("cl_gv3")
        return s.sql("SELECT * FROM cl_gv3")
    diff_error(program, "TABLE_OR_VIEW_NOT_FOUND")


def test_global_temp_view_drop_and_show(diff):
    def program(s):
        s.sql("CREATE OR REPLACE GLOBAL TEMP VIEW cl_gv4 AS SELECT 1 AS a")
        s.sql("CREATE OR REPLACE GLOBAL TEMP VIEW cl_gv5 AS SELECT 2 AS a")
        s.sql("DROP VIEW global_temp.cl_gv5")
        s.sql("DROP VIEW IF EXISTS global_temp.cl_gv5")
        return s.sql("SHOW VIEWS IN global_temp LIKE 'cl_gv4*'")
    diff(program)


def test_global_temp_view_catalog_api(diff):
    def program(s):
        s.range(3).createOrReplaceGlobalTempView("cl_gv6")
        s.range(1).createOrReplaceGlobalTempView("cl_gv7")
        dropped = s.catalog.dropGlobalTempView("cl_gv7")
        again = s.catalog.dropGlobalTempView("cl_gv7")
        names = sorted(t.name for t in s.catalog.listTables("global_temp") if t.name.startswith("cl_gv6"))
        return s.createDataFrame(
            [(dropped, again, s.catalog.tableExists("global_temp.cl_gv6"),
              s.catalog.tableExists("cl_gv6", "global_temp"), s.catalog.tableExists("cl_gv6"),
              ",".join(names))],
            "dropped boolean, again boolean, e1 boolean, e2 boolean, e3 boolean, names string")
    diff(program)


@pytest.mark.parametrize("statement, error_class", [
    ("CREATE GLOBAL TEMPORARY VIEW cl_gv8 AS SELECT 2 AS a", "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS"),
    ("SELECT * FROM global_temp.cl_missing", "TABLE_OR_VIEW_NOT_FOUND"),
    ("DROP VIEW global_temp.cl_missing", "TABLE_OR_VIEW_NOT_FOUND"),
])
def test_global_temp_view_errors(diff_error, statement, error_class):
    def program(s):
        s.sql("CREATE OR REPLACE GLOBAL TEMPORARY VIEW cl_gv8 AS SELECT 1 AS a")
        return s.sql(statement)
    diff_error(program, error_class)


# --- spark.sql.caseSensitive ---------------------------------------------------------------------


def case_views(s):
    s.createDataFrame([(1, 2, "x")], "a int, A2 int, b string").createOrReplaceTempView("cl_case")
    return s


def test_case_insensitive_by_default(diff):
    diff(lambda s: case_views(s).sql("SELECT A, a2, B FROM CL_CASE WHERE Cl_Case.a = 1"))


@pytest.mark.parametrize("query, error_class", [
    ("SELECT A FROM cl_case", "UNRESOLVED_COLUMN"),
    ("SELECT a FROM CL_CASE", "TABLE_OR_VIEW_NOT_FOUND"),
])
def test_case_sensitive_errors(differ, ember, oracle, query, error_class):
    with session_conf(ember, oracle, spark_sql_caseSensitive="true"):
        differ.diff_error(lambda s: case_views(s).sql(query), error_class)


def test_case_sensitive_names(differ, ember, oracle):
    with session_conf(ember, oracle, spark_sql_caseSensitive="true"):
        differ.diff(lambda s: case_views(s).sql("SELECT a, A2, b, 1 AS X, 2 AS x FROM cl_case"))
