"""Date and time functions against Apache Spark: casts, fields, arithmetic, leap days and DST."""

from __future__ import annotations

import contextlib
import datetime

from harness import session_conf, session_mode
from pyspark.sql import functions as F

DATES = [(1, "2024-02-29", "2024-02-29 13:45:59.123456"), (2, "2023-12-31", "2023-12-31 23:59:59"),
         (3, "1970-01-01", "1970-01-01 00:00:00"), (4, None, None),
         (5, "2021-01-03", "2024-03-10 02:30:00"), (6, "1969-12-31", "2024-11-03 01:30:00"),
         (7, "2000-03-01", "1899-12-31 12:00:00.5"), (8, "2024-01-31", "2024-03-31 00:00:01")]


def dates(s):
    return (s.createDataFrame(DATES, "k int, ds string, ts string")
            .select("k", F.col("ds").cast("date").alias("d"),
                    F.col("ts").cast("timestamp").alias("t"), "ds", "ts"))


@contextlib.contextmanager
def session_zone(differ, zone):
    """Runs the block with `zone` as both engines' session time zone."""
    for spark in (differ.oracle, differ.ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        yield
    finally:
        for spark in (differ.oracle, differ.ember):
            with session_mode(spark):
                spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_casts_between_strings_dates_and_timestamps(diff):
    diff(lambda s: dates(s).select("k", "d", "t", F.col("d").cast("string").alias("a"),
                                   F.col("t").cast("string").alias("b"),
                                   F.col("d").cast("timestamp").alias("c"),
                                   F.col("t").cast("date").alias("e"),
                                   F.col("t").cast("long").alias("f"),
                                   F.col("t").cast("double").alias("g")))
    diff(lambda s: s.createDataFrame([("2024-1-5",), (" 2024-02-29 ",), ("2024-02-30",), ("abc",),
                                      ("2024-03-10T10:11:12Z",), ("2024-03-10 10:11:12+05:30",),
                                      ("2024",), ("2024-07",)], "s string")
         .select("s", F.col("s").try_cast("date").alias("d"),
                 F.col("s").try_cast("timestamp").alias("t")))


def test_cast_invalid_date_is_an_ansi_error(diff_error):
    diff_error(lambda s: s.createDataFrame([("2024-02-30",)], "s string")
               .select(F.col("s").cast("date")), "CAST_INVALID_INPUT")


def test_fields(diff):
    diff(lambda s: dates(s).select(
        "k", F.year("d"), F.quarter("d"), F.month("d"), F.dayofmonth("d"), F.day("d"),
        F.dayofweek("d"), F.weekday("d"), F.dayofyear("d"), F.weekofyear("d"), F.last_day("d"),
        F.hour("t"), F.minute("t"), F.second("t"), F.year("t"), F.month("ds"),
        F.unix_date("d"), F.unix_seconds("t"), F.unix_millis("t"), F.unix_micros("t")))


def test_fields_in_los_angeles(diff, differ):
    with session_zone(differ, "America/Los_Angeles"):
        diff(lambda s: dates(s).select(
            "k", "t", F.hour("t"), F.dayofmonth("t"), F.col("t").cast("string").alias("ts"),
            F.col("d").cast("timestamp").alias("dt"), F.col("t").cast("date").alias("td"),
            F.months_between("t", F.lit("2024-01-31")), F.date_trunc("hour", "t"),
            F.date_trunc("day", "t"), F.from_utc_timestamp("t", "UTC")))


def test_date_arithmetic(diff):
    diff(lambda s: dates(s).select(
        "k", F.date_add("d", 1), F.date_sub("d", 30), F.add_months("d", 1), F.add_months("d", -12),
        F.datediff("d", F.lit("2024-01-01")), F.date_diff("d", F.lit("2000-02-29")),
        F.months_between("t", F.lit("2024-01-31")), F.months_between("t", "d", False),
        F.next_day("d", "Mon"), F.next_day("d", "sunday"), F.dateadd("d", F.lit(-1))))


def test_make_date_and_truncation(diff):
    diff(lambda s: dates(s).select(
        "k", F.make_date(F.year("d"), F.month("d"), F.lit(1)), F.trunc("d", "year"),
        F.trunc("d", "MM"), F.trunc("d", "week"), F.trunc("d", "quarter"), F.trunc("d", "day"),
        F.date_trunc("hour", "t"), F.date_trunc("DAY", "t"), F.date_trunc("month", "t"),
        F.date_trunc("minute", "t"), F.date_trunc("week", "t"), F.date_trunc("bogus", "t")))


def test_make_date_out_of_range(diff, diff_error):
    diff_error(lambda s: s.range(1).select(F.make_date(F.lit(2023), F.lit(2), F.lit(29))),
               "DATETIME_FIELD_OUT_OF_BOUNDS")
    diff_error(lambda s: s.range(1).select(F.make_date(F.lit(2023), F.lit(13), F.lit(1))),
               "DATETIME_FIELD_OUT_OF_BOUNDS")


def test_utc_conversions_and_epoch(diff):
    diff(lambda s: dates(s).select(
        "k", F.from_utc_timestamp("t", "America/Los_Angeles"),
        F.to_utc_timestamp("t", "America/Los_Angeles"), F.from_utc_timestamp("t", "+08:00")))
    diff(lambda s: s.createDataFrame([(0,), (1709164800,), (-1,), (None,)], "x long").select(
        "x", F.timestamp_seconds("x"), F.timestamp_millis("x"), F.timestamp_micros("x")))
    diff(lambda s: s.createDataFrame([(1.5,), (-0.25,), (None,)], "x double")
         .select(F.timestamp_seconds("x")))


def test_current_date_and_timestamp_types(differ):
    ember = differ.ember if hasattr(differ, "ember") else None
    if ember is None:
        return
    df = ember.range(1).select(F.current_date(), F.current_timestamp())
    assert df.columns == ["current_date()", "current_timestamp()"]
    row = df.collect()[0]
    assert row[0] is not None and row[1] is not None


def test_datetime_functions_in_sql(diff):
    diff(lambda s: s.sql(
        "SELECT year(date'2024-02-29'), date_add(date'2024-02-28', 1), "
        "add_months(date'2024-01-31', 1), datediff(date'2024-03-01', date'2024-02-01'), "
        "last_day(date'2023-02-10'), make_date(2024, 2, 29), "
        "months_between(timestamp'2024-03-31 00:00:00', timestamp'2024-02-29 00:00:00')"))


def test_parsing_with_patterns(diff):
    diff(lambda s: s.createDataFrame(
        [("2024-02-29", "29/02/2024 13:45", "20240229"), ("2023-12-31", "31/12/2023 00:00", "20231231"),
         (None, None, None), ("1999-01-01", "01/01/1999 23:59", "19990101")],
        "a string, b string, c string").select(
            F.to_date("a"), F.to_date("b", "dd/MM/yyyy HH:mm"), F.to_date("c", "yyyyMMdd"),
            F.to_timestamp("a"), F.to_timestamp("b", "dd/MM/yyyy HH:mm"),
            F.unix_timestamp("a", "yyyy-MM-dd"), F.unix_timestamp(F.to_timestamp("a")),
            F.to_unix_timestamp("b", F.lit("dd/MM/yyyy HH:mm"))))


def test_parse_failures(diff, diff_error):
    diff_error(lambda s: s.createDataFrame([("2024-13-01",)], "a string")
               .select(F.to_date("a", "yyyy-MM-dd")), "CANNOT_PARSE_TIMESTAMP")
    diff(lambda s: s.createDataFrame([("2024-13-01",), ("x",), ("2024-01-02",)], "a string")
         .select(F.try_to_timestamp("a", F.lit("yyyy-MM-dd")), F.try_to_date("a", "yyyy-MM-dd")))


def test_formatting(diff):
    diff(lambda s: dates(s).select(
        "k", F.date_format("t", "yyyy-MM-dd HH:mm:ss.SSS"), F.date_format("d", "dd/MM/yy"),
        F.date_format("t", "MMM d, yyyy h:mm a"), F.date_format("t", "EEEE EEE MMMM D Q"),
        F.date_format("t", "yyyy'T'HH'h' XXX"), F.from_unixtime(F.unix_seconds("t")),
        F.from_unixtime(F.lit(0), "yyyy/MM/dd HH")))


def test_formatting_in_los_angeles(diff, differ):
    with session_zone(differ, "America/Los_Angeles"):
        diff(lambda s: dates(s).select(
            "k", F.date_format("t", "yyyy-MM-dd HH:mm:ss XXX"), F.from_unixtime(F.lit(1710064800)),
            F.unix_timestamp("ds", "yyyy-MM-dd"),
            F.to_timestamp(F.lit("2024-03-10 02:30:00"), "yyyy-MM-dd HH:mm:ss"),
            F.to_timestamp(F.lit("2024-11-03 01:30:00"), "yyyy-MM-dd HH:mm:ss")))


@contextlib.contextmanager
def ansi_off(differ):
    for spark in (differ.oracle, differ.ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.ansi.enabled", "false")
    try:
        yield
    finally:
        for spark in (differ.oracle, differ.ember):
            with session_mode(spark):
                spark.conf.set("spark.sql.ansi.enabled", "true")


def test_non_ansi_gives_nulls(diff, differ):
    with ansi_off(differ):
        diff(lambda s: s.createDataFrame([("2024-02-30",), ("2024-02-29",), ("junk",)], "s string")
             .select("s", F.col("s").cast("date").alias("d"), F.to_date("s", "yyyy-MM-dd"),
                     F.to_timestamp("s"), F.next_day(F.lit("2024-01-01"), "xx"),
                     F.make_date(F.lit(2023), F.lit(2), F.lit(29)),
                     F.unix_timestamp("s", "yyyy-MM-dd")))


def test_make_timestamp(diff, differ):
    diff(lambda s: s.sql(
        "SELECT make_timestamp(2024, 2, 29, 13, 45, 59.123456), "
        "make_timestamp(2024, 3, 10, 2, 30, 0, 'America/Los_Angeles'), "
        "make_timestamp(2023, 12, 31, 23, 59, 60), make_timestamp(1970, 1, 1, 0, 0, 1)"))
    with session_zone(differ, "America/Los_Angeles"):
        diff(lambda s: dates(s).select("k", F.make_timestamp(F.year("d"), F.month("d"),
                                                             F.dayofmonth("d"), F.lit(2),
                                                             F.lit(30), F.lit(15))))


def test_make_timestamp_out_of_range(diff_error):
    diff_error(lambda s: s.sql("SELECT make_timestamp(2024, 1, 1, 25, 0, 0)"),
               "DATETIME_FIELD_OUT_OF_BOUNDS")


def test_day_and_month_names(diff):
    diff(lambda s: dates(s).select("k", F.dayname("d"), F.monthname("d"),
                                   F.date_from_unix_date(F.unix_date("d"))))


def test_next_day_bad_name_is_an_ansi_error(diff_error):
    diff_error(lambda s: s.range(1).select(F.next_day(F.lit("2024-01-01"), "xx")),
               "ILLEGAL_DAY_OF_WEEK")


def test_extract_and_date_part(diff):
    def program(s):
        s.createDataFrame([("2024-02-29", "2024-03-10 01:30:00"), ("1999-12-31", "2021-01-03 23:59:59"),
                           (None, None)], "d string, t string") \
            .selectExpr("CAST(d AS DATE) AS d", "CAST(t AS TIMESTAMP) AS t").createOrReplaceTempView("ex_t")
        return s.sql("SELECT extract(year FROM d), extract(MONTH FROM d), extract(day FROM d), "
                     "extract(quarter FROM d), extract(week FROM d), extract(dow FROM d), extract(doy FROM d), "
                     "date_part('year', d), extract(hour FROM t), extract(minute FROM t) FROM ex_t")
    diff(program)


def test_now_is_the_query_timestamp(diff, ember, oracle):
    # now() and current_timestamp() are one instant of the query in every time zone.
    for zone in ("UTC", "America/Los_Angeles"):
        with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
            diff(lambda s: s.range(3).select(F.now().isNotNull(), F.now() == F.current_timestamp(),
                                             F.expr("typeof(now())"), F.expr("now() = now()"),
                                             F.expr("to_date(now()) = current_date()"),
                                             (F.now() >= F.lit("2024-01-01").cast("timestamp")).alias("after")))
            diff(lambda s: s.sql("SELECT now() IS NULL, current_timestamp() = now(), now() - now(), "
                                 "current_time() = current_time(), CAST(now() AS DATE) = current_date()"))


def test_unix_date_takes_dates_only(diff, diff_error):
    diff(lambda s: s.sql("SELECT unix_date(DATE'2024-02-29'), unix_date(DATE'0001-01-01'), unix_date(NULL)"))
    diff_error(lambda s: s.sql("SELECT unix_date(TIMESTAMP'2024-03-10 02:30:00')"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT unix_date(TIMESTAMP_NTZ'2024-03-10 02:30:00')"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_names_of_timestamp_literals_in_the_session_time_zone(differ, diff):
    # Spark prints a timestamp literal in the session time zone; TIMESTAMP_NTZ and DATE have none.
    for zone in ("America/Los_Angeles", "UTC", "Asia/Kolkata"):
        with session_zone(differ, zone):
            diff(lambda s: s.range(1).select(
                F.lit(datetime.datetime(2020, 1, 2, 3, 4, 5, 120000)),
                F.lit(datetime.datetime(2020, 7, 1)) + F.expr("INTERVAL 1 DAY"),
                F.lit(datetime.date(2020, 1, 2))))
            diff(lambda s: s.sql(
                "SELECT TIMESTAMP'2020-01-01 00:00:00' + INTERVAL 1 DAY, TIMESTAMP'2020-06-01 12:30:00.5', "
                "TIMESTAMP_NTZ'2020-01-01 00:00:00', TIMESTAMP_NTZ'2020-01-01 00:00:00' + INTERVAL '2' HOUR, "
                "TIMESTAMP'2020-01-01 00:00:00' < TIMESTAMP'2021-01-01 00:00:00', "
                "CAST(TIMESTAMP'1969-12-31 23:59:59' AS STRING)"))
