"""Differential tests of path handling in file sources: lists of paths, globs, nested and
hidden files, pathGlobFilter, recursiveFileLookup, Hive-style partition discovery and pruning."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

from harness import api_mode


def _csv(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    _csv(root / "a.csv", "1,a\n2,b\n")
    _csv(root / "b.txt", "3,c\n")
    _csv(root / "nested" / "deeper" / "c.csv", "4,d\n")
    _csv(root / "_hidden.csv", "9,hidden\n")
    _csv(root / ".dot.csv", "9,dot\n")
    _csv(root / "_meta" / "x.csv", "9,meta\n")
    return root


def test_directory_lists_nested_files_and_skips_hidden(diff, tree):
    diff(lambda s: s.read.csv(str(tree)))


def test_path_glob_filter(diff, tree):
    diff(lambda s: s.read.option("pathGlobFilter", "*.csv").csv(str(tree)))


def test_recursive_file_lookup(diff, tree):
    diff(lambda s: s.read.option("recursiveFileLookup", "true").csv(str(tree)))


def test_list_of_paths_and_globs(diff, tree):
    diff(lambda s: s.read.csv([str(tree / "a.csv"), str(tree / "b.txt")]))
    diff(lambda s: s.read.csv(str(tree / "*.csv")))
    diff(lambda s: s.read.csv(str(tree / "{a,b}.*")))


@pytest.fixture(scope="module")
def partitioned(oracle, tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("part") / "t"
    with api_mode(connect=False):
        (oracle.range(60)
         .withColumn("year", (F.col("id") % 3 + 2020).cast("int"))
         .withColumn("region", F.when(F.col("id") % 4 == 0, None)
                     .otherwise(F.concat(F.lit("r "), (F.col("id") % 2).cast("string"))))
         .withColumn("day", F.expr("DATE_ADD(DATE'2024-01-01', CAST(id % 2 AS INT))"))
         .withColumn("v", F.col("id") * 1.5)
         .write.partitionBy("year", "region", "day").parquet(str(path)))
    return str(path)


def test_partition_discovery(diff, partitioned):
    diff(lambda s: s.read.parquet(partitioned))


def test_partition_pruning_and_projection(diff, partitioned):
    diff(lambda s: s.read.parquet(partitioned).filter(F.col("year") == 2021).select("id", "region"))
    diff(lambda s: s.read.parquet(partitioned).filter(F.col("region").isNull()).select("v", "day"))
    diff(lambda s: s.read.parquet(partitioned).filter(F.col("year") > 2020).groupBy("year").count())


def test_base_path(diff, partitioned):
    sub = partitioned + "/year=2022"
    diff(lambda s: s.read.option("basePath", partitioned).parquet(sub))
    diff(lambda s: s.read.parquet(sub))


def test_recursive_lookup_disables_partitions(diff, partitioned):
    diff(lambda s: s.read.option("recursiveFileLookup", "true").parquet(partitioned))


def test_partitioned_csv_with_inference(diff, tmp_path):
    root = tmp_path / "pcsv"
    _csv(root / "k=1" / "x=1.5" / "f.csv", "a,b\n1,x\n")
    _csv(root / "k=2" / "x=abc" / "f.csv", "a,b\n2,y\n")
    _csv(root / "k=3" / "x=__HIVE_DEFAULT_PARTITION__" / "f.csv", "a,b\n3,z\n")
    diff(lambda s: s.read.csv(str(root), header=True, inferSchema=True))
    diff(lambda s: s.read.csv(str(root), header=True).filter(F.col("k") >= 2))


def test_partition_columns_with_user_schema(diff, tmp_path):
    root = tmp_path / "ps"
    _csv(root / "k=01" / "f.csv", "1\n")
    _csv(root / "k=2" / "f.csv", "2\n")
    diff(lambda s: s.read.schema("a INT, k STRING").csv(str(root)))
    diff(lambda s: s.read.csv(str(root)))


def test_missing_path(diff_error, tmp_path):
    diff_error(lambda s: s.read.csv([str(tmp_path), str(tmp_path / "nope")]), "PATH_NOT_FOUND")


def test_modified_before_and_after(diff, tmp_path):
    import os

    root = tmp_path / "mtime"
    _csv(root / "old.csv", "1,old\n")
    _csv(root / "new.csv", "2,new\n")
    os.utime(root / "old.csv", (946684800, 946684800))    # 2000-01-01T00:00:00Z
    os.utime(root / "new.csv", (1704067200, 1704067200))  # 2024-01-01T00:00:00Z
    diff(lambda s: s.read.option("modifiedBefore", "2010-01-01T00:00:00").csv(str(root)))
    diff(lambda s: s.read.option("modifiedAfter", "2010-01-01T00:00:00").csv(str(root)))
    diff(lambda s: s.read.option("modifiedAfter", "1990-01-01T00:00:00")
         .option("modifiedBefore", "2030-01-01T00:00:00").csv(str(root)))


def test_sql_temporary_view_using_a_data_source(diff, tmp_path):
    _csv(tmp_path / "v" / "data.csv", "id,name,score\n1,a,2.5\n2,,3.0\n3,c,\n")
    pq.write_table(pa.table({"k": [1, 2, None], "s": ["x", None, "z"]}), tmp_path / "v.parquet")
    csv_path, parquet_path = tmp_path / "v" / "data.csv", tmp_path / "v.parquet"

    def program(s):
        s.sql(f"CREATE OR REPLACE TEMPORARY VIEW v_csv USING csv "
              f"OPTIONS (path '{csv_path}', header 'true', inferSchema true)")
        s.sql(f"CREATE OR REPLACE TEMPORARY VIEW v_typed (id INT, name STRING) USING csv "
              f"OPTIONS ('path' = '{csv_path}', header = 'true')")
        s.sql(f"CREATE OR REPLACE TEMPORARY VIEW v_pq USING parquet OPTIONS (path '{parquet_path}')")
        return s.sql("SELECT c.id, c.name, c.score, t.name AS typed_name, p.s FROM v_csv c "
                     "JOIN v_typed t ON c.id = t.id LEFT JOIN v_pq p ON p.k = c.id")
    diff(program)


def test_sql_temporary_view_using_a_missing_path(diff_error, tmp_path):
    missing = tmp_path / "nothing_here.csv"
    diff_error(lambda s: s.sql(f"CREATE OR REPLACE TEMPORARY VIEW v_missing USING csv "
                               f"OPTIONS (path '{missing}')"), "PATH_NOT_FOUND")
