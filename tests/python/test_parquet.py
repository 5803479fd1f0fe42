"""Differential tests of the Parquet source: files written by Apache Spark and by Arrow, read
by both engines; projection, filters over row-group statistics, schema merging, bad input."""

from __future__ import annotations

import datetime
import decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

from harness import api_mode


def _oracle_write(oracle, path, sql, fmt="parquet", **options):
    with api_mode(connect=False):
        writer = oracle.sql(sql).write.mode("overwrite")
        for k, v in options.items():
            writer = writer.option(k, v)
        writer.format(fmt).save(str(path))


@pytest.fixture(scope="module")
def spark_types_dir(oracle, tmp_path_factory):
    path = tmp_path_factory.mktemp("pq") / "types"
    _oracle_write(oracle, path, """
        SELECT CAST(id AS TINYINT) AS b, CAST(id * 300 AS SMALLINT) AS s, CAST(id AS INT) AS i,
               id * 10000000000 AS l, CAST(id AS FLOAT) / 3 AS f, CAST(id AS DOUBLE) / 7 AS d,
               id % 2 = 0 AS flag, CONCAT('row-', id) AS str, CAST(CONCAT('x', id) AS BINARY) AS bin,
               DATE_ADD(DATE'2020-02-28', CAST(id AS INT)) AS dt,
               TIMESTAMP'2021-03-04 05:06:07.123456' + MAKE_INTERVAL(0, 0, 0, 0, id) AS ts,
               TIMESTAMP_NTZ'2021-03-04 05:06:07.5' AS ntz,
               CAST(id * 1.25 AS DECIMAL(9, 2)) AS d9, CAST(id * 1.5 AS DECIMAL(18, 3)) AS d18,
               CAST(id AS DECIMAL(30, 5)) / 3 AS d30
        FROM range(0, 50)
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        """)
    return str(path)


def test_read_spark_written_types(diff, spark_types_dir):
    diff(lambda s: s.read.parquet(spark_types_dir))


def test_format_load_and_projection(diff, spark_types_dir):
    diff(lambda s: s.read.format("parquet").load(spark_types_dir).select("str", "d18", "ts"))


def test_count(diff, spark_types_dir):
    diff(lambda s: s.read.parquet(spark_types_dir).groupBy().count())


def test_filter(diff, spark_types_dir):
    diff(lambda s: s.read.parquet(spark_types_dir).filter((F.col("i") > 40) & F.col("str").isNotNull())
         .select("i", "str", "dt"))


def test_sql_on_path(diff, spark_types_dir):
    diff(lambda s: s.sql(f"SELECT i, str FROM parquet.`{spark_types_dir}` WHERE i < 5"))


def test_int96_timestamps(diff, oracle, tmp_path):
    path = tmp_path / "int96"
    with api_mode(connect=False):
        oracle.conf.set("spark.sql.parquet.outputTimestampType", "INT96")
        try:
            oracle.sql("SELECT TIMESTAMP'1970-01-01 00:00:00.000001' + MAKE_INTERVAL(0,0,0,id) AS t "
                       "FROM range(5)").write.mode("overwrite").parquet(str(path))
        finally:
            oracle.conf.unset("spark.sql.parquet.outputTimestampType")
    diff(lambda s: s.read.parquet(str(path)))


def test_timestamp_millis(diff, oracle, tmp_path):
    path = tmp_path / "millis"
    with api_mode(connect=False):
        oracle.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MILLIS")
        try:
            oracle.sql("SELECT TIMESTAMP'2001-01-01 00:00:00.123' + MAKE_INTERVAL(0,0,0,id) AS t "
                       "FROM range(5)").write.mode("overwrite").parquet(str(path))
        finally:
            oracle.conf.unset("spark.sql.parquet.outputTimestampType")
    diff(lambda s: s.read.parquet(str(path)))


