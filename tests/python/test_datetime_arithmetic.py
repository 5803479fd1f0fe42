"""`+` and `-` on dates, timestamps and ANSI intervals against Apache Spark: date ± integers,
date ± day and month intervals (month-end clamping, leap days), timestamps ± day-time and
year-month intervals (in a DST time zone), interval ± interval, date - date and
timestamp - timestamp, with nulls and the column names Spark gives."""

from __future__ import annotations

from harness import session_conf


def dates(s):
    return s.sql("""SELECT * FROM VALUES
        (DATE'2020-01-31', TIMESTAMP'2020-03-08 01:30:00', CAST(1 AS INT), CAST(2 AS SMALLINT), CAST(3 AS TINYINT)),
        (DATE'2024-02-29', TIMESTAMP'2021-11-07 01:30:00', -40, -2, -1),
        (DATE'1999-12-31', TIMESTAMP'1970-01-01 00:00:00', 0, 0, 0),
        (CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP), NULL, NULL, NULL)
        AS t(d, ts, i, sh, b)""")


def test_date_plus_minus_integers(diff):
    diff(lambda s: dates(s).selectExpr("d + i", "d - i", "i + d", "d + sh", "d - b", "d + 1", "d - 365"))


def test_date_and_day_intervals(diff):
    diff(lambda s: dates(s).selectExpr("d + INTERVAL '30' DAY AS a", "d - INTERVAL '30' DAY AS b",
                                       "d + INTERVAL 2 DAYS AS c", "INTERVAL '1' DAY + d AS e",
                                       "d + INTERVAL '3' HOUR AS f", "d - INTERVAL '1 12:00:00' DAY TO SECOND AS g"))
    diff(lambda s: s.sql("SELECT cast('2000-02-28' as date) + INTERVAL '30' day AS x, "
                         "cast('2000-03-01' as date) - INTERVAL '1' day AS y"))


def test_dates_and_month_intervals(diff):
    diff(lambda s: dates(s).selectExpr("d + INTERVAL '1' MONTH AS a", "d - INTERVAL '1' MONTH AS b",
                                       "d + INTERVAL '1-1' YEAR TO MONTH AS c", "d - INTERVAL '4' YEAR AS e"))
    diff(lambda s: dates(s).selectExpr("d + INTERVAL '1' MONTH", "d - INTERVAL '1' DAY", "d - DATE'2020-01-01'"))


def test_timestamps_and_intervals(diff):
    diff(lambda s: dates(s).selectExpr("ts + INTERVAL '1' DAY AS a", "ts - INTERVAL '2 03:04:05.5' DAY TO SECOND AS b",
                                       "ts + INTERVAL '1' MONTH AS c", "ts - INTERVAL '1-2' YEAR TO MONTH AS e",
                                       "INTERVAL '10' MINUTE + ts AS f"))


def test_timestamps_and_month_intervals_across_dst(diff, ember, oracle):
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": "America/Los_Angeles"}):
        diff(lambda s: dates(s).selectExpr("ts + INTERVAL '1' MONTH AS a", "ts + INTERVAL '1' DAY AS b",
                                           "ts - INTERVAL '8' MONTH AS c", "ts - TIMESTAMP'2020-01-01 00:00:00' AS e"))


def test_interval_arithmetic(diff):
    # PySpark cannot collect year-month intervals: those are compared as strings.
    diff(lambda s: s.sql("SELECT INTERVAL '1' DAY + INTERVAL '2' HOUR AS a, INTERVAL '3' DAY - INTERVAL '4' DAY AS b, "
                         "DATE'2020-01-31' + (INTERVAL '1' YEAR + INTERVAL '2' MONTH) AS c, "
                         "DATE'2020-01-31' + (INTERVAL '1-1' YEAR TO MONTH - INTERVAL '3' MONTH) AS e"))
    diff(lambda s: s.sql("SELECT INTERVAL '1' DAY + INTERVAL '2' HOUR, TIMESTAMP'2020-01-01 00:00:00' - INTERVAL '1' DAY"))


def test_differences(diff):
    diff(lambda s: dates(s).selectExpr("d - DATE'2020-01-01' AS a", "DATE'2020-01-01' - d AS b",
                                       "ts - TIMESTAMP'2020-01-01 00:00:00' AS c",
                                       "CAST(ts AS TIMESTAMP_NTZ) - TIMESTAMP_NTZ'2020-01-01 00:00:00' AS e"))


def test_unnamed_columns_and_where(diff):
    diff(lambda s: dates(s).selectExpr("d + 1", "d - i", "ts + INTERVAL '1' DAY"))
    diff(lambda s: dates(s).where("d + INTERVAL '30' DAY > DATE'2020-02-15'").select("d"))


def test_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT DATE'2020-01-01' + 1.5").collect(), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT TIMESTAMP'2020-01-01 00:00:00' + TIMESTAMP'2020-01-01 00:00:00'").collect(),
               "DATATYPE_MISMATCH")
