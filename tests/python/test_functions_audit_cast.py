"""Casts between the supported type pairs at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check
from harness import session_conf

EXPRS = [
    'CAST(s AS INT)',
    "CAST(' 12 ' AS INT)",
    "CAST('12.5' AS INT)",
    "CAST('2147483648' AS INT)",
    'CAST(l AS INT)',
    'CAST(x AS INT)',
    'CAST(d AS INT)',
    'CAST(x AS LONG)',
    'CAST(x AS DECIMAL(10, 2))',
    'CAST(dc AS DECIMAL(3, 1))',
    "CAST(' 1.5e3 ' AS DOUBLE)",
    "CAST('inf' AS DOUBLE)",
    "CAST('-Infinity' AS DOUBLE)",
    "CAST('nan' AS FLOAT)",
    "CAST('1e40' AS FLOAT)",
    "CAST(' t ' AS BOOLEAN)",
    "CAST('yes' AS BOOLEAN)",
    "CAST('2' AS BOOLEAN)",
    'CAST(z AS STRING)',
    'CAST(x AS STRING)',
    'CAST(1e7D AS STRING)',
    'CAST(1.0E-4D AS STRING)',
    'CAST(0.001D AS STRING)',
    'CAST(123456789.123D AS STRING)',
    'CAST(CAST(1e7 AS FLOAT) AS STRING)',
    'CAST(CAST(0.1 AS FLOAT) AS DOUBLE)',
    'CAST(dc AS STRING)',
    'CAST(CAST(0.000001 AS DECIMAL(10, 8)) AS STRING)',
    'CAST(dt AS STRING)',
    'CAST(ts AS STRING)',
    "CAST(TIMESTAMP'2024-01-01 00:00:00.120' AS STRING)",
    "CAST(' 2024-02-29 ' AS DATE)",
    "CAST('2024-2-3' AS DATE)",
    "CAST('2024' AS DATE)",
    "CAST('2024-02-29T12' AS DATE)",
    "CAST(CAST('+10000-01-01' AS DATE) AS STRING)",
    "CAST('2024-02-29 25:00' AS TIMESTAMP)",
    "CAST('2024-02-29T12:34:56.1234567' AS TIMESTAMP)",
    "CAST('2024-02-29 12:34:56 America/Los_Angeles' AS TIMESTAMP)",
    "CAST('2024-03-10T02:30:00-08:00' AS TIMESTAMP)",
    'CAST(ts AS DATE)',
    'CAST(dt AS TIMESTAMP)',
    'CAST(ts AS LONG)',
    'CAST(ts AS DOUBLE)',
    'CAST(CAST(l AS TIMESTAMP) AS STRING)',
    'CAST(d AS TIMESTAMP)',
    'CAST(CAST(x AS TIMESTAMP) AS STRING)',
    'CAST(i AS BOOLEAN)',
    'CAST(x AS BOOLEAN)',
    'CAST(dc AS BOOLEAN)',
    'CAST(true AS DECIMAL(1, 0))',
    'CAST(l AS DECIMAL(5, 0))',
    'CAST(l AS FLOAT)',
    'CAST(l AS DOUBLE)',
    'CAST(i AS BYTE)',
    'CAST(i AS SHORT)',
    "CAST(' 0x1A ' AS INT)",
    "CAST('1_000' AS INT)",
    "CAST('-' AS INT)",
    "CAST('+5' AS INT)",
    "CAST('5.' AS DECIMAL(3,1))",
    "CAST('.5' AS DECIMAL(3,1))",
    "CAST('1e2' AS DECIMAL(5,1))",
    'CAST(s AS BINARY)',
    'CAST(CAST(s AS BINARY) AS STRING)',
    'CAST(array(i, NULL) AS STRING)',
    'CAST(map(k, s) AS STRING)',
    "CAST(named_struct('a', i, 'b', s) AS STRING)",
    'CAST(array(d, x) AS ARRAY<INT>)',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    'CAST(s AS INT)': {'true': 'CAST_INVALID_INPUT'},
    "CAST('12.5' AS INT)": {'true': 'CAST_INVALID_INPUT'},
    "CAST('2147483648' AS INT)": {'true': 'CAST_INVALID_INPUT'},
    'CAST(l AS INT)': {'true': 'CAST_OVERFLOW'},
    'CAST(x AS INT)': {'true': 'CAST_OVERFLOW'},
    'CAST(x AS LONG)': {'true': 'CAST_OVERFLOW'},
    'CAST(x AS DECIMAL(10, 2))': {'true': 'NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION'},
    'CAST(dc AS DECIMAL(3, 1))': {'true': 'NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION'},
    "CAST('2' AS BOOLEAN)": {'true': 'CAST_INVALID_INPUT'},
    "CAST('2024-02-29 25:00' AS TIMESTAMP)": {'true': 'CAST_INVALID_INPUT'},
    'CAST(CAST(x AS TIMESTAMP) AS STRING)': {'true': 'CAST_INVALID_INPUT'},
    'CAST(l AS DECIMAL(5, 0))': {'true': 'NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION'},
    'CAST(i AS BYTE)': {'true': 'CAST_OVERFLOW'},
    'CAST(i AS SHORT)': {'true': 'CAST_OVERFLOW'},
    "CAST(' 0x1A ' AS INT)": {'true': 'CAST_INVALID_INPUT'},
    "CAST('1_000' AS INT)": {'true': 'CAST_INVALID_INPUT'},
    "CAST('-' AS INT)": {'true': 'CAST_INVALID_INPUT'},
    'CAST(array(d, x) AS ARRAY<INT>)': {'true': 'CAST_OVERFLOW'},
}


def test_cast_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_string_to_double_special_words(diff, diff_error, ember, oracle):
    # Spark's own words (inf, infinity, nan in any case) and Java's number grammar (NaN and
    # Infinity as written, type suffixes on numbers only, hexadecimal with a binary exponent).
    words = ["inf", "-Infinity", " +inf ", "infd", "Infinityd", "NaNf", "1.5f", "1e3D", "-nan",
             "+NaN", "-NaN", "  INFINITY", "0x1.8p1", "0x10", "1e400", "-1e-400", ".5", "5.", ".",
             "1e", "+-1", "- 1", "1_0", "Inf", "+Infinity", "-INF"]
    values = ", ".join(f"('{w}')" for w in words)
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql(f"SELECT s, CAST(s AS DOUBLE), CAST(s AS FLOAT) FROM VALUES {values} t(s)"))
    diff(lambda s: s.sql(f"SELECT s, try_cast(s AS DOUBLE), try_cast(s AS FLOAT) FROM VALUES {values} t(s)"))
    diff(lambda s: s.sql("SELECT CAST('inf' AS DOUBLE), CAST(' -infinity ' AS FLOAT), CAST('NaN' AS DOUBLE)"))
    diff_error(lambda s: s.sql("SELECT CAST('infd' AS DOUBLE)"), "CAST_INVALID_INPUT")


def test_string_to_integral_fraction_only_in_legacy_mode(diff, diff_error, ember, oracle):
    # The legacy cast drops a fractional part; the ANSI cast and try_cast reject it.
    values = "VALUES ('12.5'), (' 7. '), ('.5'), ('-3.9'), ('12'), (' -0 ')"
    diff(lambda s: s.sql(f"SELECT s, try_cast(s AS INT), try_cast(s AS BIGINT), try_cast(s AS SMALLINT), "
                         f"try_cast(s AS TINYINT) FROM {values} t(s)"))
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql(f"SELECT s, CAST(s AS INT), CAST(s AS BIGINT), try_cast(s AS INT) FROM {values} t(s)"))
    for t in ("INT", "BIGINT", "SMALLINT", "TINYINT"):
        diff_error(lambda s: s.sql(f"SELECT CAST(s AS {t}) FROM VALUES ('12.5') t(s)"), "CAST_INVALID_INPUT")
