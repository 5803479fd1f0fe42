"""DataFrame.stat: cov, corr, crosstab, approxQuantile and sampleBy (Spark Connect's StatCov,
StatCorr, StatCrosstab, StatApproxQuantile and StatSampleBy relations), their results and their
errors. Scalar results come back as one-row DataFrames so both engines' values compare."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from pyspark.sql import functions as F

from harness import run_for_error, session_mode


def numbers(s):
    return s.createDataFrame(
        [(i, math.sqrt(i), 2.0 * i if i % 4 else None, str(i % 3)) for i in range(10)],
        "a long, b double, c double, s string")


def scalar(s, value):
    return s.createDataFrame([(value,)], "v double")


def same_requirement_failure(differ, program, text):
    """Both engines fail `program` with an IllegalArgumentException (Spark's `require`, which has
    no error class) whose message holds `text`."""
    with session_mode(differ.oracle):
        expected = run_for_error("spark", program, differ.oracle)
    with session_mode(differ.ember):
        actual = run_for_error("ember", program, differ.ember)
    assert type(expected).__name__ == "IllegalArgumentException", repr(expected)
    assert type(actual).__name__ == "IllegalArgumentException", repr(actual)
    assert text in str(expected), str(expected)
    assert text in str(actual), str(actual)


# --- cov and corr ------------------------------------------------------------------------------

def test_cov(diff):
    diff(lambda s: scalar(s, numbers(s).stat.cov("a", "b")))
    # Nulls count as zeros, as Spark's covariance replaces them.
    diff(lambda s: scalar(s, numbers(s).cov("a", "c")))
    diff(lambda s: scalar(s, numbers(s).filter("a < 0").cov("a", "b")))
    diff(lambda s: scalar(s, numbers(s).filter("a = 3").cov("a", "b")))


def test_corr(diff):
    diff(lambda s: scalar(s, numbers(s).stat.corr("a", "b")))
    diff(lambda s: scalar(s, numbers(s).corr("a", "c", "pearson")))
    # No rows, or one: NaN.
    diff(lambda s: scalar(s, numbers(s).filter("a < 0").corr("a", "b")))
    diff(lambda s: scalar(s, numbers(s).filter("a = 3").corr("a", "b")))


def test_cov_corr_of_narrow_and_decimal_columns(diff):
    def table(s):
        return s.createDataFrame(
            [(1, Decimal("2.5"), 3), (2, Decimal("3.5"), 1), (4, Decimal("1.25"), 9)],
            "x int, y decimal(10,2), z smallint")
    diff(lambda s: scalar(s, table(s).cov("x", "y")))
    diff(lambda s: scalar(s, table(s).corr("y", "z")))


def test_cov_corr_errors(differ, diff_error):
    same_requirement_failure(
        differ, lambda s: scalar(s, numbers(s).cov("a", "s")),
        "requirement failed: Currently covariance calculation for columns with dataType string "
        "not supported.")
    same_requirement_failure(
        differ, lambda s: scalar(s, numbers(s).corr("s", "a")),
        "requirement failed: Currently correlation calculation for columns with dataType string "
        "not supported.")
    diff_error(lambda s: scalar(s, numbers(s).corr("a", "missing")), "UNRESOLVED_COLUMN")


# --- crosstab ----------------------------------------------------------------------------------

def test_crosstab(diff):
    diff(lambda s: numbers(s).crosstab("a", "s"))
    diff(lambda s: numbers(s).stat.crosstab("s", "c"))
    diff(lambda s: s.createDataFrame([(i % 3, i % 2) for i in range(1, 7)], "a long, b long")
         .crosstab("a", "b"))


def test_crosstab_of_nulls_and_backquotes(diff):
    def table(s):
        return s.createDataFrame([("x", "p`q"), (None, "r"), ("x", None), ("y", "r")],
                                 "k string, v string")
    diff(lambda s: table(s).crosstab("k", "v"))


# --- approxQuantile ----------------------------------------------------------------------------

def quantile_table(s, parts):
    return s.range(0, 40, 1, parts).select(
        "id", (F.col("id") * 7 % 11).cast("double").alias("b"),
        F.when(F.col("id") % 4 == 0, None).otherwise(F.col("id") * 2.5).alias("c"))


@pytest.mark.parametrize("parts", [1, 3])
def test_approx_quantile(diff, parts):
    # Large inputs, whose answers depend on the partitions: test_percentile_approx_partitions.py.
    def quantiles(s, cols, probabilities, error):
        q = quantile_table(s, parts).approxQuantile(cols, probabilities, error)
        return s.createDataFrame([(q,)], "q array<array<double>>" if isinstance(cols, list)
                                 else "q array<double>")
    diff(lambda s: quantiles(s, "id", [0.1, 0.5, 0.9], 0.1))
    diff(lambda s: quantiles(s, ["id", "b", "c"], [0.0, 0.25, 1.0], 0.0))
    diff(lambda s: quantiles(s, ["c"], [0.3, 0.5], 0.05))


def test_approx_quantile_ignores_nulls_and_nan(diff):
    def program(s):
        df = s.range(0, 5, 1, 1).select(
            F.element_at(F.array(F.lit(1.0), F.lit(float("nan")), F.lit(None), F.lit(3.0), F.lit(2.0)),
                         (F.col("id") + 1).cast("int")).alias("x"))
        return s.createDataFrame([(df.approxQuantile("x", [0.0, 0.5, 1.0], 0.0),)],
                                 "q array<double>")
    diff(program)

    def only_nulls(s):
        df = s.range(0, 2, 1, 1).select(
            F.when(F.col("id") == 0, F.lit(float("nan"))).alias("x"))
        return s.createDataFrame([(df.approxQuantile(["x"], [0.5], 0.1),)],
                                 "q array<array<double>>")
    diff(only_nulls)


def test_approx_quantile_errors(differ, diff_error):
    same_requirement_failure(
        differ, lambda s: numbers(s).approxQuantile("s", [0.5], 0.1),
        "requirement failed: Quantile calculation for column s with data type StringType is not "
        "supported.")
    diff_error(lambda s: s.createDataFrame([(numbers(s).approxQuantile("z", [0.5], 0.1),)], "q string"),
               "UNRESOLVED_COLUMN")


# --- sampleBy ----------------------------------------------------------------------------------

def test_sample_by(diff):
    def strata(s):
        return s.range(0, 1000, 1, 3).withColumn("b", F.col("id") % 3)
    diff(lambda s: strata(s).stat.sampleBy("b", {0: 0.5, 1: 0.2}, seed=7))
    diff(lambda s: strata(s).sampleBy(F.col("b"), {2: 1.0, 0: 0.0}, seed=11))
    # Strata of another numeric type still match; a stratum not listed samples nothing.
    diff(lambda s: strata(s).sampleBy("b", {1.0: 0.7}, seed=3))


def test_sample_by_string_strata(diff):
    def program(s):
        df = s.range(0, 300, 1, 2).withColumn("k", F.concat(F.lit("k"), (F.col("id") % 4).cast("string")))
        return df.sampleBy("k", {"k0": 0.4, "k3": 0.9, "k9": 1.0}, seed=5)
    diff(program)


def test_sample_by_errors(differ):
    same_requirement_failure(differ, lambda s: s.range(10).sampleBy("id", {0: 1.5}, seed=1),
                             "requirement failed: Fractions must be in [0, 1], but got")


@pytest.mark.parametrize("seed", [0, 42])
def test_sample_by_is_stable_for_a_seed(ember, seed):
    df = ember.range(0, 500, 1, 2).withColumn("b", F.col("id") % 2)
    counts = {df.sampleBy("b", {0: 0.3, 1: 0.6}, seed=seed).count() for _ in range(3)}
    assert len(counts) == 1
