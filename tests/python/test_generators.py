"""Differential tests of generators — Ember against Apache Spark: explode, posexplode, inline and
stack with their outer forms over arrays, maps and arrays of structs, nulls and empty inputs;
generators in DataFrame select / withColumn / selectExpr, in SQL select lists, LATERAL VIEW and
FROM; column names, nullability, multi-aliases; and Spark's errors."""

from __future__ import annotations

from pyspark.sql import Window
from pyspark.sql import functions as F

ROWS = [
    (1, [1, 2, None], {"a": 1, "b": None}, [(1, "x"), None, (3, None)], ["p", "q"]),
    (2, [], {}, [], []),
    (3, None, None, None, None),
    (4, [7], {"z": 26}, [(4, "w")], [None]),
    (None, [5, 5], {"k": 0}, [(None, "n")], ["r"]),
]
SCHEMA = "id int, arr array<int>, m map<string,int>, st array<struct<a:int,b:string>>, s array<string>"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def view(s):
    data(s).createOrReplaceTempView("t")
    return s


def test_explode_array(diff):
    diff(lambda s: data(s).select("id", F.explode("arr")))
    diff(lambda s: data(s).select("id", F.explode("s").alias("x")))
    diff(lambda s: data(s).select(F.explode("arr"), "id"))


def test_explode_outer_array(diff):
    diff(lambda s: data(s).select("id", F.explode_outer("arr")))
    diff(lambda s: data(s).select("id", F.explode_outer("s").alias("x")))


def test_explode_map(diff):
    diff(lambda s: data(s).select("id", F.explode("m")))
    diff(lambda s: data(s).select("id", F.explode_outer("m")))
    diff(lambda s: data(s).select(F.explode("m").alias("k", "v")))


def test_posexplode(diff):
    diff(lambda s: data(s).select("id", F.posexplode("arr")))
    diff(lambda s: data(s).select("id", F.posexplode_outer("arr")))
    diff(lambda s: data(s).select("id", F.posexplode("m")))
    diff(lambda s: data(s).select("id", F.posexplode_outer("m")))
    diff(lambda s: data(s).select(F.posexplode("s").alias("p", "v")))


def test_inline(diff):
    diff(lambda s: data(s).select("id", F.inline("st")))
    diff(lambda s: data(s).select("id", F.inline_outer("st")))
    diff(lambda s: data(s).select(F.inline("st").alias("x", "y")))
    diff(lambda s: s.sql("SELECT inline(array(struct(1, 'a'), struct(2, 'b')))"))


def test_explode_of_structs_and_nested_arrays(diff):
    diff(lambda s: data(s).select("id", F.explode("st").alias("e")).select("id", "e", "e.a"))
    diff(lambda s: s.createDataFrame([([[1, 2], [], None, [3]],), (None,)], "aa array<array<int>>")
         .select(F.explode("aa").alias("inner")).select("inner", F.explode_outer("inner")))
    diff(lambda s: s.range(1).select(F.explode(F.array(F.array(F.lit(1)), F.array()))))


def test_stack(diff):
    diff(lambda s: s.sql("SELECT stack(2, 1, 'a', 2, null)"))
    diff(lambda s: s.sql("SELECT stack(3, 1, 2, 3, 4)"))
    diff(lambda s: s.sql("SELECT stack(2, null, 1)"))
    diff(lambda s: s.sql("SELECT stack(1, 1, 'x', 2.5)"))
    diff(lambda s: data(s).select("id", F.stack(F.lit(2), "id", F.col("id") * 10).alias("v")))
    diff(lambda s: view(s).sql("SELECT id, stack(2, id, 'a', id + 1, 'b') AS (n, tag) FROM t"))


def test_empty_and_null_inputs(diff):
    diff(lambda s: data(s).filter("id > 100").select("id", F.explode("arr")))
    diff(lambda s: data(s).filter("id > 100").select("id", F.explode_outer("m")))
    diff(lambda s: s.sql("SELECT explode(array())"))
    diff(lambda s: s.createDataFrame([(1, None)], "id int, arr array<int>").select("id", F.explode_outer("arr")))


def test_with_column_and_select_expr(diff):
    diff(lambda s: data(s).withColumn("x", F.explode("arr")))
    diff(lambda s: data(s).withColumn("arr", F.explode("arr")))
    diff(lambda s: data(s).selectExpr("id", "posexplode(arr) as (p, v)"))
    diff(lambda s: data(s).selectExpr("explode(m) as (k, v)", "id + 1 as next"))


