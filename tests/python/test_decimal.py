"""Differential tests of DECIMAL: arithmetic result types and values, integral literals beside
decimals, casts in every direction, sum/avg, comparisons, overflow and division by zero with
ANSI on and off."""

from __future__ import annotations

import contextlib
from decimal import Decimal

from pyspark.sql import functions as F

ROWS = [
    (Decimal("1.10"), Decimal("3.000"), 2),
    (Decimal("-2.55"), Decimal("0.125"), -7),
    (Decimal("12345678901234.99"), Decimal("-1.005"), 0),
    (None, Decimal("2.500"), 5),
    (Decimal("0.00"), None, None),
]
SCHEMA = "a decimal(16,2), b decimal(7,3), i int"


def table(s):
    return s.createDataFrame(ROWS, SCHEMA)


def with_view(query):
    def program(s):
        table(s).createOrReplaceTempView("dec_t")
        return s.sql(query)
    return program


@contextlib.contextmanager
def ansi(ember, oracle, enabled):
    for s in (ember, oracle):
        s.conf.set("spark.sql.ansi.enabled", "true" if enabled else "false")
    try:
        yield
    finally:
        for s in (ember, oracle):
            s.conf.set("spark.sql.ansi.enabled", "true")


def test_arithmetic_between_decimals(diff):
    diff(lambda s: table(s).select((F.col("a") + F.col("b")), (F.col("a") - F.col("b")),
                                   (F.col("a") * F.col("b")), (F.col("a") / F.col("b")),
                                   (F.col("a") % F.col("b")), F.pmod(F.col("a"), F.col("b")), -F.col("a")))


def test_arithmetic_with_integers_and_literals(diff):
    diff(lambda s: table(s).select(F.col("a") + F.col("i"), F.col("b") * F.col("i"),
                                   F.col("b") * 2, F.col("a") - 1))
    diff(with_view("SELECT a * 2, b / 3, 1 - b, a + 100000, 10.0 / 3, 1.5 * 2, 2 + 1.25, 0.1 + 0.2 "
                   "FROM dec_t"))


def test_arithmetic_with_doubles_is_double(diff):
    diff(lambda s: table(s).select(F.col("a") * 0.5, F.col("b") + F.lit(1.5)))


def test_sql_decimal_literals(diff):
    diff(lambda s: s.sql("SELECT 1.5, -0.001, 123456789012345678901234567890.5, 1e3, 1.5BD, "
                         "CAST(1 AS DECIMAL(38, 0)) + 1"))


def test_precision_loss_rules(diff):
    # Results wider than 38 digits keep their integral digits and at least 6 fraction digits.
    diff(lambda s: s.sql("SELECT CAST(1 AS DECIMAL(38, 10)) * CAST(3 AS DECIMAL(38, 10)), "
                         "CAST(10 AS DECIMAL(38, 18)) / CAST(3 AS DECIMAL(38, 18)), "
                         "CAST(123.456 AS DECIMAL(20, 3)) / CAST(7 AS DECIMAL(30, 5))"))


def test_casts_to_decimal(diff):
    diff(lambda s: s.sql("SELECT CAST(1.005 AS DECIMAL(3,2)), CAST(-1.005 AS DECIMAL(3,2)), "
                         "CAST(7 AS DECIMAL(4,1)), CAST(2.675D AS DECIMAL(5,2)), CAST(0.1F AS DECIMAL(10,9)), "
                         "CAST(' 3.14159 ' AS DECIMAL(5,2)), CAST('1e2' AS DECIMAL(5,1)), CAST(true AS DECIMAL(2,1)), "
                         "CAST(123456789012L AS DECIMAL(20,2))"))


def test_casts_from_decimal(diff):
    diff(lambda s: table(s).select(F.col("b").cast("int"), F.col("a").cast("long"), F.col("b").cast("short"),
                                   F.col("a").cast("double"), F.col("b").cast("float"), F.col("a").cast("string"),
                                   F.col("b").cast("boolean"), F.col("a").cast("decimal(20,1)"),
                                   F.col("b").cast("decimal(4,2)")))


def test_cast_overflow_and_malformed_are_ansi_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT CAST(12345.6 AS DECIMAL(5,1))"), "NUMERIC_VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT CAST('abc' AS DECIMAL(5,1))"), "CAST_INVALID_INPUT")
    diff_error(lambda s: s.sql("SELECT CAST(CAST(1e12 AS DECIMAL(20,2)) AS INT)"), "CAST_OVERFLOW")


