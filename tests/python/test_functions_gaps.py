"""Differences from Apache Spark that the function audit found: temporal `sequence`, the ANSI
coercion of conditional branches that mix strings and numbers, date arithmetic that wraps,
map_concat's argument check, Java's regex property classes, the names of window functions
called with IGNORE NULLS, floating-point normalization inside nested values, and the names of
literals and typed nulls."""

from __future__ import annotations

import decimal

import pytest

from harness import error_condition, run_for_error, session_conf, session_mode

LA = "America/Los_Angeles"


def both_fail(ember, oracle, program, text):
    """Both engines fail with the same condition (Spark has none for its requirement checks),
    and both messages hold `text`."""
    with session_mode(oracle):
        expected = run_for_error("spark", program, oracle)
    with session_mode(ember):
        actual = run_for_error("ember", program, ember)
    assert text in str(expected), str(expected)[:500]
    assert text in str(actual), str(actual)[:500]
    assert error_condition(actual) == error_condition(expected), (error_condition(actual), str(actual)[:500])


# --- sequence over dates and timestamps ------------------------------------------------------

SEQUENCES = [
    "sequence(DATE'2024-01-31', DATE'2024-05-01', INTERVAL 1 MONTH)",
    "sequence(DATE'2024-05-01', DATE'2024-01-31', INTERVAL -1 MONTH)",
    "sequence(DATE'2024-03-31', DATE'2023-12-01', INTERVAL -1 MONTH)",
    "sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL '1' DAY)",
    "sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL 3 DAY)",
    "sequence(DATE'2024-01-05', DATE'2024-01-01', INTERVAL -2 DAY)",
    "sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL '1 2' DAY TO HOUR)",
    "sequence(DATE'2024-01-01', DATE'2024-01-03', make_interval(0, 0, 0, 1, 12, 0, 0))",
    "sequence(DATE'2024-01-31', DATE'2024-05-01', make_interval(0, 1, 0, 1, 0, 0, 0))",
    "sequence(DATE'2020-02-29', DATE'2028-03-01', INTERVAL '1-0' YEAR TO MONTH)",
    "sequence(TIMESTAMP'2024-03-10 00:00:00', TIMESTAMP'2024-03-10 05:00:00', INTERVAL 1 HOUR)",
    "sequence(TIMESTAMP'2024-03-09 02:30:00', TIMESTAMP'2024-03-12 02:30:00', INTERVAL 1 DAY)",
    "sequence(TIMESTAMP'2024-03-09 02:30:00', TIMESTAMP'2024-03-12 02:30:00', INTERVAL 24 HOUR)",
    "sequence(TIMESTAMP'2024-03-12 02:30:00', TIMESTAMP'2024-03-09 00:00:00', INTERVAL -25 HOUR)",
    "sequence(TIMESTAMP'2024-11-02 01:30:00', TIMESTAMP'2024-11-04 01:30:00', make_interval(0, 0, 0, 1, 1, 0, 0))",
    "sequence(TIMESTAMP'2024-11-03 00:00:00', TIMESTAMP'2024-11-03 03:00:00', INTERVAL '0 00:30:00' DAY TO SECOND)",
    "sequence(TIMESTAMP'2024-01-31 02:30:00', TIMESTAMP'2025-05-12 02:30:00', INTERVAL '1-1' YEAR TO MONTH)",
    "sequence(TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-01-01 00:00:00', INTERVAL 0 HOUR)",
    "sequence(TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-01-03 00:00:00')",
    "sequence(TIMESTAMP'2024-01-03 00:00:00', TIMESTAMP'2024-01-01 00:00:00')",
    "sequence(TIMESTAMP_NTZ'2024-03-09 02:30:00', TIMESTAMP_NTZ'2024-03-12 02:30:00', INTERVAL 1 DAY)",
    "sequence(TIMESTAMP_NTZ'2024-01-31 00:00:00', TIMESTAMP_NTZ'2024-04-01 00:00:00', INTERVAL 1 MONTH)",
    "sequence(DATE'2024-01-01', TIMESTAMP'2024-01-03 00:00:00', INTERVAL 1 DAY)",
    "sequence(DATE'2024-01-01', TIMESTAMP_NTZ'2024-01-03 00:00:00', INTERVAL 12 HOUR)",
    "sequence('2024-01-01', DATE'2024-01-03', INTERVAL 1 DAY)",
    "sequence(DATE'2024-01-01', CAST(NULL AS DATE), INTERVAL 1 DAY)",
    "sequence(DATE'2024-01-01', DATE'2024-01-03', CAST(NULL AS INTERVAL DAY))",
]


