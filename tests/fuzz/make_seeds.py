"""Writes the seed corpora of the reader fuzz targets into a directory: small CSV and JSON
files with quoting, escapes, nulls, dates and multi-line records, and Parquet and ORC files of
every type Ember reads (with nulls, dictionary and plain encodings, several row groups or
stripes, compression codecs, Spark's type attributes), made by pyarrow. Usage: make_seeds.py
OUT_DIR"""

import datetime
import decimal
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.orc as po
import pyarrow.parquet as pq

out = Path(sys.argv[1])
for d in ("csv", "json", "parquet", "orc"):
    (out / d).mkdir(parents=True, exist_ok=True)

# CSV: two option bytes, then the file (see csv_fuzz.cc).
csv_files = [
    b"a,b,c\n1,2.5,x\n2,,\"y,z\"\n3,1e10,\"multi\nline\"\n",
    b"a;b;c\n1;2;3\n#comment\n4;NA;'q'\n",
    b"1,2024-02-29,2024-02-29 12:34:56,12.34\n,bad,2024-13-01,\n",
    b"\"a\"\"b\",c\r\n\"unterminated\n",
    "é,ü,中\n1,2,3\n".encode(),
]
for i, body in enumerate(csv_files):
    for opts in (b"\x01\x00", b"\x03\x80", b"\x05\x40", b"\x19\x06", b"\x00\xc0"):
        (out / "csv" / f"seed{i}_{opts.hex()}").write_bytes(opts + body)

# JSON: one option byte, then the file (see json_fuzz.cc).
json_files = [
    b'{"a":1,"b":2.5,"c":"x"}\n{"a":null,"d":[1,2,3]}\n{"e":{"x":"s","y":true}}\n',
    b'[{"a":1},{"a":2,"f":{"k":3}}]',
    b'{"g":"2024-02-29T12:34:56Z","c":"\\u00e9\\n"}\n{bad json}\n',
    b"// comment\n{'a': 1}\n",
]
for i, body in enumerate(json_files):
    for opts in (b"\x00", b"\x01", b"\x40", b"\x18", b"\x04"):
        (out / "json" / f"seed{i}_{opts.hex()}").write_bytes(opts + body)

n = 40
table = pa.table({
    "b": pa.array([i % 3 == 0 if i % 7 else None for i in range(n)], pa.bool_()),
    "i8": pa.array([i - 20 for i in range(n)], pa.int8()),
    "i16": pa.array([i * 300 for i in range(n)], pa.int16()),
    "i32": pa.array([i * 70000 if i % 5 else None for i in range(n)], pa.int32()),
    "i64": pa.array([i * 10**12 for i in range(n)], pa.int64()),
    "u32": pa.array([i * 3 for i in range(n)], pa.uint32()),
    "f32": pa.array([i / 3 for i in range(n)], pa.float32()),
    "f64": pa.array([float("nan") if i == 3 else i / 7 for i in range(n)], pa.float64()),
    "dec": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(12, 2)),
    "dec38": pa.array([decimal.Decimal(10**30 + i) for i in range(n)], pa.decimal128(38, 0)),
    "s": pa.array([f"s{i % 4}" if i % 6 else None for i in range(n)], pa.string()),
    "bin": pa.array([bytes([i]) * (i % 5) for i in range(n)], pa.binary()),
    "d": pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(n)]),
    "ts": pa.array([datetime.datetime(2024, 2, 29, 1, 2, 3, i) for i in range(n)],
                   pa.timestamp("us", tz="UTC")),
    "ts_ntz": pa.array([datetime.datetime(2000, 1, 1) + datetime.timedelta(hours=i)
                        for i in range(n)], pa.timestamp("ms")),
    "arr": pa.array([[i, None, i + 1] if i % 4 else None for i in range(n)],
                    pa.list_(pa.int64())),
    "st": pa.array([{"x": i, "y": f"v{i}"} for i in range(n)]),
    "m": pa.array([[("k", i)] for i in range(n)], pa.map_(pa.string(), pa.int32())),
})
for codec in ("snappy", "zstd", "gzip", "none"):
    pq.write_table(table, out / "parquet" / f"all_{codec}", compression=codec, row_group_size=16)
pq.write_table(table, out / "parquet" / "plain", use_dictionary=False, compression="none")
pq.write_table(table.slice(0, 0), out / "parquet" / "empty")
pq.write_table(table.select(["i64", "ts"]), out / "parquet" / "int96",
               use_deprecated_int96_timestamps=True, compression="none")

# ORC: the same columns as the adapter writes them (unsigned integers and timestamps with a zone
# have no ORC type), Spark's type attributes on integers, and every codec.
spark_type = b"spark.sql.catalyst.type"
orc_table = table.drop_columns(["u32"]).set_column(
    table.schema.get_field_index("ts") - 1, "ts", table.column("ts").cast(pa.timestamp("us")))
orc_table = orc_table.append_column(
    pa.field("ntz", pa.int64(), metadata={spark_type: b"timestamp_ntz"}),
    pa.array([i * 86_400_000_000 for i in range(n)], pa.int64()))
orc_table = orc_table.append_column(
    pa.field("ym", pa.int32(), metadata={spark_type: b"interval year to month"}),
    pa.array(range(n), pa.int32()))
for codec in ("snappy", "zstd", "zlib", "lz4", "uncompressed"):
    po.write_table(orc_table, out / "orc" / f"all_{codec}", compression=codec)
po.write_table(orc_table, out / "orc" / "stripes", stripe_size=1024, batch_size=8,
               compression="uncompressed")
po.write_table(orc_table.slice(0, 0), out / "orc" / "empty")

# Inputs that once crashed a reader (tests/fuzz/regressions/<format>/) seed it as well.
for found in sorted((Path(__file__).parent / "regressions").glob("*/*")):
    (out / found.parent.name / found.name).write_bytes(found.read_bytes())
