"""Differential tests of Python user-defined functions — Ember against Apache Spark: udf() in
select / withColumn / filter over nulls and every simple return type, struct and array results,
several and nested calls in one projection, functions over a window's or a join's output,
useArrow=True, nondeterministic functions, scalar pandas_udf; and Python errors (a raising
function, a crashing worker), after which the server keeps serving."""

import datetime
import decimal
from typing import Iterator

import pandas as pd
import pyarrow as pa

import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

# The workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROWS = [(1, "a", 1.5, True), (2, None, -2.0, False), (None, "ccc", None, None), (4, "dd", 0.25, True)]
SCHEMA = "id int, s string, x double, b boolean"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


# A udf() object belongs to the API mode (classic or Connect) it was made in, so programs make
# theirs when they run.
def plus_one(*cols):
    return F.udf(lambda v: None if v is None else v + 1, T.IntegerType())(*cols)


def str_len(*cols):
    return F.udf(lambda v: None if v is None else len(v), T.IntegerType())(*cols)


def upper(*cols):
    return F.udf(lambda v: v.upper() if v else v, T.StringType())(*cols)


def test_udf_in_select_and_with_column(diff):
    diff(lambda s: data(s).select("id", plus_one("id")))
    diff(lambda s: data(s).withColumn("n", str_len("s")))
    diff(lambda s: data(s).select(plus_one(F.col("id") * 2).alias("y"), upper("s")))


def test_udf_in_filter(diff):
    diff(lambda s: data(s).filter(plus_one("id") > 2))
    diff(lambda s: data(s).where(str_len("s") >= 2).select("id"))


def test_udf_nulls_and_no_arguments(diff):
    diff(lambda s: data(s).select(F.udf(lambda v: v is None, "boolean")("s").alias("isnull")))
    diff(lambda s: data(s).select(F.udf(lambda: 7, "int")().alias("seven"), "id"))
    diff(lambda s: data(s).select(F.udf(lambda v: None, "string")("id").alias("nothing")))


@pytest.mark.parametrize(
    "ret, fn",
    [
        ("byte", lambda v: v % 100),
        ("short", lambda v: v * 3),
        ("int", lambda v: v * 7),
        ("bigint", lambda v: v * 10_000_000_000),
        ("float", lambda v: v / 4.0),
        ("double", lambda v: v / 3.0),
        ("string", lambda v: f"<{v}>"),
        ("boolean", lambda v: v % 2 == 0),
        ("binary", lambda v: bytes([v % 256])),
        ("date", lambda v: datetime.date(2024, 1, 1) + datetime.timedelta(days=v)),
        ("decimal(10,2)", lambda v: decimal.Decimal(v) / 4),
    ],
)
def test_udf_return_types(diff, ret, fn):
    diff(lambda s: s.range(6).select("id", F.udf(lambda v: None if v is None else fn(v), ret)("id").alias("r")))


def test_udf_timestamp_result(diff):
    def f():
        return F.udf(lambda v: datetime.datetime(2024, 3, 1, 12, 0) + datetime.timedelta(hours=v), "timestamp")

    diff(lambda s: s.range(3).select(f()("id").alias("t")))


def test_udf_struct_and_array_results(diff):
    def pair(c):
        return F.udf(lambda v: None if v is None else (v, str(v)), "struct<n:int,t:string>")(c)

    def rep(c):
        return F.udf(lambda v: None if v is None else [v] * (v % 3), "array<int>")(c)

    diff(lambda s: data(s).select("id", pair("id").alias("p"), rep("id").alias("r")))
    diff(lambda s: data(s).select(pair("id").n.alias("n")))


def test_udf_over_struct_and_array_arguments(diff):
    def total(c):
        return F.udf(lambda a: None if a is None else sum(x for x in a if x is not None), "bigint")(c)

    def field(c):
        return F.udf(lambda r: None if r is None else r["k"] * 2, "int")(c)

    diff(lambda s: s.createDataFrame([([1, 2, None],), (None,), ([],)], "a array<int>").select(total("a")))
    diff(lambda s: s.range(3).select(field(F.struct(F.col("id").cast("int").alias("k"))).alias("f")))


def test_udf_over_several_literal_arguments(diff):
    # Folded array, map and struct literals are distinct inputs, not one shared column.
    def run(s):
        show = F.udf(lambda *args: " ".join(repr(a) for a in args), "string")
        return s.range(2).select(show(F.array(F.lit(1), F.lit(2)), F.create_map(F.lit("a"), F.lit(1)),
                                      F.struct(F.lit(3).alias("x")), F.array(F.lit(4)), F.lit(5), F.lit(5)).alias("shown"))

    diff(run)


