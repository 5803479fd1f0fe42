"""Hash and conditional functions against Apache Spark."""

from __future__ import annotations

from pyspark.sql import functions as F

NAN = float("nan")


def mixed(s):
    return s.createDataFrame(
        [(1, 1, 1, 1.5, 0.5, "Spark", True), (2, -7, -9223372036854775808, -0.0, NAN, "", False),
         (3, None, None, None, None, None, None), (4, 2147483647, 0, NAN, 1.0, "日本語テキスト", True),
         (5, 0, 42, 0.0, -2.5, "a longer string of more than thirty two bytes", None)],
        "k int, i int, l long, d double, f float, s string, b boolean")


def test_hash_and_xxhash64(diff):
    diff(lambda s: mixed(s).select("k", F.hash("i"), F.hash("l"), F.hash("d"), F.hash("f"),
                                   F.hash("s"), F.hash("b"), F.hash("i", "s", "d"),
                                   F.xxhash64("i"), F.xxhash64("l"), F.xxhash64("d"),
                                   F.xxhash64("f"), F.xxhash64("s"), F.xxhash64("b"),
                                   F.xxhash64("k", "s")))
    diff(lambda s: mixed(s).select("k", F.hash(F.split("s", "")), F.xxhash64(F.split("s", "")),
                                   F.hash("k", F.split("s", " "), "d")))
    diff(lambda s: s.range(3).select(F.hash("id"), F.xxhash64("id"),
                                     F.hash(F.col("id").cast("short")),
                                     F.hash(F.col("id").cast("byte"))))


def test_digests(diff):
    diff(lambda s: mixed(s).select("k", F.md5("s"), F.sha1("s"), F.sha2("s", 256), F.sha2("s", 0),
                                   F.sha2("s", 224), F.sha2("s", 384), F.sha2("s", 512),
                                   F.crc32("s")))
    diff(lambda s: mixed(s).select(F.md5(F.col("s").cast("binary")),
                                   F.crc32(F.col("s").cast("binary"))))
    diff(lambda s: s.sql("SELECT sha('abc'), md5('abc'), crc32('abc'), hash('abc', 1), sha2('abc', 100)"))


def test_conditional_functions(diff):
    diff(lambda s: mixed(s).select(
        "k", F.nvl("i", F.lit(0)), F.ifnull("s", F.lit("-")), F.nvl2("i", "s", F.lit("none")),
        F.nvl2("s", F.lit(1), F.lit(2)), F.nullif("i", F.lit(1)), F.nullif("s", F.lit("")),
        F.nanvl("d", F.lit(0.0)), F.nanvl("f", "f"), F.equal_null("i", "l"), F.isnan("d"),
        F.typeof("i"), F.typeof("s"), F.typeof("l")))
    diff(lambda s: s.sql("SELECT nvl2(NULL, 1, 2), nullif(2, 2), nanvl(cast('NaN' as double), 1.0D), "
                         "typeof(1.5), typeof(true), equal_null(NULL, NULL)"))


def test_assert_true(diff, diff_error):
    diff(lambda s: mixed(s).select("k", F.assert_true(F.col("k") > 0, F.lit("bad"))))
    diff_error(lambda s: mixed(s).select(F.assert_true(F.col("k") > 3, F.lit("k too small"))),
               "USER_RAISED_EXCEPTION")



def test_hashes_of_maps_are_refused(diff_error):
    for fn in ["hash", "xxhash64"]:
        diff_error(lambda s, fn=fn: s.sql(f"SELECT {fn}(map('a', 1))"), "DATATYPE_MISMATCH.HASH_MAP_TYPE")
        diff_error(lambda s, fn=fn: s.sql(f"SELECT {fn}(1, array(map('a', 1)))"), "DATATYPE_MISMATCH.HASH_MAP_TYPE")
