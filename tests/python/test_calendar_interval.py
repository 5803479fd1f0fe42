"""Differential tests of the calendar interval type (Spark's `interval`: months, days and
microseconds) against Apache Spark: make_interval, try_make_interval, casts from and to
strings, interval arithmetic (multiply_interval, divide_interval, + and -, negation and their
try_ forms), dates and timestamps moved by intervals, the types that refuse ordering, and the
Arrow form Spark Connect returns (MONTH_DAY_NANO).

A classic session cannot collect interval values, so intervals are compared as Spark's text of
them (show() and CAST AS STRING) with the schemas, types and nullability included, compared
apart."""

from __future__ import annotations

import contextlib

from harness import compare_errors, error_condition, schema_fields, session_conf, session_mode
from pyspark.sql import functions as F


def quoted(name):
    return F.col("`" + name.replace("`", "``") + "`")


def as_text(df):
    """`df` with its interval columns as Spark's text of them."""
    return df.select([quoted(f.name).cast("string").alias(f.name) if f.dataType.simpleString() == "interval"
                      else quoted(f.name) for f in df.schema.fields])


def diff_intervals(differ, program):
    """Same schema (interval types and nullability kept) and the same rows, intervals as text."""
    with session_mode(differ.oracle):
        expected = schema_fields(program(differ.oracle).schema)
    with session_mode(differ.ember):
        actual = schema_fields(program(differ.ember).schema)
    assert [str(f) for f in expected] == [str(f) for f in actual]
    differ.diff(lambda s: as_text(program(s)))


@contextlib.contextmanager
def session_zone(ember, oracle, zone):
    for spark in (oracle, ember):
        with session_mode(spark):
            spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        yield
    finally:
        for spark in (oracle, ember):
            with session_mode(spark):
                spark.conf.set("spark.sql.session.timeZone", "UTC")


PARTS = [(1, 100, 11, 1, 1, 12, 30, 1.001001), (2, -1, -2, 0, -4, -5, -6, -7.5), (3, 0, 0, 0, 0, 0, 0, 0.0),
         (4, None, 1, 1, 1, 1, 1, 1.0), (5, 0, 14, 0, 3, 0, 0, 0.000001), (6, 2, 25, 3, 40, 100, 61, 3661.5)]


def parts(s):
    return s.createDataFrame(PARTS, "k int, y int, mo int, w int, d int, h int, mi int, sec double")


def test_make_interval(differ, diff_show):
    diff_intervals(differ, lambda s: parts(s).select(
        "k", F.make_interval("y", "mo", "w", "d", "h", "mi", "sec"), F.make_interval("y", "mo"),
        F.make_interval(), F.try_make_interval("y", "mo", "w", "d", "h", "mi", "sec"),
        F.make_interval(F.col("k") - 3, mins=F.col("mi") * 1000)))
    diff_show(lambda s: parts(s).orderBy("k").select(F.make_interval("y", "mo", "w", "d", "h", "mi", "sec"),
                                                     F.try_make_interval("y")), truncate=False)
    diff_intervals(differ, lambda s: s.sql(
        "SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5) a, make_interval(2) b, make_interval() c, "
        "make_interval(null, 1) d, make_interval(0, 0, 0, 0, 0, 0, -0.000001) e, make_interval(1.5) f, "
        "make_interval('1') g, make_interval(0, 0, 0, 0, 0, 0, 1.1234567) h, make_interval(0, 0, 0, 0, -25) i, "
        "make_interval(0, 2147483647) j, make_interval(0, 0, 0, -2147483648) k, "
        "make_interval(0, 0, 0, 0, -2147483648, -2147483648, 999999999999.999999) l"))


def test_make_interval_names(diff_show):
    # Column names show the defaulted arguments as Spark fills them in.
    diff_show(lambda s: s.sql("SELECT make_interval(1), make_interval(1, 2, 3), try_make_interval(1), "
                              "make_interval(0, 0, 0, 0, 0, 0, 1.0 / 3)"), truncate=False)


def test_make_interval_overflow(diff_error, differ):
    for sql in ("SELECT make_interval(2147483647)", "SELECT make_interval(0, 0, 2147483647)",
                "SELECT make_interval(0, 0, -1, -2147483648)"):
        diff_error(lambda s, q=sql: s.sql(q), "ARITHMETIC_OVERFLOW")
    diff_intervals(differ, lambda s: s.sql("SELECT try_make_interval(2147483647) a, "
                                           "try_make_interval(0, 0, 2147483647, 1) b, try_make_interval(1, 1) c"))
    diff_error(lambda s: s.sql("SELECT make_interval(cast(3000000000 AS BIGINT))"), "CAST_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT make_interval(true)"), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT make_interval(0, 0, 0, 0, 0, 0, 9223372036854.775807)"),
               "NUMERIC_VALUE_OUT_OF_RANGE")