def test_several_and_nested_udfs(diff):
    diff(lambda s: data(s).select(plus_one("id"), str_len("s"), upper("s"), plus_one(plus_one("id"))))
    diff(lambda s: data(s).select(plus_one(str_len(upper("s"))).alias("n"), (plus_one("id") + str_len("s")).alias("m")))


def test_udf_over_window_and_join(diff):
    # filter -> window -> window -> udf, as PySpark's test_layered_window_window_udf.
    def program(s):
        df = s.range(20).withColumn("g", F.col("id") % 3)
        w1 = Window.partitionBy("g").orderBy("id")
        w2 = Window.partitionBy("g")
        df = df.filter(F.col("id") > 2).withColumn("r", F.row_number().over(w1))
        df = df.withColumn("m", F.max("r").over(w2))
        return df.withColumn("u", F.udf(lambda a, b: a * 100 + b, "bigint")("r", "m"))

    diff(program)

    def joined(s):
        left = data(s)
        right = s.createDataFrame([(1, 10), (2, 20), (4, 40)], "id int, v int")
        return left.join(right, "id").select("id", plus_one("v").alias("w"), upper("s"))

    diff(joined)


def test_udf_over_aggregate(diff):
    diff(lambda s: s.range(10).groupBy((F.col("id") % 3).alias("k")).agg(F.sum("id").alias("t"))
         .select("k", F.udf(lambda t: t * 2, "bigint")("t").alias("d")))


def test_registered_udf_in_sql(ember, oracle):
    from harness import collect, compare_results, session_mode

    results = []
    for engine, spark in (("spark", oracle), ("ember", ember)):
        with session_mode(spark):
            spark.udf.register("times_three", lambda v: None if v is None else v * 3, "bigint")
            results.append(collect(engine, spark.sql("SELECT id, times_three(id) AS t FROM range(5)")))
    compare_results(results[0], results[1])


def test_pickled_udf(diff):
    # useArrow=False is Spark's BatchEvalPython (pickled rows there; Arrow batches here).
    def f(ret, fn):
        return F.udf(lambda v: None if v is None else fn(v), ret, useArrow=False)

    diff(lambda s: data(s).select("id", f("int", lambda v: v * 3)("id").alias("i"),
                                  f("string", lambda v: v + "?")("s").alias("t"),
                                  f("array<double>", lambda v: [v, v * 2])("x").alias("a"),
                                  f("struct<k:boolean>", lambda v: (not v,))("b").alias("st")))


def test_arrow_udf(diff):
    diff(lambda s: data(s).select("id", F.udf(lambda v: None if v is None else v * 2, "int", useArrow=True)("id")
                                  .alias("d"), upper("s")))


def test_nondeterministic_udf(diff):
    diff(lambda s: s.range(5).select(F.udf(lambda v: v, "bigint").asNondeterministic()("id").alias("v")))


def _half(v: pd.Series) -> pd.Series:
    return v / 2


def _tag(v: pd.Series) -> pd.Series:
    return v.fillna("?") + "!"


def _plus_ten(it: Iterator[pd.Series]) -> Iterator[pd.Series]:
    for v in it:
        yield v + 10


def test_pandas_udf_scalar(diff):
    def half(c):
        return F.pandas_udf(_half, "double")(c)

    diff(lambda s: data(s).select("id", half("x").alias("h"), F.pandas_udf(_tag, "string")("s").alias("t")))
    diff(lambda s: s.range(25000).select(half("id").alias("h")).filter("h > 100"))


def test_pandas_udf_scalar_iterator(diff):
    diff(lambda s: s.range(12).select(F.pandas_udf(_plus_ten, "long")("id").alias("p")))


def test_many_batches(diff, ember, oracle):
    from harness import session_conf

    with session_conf(ember, oracle, spark_sql_execution_arrow_maxRecordsPerBatch="1000"):
        diff(lambda s: s.range(0, 50000, 1, 4).select(plus_one(F.col("id").cast("int")).alias("p"),
                                                     F.pandas_udf(_half, "double")("id").alias("h")))


def _python_error(spark, program):
    from harness import session_mode

    with session_mode(spark):
        with pytest.raises(Exception) as info:
            program(spark).collect()
    return info.value


