"""Functions of several families against Apache Spark: the date/time aliases (curdate, datepart,
localtimestamp), the session's identity (current_user, user, session_user, version), luhn_check,
raise_error, and the seeded random streams of uuid and shuffle."""

from __future__ import annotations

import re

import pytest
from pyspark.sql import functions as F

from harness import session_conf, session_mode

ANSI = ["true", "false"]


def test_curdate_and_localtimestamp(diff, ember, oracle):
    # The values move with the clock: the names and types, and how they relate to the query's
    # instant, which every call in one query shares.
    diff(lambda s: s.sql("SELECT curdate(), current_date(), localtimestamp()").limit(0))
    for zone in ("UTC", "America/Los_Angeles", "Asia/Kolkata"):
        with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
            diff(lambda s: s.sql(
                "SELECT curdate() = current_date() AS d, "
                "localtimestamp() = CAST(current_timestamp() AS TIMESTAMP_NTZ) AS t, "
                "CAST(localtimestamp() AS DATE) = curdate() AS same_day"))
            diff(lambda s: s.range(3).select(F.curdate().alias("d"), F.localtimestamp().alias("t"))
                 .select((F.col("d") == F.current_date()).alias("d"),
                         (F.col("t") == F.current_timestamp().cast("timestamp_ntz")).alias("t")))


@pytest.mark.parametrize("ansi", ANSI)
def test_datepart(diff, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql(
            "SELECT datepart('YEAR', DATE'2024-05-01'), datepart('doy', DATE'2019-08-12'), "
            "datepart('week', TIMESTAMP'2019-08-12 01:00:00.123456'), "
            "datepart('SECONDS', TIMESTAMP'2019-10-01 00:00:01.000001'), "
            "datepart('dow', TIMESTAMP'2024-05-01 10:00:00'), datepart('hour', CAST(NULL AS TIMESTAMP)), "
            "datepart('MONTH', d) FROM VALUES (DATE'2024-02-29'), (NULL) AS t(d)"))
        diff(lambda s: s.createDataFrame([("2024-03-10 02:30:00",), (None,)], "s string")
             .select(F.datepart(F.lit("minute"), F.col("s").cast("timestamp")).alias("m"),
                     F.datepart(F.lit("D"), F.col("s").cast("timestamp"))))


def test_datepart_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT datepart('nope', DATE'2024-05-01')"), "INVALID_EXTRACT_FIELD")


def _identity(spark):
    with session_mode(spark):
        df = spark.sql("SELECT current_user(), user(), session_user(), current_user, user, "
                       "session_user, version()")
        return df.schema.simpleString(), df.collect()[0]


def test_current_user_and_version(ember, oracle):
    # Each engine names the user running it and its own build: compare the names and types,
    # that the three user functions agree, and the shape of version().
    (e_schema, e_row), (s_schema, s_row) = _identity(ember), _identity(oracle)
    assert e_schema == s_schema
    for row in (e_row, s_row):
        assert row[0] and len(set(row[:6])) == 1
    e_version, s_version = e_row[6], s_row[6]
    assert e_version.split(" ")[0] == s_version.split(" ")[0] == ember.version
    assert re.fullmatch(r"\d+\.\d+\.\d+ ([0-9a-f]{40}|unknown)", e_version)
    with session_mode(ember):
        df = ember.range(2).select(F.current_user(), F.user(), F.session_user(), F.version())
        rows = df.collect()
    assert [tuple(r) for r in rows] == [tuple(e_row[:3]) + (e_version,)] * 2


@pytest.mark.parametrize("ansi", ANSI)
def test_luhn_check(diff, ember, oracle, ansi):
    values = ["79927398713", "79927398710", "8112189876", "79927398714", "", None, "1a", " 79927398713",
              "0", "00", "18", "4111111111111111", "4111 1111 1111 1111", "-0", "١٨", "１８", "٣"]
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.createDataFrame([(v,) for v in values], "s string")
             .select("s", F.expr("luhn_check(s)")))
        diff(lambda s: s.sql("SELECT luhn_check(79927398713), luhn_check(NULL), luhn_check(18L), "
                             "luhn_check(CAST(-18 AS INT))"))
        diff(lambda s: s.createDataFrame([], "s string").selectExpr("luhn_check(s)"))


