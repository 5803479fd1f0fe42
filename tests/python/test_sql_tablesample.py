"""Differential tests of SQL's TABLESAMPLE — Ember against Apache Spark. Sampled rows are
random, so the tests compare what is defined: schemas, 0 PERCENT (no rows), 100 PERCENT (every
row), n ROWS (the first n rows of an ordered input), REPEATABLE (the same seed gives the same
rows), and errors with their positions."""

from __future__ import annotations

import pytest

from test_pivot import assert_same_parse_error


def views(s):
    s.range(100).createOrReplaceTempView("ts_r")
    return s


def sql(query):
    return lambda s: views(s).sql(query)


def test_deterministic_samples(diff):
    for q in [
        "SELECT * FROM ts_r TABLESAMPLE (0 PERCENT)",
        "SELECT * FROM ts_r TABLESAMPLE (100 PERCENT)",
        "SELECT * FROM ts_r TABLESAMPLE (100.0 PERCENT) REPEATABLE (3)",
        "SELECT * FROM ts_r TABLESAMPLE (0 ROWS)",
        "SELECT * FROM ts_r TABLESAMPLE (200 ROWS)",
        "SELECT * FROM ts_r TABLESAMPLE (1 + 1 ROWS)",
        "SELECT * FROM ts_r TABLESAMPLE (BUCKET 0 OUT OF 10)",
        "SELECT * FROM ts_r TABLESAMPLE (BUCKET 10 OUT OF 10) t WHERE t.id > 90",
        "SELECT * FROM (SELECT id * 2 AS x FROM ts_r) TABLESAMPLE (100 PERCENT) q",
        "SELECT count(*) FROM ts_r TABLESAMPLE (0 PERCENT)",
    ]:
        diff(sql(q))


def test_rows_takes_leading_rows(diff):
    diff(sql("SELECT * FROM ts_r TABLESAMPLE (5 ROWS)"))
    diff(sql("SELECT * FROM (SELECT * FROM ts_r ORDER BY id DESC) TABLESAMPLE (3 ROWS) x"))


@pytest.mark.parametrize("clause", ["(10 PERCENT)", "(BUCKET 3 OUT OF 10)", "(37.5 PERCENT)"])
def test_repeatable_is_stable(ember, clause):
    query = f"SELECT id FROM ts_r TABLESAMPLE {clause} REPEATABLE (42)"
    views(ember)
    first = [r.id for r in ember.sql(query).collect()]
    second = [r.id for r in ember.sql(query).collect()]
    assert first == second
    assert 0 < len(first) < 100
    assert len(set(first)) == len(first) and set(first) <= set(range(100))
    other = [r.id for r in ember.sql(query.replace("(42)", "(43)")).collect()]
    assert other != first


def test_schema(ember, oracle):
    query = "SELECT id, id * 2 AS y FROM ts_r TABLESAMPLE (50 PERCENT) REPEATABLE (1)"
    schemas = [views(s).sql(query).schema for s in (oracle, ember)]
    assert schemas[0] == schemas[1]


def test_errors(diff_error):
    diff_error(sql("SELECT * FROM ts_r TABLESAMPLE (-1 ROWS)"), "INVALID_LIMIT_LIKE_EXPRESSION")
    diff_error(sql("SELECT * FROM ts_r TABLESAMPLE (id ROWS)"), "INVALID_LIMIT_LIKE_EXPRESSION")


@pytest.mark.parametrize("query,error_class", [
    ("SELECT * FROM ts_r TABLESAMPLE (150 PERCENT)", "INVALID_TABLESAMPLE_FRACTION"),
    ("SELECT * FROM ts_r TABLESAMPLE (-1 PERCENT)", "INVALID_TABLESAMPLE_FRACTION"),
    ("SELECT * FROM ts_r TABLESAMPLE (BUCKET 11 OUT OF 10)", "INVALID_TABLESAMPLE_FRACTION"),
    ("SELECT * FROM ts_r TABLESAMPLE (BUCKET 3 OUT OF 0)", "INVALID_TABLESAMPLE_FRACTION"),
    ("SELECT * FROM ts_r TABLESAMPLE (BUCKET 3 OUT OF 10 ON id)", "_LEGACY_ERROR_TEMP_0015"),
    ("SELECT * FROM ts_r TABLESAMPLE (BUCKET 3 OUT OF 10 ON rand())", "_LEGACY_ERROR_TEMP_0015"),
    ("SELECT * FROM ts_r TABLESAMPLE (100M)", "_LEGACY_ERROR_TEMP_0015"),
    ("SELECT * FROM ts_r TABLESAMPLE (percent)", "_LEGACY_ERROR_TEMP_0016"),
    ("SELECT * FROM ts_r AS t TABLESAMPLE (10 PERCENT)", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM ts_r TABLESAMPLE (10 PERCENT) REPEATABLE (1.5)", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM ts_r TABLESAMPLE (10 PERCENT) REPEATABLE (-5)", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM ts_r TABLESAMPLE (10 PERCENTS)", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM ts_r TABLESAMPLE 10 PERCENT", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM ts_r TABLESAMPLE (1e1 PERCENT)", "PARSE_SYNTAX_ERROR"),
    ("SELECT * FROM VALUES (1), (2) AS v(a) TABLESAMPLE (1 ROWS)", "PARSE_SYNTAX_ERROR"),
])
def test_parse_errors(ember, oracle, query, error_class):
    assert_same_parse_error(ember, oracle, query, error_class)