def test_make_interval_legacy(differ, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff_intervals(differ, lambda s: s.sql("SELECT make_interval(2147483647) a, make_interval(1, 2) b"))


TEXTS = ["1 year 2 months", "interval 1 year 2 months", "1 years -2 months 3 weeks", "1.5 seconds", "-1.5 seconds",
         "1.1234567 seconds", ".5 seconds", "5. seconds", "1 millisecond 2 microseconds", "- 1 day", "+1 minute",
         "  1   day  ", "1 DAY 1 Hour", "1 day 1 day", "9223372036854775807 microseconds",
         "-9223372036854775808 microseconds", "2147483647 days", "1 day,", "1.5 days", "1 ms", "1minute", "abc",
         "", "interval", "9223372036854775808 microseconds", "2147483648 days", "178956971 years", None]


def test_cast_from_and_to_string(differ, diff_error):
    diff_intervals(differ, lambda s: s.createDataFrame([(i, t) for i, t in enumerate(TEXTS)], "k int, txt string")
                   .select("k", "txt", F.col("txt").cast("interval").alias("i"),
                           F.expr("try_cast(txt AS interval)").alias("j")))
    diff_intervals(differ, lambda s: s.sql("SELECT CAST('1 day' AS INTERVAL), CAST(NULL AS INTERVAL), "
                                           "CAST(make_interval(1, 2, 0, 3, 4, 5, 6.5) AS STRING), "
                                           "typeof(make_interval(1))"))
    diff_error(lambda s: s.sql("SELECT CAST(1 AS INTERVAL)"), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT CAST(make_interval(1) AS INT)"), "DATATYPE_MISMATCH")


def scaled(s):
    return s.range(6).select("id", F.make_interval(F.col("id"), F.lit(3)).alias("itvl"),
                             F.make_interval(F.lit(1), F.lit(2), F.lit(0), F.lit(3), F.lit(0), F.lit(0),
                                             F.lit(0.000001)).alias("small"))


def test_multiply_divide(differ, diff_show, diff_error):
    diff_show(lambda s: scaled(s).select("*", F.try_multiply("itvl", "id"), F.try_divide("itvl", "id")))
    # Both orders of `*` are named multiply_interval(itvl, id): the second is shown apart.
    diff_show(lambda s: scaled(s).select(F.col("itvl") * F.col("id"), F.col("id") * F.col("itvl")))
    diff_intervals(differ, lambda s: scaled(s).select(
        "id", F.col("itvl") * F.col("id"), (F.col("id") * F.col("itvl")).alias("b"), F.col("small") * 1.5,
        F.col("small") / 3, F.col("small") * 0.5, F.try_multiply(F.lit(2), "small"),
        F.try_divide("small", F.col("id") - 3), F.col("small") * F.lit(None).cast("int"), F.col("itvl") * F.lit("2")))
    diff_intervals(differ, lambda s: s.sql(
        "SELECT make_interval(0, 0, 0, 1) * double('NaN') a, make_interval(0, 0, 0, 0, 0, 0, 1) * 1e19 b, "
        "make_interval(0, 0, 0, 0, 0, 0, -1) * 1e19 c, make_interval(0, 0, 0, 0, 0, 0, 2) / 3 d, "
        "make_interval(0, 0, 0, 0, 0, 0, -2) / 3 e, make_interval(0, 1, 0, 1) / 3 f, "
        "make_interval(1, 2, 0, 3) * CAST(2 AS DECIMAL(3, 1)) g, "
        "try_multiply(make_interval(1, 0, 0, 1), 2147483647) h, try_divide(make_interval(1), 0) i"))
    diff_error(lambda s: s.sql("SELECT make_interval(1, 0, 0, 1) * 2147483647"), "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT make_interval(0, 0, 0, 1) * double('Infinity')"), "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT make_interval(1, 2, 0, 3) / 0"), "INTERVAL_DIVIDED_BY_ZERO")
    diff_error(lambda s: s.sql("SELECT make_interval(1) * true"), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT make_interval(1) * make_interval(1)"), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.sql("SELECT make_interval(1) * 'abc'"), "CAST_INVALID_INPUT")


def test_multiply_divide_legacy(differ, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff_intervals(differ, lambda s: s.sql(
            "SELECT make_interval(1, 0, 0, 1) * 2147483647 a, make_interval(1) / 0 b, "
            "make_interval(0, 0, 0, 0, 0, 0, 1) * 1e19 c, make_interval(1, 2, 0, 3) * 1.5 d"))


def test_add_subtract_negate(differ, diff_error):
    diff_intervals(differ, lambda s: s.sql(
        "SELECT make_interval(1, 2) + make_interval(0, 1, 0, 1) a, make_interval(1, 2) - make_interval(0, 1, 0, 1) b, "
        "-make_interval(1, 2, 0, 3, 0, 0, 0.5) c, make_interval(0, 0, 0, 0, 0, 0, 1) - make_interval(0, 0, 0, 0, 0, 0, 1) d, "
        "try_add(make_interval(0, 2147483647), make_interval(0, 1)) e, "
        "try_subtract(make_interval(0, 1), make_interval(0, 0, 0, 1)) f, negative(make_interval(1)) g"))
    diff_intervals(differ, lambda s: scaled(s).select(
        F.col("itvl") + F.col("small"), F.col("itvl") - F.col("small"), -F.col("itvl"),
        F.try_add("itvl", "small"), F.try_subtract("small", "itvl")))
    diff_error(lambda s: s.sql("SELECT make_interval(0, 2147483647) + make_interval(0, 1)"), "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT -make_interval(0, -2147483648)"), "ARITHMETIC_OVERFLOW")


DATES = [(1, "2020-01-31", "2020-01-31 10:00:00"), (2, "2024-02-29", "2024-03-10 01:30:00"),
         (3, "2023-12-31", "2024-11-03 01:30:00"), (4, None, None), (5, "1970-01-01", "1969-12-31 23:59:59.999999")]


def moments(s):
    return s.createDataFrame(DATES, "k int, d string, t string").select(
        "k", F.col("d").cast("date").alias("d"), F.col("t").cast("timestamp").alias("ts"),
        F.col("t").cast("timestamp_ntz").alias("ntz"))


def test_datetime_plus_interval(diff, diff_error, ember, oracle):
    def program(s):
        whole = F.make_interval(F.lit(0), F.lit(1), F.lit(0), F.lit(1))
        mixed = F.make_interval(F.lit(0), F.lit(1), F.lit(0), F.lit(1), F.lit(1), F.lit(0), F.lit(0.5))
        return moments(s).select("k", (F.col("d") + whole).alias("a"), (F.col("d") - whole).alias("b"),
                                 (F.col("ts") + mixed).alias("c"), (F.col("ts") - mixed).alias("e"),
                                 (F.col("ntz") + mixed).alias("f"), (F.col("ntz") - mixed).alias("g"),
                                 F.try_add("ts", mixed).alias("h"), F.try_add(whole, "d").alias("i"),
                                 F.try_subtract("d", whole).alias("j"))
    diff(program)
    with session_zone(ember, oracle, "America/Los_Angeles"):
        diff(program)
    diff(lambda s: s.sql("SELECT date'2020-01-31' + make_interval(0, 1) a, make_interval(0, 1, 0, 1) + date'2020-01-31' b, "
                         "timestamp'2020-01-31 10:00:00' + make_interval(0, 1, 0, 1, 1, 0, 0.5) c, "
                         "date'2020-01-31' + make_interval(0, 0, 0, 1, 0, 0, 0.0) d"))
    diff_error(lambda s: s.sql("SELECT date'2020-01-31' + make_interval(0, 0, 0, 0, 0, 0, 0.5)"),
               "INVALID_INTERVAL_WITH_MICROSECONDS_ADDITION")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT date'2020-01-31' + make_interval(0, 0, 0, 1, 1, 0, 0.5) a, "
                             "date'2020-01-31' - make_interval(0, 0, 0, 1, 1, 0, 0.5) b, "
                             "date'2020-01-31' + make_interval(0, 1, 0, 1) c"))


