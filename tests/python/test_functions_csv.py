"""CSV functions against Apache Spark: from_csv and to_csv — values of every supported type,
NULLs, empty and malformed records, quoting, each reader and writer option, parse modes with
the corrupt-record column, nested values in to_csv, and errors."""

from __future__ import annotations

import pytest
from harness import run_time_error, session_conf, session_mode

from pyspark.sql import functions as F

LINES = [
    (1, "1,abc"),
    (2, "x,abc"),
    (3, "1,abc,3"),
    (4, "1"),
    (5, ""),
    (6, None),
    (7, " "),
    (8, '2,"a,b"'),
    (9, '3,"a""b"'),
    (10, '4,"unterminated'),
    (11, "5,a\nb"),
    (12, " 6 , c "),
    (13, "7,"),
    (14, '8,""'),
    (15, "日本,é"),
    (16, "99999999999,z"),
]


def lines(s):
    return s.createDataFrame(LINES, "k int, t string")


def test_from_csv_values(diff):
    diff(lambda s: lines(s).select("k", F.from_csv("t", "a INT, b STRING")))
    diff(lambda s: lines(s).select("k", F.from_csv("t", "a STRING, b STRING, c STRING").alias("r")))
    diff(lambda s: lines(s).select("k", F.from_csv("t", "a BIGINT").a.alias("a")))


def test_from_csv_types(diff):
    diff(lambda s: s.sql("""select from_csv('1.5,true,2020-01-01,2020-01-01 10:00:00,12.345,2020-01-01T01:02:03',
                                      'a decimal(5,2), b boolean, c date, d timestamp, e decimal(3,1), f timestamp_ntz') as r,
                                   from_csv('NaN,Inf,-Inf,1e3,-0.0', 'a double, b float, c double, d float, e double') as f,
                                   from_csv('127,128,-32768,1,1,000.5', 'a tinyint, b tinyint, c smallint, d bigint, e decimal(10,2)') as i,
                                   from_csv('TRUE,no,2020-13-01,x', 'a boolean, b boolean, c date, d timestamp') as bad"""))


def test_from_csv_nulls_and_types_of_input(diff):
    diff(lambda s: s.sql("select from_csv(null, 'a INT, b STRING') as n, from_csv('1,2', 'a INT, b INT') as m"))
    diff(lambda s: s.sql("select from_csv(cast(null as string), 'a INT') as n"))


def test_from_csv_schema_forms(diff):
    diff(lambda s: s.sql("select from_csv('1,abc', schema_of_csv('1,abc')) as r"))
    diff(lambda s: s.range(1).select(F.from_csv(F.lit("1,x"), F.schema_of_csv(F.lit("9,y")))))
    diff(lambda s: s.range(1).select(F.from_csv(F.lit("1,x"), F.lit("a INT, b STRING"))))


def test_from_csv_corrupt_record(diff, ember, oracle):
    diff(lambda s: lines(s).select("k", F.from_csv("t", "a INT, b STRING, _corrupt_record STRING")))
    diff(lambda s: lines(s).select("k", F.from_csv("t", "_corrupt_record STRING, a INT, b STRING")))
    diff(lambda s: lines(s).select("k", F.from_csv("t", "a INT, bad STRING, b STRING",
                                                   {"columnNameOfCorruptRecord": "bad"})))
    with session_conf(ember, oracle, **{"spark.sql.columnNameOfCorruptRecord": "oops"}):
        diff(lambda s: lines(s).select("k", F.from_csv("t", "a INT, b STRING, oops STRING")))


