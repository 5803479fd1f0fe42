"""Differential tests of ROLLUP, CUBE and GROUPING SETS — Ember against Apache Spark: output
names, null semantics of rolled-up keys (and real null keys), grouping() and grouping_id(),
expressions as keys, empty input."""

from __future__ import annotations

from harness import session_conf
from pyspark.sql import functions as F

ROWS = [("a", "x", 1, 1.0), ("a", "y", 2, 2.0), ("a", "y", 3, None), ("b", "x", 4, 4.0),
        ("b", None, 5, 5.0), (None, "x", 6, 6.0), ("c", "z", None, 7.0)]


def data(s):
    return s.createDataFrame(ROWS, "k string, t string, v int, x double")


def test_rollup(diff):
    diff(lambda s: data(s).rollup("k", "t").agg(F.sum("v"), F.count("*"), F.avg("x")))
    diff(lambda s: data(s).rollup("k").count())


def test_cube(diff):
    diff(lambda s: data(s).cube("k", "t").agg(F.sum("v").alias("s"), F.max("x")))


def test_grouping_functions(diff):
    diff(lambda s: data(s).cube("k", "t").agg(F.grouping("k"), F.grouping("t"), F.grouping_id(),
                                              F.sum("v")))
    diff(lambda s: data(s).rollup("k", "t").agg(F.grouping_id().alias("gid"), F.count("v")))


def test_rollup_expression_keys(diff):
    diff(lambda s: data(s).rollup((F.col("v") % 2).alias("parity"), "k").agg(F.sum("x")))


def test_rollup_empty_input(diff):
    diff(lambda s: data(s).filter(F.col("v") > 100).rollup("k").agg(F.sum("v"), F.count("*")))


def test_rollup_then_order(diff):
    def program(s):
        return data(s).rollup("k").agg(F.sum("v").alias("s")).orderBy(F.col("k").asc_nulls_last(), "s")
    diff(program, ordered=True)


def test_sql_rollup_cube_grouping_sets(diff):
    def program(s, q):
        data(s).createOrReplaceTempView("gs_t")
        return s.sql(q)
    for q in [
        "SELECT k, t, sum(v), count(*) FROM gs_t GROUP BY ROLLUP(k, t)",
        "SELECT k, t, sum(v) AS s, grouping(k), grouping_id() FROM gs_t GROUP BY CUBE(k, t)",
        "SELECT k, t, max(x) FROM gs_t GROUP BY GROUPING SETS ((k, t), (k), ())",
        "SELECT k, count(v) FROM gs_t GROUP BY k WITH ROLLUP",
        "SELECT k, sum(v) AS s FROM gs_t GROUP BY ROLLUP(k) HAVING sum(v) > 3",
    ]:
        diff(lambda s, q=q: program(s, q))


def test_windows_over_rollup_rank_all_sets_together(diff):
    diff(lambda s: s.sql(
        "SELECT a, b, grouping(a) + grouping(b) AS lvl, sum(v) AS total, "
        "rank() OVER (PARTITION BY grouping(a) + grouping(b), CASE WHEN grouping(b) = 0 THEN a END "
        "ORDER BY sum(v) DESC) AS rk FROM VALUES (1, 'x', 10), (1, 'y', 5), (2, 'x', 7), (2, 'y', 7), (3, 'x', 1) "
        "AS t(a, b, v) GROUP BY ROLLUP(a, b)"))
    diff(lambda s: s.sql(
        "SELECT a, sum(v) AS s, row_number() OVER (ORDER BY grouping_id(a), a) AS n "
        "FROM VALUES (1, 2), (1, 3), (2, 4) AS t(a, v) GROUP BY CUBE(a) ORDER BY n"), ordered=True)


def test_rollup_over_joins_and_unions_reads_its_input_once(diff, ember, oracle):
    # Every grouping set aggregates the same input: Ember computes it once and reads it once per
    # set (spark.sql.exchange.reuse); the answers equal those of computing it per set.
    def program(s):
        data(s).createOrReplaceTempView("gs_reuse")
        return s.sql(
            "SELECT k, t, sum(v) AS s, count(*) AS c, max(x) AS m, grouping_id() AS g FROM ("
            " SELECT a.k, b.t, a.v, b.x FROM gs_reuse a JOIN gs_reuse b ON a.k <=> b.k"
            " UNION ALL SELECT k, t, v, x FROM gs_reuse WHERE v > (SELECT avg(v) FROM gs_reuse)"
            " UNION ALL SELECT k, t, v, x FROM gs_reuse WHERE v > (SELECT avg(v) FROM gs_reuse) - 2) u"
            " GROUP BY CUBE(k, t)")
    diff(program)
    with session_conf(ember, oracle, spark_sql_exchange_reuse="false", spark_sql_execution_reuseSubquery="false"):
        diff(program)
