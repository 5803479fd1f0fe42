"""Math functions against Apache Spark: values, types, column names, NULLs and ANSI errors."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

NAN = float("nan")
INF = float("inf")

DOUBLES = [(1, 2.5), (2, -2.5), (3, 0.0), (4, -0.0), (5, NAN), (6, INF), (7, -INF), (8, None),
           (9, 1e308), (10, 4.9e-324), (11, 0.5), (12, -1.0), (13, 100.0), (14, 2.675),
           (15, 1.005), (16, -0.001)]
INTS = [(1, 7, 3), (2, -7, 2), (3, 0, None), (4, 2147483647, 1), (5, -2147483648, -1),
        (6, None, 5), (7, 15, 0), (8, 123456, -2)]


def doubles(s):
    return s.createDataFrame(DOUBLES, "k int, d double")


def ints(s):
    return s.createDataFrame(INTS, "k int, i int, j int")


def longs(s):
    return s.createDataFrame([(1, 9223372036854775807), (2, -9223372036854775808), (3, 0),
                              (4, -1), (5, None), (6, 255)], "k int, l long")


def test_unary_double_functions(diff):
    names = ["sqrt", "cbrt", "exp", "expm1", "ln", "log10", "log2", "log1p", "sin", "cos", "tan",
             "cot", "sec", "csc", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
             "atanh", "degrees", "radians", "signum", "sign", "rint"]
    diff(lambda s: doubles(s).select("k", *[getattr(F, n)("d") for n in names]), approx=1e-12)


def steps(s, lo, hi, n):
    """n + 1 doubles from lo to hi in equal steps, in column x, one partition."""
    return s.range(0, n + 1, 1, 1).select((F.col("id") * ((hi - lo) / n) + lo).alias("x"))


# Spark computes these with Java's StrictMath, directly or through java.lang.Math: the results
# must be its doubles exactly (the C library's differ in the last bit for a few percent of these
# inputs). sin, cos and tan are left out: Spark runs them as HotSpot intrinsics.
def test_strict_math_functions_to_the_last_bit(diff):
    diff(lambda s: steps(s, -40.0, 40.0, 4000).select(
        "x", F.exp("x"), F.expm1("x"), F.sinh("x"), F.cosh("x"), F.tanh("x"), F.atan("x"),
        F.cbrt("x"), F.asinh("x"), F.acosh("x"), F.ln("x"), F.log10("x"), F.log2("x"),
        F.log1p("x"), F.log(3.0, "x"), F.expr("log(x, 10.0)")), approx=0)
    diff(lambda s: steps(s, -1.0, 1.0, 2000).select(
        "x", F.asin("x"), F.acos("x"), F.atanh("x"), F.exp("x"), F.log1p("x")), approx=0)
    diff(lambda s: steps(s, -12.0, 12.0, 3000).select(
        "x", F.pow("x", F.lit(3.0)), F.pow(F.abs("x"), F.lit(1.7)), F.pow(F.lit(2.5), "x"),
        F.pow(F.lit(-1.5), F.round("x")), F.atan2("x", F.lit(0.3)), F.atan2(F.lit(-2.0), "x"),
        F.hypot("x", F.lit(2.2))), approx=0)


def test_strict_math_examples_as_text(diff):
    # exp(1) is 2.7182818284590455 in Spark, 2.718281828459045 in the C library; atan2 adds 0.0
    # to its arguments, so -0.0 reads as 0.0.
    diff(lambda s: s.sql(
        "SELECT exp(1), cosh(1), log2(3), ln(3), log10(7), pow(3, 0.7), sinh(0.4), tanh(0.7), "
        "cbrt(10), atan2(-0.0, -1.0), asinh(-3), acosh(5), atanh(0.3), "
        "CAST(exp(1) AS STRING) AS exp_text, CAST(cosh(1) AS STRING) AS cosh_text"), approx=0)


def test_unary_double_functions_on_integers_and_strings(diff):
    diff(lambda s: ints(s).select("k", F.sqrt("i"), F.log("i"), F.log2("j"), F.signum("i"),
                                  F.exp(F.lit("1.5")), F.degrees(F.lit(None))), approx=1e-12)


def test_log_with_base_and_binary_functions(diff):
    diff(lambda s: doubles(s).select(
        "k", F.log(2.0, "d"), F.log(10.0, "d"), F.log(-1.0, "d"), F.pow("d", F.lit(2)),
        F.pow(F.lit(1.0), "d"), F.pow("d", F.lit(NAN)), F.power("d", F.lit(0.5)),
        F.atan2("d", F.lit(1.0)), F.hypot("d", F.lit(3.0))), approx=1e-12)


def test_constants(diff):
    diff(lambda s: s.range(2).select(F.e(), F.pi()))


def test_abs_and_positive(diff):
    diff(lambda s: doubles(s).select("k", F.abs("d"), F.positive("d")))
    diff(lambda s: ints(s).filter(F.col("k") != 5).select("k", F.abs("i"), F.positive("i")))
    diff(lambda s: longs(s).filter(F.col("k") != 2).select("k", F.abs("l")))


def test_abs_overflow_is_an_ansi_error(diff_error):
    diff_error(lambda s: ints(s).select(F.abs("i")), "ARITHMETIC_OVERFLOW")


def test_ceil_floor(diff):
    diff(lambda s: doubles(s).filter(F.abs("d") < 1e18)
         .select("k", F.ceil("d"), F.floor("d"), F.ceiling("d")))
    diff(lambda s: ints(s).select("k", F.ceil("i"), F.floor("j")))
    diff(lambda s: longs(s).select("k", F.ceil("l"), F.floor("l")))


def test_ceil_floor_overflow_is_an_ansi_error(diff_error):
    diff_error(lambda s: doubles(s).filter(F.col("k") == 9).select(F.ceil("d")),
               "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: doubles(s).filter(F.col("k") == 7).select(F.floor("d")),
               "ARITHMETIC_OVERFLOW")


def test_ceil_floor_with_a_scale(diff):
    # Every input becomes a decimal first (doubles at DECIMAL(30,15), floats (14,7), integers at
    # their digits); the result keeps the integral digits at the scale asked for.
    diff(lambda s: doubles(s).filter(F.abs("d") < 1e15).select(
        "k", F.ceil("d", 1), F.floor("d", 1), F.ceil("d", 0), F.floor("d", -1), F.ceiling("d", 3),
        F.floor("d", 20)))
    diff(lambda s: ints(s).select("k", F.ceil("i", -2), F.floor("i", -1), F.ceil("j", 2),
                                  F.floor(F.col("j").cast("tinyint"), -1)))
    diff(lambda s: longs(s).select("k", F.ceil("l", -3), F.floor("l", -18)))
    diff(lambda s: s.sql(
        "SELECT ceil(-0.1, 1), ceil(1.234BD, 2), floor(-0.15, 1), ceil(1.5BD, 3), ceil(99.99BD, -3), "
        "floor(-99.99BD, -3), ceil(CAST(1.5 AS FLOAT), 0), ceil(NULL, 1), ceil('1.55', 1), "
        "floor(12345.678d, -40), ceil(-1.5, -100), ceil(CAST('NaN' AS DOUBLE), 1), "
        "floor(CAST('-Infinity' AS DOUBLE), 2)"))


def test_ceil_floor_of_decimals(diff):
    diff(lambda s: s.sql(
        "SELECT CEIL(x), FLOOR(x), ceiling(x), typeof(ceil(x)) FROM VALUES (1.234BD), (-1.234BD), "
        "(0.000BD), (999.999BD), (NULL) AS t(x)"))
    diff(lambda s: s.sql("SELECT ceil(CAST(x AS DECIMAL(38, 0))), floor(CAST(x AS DECIMAL(38, 2))) "
                         "FROM VALUES (-12.5), (12.5) AS t(x)"))


def test_ceil_floor_scale_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT ceil(1.5, 1L)"), "NON_FOLDABLE_ARGUMENT")
    diff_error(lambda s: s.sql("SELECT floor(1.5, id) FROM range(1)"), "NON_FOLDABLE_ARGUMENT")
    diff_error(lambda s: s.sql("SELECT ceil(INTERVAL 1 DAY, 1)"),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT ceil(1.5, -100)"),
               "NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("SELECT ceil(1e300d, 1)"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")


def test_double_functions_of_decimals(diff):
    diff(lambda s: s.sql("SELECT acosh(x), sqrt(x), exp(x), ln(x), atan(x), cbrt(x) FROM VALUES "
                         "(1.5BD), (2.25BD), (-0.5BD), (NULL) AS t(x)"), approx=1e-12)


def test_round_and_bround_doubles(diff):
    diff(lambda s: doubles(s).select("k", F.round("d", 0), F.round("d", 2), F.round("d", -1),
                                     F.bround("d", 0), F.bround("d", 2), F.round("d", 400),
                                     F.bround("d", -2)))
    diff(lambda s: s.createDataFrame([(0.5,), (1.5,), (2.5,), (-0.5,), (-1.5,), (0.125,),
                                      (0.375,), (12345.6789,), (9.999,)], "d double")
         .select("d", F.round("d", 0), F.bround("d", 0), F.round("d", 2), F.bround("d", 2),
                 F.round("d", -3), F.bround("d", -4)))


def test_round_integers_and_floats(diff):
    diff(lambda s: ints(s).filter(F.col("k") < 4).select(
        "k", F.round("i", 0), F.round("i", -1), F.bround("i", -1), F.round("i", 2),
        F.bround(F.lit(25), -1), F.bround(F.lit(35), -1), F.round(F.lit(-25), -1)))
    diff(lambda s: s.createDataFrame([(1.25,), (0.1,), (None,), (-2.5,)], "f float")
         .select(F.round("f", 1), F.bround("f", 0)))


def test_greatest_least(diff):
    diff(lambda s: ints(s).select("k", F.greatest("i", "j"), F.least("i", "j"),
                                  F.greatest("i", "j", F.lit(5)), F.least("i", F.lit(None))))
    diff(lambda s: doubles(s).select("k", F.greatest("d", F.lit(0.0)), F.least("d", F.lit(0.0)),
                                     F.greatest("d", "k"), F.least("k", "d")))
    diff(lambda s: s.createDataFrame([("a", "b"), ("é", "z"), (None, "x"), (None, None)],
                                     "a string, b string")
         .select(F.greatest("a", "b"), F.least("a", "b")))


def test_greatest_least_and_hashes_of_wide_decimals(diff):
    # Decimals meet in their wider type; a decimal wider than 18 digits hashes its unscaled
    # value's big-endian two's complement bytes.
    diff(lambda s: s.sql(
        "SELECT greatest(m, i), least(m, i, l), greatest(m, m2), least(CAST(m2 AS DECIMAL(10,2)), m), "
        "hash(m), xxhash64(m), hash(m, i), xxhash64(CAST(m2 AS DECIMAL(20,2))), hash(CAST(m2 AS DECIMAL(18,2))) "
        "FROM VALUES (CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18)), 1, 2L, "
        "CAST('-0.000000000000000001' AS DECIMAL(38,18))), "
        "(CAST('-12345.678' AS DECIMAL(38,18)), -2147483648, 9223372036854775807L, CAST(0 AS DECIMAL(38,18))), "
        "(CAST('-128' AS DECIMAL(38,18)), NULL, NULL, NULL), (NULL, 5, -5L, CAST(1.5 AS DECIMAL(38,18))) "
        "AS t(m, i, l, m2)"))


def test_greatest_type_mismatch(diff_error):
    diff_error(lambda s: ints(s).select(F.greatest("i", F.lit(True))), "DATATYPE_MISMATCH")


ORDERED = [
    (1, [1, 2], [None, 1], (1, "b"), (None, "a"), b"\x01\xff", b"\x01", "2020-01-02", "2020-01-02 03:04:05",
     "1.50", "1.5", "b", "ab", True, False, 3, 4.5),
    (2, [1, 2, 3], [1], (1, "a"), (1, None), b"", b"\x00", "1969-12-31", "1970-01-01 00:00:00",
     "-0.001", "-7.25", "", "a", False, False, -1, -0.0),
    (3, [], None, None, (2, "a"), None, b"\xff", None, "2038-01-19 03:14:08", None, "12345.678",
     None, "é", None, True, None, float("nan")),
    (4, None, None, None, None, None, None, None, None, None, None, None, None, None, None, None, None),
]
ORDERED_SCHEMA = ("k int, a1 array<int>, a2 array<int>, s1 struct<x:int,y:string>, "
                  "s2 struct<x:int,y:string>, b1 binary, b2 binary, d string, t string, m1 string, "
                  "m2 string, c1 string, c2 string, o1 boolean, o2 boolean, i int, f double")


def ordered(s):
    return s.createDataFrame(ORDERED, ORDERED_SCHEMA).select(
        "k", "a1", "a2", "s1", "s2", "b1", "b2", F.col("d").cast("date").alias("d"),
        F.col("t").cast("timestamp").alias("t"), F.col("m1").cast("decimal(10,2)").alias("m1"),
        F.col("m2").cast("decimal(12,3)").alias("m2"), "c1", "c2", "o1", "o2", "i", "f")


def test_greatest_least_of_every_orderable_type(diff):
    # Arrays and structs compare element by element and field by field (nulls first), binary
    # byte by byte (unsigned); nulls are skipped and a row of nulls gives null.
    diff(lambda s: ordered(s).select(
        "k", F.greatest("a1", "a2"), F.least("a1", "a2"), F.greatest("s1", "s2"), F.least("s1", "s2"),
        F.greatest("b1", "b2"), F.least("b1", "b2", F.lit(bytearray(b"\x01\x00"))), F.greatest("d", F.lit(None)),
        F.least("t", F.lit(None).cast("timestamp")), F.greatest("o1", "o2"), F.least("o1", "o2"),
        F.greatest("c1", "c2"), F.least("c1", "c2", F.lit("b"))))
    # Different types meet at the wider one: decimals of different scales, a date beside a
    # timestamp, integers beside decimals and doubles, arrays of different element types.
    diff(lambda s: ordered(s).select(
        "k", F.greatest("m1", "m2"), F.least("m1", "m2", "i"), F.greatest("d", "t"), F.least("t", "d"),
        F.greatest("i", "f", "m1"), F.least("i", F.lit(2).cast("long"), F.lit(1).cast("tinyint")),
        F.greatest("a1", F.array(F.lit(1).cast("long"), F.lit(5).cast("long"))),
        F.least("a2", F.array(F.lit(0.5))), F.greatest(F.lit(None), F.lit(None))))
    diff(lambda s: s.sql(
        "SELECT greatest(array(1, NULL), array(1, 2)), least(array(1, NULL), array(1, 2)), "
        "greatest(named_struct('a', 1, 'b', array(2)), named_struct('a', 1, 'b', array(3))), "
        "least(struct(1, 'x'), struct(1, 'w'), NULL), greatest(X'00', X'FF00'), "
        "greatest(DATE'2020-01-01', TIMESTAMP'2019-12-31 23:00:00'), least(1, 2.5D, 3L), "
        "greatest(1.25BD, 1.2500001BD, 2), least(INTERVAL '1' DAY, INTERVAL '23' HOUR), "
        "greatest(array(named_struct('x', 1)), array(named_struct('x', 2))), greatest(NULL, NULL, NULL), "
        "least(TIMESTAMP_NTZ'2020-01-01 10:00:00', TIMESTAMP'2020-01-01 09:00:00', DATE'2020-01-02')"))


@pytest.mark.parametrize("query, error_class", [
    ("SELECT greatest(map(1, 2), map(1, 3))", "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE"),
    ("SELECT least(array(map(1, 2)), array(map(1, 3)))", "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE"),
    ("SELECT greatest(1)", "WRONG_NUM_ARGS"),
    ("SELECT least()", "WRONG_NUM_ARGS"),
    ("SELECT greatest(1, 'a')", "DATATYPE_MISMATCH.DATA_DIFF_TYPES"),
    ("SELECT greatest(named_struct('a', 1), named_struct('b', 1))", "DATATYPE_MISMATCH.DATA_DIFF_TYPES"),
    ("SELECT least(array(1), 1)", "DATATYPE_MISMATCH.DATA_DIFF_TYPES"),
    ("SELECT greatest(X'01', 'a')", "DATATYPE_MISMATCH.DATA_DIFF_TYPES"),
])
def test_greatest_least_errors(diff_error, query, error_class):
    diff_error(lambda s: s.sql(query), error_class)


def test_bitwise(diff):
    diff(lambda s: ints(s).select(
        "k", F.col("i").bitwiseAND(F.col("j")), F.col("i").bitwiseOR(F.col("j")),
        F.col("i").bitwiseXOR(F.col("j")), F.col("i").bitwiseAND(F.lit(255)), F.bit_count("i")))
    diff(lambda s: longs(s).select("k", F.bit_count("l"), F.col("l").bitwiseAND(F.lit(15))))


def test_shifts(diff, diff_error):
    diff(lambda s: ints(s).select(
        "k", F.shiftleft("i", 2), F.shiftright("i", 1), F.shiftrightunsigned("i", 1),
        F.shiftleft("i", 33)))
    diff(lambda s: longs(s).select("k", F.shiftleft("l", 1), F.shiftright("l", 63),
                                   F.shiftrightunsigned("l", 60), F.shiftleft("l", 65)))
    # The operator forms, their names and precedence (below + and -, above comparisons).
    diff(lambda s: ints(s).selectExpr("k", "i << 2", "i >> 1", "i >>> 1", "i << 33", "j >> -1",
                                      "1 << k + 1", "i >> 1 > 0", "try_cast(i AS TINYINT) << 3",
                                      "try_cast(i AS SMALLINT) >>> 2"))
    diff(lambda s: longs(s).selectExpr("k", "l << 1", "l >> 63", "l >>> 60", "l << 65", "l >>> k"))
    diff(lambda s: s.sql("SELECT 1.5 << 1, 7 >> 1.9D, -1L >>> 1"))
    diff_error(lambda s: s.sql("SELECT true << 1"), "DATATYPE_MISMATCH")


def test_try_arithmetic(diff):
    diff(lambda s: ints(s).select(
        "k", F.try_add("i", "j"), F.try_subtract("i", "j"), F.try_multiply("i", "j"),
        F.try_divide("i", "j"), F.try_add("i", F.lit(2147483647)),
        F.try_multiply("i", F.lit(3))))
    diff(lambda s: longs(s).select("k", F.try_add("l", F.lit(1)), F.try_subtract("l", F.lit(1)),
                                   F.try_multiply("l", F.lit(-1)), F.try_divide("l", F.lit(0))))
    diff(lambda s: doubles(s).select("k", F.try_add("d", F.lit(1.0)),
                                     F.try_divide("d", F.lit(0.0)), F.try_multiply("d", "d")))


def test_factorial_hex_unhex_bin(diff):
    diff(lambda s: s.createDataFrame([(0,), (1,), (5,), (20,), (21,), (-1,), (None,)], "n int")
         .select("n", F.factorial("n"), F.hex("n"), F.bin("n")))
    diff(lambda s: longs(s).select("k", F.hex("l"), F.bin("l")))
    diff(lambda s: s.createDataFrame([("Spark",), ("héllo",), ("",), (None,)], "s string")
         .select(F.hex("s")))
    diff(lambda s: s.createDataFrame([("4A",), ("abc",), ("zz",), ("",), ("0f1E",), (None,)],
                                     "s string")
         .select("s", F.unhex("s")))


def test_implicit_integral_casts(diff, diff_error):
    # bin and hex take a BIGINT, the shifts an INT amount: fractions truncate, ANSI mode checks
    # the range.
    diff(lambda s: doubles(s).filter("k NOT IN (5, 6, 7, 9)").select(
        "k", F.bin("d"), F.hex("d"), F.bin(F.col("d").cast("decimal(10,3)")), F.hex(F.col("d").cast("float")),
        F.expr("shiftleft(1, CAST(k AS BIGINT))"), F.expr("shiftright(-64, d)"),
        F.expr("shiftrightunsigned(-1L, CAST(k AS DECIMAL(5,0)))")))
    diff_error(lambda s: doubles(s).select(F.bin("d")), "CAST_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT shiftleft(1, 4294967297L)"), "CAST_OVERFLOW")


def test_math_type_errors(diff_error):
    diff_error(lambda s: s.range(1).select(F.sqrt(F.lit(True))), "DATATYPE_MISMATCH")
    diff_error(lambda s: s.range(1).select(F.shiftleft(F.lit(True), 1)), "DATATYPE_MISMATCH")



def test_randn_stream(diff):
    # One partition in Spark and one morsel in Ember: both draw the same XORShiftRandom stream
    # (a row may take more than two draws when the polar method rejects a pair).
    # The polar method's logarithm is StrictMath's, so the values match to the last bit.
    diff(lambda s: s.range(0, 2000, 1, 1).select("id", F.randn(42).alias("g"), F.randn(-7).alias("h"),
                                                 F.rand(42).alias("u")), approx=0)
    diff(lambda s: s.range(0, 1000, 1, 1).select((F.randn(42) + F.col("id") % 3 * 10).alias("v"))
         .select(F.percentile("v", F.lit(0.5)), F.percentile("v", [0.25, 0.75], F.lit(1))))


def test_randn_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT randn(1.5)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_monotonically_increasing_id_and_partition_id(diff):
    # One partition on both engines: the ids are the row numbers (test_spark_partitions.py
    # covers more partitions).
    diff(lambda s: s.range(0, 10, 1, 1).select("id", F.monotonically_increasing_id().alias("m"),
                                               F.spark_partition_id().alias("p")))
    diff(lambda s: s.range(0, 10, 1, 1).selectExpr("monotonically_increasing_id()", "spark_partition_id()"))


def test_random_is_rand(diff):
    # random(seed) draws rand's XORShiftRandom stream; without a seed only its range is defined.
    diff(lambda s: s.range(0, 500, 1, 1).select("id", F.random(42).alias("r"), F.rand(42).alias("u"),
                                                F.expr("random(-3)").alias("n"), F.expr("random(NULL)").alias("z")))
    diff(lambda s: s.range(0, 100, 1, 1).select(F.expr("random() >= 0 AND random() < 1").alias("in_range"),
                                                F.expr("typeof(random(1L))")))
    diff(lambda s: s.range(0).select(F.random(7)))
    # A query without FROM reads one row in one partition.
    diff(lambda s: s.sql("SELECT random(1), rand(1), random(NULL), randn(3), spark_partition_id(), "
                         "monotonically_increasing_id(), typeof(random())"))


def test_round_scale_must_be_constant(diff, diff_error):
    for fn in ["round", "bround"]:
        for value in ["d", "CAST(d AS DECIMAL(10, 3))", "i"]:
            diff_error(lambda s, fn=fn, value=value: s.sql(
                f"SELECT {fn}({value}, i) FROM VALUES (2.675D, 1) AS t(d, i)"), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff(lambda s: s.sql("SELECT round(d, 1 + 1), bround(d, -1 * 1), round(i, 2 - 3) FROM VALUES (2.675D, 15) AS t(d, i)"))
