"""Differential tests of the CSV reader's `unescapedQuoteHandling`: malformed quoting (a quote
inside an unquoted value, text after a closing quote, quotes left open at the end of a line or
file, escapes next to quotes) read in each mode, line by line and multiLine, with the default
escape and with the quote as its own escape."""

from __future__ import annotations

import pytest

from harness import api_mode

MODES = ["STOP_AT_DELIMITER", "STOP_AT_CLOSING_QUOTE", "BACK_TO_DELIMITER", "SKIP_VALUE"]

# One malformed shape a line; the first field numbers the line, so rows stay apart.
LINES = [
    'a"b,c',                # a quote inside an unquoted value
    '"a"b,c',               # text after the closing quote, then the delimiter
    '"a"b"c,d',             # a second quote after that text
    '"a"b",c',              # ... which closes the value before the delimiter
    '"ab,c',                # a quote open to the end of the line
    '"a""b",c',             # a doubled quote (an escape only when escape is the quote)
    '"a\\"b",c',            # an escaped quote
    '"a" ,c',               # whitespace after the closing quote
    '"a" b,c',              # whitespace, then text
    'a,"b"c',               # the last field
    '"a,b"c,d',             # a delimiter inside the quotes before the unescaped quote
    'a,b"c"',               # an unquoted value ending with a quoted part
    '"""a",b',              # a run of quotes
    'x,"a"b"c"d,e',         # several unescaped quotes
    '"a"\\b,c',             # an escape right after the quote
    '"\\',                  # an escape at the end of an open value
    '"',                    # a lone quote
    '"a\\\\"b,c',           # an escaped escape before the quote
    '"",x',                 # an empty quoted value
    '""a,b',                # text after an empty quoted value
    '"a"  b  ,c',           # whitespace around text after the quote
]
SCHEMA = "n int, c0 string, c1 string, c2 string, c3 string"


@pytest.fixture
def malformed(tmp_path) -> str:
    path = tmp_path / "malformed.csv"
    path.write_text("".join(f"{i},{line}\n" for i, line in enumerate(LINES)))
    return str(path)


@pytest.fixture
def malformed_multiline(tmp_path) -> str:
    # Records of several lines: values continue across line ends until a closing quote.
    path = tmp_path / "multiline.csv"
    path.write_text('1,"a"b,c\n2,"x\ny"z,w\n3,"open\n4,"a"b"\nc",d\n5,"q"r"\ns"t,u\n6,v,w\n')
    return str(path)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("escape", [None, '"'])
def test_malformed_lines(diff, malformed, mode, escape):
    def program(s):
        reader = s.read.schema(SCHEMA).option("unescapedQuoteHandling", mode)
        if escape:
            reader = reader.option("escape", escape)
        return reader.csv(malformed)
    diff(program, ordered=True)


@pytest.mark.parametrize("mode", MODES)
def test_malformed_multiline(diff, malformed_multiline, mode):
    diff(lambda s: s.read.schema(SCHEMA).option("multiLine", "true")
         .option("unescapedQuoteHandling", mode).csv(malformed_multiline), ordered=True)


@pytest.mark.parametrize("mode", MODES)
def test_inferred_schema(diff, tmp_path, mode):
    # The first line gives the columns, the rest their types.
    path = tmp_path / "infer.csv"
    path.write_text('"1,2"3,4\n5,"6"7\n8,9\n')
    diff(lambda s: s.read.option("inferSchema", "true").option("unescapedQuoteHandling", mode)
         .csv(str(path)), ordered=True)
    if mode != "SKIP_VALUE":  # a skipped header name is null, which Spark's header check fails on
        diff(lambda s: s.read.option("header", "true").option("unescapedQuoteHandling", mode)
             .csv(str(path)), ordered=True)


