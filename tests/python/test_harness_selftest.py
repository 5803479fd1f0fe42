"""Checks of the differential harness itself.

The first part runs the comparison functions on plain Python data, with no
engine at all. The second part runs the harness with the Apache Spark oracle
on both sides, which must always agree with itself, and checks that plan
order detection, error classes and show() capture work on real results.
"""

from __future__ import annotations

import datetime
import decimal
import math
import os

import pytest

from harness import (DiffError, Differ, Field, Result, api_mode, compare_errors,
                     compare_results, compare_text, condition_matches, match_multiset,
                     type_string, values_equal)

NAN = float("nan")


def result(rows, fields=None, engine="spark"):
    fields = fields or [Field("a", "int", True), Field("b", "double", True)]
    return Result(engine, fields, [tuple(r) for r in rows])


def ember_result(rows, fields=None):
    return result(rows, fields, engine="ember")


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("expected, actual", [
    (None, None),
    (1, 1),
    ("x", "x"),
    (1.0, 1.0 + 1e-12),
    (1e300, 1e300 * (1 + 1e-12)),
    (0.0, 5.551115123125783e-17),  # zero up to rounding
    (NAN, NAN),
    (math.inf, math.inf),
    (decimal.Decimal("1.10"), decimal.Decimal("1.1")),
    (b"ab", bytearray(b"ab")),
    (datetime.datetime(2023, 1, 1, 12), datetime.datetime(2023, 1, 1, 12)),
    ((1, [2.0, NAN], {"k": 3}), (1, [2.0 + 1e-13, NAN], {"k": 3})),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
])
def test_values_that_match(expected, actual):
    assert values_equal(expected, actual)


@pytest.mark.parametrize("expected, actual", [
    (None, 0),
    (None, NAN),
    (1, 1.0),
    (True, 1),
    (1.0, 1.001),
    (math.inf, -math.inf),
    (NAN, 1.0),
    ("1", 1),
    (decimal.Decimal("1.1"), 1.1),
    (datetime.date(2023, 1, 1), datetime.datetime(2023, 1, 1)),
    (datetime.datetime(2023, 1, 1), datetime.datetime(2023, 1, 1, tzinfo=datetime.timezone.utc)),
    ((1, 2), (1, 2, 3)),
    ([1, 2], [2, 1]),
    ((1, [2.0]), (1, [2.5])),
    ({"a": 1}, {"a": 2}),
    ({"a": 1}, {"b": 1}),
])
def test_values_that_differ(expected, actual):
    assert not values_equal(expected, actual)


def test_exact_float_comparison_when_approx_is_zero():
    assert values_equal(0.1 + 0.2, 0.30000000000000004, approx=0)
    assert not values_equal(1.0, 1.0 + 1e-15, approx=0)


# ---------------------------------------------------------------- rows


def test_multiset_ignores_order():
    compare_results(result([(1, 1.0), (2, 2.0), (3, NAN)]),
                    ember_result([(3, NAN), (1, 1.0), (2, 2.0)]))


def test_ordered_comparison_sees_order():
    with pytest.raises(DiffError, match="first at row 0"):
        compare_results(result([(1, 1.0), (2, 2.0)]), ember_result([(2, 2.0), (1, 1.0)]),
                        ordered=True)


def test_ordered_comparison_passes_in_order():
    compare_results(result([(1, 1.0), (2, None)]), ember_result([(1, 1.0), (2, None)]),
                    ordered=True)


def test_multiset_counts_duplicates():
    with pytest.raises(DiffError, match="1 rows only in spark, 1 rows only in ember"):
        compare_results(result([(1, 1.0), (1, 1.0), (2, 2.0)]),
                        ember_result([(1, 1.0), (2, 2.0), (2, 2.0)]))


def test_missing_and_extra_rows_fail():
    with pytest.raises(DiffError, match="only in ember"):
        compare_results(result([(1, 1.0)]), ember_result([(1, 1.0), (2, 2.0)]))
    with pytest.raises(DiffError, match="first at row 1"):
        compare_results(result([(1, 1.0), (2, 2.0)]), ember_result([(1, 1.0)]), ordered=True)