def test_raising_udf_is_a_python_exception(ember, oracle):
    def boom(v):
        raise ValueError(f"bad value {v}")

    from harness import python_errors, session_mode

    python_errors(ember, oracle, lambda s: s.range(3).select(F.udf(boom, "int")("id")),
                  "ValueError: bad value")
    # The server keeps serving, with a fresh worker.

    with session_mode(ember):
        assert ember.range(3).select(plus_one(F.col("id").cast("int"))).collect()[2][0] == 3


def test_crashing_worker(ember):
    import os

    from harness import session_mode

    actual = _python_error(ember, lambda s: s.range(3).select(F.udf(lambda v: os._exit(3), "int")("id")))
    assert type(actual).__name__ == "PythonException", repr(actual)
    assert "exited unexpectedly" in str(actual)
    with session_mode(ember):
        assert ember.range(2).select(plus_one(F.col("id").cast("int"))).collect()[1][0] == 2


def test_explain_shows_python_operators(ember):
    from harness import session_mode

    with session_mode(ember):
        pickled = F.udf(lambda v: v + 1, "bigint", useArrow=False)
        df = ember.range(3).select(pickled("id").alias("p"), F.pandas_udf(_half, "double")("id").alias("h"))
        text = df._explain_string(extended=False) if hasattr(df, "_explain_string") else None
        if text is None:
            import contextlib
            import io

            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                df.explain()
            text = buf.getvalue()
    assert "BatchEvalPython" in text and "ArrowEvalPython" in text, text


def _evens(frames):
    for pdf in frames:
        yield pdf[pdf.id % 2 == 0].assign(twice=pdf.id * 2)


def _arrow_rows(batches):
    import pyarrow.compute as pc

    for b in batches:
        yield b.filter(pc.greater(b.column("id"), 3)).select(["id"])


def test_map_in_pandas(diff):
    diff(lambda s: s.range(20).mapInPandas(_evens, "id long, twice long"))
    diff(lambda s: data(s).mapInPandas(lambda it: (p[["s", "x"]] for p in it), "s string, x double")
         .filter("x > 0"))


def test_map_in_arrow(diff):
    diff(lambda s: s.range(10).mapInArrow(_arrow_rows, "id long"))


def _center(pdf):
    return pdf.assign(v=pdf.v - pdf.v.mean())


def _count_with_key(key, pdf):
    return pd.DataFrame({"k": [key[0]], "n": [len(pdf)]})


def test_apply_in_pandas(diff):
    def frame(s):
        return s.range(30).select((F.col("id") % 4).alias("k"), (F.col("id") * 1.5).alias("v"))

    diff(lambda s: frame(s).groupBy("k").applyInPandas(_center, "k long, v double"))
    diff(lambda s: frame(s).groupBy((F.col("k") % 2).alias("p")).applyInPandas(_count_with_key, "k long, n long"))
    diff(lambda s: data(s).groupBy("b").applyInPandas(lambda pdf: pdf[["b", "id"]].head(1), "b boolean, id int"))


def _mean(v: pd.Series) -> float:
    return v.mean()


def _weighted(v: pd.Series, w: pd.Series) -> float:
    return float((v * w).sum() / w.sum()) if w.sum() else None


def _longest(s: pd.Series) -> str:
    kept = s.dropna()
    return None if kept.empty else max(kept, key=len)


def _count(v: pd.Series) -> int:
    return len(v)


def _grouped(s):
    return s.range(40).select((F.col("id") % 3).alias("k"), (F.col("id") % 2 == 0).alias("even"),
                              (F.col("id") * 1.5).alias("v"), (F.col("id") % 5 + 1).cast("double").alias("w"),
                              F.when(F.col("id") % 7 == 0, None).otherwise(F.concat(F.lit("s"), "id")).alias("t"))