def test_arrow_written_file(diff, tmp_path):
    path = str(tmp_path / "arrow.parquet")
    table = pa.table({
        "u8": pa.array([1, 255, None], pa.uint8()),
        "u32": pa.array([0, 4294967295, 7], pa.uint32()),
        "ms": pa.array([0, 1_600_000_000_123, None], pa.timestamp("ms", tz="UTC")),
        "us": pa.array([1_000, 1_600_000_000_123_456, 5], pa.timestamp("us")),
        "dict": pa.array(["a", "b", "a"]).dictionary_encode(),
        "lst": pa.array([[1, 2], None, []], pa.list_(pa.int64())),
        "st": pa.array([{"x": 1, "y": "a"}, None, {"x": None, "y": "c"}]),
        "dec": pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-2.25")], pa.decimal128(5, 2)),
        "day": pa.array([datetime.date(2020, 1, 1), None, datetime.date(1900, 12, 31)]),
    })
    pq.write_table(table, path, version="2.6")
    diff(lambda s: s.read.parquet(path))


def test_row_group_pruning(diff, tmp_path):
    path = str(tmp_path / "groups.parquet")
    table = pa.table({"k": pa.array(range(10_000), pa.int64()),
                      "s": pa.array([f"v{i:05d}" for i in range(10_000)])})
    pq.write_table(table, path, row_group_size=1000)
    diff(lambda s: s.read.parquet(path).filter(F.col("k") >= 8500))
    diff(lambda s: s.read.parquet(path).filter((F.col("s") == "v00042") | (F.col("k") == 9999)))
    diff(lambda s: s.read.parquet(path).filter(F.col("s") == "v00042").select("k"))
    diff(lambda s: s.read.parquet(path).filter(F.col("k").isNull()))


def test_dictionary_fallback_pages(diff, tmp_path):
    # A dictionary page limit far below the column's distinct values: each row group starts
    # dictionary-encoded and continues with plain pages; other columns stay all-dictionary.
    path = str(tmp_path / "fallback.parquet")
    n = 20_000
    table = pa.table({"many": pa.array([None if i % 97 == 0 else f"key-{i * 7919 % n:06d}"
                                        for i in range(n)]),
                      "few": pa.array([f"g{i % 5}" for i in range(n)]),
                      "v": pa.array(range(n), pa.int64())})
    pq.write_table(table, path, row_group_size=8_000, dictionary_pagesize_limit=2_000,
                   data_page_size=4_000)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == 3
    diff(lambda s: s.read.parquet(path))
    diff(lambda s: s.read.parquet(path).groupBy("few").agg(F.countDistinct("many").alias("d"),
                                                          F.max("many").alias("m")))
    diff(lambda s: s.read.parquet(path).filter(F.col("many") == "key-000042").select("v", "few"))


def test_group_by_dictionary_coded_keys(diff, tmp_path):
    # String keys read from dictionary pages group by their dictionary codes: each file (and row
    # group) has its own dictionary, in its own order, with nulls, an empty string and strings
    # too long to pack; integer keys group by their narrow range beside them.
    d = tmp_path / "dict_keys"
    d.mkdir()
    words = ["a", "", "beta", "a string longer than sixteen bytes", "\u65e5\u672c", "z"]
    for f in range(3):
        n = 30_000
        rows = range(f * n, (f + 1) * n)
        table = pa.table({
            "s": pa.array([None if i % 89 == 0 else words[(i * (f + 1)) % (len(words) - f)] for i in rows]),
            "t": pa.array([f"t{(i // 7) % 4}" for i in rows]),
            "k": pa.array([None if i % 61 == 0 else (i % 9) - 4 for i in rows], pa.int32()),
            "w": pa.array([(i % 3) * 1_000_000_007 for i in rows], pa.int64()),
            "v": pa.array(rows, pa.int64())})
        pq.write_table(table, str(d / f"part{f}.parquet"), row_group_size=11_000)
    path = str(d)
    diff(lambda s: s.read.parquet(path).groupBy("s").agg(F.count("*").alias("n"), F.sum("v").alias("sv")))
    diff(lambda s: s.read.parquet(path).groupBy("s", "t").agg(F.count("*").alias("n"), F.max("v").alias("mv")))
    diff(lambda s: s.read.parquet(path).groupBy("t", "k").agg(F.sum("v").alias("sv"), F.min("s").alias("ms")))
    diff(lambda s: s.read.parquet(path).groupBy("k", "w", "s").agg(F.count("*").alias("n")))
    diff(lambda s: s.read.parquet(path).filter(F.col("v") % 2 == 0).groupBy("s").agg(F.avg("v").alias("av")))
    diff(lambda s: s.read.parquet(path).groupBy(F.upper("t").alias("u")).agg(F.count("*").alias("n")))


