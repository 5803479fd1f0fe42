"""Optimizer rules against Apache Spark: every program gives Spark's answer with each rule on
and with it excluded through spark.sql.optimizer.excludedRules (Spark's fully qualified rule
names), and Ember's explain output shows what the rule changed — the optimized logical plan
(explain mode "extended") and the scans of the physical plan."""

from __future__ import annotations

import contextlib
import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import Window
from pyspark.sql import functions as F

from harness import session_conf, session_mode

PREFIX = "org.apache.spark.sql.catalyst.optimizer."


def explain_text(df, mode=None):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.explain(mode) if mode else df.explain()
    return buffer.getvalue()


def optimized_plan(df):
    text = explain_text(df, "extended")
    return text.split("== Optimized Logical Plan ==")[1].split("== Physical Plan ==")[0]


def physical_plan(df):
    return explain_text(df).split("== Physical Plan ==")[1]


@contextlib.contextmanager
def excluded(ember, oracle, rule):
    with session_conf(ember, oracle, spark_sql_optimizer_excludedRules=PREFIX + rule):
        yield


@contextlib.contextmanager
def ember_excluded(ember, rule):
    ember.conf.set("spark.sql.optimizer.excludedRules", PREFIX + rule)
    try:
        yield
    finally:
        ember.conf.unset("spark.sql.optimizer.excludedRules")


@pytest.fixture(scope="module")
def wide_parquet(tmp_path_factory):
    """A Parquet file of 60 rows and five columns, one of them a long string nobody needs."""
    path = tmp_path_factory.mktemp("optimizer_rules") / "wide.parquet"
    n = 60
    table = pa.table({
        "k": pa.array([i % 7 if i % 11 else None for i in range(n)], pa.int32()),
        "g": pa.array(["g%d" % (i % 4) for i in range(n)]),
        "v": pa.array([i * 0.5 for i in range(n)], pa.float64()),
        "n": pa.array([i * 3 for i in range(n)], pa.int64()),
        "payload": pa.array(["x" * 200 + str(i) for i in range(n)]),
    })
    pq.write_table(table, str(path), row_group_size=16)
    return str(path)


def people(s):
    return s.createDataFrame(
        [(1, "a", 10.0, 100), (2, "b", None, 200), (3, "a", 30.0, None), (4, None, 40.0, 400),
         (5, "c", 50.0, 500), (None, "a", 60.0, 600)],
        "id int, grp string, score double, amount long")


def orders(s):
    return s.createDataFrame(
        [(1, 1, 5.0, "x"), (2, 1, 7.5, "y"), (3, 2, 1.0, "z"), (4, 4, 2.0, None), (5, 9, 3.0, "w")],
        "oid int, pid int, price double, note string")


def joined(s, how="inner"):
    p, o = people(s), orders(s)
    return p.join(o, p["id"] == o["pid"], how)


# --- ColumnPruning ---------------------------------------------------------------------------

def pruning_programs(path):
    return [
        lambda s: s.read.parquet(path).filter("v > 3").groupBy("g").agg(F.sum("n").alias("s")),
        lambda s: s.read.parquet(path).select("k", (F.col("v") * 2).alias("v2")).where("k > 2"),
        lambda s: joined(s).select("grp", "price"),
        lambda s: joined(s, "left").groupBy("grp").agg(F.count("oid").alias("c"), F.max("price").alias("m")),
        lambda s: people(s).select("id", "grp", "score").unionAll(
            orders(s).select("oid", "note", "price")).select("grp"),
        lambda s: people(s).withColumn("r", F.row_number().over(Window.partitionBy("grp").orderBy("id")))
                           .withColumn("t", F.sum("amount").over(Window.partitionBy("grp")))
                           .select("id", "r"),
        lambda s: people(s).select("id", F.explode(F.array("score", "amount")).alias("x"), "grp")
                           .select("x"),
        lambda s: people(s).dropDuplicates(["grp"]).select("grp"),
        lambda s: joined(s, "left_semi").select("grp"),
        lambda s: people(s).crossJoin(orders(s)).select("id").agg(F.count("*").alias("c")),
        lambda s: s.read.parquet(path).select("g").distinct(),
    ]


