"""The 99 TPC-DS queries, in Spark SQL's dialect, for the differential tests and benchmarks.

The query texts are not kept in this repository. They are the standard TPC-DS query texts (the
templates with their qualification substitutions) as the `sqlglot` project ships them in its
source distribution on PyPI (tests/fixtures/optimizer/tpc-ds/tpc-ds.sql); `load()` downloads that
archive once into a cache folder (data/tpcds/ by default) and reads the 99 queries out of it.

Spark SQL runs the standard texts with two adaptations, applied here as code:
- identifiers in double quotes (`AS "order count"`) become backquoted: Spark reads a
  double-quoted token as a string literal, where the specification means an identifier;
- query 30 names `c_last_review_date`, a column the TPC-DS schema calls `c_last_review_date_sk`.

`ORDERED[n]` is true when the query's outermost SELECT has an ORDER BY (all but a few), so that
results are compared in order.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
from pathlib import Path

SQLGLOT_VERSION = "30.31.0"
FIXTURE = "tests/fixtures/optimizer/tpc-ds/tpc-ds.sql"
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / "data" / "tpcds"

TABLES = [
    "call_center", "catalog_page", "catalog_returns", "catalog_sales", "customer",
    "customer_address", "customer_demographics", "date_dim", "household_demographics",
    "income_band", "inventory", "item", "promotion", "reason", "ship_mode", "store",
    "store_returns", "store_sales", "time_dim", "warehouse", "web_page", "web_returns",
    "web_sales", "web_site",
]


def _archive(cache: Path) -> Path:
    found = sorted(cache.glob(f"sqlglot-{SQLGLOT_VERSION}.tar.gz"))
    if found:
        return found[0]
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                    f"sqlglot=={SQLGLOT_VERSION}", "--no-binary", ":all:", "--no-deps",
                    "-d", str(cache)], check=True)
    found = sorted(cache.glob(f"sqlglot-{SQLGLOT_VERSION}.tar.gz"))
    if not found:
        raise RuntimeError(f"pip did not leave sqlglot-{SQLGLOT_VERSION}.tar.gz in {cache}")
    return found[0]


def _standard_texts(fixture: str) -> dict[int, str]:
    """Each block of the fixture holds a query's standard text, then sqlglot's optimized form;
    the standard text is everything up to the first semicolon, less sqlglot's `# ...` lines."""
    parts = re.split(r"-{5,}\n-- TPC-DS (\d+)\n-{5,}\n", fixture)
    out: dict[int, str] = {}
    for i in range(1, len(parts), 2):
        body = "\n".join(line for line in parts[i + 1].split("\n") if not line.startswith("# "))
        end = body.find(";")
        if end < 0:
            raise ValueError(f"TPC-DS query {parts[i]} has no end in the fixture")
        out[int(parts[i])] = body[:end].strip()
    return out


def to_spark(n: int, text: str) -> str:
    text = re.sub(r'"([^"\n]+)"', lambda m: "`" + m.group(1) + "`", text)
    if n == 30:
        text = re.sub(r"\bc_last_review_date\b", "c_last_review_date_sk", text)
    return text


def _outer_order_by(text: str) -> bool:
    """Whether the statement's last ORDER BY is at nesting depth 0 (the final result's)."""
    depth = 0
    last_top = False
    for m in re.finditer(r"\(|\)|\border\s+by\b", text, flags=re.IGNORECASE):
        tok = m.group(0)
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        elif depth == 0:
            last_top = True
    return last_top


def load(cache: Path | None = None) -> dict[int, str]:
    """The 99 queries in Spark SQL's dialect, by number."""
    cache = cache or DEFAULT_CACHE
    extracted = cache / f"tpc-ds-{SQLGLOT_VERSION}.sql"
    if not extracted.exists():
        with tarfile.open(_archive(cache)) as tar:
            member = tar.getmember(f"sqlglot-{SQLGLOT_VERSION}/{FIXTURE}")
            data = tar.extractfile(member).read().decode()
        extracted.write_text(data)
    queries = {n: to_spark(n, t) for n, t in _standard_texts(extracted.read_text()).items()}
    if sorted(queries) != list(range(1, 100)):
        raise ValueError(f"expected TPC-DS queries 1..99, found {sorted(queries)}")
    return queries


def ordered(text: str) -> bool:
    return _outer_order_by(text)


if __name__ == "__main__":
    qs = load()
    for n in (int(a) for a in sys.argv[1:]) if len(sys.argv) > 1 else qs:
        print(f"-- TPC-DS {n} (ordered: {ordered(qs[n])})\n{qs[n]};\n")
