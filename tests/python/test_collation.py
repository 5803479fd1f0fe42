"""String collations against Apache Spark: collated schemas (createDataFrame, DDL, CAST, SQL's
COLLATE), collate / collation, comparisons, IN, grouping, DISTINCT, joins, sorts, windows,
min / max and COUNT(DISTINCT) under UTF8_LCASE, UNICODE, UNICODE_CI, locale collations and
RTRIM, the collation of string functions' results, and the mismatch and name errors."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

WORDS = ["Alice", "alice", "ALICE", "Bob", "bob ", "bOB", "Éclair", "eclair", "éclair", "Zoë", "zoe",
         "İstanbul", "istanbul", "straße", "STRASSE", "ς", "Σ", "", None, "b", "a", "A", "ä", "Ä", "z"]


def words(s, collation):
    schema = StructType([StructField("w", StringType(collation), True), StructField("i", IntegerType(), False)])
    return s.createDataFrame([(w, i) for i, w in enumerate(WORDS)], schema)


COLLATIONS = ["UTF8_BINARY", "UTF8_LCASE", "UNICODE", "UNICODE_CI", "UNICODE_CI_AI", "UNICODE_AI",
              "UTF8_LCASE_RTRIM", "UNICODE_CI_RTRIM", "de_CI", "sv"]


def test_collated_schema_and_distinct(diff):
    schema = StructType([StructField("name", StringType("UNICODE_CI"), True)])
    diff(lambda s: s.createDataFrame([("Alice",), ("alice",)], schema).select("name").distinct()
         .select(F.count("*").alias("n")))
    diff(lambda s: s.createDataFrame([("Alice",), ("alice",), ("Bob",)], schema))
    diff(lambda s: s.createDataFrame([("a", "b")], "c string collate utf8_lcase, d string"))


def test_group_by_each_collation(diff):
    for c in COLLATIONS:
        # The group's representative string is whichever row came first; compare the groups by
        # their sizes and their members' sets.
        diff(lambda s, c=c: words(s, c).groupBy("w").agg(
            F.count("*").alias("n"), F.sort_array(F.collect_list(F.col("w").cast("string"))).alias("members"))
            .drop("w"))


def test_sort_and_compare_each_collation(diff):
    for c in COLLATIONS:
        # Ties under the collation keep their input order through the second key.
        diff(lambda s, c=c: words(s, c).orderBy(F.col("w").asc_nulls_first(), "i").select("w"), ordered=True)
        diff(lambda s, c=c: words(s, c).orderBy(F.col("w").desc(), "i").select("w"), ordered=True)
        diff(lambda s, c=c: words(s, c).select(
            "w", (F.col("w") == F.lit("alice")).alias("eq"), (F.col("w") < F.lit("b")).alias("lt"),
            (F.col("w") >= F.lit("Éclair")).alias("ge"), F.col("w").eqNullSafe(F.lit("STRASSE")).alias("ns"),
            F.col("w").isin("bob", "zoe", "ISTANBUL").alias("isin")))


def test_sql_collate(diff):
    diff(lambda s: s.sql("SELECT collation('a'), collation('a' COLLATE utf8_lcase), "
                         "collation('a' COLLATE de_ci_ai), collation('a' COLLATE unicode_rtrim), "
                         "collation(CAST('a' AS STRING COLLATE UNICODE_CI))"))
    diff(lambda s: s.sql("SELECT 'a' = 'A' COLLATE UTF8_LCASE, 'a' < 'B' COLLATE UTF8_LCASE, "
                         "'a' COLLATE UNICODE < 'B', 'a' COLLATE UTF8_BINARY < 'B', "
                         "'a  ' COLLATE UTF8_BINARY_RTRIM = 'a', 'İ' COLLATE UTF8_LCASE = 'i̇', "
                         "'ς' COLLATE UTF8_LCASE = 'Σ', 'ß' COLLATE UTF8_LCASE = 'SS', "
                         "'ß' COLLATE UNICODE_CI = 'SS', 'a' COLLATE UNICODE_CI_AI = 'Ä'"))
    diff(lambda s: s.sql("SELECT c FROM VALUES ('a'), ('B'), ('b'), ('A') AS v(c) "
                         "WHERE c COLLATE UTF8_LCASE IN ('b')"))
    diff(lambda s: s.sql("SELECT c FROM VALUES ('a'), ('B'), ('b'), ('A') AS v(c) "
                         "ORDER BY c COLLATE UTF8_LCASE DESC, c"), ordered=True)
    diff(lambda s: s.sql("SELECT c, row_number() OVER (PARTITION BY c COLLATE UTF8_LCASE ORDER BY c) AS rn "
                         "FROM VALUES ('a'), ('B'), ('b'), ('A') AS v(c)"))
    diff(lambda s: s.sql("SELECT lower(k) AS k, n FROM (SELECT c COLLATE UTF8_LCASE_RTRIM AS k, count(*) AS n "
                         "FROM VALUES ('a '), ('a'), ('A  '), ('b') AS v(c) GROUP BY 1)"))
    diff(lambda s: s.sql("SELECT count(DISTINCT c COLLATE UTF8_LCASE) AS n, count(DISTINCT c) AS m "
                         "FROM VALUES ('a'), ('B'), ('b'), ('A'), (NULL) AS v(c)"))


def test_result_types_follow_the_collation(diff):
    diff(lambda s: s.sql("SELECT upper('a' COLLATE utf8_lcase), lower('A' COLLATE unicode_ci), "
                         "substring('abc' COLLATE utf8_lcase, 2), trim(' a ' COLLATE utf8_lcase), "
                         "repeat('a' COLLATE utf8_lcase, 2), 'a' COLLATE utf8_lcase || 'b', "
                         "typeof('a' COLLATE utf8_lcase), length('abc' COLLATE unicode)"))
    schema = StructType([StructField("name", StringType("UNICODE_CI"), True)])
    diff(lambda s: s.createDataFrame([("Alice",), ("alice",), ("Bob",)], schema).select(
        F.upper("name").alias("u"), F.concat("name", F.lit("!")).alias("c"),
        (F.col("name") == "ALICE").alias("eq"), F.typeof("name").alias("t")))
    diff(lambda s: s.createDataFrame([("Alice",), ("ALICE",), ("Bob",)], "name string").select(
        F.collate("name", "utf8_lcase").alias("c"), F.collation(F.collate("name", "de_CI")).alias("n"),
        (F.collate("name", "UNICODE_CI") == "alice").alias("eq")))


def test_joins_on_collated_keys(diff):
    def joined(s, how):
        left = s.createDataFrame([("Alice", 1), ("BOB", 2), ("carol", 3), (None, 4)],
                                 "k string collate UTF8_LCASE, v int")
        right = s.createDataFrame([("alice", 10), ("ALICE", 11), ("bob", 12), ("dave", 13)],
                                  "k string collate UTF8_LCASE, w int")
        joined = left.join(right, left.k == right.k, how)
        return joined.select(left.v, "w") if how not in ("left_semi", "left_anti") else joined
    for how in ["inner", "left", "full", "left_semi", "left_anti"]:
        diff(lambda s, how=how: joined(s, how))


def test_min_max_of_collated_strings(diff):
    diff(lambda s: s.sql("SELECT lower(max(c COLLATE utf8_lcase)), lower(min(c COLLATE utf8_lcase)), "
                         "max(c COLLATE unicode), min(c COLLATE unicode) "
                         "FROM VALUES ('a'), ('B'), ('b'), ('A'), ('ä'), (NULL) AS v(c)"))


def test_collation_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT 'a' COLLATE UTF8_LCASE = 'A' COLLATE UNICODE"),
               "COLLATION_MISMATCH.EXPLICIT")
    diff_error(lambda s: s.sql("SELECT a = b FROM (SELECT 'a' COLLATE UTF8_LCASE AS a, "
                               "'b' COLLATE UNICODE AS b)"),
               "INDETERMINATE_COLLATION_IN_EXPRESSION")


def test_invalid_collation_names(ember, oracle):
    # Spark raises a plain SparkException here (no PySpark error class), so compare the texts.
    for name in ["nonexist", "utf8_binary_ltrim", "unicode_ci_cs", "utf8_lcase_x"]:
        for session in (ember, oracle):
            with pytest.raises(Exception) as raised:
                session.sql(f"SELECT 'a' COLLATE {name}").collect()
            assert f"[COLLATION_INVALID_NAME] The value {name} does not represent a correct collation name." \
                in str(raised.value), str(raised.value)[:500]


def test_lowercase_affix_functions(diff, diff_error):
    diff(lambda s: s.sql("SELECT contains('ABC' COLLATE utf8_lcase, 'b'), startswith('ABC' COLLATE utf8_lcase, 'a'), "
                         "endswith('ABC' COLLATE utf8_lcase, 'Bc'), contains('ABC' COLLATE utf8_lcase, 'x'), "
                         "startswith('İx' COLLATE utf8_lcase, 'i̇'), contains(NULL COLLATE utf8_lcase, 'a')"))
    diff(lambda s: words(s, "UTF8_LCASE").select(
        "w", F.col("w").contains("LI").alias("c"), F.col("w").startswith("b").alias("s"),
        F.col("w").endswith("E").alias("e")))
    diff_error(lambda s: words(s, "UNICODE_CI").where(F.col("w").like("a%")),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
