"""Differential tests of the hidden `_metadata` column of file sources: its fields for each
format (Parquet's row_index too), rows of several files, Spark's splits of a large file,
partition directories, filters and groups on its fields, its hiding from `*`, a data column of
the same name, df.metadataColumn, SQL on files and views, and the errors of frames without it.
Both engines read the same files, so paths compare as they are."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

from harness import session_conf, session_mode

FIELDS = ["file_path", "file_name", "file_size", "file_block_start", "file_block_length",
          "file_modification_time"]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def sources(tmp_path) -> dict:
    """Two or three files of each format, in one directory per format."""
    root = tmp_path / "src"
    _write(root / "csv" / "a.csv", "1,x\n2,y\n3,z\n")
    _write(root / "csv" / "b.csv", "4,w\n")
    _write(root / "json" / "a.json", '{"n": 1, "s": "x"}\n{"n": 2, "s": "y"}\n')
    _write(root / "json" / "b.json", '{"n": 3, "s": "z"}\n')
    _write(root / "text" / "a.txt", "one\ntwo\n")
    _write(root / "text" / "b.txt", "three\n")
    (root / "parquet").mkdir(parents=True)
    pq.write_table(pa.table({"n": [1, 2, 3], "s": ["x", "y", "z"]}), root / "parquet" / "a.parquet")
    pq.write_table(pa.table({"n": [4, 5], "s": ["w", "v"]}), root / "parquet" / "b.parquet",
                   row_group_size=1)
    pq.write_table(pa.table({"n": list(range(10, 20)), "s": ["q"] * 10}), root / "parquet" / "c.parquet",
                   row_group_size=4)
    return {fmt: root / fmt for fmt in ("csv", "json", "text", "parquet")}


@pytest.fixture
def orc_dir(oracle, tmp_path) -> Path:
    # ORC files as Spark writes them (pyarrow's ORC writer may be missing from the build).
    path = tmp_path / "orc"
    oracle.createDataFrame([(i, f"s{i}") for i in range(6)], "n int, s string") \
        .repartition(2).write.orc(str(path))
    return path


def _read(s, fmt: str, path: Path):
    return s.read.format(fmt).load(str(path))


@pytest.mark.parametrize("fmt", ["csv", "json", "text", "parquet"])
def test_fields_of_each_format(diff, sources, fmt):
    path = sources[fmt]
    diff(lambda s: _read(s, fmt, path).select("*", "_metadata"))
    diff(lambda s: _read(s, fmt, path).select("_metadata.*"))
    diff(lambda s: _read(s, fmt, path).select(F.col("_metadata.file_size"), "_metadata.file_name"))


def test_orc(diff, orc_dir):
    diff(lambda s: s.read.orc(str(orc_dir)).select("n", "_metadata"))
    diff(lambda s: s.read.orc(str(orc_dir)).groupBy("_metadata.file_path").agg(F.sum("n")))


def test_parquet_row_index(diff, sources):
    path = sources["parquet"]
    diff(lambda s: s.read.parquet(str(path)).select("n", "_metadata.file_name", "_metadata.row_index"))
    diff(lambda s: s.read.parquet(str(path)).filter("n % 2 = 0").select("n", "_metadata.row_index"))
    diff(lambda s: s.read.parquet(str(path)).select("_metadata.row_index", "_metadata.file_name"))


def test_hidden_from_star(diff, sources):
    diff(lambda s: s.read.csv(str(sources["csv"])).select("*"))
    diff(lambda s: s.read.csv(str(sources["csv"])).filter(F.col("_metadata.file_name") == "a.csv"))
    diff(lambda s: s.read.parquet(str(sources["parquet"]))
         .withColumn("f", F.col("_metadata.file_name")).orderBy("n"))
    diff(lambda s: s.read.json(str(sources["json"])).where("_metadata.file_size > 0").select("*"))


def test_columns_do_not_show_it(ember, oracle, sources):
    for s in (ember, oracle):
        with session_mode(s):
            df = s.read.parquet(str(sources["parquet"]))
            assert df.columns == ["n", "s"]
            assert df.select("*", "_metadata").columns == ["n", "s", "_metadata"]
            assert df.filter(F.col("_metadata.row_index") > 0).columns == ["n", "s"]


def test_filters_on_the_file_name(diff, sources):
    diff(lambda s: s.read.csv(str(sources["csv"])).filter(F.col("_metadata.file_name") == "b.csv"))
    diff(lambda s: s.read.parquet(str(sources["parquet"]))
         .where(F.col("_metadata.file_name").isin("a.parquet", "c.parquet")).select("n"))
    diff(lambda s: s.read.text(str(sources["text"])).filter(F.col("_metadata.file_name").endswith("b.txt"))
         .select("value", "_metadata.file_path"))


def test_group_by_the_file(diff, sources):
    diff(lambda s: s.read.csv(str(sources["csv"])).groupBy("_metadata.file_name").count())
    diff(lambda s: s.read.parquet(str(sources["parquet"]))
         .groupBy(F.col("_metadata.file_name"), F.col("_metadata.file_size")).agg(F.sum("n"), F.max("_metadata.row_index")))
    diff(lambda s: s.read.json(str(sources["json"])).groupBy("_metadata").count())


def test_operators_that_keep_it_reachable(diff, sources):
    path = str(sources["parquet"])
    diff(lambda s: s.read.parquet(path).filter("n > 1").select("n", "_metadata.file_name"))
    diff(lambda s: s.read.parquet(path).orderBy("n").select("n", "_metadata.row_index"))
    diff(lambda s: s.read.parquet(path).alias("t").select("t.n", "t._metadata.file_name"))
    diff(lambda s: s.read.parquet(path).select("n", "_metadata").filter(F.col("_metadata.row_index") == 0))


def test_partitioned_directories(diff, tmp_path):
    root = tmp_path / "part"
    _write(root / "k=1" / "x.csv", "a,1\nb,2\n")
    _write(root / "k=2" / "y.csv", "c,3\n")
    _write(root / "k=2" / "z.csv", "d,4\ne,5\nf,6\n")
    diff(lambda s: s.read.csv(str(root)).select("*", "_metadata"))
    diff(lambda s: s.read.csv(str(root)).filter("k = 2").select("_c0", "_metadata.file_path"))
    diff(lambda s: s.read.csv(str(root)).groupBy("k", "_metadata.file_name").count())
    proot = tmp_path / "ppart"
    for k, rows in ((1, [1, 2, 3]), (2, [4])):
        (proot / f"k={k}").mkdir(parents=True)
        pq.write_table(pa.table({"n": rows}), proot / f"k={k}" / "data.parquet")
    diff(lambda s: s.read.parquet(str(proot)).select("n", "k", "_metadata.file_path", "_metadata.row_index"))


def test_splits_of_a_large_file(diff, ember, oracle, tmp_path):
    _write(tmp_path / "big" / "a.csv", "".join(f"{i},{'x' * (i % 13)}\n" for i in range(3000)))
    _write(tmp_path / "big" / "b.csv", "".join(f"{i},{'y' * (i % 7)}\n" for i in range(300)))
    path = tmp_path / "groups.parquet"
    pq.write_table(pa.table({"x": list(range(4000)), "s": [str(i) * 3 for i in range(4000)]}), path,
                   row_group_size=500)
    # maxPartitionBytes below openCostInBytes fixes Spark's split size whatever the parallelism.
    with session_conf(ember, oracle, **{"spark.sql.files.maxPartitionBytes": "2000"}):
        diff(lambda s: s.read.csv(str(tmp_path / "big")).select("_c0", "_metadata"))
        diff(lambda s: s.read.csv(str(tmp_path / "big"))
             .groupBy("_metadata.file_name", "_metadata.file_block_start", "_metadata.file_block_length").count())
        diff(lambda s: s.read.parquet(str(path)).select("x", "_metadata"))
        diff(lambda s: s.read.parquet(str(path)).filter("x % 97 = 0")
             .select("x", "_metadata.row_index", "_metadata.file_block_start"))


def test_same_as_the_input_file_functions(diff, sources):
    diff(lambda s: s.read.csv(str(sources["csv"]))
         .select((F.col("_metadata.file_path") == F.input_file_name()).alias("same_path"),
                 (F.col("_metadata.file_block_start") == F.input_file_block_start()).alias("same_start")))


def test_uri_quoting(diff, tmp_path):
    _write(tmp_path / "a dir" / "é" / "x#1%.csv", "1\n")
    diff(lambda s: s.read.csv(str(tmp_path / "a dir" / "é")).select("*", "_metadata"))


def test_data_column_named_metadata(diff, cdiff, tmp_path):
    path = tmp_path / "own.parquet"
    pq.write_table(pa.table({"a": [1, 2], "_metadata": ["x", "y"]}), path)
    diff(lambda s: s.read.parquet(str(path)).select("_metadata"))
    diff(lambda s: s.read.parquet(str(path)).select("*"))
    # The metadata column then goes by `__metadata`.
    cdiff(lambda s: (lambda df: df.select("a", df.metadataColumn("_metadata").getField("file_name")))(
        s.read.parquet(str(path))))
    diff(lambda s: s.read.parquet(str(path)).select("a", "__metadata.file_size"))


def test_metadata_column_reference(cdiff, sources):
    path = str(sources["parquet"])
    cdiff(lambda s: (lambda df: df.select("n", df.metadataColumn("_metadata")))(s.read.parquet(path)))
    cdiff(lambda s: (lambda df: df.filter(df.metadataColumn("_metadata").getField("row_index") > 0)
                     .select("n"))(s.read.parquet(path)))
    cdiff(lambda s: (lambda df: df.select(df["_metadata"].getField("file_name")))(s.read.parquet(path)))


def test_sql(diff, diff_error, ember, oracle, sources):
    path = sources["parquet"]
    diff(lambda s: s.sql(f"SELECT n, _metadata.file_path, _metadata.row_index FROM parquet.`{path}`"))
    diff(lambda s: s.sql(f"SELECT *, _metadata FROM csv.`{sources['csv']}` WHERE _metadata.file_name = 'a.csv'"))
    diff(lambda s: s.sql(f"SELECT _metadata.file_name, count(*) FROM json.`{sources['json']}` GROUP BY 1"))
    for s in (ember, oracle):
        s.read.parquet(str(path)).createOrReplaceTempView("file_metadata_view")
    diff(lambda s: s.sql("SELECT * FROM file_metadata_view"))
    # A temporary view keeps its source's metadata columns out of reach.
    diff_error(lambda s: s.sql("SELECT n, _metadata.file_name FROM file_metadata_view WHERE n < 3"),
               "UNRESOLVED_COLUMN")
    diff(lambda s: s.sql(f"SELECT t.n, t._metadata.row_index FROM parquet.`{path}` AS t"))
    diff(lambda s: s.sql(f"SELECT _metadata.file_name FROM (SELECT n FROM parquet.`{path}`) WHERE n > 1"))


def test_frames_without_it(diff_error, cdiff_error, sources):
    diff_error(lambda s: s.range(3).select("_metadata"), "UNRESOLVED_COLUMN")
    diff_error(lambda s: s.createDataFrame([(1,)], "a int").select("_metadata.file_name"), "UNRESOLVED_COLUMN")
    diff_error(lambda s: s.read.csv(str(sources["csv"])).groupBy("_c0").count().select("_metadata"),
               "UNRESOLVED_COLUMN")
    diff_error(lambda s: s.read.csv(str(sources["csv"])).select("_metadata.nope"), "FIELD_NOT_FOUND")
    diff_error(lambda s: s.read.csv(str(sources["csv"])).union(s.read.csv(str(sources["csv"])))
               .select("_metadata"), "UNRESOLVED_COLUMN")
    cdiff_error(lambda s: (lambda df: df.select(df.metadataColumn("_metadata")))(s.range(3)),
                "CANNOT_RESOLVE_DATAFRAME_COLUMN")
    cdiff_error(lambda s: (lambda df: df.select(df.metadataColumn("_metadata")))(
        s.read.csv(str(sources["csv"])).groupBy("_c0").count()), "CANNOT_RESOLVE_DATAFRAME_COLUMN")
