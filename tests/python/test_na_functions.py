"""Differential tests of DataFrame.na (fillna, dropna, replace): which columns a value applies
to by type, NaN as missing for floating point columns, subsets, thresholds, per-column maps."""

from __future__ import annotations

ROWS = [
    (1, 10.5, "a", True, 7),
    (None, float("nan"), None, None, 8),
    (3, None, "c", False, None),
    (None, None, None, None, None),
    (5, 2.0, "", True, 9),
]
SCHEMA = "i int, d double, s string, b boolean, l long"


def table(s):
    return s.createDataFrame(ROWS, SCHEMA)


def test_fillna_by_value_type(diff):
    diff(lambda s: table(s).fillna(0))
    diff(lambda s: table(s).fillna(1.5))
    diff(lambda s: table(s).fillna("x"))
    diff(lambda s: table(s).fillna(True))
    diff(lambda s: table(s).na.fill(-1))


def test_fillna_subset_and_map(diff):
    diff(lambda s: table(s).fillna(0, subset=["i", "s"]))
    diff(lambda s: table(s).fillna("z", subset="s"))
    diff(lambda s: table(s).fillna({"i": 42, "d": 0.25, "s": "missing", "b": False}))


def test_fillna_unknown_column_is_an_error(diff_error):
    diff_error(lambda s: table(s).fillna(0, subset=["nope"]), "UNRESOLVED_COLUMN")


def test_dropna(diff):
    diff(lambda s: table(s).dropna())
    diff(lambda s: table(s).dropna(how="all"))
    diff(lambda s: table(s).dropna(thresh=3))
    diff(lambda s: table(s).dropna(subset=["i", "d"]))
    diff(lambda s: table(s).na.drop(how="all", subset=["d", "s"]))
    diff(lambda s: table(s).dropna(thresh=0))


def test_replace(diff):
    diff(lambda s: table(s).replace(1, 100))
    diff(lambda s: table(s).replace([1, 3], [10, 30], subset=["i"]))
    diff(lambda s: table(s).replace("a", "A"))
    diff(lambda s: table(s).replace({"a": "A", "c": "C"}))
    diff(lambda s: table(s).replace(10.5, 0.0))
    diff(lambda s: table(s).na.replace(True, False))


def test_describe(diff):
    diff(lambda s: table(s).describe(), ordered=True, approx=1e-9)
    diff(lambda s: table(s).describe("i", "s"), ordered=True)
    diff(lambda s: table(s).filter("i > 100").describe("i"), ordered=True)


def test_summary_of_basic_statistics(diff):
    diff(lambda s: table(s).summary("count", "min", "max"), ordered=True)
    diff(lambda s: table(s).select("i", "d").summary("mean", "stddev"), ordered=True)