def test_cast_overflow_without_ansi_is_null(diff, ember, oracle):
    with ansi(ember, oracle, False):
        diff(lambda s: s.sql("SELECT CAST(12345.6 AS DECIMAL(5,1)), CAST('abc' AS DECIMAL(5,1)), "
                             "try_cast('1.5' AS DECIMAL(2,1))"))


def test_try_cast_to_decimal(diff):
    diff(lambda s: s.sql("SELECT try_cast(12345.6 AS DECIMAL(5,1)), try_cast('x' AS DECIMAL(3,1)), "
                         "try_cast(1e40D AS DECIMAL(38,0))"))


def test_division_by_zero(diff_error, diff, ember, oracle):
    diff_error(lambda s: table(s).select(F.col("a") / F.col("i")), "DIVIDE_BY_ZERO")
    diff_error(lambda s: s.sql("SELECT 1.5 % 0"), "REMAINDER_BY_ZERO")
    diff_error(lambda s: s.sql("SELECT pmod(1.5, 0)"), "REMAINDER_BY_ZERO")
    diff_error(lambda s: s.sql("SELECT 7 % 0"), "REMAINDER_BY_ZERO")
    with ansi(ember, oracle, False):
        diff(lambda s: table(s).select(F.col("a") / F.col("i"), F.col("a") % F.col("i"),
                                       F.pmod(F.col("b"), F.col("i"))))


def test_arithmetic_overflow(diff_error, diff, ember, oracle):
    big = "CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0))"
    diff_error(lambda s: s.sql(f"SELECT {big} + 1"), "NUMERIC_VALUE_OUT_OF_RANGE")
    with ansi(ember, oracle, False):
        diff(lambda s: s.sql(f"SELECT {big} + 1, {big} * 10"))


def test_sum_and_avg(diff):
    diff(lambda s: table(s).agg(F.sum("a"), F.avg("a"), F.sum("b"), F.avg("b"), F.min("a"), F.max("b"),
                                F.count("a")))
    diff(lambda s: table(s).groupBy((F.col("i") > 0).alias("pos")).agg(F.sum("a"), F.avg("b")))
    diff(lambda s: table(s).filter(F.col("a").isNull()).agg(F.sum("a"), F.avg("a")))


def test_sum_and_avg_over_many_rows(diff):
    diff(lambda s: s.range(100000).select((F.col("id") % 997).cast("decimal(10,2)").alias("d"),
                                          (F.col("id") % 13).alias("k"))
         .groupBy("k").agg(F.sum("d"), F.avg("d")))


def test_comparisons_and_ordering(diff):
    diff(lambda s: table(s).select(F.col("a") > F.col("b"), F.col("a") == 1.1, F.col("b") < 1,
                                   F.col("a").eqNullSafe(F.col("b"))))
    diff(with_view("SELECT a >= 1.1, b <> 3, a < 12345678901235, a IN (1.1, 2) FROM dec_t"))
    diff(lambda s: table(s).orderBy(F.col("a").desc_nulls_last(), "b"), ordered=True)


def test_group_by_decimal_key(diff):
    diff(lambda s: table(s).union(table(s)).groupBy("a").agg(F.count("*"), F.sum("b")))


def test_abs_round_bround_on_decimals(diff):
    def df(s):
        return s.sql("SELECT * FROM VALUES (CAST(1.2345 AS DECIMAL(22,6))), (CAST(-2.5 AS DECIMAL(22,6))), "
                     "(CAST(0.125 AS DECIMAL(22,6))), (CAST(-0.125 AS DECIMAL(22,6))), (CAST(99.995 AS DECIMAL(22,6))), "
                     "(CAST(-1234567.5 AS DECIMAL(22,6))), (CAST(NULL AS DECIMAL(22,6))) AS t(x)")
    diff(lambda s: df(s).selectExpr("abs(x)", "round(x)", "round(x, 2)", "bround(x, 2)", "round(x, 0)",
                                    "bround(x, 0)", "round(x, -1)", "bround(x, -2)", "round(x, 8)", "typeof(round(x, 2))",
                                    "typeof(round(x, -1))", "typeof(bround(x, 8))", "typeof(abs(x))"))
    diff(lambda s: s.sql("SELECT round(2.5BD), bround(2.5BD), round(-2.5BD), bround(-3.5BD), round(123.456BD, -2), "
                         "abs(CAST('-123456789012345678901234567890' AS DECIMAL(38,0))), round(9.99BD, 1), typeof(round(9.99BD, 1)), "
                         "round(CAST(NULL AS DECIMAL(5,2)), 1)"))


