"""Deterministic benchmark data, generated once and cached under the data folder.

Every data set lives in a folder named after its parameters and holds a `.done` file with the
generator revision and parameters; a folder whose `.done` is missing or differs is rebuilt. The
same parameters always give byte-identical files (fixed seeds, single-threaded writers), so
results recorded from one run stay valid for the next.

Needs numpy and pyarrow only (both on the GPU machine too); TPC-H needs `tpchgen-cli` on PATH
or passed explicitly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
# Bump when a generator changes what it writes: cached folders are rebuilt.
REVISION = 1
CHUNK = 1 << 20


def log(msg: str) -> None:
    print(f"[data] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Scale: one knob for every data set. At scale S: TPC-H SF S, 10M*S sales rows (1M at the
# default 0.1, the demo's size), 10M*S H2O rows (the "1e6" H2O size at 0.1, "1e7" at 1),
# 100M*S rows for range workloads, 10M*S fact rows for the join data set.
# ---------------------------------------------------------------------------------------------


def sizes(scale: float) -> dict[str, int]:
    return {
        "sales_rows": max(1000, int(round(10_000_000 * scale))),
        "h2o_rows": max(1000, int(round(10_000_000 * scale))),
        "range_rows": max(1000, int(round(100_000_000 * scale))),
        "join_rows": max(1000, int(round(10_000_000 * scale))),
    }


def fmt_rows(n: int) -> str:
    """1000000 -> '1e6', 2500000 -> '2.5e6'."""
    exp = len(str(n)) - 1
    mant = n / 10**exp
    return f"{mant:g}e{exp}"


class Cached:
    """A folder rebuilt when its parameters change; written under a temporary name, then
    renamed, so an interrupted generation never leaves a half-written data set behind."""

    def __init__(self, folder: Path, params: dict):
        self.folder = folder
        self.params = {"revision": REVISION, **params}

    def valid(self) -> bool:
        stamp = self.folder / ".done"
        try:
            return json.loads(stamp.read_text()) == self.params
        except (OSError, ValueError):
            return False

    def build(self, write) -> Path:
        if self.valid():
            return self.folder
        tmp = self.folder.with_name(self.folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        started = time.monotonic()
        write(tmp)
        (tmp / ".done").write_text(json.dumps(self.params))
        shutil.rmtree(self.folder, ignore_errors=True)
        tmp.rename(self.folder)
        log(f"{self.folder} ready in {time.monotonic() - started:.1f} s")
        return self.folder


# ---------------------------------------------------------------------------------------------
# Sales: the demo's CSV (tools/make_sales_csv.py) and the same rows as Parquet.
# ---------------------------------------------------------------------------------------------

SALES_SCHEMA = pa.schema([
    ("transaction_id", pa.int32()), ("customer_id", pa.int32()), ("product_id", pa.string()),
    ("amount", pa.float64()), ("region", pa.string()), ("transaction_date", pa.timestamp("us")),
])


def make_sales(data_dir: Path, rows: int, python: str = sys.executable) -> dict[str, str]:
    def write(tmp: Path) -> None:
        csv = tmp / "sales.csv"
        log(f"sales: {rows} rows")
        subprocess.run([python, str(ROOT / "tools" / "make_sales_csv.py"), "--rows", str(rows),
                        str(csv)], check=True)
        schema = SALES_SCHEMA
        if rows >= 2**31:
            schema = schema.set(0, pa.field("transaction_id", pa.int64()))
        reader = pacsv.open_csv(
            csv, convert_options=pacsv.ConvertOptions(column_types=schema),
            read_options=pacsv.ReadOptions(block_size=64 << 20, use_threads=False))
        with pq.ParquetWriter(tmp / "sales.parquet", schema, compression="snappy") as writer:
            for batch in reader:
                writer.write_table(pa.Table.from_batches([batch]).cast(schema),
                                   row_group_size=CHUNK)

    folder = Cached(data_dir / "sales" / f"rows={rows}", {"rows": rows}).build(write)
    return {"sales_csv": str(folder / "sales.csv"), "sales_parquet": str(folder / "sales.parquet")}


# ---------------------------------------------------------------------------------------------
# H2O-style group-by data: the shape of the db-benchmark's G1_<N>_1e2_0_0 tables (K = 100
# groups for id1/id2/id4/id5, N/K for id3/id6, no missing values, unsorted). Own generator.
# ---------------------------------------------------------------------------------------------

H2O_SCHEMA = pa.schema([
    ("id1", pa.string()), ("id2", pa.string()), ("id3", pa.string()),
    ("id4", pa.int32()), ("id5", pa.int32()), ("id6", pa.int32()),
    ("v1", pa.int32()), ("v2", pa.int32()), ("v3", pa.float64()),
])


def _labels(width: int, count: int) -> pa.Array:
    return pa.array([f"id{i:0{width}d}" for i in range(1, count + 1)])


def make_h2o(data_dir: Path, rows: int, k: int = 100, with_csv: bool = False) -> dict[str, str]:
    groups = max(1, rows // k)

    def write(tmp: Path) -> None:
        log(f"h2o: {rows} rows, K={k}")
        rng = np.random.default_rng(20240101)
        small = _labels(3, k)
        large = _labels(10, groups)
        pq_writer = pq.ParquetWriter(tmp / "h2o.parquet", H2O_SCHEMA, compression="snappy")
        csv_sink = open(tmp / "h2o.csv", "wb") if with_csv else None
        csv_writer = None
        try:
            if csv_sink:
                csv_sink.write((",".join(H2O_SCHEMA.names) + "\n").encode())
            done = 0
            while done < rows:
                n = min(CHUNK, rows - done)

                def pick(labels: pa.Array, count: int) -> pa.Array:
                    idx = pa.array(rng.integers(0, count, n, dtype=np.int32))
                    return labels.take(idx)

                cols = [
                    pick(small, k), pick(small, k), pick(large, groups),
                    pa.array(rng.integers(1, k + 1, n, dtype=np.int32)),
                    pa.array(rng.integers(1, k + 1, n, dtype=np.int32)),
                    pa.array(rng.integers(1, groups + 1, n, dtype=np.int32)),
                    pa.array(rng.integers(1, 6, n, dtype=np.int32)),
                    pa.array(rng.integers(1, 16, n, dtype=np.int32)),
                    pa.array(np.round(rng.uniform(0, 100, n), 6)),
                ]
                table = pa.Table.from_arrays(cols, schema=H2O_SCHEMA)
                pq_writer.write_table(table, row_group_size=CHUNK)
                if csv_sink:
                    if csv_writer is None:
                        csv_writer = pacsv.CSVWriter(
                            csv_sink, H2O_SCHEMA,
                            write_options=pacsv.WriteOptions(include_header=False,
                                                             quoting_style="none"))
                    csv_writer.write_table(table)
                done += n
        finally:
            pq_writer.close()
            if csv_writer:
                csv_writer.close()
            if csv_sink:
                csv_sink.close()

    name = f"G1_{fmt_rows(rows)}_{fmt_rows(k)}_0_0"
    folder = Cached(data_dir / "h2o" / name, {"rows": rows, "k": k, "csv": with_csv}).build(write)
    out = {"h2o": str(folder / "h2o.parquet")}
    if with_csv:
        out["h2o_csv"] = str(folder / "h2o.csv")
    return out


# ---------------------------------------------------------------------------------------------
# Join data: a fact table, a dimension of one row per key (rows/10 keys, foreign keys drawn
# uniformly) and a 100-row lookup table.
# ---------------------------------------------------------------------------------------------

FACT_SCHEMA = pa.schema([("id", pa.int64()), ("k", pa.int64()), ("cat", pa.int32()),
                         ("v", pa.float64())])
DIM_SCHEMA = pa.schema([("k", pa.int64()), ("category", pa.int32()), ("label", pa.string())])
SMALL_SCHEMA = pa.schema([("cat", pa.int32()), ("cname", pa.string()), ("weight", pa.float64())])


def make_join(data_dir: Path, rows: int) -> dict[str, str]:
    keys = max(1, rows // 10)

    def write(tmp: Path) -> None:
        log(f"join: {rows} fact rows, {keys} dimension rows")
        rng = np.random.default_rng(7)
        with pq.ParquetWriter(tmp / "fact.parquet", FACT_SCHEMA, compression="snappy") as w:
            done = 0
            while done < rows:
                n = min(CHUNK, rows - done)
                w.write_table(pa.Table.from_arrays([
                    pa.array(np.arange(done, done + n, dtype=np.int64)),
                    pa.array(rng.integers(1, keys + 1, n, dtype=np.int64)),
                    pa.array(rng.integers(1, 101, n, dtype=np.int32)),
                    pa.array(np.round(rng.random(n), 6)),
                ], schema=FACT_SCHEMA), row_group_size=CHUNK)
                done += n
        dim_keys = np.arange(1, keys + 1, dtype=np.int64)
        rng.shuffle(dim_keys)
        dim = pa.Table.from_arrays([
            pa.array(dim_keys),
            pa.array(rng.integers(1, 1001, keys, dtype=np.int32)),
            pa.array([f"label{int(x) % 997:03d}" for x in dim_keys]),
        ], schema=DIM_SCHEMA)
        pq.write_table(dim, tmp / "dim.parquet", row_group_size=CHUNK, compression="snappy")
        small = pa.Table.from_arrays([
            pa.array(np.arange(1, 101, dtype=np.int32)),
            pa.array([f"c{i % 25:02d}" for i in range(1, 101)]),
            pa.array(np.round(rng.uniform(0.5, 2.0, 100), 3)),
        ], schema=SMALL_SCHEMA)
        pq.write_table(small, tmp / "small.parquet", compression="snappy")

    folder = Cached(data_dir / "join" / f"rows={rows}", {"rows": rows}).build(write)
    return {t: str(folder / f"{t}.parquet") for t in ("fact", "dim", "small")}


# ---------------------------------------------------------------------------------------------
# TPC-H through tpchgen-cli (one Parquet file per table).
# ---------------------------------------------------------------------------------------------

TPCH_TABLES = ["lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region"]


def tpchgen_version(tpchgen: str) -> str:
    out = subprocess.run([tpchgen, "--version"], capture_output=True, text=True)
    return out.stdout.strip() or out.stderr.strip()


def make_tpch(data_dir: Path, sf: float, tpchgen: str, threads: int | None = None) -> dict[str, str]:
    version = tpchgen_version(tpchgen)

    def write(tmp: Path) -> None:
        log(f"tpch: SF {sf:g} with {version}")
        cmd = [tpchgen, "parquet", "-s", f"{sf:g}", "-o", str(tmp)]
        if threads:
            cmd += ["-n", str(threads)]
        subprocess.run(cmd, check=True)

    folder = Cached(data_dir / "tpch" / f"sf{sf:g}", {"sf": sf, "generator": version}).build(write)
    return {t: str(folder / f"{t}.parquet") for t in TPCH_TABLES}


def prepare(families: set[str], scale: float, data_dir: Path, tpchgen: str | None = None,
            python: str = sys.executable, h2o_csv: bool = False) -> dict[str, str]:
    """Generates (or reuses) the data sets the given workload families read; returns the
    paths of their files by logical name."""
    n = sizes(scale)
    paths: dict[str, str] = {}
    if "sales" in families:
        paths.update(make_sales(data_dir, n["sales_rows"], python))
    if "h2o" in families:
        paths.update(make_h2o(data_dir, n["h2o_rows"], with_csv=h2o_csv))
    if "join" in families or "sort" in families:
        paths.update(make_join(data_dir, n["join_rows"]))
        paths["join_rows"] = str(n["join_rows"])
    if "tpch" in families:
        if not tpchgen:
            raise RuntimeError("TPC-H data needs tpchgen-cli")
        paths.update({f"tpch_{k}": v for k, v in make_tpch(data_dir, scale, tpchgen).items()})
    paths["range_rows"] = str(n["range_rows"])
    return paths


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="generate benchmark data")
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--data-dir", default=str(ROOT / "data" / "bench"))
    parser.add_argument("--families", default="sales,h2o,join,tpch")
    parser.add_argument("--tpchgen", default=shutil.which("tpchgen-cli"))
    args = parser.parse_args()
    print(json.dumps(prepare(set(args.families.split(",")), args.scale, Path(args.data_dir),
                             args.tpchgen), indent=2))
