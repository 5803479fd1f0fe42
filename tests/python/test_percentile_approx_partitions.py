"""percentile_approx and DataFrame.stat.approxQuantile over inputs large enough that the
Greenwald-Khanna summary drops values, so that Spark's answer depends on its partitions: each
task summarizes its partition in row order, and the final aggregation merges the partitions'
summaries in partition order. Ember gives the same answer to the bit wherever it knows Spark's
partitions: ranges, files, unions of them, repartitions by hash. Over a window, a frame's rows
go into one summary in order, which answers after each row of a growing frame, as in Spark.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F
from pyspark.sql.window import Window

from harness import session_conf

PERCENTAGES = [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0]


def scattered(s, rows, parts):
    """Longs spread over [0, 100003) in no order, and doubles of them with every 11th row null."""
    v = (F.col("id") * 7919) % 100003
    return s.range(0, rows, 1, parts).select(
        "id", v.alias("v"), (F.col("id") % 3).alias("g"),
        F.when(F.col("id") % 11 == 0, None).otherwise(v / 7.0).alias("d"))


@pytest.mark.parametrize("parts", [1, 2, 4, 7])
def test_global_aggregate_follows_the_range_partitions(diff, parts):
    diff(lambda s: scattered(s, 300_000, parts).agg(
        F.percentile_approx("v", PERCENTAGES, 100).alias("coarse"),
        F.percentile_approx("v", PERCENTAGES).alias("fine"),
        F.percentile_approx("d", 0.5, 100).alias("median"),
        F.percentile_approx("d", [0.05, 0.5, 0.95]).alias("d"),
        F.percentile_approx("v", F.array().cast("array<double>")).alias("none"),
        F.count("d").alias("n")), approx=0)


def test_million_rows_of_doubles(diff):
    diff(lambda s: scattered(s, 1_000_000, 3).agg(
        F.percentile_approx("d", PERCENTAGES, 100).alias("coarse"),
        F.percentile_approx("d", PERCENTAGES, 1000).alias("mid"),
        F.percentile_approx("d", PERCENTAGES).alias("fine")), approx=0)


@pytest.mark.parametrize("parts", [2, 7])
def test_group_by_merges_each_groups_partitions(diff, parts):
    diff(lambda s: scattered(s, 400_000, parts).groupBy("g").agg(
        F.percentile_approx("v", [0.05, 0.5, 0.95], 100).alias("v"),
        F.percentile_approx("d", PERCENTAGES).alias("d"),
        F.sum("v").alias("total")), approx=0)


def test_sql_over_range_and_filter(diff):
    diff(lambda s: s.sql(
        "SELECT id % 4 AS k, percentile_approx((id * 7919) % 100003, array(0.2, 0.5, 0.8), 100) AS q, "
        "approx_percentile(CAST((id * 104729) % 65537 AS DOUBLE) / 3, 0.3, 500) AS r "
        "FROM range(0, 600000, 1, 5) WHERE id % 5 != 2 GROUP BY id % 4"), approx=0)
    # Rows dropped by a filter: each partition summarizes the rows it kept, in order.
    diff(lambda s: scattered(s, 300_000, 4).filter("id % 7 != 3").agg(
        F.percentile_approx("v", PERCENTAGES, 100)), approx=0)


def test_union_numbers_partitions_in_turn(diff):
    diff(lambda s: scattered(s, 200_000, 3).union(scattered(s, 150_000, 2)).agg(
        F.percentile_approx("v", PERCENTAGES, 100)), approx=0)



def test_hash_repartition(diff):
    # Each partition holds the rows that hash to it, from each input partition in turn.
    diff(lambda s: scattered(s, 300_000, 3).repartition(4, (F.col("id") % 10).alias("k")).agg(
        F.percentile_approx("v", PERCENTAGES, 100), F.percentile_approx("d", PERCENTAGES)), approx=0)


def test_parquet_splits(diff, ember, oracle, tmp_path):
    path = tmp_path / "scattered.parquet"
    pq.write_table(pa.table({"x": [((i * 7919) % 100003) / 7.0 for i in range(240_000)]}), path,
                   row_group_size=30_000)
    with session_conf(ember, oracle, **{"spark.sql.files.maxPartitionBytes": "300000"}):
        diff(lambda s: s.read.parquet(str(path)).agg(
            F.percentile_approx("x", PERCENTAGES, 100), F.percentile_approx("x", PERCENTAGES)), approx=0)
        # Several partitions, as Spark cuts the file.
        diff(lambda s: s.read.parquet(str(path)).groupBy(F.spark_partition_id()).count())


def test_window_frames_take_their_rows_in_order(diff):
    diff(lambda s: scattered(s, 300_000, 2).select(
        "g", F.percentile_approx("v", [0.1, 0.5, 0.9], 100).over(Window.partitionBy("g")).alias("q"))
        .distinct(), approx=0)
    diff(lambda s: scattered(s, 120_000, 2).select(
        "id", F.percentile_approx("v", [0.1, 0.5, 0.9], 100)
        .over(Window.partitionBy("g").orderBy("id")).alias("q")).filter("id % 997 = 0"), approx=0)


def quantiles(s, parts, cols, probabilities, error):
    df = scattered(s, 300_000, parts).withColumn("nan", F.when(F.col("id") % 13 == 0, float("nan"))
                                                 .otherwise(F.col("d")))
    return s.createDataFrame([(df.approxQuantile(cols, probabilities, error),)], "q array<array<double>>")


@pytest.mark.parametrize("parts", [1, 3, 7])
@pytest.mark.parametrize("error", [0.01, 0.001])
def test_approx_quantile_follows_the_partitions(diff, parts, error):
    diff(lambda s: quantiles(s, parts, ["v", "d", "nan", "id"], PERCENTAGES, error), approx=0)


def test_approx_quantile_accuracy_rounds_up(diff, diff_error):
    # Spark asks approx_percentile for an accuracy of ceil(1 / error): 4 for an error of 0.3,
    # and 0, which it rejects, for an infinite one.
    diff(lambda s: quantiles(s, 2, ["v", "d"], [0.1, 0.3, 0.5, 0.7, 0.9], 0.3), approx=0)
    diff(lambda s: quantiles(s, 2, ["v"], [0.1, 0.5, 0.9], 0.7), approx=0)
    diff_error(lambda s: quantiles(s, 2, ["v"], [0.5], float("inf")), "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
