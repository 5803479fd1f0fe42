"""Differential tests of the DataFrame API that PySpark 4.x added over Spark Connect: lateral
joins (DataFrame.lateralJoin, SQL JOIN LATERAL), table-valued functions (spark.tvf), spark.sql
with DataFrame arguments, DataFrame.zip and DataFrame.repartitionById — Ember against Apache
Spark."""

from __future__ import annotations

T_ROWS = [(1, [1, 2]), (2, []), (3, None), (4, [5])]


def table(s):
    return s.createDataFrame(T_ROWS, "id int, arr array<int>")


def view(s):
    table(s).createOrReplaceTempView("lat_t")
    return s


# --- DataFrame.lateralJoin -------------------------------------------------------------------


def test_lateral_join_with_a_table_function(diff):
    from pyspark.sql import functions as F
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer())))
    diff(lambda s: table(s).lateralJoin(s.tvf.posexplode(F.col("arr").outer()), how="cross"))
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer()).alias("e"))
         .select("id", "e.col"))
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer()), F.col("col") > 1))


def test_lateral_join_left_without_a_condition_drops_rows_without_function_rows(diff):
    # Spark turns a lateral join over a function's rows without a condition into a Generate,
    # whatever the join type.
    from pyspark.sql import functions as F
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer()), how="left"))
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer()).alias("e"), how="left")
         .select("id", "e.col"))


def test_lateral_join_left_with_a_condition_keeps_every_left_row(diff):
    from pyspark.sql import functions as F
    diff(lambda s: table(s).lateralJoin(s.tvf.explode(F.col("arr").outer()).toDF("v"),
                                        F.col("v") > 1, how="left"))


def test_lateral_join_with_a_correlated_subquery(diff):
    from pyspark.sql import functions as F

    def sub(s):
        return s.range(3).alias("b").where(F.col("b.id") < F.col("a.id").outer()) \
            .select(F.col("b.id").alias("z"))

    diff(lambda s: table(s).alias("a").lateralJoin(sub(s)))
    diff(lambda s: table(s).alias("a").lateralJoin(sub(s), how="left"))
    diff(lambda s: table(s).alias("a").lateralJoin(sub(s), F.col("z") > 0, how="left"))
    diff(lambda s: table(s).alias("a").lateralJoin(
        s.range(1).select((F.col("a.id").outer() * 10).alias("x"))))


def test_lateral_join_uncorrelated(diff):
    diff(lambda s: table(s).lateralJoin(s.range(2), how="cross"))
    diff(lambda s: table(s).lateralJoin(s.range(2).toDF("k")))


def test_lateral_join_type_errors(diff_error):
    diff_error(lambda s: table(s).lateralJoin(s.range(2), how="full").collect(), "UNSUPPORTED_JOIN_TYPE")
    diff_error(lambda s: table(s).lateralJoin(s.range(2), how="right").collect(), "UNSUPPORTED_JOIN_TYPE")


# --- SQL JOIN LATERAL ------------------------------------------------------------------------


def sql(query):
    return lambda s: view(s).sql(query)


def test_sql_left_join_lateral_table_function(diff):
    diff(sql("SELECT * FROM lat_t LEFT JOIN LATERAL explode(arr) ON true"))
    diff(sql("SELECT * FROM lat_t LEFT JOIN LATERAL explode(arr) e(v) ON v > 1"))
    diff(sql("SELECT * FROM lat_t LEFT OUTER JOIN LATERAL posexplode(arr) e(p, v) ON p = 0"))
    diff(sql("SELECT * FROM lat_t JOIN LATERAL explode(arr) e(v) ON v > 1"))


def test_sql_join_lateral_subquery(diff):
    diff(sql("SELECT * FROM lat_t LEFT JOIN LATERAL (SELECT explode(arr) AS v) ON v > 1"))
    diff(sql("SELECT * FROM lat_t JOIN LATERAL (SELECT explode(lat_t.arr) AS v) s ON s.v > 1"))
    diff(sql("SELECT * FROM lat_t LEFT JOIN LATERAL (SELECT id * 10 AS x) s"))
    diff(sql("SELECT * FROM lat_t LEFT JOIN LATERAL "
             "(SELECT * FROM lat_t u WHERE u.id > lat_t.id) s ON s.id > 2"))
    diff(sql("SELECT * FROM lat_t t JOIN LATERAL "
             "(SELECT count(*) AS c FROM lat_t u WHERE u.id = t.id) s ON s.c > 0"))


# --- spark.tvf -------------------------------------------------------------------------------


