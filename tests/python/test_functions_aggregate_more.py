"""Differential tests of more aggregates against Apache Spark: product, listagg/string_agg (and
their DISTINCT forms), collect_union, max_by/min_by with k, the bitmap family; grouped, global,
over empty input and all-null groups, and over inputs large enough that partial states merge."""

from __future__ import annotations

from pyspark.sql import functions as F

ROWS = [("a", 1, 2.0, "x", 10), ("a", 3, 1.5, "y", 7), ("a", None, 5.0, None, None), ("a", 7, 0.5, "z", 12),
        ("b", -2, 4.0, "p", 3), ("b", 5, None, "q", 6), ("b", 4, -1.5, "r", 1), ("s", 9, 3.0, "only", 2),
        ("n", None, None, None, None)]
SCHEMA = "k string, v int, x double, t string, w int"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def test_product(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.product("v"), F.product("x"), F.product(F.col("t").try_cast("int"))))
    diff(lambda s: s.range(1, 21).select(F.product("id"), F.product(F.col("id").cast("string"))))
    diff(lambda s: s.range(0).select(F.product("id")))
    diff(lambda s: s.createDataFrame([(1e308,), (10.0,), (-1.0,)], "x double").select(F.product("x")))


def test_product_many_groups(diff):
    diff(lambda s: s.range(0, 200000).select((F.col("id") % 97).alias("g"), ((F.col("id") % 3) - 1).alias("v"))
         .groupBy("g").agg(F.product("v"), F.product(F.when(F.col("v") == 0, None).otherwise(F.col("v")))))