def test_expressions_beside_generator(diff):
    diff(lambda s: data(s).select((F.col("id") + 1).alias("next"), F.explode("arr").alias("x"),
                                  F.upper(F.col("s")[0]).alias("first")))
    diff(lambda s: data(s).select(F.explode("arr").alias("x")).select((F.col("x") * 2).alias("y")))


def test_several_generators_in_one_select(diff):
    diff(lambda s: data(s).select("id", F.explode("arr").alias("a"), F.explode("s").alias("b")))
    diff(lambda s: view(s).sql("SELECT id, explode(arr), posexplode(m) FROM t"))


def test_explode_after_filter_and_before_aggregate(diff):
    diff(lambda s: data(s).filter(F.col("id") < 4).select("id", F.explode("arr").alias("x"))
         .groupBy("x").agg(F.count("*").alias("n"), F.sum("id").alias("ids")))
    diff(lambda s: data(s).select("id", F.explode("arr").alias("x")).filter("x > 1"))
    diff(lambda s: data(s).select(F.explode("arr").alias("x")).agg(F.count("*"), F.count("x")))
    diff(lambda s: data(s).select(F.explode("arr").alias("x")).orderBy(F.col("x").desc_nulls_last()),
         ordered=True)


def test_generator_over_aggregate(diff):
    diff(lambda s: data(s).groupBy("id").agg(F.explode(F.collect_list("id"))))
    diff(lambda s: view(s).sql("SELECT explode(collect_list(id)) AS v FROM t"))
    diff(lambda s: view(s).sql("SELECT id, posexplode(collect_list(arr)) FROM t GROUP BY id"))
    diff(lambda s: view(s).sql("SELECT explode(arr) AS x, count(*) AS n FROM t GROUP BY arr"))
    diff(lambda s: view(s).sql("SELECT DISTINCT explode(arr) AS x FROM t"))
    diff(lambda s: data(s).groupBy("id").agg(F.inline(F.collect_list(F.struct("id", F.col("id") * 2)))))


def test_sql_select_list(diff):
    diff(lambda s: view(s).sql("SELECT id, explode(arr) AS x FROM t"))
    diff(lambda s: view(s).sql("SELECT posexplode(arr) AS (p, v) FROM t"))
    diff(lambda s: view(s).sql("SELECT explode(arr) AS x FROM t WHERE id > 0 ORDER BY x"), ordered=True)
    diff(lambda s: view(s).sql("SELECT explode(arr) AS (x) FROM t"))
    diff(lambda s: view(s).sql("SELECT explode(map(1, 'a')) AS (k, v)"))


def test_lateral_column_alias_of_a_generator(diff):
    diff(lambda s: view(s).sql("SELECT id, explode(arr) AS x, x + 1 AS y FROM t"))
    diff(lambda s: view(s).sql("SELECT explode(s) AS e, upper(e), id FROM t WHERE id < 4"))


def test_lateral_view(diff):
    diff(lambda s: view(s).sql("SELECT * FROM t LATERAL VIEW explode(arr) tt AS c"))
    diff(lambda s: view(s).sql("SELECT id, col FROM t LATERAL VIEW OUTER explode(arr) tt"))
    diff(lambda s: view(s).sql("SELECT id, p, k, v FROM t LATERAL VIEW OUTER posexplode(m) x AS p, k, v"))
    diff(lambda s: view(s).sql("SELECT x.c, x.* FROM t LATERAL VIEW explode(arr) x AS c"))
    diff(lambda s: view(s).sql("SELECT id, a, b FROM t LATERAL VIEW inline(st) x AS a, b"))


def test_lateral_view_chained(diff):
    diff(lambda s: view(s).sql(
        "SELECT id, c, k, v FROM t LATERAL VIEW explode(arr) x AS c LATERAL VIEW explode(m) y AS k, v"))
    diff(lambda s: view(s).sql(
        "SELECT id, c, e FROM t LATERAL VIEW OUTER explode(arr) x AS c "
        "LATERAL VIEW OUTER explode(s) y AS e WHERE id IS NULL OR id < 3"))
    diff(lambda s: view(s).sql(
        "SELECT c, count(*) AS n FROM t LATERAL VIEW explode(arr) x AS c GROUP BY c"))


def test_lateral_generator_in_from(diff):
    diff(lambda s: view(s).sql("SELECT * FROM t, LATERAL explode(arr)"))
    diff(lambda s: view(s).sql("SELECT id, e.x FROM t, LATERAL explode(t.arr) AS e(x) WHERE id > 1"))
    diff(lambda s: view(s).sql("SELECT id, p, v FROM t, LATERAL posexplode(s) e(p, v)"))


