"""The catalog of functions against Apache Spark: SHOW FUNCTIONS with LIKE patterns,
Catalog.listFunctions / functionExists / getFunction, DESCRIBE FUNCTION and the error for a
function no one registers."""

from __future__ import annotations

import pytest

from harness import session_mode

# Patterns whose every Spark function Ember registers too.
PATTERNS = ["regexp*", "try_*|nvl2", "xpath*", "kll_sketch_get_n*", "st*dd*", "*_utf8"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_show_functions_like(diff, pattern):
    diff(lambda s: s.sql(f"SHOW FUNCTIONS LIKE '{pattern}'"), ordered=True)
    diff(lambda s: s.sql(f"SHOW SYSTEM FUNCTIONS LIKE '{pattern}'"), ordered=True)


def test_show_user_functions_is_empty(diff):
    diff(lambda s: s.sql("SHOW USER FUNCTIONS"))


def _functions(spark, pattern):
    with session_mode(spark):
        return [(f.name, f.catalog, f.namespace, f.isTemporary)
                for f in spark.catalog.listFunctions(pattern=pattern)]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_list_functions(ember, oracle, pattern):
    assert _functions(ember, pattern) == _functions(oracle, pattern)


def test_function_exists_and_get_function(ember, oracle):
    names = ["abs", "ABS", "regexp_extract", "percentile_approx", "nosuchfn", "xpath_int"]
    for spark in (ember, oracle):
        with session_mode(spark):
            exists = [spark.catalog.functionExists(n) for n in names]
            got = spark.catalog.getFunction("abs")
        if spark is ember:
            ember_result = (exists, got.name, got.isTemporary)
        else:
            oracle_result = (exists, got.name, got.isTemporary)
    assert ember_result == oracle_result


@pytest.mark.parametrize("name", ["abs", "`+`", "regexp_extract", "percentile"])
def test_describe_function(ember, oracle, name):
    # Spark adds the implementing class and, with EXTENDED, examples; the name line and the
    # schema are Ember's too.
    for extended in ("", "EXTENDED "):
        results = []
        for spark in (ember, oracle):
            with session_mode(spark):
                df = spark.sql(f"DESCRIBE FUNCTION {extended}{name}")
                rows = [r[0] for r in df.collect()]
                results.append((df.schema.simpleString(), rows[0], any(r.startswith("Usage: ") for r in rows)))
        assert results[0] == results[1]


def test_unknown_function(diff_error):
    diff_error(lambda s: s.sql("DESCRIBE FUNCTION nosuchfn"), "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT uper('a')"), "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT cnt(1)"), "UNRESOLVED_ROUTINE")