@pytest.mark.parametrize("zone", ["UTC", LA])
def test_sequence_of_dates_and_timestamps(diff, ember, oracle, zone):
    # Elements as text, so that the session zone shows in timestamps; the types as they are.
    cols = ", ".join(f"CAST({e} AS STRING) AS c{n}, typeof({e}) AS t{n}" for n, e in enumerate(SEQUENCES))
    with session_conf(ember, oracle, spark_sql_session_timeZone=zone):
        diff(lambda s: s.sql(f"SELECT {cols}"))
        # Over columns, a row per input.
        diff(lambda s: s.sql(
            "SELECT k, CAST(sequence(a, b, st) AS STRING) AS s FROM VALUES "
            "(1, TIMESTAMP'2024-03-09 12:00:00', TIMESTAMP'2024-03-11 12:00:00', INTERVAL '12' HOUR), "
            "(2, TIMESTAMP'2024-11-03 00:30:00', TIMESTAMP'2024-11-03 03:00:00', INTERVAL '45' MINUTE), "
            "(3, NULL, TIMESTAMP'2024-01-01 00:00:00', INTERVAL '1' HOUR) AS t(k, a, b, st)"))


def test_sequence_errors(diff_error, ember, oracle):
    diff_error(lambda s: s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL 3 HOUR)"),
               "_LEGACY_ERROR_TEMP_3242")
    diff_error(lambda s: s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL 0 DAY)"),
               "_LEGACY_ERROR_TEMP_3242")
    diff_error(lambda s: s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL 0 MONTH)"),
               "_LEGACY_ERROR_TEMP_3242")
    diff_error(lambda s: s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-01-03', 1)"),
               "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES")
    diff_error(lambda s: s.sql("SELECT sequence(1, 5, INTERVAL 1 DAY)"),
               "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES")
    diff_error(lambda s: s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-01-03', NULL)"),
               "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES")
    diff_error(lambda s: s.sql(
        "SELECT sequence(TIMESTAMP'0001-01-01 00:00:00', TIMESTAMP'9999-01-05 00:00:00', INTERVAL 1 MINUTE)"),
        "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER")
    diff_error(lambda s: s.sql("SELECT sequence(1, 5000000000L, 1L)"), "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER")
    # Steps away from the stop: Spark's requirement failures, with the bounds in days for a
    # step of whole days between dates and in microseconds otherwise.
    for expr, text in [
        ("sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL -1 DAY)",
         "Illegal sequence boundaries: 19723 to 19727 by -1"),
        ("sequence(DATE'2024-01-01', DATE'2024-01-05', INTERVAL -1 MONTH)",
         "Illegal sequence boundaries: 1704067200000000 to 1704412800000000 by -1"),
        ("sequence(DATE'2024-01-05', DATE'2024-01-01', INTERVAL 25 HOUR)",
         "Illegal sequence boundaries: 1704412800000000 to 1704067200000000 by 90000000000"),
        ("sequence(TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-01-05 00:00:00', INTERVAL -1 HOUR)",
         "Illegal sequence boundaries: 1704067200000000 to 1704412800000000 by -3600000000"),
        ("sequence(TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-01-05 00:00:00', INTERVAL 0 HOUR)",
         "Illegal sequence boundaries: 1704067200000000 to 1704412800000000 by 0"),
        ("sequence(1, 5, -1)", "Illegal sequence boundaries: 1 to 5 by -1"),
        ("sequence(1, 5, 0)", "Illegal sequence boundaries: 1 to 5 by 0"),
    ]:
        both_fail(ember, oracle, lambda s, e=expr: s.sql(f"SELECT {e}"), text)


# --- conditional branches mixing strings and numbers -------------------------------------------

