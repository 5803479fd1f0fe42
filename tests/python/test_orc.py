"""Differential tests of the ORC source and sink: files written by Apache Spark, by Ember and by
Arrow, read by both engines; every Spark type, session time zones, codecs, partitions, file
listing options, schema merging, bad input."""

from __future__ import annotations

import datetime
import decimal
import os
import re
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.orc as po
import pytest
from pyspark.sql import functions as F

from harness import api_mode, is_connect_session

TYPES_QUERY = """
    SELECT id, CAST(id AS TINYINT) AS b, CAST(id * 300 AS SMALLINT) AS s, CAST(id AS INT) AS i,
           id * 10000000000 AS l, CAST(id AS FLOAT) / 3 AS f, CAST(id AS DOUBLE) / 7 AS d,
           id % 2 = 0 AS flag, CONCAT('row-', id) AS str, CAST(CONCAT('x', id) AS BINARY) AS bin,
           DATE_ADD(DATE'1969-12-28', CAST(id AS INT)) AS dt,
           TIMESTAMP'1970-01-01 00:00:01.123456' + MAKE_INTERVAL(0, 0, 0, 0, id) AS ts,
           TIMESTAMP_NTZ'2021-03-04 05:06:07.5' + MAKE_INTERVAL(0, 0, 0, id) AS ntz,
           CAST(id * 1.25 AS DECIMAL(9, 2)) AS d9, CAST(id * -1.5 AS DECIMAL(18, 3)) AS d18,
           CAST(id AS DECIMAL(30, 5)) / 3 AS d30,
           ARRAY(id, NULL, id + 1) AS arr, MAP(CONCAT('k', id), CAST(id AS DOUBLE)) AS m,
           NAMED_STRUCT('x', CAST(id AS INT), 'y', CONCAT('y', id),
                        'z', ARRAY(NAMED_STRUCT('t', TIMESTAMP_NTZ'2000-01-01 00:00:00'))) AS st,
           MAKE_YM_INTERVAL(1, CAST(id AS INT)) AS ym, MAKE_DT_INTERVAL(CAST(id AS INT), 2, 3, 4.5) AS dti
    FROM range(0, 30)
    UNION ALL
    SELECT 99, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           NULL, NULL, NULL, NULL, NULL, NULL
    """

PART_RE = re.compile(r"^part-\d{5}-[0-9a-f-]{36}-c\d{3}(\.[a-z0-9]+)*$")


def _data_files(path: Path) -> list[Path]:
    return sorted(p for p in Path(path).rglob("*") if p.is_file() and not p.name.startswith(("_", ".")))


def _write(session, path, query, mode="overwrite", partition_by=(), **options):
    """Writes `query` as ORC with `session`, the oracle (classic) or Ember (connect)."""
    def run():
        writer = session.sql(query).write.format("orc").mode(mode)
        for k, v in options.items():
            writer = writer.option(k, v)
        if partition_by:
            writer = writer.partitionBy(*partition_by)
        writer.save(str(path))
    if is_connect_session(session):
        run()
    else:
        with api_mode(connect=False):
            run()


def _readable(df):
    """PySpark's classic session cannot collect year-month intervals: they compare as the date
    and timestamp they move a fixed one to."""
    return (df.withColumn("ym", F.expr("DATE'2000-01-01' + ym"))
            .withColumn("dti", F.expr("TIMESTAMP_NTZ'2000-01-01 00:00:00' + dti")))


def _ember_error(ember, program, error_class):
    # The oracle raises these as a bare SparkException, whose class PySpark does not expose.
    with pytest.raises(Exception) as info:
        program(ember).collect()
    condition = info.value.getCondition()
    assert condition == error_class or condition.startswith(error_class + "."), condition
    return info.value


@pytest.fixture(scope="module")
def spark_dir(oracle, tmp_path_factory):
    path = tmp_path_factory.mktemp("orc") / "spark"
    _write(oracle, path, TYPES_QUERY)
    return str(path)


@pytest.fixture(scope="module")
def ember_dir(ember, tmp_path_factory):
    path = tmp_path_factory.mktemp("orc") / "ember"
    _write(ember, path, TYPES_QUERY)
    return str(path)


def test_spark_writes_ember_reads(diff, ember, oracle, spark_dir):
    diff(lambda s: _readable(s.read.orc(spark_dir)))
    with api_mode(connect=False):
        expected = oracle.read.orc(spark_dir).schema
    assert ember.read.orc(spark_dir).schema == expected