@pytest.mark.parametrize("rule_on", [True, False], ids=["on", "excluded"])
def test_column_pruning_results(ember, oracle, diff, wide_parquet, rule_on):
    ctx = contextlib.nullcontext() if rule_on else excluded(ember, oracle, "ColumnPruning")
    with ctx:
        for program in pruning_programs(wide_parquet):
            diff(program)


def test_column_pruning_reads_only_the_used_columns(ember, wide_parquet):
    with session_mode(ember):
        df = ember.read.parquet(wide_parquet).filter("v > 3").groupBy("g").agg(F.sum("n"))
    plan = physical_plan(df)
    assert "parquet [g,v,n]" in plan, plan
    assert "payload" not in plan, plan
    # The projection of the scan's own columns is no operator of its own.
    with session_mode(ember):
        plan = physical_plan(ember.read.parquet(wide_parquet).groupBy("g").agg(F.sum("n")))
    lines = plan.splitlines()
    scan = next(i for i, line in enumerate(lines) if "FileScan" in line)
    assert "Project" not in lines[scan - 1], plan
    with ember_excluded(ember, "ColumnPruning"):
        plan = physical_plan(df)
        assert "parquet [k,g,v,n,payload]" in plan, plan


def test_column_pruning_projects_join_inputs(ember):
    df = joined(ember).select("grp", "price")
    plan = optimized_plan(df)
    # Each side keeps its join key and the column read above; the relations themselves list
    # every column, as in Spark's plans.
    projects = [line.strip(" :+-") for line in plan[plan.index("Join Inner"):].splitlines() if "Project [" in line]
    assert len(projects) == 2, plan
    assert projects[0].startswith("Project [id#") and "grp#" in projects[0], plan
    assert projects[1].startswith("Project [pid#") and "price#" in projects[1], plan
    with ember_excluded(ember, "ColumnPruning"):
        plan = optimized_plan(df)
        assert "Project [" not in plan[plan.index("Join Inner"):], plan


def test_column_pruning_narrows_union_all(ember):
    df = people(ember).select("id", "grp", "score").unionAll(orders(ember).select("oid", "note", "price")) \
        .select("grp")
    def union_projects(plan):
        return [line.strip(" :+-") for line in plan[plan.index("Union"):].splitlines() if "Project [" in line]

    plan = optimized_plan(df)
    assert [p.split("#")[0] for p in union_projects(plan)] == ["Project [grp", "Project [note"], plan
    assert all("," not in p for p in union_projects(plan)), plan
    with ember_excluded(ember, "ColumnPruning"):
        plan = optimized_plan(df)
        assert all(p.count(",") == 2 for p in union_projects(plan)), plan


# --- LimitPushDown ---------------------------------------------------------------------------

def limit_programs():
    return [
        # Which rows a limit keeps is up to the engine: count them.
        lambda s: s.range(0, 50).unionAll(s.range(100, 130)).limit(7).agg(F.count("*").alias("c")),
        lambda s: joined(s, "left").limit(4).agg(F.count("*").alias("c")),
        lambda s: joined(s, "right").limit(3).agg(F.count("*").alias("c")),
        lambda s: people(s).crossJoin(orders(s)).limit(5).agg(F.count("*").alias("c")),
        lambda s: people(s).join(orders(s), how="left_semi"),
        lambda s: people(s).join(orders(s).filter("price > 100"), how="left_anti"),
        # Ordered results: a top-N sort below a projection, an offset under a limit.
        lambda s: s.range(0, 100).orderBy(F.desc("id")).select((F.col("id") + 1).alias("x")).limit(3),
        lambda s: people(s).orderBy("amount", "id").select("id", "grp").limit(4),
        lambda s: people(s).orderBy("id").offset(2).limit(2),
        lambda s: s.range(0, 20).offset(5).limit(3),
        lambda s: s.range(0, 10).unionAll(s.range(20, 25)).orderBy(F.desc("id")).limit(6),
        lambda s: s.range(0, 10).unionAll(s.range(20, 25)).alias("u").select((F.col("id") * 2).alias("d"))
        .limit(4).agg(F.count("*")),
        lambda s: s.sql("SELECT count(*) FROM (SELECT * FROM (SELECT id FROM range(10) UNION ALL "
                        "SELECT id FROM range(5)) LIMIT 3)"),
    ]


