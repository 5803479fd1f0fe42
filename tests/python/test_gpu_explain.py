"""GPU placement as a PySpark user sees it through explain(): the RAPIDS-style lines under the
physical plan, spark.rapids.sql.explain (NOT_ON_GPU, ALL, NONE), and spark.rapids.sql.enabled
turned off and on in one session with equal results. Ember-only: Apache Spark has no GPU engine
of its own. On a machine without a usable GPU every operator states the reason; on a GPU
machine the same program shows Gpu operators (the device's plan tests check that side through
the same explain code)."""

from __future__ import annotations

import contextlib
import io

import pytest
from pyspark.sql import functions as F

from harness import session_mode


def explain_text(df, mode=None) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.explain(mode) if mode else df.explain()
    return buffer.getvalue()


def query(spark):
    return (spark.range(0, 300_000, 1, 4)
            .withColumn("k", (F.col("id") % 7).cast("int"))
            .where(F.col("id") % 3 != 1)
            .groupBy("k").agg(F.sum("id").alias("s"), F.count("*").alias("n"),
                              F.avg("id").alias("a"))
            .orderBy("k"))


@pytest.fixture
def gpu_conf(ember):
    keys = ("spark.rapids.sql.enabled", "spark.rapids.sql.explain",
            "spark.rapids.sql.exec.HashAggregateExec")
    saved = {k: ember.conf.get(k, None) for k in keys}
    with session_mode(ember):
        yield ember
    for k, v in saved.items():
        if v is None:
            ember.conf.unset(k)
        else:
            ember.conf.set(k, v)


def gpu_usable(text: str) -> bool:
    return "Gpu" in text.split("\n\n")[0]


def test_explain_shows_placement_and_fallback_reasons(gpu_conf):
    spark = gpu_conf
    spark.conf.set("spark.rapids.sql.enabled", "true")
    df = query(spark)
    text = explain_text(df)
    assert "== Physical Plan ==" in text
    if gpu_usable(text):
        assert "GpuHashAggregate" in text, text
        # NOT_ON_GPU (the default) lists only what stays on the CPU.
        assert "*Exec <" not in text, text
    else:
        # One line for the plan, with the reason the device cannot be used.
        lines = [l for l in text.splitlines() if l.startswith("!Exec <")]
        assert len(lines) == 1, text
        assert "and every operator under it cannot run on GPU because" in lines[0], text
    # ALL: every operator, placed or not, with its reason.
    spark.conf.set("spark.rapids.sql.explain", "ALL")
    text_all = explain_text(df)
    marked = [l for l in text_all.splitlines() if l.startswith(("!Exec <", "*Exec <"))]
    assert any("<HashAggregate>" in l for l in marked), text_all
    assert any("<Range>" in l for l in marked), text_all
    # NONE: the plan alone.
    spark.conf.set("spark.rapids.sql.explain", "NONE")
    assert "Exec <" not in explain_text(df)


def test_enabled_switch_moves_the_plan_with_equal_results(gpu_conf):
    spark = gpu_conf
    spark.conf.set("spark.rapids.sql.explain", "ALL")
    spark.conf.set("spark.rapids.sql.enabled", "true")
    on_text = explain_text(query(spark))
    on_rows = query(spark).collect()
    spark.conf.set("spark.rapids.sql.enabled", "false")
    off_text = explain_text(query(spark))
    off_rows = query(spark).collect()
    # Off on purpose: no Gpu operator, and (explain ALL) every operator says why.
    assert "Gpu" not in off_text, off_text
    off_lines = [l for l in off_text.splitlines() if "Exec <" in l]
    assert off_lines and all(l.endswith("because spark.rapids.sql.enabled is false")
                             for l in off_lines), off_text
    spark.conf.set("spark.rapids.sql.explain", "NOT_ON_GPU")
    assert "Exec <" not in explain_text(query(spark))
    assert "Exec <" in on_text, on_text
    spark.conf.set("spark.rapids.sql.enabled", "true")
    again_rows = query(spark).collect()
    assert on_rows == off_rows == again_rows
    assert [r.k for r in on_rows] == list(range(7))
    assert sum(r.n for r in on_rows) == 200_000


def test_operator_switch_keeps_the_aggregate_on_the_cpu(gpu_conf):
    spark = gpu_conf
    spark.conf.set("spark.rapids.sql.enabled", "true")
    spark.conf.set("spark.rapids.sql.exec.HashAggregateExec", "false")
    text = explain_text(query(spark))
    assert "GpuHashAggregate" not in text, text
    if gpu_usable(explain_text(query(spark).select("k"))):
        assert ("HashAggregateExec has been disabled. Set spark.rapids.sql.exec.HashAggregateExec "
                "to true if you wish to enable it") in text, text
    assert [r.k for r in query(spark).collect()] == list(range(7))