def test_ember_writes_spark_reads(diff, ember_dir, spark_dir):
    files = _data_files(Path(ember_dir))
    assert files and all(PART_RE.match(f.name) and f.name.endswith(".zstd.orc") for f in files), files
    assert (Path(ember_dir) / "_SUCCESS").exists()
    # Spark reads Ember's files as Ember does, and as each reads its own.
    diff(lambda s: _readable(s.read.orc(ember_dir)))
    diff(lambda s: _readable(s.read.orc(ember_dir if is_connect_session(s) else spark_dir)))


def test_spark_type_attributes_in_ember_files(ember_dir):
    f = po.ORCFile(str(_data_files(Path(ember_dir))[0]))
    attr = {n: (f.schema.field(n).metadata or {}).get(b"spark.sql.catalyst.type") for n in f.schema.names}
    assert attr["ntz"] == b"timestamp_ntz" and attr["ym"] == b"interval year to month"
    assert attr["dti"] == b"interval day to second" and attr["ts"] == b"timestamp"
    assert f.schema.field("ntz").type == pa.int64() and f.compression == "ZSTD"


def test_projection_count_filter(diff, spark_dir):
    diff(lambda s: s.read.format("orc").load(spark_dir).select("d30", "str", "ts"))
    diff(lambda s: s.read.orc(spark_dir).groupBy().count())
    diff(lambda s: s.read.orc(spark_dir).filter((F.col("i") > 20) & F.col("str").isNotNull())
         .select("i", "m", "st"))
    diff(lambda s: s.read.orc(spark_dir).select(F.col("st.y"), F.size("arr")))


def test_sql_on_path_and_table(diff, spark_dir, ember, oracle):
    diff(lambda s: s.sql(f"SELECT i, str FROM orc.`{spark_dir}` WHERE i < 5"))
    for s in (ember, oracle):
        with api_mode(connect=is_connect_session(s)):
            s.sql("DROP TABLE IF EXISTS orc_t")
            s.sql("CREATE TABLE orc_t (a INT, b STRING, c TIMESTAMP_NTZ) USING orc")
            s.sql("INSERT INTO orc_t VALUES (1, 'x', TIMESTAMP_NTZ'2020-01-01 01:02:03'), (2, NULL, NULL)")
    try:
        diff(lambda s: s.sql("SELECT * FROM orc_t"))
        diff(lambda s: s.sql("SELECT * FROM orc_t").select(F.input_file_name().endswith(".zstd.orc")))
        diff(lambda s: s.sql("SHOW CREATE TABLE orc_t").select(F.col("createtab_stmt").contains("USING orc")))
    finally:
        for s in (ember, oracle):
            with api_mode(connect=is_connect_session(s)):
                s.sql("DROP TABLE IF EXISTS orc_t")


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Asia/Kolkata"])
def test_timestamps_across_session_time_zones(diff, ember, oracle, tmp_path, zone):
    # Written under one session time zone, read under another: timestamps are instants,
    # timestamp_ntz values wall-clock times.
    query = ("SELECT TIMESTAMP'2021-06-01 12:30:00.654321' AS ts, "
             "TIMESTAMP_NTZ'2021-06-01 12:30:00.654321' AS ntz, "
             "TIMESTAMP'1900-01-01 00:00:00' AS old, TIMESTAMP'2200-12-31 23:59:59.999999' AS late")
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    for s, path in ((ember, ours), (oracle, theirs)):
        with api_mode(connect=is_connect_session(s)):
            s.conf.set("spark.sql.session.timeZone", zone)
            try:
                _write(s, path, query)
            finally:
                s.conf.set("spark.sql.session.timeZone", "UTC")
    for read_zone in ("UTC", "Asia/Tokyo"):
        for s in (ember, oracle):
            with api_mode(connect=is_connect_session(s)):
                s.conf.set("spark.sql.session.timeZone", read_zone)
        try:
            diff(lambda s: s.read.orc(str(ours)).selectExpr("*", "CAST(ts AS STRING) AS shown"))
            diff(lambda s: s.read.orc(str(theirs)))
        finally:
            for s in (ember, oracle):
                with api_mode(connect=is_connect_session(s)):
                    s.conf.set("spark.sql.session.timeZone", "UTC")


@pytest.mark.parametrize("codec,suffix", [("none", ".orc"), ("uncompressed", ".orc"),
                                          ("snappy", ".snappy.orc"), ("zlib", ".zlib.orc"),
                                          ("lz4", ".lz4.orc"), ("zstd", ".zstd.orc")])
def test_codecs(diff, ember, oracle, tmp_path, spark_dir, codec, suffix):
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    query = f"SELECT * FROM orc.`{spark_dir}`"
    _write(ember, ours, query, compression=codec)
    _write(oracle, theirs, query, compression=codec)
    files = _data_files(ours)
    assert files and all(f.name.endswith(suffix) and not f.name.endswith("." + suffix) for f in files)
    diff(lambda s: _readable(s.read.orc(str(ours))))
    diff(lambda s: _readable(s.read.orc(str(theirs))))


