"""Differential tests of PIVOT and UNPIVOT — the DataFrame API (groupBy().pivot(), unpivot,
melt) and SQL — Ember against Apache Spark: output names, null pivot values, values given and
computed, type coercion of values, the two-phase and per-value plans (count shows null or 0 for
an empty cell depending on the aggregates' types, as in Spark), and errors."""

from __future__ import annotations

import os
import re
import subprocess

from pyspark.sql import functions as F

from conftest import ember_binary
from harness import error_condition, run_for_error, session_conf, session_mode

ROWS = [("a", "x", 1, 1.0, "p"), ("a", "y", 2, 2.0, "q"), ("b", "x", 3, None, "r"),
        ("b", None, 4, 4.0, "s"), ("c", "z", None, 5.0, None), ("a", "x", 6, 0.5, "t")]
SCHEMA = "k string, t string, v int, x double, w string"

WIDE = [(1, 11, 1.1, "a", None), (2, None, None, "b", 5), (3, 13, 3.3, None, 6)]
WIDE_SCHEMA = "id int, i int, d double, s string, l bigint"


def data(s):
    return s.createDataFrame(ROWS, SCHEMA)


def wide(s):
    return s.createDataFrame(WIDE, WIDE_SCHEMA)


def views(s):
    data(s).createOrReplaceTempView("pv_t")
    wide(s).createOrReplaceTempView("pv_u")
    return s


def sql(query):
    return lambda s: views(s).sql(query)


# --- DataFrame pivot --------------------------------------------------------------------------

def test_pivot_values_computed(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t").sum("v"))
    diff(lambda s: data(s).groupBy("k").pivot("v").agg(F.max("x")))
    diff(lambda s: data(s).groupBy().pivot("t").agg(F.max("x")))
    diff(lambda s: data(s).groupBy().pivot("k").count())


def test_pivot_values_given(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "y", "q"]).agg(F.count("v")))
    diff(lambda s: data(s).groupBy("k").pivot("v", [1, 2, 7]).agg(F.count("w")))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x"]).count())


def test_pivot_several_aggregates_names(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t").agg(F.count("v"), F.sum("x").alias("sx")))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x"]).agg(F.count_distinct("v"),
                                                               F.countDistinct("x")))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "y"]).avg("v", "x"))


def test_pivot_non_numeric_aggregates_use_per_value_plan(diff):
    # With a string or array result Spark aggregates per value: an empty cell counts 0.
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "y"]).agg(
        F.first("w"), F.collect_list("w"), F.count("w")))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "y"]).agg(F.max("w"), F.last("w")))
    # All numeric: two phases, an empty cell is null.
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "y"]).agg(F.count("w")))


def test_pivot_value_coercion(diff):
    diff(lambda s: data(s).groupBy("k").pivot("v", ["1", "2"]).agg(F.max("x")))
    diff(lambda s: data(s).groupBy("k").pivot("t", [1, 2]).agg(F.max("x")))
    diff(lambda s: data(s).groupBy("k").pivot("x", [1, 2]).agg(F.sum("v")))


def test_pivot_expressions(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t").agg(F.max("x") + 1))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x"]).agg(F.max("x") + F.min("v")))
    diff(lambda s: data(s).groupBy(F.col("k").alias("kk")).pivot("t", ["x"]).mean("v"))
    diff(lambda s: data(s).groupBy("k", "t").pivot("t", ["x"]).agg(F.sum("v")))