def test_pandas_udf_grouped_aggregate(diff):
    def mean(c):
        return F.pandas_udf(_mean, "double")(c)

    diff(lambda s: _grouped(s).groupBy("k").agg(mean("v").alias("m")))
    # Several calls, several arguments, shared arguments, expressions over the results and keys.
    diff(lambda s: _grouped(s).groupBy("k", "even").agg(
        mean("v").alias("m"), F.pandas_udf(_weighted, "double")("v", "w").alias("wm"),
        (mean("w") * 2 + F.col("k")).alias("e"), F.pandas_udf(_longest, "string")("t").alias("l"),
        F.pandas_udf(_count, "long")("v").alias("n")))
    # Grouping by an expression, NULL keys forming one group, and arguments that are expressions.
    diff(lambda s: data(s).groupBy(F.col("b")).agg(mean(F.col("x") * 2).alias("m"),
                                                   F.pandas_udf(_count, "int")("id").alias("n")))
    # Without grouping: the whole input is one group; an empty input gives no row.
    diff(lambda s: _grouped(s).agg(mean("v").alias("m"), F.pandas_udf(_count, "long")("k").alias("n")))
    diff(lambda s: _grouped(s).select(mean("v").alias("m")))
    diff(lambda s: _grouped(s).filter("k > 5").agg(mean("v").alias("m")))
    diff(lambda s: _grouped(s).filter("k > 5").groupBy("k").agg(mean("v").alias("m")))
    # A scalar Python function inside the aggregate's argument, and a filter on the result.
    diff(lambda s: _grouped(s).groupBy("k").agg(mean(F.pandas_udf(_half, "double")("v")).alias("m"))
         .filter("m > 10"))


def test_pandas_udf_grouped_aggregate_in_sql(ember, oracle):
    from harness import collect, compare_results, session_mode

    results = []
    for engine, spark in (("spark", oracle), ("ember", ember)):
        with session_mode(spark):
            spark.udf.register("pandas_mean", F.pandas_udf(_mean, "double"))
            _grouped(spark).createOrReplaceTempView("grouped_rows")
            results.append(collect(engine, spark.sql(
                "SELECT k, pandas_mean(v) AS m, pandas_mean(w) + 1 AS w1 FROM grouped_rows GROUP BY k "
                "HAVING pandas_mean(v) > 0 ORDER BY k")))
    compare_results(results[0], results[1])


def test_pandas_udf_grouped_aggregate_errors(diff_error):
    diff_error(lambda s: _grouped(s).groupBy("k").agg(F.pandas_udf(_mean, "double")("v"), F.sum("v")),
               "INVALID_PANDAS_UDF_PLACEMENT")


def _spread(v: pd.Series) -> float:
    return float(v.max() - v.min()) if len(v) else None


def test_pandas_udf_over_window(diff):
    def mean(c):
        return F.pandas_udf(_mean, "double")(c)

    # A window spec belongs to the API mode it was made in: programs make theirs when they run.
    def by_k():
        return Window.partitionBy("k")

    def ordered():
        return Window.partitionBy("k").orderBy("v")

    # The whole partition (unbounded frames), several calls and an expression over one.
    diff(lambda s: _grouped(s).select("k", "v", mean("v").over(by_k()).alias("m"),
                                      (F.pandas_udf(_count, "long")("t").over(by_k()) + 1).alias("n")))
    # Bounded frames: ROWS offsets, the running default frame of an ordered window (RANGE up to the
    # current row's peers), RANGE offsets, and the frame beside a built-in aggregate.
    diff(lambda s: _grouped(s).select(
        "k", "v", mean("v").over(ordered().rowsBetween(-2, 1)).alias("r"),
        mean("w").over(Window.partitionBy("k").orderBy("w")).alias("run"),
        F.pandas_udf(_spread, "double")("v").over(ordered().rangeBetween(-3, 3)).alias("sp"),
        F.sum("v").over(ordered().rowsBetween(-1, 1)).alias("s")))
    # No partitioning, and NULL partition keys forming one partition.
    diff(lambda s: data(s).select("id", mean("x").over(Window.orderBy("id").rowsBetween(-1, 0)).alias("m")))
    diff(lambda s: data(s).select("b", "x", mean("x").over(Window.partitionBy("b")).alias("m")))


def _arrow_center(table):
    import pyarrow.compute as pc

    v = table.column("v")
    return table.set_column(table.schema.get_field_index("v"), "v", pc.subtract(v, pc.mean(v)))


def _arrow_count_with_key(key, table):
    import pyarrow as pa

    return pa.table({"k": [key[0].as_py()], "n": [table.num_rows]})


def _arrow_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for b in batches:
        yield b.select(["k"]).slice(0, 1)


