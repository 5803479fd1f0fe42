"""Aggregate and window functions against Apache Spark: empty input, one row, nulls, NaN,
±Infinity, ±0.0, integral and decimal overflow, frames and IGNORE NULLS, with ANSI mode on and off."""

from __future__ import annotations

import pytest

from harness import error_condition, session_conf

QUERIES = [
    'SELECT count(*), count(x), count(DISTINCT x), sum(x), avg(x), min(x), max(x), min_by(x, y), max_by(x, y), first(x), last(x), first(x, true), any_value(x) FROM VALUES (1, 2) t(x, y) WHERE x > 5',
    'SELECT stddev(x), stddev_samp(x), stddev_pop(x), variance(x), var_samp(x), var_pop(x), skewness(x), kurtosis(x), corr(x, y), covar_samp(x, y), covar_pop(x, y) FROM VALUES (1D, 2D) t(x, y) WHERE x > 5',
    'SELECT percentile(x, 0.5), percentile_approx(x, 0.5), approx_percentile(x, array(0.1, 0.9)), median(x), mode(x), approx_count_distinct(x), collect_list(x), sort_array(collect_set(x)), count_if(x > 0), bool_and(x > 0), bool_or(x > 0), every(x > 0), some(x > 0), bit_and(x), bit_or(x), bit_xor(x) FROM VALUES (1) t(x) WHERE x > 5',
    'SELECT regr_count(y, x), regr_avgx(y, x), regr_avgy(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), regr_sxx(y, x), regr_sxy(y, x), regr_syy(y, x), sum(DISTINCT x) FROM VALUES (1D, 2D) t(x, y) WHERE x > 5',
    'SELECT stddev(x), variance(x), skewness(x), kurtosis(x), corr(x, y), covar_samp(x, y) FROM VALUES (1D, 2D) t(x, y)',
    "SELECT sum(x), avg(x), min(x), max(x), stddev(x), variance(x), skewness(x), kurtosis(x), percentile(x, 0.5), median(x), mode(x), sort_array(collect_set(x)), approx_count_distinct(x) FROM VALUES (CAST('NaN' AS DOUBLE)), (1D), (CAST('Infinity' AS DOUBLE)), (-0.0D), (0.0D), (NULL) t(x)",
    'SELECT sum(x), avg(x), sum(DISTINCT x), try_sum(x), try_avg(x) FROM VALUES (9223372036854775807L), (1L) t(x)',
    'SELECT sum(x), avg(x) FROM VALUES (2147483647), (1) t(x)',
    'SELECT avg(x), sum(x), stddev(x) FROM VALUES (CAST(1.5 AS DECIMAL(10,2))), (CAST(2.25 AS DECIMAL(10,2))), (NULL) t(x)',
    'SELECT k, count(*), sum(x), first(x), last(x, true), min_by(x, y), max_by(x, y), bit_xor(x), collect_list(x) FROM VALUES (1, NULL, 1), (1, 3, NULL), (2, NULL, NULL), (2, 5, 2) t(k, x, y) GROUP BY k',
    'SELECT mode(x), mode(x, true), mode(x, false) FROM VALUES (1), (2), (2), (1), (NULL), (NULL), (NULL) t(x)',
    'SELECT percentile(x, array(0, 0.25, 1)), percentile_approx(x, array(0.5, 0.99), 100), median(x) FROM VALUES (1), (2), (3), (4), (NULL) t(x)',
    'SELECT approx_count_distinct(x, 0.01), approx_count_distinct(x, 0.3) FROM range(0, 20000) t(x)',
    'SELECT grouping(k), grouping_id(k, j), sum(x) FROM VALUES (1, 1, 2), (1, 2, 3), (NULL, 1, 4) t(k, j, x) GROUP BY CUBE(k, j)',
    'SELECT x, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w, ntile(3) OVER w, lag(x) OVER w, lag(x, 2, -1) OVER w, lead(x, 1, 99) OVER w, nth_value(x, 2) OVER w, nth_value(x, 2, true) OVER w, first_value(x) OVER w, last_value(x) OVER w, first_value(x, true) OVER w FROM VALUES (NULL), (1), (1), (2), (NULL), (3) t(x) WINDOW w AS (ORDER BY x NULLS FIRST)',
    'SELECT x, lag(x) IGNORE NULLS OVER w, lead(x) IGNORE NULLS OVER w, last_value(x) IGNORE NULLS OVER w AS lv, nth_value(x, 2) IGNORE NULLS OVER w FROM VALUES (1, 1), (2, NULL), (3, 3), (4, NULL), (5, 5) t(o, x) WINDOW w AS (ORDER BY o)',
    'SELECT o, sum(x) OVER w, avg(x) OVER w, count(x) OVER w, min(x) OVER w, max(x) OVER w, stddev(x) OVER w, collect_list(x) OVER w, bool_and(x > 1) OVER w, min_by(o, x) OVER w, percentile(x, 0.5) OVER w, count_if(x > 2) OVER w FROM VALUES (1, 1), (2, NULL), (3, 3), (4, NULL), (5, 5) t(o, x) WINDOW w AS (ORDER BY o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
    'SELECT o, sum(x) OVER w, count(*) OVER w, first(x) OVER w, last(x, true) OVER w, variance(x) OVER w FROM VALUES (1, 1), (1, NULL), (3, 3), (4, NULL), (5, 5) t(o, x) WINDOW w AS (ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW)',
    'SELECT o, sum(x) OVER (ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), ntile(10) OVER (ORDER BY o), sum(x) OVER (PARTITION BY o) FROM VALUES (1, 2147483647), (2, 1) t(o, x)',
    'SELECT ntile(0) OVER (ORDER BY x) FROM VALUES (1) t(x)',
    'SELECT percentile(x, 1.5) FROM VALUES (1) t(x)',
    "SELECT max_by(x, y), min_by(x, y) FROM VALUES (1, CAST('NaN' AS DOUBLE)), (2, 1D), (3, NULL) t(x, y)",
    'SELECT kurtosis(x), skewness(x) FROM VALUES (1D), (1D), (1D) t(x)',
    'SELECT var_samp(x), stddev_samp(x), covar_samp(x, x), corr(x, x) FROM VALUES (5D) t(x)',
]


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_aggregates_and_windows(ansi, diff, diff_error, ember, oracle):
    # Each query either succeeds on Spark, and must give the same rows on Ember, or fails, and
    # must fail on Ember with the same error class.
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        for q in QUERIES:
            try:
                oracle.sql(q).collect()
            except Exception as e:  # noqa: BLE001 - the error is the expected result
                diff_error(lambda s: s.sql(q), error_condition(e))
            else:
                diff(lambda s: s.sql(q))


def test_collect_set_keeps_one_zero(diff):
    # Spark normalizes -0.0 to 0.0 (and every NaN to one NaN) before collect_set compares values.
    diff(lambda s: s.sql(
        "SELECT k, sort_array(collect_set(x)), sort_array(collect_set(CAST(x AS FLOAT))), size(collect_set(x)) "
        "FROM VALUES (1, -0.0D), (1, 0.0D), (1, CAST('NaN' AS DOUBLE)), (1, -CAST('NaN' AS DOUBLE)), (2, -0.0D), "
        "(2, NULL), (3, 1.5D) t(k, x) GROUP BY k"))


def test_decimal_sum_and_avg_overflow_without_ansi(diff, ember, oracle):
    # Under ANSI, Spark's error class for this overflow depends on where its partitions split
    # the rows (in an update or in a merge); without ANSI the sum is NULL either way.
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql(
            "SELECT sum(x), try_sum(x), avg(x), try_avg(x), min(x), max(x) FROM VALUES "
            "(CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0))), (CAST(1 AS DECIMAL(38,0))) t(x)"))
