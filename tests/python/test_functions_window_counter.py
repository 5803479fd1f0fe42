"""counter_diff(value[, startTime]) against Apache Spark: deltas of cumulative counters within
window partitions, resets (a decreasing value, an advancing start time), NULL values and start
times, several partitions, empty input, the counter's types, column names, and the errors of
negative values, decreasing start times, argument types, arity, order and frames."""

from __future__ import annotations

import datetime

from harness import error_text
from pyspark.sql import Window
from pyspark.sql import functions as F

T0 = datetime.datetime(2026, 1, 1)


def minutes(n):
    return T0 + datetime.timedelta(minutes=n)


# (metric, t, counter, start): two counters with resets, NULL counters and NULL start times.
ROWS = [
    ("req", 0, 100, minutes(0)), ("req", 1, 200, minutes(0)), ("req", 2, 400, minutes(0)),
    ("req", 3, 50, minutes(0)), ("req", 4, 100, minutes(0)), ("req", 5, None, minutes(5)),
    ("req", 6, 150, minutes(0)), ("req", 7, 150, minutes(0)), ("req", 8, 0, minutes(0)),
    ("err", 0, 7, None), ("err", 1, 9, minutes(1)), ("err", 2, 12, minutes(1)),
    ("err", 3, 20, minutes(3)), ("err", 4, None, None), ("err", 5, 25, None),
    ("err", 6, 30, minutes(3)), ("err", 7, 31, minutes(9)), ("err", 8, 1, minutes(9)),
    ("one", 0, 5, minutes(0)), ("nul", 0, None, None), ("nul", 1, None, minutes(1)),
    (None, 0, 3, None), (None, 1, 8, None),
]


def data(s, counter_type="int", start_type="timestamp"):
    # TINYINT counters keep the same resets within the type's range.
    c = F.col("c") % 120 if counter_type == "tinyint" else F.col("c")
    return s.createDataFrame(ROWS, f"m string, t int, c int, st {start_type}").select(
        "m", "t", c.cast(counter_type).alias("c"), "st")


def window():
    return Window.partitionBy("m").orderBy("t")


def test_docstring_examples(diff):
    def counters(s):
        return s.createDataFrame(
            [("http_requests", minutes(0), 100, minutes(0)), ("http_requests", minutes(1), 200, minutes(0)),
             ("http_requests", minutes(2), 400, minutes(0)),
             ("http_requests", minutes(3), 500, T0 + datetime.timedelta(minutes=2, seconds=15)),
             ("http_requests", minutes(4), 600, T0 + datetime.timedelta(minutes=2, seconds=15))],
            "m STRING, t TIMESTAMP_NTZ, c INT, s TIMESTAMP_NTZ")

    w = lambda: Window.partitionBy("m").orderBy("t")  # noqa: E731
    diff(lambda s: counters(s).select("m", "t", "c", F.counter_diff("c").over(w()).alias("diff")))
    diff(lambda s: counters(s).select("m", "t", "s", "c", F.counter_diff("c", "s").over(w()).alias("diff")))


def test_resets_nulls_and_partitions(diff):
    diff(lambda s: data(s).select("m", "t", "c", "st", F.counter_diff("c").over(window()),
                                  F.counter_diff("c", "st").over(window())))


def test_counter_types(diff):
    for counter_type in ["tinyint", "smallint", "int", "bigint", "float", "double", "decimal(10,2)",
                         "decimal(38,0)", "decimal(38,18)"]:
        diff(lambda s, ct=counter_type: data(s, ct).select(
            "m", "t", F.counter_diff("c").over(window()), F.counter_diff("c", "st").over(window())))


def test_timestamp_ntz_start_and_extremes(diff):
    diff(lambda s: data(s, "bigint", "timestamp_ntz").select(
        "m", "t", F.counter_diff("c", "st").over(window())))
    # Differences near the ends of each type's range, which never overflow.
    diff(lambda s: s.createDataFrame(
        [(1, 0, 0, 0.0), (2, 127, 9223372036854775807, 1.7976931348623157e308), (3, 127, 9223372036854775807, 0.0),
         (4, 1, 1, float("inf")), (5, 2, 2, float("inf"))], "t int, b tinyint, l bigint, d double").select(
        "t", *[F.counter_diff(c).over(Window.orderBy("t")) for c in ["b", "l", "d"]]))


def test_nan_and_negative_zero(diff):
    # NaN is above every number (a reset after it) and equals itself; -0.0 is not negative.
    diff(lambda s: s.createDataFrame(
        [(1, 1.0), (2, float("nan")), (3, 2.0), (4, float("nan")), (5, float("nan")), (6, -0.0),
         (7, 0.0), (8, 3.5)], "t int, c double").select("t", F.counter_diff("c").over(Window.orderBy("t"))))


