"""The TIME type against Apache Spark: literals, casts, functions, arithmetic, ordering,
grouping, errors, and TIME values collected to Python.

Spark 4.3 keeps its TIME functions behind spark.sql.timeType.enabled (off outside its own
tests); both engines run these programs with it on.
"""

from __future__ import annotations

import datetime

import pytest
from harness import session_mode
from pyspark.sql import functions as F

TIMES = [(1, "00:00:00", "HOUR"), (2, "13:08:15.5", "MINUTE"), (3, "23:59:59.999999", "SECOND"),
         (4, None, "MILLISECOND"), (5, "09:32:05.123456", "MICROSECOND"), (6, "1:2:3", None),
         (7, "12:00", "hour")]


@pytest.fixture(autouse=True)
def time_type_enabled(differ):
    for spark in (differ.oracle, differ.ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.timeType.enabled", "true")
    yield
    for spark in (differ.oracle, differ.ember):
        with session_mode(spark):
            spark.conf.unset("spark.sql.timeType.enabled")


def times(s):
    return (s.createDataFrame(TIMES, "k int, s string, unit string")
            .select("k", "s", "unit", F.col("s").cast("time").alias("t")))


def test_literals_and_collect(diff):
    diff(lambda s: s.sql("SELECT TIME'12:34:56', TIME'12:34:56.123', TIME'1:2:3', TIME'12:34', "
                         "TIME'23:59:59.999999999', TIME'00:00:00.1234567', "
                         "typeof(TIME'00:00:00.1234567'), typeof(TIME'12:00')"))
    diff(lambda s: s.range(1).select(F.lit(datetime.time(12, 34, 56, 789)).alias("a"),
                                     F.lit(datetime.time(0, 0)).alias("b")))


def test_time_values_from_python(diff):
    rows = [(1, datetime.time(1, 2, 3)), (2, None), (3, datetime.time(23, 59, 59, 999999))]
    diff(lambda s: s.createDataFrame(rows, "k int, t time").select("k", "t", F.hour("t")))


def test_casts(diff):
    diff(lambda s: times(s).select(
        "k", "t", F.col("t").cast("string").alias("a"), F.col("t").cast("time(0)").alias("b"),
        F.col("t").cast("time(3)").alias("c"), F.col("t").cast("int").alias("d"),
        F.col("t").cast("long").alias("e"), F.col("t").cast("decimal(12,3)").alias("f"),
        F.col("s").try_cast("time(2)").alias("g")))
    diff(lambda s: s.createDataFrame(
        [("12:5",), (" 12:00:01 ",), ("T12:00:01",), ("24:00:00",), ("12:60",), ("abc",),
         ("12:00:00.",), ("12:00:01.1234567891",), ("2020-01-01 12:00:00",), ("012:00",),
         ("12",), ("12:00:00Z",)], "s string")
        .select("s", F.col("s").try_cast("time").alias("t"),
                F.col("s").try_cast("time").cast("string").alias("u")))
    diff(lambda s: s.sql("SELECT cast(timestamp'2020-01-01 12:00:01.5' as time), "
                         "cast(timestamp_ntz'1960-01-01 23:00:01.25' as time(1)), "
                         "try_cast(TIME'12:00:01.5' as smallint), "
                         "cast(TIME'12:00:01.5555' as decimal(10,3))"))


def test_cast_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT cast('24:00:00' as time)"), "CAST_INVALID_INPUT")
    diff_error(lambda s: s.sql("SELECT cast(TIME'12:00:01' as smallint)"), "CAST_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT cast(TIME'12:00:01' as double)"),
               "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("SELECT cast(3600 as time)"),
               "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")


def test_cast_malformed_is_null_without_ansi(diff, ember, oracle):
    from harness import session_conf
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.createDataFrame([("24:00",), ("10:00",)], "s string")
             .select(F.col("s").cast("time").alias("t")))


def test_make_time(diff):
    diff(lambda s: s.createDataFrame([(6, 30, 45.887), (0, 0, 0.0), (23, 59, 59.999999), (None, 1, 2.0)],
                                     "h int, m int, sec double")
         .select(F.make_time("h", "m", "sec").alias("t")))
    diff(lambda s: s.sql("SELECT make_time(1, 2, 3), make_time('1', '2', '3'), make_time(1.5, 2, 3), "
                         "make_time(1, 2, cast(3.1234567 as decimal(10,7)))"))


