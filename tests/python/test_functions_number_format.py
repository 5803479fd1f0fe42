"""to_number, try_to_number, to_char and to_varchar against Apache Spark: the number format
language (digit runs, separators, sign, currency and bracket tokens), result types, NULLs, the
rewrite of to_char on dates and binary, and every INVALID_FORMAT error."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

PARSES = [
    ("454", "999"), ("454.00", "000.00"), ("12,454", "99,999"), ("$78.12", "$99.99"),
    ("12,454.8-", "99,999.9S"), ("-12", "S99"), ("+12", "S99"), ("12-", "99MI"), ("<12>", "99PR"),
    ("12", "99PR"), (" 12", "999"), ("12 ", "999"), ("1 2", "999"), ("- 12", "S999"),
    ("$ 12", "$999"), ("12.5 ", "99.9"), ("12", "99MI"), ("12+", "99S"), ("12-", "99S"),
    ("1,2", "9,9"), ("1.5", "9D9"), (".5", ".9"), ("5.", "9."), ("0005", "0000"), ("5", "9.99"),
    ("5.1", "9.99"), ("12,345,678", "999,999,999"), ("45,678", "999G999G999"), ("1,234", "9,999,999"),
    ("1,23", "9,999"), ("1,234", "99,9,999"), ("1", "0.00"), (",123", "9,999"), ("1,", "9,9"),
    ("0,123", "0,999"), ("0,12", "0,99"), ("-0", "S9"), ("-.5", "S.9"), ("123.", "999.99"),
    ("-$12", "S$99"), ("12", "s99"), ("1.5", "9d9"),
]

MISMATCHES = [
    ("1", "099"), ("1234", "999"), ("12", "0999"), ("1.23", "9.9"), ("abc", "999"), ("12", "9G9"),
    ("12345,678", "999,999,999"), ("12", "$99"), ("12", "S9MI"), ("-12", "99S"), ("12-", "S99"),
    ("-", "S9"), (".1", "0.00"), ("01", "0.00"), ("12,3", "99,9,999"), ("  -12", "S999"),
    ("123", "9,99"), ("12", "0,99"), ("012", "0,99"), ("<12", "99PR"), ("12>", "99PR"), ("", "9"),
]

BAD_FORMATS = [
    ("", "INVALID_FORMAT.EMPTY"), ("abc", "INVALID_FORMAT.WRONG_NUM_DIGIT"),
    (".", "INVALID_FORMAT.WRONG_NUM_DIGIT"), ("$", "INVALID_FORMAT.WRONG_NUM_DIGIT"),
    ("9,", "INVALID_FORMAT.CONT_THOUSANDS_SEPS"), (",9", "INVALID_FORMAT.CONT_THOUSANDS_SEPS"),
    ("9,,9", "INVALID_FORMAT.CONT_THOUSANDS_SEPS"), ("99$", "INVALID_FORMAT.CUR_MUST_BEFORE_DIGIT"),
    ("9$9", "INVALID_FORMAT.CUR_MUST_BEFORE_DIGIT"), ("S99S", "INVALID_FORMAT.WRONG_NUM_TOKEN"),
    ("99.9.9", "INVALID_FORMAT.WRONG_NUM_TOKEN"), ("$$99", "INVALID_FORMAT.WRONG_NUM_TOKEN"),
    ("9.9,9", "INVALID_FORMAT.THOUSANDS_SEPS_MUST_BEFORE_DEC"), ("999 ", "INVALID_FORMAT.UNEXPECTED_TOKEN"),
    ("9x9", "INVALID_FORMAT.UNEXPECTED_TOKEN"), ("$S99", "INVALID_FORMAT.UNEXPECTED_TOKEN"),
    ("MIS99", "INVALID_FORMAT.UNEXPECTED_TOKEN"), ("PR99", "INVALID_FORMAT.UNEXPECTED_TOKEN"),
    ("99PRS", "INVALID_FORMAT.UNEXPECTED_TOKEN"),
]


def sq(text: str) -> str:
    return "'" + text.replace("'", "\\'") + "'"


def test_to_number_parses(diff):
    cols = ", ".join(f"to_number({sq(i)}, {sq(f)})" for i, f in PARSES)
    diff(lambda s: s.sql(f"SELECT {cols}"))
    types = ", ".join(f"typeof(to_number({sq(i)}, {sq(f)}))" for i, f in PARSES[:12])
    diff(lambda s: s.sql(f"SELECT {types}"))


def test_to_number_columns_and_nulls(diff):
    rows = ["454", "12,454.8-", "1.25", "99.5+", None]
    diff(lambda s: s.createDataFrame(list(enumerate(rows)), "k int, e string")
         .select("k", F.to_number("e", F.lit("99,999.99S")), F.try_to_number("e", F.lit("999.99"))))
    diff(lambda s: s.sql("SELECT to_number(NULL, '99'), to_number('12', NULL), try_to_number(NULL, '9'), "
                         "to_number(12, '99'), typeof(to_number(12, '99'))"))


@pytest.mark.parametrize("text,fmt", MISMATCHES)
def test_to_number_mismatch(diff, diff_error, text, fmt):
    diff_error(lambda s: s.sql(f"SELECT to_number({sq(text)}, {sq(fmt)})").collect(),
               "INVALID_FORMAT.MISMATCH_INPUT")
    diff(lambda s: s.sql(f"SELECT try_to_number({sq(text)}, {sq(fmt)})"))


@pytest.mark.parametrize("fmt,error", BAD_FORMATS)
def test_invalid_formats(diff_error, fmt, error):
    diff_error(lambda s: s.sql(f"SELECT to_number('1', {sq(fmt)})").collect(), error)
    diff_error(lambda s: s.sql(f"SELECT to_char(1, {sq(fmt)})").collect(), error)


def test_format_must_be_constant(diff_error):
    diff_error(lambda s: s.sql("SELECT to_number('1', string(id)) FROM range(1)").collect(),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("SELECT to_char(12, string(id)) FROM range(1)").collect(),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("SELECT to_number('12', '9' || '9' || '9' || '9' || '9' || '9' || '9' "
                               "|| '9999999999999999999999999999999999')").collect(),
               "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION")


FORMATS = [
    ("454", "999"), ("454.00", "000D00"), ("12454", "99G999"), ("78.12", "$99.99"),
    ("-12454.8", "99G999D9S"), ("12345", "999"), ("-5", "999"), ("-5", "S999"), ("5", "S999"),
    ("-5", "999MI"), ("5", "999MI"), ("-5", "999PR"), ("5", "999PR"), ("5", "000"), ("5.5", "9.99"),
    ("5.555", "9.99"), ("5", "9,999"), ("12345", "9,999"), ("5", "$999"), ("-5", "S$999"),
    ("0.5", ".99"), ("0.5", "9.99"), ("0", "999"), ("-0.5", "S0.9"), ("12", "99."), ("-5", "999S"),
    ("12.345", "99.99"), ("-1234567.891", "S9,999,999.999"), ("0.001", "0.000"), ("-0.001", "9.999MI"),
    ("1234", "0,000"), ("12", "0,000"), ("-12", "0,000PR"), ("99999999999999999.99", "99999999999999999D99"),
]


def test_to_char_numbers(diff):
    cols = ", ".join(f"to_char({v}BD, {sq(f)})" for v, f in FORMATS)
    diff(lambda s: s.sql(f"SELECT {cols}"))
    diff(lambda s: s.sql("SELECT to_char(454, '999'), to_varchar(-7, 'S9'), to_char(CAST(12.5 AS DOUBLE), '99.9'), "
                         "to_char(CAST(2.5 AS FLOAT), '9.9'), to_char(CAST(7 AS TINYINT), '00'), "
                         "to_char(123456789012L, '999,999,999,999'), to_char('12', '99'), to_char(NULL, '9'), "
                         "typeof(to_char(1, '9'))"))
    diff(lambda s: s.createDataFrame([(1, 78.12), (2, -3.5), (3, None)], "k int, d double")
         .select("k", F.to_char("d", F.lit("S$99.99")), F.to_varchar(F.col("d").cast("decimal(5,2)"), F.lit("99.9PR"))))


def test_to_char_of_dates_and_binary(diff, diff_error):
    diff(lambda s: s.sql("SELECT to_char(DATE'2020-01-02', 'yyyy/MM'), "
                         "to_char(TIMESTAMP'2020-01-02 03:04:05', 'HH:mm'), to_varchar(DATE'2021-12-31', 'dd'), "
                         "to_char(X'414243', 'base64'), to_char(X'414243', 'hex'), to_char(X'414243', 'utf-8'), "
                         "to_char(X'414243', 'UTF-8'), to_char(X'00ff', 'HEX'), to_char(X'414243', 'Base64')"))
    diff_error(lambda s: s.sql("SELECT to_char(X'41', 'foo')").collect(), "INVALID_PARAMETER_VALUE.BINARY_FORMAT")
    diff_error(lambda s: s.sql("SELECT to_char(true, '9')").collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT to_char(CAST(1e20 AS DOUBLE), '99')").collect(),
               "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