def test_from_csv_options(diff):
    diff(lambda s: s.sql("""select from_csv('1;"a;b"', 'a INT, b STRING', map('sep', ';')) as sep,
                                   from_csv('1\tx', 'a INT, b STRING', map('sep', '\\\\t')) as tab,
                                   from_csv('1::x', 'a INT, b STRING', map('sep', '::')) as multi,
                                   from_csv('26/08/2015', 't timestamp', map('timestampFormat', 'dd/MM/yyyy')) as ts,
                                   from_csv('26/08/2015', 'd date', map('dateFormat', 'dd/MM/yyyy')) as d,
                                   from_csv('2015 08', 'n timestamp_ntz', map('timestampNTZFormat', 'yyyy MM')) as ntz,
                                   from_csv('N,a', 'a INT, b STRING', map('nullValue', 'N')) as nv,
                                   from_csv('1,""', 'a INT, b STRING', map('emptyValue', 'E')) as ev,
                                   from_csv(' 1 , a ', 'a INT, b STRING',
                                            map('ignoreLeadingWhiteSpace', 'true', 'ignoreTrailingWhiteSpace', 'true')) as ws,
                                   from_csv('#1,2', 'a INT, b STRING, _corrupt_record STRING', map('comment', '#')) as cm,
                                   from_csv('\\'a,b\\',c', 'a STRING, b STRING', map('quote', '\\'')) as q,
                                   from_csv('"a\\\\"b",c', 'a STRING, b STRING') as esc,
                                   from_csv('"a#"b",c', 'a STRING, b STRING', map('escape', '#')) as esc2,
                                   from_csv('nan,PINF,NINF', 'a double, b double, c float',
                                            map('nanValue', 'nan', 'positiveInf', 'PINF', 'negativeInf', 'NINF')) as inf,
                                   from_csv('2020-01-01 00:00:00', 't timestamp', map('timeZone', 'America/Los_Angeles')) as tz,
                                   from_csv('1,2', 'a INT, b STRING', map('header', 'true', 'inferSchema', 'true',
                                            'multiLine', 'true', 'encoding', 'UTF-16', 'mode', 'bogus')) as ignored"""))


def test_from_csv_failfast(diff, ember, oracle):
    diff(lambda s: s.sql("select from_csv('1,2', 'a INT, b INT', map('mode', 'FAILFAST')) as r"))
    diff(lambda s: lines(s).where("k in (1, 6, 13)").select(
        "k", F.from_csv("t", "a INT, b STRING", {"mode": "FAILFAST"})))
    for text in ["x,abc", "1,2,3", "1", ""]:
        run_time_error(ember, oracle, lambda s, t=text: s.range(1).select(
            F.from_csv(F.lit(t), "a INT, b STRING", {"mode": "FAILFAST"})), "MALFORMED_RECORD_IN_PARSING")
    run_time_error(ember, oracle, lambda s: lines(s).select(F.from_csv("t", "a INT, b STRING", {"mode": "FAILFAST"})),
                   "MALFORMED_RECORD_IN_PARSING")


