"""Differential tests of aggregates whose results depend on the order of the rows or on where the
partitions split them, against Apache Spark: listagg / string_agg WITHIN GROUP (ORDER BY ...)
(with DISTINCT, FILTER, several keys, and Spark's errors), first / last / any_value and max_by /
min_by ties in input order over inputs large enough that many threads take their batches,
try_sum of longs whose running sum overflows in one partition and not in another, and sum /
avg of DECIMAL(38, 18) at its limits (result digits, lost sums and ANSI errors)."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import session_conf

WORDS = ("SELECT * FROM VALUES ('b', 2, 1), ('a', 1, 1), (NULL, 3, 1), ('c', NULL, 2), ('b', 5, 2), "
         "('日本', 0, 2), ('ß', 4, 3), ('', 6, 3) AS t(s, k, g)")


def test_listagg_within_group(diff):
    diff(lambda s: s.sql(
        f"SELECT listagg(s, '|') WITHIN GROUP (ORDER BY s), string_agg(s) WITHIN GROUP (ORDER BY s DESC), "
        f"listagg(s, ', ') WITHIN GROUP (ORDER BY k DESC), listagg(s, ',') WITHIN GROUP (ORDER BY k NULLS LAST), "
        f"listagg(s) WITHIN GROUP (ORDER BY g, s DESC NULLS LAST), listagg(k, '-') WITHIN GROUP (ORDER BY k), "
        f"listagg(s, '/') WITHIN GROUP (ORDER BY length(s), s) FROM ({WORDS})"))
    diff(lambda s: s.sql(
        f"SELECT g, listagg(s, '|') WITHIN GROUP (ORDER BY k), string_agg(s, ';') WITHIN GROUP (ORDER BY s DESC) "
        f"FROM ({WORDS}) GROUP BY g ORDER BY g"))
    # DISTINCT ordered by the value itself (one DISTINCT aggregate a query: Spark fails to plan
    # several of them with WITHIN GROUP).
    diff(lambda s: s.sql(f"SELECT listagg(DISTINCT s, ',') WITHIN GROUP (ORDER BY s DESC) FROM ({WORDS})"))
    diff(lambda s: s.sql(f"SELECT g, string_agg(DISTINCT s) WITHIN GROUP (ORDER BY s) FROM ({WORDS}) GROUP BY g"))
    diff(lambda s: s.sql(
        f"SELECT g, listagg(s, '|') WITHIN GROUP (ORDER BY s) FILTER (WHERE k > 1) FROM ({WORDS}) "
        f"GROUP BY g ORDER BY g"))
    # Empty input, all-null values, binary values and delimiters.
    diff(lambda s: s.sql(f"SELECT listagg(s) WITHIN GROUP (ORDER BY k) FROM ({WORDS}) WHERE k > 100"))
    diff(lambda s: s.sql(f"SELECT g, listagg(s) WITHIN GROUP (ORDER BY k) FROM ({WORDS}) WHERE s IS NULL GROUP BY g"))
    diff(lambda s: s.sql("SELECT listagg(b, X'2C') WITHIN GROUP (ORDER BY b DESC) "
                         "FROM VALUES (X'01'), (X'0302'), (NULL), (X'02') AS t(b)"))


def test_listagg_within_group_many_rows(diff):
    # Batches of many threads: equal keys keep their input order, whatever thread took them. (A
    # DISTINCT aggregate in the same query would make Spark aggregate the rows by value first,
    # which reorders them.)
    many = "(SELECT id % 7 AS g, CAST(id AS STRING) AS v, id % 3 AS k FROM range(0, 60000))"
    diff(lambda s: s.sql(f"SELECT g, md5(listagg(v, ',') WITHIN GROUP (ORDER BY k DESC)) FROM {many} GROUP BY g"))
    diff(lambda s: s.sql(f"SELECT md5(listagg(v) WITHIN GROUP (ORDER BY k, g DESC)) FROM {many}"))
    diff(lambda s: s.sql(f"SELECT g, md5(string_agg(DISTINCT v) WITHIN GROUP (ORDER BY v)) FROM {many} GROUP BY g"))


def test_listagg_within_group_errors(diff_error):
    diff_error(lambda s: s.sql(f"SELECT listagg(DISTINCT s) WITHIN GROUP (ORDER BY k) FROM ({WORDS})"),
               "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT")
    diff_error(lambda s: s.sql(f"SELECT string_agg(DISTINCT s) WITHIN GROUP (ORDER BY s, k) FROM ({WORDS})"),
               "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT")
    diff_error(lambda s: s.sql("SELECT listagg(DISTINCT d) WITHIN GROUP (ORDER BY d) FROM VALUES (1.5D) AS t(d)"),
               "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST")
    diff_error(lambda s: s.sql(f"SELECT listagg(s) WITHIN GROUP (ORDER BY map(s, 1)) FROM ({WORDS})"),
               "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    diff_error(lambda s: s.sql(f"SELECT sum(k) WITHIN GROUP (ORDER BY k) FROM ({WORDS})"),
               "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX")
    diff_error(lambda s: s.sql(f"SELECT listagg(s) WITHIN GROUP (ORDER BY sum(k)) FROM ({WORDS})"),
               "NESTED_AGGREGATE_FUNCTION")


def test_first_last_in_input_order(diff):
    rows = [(i % 5, i, None if i % 7 == 0 else f"v{i}") for i in range(50000)]

    def program(s):
        return s.createDataFrame(rows, "g int, i int, t string").groupBy("g").agg(
            F.first("i"), F.last("i"), F.first("t", True), F.last("t", True), F.first("t"), F.any_value("i"),
            F.expr("first_value(t)"), F.expr("last_value(i)"))
    diff(program)
    diff(lambda s: s.createDataFrame(rows, "g int, i int, t string").select(F.first("i"), F.last("t"),
                                                                           F.last("t", True)))


def test_max_by_min_by_ties_in_input_order(diff):
    rows = [(i % 3, i, i % 4) for i in range(30000)]
    diff(lambda s: s.createDataFrame(rows, "g int, v int, k int").groupBy("g").agg(
        F.max_by("v", "k"), F.min_by("v", "k")))
    diff(lambda s: s.sql("SELECT max_by(x, k), min_by(x, k) FROM VALUES (1, 5), (2, 5), (3, 5), (4, 1), (5, 1) "
                         "AS t(x, k)"))


# Four rows in two range partitions, [0, 1] and [2, 3], as Spark splits them.
def _longs(values):
    cases = " ".join(f"WHEN {i} THEN CAST({v} AS BIGINT)" for i, v in enumerate(values))
    return f"(SELECT id % 2 AS g, CASE id {cases} END AS l FROM range(0, 4, 1, 2))"


@pytest.mark.parametrize("ansi", ["false", "true"])
def test_try_sum_per_partition(ember, oracle, diff, ansi):
    max_long = 9223372036854775807
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        # The first partition's running sum overflows and is lost; the second's does not.
        diff(lambda s: s.sql(f"SELECT try_sum(l) FROM {_longs([max_long, 1, -1, 0])}"))
        # Each partition's partial sum fits: the total comes back into range.
        diff(lambda s: s.sql(f"SELECT try_sum(l) FROM {_longs([max_long, 0, 1, -2])}"))
        # Partial sums that fit and overflow together.
        diff(lambda s: s.sql(f"SELECT try_sum(l) FROM {_longs([max_long, 0, max_long, 0])}"))
        diff(lambda s: s.sql(f"SELECT g, try_sum(l) FROM {_longs([max_long, 5, 1, -6])} GROUP BY g ORDER BY g"))
        diff(lambda s: s.sql(f"SELECT g, try_sum(l) FROM {_longs([max_long, max_long, 1, -6])} GROUP BY g ORDER BY g"))


DECIMALS = ("SELECT * FROM VALUES (1, CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18))), "
            "(1, CAST(1 AS DECIMAL(38,18))), (1, CAST(-1 AS DECIMAL(38,18))), "
            "(2, CAST('12345.678' AS DECIMAL(38,18))), (2, CAST('-0.000000000000000001' AS DECIMAL(38,18))), "
            "(2, CAST(1.5 AS DECIMAL(38,18))), (3, CAST(7 AS DECIMAL(38,18))), (3, NULL) AS t(g, m)")


def test_decimal_average_digits(diff):
    diff(lambda s: s.sql(f"SELECT g, avg(m), try_avg(m), mean(m), regr_avgy(m, g) FROM ({DECIMALS}) "
                         f"WHERE g > 1 GROUP BY g ORDER BY g"))
    diff(lambda s: s.sql("SELECT avg(x), avg(y), avg(z) FROM VALUES (CAST(1 AS DECIMAL(10,2)), CAST(-2 AS DECIMAL(5,0)), "
                         "CAST('0.000000000000000000000000000000000001' AS DECIMAL(38,36))), "
                         "(CAST(1 AS DECIMAL(10,2)), CAST(-1 AS DECIMAL(5,0)), NULL), "
                         "(CAST(0 AS DECIMAL(10,2)), CAST(-2 AS DECIMAL(5,0)), "
                         "CAST('0.000000000000000000000000000000000002' AS DECIMAL(38,36))) AS t(x, y, z)"))


@pytest.mark.parametrize("ansi", ["false", "true"])
def test_decimal_sum_overflow(ember, oracle, diff, diff_error, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        # Grouped: the sum of group 1 leaves DECIMAL(38, 18) at its second row and is lost, though
        # the third brings it back.
        grouped = f"SELECT g, sum(m), avg(m) FROM ({DECIMALS}) GROUP BY g ORDER BY g"
        # Without keys the running sum is exact: it comes back, and the average does not fit.
        if ansi == "true":
            diff_error(lambda s: s.sql(grouped), "ARITHMETIC_OVERFLOW")
            diff_error(lambda s: s.sql(f"SELECT avg(m) FROM ({DECIMALS}) WHERE g = 1"),
                       "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
        else:
            diff(lambda s: s.sql(grouped))
            diff(lambda s: s.sql(f"SELECT avg(m) FROM ({DECIMALS}) WHERE g = 1"))
        diff(lambda s: s.sql(f"SELECT sum(m) FROM ({DECIMALS}) WHERE g = 1"))
        diff(lambda s: s.sql(f"SELECT g, try_sum(m), try_avg(m) FROM ({DECIMALS}) GROUP BY g ORDER BY g"))
        diff(lambda s: s.sql(f"SELECT try_sum(m), try_avg(m) FROM ({DECIMALS}) WHERE g = 1"))


def test_mode_ties_in_spark_hash_order(diff):
    # Equally frequent values: Spark's map of counts iterates the least hash slot first (-0.0
    # counts as 0.0); with `deterministic` the least value wins.
    doubles = "(CAST('NaN' AS DOUBLE)), (CAST('Infinity' AS DOUBLE)), (CAST('-Infinity' AS DOUBLE)), (CAST('-0.0' AS DOUBLE))"
    diff(lambda s: s.sql(f"SELECT mode(d), CAST(mode(d) AS STRING) FROM VALUES {doubles}, (CAST('0.0' AS DOUBLE)) AS t(d)"))
    diff(lambda s: s.sql(f"SELECT mode(d), mode(d, true) FROM VALUES {doubles} AS t(d)"))
    diff(lambda s: s.sql("SELECT mode(s), mode(s, true) FROM VALUES ('b'), ('a'), ('a'), ('b'), ('c'), ('c'), ('日本'), "
                         "('日本') AS t(s)"))
    diff(lambda s: s.sql("SELECT mode(i), mode(i, true), mode(CAST(i AS BIGINT)), mode(CAST(i % 1000 AS SMALLINT)), "
                         "mode(i > 2), mode(DATE'2024-01-01' + i) FROM VALUES (10), (2147483647), (1), (3), (3), (1), "
                         "(2147483647), (10), (NULL) AS t(i)"))
    # Forty values in one partition: their slots collide, and the map keeps them in input order.
    diff(lambda s: s.sql("SELECT id % 3 AS g, mode(id % 40), mode(CAST(id % 40 AS STRING)) "
                         "FROM range(0, 240, 1, 1) GROUP BY 1"))
    diff(lambda s: s.sql("SELECT mode(id % 40), mode(id % 50 + 0.5D) FROM range(0, 300, 1, 1)"))


def test_listagg_within_group_over_window(diff):
    diff(lambda s: s.sql(f"SELECT s, k, g, listagg(s, ',') WITHIN GROUP (ORDER BY s DESC) OVER (PARTITION BY g) "
                         f"FROM ({WORDS})"))
