"""Differential tests of `div` (Spark's IntegralDivide) and of how SQL's unary minus is named —
Ember against Apache Spark: integral, string, decimal and ANSI interval operands, truncation
toward zero, the decimal quotient's low 64 bits, null and zero divisors, Long.MIN_VALUE div -1,
decimal quotients wider than their type, the operand types `div` rejects, in ANSI mode and out
of it; `-a` in SQL against negative() from the DataFrame API."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import run_time_error, session_conf

ROWS = [(7, 2, "7.90", "0.50", 1), (-7, 2, "-12345678901234567890.5", "0.1", -3), (7, -2, "1", "3", 4),
        (None, 4, None, "2", None), (9, None, "5", None, 5), (-9223372036854775808, 1, "99.99", "-0.01", 2)]


def data(s):
    df = s.createDataFrame(ROWS, "a long, b int, ds string, es string, t tinyint")
    return (df.withColumn("d", F.col("ds").cast("decimal(21,1)")).withColumn("e", F.col("es").cast("decimal(3,2)"))
            .drop("ds", "es"))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_div_integral_and_decimal(diff, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: data(s).selectExpr("a div b", "b div t", "t div 2", "div(a, 3)", "d div e", "d div 2",
                                          "a div e", "typeof(d div e)", "-7 div 2", "7.9 div 2", "-7.9 div 0.5",
                                          "12345678901234567890.5 div 0.1", "NULL div 2", "2 div NULL"))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_div_intervals(diff, ember, oracle, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql("SELECT INTERVAL '5' YEAR div INTERVAL '2' YEAR, INTERVAL '-7' MONTH div INTERVAL '2' MONTH, "
                             "INTERVAL '5' DAY div INTERVAL '2' HOUR, INTERVAL '3' SECOND div INTERVAL '-2' SECOND"))


def test_div_string_operand_in_ansi_mode(diff):
    diff(lambda s: s.sql("SELECT '7' div 2, 7 div '3'"))


def test_div_by_zero_and_overflow_without_ansi(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT 7 div 0, 7.5 div 0, -9223372036854775808L div -1, "
                             "99999999999999999999999999999999999999 div 0.01, INTERVAL '1' DAY div INTERVAL '0' DAY"))


@pytest.mark.parametrize("query,error", [
    ("SELECT a div 0 FROM VALUES (7) AS t(a)", "DIVIDE_BY_ZERO"),
    ("SELECT d div 0.0 FROM VALUES (7.5) AS t(d)", "DIVIDE_BY_ZERO"),
    ("SELECT a div -1 FROM VALUES (-9223372036854775808L) AS t(a)", "ARITHMETIC_OVERFLOW"),
    ("SELECT d div 0.01 FROM VALUES (99999999999999999999999999999999999999) AS t(d)", "NUMERIC_VALUE_OUT_OF_RANGE"),
])
def test_div_errors_in_ansi_mode(ember, oracle, query, error):
    run_time_error(ember, oracle, lambda s: s.sql(query), error)


@pytest.mark.parametrize("query", ["SELECT 7.5D div 2", "SELECT 7.5F div 2", "SELECT true div 1",
                                   "SELECT DATE'2020-01-01' div 1"])
def test_div_rejected_operand_types(diff_error, query):
    diff_error(lambda s: s.sql(query), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES")


def test_div_string_operand_rejected_without_ansi(diff_error, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff_error(lambda s: s.sql("SELECT '7' div 2"), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES")


def test_unary_minus_names(diff):
    diff(lambda s: s.sql("SELECT -a, negative(a), -(-1), - - a, -1, - 1, +a, positive(a), -(a + 1), -2.5, - '3' "
                         "FROM VALUES (1), (-2), (NULL) AS t(a)"))
    diff(lambda s: s.sql("SELECT * FROM VALUES (1), (-2) AS t(a)").select(-F.col("a"), F.negative("a"), F.expr("-a")))


def test_unary_minus_of_the_smallest_long(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT -a FROM VALUES (-9223372036854775808L) AS t(a)"))