def test_default_codec_follows_the_configuration(diff, ember, tmp_path):
    ember.conf.set("spark.sql.orc.compression.codec", "snappy")
    try:
        _write(ember, tmp_path / "c", "SELECT 1 AS a")
    finally:
        ember.conf.unset("spark.sql.orc.compression.codec")
    assert [f.name.endswith(".snappy.orc") for f in _data_files(tmp_path / "c")] == [True]
    diff(lambda s: s.read.orc(str(tmp_path / "c")))


def test_unknown_codec(diff_error, tmp_path):
    diff_error(lambda s: s.range(1).write.option("compression", "gzip").orc(str(tmp_path / "x")),
               "CODEC_NOT_AVAILABLE")


def test_partitions(diff, ember, oracle, tmp_path):
    query = "SELECT id, CAST(id % 3 AS INT) AS k, IF(id % 4 = 0, NULL, CONCAT('p', id % 2)) AS p FROM range(40)"
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    _write(ember, ours, query, partition_by=("k", "p"))
    _write(oracle, theirs, query, partition_by=("k", "p"))
    assert {str(f.parent.relative_to(ours)) for f in _data_files(ours)} == \
        {str(f.parent.relative_to(theirs)) for f in _data_files(theirs)}
    diff(lambda s: s.read.orc(str(ours)))
    diff(lambda s: s.read.orc(str(theirs)).filter("k = 1 AND p IS NULL"))
    diff(lambda s: s.read.orc(str(ours)).select("id", F.input_file_name().contains("k=2")))
    # Dynamic partition overwrite replaces only the partitions written.
    for s in (ember, oracle):
        with api_mode(connect=is_connect_session(s)):
            s.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
    try:
        _write(ember, ours, "SELECT 1000L AS id, 1 AS k, 'p1' AS p", partition_by=("k", "p"))
        _write(oracle, theirs, "SELECT 1000L AS id, 1 AS k, 'p1' AS p", partition_by=("k", "p"))
    finally:
        for s in (ember, oracle):
            with api_mode(connect=is_connect_session(s)):
                s.conf.unset("spark.sql.sources.partitionOverwriteMode")
    diff(lambda s: s.read.orc(str(ours if is_connect_session(s) else theirs)))


def test_write_modes_and_max_records(diff, diff_error, ember, tmp_path):
    path = tmp_path / "modes"
    _write(ember, path, "SELECT 1 AS a", mode="error")
    diff_error(lambda s: s.sql("SELECT 2 AS a").write.orc(str(path)), "PATH_ALREADY_EXISTS")
    _write(ember, path, "SELECT 3 AS a", mode="ignore")
    _write(ember, path, "SELECT 4 AS a", mode="append")
    diff(lambda s: s.read.orc(str(path)))
    assert sorted(r[0] for r in ember.read.orc(str(path)).collect()) == [1, 4]
    many = tmp_path / "many"
    _write(ember, many, "SELECT id FROM range(0, 25, 1, 1)", maxRecordsPerFile=10)
    assert len(_data_files(many)) == 3
    diff(lambda s: s.read.orc(str(many)))


def test_empty_dataframe_keeps_schema(diff, ember, tmp_path):
    path = tmp_path / "empty"
    _write(ember, path, "SELECT 1 AS a, 'x' AS b, ARRAY(1.5D) AS c WHERE false")
    assert len(_data_files(path)) == 1
    diff(lambda s: s.read.orc(str(path)))


def test_listing_options(diff, oracle, tmp_path):
    root = tmp_path / "listing"
    for name in ("a", "b", "nested/c"):
        _write(oracle, root / name, f"SELECT '{name}' AS src, id FROM range(3)")
    (root / "nested" / "notes.txt").write_text("not orc")
    diff(lambda s: s.read.orc(str(root / "[ab]")))
    diff(lambda s: s.read.option("recursiveFileLookup", "true").option("pathGlobFilter", "*.orc")
         .orc(str(root)))
    diff(lambda s: s.read.option("pathGlobFilter", "*.zstd.orc").format("orc").load([str(root / "a"), str(root / "b")]))
    future = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() + 86400))
    diff(lambda s: s.read.option("modifiedBefore", future).option("pathGlobFilter", "*.orc")
         .orc(str(root / "b")))
    diff(lambda s: s.read.option("modifiedAfter", future).schema("src STRING, id LONG")
         .option("pathGlobFilter", "*.orc").orc(str(root / "b")))


