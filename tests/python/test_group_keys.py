"""Grouping on string and mixed keys against Apache Spark: short strings (packed with
fixed-width keys into one 128-bit key), and the switch to byte keys when a longer string turns
up after short ones, in any thread."""

from __future__ import annotations

from pyspark.sql import functions as F


def keyed(s, n=300000):
    # Short keys everywhere; from row 200000 on, every 997th row has a long key, so some threads
    # switch their tables to byte keys after packing many groups and others never do.
    id_ = F.col("id")
    long_key = F.concat(F.lit("a key longer than any packed layout holds #"), (id_ % 5).cast("string"))
    short_key = F.concat(F.lit("k"), (id_ % 40).cast("string"))
    key = (F.when((id_ >= 200000) & (id_ % 997 == 0), long_key)
           .when(id_ % 101 == 0, F.lit(None))
           .when(id_ % 103 == 0, F.lit(""))
           .otherwise(short_key))
    return s.range(n).select(key.alias("k"), (id_ % 3).cast("int").alias("i"),
                             (id_ % 7).alias("l"), id_.alias("v"))


def test_string_keys_switch_to_byte_keys(diff):
    diff(lambda s: keyed(s).groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("sv")))
    diff(lambda s: keyed(s).groupBy("k", "i").agg(F.count("*").alias("n"), F.max("v").alias("mv")))
    diff(lambda s: keyed(s).groupBy("i", "k", "l").agg(F.sum("v").alias("sv")))


def test_short_string_keys(diff):
    diff(lambda s: keyed(s, 200000).groupBy("k").agg(F.count("*").alias("n"), F.avg("v").alias("av")))
    diff(lambda s: keyed(s, 200000).groupBy("k", "l").agg(F.count("*").alias("n")))
    diff(lambda s: s.createDataFrame(
        [("a", 1), ("a\u0000", 2), ("", 3), (None, 4), ("日本", 5), ("日本", 6), ("abcdefghijklmno", 7),
         ("abcdefghijklmnop", 8), ("a", 9)], "k string, v int").groupBy("k").agg(F.sum("v").alias("sv")))


def test_binary_and_two_string_keys(diff):
    diff(lambda s: keyed(s, 100000).select(F.col("k").cast("binary").alias("b"), "i", "v")
         .groupBy("b", "i").agg(F.count("*").alias("n")))
    diff(lambda s: keyed(s, 100000).select(F.col("k"), F.substring("k", 1, 2).alias("k2"), "v")
         .groupBy("k2", "k").agg(F.sum("v").alias("sv")))
    diff(lambda s: s.sql("SELECT k, count(*) AS n, sum(v) AS sv FROM VALUES ('x', 1), ('y', 2), "
                         "('x', 3), (NULL, 4), ('abcdefgh', 5) AS t(k, v) GROUP BY k"))


def many_groups(s, n=700000, groups=350000):
    # Each of `groups` groups gets two rows, spread over the input; every 1009th group's key is
    # null. Each thread's table passes the groups at which it splits into hash partitions.
    id_ = F.col("id")
    g = (id_ * 7919) % groups
    return s.range(n).select(F.when(g % 1009 == 0, F.lit(None)).otherwise(g).alias("g"),
                             F.concat(F.lit("a group key of byte form #"), g.cast("string")).alias("k"),
                             (id_ % 13).alias("v"))


def test_many_groups_merge_split_thread_tables(diff):
    # Plain states (moved whole into the merged table), states that own memory (merged), and
    # string keys too long to pack.
    diff(lambda s: many_groups(s).groupBy("g").agg(F.count("*").alias("n"), F.sum("v").alias("sv"),
                                                   F.min("v").alias("mn"), F.avg("v").alias("av")))
    diff(lambda s: many_groups(s).groupBy("g").agg(F.countDistinct("v").alias("d"),
                                                   F.sort_array(F.collect_list("v")).alias("l")))
    diff(lambda s: many_groups(s).groupBy("k", F.col("v") % 2).agg(F.sum("v").alias("sv")))