def _pandas_batches(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for pdf in frames:
        yield pdf.assign(v=pdf.v * 2)


def test_apply_in_arrow_and_iterators(diff):
    def frame(s):
        return s.range(30).select((F.col("id") % 4).alias("k"), (F.col("id") * 1.5).alias("v"))

    diff(lambda s: frame(s).groupBy("k").applyInArrow(_arrow_center, "k long, v double"))
    diff(lambda s: frame(s).groupBy((F.col("k") % 2).alias("p")).applyInArrow(_arrow_count_with_key, "k long, n long"))
    diff(lambda s: frame(s).groupBy("k").applyInArrow(_arrow_batches, "k long"))
    diff(lambda s: frame(s).groupBy("k").applyInPandas(_pandas_batches, "k long, v double"))


def _merge_sides(left, right):
    return pd.DataFrame({"k": [left.k.iloc[0] if len(left) else right.k.iloc[0]],
                         "nl": [len(left)], "nr": [len(right)],
                         "sv": [float(left.v.sum()) if len(left) else None],
                         "names": [",".join(sorted(right.name.dropna()))]})


def _merge_with_key(key, left, right):
    return pd.DataFrame({"key": [key[0]], "n": [len(left) + len(right)]})


def test_cogroup_apply_in_pandas(diff):
    def left(s):
        return s.range(20).select((F.col("id") % 5).alias("k"), (F.col("id") * 0.5).alias("v"))

    def right(s):
        return s.createDataFrame([(1, "a"), (1, "b"), (3, None), (7, "z"), (None, "n")], "k long, name string")

    # Keys on one side only are called with an empty other side; NULL keys form one group.
    diff(lambda s: left(s).groupBy("k").cogroup(right(s).groupBy("k")).applyInPandas(
        _merge_sides, "k long, nl long, nr long, sv double, names string"))
    diff(lambda s: left(s).groupBy("k").cogroup(right(s).groupBy("k")).applyInPandas(
        _merge_with_key, "key long, n long").filter("n > 3"))


def _arrow_sides(l, r):
    import pyarrow as pa

    lv = l.column("v").to_pylist() if l.num_rows else []
    names = [n for n in (r.column("name").to_pylist() if r.num_rows else []) if n is not None]
    return pa.Table.from_pydict({"nl": [l.num_rows], "nr": [r.num_rows], "sv": [float(sum(lv))],
                                 "names": [",".join(sorted(names))]},
                                schema=pa.schema([("nl", pa.int64()), ("nr", pa.int64()), ("sv", pa.float64()),
                                                  ("names", pa.string())]))


def _arrow_with_key(key, l, r):
    import pyarrow as pa

    return pa.Table.from_pydict({"key": [key[0].as_py()], "n": [l.num_rows + r.num_rows]},
                                schema=pa.schema([("key", pa.int64()), ("n", pa.int64())]))


def test_cogroup_apply_in_arrow(diff):
    def left(s):
        return s.range(20).select((F.col("id") % 5).alias("k"), (F.col("id") * 0.5).alias("v"))

    def right(s):
        return s.createDataFrame([(1, "a"), (1, "b"), (3, None), (7, "z"), (None, "n")], "k long, name string")

    diff(lambda s: left(s).groupBy("k").cogroup(right(s).groupBy("k")).applyInArrow(
        _arrow_sides, "nl long, nr long, sv double, names string"))
    diff(lambda s: left(s).groupBy("k").cogroup(right(s).groupBy("k")).applyInArrow(
        _arrow_with_key, "key long, n long").filter("n > 3"))


# Python calls outside projections and filters: the optimizer evaluates them in a projection
# below the operator that reads them.


def mod3(*cols):
    return F.udf(lambda v: None if v is None else v % 3, T.LongType())(*cols)


def test_udf_in_grouping_keys(diff):
    diff(lambda s: s.range(10).groupBy(mod3("id").alias("k")).count())
    diff(lambda s: s.range(10).groupBy(mod3("id")).agg(F.sum("id").alias("t"), F.max("id")))
    # The key expression around the call, and nulls from the function.
    diff(lambda s: data(s).groupBy((plus_one("id") * 2).alias("k")).agg(F.count("*").alias("n")))
    diff(lambda s: data(s).groupBy(upper("s")).count())
    # Two different functions that render alike (<lambda>) stay apart.
    diff(lambda s: s.range(12).groupBy(F.udf(lambda v: v % 2, "bigint")("id").alias("a"),
                                       F.udf(lambda v: v % 3, "bigint")("id").alias("b")).count())


def test_udf_in_sql_group_by(diff):
    def program(s):
        s.udf.register("m3", lambda v: None if v is None else v % 3, "bigint")
        s.range(10).createOrReplaceTempView("udf_keys")
        return s.sql("SELECT m3(id) AS k, count(*) AS n, sum(m3(id + 1)) AS t FROM udf_keys GROUP BY m3(id)")

    diff(program)

    def over_result(s):
        s.udf.register("twice", lambda v: None if v is None else v * 2, "bigint")
        s.range(10).createOrReplaceTempView("udf_keys2")
        return s.sql("SELECT id % 3 AS k, twice(id % 3) AS d, twice(count(*)) AS c FROM udf_keys2 GROUP BY id % 3")

    diff(over_result)


def test_udf_in_aggregate_arguments(diff):
    diff(lambda s: s.range(10).agg(F.sum(mod3("id")).alias("t"), F.avg(mod3(F.col("id") + 1))))
    diff(lambda s: data(s).groupBy("b").agg(F.collect_list(upper("s")).alias("u"), F.max(plus_one("id"))))
    diff(lambda s: s.range(10).groupBy((F.col("id") % 2).alias("p"))
         .agg(F.count(F.when(mod3("id") == 0, 1)).alias("c"), F.countDistinct(mod3("id")).alias("d")))


def test_udf_in_rollup_keys(diff):
    diff(lambda s: s.range(10).rollup(mod3("id").alias("k")).agg(F.sum("id").alias("t")))


def test_udf_in_sort_keys(diff):
    diff(lambda s: s.range(10).orderBy(mod3("id"), F.col("id").desc()), ordered=True)
    diff(lambda s: data(s).orderBy(upper("s").desc_nulls_last(), "id"), ordered=True)
    diff(lambda s: data(s).sortWithinPartitions(plus_one("id")).select("s"))


def test_udf_in_window_specification(diff):
    diff(lambda s: s.range(10).select("id", F.row_number().over(Window.partitionBy(mod3("id")).orderBy("id")).alias("r")))
    diff(lambda s: s.range(10).select("id", F.sum(mod3("id")).over(Window.orderBy(F.col("id").desc())).alias("t")))
    diff(lambda s: s.range(10).select("id", F.lag("id").over(Window.partitionBy(F.lit(1)).orderBy(mod3("id"), "id")).alias("p")))


def test_udf_in_generator_arguments(diff):
    def rep(c):
        return F.udf(lambda v: None if v is None else [v] * (v % 3), "array<int>")(c)

    diff(lambda s: data(s).select("id", F.explode(rep("id")).alias("e")))
    diff(lambda s: data(s).select("id", F.posexplode_outer(rep("id"))))


def test_udf_in_join_conditions(diff):
    def sides(s):
        return s.range(8).withColumnRenamed("id", "a"), s.range(4).withColumnRenamed("id", "b")

    # A call over one side is evaluated on that side; any join type.
    for how in ["inner", "left", "right", "full", "semi", "anti"]:
        diff(lambda s, how=how: (lambda l, r: l.join(r, mod3("a") == r.b, how))(*sides(s)))
    # A call over both sides: inner joins filter the joined rows.
    both = F.udf(lambda x, y: (x + y) % 4 == 0, "boolean")
    diff(lambda s: (lambda l, r: l.join(r, F.udf(lambda x, y: (x + y) % 4 == 0, "boolean")(l.a, r.b)))(*sides(s)))
    diff(lambda s: (lambda l, r: l.join(r, (l.a > r.b) & F.udf(lambda x, y: (x * y) % 3 == 1, "boolean")(l.a, r.b)))(*sides(s)))
    del both


def test_udf_over_both_join_sides_in_outer_join_is_an_error(diff_error):
    def program(s):
        l, r = s.range(4).withColumnRenamed("id", "a"), s.range(4).withColumnRenamed("id", "b")
        return l.join(r, F.udf(lambda x, y: x == y, "boolean")(l.a, r.b), "left")

    diff_error(program, "UNSUPPORTED_FEATURE.PYTHON_UDF_IN_ON_CLAUSE")


def test_udf_names_show_arguments_as_spark(diff):
    # A Python function's arguments are named by Spark's toString: `cast(id as int)`.
    diff(lambda s: s.range(3).select(plus_one(F.col("id").cast("int")), str_len(F.lit(None).cast("string"))))
    diff(lambda s: s.range(3).groupBy().agg(F.max(plus_one(F.col("id").cast("int")))))


def test_udf_names_of_nested_arguments(diff):
    # struct() shows each field's name before its value, aliases and field accesses their SQL,
    # null tests, NOT and negation their toString forms, dates and binary values bare.
    def shown(*cols):
        return F.udf(lambda *args: len(args), "int")(*cols)

    def program(s):
        df = s.createDataFrame([(1, "x", 2, (3, 4), True)], "a int, s string, b int, st struct<x:int,y:int>, t boolean")
        return df.select(
            shown(F.struct("a", "b")), shown(F.struct(F.col("a").alias("q"), F.col("a") + 1, F.lit(1), "st.x")),
            shown(F.struct(F.col("a").alias("x y"))), shown(F.struct(F.struct("a"))), shown(F.array("a")),
            shown(F.col("st.x")), shown(F.struct("a", "b").getField("a")), shown(F.struct("a").alias("r").getField("a")),
            shown(F.col("a").alias("x")), shown(F.col("a").isNull().alias("x")), shown(F.col("a").alias("1x")),
            shown(F.upper(F.col("s").alias("u"))), shown(F.col("a").isNull()), shown(F.col("a").isNotNull()),
            shown(~F.col("t")), shown(F.col("a") != 1), shown(-F.col("a")), shown(F.expr("+a")),
            shown(F.lit(datetime.date(2020, 1, 2))), shown(F.lit(datetime.datetime(2020, 1, 2, 3, 4, 5, 120000))),
            shown(F.lit(bytearray(b"\xab\x01"))), F.udf(lambda x: 1, "int")(x=F.struct("a")))
    diff(program)
    diff(lambda s: s.range(3).groupBy().agg(shown(F.count_distinct("id")), shown(F.sum_distinct("id")),
                                            shown(F.expr("count(DISTINCT id) FILTER (WHERE id > 0)"))))
    diff(lambda s: s.range(3).select(
        F.pandas_udf(lambda v: v.astype(str), "string")(F.col("id").isNull()),
        F.pandas_udf(lambda v: v["id"].astype(str), "string")(F.struct(F.col("id").alias("id"))),
        F.pandas_udf(lambda v: v.astype(str), "string")(F.col("id").alias("i"))))


def test_udf_names_of_hidden_arguments(diff, ember, oracle):
    # Spark's toString shows what an expression keeps beyond its SQL text: the session time zone,
    # defaulted parameters, the ANSI flag, and a few class names; IN and if have their own forms.
    from harness import session_conf

    def shown(*cols):
        return F.udf(lambda *args: len(args), "int")(*cols)

    def program(s):
        df = s.createDataFrame([(1, "x y ", [1, 2], "2020-01-02")], "a int, s string, arr array<int>, d string")
        df = df.withColumn("ts", F.col("d").cast("timestamp"))
        return df.select(
            shown(F.hour("ts")), shown(F.minute("ts")), shown(F.second("ts")), shown(F.to_date("d")),
            shown(F.to_date("d", "yyyy-MM-dd")), shown(F.date_format("ts", "yyyy")), shown(F.hash("a")),
            shown(F.hash("a", "s")), shown(F.xxhash64("a")), shown(F.trim("s")), shown(F.ltrim("s")),
            shown(F.rtrim("s")), shown(F.element_at("arr", 1)), shown(F.col("s").startswith("x")),
            shown(F.col("s").endswith("y")), shown(F.col("s").contains("z")), shown(F.col("a").isin(1, 2)),
            shown(F.col("a").isin(3)), shown(F.expr("if(a > 0, 1, 2)")), shown(F.unix_timestamp("ts")),
            shown(F.to_timestamp("d")), shown(F.to_timestamp("d", "yyyy-MM-dd")), shown(F.from_unixtime("a")),
            shown(F.when(F.col("a") > 0, 1).otherwise(2)))
    diff(program)
    diff(lambda s: s.range(3).groupBy().agg(shown(F.first("id")), shown(F.last("id")),
                                            shown(F.first("id", ignorenulls=True)), shown(F.any_value("id"))))
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": "America/Los_Angeles",
                                        "spark.sql.ansi.enabled": "false"}):
        diff(program)


