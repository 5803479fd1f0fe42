"""Differential tests of window functions — Ember against Apache Spark: ranking, offset and
value functions, aggregates over ROWS and RANGE frames, default frames, nulls, ties, empty
input, several partitions, column names, SQL OVER clauses and WINDOW clauses, and errors."""

from __future__ import annotations

from pyspark.sql import Window
from pyspark.sql import functions as F

ROWS = [
    ("a", 1, 10.0), ("a", 2, None), ("a", 2, 30.0), ("a", None, 5.0), ("a", 5, 1.5),
    ("b", 3, 7.0), ("b", 3, 7.0), ("b", 1, None), ("c", None, None),
    (None, 4, 2.0), (None, 4, 3.0), ("b", 8, -1.0), ("b", 10, 4.0),
]


def data(s):
    return s.createDataFrame(ROWS, "k string, v int, x double")


def empty(s):
    return s.createDataFrame([], "k string, v int, x double")


def test_ranking_functions(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v")
        return data(s).select(
            "k", "v", "x",
            F.row_number().over(Window.partitionBy("k").orderBy("v", "x")),
            F.rank().over(w), F.dense_rank().over(w), F.percent_rank().over(w),
            F.cume_dist().over(w), F.ntile(3).over(w), F.ntile(1).over(w).alias("one"))
    diff(program)


def test_ranking_descending_nulls_last(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy(F.col("v").desc_nulls_last(), F.col("x").asc_nulls_last())
        return data(s).select("k", "v", "x", F.rank().over(w), F.row_number().over(w),
                              F.dense_rank().over(w))
    diff(program)


def test_ranking_without_partition(diff):
    def program(s):
        w = Window.orderBy(F.col("x").desc())
        return data(s).select("x", F.rank().over(w).alias("r"), F.ntile(4).over(w).alias("q"))
    diff(program)


def test_lag_lead(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v", "x")
        return data(s).select(
            "k", "v", "x", F.lag("x").over(w), F.lag("v", 2, 0).over(w), F.lead("x", 1).over(w),
            F.lead("v", 2, -1).over(w), F.lag("v", -1).over(w), F.lag("v", 0).over(w))
    diff(program)


def test_first_last_nth_value(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v", "x")
        whole = w.rowsBetween(Window.unboundedPreceding, Window.unboundedFollowing)
        return data(s).select(
            "k", "v", "x", F.first("x").over(w), F.last("x").over(w), F.first("x", True).over(w),
            F.last("x", True).over(whole), F.nth_value("x", 2).over(w), F.nth_value("x", 2, True).over(whole),
            F.first("x").over(w.rowsBetween(-1, 1)).alias("f3"))
    diff(program)


def test_aggregates_default_frames(diff):
    def program(s):
        ordered = Window.partitionBy("k").orderBy("v")
        unordered = Window.partitionBy("k")
        return data(s).select(
            "k", "v", "x", F.sum("x").over(ordered), F.count("*").over(ordered), F.avg("v").over(ordered),
            F.min("x").over(ordered), F.max("v").over(ordered), F.sum("x").over(unordered),
            F.count("x").over(unordered), F.max("k").over(unordered), F.stddev("x").over(unordered))
    diff(program)


def test_aggregates_rows_frames(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v", "x")
        return data(s).select(
            "k", "v", "x",
            F.sum("x").over(w.rowsBetween(-1, 1)), F.avg("v").over(w.rowsBetween(-2, 0)),
            F.count("x").over(w.rowsBetween(0, 2)), F.min("v").over(w.rowsBetween(1, 3)),
            F.max("x").over(w.rowsBetween(-3, -1)), F.sum("v").over(w.rowsBetween(Window.currentRow, Window.unboundedFollowing)),
            F.sum("v").over(w.rowsBetween(Window.unboundedPreceding, Window.currentRow)),
            F.max("k").over(w.rowsBetween(-1, 0)))
    diff(program)


def test_aggregates_range_frames(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v")
        d = Window.partitionBy("k").orderBy(F.col("v").desc())
        return data(s).select(
            "k", "v", "x",
            F.sum("x").over(w.rangeBetween(-1, 1)), F.count("*").over(w.rangeBetween(-2, 0)),
            F.sum("v").over(w.rangeBetween(Window.currentRow, Window.unboundedFollowing)),
            F.count("v").over(w.rangeBetween(1, 3)), F.sum("x").over(d.rangeBetween(-1, 2)),
            F.sum("v").over(d), F.first("x").over(w.rangeBetween(-2, Window.unboundedFollowing)))
    diff(program)


def test_range_frame_double_key(diff):
    def program(s):
        w = Window.orderBy("x").rangeBetween(-3, 1)
        return data(s).select("x", F.sum("v").over(w).alias("s"), F.count("*").over(w).alias("c"))
    diff(program)


def test_window_with_expressions_and_aliases(diff):
    def program(s):
        w = Window.partitionBy(F.col("v") % 2).orderBy(F.col("x") * 2)
        return data(s).select(
            (F.row_number().over(w) + 100).alias("rn"), (F.sum(F.col("x") * 2).over(w) / 2).alias("half"),
            F.col("k"))
    diff(program)


def test_with_column_and_filter_on_window(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy(F.col("x").desc_nulls_last())
        return (data(s).withColumn("rn", F.row_number().over(w)).filter(F.col("rn") <= 2)
                .withColumn("total", F.sum("x").over(Window.partitionBy("k"))))
    diff(program)


def test_several_specs_in_one_select(diff):
    def program(s):
        return data(s).select(
            "k", "v", F.rank().over(Window.orderBy("v")).alias("r1"),
            F.sum("v").over(Window.partitionBy("k")).alias("s1"),
            F.dense_rank().over(Window.partitionBy("k").orderBy(F.col("v").desc())).alias("r2"))
    diff(program)


def test_empty_input(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v")
        return empty(s).select("k", F.row_number().over(w), F.sum("x").over(w), F.lag("v").over(w))
    diff(program)


def test_many_rows_many_partitions(diff):
    def program(s):
        df = s.range(0, 200000).select((F.col("id") % 977).alias("g"), F.col("id"),
                                       ((F.col("id") * 7919) % 1000).alias("v"))
        w = Window.partitionBy("g").orderBy("v", "id")
        return (df.select("g", "id", F.row_number().over(w).alias("rn"), F.sum("v").over(w).alias("run"),
                          F.avg("v").over(w.rowsBetween(-5, 5)).alias("mov"), F.lag("v", 3).over(w).alias("l3"))
                .filter(F.col("id") % 97 == 0))
    diff(program)


def test_orderby_after_window_is_ordered(diff):
    def program(s):
        w = Window.partitionBy("k").orderBy("v", "x")
        return data(s).select("k", "v", "x", F.row_number().over(w).alias("rn")).orderBy("k", "rn")
    diff(program, ordered=True)


def test_group_by_then_window(diff):
    def program(s):
        agg = data(s).groupBy("k").agg(F.sum("x").alias("sx"), F.count("*").alias("n"))
        return agg.select("k", "sx", F.rank().over(Window.orderBy(F.col("sx").desc_nulls_last())).alias("r"),
                          F.sum("n").over(Window.orderBy("k")).alias("cum"))
    diff(program)


def test_sql_over_clauses(diff):
    def program(s):
        data(s).createOrReplaceTempView("win_t")
        return s.sql(
            "SELECT k, v, x, row_number() OVER (PARTITION BY k ORDER BY v, x) AS rn, "
            "sum(x) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
            "sum(v) OVER (ORDER BY v RANGE BETWEEN 2 PRECEDING AND CURRENT ROW), "
            "lag(v) OVER w, rank() OVER w, first_value(x) OVER w, last(x) IGNORE NULLS OVER w, "
            "lead(v, 2, 0) OVER w "
            "FROM win_t WINDOW w AS (PARTITION BY k ORDER BY v NULLS LAST, x)")
    diff(program)


def test_sql_window_over_group_by(diff):
    def program(s):
        data(s).createOrReplaceTempView("win_g")
        return s.sql("SELECT k, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC) AS r, "
                     "sum(sum(v)) OVER (ORDER BY k) AS running FROM win_g GROUP BY k")
    diff(program)


def test_sql_ignore_nulls_offsets(diff):
    def program(s):
        data(s).createOrReplaceTempView("win_n")
        return s.sql("SELECT k, v, x, lag(x) IGNORE NULLS OVER (PARTITION BY k ORDER BY v, x) AS l, "
                     "lead(x, 1) IGNORE NULLS OVER (PARTITION BY k ORDER BY v, x) AS d, "
                     "nth_value(x, 2) IGNORE NULLS OVER (PARTITION BY k ORDER BY v, x) AS n2 FROM win_n")
    diff(program)


def test_explain_shows_window(ember):
    df = ember.createDataFrame(ROWS, "k string, v int, x double")
    plan = df.select(F.row_number().over(Window.partitionBy("k").orderBy("v")))._explain_string(extended=False) \
        if hasattr(df, "_explain_string") else None
    if plan is None:
        import contextlib
        import io
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            df.select(F.row_number().over(Window.partitionBy("k").orderBy("v"))).explain()
        plan = buf.getvalue()
    assert "Window" in plan


def test_errors(diff_error):
    diff_error(lambda s: data(s).select(F.row_number().over(Window.partitionBy("k"))),
               "WINDOW_FUNCTION_FRAME_NOT_ORDERED")
    diff_error(lambda s: data(s).select(F.lag("v").over(Window.partitionBy("k"))),
               "WINDOW_FUNCTION_FRAME_NOT_ORDERED")
    diff_error(lambda s: data(s).select(F.sum("v").over(Window.partitionBy("k").rangeBetween(-1, 0))),
               "DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER")
    diff_error(lambda s: data(s).select(F.sum("v").over(Window.orderBy("k", "v").rangeBetween(-1, 0))),
               "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER")
    diff_error(lambda s: data(s).select(F.sum("v").over(Window.orderBy("k").rangeBetween(-1, 0))),
               "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE")
    diff_error(lambda s: data(s).select(F.ntile(0).over(Window.orderBy("v"))),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: data(s).select(F.abs("v").over(Window.orderBy("v"))),
               "UNSUPPORTED_EXPR_FOR_WINDOW")
    diff_error(lambda s: data(s).filter(F.row_number().over(Window.orderBy("v")) > 1),
               "WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE")
    diff_error(lambda s: data(s).select(F.row_number().over(Window.orderBy("v").rowsBetween(-1, 1))),
               "_LEGACY_ERROR_TEMP_1036")


def test_window_function_syntax_errors(diff_error):
    # A window function without OVER, in the DataFrame API and in SQL.
    diff_error(lambda s: data(s).select(F.row_number()), "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE")
    for q in ["SELECT rank() FROM range(3)", "SELECT lag(id) FROM range(3)", "SELECT ntile(2) FROM range(3)"]:
        diff_error(lambda s, q=q: s.sql(q), "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE")
    # FILTER only on aggregates; IGNORE NULLS only where a function takes it.
    for q in ["SELECT lag(id) FILTER (WHERE id > 0) OVER (ORDER BY id) FROM range(3)",
              "SELECT row_number() FILTER (WHERE id > 0) OVER (ORDER BY id) FROM range(3)",
              "SELECT rank() IGNORE NULLS OVER (ORDER BY id) FROM range(3)",
              "SELECT sum(id) IGNORE NULLS FROM range(3)"]:
        diff_error(lambda s, q=q: s.sql(q), "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX")


def _ranked(s):
    # Ties in v, nulls in both keys, NaN and -0.0 among the doubles; id breaks every tie.
    return s.range(3000).selectExpr(
        "id", "IF(id % 11 = 0, NULL, id % 7) AS k", "IF(id % 13 = 0, NULL, (id * 37) % 13) AS v",
        "CASE WHEN id % 17 = 0 THEN CAST('NaN' AS DOUBLE) WHEN id % 19 = 0 THEN -0.0 "
        "WHEN id % 23 = 0 THEN NULL ELSE (id % 5) * 1.5 END AS x")


def test_filter_on_a_rank_keeps_the_top_rows_of_each_partition(diff):
    # row_number over a total order; rank and dense_rank over orders with ties.
    def program(s):
        d = _ranked(s)
        total = Window.partitionBy("k").orderBy(F.col("v").desc_nulls_last(), "x", "id")
        ties = Window.partitionBy("k").orderBy(F.col("x").desc(), "v")
        a = d.withColumn("rn", F.row_number().over(total)).where("rn <= 3")
        b = d.withColumn("r", F.rank().over(ties)).where(F.col("r") < 4).withColumn("tag", F.lit("rank"))
        c = d.withColumn("r", F.dense_rank().over(ties)).where("2 >= r").withColumn("tag", F.lit("dense"))
        e = d.withColumn("r", F.rank().over(Window.orderBy("v"))).where("r = 1 AND id % 2 = 0") \
            .withColumn("tag", F.lit("global"))
        return a.unionByName(b.withColumnRenamed("r", "rn").drop("tag"), allowMissingColumns=True) \
            .unionByName(c.withColumnRenamed("r", "rn").drop("tag")) \
            .unionByName(e.withColumnRenamed("r", "rn").drop("tag"))
    diff(program)


def test_filter_on_a_rank_over_many_partitions(diff):
    # Thousands of partitions over more rows than one thread takes: short string keys (packed),
    # long ones (byte keys), integer keys with nulls, and ties in the order key.
    def program(s):
        d = s.range(60000).selectExpr(
            "id", "CONCAT('p', id % 4999) AS short_key",
            "IF(id % 3 = 0, NULL, CONCAT('a partition key longer than sixteen bytes ', id % 1234)) AS long_key",
            "IF(id % 101 = 0, NULL, id % 7001) AS int_key", "(id * 7919) % 13 AS v")
        a = d.withColumn("r", F.row_number().over(Window.partitionBy("short_key").orderBy(
            F.col("v").desc(), "id"))).where("r <= 2")
        b = d.withColumn("r", F.rank().over(Window.partitionBy("long_key").orderBy("v"))).where("r <= 3")
        c = d.withColumn("r", F.dense_rank().over(Window.partitionBy("int_key", "short_key").orderBy(
            F.col("v").desc()))).where("r < 2")
        return a.unionByName(b).unionByName(c)
    diff(program)


def test_filter_on_several_rank_functions_in_sql(diff):
    def program(s):
        _ranked(s).createOrReplaceTempView("ranked")
        return s.sql(
            "SELECT * FROM (SELECT k, v, x, id, rank() OVER w AS r, dense_rank() OVER w AS dr, "
            "row_number() OVER (PARTITION BY k ORDER BY v, id) AS rn FROM ranked "
            "WINDOW w AS (PARTITION BY k ORDER BY v)) WHERE r <= 2 AND rn < 100 "
            "UNION ALL SELECT k, v, x, id, 0, 0, 0 FROM (SELECT k, v, x, id, "
            "dense_rank() OVER (PARTITION BY k ORDER BY CAST(v AS STRING) DESC) AS d FROM ranked) "
            "WHERE d = 1")
    diff(program)
