"""Differential tests of DISTINCT aggregates — Ember against Apache Spark: count(DISTINCT) over
one and several columns, sum/avg(DISTINCT), countDistinct, mixed with plain aggregates in one
groupBy, nulls, empty input, global aggregation, and SQL."""

from __future__ import annotations

from pyspark.sql import functions as F

ROWS = [("a", 1, 1.5, "x"), ("a", 1, 1.5, "y"), ("a", 2, None, "x"), ("a", None, 2.5, None),
        ("b", 3, 3.0, "z"), ("b", 3, 3.0, "z"), ("b", None, None, None), ("c", None, None, None),
        (None, 4, 4.0, "w"), (None, 4, 5.0, "w"), ("b", -3, -3.0, "z")]


def data(s):
    return s.createDataFrame(ROWS, "k string, v int, x double, t string")


def test_count_distinct_grouped(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.countDistinct("v"), F.count_distinct("v", "t"),
                                            F.countDistinct("t")))


def test_sum_avg_distinct_mixed(diff):
    diff(lambda s: data(s).groupBy("k").agg(
        F.sum_distinct("v"), F.sum("v"), F.count("*"), F.avg("x"), F.countDistinct("x"),
        F.min("t"), F.max("v")))


def test_distinct_expression_args(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.countDistinct(F.col("v") % 2).alias("parity"),
                                            F.sum_distinct(F.abs("v")).alias("sa")))


def test_global_distinct(diff):
    diff(lambda s: data(s).agg(F.countDistinct("k"), F.countDistinct("v", "x"), F.sum_distinct("x"),
                               F.count("v")))


def test_distinct_on_empty_input(diff):
    def program(s):
        return data(s).filter(F.col("v") > 100).agg(F.countDistinct("v"), F.sum_distinct("v"))
    diff(program)

    def grouped(s):
        return data(s).filter(F.col("v") > 100).groupBy("k").agg(F.countDistinct("v"))
    diff(grouped)


def test_distinct_many_rows(diff):
    def program(s):
        df = s.range(0, 100000).select((F.col("id") % 13).alias("g"), (F.col("id") % 101).alias("v"))
        return df.groupBy("g").agg(F.countDistinct("v"), F.sum_distinct("v"), F.count("v"))
    diff(program)


def test_sql_distinct_aggregates(diff):
    def program(s):
        data(s).createOrReplaceTempView("dist_t")
        return s.sql("SELECT k, count(DISTINCT v), count(DISTINCT v, t), sum(DISTINCT v), "
                     "avg(DISTINCT x), count(*), sum(v) FROM dist_t GROUP BY k")
    diff(program)
