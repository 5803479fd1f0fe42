"""Sketch functions against Apache Spark: approx_count_distinct (HyperLogLog++), count_min_sketch
(Spark's serialized CountMinSketch, compared byte for byte) and the KLL sketch readers on
sketches Spark built."""

from __future__ import annotations

from pyspark.sql import functions as F


def typed(s):
    return s.createDataFrame(
        [(1, 1, 10, 1.5, 0.5, "Spark", True, "a"), (2, -7, -9223372036854775808, -0.0, float("nan"), "", False, "a"),
         (3, None, None, None, None, None, None, "b"), (4, 2147483647, 0, 0.0, 1.0, "日本語", True, "b"),
         (5, 0, 42, 2.5, -2.5, "Spark", None, "b"), (6, 1, 10, 1.5, 0.5, "spark", True, "c")],
        "k int, i int, l long, d double, f float, s string, b boolean, g string")


def test_approx_count_distinct_small(diff):
    diff(lambda s: typed(s).agg(*[F.approx_count_distinct(c) for c in ["k", "i", "l", "d", "f", "s", "b"]]))
    diff(lambda s: typed(s).groupBy("g").agg(F.approx_count_distinct("s"), F.approx_count_distinct("i", 0.1)))
    diff(lambda s: typed(s).select(F.col("k").cast("byte").alias("y"), F.col("k").cast("short").alias("h"),
                                   F.col("k").cast("decimal(10,2)").alias("m"),
                                   F.col("k").cast("decimal(30,3)").alias("w"),
                                   F.col("s").cast("binary").alias("bin"), F.array("i", "k").alias("arr"),
                                   F.struct("i", "s").alias("st"), F.to_date(F.lit("2024-01-01")).alias("dt"))
         .agg(*[F.approx_count_distinct(c) for c in ["y", "h", "m", "w", "bin", "arr", "st", "dt"]]))


def test_approx_count_distinct_empty_and_nulls(diff):
    diff(lambda s: typed(s).where("k > 100").agg(F.approx_count_distinct("s")))
    diff(lambda s: typed(s).where("k = 3").groupBy("g").agg(F.approx_count_distinct("s")))
    diff(lambda s: s.sql("SELECT approx_count_distinct(NULL), approx_count_distinct(CAST(NULL AS INT)) FROM range(3)"))


def test_approx_count_distinct_large(diff):
    # 100k distinct values: linear counting, bias correction and the raw estimate each decide
    # somewhere across these precisions and sizes.
    diff(lambda s: s.range(100000).selectExpr("id", "cast(id as string) s", "cast(id as double) d")
         .agg(F.approx_count_distinct("id"), F.approx_count_distinct("s"), F.approx_count_distinct("d"),
              F.approx_count_distinct("id", 0.01), F.approx_count_distinct("s", 0.3)))
    diff(lambda s: s.range(20000).selectExpr("id % 13 AS g", "id * 7 AS v")
         .groupBy("g").agg(F.approx_count_distinct("v"), F.approx_count_distinct("v", 0.02)))
    diff(lambda s: s.sql("SELECT n, approx_count_distinct(id, 0.05), approx_count_distinct(id, 0.2) "
                         "FROM (SELECT id, CASE WHEN id < 700 THEN 'a' WHEN id < 2500 THEN 'b' ELSE 'c' END AS n "
                         "FROM range(6000)) GROUP BY n"))


def test_approx_count_distinct_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT approx_count_distinct(id, 0.5) FROM range(3)"), "FAILED_FUNCTION_CALL")
    diff_error(lambda s: s.sql("SELECT approx_count_distinct(id, id) FROM range(3)"), "_LEGACY_ERROR_TEMP_1104")


def test_count_min_sketch_types(diff):
    diff(lambda s: typed(s).agg(F.count_min_sketch("k", 0.5, 0.5, 1), F.count_min_sketch("i", 0.1, 0.9, 7),
                                F.count_min_sketch("l", 0.01, 0.99, 42), F.count_min_sketch("s", 0.2, 0.7, -3),
                                F.count_min_sketch(F.col("s").cast("binary"), 0.2, 0.7, 5),
                                F.count_min_sketch(F.col("k").cast("byte"), 0.3, 0.6, 2),
                                F.count_min_sketch(F.col("k").cast("short"), 0.3, 0.6, 1111111111111111111)))
    diff(lambda s: typed(s).groupBy("g").agg(F.count_min_sketch("s", 0.1, 0.95, 11),
                                             F.count_min_sketch("l", 0.05, 0.9, 3)))


