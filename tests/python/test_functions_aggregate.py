"""Differential tests of aggregate functions — Ember against Apache Spark: first/last/any_value
(with and without ignoring nulls), count_if, bool_and/bool_or, max_by/min_by, mode, bit_and/or/xor,
corr/covar and the regr_* family, skewness/kurtosis; grouped, global, over empty input and
all-null groups, in SQL, as window aggregates, and over inputs large enough that per-thread
partial states merge."""

from __future__ import annotations

import pytest
from pyspark.sql import Window
from pyspark.sql import functions as F

from harness import session_conf

# One row per key "s" (single-row group), "n" (all-null group), several rows for "a" and "b".
ROWS = [("a", 1, 2.0, True, "x", 10), ("a", 3, 1.0, False, "y", 7), ("a", None, 5.0, None, None, None),
        ("a", 7, 0.5, True, "z", 12), ("b", -2, 4.0, True, "p", 3), ("b", 5, None, True, "q", 6),
        ("b", 4, -1.5, True, "r", 1), ("s", 9, 3.0, False, "only", 2), ("n", None, None, None, None, None)]
SCHEMA = "k string, v int, x double, b boolean, t string, w int"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def one_per_key(s):
    """Deterministic input for order-dependent functions: one row per group."""
    return data(s).dropDuplicates(["k"]).filter(F.col("k").isin("s", "n"))


def test_first_last_single_row_groups(diff):
    diff(lambda s: one_per_key(s).groupBy("k").agg(
        F.first("v"), F.last("t"), F.first("x", True), F.last("b", ignorenulls=True),
        F.first_value(F.col("v")), F.last_value(F.col("t")), F.any_value("v"), F.any_value("t", True)))


def test_first_last_ignore_nulls_over_window(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("w").rowsBetween(Window.unboundedPreceding, Window.unboundedFollowing)
        return data(s).select("k", "w", F.first("v", True).over(w).alias("f"), F.last("t", True).over(w).alias("l"),
                              F.any_value("v").over(Window.partitionBy("k", "w")).alias("a"))
    diff(program)


def test_first_last_sql(diff):
    def program(s):
        one_per_key(s).createOrReplaceTempView("agg_first_t")
        return s.sql("SELECT k, first(v) IGNORE NULLS, last(t) RESPECT NULLS, first_value(x), "
                     "last_value(b, true), any_value(v) FROM agg_first_t GROUP BY k")
    diff(program)


def test_first_ignore_nulls_global(diff):
    # Only one non-null value: ignoring nulls makes the result independent of row order.
    def program(s):
        df = s.range(0, 200000).select(F.when(F.col("id") == 123456, F.col("id")).alias("v"))
        return df.agg(F.first("v", True), F.last("v", True), F.any_value("v", True), F.count("v"))
    diff(program)


def test_boolean_and_count_if(diff):
    diff(lambda s: data(s).groupBy("k").agg(
        F.count_if(F.col("v") > 2), F.bool_and("b"), F.every("b"), F.bool_or("b"), F.some("b"),
        F.bool_or(F.col("v") > 8)))


def test_boolean_sql_aliases(diff):
    def program(s):
        data(s).createOrReplaceTempView("agg_bool_t")
        return s.sql("SELECT k, count_if(b), any(b), some(v > 3), every(v IS NOT NULL), bool_and(b) "
                     "FROM agg_bool_t GROUP BY k")
    diff(program)


def test_max_by_min_by(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.max_by("t", "w"), F.min_by("t", "w"), F.max_by("v", "x"),
                                            F.min_by("x", "t"), F.max_by("b", "v")))


def test_mode(diff):
    def program(s):
        rows = [("a", 1), ("a", 2), ("a", 2), ("a", None), ("b", 5), ("c", None), ("d", 7), ("d", 7), ("d", 3)]
        return s.createDataFrame(rows, "k string, v int").groupBy("k").agg(F.mode("v"), F.mode(F.col("k")))
    diff(program)


