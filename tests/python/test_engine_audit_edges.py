"""Differential tests of the relational operators at their edges — Ember against Apache Spark:
empty inputs, all-null and duplicate keys, one key holding most rows, rows hundreds of columns
wide or with long strings, nested keys (arrays, structs) in grouping, sorting, joins and set
operations, and every operator with optimizer rules switched off."""

from __future__ import annotations

import pytest
from pyspark.sql import Window
from pyspark.sql import functions as F

from harness import session_conf

SCHEMA = "k int, g string, v double, n long"
ROWS = [(1, "a", 1.0, 10), (1, "a", None, 11), (2, "b", 2.5, None), (None, "c", 3.0, 13),
        (None, None, None, None), (3, "a", -1.0, 15), (2, "b", 2.5, 16)]


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def empty(s):
    return s.createDataFrame([], SCHEMA)


def skewed(s):
    # Key 0 holds 95% of the rows.
    return s.range(0, 4000).select(
        F.when(F.col("id") % 20 == 0, F.col("id") % 7 + 1).otherwise(F.lit(0)).cast("int").alias("k"),
        F.col("id").alias("n"), (F.col("id") % 13).cast("double").alias("v"))


# --- empty inputs ----------------------------------------------------------------------------

def test_every_operator_over_empty_input(diff):
    def w():
        return Window.partitionBy("g").orderBy("v")

    programs = [
        lambda s: empty(s).groupBy("g").agg(F.sum("v"), F.count("*"), F.countDistinct("k")),
        lambda s: empty(s).agg(F.sum("v"), F.count("*"), F.avg("n"), F.collect_list("k"),
                               F.max("g"), F.countDistinct("k", "g")),
        lambda s: empty(s).rollup("g", "k").count(),
        lambda s: empty(s).cube("g").agg(F.sum("n")),
        lambda s: empty(s).groupBy("k").pivot("g", ["a", "b"]).sum("n"),
        lambda s: empty(s).withColumn("r", F.row_number().over(w()))
                          .withColumn("s", F.sum("n").over(w())),
        lambda s: empty(s).select(F.explode_outer(F.array("k", "k"))),
        lambda s: s.range(0).crossJoin(data(s)),
        lambda s: empty(s).select("k", F.col("n").cast("double").alias("n"), "v")
                          .unpivot("k", ["n", "v"], "var", "val"),
    ]
    for program in programs:
        diff(program)

    def same_schema(s):
        results = [empty(s).distinct(), empty(s).dropDuplicates(["g"]), empty(s).intersect(data(s)),
                   data(s).exceptAll(empty(s)), empty(s).subtract(data(s)), empty(s).unionByName(data(s)),
                   empty(s).offset(2), empty(s).sample(0.5, 3), empty(s).repartition(3).coalesce(1),
                   empty(s).orderBy(F.desc("v")).limit(3), data(s).intersectAll(empty(s))]
        out = results[0].withColumn("i", F.lit(0))
        for i, r in enumerate(results[1:], 1):
            out = out.unionAll(r.withColumn("i", F.lit(i)))
        return out

    diff(same_schema)


# --- nulls and duplicate keys ---------------------------------------------------------------

def test_null_and_duplicate_keys_in_every_join(diff):
    def left(s):
        return s.createDataFrame([(1, "l1"), (1, "l2"), (1, "l3"), (None, "ln"), (2, "l4")],
                                 "k int, lv string")

    def right(s):
        return s.createDataFrame([(1, "r1"), (1, "r2"), (None, "rn"), (None, "rn2"), (3, "r3")],
                                 "k int, rv string")

    for how in ["inner", "left", "right", "full", "left_semi", "left_anti", "cross"]:
        diff(lambda s, how=how: left(s).alias("l").join(right(s).alias("r"), F.col("l.k") == F.col("r.k"), how))
        diff(lambda s, how=how: left(s).alias("l").join(
            right(s).alias("r"), F.col("l.k").eqNullSafe(F.col("r.k")), how))
        diff(lambda s, how=how: left(s).alias("l").join(
            right(s).alias("r"), (F.col("l.k") == F.col("r.k")) & (F.col("lv") < F.col("rv")), how))
    for how in ["inner", "outer", "leftouter", "rightouter", "semi", "anti", "left_outer", "fullouter"]:
        diff(lambda s, how=how: left(s).join(right(s), "k", how))