def gpu_addresses(*cols):
    def addresses(v):
        from pyspark import TaskContext

        gpu = TaskContext.get().resources().get("gpu")
        return None if gpu is None else ",".join(gpu.addresses)

    return F.udf(addresses, "string")(*cols)


def test_udf_task_context_has_no_gpu_unless_asked(diff):
    diff(lambda s: s.range(3).select(gpu_addresses("id").alias("gpus")))


def test_udf_tasks_get_gpu_slots(ember):
    # spark.task.resource.gpu.amount: each task holds a share of one of the executor's GPUs
    # (two here, named "0" and "1") and sees it in its TaskContext.
    from harness import session_mode

    with session_mode(ember):
        _gpu_slots_program(ember)


def _gpu_slots_program(ember):
    ember.conf.set("spark.executor.resource.gpu.amount", "2")
    ember.conf.set("spark.task.resource.gpu.amount", "0.25")
    try:
        rows = ember.range(0, 40000, 1, 8).select(gpu_addresses("id").alias("g")).distinct().collect()
        assert {r.g for r in rows} <= {"0", "1"} and rows, rows
        ember.conf.set("spark.task.resource.gpu.amount", "2")
        assert ember.range(3).select(gpu_addresses("id").alias("g")).first().g in ("0,1", "1,0")
        ember.conf.set("spark.task.resource.gpu.amount", "0.3")
        with pytest.raises(Exception, match="INVALID_CONF_VALUE"):
            ember.range(3).select(gpu_addresses("id")).collect()
    finally:
        ember.conf.unset("spark.task.resource.gpu.amount")
        ember.conf.unset("spark.executor.resource.gpu.amount")
    assert ember.range(2).select(gpu_addresses("id").alias("g")).first().g is None