def test_min_max_of_dictionary_coded_strings(diff, tmp_path):
    # min and max of strings read from dictionary pages compare each dictionary entry once per
    # run of rows of one group: whole batches of a global aggregate, runs of sorted keys. The
    # files hold nulls, an all-null row group, bytes that sort unsigned (UTF-8 past ASCII), a
    # prefix of another value, and a column whose dictionary overflows into plain pages.
    d = tmp_path / "dict_minmax"
    d.mkdir()
    words = ["pear", "apple", "", "app", "\u00e9t\u00e9", "zoo", "Zebra", "a string longer than sixteen bytes"]
    for f in range(2):
        n = 40_000
        rows = range(f * n, (f + 1) * n)
        table = pa.table({
            "s": pa.array([None if i % 53 == 0 or 10_000 <= i - f * n < 20_000 else words[(i * (f + 3)) % len(words)]
                           for i in rows]),
            "many": pa.array([f"key-{(i * 7919) % 50_000:06d}" if i % 41 else None for i in rows]),
            "g": pa.array([(i - f * n) // 5_000 for i in rows], pa.int32()),
            "h": pa.array([i % 7 for i in rows], pa.int32())})
        pq.write_table(table, str(d / f"part{f}.parquet"), row_group_size=10_000,
                       dictionary_pagesize_limit=20_000, data_page_size=8_000)
    path = str(d)
    diff(lambda s: s.read.parquet(path).agg(F.min("s").alias("a"), F.max("s").alias("b"),
                                            F.min("many").alias("c"), F.max("many").alias("e")))
    # Sorted groups (long runs of one group) and scattered ones (runs of one row).
    diff(lambda s: s.read.parquet(path).groupBy("g").agg(F.min("s").alias("a"), F.max("s").alias("b"),
                                                         F.max("many").alias("c")))
    diff(lambda s: s.read.parquet(path).groupBy("h").agg(F.min("s").alias("a"), F.max("s").alias("b")))
    diff(lambda s: s.read.parquet(path).filter(F.col("h") == 3).agg(F.min("s").alias("a"), F.max("s").alias("b")))
    diff(lambda s: s.read.parquet(path).filter(F.col("g") == 2).agg(F.min("s").alias("a")))


def _codec_table(codec, n=12_000):
    return pa.table({
        "k": pa.array([None if i % 31 == 0 else i * 7 % 1000 for i in range(n)], pa.int64()),
        "v": pa.array([None if 3_000 <= i < 6_000 else i / 8 for i in range(n)], pa.float64()),
        "s": pa.array([None if i % 17 == 0 else f"s{(i * 7919) % 5_000:05d}" for i in range(n)]),
        "c": pa.array([codec] * n)})


def _write_codec(table, path, codec):
    pq.write_table(table, path, compression=codec, row_group_size=5_000,
                   dictionary_pagesize_limit=4_000, data_page_size=2_000)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression \
        == ("UNCOMPRESSED" if codec == "none" else codec.upper())


def test_every_compression_codec(diff, tmp_path):
    # The reader maps files into memory and Arrow decompresses pages straight from the mapping:
    # every codec Spark reads too, with nulls, a string column whose dictionary overflows into
    # plain pages mid-chunk, pages of only nulls, and a file of no rows beside them.
    d = tmp_path / "codecs"
    d.mkdir()
    for codec in ("none", "snappy", "gzip", "zstd", "lz4"):
        _write_codec(_codec_table(codec), str(d / f"{codec}.parquet"), codec)
    pq.write_table(pa.table({"k": pa.array([], pa.int64()), "v": pa.array([], pa.float64()),
                             "s": pa.array([], pa.string()), "c": pa.array([], pa.string())}),
                   str(d / "empty.parquet"), compression="snappy")
    path = str(d)
    diff(lambda s: s.read.parquet(path))
    diff(lambda s: s.read.parquet(path).groupBy("c").agg(
        F.count("*").alias("n"), F.count("k").alias("nk"), F.sum("k").alias("sk"), F.sum("v").alias("sv"),
        F.countDistinct("s").alias("ds"), F.min("s").alias("mn"), F.max("s").alias("mx")))
    diff(lambda s: s.read.parquet(str(d / "empty.parquet")))


def test_brotli_pages(ember, tmp_path):
    # Spark's default classpath has no Brotli codec; Ember reads what Arrow wrote, row for row.
    path = str(tmp_path / "brotli.parquet")
    table = _codec_table("brotli")
    _write_codec(table, path, "brotli")
    got = [tuple(r) for r in ember.read.parquet(path).collect()]
    assert got == [tuple(r.values()) for r in table.to_pylist()]


def test_multiple_files_and_merge_schema(diff, tmp_path):
    d = tmp_path / "merge"
    d.mkdir()
    pq.write_table(pa.table({"a": pa.array([1, 2], pa.int64())}), str(d / "p1.parquet"))
    pq.write_table(pa.table({"a": pa.array([3], pa.int64()), "b": pa.array(["x"])}),
                   str(d / "p2.parquet"))
    diff(lambda s: s.read.option("mergeSchema", "true").parquet(str(d)))
    diff(lambda s: s.read.parquet(str(d / "p1.parquet"), str(d / "p2.parquet")).select("a"))


def test_user_schema(diff, tmp_path):
    path = str(tmp_path / "us.parquet")
    pq.write_table(pa.table({"a": pa.array([1, None], pa.int32()), "B": pa.array(["x", "y"])}), path)
    diff(lambda s: s.read.schema("a LONG, b STRING, c DOUBLE").parquet(path))


def test_nanosecond_timestamps_are_illegal(diff_error, tmp_path):
    path = str(tmp_path / "ns.parquet")
    pq.write_table(pa.table({"ns": pa.array([1, 2], pa.timestamp("ns"))}), path, version="2.6")
    diff_error(lambda s: s.read.parquet(path), "PARQUET_TYPE_ILLEGAL")


def _ember_error(ember, program, error_class):
    # The oracle raises these as a bare SparkException, whose class PySpark does not expose.
    with pytest.raises(Exception) as info:
        program(ember).collect()
    condition = info.value.getCondition()
    assert condition == error_class or condition.startswith(error_class + "."), condition


def test_missing_path(diff_error, tmp_path):
    diff_error(lambda s: s.read.parquet(str(tmp_path / "absent")), "PATH_NOT_FOUND")


def test_corrupt_file(ember, tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not really parquet PAR1")
    _ember_error(ember, lambda s: s.read.parquet(str(path)), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER")


def test_corrupt_pages(ember, tmp_path):
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"a": [f"value {i}" for i in range(5000)]}), str(good),
                   compression="snappy")
    data = bytearray(good.read_bytes())
    for i in range(200, 2000):  # inside the first data page, footer intact
        data[i] ^= 0x5A
    bad = tmp_path / "pages.parquet"
    bad.write_bytes(bytes(data))
    _ember_error(ember, lambda s: s.read.parquet(str(bad)), "FAILED_READ_FILE")
    assert ember.range(2).count() == 2


def test_truncated_file(ember, tmp_path):
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"a": list(range(1000))}), str(good))
    data = good.read_bytes()
    bad = tmp_path / "trunc.parquet"
    bad.write_bytes(data[: len(data) // 2])
    _ember_error(ember, lambda s: s.read.parquet(str(bad)), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER")


def test_server_survives_bad_input(ember, tmp_path):
    bad = tmp_path / "x.parquet"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(Exception):
        ember.read.parquet(str(bad)).collect()
    assert ember.range(3).count() == 3
