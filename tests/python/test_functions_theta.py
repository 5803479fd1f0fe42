"""Differential tests of the theta and tuple sketch functions against Apache Spark: sketches
are DataSketches' compact binary images, so theta sketches must be byte-identical (their
entries are ordered), tuple sketches equal in every value read from them; estimates below and
far above the nominal size, every key type, set operations, group-by, nulls, empty input,
errors, and sketches built by Spark read by Ember."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F
from pyspark.sql.window import Window

from harness import session_conf, session_mode

KEYS = [(1, 10, 1.5, 2.5, "a", b"\x01", [1, 2], [3, 4]),
        (2, 10, -0.0, 0.0, "", b"", [], []),
        (None, None, None, None, None, None, None, None),
        (2, -7, float("nan"), float("nan"), "é", b"\x00\xff", [1, None], [None]),
        (3, 2**40, 0.1, 1e300, "a", b"\x01", [1, 2], [3, 4])]
KEY_SCHEMA = ("i int, l bigint, f float, d double, s string, b binary, ai array<int>, "
              "al array<bigint>")
KEY_COLS = ["i", "l", "f", "d", "s", "b", "ai", "al"]


def keys(s):
    return s.createDataFrame(KEYS, KEY_SCHEMA)


def test_theta_sketch_every_key_type(diff):
    diff(lambda s: keys(s).select(*[F.theta_sketch_agg(c).alias(c) for c in KEY_COLS]))
    diff(lambda s: keys(s).select(*[F.theta_sketch_estimate(F.theta_sketch_agg(c, 5)) for c in KEY_COLS]))


def test_theta_sketch_exact_and_estimated(diff):
    # Below, at and far above the nominal size k = 2^lgNomEntries: identical bytes.
    for n, lg in [(15, 4), (16, 4), (17, 4), (100, 4), (4096, 12), (6000, 12), (100000, 12), (100000, 10)]:
        diff(lambda s, n=n, lg=lg: s.range(n).select(F.theta_sketch_agg("id", lg).alias("sk"))
             .select("sk", F.theta_sketch_estimate("sk")))


def test_theta_sketch_large_strings_and_doubles(diff):
    diff(lambda s: s.range(0, 100000, 1, 7).select(
        F.theta_sketch_agg(F.col("id").cast("string")).alias("a"),
        F.theta_sketch_agg((F.col("id") / 3).cast("double"), 14).alias("b"))
        .select("a", "b", F.theta_sketch_estimate("a"), F.theta_sketch_estimate("b")))


def test_theta_group_by(diff):
    diff(lambda s: s.range(30000).select((F.col("id") % 7).alias("g"), (F.col("id") % 9000).alias("v"))
         .groupBy("g").agg(F.theta_sketch_agg("v", 8).alias("sk"), F.theta_sketch_estimate(F.theta_sketch_agg("v"))))


def test_theta_empty_and_null_input(diff):
    diff(lambda s: s.range(10).where("id < 0").select(F.theta_sketch_agg("id"), F.theta_union_agg(F.lit(None).cast("binary")),
                                                     F.theta_intersection_agg(F.lit(None).cast("binary"))))
    diff(lambda s: keys(s).where("i is null").select(*[F.theta_sketch_agg(c) for c in KEY_COLS]))
    diff(lambda s: s.sql("SELECT theta_sketch_agg(NULL), theta_sketch_estimate(NULL), "
                         "theta_union(NULL, NULL), theta_intersection(NULL, NULL), theta_difference(NULL, NULL)"))


def test_theta_set_operations(diff):
    def program(s, n, lg=None):
        a = F.theta_sketch_agg(F.when(F.col("id") < n, F.col("id"))).alias("a")
        b = F.theta_sketch_agg(F.when(F.col("id") >= n // 2, F.col("id"))).alias("b")
        df = s.range(n + n // 2).select(a, b)
        u = F.theta_union("a", "b") if lg is None else F.theta_union("a", "b", lg)
        return df.select(u.alias("u"), F.theta_intersection("a", "b").alias("i"), F.theta_difference("a", "b").alias("d"),
                         F.theta_difference("b", "a").alias("d2")).select(
            "u", "i", "d", "d2", *[F.theta_sketch_estimate(c) for c in ["u", "i", "d", "d2"]])
    for n, lg in [(10, None), (10, 4), (5000, None), (100000, None), (100000, 5)]:
        diff(lambda s, n=n, lg=lg: program(s, n, lg))


def test_theta_set_operations_empty_sides(diff):
    def program(s):
        df = s.createDataFrame([(1, None), (2, None)], "a int, b int").select(
            F.theta_sketch_agg("a").alias("a"), F.theta_sketch_agg("b").alias("b"))
        return df.select(F.theta_union("a", "b"), F.theta_union("b", "b"), F.theta_intersection("a", "b"),
                         F.theta_intersection("b", "a"), F.theta_difference("a", "b"), F.theta_difference("b", "a"),
                         F.theta_difference("a", "a"))
    diff(program)
    # Disjoint large sketches: nothing below theta, but not empty.
    diff(lambda s: s.range(200000).select(F.theta_sketch_agg(F.when(F.col("id") < 100000, F.col("id"))).alias("a"),
                                          F.theta_sketch_agg(F.when(F.col("id") >= 100000, F.col("id"))).alias("b"))
         .select(F.theta_intersection("a", "b").alias("x")).select("x", F.theta_sketch_estimate("x")))


def test_theta_union_and_intersection_aggregates(diff):
    def program(s):
        sketches = s.range(60000).select((F.col("id") % 4).alias("g"), F.col("id").alias("v")).where(
            (F.col("v") % 4 != 3) | (F.col("v") < 20000)).groupBy("g").agg(
            F.theta_sketch_agg((F.col("v") / 2).cast("long")).alias("sk"))
        return sketches.select(F.theta_union_agg("sk").alias("u"), F.theta_union_agg("sk", 6).alias("u6"),
                               F.theta_intersection_agg("sk").alias("i")).select(
            "u", "u6", "i", F.theta_sketch_estimate("u"), F.theta_sketch_estimate("i"))
    diff(program)
    diff(lambda s: s.range(100).select((F.col("id") % 10).alias("g"), F.col("id")).groupBy("g").agg(
        F.theta_sketch_agg("id").alias("sk")).groupBy((F.col("g") % 2).alias("h")).agg(
        F.theta_union_agg("sk"), F.theta_intersection_agg("sk")))


def test_theta_sql_and_window(diff):
    def program(s):
        s.range(50).selectExpr("id % 5 AS g", "id AS v").createOrReplaceTempView("theta_sql_view")
        return s.sql("SELECT g, theta_sketch_estimate(theta_sketch_agg(v)) AS e, "
                     "theta_sketch_estimate(theta_union(theta_sketch_agg(v), theta_sketch_agg(v + 1), 8)) AS u "
                     "FROM theta_sql_view GROUP BY g")
    diff(program)
    diff(lambda s: s.range(20).select("id", F.theta_sketch_estimate(F.theta_sketch_agg("id").over(
        Window.partitionBy(F.col("id") % 3).orderBy("id"))).alias("running")))


def test_theta_errors(diff_error):
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id", 3)), "SKETCH_INVALID_LG_NOM_ENTRIES")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id", 27)), "SKETCH_INVALID_LG_NOM_ENTRIES")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id", F.col("id").cast("int"))),
               "THETA_LG_NOM_ENTRIES_MUST_BE_CONSTANT")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg(F.col("id").cast("tinyint"))),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg(F.current_date())),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id", F.lit(5).cast("bigint"))),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(3).select(F.theta_union_agg("id")), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_estimate(F.lit("abc"))),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(1).select(F.theta_sketch_estimate(F.lit(b"\x01\x02"))),
               "THETA_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.range(1).select(F.theta_union(F.lit(b"\x01\x02"), F.lit(b"\x03"))),
               "THETA_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.range(1).select(F.lit(b"\x00" * 16).alias("b")).select(F.theta_intersection_agg("b")),
               "THETA_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.range(3).select(F.tuple_sketch_agg_double("id", F.lit(1.0)).alias("t")).select(
        F.theta_sketch_estimate("t")), "THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id").alias("t")).select(
        F.theta_union("t", "t", 30)), "SKETCH_INVALID_LG_NOM_ENTRIES")


@pytest.fixture(scope="module")
def spark_made(oracle):
    """Sketches Spark builds, as bytes: Ember must read them as Spark does."""
    with session_mode(oracle):
        return _spark_made(oracle)


def _spark_made(oracle):
    row = oracle.range(0, 50000, 1, 3).select(
        F.theta_sketch_agg("id").alias("big"), F.theta_sketch_agg(F.when(F.col("id") < 3, F.col("id"))).alias("small"),
        F.theta_sketch_agg(F.when(F.col("id") < 1, F.col("id"))).alias("one"),
        F.theta_sketch_agg(F.when(F.col("id") < 0, F.col("id"))).alias("empty"),
        F.tuple_sketch_agg_double("id", F.col("id") / 2).alias("tbig"),
        F.tuple_sketch_agg_integer(F.when(F.col("id") < 5, F.col("id")), F.lit(3), 12, "max").alias("tsmall"),
    ).collect()[0]
    return {k: bytes(row[k]) for k in row.asDict()}


def test_theta_spark_made_sketches(diff, spark_made):
    rows = [(spark_made["big"], spark_made["small"]), (spark_made["one"], spark_made["empty"]),
            (spark_made["small"], spark_made["one"])]

    def program(s):
        df = s.createDataFrame(rows, "a binary, b binary")
        return df.select(F.theta_sketch_estimate("a"), F.theta_sketch_estimate("b"), F.theta_union("a", "b"),
                         F.theta_intersection("a", "b"), F.theta_difference("a", "b"))
    diff(program)
    diff(lambda s: s.createDataFrame(rows, "a binary, b binary").select(
        F.theta_union_agg("a"), F.theta_intersection_agg("b"), F.theta_union_agg("b", 4)))


# ---------------------------------------------------------------------------------------------
# Tuple sketches: compared through everything read from them (entry order inside a tuple
# sketch follows the hash table's history, which depends on how rows were partitioned). Past
# k distinct keys Spark cuts the result to k entries whenever a group's rows come from more
# than one partition, so those inputs name their partitions.

def tuple_readings(col, kind):
    est = getattr(F, f"tuple_sketch_estimate_{kind}")
    theta = getattr(F, f"tuple_sketch_theta_{kind}")
    summ = getattr(F, f"tuple_sketch_summary_{kind}")
    return [est(col), theta(col), summ(col), summ(col, "min"), summ(col, "max"), summ(col, "alwaysone"),
            F.length(col)]


TUPLE_ROWS = [(1, 10.0, 7, "a"), (2, 20.0, 8, "b"), (2, 30.0, 9, "b"), (None, 1.0, 1, None), (3, None, None, "c"),
              (4, -5.5, -3, ""), (4, 2.5, 2147483647, "d"), (4, 1.0, 1, "d")]


def tuple_df(s):
    return s.createDataFrame(TUPLE_ROWS, "k int, x double, v int, t string")


@pytest.mark.parametrize("mode", ["sum", "min", "max", "alwaysone", "MAX"])
def test_tuple_sketch_agg_modes(diff, mode):
    # A few keys on one partition: the bytes themselves match.
    diff(lambda s: tuple_df(s).coalesce(1).select(
        F.tuple_sketch_agg_double("k", "x", 12, mode).alias("d"), F.tuple_sketch_agg_integer("k", "v", 12, mode).alias("i"),
        F.tuple_sketch_agg_double("t", "v", 5, mode).alias("t")).select(
        "d", "i", "t", *tuple_readings("d", "double"), *tuple_readings("i", "integer"), *tuple_readings("t", "double")))


def test_tuple_sketch_key_types(diff):
    def program(s):
        df = s.range(6).select(F.col("id").cast("short").alias("sh"), (F.col("id") / 4).cast("decimal(5,2)").alias("dec"),
                               F.date_add(F.lit("2020-01-01").cast("date"), F.col("id").cast("int")).alias("dt"),
                               (F.col("id") % 2 == 0).alias("bo"), F.array(F.col("id").cast("tinyint")).alias("ab"),
                               F.col("id").cast("float").alias("fl"), F.array(F.col("id")).alias("al"),
                               F.col("id").cast("string").cast("binary").alias("bi"))
        return df.select(*[F.tuple_sketch_estimate_integer(F.tuple_sketch_agg_integer(c, F.lit(1))) for c in df.columns],
                         *[F.length(F.tuple_sketch_agg_integer(c, F.lit(1))) for c in df.columns])
    diff(program)
    diff(lambda s: s.createDataFrame([(1,), (2,)], "k short").coalesce(1).select(
        F.tuple_sketch_agg_integer("k", F.lit(1)), F.tuple_sketch_agg_double(F.lit("2020-01-01").cast("date"), F.lit("1.5"))))


@pytest.mark.parametrize("kind", ["double", "integer"])
def test_tuple_sketch_large(diff, kind):
    agg = getattr(F, f"tuple_sketch_agg_{kind}")
    for n, lg in [(100000, 12), (3000, 8), (40, 4)]:
        diff(lambda s, n=n, lg=lg: s.range(0, n, 1, 4).select(agg("id", F.col("id") % 5, lg).alias("sk"))
             .select(*tuple_readings("sk", kind)), approx=1e-9)


@pytest.mark.parametrize("kind", ["double", "integer"])
def test_tuple_set_operations(diff, kind):
    agg = getattr(F, f"tuple_sketch_agg_{kind}")
    union, inter, differ = (getattr(F, f"tuple_union_{kind}"), getattr(F, f"tuple_intersection_{kind}"),
                            getattr(F, f"tuple_difference_{kind}"))
    union_t, inter_t, differ_t = (getattr(F, f"tuple_union_theta_{kind}"), getattr(F, f"tuple_intersection_theta_{kind}"),
                                  getattr(F, f"tuple_difference_theta_{kind}"))

    def program(s, n, mode):
        df = s.range(0, n + n // 2, 1, 3).select(
            agg(F.when(F.col("id") < n, F.col("id")), F.col("id") % 7).alias("a"),
            agg(F.when(F.col("id") >= n // 2, F.col("id")), F.lit(2)).alias("b"),
            F.theta_sketch_agg(F.when(F.col("id") >= n // 3, F.col("id"))).alias("c"))
        cols = {"u": union("a", "b", 12, mode), "i": inter("a", "b", mode), "d": differ("a", "b"),
                "ut": union_t("a", "c", 10, mode), "it": inter_t("a", "c", mode), "dt": differ_t("a", "c")}
        out = df.select(*[v.alias(k) for k, v in cols.items()])
        return out.select(*[r for k in cols for r in tuple_readings(k, kind)])
    for n in [12, 20000]:
        for mode in ["sum", "min", "max", "alwaysone"]:
            diff(lambda s, n=n, mode=mode: program(s, n, mode))


@pytest.mark.parametrize("kind", ["double", "integer"])
def test_tuple_set_operations_small_bytes(diff, kind):
    agg = getattr(F, f"tuple_sketch_agg_{kind}")

    def program(s):
        df = s.createDataFrame([(1, 7, 1, 5), (2, 8, 3, 6), (5, 1, None, 1)], "k int, v int, k2 int, v2 int").coalesce(1)
        df = df.select(agg("k", "v").alias("a"), agg("k2", "v2").alias("b"), F.theta_sketch_agg("k2").alias("c"),
                       agg(F.col("k2") + 100, "v2").alias("e"), agg(F.lit(None).cast("int"), "v").alias("z"))
        ops = [getattr(F, f"tuple_union_{kind}")("a", "b"), getattr(F, f"tuple_union_{kind}")("a", "b", 12, "max"),
               getattr(F, f"tuple_intersection_{kind}")("a", "b", "min"), getattr(F, f"tuple_difference_{kind}")("a", "b"),
               getattr(F, f"tuple_union_theta_{kind}")("a", "c", 12, "min"),
               getattr(F, f"tuple_intersection_theta_{kind}")("a", "c", "max"),
               getattr(F, f"tuple_difference_theta_{kind}")("a", "c"),
               getattr(F, f"tuple_intersection_{kind}")("a", "e"), getattr(F, f"tuple_difference_{kind}")("a", "a"),
               getattr(F, f"tuple_intersection_{kind}")("a", "z"), getattr(F, f"tuple_difference_{kind}")("a", "z"),
               getattr(F, f"tuple_difference_{kind}")("z", "a"), getattr(F, f"tuple_union_{kind}")("z", "z")]
        return df.select(*ops)
    diff(program)


@pytest.mark.parametrize("kind", ["double", "integer"])
def test_tuple_union_and_intersection_aggregates(diff, kind):
    agg = getattr(F, f"tuple_sketch_agg_{kind}")
    uagg, iagg = getattr(F, f"tuple_union_agg_{kind}"), getattr(F, f"tuple_intersection_agg_{kind}")

    def program(s, n):
        sk = s.range(0, n, 1, 4).select((F.col("id") % 3).alias("g"), (F.col("id") / 2).cast("long").alias("k"), (F.col("id") % 4).alias("v")) \
            .groupBy("g").agg(agg("k", "v").alias("sk"))
        out = sk.select(uagg("sk").alias("u"), uagg("sk", 6, "max").alias("u6"), iagg("sk").alias("i"),
                        iagg("sk", "min").alias("im"))
        return out.select(*[r for c in ["u", "u6", "i", "im"] for r in tuple_readings(c, kind)])
    for n in [30, 50000]:
        diff(lambda s, n=n: program(s, n))
    diff(lambda s: s.range(0).select(F.lit(None).cast("binary").alias("b")).select(uagg("b"), iagg("b")))


def test_tuple_group_by(diff):
    diff(lambda s: s.range(0, 20000, 1, 4).select((F.col("id") % 5).alias("g"), F.col("id")).groupBy("g").agg(
        *tuple_readings(F.tuple_sketch_agg_integer("id", (F.col("id") % 3).cast("int"), 9, "sum"), "integer")))


def test_tuple_empty_and_null(diff):
    diff(lambda s: tuple_df(s).where("k > 100").select(
        F.tuple_sketch_agg_double("k", "x"), F.tuple_sketch_agg_integer("k", "v"),
        *tuple_readings(F.tuple_sketch_agg_double("k", "x"), "double")))
    diff(lambda s: s.sql("SELECT tuple_sketch_estimate_double(NULL), tuple_sketch_theta_integer(NULL), "
                         "tuple_sketch_summary_integer(NULL), tuple_union_double(NULL, NULL), "
                         "tuple_difference_theta_integer(NULL, NULL)"))


def test_tuple_spark_made_sketches(diff, spark_made):
    rows = [(spark_made["tbig"], spark_made["tsmall"], spark_made["small"]),
            (spark_made["tbig"], spark_made["tsmall"], spark_made["empty"])]

    def program(s):
        df = s.createDataFrame(rows, "d binary, i binary, t binary")
        return df.select(*tuple_readings("d", "double"), *tuple_readings("i", "integer"),
                         F.tuple_sketch_estimate_integer(F.tuple_intersection_theta_integer("i", "t", "sum")),
                         F.tuple_sketch_summary_double(F.tuple_difference_theta_double("d", "t")),
                         F.tuple_sketch_estimate_double(F.tuple_union_theta_double("d", "t")))
    diff(program)
    diff(lambda s: s.createDataFrame(rows, "d binary, i binary, t binary").select(
        *tuple_readings(F.tuple_union_agg_double("d"), "double"), *tuple_readings(F.tuple_intersection_agg_integer("i"), "integer")))


def test_tuple_errors(diff_error):
    d = lambda s: tuple_df(s)  # noqa: E731
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_integer("k", "v", 12, "foo")),
               "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_integer("k", "v", 3)),
               "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_integer("k", "v", F.col("v"))),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_double("k", "x", 12, F.col("t"))),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_double("k", "x", F.lit(None).cast("int"))),
               "DATATYPE_MISMATCH.UNEXPECTED_NULL")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_double("k", F.lit(True))), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_double(F.create_map("k", "k"), "x")),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_integer("k", F.lit(3000000000))), "CAST_OVERFLOW")
    diff_error(lambda s: d(s).select(F.tuple_sketch_agg_double("k", "t")), "CAST_INVALID_INPUT")
    diff_error(lambda s: s.range(1).select(F.tuple_sketch_estimate_integer(F.lit(b"\x01\x02"))),
               "TUPLE_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.range(3).select(F.theta_sketch_agg("id").alias("t")).select(
        F.tuple_sketch_summary_double("t")), "TUPLE_INVALID_INPUT_SKETCH_BUFFER_FAMILY")
    diff_error(lambda s: s.range(3).select(F.tuple_sketch_agg_integer("id", F.lit(1)).alias("t")).select(
        F.tuple_union_theta_integer("t", "t")), "THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY")
    diff_error(lambda s: s.range(3).select(F.tuple_sketch_agg_integer("id", F.lit(1)).alias("t")).select(
        F.tuple_sketch_estimate_double("t")), "TUPLE_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.range(3).select(F.tuple_sketch_agg_integer("id", F.lit(1)).alias("t")).select(
        F.tuple_sketch_summary_integer("t", "avg")), "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT")
    diff_error(lambda s: s.range(3).select(F.lit("x").alias("t")).select(F.tuple_union_agg_double("t")),
               "TUPLE_INVALID_INPUT_SKETCH_BUFFER")



def test_tuple_sketch_bytes_below_rebuild(diff):
    # Up to 15/16 of the hash table no rebuild happens: the whole sketch, in table order.
    diff(lambda s: s.range(0, 60, 1, 1).select(F.tuple_sketch_agg_integer("id", F.lit(1)),
                                               F.tuple_sketch_agg_double(F.col("id").cast("string"), F.lit(0.5))))


def test_ember_made_sketches_read_by_spark(diff, ember):
    # Sketches Ember builds (tuple entries in Ember's table order) read back by both engines.
    row = ember.range(0, 30000, 1, 3).select(
        F.theta_sketch_agg("id", 10).alias("t"),
        F.tuple_sketch_agg_double("id", F.col("id") % 10, 10, "max").alias("d"),
        F.tuple_sketch_agg_integer(F.col("id").cast("string"), F.lit(2), 5).alias("i")).collect()[0]
    rows = [(bytes(row["t"]), bytes(row["d"]), bytes(row["i"]))]

    def program(s):
        df = s.createDataFrame(rows, "t binary, d binary, i binary")
        return df.select(F.theta_sketch_estimate("t"), *tuple_readings("d", "double"), *tuple_readings("i", "integer"),
                         F.tuple_sketch_estimate_double(F.tuple_intersection_theta_double("d", "t")),
                         F.tuple_sketch_summary_double(F.tuple_union_double("d", "d", 12, "sum")))
    diff(program)


def test_theta_and_tuple_without_ansi(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.range(0, 2000, 1, 4).select(
            F.theta_sketch_estimate(F.theta_sketch_agg("id", 8)),
            *tuple_readings(F.tuple_sketch_agg_integer(F.col("id").cast("short"), F.col("id") * 3, 8), "integer"),
            *tuple_readings(F.tuple_sketch_agg_double(F.col("id") % 50, F.col("id").cast("string")), "double")))
        # Arrays of any numbers cast to ARRAY<INT>; a malformed summary string is NULL and skipped.
        diff(lambda s: s.createDataFrame([([1.5, 2.0], "x"), ([1.0, 2.0], "3")], "k array<double>, v string").select(
            F.tuple_sketch_agg_integer("k", "v"),
            F.tuple_sketch_agg_integer(F.col("k").cast("array<decimal(3,1)>"), "v").alias("dec")))