@pytest.mark.parametrize("rule_on", [True, False], ids=["on", "excluded"])
def test_limit_push_down_results(ember, oracle, diff, rule_on):
    ctx = contextlib.nullcontext() if rule_on else excluded(ember, oracle, "LimitPushDown")
    with ctx:
        for program in limit_programs():
            diff(program)


def test_limit_push_down_puts_a_local_limit_below_union_all(ember):
    df = ember.range(0, 50).unionAll(ember.range(100, 130)).limit(7)
    plan = optimized_plan(df)
    assert plan.index("Union") < plan.index("LocalLimit 7"), plan
    assert plan.count("LocalLimit 7") == 2, plan
    with ember_excluded(ember, "LimitPushDown"):
        assert "LocalLimit" not in optimized_plan(df)


def test_limit_push_down_through_aliases_and_projections_onto_union_all(ember):
    # Spark's optimizer has removed the subquery alias and the projection by then; Ember keeps
    # them and looks through. The physical plan names the pushed limits LocalLimit, as Spark.
    df = ember.sql("SELECT * FROM (SELECT id FROM range(10) UNION ALL SELECT id FROM range(5)) LIMIT 3")
    plan = optimized_plan(df)
    assert plan.index("Union") < plan.index("LocalLimit 3"), plan
    assert plan.count("LocalLimit 3") == 2, plan
    physical = physical_plan(df)
    assert physical.count("LocalLimit 3") == 2 and physical.count("GlobalLimit 3") == 1, physical
    assert [r.id for r in df.collect()] == [0, 1, 2]
    # A projection that is not one row per row keeps the limit above it.
    df = ember.range(0, 10).unionAll(ember.range(20, 25)).select(F.rand(1).alias("r")).limit(2)
    assert "LocalLimit" not in optimized_plan(df)


def test_limit_push_down_into_the_preserved_side_of_an_outer_join(ember):
    df = joined(ember, "left").limit(2)
    plan = optimized_plan(df)
    lines = plan.splitlines()
    join = next(i for i, line in enumerate(lines) if "Join LeftOuter" in line)
    assert "LocalLimit 2" in lines[join + 1], plan
    assert "LocalLimit" not in "\n".join(lines[join + 2:]).split("LocalRelation")[-1], plan


def test_limit_push_down_below_offset(ember):
    df = ember.range(0, 20).offset(5).limit(3)
    plan = optimized_plan(df)
    assert plan.index("Offset 5") < plan.index("LocalLimit 8"), plan
    assert [r.id for r in df.collect()] == [5, 6, 7]


# --- common subexpressions -------------------------------------------------------------------

def cse_program(s):
    h = F.hash("id")
    return s.range(0, 200).select(
        (h + 1).alias("x"), (h % 5).alias("y"), F.when(h > 0, h).otherwise(-h).alias("z"), "id")


@pytest.mark.parametrize("enabled", ["true", "false"])
def test_common_subexpressions_results(ember, oracle, diff, enabled):
    with session_conf(ember, oracle, spark_sql_subexpressionElimination_enabled=enabled):
        diff(cse_program)
        diff(lambda s: cse_program(s).filter((F.hash("id") % 3 == 0) | (F.hash("id") % 7 == 1)))