def test_negation_and_abs_round_to_34_digits(diff, diff_error, ember, oracle):
    # Spark negates a decimal wider than 34 digits in Scala's default MathContext (34 digits,
    # HALF_EVEN), then brings it back to the type's scale; a result beyond the precision fails
    # in every mode.
    def df(s):
        return s.sql("SELECT * FROM VALUES "
                     "(CAST('1234567890123456789.012345678901234567' AS DECIMAL(38,18))), "
                     "(CAST('-1234567890123456789.012345678901234500' AS DECIMAL(38,18))), "
                     "(CAST('-1234567890123456789.012345678901233500' AS DECIMAL(38,18))), "
                     "(CAST('-12345.5' AS DECIMAL(38,18))), (NULL) AS t(x)")
    for enabled in (True, False):
        with ansi(ember, oracle, enabled):
            diff(lambda s: df(s).selectExpr("-x", "abs(x)", "negative(x)", "typeof(-x)"))
            diff(lambda s: s.sql("SELECT -x, abs(x) FROM VALUES "
                                 "(CAST('-9999999999999999999999999999999999.49' AS DECIMAL(38,2))) AS t(x)"))
            diff_error(lambda s: s.sql("SELECT -x FROM VALUES (CAST('-99999999999999999999999999999999999.999' "
                                       "AS DECIMAL(38,3))) AS t(x)"), "NUMERIC_VALUE_OUT_OF_RANGE")
            diff_error(lambda s: s.sql("SELECT abs(x) FROM VALUES (CAST('-0.99999999999999999999999999999999999' "
                                       "AS DECIMAL(35,35))) AS t(x)"), "NUMERIC_VALUE_OUT_OF_RANGE")


def test_sums_wider_than_128_bits_round_to_the_result_scale(diff, ember, oracle):
    # The exact sum of two DECIMAL(38,18) limits needs 39 digits; the result type DECIMAL(38,17)
    # holds it rounded. A DECIMAL(38,0) beside a DECIMAL(38,18) sums at scale 18 beyond 128 bits.
    def df(s):
        return s.sql("SELECT * FROM VALUES "
                     "(CAST('-99999999999999999999.999999999999999999' AS DECIMAL(38,18)), "
                     "CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18)), "
                     "CAST('10000000000000000000000000' AS DECIMAL(38,0))), "
                     "(CAST('0.000000000000000005' AS DECIMAL(38,18)), CAST('-2.5' AS DECIMAL(38,18)), "
                     "CAST('99999999999999999999999999999999' AS DECIMAL(38,0))) AS t(a, b, c)")
    for enabled in (True, False):
        with ansi(ember, oracle, enabled):
            diff(lambda s: df(s).selectExpr("a - b", "b - a", "a + a", "try_subtract(a, b)", "try_add(b, b)",
                                            "c + a", "c - a", "typeof(a - b)", "typeof(c + a)"))


def test_decimal_to_timestamp_and_string(diff, ember, oracle):
    # Seconds to microseconds truncated toward zero; outside ANSI mode the text is
    # BigDecimal.toString's (0E-18, 1.00000000000E-7).
    def df(s):
        return s.sql("SELECT * FROM VALUES (CAST(1.5 AS DECIMAL(38,18))), (CAST(-2.5 AS DECIMAL(38,18))), "
                     "(CAST('12345.678' AS DECIMAL(38,18))), (CAST('0.0000015' AS DECIMAL(38,18))), "
                     "(CAST('-0.0000015' AS DECIMAL(38,18))), (CAST(0 AS DECIMAL(38,18))), "
                     "(CAST('0.0000001' AS DECIMAL(38,18))), (CAST('0.000001' AS DECIMAL(38,18))), (NULL) AS t(m)")
    for enabled in (True, False):
        with ansi(ember, oracle, enabled):
            diff(lambda s: df(s).selectExpr("CAST(m AS TIMESTAMP) AS ts", "CAST(m AS STRING) AS text",
                                            "CAST(CAST(m AS DECIMAL(10,2)) AS TIMESTAMP) AS narrow"))