BRANCHES = [
    "CASE WHEN k = 1 THEN 1L ELSE s END",
    "CASE WHEN k = 1 THEN s ELSE 7 END",
    "CASE k WHEN 1 THEN 1.5D ELSE s END",
    "CASE WHEN k = 1 THEN 1.5BD ELSE s END",
    "CASE WHEN k = 1 THEN DATE'2024-01-01' ELSE '2024-02-02' END",
    "coalesce(s, 1)",
    "coalesce(1, s, 3L)",
    "coalesce(s, 1.5D)",
    "coalesce(s, CAST(1 AS TINYINT))",
    "nvl(s, 2)",
    "ifnull(s, 2)",
    "if(k = 1, s, 3)",
    "nvl2(s, 1, '7')",
    "s IN (5, 6)",
    "s IN (1.5D, 5)",
    "s IN ('5', 6)",
    "coalesce(array(s), array(1))",
]


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_branches_mixing_strings_and_numbers(diff, ember, oracle, ansi):
    table = "FROM VALUES (1, '5'), (2, '6'), (3, NULL) AS t(k, s)"
    cols = ", ".join(f"{e} AS c{n}" for n, e in enumerate(BRANCHES))
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql(f"SELECT k, {cols} {table}"))


def test_branch_coercion_errors(diff, diff_error, ember, oracle):
    bad = "FROM VALUES (1, 'a'), (2, 'b') AS t(k, s)"
    with session_conf(ember, oracle, spark_sql_ansi_enabled="true"):
        for e in ["coalesce(s, 1)", "CASE WHEN k = 3 THEN 1L ELSE s END", "if(k = 3, 1, s)", "s IN (1, 2)",
                  "nvl(s, 1.5D)"]:
            diff_error(lambda sp, e=e: sp.sql(f"SELECT {e} {bad}"), "CAST_INVALID_INPUT")
        diff(lambda s: s.sql("SELECT coalesce(true, 'false') AS a, if(k = 1, 'true', false) AS b "
                             "FROM VALUES (1) AS t(k)"))
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        # The legacy rules compare as strings: 'a' is in no list of numbers, and is no error.
        diff(lambda sp: sp.sql(f"SELECT k, coalesce(s, 1), s IN (1, 2), if(k = 3, 1, s) {bad}"))
        diff_error(lambda s: s.sql("SELECT coalesce(true, 'false')"), "DATATYPE_MISMATCH.DATA_DIFF_TYPES")
        diff_error(lambda s: s.sql("SELECT CASE WHEN rand() > 2 THEN X'01' ELSE 'a' END"),
                   "DATATYPE_MISMATCH.DATA_DIFF_TYPES")


# --- date arithmetic that wraps -----------------------------------------------------------------

@pytest.mark.parametrize("ansi", ["true", "false"])
def test_date_plus_days_wraps(diff, ember, oracle, ansi):
    exprs = [
        "try_add(DATE'2024-01-01', 2147483647)",
        "try_add(2147483647, DATE'2024-01-01')",
        "try_add(d, n)",
        "try_subtract(DATE'2024-01-01', -2147483647)",
        "try_subtract(d, n)",
        "date_add(d, n)",
        "date_sub(d, n)",
        "d + n",
    ]
    cols = ", ".join(f"CAST({e} AS STRING) AS c{i}" for i, e in enumerate(exprs))
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
        diff(lambda s: s.sql(
            f"SELECT k, {cols} FROM VALUES (1, DATE'2024-01-01', 2147483647), (2, DATE'1970-01-01', -2147483648), "
            "(3, DATE'9999-12-31', 1), (4, NULL, 1) AS t(k, d, n)"))


# --- map_concat's arguments -----------------------------------------------------------------------

def test_map_concat_with_a_non_map(diff, diff_error):
    for e in ["map_concat(map(1, 2), NULL)", "map_concat(NULL, map(1, 2))", "map_concat(map(1, 2), 'a')",
              "map_concat(map(1, 2), array(1))"]:
        diff_error(lambda s, e=e: s.sql(f"SELECT {e}"), "DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES")
    diff(lambda s: s.sql("SELECT map_concat(map(1, 2), CAST(NULL AS MAP<INT, INT>)) AS a, map_concat() AS b"))


# --- Java's regex property classes --------------------------------------------------------------