def test_pivot_duplicate_names(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x"]).agg(F.sum("v"), F.sum("v")))
    diff(lambda s: data(s).groupBy("k").pivot("t", ["x", "x"]).agg(F.sum("v")))


def test_pivot_then_order(diff):
    diff(lambda s: data(s).groupBy("k").pivot("t").sum("v").orderBy("k"), ordered=True)


def test_pivot_errors(diff_error, diff):
    diff_error(lambda s: data(s).groupBy("k").pivot("t", ["x"]).agg(F.col("v")),
               "_LEGACY_ERROR_TEMP_1006")
    diff_error(lambda s: data(s).groupBy("k").pivot("v", ["abc"]).sum("x"), "CAST_INVALID_INPUT")


def test_pivot_max_values(ember, oracle, diff_error, diff):
    with session_conf(ember, oracle, spark_sql_pivotMaxValues="2"):
        diff_error(lambda s: data(s).groupBy("k").pivot("t").sum("v"), "_LEGACY_ERROR_TEMP_1324")
    with session_conf(ember, oracle, spark_sql_pivotMaxValues="4"):
        diff(lambda s: data(s).groupBy("k").pivot("t").sum("v"))


# --- SQL PIVOT --------------------------------------------------------------------------------

def test_sql_pivot(diff):
    for q in [
        "SELECT * FROM VALUES (1, 'a', 10), (1, 'b', 20), (2, 'a', 30) AS t(g, p, v) "
        "PIVOT (sum(v) FOR p IN ('a', 'b'))",
        "SELECT * FROM VALUES (1, 'a', 10), (1, 'b', 20), (2, 'a', 30) AS t(g, p, v) "
        "PIVOT (sum(v) AS s, count(v) FOR p IN ('a' AS aa, 'b'))",
        "SELECT * FROM pv_t PIVOT (sum(v) AS s FOR t IN ('x', 'y'))",
        "SELECT * FROM pv_t PIVOT (count(*) c, sum(v) FOR t IN ('x' AS xx, 'y'))",
        "SELECT * FROM pv_t PIVOT (first(w), sum(v) FOR t IN ('x', 'y'))",
        "SELECT * FROM pv_t PIVOT (sum(x) FOR v IN (1, 2L, null))",
        "SELECT * FROM pv_t PIVOT (sum(v) FOR v IN (1.5, 2))",
        "SELECT * FROM pv_t PIVOT (sum(v) + max(x) FOR t IN ('x'))",
        "SELECT * FROM pv_t PIVOT (percentile(v, 0.5) FOR t IN ('x'))",
        "SELECT * FROM pv_t PIVOT (sum(v) FOR t IN ('x', 'x'))",
        "SELECT * FROM pv_t PIVOT (sum(v) AS s FOR t IN ('x', 'y')) pv WHERE pv.k = 'a'",
        "SELECT * FROM pv_t PIVOT (sum(v) AS s FOR t IN ('x', 'y')) WHERE k = 'a'",
        "SELECT k, y FROM (SELECT k, t, x FROM pv_t) PIVOT (count(*) FOR t IN ('x', 'y'))",
        "SELECT * FROM (SELECT k, t, cast(v AS decimal(10, 2)) d FROM pv_t) "
        "PIVOT (sum(d), count(d) FOR t IN ('x', 'y'))",
        "SELECT * FROM (SELECT k, t, v > 1 b FROM pv_t) PIVOT (count(k) FOR b IN (true, false))",
        "SELECT * FROM (SELECT k, t, date_add(date'2020-01-01', v) dd FROM pv_t) "
        "PIVOT (count(k) FOR dd IN (date'2020-01-02', '2020-01-03'))",
        "SELECT * FROM (SELECT k, t, x FROM pv_t) PIVOT (count(k) FOR x IN (1, 2.0))",
    ]:
        diff(sql(q))


def test_sql_pivot_several_columns(diff):
    base = "SELECT * FROM VALUES (1, 'a', 10), (1, 'b', 20), (2, 'a', 30) AS t(g, p, v) "
    diff(sql(base + "PIVOT (sum(v) s, avg(v) FOR (g, p) IN ((1, 'a') AS one_a, (2, 'a')))"))
    diff(sql(base + "PIVOT (sum(v) FOR (g, p) IN ((1, 'a'), (2, 'a'), (1, 'c')))"))
    diff(sql("SELECT * FROM pv_t PIVOT (max(w) FOR (k, t) IN (('a', 'x'), ('b', null)))"))


def test_sql_pivot_errors(diff_error):
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(v) FOR t IN (k))"), "NON_LITERAL_PIVOT_VALUES")
    diff_error(sql("SELECT * FROM pv_t PIVOT (v FOR t IN ('x'))"), "_LEGACY_ERROR_TEMP_1006")
    diff_error(sql("SELECT * FROM pv_t PIVOT (v + 1 FOR t IN ('x'))"), "_LEGACY_ERROR_TEMP_1006")
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(v) FOR (t, k) IN (('x', 'a'), ('y')))"),
               "PIVOT_VALUE_DATA_TYPE_MISMATCH")
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(v) FOR (t, k) IN (('x', 'a', 1)))"),
               "PIVOT_VALUE_DATA_TYPE_MISMATCH")
    # A null where a pivot column is never null.
    diff_error(sql("SELECT * FROM VALUES (1, 'a', 10) AS t(g, p, v) "
                   "PIVOT (sum(v) FOR (g, p) IN ((1, null)))"), "PIVOT_VALUE_DATA_TYPE_MISMATCH")
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(v) FOR v IN ('abc'))"), "CAST_INVALID_INPUT")
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(v) FOR zz IN ('x'))"), "UNRESOLVED_COLUMN")
    diff_error(sql("SELECT * FROM pv_t PIVOT (sum(zz) FOR t IN ('x'))"), "UNRESOLVED_COLUMN")
    diff_error(sql("SELECT k, x FROM pv_t PIVOT (sum(v) FOR t IN ('x', 'y'))"),
               "AMBIGUOUS_REFERENCE")