def test_mode_deterministic_ties(diff):
    def program(s):
        rows = [("a", 3.5), ("a", 1.5), ("a", 3.5), ("a", 1.5), ("b", 2.0)]
        return s.createDataFrame(rows, "k string, v double").groupBy("k").agg(F.mode("v", True))
    diff(program)


def test_bitwise_aggregates(diff):
    def program(s):
        df = data(s).select("k", "v", F.col("w").cast("byte").alias("wb"), F.col("v").cast("long").alias("vl"))
        return df.groupBy("k").agg(F.bit_and("v"), F.bit_or("v"), F.bit_xor("v"), F.bit_and("wb"),
                                   F.bit_xor("vl"), F.bit_or("vl"))
    diff(program)


def test_many_rows_merge_partial_states(diff):
    def program(s):
        df = s.range(0, 200000).select((F.col("id") % 7).alias("g"), F.col("id"),
                                       (F.col("id") % 1000).alias("m"))
        return df.groupBy("g").agg(
            F.count_if(F.col("m") < 10), F.bool_and(F.col("m") < 999), F.bool_or(F.col("m") == 999),
            F.max_by("m", "id"), F.min_by("m", "id"), F.bit_or("m"), F.bit_xor("id"), F.bit_and("id"),
            F.mode(F.col("id") % 3 + F.when(F.col("id") % 11 == 0, 10).otherwise(0)))
    diff(program)


def test_empty_input(diff):
    def program(s):
        df = data(s).filter(F.col("v") > 100)
        return df.agg(F.first("v"), F.last("t"), F.any_value("v"), F.count_if(F.col("b")), F.bool_and("b"),
                      F.bool_or("b"), F.max_by("v", "w"), F.min_by("v", "w"), F.mode("v"), F.bit_and("v"),
                      F.corr("v", "x"), F.covar_pop("v", "x"), F.covar_samp("v", "x"), F.regr_count("v", "x"),
                      F.regr_avgx("v", "x"), F.regr_slope("v", "x"), F.regr_r2("v", "x"), F.skewness("x"),
                      F.kurtosis("x"))
    diff(program)


def test_correlation_and_covariance(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.corr("v", "x"), F.covar_pop("v", "x"), F.covar_samp("v", "x"),
                                            F.corr("x", "w"), F.covar_samp("w", "v")))


def test_regression_family(diff):
    diff(lambda s: data(s).groupBy("k").agg(
        F.regr_count("v", "x"), F.regr_avgx("v", "x"), F.regr_avgy("v", "x"), F.regr_slope("v", "x"),
        F.regr_intercept("v", "x"), F.regr_r2("v", "x"), F.regr_sxx("v", "x"), F.regr_syy("v", "x"),
        F.regr_sxy("v", "x")))


def test_regression_degenerate_inputs(diff):
    # Constant x (no slope, no r2), constant y (r2 = 1), a single pair, NaN.
    def program(s):
        rows = [("cx", 1.0, 2.0), ("cx", 3.0, 2.0), ("cy", 4.0, 1.0), ("cy", 4.0, 5.0), ("one", 1.0, 1.0),
                ("nan", float("nan"), 1.0), ("nan", 2.0, 3.0)]
        df = s.createDataFrame(rows, "k string, y double, x double")
        return df.groupBy("k").agg(F.regr_slope("y", "x"), F.regr_intercept("y", "x"), F.regr_r2("y", "x"),
                                   F.corr("y", "x"), F.covar_samp("y", "x"), F.covar_pop("y", "x"),
                                   F.regr_sxy("y", "x"))
    diff(program)


def test_regression_decimal_and_integer_inputs(diff):
    def program(s):
        df = data(s).select("k", F.col("v"), (F.col("x") * 2).cast("decimal(10,2)").alias("d"),
                            F.col("w").cast("long").alias("l"))
        return df.groupBy("k").agg(F.regr_avgx("v", "d"), F.regr_avgy("d", "v"), F.regr_avgx("d", "l"),
                                   F.corr("d", "l"), F.regr_slope("d", "v"))
    diff(program)


