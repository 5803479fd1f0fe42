"""Every aggregate Ember registers, and the window functions, over columns of edge values against
Apache Spark, with ANSI mode off and on.

EDGE holds groups of rows chosen for their edges: a group of NULLs only, typical values with
duplicates, the integral and DECIMAL(38,18) limits where sums and averages overflow, NaN,
±Infinity and ±0.0, and multi-byte UTF-8 strings. AGGREGATES lists the calls of each aggregate;
one query per ANSI mode and shape runs them all, grouped by `g`, without GROUP BY, and over the
empty input both ways. Where either engine fails, the calls run in halves until each failure is
one call's, which must raise Spark's error class. test_every_aggregate_is_swept reads the
catalog, so an aggregate Ember adds must get an entry here or a reason in NOT_SWEPT.

WINDOWS runs the ranking, offset and frame functions over partitions with ties and NULLs.
"""

from __future__ import annotations

import pytest

from harness import schema_fields, session_conf, session_mode, to_plain, values_equal
from test_functions_sweep import condition_of

ZONE = "America/Los_Angeles"

# (g, i, l, d, m, st, bo, dt, ts): g 0 holds NULLs only; g 5 has a single row.
_NULLS = ["NULL"] * 8
EDGE_ROWS = [
    [0] + _NULLS,
    [0] + _NULLS,
    [1, "10", "10", "1.5", "1.5", "'b'", "true", "'2024-02-29'", "'2024-03-10 02:30:00'"],
    [1, "20", "20", "-2.5", "-2.5", "'a'", "false", "'1970-01-01'", "'2024-11-03 01:30:00'"],
    [1, "10", "10", "1.5", "1.5", "'b'", "true", "'2024-02-29'", "'2024-03-10 02:30:00'"],
    [1, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"],
    [2, "2147483647", "9223372036854775807", "1.7976931348623157E308",
     "'99999999999999999999.999999999999999999'", "'z'", "true", "'9999-12-31'",
     "'9999-12-31 23:59:59.999999'"],
    [2, "2147483647", "9223372036854775807", "1.7976931348623157E308",
     "'99999999999999999999.999999999999999999'", "'y'", "true", "'0001-01-01'",
     "'1900-02-28 12:00:00'"],
    [3, "-2147483648", "-9223372036854775808", "'NaN'",
     "'-99999999999999999999.999999999999999999'", "''", "false", "'1969-12-31'",
     "'1969-12-31 23:59:59'"],
    [3, "0", "0", "'Infinity'", "'0.000000000000000001'", "' '", "true", "'2000-02-29'",
     "'2024-11-03 01:00:00'"],
    [3, "-1", "-1", "'-Infinity'", "0", "'a'", "false", "'2023-12-31'", "'2024-03-10 01:59:59'"],
    [3, "1", "1", "'-0.0'", "-0.5", "'a'", "true", "'2024-03-10'", "'1970-01-01 00:00:00'"],
    [3, "1", "1", "'0.0'", "0.5", "'b'", "NULL", "'2024-11-03'", "NULL"],
    [4, "3", "3", "0.1", "12345.678", "'ß'", "true", "'2024-02-29'", "'2024-02-29 23:59:59.999999'"],
    [4, "3", "3", "0.2", "12345.678", "'日本語'", "true", "NULL", "'2024-02-29 12:00:00'"],
    [4, "4", "4", "0.3", "-0.000000000000000001", "'😀x'", "false", "'2024-02-28'", "NULL"],
    [4, "NULL", "5", "NULL", "1", "'日本語'", "NULL", "'2024-03-01'", "'2024-03-01 00:00:00'"],
    [5, "7", "7", "-0.0", "7", "'ǅ'", "false", "'1900-02-28'", "'1883-11-18 12:00:00'"],
]
TYPES = ["int", "bigint", "double", "decimal(38,18)", "string", "boolean", "date", "timestamp"]
NAMES = ["i", "l", "d", "m", "st", "bo", "dt", "ts"]


def edge_sql() -> str:
    rows = []
    for row in EDGE_ROWS:
        values = [str(row[0])] + [f"CAST({v} AS {t})" for v, t in zip(row[1:], TYPES)]
        rows.append("(" + ", ".join(values) + ")")
    return f"SELECT * FROM VALUES {', '.join(rows)} AS edge(g, {', '.join(NAMES)})"


NUMS = ["i", "l", "d", "m"]
ORDERED = NUMS + ["st", "bo", "dt", "ts"]


def calls(name, *arg_lists):
    return [(name, f"{name}({args})") for args in arg_lists]


# Each aggregate's calls. Aggregates whose order of rows shows in the result (collect_list) are
# sorted; sketches are read through their estimate functions.
AGGREGATES = [
    *calls("count", "1", "i", "DISTINCT i", "st", "d", "i, st", "DISTINCT st"),
    *[c for n in ["sum", "try_sum", "avg", "mean", "try_avg"] for c in calls(n, *NUMS, "DISTINCT i")],
    *[c for n in ["min", "max"] for c in calls(n, *ORDERED)],
    *[c for n in ["bit_and", "bit_or", "bit_xor"] for c in calls(n, "i", "l")],
    *[c for n in ["bool_and", "bool_or", "every", "some", "any", "count_if"] for c in calls(n, "bo")],
    *[c for n in ["first", "last", "first_value", "last_value", "any_value"]
      for c in calls(n, "i", "i, true", "st, true")],
    *[c for n in ["max_by", "min_by"] for c in calls(n, "st, i", "i, d", "dt, st", "i, l, 2")],
    *calls("mode", "i", "st", "d"),
    ("collect_list", "sort_array(collect_list(st))"),
    ("array_agg", "sort_array(array_agg(i))"),
    ("collect_set", "sort_array(collect_set(d))"),
    ("collect_set", "sort_array(collect_set(st))"),
    ("collect_union", "sort_array(collect_union(array(i, i + 1)))"),
    ("listagg", "listagg(st, '|') WITHIN GROUP (ORDER BY st)"),
    ("string_agg", "string_agg(DISTINCT st) WITHIN GROUP (ORDER BY st)"),
    *[c for n in ["std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
                  "skewness", "kurtosis"] for c in calls(n, "i", "d", "m")],
    *[c for n in ["corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count",
                  "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy"]
      for c in calls(n, "d, i", "i, l", "m, i")],
    *calls("percentile", "i, 0.5", "d, array(0.25, 0.75)", "l, 0.3, 2"),
    *calls("median", "i", "d", "m"),
    ("percentile_cont", "percentile_cont(0.25) WITHIN GROUP (ORDER BY i)"),
    ("percentile_cont", "percentile_cont(0.5) WITHIN GROUP (ORDER BY d DESC)"),
    ("percentile_disc", "percentile_disc(0.25) WITHIN GROUP (ORDER BY i)"),
    ("percentile_disc", "percentile_disc(0.5) WITHIN GROUP (ORDER BY m)"),
    *[c for n in ["percentile_approx", "approx_percentile"]
      for c in calls(n, "i, 0.5", "d, array(0.1, 0.9), 100", "m, 0.5", "dt, 0.5", "ts, 0.5")],
    *calls("approx_count_distinct", "i", "st", "d", "m, 0.1D"),
    *calls("histogram_numeric", "i, 3", "d, 2"),
    ("count_min_sketch", "hex(count_min_sketch(i, 0.5D, 0.5D, 1))"),
    ("hll_sketch_agg", "hll_sketch_estimate(hll_sketch_agg(i))"),
    ("hll_sketch_agg", "hll_sketch_estimate(hll_sketch_agg(st, 10))"),
    ("theta_sketch_agg", "theta_sketch_estimate(theta_sketch_agg(l))"),
    ("kll_sketch_agg_bigint", "kll_sketch_get_n_bigint(kll_sketch_agg_bigint(l))"),
    ("kll_sketch_agg_double", "kll_sketch_get_quantile_double(kll_sketch_agg_double(d), 0.5)"),
    ("kll_sketch_agg_float", "kll_sketch_get_n_float(kll_sketch_agg_float(CAST(d AS FLOAT)))"),
    ("bitmap_construct_agg", "bitmap_count(bitmap_construct_agg(bitmap_bit_position(i)))"),
    ("tuple_sketch_agg_double", "tuple_sketch_estimate_double(tuple_sketch_agg_double(i, d))"),
    ("tuple_sketch_agg_integer", "tuple_sketch_estimate_integer(tuple_sketch_agg_integer(st, i))"),
]

# Registered aggregates left to other tests, with the reason.
NOT_SWEPT = {
    **dict.fromkeys(["hll_union_agg", "theta_union_agg", "theta_intersection_agg",
                     "kll_merge_agg_bigint", "kll_merge_agg_double", "kll_merge_agg_float",
                     "tuple_union_agg_double", "tuple_union_agg_integer",
                     "tuple_intersection_agg_double", "tuple_intersection_agg_integer",
                     "bitmap_or_agg", "bitmap_and_agg"],
                    "aggregates sketch images another aggregate builds: the sketch test files"),
    "schema_of_variant_agg": "VARIANT values: test_variant.py",
    **dict.fromkeys(["vector_sum", "vector_avg"],
                    "ARRAY<FLOAT> vectors of equal length: test_functions_misc.py"),
}

# Calls whose difference from Spark (in either ANSI mode) is known and not fixed yet, by reason.
# Two causes recur. Spark plans the sweep's query, which mixes several DISTINCT aggregates, with
# an Expand and a second aggregation that reorders the rows of a group; in a query of their own,
# first/last and max_by/min_by ties follow input order in both engines
# (test_functions_aggregate_order.py). And Spark's local[2] runs the VALUES table as two
# partitions (rows 0-8 and 9-17) where Ember runs it as one, in order; aggregates whose overflow
# Spark decides per partition then differ.
_PARTITIONS = "the VALUES table's partitions (two in Spark, one in Ember): "
KNOWN = {
    **dict.fromkeys([f"{n}({a})" for n in ["first", "last", "first_value", "last_value", "any_value"]
                     for a in ["i", "i, true", "st, true"]],
                    "first/last/any_value without an order: Spark's Expand for this query's DISTINCT "
                    "aggregates reorders the rows of a group; Ember keeps input order"),
    "max_by(st, i)": "max_by/min_by among rows of equal keys: Spark's Expand for this query's DISTINCT "
                     "aggregates reorders the rows of a group; Ember takes the last row in input order",
    "min_by(st, i)": "max_by/min_by among rows of equal keys: Spark's Expand for this query's DISTINCT "
                     "aggregates reorders the rows of a group; Ember takes the last row in input order",
    "sum(m)": _PARTITIONS + "grouped, Spark's sum of group 3 comes back into range across its "
              "partitions where Ember's running sum leaves it",
    "try_sum(m)": _PARTITIONS + "the grouped sum of group 3 leaves DECIMAL(38,18) in Ember's running "
                  "sum and comes back across Spark's two partitions",
    "try_sum(l)": _PARTITIONS + "try_sum of BIGINT is null where a partition's running sum overflows; "
                  "group 3's running sum overflows in one engine's partitions and not in the other's",
    **dict.fromkeys(["regr_intercept(i, l)", "regr_intercept(m, i)"],
                    "regr_intercept near the integral limits: rounding of the co-moment update"),
    "histogram_numeric(d, 2)": "histogram_numeric over NaN and ±Infinity: bins merged differently",
}


def run_query(spark, query):
    """("ok", field types, rows) or ("error", error class)."""
    with session_mode(spark):
        try:
            df = spark.sql(query)
            fields = schema_fields(df.schema)
            rows = [tuple(to_plain(v) for v in row) for row in df.collect()]
        except Exception as exc:  # noqa: BLE001 - the error is the result
            return ("error", condition_of(exc))
    return ("ok", [f"{f.type}{'' if f.nullable else ' NOT NULL'}" for f in fields], rows)


SHAPES = {
    "grouped": ("SELECT g, {} FROM edge GROUP BY g ORDER BY g", 1),
    "ungrouped": ("SELECT {} FROM edge", 0),
    "empty_grouped": ("SELECT g, {} FROM edge WHERE g < 0 GROUP BY g", 1),
    "empty": ("SELECT {} FROM edge WHERE g < 0", 0),
}


def differences(ember, oracle, shape, expressions):
    """Expression -> how Ember differs from Spark, halving the calls where a query fails."""
    template, keys = SHAPES[shape]
    query = f"WITH edge AS ({edge_sql()}) " + template.format(
        ", ".join(f"{e} AS c{j}" for j, e in enumerate(expressions)))
    expected, actual = run_query(oracle, query), run_query(ember, query)
    if expected[0] == "ok" and actual[0] == "ok":
        out = {}
        for j, e in enumerate(expressions):
            c = keys + j
            if expected[1][c] != actual[1][c]:
                out[e] = f"type: spark {expected[1][c]}, ember {actual[1][c]}"
                continue
            bad = [(row[0], row[c], other[c]) for row, other in zip(expected[2], actual[2])
                   if not values_equal(row[c], other[c], 1e-9)]
            if bad or len(expected[2]) != len(actual[2]):
                k, s, m = bad[0] if bad else (None, len(expected[2]), len(actual[2]))
                out[e] = f"{len(bad)} rows differ; first {k}: spark {s!r}, ember {m!r}"
        return out
    if len(expressions) == 1:
        # A Java exception without a class matches any error; results neither client can hold
        # (timestamps beyond year 9999) match each other.
        both_unconvertible = all(r[0] == "error" and r[1].startswith("client:") for r in (expected, actual))
        if expected != actual and not both_unconvertible and not (
                expected[0] == "error" and expected[1].startswith("java:")):
            return {expressions[0]: f"spark {expected[1] if expected[0] == 'error' else 'returns'}, "
                                    f"ember {actual[1] if actual[0] == 'error' else 'returns'}"}
        return {}
    half = len(expressions) // 2
    return {**differences(ember, oracle, shape, expressions[:half]),
            **differences(ember, oracle, shape, expressions[half:])}


@pytest.mark.parametrize("ansi", ["false", "true"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_aggregate_sweep(ember, oracle, shape, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi, spark_sql_session_timeZone=ZONE):
        found = differences(ember, oracle, shape, [e for _, e in AGGREGATES])
    unexpected = {e: p for e, p in found.items() if e not in KNOWN}
    assert not unexpected, "\n".join(f"{e}: {p}" for e, p in unexpected.items())


def test_every_aggregate_is_swept(ember):
    # The catalog names aggregates' classes in an `aggregate` package, as Spark does.
    with session_mode(ember):
        registered = {f.name for f in ember.catalog.listFunctions() if ".aggregate." in (f.className or "")}
    assert registered, "the catalog lists no aggregates"
    swept = {name for name, _ in AGGREGATES}
    missing = sorted(registered - swept - set(NOT_SWEPT))
    assert not missing, f"aggregates with no sweep entry and no reason in NOT_SWEPT: {missing}"
    stale = sorted((swept | set(NOT_SWEPT)) - registered)
    assert not stale, f"sweep entries for aggregates Ember does not register: {stale}"


# Partitions with ties in the ordering and NULL values, plus one of a single row.
WINDOW_TABLE = ("SELECT * FROM VALUES (1, 1, 10), (1, 1, NULL), (1, 2, 30), (1, 4, NULL), (1, 4, 50), "
                "(1, NULL, 60), (2, 5, NULL), (2, 5, 8), (2, 6, 7), (3, 0, 1) AS w(p, o, v)")
_SPEC = "PARTITION BY p ORDER BY o, v"
WINDOWS = [
    f"row_number() OVER ({_SPEC})",
    "rank() OVER (PARTITION BY p ORDER BY o)",
    "dense_rank() OVER (PARTITION BY p ORDER BY o)",
    "percent_rank() OVER (PARTITION BY p ORDER BY o)",
    "cume_dist() OVER (PARTITION BY p ORDER BY o)",
    f"ntile(3) OVER ({_SPEC})",
    f"ntile(20) OVER ({_SPEC})",
    f"lag(v) OVER ({_SPEC})",
    f"lag(v, 2, -1) OVER ({_SPEC})",
    f"lead(v, 1, 0) OVER ({_SPEC})",
    f"lead(v, 3) OVER ({_SPEC})",
    f"lag(v) IGNORE NULLS OVER ({_SPEC})",
    f"lead(v, 1, -5) IGNORE NULLS OVER ({_SPEC})",
    f"nth_value(v, 2) OVER ({_SPEC})",
    f"nth_value(v, 2) IGNORE NULLS OVER ({_SPEC})",
    f"nth_value(v, 1) OVER ({_SPEC} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
    f"counter_diff(v) OVER ({_SPEC})",
    f"counter_diff(o) OVER (PARTITION BY p ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
    f"first_value(v, true) OVER ({_SPEC})",
    f"last_value(v, true) OVER ({_SPEC})",
    f"last_value(v) OVER ({_SPEC} ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
    f"sum(v) OVER ({_SPEC} ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
    f"avg(v) OVER ({_SPEC} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
    f"count(v) OVER ({_SPEC} ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING)",
    "sum(v) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW)",
    "min(v) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING)",
    "max(v) OVER (PARTITION BY p ORDER BY o DESC RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
    "count(*) OVER (PARTITION BY p ORDER BY o)",
    "sum(v) OVER (PARTITION BY p)",
    "stddev(v) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
    "sort_array(collect_list(v) OVER (PARTITION BY p ORDER BY o))",
]


@pytest.mark.parametrize("ansi", ["false", "true"])
def test_window_sweep(ember, oracle, ansi):
    columns = ", ".join(f"{e} AS c{j}" for j, e in enumerate(WINDOWS))
    query = f"SELECT p, o, v, {columns} FROM ({WINDOW_TABLE}) ORDER BY p, o NULLS LAST, v NULLS LAST"
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        expected, actual = run_query(oracle, query), run_query(ember, query)
    assert expected[0] == actual[0] == "ok", (expected[:2], actual[:2])
    problems = []
    for j, e in enumerate(WINDOWS):
        c = 3 + j
        if expected[1][c] != actual[1][c]:
            problems.append(f"{e}: type: spark {expected[1][c]}, ember {actual[1][c]}")
            continue
        bad = [(row[:3], row[c], other[c]) for row, other in zip(expected[2], actual[2])
               if not values_equal(row[c], other[c], 1e-9)]
        if bad:
            problems.append(f"{e}: {len(bad)} rows differ; first {bad[0]}")
    assert not problems, "\n".join(problems)
