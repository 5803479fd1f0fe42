"""Spark's partitions as functions see them: spark_partition_id(), monotonically_increasing_id()
and the per-partition streams of rand, wherever Spark's partitioning is deterministic.

A range has numPartitions slices (spark.sql.leafNodeDefaultParallelism, else
spark.default.parallelism, when it names none); projections and filters over a local relation
(createDataFrame's rows, SQL's VALUES) see one partition, which Spark's optimizer evaluates on the
driver; a union numbers its children's partitions one after another; a broadcast join keeps
its streamed side's; after a shuffle (aggregation, sort, distinct, limit) the rows of a small
query are one partition (adaptive execution coalesces the shuffle).
"""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import session_conf



def pid():
    return F.spark_partition_id().alias("p")


def mid():
    return F.monotonically_increasing_id().alias("m")


@pytest.mark.parametrize("start,end,step,parts", [
    (0, 10, 1, 1), (0, 10, 1, 2), (0, 10, 1, 4), (0, 10, 1, 5), (0, 10, 1, 7),
    (0, 3, 1, 5), (10, -11, -3, 4), (0, 100_003, 7, 3), (5, 5, 1, 3),
])
def test_range_partitions(diff, start, end, step, parts):
    diff(lambda s: s.range(start, end, step, parts).select("id", pid(), mid()))


def test_range_partitions_in_sql(diff):
    diff(lambda s: s.sql("SELECT id, spark_partition_id() AS p, monotonically_increasing_id() AS m "
                         "FROM range(0, 6, 1, 3)"))


def test_range_default_partitions_follow_the_leaf_parallelism(connect_differ):
    # Over Spark Connect a range without numPartitions takes the session's leaf parallelism
    # (classic PySpark passes the SparkContext's default parallelism instead).
    for parts in ("1", "3", "8"):
        with session_conf(connect_differ.ember, connect_differ.oracle,
                          spark_sql_leafNodeDefaultParallelism=parts):
            connect_differ.diff(lambda s: s.range(0, 20).select("id", pid(), mid()))


def test_partitions_kept_through_filters_and_projections(diff):
    # Rows dropped by a filter are not numbered: ids count the rows that reach the projection.
    diff(lambda s: s.range(0, 10, 1, 2).filter("id % 3 != 0").select("id", pid(), mid()))
    diff(lambda s: s.range(0, 200_000, 1, 3).filter("id % 7 = 1").select("id", pid(), mid())
         .filter("m % 1000 = 0"))
    diff(lambda s: s.range(0, 30, 1, 3).withColumn("x", F.col("id") * 2).filter("x > 10")
         .select("id", pid(), mid(), F.rand(5).alias("r")))


def test_rand_streams_per_partition(diff):
    diff(lambda s: s.range(0, 6, 1, 3).select("id", F.rand(7).alias("r"), F.randn(7).alias("n")))
    diff(lambda s: s.range(0, 150_000, 1, 2).select("id", F.rand(3).alias("r"))
         .filter("id % 9973 = 0"))
    # The stream of a filter's input rows, then of the rows it kept.
    diff(lambda s: s.range(0, 40, 1, 4).filter(F.rand(11) < 0.5).select("id", F.rand(12).alias("r")))


def test_local_relation_is_one_partition(connect_differ):
    connect_differ.diff(lambda s: s.createDataFrame([(i,) for i in range(7)], ["a"]).select("a", pid(), mid()))
    connect_differ.diff(lambda s: s.createDataFrame([(i,) for i in range(7)], ["a"]).filter("a % 2 = 1")
                        .select("a", pid(), mid()))


def test_inline_table_is_one_partition(connect_differ):
    # Literal rows, rows whose types the analyzer widens, and rows of expressions that fold.
    tables = ["VALUES (1, 'a'), (2, 'b'), (3, NULL), (4, 'd'), (5, 'e') AS t(a, b)",
              "VALUES (1), (2.5D), (NULL), (CAST(4 AS BIGINT)) AS t(a)",
              "VALUES (1 + 1, named_struct('x', array(1, 2))), (abs(-3), NULL), (7, named_struct('x', "
              "array(3))) AS t(a, b)"]
    for parts in ("1", "2", "8"):
        with session_conf(connect_differ.ember, connect_differ.oracle,
                          spark_sql_leafNodeDefaultParallelism=parts):
            for table in tables:
                connect_differ.diff(lambda s: s.sql(
                    f"SELECT *, spark_partition_id() AS p, monotonically_increasing_id() AS m, rand(3) AS r "
                    f"FROM {table}"))
                connect_differ.diff(lambda s: s.sql(
                    f"SELECT a, monotonically_increasing_id() AS m FROM {table} WHERE a > 1"))


def test_inline_table_partial_sums_in_row_order(diff):
    # Group 1's running sum leaves DECIMAL(38, 18) at its second row (try_sum gives NULL) though
    # the group's total fits: the rows are summed in order, whatever the threads.
    table = ("VALUES (1, CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18))), "
             "(1, CAST(1 AS DECIMAL(38,18))), (1, CAST(-1 AS DECIMAL(38,18))), "
             "(2, CAST(5 AS DECIMAL(38,18))), (2, CAST(6 AS DECIMAL(38,18))) AS t(g, m)")
    for _ in range(5):
        diff(lambda s: s.sql(f"SELECT g, try_sum(m) FROM {table} GROUP BY g"))


def test_after_a_shuffle(diff):
    # Small shuffles are one partition; the sort's rows are numbered in order.
    diff(lambda s: s.range(0, 10, 1, 4).orderBy(F.desc("id")).select("id", pid(), mid()), ordered=True)
    diff(lambda s: s.range(0, 10, 1, 4).groupBy((F.col("id") % 3).alias("k")).count().select("k", pid()))
    diff(lambda s: s.range(0, 10, 1, 4).limit(5).select("id", pid(), mid()))


def test_union_numbers_partitions_in_turn(diff):
    diff(lambda s: s.range(0, 3, 1, 2).union(s.range(10, 13, 1, 2)).select("id", pid(), mid()))
    diff(lambda s: s.range(0, 4, 1, 3).union(s.range(5, 6, 1, 4))
         .union(s.range(20, 30, 1, 2)).select("id", pid(), mid()))


def test_broadcast_join_keeps_the_streamed_partitions(diff):
    diff(lambda s: s.range(0, 8, 1, 3).join(F.broadcast(s.range(0, 8, 1, 2)), "id").select("id", pid(), mid()))


def test_cache_keeps_partitions(diff):
    def program(s):
        df = s.range(0, 12, 1, 3).cache()
        df.count()
        return df.filter("id > 2").select("id", pid(), mid())

    diff(program)