def test_float_tolerance_in_rows():
    compare_results(result([(1, 0.1 + 0.2)]), ember_result([(1, 0.3)]))
    with pytest.raises(DiffError):
        compare_results(result([(1, 0.3)]), ember_result([(1, 0.31)]))
    with pytest.raises(DiffError):
        compare_results(result([(1, 0.1 + 0.2)]), ember_result([(1, 0.3)]), approx=0)


def test_tolerant_matching_when_sort_order_disagrees():
    # Sorted by the float first, the two sides pair up differently; only the
    # exhaustive pass finds that each row has a partner within tolerance.
    expected = [(1.0, "b"), (1.0 + 1e-12, "a")]
    actual = [(1.0 + 1e-12, "b"), (1.0, "a")]
    assert match_multiset(expected, actual, approx=1e-9) == ([], [])
    assert match_multiset(expected, actual, approx=0) != ([], [])


def test_schema_differences_fail():
    rows = [(1, 1.0)]
    with pytest.raises(DiffError, match="column names differ"):
        compare_results(result(rows), ember_result(
            rows, [Field("a", "int", True), Field("B", "double", True)]))
    with pytest.raises(DiffError, match=r"column 1 \(b\) differs"):
        compare_results(result(rows), ember_result(
            rows, [Field("a", "int", True), Field("b", "float", True)]))
    with pytest.raises(DiffError, match="NOT NULL"):
        compare_results(result(rows), ember_result(
            rows, [Field("a", "int", False), Field("b", "double", True)]))


def test_failure_message_shows_both_results():
    with pytest.raises(DiffError) as info:
        compare_results(result([(1, 1.0)]), ember_result([(1, 2.0)]))
    message = str(info.value)
    assert "spark: 1 rows; schema [a: int, b: double]" in message
    assert "ember: 1 rows" in message
    assert "(1, 1.0)" in message and "(1, 2.0)" in message


# ---------------------------------------------------------------- errors, show


class FakeSparkError(Exception):
    def __init__(self, condition):
        super().__init__(f"[{condition}] something went wrong")
        self._condition = condition

    def getCondition(self):  # noqa: N802 - PySpark's API name
        return self._condition


def test_condition_matching():
    assert condition_matches("DIVIDE_BY_ZERO", "DIVIDE_BY_ZERO")
    assert condition_matches("UNRESOLVED_COLUMN.WITH_SUGGESTION", "UNRESOLVED_COLUMN")
    assert not condition_matches("UNRESOLVED_COLUMN_X", "UNRESOLVED_COLUMN")
    assert not condition_matches(None, "DIVIDE_BY_ZERO")


def test_compare_errors():
    compare_errors(FakeSparkError("DIVIDE_BY_ZERO"), FakeSparkError("DIVIDE_BY_ZERO"),
                   "DIVIDE_BY_ZERO")
    with pytest.raises(DiffError, match="ember raised 'CAST_INVALID_INPUT'"):
        compare_errors(FakeSparkError("DIVIDE_BY_ZERO"), FakeSparkError("CAST_INVALID_INPUT"),
                       "DIVIDE_BY_ZERO")
    with pytest.raises(DiffError, match="the test expects"):
        compare_errors(FakeSparkError("DIVIDE_BY_ZERO"), FakeSparkError("DIVIDE_BY_ZERO"),
                       "CAST_INVALID_INPUT")
    with pytest.raises(DiffError, match="ember raised None"):
        compare_errors(FakeSparkError("DIVIDE_BY_ZERO"), ValueError("no class"),
                       "DIVIDE_BY_ZERO")


def test_compare_text():
    compare_text("+---+\n|  a|\n", "+---+\n|  a|\n")
    with pytest.raises(DiffError, match=r"(?s)-\|  1\|.*\+\|  2\|"):
        compare_text("+---+\n|  1|\n", "+---+\n|  2|\n")


# ---------------------------------------------------------------- with the oracle


@pytest.fixture(scope="module")
def self_differ(oracle):
    """The harness with the oracle on both sides: it must agree with itself."""
    return Differ(oracle, oracle)


