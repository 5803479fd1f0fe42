"""Differential tests of the core DataFrame slice: range, local data, select, filter,
groupBy/agg, orderBy, limit, show, counts and errors — Ember against Apache Spark."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from harness import api_mode

SALES_ROWS = [
    (1, 10, "P001", 12.5, "North", dt.datetime(2023, 1, 1, 0, 0, 0)),
    (2, 11, "P002", 99.99, "South", dt.datetime(2023, 1, 1, 0, 0, 1)),
    (3, 10, "P001", 250.0, "North", dt.datetime(2023, 1, 1, 0, 0, 2)),
    (4, 12, "P003", None, "East", dt.datetime(2023, 1, 1, 0, 0, 3)),
    (5, 13, "P002", 10.0, None, dt.datetime(2023, 1, 1, 0, 0, 4)),
    (6, 11, "P005", 499.01, "West", None),
    (7, 14, "P004", 42.42, "South", dt.datetime(2023, 1, 1, 0, 0, 6)),
]
SALES_SCHEMA = ("transaction_id int, customer_id int, product_id string, amount double, "
                "region string, transaction_date timestamp")


def sales(spark):
    return spark.createDataFrame(SALES_ROWS, SALES_SCHEMA)


def test_range_collect(diff):
    diff(lambda s: s.range(10), ordered=True)


def test_range_start_end_step(diff):
    diff(lambda s: s.range(-5, 100, 7), ordered=True)
    diff(lambda s: s.range(10, 0, -3), ordered=True)
    diff(lambda s: s.range(0), ordered=True)


def test_range_large_in_order(diff):
    diff(lambda s: s.range(300_000).filter(F.col("id") % 1000 == 7), ordered=True)


def test_create_dataframe_from_rows(diff):
    diff(sales, ordered=True)


def test_create_dataframe_from_pandas(diff):
    pdf = pd.DataFrame({"a": [1, 2, 3], "b": ["x", None, "z"], "c": [1.5, float("nan"), -0.0]})
    diff(lambda s: s.createDataFrame(pdf), ordered=True)


def test_select_arithmetic(diff):
    diff(lambda s: s.range(20).select(
        F.col("id"), (F.col("id") + 1).alias("inc"), F.col("id") * 2, F.col("id") - 3,
        F.col("id") / 4, F.col("id") % 3, -F.col("id")), ordered=True)


def test_with_column_and_filter(diff):
    diff(lambda s: sales(s).withColumn("double_amount", F.col("amount") * 2)
         .filter((F.col("amount") > 20) & (F.col("region") != "South")), ordered=True)


def test_filter_boolean_logic_with_nulls(diff):
    diff(lambda s: sales(s).filter(F.col("region").isNull() | (F.col("amount") < 50)), ordered=True)
    diff(lambda s: sales(s).where(~(F.col("amount") >= 100)), ordered=True)
    diff(lambda s: sales(s).select(
        (F.col("amount") > 20).alias("gt"),
        ((F.col("amount") > 20) & F.col("region").isNotNull()).alias("both"),
        ((F.col("amount") > 20) | F.col("region").isNull()).alias("either")), ordered=True)


def test_group_by_agg(diff):
    diff(lambda s: sales(s).groupBy("region", "product_id").agg(
        F.sum("amount"), F.count("*"), F.avg("amount"), F.min("amount"), F.max("amount")))


def test_group_by_agg_aliases_and_count_column(diff):
    diff(lambda s: sales(s).groupBy("region").agg(
        F.sum("amount").alias("total"), F.count("amount").alias("n"),
        F.max("product_id").alias("maxp")))


def test_global_agg_and_empty(diff):
    diff(lambda s: sales(s).agg(F.sum("amount"), F.count("*"), F.min("region")))
    diff(lambda s: sales(s).filter(F.col("amount") > 10_000).agg(F.sum("amount"), F.count("*")))


def test_group_by_expression_over_range(diff):
    diff(lambda s: s.range(100_000).withColumn("c", (F.col("id") % 100).cast("int"))
         .groupBy("c").agg(F.avg("id"), F.count("*"), F.sum("id")))


def test_order_by_directions_and_nulls(diff):
    diff(lambda s: sales(s).orderBy(F.col("amount").desc_nulls_last(), "transaction_id"), ordered=True)
    diff(lambda s: sales(s).orderBy(F.col("region").asc_nulls_last(), F.col("amount").desc()), ordered=True)
    diff(lambda s: sales(s).sort("region", "transaction_id"), ordered=True)


def test_agg_then_order(diff):
    diff(lambda s: sales(s).groupBy("region").agg(F.sum("amount").alias("t")).orderBy(F.desc("t")),
         ordered=True)


def test_limit(diff):
    diff(lambda s: s.range(1000).limit(5), ordered=True)
    diff(lambda s: sales(s).orderBy("amount").limit(3), ordered=True)
    diff(lambda s: s.range(10).limit(0), ordered=True)


def test_offset_over_a_sort(diff):
    # The sort skips the offset's rows itself: past every row, within them, under a limit (a
    # total order: Spark breaks ties in no defined way).
    def ordered(s):
        return s.range(0, 5000, 1, 3).selectExpr("id", "id % 7 AS k", "CAST(id % 13 AS DOUBLE) AS v") \
            .orderBy(F.col("k").desc(), "v", F.col("id").desc())
    diff(lambda s: ordered(s).offset(4990), ordered=True)
    diff(lambda s: ordered(s).offset(0).limit(4), ordered=True)
    diff(lambda s: ordered(s).offset(5000), ordered=True)
    diff(lambda s: ordered(s).offset(20).limit(7), ordered=True)
    diff(lambda s: ordered(s).offset(4998).limit(7), ordered=True)
    diff(lambda s: s.sql("SELECT * FROM (SELECT id, id % 7 AS k FROM range(3000)) ORDER BY k, id DESC LIMIT 5 OFFSET 2995"),
         ordered=True)
    # Few rows out of many batches, copied row by row: strings with nulls, arrays, structs.
    def nested(s):
        return s.range(0, 4000, 1, 4).selectExpr(
            "id", "array(id, id + 1) AS a", "named_struct('x', CAST(id AS STRING), 'y', id % 5) AS st",
            "IF(id % 3 = 0, NULL, concat('s', id)) AS str").orderBy(F.col("id") % 97, F.col("id").desc())
    diff(lambda s: nested(s).limit(10), ordered=True)
    diff(lambda s: nested(s).offset(3990), ordered=True)


def test_count(ember, oracle):
    with api_mode(connect=False):
        expected = sales(oracle).count()
    assert sales(ember).count() == expected
    assert ember.range(123_456).filter(F.col("id") % 2 == 0).count() == 61_728


def test_to_pandas(ember, oracle):
    a = sales(ember).orderBy("transaction_id").toPandas()
    with api_mode(connect=False):
        b = sales(oracle).orderBy("transaction_id").toPandas()
    pd.testing.assert_frame_equal(a, b)


def test_show(diff_show):
    diff_show(lambda s: sales(s).orderBy("transaction_id"))
    diff_show(lambda s: sales(s).orderBy("transaction_id"), n=3)
    diff_show(lambda s: sales(s).orderBy("transaction_id"), truncate=False)
    diff_show(lambda s: s.range(30))


def test_print_schema(ember, oracle, capsys):
    with api_mode(connect=False):
        sales(oracle).printSchema()
    expected = capsys.readouterr().out
    sales(ember).printSchema()
    assert capsys.readouterr().out == expected


def test_spark_version(ember, oracle):
    assert ember.version == oracle.version


def test_conf_roundtrip(ember):
    ember.conf.set("spark.ember.test.key", "v1")
    assert ember.conf.get("spark.ember.test.key") == "v1"
    ember.conf.unset("spark.ember.test.key")
    assert ember.conf.get("spark.ember.test.key", "dflt") == "dflt"


def test_unresolved_column_error(diff_error, ember):
    diff_error(lambda s: s.range(3).select("nope"), "UNRESOLVED_COLUMN.WITH_SUGGESTION")
    # The server keeps serving after the error.
    assert ember.range(3).count() == 3


def test_unresolved_function_error(diff_error):
    diff_error(lambda s: s.range(3).select(F.call_function("no_such_fn", F.col("id"))),
               "UNRESOLVED_ROUTINE")


def test_missing_aggregation_error(diff_error):
    diff_error(lambda s: s.range(3).groupBy((F.col("id") % 2).alias("k")).agg(F.col("id")),
               "MISSING_AGGREGATION")


def test_divide_by_zero_ansi(diff_error):
    diff_error(lambda s: s.range(3).select(F.col("id") / 0), "DIVIDE_BY_ZERO")


def test_explain_runs(ember, capsys):
    sales(ember).groupBy("region").agg(F.sum("amount")).explain()
    assert "Physical Plan" in capsys.readouterr().out


def test_isin_is_named_as_written(diff):
    diff(lambda s: s.range(6).select(F.col("id").isin(1, 3, 5), (~F.col("id").isin(2)).alias("not_two"),
                                     F.col("id").isin([]).alias("none")))


def test_aliases_inside_expressions_show_in_names(diff):
    # An alias inside another expression shows as `child AS name` (the name quoted where Spark
    # quotes it); top-level aliases, and casts of aliased columns, name their columns.
    def program(s):
        df = s.createDataFrame([(1, "x", (3, 4), [5])], "a int, s string, st struct<x:int,y:int>, arr array<int>")
        return df.select(
            F.lit(None).alias("m").isNull(), F.col("a").alias("x") + 1, F.upper(F.col("s").alias("t")),
            F.col("a").alias("x y") - 1, F.col("a").alias("1x") * 2, F.col("a").alias("a`b") % 2,
            F.col("a").alias("x").alias("y") + 1, F.concat(F.lit("q").alias("m"), "s"),
            F.struct(F.col("a").alias("x"), "s"), F.struct(F.col("a").alias("x.y")).isNull(),
            F.array(F.col("a").alias("x")), F.when(F.col("a").alias("x") > 0, F.lit(1).alias("one")),
            F.col("st").alias("q")["x"], F.col("arr").alias("q")[0], F.struct("a").alias("x").getField("a"),
            F.col("a").alias("x").cast("string") + 1, F.transform("arr", lambda v: (v + 1).alias("w")),
            F.col("a").alias("x"), F.col("a").alias("z").cast("string"))
    diff(program)
    diff(lambda s: s.range(3).groupBy((F.col("id").alias("x") % 2)).agg(F.sum(F.col("id").alias("v")) + 1))
    diff(lambda s: s.range(3).select(F.sum(F.col("id").alias("v")).over(
        Window.partitionBy(F.col("id").alias("p") % 2))))
    diff(lambda s: s.sql("SELECT a AS x, struct(a AS q, a AS `q r`) FROM VALUES (1) t(a)"))