def test_table_valued_functions(diff):
    from pyspark.sql import functions as F
    diff(lambda s: s.tvf.range(5))
    diff(lambda s: s.tvf.range(1, 7, 2))
    diff(lambda s: s.tvf.range(10, 0, -3, 2))
    diff(lambda s: s.tvf.explode(F.array(F.lit(1), F.lit(2))))
    diff(lambda s: s.tvf.explode_outer(F.array().cast("array<int>")))
    diff(lambda s: s.tvf.explode(F.create_map(F.lit("a"), F.lit(1))))
    diff(lambda s: s.tvf.posexplode(F.array(F.lit("x"), F.lit("y"))))
    diff(lambda s: s.tvf.inline(F.array(F.struct(F.lit(1).alias("a"), F.lit("x").alias("b")))))
    diff(lambda s: s.tvf.stack(F.lit(2), F.lit(1), F.lit(2), F.lit(3), F.lit(4)))
    diff(lambda s: s.tvf.json_tuple(F.lit('{"a":1,"b":2}'), F.lit("a"), F.lit("b")))
    diff(lambda s: s.tvf.explode(F.array(F.lit(3), F.lit(1))).where("col > 1").select("col"))


# --- spark.sql with DataFrame arguments ------------------------------------------------------


def test_sql_with_dataframe_arguments(diff):
    from pyspark.sql import functions as F
    diff(lambda s: s.sql("SELECT * FROM {df} WHERE id > {v}", df=table(s), v=1))
    diff(lambda s: s.sql("SELECT {c} FROM {df}", df=table(s), c=F.col("id")))
    diff(lambda s: s.sql("SELECT a.id, b.k FROM {x} a JOIN {y} b ON a.id = b.k",
                         x=table(s), y=s.range(3).toDF("k")))
    diff(lambda s: s.sql("SELECT count(*) AS n FROM {df} a, {df} b", df=s.range(3)))
    diff(lambda s: s.sql("WITH w AS (SELECT id * 2 AS d FROM {df}) SELECT * FROM w WHERE d > {m}",
                         df=s.range(5), m=4))
    diff(lambda s: s.sql("SELECT * FROM {df} WHERE id IN (SELECT id FROM {df} WHERE id > 2)",
                         df=s.range(5)))


def test_sql_with_dataframe_arguments_and_parameters(diff):
    diff(lambda s: s.sql("SELECT * FROM {df} WHERE id > :lo", {"lo": 2}, df=s.range(5)))
    diff(lambda s: s.sql("SELECT * FROM {df} WHERE id < ?", [2], df=s.range(5)))


def test_sql_with_a_dataframe_argument_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT nope FROM {df}", df=s.range(2)).collect(),
               "UNRESOLVED_COLUMN.WITH_SUGGESTION")


# --- DataFrame.zip ---------------------------------------------------------------------------


def test_zip(diff):
    from pyspark.sql import functions as F

    def same_source(s):
        df = table(s)
        return df.select("id").zip(df.select((F.col("id") + 1).alias("j")))

    diff(same_source)
    diff(lambda s: s.range(5).select((F.col("id") * 2).alias("a"))
         .zip(s.range(5).withColumn("b", F.col("id") % 2).select("b")))

    def filtered(s):
        base = s.range(10).where("id % 3 = 0")
        return base.select("id").zip(base.select(F.col("id").cast("string").alias("s")))

    diff(filtered)

    def whole(s):
        df = table(s)
        return df.zip(df.select("arr", F.size("arr").alias("n")))

    diff(whole)


def test_zip_of_unaligned_plans(diff_error):
    diff_error(lambda s: s.range(3).select("id").zip(s.range(4)).collect(), "ZIP_PLANS_NOT_MERGEABLE")
    diff_error(lambda s: s.range(5).zip(s.range(5).where("id > 1")).collect(),
               "ZIP_PLANS_NOT_MERGEABLE")


# --- DataFrame.repartitionById ---------------------------------------------------------------


def test_repartition_by_id(diff):
    from pyspark.sql import functions as F
    diff(lambda s: s.range(10).withColumn("p", (F.col("id") % 3).cast("int"))
         .repartitionById(3, "p").select("id", "p", F.spark_partition_id().alias("part")))
    # Ids outside [0, n) are taken modulo n, a null goes to partition 0.
    diff(lambda s: s.createDataFrame([(1, -1), (2, 7), (3, None), (4, 2)], "k int, p int")
         .repartitionById(4, "p").select("k", F.spark_partition_id().alias("part")))
    diff(lambda s: s.range(6).repartitionById(2, (F.col("id") + 1).cast("int"))
         .select("id", F.spark_partition_id().alias("part")))