def test_null_and_duplicate_rows_in_set_operations(diff):
    def a(s):
        return s.createDataFrame([(1, None), (1, None), (2, "x"), (None, None), (None, None)],
                                 "k int, s string")

    def b(s):
        return s.createDataFrame([(1, None), (None, None), (3, "y")], "k int, s string")

    def every_operation(s):
        results = []
        for op in ("intersect", "intersectAll", "subtract", "exceptAll", "union", "unionByName"):
            results.append(getattr(a(s), op)(b(s)).withColumn("op", F.lit(op)))
            results.append(getattr(b(s), op)(a(s)).withColumn("op", F.lit(op + " reversed")))
        out = results[0]
        for r in results[1:]:
            out = out.unionAll(r)
        return out

    diff(every_operation)
    diff(lambda s: a(s).distinct())
    diff(lambda s: a(s).dropDuplicates(["s"]).select("s"))


def test_group_sort_and_window_over_null_keys(diff):
    diff(lambda s: data(s).groupBy("k", "g").agg(F.sum("v"), F.count("v"), F.count("*"),
                                                  F.first("n", ignorenulls=True)))
    diff(lambda s: data(s).orderBy(F.asc_nulls_last("k"), F.desc_nulls_first("v"), "n"), ordered=True)
    diff(lambda s: data(s).orderBy(F.col("g").desc(), F.col("v").asc(), "n"), ordered=True)
    def w():
        return Window.partitionBy("k").orderBy(F.col("v").asc_nulls_last(), "n")

    diff(lambda s, w=w: data(s).select(
        "k", "v", "n", F.rank().over(w()).alias("r"), F.dense_rank().over(w()).alias("dr"),
        F.percent_rank().over(w()).alias("pr"), F.ntile(2).over(w()).alias("t"),
        F.lag("v", 1, -9.0).over(w()).alias("lag"), F.lead("n").over(w()).alias("lead"),
        F.sum("v").over(w()).alias("run"), F.count("v").over(w().rowsBetween(-1, 1)).alias("c3")))

    def rng():
        return Window.partitionBy("g").orderBy("n").rangeBetween(-1, 3)

    diff(lambda s: data(s).select("g", "v", F.sum("n").over(rng()).alias("s"),
                                  F.max("n").over(rng()).alias("m")))
    diff(lambda s: data(s).select("n", F.count("*").over(
        Window.orderBy(F.col("n").desc()).rangeBetween(Window.unboundedPreceding, 2)).alias("c")))


# --- skewed keys ----------------------------------------------------------------------------

def test_skewed_key_in_aggregate_window_join_and_distinct(diff):
    diff(lambda s: skewed(s).groupBy("k").agg(F.count("*"), F.sum("v"), F.countDistinct("v"),
                                              F.max("n"), F.avg("v")))
    diff(lambda s: skewed(s).withColumn("r", F.row_number().over(Window.partitionBy("k").orderBy("n")))
         .filter("r <= 3 OR r = 3800"))
    diff(lambda s: skewed(s).join(skewed(s).groupBy("k").count(), "k")
         .groupBy("k").agg(F.sum("count"), F.count("*")))
    diff(lambda s: skewed(s).select("k", "v").distinct())
    diff(lambda s: skewed(s).join(skewed(s).filter("n < 60").select("k"), "k", "left_semi")
         .groupBy("k").count())
    diff(lambda s: skewed(s).join(skewed(s).filter("k > 3").select("k").distinct(), "k", "left_anti")
         .groupBy("k").count())
    diff(lambda s: skewed(s).orderBy("k", F.desc("n")).limit(5), ordered=True)


# --- wide rows ------------------------------------------------------------------------------

def wide(s, columns=300):
    base = s.range(0, 40)
    return base.select("id", *[(F.col("id") * i % 17).cast("int").alias(f"c{i}") for i in range(columns)],
                       F.repeat(F.col("id").cast("string"), 3000).alias("long_text"))


def test_wide_rows_through_every_operator(diff):
    diff(lambda s: wide(s).filter("c3 > 4").orderBy(F.desc("c7"), "id"), ordered=True)
    diff(lambda s: wide(s).groupBy("c5").agg(*[F.sum(f"c{i}") for i in range(0, 300, 7)],
                                             F.max("long_text")))
    diff(lambda s: wide(s).join(wide(s).select("id", "c1", "long_text"), ["id", "long_text"]))
    diff(lambda s: wide(s).union(wide(s)).distinct())
    diff(lambda s: wide(s).select("long_text", "c9").groupBy("long_text").agg(F.count("c9")))
    diff(lambda s: wide(s, 60).unpivot("id", [f"c{i}" for i in range(60)], "col", "val")
         .groupBy("col").agg(F.sum("val")))


# --- nested keys ----------------------------------------------------------------------------

def nested(s):
    rows = [(1, [1, 2], (1, "x"), {"a": 1}), (2, [1, 2], (1, "x"), {"a": 2}),
            (3, [2], (None, "y"), {"b": 1}), (4, None, None, None), (5, [], (2, None), {}),
            (6, [None, 1], (1, "x"), {"a": 1})]
    return s.createDataFrame(rows, "id int, arr array<int>, st struct<x:int,y:string>, m map<string,int>")