def test_statistics_many_rows(diff):
    def program(s):
        df = s.range(0, 200000).select((F.col("id") % 5).alias("g"), (F.col("id") * 0.5).alias("x"),
                                       ((F.col("id") * 7919) % 1009).alias("y"))
        return df.groupBy("g").agg(F.corr("x", "y"), F.covar_pop("x", "y"), F.covar_samp("y", "x"),
                                   F.regr_slope("y", "x"), F.regr_intercept("y", "x"), F.regr_r2("y", "x"),
                                   F.regr_sxx("y", "x"), F.regr_syy("y", "x"), F.regr_sxy("y", "x"),
                                   F.regr_avgx("y", "x"), F.skewness("y"), F.kurtosis("y"))
    diff(program, approx=1e-6)


def test_skewness_kurtosis(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.skewness("x"), F.kurtosis("x"), F.skewness("v"), F.kurtosis("w")))


def test_statistics_sql_and_window(diff):
    def program(s):
        data(s).createOrReplaceTempView("agg_stat_t")
        return s.sql("SELECT k, v, corr(v, x) OVER (PARTITION BY k), regr_slope(v, x) OVER (PARTITION BY k), "
                     "count_if(b) OVER (PARTITION BY k ORDER BY w), bit_or(v) OVER (PARTITION BY k ORDER BY w "
                     "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), max_by(t, w) OVER (PARTITION BY k) "
                     "FROM agg_stat_t")
    diff(program)


@pytest.mark.parametrize("call", ["bool_and(v)", "count_if(x)", "bit_and(x)", "corr(b, x)", "regr_slope(v, b)"])
def test_bad_input_types(diff_error, call):
    def program(s):
        data(s).createOrReplaceTempView("agg_bad_t")
        return s.sql(f"SELECT {call} FROM agg_bad_t")
    diff_error(program, "DATATYPE_MISMATCH")


def test_percentile_and_median(diff):
    def program(s):
        rows = [("a", 1.5, 2), ("a", None, 1), ("a", 3.0, 0), ("a", -7.25, 5), ("a", 2.0, 1), ("b", 4.0, 1),
                ("n", None, 3)]
        df = s.createDataFrame(rows, "k string, v double, f int")
        return df.groupBy("k").agg(F.percentile("v", 0.3), F.median("v"), F.percentile("v", 0.25, F.col("f")),
                                   F.percentile("v", 1.0), F.percentile(F.col("v").cast("decimal(5,2)"), 0.75),
                                   F.percentile("f", 0.5))
    diff(program)


def test_percentile_many_rows_and_sql(diff):
    def program(s):
        s.range(0, 200000).select((F.col("id") % 4).alias("g"), ((F.col("id") * 7919) % 10007).alias("v")) \
            .createOrReplaceTempView("agg_pct_t")
        return s.sql("SELECT g, percentile(v, 0.1), median(v), percentile(v, 0.999, 2) FROM agg_pct_t GROUP BY g")
    diff(program)


