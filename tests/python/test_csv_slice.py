"""Differential tests of the CSV reader on the demo's sales data and small edge files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pyspark.sql import functions as F

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sales_csv(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("csv") / "sales.csv"
    subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "make_sales_csv.py"), "--rows", "20000",
                    str(path)], check=True)
    return str(path)


def test_read_sales_infer_schema(diff, sales_csv):
    diff(lambda s: s.read.csv(sales_csv, header=True, inferSchema=True), ordered=True)


def test_read_sales_no_header_strings(diff, sales_csv):
    diff(lambda s: s.read.csv(sales_csv), ordered=True)


def test_sales_aggregation(diff, sales_csv):
    diff(lambda s: s.read.csv(sales_csv, header=True, inferSchema=True)
         .groupBy("region", "product_id")
         .agg(F.sum("amount").alias("total"), F.count("*").alias("n"), F.avg("amount").alias("avg"))
         .orderBy("region", "product_id"), ordered=True, approx=1e-9)


def test_sales_projection_and_filter(diff, sales_csv):
    diff(lambda s: s.read.csv(sales_csv, header=True, inferSchema=True)
         .filter(F.col("amount") > 400).select("transaction_id", "amount", "transaction_date"),
         ordered=True)


def test_read_edge_values(diff, tmp_path):
    path = tmp_path / "edge.csv"
    path.write_text('a,b,c,d\n1,x,1.5,true\n,"quoted, comma",,false\n3,"",NaN,\n'
                    '2147483648,"multi ""quote""",-0.0,TRUE\n')
    diff(lambda s: s.read.csv(str(path), header=True, inferSchema=True), ordered=True)


def test_read_with_schema(diff, tmp_path):
    path = tmp_path / "typed.csv"
    path.write_text("1,abc,2.5\n2,,x\nbad,d,3\n")
    diff(lambda s: s.read.schema("id INT, name STRING, v DOUBLE").csv(str(path)), ordered=True)


def test_missing_path(diff_error, tmp_path):
    diff_error(lambda s: s.read.csv(str(tmp_path / "nope.csv")), "PATH_NOT_FOUND")