PATTERNS = [
    r"\\p{IsHan}", r"\\p{IsLatin}", r"\\p{IsGreek}", r"\\p{InGreek}", r"\\p{InBasicLatin}+",
    r"\\p{InCJK_Unified_Ideographs}", r"\\p{InCJKUnifiedIdeographs}", r"\\p{Lu}", r"\\p{IsLu}", r"\\pL+",
    r"\\PL", r"\\P{IsHan}", r"[\\p{IsHan}a]", r"[^\\p{IsLatin}]", r"\\p{javaLowerCase}",
    r"\\p{javaUpperCase}", r"\\p{javaWhitespace}", r"\\p{Lower}+", r"\\P{Lower}", r"[\\p{Upper}\\d]",
    r"\\p{Punct}", r"\\p{IsWhite_Space}", r"\\p{IsLowercase}", r"\\p{script=Hiragana}",
    r"\\p{sc=Latin}", r"\\p{InHiragana}", r"\\u00e9", r"[\\u0370-\\u03ff]", r"\\0101", r"\\h",
    r"\\p{IsDigit}", r"[\\P{InBasicLatin}]",
]


def test_regex_property_classes(diff):
    strings = ["Héllo Wörld", "日本語 text", "αβγ ΔΕ", "ªº ⅰⅱ Ⅰ", "ひらがな", "A1\u00a0b\u2003c", "", None]
    values = ", ".join("(NULL)" if v is None else f"('{v}')" for v in strings)
    cols = ", ".join(f"s RLIKE '{p}' AS r{n}, regexp_replace(s, '{p}', '_') AS x{n}, regexp_count(s, '{p}') AS n{n}"
                     for n, p in enumerate(PATTERNS))
    diff(lambda s: s.sql(f"SELECT s, {cols} FROM VALUES {values} AS t(s)"))
    diff(lambda s: s.sql(
        r"SELECT regexp_extract_all('Ab Cd éF', '\\p{Lu}', 0) AS a, split('a日b本c', '\\p{IsHan}') AS b, "
        r"regexp_extract('Δx', '(\\p{InGreek})', 1) AS c, regexp_like('Ω', '^\\p{IsGreek}$') AS d, "
        r"regexp_instr('abcΩ', '\\p{InGreek}') AS e, regexp_substr('ab日本', '\\p{IsHan}+') AS f"))


# --- names of window functions with IGNORE NULLS -------------------------------------------------

def test_ignore_nulls_names(diff):
    diff(lambda s: s.sql(
        "SELECT k, first_value(x) IGNORE NULLS OVER w, last_value(x) IGNORE NULLS OVER w, "
        "first_value(x) RESPECT NULLS OVER w, last_value(x) RESPECT NULLS OVER w, first(x) IGNORE NULLS OVER w, "
        "last(x) IGNORE NULLS OVER w, nth_value(x, 2) IGNORE NULLS OVER w, lag(x) IGNORE NULLS OVER w, "
        "lead(x, 1) IGNORE NULLS OVER w, any_value(x) IGNORE NULLS OVER w, first_value(x, true) OVER w "
        "FROM VALUES (1, 1), (2, NULL), (3, 3), (4, NULL) AS t(k, x) WINDOW w AS (ORDER BY k)"))
    diff(lambda s: s.sql(
        "SELECT first_value(x) IGNORE NULLS, last_value(x) IGNORE NULLS, first_value(x, true), "
        "last_value(x) RESPECT NULLS, any_value(x) IGNORE NULLS FROM VALUES (NULL), (1), (3), (NULL) AS t(x)"))


# --- floating-point normalization inside nested values -------------------------------------------