def test_skipped_value_is_not_malformed(diff, tmp_path):
    path = tmp_path / "skip.csv"
    path.write_text('"1"2,a\nx,b\n')
    diff(lambda s: s.read.schema("n int, s string, _corrupt_record string")
         .option("unescapedQuoteHandling", "SKIP_VALUE").csv(str(path)), ordered=True)
    diff(lambda s: s.read.schema("n string, s string, _corrupt_record string")
         .option("unescapedQuoteHandling", "STOP_AT_CLOSING_QUOTE").csv(str(path)), ordered=True)


def test_trailing_whitespace(diff, tmp_path):
    path = tmp_path / "ws.csv"
    path.write_text('"a"b  ,c\n"a"b  " ,c\n')
    for mode in MODES:
        diff(lambda s: s.read.option("ignoreTrailingWhiteSpace", "true")
             .option("unescapedQuoteHandling", mode).csv(str(path)), ordered=True)


def test_mode_names_ignore_case(diff, malformed):
    diff(lambda s: s.read.schema(SCHEMA).option("unescapedQuoteHandling", "skip_value").csv(malformed),
         ordered=True)


def _read_failed(ember, oracle, program) -> None:
    with api_mode(connect=False), pytest.raises(Exception) as expected:
        program(oracle).collect()
    assert "FAILED_READ_FILE.NO_HINT" in str(expected.value)
    with pytest.raises(Exception) as actual:
        program(ember).collect()
    assert actual.value.getCondition() == "FAILED_READ_FILE.NO_HINT"


@pytest.mark.parametrize("parse_mode", ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"])
@pytest.mark.parametrize("multi_line", ["false", "true"])
def test_raise_error_fails_the_read_in_every_mode(ember, oracle, tmp_path, parse_mode, multi_line):
    path = tmp_path / "raise.csv"
    path.write_text('a,b\n"a"b,c\n')
    _read_failed(ember, oracle, lambda s: s.read.schema("x string, y string")
                 .option("unescapedQuoteHandling", "RAISE_ERROR").option("mode", parse_mode)
                 .option("multiLine", multi_line).csv(str(path)))


def test_raise_error_after_whitespace(ember, oracle, tmp_path):
    path = tmp_path / "raise_ws.csv"
    path.write_text('"a" b,c\n')
    _read_failed(ember, oracle, lambda s: s.read.schema("x string, y string")
                 .option("unescapedQuoteHandling", "RAISE_ERROR").csv(str(path)))


def test_raise_error_reads_well_formed_quoting(diff, tmp_path):
    path = tmp_path / "fine.csv"
    path.write_text('"a","b \\"c\\""\n"d\\"e" ,f\na"b,c\n"",""\n')
    diff(lambda s: s.read.option("unescapedQuoteHandling", "RAISE_ERROR").csv(str(path)), ordered=True)


def test_unknown_mode(ember, oracle, malformed):
    def program(s):
        return s.read.option("unescapedQuoteHandling", "STOP").csv(malformed)
    with api_mode(connect=False), pytest.raises(Exception) as expected:
        program(oracle).collect()
    with pytest.raises(Exception) as actual:
        program(ember).collect()
    for e in (expected.value, actual.value):
        assert type(e).__name__ == "IllegalArgumentException", type(e)
        assert "No enum constant com.univocity.parsers.csv.UnescapedQuoteHandling.STOP" in str(e)


def test_raise_error_in_the_first_line_while_inferring(ember, oracle, tmp_path):
    # Spark parses the first line itself for the column names; its parser's exception has no
    # error class.
    path = tmp_path / "first.csv"
    path.write_text('"a"b,c\nd,e\n')

    def program(s):
        return s.read.option("unescapedQuoteHandling", "RAISE_ERROR").csv(str(path))
    with api_mode(connect=False), pytest.raises(Exception) as expected:
        program(oracle).collect()
    with pytest.raises(Exception) as actual:
        program(ember).collect()
    for e in (expected.value, actual.value):
        assert "Unescaped quote character '\"' inside quoted value of CSV field" in str(e), str(e)[:300]