def test_empty_and_null_arguments(diff):
    diff(lambda s: data(s).limit(0).select(F.counter_diff("c").over(window()),
                                           F.counter_diff("c", "st").over(window())))
    diff(lambda s: data(s).select("m", "t", F.counter_diff("c", F.lit(None)).over(window()),
                                  F.counter_diff(F.lit(None)).over(window())))


def test_sql_forms(diff):
    view = "SELECT * FROM VALUES ('a', 1, 5, TIMESTAMP'2026-01-01 00:00:00'), ('a', 2, 7, TIMESTAMP'2026-01-01 00:00:00'), " \
           "('a', 3, 9, TIMESTAMP'2026-01-02 00:00:00'), ('b', 1, 3, NULL) AS v(m, t, c, s)"
    diff(lambda s: s.sql(f"SELECT m, t, counter_diff(c) OVER (PARTITION BY m ORDER BY t), "
                         f"counter_diff(c, s) OVER (PARTITION BY m ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING "
                         f"AND CURRENT ROW) AS d, counter_diff(c, s) OVER w "
                         f"FROM ({view}) WINDOW w AS (ORDER BY t, m)"))


def test_runtime_errors(diff_error):
    def negative(counter_type, value):
        return lambda s: s.createDataFrame([(1, type(value)(1)), (2, value)], f"t int, c {counter_type}").select(
            F.counter_diff("c").over(Window.orderBy("t")))

    for counter_type, value in [("int", -3), ("bigint", -1), ("double", -1.5), ("float", -0.25)]:
        e = diff_error(negative(counter_type, value), "COUNTER_DIFF_NEGATIVE_COUNTER_VALUE")
        assert f"negative counter value {value} was" in error_text(e)
    e = diff_error(lambda s: s.sql("SELECT counter_diff(c) OVER (ORDER BY t) FROM VALUES (1, 2.50BD), (2, -1.50BD) AS v(t, c)"),
                   "COUNTER_DIFF_NEGATIVE_COUNTER_VALUE")
    assert "value -1.50 was" in error_text(e)
    for ts in ["TIMESTAMP", "TIMESTAMP_NTZ"]:
        e = diff_error(lambda s, ts=ts: s.sql(
            f"SELECT counter_diff(c, s) OVER (ORDER BY t) FROM VALUES (1, 1, {ts}'2020-01-01 00:00:00'), "
            f"(2, NULL, {ts}'2018-01-01 00:00:00'), (3, 2, {ts}'2019-06-01 10:30:00.5') AS v(t, c, s)"),
            "COUNTER_DIFF_START_TIME_DECREASED")
        assert ("decreased from 2020-01-01 00:00:00 to 2019-06-01 10:30:00.5" in error_text(e)), error_text(e)


def test_runtime_error_messages(ember, oracle):
    """The run-time errors carry Spark's message text."""
    from harness import run_for_error, session_mode

    programs = [
        lambda s: s.sql("SELECT counter_diff(c) OVER (ORDER BY t) FROM VALUES (1, -7L) AS v(t, c)"),
        lambda s: s.sql("SELECT counter_diff(c, s) OVER (ORDER BY t) FROM VALUES (1, 1, TIMESTAMP_NTZ'2020-01-01 "
                        "00:00:00'), (2, 2, TIMESTAMP_NTZ'2019-01-01 00:00:00') AS v(t, c, s)"),
    ]
    for program in programs:
        with session_mode(oracle):
            expected = error_text(run_for_error("spark", program, oracle))
        with session_mode(ember):
            actual = error_text(run_for_error("ember", program, ember))
        assert expected == actual


def test_analysis_errors(diff_error):
    diff_error(lambda s: data(s).select(F.counter_diff("c").over(Window.partitionBy("m"))),
               "WINDOW_FUNCTION_FRAME_NOT_ORDERED")
    diff_error(lambda s: data(s).select(F.counter_diff("c").over(window().rowsBetween(-1, 0))),
               "_LEGACY_ERROR_TEMP_1036")
    diff_error(lambda s: data(s).select(F.counter_diff("c").over(
        window().rangeBetween(Window.unboundedPreceding, Window.currentRow))), "_LEGACY_ERROR_TEMP_1036")
    diff_error(lambda s: data(s).select(F.counter_diff("m").over(window())),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: data(s).select(F.counter_diff("c", F.current_date()).over(window())),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: data(s).select(F.counter_diff("c", "t").over(window())),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT counter_diff(1, TIMESTAMP'2020-01-01', 3) OVER (ORDER BY 1)"),
               "WRONG_NUM_ARGS")