def test_common_subexpressions_computed_once(ember):
    with session_mode(ember):
        df = cse_program(ember)
    plan = physical_plan(df)
    assert "__hoisted_0" in plan, plan
    assert "__hoisted_1" not in plan, plan  # hash(id) once; the rest read it
    ember.conf.set("spark.sql.subexpressionElimination.enabled", "false")
    try:
        assert "__hoisted" not in physical_plan(df)
    finally:
        ember.conf.unset("spark.sql.subexpressionElimination.enabled")


# --- rules named as Spark names them ---------------------------------------------------------

@pytest.mark.parametrize("rule", ["ColumnPruning", "LimitPushDown", "ConstantFolding", "BooleanSimplification",
                                  "PushDownPredicates", "ReorderJoin", "CollapseProject"])
def test_results_hold_with_each_rule_excluded(ember, oracle, diff, wide_parquet, rule):
    def program(s):
        a = s.read.parquet(wide_parquet).filter((F.lit(2) > 1) & (F.col("k") > 1))
        b = people(s).select("id", (F.col("amount") * 2).alias("a2"))
        return (a.join(b, a["k"] == b["id"]).select("g", "a2", "v")
                .unionAll(s.read.parquet(wide_parquet).select("g", "n", "v"))
                .groupBy("g").agg(F.sum("a2").alias("s"), F.count("v").alias("c")).orderBy("g").limit(3))

    with excluded(ember, oracle, rule):
        diff(program, ordered=True)


def test_column_pruning_drops_unused_aggregate_outputs(ember, diff):
    # Aggregates nobody reads above are not computed; the groups still count.
    df = ember.sql("SELECT k FROM (SELECT id % 3 k, sum(id) s, max(id) m FROM range(10) GROUP BY 1)")
    plan = optimized_plan(df)
    assert "sum(" not in plan and "max(" not in plan, plan
    with ember_excluded(ember, "ColumnPruning"):
        assert "sum(" in optimized_plan(df)
    diff(lambda s: s.sql("SELECT k FROM (SELECT id % 3 k, sum(id) s, max(id) m FROM range(10) GROUP BY 1)"))
    diff(lambda s: s.sql("SELECT count(*) FROM (SELECT sum(id) s, max(id) m FROM range(10))"))
    diff(lambda s: s.sql("SELECT count(*) FROM (SELECT id % 3 k, sum(id) FROM range(10) GROUP BY 1)"))
    diff(lambda s: s.range(20).groupBy((F.col("id") % 4).alias("g"))
         .agg(F.sum("id").alias("s"), F.count("*").alias("n"), F.collect_list("id").alias("l"))
         .select("g", "n"))
    diff(lambda s: s.range(20).groupBy((F.col("id") % 4).alias("g"))
         .agg(F.sum("id").alias("s"), F.max("id").alias("m")).filter("s > 40").select("g"))


@pytest.mark.parametrize("rule_on", [True, False], ids=["on", "excluded"])
def test_limit_push_down_through_ranking_windows_results(ember, oracle, diff, rule_on):
    ctx = contextlib.nullcontext() if rule_on else excluded(ember, oracle, "LimitPushDown")
    def ranked(s):
        w = Window.orderBy(F.desc("score"), "id")
        return people(s).select("id", F.row_number().over(w).alias("rn"), F.rank().over(w).alias("r")).limit(3)

    with ctx:
        diff(lambda s: s.sql("SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM range(50) LIMIT 5"))
        # Ties: the ranks of the first rows depend on the rows before them only.
        diff(lambda s: s.sql("SELECT rank() OVER (ORDER BY id % 7) AS r, dense_rank() OVER (ORDER BY id % 7) AS d "
                             "FROM range(100) LIMIT 20"))
        diff(ranked)
        # One order written two ways is one window specification.
        diff(lambda s: s.sql("SELECT id, row_number() OVER (ORDER BY id + 1) AS rn, rank() OVER (ORDER BY 1 + id) "
                             "AS r FROM range(50) LIMIT 5"))
        # Not ranking windows, or partitioned ones: the limit stays above.
        diff(lambda s: s.sql("SELECT id, sum(id) OVER (ORDER BY id) AS s FROM range(50) ORDER BY id LIMIT 5"))
        diff(lambda s: s.sql("SELECT count(*), max(rn) FROM (SELECT id % 3 AS p, id, row_number() OVER "
                             "(PARTITION BY id % 3 ORDER BY id) AS rn FROM range(30) LIMIT 4)"))


