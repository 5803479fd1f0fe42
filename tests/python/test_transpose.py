"""Differential tests of DataFrame.transpose (Spark's TRANSPOSE), Ember against Apache Spark:
the `key` column of non-index column names, one column per non-null index value in ascending
order named by its text, the least common type of the values, and the errors."""

from __future__ import annotations

import decimal

from pyspark.sql import functions as F


def people(s):
    return s.createDataFrame([("x", 1, 2.5), ("a", None, 3.0), (None, 7, 1.0), ("m", 4, None)],
                             "k string, i int, d double")


def test_transpose(diff):
    diff(lambda s: people(s).transpose())
    diff(lambda s: people(s).select("i", "d").transpose("i"))
    diff(lambda s: people(s).select("d", "i").transpose(F.col("i")))
    diff(lambda s: s.sql("SELECT date'2020-01-02' AS k, 1 AS v UNION ALL SELECT date'2019-05-06', 2")
         .transpose())
    diff(lambda s: s.sql("SELECT 1.5d AS k, 1 AS v, 2L AS w UNION ALL SELECT 2.0d, 2, 3L").transpose())
    diff(lambda s: s.sql("SELECT true AS k, 1 AS v UNION ALL SELECT false, 2").transpose())
    diff(lambda s: s.sql("SELECT timestamp'2020-01-02 03:04:05' AS k, 1 AS v").transpose())
    diff(lambda s: s.sql("SELECT 'a' AS k, struct(1) AS v, struct(2) AS w").transpose())
    diff(lambda s: s.createDataFrame([(1, 2, decimal.Decimal("3.50"))], "a int, b int, c decimal(15,2)")
         .transpose("a"))
    diff(lambda s: s.sql("SELECT 1 AS k, 2Y AS v, 3S AS w, CAST(4 AS FLOAT) AS x").transpose())
    # Repeated index values repeat a column name; no value columns; no rows.
    diff(lambda s: s.sql("SELECT 'a' AS k, 1 AS v UNION ALL SELECT 'a', 2").transpose())
    diff(lambda s: s.sql("SELECT 1 AS k").transpose())
    diff(lambda s: s.sql("SELECT 1 AS k, 2 AS v WHERE false").transpose())
    diff(lambda s: s.range(3).select().transpose())


def test_transpose_row_limit(diff, diff_error):
    def limited(s, n):
        s.conf.set("spark.sql.transposeMaxValues", "2")
        try:
            return s.range(n).selectExpr("id", "id * 2 AS v").transpose().collect()
        finally:
            s.conf.unset("spark.sql.transposeMaxValues")

    diff(lambda s: s.createDataFrame(limited(s, 2)))
    diff_error(lambda s: limited(s, 3), "TRANSPOSE_EXCEED_ROW_LIMIT")


def test_transpose_errors(diff_error):
    diff_error(lambda s: people(s).transpose("i").collect(), "TRANSPOSE_NO_LEAST_COMMON_TYPE")
    diff_error(lambda s: s.sql("SELECT 'a' AS k, 1 AS v, date'2020-01-01' AS w, 'x' AS z")
               .transpose().collect(), "TRANSPOSE_NO_LEAST_COMMON_TYPE")
    diff_error(lambda s: s.createDataFrame([(1, 2, decimal.Decimal("3.50"))],
                                           "a int, b bigint, c decimal(5,2)").transpose().collect(),
               "TRANSPOSE_NO_LEAST_COMMON_TYPE")
    diff_error(lambda s: s.sql("SELECT array(1) AS k, 1 AS v").transpose().collect(),
               "TRANSPOSE_INVALID_INDEX_COLUMN")
