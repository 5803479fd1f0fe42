"""Differential tests of the interval constructors and unit arithmetic on timestamps against
Apache Spark: make_dt_interval, make_ym_interval, make_timestamp_ltz/_ntz and their try_ forms,
to_timestamp_ltz, timestamp_add/timestamp_diff, convert_timezone, current_timezone; typical
values, nulls, overflow, leap days and daylight saving changes in America/Los_Angeles."""

from __future__ import annotations

import contextlib
import datetime

from harness import session_conf, session_mode
from pyspark.sql import functions as F


@contextlib.contextmanager
def session_zone(ember, oracle, zone):
    """Runs the block with `zone` as both engines' session time zone (UTC again after it)."""
    for spark in (oracle, ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        yield
    finally:
        for spark in (oracle, ember):
            with session_mode(spark):
                spark.conf.set("spark.sql.session.timeZone", "UTC")


PARTS = [(1, 2024, 2, 29, 13, 45, 59.123456), (2, 2023, 12, 31, 23, 59, 60.0), (3, None, 1, 1, 0, 0, 0.0),
         (4, 1970, 1, 1, 0, 0, 0.0), (5, 2024, 3, 10, 2, 30, 0.0), (6, 2024, 11, 3, 1, 30, 0.5),
         (7, 1, 6, 15, 12, 0, 1.25), (8, 9999, 12, 30, 23, 59, 59.999999)]


def parts(s):
    return s.createDataFrame(PARTS, "k int, y int, mo int, d int, h int, mi int, sec double").withColumn(
        "sec", F.col("sec").cast("decimal(16,6)"))


def test_make_dt_interval(diff):
    diff(lambda s: parts(s).select(
        "k", F.make_dt_interval("d", "h", "mi", "sec"), F.make_dt_interval("d"), F.make_dt_interval(),
        F.make_dt_interval(F.col("k") - 5, F.lit(-30), "mi"), F.make_dt_interval("y", "mo", "d", "sec")))
    diff(lambda s: s.sql("SELECT make_dt_interval(1, 12, 30, 01.001001), make_dt_interval(2), "
                         "make_dt_interval(), make_dt_interval(null, 1), make_dt_interval(-1, 0, 0, -0.5), "
                         "make_dt_interval(106751991, 4, 0, 54.775807)"))


def test_constructors_cast_numbers_to_int(diff, diff_error):
    # BIGINT and fractional arguments are cast to the INT fields (1.7 is 1).
    diff(lambda s: s.createDataFrame([(1, 12, 30, 1.001001, 2014)], "d long, h long, mi long, sec double, y long")
         .select(F.make_dt_interval("d", "h", "mi", "sec"), F.make_dt_interval(F.lit(1.7)),
                 F.make_timestamp_ltz("y", F.lit(12), "d", "h", "mi", "sec", F.lit("CET")),
                 F.make_timestamp_ntz("y", F.lit(12.9), "d", "h", "mi", "sec"),
                 F.try_add(F.lit("2020-01-31").cast("date"), F.make_ym_interval("d", "h")).alias("ym")))
    diff_error(lambda s: s.range(1).select(F.make_dt_interval(F.lit(3000000000))), "CAST_OVERFLOW")


def test_make_dt_interval_overflow(diff_error):
    diff_error(lambda s: s.sql("SELECT make_dt_interval(106751992, 0, 0, 0)"), "INTERVAL_ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.range(1).select(F.make_dt_interval(F.lit(106751991), F.lit(23), F.lit(59),
                                                             F.lit(59.0).cast("decimal(18,6)"))),
               "INTERVAL_ARITHMETIC_OVERFLOW")


def test_make_ym_interval(diff, diff_show):
    # Year-month intervals do not convert to Python values: they are compared as the dates
    # they move and as show() prints them.
    def program(s):
        return parts(s).select(
            "k", F.try_add(F.lit("2024-01-31").cast("date"), F.make_ym_interval(F.col("y") % 100, "mo")).alias("a"),
            F.try_add(F.make_ym_interval(F.col("mo") * -1, "d"), F.lit("2000-02-29").cast("date")).alias("b"),
            F.try_subtract(F.lit("2024-03-31").cast("date"), F.make_ym_interval()).alias("c"),
            F.try_add(F.lit("2024-03-31").cast("date"), F.make_ym_interval("mo")).alias("d"))
    diff(program)
    diff_show(lambda s: parts(s).orderBy("k").select(
        "k", F.make_ym_interval("y", "mo"), F.make_ym_interval("mo"), F.make_ym_interval(),
        F.make_ym_interval(F.col("mo") * -1, "d")))


