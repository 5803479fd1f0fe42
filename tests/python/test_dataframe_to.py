"""Differential tests of DataFrame.to(schema) — Ember against Apache Spark: columns picked by
name in the schema's order, casts by ANSI store assignment, structs reordered by field, and the errors for a missing
non-nullable column, a cast ANSI store assignment refuses information and a nullable column where the schema forbids nulls."""

from __future__ import annotations

from pyspark.sql import functions as F
from pyspark.sql.types import (DecimalType, DoubleType, IntegerType, LongType,
                               StringType, StructField, StructType)

ROWS = [("a", 1, 2.5), ("b", None, None)]
SCHEMA = "i string, j int, d double"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def test_reorder_and_up_cast(diff):
    diff(lambda s: data(s).to(StructType([StructField("j", StringType()),
                                           StructField("i", StringType())])))
    diff(lambda s: data(s).to(StructType([StructField("j", LongType())])))
    diff(lambda s: data(s).to(StructType([StructField("J", DoubleType()),
                                           StructField("d", DoubleType())])))
    diff(lambda s: data(s).to(StructType([StructField("j", DecimalType(12, 2))])))
    diff(lambda s: data(s).to(StructType([StructField("d", IntegerType())])))


def test_missing_nullable_columns_are_null(diff):
    diff(lambda s: data(s).to(StructType([StructField("zz", LongType()),
                                           StructField("i", StringType())])))
    diff(lambda s: data(s).select(F.struct("i", "j").alias("st")).to(StructType([StructField(
        "st", StructType([StructField("i", StringType()), StructField("q", IntegerType())]),
        False)])))


def test_structs(diff):
    inner = StructType([StructField("j", StringType()), StructField("i", StringType())])
    diff(lambda s: data(s).select(F.struct("i", "j").alias("st")).to(
        StructType([StructField("st", inner, False)])))
    diff(lambda s: data(s).select(F.when(F.col("j").isNull(), None)
                                   .otherwise(F.struct("i", "j")).alias("st")).to(
        StructType([StructField("st", inner)])))


def test_errors(diff_error):
    diff_error(lambda s: data(s).to(StructType([StructField("j", LongType(), False)])),
               "NULLABLE_COLUMN_OR_FIELD")
    diff_error(lambda s: data(s).to(StructType([StructField("i", LongType())])),
               "INVALID_COLUMN_OR_FIELD_DATA_TYPE")
    diff_error(lambda s: data(s).select(F.array("j").alias("a")).to(
        StructType([StructField("a", LongType())])), "INVALID_COLUMN_OR_FIELD_DATA_TYPE")
    diff_error(lambda s: data(s).to(StructType([StructField("zz", LongType(), False)])),
               "UNRESOLVED_COLUMN")