def test_not_orderable(diff_error, differ):
    for sql in ("SELECT make_interval(1) = make_interval(0, 12)", "SELECT make_interval(1) < make_interval(0, 13)",
                "SELECT make_interval(1) <=> make_interval(1)",
                "SELECT x FROM (SELECT make_interval(1) x) ORDER BY x"):
        diff_error(lambda s, q=sql: s.sql(q), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    # Grouping and deduplication only need equality, which Spark allows.
    diff_intervals(differ, lambda s: scaled(s).select((F.col("id") % 2).alias("p"))
                   .select(F.make_interval("p").alias("x")).groupBy("x").count())
    diff_intervals(differ, lambda s: scaled(s).select(F.make_interval(F.col("id") % 2).alias("x")).distinct())


def test_arrow_results(connect_oracle, ember):
    """Spark Connect returns intervals as Arrow MONTH_DAY_NANO: the client converts them to pandas
    DateOffsets and cannot collect them as rows."""
    sql = ("SELECT make_interval(1, 2, 3, 4, 5, 6, 7.000008) i, CAST(NULL AS INTERVAL) n, "
           "make_interval(0, 0, 0, 0, 0, 0, -0.000001) m, array(make_interval(0, 1)) a")
    frames = []
    for spark in (connect_oracle, ember):
        with session_mode(spark):
            frames.append(spark.sql(sql).toPandas())
    assert repr(frames[0].to_dict()) == repr(frames[1].to_dict())
    errors = []
    for spark in (connect_oracle, ember):
        with session_mode(spark):
            try:
                spark.sql(sql).collect()
            except Exception as e:  # noqa: BLE001 - the error is the result
                errors.append(e)
            else:
                raise AssertionError("collect() raised nothing")
    assert error_condition(errors[0]) == "UNSUPPORTED_DATA_TYPE_FOR_ARROW_CONVERSION"
    compare_errors(errors[0], errors[1], "UNSUPPORTED_DATA_TYPE_FOR_ARROW_CONVERSION", "spark connect")
