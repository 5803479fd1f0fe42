"""window() time windows and window_time() against Apache Spark: tumbling and sliding windows,
start offsets, timestamps before 1970, NULL timestamps (dropped), TIMESTAMP_NTZ, SQL GROUP BY
window(...), windows in a projection, and the analysis errors for bad durations."""

from __future__ import annotations

import datetime

import pytest
from pyspark.sql import functions as F

ROWS = [(datetime.datetime(2016, 3, 11, 9, 0, 7), 1), (datetime.datetime(1969, 12, 31, 23, 59, 58), 2),
        (None, 3), (datetime.datetime(2016, 3, 11, 9, 0, 2, 500000), 4), (datetime.datetime(2024, 2, 29, 23, 59, 59), 5)]


def events(s):
    return s.createDataFrame(ROWS, "dt timestamp, v int")


@pytest.mark.parametrize("args", [("5 seconds",), ("10 seconds", "3 seconds"), ("10 seconds", "5 seconds", "2 seconds"),
                                  ("1 hour",), ("1 day 2 hours",), ("interval 90 minutes",), ("1.5 seconds",),
                                  ("1 week",), ("10 minutes", "5 minutes", "-2 minutes"), ("500 milliseconds",)])
def test_window_groups(diff, args):
    diff(lambda s: events(s).groupBy(F.window("dt", *args)).agg(F.sum("v"), F.count("*")))


def test_window_alias_projection_and_window_time(diff):
    diff(lambda s: events(s).groupBy(F.window("dt", "10 seconds", "5 seconds").alias("w")).agg(F.sum("v"))
         .orderBy("w"), ordered=True)
    diff(lambda s: events(s).select(F.window("dt", "1 hour"), "v"))
    diff(lambda s: events(s).select(F.window("dt", "5 seconds").start, F.window("dt", "5 seconds").end, "v"))
    diff(lambda s: events(s).select(F.window_time(F.window("dt", "1 hour")), "v"))
    diff(lambda s: events(s).groupBy(F.window("dt", "1 day")).agg(F.max("v").alias("m"))
         .select(F.window_time("window"), "m"))


def test_window_on_timestamp_ntz_and_sql(diff):
    diff(lambda s: events(s).withColumn("n", F.col("dt").cast("timestamp_ntz"))
         .groupBy(F.window("n", "1 hour", "30 minutes")).count())
    diff(lambda s: s.sql("SELECT window(dt, '1 hour').start AS s, count(*) FROM VALUES "
                         "(TIMESTAMP'2020-01-01 10:30:00'), (TIMESTAMP'2020-01-01 10:59:59'), "
                         "(TIMESTAMP'2020-01-01 11:00:00') t(dt) GROUP BY window(dt, '1 hour')"))


def test_window_errors(diff_error):
    diff_error(lambda s: events(s).groupBy(F.window("dt", "0 seconds")).count().collect(),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: events(s).groupBy(F.window("dt", "5 seconds", "10 seconds")).count().collect(),
               "DATATYPE_MISMATCH.PARAMETER_CONSTRAINT_VIOLATION")
    diff_error(lambda s: events(s).groupBy(F.window("dt", "5 foo")).count().collect(), "CANNOT_PARSE_INTERVAL")
