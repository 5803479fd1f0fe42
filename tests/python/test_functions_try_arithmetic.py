"""Differential tests of the try_ arithmetic functions — Ember against Apache Spark: try_add,
try_subtract, try_multiply, try_divide, try_mod (null instead of ARITHMETIC_OVERFLOW,
DIVIDE_BY_ZERO and REMAINDER_BY_ZERO) over integral, decimal and floating inputs, and the
try_sum / try_avg aggregates (null on overflow), grouped, global, over empty input and over
inputs large enough that partial states merge."""

from __future__ import annotations

from pyspark.sql import functions as F

MAX_LONG = 9223372036854775807
ROWS = [(1, 2, 2147483647, MAX_LONG, 1.5, "1.25"), (-5, 0, -2147483648, -MAX_LONG - 1, 0.0, "-3.50"),
        (None, 3, 7, 3, None, None), (7, -1, 100000, 4611686018427387904, -2.5, "99999999.99")]


def data(s):
    df = s.createDataFrame(ROWS, "a int, b int, big int, lg long, x double, ds string")
    return df.withColumn("d", F.col("ds").cast("decimal(10,2)")).drop("ds")


def test_try_add_subtract_multiply_integral(diff):
    diff(lambda s: data(s).select(F.try_add("a", "b"), F.try_add("big", F.lit(1)), F.try_subtract("big", "a"),
                                  F.try_multiply("big", "big"), F.try_add("lg", "lg"), F.try_subtract("lg", "b"),
                                  F.try_multiply("lg", F.lit(2)), F.try_multiply("a", "b")))


def test_try_divide_and_mod(diff):
    diff(lambda s: data(s).select(F.try_divide("a", "b"), F.try_divide("x", "b"), F.try_mod("a", "b"),
                                  F.try_mod("lg", "b"), F.try_mod("x", F.lit(0.0)), F.try_divide("lg", "a")))


def test_try_decimal(diff):
    diff(lambda s: data(s).select(F.try_add("d", "a"), F.try_multiply("d", "d"), F.try_divide("d", "b"),
                                  F.try_mod("d", "b"), F.try_subtract("d", F.lit(1)),
                                  F.expr("try_multiply(CAST(d AS DECIMAL(38, 2)), 1000000000000000000000000000000)")))


def test_try_floating(diff):
    diff(lambda s: data(s).select(F.try_add("x", "a"), F.try_multiply("x", F.lit(1e308)),
                                  F.try_divide("x", F.lit(0.0)), F.try_subtract("x", "x")))


def test_try_sql_literals(diff):
    diff(lambda s: s.sql("SELECT try_add(1, 2), try_add(2147483647, 1), try_subtract(1L, 2), "
                         "try_multiply(2.5, 3), try_divide(1, 0), try_divide(3, 2), try_mod(5, 0), "
                         "try_mod(5.5, 2), try_divide(1.0, 3), try_add(NULL, 1)"))


def test_try_sum_try_avg(diff):
    diff(lambda s: data(s).groupBy((F.col("b") > 0).alias("pos")).agg(
        F.try_sum("a"), F.try_avg("a"), F.try_sum("lg"), F.try_avg("lg"), F.try_sum("x"), F.try_avg("x"),
        F.try_sum("d"), F.try_avg("d")))


def test_try_sum_overflow_global_and_empty(diff):
    diff(lambda s: data(s).agg(F.try_sum("lg"), F.try_sum("big"), F.try_avg("lg")))
    diff(lambda s: data(s).filter("a > 100").agg(F.try_sum("lg"), F.try_avg("d"), F.try_sum("x")))


def test_try_sum_many_rows(diff):
    def program(s):
        df = s.range(0, 200000).select((F.col("id") % 3).alias("g"),
                                       (F.col("id") * 10000000000000).alias("v"), F.col("id"),
                                       (F.col("id") / 7).cast("decimal(20,3)").alias("d"))
        return df.groupBy("g").agg(F.try_sum("v"), F.try_sum("id"), F.try_avg("id"), F.try_sum("d"),
                                   F.try_avg("d"))
    diff(program)


def test_try_decimal_sum_overflow(diff):
    def program(s):
        df = s.range(0, 20).select(F.lit("99999999999999999999999999999999999999").cast("decimal(38,0)").alias("d"))
        return df.agg(F.try_sum("d"), F.try_avg("d"))
    diff(program)


def test_try_bad_input_type(diff_error):
    diff_error(lambda s: s.sql("SELECT try_sum(true)"), "DATATYPE_MISMATCH")
