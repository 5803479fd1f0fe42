"""Differential tests of the JSON and text sources: Spark's JSON schema inference, parse modes,
multiLine, and text lines, wholetext and lineSep."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import functions as F

LINES = "\n".join([
    '{"a": 1, "b": "x", "c": 1.5, "d": true, "n": null}',
    '{"a": 9223372036854775807, "nested": {"y": 2, "x": "q"}, "arr": [1, 2, null]}',
    '',
    '{"b": 7, "c": 3, "arr": [], "e": {}}',
    '[{"a": -4}, {"a": 5, "z": "last"}]',
    '{"a": 12345678901234567890123, "mixed": [1, "s"]}',
])


@pytest.fixture
def lines(tmp_path) -> str:
    path = tmp_path / "data.json"
    path.write_text(LINES + "\n")
    return str(path)


def test_infer_schema(diff, lines):
    diff(lambda s: s.read.json(lines))


def test_primitives_as_string(diff, lines):
    diff(lambda s: s.read.option("primitivesAsString", "true").json(lines))


def test_projection_and_filter(diff, lines):
    diff(lambda s: s.read.json(lines).filter(F.col("b").isNotNull()).select("b", "c"))


MALFORMED = '{"a": 1, "b": "x"}\n{"a": "not a number", "b": "y"}\n{broken\n{"a": 3}\n'


@pytest.mark.parametrize("mode", ["PERMISSIVE", "DROPMALFORMED"])
def test_modes(diff, tmp_path, mode):
    path = tmp_path / "bad.json"
    path.write_text(MALFORMED)
    diff(lambda s: s.read.option("mode", mode).json(str(path)))
    diff(lambda s: s.read.schema("a LONG, b STRING, _corrupt_record STRING").option("mode", mode)
         .json(str(path)))


def test_corrupt_column_name(diff, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(MALFORMED)
    diff(lambda s: s.read.option("columnNameOfCorruptRecord", "oops").json(str(path)))


def test_failfast(ember, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(MALFORMED)
    with pytest.raises(Exception):
        ember.read.option("mode", "FAILFAST").json(str(path)).collect()
    assert ember.range(1).count() == 1


def test_user_schema_types(diff, tmp_path):
    path = tmp_path / "typed.json"
    path.write_text('{"d": "2024-02-29", "t": "2024-02-29 10:11:12.5", "v": 1.25, "i": 3, "s": {"k":1,"m":[2.50,true]}}\n'
                    '{"d": null, "v": "NaN", "i": 4}\n')
    diff(lambda s: s.read.schema("d DATE, t TIMESTAMP, v DOUBLE, i INT, s STRING, dec DECIMAL(5,2)")
         .json(str(path)))


def test_multiline(diff, tmp_path):
    path = tmp_path / "ml.json"
    path.write_text('[\n  {"a": 1,\n   "b": [1, 2]},\n  {"a": 2}\n]\n')
    diff(lambda s: s.read.option("multiLine", "true").json(str(path)))


def test_missing_path(diff_error, tmp_path):
    diff_error(lambda s: s.read.json(str(tmp_path / "none.json")), "PATH_NOT_FOUND")


def test_text(diff, tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"first\r\nsecond\n\nthird\rfourth")
    diff(lambda s: s.read.text(str(path)))
    diff(lambda s: s.read.text(str(path), wholetext=True))
    diff(lambda s: s.read.text(str(path), lineSep="\n"))
    diff(lambda s: s.read.text(str(path)).groupBy().count())


def test_byte_range_splits(diff, ember, tmp_path):
    js = tmp_path / "many.json"
    js.write_text("".join(f'{{"i": {i}, "s": "{"x" * (i % 17)}"}}\n' for i in range(2000)))
    txt = tmp_path / "many.txt"
    txt.write_bytes(b"".join(f"line {i}{'y' * (i % 13)}".encode() + (b"\r\n" if i % 3 else b"\n")
                             for i in range(2000)))
    ember.conf.set("spark.ember.io.splitBytes", "4096")
    try:
        diff(lambda s: s.read.json(str(js)), ordered=True)
        diff(lambda s: s.read.text(str(txt)), ordered=True)
        diff(lambda s: s.read.text(str(txt)).groupBy().count())
    finally:
        ember.conf.unset("spark.ember.io.splitBytes")