def test_table_valued_functions(diff):
    diff(lambda s: s.sql("SELECT * FROM explode(array(1, 2))"))
    diff(lambda s: s.sql("SELECT * FROM explode(array(1, 2)) AS tt(x)"))
    diff(lambda s: s.sql("SELECT * FROM posexplode(map(1, 2))"))
    diff(lambda s: s.sql("SELECT * FROM inline(array(struct(1 AS a, 2 AS b)))"))
    diff(lambda s: s.sql("SELECT * FROM stack(2, 1, 2)"))
    diff(lambda s: s.sql("SELECT * FROM explode_outer(array())"))
    diff(lambda s: s.sql("SELECT col * 2 AS d FROM explode(sequence(1, 5)) WHERE col > 2"))


def test_large_input_crosses_batches(diff):
    # More rows than one batch, with rows that explode to nothing between them.
    def program(s):
        return (s.range(200_000).select(
            "id", F.when(F.col("id") % 3 == 0, F.array().cast("array<bigint>")).otherwise(F.array("id", F.col("id") + 1)).alias("a"))
            .select("id", F.posexplode("a")).agg(F.count("*"), F.sum("col"), F.sum("pos"), F.max("id")))
    diff(program)


def test_errors(diff_error):
    diff_error(lambda s: data(s).select(F.explode("arr") + 1), "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS")
    diff_error(lambda s: data(s).select(F.explode(F.explode("arr"))), "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS")
    diff_error(lambda s: data(s).filter(F.explode("arr") > 1), "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT")
    diff_error(lambda s: view(s).sql("SELECT * FROM t WHERE explode(arr) > 1"), "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT")
    diff_error(lambda s: view(s).sql("SELECT id FROM t ORDER BY explode(arr)"), "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT")
    diff_error(lambda s: data(s).select(F.sum(F.explode("arr"))), "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS")
    diff_error(lambda s: data(s).select(F.explode("arr").over(Window.orderBy("id"))),
               "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS")
    diff_error(lambda s: data(s).groupBy(F.explode("arr")).count(), "MISSING_AGGREGATION")
    diff_error(lambda s: data(s).withColumn("x", F.posexplode("arr")), "UDTF_ALIAS_NUMBER_MISMATCH")
    diff_error(lambda s: view(s).sql("SELECT explode(collect_list(id)), explode(collect_list(id)) FROM t"),
               "UNSUPPORTED_GENERATOR.MULTI_GENERATOR")
    diff_error(lambda s: data(s).select(F.explode("id")), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT explode(null)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: data(s).select(F.inline("arr")), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: data(s).select(F.posexplode("arr").alias("p")), "UDTF_ALIAS_NUMBER_MISMATCH")
    diff_error(lambda s: data(s).select(F.explode("arr").alias("a", "b")), "UDTF_ALIAS_NUMBER_MISMATCH")
    diff_error(lambda s: view(s).sql("SELECT * FROM t LATERAL VIEW explode(arr) x AS c, d"),
               "UDTF_ALIAS_NUMBER_MISMATCH")


def test_stack_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT stack(0, 1)"), "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT stack(2, 1, 'a')"), "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT stack(2, 1, 2L)"), "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT stack('a', 1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: view(s).sql("SELECT stack(id, 1) FROM t"), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("SELECT stack(1)"), "WRONG_NUM_ARGS")
    diff_error(lambda s: s.sql("SELECT explode(array(1), array(2))"), "WRONG_NUM_ARGS")


def test_values_with_empty_arrays_and_maps(diff):
    # PySpark's own examples: VALUES rows whose empty ARRAY() / MAP() widen to the other rows' types.
    values = "SELECT * FROM VALUES (1, ARRAY(1, 2, NULL)), (2, ARRAY()), (3, NULL) AS t(i, a)"
    diff(lambda s: s.sql(values).select("*", F.explode_outer("a")))
    diff(lambda s: s.sql(values).select("*", F.posexplode("a")))
    maps = "SELECT * FROM VALUES (1, MAP(1, 2, 3, NULL)), (2, MAP()), (3, NULL) AS t(i, m)"
    diff(lambda s: s.sql(maps).select("*", F.explode("m")))
    diff(lambda s: s.range(3).select(F.explode_outer(F.when(F.col("id") > 0, F.array("id")).otherwise(F.array()))))
