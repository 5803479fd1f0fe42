"""Date and time functions across America/Los_Angeles' daylight-saving changes and leap days,
against Apache Spark: fields, truncation, formatting and parsing, zone conversions, month and
day arithmetic, timestampadd/timestampdiff and the Unix conversions of local times in the spring
gap, the autumn overlap and on February 29, in the session zones UTC and America/Los_Angeles,
with ANSI mode on and off where parsing or construction can fail."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import session_conf

# Local wall-clock times: the 2024 spring gap (02:00-03:00 on March 10 does not exist), the
# autumn overlap (01:00-02:00 on November 3 happens twice), leap days, the epoch's eve, and
# times before 1970 and far in the future.
TIMES = ["2024-03-10 01:59:59", "2024-03-10 02:30:00", "2024-03-10 03:00:00", "2024-03-09 02:30:00",
         "2024-11-03 00:59:59", "2024-11-03 01:30:00", "2024-11-03 02:00:00", "2024-11-02 01:30:00",
         "2024-02-29 23:59:59.999999", "2000-02-29 00:00:00", "1900-02-28 12:00:00", "1969-12-31 23:59:59",
         "1883-11-18 12:00:00", "2100-03-01 00:00:00", "2023-12-31 23:30:00"]
ZONES = ["UTC", "America/Los_Angeles"]


def frame(s):
    rows = [(i, t) for i, t in enumerate(TIMES)] + [(len(TIMES), None)]
    return (s.createDataFrame(rows, "k int, t string")
            .select("k", "t", F.col("t").cast("timestamp").alias("ts"), F.col("t").cast("timestamp_ntz").alias("ntz"),
                    F.col("t").cast("date").alias("d")))


@pytest.mark.parametrize("zone", ZONES)
def test_fields(diff, ember, oracle, zone):
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(lambda s: frame(s).select(
            "k", "ts", F.year("ts"), F.quarter("ts"), F.month("ts"), F.dayofmonth("ts"), F.dayofweek("ts"),
            F.dayofyear("ts"), F.weekofyear("ts"), F.hour("ts"), F.minute("ts"), F.second("ts"), F.weekday("ts"),
            F.hour("ntz"), F.dayofyear("d"), F.last_day("ts"), F.dayname("ts"), F.monthname("d"),
            F.unix_seconds("ts"), F.unix_millis("ts"), F.unix_micros("ts"), F.unix_date("d"),
            F.to_date("ts"), F.col("ts").cast("string"), F.col("ts").cast("timestamp_ntz")))


@pytest.mark.parametrize("zone", ZONES)
def test_truncation(diff, ember, oracle, zone):
    units = ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"]
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(lambda s: frame(s).select("k", *[F.date_trunc(u, "ts").alias(u) for u in units],
                                       *[F.date_trunc(u, "ntz").alias(u + "_ntz") for u in units[:6]],
                                       F.trunc("d", "MM"), F.trunc("d", "YEAR"), F.trunc("d", "WEEK"),
                                       F.trunc("d", "QUARTER")))


@pytest.mark.parametrize("zone", ZONES)
def test_formatting_and_parsing(diff, ember, oracle, zone):
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        # s: the text without its fraction, which the default patterns do not take.
        diff(lambda s: frame(s).withColumn("s", F.substring("t", 1, 19)).select(
            "k", F.date_format("ts", "yyyy-MM-dd HH:mm:ss.SSSSSS"), F.date_format("ts", "yyyy-MM-dd'T'HH:mm:ssXXX"),
            F.date_format("ts", "EEE, d MMM yyyy h:mm a VV"), F.date_format("ts", "D E"),
            F.to_timestamp("t"), F.to_timestamp("t", "yyyy-MM-dd HH:mm:ss[.SSSSSS]"), F.unix_timestamp("s"),
            F.to_unix_timestamp("s", F.lit("yyyy-MM-dd HH:mm:ss")), F.from_unixtime(F.unix_timestamp("s")),
            F.to_timestamp_ntz("t"), F.to_timestamp_ltz("t")))


@pytest.mark.parametrize("zone", ZONES)
def test_zone_conversions(diff, ember, oracle, zone):
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(lambda s: frame(s).select(
            "k", F.from_utc_timestamp("ts", "America/Los_Angeles"), F.to_utc_timestamp("ts", "America/Los_Angeles"),
            F.from_utc_timestamp("ts", "Asia/Kolkata"), F.to_utc_timestamp("ts", "+05:30"),
            F.convert_timezone(F.lit("America/Los_Angeles"), F.lit("UTC"), "ntz"),
            F.convert_timezone(F.lit("UTC"), F.lit("America/Los_Angeles"), "ntz"),
            F.convert_timezone(None, F.lit("Europe/Berlin"), "ntz"), F.current_timezone()))


@pytest.mark.parametrize("zone", ZONES)
def test_calendar_arithmetic(diff, ember, oracle, zone):
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(lambda s: frame(s).select(
            "k", F.add_months("d", 1), F.add_months("d", 12), F.add_months("d", -1), F.date_add("d", 1),
            F.date_sub("d", 366), F.datediff(F.lit("2024-03-01").cast("date"), "d"), F.next_day("d", "Sun"),
            F.months_between("ts", F.lit("2024-02-29 12:00:00").cast("timestamp")),
            F.months_between("ts", F.lit("2024-03-31").cast("timestamp"), False),
            F.timestamp_add("HOUR", F.lit(1), "ts"), F.timestamp_add("DAY", F.lit(1), "ts"),
            F.timestamp_add("MONTH", F.lit(1), "ts"), F.timestamp_add("MINUTE", F.lit(-90), "ntz"),
            F.timestamp_diff("HOUR", "ts", F.lit("2024-11-04 00:00:00").cast("timestamp")),
            F.timestamp_diff("DAY", "ts", F.lit("2024-03-11 00:00:00").cast("timestamp")),
            F.timestamp_diff("MONTH", "ntz", F.lit("2024-03-29 00:00:00").cast("timestamp_ntz")),
            (F.col("ts") + F.expr("INTERVAL 1 DAY")).alias("plus_day"),
            (F.col("ts") + F.expr("INTERVAL 24 HOURS")).alias("plus_24h"),
            (F.col("ts") - F.expr("INTERVAL '1-1' YEAR TO MONTH")).alias("minus_ym")))


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("ansi", ["true", "false"])
def test_construction_in_the_gap_and_overlap(diff, ember, oracle, zone, ansi):
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql(
            "SELECT make_timestamp(2024, 3, 10, 2, 30, 0), make_timestamp(2024, 11, 3, 1, 30, 0), "
            "make_timestamp(2024, 2, 29, 0, 0, 0, 'America/Los_Angeles'), make_date(2024, 2, 29), "
            "try_make_timestamp(2023, 2, 29, 0, 0, 0), make_timestamp_ntz(2024, 3, 10, 2, 30, 0), "
            "make_timestamp_ltz(2024, 11, 3, 1, 59, 59.999999), "
            "try_to_timestamp('2024-03-10 02:30:00'), to_timestamp('2024-11-03 01:30:00 PST', 'yyyy-MM-dd HH:mm:ss z'), "
            "to_timestamp('2024-11-03 01:30:00 America/Los_Angeles', 'yyyy-MM-dd HH:mm:ss VV'), "
            "date_add(DATE'2024-02-29', 365), add_months(DATE'2024-02-29', 12), last_day(DATE'2100-02-01')"))


@pytest.mark.parametrize("query,error", [
    ("SELECT make_date(2023, 2, 29)", "DATETIME_FIELD_OUT_OF_BOUNDS"),
    ("SELECT make_timestamp(2024, 2, 30, 0, 0, 0)", "DATETIME_FIELD_OUT_OF_BOUNDS"),
    ("SELECT to_timestamp('2024-02-30 00:00:00')", "CAST_INVALID_INPUT"),
    ("SELECT to_date('2023-02-29')", "CAST_INVALID_INPUT"),
])
def test_invalid_leap_days_in_ansi_mode(diff, diff_error, ember, oracle, query, error):
    diff_error(lambda s: s.sql(query), error)
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql(query).toDF("v"))