def test_percentile_ranks_among_ties_nan_and_signed_zeros(diff):
    # Duplicates, NaN (greatest), -0.0 and 0.0 as one value, negatives; a few percentages and
    # many (arrays), both directions of the ordered-set forms, and a window over the whole
    # partition, which reads the same state once per row.
    def view(s):
        s.range(0, 3000).selectExpr(
            "id % 3 AS g", "id",
            "CASE WHEN id % 29 = 0 THEN CAST('NaN' AS DOUBLE) WHEN id % 31 = 0 THEN -0.0 "
            "WHEN id % 37 = 0 THEN 0.0 WHEN id % 41 = 0 THEN NULL "
            "ELSE CAST((id * 7919) % 211 - 105 AS DOUBLE) / 4 END AS v").createOrReplaceTempView("agg_pct_ties")

    def program(s):
        view(s)
        return s.sql(
            "SELECT g, median(v) AS m, percentile(v, array(0.0, 0.5, 0.99)) AS few, "
            "percentile_cont(0.37) WITHIN GROUP (ORDER BY v DESC) AS cont_desc, "
            "percentile_disc(0.37) WITHIN GROUP (ORDER BY v DESC) AS disc_desc, "
            "percentile_disc(0.62) WITHIN GROUP (ORDER BY v) AS disc "
            "FROM agg_pct_ties GROUP BY g")
    diff(program)
    diff(lambda s: view(s) or s.sql("SELECT g, percentile(v, array(0.05, 0.1, 0.2, 0.3, 0.45, 0.7, 0.95, 1.0)) "
                                    "AS many FROM agg_pct_ties GROUP BY g"))
    diff(lambda s: view(s) or s.sql("SELECT g, id, median(v) OVER (PARTITION BY g) AS whole "
                                    "FROM agg_pct_ties WHERE id < 600"))


def test_percentile_empty_and_window(diff):
    diff(lambda s: data(s).filter("v > 100").agg(F.median("v"), F.percentile("x", 0.5)))
    diff(lambda s: data(s).select("k", "v", F.median("x").over(Window.partitionBy("k")).alias("m")))


