"""The 22 TPC-H queries on both engines — Ember against Apache Spark.

The data comes from `tpchgen-cli` at scale factor 0.1 (EMBER_TPCH_SCALE overrides it; `make
test-sf1` runs scale factor 1), generated once per test session as
Parquet into a temporary directory; each engine's session reads it into eight temporary views,
once. The query texts are the benchmark's (bench/tpch_queries.py). Rows are compared in order
when the query sorts, floating-point values within a relative tolerance.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness import session_mode

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import tpch_queries  # noqa: E402

SCALE = float(os.environ.get("EMBER_TPCH_SCALE", "0.1"))
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


@pytest.fixture(scope="session")
def tpch_views(tpch_dir, ember, oracle):
    """The eight tables as temporary views, created once on each engine's session."""
    for s in (oracle, ember):
        with session_mode(s):
            for table in TABLES:
                s.read.parquet(str(tpch_dir / f"{table}.parquet")).createOrReplaceTempView(table)


# Tables whose names the TPC-DS tests use too: the sessions are shared, so a query that reads one
# registers it again first.
SHARED_NAMES = ["customer"]


@pytest.mark.parametrize("n", sorted(tpch_queries.QUERIES))
def test_tpch_query(diff, tpch_dir, tpch_views, ember, oracle, n):
    text = tpch_queries.query(n, SCALE)
    for table in SHARED_NAMES:
        if re.search(rf"\b{table}\b", text):
            for s in (oracle, ember):
                with session_mode(s):
                    s.read.parquet(str(tpch_dir / f"{table}.parquet")).createOrReplaceTempView(table)
    diff(lambda s: s.sql(text), ordered=bool(tpch_queries.ORDER[n]), approx=1e-6)