def _rows_per_call(it):
    # One output row per call of the function: how many rows and batches it was given.
    rows = batches = 0
    for pdf in it:
        rows += len(pdf)
        batches += 1
    yield pd.DataFrame({"rows": [rows], "called": [1]})


def test_map_in_pandas_is_called_once_per_partition(diff):
    # As in Spark, one call sees a whole partition (a model loaded at its start loads once).
    diff(lambda s: s.range(0, 300000, 1, 3).mapInPandas(_rows_per_call, "rows long, called long"))
    diff(lambda s: s.range(0, 300000, 1, 3).mapInArrow(
        lambda it: (pa.RecordBatch.from_pydict({"n": [sum(b.num_rows for b in it)]}) for _ in [0]), "n long"))


def _scaled(a, b=10):
    return None if a is None or b is None else a * b


def test_udf_keyword_arguments(diff):
    def f(*args, **kwargs):
        return F.udf(_scaled, "long")(*args, **kwargs)

    diff(lambda s: s.range(3).select(f(a=F.col("id"), b=F.lit(2)), f(F.col("id"), b=F.lit(3)),
                                     f(b=F.col("id"), a=F.lit(3)), f(F.col("id"))))

    def pandas_kw(s):
        @F.pandas_udf("long")
        def minus(a: pd.Series, b: pd.Series) -> pd.Series:
            return a - b

        return s.range(3).select(minus(b=F.col("id"), a=F.lit(10)))

    diff(pandas_kw)

    def sql_kw(s):
        s.udf.register("scaled_kw", _scaled, "long")
        return s.sql("SELECT scaled_kw(b => id, a => 5), scaled_kw(id, b => 7) FROM range(3)")

    diff(sql_kw)


