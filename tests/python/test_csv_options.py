"""Differential tests of CSV reader options: lineSep's empty-string error and
maxCharsPerColumn (Spark's parser fails on a longer value, in every mode, but only for the
columns it is asked for)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import api_mode


def _read_failed(ember, oracle, program) -> None:
    """Both engines fail to read the file. The oracle raises a bare SparkException, whose class
    PySpark does not expose, so its text is checked there."""
    with api_mode(connect=False), pytest.raises(Exception) as expected:
        program(oracle).collect()
    assert "FAILED_READ_FILE.NO_HINT" in str(expected.value)
    with pytest.raises(Exception) as actual:
        program(ember).collect()
    assert actual.value.getCondition() == "FAILED_READ_FILE.NO_HINT"


@pytest.fixture
def long_values(tmp_path) -> str:
    path = tmp_path / "long.csv"
    path.write_text('abc,1\nabcdef,2\nx,3\n"wxyz",4\néèêë,5\n')
    return str(path)


def test_empty_line_separator(diff_error, long_values):
    diff_error(lambda s: s.read.option("lineSep", "").csv(long_values), "INVALID_LINE_SEPARATOR.EMPTY")


def test_values_within_max_chars_per_column(diff, long_values):
    diff(lambda s: s.read.option("maxCharsPerColumn", "6").csv(long_values))
    diff(lambda s: s.read.option("maxCharsPerColumn", "-1").csv(long_values))


@pytest.mark.parametrize("mode", ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"])
def test_value_past_max_chars_per_column_fails_in_every_mode(ember, oracle, long_values, mode):
    _read_failed(ember, oracle,
                 lambda s: s.read.option("maxCharsPerColumn", "4").option("mode", mode).csv(long_values))


def test_max_chars_per_column_with_a_corrupt_record_column(ember, oracle, long_values):
    _read_failed(ember, oracle, lambda s: s.read.option("maxCharsPerColumn", "4")
                 .schema("a string, b int, _corrupt_record string").csv(long_values))


def test_max_chars_per_column_only_for_columns_read(diff, long_values):
    diff(lambda s: s.read.option("maxCharsPerColumn", "4").csv(long_values).select("_c1"))
    diff(lambda s: s.read.option("maxCharsPerColumn", "4").csv(long_values).groupBy().count())


def test_max_chars_per_column_while_inferring(diff_error, long_values):
    diff_error(lambda s: s.read.option("maxCharsPerColumn", "2").csv(long_values), "MALFORMED_CSV_RECORD")
    diff_error(lambda s: s.read.option("maxCharsPerColumn", "4").option("inferSchema", "true").csv(long_values),
               "MALFORMED_CSV_RECORD")


def test_max_chars_per_column_must_be_an_integer(diff_error, long_values):
    diff_error(lambda s: s.read.option("maxCharsPerColumn", "x").csv(long_values), "_LEGACY_ERROR_TEMP_2146")


@pytest.mark.parametrize("trim", ["true", "false"])
def test_multiline_whitespace_lines(diff, tmp_path, trim):
    # multiLine mode reads a line of spaces or tabs as a record, unless
    # ignoreLeadingWhiteSpace empties it first.
    path = tmp_path / "ws.csv"
    path.write_text('r,\n\n \t\nz,y\n"a\n b",c\n  \n')
    diff(lambda s: s.read.schema("a string, b string").option("multiLine", "true")
         .option("ignoreLeadingWhiteSpace", trim).csv(str(path)), ordered=True)