def test_make_ym_interval_overflow(diff_error):
    diff_error(lambda s: s.sql("SELECT make_ym_interval(178956970, 8)"), "INTERVAL_ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.range(1).select(F.make_ym_interval(F.lit(2147483647), F.lit(12))),
               "INTERVAL_ARITHMETIC_OVERFLOW")


def test_make_timestamp_variants(diff, ember, oracle):
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: parts(s).select(
            "k", F.make_timestamp_ltz("y", "mo", "d", "h", "mi", "sec"),
            F.make_timestamp_ltz("y", "mo", "d", "h", "mi", "sec", F.lit("Asia/Kolkata")),
            F.make_timestamp_ntz("y", "mo", "d", "h", "mi", "sec"),
            F.try_make_timestamp("y", "mo", "d", "h", "mi", "sec"),
            F.try_make_timestamp_ltz("y", "mo", "d", "h", "mi", "sec", F.lit("UTC")),
            F.try_make_timestamp_ntz("y", "mo", "d", "h", "mi", "sec")))


def test_try_make_timestamp_invalid_fields_are_null(diff):
    rows = [(2024, 2, 30, 0, 0, 0.0), (2024, 13, 1, 0, 0, 0.0), (2024, 1, 1, 24, 0, 0.0), (2024, 1, 1, 0, 60, 0.0),
            (2024, 1, 1, 0, 0, 60.5), (2023, 2, 29, 0, 0, 0.0)]
    def program(s):
        df = s.createDataFrame(rows, "y int, mo int, d int, h int, mi int, sec double")
        return df.select(F.try_make_timestamp("y", "mo", "d", "h", "mi", "sec"),
                         F.try_make_timestamp_ntz("y", "mo", "d", "h", "mi", "sec"),
                         F.try_make_timestamp_ltz("y", "mo", "d", "h", "mi", "sec"),
                         F.try_make_timestamp("y", "mo", "d", "h", "mi", "sec", F.lit("Nowhere/Bad")))
    diff(program)


def test_make_timestamp_ntz_invalid_fields(diff, diff_error, ember, oracle):
    def program(s):
        return s.range(1).select(F.make_timestamp_ntz(F.lit(2014), F.lit(13), F.lit(28), F.lit(6), F.lit(30),
                                                      F.lit(45.887)))
    diff_error(program, "DATETIME_FIELD_OUT_OF_BOUNDS")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(program)


def test_to_timestamp_ntz(diff, ember, oracle):
    rows = [("2016-12-31 00:12:00+05:00",), ("2016-12-31 00:12:00Z",), ("2016-12-31",), (None,),
            ("2016-12-31 00:12:00 America/Los_Angeles",), ("2024-03-10 02:30:00",)]
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: s.createDataFrame(rows, "t string").select(
            "t", F.to_timestamp_ntz("t"), F.to_timestamp_ntz(F.col("t").cast("date")),
            F.to_timestamp_ntz(F.col("t").try_cast("timestamp")).alias("from_ts")))
        diff(lambda s: s.createDataFrame([("2016-12-31 00:12:00+05:00",), ("2020-02-29 23:59:59-08:00",)], "t string")
             .select(F.to_timestamp_ntz("t", F.lit("yyyy-MM-dd HH:mm:ssXXX")),
                     F.to_timestamp_ntz(F.substring("t", 1, 10), F.lit("yyyy-MM-dd"))))


def test_to_timestamp_ntz_malformed(diff_error):
    diff_error(lambda s: s.createDataFrame([("x",)], "t string").select(F.to_timestamp_ntz("t")), "CAST_INVALID_INPUT")
    diff_error(lambda s: s.createDataFrame([("x",)], "t string").select(F.to_timestamp_ntz("t", F.lit("yyyy"))),
               "CANNOT_PARSE_TIMESTAMP")


def test_to_timestamp_ltz(diff):
    diff(lambda s: s.createDataFrame([("2016-12-31 10:11:12",), ("2024-02-29 00:00:00",), (None,)], "t string")
         .select(F.to_timestamp_ltz(F.col("t"), F.lit("yyyy-MM-dd HH:mm:ss")).alias("a"), F.to_timestamp_ltz("t")))


TS = [(1, datetime.datetime(2024, 1, 31, 10, 0), datetime.datetime(2024, 2, 29, 9, 59, 59)),
      (2, datetime.datetime(2024, 3, 9, 12, 0), datetime.datetime(2024, 3, 10, 12, 0)),
      (3, datetime.datetime(2024, 11, 2, 1, 30), datetime.datetime(2024, 11, 3, 1, 30)),
      (4, datetime.datetime(2020, 2, 29, 0, 0), datetime.datetime(2021, 2, 28, 23, 59)),
      (5, None, datetime.datetime(2021, 1, 1)),
      (6, datetime.datetime(2025, 6, 1, 0, 0, 0, 1), datetime.datetime(1969, 12, 31, 23, 59, 59, 999999))]
