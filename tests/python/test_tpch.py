"""The 22 TPC-H queries on both engines — Ember against Apache Spark.

The data comes from `tpchgen-cli` at scale factor 0.01, generated once per test session as
Parquet into a temporary directory; each engine reads it into eight temporary views. The query
texts are the benchmark's (bench/tpch_queries.py). Rows are compared in order when the query
sorts, floating-point values within a relative tolerance.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import tpch_queries  # noqa: E402

SCALE = 0.01
TABLES = ["lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region"]


def tpchgen_binary() -> str | None:
    local = Path(sys.executable).parent / "tpchgen-cli"
    return str(local) if local.exists() else shutil.which("tpchgen-cli")


@pytest.fixture(scope="session")
def tpch_dir(tmp_path_factory):
    binary = tpchgen_binary()
    if binary is None:
        pytest.skip("tpchgen-cli is not installed (tools/setup.sh installs it)")
    out = tmp_path_factory.mktemp("tpch")
    subprocess.run([binary, "parquet", "-s", f"{SCALE:g}", "-o", str(out)], check=True,
                   capture_output=True)
    return out


def tpch_views(s, data: Path):
    for table in TABLES:
        s.read.parquet(str(data / f"{table}.parquet")).createOrReplaceTempView(table)
    return s


@pytest.mark.parametrize("n", sorted(tpch_queries.QUERIES))
def test_tpch_query(diff, tpch_dir, n):
    text = tpch_queries.query(n, SCALE)
    diff(lambda s: tpch_views(s, tpch_dir).sql(text), ordered=bool(tpch_queries.ORDER[n]), approx=1e-6)
