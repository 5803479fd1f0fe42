"""Scalar functions at the edges the function sweep found, against Apache Spark: CAST of arrays,
maps, structs and ANSI intervals to STRING (default and legacy text), CAST of integrals to
BINARY, the smallest subnormals as text, format_number's DecimalFormat digits and patterns, and
the datetime constructors and conversions past the TIMESTAMP range (saturation, overflow errors,
seconds cast to DECIMAL where the other fields are not null)."""

from __future__ import annotations

import pytest

from harness import session_conf

LA = "America/Los_Angeles"


def sql(query: str):
    return lambda s: s.sql(query)


# ---- CAST of nested values and intervals to STRING -------------------------------------------

NESTED = ("SELECT CAST(array(1, NULL, 3) AS STRING), CAST(map('a', 1, 'b', NULL) AS STRING), "
          "CAST(named_struct('x', NULL, 'y', 2) AS STRING), CAST(array() AS STRING), CAST(map() AS STRING), "
          "CAST(named_struct('x', 1, 'y', NULL) AS STRING), CAST(CAST(NULL AS ARRAY<INT>) AS STRING) AS n, "
          "CAST(array(NULL) AS STRING), CAST(map('', 0, '日本', -1) AS STRING), "
          "CAST(named_struct('x', -5, 'y', 7) AS STRING)")


@pytest.mark.parametrize("legacy", ["false", "true"])
def test_cast_nested_to_string(diff, ember, oracle, legacy):
    with session_conf(ember, oracle, spark_sql_legacy_castComplexTypesToString_enabled=legacy):
        diff(sql(NESTED))
        diff(sql("SELECT CAST(map(1, array(NULL, 2), 2, NULL) AS STRING), "
                 "CAST(array(map('k', named_struct('d', DATE'2024-02-29', 'b', true))) AS STRING), "
                 "CAST(named_struct('a', array(1.5D, CAST('NaN' AS DOUBLE)), 'b', map('x', X'4142')) AS STRING), "
                 "CAST(array(CAST(1.10 AS DECIMAL(4,2)), NULL) AS STRING), "
                 "CAST(array(array(), array(NULL), NULL) AS STRING)"))


def test_cast_nested_timestamps_follow_the_session_zone(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql("SELECT CAST(array(TIMESTAMP'2024-03-10 10:30:00Z', NULL) AS STRING) AS a, "
                 "CAST(map('t', TIMESTAMP_NTZ'2024-03-10 02:30:00') AS STRING) AS m"))


def test_cast_ansi_intervals_to_string(diff):
    diff(sql("SELECT CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING), CAST(INTERVAL '-3' MONTH AS STRING), "
             "CAST(INTERVAL '5' YEAR AS STRING), CAST(make_ym_interval(-1, -2) AS STRING), "
             "CAST(INTERVAL '1 02:03:04.5' DAY TO SECOND AS STRING), "
             "CAST(INTERVAL '-10' HOUR AS STRING), CAST(array(INTERVAL '7' MINUTE) AS STRING)"))


# ---- CAST of integrals to BINARY -------------------------------------------------------------

def test_cast_integral_to_binary_is_legacy(diff, diff_error, ember, oracle):
    query = ("SELECT CAST(127Y AS BINARY), CAST(-2S AS BINARY), CAST(1 AS BINARY), "
             "CAST(-1L AS BINARY), binary(42), CAST(CAST(NULL AS INT) AS BINARY), "
             "CAST(9223372036854775807L AS BINARY), hex(CAST(-2147483648 AS BINARY))")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(sql(query))
    diff_error(sql("SELECT CAST(1 AS BINARY)"), "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION")
    diff_error(sql("SELECT binary(7L)"), "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION")


# ---- Floating point text ---------------------------------------------------------------------

def test_smallest_subnormals_as_text(diff):
    diff(sql("SELECT CAST(CAST('4.9E-324' AS DOUBLE) AS STRING), CAST(CAST('-4.9E-324' AS DOUBLE) AS STRING), "
             "CAST(CAST('1.5E-323' AS DOUBLE) AS STRING), CAST(CAST('4.9E-323' AS DOUBLE) AS STRING), "
             "CAST(CAST('1.4E-45' AS FLOAT) AS STRING), CAST(CAST('2.8E-45' AS FLOAT) AS STRING), "
             "CAST(CAST('7E-45' AS FLOAT) AS STRING), CAST(CAST('1e-44' AS FLOAT) AS STRING), "
             "CAST(CAST('2.2250738585072014E-308' AS DOUBLE) AS STRING), CAST(1e22D AS STRING)"))