def test_limit_push_down_through_ranking_windows_plan(ember):
    df = ember.sql("SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM range(50) LIMIT 5")
    plan = optimized_plan(df)
    assert plan.index("Window") < plan.index("GlobalLimit 5", plan.index("Window")), plan
    assert "Sort [id#" in plan.split("Window", 1)[1] or "Sort [" in plan.split("Window", 1)[1], plan
    both = optimized_plan(ember.sql("SELECT id, row_number() OVER (ORDER BY id + 1) AS rn, "
                                    "rank() OVER (ORDER BY 1 + id) AS r FROM range(50) LIMIT 5"))
    assert "Limit" in both.split("Window", 1)[1], both
    for query in ("SELECT id, sum(id) OVER (ORDER BY id) AS s FROM range(50) LIMIT 5",
                  "SELECT id, row_number() OVER (PARTITION BY id % 3 ORDER BY id) AS rn FROM range(30) LIMIT 4",
                  "SELECT id, row_number() OVER (ORDER BY id) AS rn FROM range(3) LIMIT 5"):
        below = optimized_plan(ember.sql(query)).split("Window", 1)[1]
        assert "Limit" not in below, query


# --- subquery aliases and projections that do nothing -------------------------------------------

def analyzed_plan(df):
    text = explain_text(df, "extended")
    return text.split("== Analyzed Logical Plan ==")[1].split("== Optimized Logical Plan ==")[0]


def projections(plan):
    """The number of Project operators in a plan's tree text."""
    return sum(1 for line in plan.splitlines() if line.lstrip(" :+-").startswith("Project "))


NOOP_QUERIES = [
    lambda s: s.sql("SELECT * FROM (SELECT id FROM range(3)) t"),
    lambda s: s.sql("WITH c AS (SELECT id, id * 2 AS d FROM range(4)) SELECT c.* FROM c WHERE c.d > 2"),
    lambda s: s.range(5).select("id").alias("x").select("x.id"),
    lambda s: s.range(5).withColumn("d", F.col("id") + 1).select("id", "d").alias("y").filter("y.d > 1"),
]


@pytest.mark.parametrize("query", range(len(NOOP_QUERIES)))
def test_optimized_plan_drops_subquery_aliases_and_noop_projections(ember, oracle, diff, query):
    program = NOOP_QUERIES[query]
    plans = {}
    for name, spark in (("ember", ember), ("spark", oracle)):
        with session_mode(spark):
            df = program(spark)
            plans[name] = (analyzed_plan(df), optimized_plan(df))
    for name, (analyzed, optimized) in plans.items():
        assert "SubqueryAlias" in analyzed, (name, analyzed)
        assert "SubqueryAlias" not in optimized, (name, optimized)
    # As many projections as Spark keeps: none that only passes its input through.
    assert projections(plans["ember"][1]) == projections(plans["spark"][1]), plans
    diff(program)


def test_noop_rules_switch_off(ember):
    df = ember.sql("SELECT * FROM (SELECT id FROM range(3)) t")
    with ember_excluded(ember, "RemoveNoopOperators"):
        assert "Project" in optimized_plan(df)
    # Spark cannot exclude EliminateSubqueryAliases: its excludedRules entry is ignored, Ember's
    # own switch is not.
    with ember_excluded(ember, "EliminateSubqueryAliases"):
        assert "SubqueryAlias" not in optimized_plan(df)
    ember.conf.set("spark.ember.optimizer.EliminateSubqueryAliases.enabled", "false")
    try:
        assert "SubqueryAlias" in optimized_plan(df)
    finally:
        ember.conf.unset("spark.ember.optimizer.EliminateSubqueryAliases.enabled")
    assert [r.id for r in df.collect()] == [0, 1, 2]
