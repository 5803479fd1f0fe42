"""Differential tests of TABLE arguments with PARTITION BY over many rows — Ember against Apache
Spark. The rows spread over several tasks by their partitioning values, each task run by a
Python worker of its own: every partition's rows still reach one UDTF instance, together and in
the ORDER BY order, and terminate runs once per partition. The SQL clause, the DataFrame API's
partitionBy and analyze's partitionBy; WITH SINGLE PARTITION stays one task; a UDTF that raises
in one task fails the query, after which the server keeps serving."""

import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, LongType, StringType, StructType
from pyspark.sql.udtf import AnalyzeArgument, AnalyzeResult, OrderingColumn, PartitioningColumn

# The workers cannot import this test module: its classes travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROWS = 20_000
KEYS = 50


def big_table(s):
    """k in [0, KEYS) (null for every 997th row), v distinct, s a string key."""
    return s.range(ROWS).select(
        F.when(F.col("id") % 997 == 0, F.lit(None)).otherwise((F.col("id") * 7) % KEYS).cast("int").alias("k"),
        ((F.col("id") * 7919) % ROWS).cast("int").alias("v"),
        F.concat(F.lit("s"), (F.col("id") % 13).cast("string")).alias("s"))


def with_view(s):
    big_table(s).createOrReplaceTempView("udtf_big_rows")
    return s


class Summary:
    """Per partition: its key, how many rows, their sum, and the rows' order as eval saw it."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.total = 0
        self.seen = []

    def eval(self, row):
        self.key = row["k"]
        self.count += 1
        self.total += row["v"]
        self.seen.append(row["v"])

    def terminate(self):
        yield self.key, self.count, self.total, self.seen[0], self.seen[-1], " ".join(map(str, self.seen))


SUMMARY = "k int, count int, total bigint, first int, last int, seen string"


class UnorderedSummary(Summary):
    def terminate(self):
        yield self.key, self.count, self.total, sorted(self.seen) == self.seen


class PartitionedByAnalyze(Summary):
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        schema = (StructType().add("k", IntegerType()).add("count", IntegerType()).add("total", LongType())
                  .add("first", IntegerType()).add("last", IntegerType()).add("seen", StringType()))
        return AnalyzeResult(schema, partitionBy=[PartitioningColumn("k")],
                             orderBy=[OrderingColumn("v", ascending=False)])

    def __init__(self, analyze_result=None):
        super().__init__()


class TaskIds:
    """One row per partition: the Spark task (partition id) that ran it."""

    def __init__(self):
        self.key = None

    def eval(self, row):
        self.key = row["k"]

    def terminate(self):
        from pyspark import TaskContext

        yield self.key, TaskContext.get().partitionId()


class RaisesOnOneKey:
    def eval(self, row):
        if row["k"] == 17:
            raise ValueError(f"refused key {row['k']}")
        yield (row["v"],)


def sql(query):
    def program(s):
        with_view(s)
        s.udtf.register("summary", F.udtf(Summary, returnType=SUMMARY))
        return s.sql(query)
    return program


def summary(*args):
    return F.udtf(Summary, returnType=SUMMARY)(*args)


def test_partition_by_dataframe_api(diff):
    diff(lambda s: summary(big_table(s).asTable().partitionBy("k").orderBy("v")))
    diff(lambda s: summary(big_table(s).asTable().partitionBy(F.col("k")).orderBy(F.col("v").desc())))

    # Without ORDER BY only the order-free summary is defined.
    def unordered(*args):
        return F.udtf(UnorderedSummary, returnType="k int, count int, total bigint, ascending boolean")(*args)
    diff(lambda s: unordered(big_table(s).asTable().partitionBy("k")).select("k", "count", "total"))


def test_partition_by_sql(diff):
    diff(sql("SELECT * FROM summary(TABLE(udtf_big_rows) PARTITION BY k ORDER BY v)"))
    diff(sql("SELECT * FROM summary(TABLE(udtf_big_rows) PARTITION BY k ORDER BY v DESC NULLS LAST)"))
    # A partition of two values; the key eval sees is the last row's k.
    diff(sql("SELECT count, total, first, last, seen FROM summary(TABLE(udtf_big_rows) PARTITION BY (k, s) "
             "ORDER BY v)"))
    # An expression: the partitions are k's residues, whatever k eval sees.
    diff(sql("SELECT count, total, first, last, seen FROM summary(TABLE(udtf_big_rows) PARTITION BY k % 7 "
             "ORDER BY v)"))
    diff(sql("SELECT * FROM summary(TABLE(SELECT * FROM udtf_big_rows WHERE v % 3 = 0) PARTITION BY k ORDER BY v)"))


def test_partition_by_of_analyze(diff):
    diff(lambda s: F.udtf(PartitionedByAnalyze)(big_table(s).asTable()))


def test_with_single_partition_is_one_task(diff):
    diff(lambda s: summary(big_table(s).asTable().withSinglePartition().orderBy("v")).select(
        "count", "total", "first", "last", "seen"))


def test_partitions_run_as_several_tasks(ember):
    """Ember only: the partitions of a large input reach more than one task, and each
    partition exactly one."""
    from harness import session_mode

    with session_mode(ember):
        fn = F.udtf(TaskIds, returnType="k int, task int")
        rows = fn(big_table(ember).asTable().partitionBy("k")).collect()
    assert len(rows) == KEYS + 1, rows
    assert len({r.k for r in rows}) == KEYS + 1, rows
    assert len({r.task for r in rows}) > 1, rows


def test_exception_in_one_task(ember, oracle):
    from harness import python_errors, session_mode

    def program(s):
        return F.udtf(RaisesOnOneKey, returnType="v int")(big_table(s).asTable().partitionBy("k"))

    python_errors(ember, oracle, program, "refused key 17")
    # The server keeps serving, the same function over rows it accepts too.
    with session_mode(ember):
        rows = F.udtf(RaisesOnOneKey, returnType="v int")(
            big_table(ember).filter("k IS NULL OR k != 17").asTable().partitionBy("k")).count()
    assert rows == sum(1 for i in range(ROWS) if i % 997 == 0 or i * 7 % KEYS != 17), rows
