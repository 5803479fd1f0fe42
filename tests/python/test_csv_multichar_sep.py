"""Differential tests of the CSV reader with a separator of several characters, combined with the
quote and escape options, each `unescapedQuoteHandling` mode and multiLine: separators inside
quoted values, part of a separator inside a value or next to a quote, runs longer than the
separator, and the malformed quoting shapes of test_csv_unescaped_quotes.py around them."""

from __future__ import annotations

import pytest

MODES = ["STOP_AT_DELIMITER", "STOP_AT_CLOSING_QUOTE", "BACK_TO_DELIMITER", "SKIP_VALUE"]
SEPS = ["||", "::", "ab", "|,|"]
SCHEMA = "n int, c0 string, c1 string, c2 string, c3 string"


def lines_for(sep: str, quote: str = '"') -> list[str]:
    """One shape a line; the first field numbers the line. Spark's parser garbles a value whose
    closing quote has the separator's first character on one side and the separator on the
    other (`"a"aab` with `ab`: it moves characters across the quote), which Ember does not
    copy; those shapes are left out."""
    s, p, q = sep, sep[0], quote
    return [line for line in _shapes(s, p, q) if f"{q}{p}{s}" not in line and f"{p}{q}{s}" not in line]


def _shapes(s: str, p: str, q: str) -> list[str]:
    return [
        f"a{s}b{s}c",                      # well formed
        f"{q}a{s}b{q}{s}c",                # the separator inside quotes
        f"a{p}b{s}c",                      # part of the separator inside a value
        f"a{s}{p}{s}c",                    # a value that is part of the separator
        f"a{s}{p}",                        # ... at the end of the line
        f"a{s * 2}c",                      # an empty value
        f"a{s}{s[:-1]}",                   # the separator less its last character at the end
        f"a{s}{p}{s}{s}",                  # empty values after a partial separator
        f"{q}a{q}{p}{s}c",                 # part of the separator after the closing quote
        f"{q}a{q}{s}{q}{q}{s}c",           # an empty quoted value
        f"a{q}b{s}c",                      # a quote inside an unquoted value
        f"{q}a{q}b{s}c",                   # text after the closing quote
        f"{q}a{q}b{q}c{s}d",               # a second quote after that text
        f"{q}a{s}b{q}c{s}d",               # the separator inside quotes before an unescaped quote
        f"{q}ab{s}c",                      # a quote open to the end of the line
        f"{q}a{q}{q}b{q}{s}c",             # a doubled quote
        f"{q}a\\{q}b{q}{s}c",              # an escaped quote
        f"{q}a{q} {s}c",                   # whitespace after the closing quote
        f"a{s}{q}b{q}c",                   # text after the quote in the last field
        f"x{s}{q}a{q}b{q}c{q}d{s}e",       # several unescaped quotes
        f"{q}a\\{s}b{q}{s}c",              # an escape before the separator inside quotes
        f"a\\{s}b",                        # an escape before the separator outside quotes
        f"{q}{q}{q}a{q}{s}b",              # a run of quotes
        f"{q}a{s}",                        # an open quote ending with the separator
    ]


def write(path, sep: str, lines: list[str]) -> str:
    path.write_text("".join(f"{i}{sep}{line}\n" for i, line in enumerate(lines)))
    return str(path)


@pytest.mark.parametrize("sep", SEPS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("escape", [None, '"'])
def test_shapes_in_each_mode(diff, tmp_path, sep, mode, escape):
    path = write(tmp_path / "shapes.csv", sep, lines_for(sep))

    def program(s):
        reader = s.read.schema(SCHEMA).option("sep", sep).option("unescapedQuoteHandling", mode)
        if escape:
            reader = reader.option("escape", escape)
        return reader.csv(path)
    diff(program, ordered=True)


@pytest.mark.parametrize("sep", ["||", "ab"])
@pytest.mark.parametrize("mode", MODES)
def test_other_quote_and_escape(diff, tmp_path, sep, mode):
    lines = [line.replace("\\", "!") for line in lines_for(sep, "'")]
    path = write(tmp_path / "quote.csv", sep, lines)
    diff(lambda s: s.read.schema(SCHEMA).option("sep", sep).option("quote", "'").option("escape", "!")
         .option("unescapedQuoteHandling", mode).csv(path), ordered=True)


@pytest.mark.parametrize("sep", ["||", "ab"])
@pytest.mark.parametrize("mode", MODES)
def test_shapes_multiline(diff, tmp_path, sep, mode):
    # One file a shape, so that a quote left open ends with its file; the rows' order across
    # files is Spark's split order, so rows compare as a set.
    for i, line in enumerate(lines_for(sep)):
        (tmp_path / f"{i:02d}.csv").write_text(f"{i}{sep}{line}\n")
    diff(lambda s: s.read.schema(SCHEMA).option("sep", sep).option("multiLine", "true")
         .option("unescapedQuoteHandling", mode).csv(str(tmp_path)), ordered=False)


# SKIP_VALUE is left out: Spark's parser fails on this file with an internal index error.
@pytest.mark.parametrize("sep", ["||", "::", "|,|"])
@pytest.mark.parametrize("mode", MODES[:3])
def test_multiline(diff, tmp_path, sep, mode):
    s = sep
    text = (f'1{s}"a{s}\nb"{s}c\n'         # the separator and a line end inside quotes
            f'2{s}"x\ny"z{s}w\n'           # text after a closing quote on the next line
            f'3{s}"open{s}\n'              # a quote open across lines
            f'4{s}"a"b"\nc"{s}d\n'
            f'5{s}"q"r"\ns"t{s}u\n'
            f'6{s}v{s}w\n')
    path = tmp_path / "multi.csv"
    path.write_text(text)
    diff(lambda sp: sp.read.schema(SCHEMA).option("sep", sep).option("multiLine", "true")
         .option("unescapedQuoteHandling", mode).csv(str(path)), ordered=True)


@pytest.mark.parametrize("sep", ["||", "|,|"])
@pytest.mark.parametrize("multi_line", ["false", "true"])
def test_header_and_inferred_types(diff, tmp_path, sep, multi_line):
    s = sep
    path = tmp_path / "typed.csv"
    path.write_text(f'id{s}"na{s}me"{s}v\n1{s}"x{s}y"{s}1.5\n2{s}"p""q"{s}\n3{s}{s}2\n')
    diff(lambda sp: sp.read.option("sep", sep).option("header", "true").option("inferSchema", "true")
         .option("escape", '"').option("multiLine", multi_line).csv(str(path)), ordered=True)


@pytest.mark.parametrize("sep", ["||", "ab"])
@pytest.mark.parametrize("parse_mode", ["PERMISSIVE", "DROPMALFORMED"])
def test_parse_modes_with_too_many_values(diff, tmp_path, sep, parse_mode):
    s = sep
    path = tmp_path / "modes.csv"
    path.write_text(f'1{s}a\n2{s}"b{s}c"{s}d{s}e\n3\n4{s}"open{s}x\n')
    diff(lambda sp: sp.read.schema("n int, a string, b string, _corrupt_record string")
         .option("sep", sep).option("mode", parse_mode).option("columnNameOfCorruptRecord", "_corrupt_record")
         .csv(str(path)), ordered=True)