def test_nested_negative_zero_and_nan(diff):
    table = ("FROM VALUES (1, -0.0D), (2, 0.0D), (3, CAST('NaN' AS DOUBLE)), (4, -CAST('NaN' AS DOUBLE)), "
             "(5, NULL) AS t(k, x)")
    # As text: -0.0 and 0.0 compare equal as Python floats.
    diff(lambda s: s.sql(
        "SELECT CAST(sort_array(collect_set(x)) AS STRING) AS a, "
        "CAST(sort_array(collect_set(array(x))) AS STRING) AS b, "
        "CAST(sort_array(collect_set(struct(x))) AS STRING) AS c, "
        "CAST(sort_array(collect_set(named_struct('a', array(x)))) AS STRING) AS d, "
        "CAST(sort_array(collect_set(CAST(x AS FLOAT))) AS STRING) AS e, "
        "CAST(collect_list(array(x)) AS STRING) AS f " + table))
    diff(lambda s: s.sql(
        "SELECT k, CAST(collect_set(array(x)) AS STRING) AS a " + table + " GROUP BY k"))
    diff(lambda s: s.sql(
        "SELECT k, CAST(array_distinct(array(x, 1.0D)) AS STRING) AS a, "
        "CAST(array_union(array(x), array(1.0D)) AS STRING) AS b, "
        "CAST(array_intersect(array(x), array(x)) AS STRING) AS c, "
        "CAST(array_except(array(x), array(1.0D)) AS STRING) AS d, "
        "CAST(array_distinct(array(struct(x))) AS STRING) AS e, "
        "CAST(array_distinct(array(array(x), array(-x))) AS STRING) AS f, "
        "CAST(array_union(array(named_struct('v', x)), array(named_struct('v', 2.0D))) AS STRING) AS g, "
        "CAST(array_distinct(array(CAST(x AS FLOAT))) AS STRING) AS h, "
        "CAST(array(x) AS STRING) AS i " + table))


def test_collect_set_input_types(diff_error):
    diff_error(lambda s: s.sql("SELECT collect_set(map(1, x)) FROM VALUES (1) AS t(x)"),
               "DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT collect_set(collate(x, 'UTF8_LCASE')) FROM VALUES ('a') AS t(x)"),
               "DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE")


# --- ANSI intervals of different fields -----------------------------------------------------------

def test_interval_field_casts_and_widening(diff):
    diff(lambda s: s.sql(
        "SELECT CAST(CAST(INTERVAL '1 02:03:04.5' DAY TO SECOND AS INTERVAL DAY TO HOUR) AS STRING) AS a, "
        "CAST(CAST(INTERVAL '-1 02:03:04.5' DAY TO SECOND AS INTERVAL MINUTE) AS STRING) AS b, "
        "CAST(CAST(INTERVAL '3-7' YEAR TO MONTH AS INTERVAL YEAR) AS STRING) AS c, "
        "CAST(CAST(INTERVAL '-3-7' YEAR TO MONTH AS INTERVAL YEAR) AS STRING) AS d, "
        "CAST(CAST(INTERVAL '3' YEAR AS INTERVAL MONTH) AS STRING) AS e, "
        "CAST(CAST(INTERVAL '-100:59' MINUTE TO SECOND AS INTERVAL HOUR TO MINUTE) AS STRING) AS f, "
        "CAST(coalesce(INTERVAL '12' HOUR, INTERVAL '45' MINUTE) AS STRING) AS g, "
        "typeof(if(rand() < 2, INTERVAL '1' YEAR, INTERVAL '2' MONTH)) AS h"))
    diff(lambda s: s.sql(
        "SELECT k, CAST(x AS STRING) AS x, typeof(x) AS t FROM VALUES (1, INTERVAL '12' HOUR), "
        "(2, INTERVAL '45' MINUTE), (3, NULL) AS v(k, x)"))


# --- names of literals and typed nulls ------------------------------------------------------------

