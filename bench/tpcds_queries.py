"""The 99 TPC-DS queries, in Spark SQL's dialect, for the differential tests and benchmarks.

The query texts are not kept in this repository. They are the standard TPC-DS query texts (the
templates with their parameters substituted) as the `sqlglot` project ships them in its source
distribution on PyPI (tests/fixtures/optimizer/tpc-ds/tpc-ds.sql); `load()` downloads that archive
once into a cache folder (data/tpcds/ by default) and reads the queries out of it.

Four templates (14, 23, 24 and 39) hold two statements, `a` and `b`; the fixture keeps only the
first. The second ones come from the TPC's own query generator, `dsqgen`, run over the query
templates with its qualification parameters (`-qualify Y`) and a dialect file for Spark's LIMIT;
the `benchbox` wheel on PyPI ships both, and `load()` downloads it once into the same cache. Each
statement is its own query: `q14a` and `q14b`, `q23a` and `q23b`, and so on; the others are
`q1` .. `q99`.

Spark SQL runs the standard texts with two adaptations, applied here as code:
- identifiers in double quotes (`AS "order count"`) become backquoted: Spark reads a
  double-quoted token as a string literal, where the specification means an identifier;
- query 30 names `c_last_review_date`, a column the TPC-DS schema calls `c_last_review_date_sk`.

`ORDERED[n]` is true when the query's outermost SELECT has an ORDER BY (all but a few), so that
results are compared in order.
"""

from __future__ import annotations

import platform
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

SQLGLOT_VERSION = "30.31.0"
FIXTURE = "tests/fixtures/optimizer/tpc-ds/tpc-ds.sql"
BENCHBOX_VERSION = "0.4.2"
DSQGEN_ROOT = "benchbox/_binaries/tpc-ds"
# The templates whose text holds two statements.
TWO_STATEMENTS = (14, 23, 24, 39)
# The names `load()` returns, in query order: known without downloading anything, so that tests
# can be listed offline.
NAMES = [name for n in range(1, 100)
         for name in ((f"q{n}a", f"q{n}b") if n in TWO_STATEMENTS else (f"q{n}",))]
# dsqgen's dialect definitions for Spark SQL: the row limit goes at the end of the statement.
SPARK_DIALECT = """define __LIMITA = "";
define __LIMITB = "";
define __LIMITC = "limit %d";
define _END = "";
"""
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / "data" / "tpcds"

TABLES = [
    "call_center", "catalog_page", "catalog_returns", "catalog_sales", "customer",
    "customer_address", "customer_demographics", "date_dim", "household_demographics",
    "income_band", "inventory", "item", "promotion", "reason", "ship_mode", "store",
    "store_returns", "store_sales", "time_dim", "warehouse", "web_page", "web_returns",
    "web_sales", "web_site",
]


def _download(cache: Path, requirement: str, pattern: str, *pip_args: str) -> Path:
    """The distribution file of `requirement` in `cache`, downloaded by pip the first time."""
    found = sorted(cache.glob(pattern))
    if found:
        return found[0]
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                    requirement, "--no-deps", *pip_args, "-d", str(cache)], check=True)
    found = sorted(cache.glob(pattern))
    if not found:
        raise RuntimeError(f"pip did not leave {pattern} in {cache}")
    return found[0]


def _archive(cache: Path) -> Path:
    return _download(cache, f"sqlglot=={SQLGLOT_VERSION}", f"sqlglot-{SQLGLOT_VERSION}.tar.gz",
                     "--no-binary", ":all:")


def _dsqgen_platform() -> str:
    system = {"linux": "linux", "darwin": "darwin"}.get(sys.platform)
    machine = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "arm64",
               "arm64": "arm64"}.get(platform.machine().lower())
    if system is None or machine is None:
        raise RuntimeError(f"no dsqgen binary for {sys.platform} {platform.machine()}")
    return f"{system}-{machine}"


def _split_statements(text: str) -> list[str]:
    return [s.strip() for s in text.split(";") if s.strip()]


def _second_statements(cache: Path) -> dict[int, str]:
    """The second statement of each two-statement template, from dsqgen's qualification run."""
    out: dict[int, str] = {}
    missing = [n for n in TWO_STATEMENTS if not (cache / f"dsqgen-{n}b.sql").exists()]
    if missing:
        wheel = _download(cache, f"benchbox=={BENCHBOX_VERSION}",
                          f"benchbox-{BENCHBOX_VERSION}-*.whl")
        binaries = f"{DSQGEN_ROOT}/{_dsqgen_platform()}"
        with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel) as whl:
            work = Path(tmp)
            templates = work / "templates"
            templates.mkdir()
            for name in [f"query{n}.tpl" for n in missing]:
                member = f"{DSQGEN_ROOT}/templates/query_templates/{name}"
                (templates / name).write_bytes(whl.read(member))
            (templates / "spark.tpl").write_text(SPARK_DIALECT)
            dsqgen = work / "dsqgen"
            dsqgen.write_bytes(whl.read(f"{binaries}/dsqgen"))
            dsqgen.chmod(0o755)
            index = work / "tpcds.idx"
            index.write_bytes(whl.read(f"{binaries}/tpcds.idx"))
            for n in missing:
                generated = work / f"out{n}"
                generated.mkdir()
                subprocess.run([str(dsqgen), "-directory", str(templates), "-template",
                                f"query{n}.tpl", "-dialect", "spark", "-distributions", str(index),
                                "-qualify", "Y", "-scale", "1", "-output_dir", str(generated),
                                "-quiet", "Y"], check=True, capture_output=True, cwd=work)
                statements = _split_statements((generated / "query_0.sql").read_text())
                if len(statements) != 2:
                    raise ValueError(f"dsqgen wrote {len(statements)} statements for query {n}")
                (cache / f"dsqgen-{n}b.sql").write_text(statements[1] + "\n")
    for n in TWO_STATEMENTS:
        out[n] = (cache / f"dsqgen-{n}b.sql").read_text().strip()
    return out


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


def load(cache: Path | None = None) -> dict[str, str]:
    """The 103 statements of the 99 queries in Spark SQL's dialect, by name (`q1`, `q14a`, `q14b`,
    ...), in query order."""
    cache = cache or DEFAULT_CACHE
    extracted = cache / f"tpc-ds-{SQLGLOT_VERSION}.sql"
    if not extracted.exists():
        with tarfile.open(_archive(cache)) as tar:
            member = tar.getmember(f"sqlglot-{SQLGLOT_VERSION}/{FIXTURE}")
            data = tar.extractfile(member).read().decode()
        extracted.write_text(data)
    first = _standard_texts(extracted.read_text())
    if sorted(first) != list(range(1, 100)):
        raise ValueError(f"expected TPC-DS queries 1..99, found {sorted(first)}")
    second = _second_statements(cache)
    queries: dict[str, str] = {}
    for n, text in sorted(first.items()):
        if n in second:
            queries[f"q{n}a"] = to_spark(n, text)
            queries[f"q{n}b"] = to_spark(n, second[n])
        else:
            queries[f"q{n}"] = to_spark(n, text)
    assert list(queries) == NAMES
    return queries


def ordered(text: str) -> bool:
    return _outer_order_by(text)


if __name__ == "__main__":
    qs = load()
    for name in sys.argv[1:] or qs:
        print(f"-- TPC-DS {name} (ordered: {ordered(qs[name])})\n{qs[name]};\n")
