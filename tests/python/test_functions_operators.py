"""Differential tests of Spark's operators against Apache Spark: + - * / % (mod) and pmod over
every integral width, doubles (NaN, infinities, -0.0) and decimals, in ANSI mode (overflow and
division by zero are errors) and out of it (wrap-around, NULL); comparisons with NaN, -0.0 and
NULL (<=> included); three-valued NOT / ! / AND / OR; and the bitwise & | ^ ~."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import session_conf

INTS = [(1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 2147483647, 1), (5, -2147483648, -1), (6, 5, 0), (7, None, 3),
        (8, 0, None), (9, -2147483648, 2147483647)]
DOUBLES = [(1, 7.5, 2.0), (2, -7.5, 2.0), (3, float("nan"), 1.0), (4, 1.0, float("nan")), (5, float("inf"), 2.0),
           (6, float("-inf"), float("inf")), (7, -0.0, 0.0), (8, 0.0, -0.0), (9, 1.0, 0.0), (10, -1.0, -0.0),
           (11, 1e308, 10.0), (12, None, 1.0), (13, 5.0, None), (14, 4.9e-324, 0.5)]


def ints(s):
    return s.createDataFrame(INTS, "k int, a int, b int")


def doubles(s):
    return s.createDataFrame(DOUBLES, "k int, a double, b double")


def widths(s):
    df = ints(s).where("k IN (1, 2, 3, 6, 7, 8)")  # values every width holds
    return df.select("k", *[F.col(c).cast(t).alias(f"{c}_{t}") for c in ("a", "b")
                            for t in ("tinyint", "smallint", "bigint")])


def test_arithmetic_without_ansi(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: ints(s).select("k", F.col("a") + F.col("b"), F.col("a") - F.col("b"), F.col("a") * F.col("b"),
                                      F.col("a") / F.col("b"), F.col("a") % F.col("b"), F.pmod("a", "b"),
                                      -F.col("a"), F.expr("mod(a, b)")))
        diff(lambda s: widths(s).select(
            "k", *[F.col(f"a_{t}") + F.col(f"b_{t}") for t in ("tinyint", "smallint", "bigint")],
            *[F.col(f"a_{t}") * F.col(f"b_{t}") for t in ("tinyint", "smallint", "bigint")],
            *[F.col(f"a_{t}") % F.col(f"b_{t}") for t in ("tinyint", "smallint", "bigint")],
            *[F.pmod(F.col(f"a_{t}"), F.col(f"b_{t}")) for t in ("tinyint", "smallint", "bigint")]))
        diff(lambda s: s.sql("SELECT 9223372036854775807L + 1L, -9223372036854775808L - 1L, "
                             "-9223372036854775808L % -1L, mod(-9223372036854775808L, -1L), 5 % 0, mod(5, 0), "
                             "pmod(5, 0), pmod(-9223372036854775808L, -1L), 2147483647 * 2"))


@pytest.mark.parametrize("query,error", [
    ("SELECT 2147483647 + 1", "ARITHMETIC_OVERFLOW"),
    ("SELECT -2147483648 - 1", "ARITHMETIC_OVERFLOW"),
    ("SELECT 9223372036854775807L * 2L", "ARITHMETIC_OVERFLOW"),
    ("SELECT CAST(127 AS TINYINT) + CAST(1 AS TINYINT)", "BINARY_ARITHMETIC_OVERFLOW"),
    ("SELECT CAST(-32768 AS SMALLINT) - CAST(1 AS SMALLINT)", "BINARY_ARITHMETIC_OVERFLOW"),
    ("SELECT CAST(100 AS TINYINT) * CAST(2 AS TINYINT)", "BINARY_ARITHMETIC_OVERFLOW"),
    ("SELECT -CAST(-128 AS TINYINT)", "ARITHMETIC_OVERFLOW"),
    ("SELECT -(-2147483648)", "ARITHMETIC_OVERFLOW"),
    ("SELECT negative(-9223372036854775808L)", "ARITHMETIC_OVERFLOW"),
    ("SELECT abs(CAST(-32768 AS SMALLINT))", "ARITHMETIC_OVERFLOW"),
    ("SELECT round(2147483647, -1)", "ARITHMETIC_OVERFLOW"),
    ("SELECT round(CAST(127 AS TINYINT), -1)", "ARITHMETIC_OVERFLOW"),
    ("SELECT 5 % 0", "REMAINDER_BY_ZERO"),
    ("SELECT mod(5L, 0L)", "REMAINDER_BY_ZERO"),
    ("SELECT pmod(5, 0)", "REMAINDER_BY_ZERO"),
    ("SELECT 5 / 0", "DIVIDE_BY_ZERO"),
    ("SELECT mod(5.5, 0)", "REMAINDER_BY_ZERO"),
    ("SELECT 1.5D % 0.0D", "REMAINDER_BY_ZERO"),
    ("SELECT pmod(1.5D, -0.0D)", "REMAINDER_BY_ZERO"),
    ("SELECT 1.5D / 0.0D", "DIVIDE_BY_ZERO"),
    ("SELECT CAST(1 AS FLOAT) % CAST(0 AS FLOAT)", "REMAINDER_BY_ZERO"),
])
def test_arithmetic_errors_in_ansi_mode(diff_error, query, error):
    diff_error(lambda s: s.sql(query), error)


def test_arithmetic_ansi_column_errors(diff_error):
    diff_error(lambda s: ints(s).select(F.col("a") + F.col("b")), "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: ints(s).select(F.col("a") % F.col("b")), "REMAINDER_BY_ZERO")
    diff_error(lambda s: ints(s).select(F.expr("mod(a, b)")), "REMAINDER_BY_ZERO")
    diff_error(lambda s: doubles(s).select(F.col("a") % F.col("b")), "REMAINDER_BY_ZERO")
    diff_error(lambda s: doubles(s).select(F.col("a") / F.col("b")), "DIVIDE_BY_ZERO")


def test_first_failing_row_decides_the_error(diff_error):
    # Spark computes a row's expressions before the next row's: the error is the first failing
    # row's, whichever expression or argument a columnar engine would compute first.
    diff_error(lambda s: s.sql("SELECT CAST(s AS INT), 1 / d FROM VALUES ('1', 0), ('x', 1) AS t(s, d)"),
               "DIVIDE_BY_ZERO")
    diff_error(lambda s: s.sql("SELECT 1 / d, CAST(s AS INT) FROM VALUES ('x', 1), ('1', 0) AS t(s, d)"),
               "CAST_INVALID_INPUT")
    diff_error(lambda s: s.range(0, 5000, 1, 1).select(
        F.expr("CAST(CASE WHEN id = 4000 THEN 'x' ELSE '1' END AS INT) + 1 / (id - 2999)")), "DIVIDE_BY_ZERO")
    diff_error(lambda s: s.range(0, 5000, 1, 1).filter(
        F.expr("CAST(CASE WHEN id = 4000 THEN 'x' ELSE '1' END AS INT) = 1 AND 1 / (id - 3000) > 0")),
        "DIVIDE_BY_ZERO")


def test_arithmetic_ansi_values(diff):
    # Rows that neither overflow nor divide by zero.
    diff(lambda s: ints(s).where("k IN (1, 2, 3, 7, 8)").select(
        "k", F.col("a") + F.col("b"), F.col("a") - F.col("b"), F.col("a") * F.col("b"), F.col("a") / F.col("b"),
        F.col("a") % F.col("b"), F.expr("mod(a, b)"), F.pmod("a", "b")))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_floating_arithmetic(diff, ember, oracle, ansi):
    def doubles_for_mode(s):
        # ANSI mode refuses a zero divisor (rows 7 to 10).
        return doubles(s).where("k NOT BETWEEN 7 AND 10") if ansi == "true" else doubles(s)

    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: doubles_for_mode(s).select(
            "k", F.col("a") + F.col("b"), F.col("a") - F.col("b"), F.col("a") * F.col("b"), F.col("a") / F.col("b"),
            F.col("a") % F.col("b"), F.pmod("a", "b"), F.expr("mod(a, b)"), -F.col("a")))
        diff(lambda s: doubles_for_mode(s).select(
            "k", F.col("a").cast("float") % F.col("b").cast("float"),
            F.pmod(F.col("a").cast("float"), F.col("b").cast("float"))))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_decimal_mod(diff, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql("SELECT mod(7.5, 2), -7.5 % 2, pmod(-7.5, 2), mod(CAST(12345678901234567890.12 AS "
                             "DECIMAL(38,2)), 0.07), mod(1, 0.3), pmod(-10, 3.5BD), mod(NULL, 2), 10 % CAST(NULL AS INT)"))


def test_comparisons_with_nan_zero_and_null(diff):
    diff(lambda s: doubles(s).select(
        "k", F.col("a") == F.col("b"), F.col("a") < F.col("b"), F.col("a") <= F.col("b"), F.col("a") > F.col("b"),
        F.col("a") >= F.col("b"), F.col("a") != F.col("b"), F.col("a").eqNullSafe(F.col("b"))))
    # Every pairing of NaN, infinities and equal values, as doubles, floats and longs.
    pairs = [(x, y) for x in (float("nan"), float("-inf"), -1.5, 2.0, float("inf"))
             for y in (float("nan"), float("-inf"), -1.5, 2.0, float("inf"))]
    for t in ("double", "float"):
        diff(lambda s, t=t: s.createDataFrame(pairs, f"a {t}, b {t}").select(
            "a", "b", F.col("a") == F.col("b"), F.col("a") < F.col("b"), F.col("a") <= F.col("b"),
            F.col("a") > F.col("b"), F.col("a") >= F.col("b")))
    diff(lambda s: s.range(-3, 4).select(
        "id", F.col("id") == 1, F.col("id") < 1, F.col("id") <= 1, F.col("id") > 1, F.col("id") >= 1))
    diff(lambda s: s.sql("SELECT double('NaN') = double('NaN'), double('NaN') > double('Infinity'), "
                         "-0.0D = 0.0D, -0.0D < 0.0D, NULL <=> NULL, 1 <=> NULL, 1 == 1, 'a' < 'b', "
                         "'é' > 'z', X'00' < X'0000', DATE'2024-02-29' > DATE'2024-02-28', 2 <= 3"))


def test_not_and_or(diff):
    def program(s):
        df = s.createDataFrame([(True, False), (True, None), (False, None), (None, None), (True, True)],
                               "p boolean, q boolean")
        return df.select("p", "q", ~F.col("p"), F.col("p") & F.col("q"), F.col("p") | F.col("q"),
                         F.expr("!p"), F.expr("NOT q"), F.expr("p AND q"), F.expr("p OR q"))
    diff(program)
    diff(lambda s: s.sql("SELECT !true, ! false, !NULL, NOT NULL, true AND NULL, false AND NULL, true OR NULL, "
                         "false OR NULL"))


def test_bitwise_operators(diff):
    diff(lambda s: widths(s).select(
        "k", *[F.expr(f"a_{t} {op} b_{t}") for t in ("tinyint", "smallint", "bigint") for op in ("&", "|", "^")],
        *[F.expr(f"~a_{t}") for t in ("tinyint", "smallint", "bigint")]))
    diff(lambda s: ints(s).select("k", F.col("a").bitwiseOR(F.col("b")), F.expr("a | b"), F.expr("a | 1L"),
                                  F.expr("a ^ b"), F.expr("a & b"), F.expr("~a")))
    diff(lambda s: s.sql("SELECT 5 | 3, -1 | 0, 9223372036854775807L | -9223372036854775808L, 12 & 10, 12 ^ 10, "
                         "~0, NULL | 1"))


def test_bitwise_operator_type_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT 1.5 | 1"), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT 1.5D & 1.5D"), "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE")
    diff_error(lambda s: s.sql("SELECT true | false"), "DATATYPE_MISMATCH")


def test_comparisons_of_arrays_and_structs(diff):
    # Element by element (then length) and field by field, nulls first, NaN above every number,
    # -0.0 equal to 0.0.
    diff(lambda s: s.sql(
        "SELECT a < b, a <= b, a > b, a >= b, a = b, a <=> b, equal_null(a, b), "
        "named_struct('x', a, 'y', 1) < named_struct('x', b, 'y', 2) "
        "FROM VALUES (array(1.0D, 2.0D), array(1.0D, 3.0D)), (NULL, array(1.0D)), "
        "(array(CAST('NaN' AS DOUBLE)), array(1.0D)), (array(-0.0D), array(0.0D)), "
        "(array(NULL, 1.0D), array(NULL, 1.0D)), (array(1.0D), array(1.0D, 2.0D)), (array(), array(NULL)) AS t(a, b)"))
