"""Differential tests of DataFrame.write: Ember writes, Apache Spark reads (and the other way),
save modes, partitionBy, compression codecs, the commit protocol's files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from harness import api_mode, is_connect_session

def _typed_table():
    import datetime
    import decimal

    import pyarrow as pa

    n = 40
    base_ts = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=datetime.timezone.utc)
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "k": pa.array([i % 3 for i in range(n)], pa.int32()),
        "s": pa.array([f'name "{i}", x' if i % 7 else f"  padded {i} " for i in range(n)]),
        "d": pa.array([i / 4 for i in range(n)]),
        "dt": pa.array([datetime.date(2024, 1, 30) + datetime.timedelta(days=i) for i in range(n)]),
        "ts": pa.array([base_ts + datetime.timedelta(seconds=i * 3601) for i in range(n)],
                       pa.timestamp("us", tz="UTC")),
        "dec": pa.array([decimal.Decimal(i) * decimal.Decimal("1.5") for i in range(n)], pa.decimal128(10, 2)),
        "flag": pa.array([i % 2 == 0 for i in range(n)]),
        "maybe": pa.array([None if i % 4 == 0 else ("" if i % 4 == 1 else f"v{i}") for i in range(n)]),
        "p": pa.array([None if i % 5 == 0 else f"a/b={i % 2}" for i in range(n)]),
    })


@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> str:
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("source") / "typed.parquet"
    pq.write_table(_typed_table(), str(path))
    return "parquet:" + str(path)


PART_RE = re.compile(r"^part-\d{5}-[0-9a-f-]{36}[-.]c\d{3}(\.[a-z0-9]+)*$")


def _nested_parquet(tmp_path: Path) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = str(tmp_path / "nested.parquet")
    pq.write_table(pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "arr": pa.array([[1, None], [], None], pa.list_(pa.int64())),
        "st": pa.array([{"x": 1, "y": None}, None, {"x": 3, "y": "q\"uote"}]),
        "m": pa.array([[("a", 1)], None, [("b", 2), ("c", None)]], pa.map_(pa.string(), pa.int64())),
        "bin": pa.array([b"a\tb\x01", None, b"xyz"]),
        "big": pa.array([1e10, float("nan"), -0.0]),
    }), path)
    return path


def _df(spark, query):
    return spark.read.parquet(query[len("parquet:"):]) if query.startswith("parquet:") else spark.sql(query)


def _ember_write(ember, path, fmt, query, mode="error", partition_by=(), **options):
    writer = _df(ember, query).write.format(fmt).mode(mode)
    for k, v in options.items():
        writer = writer.option(k, v)
    if partition_by:
        writer = writer.partitionBy(*partition_by)
    writer.save(str(path))


def _oracle_write(oracle, path, fmt, query, partition_by=(), **options):
    with api_mode(connect=False):
        writer = _df(oracle, query).coalesce(1).write.format(fmt).mode("overwrite")
        for k, v in options.items():
            writer = writer.option(k, v)
        if partition_by:
            writer = writer.partitionBy(*partition_by)
        writer.save(str(path))


def _data_files(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(("_", ".")))


@pytest.mark.parametrize("codec,suffix", [("snappy", ".snappy.parquet"), ("zstd", ".zstd.parquet"),
                                          ("gzip", ".gz.parquet"), ("none", ".parquet")])
def test_parquet_round_trips_both_ways(diff, ember, oracle, tmp_path, typed, codec, suffix):
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    _ember_write(ember, ours, "parquet", typed, compression=codec)
    _oracle_write(oracle, theirs, "parquet", typed, compression=codec)
    assert (ours / "_SUCCESS").exists()
    files = _data_files(ours)
    assert files and all(PART_RE.match(f.name) and f.name.endswith(suffix) for f in files), files
    # Spark reads Ember's files as Ember does; each reads its own files alike; Ember reads Spark's.
    diff(lambda s: s.read.parquet(str(ours)))
    diff(lambda s: s.read.parquet(str(ours if is_connect_session(s) else theirs)))
    diff(lambda s: s.read.parquet(str(theirs)))
    diff(lambda s: s.read.parquet(str(ours)) if is_connect_session(s) else _df(s, typed))


def test_parquet_timestamp_and_nested_types(diff, ember, oracle, tmp_path, typed):
    nested = "parquet:" + _nested_parquet(tmp_path)
    for ts_type in ("INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS"):
        for name, source in (("typed", typed), ("nested", nested)):
            path = tmp_path / f"{ts_type}-{name}"
            ember.conf.set("spark.sql.parquet.outputTimestampType", ts_type)
            try:
                _ember_write(ember, path, "parquet", source)
            finally:
                ember.conf.unset("spark.sql.parquet.outputTimestampType")
            diff(lambda s: s.read.parquet(str(path)))
            if ts_type != "TIMESTAMP_MILLIS":  # which drops the microseconds
                diff(lambda s: s.read.parquet(str(path)) if is_connect_session(s) else _df(s, source))


def _text_of(path: Path) -> str:
    return "".join(p.read_text() for p in _data_files(path))


@pytest.mark.parametrize("options", [{}, {"header": "true"},
                                     {"header": "true", "sep": ";", "quoteAll": "true", "nullValue": "NA"},
                                     {"escape": '"', "timestampFormat": "yyyy/MM/dd HH:mm", "dateFormat": "dd.MM.yyyy",
                                      "emptyValue": "EMPTY"}])
def test_csv_text_matches_spark(ember, oracle, tmp_path, typed, options):
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    _ember_write(ember, ours, "csv", typed, **options)
    _oracle_write(oracle, theirs, "csv", typed, **options)
    assert all(f.name.endswith(".csv") for f in _data_files(ours))
    assert _text_of(ours) == _text_of(theirs)


def test_json_text_matches_spark(ember, oracle, tmp_path, typed):
    for name, source in (("typed", typed), ("nested", "parquet:" + _nested_parquet(tmp_path))):
        ours, theirs = tmp_path / f"ember-{name}", tmp_path / f"spark-{name}"
        _ember_write(ember, ours, "json", source)
        _oracle_write(oracle, theirs, "json", source)
        assert _text_of(ours) == _text_of(theirs)


def test_text_and_compression(diff, ember, tmp_path, typed):
    for codec, suffix in (("none", ".txt"), ("gzip", ".txt.gz")):
        ours = tmp_path / f"text-{codec}"
        ember.read.parquet(typed[len("parquet:"):]).select("maybe").write.option(
            "compression", codec).text(str(ours))
        assert all(f.name.endswith(suffix) for f in _data_files(ours))
        diff(lambda s: s.read.text(str(ours)))
    ours = tmp_path / "csv-gz"
    _ember_write(ember, ours, "csv", typed, compression="gzip", header="true")
    assert all(f.name.endswith(".csv.gz") for f in _data_files(ours))
    diff(lambda s: s.read.csv(str(ours), header=True, inferSchema=True))


def test_save_modes(diff, diff_error, ember, tmp_path):
    path = tmp_path / "modes"
    _ember_write(ember, path, "parquet", "SELECT 1 AS a")
    diff_error(lambda s: s.sql("SELECT 2 AS a").write.parquet(str(path)), "PATH_ALREADY_EXISTS")
    _ember_write(ember, path, "parquet", "SELECT 3 AS a", mode="ignore")
    diff(lambda s: s.read.parquet(str(path)))
    assert ember.read.parquet(str(path)).collect()[0][0] == 1
    _ember_write(ember, path, "parquet", "SELECT 4 AS a", mode="append")
    diff(lambda s: s.read.parquet(str(path)))
    assert sorted(r[0] for r in ember.read.parquet(str(path)).collect()) == [1, 4]
    _ember_write(ember, path, "parquet", "SELECT 5 AS a", mode="overwrite")
    diff(lambda s: s.read.parquet(str(path)))
    assert [r[0] for r in ember.read.parquet(str(path)).collect()] == [5]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_partition_by(diff, ember, oracle, tmp_path, typed):
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    _ember_write(ember, ours, "parquet", typed, partition_by=("k", "p"))
    _oracle_write(oracle, theirs, "parquet", typed, partition_by=("k", "p"))
    dirs = lambda root: sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_dir())
    assert dirs(ours) == dirs(theirs)
    # Spark discovers Ember's partitions as it discovers its own.
    with api_mode(connect=False):
        a = sorted(map(tuple, oracle.read.parquet(str(ours)).collect()), key=repr)
        b = sorted(map(tuple, oracle.read.parquet(str(theirs)).collect()), key=repr)
    assert a == b


def test_failed_write_leaves_nothing(diff_error, ember, tmp_path):
    source = _nested_parquet(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    path = out / "nested.csv"
    with pytest.raises(Exception):
        _ember_write(ember, path, "csv", "parquet:" + source)
    assert os.listdir(out) == []
    diff_error(lambda s: s.read.parquet(source).select("arr").write.csv(str(path)),
               "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE")
    diff_error(lambda s: s.sql("SELECT 1 AS a, 2 AS b").write.text(str(out / "t")),
               "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE")
    diff_error(lambda s: s.read.parquet(source).select("id").write.parquet(str(out / "p"),
                                                                       partitionBy="id"),
               "ALL_PARTITION_COLUMNS_NOT_ALLOWED")
    assert os.listdir(out) == []


def test_empty_result_keeps_schema(diff, ember, tmp_path, typed):
    path = tmp_path / "empty"
    ember.read.parquet(typed[len("parquet:"):]).filter("id < 0").write.parquet(str(path))
    diff(lambda s: s.read.parquet(str(path)))


def test_write_errors(diff_error, ember, tmp_path, typed):
    diff_error(lambda s: s.sql("SELECT 1 AS a, 2 AS A").write.parquet(str(tmp_path / "dup")),
               "COLUMN_ALREADY_EXISTS")
    path = tmp_path / "self"
    _ember_write(ember, path, "parquet", typed)
    # Spark deletes its own input and then fails reading it (FAILED_READ_FILE.FILE_NOT_EXIST);
    # Ember refuses before touching anything.
    with pytest.raises(Exception) as info:
        ember.read.parquet(str(path)).write.mode("overwrite").parquet(str(path))
    assert info.value.getCondition() == "UNSUPPORTED_OVERWRITE.PATH"
    assert ember.read.parquet(str(path)).count() == 40


# Programs whose partitioning Spark fixes, and so the files a write leaves: a range's slices
# (given, or the default parallelism), repartition by number (round robin, hash, range),
# coalesce, filters that empty some slices, unions, file scans packing small files together.
PARTITIONED_PROGRAMS = {
    "range_slices": lambda s, src: s.range(1, 100, 1, 10),
    "range_default": lambda s, src: s.range(100),
    "range_empty_slices": lambda s, src: s.range(0, 2, 1, 5),
    "round_robin": lambda s, src: s.range(100).repartition(7),
    "round_robin_few_rows": lambda s, src: s.range(3).repartition(7),
    "hash": lambda s, src: s.range(100).repartition(5, "id"),
    "hash_few_rows": lambda s, src: s.range(4).repartition(5, "id"),
    "hash_strings": lambda s, src: s.range(50).selectExpr("cast(id % 7 as string) k").repartition(4, "k"),
    "hash_columns_only": lambda s, src: s.range(100).repartition("id"),
    "coalesce": lambda s, src: s.range(1, 100, 1, 10).coalesce(3),
    "by_range": lambda s, src: s.range(100).repartitionByRange(5, "id"),
    "by_range_duplicates": lambda s, src: s.range(100).selectExpr("id % 3 AS k").repartitionByRange(5, "k"),
    "by_range_two_keys": lambda s, src: s.range(40).selectExpr("id", "id % 4 AS k").repartitionByRange(3, "k", "id"),
    "filtered_slices": lambda s, src: s.range(0, 100, 1, 4).filter("id < 30"),
    "empty": lambda s, src: s.range(0),
    "union": lambda s, src: s.range(0, 10, 1, 3).union(s.range(0, 10, 1, 2)),
    "limit": lambda s, src: s.range(0, 100, 1, 4).limit(10),
    "aggregate": lambda s, src: s.range(100).selectExpr("id % 3 AS k").groupBy("k").count(),
    "small_files": lambda s, src: s.read.parquet(src),
    "strings": lambda s, src: s.range(1, 100, 1, 4).selectExpr("cast(id AS string) AS v"),
}

# Every program writes Parquet; the other formats share the partitioned write, so a few suffice.
PARTITIONED_WRITES = [(p, "parquet") for p in sorted(PARTITIONED_PROGRAMS)] + [
    (p, fmt) for fmt in ("csv", "json", "orc") for p in ("range_slices", "hash", "filtered_slices", "empty")
] + [("strings", "text")]


def _part_files(path: Path) -> list[str]:
    """Each data file as its directory and Spark partition number: `k=1/00003.c000`."""
    out = []
    for f in _data_files(path):
        rel = f.relative_to(path)
        name = rel.name
        part = name[5:10] + name[47:52]
        out.append(str(rel.parent / part) if str(rel.parent) != "." else part)
    return sorted(out)


@pytest.fixture(scope="module")
def ten_small_files(tmp_path_factory) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("small_files")
    for i in range(10):
        pq.write_table(pa.table({"id": pa.array(range(i * 10, i * 10 + 1 + i), pa.int64())}),
                       str(path / f"f{i}.parquet"))
    return str(path)


@pytest.fixture
def two_leaf_partitions(ember, oracle):
    """The same default parallelism on both engines (the oracle runs local[2])."""
    with api_mode(connect=False):
        oracle.conf.set("spark.sql.leafNodeDefaultParallelism", "2")
    ember.conf.set("spark.sql.leafNodeDefaultParallelism", "2")
    yield
    with api_mode(connect=False):
        oracle.conf.unset("spark.sql.leafNodeDefaultParallelism")
    ember.conf.unset("spark.sql.leafNodeDefaultParallelism")


@pytest.mark.parametrize("program,fmt", PARTITIONED_WRITES)
def test_one_file_per_partition(diff, ember, oracle, tmp_path, two_leaf_partitions,
                                ten_small_files, program, fmt):
    make = PARTITIONED_PROGRAMS[program]
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    with api_mode(connect=True):
        make(ember, ten_small_files).write.format(fmt).save(str(ours))
    with api_mode(connect=False):
        make(oracle, ten_small_files).write.format(fmt).save(str(theirs))
    # The same partitions write files; the same rows in each for the deterministic partitionings.
    assert _part_files(ours) == _part_files(theirs)
    schema = "id long" if program not in ("hash_strings", "by_range_duplicates", "by_range_two_keys",
                                          "aggregate", "strings") else None
    read = (lambda s, p: s.read.format(fmt).schema(schema).load(str(p))) if fmt in ("csv", "json") and schema \
        else (lambda s, p: s.read.format(fmt).load(str(p)))
    if program not in ("round_robin", "round_robin_few_rows", "union", "limit", "aggregate",
                       "small_files", "hash_columns_only") and fmt == "parquet":
        per_file = lambda root: sorted((f.name.split("-")[1], sorted(map(repr, read(ember, f).collect())))
                                       for f in _data_files(root))
        assert per_file(ours) == per_file(theirs)
    diff(lambda s: read(s, ours))
    from urllib.parse import urlparse
    assert sorted(urlparse(u).path for u in ember.read.format(fmt).load(str(ours)).inputFiles()) == \
        sorted(str(f) for f in _data_files(ours))


@pytest.mark.parametrize("options,partition_by", [({"maxRecordsPerFile": "15"}, ()),
                                                  ({}, ("k",)),
                                                  ({"maxRecordsPerFile": "15"}, ("k",))])
def test_partitioned_files_per_directory(ember, oracle, tmp_path, two_leaf_partitions, options,
                                         partition_by):
    ours, theirs = tmp_path / "ember", tmp_path / "spark"
    for spark, path in ((ember, ours), (oracle, theirs)):
        with api_mode(connect=spark is ember):
            writer = spark.range(0, 100, 1, 4).selectExpr("id", "id % 3 AS k").write.options(**options)
            writer.partitionBy(*partition_by).parquet(str(path))
    assert _part_files(ours) == _part_files(theirs)
    with api_mode(connect=False):
        expected = sorted(map(tuple, oracle.read.parquet(str(theirs)).collect()))
        got = sorted(map(tuple, oracle.read.parquet(str(ours)).collect()))
    assert got == expected