UNITS = ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"]


def ts(s):
    return s.createDataFrame(TS, "k int, a timestamp, b timestamp").withColumn(
        "an", F.col("a").cast("timestamp_ntz")).withColumn("bn", F.col("b").cast("timestamp_ntz"))


def test_timestamp_add_units(diff, ember, oracle):
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: ts(s).select(
            "k", *[F.timestamp_add(u, F.col("k") - 3, "a").alias("l_" + u) for u in UNITS],
            F.timestamp_add("dayofyear", F.lit(1), "a").alias("doy"),
            *[F.timestamp_add(u, F.lit(1), "an").alias("n_" + u) for u in ["month", "day", "hour"]]))
        diff(lambda s: ts(s).select("k", F.timestamp_add("day", F.lit(1), F.col("a").cast("date")).alias("d"),
                                    F.timestamp_add("hour", F.lit(1.7), "a").alias("f")))


def test_timestamp_diff_units(diff, ember, oracle):
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: ts(s).select(
            "k", *[F.timestamp_diff(u, "a", "b").alias("ab_" + u) for u in UNITS],
            *[F.timestamp_diff(u, "b", "a").alias("ba_" + u) for u in UNITS],
            *[F.timestamp_diff(u, "an", "bn").alias("n_" + u) for u in ["year", "month", "day", "hour"]]))
    diff(lambda s: s.range(1).select(
        F.timestamp_diff("MICROSECOND", F.lit("0001-01-01 00:00:00").cast("timestamp"),
                         F.lit("9999-06-01 00:00:00").cast("timestamp")),
        F.timestamp_diff("YEAR", F.lit("2020-02-29").cast("date"), F.lit("2021-02-28").cast("date"))))


def test_try_add_subtract_datetime(diff):
    def program(s):
        d = F.lit("2024-01-31").cast("date")
        return ts(s).select(
            "k", F.try_add(F.col("a").cast("date"), F.col("k")).alias("a1"),
            F.try_add(F.col("k"), F.col("a").cast("date")).alias("a2"),
            F.try_subtract(F.col("a").cast("date"), F.col("k")).alias("s1"),
            F.try_add(d, F.make_ym_interval(F.lit(0), "k")).alias("a3"),
            F.try_subtract(d, F.make_ym_interval(F.lit(0), "k")).alias("s3"),
            F.try_add("a", F.make_dt_interval("k", F.lit(1))).alias("a4"),
            F.try_subtract("an", F.make_dt_interval("k", F.lit(1))).alias("s4"),
            F.try_add(F.make_dt_interval("k"), F.make_dt_interval(F.lit(0), "k")).alias("a5"))
    diff(program)
    diff(lambda s: s.range(1).select(
        F.try_add(F.make_dt_interval(F.lit(106751991)), F.make_dt_interval(F.lit(106751991))),
        F.try_add(F.lit("2024-01-01").cast("date"), F.make_ym_interval(F.lit(178956970)))))


def test_timestamp_add_errors(diff_error):
    diff_error(lambda s: ts(s).select(F.timestamp_add("HOURX", F.lit(1), "a")), "INVALID_PARAMETER_VALUE")
    diff_error(lambda s: ts(s).select(F.timestamp_diff("dayofyear", "a", "b")), "INVALID_PARAMETER_VALUE")
    diff_error(lambda s: ts(s).select(F.timestamp_add("SECOND", F.lit(9223372036854775807), "a")), "DATETIME_OVERFLOW")
    diff_error(lambda s: ts(s).select(F.timestamp_add("YEAR", F.lit(2147483647), "a")), "DATETIME_OVERFLOW")
    diff_error(lambda s: ts(s).select(F.timestamp_diff("hour", F.lit(1), "a")), "DATATYPE_MISMATCH")


def test_convert_timezone(diff, ember, oracle):
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: ts(s).select(
            "k", F.convert_timezone(F.lit("Europe/Brussels"), F.lit("America/Los_Angeles"), "an"),
            F.convert_timezone(None, F.lit("Asia/Kolkata"), "an"),
            F.convert_timezone(None, F.lit("UTC"), "a"), F.convert_timezone(F.lit("+05:00"), F.lit("UTC"), "an")))


def test_convert_timezone_invalid_zone(diff_error):
    diff_error(lambda s: ts(s).select(F.convert_timezone(None, F.lit("Nowhere/Bad"), "an")), "INVALID_TIMEZONE")


def test_current_timezone(diff, ember, oracle):
    diff(lambda s: s.range(2).select("id", F.current_timezone()))
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(lambda s: s.range(1).select(F.current_timezone()))