@pytest.mark.parametrize("args, error", [
    ("25, 0, 0", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("1, 60, 0", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("1, 2, 60", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("0, 0, -1", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
])
def test_make_time_errors(diff_error, args, error):
    diff_error(lambda s: s.sql(f"SELECT make_time({args})"), error)


def test_to_time(diff):
    diff(lambda s: times(s).select("k", F.to_time("s"), F.try_to_time("s")))
    diff(lambda s: s.createDataFrame(
        [("10:30", "HH:mm"), ("10:30:00 PM", "hh:mm:ss a"), ("2020-01-01 10:30:00", "yyyy-MM-dd HH:mm:ss"),
         ("12:00:00.123456789", "HH:mm:ss.SSSSSSSSS"), ("10:30", "HH:mm:ss"), (None, "HH"), ("1", None)],
        "s string, f string")
        .select("s", F.try_to_time("s", "f").alias("t"),
                F.try_to_time("s", "f").cast("string").alias("u")))


def test_to_time_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT to_time('abc')"), "CANNOT_PARSE_TIME")
    diff_error(lambda s: s.sql("SELECT to_time('10:30', 'HH:mm:ss')"), "CANNOT_PARSE_TIME")
    diff_error(lambda s: s.sql("SELECT to_time(12)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_from_and_to_numbers(diff):
    diff(lambda s: s.sql(
        "SELECT time_from_seconds(3600), time_from_seconds(3600.5), time_from_seconds(1.1234567), "
        "time_from_seconds(1.5d), time_from_seconds(cast(null as int)), time_from_millis(3600500), "
        "time_from_micros(1), time_from_micros(86399999999)"))
    diff(lambda s: times(s).select("k", F.time_to_seconds("t"), F.time_to_millis("t"),
                                   F.time_to_micros("t")))
    diff(lambda s: s.sql("SELECT time_to_seconds(TIME'12:00:00.0000019'), "
                         "time_to_millis(TIME'12:00:00.0019'), time_to_micros(TIME'12:00:00.0000019')"))


@pytest.mark.parametrize("expr, error", [
    ("time_from_seconds(86400)", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("time_from_seconds(-1)", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("time_from_seconds(cast('NaN' as double))", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("time_from_millis(86400000)", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("time_from_millis(9223372036854775807)", "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION"),
    ("time_from_millis(1.5)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
    ("time_from_seconds(true)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
])
def test_from_numbers_errors(diff_error, expr, error):
    diff_error(lambda s: s.sql(f"SELECT {expr}"), error)


def test_trunc_and_diff(diff):
    diff(lambda s: times(s).select("k", F.time_trunc("unit", "t"),
                                   F.time_diff("unit", F.lit("06:00:00").cast("time"), "t")))
    diff(lambda s: s.sql("SELECT time_trunc('MICROSECOND', TIME'12:00:00.1234567'), "
                         "time_trunc('MINUTE', cast(TIME'12:34:56' as time(0))), "
                         "time_diff('MINUTE', TIME'12:00:00', TIME'11:00:30'), "
                         "time_diff('hour', TIME'12:00', '13:00')"))


def test_trunc_and_diff_bad_unit(diff_error):
    diff_error(lambda s: s.sql("SELECT time_trunc('DAY', TIME'12:00')"), "INVALID_PARAMETER_VALUE.TIME_UNIT")
    diff_error(lambda s: s.sql("SELECT time_diff('DAY', TIME'12:00', TIME'13:00')"),
               "INVALID_PARAMETER_VALUE.TIME_UNIT")


def test_fields(diff):
    diff(lambda s: times(s).select("k", F.hour("t"), F.minute("t"), F.second("t")))


def test_current_time_types(diff):
    diff(lambda s: s.sql("SELECT typeof(current_time()), typeof(current_time(0)), typeof(current_time(3)), "
                         "current_time() IS NULL"))


def test_make_timestamp_from_date_and_time(diff):
    diff(lambda s: s.sql(
        "SELECT make_timestamp(date'2020-01-01', TIME'12:00:00.5'), "
        "make_timestamp(date'2020-01-01', TIME'12:00:00', 'America/Los_Angeles'), "
        "make_timestamp_ntz(date'2020-01-01', TIME'23:59:59.999999'), "
        "make_timestamp_ltz(date'2020-01-01', TIME'12:00:00'), "
        "try_make_timestamp(date'2020-01-01', TIME'12:00:00'), "
        "try_make_timestamp_ntz(date'2020-01-01', TIME'12:00:00'), "
        "make_timestamp(null, TIME'12:00:00'), make_timestamp_ntz(date'2020-01-01', null)"))
    diff(lambda s: times(s).select("k", F.make_timestamp(date=F.lit(datetime.date(2024, 2, 29)), time=F.col("t"))))


def test_date_format(diff):
    diff(lambda s: times(s).select("k", F.date_format("t", "HH:mm"), F.date_format("t", "h:mm:ss.SSS a"),
                                   F.date_format("t", "HH:mm:ss.SSSSSSSSS")))


def test_date_format_date_fields_are_invalid(diff_error):
    diff_error(lambda s: s.sql("SELECT date_format(TIME'12:34:56', 'yyyy')"), "INVALID_PARAMETER_VALUE.PATTERN")


def test_arithmetic(diff):
    diff(lambda s: s.sql(
        "SELECT TIME'12:00:00' - TIME'10:30:00', cast(TIME'12:00' as time(0)) - TIME'10:00:00.5', "
        "TIME'12:00' + INTERVAL '01:30' HOUR TO MINUTE, INTERVAL '1' HOUR + TIME'12:00', "
        "cast(TIME'12:00' as time(2)) + INTERVAL '1.123' SECOND, "
        "cast(TIME'12:00' as time(2)) - INTERVAL '1' HOUR, TIME'12:00' - INTERVAL '12' HOUR, "
        "TIME'00:00:00' + INTERVAL '23:59:59.999999' HOUR TO SECOND, TIME'12:00' + INTERVAL '0' DAY"))
    diff(lambda s: times(s).where(F.col("k").isin(2, 4, 5, 6, 7))
         .select("k", (F.col("t") + F.expr("INTERVAL '5' MINUTE") - F.col("t")).alias("d"),
                 (F.col("t") - F.expr("INTERVAL '1' SECOND")).alias("e")))


@pytest.mark.parametrize("expr, error", [
    ("TIME'23:00:00' + INTERVAL '2' HOUR", "DATETIME_OVERFLOW"),
    ("TIME'12:00' - INTERVAL '1' DAY", "DATETIME_OVERFLOW"),
    ("TIME'12:00' + INTERVAL '1' MONTH", "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"),
    ("TIME'12:00' + 1", "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"),
])
def test_arithmetic_errors(diff_error, expr, error):
    diff_error(lambda s: s.sql(f"SELECT {expr}"), error)


def test_compare_sort_group_hash(diff):
    diff(lambda s: times(s).orderBy(F.col("t").asc_nulls_last(), "k").select("k", "t"), ordered=True)
    diff(lambda s: times(s).select("k", (F.col("t") < F.lit("12:00").cast("time")).alias("lt"),
                                   (F.col("t") == F.col("s").cast("time(0)")).alias("eq"),
                                   F.hash("t"), F.xxhash64("t")))
    diff(lambda s: times(s).select(F.time_trunc(F.lit("HOUR"), "t").alias("h"))
         .groupBy("h").agg(F.count("*").alias("n")))
    diff(lambda s: times(s).agg(F.min("t"), F.max("t"), F.count("t")))
    diff(lambda s: times(s).alias("a").join(times(s).alias("b"), F.col("a.t") == F.col("b.t"))
         .select("a.k", "b.k"))
    diff(lambda s: s.sql("SELECT coalesce(TIME'12:00', cast(TIME'1:00' as time(0))), "
                         "typeof(array(TIME'12:00:00.1234567', TIME'1:00')), TIME'12:00' = '12:00:00'"))


def test_show(diff_show):
    diff_show(lambda s: s.sql("SELECT TIME'12:34:56' AS a, TIME'00:00:00.1234567' AS b, "
                              "cast(TIME'12:00:01.5' as time(0)) AS c, cast(null as time) AS d"))


def test_time_cast_function(diff):
    diff(lambda s: s.sql("SELECT time('01:02:03'), typeof(time('01:02:03')), time(null), "
                         "time(timestamp'2020-01-01 10:00:00')"))
    diff(lambda s: s.sql("SELECT * FROM VALUES (TIME('00:00:00'), 1), (TIME('01:02:03'), 2), "
                         "(TIME('11:12:13'), 3) AS tab(t, i)")
         .where(F.col("t") < datetime.time(3, 0, 0)).select("i"))
    # The filter names a column the projection before it dropped.
    diff(lambda s: s.sql("SELECT * FROM VALUES (TIME('00:00:00'), 1), (TIME('01:02:03'), 2), "
                         "(TIME('11:12:13'), 3) AS tab(t, i)")
         .select("i").where(F.col("t") > datetime.time(1, 0, 0)))


def test_parquet_round_trip(diff, oracle, tmp_path):
    """A TIME column written by Spark (TIME(MICROS)) reads back on both engines, and each
    engine reads back the file it writes itself."""
    from harness import api_mode
    spark_path = tmp_path / "spark_time"
    with api_mode(connect=False):
        oracle.sql("SELECT id, cast(make_time(id, 30, 15.25 + id) as time) AS t, "
                   "TIME'01:02:03.123456789' + make_dt_interval(0, id) AS t9 FROM range(0, 5) "
                   "UNION ALL SELECT 9, NULL, NULL").write.parquet(str(spark_path))
    diff(lambda s: s.read.parquet(str(spark_path)))
    counter = iter(range(1000))

    def own(s):
        path = tmp_path / f"own_{next(counter)}"
        s.sql("SELECT k, t, t9 FROM VALUES (1, TIME'01:02:03.123456', TIME'01:02:03.123456789'), "
              "(2, NULL, NULL) AS v(k, t, t9)") \
            .write.parquet(str(path))
        return s.read.parquet(str(path))
    diff(own)


def test_parquet_illegal_time_units(diff_error, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = tmp_path / "millis.parquet"
    pq.write_table(pa.table({"t": pa.array([1000], pa.time32("ms"))}), str(path))
    diff_error(lambda s: s.read.parquet(str(path)), "PARQUET_TYPE_ILLEGAL")