def test_nested_values_as_keys(diff, diff_error):
    diff(lambda s: nested(s).groupBy("arr").count())
    diff(lambda s: nested(s).groupBy("st").agg(F.collect_list("id")))
    diff(lambda s: nested(s).select("arr", "st").distinct())
    diff(lambda s: nested(s).orderBy(F.col("arr").desc_nulls_last(), "id"), ordered=True)
    diff(lambda s: nested(s).orderBy(F.col("st").asc_nulls_first(), "id"), ordered=True)
    diff(lambda s: nested(s).alias("a").join(nested(s).alias("b"), F.col("a.st") == F.col("b.st"))
         .select("a.id", "b.id"))
    diff(lambda s: nested(s).alias("a").join(nested(s).alias("b"), F.col("a.arr") == F.col("b.arr"), "full")
         .select("a.id", "b.id"))
    diff(lambda s: nested(s).select("arr", "st").intersect(nested(s).filter("id > 1").select("arr", "st")))
    diff(lambda s: nested(s).select(
        (F.col("arr") < F.array(F.lit(2))).alias("lt"), (F.col("st") == F.struct(F.lit(1).alias("x"), F.lit("x").alias("y"))).alias("eq"),
        F.col("st.x"), F.col("st")["y"], F.col("m")["a"], F.try_element_at("arr", F.lit(1)), F.hash("arr", "st")))
    diff(lambda s: nested(s).select("id", F.posexplode_outer("m")))
    diff(lambda s: nested(s).select("id", F.inline_outer(F.array("st"))))
    diff(lambda s: nested(s).select("st.*", "id"))
    diff(lambda s: nested(s).groupBy("m").count())
    for program in (lambda s: nested(s).select("m").distinct(),
                    lambda s: nested(s).dropDuplicates(["id", "m"]),
                    lambda s: nested(s).select(F.array("m").alias("am")).intersect(nested(s).select(F.array("m"))),
                    lambda s: nested(s).exceptAll(nested(s)),
                    lambda s: nested(s).createOrReplaceTempView("audit_nested") or
                    s.sql("SELECT DISTINCT id, m FROM audit_nested")):
        diff_error(program, "UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE")
    diff(lambda s: nested(s).dropDuplicates(["id"]).unionAll(nested(s)))


# --- limit, offset, tail ----------------------------------------------------------------------

def test_limit_offset_tail_combinations(ember, oracle, diff):
    diff(lambda s: s.range(100).orderBy(F.desc("id")).offset(10).limit(5), ordered=True)
    diff(lambda s: s.range(100).orderBy("id").limit(20).offset(15), ordered=True)
    diff(lambda s: s.range(10).offset(20))
    diff(lambda s: s.range(10).limit(0))
    diff(lambda s: data(s).orderBy(F.desc_nulls_last("n")).limit(3).union(data(s).limit(0)))
    tails = []
    for spark in (oracle, ember):
        from harness import session_mode
        with session_mode(spark):
            df = spark.range(50).orderBy(F.desc("id"))
            tails.append((df.tail(3), df.offset(47).collect(), df.limit(10).tail(2)))
    assert tails[0] == tails[1]


# --- analyzer -------------------------------------------------------------------------------

def test_name_resolution(diff, diff_error):
    diff(lambda s: data(s).alias("t").select("t.k", F.col("t.g"), F.col("t.*")))
    def struct_fields(s):
        df = nested(s)
        return df.select(F.col("st.x"), "st.y", df["st"]["x"].alias("sx"), df.st.y.alias("sy"))

    diff(struct_fields)
    diff(lambda s: data(s).withColumnRenamed("k", "g2").withColumnsRenamed({"g": "x", "v": "y"}))
    diff(lambda s: data(s).toDF("a", "b", "c", "d").select("a", "d"))
    diff(lambda s: data(s).select("k", "k", F.col("g").alias("k")))
    diff_error(lambda s: data(s).select("k", F.col("g").alias("k")).select("k"), "AMBIGUOUS_REFERENCE")
    diff_error(lambda s: data(s).alias("a").join(data(s).alias("b"), "g").select("k"), "AMBIGUOUS_REFERENCE")
    diff_error(lambda s: data(s).select("st.x"), "UNRESOLVED_COLUMN")
    diff_error(lambda s: data(s).groupBy("g").agg(F.col("k")), "MISSING_AGGREGATION")
    diff_error(lambda s: data(s).groupBy(F.sum("k")).count(), "GROUP_BY_AGGREGATE")
    diff_error(lambda s: data(s).groupBy((F.max("n") + 1).alias("m")).agg(F.count("*")), "GROUP_BY_AGGREGATE")
    diff_error(lambda s: data(s).filter(F.sum("k") > 1), "INVALID_WHERE_CONDITION")
    diff_error(lambda s: data(s).select("k", "n").where(F.max("n") + F.min("k") > 1), "INVALID_WHERE_CONDITION")
    diff_error(lambda s: data(s).createOrReplaceTempView("audit_where") or
               s.sql("SELECT k FROM audit_where WHERE avg(n) > 1"), "INVALID_WHERE_CONDITION")
    diff(lambda s: data(s).select("k", "v").unionByName(data(s).select("v", "g"), allowMissingColumns=True))
    diff_error(lambda s: data(s).select("k").unionByName(data(s).select("g")),
               "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES")
    diff_error(lambda s: data(s).select("k", "v").unionByName(data(s).select("v", "n", "k")),
               "NUM_COLUMNS_MISMATCH")
    diff_error(lambda s: data(s).select("k").union(data(s).select("k", "g")), "NUM_COLUMNS_MISMATCH")


