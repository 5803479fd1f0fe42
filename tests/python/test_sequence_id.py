"""Differential tests of distributed_sequence_id, the consecutive 0..n-1 row numbers in input
order behind DataFrame.zipWithIndex and pandas-on-Spark's default index, Ember against Apache
Spark. pandas-on-Spark frames are compared as Spark DataFrames with their index as a column."""

from __future__ import annotations

import os

import pytest
from pyspark.sql import functions as F

os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")


def test_zip_with_index(diff):
    diff(lambda s: s.range(5).zipWithIndex())
    # Many batches, a filter before the numbering, a name of the caller's.
    diff(lambda s: s.range(0, 300000, 3).filter("id % 2 = 0").zipWithIndex("i"))
    diff(lambda s: s.createDataFrame([("b", None), ("a", 1.5), (None, 2.0)], "k string, v double")
         .zipWithIndex("pos").filter(F.col("pos") > 0))
    # The numbering follows the input's order, a sort's included.
    diff(lambda s: s.range(10).orderBy(F.col("id").desc()).zipWithIndex("n").select("id", "n"))


def frame(s):
    return s.createDataFrame([(3, "x", 1.5), (1, "y", None), (2, "x", 4.0), (5, "z", 2.0)],
                             "a long, b string, c double").pandas_api()


PANDAS_PROGRAMS = {
    "range": lambda s: s.range(5).pandas_api(),
    "frame": frame,
    "filter": lambda s: (lambda p: p[p.a > 1])(frame(s)),
    "sort": lambda s: frame(s).sort_values("a"),
    "arithmetic": lambda s: (lambda p: (p.a * 2 + p.c).to_frame("v"))(frame(s)),
    "groupby": lambda s: frame(s).groupby("b").sum(),
    "reset_index": lambda s: frame(s).sort_values("a").reset_index(drop=True),
    "head": lambda s: frame(s).head(2),
    "iloc": lambda s: frame(s).iloc[:2],
    "fillna": lambda s: frame(s)[["a", "c"]].fillna(0),
    "cumsum": lambda s: frame(s)[["a"]].cumsum(),
    "shift": lambda s: frame(s)[["a"]].shift(1),
    "assign": lambda s: (lambda p: p.assign(d=p.a + 1))(frame(s)),
    "merge": lambda s: (lambda p: p.merge(p[["a", "c"]], on="a"))(frame(s)),
}


@pytest.mark.parametrize("name", sorted(PANDAS_PROGRAMS))
def test_pandas_on_spark(diff, name):
    program = PANDAS_PROGRAMS[name]
    diff(lambda s: program(s).to_spark(index_col="idx"))


def test_pandas_on_spark_values(both_values):
    both_values(lambda s: (frame(s).a.mean(), len(frame(s)), frame(s).to_pandas().values.tolist()))


@pytest.fixture
def both_values(differ):
    from harness import session_mode

    def check(fn):
        with session_mode(differ.oracle):
            expected = repr(fn(differ.oracle))
        with session_mode(differ.ember):
            actual = repr(fn(differ.ember))
        assert actual == expected

    return check