def test_repartition_by_id_takes_an_int(diff_error):
    diff_error(lambda s: s.range(5).repartitionById(2, "id").collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


# --- DataFrame.nearestByJoin -----------------------------------------------------------------


def users_products(s):
    users = s.createDataFrame([(1, 10.0), (2, 20.0), (3, 30.0)], ["user_id", "score"])
    products = s.createDataFrame([("A", 11.0), ("B", 22.0), ("C", 5.0)], ["product", "pscore"])
    return users, products


def test_nearest_by_join(diff):
    from pyspark.sql import functions as F

    def similarity(s):
        u, p = users_products(s)
        return u.nearestByJoin(p, -F.abs(u.score - p.pscore), 1, "exact", "similarity")

    def distance(s):
        u, p = users_products(s)
        return u.nearestByJoin(p, F.abs(u.score - p.pscore), 2, "approx", "distance")

    def by_string(s):
        u, p = users_products(s)
        return u.nearestByJoin(p, F.col("product"), 1, "exact", "distance")

    def left_outer(s):
        u, p = users_products(s)
        return u.nearestByJoin(p.where("pscore > 100"), F.abs(u.score - p.pscore), 2, "exact",
                               "distance", joinType="leftouter")

    def inner_without_candidates(s):
        u, p = users_products(s)
        return u.nearestByJoin(p.where("pscore > 100"), F.abs(u.score - p.pscore), 2, "exact",
                               "distance")

    for program in (similarity, distance, by_string, left_outer, inner_without_candidates):
        diff(program)


def test_nearest_by_join_errors(diff_error):
    from pyspark.sql import functions as F

    def call(k=1, mode="exact", direction="distance", join_type="inner"):
        def program(s):
            u, p = users_products(s)
            return u.nearestByJoin(p, F.abs(u.score - p.pscore), k, mode, direction,
                                   joinType=join_type).collect()
        return program

    diff_error(call(k=0), "NEAREST_BY_JOIN.NUM_RESULTS_OUT_OF_RANGE")
    diff_error(call(k=100001), "NEAREST_BY_JOIN.NUM_RESULTS_OUT_OF_RANGE")
    diff_error(call(mode="fast"), "NEAREST_BY_JOIN.UNSUPPORTED_MODE")
    diff_error(call(direction="up"), "NEAREST_BY_JOIN.UNSUPPORTED_DIRECTION")
    diff_error(call(join_type="full"), "NEAREST_BY_JOIN.UNSUPPORTED_JOIN_TYPE")


# --- withWatermark and dropDuplicatesWithinWatermark on batch DataFrames ---------------------


def events(s):
    import datetime
    return s.createDataFrame([(1, datetime.datetime(2024, 1, 1), "a"),
                              (1, datetime.datetime(2024, 1, 1), "a"),
                              (2, datetime.datetime(2024, 1, 2), "b")], "k int, ts timestamp, s string")


def test_with_watermark_on_a_batch_dataframe(diff):
    diff(lambda s: events(s).withWatermark("ts", "1 hour"))
    diff(lambda s: events(s).withWatermark("ts", "10 minutes").groupBy("s").count())
    # A batch query never reads the event time column.
    diff(lambda s: events(s).withWatermark("nope", "1 day").select("k"))


def test_with_watermark_errors(diff_error):
    diff_error(lambda s: events(s).withWatermark("ts", "abc").collect(), "CANNOT_PARSE_INTERVAL")


def test_drop_duplicates_within_watermark_on_a_batch_dataframe(diff_error):
    diff_error(lambda s: events(s).dropDuplicatesWithinWatermark().collect(), "_LEGACY_ERROR_TEMP_3102")
    diff_error(lambda s: events(s).withWatermark("ts", "1 hour").dropDuplicatesWithinWatermark(["s"]).collect(),
               "_LEGACY_ERROR_TEMP_3102")


# --- DataFrame.mergeInto ---------------------------------------------------------------------


def test_merge_into_a_session_catalog_table(diff_error):
    # The session catalog's file tables take no row-level operations, in Spark as here.
    from pyspark.sql import functions as F

    def program(s):
        s.sql("DROP TABLE IF EXISTS gaps_merge_target")
        s.range(3).write.saveAsTable("gaps_merge_target")
        src = s.range(2, 5).alias("src")
        try:
            src.mergeInto("gaps_merge_target", F.expr("gaps_merge_target.id = src.id")) \
                .whenMatched().updateAll().whenNotMatched().insertAll().merge()
        finally:
            s.sql("DROP TABLE IF EXISTS gaps_merge_target")

    diff_error(program, "UNSUPPORTED_FEATURE.TABLE_OPERATION")
    diff_error(lambda s: s.range(2).mergeInto("gaps_no_such_table", F.expr("true"))
               .whenMatched().delete().merge(), "TABLE_OR_VIEW_NOT_FOUND")



def test_range_table_function_arguments(diff, diff_error):
    # range with a zero step: FAILED_FUNCTION_CALL in SQL (spark.tvf.range is spark.range).
    diff_error(lambda s: s.sql("SELECT * FROM range(0, 10, 0)").collect(), "FAILED_FUNCTION_CALL")
    diff(lambda s: s.sql("SELECT * FROM range(2, 11, 3, 2)"))
    diff(lambda s: s.tvf.range(5))
    diff(lambda s: s.tvf.range(10, 0, -3))