LITERALS = [
    "CAST(NULL AS MAP<INT,INT>)", "CAST(NULL AS ARRAY<INT>)", "CAST(NULL AS STRUCT<a:INT,b:STRING>)",
    "CAST(NULL AS MAP<STRING,ARRAY<INT>>)", "TRY_CAST(NULL AS ARRAY<INT>)", "NULL::ARRAY<INT>",
    "size(CAST(NULL AS ARRAY<INT>))", "coalesce(CAST(NULL AS ARRAY<INT>), array(1))",
    "CAST(NULL AS ARRAY<INT>) IS NULL", "array(CAST(NULL AS ARRAY<INT>))", "CAST(array() AS ARRAY<INT>)",
    "CAST(array(1) AS ARRAY<STRING>)", "CAST(CAST(NULL AS ARRAY<INT>) AS ARRAY<STRING>)",
    "CAST(named_struct('a', 1) AS STRUCT<b:BIGINT>)", "CAST(map(1, 2) AS MAP<STRING,STRING>)",
    "CAST(NULL AS INT)", "CAST(NULL AS DECIMAL(10,2))", "CAST(NULL AS BINARY)", "CAST(NULL AS DATE)",
    "CAST(NULL AS VARIANT)", "NULL", "DATE'2020-01-01'", "TIMESTAMP'2020-01-01 10:00:00'",
    "TIMESTAMP_NTZ'2020-01-01 10:00:00'", "X'0A'", "INTERVAL 1 DAY",
    "INTERVAL 3 HOURS 2 MINUTES", "-INTERVAL 1 DAY", "1.0BD", "-1.0BD", "1Y", "1S", "1L", "1.0D", "1E10",
    "1.5e2D", "1e-3", "1.0F", "12345678901234567890", "2147483648", "-9223372036854775808",
    "0.0000001", "-0.0000001", "0.000001", "0.00000100", "1.0E-7BD", "123E-10BD", "0.0000000",
    "CAST(0.0000001 AS STRING)", "0.00000000000000000000000000000000000001BD",
]


@pytest.mark.parametrize("expr", LITERALS)
def test_literal_names_in_sql(diff, expr):
    diff(lambda s: s.sql(f"SELECT {expr}"))


def test_typed_null_names_in_dataframes(diff):
    def program(s):
        from pyspark.sql import functions as F
        return s.range(1).select(
            F.lit(None).cast("array<int>"), F.lit(None).cast("map<int,int>").isNull(),
            F.lit(None).cast("struct<a:int>"), F.lit(None).cast("int"), F.lit(None),
            F.lit(None).try_cast("array<string>").isNotNull(),
            F.size(F.lit(None).cast("array<int>")))
    diff(program)


def test_cast_to_nested_type_mismatch_names_the_operand(diff_error):
    # Spark names the cast by its operand, so the message says "1", not "CAST(1 AS MAP<...>)".
    err = diff_error(lambda s: s.sql("SELECT CAST(1 AS MAP<INT,INT>)"),
                     "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")
    assert 'Cannot resolve "1"' in str(err), str(err)[:300]