@pytest.mark.parametrize("ansi", ANSI)
def test_raise_error(diff, diff_error, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff_error(lambda s: s.sql("SELECT raise_error('custom error message')"), "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.sql("SELECT raise_error(NULL)"), "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.sql("SELECT raise_error(CAST(NULL AS STRING))"), "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.sql("SELECT raise_error(12)"), "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.range(5).select(F.raise_error(F.concat(F.lit("row "), F.col("id").cast("string")))),
                   "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.sql("SELECT raise_error('a', 'b')"), "WRONG_NUM_ARGS")
        diff_error(lambda s: s.sql("SELECT assert_true(1 > 2, 'bad')"), "USER_RAISED_EXCEPTION")
        # Without a message, assert_true names the condition that failed.
        diff_error(lambda s: s.sql("SELECT assert_true(false)"), "USER_RAISED_EXCEPTION")
        diff_error(lambda s: s.range(3).select(F.assert_true(F.col("id") < 2)), "USER_RAISED_EXCEPTION")
        diff(lambda s: s.range(3).select(F.assert_true(F.col("id") < 5)))
        diff_error(lambda s: s.sql("SELECT assert_true(false, CAST(NULL AS STRING))"), "USER_RAISED_EXCEPTION")
        # Its type is VOID; rows that never reach it raise nothing.
        diff(lambda s: s.range(3).where("id > 10").select(F.raise_error(F.lit("x")).alias("e")))
        diff(lambda s: s.range(4).select(
            "id", F.when(F.col("id") > 10, F.raise_error(F.lit("too big"))).alias("e")))
        diff(lambda s: s.range(4).where("id > 10").select(F.raise_error(F.lit("never"))))
        diff(lambda s: s.sql("SELECT raise_error('boom') FROM VALUES (1) AS t(x) WHERE x > 1"))


def test_uuid_with_seed(diff):
    # Spark's stream: one MersenneTwister per partition seeded with seed + partition index.
    diff(lambda s: s.range(5).select("id", F.uuid(F.lit(7))), ordered=True)
    diff(lambda s: s.range(0, 20, 1, 3).select("id", F.uuid(F.lit(7)).alias("u")), ordered=True)
    diff(lambda s: s.range(0, 7, 1, 2).select("id", F.uuid(F.lit(-3)), F.uuid(F.lit(2**62))), ordered=True)
    diff(lambda s: s.sql("SELECT id, uuid(0), uuid(123456789012345) FROM range(0, 9, 1, 4)"), ordered=True)
    diff(lambda s: s.range(0, 0).select(F.uuid(F.lit(1))))


def test_uuid_without_seed(ember):
    with session_mode(ember):
        rows = ember.range(0, 500, 1, 4).select(F.uuid().alias("u")).collect()
        again = ember.sql("SELECT uuid() AS u FROM range(100)").collect()
    values = [r.u for r in rows + again]
    assert len(set(values)) == len(values)
    assert all(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", v)
               for v in values)


def test_uuid_errors(diff_error):
    # The seed must be an integral literal.
    diff_error(lambda s: s.sql("SELECT uuid('a')"), "INVALID_PARAMETER_VALUE.LONG")
    diff_error(lambda s: s.sql("SELECT uuid(id) FROM range(2)"), "INVALID_PARAMETER_VALUE.LONG")
    diff_error(lambda s: s.sql("SELECT uuid(1.5)"), "INVALID_PARAMETER_VALUE.LONG")


def test_shuffle_with_seed(diff):
    def arr():
        return F.array(*[F.lit(i) for i in range(8)])

    diff(lambda s: s.range(0, 6, 1, 3).select("id", F.shuffle(arr(), F.lit(7)).alias("s")), ordered=True)
    diff(lambda s: s.range(0, 6, 1, 3).select("id", F.shuffle(arr(), 7).alias("s")), ordered=True)
    diff(lambda s: s.range(3).select("id", F.shuffle(F.array(*[F.lit(i) for i in range(3)]), F.lit(7))),
         ordered=True)
    # Arrays of several lengths, nulls among the elements, empty and null arrays (which draw
    # nothing), strings and nested elements.
    rows = [([1, 2, 3, 4, 5],), (None,), ([],), ([None, 1, None],), ([9],), (list(range(40)),),
            ([3, 1, 2],)]
    diff(lambda s: s.createDataFrame(rows, "a array<int>").repartition(1)
         .select(F.shuffle("a", 42).alias("s")), ordered=True)
    diff(lambda s: s.range(0, 12, 1, 3).select(
        "id", F.shuffle(F.sequence(F.lit(0), F.col("id")), F.lit(-5)).alias("s")), ordered=True)
    diff(lambda s: s.sql("SELECT id, shuffle(array('a', NULL, 'c', 'dd'), 11), "
                         "shuffle(array(array(1), array(2, 3), NULL), 3) FROM range(0, 5, 1, 2)"), ordered=True)


def test_shuffle_without_seed(ember, diff):
    diff(lambda s: s.sql("SELECT shuffle(array(1, 2, 3))").limit(0))
    with session_mode(ember):
        rows = ember.range(0, 200, 1, 2).select(
            F.shuffle(F.array(*[F.lit(i) for i in range(6)])).alias("s")).collect()
    assert all(sorted(r.s) == list(range(6)) for r in rows)
    assert len({tuple(r.s) for r in rows}) > 50


def test_shuffle_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT shuffle(1)"), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT shuffle(array(1), 'x')"), "INVALID_PARAMETER_VALUE.LONG")
    diff_error(lambda s: s.sql("SELECT shuffle(array(1), id) FROM range(2)"), "INVALID_PARAMETER_VALUE.LONG")