def test_product_errors(diff_error):
    diff_error(lambda s: s.range(1).select(F.product(F.lit(True))), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_listagg(diff):
    # Single-partition, arrival-ordered input: the concatenation order is the row order.
    diff(lambda s: data(s).groupBy("k").agg(F.listagg("t"), F.listagg("t", ", "), F.string_agg("t", "-"),
                                            F.listagg("v", F.lit(None)), F.string_agg("x")))
    diff(lambda s: data(s).where("false").select(F.listagg("t"), F.string_agg("t", ";")))
    diff(lambda s: s.createDataFrame([(b"\x01",), (b"\x02",), (None,), (b"\x03",)], "b binary")
         .select(F.listagg("b", b"B"), F.listagg("b")))


def test_listagg_distinct(diff):
    # Groups with one distinct value each: the result does not depend on the order of the set.
    rows = [("a", "x"), ("a", "x"), ("b", None), ("c", "y"), ("c", None), ("c", "y")]
    diff(lambda s: s.createDataFrame(rows, "k string, t string").groupBy("k").agg(
        F.listagg_distinct("t"), F.string_agg_distinct("t", ", ")))


def test_listagg_distinct_first_occurrence(diff):
    diff(lambda s: s.createDataFrame([("a",), ("b",), (None,), ("c",), ("b",)], "t string").select(
        F.listagg_distinct("t"), F.string_agg_distinct("t", ", ")))


def test_listagg_sql(diff):
    def program(s):
        data(s).createOrReplaceTempView("agg_more_listagg")
        return s.sql("SELECT k, listagg(t, '|'), string_agg(v, 1), listagg(DISTINCT k) FROM agg_more_listagg "
                     "WHERE k IN ('a', 's') GROUP BY k")
    diff(program)


def test_listagg_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT listagg(x, y) FROM VALUES ('a', ','), ('b', ';') t(x, y)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("SELECT listagg(x, X'2C') FROM VALUES ('a'), ('b') t(x)"), "DATATYPE_MISMATCH.DATA_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT listagg(x) FROM VALUES (array(1)) t(x)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_collect_union(diff):
    rows = [("a", [1, 2]), ("a", [2, 3]), ("a", None), ("b", [4, None]), ("b", []), ("c", None)]
    diff(lambda s: s.createDataFrame(rows, "k string, a array<int>").groupBy("k").agg(
        F.sort_array(F.collect_union("a")).alias("u"), F.size(F.collect_union("a")).alias("n")))
    diff(lambda s: s.range(0, 100000).select(F.array(F.col("id") % 1000, F.col("id") % 7).alias("a"))
         .select(F.size(F.collect_union("a")), F.array_max(F.collect_union("a"))))


def test_collect_union_errors(diff_error):
    diff_error(lambda s: s.range(1).select(F.collect_union("id")), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_max_by_min_by_top_k(diff):
    diff(lambda s: data(s).groupBy("k").agg(F.max_by("t", "w", 2), F.min_by("t", "w", 2), F.max_by("v", "x", 3),
                                            F.min_by("x", "t", 1)))
    diff(lambda s: s.sql("SELECT max_by(x, y, 2), min_by(x, y, 3), max_by(x, y, 2) FILTER (WHERE y > 1) "
                         "FROM VALUES ('a', 1), ('b', 3), ('c', 2), ('d', null), (null, 5) t(x, y)"))
    diff(lambda s: s.sql("SELECT max_by(x, y, 2), min_by(x, y, 2) FROM VALUES ('a', 1), ('b', 1), ('c', 1) t(x, y)"))
    diff(lambda s: s.sql("SELECT max_by(x, y, 2) FROM VALUES ('a', 1) t(x, y) WHERE false"))


def test_max_by_top_k_many_rows(diff):
    # Distinct keys: the top rows do not depend on how partial states merge.
    diff(lambda s: s.range(0, 300000).select((F.col("id") % 10).alias("g"), "id")
         .groupBy("g").agg(F.max_by("id", "id", 5), F.min_by(F.col("id") * 2, "id", 3)))


def test_max_by_top_k_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT max_by(x, y, 0) FROM VALUES ('a', 1) t(x, y)"),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT min_by(x, y, 100001) FROM VALUES ('a', 1) t(x, y)"),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT max_by(x, y, z) FROM VALUES ('a', 1, 1) t(x, y, z)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")


def test_bitmap_scalars(diff):
    values = [(0,), (1,), (32767,), (32768,), (32769,), (-1,), (-32768,), (-32769,), (None,),
              (9223372036854775807,), (-9223372036854775808,)]
    diff(lambda s: s.createDataFrame(values, "x long").select(
        "x", F.bitmap_bit_position("x"), F.bitmap_bucket_number("x"),
        F.bitmap_bit_position(F.col("x").try_cast("int")), F.bitmap_bucket_number(F.col("x").cast("string"))))
    diff(lambda s: s.createDataFrame([("FFFF",), ("",), (None,), ("0102F0",)], "a string").select(
        F.bitmap_count(F.unhex("a"))))


def test_bitmap_aggregates(diff):
    diff(lambda s: s.createDataFrame([(1,), (2,), (3,), (None,), (32767,)], "a long").select(
        F.hex(F.bitmap_construct_agg(F.bitmap_bit_position("a"))).alias("h"),
        F.bitmap_count(F.bitmap_construct_agg(F.bitmap_bit_position("a"))).alias("c")))
    diff(lambda s: s.createDataFrame([("F0",), ("3001",), (None,), ("70",)], "a string").select(
        F.hex(F.bitmap_or_agg(F.unhex("a"))).alias("o"),
        F.hex(F.bitmap_and_agg(F.unhex("a"))).alias("n")))
    diff(lambda s: s.createDataFrame([("F0",)], "a string").where("false").select(
        F.hex(F.bitmap_or_agg(F.unhex("a"))).alias("o"),
        F.hex(F.bitmap_and_agg(F.unhex("a"))).alias("n"),
        F.hex(F.bitmap_construct_agg(F.lit(1).cast("long"))).alias("c")))
    diff(lambda s: s.sql("SELECT hex(bitmap_or_agg(x)), hex(bitmap_and_agg(x)) "
                         "FROM VALUES (cast(repeat('a', 5000) as binary)), (X'FF') t(x)"))


def test_bitmap_aggregates_grouped_many_rows(diff):
    diff(lambda s: s.range(0, 200000).select((F.col("id") % 13).alias("g"), F.col("id").alias("v"))
         .groupBy("g").agg(
             F.bitmap_count(F.bitmap_construct_agg(F.bitmap_bit_position("v"))).alias("c"),
             F.sha1(F.bitmap_construct_agg(F.bitmap_bit_position("v"))).alias("h"),
             F.countDistinct(F.bitmap_bucket_number("v")).alias("buckets")))


def test_bitmap_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT bitmap_construct_agg(x) FROM VALUES (32768L) t(x)"), "INVALID_BITMAP_POSITION")
    diff_error(lambda s: s.sql("SELECT bitmap_construct_agg(x) FROM VALUES (-1L) t(x)"), "INVALID_BITMAP_POSITION")
    diff_error(lambda s: s.sql("SELECT bitmap_count('a')"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT bitmap_or_agg(x) FROM VALUES ('a') t(x)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")



def test_to_binary(diff, diff_error):
    # The bitmap functions take their bitmaps from to_binary in PySpark's examples.
    diff(lambda s: s.createDataFrame([("F0",), ("616",), ("",), (None,), ("abc",)], "a string").select(
        F.hex(F.try_to_binary("a", F.lit("hex"))), F.to_binary("a", F.lit("utf-8")), F.to_binary("a", F.lit("UTF8")),
        F.try_to_binary("a"), F.try_to_binary("a", F.lit("xx"))))
    diff(lambda s: s.createDataFrame([("FFFF",)], "a string").select(F.bitmap_count(F.to_binary("a", F.lit("hex")))))
    diff_error(lambda s: s.sql("SELECT to_binary('zz', 'hex')"), "CONVERSION_INVALID_INPUT")
    diff_error(lambda s: s.sql("SELECT to_binary('abc', 'xx')"), "DATATYPE_MISMATCH.INVALID_ARG_VALUE")
    diff_error(lambda s: s.sql("SELECT to_binary(x, y) FROM VALUES ('F0', 'hex') t(x, y)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")


def test_histogram_numeric(diff):
    # One partition in Spark (range with one slice) and one morsel in Ember: both add the rows
    # in the same order, so the bins, their rounding and the random tie-breaks agree.
    def program(s):
        df = s.range(0, 3000, 1, 1)
        return df.select(
            F.histogram_numeric("id", F.lit(5)).alias("a"),
            F.histogram_numeric((F.col("id") * 7919 % 1000).cast("int"), F.lit(7)).alias("b"),
            F.histogram_numeric(F.sin("id"), F.lit(10)).alias("c"),
            F.histogram_numeric((F.col("id") % 97).cast("decimal(6,2)") / 3, F.lit(4)).alias("d"),
            F.histogram_numeric(F.date_add(F.lit("2020-01-01").cast("date"), (F.col("id") % 400).cast("int")),
                                F.lit(3)).alias("e"),
            F.histogram_numeric(F.timestamp_seconds(F.col("id") * 3601), F.lit(6)).alias("f"),
            F.histogram_numeric((F.col("id") % 100).cast("tinyint"), F.lit(3)).alias("g"),
            F.histogram_numeric(F.when(F.col("id") % 3 == 0, F.col("id")), F.lit(2)).alias("h"))
    diff(program)
    diff(lambda s: s.range(0, 100, 1, 1).select(F.histogram_numeric("id", F.lit(5))))
    diff(lambda s: s.range(0, 10, 1, 1).where("id < 0").select(F.histogram_numeric("id", F.lit(5))))
    diff(lambda s: s.range(0, 10, 1, 1).select(F.histogram_numeric(F.col("id").cast("string"), F.lit(3))))


def test_histogram_numeric_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT histogram_numeric(x, 1) FROM VALUES (1), (4) t(x)"),
               "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")
    diff_error(lambda s: s.sql("SELECT histogram_numeric(x, y) FROM VALUES (1, 2), (4, 2) t(x, y)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("SELECT histogram_numeric(x, 2) FROM VALUES (true) t(x)"),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_percentiles_with_different_arrays_in_one_aggregation(diff):
    # Calls that differ only in their array of percentages are different aggregates.
    diff(lambda s: data(s).groupBy("k").agg(
        F.percentile("v", [0.1, 0.5]), F.percentile("v", [0.2, 0.9]), F.percentile("v", [0.1, 0.9]),
        F.percentile("x", [0.5]), F.percentile("x", [0.5, 0.75])))
    diff(lambda s: s.sql("SELECT k, percentile_approx(v, array(0.1, 0.5), 100), percentile_approx(v, array(0.2, 0.9), 100), "
                         "approx_percentile(x, array(0.5)), approx_percentile(x, array(0.5, 0.75)) "
                         "FROM VALUES ('a', 1, 2.0D), ('a', 3, 1.5D), ('a', 7, 0.5D), ('b', -2, 4.0D), ('b', 4, -1.5D) "
                         "AS t(k, v, x) GROUP BY k"))
    diff(lambda s: s.range(0, 40000).select(F.percentile("id", [0.25, 0.5]), F.percentile("id", [0.75, 0.99])))


def test_max_min_of_structs_and_arrays(diff):
    # Structs order field by field, arrays element by element, nulls first, NaN above all.
    def frame(s):
        return data(s).select("k", "v", "x", "t", F.struct(F.col("v") % 2, "t").alias("s"), F.struct("x", "v").alias("xv"),
                              F.array("v", "w").alias("a"), F.array(F.col("t")).alias("at"))
    diff(lambda s: frame(s).groupBy("k").agg(F.max("s"), F.min("s"), F.max("xv"), F.min("xv"), F.max("a"),
                                             F.min("a"), F.max("at"), F.min("at")))
    diff(lambda s: frame(s).agg(F.max("s"), F.min("xv"), F.max_by("v", "s"), F.min_by("t", "xv"),
                                F.max_by("x", "a"), F.min_by("v", "at")))
    diff(lambda s: frame(s).where("k = 'none'").agg(F.max("s"), F.min("a")))
    structs = [((float("nan"), 1),), ((1.0, 2),), ((-0.0, None),), ((0.0, 1),), ((None, 3),), (None,)]
    diff(lambda s: s.createDataFrame(structs, "p struct<a: double, b: int>").agg(F.max("p"), F.min("p")))
    diff(lambda s: s.range(0, 50000).select((F.col("id") % 7).alias("g"), F.struct((F.col("id") % 13).alias("a"),
                                                                                  F.col("id").cast("string").alias("b")).alias("s"))
         .groupBy("g").agg(F.max("s"), F.min("s")))


def test_max_of_a_map_is_an_ordering_error(diff_error):
    diff_error(lambda s: s.sql("SELECT max(m) FROM VALUES (map('a', 1)) AS t(m)"), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    diff_error(lambda s: s.sql("SELECT min(named_struct('m', map('a', 1)))"), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
