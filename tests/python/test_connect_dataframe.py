"""Differential tests of what the Spark Connect layer adds to the engine:
local data in every shape PySpark sends it (rows, pandas, Arrow, large frames
uploaded as artifacts), result encoding (types, time zones, nulls, nested
values), show() text, schemas, temporary views and errors as PySpark sees them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import decimal
import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from pyspark.sql import Row
from pyspark.sql import types as T

from harness import session_mode

ALL_TYPES_SCHEMA = T.StructType([
    T.StructField("i", T.IntegerType()),
    T.StructField("l", T.LongType()),
    T.StructField("sh", T.ShortType()),
    T.StructField("by", T.ByteType()),
    T.StructField("f", T.FloatType()),
    T.StructField("d", T.DoubleType()),
    T.StructField("dec", T.DecimalType(10, 3)),
    T.StructField("s", T.StringType()),
    T.StructField("b", T.BinaryType()),
    T.StructField("bo", T.BooleanType()),
    T.StructField("dt", T.DateType()),
    T.StructField("ts", T.TimestampType()),
    T.StructField("ntz", T.TimestampNTZType()),
    T.StructField("dti", T.DayTimeIntervalType()),
    T.StructField("arr", T.ArrayType(T.IntegerType())),
    T.StructField("m", T.MapType(T.StringType(), T.DoubleType())),
    T.StructField("st", T.StructType([T.StructField("x", T.IntegerType()),
                                      T.StructField("y", T.StringType())])),
])

ALL_TYPES_ROWS = [
    (1, 10_000_000_000, 3, 4, 1.5, 2.25, decimal.Decimal("1.250"), "héllo", b"\x01\x02\xff", True,
     dt.date(2020, 2, 29), dt.datetime(2020, 1, 1, 10, 0, 0, 500000),
     dt.datetime(2021, 6, 1, 12, 30), dt.timedelta(days=1, hours=2, microseconds=5),
     [1, None, 3], {"k": 1.0}, (7, "s")),
    (None,) * 17,
    (-2, -1, -3, -4, float("nan"), float("-inf"), decimal.Decimal("-0.001"), "", b"", False,
     dt.date(1, 1, 1), dt.datetime(1969, 12, 31, 23, 59, 59), dt.datetime(2099, 12, 31),
     dt.timedelta(seconds=-5), [], {"z": None}, (None, None)),
]


def all_types(spark):
    return spark.createDataFrame(ALL_TYPES_ROWS, ALL_TYPES_SCHEMA)


def test_rows_of_every_type_round_trip(diff):
    diff(all_types, ordered=True)


def test_rows_with_ddl_schema_and_inferred_schema(diff):
    diff(lambda s: s.createDataFrame([(1, "a"), (2, None)], "x int, y string"), ordered=True)
    diff(lambda s: s.createDataFrame([(1, "a", 2.5), (2, "b", None)]), ordered=True)
    diff(lambda s: s.createDataFrame([Row(a=1, b="x"), Row(a=2, b="y")]), ordered=True)
    diff(lambda s: s.createDataFrame([{"a": 1, "b": "x"}, {"a": 2, "b": None}]), ordered=True)
    diff(lambda s: s.createDataFrame([(1, "a")], ["n", "name"]), ordered=True)


def test_atomic_schema_makes_a_value_column(diff):
    diff(lambda s: s.createDataFrame([1, 2, 3], "int"), ordered=True)
    diff(lambda s: s.createDataFrame(["a", None], T.StringType()), ordered=True)


def test_empty_data_with_schema(diff):
    diff(lambda s: s.createDataFrame([], "a int, b string"), ordered=True)
    diff(lambda s: s.createDataFrame([], ALL_TYPES_SCHEMA), ordered=True)


def test_pandas_frames(diff):
    pdf = pd.DataFrame({
        "i": [1, 2, 3],
        "f": [1.5, float("nan"), -0.0],
        "s": ["x", None, "z"],
        "b": [True, False, True],
        "t": [dt.datetime(2021, 1, 1), dt.datetime(2021, 6, 1, 12, 34, 56, 789000), None],
    })
    diff(lambda s: s.createDataFrame(pdf), ordered=True)
    diff(lambda s: s.createDataFrame(pdf[["i", "s"]], schema="a long, b string"), ordered=True)
    diff(lambda s: s.createDataFrame(pdf, schema=["c1", "c2", "c3", "c4", "c5"]), ordered=True)


def test_numpy_and_arrow_inputs(diff):
    arr = np.array([[1, 2], [3, 4]])
    diff(lambda s: s.createDataFrame(arr), ordered=True)
    table = pa.table({"x": pa.array([1, 2, None], pa.int32()), "y": pa.array(["a", "b", "c"])})
    diff(lambda s: s.createDataFrame(table), ordered=True)


def test_large_local_data_goes_through_artifacts(diff):
    # Above spark.sql.session.localRelationCacheThreshold (1 MiB) PySpark uploads the data as
    # cached artifacts in chunks and sends a ChunkedCachedLocalRelation.
    n = 120_000
    pdf = pd.DataFrame({"a": np.arange(n, dtype=np.int64),
                        "s": [f"row-{k}" for k in range(n)]})
    diff(lambda s: s.createDataFrame(pdf), ordered=True)


def test_large_results_arrive_in_order(diff):
    diff(lambda s: s.range(250_000), ordered=True)


def test_session_time_zone_applies_to_results(ember, oracle):
    rows = [(dt.datetime(2021, 3, 14, 1, 30),)]
    results = []
    for spark in (oracle, ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
            try:
                df = spark.createDataFrame(rows, "t timestamp")
                results.append((df.collect(), df.toPandas()["t"].tolist()))
            finally:
                spark.conf.set("spark.sql.session.timeZone", "UTC")
    assert results[0] == results[1]


def test_to_pandas(ember, oracle):
    with session_mode(oracle):
        expected = all_types(oracle).toPandas()
    with session_mode(ember):
        actual = all_types(ember).toPandas()
    pd.testing.assert_frame_equal(expected, actual)


@pytest.mark.parametrize("args", [
    {}, {"truncate": False}, {"truncate": 5}, {"truncate": 2}, {"vertical": True},
    {"n": 1}, {"n": 0}, {"n": 1, "vertical": True},
])
def test_show(diff_show, args):
    diff_show(all_types, **args)


def test_show_empty_and_wide_characters(diff_show):
    diff_show(lambda s: s.createDataFrame([], "a int, b string"))
    diff_show(lambda s: s.createDataFrame([], "a int"), vertical=True)
    wide = [("日本語", "ｆｕｌｌ", "한국어", "ab😀cd")]
    diff_show(lambda s: s.createDataFrame(wide, "a string, b string, c string, d string"))
    diff_show(lambda s: s.createDataFrame(wide, "a string, b string, c string, d string"),
              truncate=4)
    diff_show(lambda s: s.createDataFrame([("tab\there", "new\nline")], "`a\tb` string, c string"))


def test_print_schema(ember, oracle):
    def tree(spark):
        out = io.StringIO()
        with session_mode(spark), contextlib.redirect_stdout(out):
            all_types(spark).printSchema()
            all_types(spark).printSchema(1)
        return out.getvalue()

    assert tree(ember) == tree(oracle)


def test_schema_questions(ember, oracle):
    for spark in (ember, oracle):
        with session_mode(spark):
            df = spark.createDataFrame([(1, "a")], "x int, y string")
            assert df.columns == ["x", "y"]
            assert df.dtypes == [("x", "int"), ("y", "string")]
            assert not df.isStreaming
    assert ember.version == oracle.version


def test_is_local_as_spark_connect_answers_it(ember):
    # Apache Spark's Connect server answers these (a classic session differs: its local data
    # is not a LocalRelation); pandas frames get a ToDF on top, so they are not local.
    assert ember.createDataFrame([(1, "a")], "x int, y string").isLocal()
    assert ember.createDataFrame([(1, "a")]).isLocal()
    assert not ember.createDataFrame(pd.DataFrame({"a": [1]})).isLocal()
    assert not ember.range(3).isLocal()


def test_cache_and_storage_level(ember, oracle):
    levels = []
    for spark in (oracle, ember):
        with session_mode(spark):
            df = spark.range(10)
            before = df.storageLevel
            df.cache()
            cached = df.storageLevel
            df.unpersist()
            levels.append((before, cached, df.is_cached))
    assert levels[0] == levels[1]


def test_temp_views(diff, diff_error):
    def view(spark):
        spark.createDataFrame([(1, "a"), (2, "b")], "x int, y string").createOrReplaceTempView("v")
        return spark.table("v")

    diff(view, ordered=True)

    def twice(spark):
        spark.range(1).createOrReplaceTempView("dup_view")
        spark.range(2).createTempView("dup_view")

    diff_error(twice, "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS")


def test_analysis_errors_reach_the_client(diff_error):
    diff_error(lambda s: s.range(3).select("nope"), "UNRESOLVED_COLUMN")


def test_conf_errors(diff_error):
    diff_error(lambda s: s.conf.get("spark.ember.test.no.such.key"), "SQL_CONF_NOT_FOUND")
    diff_error(lambda s: s.conf.set("spark.sql.session.timeZone", "Not/AZone"),
               "INVALID_CONF_VALUE.TIME_ZONE")