def test_numeric_literals_out_of_range(diff_error):
    err = diff_error(lambda s: s.sql("SELECT 3.4028235E38F"), "INVALID_NUMERIC_LITERAL_RANGE")
    assert "maximum value of 3.4028234663852886E+38" in str(err), str(err)[:300]
    err = diff_error(lambda s: s.sql("SELECT 1E400BD"), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION")
    assert "Decimal precision 401 exceeds" in str(err), str(err)[:300]
    for literal in ["0.0000000000000000000000000000000000000001BD", "0.0000000000000000000000000000000000000001"]:
        err = diff_error(lambda s, v=literal: s.sql(f"SELECT {v}"), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION")
        assert "Decimal precision 40 exceeds" in str(err), str(err)[:300]


@pytest.mark.parametrize("literal", [
    "1.7976931348623158E308D", "-1.7976931348623158E308D", "1.7976931348623158E308", "1.79769313486231571E308D",
    "1.8E308D", "1E309", "3.4028235E38F", "-3.4028236E38F", "3.40282346638528860000001E38F",
    "340282346638528860000000000000000000001F"])
def test_floating_literals_above_the_largest_value(diff_error, literal):
    # Spark compares the literal's exact digits with the largest double (float) as its shortest
    # text gives it, so a literal that would round to the largest value is out of range too.
    err = diff_error(lambda s: s.sql(f"SELECT {literal}"), "INVALID_NUMERIC_LITERAL_RANGE")
    bound = "3.4028234663852886E+38" if literal.endswith("F") else "1.7976931348623157E+308"
    assert err.getMessageParameters() == {
        "rawStrippedQualifier": literal.rstrip("DF"), "minValue": "-" + bound, "maxValue": bound,
        "typeName": "float" if literal.endswith("F") else "double"}, err.getMessageParameters()


def test_floating_literals_up_to_the_largest_value(diff):
    diff(lambda s: s.sql(
        "SELECT 1.7976931348623157E308D a, -1.7976931348623157E308D b, 0.17976931348623157E309D c, "
        "3.4028234663852886E38F d, -3.4028234E38F e, 340282346638528860000000000000000000000F f, 1E-400D g, "
        "4.9E-324D h, 1.4E-45F i, 1E-50F j, 0.0E400D k"))


def test_decimal_literal_beyond_its_declared_type(ember, connect_oracle, connect_differ):
    # A Spark Connect client may declare a decimal literal's type. Spark widens the type to the
    # value's own precision and scale, and a value that then has more integral digits than the
    # type allows fails as Spark's Decimal.changePrecision does, naming the value.
    def literal(text, precision, scale):
        def program(s):
            from pyspark.sql.connect.column import Column
            from pyspark.sql.connect.expressions import LiteralExpression
            from pyspark.sql.types import DecimalType
            return s.range(1).select(Column(LiteralExpression(decimal.Decimal(text), DecimalType(precision, scale))))
        return program

    # The value, the type the client declares, and the type Spark widens it to.
    for text, declared, widened in [("123", (10, 9), "10, 9"), ("1.5", (38, 38), "38, 38"),
                                    ("-123", (38, 37), "38, 37"), ("10.50", (3, 3), "4, 3")]:
        both_fail(ember, connect_oracle, literal(text, *declared),
                  f" {text} cannot be represented as Decimal({widened}). If necessary set")
    connect_differ.diff(literal("123.45", 3, 0))
    connect_differ.diff(literal("99.995", 4, 2))
    err = connect_differ.diff_error(literal("1E+40", 38, 0), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION")
    assert type(err).__name__ == "ArithmeticException", type(err)

    def too_precise(s):
        from pyspark.sql import functions as F
        return s.range(1).select(F.lit(decimal.Decimal("1" * 39)))
    err = connect_differ.diff_error(too_precise, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION")
    assert type(err).__name__ == "ArithmeticException", type(err)


def test_decimal_literal_keeps_its_digits(ember, oracle):
    # PySpark sends lit(Decimal) as DECIMAL(10, 0); Spark Connect widens that to the value's own
    # precision and scale instead of rounding the value. Names and values agree with a classic
    # session; the types (which a classic session infers from the value alone) are those a Spark
    # Connect server of the pinned version gives.
    cases = {"1.50": "decimal(10,2)", "0.001": "decimal(10,3)", "-7": "decimal(10,0)",
             "1E+3": "decimal(10,0)", "12345678901234567890.123": "decimal(23,3)"}

    def program(s):
        from pyspark.sql import functions as F
        return s.range(1).select(*[F.lit(decimal.Decimal(t)) for t in cases])
    with session_mode(oracle):
        expected = program(oracle)
        expected_columns, expected_row = expected.columns, expected.collect()[0]
    with session_mode(ember):
        actual = program(ember)
        assert actual.columns == expected_columns
        assert actual.collect()[0] == expected_row
        assert [f.dataType.simpleString() for f in actual.schema.fields] == list(cases.values())


# --- Java regex constructs RE2 spells or means differently ------------------------------------

JAVA_PATTERNS = [
    r"\\p{IsAlphabetic}+", r"\\p{IsIdeographic}", r"\\p{javaAlphabetic}", r"\\p{javaMirrored}",
    r"\\p{javaIdeographic}+", r"\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*",
    r"\\p{javaUnicodeIdentifierPart}+", r"\\P{IsAlphabetic}", r"[^\\p{L}]", r"[\\P{L}x]", r"[\\P{javaLowerCase}x]+",
    r"[a-z&&[^aeiou]]+", r"[\\p{L}&&[^\\p{Lu}]]", r"[a-z&&def]", r"[\\w&&\\D&&[^_]]+", r"[a[^b-z]]", r"[^a[b]]",
    r"\\R", r"\\v", r"\\V+", r"\\h", r"[\\H]", r"\\s", r"\\S+", r"a.b", r"(?s)a.b", r"(?d)a.b", r"(?i)ab",
    r"(?x) a b  # comment", r"(?x)[a b]", r"(?U)(a+)", r"\\u00e9", r"\\cA", r"b\\z", r"b\\Z", r"[a-c&&b-d]{2}",
    r"(?i)é", r"(?iu)é", r"(?i)[à-å]", r"(?iu)[à-å]+", r"(?i)[^a]", r"(?i)a(?-i)b", r"(?U)\\w+", r"(?U)\\d",
    r"(?U)\\p{Lower}",
]


def test_java_regex_constructs(diff):
    strings = ["ab", "Ab\u0001", "a\rb", "a\nb", "a\u2028b", "x\u000by", "(é) «日» 〇 Ⅻ", "\u00a0\t \u3000", "bcd aei",
               "$x_1 ÀB", "a b", "AB", "É à Å", "٣ 3", "", None]

    def quoted(v):
        return "(NULL)" if v is None else "('" + v.replace("\\", "\\\\").replace("'", "\\'") + "')"
    values = ", ".join(quoted(v) for v in strings)
    cols = ", ".join(f"s RLIKE '{p}' AS r{n}, regexp_replace(s, '{p}', '_') AS x{n}, regexp_count(s, '{p}') AS n{n}"
                     for n, p in enumerate(JAVA_PATTERNS))
    diff(lambda s: s.sql(f"SELECT s, {cols} FROM VALUES {values} AS t(s)"))
    diff(lambda s: s.sql(
        r"SELECT regexp_extract('aaa', '(?U)(a+)', 1) AS a, split('a1b2c', '[\\w&&\\d]') AS b, "
        r"regexp_extract_all('Ab Cd', '[\\p{L}&&[^\\p{Lu}]]+', 0) AS c, "
        r"regexp_extract('xy', '(?<first>x)(y)', 2) AS d, str_to_map('a=1\u2028b=2', '\\R', '=') AS e"))


def test_java_regex_end_before_a_final_line_terminator(diff):
    # Java's $ and \Z also match before a line terminator that ends the input; the match ends
    # there, leaving the terminator out.
    diff(lambda s: s.sql(
        r"SELECT regexp_replace('ab\n', 'b$', 'X') AS a, regexp_count('a\n', '$') AS b, "
        r"regexp_extract('ab\r\n', '(b)\\Z', 0) AS c, split('a\nb\n', '$') AS d, 'ab\n' RLIKE 'b$' AS e, "
        r"regexp_replace('ab\n\n', 'b$', 'X') AS f, regexp_instr('xab\n', 'b$') AS g, "
        r"regexp_extract_all('a\nb\n', '(?m)^\\w$', 0) AS h, regexp_replace('ab\r', '(?d)b$', 'X') AS i, "
        r"regexp_substr('ab\u2028', '\\w$') AS j, regexp_replace('ab\n', '(b$)', '[$1]') AS k"))


def test_java_regex_syntax_errors_and_brackets(diff, diff_error):
    # Java rejects a brace that is no bounded quantifier, and has no POSIX bracket expressions.
    for pattern in ["a{", "{", "a{,2}", "a{1"]:
        diff_error(lambda s, p=pattern: s.sql(f"SELECT regexp_replace('a{{', '{p}', 'x')"),
                   "INVALID_PARAMETER_VALUE.PATTERN")
    diff(lambda s: s.sql("SELECT 'b' RLIKE '[[:alpha:]]' AS a, 'l' RLIKE '[[:alpha:]]' AS b, "
                         "regexp_replace('a}', 'a}', 'x') AS c, regexp_count('aaa', 'a{1,2}') AS d"))


def test_java_regex_constructs_re2_cannot_express(ember):
    # Spark answers these; Ember says plainly that it cannot rather than answering differently.
    from harness import error_condition
    for pattern in [r"(a)\\1", r"a(?=b)", r"(?<=a)b", r"(?>a)", r"a++", r"a{2}+"]:
        with session_mode(ember):
            err = run_for_error("ember", lambda s, p=pattern: s.sql(f"SELECT 'ab' RLIKE '{p}'"), ember)
        assert error_condition(err) == "INVALID_PARAMETER_VALUE.PATTERN", str(err)[:300]
        assert "not supported" in str(err), str(err)[:300]
    # The server keeps serving.
    with session_mode(ember):
        assert ember.sql("SELECT 'ab' RLIKE 'a'").collect()[0][0] is True