def test_merge_schema(diff, tmp_path):
    d = tmp_path / "merge"
    d.mkdir()
    po.write_table(pa.table({"a": pa.array([1, 2], pa.int64())}), str(d / "p1.orc"))
    po.write_table(pa.table({"a": pa.array([3], pa.int64()), "b": pa.array(["x"])}), str(d / "p2.orc"))
    diff(lambda s: s.read.option("mergeSchema", "true").orc(str(d)))
    diff(lambda s: s.read.format("orc").load([str(d / "p2.orc"), str(d / "p1.orc")]))
    diff(lambda s: s.read.schema("b STRING, a LONG, c DOUBLE").orc(str(d)))


def test_merge_schema_conflict(ember, tmp_path):
    d = tmp_path / "conflict"
    d.mkdir()
    po.write_table(pa.table({"a": pa.array([1], pa.int64())}), str(d / "p1.orc"))
    po.write_table(pa.table({"a": pa.array(["x"])}), str(d / "p2.orc"))
    _ember_error(ember, lambda s: s.read.option("mergeSchema", "true").orc(str(d)), "CANNOT_MERGE_SCHEMAS")


def test_arrow_written_files_and_stripes(diff, tmp_path):
    path = str(tmp_path / "arrow.orc")
    n = 200_000
    table = pa.table({
        "k": pa.array(range(n), pa.int64()),
        "s": pa.array([f"v{i % 1000:05d}" if i % 11 else None for i in range(n)]),
        "ns": pa.array([1_600_000_000_123_456_789 + i for i in range(n)], pa.timestamp("ns")),
        "dec": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(12, 2)),
        "day": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=i % 500) for i in range(n)]),
    })
    po.write_table(table, path, stripe_size=256 * 1024, compression="snappy")
    assert po.ORCFile(path).nstripes > 3
    diff(lambda s: s.read.orc(path).filter(F.col("k") % 997 == 0))
    diff(lambda s: s.read.orc(path).groupBy().agg(F.count("*"), F.count("s"), F.sum("k"), F.max("ns")))
    diff(lambda s: s.read.orc(path).select(F.input_file_block_start() >= 0, "k").filter("k < 10"))


def test_missing_path(diff_error, tmp_path):
    diff_error(lambda s: s.read.orc(str(tmp_path / "absent")), "PATH_NOT_FOUND")


def test_corrupt_and_truncated_files(ember, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.orc").write_bytes(b"ORC garbage that is not an ORC file at all")
    err = _ember_error(ember, lambda s: s.read.orc(str(bad)), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER")
    assert "x.orc" in str(err)
    err = _ember_error(ember, lambda s: s.read.schema("a INT").orc(str(bad)), "FAILED_READ_FILE.NO_HINT")
    assert "x.orc" in str(err)

    good = tmp_path / "good.orc"
    po.write_table(pa.table({"a": list(range(5000)), "s": [f"value {i}" for i in range(5000)]}), str(good),
                   compression="zlib")
    data = good.read_bytes()
    trunc = tmp_path / "trunc"
    trunc.mkdir()
    (trunc / "t.orc").write_bytes(data[: len(data) // 2])
    _ember_error(ember, lambda s: s.read.orc(str(trunc)), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER")

    damaged = bytearray(data)
    for i in range(10, min(2000, len(data) // 2)):  # inside the stripe, tail intact
        damaged[i] ^= 0x5A
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "p.orc").write_bytes(bytes(damaged))
    _ember_error(ember, lambda s: s.read.orc(str(pages)), "FAILED_READ_FILE")
    assert ember.range(2).count() == 2


def test_timestamps_before_1970(diff, diff_error, ember, oracle, tmp_path):
    # Spark's own files hold them all; Arrow's ORC writer stores only whole seconds before 1970
    # in a form ORC's Java reader accepts, so Ember refuses to write the others.
    query = ("SELECT TIMESTAMP'1969-12-31 23:59:58.5' + MAKE_INTERVAL(0, 0, 0, 0, 0, 0, id) AS ts "
             "FROM range(4)")
    _write(oracle, tmp_path / "spark", query)
    diff(lambda s: s.read.orc(str(tmp_path / "spark")))
    _write(ember, tmp_path / "whole", "SELECT TIMESTAMP'1969-12-31 23:59:58' AS ts")
    diff(lambda s: s.read.orc(str(tmp_path / "whole")))
    with pytest.raises(Exception) as info:
        _write(ember, tmp_path / "ember", query)
    assert info.value.getCondition() == "TASK_WRITE_FAILED"
    assert not (tmp_path / "ember").exists()


def test_unsupported_column_type(diff_error, tmp_path):
    diff_error(lambda s: s.sql("SELECT NULL AS v").write.orc(str(tmp_path / "void")),
               "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE")