# ---- format_number ---------------------------------------------------------------------------

DOUBLES = ["0.0", "-0.0", "0.5", "-1234.5678", "0.125", "0.135", "0.005", "1e-7", "123456789.987",
           "1.005", "2.675", "NaN", "Infinity", "-Infinity", "1.7976931348623157E308", "4.9E-324"]


def test_format_number_digits_of_floats_and_doubles(diff):
    values = ", ".join(f"({k}, CAST('{v}' AS DOUBLE))" for k, v in enumerate(DOUBLES))
    diff(sql(f"SELECT k, format_number(x, 2), format_number(x, 0), format_number(CAST(x AS FLOAT), 3), "
             f"format_number(x, 5) FROM VALUES {values} AS t(k, x)"))
    diff(sql("SELECT format_number(CAST(0.1 AS FLOAT), 9), format_number(CAST(3.4028235E38 AS FLOAT), 1), "
             "format_number(CAST(16777217 AS FLOAT), 1), format_number(CAST(1.4E-45 AS FLOAT), 50)"))


PATTERNS = ["", "#.##", "000.0#", "0.00%", "#,##0.00;(#,##0.00)", "abc#xyz", "#,#0.0", "$#,##0", "#",
            "'x'#", "#,##0.0", "0"]


def test_format_number_patterns(diff):
    cols = ", ".join(f"format_number(x, '{p.replace(chr(39), chr(92) + chr(39))}')" for p in PATTERNS)
    values = ", ".join(f"({k}, CAST('{v}' AS DOUBLE))" for k, v in enumerate(DOUBLES))
    diff(sql(f"SELECT k, {cols} FROM VALUES {values} AS t(k, x)"))
    diff(sql(f"SELECT k, {cols} FROM VALUES (0, 0), (1, -5), (2, 1234567), (3, 2147483647), "
             "(4, -2147483648) AS t(k, x)"))
    diff(sql(f"SELECT k, {cols} FROM VALUES (0, CAST(-0.001 AS DECIMAL(10,3))), (1, CAST(2.345 AS DECIMAL(10,3))), "
             "(2, CAST(2.355 AS DECIMAL(10,3))), (3, CAST(-99999.995 AS DECIMAL(10,3))) AS t(k, x)"))
    diff(sql("SELECT format_number(x, p) FROM VALUES (1.5D, '0.0'), (2.5D, '#,##0'), (1234.5D, NULL), "
             "(NULL, '0') AS t(x, p)"))


# ---- Datetime values past the TIMESTAMP range --------------------------------------------------

def test_cast_bigint_seconds_saturate(diff, ember, oracle):
    query = ("SELECT CAST(CAST(9223372036854775807L AS TIMESTAMP) AS STRING), "
             "CAST(CAST(-9223372036854775808L AS TIMESTAMP) AS STRING), "
             "CAST(CAST(9223372036855L AS TIMESTAMP) AS STRING), CAST(CAST(1700000000L AS TIMESTAMP) AS STRING)")
    for ansi in ("false", "true"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi, spark_sql_session_timeZone=LA):
            diff(sql(query))


def test_cast_wide_decimal_seconds_to_timestamp(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(sql("SELECT CAST(CAST(CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18)) AS TIMESTAMP) AS BIGINT), "
                 "CAST(CAST(CAST('-99999999999999999999.999999999999999999' AS DECIMAL(38,18)) AS TIMESTAMP) AS BIGINT), "
                 "CAST(CAST(CAST('12345678901234567890.123456789' AS DECIMAL(38,9)) AS TIMESTAMP) AS BIGINT), "
                 "CAST(CAST(CAST('12345.678' AS DECIMAL(38,18)) AS TIMESTAMP) AS STRING)"))


def test_timestamp_seconds_out_of_range(diff, diff_error, ember, oracle):
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql("SELECT CAST(timestamp_seconds(1.7976931348623157E308D) AS STRING), "
                 "CAST(timestamp_seconds(-1.7976931348623157E308D) AS STRING), "
                 "CAST(timestamp_seconds(CAST(3.4028235E38 AS FLOAT)) AS STRING), "
                 "timestamp_seconds(CAST('NaN' AS DOUBLE)), timestamp_seconds(CAST('-Infinity' AS DOUBLE)), "
                 "CAST(timestamp_seconds(CAST('9223372036854.775807' AS DECIMAL(38,18))) AS STRING), "
                 "CAST(timestamp_seconds(CAST('-9223372036854.775808' AS DECIMAL(38,18))) AS STRING), "
                 "timestamp_seconds(CAST('1.5' AS DECIMAL(38,18)))"))
        for ansi in ("false", "true"):
            with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
                diff_error(sql("SELECT timestamp_seconds(CAST('9223372036854.775808' AS DECIMAL(38,18)))"),
                           "DATETIME_OVERFLOW")
                diff_error(sql("SELECT timestamp_seconds(CAST('-99999999999999999999.999999999999999999' "
                               "AS DECIMAL(38,18)))"), "DATETIME_OVERFLOW")