def test_arrow_udfs(diff):
    # arrow_udf: Array -> Array (250), Iterator[Array] -> Iterator[Array] (251), Array -> scalar
    # per group (252) and over a window (253).
    from pyspark.sql.functions import arrow_udf

    def scalar(s):
        @arrow_udf("long")
        def plus(a: pa.Array, b: pa.Array) -> pa.Array:
            return pa.compute.add(a, pa.compute.multiply(b, 10))

        return s.range(5).select(plus("id", F.col("id") + 1).alias("p"), plus(b=F.col("id"), a=F.lit(1)))

    diff(scalar)

    def iterator(s):
        from typing import Iterator

        @arrow_udf("double")
        def halves(it: Iterator[pa.Array]) -> Iterator[pa.Array]:
            for a in it:
                yield pa.compute.divide(pa.compute.cast(a, pa.float64()), 2)

        return s.range(0, 100000, 1, 2).select(halves("id").alias("h")).agg(F.sum("h"), F.count("*"))

    diff(iterator)

    def grouped(s):
        @arrow_udf("double")
        def mean(v: pa.Array) -> float:
            return pa.compute.mean(v).as_py()

        df = s.range(20).select((F.col("id") % 3).alias("k"), (F.col("id") * 1.5).alias("v"))
        return df.groupBy("k").agg(mean("v").alias("m"))

    diff(grouped)

    def windowed(s):
        @arrow_udf("double")
        def total(v: pa.Array) -> float:
            return pa.compute.sum(v).as_py()

        df = s.range(12).select((F.col("id") % 3).alias("k"), F.col("id").cast("double").alias("v"))
        return df.select("k", "v", total("v").over(Window.partitionBy("k")).alias("t"))

    diff(windowed)
