"""Differential tests of input_file_name(), input_file_block_start() and
input_file_block_length(): file URIs and Spark's split blocks for rows of file scans, "" and -1
for rows of any other origin, and the one-source rule of the analyzer."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

from harness import session_conf



def file_columns() -> list:
    """The three functions, built inside a program (a Column belongs to one session kind)."""
    return [F.input_file_name(), F.input_file_block_start(), F.input_file_block_length()]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def flat(tmp_path) -> Path:
    root = tmp_path / "flat"
    _write(root / "a.csv", "1,a\n2,b\n3,c\n")
    _write(root / "b.csv", "4,d\n")
    _write(root / "c.txt", "5,e\n6,f\n")
    return root


@pytest.fixture
def partitioned(tmp_path) -> Path:
    root = tmp_path / "part"
    _write(root / "p=1" / "x.csv", "a,1\nb,2\n")
    _write(root / "p=2" / "y.csv", "c,3\n")
    _write(root / "p=2" / "z.csv", "d,4\ne,5\nf,6\n")
    return root


def test_files_of_a_directory(diff, flat):
    diff(lambda s: s.read.csv(str(flat)).select("*", *file_columns()))


def test_only_the_functions_are_selected(diff, flat):
    diff(lambda s: s.read.csv(str(flat)).select(*file_columns()))
    diff(lambda s: s.read.csv(str(flat)).select(F.input_file_name().alias("f"), F.col("_c1")))


def test_list_of_files_and_globs(diff, flat):
    diff(lambda s: s.read.csv([str(flat / "a.csv"), str(flat / "c.txt")]).select("_c0", *file_columns()))
    diff(lambda s: s.read.csv(str(flat / "*.csv")).select("_c0", *file_columns()))
    diff(lambda s: s.read.csv("file://" + str(flat / "{a,b}.*")).select("_c0", *file_columns()))


def test_partitioned_directories(diff, partitioned):
    diff(lambda s: s.read.csv(str(partitioned)).select("*", *file_columns()))
    diff(lambda s: s.read.csv(str(partitioned)).filter("p = 2").select("_c0", *file_columns()))


def test_filters_keep_the_file(diff, flat):
    diff(lambda s: s.read.csv(str(flat)).filter("_c0 > 2").select("_c0", *file_columns()))
    diff(lambda s: s.read.csv(str(flat)).filter(F.input_file_name().endswith("a.csv")))
    diff(lambda s: s.read.csv(str(flat)).select("_c0", *file_columns()).filter("_c0 < 5"))
    diff(lambda s: s.read.csv(str(flat)).withColumn("f", F.input_file_name()).where(F.col("_c1") != "b"))


def test_union_of_two_reads(diff, flat, partitioned):
    diff(lambda s: s.read.csv(str(flat / "a.csv"))
         .union(s.read.csv(str(partitioned)).drop("p"))
         .select("_c0", *file_columns()))
    diff(lambda s: s.read.csv(str(flat / "a.csv")).select("_c0", *file_columns())
         .unionByName(s.read.csv(str(flat / "b.csv")).select("_c0", *file_columns())))


def test_grouping_by_the_file(diff, partitioned):
    diff(lambda s: s.read.csv(str(partitioned)).groupBy(F.input_file_name()).count())
    diff(lambda s: s.read.csv(str(partitioned)).groupBy(F.input_file_name().alias("f"), F.input_file_block_length())
         .agg(F.max("_c1")))


def test_rows_not_straight_from_a_file(diff, flat):
    diff(lambda s: s.range(3).select("id", *file_columns()))
    diff(lambda s: s.createDataFrame([(1, "x")], "a int, b string").select("*", *file_columns()))
    diff(lambda s: s.read.csv(str(flat)).groupBy("_c1").count().select("*", *file_columns()))
    diff(lambda s: s.read.csv(str(flat)).orderBy("_c0").select("_c0", *file_columns()))
    diff(lambda s: s.read.csv(str(flat)).distinct().select("_c0", *file_columns()))
    diff(lambda s: s.read.csv(str(flat)).limit(2).select(*file_columns()))
    diff(lambda s: s.read.csv(str(flat)).repartition(2).select("_c0", *file_columns()))


def test_coalesce_keeps_the_file(diff, flat):
    diff(lambda s: s.read.csv(str(flat)).coalesce(1).select("_c0", *file_columns()))


def test_columns_computed_before_a_join(diff, flat):
    diff(lambda s: s.read.csv(str(flat)).select("_c0", F.input_file_name().alias("f"))
         .join(s.range(10).selectExpr("CAST(id AS STRING) AS _c0"), "_c0"))


def test_more_than_one_source(diff_error, flat):
    diff_error(lambda s: s.read.csv(str(flat / "a.csv"))
               .join(s.read.csv(str(flat / "b.csv")), "_c0").select(F.input_file_name()),
               "MULTI_SOURCES_UNSUPPORTED_FOR_EXPRESSION")
    diff_error(lambda s: s.read.csv(str(flat / "a.csv")).crossJoin(s.read.csv(str(flat / "b.csv")))
               .groupBy().count().filter(F.input_file_block_start() < 0),
               "MULTI_SOURCES_UNSUPPORTED_FOR_EXPRESSION")


def test_sql(diff, ember, oracle, partitioned, flat):
    for s in (ember, oracle):
        s.read.csv(str(partitioned)).createOrReplaceTempView("input_file_view")
    diff(lambda s: s.sql("SELECT _c0, input_file_name(), input_file_block_start(), "
                         "input_file_block_length() FROM input_file_view"))
    diff(lambda s: s.sql(f"SELECT input_file_name() AS f, count(*) FROM csv.`{flat / 'a.csv'}` GROUP BY 1"))
    diff(lambda s: s.sql("SELECT input_file_name(), input_file_block_start(), input_file_block_length()"))


def test_formats(diff, tmp_path):
    _write(tmp_path / "j" / "one.json", '{"a": 1}\n{"a": 2}\n')
    _write(tmp_path / "j" / "two.json", '{"a": 3}\n')
    diff(lambda s: s.read.json(str(tmp_path / "j")).select("a", *file_columns()))
    _write(tmp_path / "m" / "m.json", '{\n  "a": 7\n}\n')
    diff(lambda s: s.read.option("multiLine", "true").json(str(tmp_path / "m")).select("a", *file_columns()))
    diff(lambda s: s.read.text(str(tmp_path / "j")).select("value", *file_columns()))
    diff(lambda s: s.read.text(str(tmp_path / "j"), wholetext=True).select(*file_columns()))
    pq_dir = tmp_path / "pq"
    pq_dir.mkdir()
    pq.write_table(pa.table({"x": list(range(10))}), pq_dir / "p1.parquet")
    pq.write_table(pa.table({"x": list(range(10, 13))}), pq_dir / "p2.parquet")
    diff(lambda s: s.read.parquet(str(pq_dir)).select("x", *file_columns()))
    with gzip.open(tmp_path / "z.csv.gz", "wt") as f:
        f.write("".join(f"{i},{i * i}\n" for i in range(500)))
    diff(lambda s: s.read.csv(str(tmp_path / "z.csv.gz")).select("_c0", *file_columns()))


def test_uri_quoting(diff, tmp_path):
    _write(tmp_path / "a dir" / "é" / "x#1%.csv", "1\n")
    diff(lambda s: s.read.csv(str(tmp_path / "a dir" / "é")).select("*", *file_columns()))


@pytest.fixture
def large(tmp_path) -> Path:
    root = tmp_path / "large"
    _write(root / "a.csv", "".join(f"{i},{'x' * (i % 13)}\n" for i in range(3000)))
    _write(root / "b.csv", "".join(f"{i},{'y' * (i % 7)}\n" for i in range(700)))
    return root


def test_split_blocks(diff, ember, oracle, large):
    # maxPartitionBytes below openCostInBytes fixes Spark's split size whatever the parallelism.
    for split in ("2000", "777"):
        with session_conf(ember, oracle, **{"spark.sql.files.maxPartitionBytes": split}):
            diff(lambda s: s.read.csv(str(large)).select("_c0", *file_columns()))
            diff(lambda s: s.read.text(str(large / "a.csv")).select("value", *file_columns()))
            diff(lambda s: s.read.csv(str(large)).groupBy(*file_columns()).count())


def test_split_blocks_from_the_open_cost(diff, ember, oracle, large):
    conf = {"spark.sql.files.openCostInBytes": "100", "spark.sql.files.minPartitionNum": "3"}
    with session_conf(ember, oracle, **conf):
        diff(lambda s: s.read.csv(str(large)).select("_c0", *file_columns()))


def test_parquet_row_groups_by_midpoint(diff, ember, oracle, tmp_path):
    path = tmp_path / "groups.parquet"
    pq.write_table(pa.table({"x": list(range(4000)), "s": [str(i) * 3 for i in range(4000)]}), path,
                   row_group_size=500)
    with session_conf(ember, oracle, **{"spark.sql.files.maxPartitionBytes": "4000"}):
        diff(lambda s: s.read.parquet(str(path)).select("x", *file_columns()))