def test_count_min_sketch_large_empty_and_nulls(diff):
    diff(lambda s: s.range(50000).selectExpr("id % 977 AS v", "cast(id % 1013 AS string) AS t", "id % 5 AS g")
         .groupBy("g").agg(F.count_min_sketch("v", 0.001, 0.99, 9), F.count_min_sketch("t", 0.002, 0.9, 13)))
    diff(lambda s: s.sql("SELECT count_min_sketch(id, 0.5d, 0.5d, 1), count_min_sketch(NULL, 0.3d, 0.8d, 2) "
                         "FROM range(0)"))
    diff(lambda s: typed(s).where("k = 3").agg(F.count_min_sketch("s", 0.1, 0.9, 7)))
    diff(lambda s: s.sql("SELECT count_min_sketch(CAST(NULL AS STRING), 0.01d, 0.9d, 7), "
                         "count_min_sketch(id, 0.1d + 0.1d, 0.5d, 2) FROM range(3)"))


def test_count_min_sketch_errors(diff_error):
    for sql, cls in [
        ("count_min_sketch(CAST(id AS DOUBLE), 0.5d, 0.5d, 1)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("count_min_sketch(id, 0.5, 0.5d, 1)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("count_min_sketch(id, 0.5d, 0.5d, 1.5d)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("count_min_sketch(id, -0.5d, 0.5d, 1)", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"),
        ("count_min_sketch(id, 0.5d, 1.5d, 1)", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"),
        ("count_min_sketch(id, 0.5d, 0d, 1)", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"),
        ("count_min_sketch(id, CAST(NULL AS DOUBLE), 0.5d, 1)", "DATATYPE_MISMATCH.UNEXPECTED_NULL"),
        ("count_min_sketch(id, 0.5d, 0.5d, CAST(NULL AS INT))", "DATATYPE_MISMATCH.UNEXPECTED_NULL"),
        ("count_min_sketch(id, 0.5d, 0.5d)", "REQUIRED_PARAMETER_NOT_FOUND"),
    ]:
        diff_error(lambda s, sql=sql: s.sql(f"SELECT {sql} FROM range(5)"), cls)
    diff_error(lambda s: s.range(5).select(F.count_min_sketch("id", F.col("id").cast("double"), F.lit(0.5), F.lit(1))),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")


def kll_sketches(oracle):
    """KLL sketches made by Spark: (name, bytes) of each item type, small (exact, n <= k), large
    (compacted over several levels), a single item and empty."""
    rows = oracle.sql(
        "SELECT kll_sketch_agg_bigint(id * 3 - 50) AS b, kll_sketch_agg_float(CAST(id / 4 AS FLOAT)) AS f, "
        "kll_sketch_agg_double(CAST(id AS DOUBLE) * 1.5) AS d, kll_sketch_agg_bigint(id, 20) AS b20 "
        "FROM range(150)").collect()[0]
    large = oracle.sql(
        "SELECT kll_sketch_agg_bigint((id * 7919) % 100003) AS b, kll_sketch_agg_double(CAST(id AS DOUBLE)) AS d, "
        "kll_sketch_agg_float(CAST(id % 1000 AS FLOAT)) AS f FROM range(30000)").collect()[0]
    tiny = oracle.sql("SELECT kll_sketch_agg_bigint(id) AS one FROM range(1)").collect()[0]
    empty = oracle.sql("SELECT kll_sketch_agg_double(CAST(id AS DOUBLE)) AS none FROM range(0)").collect()[0]
    return [(bytes(rows.b), bytes(rows.f), bytes(rows.d), bytes(rows.b20), bytes(large.b), bytes(large.d),
             bytes(large.f), bytes(tiny.one), bytes(empty.none))]


KLL_SCHEMA = "b binary, f binary, d binary, b20 binary, lb binary, ld binary, lf binary, one binary, none binary"


def test_kll_readers_on_spark_sketches(diff, oracle):
    data = kll_sketches(oracle)
    ranks = [0.0, 0.01, 0.1, 0.25, 0.33, 0.5, 0.7, 0.9, 0.999, 1.0]
    diff(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(
        F.kll_sketch_get_n_bigint("b"), F.kll_sketch_get_n_float("f"), F.kll_sketch_get_n_double("d"),
        F.kll_sketch_get_n_bigint("b20"), F.kll_sketch_get_n_bigint("lb"), F.kll_sketch_get_n_double("ld"),
        F.kll_sketch_get_n_bigint("one"), F.kll_sketch_get_n_double("none")))
    for r in ranks:
        diff(lambda s, r=r: s.createDataFrame(data, KLL_SCHEMA).select(
            F.kll_sketch_get_quantile_bigint("b", F.lit(r)), F.kll_sketch_get_quantile_float("f", F.lit(r)),
            F.kll_sketch_get_quantile_double("d", F.lit(r)), F.kll_sketch_get_quantile_bigint("b20", F.lit(r)),
            F.kll_sketch_get_quantile_bigint("lb", F.lit(r)), F.kll_sketch_get_quantile_double("ld", F.lit(r)),
            F.kll_sketch_get_quantile_float("lf", F.lit(r)), F.kll_sketch_get_quantile_bigint("one", F.lit(r))))
    diff(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(
        F.kll_sketch_get_quantile_bigint("b", F.array(*[F.lit(r) for r in ranks])),
        F.kll_sketch_get_quantile_double("ld", F.array(*[F.lit(r) for r in ranks]))))
    diff(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(
        F.kll_sketch_get_rank_bigint("b", F.lit(-51)), F.kll_sketch_get_rank_bigint("b", F.lit(0)),
        F.kll_sketch_get_rank_bigint("b", F.lit(397)), F.kll_sketch_get_rank_float("f", F.lit(10.3).cast("float")),
        F.kll_sketch_get_rank_double("d", F.lit(100.0)), F.kll_sketch_get_rank_bigint("lb", F.lit(50000)),
        F.kll_sketch_get_rank_double("ld", F.lit(12345.0)), F.kll_sketch_get_rank_float("lf", F.lit(2.5).cast("float")),
        F.kll_sketch_get_rank_bigint("one", F.lit(0)), F.kll_sketch_get_rank_bigint("b20", F.lit(100))))
    diff(lambda s: s.createDataFrame(data, KLL_SCHEMA).selectExpr(
        "kll_sketch_get_rank_bigint(b, array(-100L, 1L, 52L, 1000L))",
        "kll_sketch_get_rank_double(ld, array(1.0d, 29999.0d))",
        "kll_sketch_get_quantile_bigint(b, CAST(NULL AS DOUBLE))",
        "kll_sketch_get_quantile_bigint(b, array(0.5, 0.1))", "kll_sketch_get_quantile_bigint(b, '0.25')",
        "kll_sketch_get_n_bigint(CAST(NULL AS BINARY))"))


def test_kll_reader_bounds_on_large_sketch(oracle, ember):
    # Above k the retained items are a random sample: each quantile's rank stays within the
    # sketch's normalized rank error (1.33% for k = 200; 4 sigma taken here).
    data = kll_sketches(oracle)
    df = ember.createDataFrame(data, KLL_SCHEMA)
    row = df.select(*[F.kll_sketch_get_quantile_double("ld", F.lit(r / 20)) for r in range(21)]).collect()[0]
    for r, q in zip(range(21), row):
        assert abs(q / 29999 - r / 20) <= 0.06, (r, q)


def test_kll_reader_errors(diff_error, oracle):
    data = kll_sketches(oracle)
    diff_error(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(F.kll_sketch_get_quantile_bigint("b", F.lit(1.5))),
               "KLL_SKETCH_INVALID_QUANTILE_RANGE")
    diff_error(lambda s: s.createDataFrame(data, KLL_SCHEMA).selectExpr("kll_sketch_get_quantile_bigint(b, array(0.5d, -0.1d))"),
               "KLL_SKETCH_INVALID_QUANTILE_RANGE")
    diff_error(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(F.kll_sketch_get_quantile_double("none", F.lit(0.5))),
               "KLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.createDataFrame(data, KLL_SCHEMA).select(F.kll_sketch_get_rank_double("none", F.lit(0.5))),
               "KLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.sql("SELECT kll_sketch_get_n_bigint(X'0102')"), "KLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.sql("SELECT kll_sketch_get_n_bigint('abc')"), "KLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.sql("SELECT kll_sketch_get_n_bigint(42)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(3).selectExpr("kll_sketch_get_quantile_bigint(X'0102', id / 10.0)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.range(3).selectExpr("kll_sketch_get_rank_bigint(X'0102', id)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
