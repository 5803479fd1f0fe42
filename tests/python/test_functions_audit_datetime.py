"""Date and time functions at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check
from harness import session_conf

EXPRS = [
    'CAST(date_add(dt, 1) AS STRING)',
    'CAST(date_add(dt, i) AS STRING)',
    'date_sub(dt, 366)',
    'CAST(add_months(dt, 12) AS STRING)',
    'add_months(dt, i)',
    "add_months(DATE'2024-01-31', 1)",
    'months_between(ts, dt)',
    'months_between(ts, dt, false)',
    "months_between(TIMESTAMP'2024-03-31 00:00:00', TIMESTAMP'2024-02-29 00:00:00')",
    "datediff(dt, DATE'1970-01-01')",
    "date_trunc('WEEK', ts)",
    "date_trunc('QUARTER', dt)",
    "date_trunc('bogus', ts)",
    "trunc(dt, 'MM')",
    "trunc(dt, 'YEAR')",
    "trunc(dt, 'x')",
    "date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSS EEE MMM a z')",
    "date_format(dt, 'G yyyy QQQ w u D')",
    "date_format(ts, 'yyyy-MM-dd''T''HH:mm:ssXXX')",
    "to_date('2024-02-30')",
    "to_date('02/29/2024', 'MM/dd/yyyy')",
    "to_date('2023-02-29', 'yyyy-MM-dd')",
    "to_timestamp('garbage')",
    "to_timestamp('12/31/99 23:59', 'MM/dd/yy HH:mm')",
    'unix_timestamp(ts)',
    "unix_timestamp('2024-02-29', 'yyyy-MM-dd')",
    "unix_timestamp('nope', 'yyyy-MM-dd')",
    'from_unixtime(l)',
    "from_unixtime(k * 1000000000, 'yyyy-MM-dd HH:mm:ss EEEE')",
    'year(dt)',
    'month(ts)',
    'day(dt)',
    'dayofmonth(ts)',
    'hour(ts)',
    'minute(ts)',
    'second(ts)',
    'dayofweek(dt)',
    'dayofyear(dt)',
    'weekofyear(dt)',
    'quarter(dt)',
    'last_day(dt)',
    "CAST(next_day(dt, 'TU') AS STRING)",
    "next_day(dt, 'nope')",
    'make_date(2024, 2, 30)',
    'CAST(make_date(i, 1, 1) AS STRING)',
    'make_timestamp(2024, 3, 10, 2, 30, 0)',
    'make_timestamp(2024, 2, 29, 23, 59, 60)',
    'make_timestamp(2024, 2, 29, 23, 59, 59.999999)',
    'make_timestamp(2024, 13, 1, 0, 0, 0)',
    "make_timestamp(2024, 11, 3, 1, 30, 0, 'America/Los_Angeles')",
    "from_utc_timestamp(ts, 'America/Los_Angeles')",
    "to_utc_timestamp(ts, 'America/Los_Angeles')",
    "to_utc_timestamp(TIMESTAMP'2024-03-10 02:30:00', 'America/Los_Angeles')",
    "from_utc_timestamp(ts, 'bogus/zone')",
    "to_utc_timestamp(ts, 'Mars/Base')",
    'timestamp_seconds(l)',
    'timestamp_seconds(d)',
    'CAST(timestamp_seconds(x) AS STRING)',
    'timestamp_millis(l)',
    'CAST(timestamp_micros(l) AS STRING)',
    'timestamp_seconds(i)',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    'add_months(dt, i)': {'true': 'ARITHMETIC_OVERFLOW', 'false': 'ARITHMETIC_OVERFLOW'},
    "date_format(dt, 'G yyyy QQQ w u D')": {'true': 'INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN', 'false': 'INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN'},
    "to_date('2024-02-30')": {'true': 'CAST_INVALID_INPUT'},
    "to_date('2023-02-29', 'yyyy-MM-dd')": {'true': 'CANNOT_PARSE_TIMESTAMP'},
    "to_timestamp('garbage')": {'true': 'CAST_INVALID_INPUT'},
    "unix_timestamp('nope', 'yyyy-MM-dd')": {'true': 'CANNOT_PARSE_TIMESTAMP'},
    "from_unixtime(k * 1000000000, 'yyyy-MM-dd HH:mm:ss EEEE')": {'true': 'ARITHMETIC_OVERFLOW'},
    "next_day(dt, 'nope')": {'true': 'ILLEGAL_DAY_OF_WEEK'},
    'make_date(2024, 2, 30)': {'true': 'DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION'},
    'CAST(make_date(i, 1, 1) AS STRING)': {'true': 'DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION'},
    'make_timestamp(2024, 13, 1, 0, 0, 0)': {'true': 'DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION'},
    "to_utc_timestamp(ts, 'Mars/Base')": {'true': 'INVALID_TIMEZONE', 'false': 'INVALID_TIMEZONE'},
    "from_utc_timestamp(ts, 'bogus/zone')": {'true': 'INVALID_TIMEZONE', 'false': 'INVALID_TIMEZONE'},
    'timestamp_seconds(l)': {'true': 'DATETIME_OVERFLOW', 'false': 'DATETIME_OVERFLOW'},
    'timestamp_millis(l)': {'true': 'DATETIME_OVERFLOW', 'false': 'DATETIME_OVERFLOW'},
}


def test_datetime_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_parse_without_pattern_is_nullable(diff, ember, oracle):
    # to_date(s) and to_timestamp(s) are casts from STRING, nullable even in ANSI mode; with a
    # pattern they are not.
    for ansi in ("true", "false"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            diff(lambda s: s.sql(
                "SELECT to_date('2024-02-29'), to_date('02/29/2024', 'MM/dd/yyyy'), to_timestamp('2024-02-29'), "
                "to_timestamp('2024', 'yyyy'), to_timestamp_ntz('2024-02-29'), unix_timestamp('2024-02-29 00:00:00'), "
                "to_unix_timestamp('2024', 'yyyy'), to_date(s), to_timestamp(s), to_date(s, 'yyyy'), to_date(d), "
                "to_timestamp(d) FROM VALUES ('2024', DATE'2024-02-29') t(s, d)"))