def test_oracle_agrees_with_itself(self_differ):
    from pyspark.sql import functions as F

    def program(spark):
        return (spark.range(1000)
                .withColumn("g", (F.col("id") % 7).cast("int"))
                .withColumn("x", F.col("id") / 3.0)
                .withColumn("arr", F.array(F.col("g"), F.lit(None).cast("int")))
                .withColumn("m", F.create_map(F.lit("k"), F.col("x")))
                .withColumn("s", F.struct(F.col("g").alias("g"), F.lit("t").alias("t")))
                .withColumn("ts", F.timestamp_seconds(F.col("id")))
                .withColumn("d", F.lit(decimal.Decimal("1.25")))
                .withColumn("nan", F.lit(float("nan"))))

    expected = self_differ.diff(program)
    assert len(expected.rows) == 1000
    assert [f.type for f in expected.fields] == [
        "bigint", "int", "double", "array<int>", "map<string,double>",
        "struct<g:int,t:string NOT NULL>", "timestamp", "decimal(3,2)", "double"]
    assert not expected.fields[0].nullable
    # Timestamps come back as naive UTC datetimes (TZ=UTC for the run).
    assert expected.rows[0][6] == datetime.datetime(1970, 1, 1)


def test_order_is_detected_from_the_plan(oracle):
    from harness import ends_in_global_sort
    from pyspark.sql import functions as F

    # Outside the harness's checks, the test picks the API mode itself.
    with api_mode(connect=False):
        df = oracle.range(10).withColumn("g", F.col("id") % 3)
        assert not ends_in_global_sort(df)
        assert not ends_in_global_sort(df.groupBy("g").count())
        assert ends_in_global_sort(df.orderBy("g"))
        assert ends_in_global_sort(df.orderBy(F.desc("id")).select("g").limit(3))
        assert not ends_in_global_sort(df.sortWithinPartitions("g"))


def test_programs_run_in_the_api_mode_of_their_session(self_differ, monkeypatch):
    from pyspark.sql import functions as F

    # As after a Spark Connect session was opened in this process: the
    # harness still builds classic columns for the classic session.
    monkeypatch.setenv("SPARK_CONNECT_MODE_ENABLED", "1")
    self_differ.diff(lambda spark: spark.range(5).select((F.col("id") * 2).alias("x")))
    assert os.environ["SPARK_CONNECT_MODE_ENABLED"] == "1"  # restored afterwards


def test_aggregation_results_compare_with_tolerance(self_differ):
    from pyspark.sql import functions as F

    self_differ.diff(lambda spark: (
        spark.range(10_000).withColumn("c", (F.col("id") % 10).cast("int"))
        .groupBy("c").agg(F.avg("id").alias("avg"), F.stddev("id").alias("sd"),
                          F.count("*").alias("n"))
        .orderBy("c")))


def test_errors_compare_by_class(self_differ):
    from pyspark.sql import functions as F

    error = self_differ.diff_error(lambda spark: spark.range(3).select(F.col("nope")),
                                   "UNRESOLVED_COLUMN")
    assert "nope" in str(error)
    self_differ.diff_error(lambda spark: spark.range(3).select(F.lit(1) / F.lit(0)),
                           "DIVIDE_BY_ZERO")
    with pytest.raises(DiffError, match="raised no error"):
        self_differ.diff_error(lambda spark: spark.range(3), "DIVIDE_BY_ZERO")


def test_show_output_is_captured(self_differ):
    text = self_differ.diff_show(lambda spark: spark.range(3), truncate=False)
    assert text.splitlines()[1] == "|id |"  # truncate=False aligns left


def test_type_strings_include_nested_nullability():
    from pyspark.sql import types as T

    schema = T.StructType([
        T.StructField("a", T.ArrayType(T.IntegerType(), containsNull=False)),
        T.StructField("m", T.MapType(T.StringType(), T.DoubleType(), valueContainsNull=True)),
        T.StructField("s", T.StructType([T.StructField("x", T.LongType(), False)])),
    ])
    assert type_string(schema) == (
        "struct<a:array<int NOT NULL>,m:map<string,double>,s:struct<x:bigint NOT NULL>>")