def test_from_csv_errors(diff_error):
    diff_error(lambda s: s.sql("select from_csv('1', 'a INT', map('mode', 'DROPMALFORMED'))").collect(),
               "PARSE_MODE_UNSUPPORTED")
    diff_error(lambda s: s.sql("select from_csv('1', 'INT')").collect(), "INVALID_SCHEMA.NON_STRUCT_TYPE")
    diff_error(lambda s: s.sql("select from_csv('1', cast(null as string))").collect(), "INVALID_SCHEMA.NON_STRING_LITERAL")
    diff_error(lambda s: lines(s).select(F.from_csv("t", F.col("t"))).collect(), "INVALID_SCHEMA.NON_STRING_LITERAL")
    diff_error(lambda s: s.sql("select from_csv(1, 'a INT')").collect(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select from_csv('1', 'a INT', map('a', 1))").collect(), "INVALID_OPTIONS.NON_STRING_TYPE")
    diff_error(lambda s: s.sql("select from_csv('1,2', 'a INT, b ARRAY<INT>')").collect(), "UNSUPPORTED_DATATYPE")
    diff_error(lambda s: s.sql("select from_csv('1,2', 'a INT, b STRUCT<x: INT>')").collect(), "UNSUPPORTED_DATATYPE")
    diff_error(lambda s: s.sql("select from_csv('x', 'a INT, _corrupt_record INT')").collect(),
               "INVALID_CORRUPT_RECORD_TYPE")
    diff_error(lambda s: s.sql("select from_csv('1', 'a INT', map('quote', 'ab'))").collect(),
               "OPTION_VALUE_EXCEEDS_ONE_CHARACTER")
    diff_error(lambda s: s.sql("select from_csv('1', 'a INT', map('encoding', 'bogus'))").collect(),
               "INVALID_PARAMETER_VALUE.CHARSET")
    diff_error(lambda s: s.sql("select from_csv('1,2', 'a INT, b INT', map('maxColumns', '1'))").collect(),
               "MALFORMED_CSV_RECORD")
    diff_error(lambda s: s.sql("select from_csv('abcd,c', 'a STRING, b STRING', map('maxCharsPerColumn', '3'))").collect(),
               "MALFORMED_CSV_RECORD")


def test_from_csv_options_with_no_effect_on_a_record(diff):
    diff(lambda s: s.sql("""select from_csv('abc,d', 'a STRING, b STRING', map('maxCharsPerColumn', '3')) as a,
                                   from_csv('1,2', 'a INT, b INT', map('lineSep', '')) as b,
                                   from_csv('1,2', 'a INT, b INT', map('lineSep', ';', 'locale', 'en-US',
                                            'unescapedQuoteHandling', 'STOP_AT_DELIMITER')) as c"""))


def test_csv_functions_locale_and_unescaped_quotes(diff):
    diff(lambda s: s.sql("""select from_csv('1,5', 'a DECIMAL(5,2)', map('locale', 'de-DE')) as a,
                                   from_csv('1.234,5;15 März 2024', 'a DECIMAL(8,2), d DATE',
                                            map('locale', 'de-DE', 'sep', ';', 'dateFormat', 'd MMMM yyyy')) as b,
                                   to_csv(named_struct('d', date'2020-01-02'),
                                          map('locale', 'de-DE', 'dateFormat', 'EEEE MMMM')) as c,
                                   schema_of_csv('1.000;2', map('locale', 'de-DE', 'sep', ';')) as d"""))
    for mode in ["STOP_AT_DELIMITER", "STOP_AT_CLOSING_QUOTE", "BACK_TO_DELIMITER", "SKIP_VALUE"]:
        diff(lambda s: s.sql(f"""select from_csv(v, 'a STRING, b STRING', map('unescapedQuoteHandling', '{mode}')) as r
                                 from values ('"a"b",c'), ('"a"b,c'), ('x,"y"z'), ('"open,q') as t(v)"""))


def test_from_csv_raise_error(ember, oracle):
    # Spark's parser exception reaches the query without an error class.
    def program(s):
        return s.sql("""select from_csv('"a"b,c', 'a STRING, b STRING',
                                        map('unescapedQuoteHandling', 'RAISE_ERROR'))""")
    with session_mode(oracle), pytest.raises(Exception) as expected:
        program(oracle).collect()
    with session_mode(ember), pytest.raises(Exception) as actual:
        program(ember).collect()
    for e in (expected.value, actual.value):
        assert "Unescaped quote character '\"' inside quoted value of CSV field" in str(e), str(e)[:300]


def test_to_csv_primitives(diff):
    diff(lambda s: s.sql("""select to_csv(named_struct('a', 1, 'b', 'x,y')) as a,
                                   to_csv(named_struct('a', null, 'b', '')) as b,
                                   to_csv(named_struct('d', date'2020-01-02', 't', timestamp'2020-01-02 03:04:05.123456',
                                          'n', timestamp_ntz'2020-01-02 03:04:05.5', 'f', 1.5f, 'dd', 1e20, 'dec', 1.50bd,
                                          'bin', x'4142', 'b', true, 'y', cast(1 as tinyint), 'z', 1.0E-5d)) as c,
                                   to_csv(named_struct('a', ' x ', 'b', 'a\\nb', 'c', 'a\\rb', 'd', 'a\\tb', 'e', '#c')) as d,
                                   to_csv(named_struct('a', 'q"x', 'b', 'x\\\\y"', 'c', '"', 'd', 'x\\\\', 'e', '  ')) as e,
                                   to_csv(named_struct('t', time'01:02:03.5', 'u', 123456789012345678901234567890.1bd)) as f,
                                   to_csv(named_struct('a', interval '1-2' year to month, 'b', interval '3' month,
                                          'c', interval '1 02:03:04.5' day to second, 'd', interval '-5' minute,
                                          'e', interval '-2' year)) as g,
                                   to_csv(named_struct('u', '日本', 'v', cast('NaN' as double))) as h"""))


def test_to_csv_nested(diff):
    diff(lambda s: s.sql("""select to_csv(named_struct('a', array(1, 2), 'b', map('k', 1), 'c', named_struct('x', 1),
                                          'd', array(x'41', null), 'e', array(timestamp'2020-01-02 03:04:05.1', null),
                                          'f', map(1, array(date'2020-01-01')), 'g', named_struct('x', null, 'y', 1.5d),
                                          'h', array(interval 1 day), 'i', array(1.5f, null), 'j', array(),
                                          'k', map('a', cast(null as int)))) as r"""))


def test_to_csv_input_rows(diff):
    rows = [(1, "a", None), (2, None, 1.5), (None, "x,y", -0.0), (4, 'q"', 2.0)]
    diff(lambda s: s.createDataFrame(rows, "a int, b string, c double").select(
        F.to_csv(F.struct("a", "b", "c")).alias("r"),
        F.to_csv(F.when(F.col("a") > 1, F.struct("a", "b"))).alias("n")))
    diff(lambda s: s.sql("select to_csv(null) as a, to_csv(cast(null as struct<a:int>)) as b"))


def test_to_csv_options(diff):
    diff(lambda s: s.sql("""select to_csv(named_struct('a', 1, 'b', 'q"x'), map('sep', '|', 'quote', '\\'', 'quoteAll', 'true')) as a,
                                   to_csv(named_struct('a', 'q,x', 'b', 'x;y'), map('sep', ';')) as b,
                                   to_csv(named_struct('a', 'qabx', 'b', 'xay'), map('sep', 'ab')) as c,
                                   to_csv(named_struct('a', 1, 'b', 2), map('sep', '\\\\t')) as d,
                                   to_csv(named_struct('t', timestamp'2020-01-02 03:04:05.123456', 'd', date'2020-01-02',
                                          'n', timestamp_ntz'2020-01-02 03:04:05'),
                                          map('timestampFormat', 'yyyy/MM/dd HH:mm', 'dateFormat', 'dd.MM.yyyy',
                                              'timestampNTZFormat', 'yyyy HH')) as e,
                                   to_csv(named_struct('a', ' x ', 'b', ' y '), map('ignoreLeadingWhiteSpace', 'false')) as f,
                                   to_csv(named_struct('a', ' x ', 'b', '  '),
                                          map('ignoreLeadingWhiteSpace', 'false', 'ignoreTrailingWhiteSpace', 'false')) as g,
                                   to_csv(named_struct('a', ''), map('emptyValue', 'E')) as h,
                                   to_csv(named_struct('a', 'x', 'b', 1), map('header', 'true', 'lineSep', 'X')) as i,
                                   to_csv(named_struct('a', 'a"b', 'b', 'c\\\\d'), map('escape', '#')) as j,
                                   to_csv(named_struct('a', 'a"b', 'b', 'x,y'), map('quote', '')) as k,
                                   to_csv(named_struct('a', 'q"x\\\\"', 'b', 'a\\\\b'), map('charToEscapeQuoteEscaping', '#')) as l,
                                   to_csv(named_struct('a', 'q\\'x', 'b', ' '), map('quote', '\\'', 'escape', '\\'')) as m,
                                   to_csv(named_struct('a', 'q"x', 'b', '"', 'c', 'x\\\\y"'), map('escapeQuotes', 'false')) as n,
                                   to_csv(named_struct('a', cast(null as string), 'b', 'q"x'),
                                          map('nullValue', 'N', 'escapeQuotes', 'false', 'quoteAll', 'true')) as o,
                                   to_csv(named_struct('t', timestamp'2020-01-02 03:04:05'), map('timeZone', 'America/Los_Angeles')) as p,
                                   to_csv(named_struct('a', 1), map('mode', 'FAILFAST', 'encoding', 'UTF-16', 'foo', 'bar')) as q"""))


def test_to_csv_session_time_zone(diff, ember, oracle):
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": "Asia/Kolkata"}):
        diff(lambda s: s.sql("select to_csv(named_struct('t', timestamp'2020-07-01 00:00:00', 'd', date'2020-01-01')) as r"))


def test_to_csv_errors(diff_error):
    diff_error(lambda s: s.sql("select to_csv(1)").collect(), "DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select to_csv(array(1))").collect(), "DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select to_csv(named_struct('v', parse_json('1')))").collect(),
               "DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select to_csv(named_struct('a', 1), map('quote', 'ab'))").collect(),
               "OPTION_VALUE_EXCEEDS_ONE_CHARACTER")
    diff_error(lambda s: s.sql("select to_csv(named_struct('a', 1), map('escape', 'ab'))").collect(),
               "OPTION_VALUE_EXCEEDS_ONE_CHARACTER")
    diff_error(lambda s: s.sql("select to_csv(named_struct('a', 1), map(1, 'x'))").collect(),
               "INVALID_OPTIONS.NON_STRING_TYPE")
    diff_error(lambda s: s.sql("select to_csv(named_struct('a', 1), map('lineSep', ''))").collect(),
               "INVALID_LINE_SEPARATOR.EMPTY")


def test_csv_round_trip(diff):
    rows = [(1, "plain", 1.5), (2, 'with "quotes", and commas', None), (3, None, -2.25), (4, "", 0.0)]
    diff(lambda s: s.createDataFrame(rows, "a int, b string, c double")
         .select(F.to_csv(F.struct("a", "b", "c")).alias("line"))
         .select("line", F.from_csv("line", "a INT, b STRING, c DOUBLE").alias("back")))