def error_position(text):
    """The position of a parse error in its message: `(line 1, pos 43)`, or `== SQL (line 1,
    position 20) ==` for errors raised on a clause as a whole."""
    m = re.search(r"\(line (\d+), (pos|position) (\d+)\)", text)
    return m.groups() if m else None


def ember_cli_error(query):
    """The error class and position `ember sql` prints for a statement (Spark Connect does not
    carry positions)."""
    out = subprocess.run([str(ember_binary()), "sql", "-S", "-e", query], capture_output=True,
                         text=True, env=dict(os.environ, TZ="UTC"), timeout=60)
    text = out.stdout + out.stderr
    m = re.search(r"\[([A-Z0-9_.]+)\]", text)
    return (m.group(1) if m else None), error_position(text)


def assert_same_parse_error(ember, oracle, query, error_class):
    """Both engines fail to parse `query` with `error_class`, the same message parameters
    (Spark Connect) and the same position (the SQL shell)."""
    with session_mode(oracle):
        expected = run_for_error("spark", lambda s: s.sql(query), oracle)
    with session_mode(ember):
        actual = run_for_error("ember", lambda s: s.sql(query), ember)
    assert error_condition(expected) == error_class, (query, str(expected))
    assert error_condition(actual) == error_class, (query, str(actual))
    assert actual.getMessageParameters() == expected.getMessageParameters(), query
    # Spark prints a legacy condition's message without its class, and so does the shell.
    shown = None if error_class.startswith("_LEGACY_ERROR_") else error_class
    assert ember_cli_error(query) == (shown, error_position(str(expected))), query


PARSE_ERRORS = [
    "SELECT * FROM pv_t PIVOT (sum(v) FOR t IN ())",
    "SELECT * FROM pv_t PIVOT (sum(v) FOR t.t IN ('x'))",
    "SELECT * FROM pv_t PIVOT (sum(v) t IN ('x'))",
    "SELECT * FROM pv_t PIVOT (sum(v) FOR t IN 'x')",
    "SELECT * FROM pv_u UNPIVOT (val FOR var IN ())",
    "SELECT * FROM pv_u UNPIVOT (val FOR var IN (i + 1))",
    "SELECT * FROM pv_u UNPIVOT (val var IN (i, l))",
    "SELECT * FROM pv_u UNPIVOT INCLUDE (val FOR var IN (i, l))",
]


def test_parse_errors(ember, oracle):
    for q in PARSE_ERRORS:
        assert_same_parse_error(ember, oracle, q, "PARSE_SYNTAX_ERROR")


# --- Unpivot ----------------------------------------------------------------------------------

