#!/usr/bin/env python3
"""Writes a synthetic sales table as CSV, for `ember demo` and benchmarks.

Columns (with a header line):
  transaction_id    int, 1..N
  customer_id       int, 1..--customers
  product_id        one of P001..P005
  amount            double in [10, 500], two decimals
  region            North, South, East or West
  transaction_date  yyyy-MM-dd HH:mm:ss, one second apart from 2023-01-01 00:00:00

The same --rows and --seed always give the same file.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

PRODUCTS = ["P001", "P002", "P003", "P004", "P005"]
REGIONS = ["North", "South", "East", "West"]
START = np.datetime64("2023-01-01T00:00:00", "s")
CHUNK_ROWS = 1 << 20
COLUMNS = ["transaction_id", "customer_id", "product_id", "amount", "region", "transaction_date"]


def make_chunk(rng: np.random.Generator, first: int, rows: int, customers: int,
               id_type: pa.DataType) -> pa.Table:
    ids = np.arange(first, first + rows, dtype=np.int64)
    amounts = np.round(rng.uniform(10.0, 500.0, rows), 2)
    products = pa.DictionaryArray.from_arrays(
        pa.array(rng.integers(0, len(PRODUCTS), rows, dtype=np.int8)), pa.array(PRODUCTS))
    regions = pa.DictionaryArray.from_arrays(
        pa.array(rng.integers(0, len(REGIONS), rows, dtype=np.int8)), pa.array(REGIONS))
    # Plain strings: the CSV writer prints them without any type decoration.
    products = products.cast(pa.string())
    regions = regions.cast(pa.string())
    dates = START + (ids - 1).astype("timedelta64[s]")
    customer_ids = pa.array(rng.integers(1, customers + 1, rows, dtype=np.int32))
    columns = [pa.array(ids, id_type), customer_ids, products, pa.array(amounts, pa.float64()),
               regions, pa.array(dates, pa.timestamp("s"))]
    return pa.table(dict(zip(COLUMNS, columns)))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="CSV file to write")
    parser.add_argument("--rows", type=int, default=1_000_000, help="number of rows (default 1000000)")
    parser.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    parser.add_argument("--customers", type=int, default=10_000,
                        help="number of distinct customers (default 10000)")
    args = parser.parse_args(argv)
    if args.rows < 0 or args.customers < 1:
        parser.error("--rows must be >= 0 and --customers >= 1")

    started = time.monotonic()
    rng = np.random.default_rng(args.seed)
    out_dir = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)
    tmp = args.output + ".tmp"
    # The header is written by hand: Arrow quotes header names.
    options = pacsv.WriteOptions(include_header=False, quoting_style="none")
    # Spark infers int for ids that fit, bigint beyond.
    id_type = pa.int32() if args.rows < 2**31 else pa.int64()
    writer = None
    try:
        with open(tmp, "wb") as sink:
            sink.write((",".join(COLUMNS) + "\n").encode())
            first = 1
            remaining = args.rows
            while remaining > 0 or writer is None:
                rows = min(CHUNK_ROWS, remaining)
                table = make_chunk(rng, first, rows, args.customers, id_type)
                if writer is None:
                    writer = pacsv.CSVWriter(sink, table.schema, write_options=options)
                writer.write_table(table)
                first += rows
                remaining -= rows
            writer.close()
        os.replace(tmp, args.output)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    print(f"wrote {args.rows} rows to {args.output} in {time.monotonic() - started:.1f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