def test_add_months_past_the_date_range(diff, diff_error, ember, oracle):
    diff(sql("SELECT CAST(add_months(DATE'9999-12-31', 1) AS STRING), CAST(add_months(DATE'0001-01-01', -1) AS STRING), "
             "CAST(add_months(DATE'2024-01-31', 1000000) AS STRING)"))
    for ansi in ("false", "true"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            diff_error(sql("SELECT add_months(DATE'2024-01-31', 2147483647)"), "ARITHMETIC_OVERFLOW")
            diff_error(sql("SELECT add_months(DATE'0001-01-01', -2147483648)"), "ARITHMETIC_OVERFLOW")


def test_make_timestamp_seconds_cast_to_decimal(diff, diff_error, ember, oracle):
    seconds = ("FROM VALUES (0, CAST('1.5' AS DECIMAL(38,18))), (1, CAST('0.000000000000000001' AS DECIMAL(38,18))), "
               "(2, CAST('59.9999995' AS DECIMAL(38,18))), (3, NULL) AS t(k, s)")
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql(f"SELECT k, make_timestamp(2024, 11, 3, 1, 30, s), try_make_timestamp_ntz(2024, 1, 1, 0, 0, s) {seconds}"))
        wide = "CAST('99999999999999999999.999999999999999999' AS DECIMAL(38,18))"
        diff_error(sql(f"SELECT make_timestamp(2024, 1, 1, 0, 0, {wide})"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
        diff_error(sql(f"SELECT try_make_timestamp(2024, 1, 1, 0, 0, {wide})"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
        diff_error(sql("SELECT try_make_timestamp(2024, 1, 1, 0, 0, 1e20D)"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
        # Where an earlier field is NULL, Spark never casts the seconds.
        diff(sql(f"SELECT make_timestamp(CAST(NULL AS INT), 1, 1, 0, 0, {wide}), "
                 "try_make_timestamp(2024, CAST(NULL AS INT), 1, 0, 0, 1e20D), "
                 "try_make_timestamp(2024, 1, 1, 0, 0, CAST('NaN' AS DOUBLE))"))
        with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
            diff(sql(f"SELECT make_timestamp(2024, 1, 1, 0, 0, {wide}), try_make_timestamp(2024, 1, 1, 0, 0, 1e20D)"))


def test_make_timestamp_years(diff, diff_error, ember, oracle):
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql("SELECT CAST(make_timestamp(100000, 1, 1, 1, 1, 1.5D) AS STRING), "
                 "CAST(make_timestamp(-5, 1, 1, 1, 1, 1.5D) AS STRING), "
                 "try_make_timestamp(2147483647, 1, 1, 1, 1, 1.5D), try_make_timestamp_ntz(-1000000000, 1, 1, 0, 0, 0)"))
        diff_error(sql("SELECT make_timestamp(2147483647, 1, 1, 1, 1, 1.5D)"),
                   "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION")
        with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
            diff(sql("SELECT make_timestamp(2147483647, 1, 1, 1, 1, 1.5D), make_timestamp_ntz(1000000000, 1, 1, 0, 0, 0)"))


def test_make_interval_seconds_cast_where_fields_are_not_null(diff, diff_error, ember, oracle):
    big = "1.7976931348623157E308D"
    diff(sql(f"SELECT CAST(make_interval(CAST(NULL AS INT), 1, 1, 1, 1, 1, {big}) AS STRING), "
             f"CAST(make_dt_interval(1, CAST(NULL AS INT), 1, {big}) AS STRING), "
             "CAST(make_interval(1, 1, 1, 1, 1, 1, CAST('NaN' AS DOUBLE)) AS STRING), "
             "CAST(make_dt_interval(1, 1, 1, CAST('Infinity' AS DOUBLE)) AS STRING), "
             "CAST(make_interval(1, 1, 1, 1, 1, 1, -2.5D) AS STRING), CAST(make_dt_interval(1, 1, 1, 1.5D) AS STRING), "
             "CAST(make_interval(1, 1, 1, 1, 1, 1, '7.25') AS STRING)"))
    diff_error(sql(f"SELECT make_interval(1, 1, 1, 1, 1, 1, {big})"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
    diff_error(sql(f"SELECT try_make_interval(1, 1, 1, 1, 1, 1, {big})"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
    diff_error(sql("SELECT make_dt_interval(1, 1, 1, 1e12D)"), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(sql(f"SELECT CAST(make_interval(1, 1, 1, 1, 1, 1, {big}) AS STRING), "
                 "CAST(make_dt_interval(1, 1, 1, 1e12D) AS STRING)"))


def test_earliest_timestamp_as_text(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql("SELECT CAST(timestamp_micros(-9223372036854775808L) AS STRING), "
                 "CAST(timestamp_micros(9223372036854775807L) AS STRING)"))


# ---- date_format: zone names, eras, offsets and the patterns Spark refuses ------------------------

ZONES = ["America/Los_Angeles", "America/New_York", "America/Phoenix", "Europe/London", "Europe/Paris",
         "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "UTC", "+05:30", "Etc/GMT+3"]
INSTANTS = ["TIMESTAMP'2024-01-15 12:00:00Z'", "TIMESTAMP'2024-07-15 12:00:00Z'", "TIMESTAMP'1800-07-15 12:00:00Z'"]


@pytest.mark.parametrize("zone", ZONES)
def test_date_format_zone_names_and_offsets(diff, ember, oracle, zone):
    pattern = "z|zz|zzz|zzzz|O|OOOO|VV|X|XX|XXX|XXXX|XXXXX|x|xxx|xxxxx|Z|ZZZZ|ZZZZZ"
    cols = ", ".join(f"date_format({t}, '{pattern}') AS c{k}" for k, t in enumerate(INSTANTS))
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(sql(f"SELECT {cols}"))


def test_date_format_generic_zone_names(diff, ember, oracle):
    for zone in ["America/Los_Angeles", "America/New_York", "Europe/Paris", "Asia/Tokyo"]:
        with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
            diff(sql("SELECT date_format(TIMESTAMP'2024-07-15 12:00:00Z', 'v vvvv') AS g"))


def test_date_format_eras_quarters_and_ntz(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_session_timeZone=LA):
        diff(sql("SELECT date_format(TIMESTAMP_NTZ'2024-03-10 02:30:00', 'HH:mm z') AS gap, "
                 "date_format(TIMESTAMP_NTZ'2024-11-03 01:30:00', 'HH:mm z') AS overlap, "
                 "date_format(TIMESTAMP_NTZ'0001-01-01 00:00:00', 'yyyy-MM-dd HH:mm:ss z O G') AS first, "
                 "date_format(DATE'2024-02-29', 'D QQQ QQQQ qqq qqqq F E [yyyy]') AS fields, "
                 "date_format(TIMESTAMP'-0044-03-15 00:00:00', 'yyyy G GGGG') AS bc, "
                 "date_format(TIMESTAMP'-0044-03-15 00:00:00', 'yyyy') AS proleptic, "
                 "date_format(TIMESTAMP'+10000-03-15 00:00:00', 'yyyy yyyyy G') AS wide"))


@pytest.mark.parametrize("pattern,error", [
    ("D w u", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("Y", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("W", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("e", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN"),
    ("c", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN"),
    ("GGGGG", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("MMMMM", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("yyyyyyyyyyy", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("ddd", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("aa", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("zzzzz", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("yyyy#", "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"),
    ("QQQQQ", "INVALID_DATETIME_PATTERN.LENGTH"),
    ("A", "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER"),
    ("n", "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER"),
    ("B", "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER"),
    ("b", "INVALID_DATETIME_PATTERN.WITH_SUGGESTION"),
    ("V", "INVALID_DATETIME_PATTERN.WITH_SUGGESTION"),
    ("OO", "INVALID_DATETIME_PATTERN.WITH_SUGGESTION"),
    ("xxxxxx", "INVALID_DATETIME_PATTERN.WITH_SUGGESTION"),
    ("XXXXXX", "INVALID_DATETIME_PATTERN.WITH_SUGGESTION"),
])
def test_date_format_refused_patterns(diff_error, pattern, error):
    diff_error(sql(f"SELECT date_format(TIMESTAMP'2024-07-04 13:05:06', '{pattern}')"), error)
