"""DataFrame.observe: named metrics (aggregates over the rows that pass) reported to the client
with the action, through an Observation; compared with Apache Spark's own Spark Connect server,
since observed metrics travel in the Spark Connect protocol."""

from __future__ import annotations

import datetime
import decimal

import pytest
from pyspark.sql import Observation
from pyspark.sql import functions as F

from harness import session_mode


def run_both(ember, connect_oracle, program):
    out = []
    for spark in (ember, connect_oracle):
        with session_mode(spark):
            out.append(program(spark))
    return out


def people(spark):
    return spark.createDataFrame(
        [(1, "Alice", 34, 3.5, decimal.Decimal("10.25"), datetime.date(2024, 2, 29)),
         (2, "Bob", None, None, decimal.Decimal("-1.50"), datetime.date(2023, 1, 1)),
         (3, "Cé", 51, 7.25, None, None),
         (4, "Dan", 17, float("nan"), decimal.Decimal("0.00"), datetime.date(1999, 12, 31))],
        "id INT, name STRING, age INT, score DOUBLE, amount DECIMAL(10,2), d DATE")


def test_observation_after_collect(ember, connect_oracle):
    def program(spark):
        obs = Observation("stats")
        df = people(spark).observe(
            obs, F.count(F.lit(1)).alias("rows"), F.max("age").alias("max_age"),
            F.sum("amount").alias("total"), F.min("d").alias("first_day"),
            F.avg("score").alias("avg_score"), F.count_if(F.col("age") > 18).alias("adults"))
        rows = sorted(df.where("id > 1").collect())
        return rows, obs.get

    (rows_e, got_e), (rows_s, got_s) = run_both(ember, connect_oracle, program)
    assert str(rows_e) == str(rows_s)
    assert got_e.keys() == got_s.keys()
    for k in got_s:
        if isinstance(got_s[k], float) and got_s[k] != got_s[k]:
            assert got_e[k] != got_e[k], k
        else:
            assert got_e[k] == got_s[k], (k, got_e[k], got_s[k])


def test_observation_with_count_show_and_empty_input(ember, connect_oracle):
    def program(spark):
        a, b = Observation("a"), Observation("b")
        n = spark.range(0, 1000, 1, 3).observe(a, F.sum("id").alias("s"), F.count("*").alias("c")).count()
        empty = spark.range(0).observe(b, F.sum("id").alias("s"), F.count("*").alias("c"),
                                       F.collect_list("id").alias("ids"))
        rows = empty.collect()
        return n, a.get, rows, b.get

    assert run_both(ember, connect_oracle, program)[0] == run_both(ember, connect_oracle, program)[1]


def test_observation_of_a_filtered_and_joined_plan(ember, connect_oracle):
    def program(spark):
        obs = Observation("joined")
        left = spark.range(0, 50).withColumn("k", F.col("id") % 5)
        right = spark.range(0, 5).withColumnRenamed("id", "k").withColumn("name", F.concat(F.lit("n"), F.col("k")))
        observed = left.join(right, "k").where("id % 2 = 0").observe(
            obs, F.count(F.lit(1)).alias("rows"), F.approx_count_distinct("name").alias("names"),
            F.max_by("name", "id").alias("top"))
        rows = sorted(observed.select("id", "name").collect())
        return rows, obs.get

    e, s = run_both(ember, connect_oracle, program)
    assert e == s


def test_observation_get_before_an_action(ember, connect_oracle):
    def program(spark):
        obs = Observation("never")
        spark.range(3).observe(obs, F.count("*").alias("c"))
        try:
            return obs.get
        except Exception as e:  # noqa: BLE001 - the client's own error, compared by class
            return type(e).__name__

    e, s = run_both(ember, connect_oracle, program)
    assert e == s


@pytest.mark.parametrize("metric", [
    "count_distinct", "nested", "attribute", "window", "nondeterministic"])
def test_invalid_metrics_fail_as_in_spark(ember, connect_oracle, metric):
    def program(spark):
        from pyspark.sql import Window

        metrics = {
            "count_distinct": lambda: F.countDistinct("id").alias("m"),
            "nested": lambda: F.sum(F.max("id")).alias("m"),
            "attribute": lambda: (F.col("id") + F.sum("id")).alias("m"),
            "window": lambda: F.sum("id").over(Window.orderBy("id")).alias("m"),
            "nondeterministic": lambda: (F.rand(1) + F.sum("id")).alias("m"),
        }
        obs = Observation("bad")
        try:
            spark.range(5).observe(obs, metrics[metric]()).collect()
            return "ok"
        except Exception as e:  # noqa: BLE001 - compared by error class
            return getattr(e, "getCondition", lambda: type(e).__name__)()

    e, s = run_both(ember, connect_oracle, program)
    assert e == s