def test_unpivot_dataframe(diff):
    diff(lambda s: wide(s).unpivot("id", ["i", "l"], "var", "val"), ordered=True)
    diff(lambda s: wide(s).unpivot(["id"], ["i", "d"], "var", "val"), ordered=True)
    diff(lambda s: wide(s).select("id", "i", "l").unpivot("id", None, "var", "val"), ordered=True)
    diff(lambda s: wide(s).select("id", "i", "l").melt("id", None, "var", "val"), ordered=True)
    diff(lambda s: wide(s).unpivot([], ["i", "l"], "var", "val"), ordered=True)
    diff(lambda s: wide(s).unpivot("id", ["i", "id"], "var", "val"), ordered=True)
    diff(lambda s: wide(s).unpivot("id", ["i", "l"], "id", "val"), ordered=True)


def test_unpivot_expressions(diff):
    diff(lambda s: wide(s).unpivot(["id", "s"], [F.col("i"), F.col("i") + 1], "var", "val"),
         ordered=True)
    diff(lambda s: wide(s).unpivot([(F.col("id") * 2).alias("x")], [F.col("i").alias("ii"), "l"],
                                   "var", "val"), ordered=True)


def test_unpivot_errors(diff_error):
    diff_error(lambda s: wide(s).unpivot("id", ["i", "s"], "var", "val"),
               "UNPIVOT_VALUE_DATA_TYPE_MISMATCH")
    diff_error(lambda s: wide(s).unpivot("id", None, "var", "val"),
               "UNPIVOT_VALUE_DATA_TYPE_MISMATCH")
    diff_error(lambda s: wide(s).unpivot("id", [], "var", "val"), "UNPIVOT_REQUIRES_VALUE_COLUMNS")
    diff_error(lambda s: wide(s).select("id").unpivot("id", None, "var", "val"),
               "UNPIVOT_REQUIRES_VALUE_COLUMNS")
    diff_error(lambda s: wide(s).unpivot("id", ["i", "zz"], "var", "val"), "UNRESOLVED_COLUMN")


def test_sql_unpivot(diff):
    for q in [
        "SELECT * FROM pv_u UNPIVOT (val FOR var IN (i, l))",
        "SELECT * FROM pv_u UNPIVOT INCLUDE NULLS (val FOR var IN (i, l))",
        "SELECT * FROM pv_u UNPIVOT EXCLUDE NULLS (val FOR var IN (i AS ii, l AS `x y`)) AS up",
        "SELECT * FROM pv_u UNPIVOT ((v1, v2) FOR var IN ((i, d), (l, d) AS ld))",
        "SELECT * FROM pv_u UNPIVOT INCLUDE NULLS ((v1, v2) FOR var IN ((i, d), (l, d) AS ld))",
        "SELECT * FROM pv_u UNPIVOT (val FOR var IN (pv_u.i, pv_u.l))",
        "SELECT up.* FROM pv_u UNPIVOT (val FOR var IN (i, l)) up",
        "SELECT * FROM pv_u UNPIVOT (val FOR var IN (i, l)) WHERE val > 5",
        "SELECT * FROM pv_u UNPIVOT (val FOR var IN (i, d, l))",
        "SELECT * FROM (SELECT 1 a, 2 b) UNPIVOT (val FOR var IN (a, b)) "
        "UNPIVOT (v2 FOR n2 IN (val))",
    ]:
        diff(sql(q), ordered=True)


def test_sql_unpivot_errors(diff_error):
    diff_error(sql("SELECT * FROM pv_u UNPIVOT (val FOR var IN (i, s))"),
               "UNPIVOT_VALUE_DATA_TYPE_MISMATCH")
    diff_error(sql("SELECT * FROM pv_u UNPIVOT ((v1, v2) FOR var IN ((i, d, l)))"),
               "UNPIVOT_VALUE_SIZE_MISMATCH")
    diff_error(sql("SELECT * FROM pv_u UNPIVOT (val FOR var IN (i, zz))"), "UNRESOLVED_COLUMN")


def test_pivot_of_unpivot(diff):
    diff(sql("SELECT * FROM (SELECT * FROM pv_u UNPIVOT INCLUDE NULLS (val FOR var IN (i, l))) "
             "PIVOT (sum(val) FOR var IN ('i', 'l'))"))
