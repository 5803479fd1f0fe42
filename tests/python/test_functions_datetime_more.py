"""time_bucket against Apache Spark: day-time and year-month buckets of TIMESTAMP (in the
session time zone, across daylight-saving changes) and TIMESTAMP_NTZ (in UTC), origins, NULLs,
column names, and the foldability, type and positivity errors."""

from __future__ import annotations

import pytest
from harness import session_conf

from pyspark.sql import functions as F

# Local wall-clock times around America/Los_Angeles' 2024 changes (the spring gap at 02:00 on
# March 10, the autumn overlap at 01:00 on November 3) and elsewhere.
TIMES = [
    "2024-03-10 00:30:00", "2024-03-10 01:30:00", "2024-03-10 01:59:59", "2024-03-10 03:00:00",
    "2024-03-10 03:30:00", "2024-03-10 05:30:00", "2024-03-11 00:30:00", "2024-03-12 00:17:00",
    "2024-07-01 00:30:00", "2024-07-01 12:34:00", "2024-07-01 23:30:00", "2024-11-03 00:30:00",
    "2024-11-03 01:30:00", "2024-11-03 03:30:00", "2024-11-04 00:10:00", "1969-12-31 23:00:00",
    "1960-05-05 05:05:05", "2024-01-14 10:00:00", "2024-02-29 12:00:00", "2000-01-31 23:59:59.999999",
]

SIZES = ["INTERVAL '15' MINUTE", "INTERVAL '90' MINUTE", "INTERVAL '1' HOUR", "INTERVAL '3' HOUR",
         "INTERVAL '7' MINUTE", "INTERVAL '1' DAY", "INTERVAL '2' DAY", "INTERVAL '25' HOUR",
         "INTERVAL '36' HOUR", "INTERVAL '47' HOUR", "INTERVAL '1 1' DAY TO HOUR", "INTERVAL '1470' MINUTE",
         "INTERVAL '0.5' SECOND", "INTERVAL '1' MONTH", "INTERVAL '3' MONTH", "INTERVAL '1-2' YEAR TO MONTH",
         "INTERVAL '5' YEAR"]


def frame(s, ntz=False):
    t = "timestamp_ntz" if ntz else "timestamp"
    rows = ", ".join(f"({i}, {t} '{v}')" for i, v in enumerate(TIMES))
    return s.sql(f"select * from values {rows} as t(k, ts)")


def buckets(df, origin=None):
    cols = []
    for i, size in enumerate(SIZES):
        args = [F.expr(size), "ts"] + ([F.expr(origin)] if origin else [])
        cols.append(F.time_bucket(*args).alias(f"b{i}"))
    return df.select("k", *cols)


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Asia/Kolkata"])
def test_time_bucket_timestamp(diff, ember, oracle, zone):
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": zone}):
        diff(lambda s: buckets(frame(s)))
        diff(lambda s: buckets(frame(s), "TIMESTAMP '2000-01-15 10:20:00'"))
        diff(lambda s: buckets(frame(s), "TIMESTAMP '2024-07-01 06:00:00'"))
        diff(lambda s: buckets(frame(s), "TIMESTAMP '2024-11-03 01:30:00'"))
        diff(lambda s: buckets(frame(s), "TIMESTAMP '2024-03-10 02:30:00'"))
        diff(lambda s: buckets(frame(s), "TIMESTAMP '1900-06-15 13:45:10.5'"))


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles"])
def test_time_bucket_timestamp_ntz(diff, ember, oracle, zone):
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": zone}):
        diff(lambda s: buckets(frame(s, ntz=True)))
        diff(lambda s: buckets(frame(s, ntz=True), "TIMESTAMP_NTZ '2000-01-31 10:20:00'"))


def test_time_bucket_names_and_nulls(diff):
    diff(lambda s: s.sql("""select time_bucket(interval '15' minute, timestamp'2024-01-01 11:27:00'),
                                   time_bucket(interval '15' minute, timestamp'2024-01-01 11:27:00', timestamp'1970-01-01 00:05:00'),
                                   time_bucket(interval '1' hour, timestamp_ntz'2024-01-01 00:10:00'),
                                   time_bucket(interval '1' month, cast(null as timestamp)),
                                   time_bucket(cast(null as interval hour), timestamp'2024-01-01 00:00:00'),
                                   time_bucket(null, timestamp'2024-01-01 00:00:00'),
                                   time_bucket(interval '1' hour, timestamp'2024-01-01 00:00:00', cast(null as timestamp))"""))
    diff(lambda s: frame(s).select(F.time_bucket(F.expr("INTERVAL '1' DAY"), "ts"),
                                   F.time_bucket(F.expr("INTERVAL '1' DAY"), F.col("ts"), F.expr("TIMESTAMP '2020-01-01 12:00:00'"))))
    diff(lambda s: s.createDataFrame([(1, None)], "k int, ts timestamp").select(
        "k", F.time_bucket(F.expr("INTERVAL '1' HOUR"), "ts").alias("b")))


def test_time_bucket_far_values(diff):
    diff(lambda s: s.sql("""select time_bucket(interval '1000000' day, timestamp'2024-01-01 00:00:00') a,
                                   time_bucket(interval '10000' year, timestamp'2024-01-01 00:00:00') b,
                                   time_bucket(interval '1' hour, timestamp'9999-12-31 23:30:00', timestamp'1000-01-01 00:00:00') c,
                                   time_bucket(interval '0.000001' second, timestamp'2024-01-01 00:00:00.5') d,
                                   time_bucket(interval '1' month, timestamp'2024-03-31 12:00:00', timestamp'2000-01-31 00:00:00') e,
                                   time_bucket(interval '1' month, timestamp'2024-03-30 12:00:00', timestamp'2000-01-31 00:00:00') f"""))


def test_time_bucket_errors(diff_error):
    diff_error(lambda s: s.sql("select time_bucket(interval '0' hour, timestamp'2024-01-01 00:00:00')").collect(),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("select time_bucket(interval '-1' month, timestamp'2024-01-01 00:00:00')").collect(),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("select time_bucket(i, ts) from (select timestamp'2024-01-01 00:00:00' ts, "
                               "interval '1' hour i)").collect(), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("select time_bucket(interval '1' hour, ts, ts) from "
                               "(select timestamp'2024-01-01 00:00:00' ts)").collect(), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("select time_bucket(interval '1' hour, timestamp'2024-01-01 00:00:00', "
                               "timestamp_ntz'2024-01-01 00:00:00')").collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select time_bucket(interval '1' hour, date'2024-01-01')").collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select time_bucket(interval '1' hour, '2024-01-01 10:10:10')").collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select time_bucket('1 hour', timestamp'2024-01-01 00:00:00')").collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


@pytest.mark.parametrize("ansi", ["false", "true"])
def test_timestamp_from_epoch_overflow(diff, diff_error, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff_error(lambda s: s.sql("SELECT timestamp_seconds(9223372036854775807L)"), "DATETIME_OVERFLOW")
        diff_error(lambda s: s.sql("SELECT timestamp_millis(-9223372036854775808L)"), "DATETIME_OVERFLOW")
        diff(lambda s: s.sql("SELECT timestamp_seconds(4102444800L), timestamp_millis(-2208988800000L), "
                             "timestamp_micros(0L)"))