def test_implicit_casts_with_and_without_ansi(ember, oracle, diff, diff_error):
    program = lambda s: data(s).select(  # noqa: E731
        (F.col("k") + F.lit("1")).alias("a"), (F.col("g") == F.lit("a")).alias("b"),
        F.coalesce(F.col("k"), F.col("v")).alias("c"), F.greatest("k", "n", "v").alias("d"),
        (F.col("k") / F.lit(2)).alias("e"), F.concat("k", "g").alias("f"))
    diff(program)
    diff(lambda s: s.sql("SELECT 2 + '3' AS a, '4' * 2L AS b, 1.5 + '2' AS c, "
                         "CAST(2 AS TINYINT) - '1' AS e, 7 % '4' AS f, '3' - 1.5BD AS g, "
                         "k + '1' AS h FROM VALUES (1) AS t(k)"))
    for op in "+-*%":
        diff_error(lambda s, op=op: s.sql(f"SELECT '1' {op} '2'"), "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE")
    diff_error(lambda s: data(s).select(F.col("g").cast("int")), "CAST_INVALID_INPUT")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(program)
        diff(lambda s: s.sql("SELECT 2 + '3' AS a, '4' * 2L AS b, 1.5 + '2' AS c, '1' + '2' AS d"))
        diff(lambda s: data(s).select(F.col("g").cast("int"), (F.col("k") / 0).alias("z"),
                                      (F.col("g") == F.lit(1)).alias("b")))


# --- optimizer rules switched off --------------------------------------------------------------

RULES = ["ConstantFolding", "BooleanSimplification", "PushDownFilters", "ReorderJoin",
         "CollapseProjects", "ColumnPruning", "LimitPushDown", "InferFiltersFromConstraints"]


@pytest.mark.parametrize("rule", RULES)
def test_results_hold_with_an_optimizer_rule_excluded(ember, oracle, diff, rule):
    def program(s):
        a = data(s).filter((F.lit(1) + 1 == 2) & (F.col("k") > 0) | F.lit(False))
        b = data(s).select("k", (F.col("n") * 2).alias("n2")).filter("n2 > 20")
        c = s.range(5).withColumnRenamed("id", "k")
        return (a.join(b, "k").join(c, a["k"] == c["k"]).select(a["k"], "g", "n2")
                .groupBy("g").agg(F.sum("n2").alias("s")).orderBy("g").limit(5))

    with session_conf(ember, oracle, **{"spark_sql_optimizer_excludedRules":
                                        f"org.apache.spark.sql.catalyst.optimizer.{rule}"}):
        diff(program, ordered=True)


def test_missing_group_by(diff_error):
    # A column beside an aggregate without any GROUP BY is MISSING_GROUP_BY; with a GROUP BY
    # that lacks it, MISSING_AGGREGATION.
    diff_error(lambda s: s.sql("SELECT x, count(*) FROM VALUES (1), (2) t(x)"), "MISSING_GROUP_BY")
    diff_error(lambda s: s.sql("SELECT x, sum(x) OVER (), count(*) FROM VALUES (1), (2) t(x)"), "MISSING_GROUP_BY")
    diff_error(lambda s: data(s).select("k", F.sum("v")), "MISSING_GROUP_BY")
    diff_error(lambda s: s.sql("SELECT x, y, count(*) FROM VALUES (1, 2), (2, 3) t(x, y) GROUP BY x"),
               "MISSING_AGGREGATION")


def test_drop_duplicates_unknown_column(diff, diff_error):
    diff_error(lambda s: data(s).dropDuplicates(["nope"]).collect(), "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES")
    diff_error(lambda s: data(s).dropDuplicates(["k", "g.x"]).collect(), "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES")
    # Names match case-insensitively, as columns do.
    diff(lambda s: data(s).dropDuplicates(["K", "G"]).select("k", "g"))
