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


def test_show_user_functions_lists_no_builtin(diff):
    # Other tests register Python functions of their own: only built-in names are asked for.
    diff(lambda s: s.sql("SHOW USER FUNCTIONS LIKE 'abs|upper|regexp*|explode'"))


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


# Functions Spark lists that Ember does not implement yet, with the reason. A name Ember gains
# must leave this table, and a name Spark lists that is neither here nor in Ember fails.
SPARK_ONLY = {
    **dict.fromkeys(["approx_top_k", "approx_top_k_accumulate", "approx_top_k_combine",
                     "approx_top_k_estimate"], "the approx_top_k sketches"),
    **dict.fromkeys(["from_avro", "to_avro", "schema_of_avro"], "Avro"),
    **dict.fromkeys(["from_protobuf", "to_protobuf"], "Protobuf"),
    **dict.fromkeys(["st_asbinary", "st_geogfromwkb", "st_geomfromwkb", "st_setsrid", "st_srid"],
                    "the geospatial types"),
    "current_path": "the SQL path",
    **dict.fromkeys(["localtime", "timestamp_nanos", "unix_nanos"],
                    "the local time and nanosecond functions"),
    "python_worker_logs": "the table-valued function of the Python workers' logs",
    "measure": "not implemented",
}


def _names(spark):
    # SYSTEM: the Python functions other tests register are not the built-ins compared here.
    with session_mode(spark):
        return [r[0] for r in spark.sql("SHOW SYSTEM FUNCTIONS").collect()]


def test_show_functions_lists_what_spark_lists(ember, oracle):
    ember_names, spark_names = _names(ember), _names(oracle)
    assert ember_names == sorted(ember_names)
    assert sorted(set(ember_names) - set(spark_names)) == []
    assert sorted(set(spark_names) - set(ember_names)) == sorted(SPARK_ONLY)


# Registered functions, aliases, operators and the forms the analyzer and parser resolve.
DESCRIBED = ["abs", "`+`", "regexp_extract", "percentile", "std", "coalesce", "nvl", "if", "when",
             "case", "`||`", "`<>`", "`!=`", "between", "in", "int", "date", "date_part", "extract",
             "explode", "stack", "row_number", "lag", "grouping_id", "current_schema", "count",
             "datepart", "curdate", "session_window", "current_user", "uuid", "raise_error"]


@pytest.mark.parametrize("name", DESCRIBED)
def test_describe_function(ember, oracle, name):
    # Spark names a JVM class and words its usage itself; the lines, their order, the name and
    # the version a function appeared in are Ember's too.
    for extended in ("", "EXTENDED "):
        results = []
        for spark in (ember, oracle):
            with session_mode(spark):
                df = spark.sql(f"DESCRIBE FUNCTION {extended}{name}")
                rows = [r[0] for r in df.collect()]
            results.append((df.schema.simpleString(), rows[0], [r.split(":")[0] for r in rows], rows))
        (e_schema, e_name, e_heads, e_rows), (s_schema, s_name, s_heads, s_rows) = results
        assert (e_schema, e_name, e_heads) == (s_schema, s_name, s_heads)
        if extended:
            since = [line for line in e_rows[-1].split("\n") if "Since: " in line]
            if since:
                assert since[0] in s_rows[-1].split("\n")


def _examples(extended_usage):
    """The (query, shown result) pairs of an `Extended Usage:` block."""
    out, query, result = [], None, []
    for line in extended_usage.split("\n"):
        if line.startswith("      > "):
            if query:
                out.append((query, "\n".join(result)))
            query, result = line[len("      > "):].rstrip(";"), []
        elif query and line.startswith("       "):
            result.append(line[len("       "):])
        elif query:
            out.append((query, "\n".join(result)))
            query, result = None, []
    if query:
        out.append((query, "\n".join(result)))
    return out


def _shown(value):
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(_shown(v) if not isinstance(v, str) else f'"{v}"' for v in value) + "]"
    return str(value)


def test_documented_examples_give_their_results(ember):
    # Every example DESCRIBE FUNCTION EXTENDED shows runs and gives the result it shows.
    checked = 0
    with session_mode(ember):
        for name in _names(ember):
            quoted = name if name[0].isalpha() else f"`{name}`"
            extended = ember.sql(f"DESCRIBE FUNCTION EXTENDED {quoted}").collect()[-1][0]
            for query, shown in _examples(extended):
                rows = ember.sql(query).collect()
                got = "\n".join("\t".join(_shown(v) for v in row) for row in rows)
                assert got == shown, (name, query)
                checked += 1
    assert checked > 0


def test_catalog_knows_special_forms(ember, oracle):
    names = ["coalesce", "when", "row_number", "explode", "int", "date_part"]
    results = []
    for spark in (ember, oracle):
        with session_mode(spark):
            exists = [spark.catalog.functionExists(n) for n in names]
            got = [(f.name, f.isTemporary, f.description is not None, f.className is not None)
                   for f in (spark.catalog.getFunction(n) for n in names)]
            listed = [f.name for f in spark.catalog.listFunctions(pattern="coalesce|row_number|explode*")]
        results.append((exists, got, listed))
    assert results[0] == results[1]


def test_unknown_function(diff_error):
    diff_error(lambda s: s.sql("DESCRIBE FUNCTION nosuchfn"), "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT uper('a')"), "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT cnt(1)"), "UNRESOLVED_ROUTINE")


def test_current_catalog_and_schema(diff):
    diff(lambda s: s.sql("SELECT current_catalog(), current_database(), current_schema()"))
