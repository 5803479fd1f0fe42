"""Differential tests of the HLL sketch functions (hll_sketch_agg, hll_union_agg, hll_union,
hll_sketch_estimate) against Apache Spark. Sketches are DataSketches' updatable HLL images and
must be byte-identical: LIST, SET and HLL modes and the transitions between them, every key
type, lgConfigK from 4 to 21, unions of equal and different lgConfigK, group-by, nulls, empty
input, errors, and sketches crossing between the engines.

Spark merges a group's partial sketches (one a partition) through a DataSketches Union, Ember
its partial sketches (one a batch of rows) the same way. A sketch past the SET mode depends on
how its rows were split: one partial keeps the order-dependent HIP estimate, merged registers
switch to the composite estimator. Inputs whose bytes are compared therefore come from one
partition and one batch, or are split so that every partial reaches the HLL mode, or merge
sketches that were built separately."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F
from pyspark.sql.window import Window

from harness import session_conf, session_mode

KEYS = [(1, 10, "a", b"\x01"), (2, 10, "", b""), (None, None, None, None), (2, -7, "é", b"\x00\xff"),
        (3, 2**40, "a", b"\x01"), (-1, -1, "longer string value", b"\x00" * 40)]
KEY_SCHEMA = "i int, l bigint, s string, b binary"


def keys(s):
    return s.createDataFrame(KEYS, KEY_SCHEMA)


def test_hll_sketch_every_key_type(diff):
    # Integers hash as longs; empty strings and binaries are ignored.
    diff(lambda s: keys(s).select(*[F.hll_sketch_agg(c).alias(c) for c in ["i", "l", "s", "b"]]))
    diff(lambda s: keys(s).select(*[F.hll_sketch_estimate(F.hll_sketch_agg(c, 5)) for c in ["i", "l", "s", "b"]]))
    diff(lambda s: keys(s).select(F.hll_sketch_agg(F.col("i").cast("bigint")).alias("x"), F.hll_sketch_agg("i").alias("y"))
         .select((F.col("x") == F.col("y")).alias("same")))


@pytest.mark.parametrize("lg", [4, 7, 8, 12])
def test_hll_sketch_modes_one_partition(diff, lg):
    # LIST (8 coupons), SET (lgConfigK >= 8, grows to K/8 entries), HLL registers with the HIP
    # estimate: identical bytes and estimates from one partition.
    for n in [0, 1, 7, 8, 9, 24, 25, 100, 384, 385, 386, 1000, 5000]:
        diff(lambda s, n=n: s.range(0, n, 1, 1).select(F.hll_sketch_agg("id", lg).alias("sk"))
             .select("sk", F.hll_sketch_estimate("sk")))


def test_hll_sketch_large(diff):
    # Partitions (Spark) and batches (Ember) each past the SET mode: the merged registers give
    # the same bytes and composite estimate whatever the split.
    for lg in [12, 16]:
        diff(lambda s, lg=lg: s.range(0, 150000, 1, 3).select(F.hll_sketch_agg("id", lg).alias("sk"))
             .select("sk", F.hll_sketch_estimate("sk")))
    diff(lambda s: s.range(0, 200000, 1, 4).select(F.hll_sketch_agg(F.col("id").cast("string")).alias("sk"))
         .select("sk", F.hll_sketch_estimate("sk")))
    # lgConfigK 21 keeps 100000 coupons in SET mode, estimated from their count.
    diff(lambda s: s.range(0, 100000, 1, 2).select(F.hll_sketch_estimate(F.hll_sketch_agg("id", 21))))


def test_hll_estimates_of_merged_sketches(diff, ember):
    # Sketches built apart and merged. Sketches in HLL mode merge their registers (composite
    # estimate, identical bytes); SET sketches replayed into a union that reaches HLL mode keep
    # a HIP estimate that depends on the order in which the partial unions meet, which neither
    # engine fixes (Ember's threads, Spark's partitions): there the estimate must be within the
    # sketch's error bound of the true count.
    def program(s, n, lg, with_bytes):
        parts = [s.range(k * n, (k + 1) * n, 1, 1).select(F.hll_sketch_agg("id", lg).alias("sk")) for k in range(3)]
        df = parts[0].union(parts[1]).union(parts[2])
        u = df.select(F.hll_union_agg("sk").alias("u"))
        return u.select("u", F.hll_sketch_estimate("u")) if with_bytes else u.select(F.hll_sketch_estimate("u"))
    for n, lg in [(2, 12), (5000, 12), (40000, 12), (40000, 4)]:
        diff(lambda s, n=n, lg=lg: program(s, n, lg, True))
    for n, lg in [(200, 12), (1000, 21)]:
        with session_mode(ember):
            estimate = program(ember, n, lg, False).collect()[0][0]
        # Three relative standard errors of an HLL sketch with 2^lg registers.
        bound = 3 * 1.04 / (2 ** lg) ** 0.5 * 3 * n
        assert abs(estimate - 3 * n) <= bound, (n, lg, estimate)


def test_hll_group_by(diff):
    diff(lambda s: s.range(0, 30000, 1, 1).select((F.col("id") % 7).alias("g"), (F.col("id") % 9000).alias("v"))
         .groupBy("g").agg(F.hll_sketch_agg("v", 10).alias("sk"), F.hll_sketch_estimate(F.hll_sketch_agg("v"))))
    diff(lambda s: keys(s).groupBy("l").agg(F.hll_sketch_agg("s"), F.hll_sketch_agg("b", 21)))


def test_hll_empty_and_null_input(diff):
    diff(lambda s: s.range(10).where("id < 0").select(F.hll_sketch_agg("id"), F.hll_sketch_agg("id", 10),
                                                     F.hll_union_agg(F.lit(None).cast("binary"))))
    diff(lambda s: keys(s).where("i is null").select(*[F.hll_sketch_agg(c) for c in ["i", "l", "s", "b"]],
                                                     F.hll_union_agg(F.col("b"))))
    diff(lambda s: s.sql("SELECT hll_sketch_agg(NULL), hll_sketch_estimate(NULL), hll_union(NULL, NULL), "
                         "hll_union_agg(NULL)"))
    diff(lambda s: s.range(10).where("id < 0").groupBy("id").agg(F.hll_sketch_agg("id")))


def sketches(s):
    """Sketches of several sizes and lgConfigK values, each built in one partition."""
    def sk(lo, hi, lg):
        return F.hll_sketch_agg(F.when((F.col("id") >= lo) & (F.col("id") < hi), F.col("id")), lg)
    return s.range(0, 20000, 1, 1).select(
        sk(0, 0, 12).alias("empty"), sk(0, 3, 12).alias("list"), sk(2, 60, 12).alias("set"),
        sk(50, 3000, 12).alias("hll"), sk(1000, 20000, 12).alias("big"), sk(0, 5, 10).alias("list10"),
        sk(0, 3000, 10).alias("hll10"), sk(100, 9000, 14).alias("hll14"), sk(0, 7, 4).alias("list4"),
        sk(0, 200, 4).alias("hll4"))


NAMES = ["empty", "list", "set", "hll", "big", "list10", "hll10", "hll14", "list4", "hll4"]
SAME_K = ["empty", "list", "set", "hll", "big"]


def test_hll_union_same_lg_k(diff):
    pairs = [(a, b) for a in SAME_K for b in SAME_K]
    diff(lambda s: sketches(s).select(*[F.hll_union(a, b).alias(f"{a}_{b}") for a, b in pairs]))
    diff(lambda s: sketches(s).select(*[F.hll_sketch_estimate(F.hll_union(a, b)).alias(f"{a}_{b}") for a, b in pairs]))


def test_hll_union_different_lg_k(diff):
    # Allowed: the union takes the smaller lgConfigK, downsampling the other side.
    pairs = [(a, b) for a in NAMES for b in NAMES]
    diff(lambda s: sketches(s).select(*[F.hll_union(a, b, True).alias(f"{a}_{b}") for a, b in pairs]))
    diff(lambda s: sketches(s).select(
        *[F.hll_sketch_estimate(F.hll_union(a, b, True)).alias(f"{a}_{b}") for a, b in pairs]))
    # An empty side never conflicts.
    diff(lambda s: sketches(s).select(F.hll_union("empty", "hll14"), F.hll_union("list4", "empty")))


def test_hll_union_nulls(diff):
    diff(lambda s: sketches(s).select(F.hll_union("list", F.lit(None).cast("binary")),
                                      F.hll_union(F.lit(None).cast("binary"), "set"),
                                      F.expr("hll_union(list, set, CAST(NULL AS BOOLEAN))")))


def test_hll_union_agg(diff):
    def stacked(s, names):
        df = sketches(s)
        return df.select(F.explode(F.array(*[F.struct(F.lit(i).alias("k"), F.col(n).alias("sk"))
                                             for i, n in enumerate(names)])).alias("e")).select("e.k", "e.sk")
    for names in [SAME_K, ["list", "set"], ["hll", "list", "set"], ["set", "set", "big"], ["empty", "empty"]]:
        diff(lambda s, names=names: stacked(s, names).coalesce(1).select(F.hll_union_agg("sk").alias("u"))
             .select("u", F.hll_sketch_estimate("u")))
    for names in [NAMES, ["hll14", "hll10", "list4"], ["list4", "hll14"], ["empty", "hll14", "list10"]]:
        diff(lambda s, names=names: stacked(s, names).coalesce(1).select(F.hll_union_agg("sk", True).alias("u"))
             .select("u", F.hll_sketch_estimate("u")))
    diff(lambda s: stacked(s, NAMES).groupBy((F.col("k") % 3).alias("g"))
         .agg(F.hll_sketch_estimate(F.hll_union_agg("sk", True))))


def test_hll_sql(diff):
    diff(lambda s: s.sql("SELECT hll_sketch_estimate(hll_sketch_agg(x)), hll_sketch_estimate(hll_sketch_agg(x, 5)), "
                         "hll_sketch_estimate(hll_union(hll_sketch_agg(x), hll_sketch_agg(x + 2))) "
                         "FROM VALUES (1), (2), (3), (NULL), (2) AS t(x)"))
    diff(lambda s: s.sql("SELECT hll_sketch_estimate(hll_union_agg(sk, false)) FROM "
                         "(SELECT hll_sketch_agg(x) sk FROM VALUES (1), (2), (3) AS t(x) GROUP BY x)"))


@pytest.fixture(scope="module")
def spark_made(oracle):
    """Sketches Spark builds, as bytes: Ember must read them as Spark does."""
    with session_mode(oracle):
        return _spark_made(oracle)


def _spark_made(oracle):
    row = oracle.range(0, 50000, 1, 4).select(
        F.hll_sketch_agg("id").alias("big"),
        F.hll_sketch_agg(F.when(F.col("id") < 100, F.col("id"))).alias("set"),
        F.hll_sketch_agg(F.when(F.col("id") < 3, F.col("id").cast("string"))).alias("list"),
        F.hll_sketch_agg(F.when(F.col("id") < 0, F.col("id")), 8).alias("empty"),
        F.hll_sketch_agg("id", 15).alias("big15"),
    ).collect()[0]
    return {k: bytes(row[k]) for k in row.asDict()}


def test_hll_spark_made_sketches(diff, spark_made):
    m = spark_made
    rows = [(m["big"], m["set"]), (m["list"], m["empty"]), (m["set"], m["list"]), (m["big15"], m["big"])]

    def program(s):
        df = s.createDataFrame(rows, "a binary, b binary")
        return df.select(F.hll_sketch_estimate("a"), F.hll_sketch_estimate("b"), F.hll_union("a", "b", True))
    diff(program)
    diff(lambda s: s.createDataFrame(rows, "a binary, b binary").coalesce(1).select(
        F.hll_union_agg("a", True), F.hll_union_agg("b", True)))


def test_hll_ember_made_sketches_read_by_spark(diff, ember):
    row = ember.range(0, 30000, 1, 3).select(
        F.hll_sketch_agg("id", 11).alias("a"),
        F.hll_sketch_agg(F.when(F.col("id") < 50, F.col("id").cast("string"))).alias("b"),
        F.hll_sketch_agg(F.when(F.col("id") < 5, F.col("id"))).alias("c")).collect()[0]
    rows = [(bytes(row["a"]), bytes(row["b"]), bytes(row["c"]))]
    diff(lambda s: s.createDataFrame(rows, "a binary, b binary, c binary").select(
        F.hll_sketch_estimate("a"), F.hll_sketch_estimate("b"), F.hll_sketch_estimate("c"),
        F.hll_union("a", "b", True), F.hll_union("b", "c")))


def test_hll_errors(diff_error):
    def t(s):
        return s.range(10).selectExpr("id", "cast(id as int) i", "cast(id as double) d", "cast(id as string) s",
                                      "cast(cast(id as string) as binary) b")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", 3)).collect(), "HLL_INVALID_LG_K")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", 22)).collect(), "HLL_INVALID_LG_K")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", F.lit(None).cast("int"))).collect(), "HLL_INVALID_LG_K")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", F.col("i"))).collect(), "HLL_K_MUST_BE_CONSTANT")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("d")).collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg(F.col("id").cast("short"))).collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", F.lit(12).cast("bigint"))).collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_sketch_estimate("s")).collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_union_agg("s")).collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_union_agg("b", F.lit("true"))).collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.expr("hll_union(b, b, 1)")).collect(),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: t(s).select(F.hll_sketch_estimate("b")).collect(), "HLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: t(s).select(F.hll_union_agg("b")).collect(), "HLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: t(s).select(F.hll_union("b", "b")).collect(), "HLL_INVALID_INPUT_SKETCH_BUFFER")
    # Sketches of different lgConfigK without allowDifferentLgConfigK.
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", 10).alias("x"), F.hll_sketch_agg("id").alias("y"))
               .select(F.hll_union("x", "y")).collect(), "HLL_UNION_DIFFERENT_LG_K")
    diff_error(lambda s: t(s).select(F.hll_sketch_agg("id", 10).alias("x"), F.hll_sketch_agg("id").alias("y"))
               .select(F.explode(F.array("x", "y")).alias("z")).coalesce(1).select(F.hll_union_agg("z")).collect(),
               "HLL_UNION_DIFFERENT_LG_K")


def test_hll_without_ansi(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.range(0, 2000, 1, 1).select(F.hll_sketch_estimate(F.hll_sketch_agg("id", 8)),
                                                     F.hll_sketch_agg(F.col("id").cast("string"))))


def test_hll_window_and_non_constant_flags(diff):
    diff(lambda s: s.range(0, 40, 1, 1).select("id", (F.col("id") % 3).alias("g")).select(
        "id", F.hll_sketch_estimate(F.hll_sketch_agg("id").over(Window.partitionBy("g"))).alias("e")))
    # The scalar's flag may differ row by row.
    diff(lambda s: sketches(s).select(F.explode(F.array(F.lit(True), F.lit(False))).alias("f"), "list", "set", "hll14")
         .select("f", F.expr("hll_union(list, set, f)"),
                 F.expr("hll_sketch_estimate(hll_union(list, CASE WHEN f THEN hll14 END, f))")))