def test_percentile_errors(diff_error):
    diff_error(lambda s: data(s).agg(F.percentile("v", 1.5)), "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: data(s).agg(F.percentile("v", 0.5, F.lit(-1))), "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION")
    diff_error(lambda s: data(s).agg(F.median("b")), "DATATYPE_MISMATCH")
    diff_error(lambda s: data(s).agg(F.percentile("v", F.lit(None).cast("double"))), "DATATYPE_MISMATCH.UNEXPECTED_NULL")
    diff_error(lambda s: data(s).agg(F.percentile_approx("v", F.lit(None).cast("double"))),
               "DATATYPE_MISMATCH.UNEXPECTED_NULL")


def test_percentile_approx_small_groups_are_exact(diff):
    def program(s):
        df = s.range(0, 3000).select((F.col("id") % 3).alias("g"), (F.col("id") % 997).alias("v"),
                                     (F.col("id") % 13).cast("decimal(5,2)").alias("d"),
                                     (F.col("id") * 0.25).alias("x"), F.col("id").cast("int").alias("i"),
                                     F.date_add(F.lit("2020-01-01").cast("date"), F.col("id").cast("int")).alias("dt"))
        return df.groupBy("g").agg(F.percentile_approx("v", 0.5), F.percentile_approx("d", 0.3),
                                   F.percentile_approx("x", 0.99, 100), F.percentile_approx("i", 0.0),
                                   F.percentile_approx("i", 1.0), F.percentile_approx("dt", 0.25),
                                   F.percentile_approx(F.col("x").cast("float"), 0.7))
    diff(program)


def test_percentile_approx_sql_nulls_and_empty(diff):
    def program(s):
        data(s).createOrReplaceTempView("agg_approx_t")
        return s.sql("SELECT k, percentile_approx(v, 0.5), approx_percentile(x, 0.25, 100), "
                     "percentile_approx(w, 0.9) FROM agg_approx_t GROUP BY k")
    diff(program)
    diff(lambda s: data(s).filter("v > 100").agg(F.percentile_approx("v", 0.5)))


def test_percentile_approx_bad_accuracy(diff_error):
    diff_error(lambda s: s.sql("SELECT percentile_approx(v, 0.5, 0) FROM VALUES (1) t(v)"),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT percentile_approx(v, 1.5) FROM VALUES (1) t(v)"),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")


def test_percentile_cont_disc_within_group(diff):
    def program(s):
        s.createDataFrame([("a", 1), ("a", 3), ("a", 7), ("a", 10), ("a", None), ("b", 4), ("n", None)],
                          "k string, v int").createOrReplaceTempView("agg_within_t")
        return s.sql("SELECT k, percentile_cont(0.1) WITHIN GROUP (ORDER BY v), "
                     "percentile_cont(0.1) WITHIN GROUP (ORDER BY v DESC), "
                     "percentile_disc(0.0) WITHIN GROUP (ORDER BY v), percentile_disc(0.25) WITHIN GROUP (ORDER BY v), "
                     "percentile_disc(0.6) WITHIN GROUP (ORDER BY v ASC), "
                     "percentile_disc(0.75) WITHIN GROUP (ORDER BY v DESC), "
                     "percentile_disc(1.0) WITHIN GROUP (ORDER BY v) FROM agg_within_t GROUP BY k")
    diff(program)


def test_select_of_aggregates_is_a_global_aggregate(diff):
    diff(lambda s: data(s).select(F.count_if(F.col("v") > 2), F.sum("v").alias("total"), F.regr_count("v", "x"),
                                  (F.max("w") - F.min("w")).alias("range")))
    diff(lambda s: data(s).filter("v > 100").select(F.bool_and("b"), F.count("v")))


def test_select_mixing_aggregate_and_column_fails(diff_error):
    diff_error(lambda s: data(s).select("k", F.sum("v")), "MISSING_GROUP_BY")


def stats_of(col):
    return [F.std(col), F.stddev(col), F.stddev_pop(col), F.stddev_samp(col), F.variance(col), F.var_pop(col),
            F.var_samp(col), F.mean(col), F.avg(col)]


def test_stddev_variance_family(diff):
    # Groups of one row (sample statistics are NULL there, population ones 0), all-null groups.
    diff(lambda s: data(s).groupBy("k").agg(*stats_of("x"), *stats_of("v"), *stats_of("w")), approx=1e-12)
    diff(lambda s: data(s).where("false").agg(*stats_of("x")))
    diff(lambda s: s.sql("SELECT std(x), stddev(x), stddev_pop(x), stddev_samp(x), variance(x), var_pop(x), "
                         "var_samp(x), mean(x) FROM VALUES (1.0D), (2.0D), (4.0D), (NULL) AS t(x)"), approx=1e-12)


def test_stddev_variance_edge_values(diff):
    rows = [("nan", 1.0), ("nan", float("nan")), ("inf", float("inf")), ("inf", 1.0), ("big", 1e308), ("big", -1e308),
            ("big", 1e308), ("zero", 0.0), ("zero", -0.0), ("same", 3.3), ("same", 3.3), ("same", 3.3),
            ("tiny", 4.9e-324), ("tiny", 0.0)]
    diff(lambda s: s.createDataFrame(rows, "k string, x double").groupBy("k").agg(*stats_of("x")), approx=1e-12)


def test_stddev_variance_of_decimals_and_strings(diff):
    diff(lambda s: s.sql("SELECT stddev(d), var_pop(d), mean(d), avg(d), variance(CAST(d AS STRING)) FROM VALUES "
                         "(1.10BD), (2.20BD), (99999999999999999999999999999999.99BD) AS t(d)"), approx=1e-12)


def test_stddev_variance_many_rows(diff):
    # Partial states merge across threads: Spark's parallel moment formulas.
    diff(lambda s: s.range(0, 300000).select((F.col("id") % 7).alias("g"), (F.col("id") * 0.001).alias("x"))
         .groupBy("g").agg(*stats_of("x")), approx=1e-9)


def test_stddev_legacy_statistical_aggregate(diff, ember, oracle):
    # The legacy setting gives NaN instead of NULL for a sample statistic of one row.
    with session_conf(ember, oracle, spark_sql_legacy_statisticalAggregate="true"):
        diff(lambda s: data(s).groupBy("k").agg(F.stddev_samp("x"), F.var_samp("x"), F.std("v"), F.variance("w")))
