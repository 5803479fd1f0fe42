"""JSON functions against Apache Spark: from_json, to_json, schema_of_json, get_json_object,
json_tuple, json_array_length and json_object_keys — values, types, column names, NULLs,
malformed documents, nested types, unicode, parser options and errors; and schema_of_csv."""

from __future__ import annotations

import pytest
from harness import run_time_error, session_mode

from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, IntegerType, MapType, StringType, StructField, StructType

DOCS = [
    (1, '{"a": 1, "b": "x", "c": [1, 2], "d": {"e": 1.5}}'),
    (2, '{"a": "oops", "b": "y", "c": [1, "z"], "d": {"e": "q"}}'),
    (3, 'not json'),
    (4, ''),
    (5, None),
    (6, '{"a": 2, "b": "日本語 é", "c": [], "d": null}'),
    (7, '[{"a": 1}, {"a": 2}]'),
    (8, '{"a": 01}'),
    (9, "{'a': 3, 'b': 'single'}"),
    (10, '{"a": 1} trailing'),
    (11, '{"a": 1'),
    (12, 'null'),
    (13, '  '),
    (14, '{"A": 5, "b": null}'),
    (15, '{"a": 9999999999, "b": true, "c": [null]}'),
]


def docs(s):
    return s.createDataFrame(DOCS, "k int, j string")


def test_from_json_struct_ddl(diff):
    diff(lambda s: docs(s).select("k", F.from_json("j", "a INT, b STRING, c ARRAY<INT>, d STRUCT<e: DOUBLE>")))
    diff(lambda s: docs(s).select("k", F.from_json("j", "b STRING, a BIGINT").alias("r")))


def test_from_json_struct_type(diff):
    schema = StructType([StructField("a", IntegerType()), StructField("b", StringType()),
                         StructField("c", ArrayType(IntegerType()))])
    diff(lambda s: docs(s).select("k", F.from_json("j", schema)))
    diff(lambda s: docs(s).select("k", F.from_json("j", schema).a.alias("a"), F.from_json("j", schema)["c"]))


def test_from_json_array_and_map(diff):
    rows = [(1, '[1, 2, null]'), (2, '[1, "x"]'), (3, '{"a": 1}'), (4, '[]'), (5, '"s"'), (6, None),
            (7, '[[1], [2, 3]]')]
    diff(lambda s: s.createDataFrame(rows, "k int, j string").select(
        "k", F.from_json("j", "array<int>"), F.from_json("j", ArrayType(StringType()))))
    diff(lambda s: docs(s).select("k", F.from_json("j", "array<struct<a:int>>")))
    diff(lambda s: docs(s).select("k", F.from_json("j", "map<string,string>")))
    diff(lambda s: docs(s).select("k", F.from_json("j", MapType(StringType(), IntegerType()))))


def test_from_json_nested_and_strings(diff):
    rows = [(1, '{"a": {"b": [1, {"c": 2.50}], "d": -0, "e": 1e2}, "f": [true, null]}'),
            (2, '{"a": {"b": "x"}, "f": "str\\n\\u00e9"}'),
            (3, '{"a": {"b": [], "d": 12345678901234567890}}')]
    diff(lambda s: s.createDataFrame(rows, "k int, j string").select(
        "k", F.from_json("j", "a STRING, f STRING"), F.from_json("j", "a STRUCT<b: STRING, d: STRING, e: DOUBLE>"),
        F.from_json("j", "a MAP<STRING, STRING>")))


def test_from_json_types(diff):
    rows = [(1, '{"i": 1, "l": 10000000000, "f": 1.5, "d": 2, "dec": 1.25, "bo": true, "s": "x", '
                '"dt": "2020-01-02", "ts": "2020-01-02 03:04:05", "bin": "MQ==", "by": 300, "n": NaN}'),
            (2, '{"i": "1", "l": 1.5, "f": "1.5", "d": "Infinity", "dec": "1.25", "bo": "true", "s": 5, '
                '"dt": "bad", "ts": 1700000000, "bin": "abc", "by": 7, "n": "NaN"}')]
    diff(lambda s: s.createDataFrame(rows, "k int, j string").select(
        "k", F.from_json("j", "i INT, l BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(5,1), bo BOOLEAN, s STRING, "
                              "dt DATE, ts TIMESTAMP, bin BINARY, by TINYINT, n DOUBLE")))


def test_from_json_options(diff):
    rows = [(1, "{a: 1, 'b': 'x'}"), (2, '{"a": 1 /* note */, "b": "y"}'), (3, '{"a": 007}'),
            (4, '{"dt": "02/01/2020", "ts": "01-02-2020 10:11"}')]
    df = lambda s: s.createDataFrame(rows, "k int, j string")  # noqa: E731
    diff(lambda s: df(s).select("k", F.from_json("j", "a INT, b STRING", {"allowUnquotedFieldNames": "true"}),
                                F.from_json("j", "a INT, b STRING", {"allowComments": "true"}),
                                F.from_json("j", "a INT, b STRING", {"allowSingleQuotes": "false"}),
                                F.from_json("j", "a INT", {"allowNumericLeadingZeros": "true"})))
    diff(lambda s: df(s).select("k", F.from_json("j", "dt DATE, ts TIMESTAMP",
                                                 {"dateFormat": "dd/MM/yyyy", "timestampFormat": "dd-MM-yyyy HH:mm"})))


def test_from_json_corrupt_record(diff):
    diff(lambda s: docs(s).select("k", F.from_json("j", "a INT, b STRING, _corrupt_record STRING")))
    diff(lambda s: docs(s).select("k", F.from_json("j", "a INT, bad STRING", {"columnNameOfCorruptRecord": "bad"})))


def test_from_json_sql_and_schema_of_json(diff):
    diff(lambda s: s.sql("""select from_json('{"a":1, "b":[1.5]}', schema_of_json('{"a":1, "b":[1.5]}')) as r,
                                   from_json('{"a":1}', '{"type":"struct","fields":[{"name":"a","type":"integer",
                                     "nullable":true,"metadata":{}}]}') as q"""))


def test_from_json_failfast(ember, oracle):
    run_time_error(ember, oracle, lambda s: docs(s).select(F.from_json("j", "a INT", {"mode": "FAILFAST"})),
                   "MALFORMED_RECORD_IN_PARSING")
    run_time_error(ember, oracle,
                   lambda s: s.sql("""select from_json('[1, "x"]', 'array<int>', map('mode', 'FAILFAST'))"""),
                   "MALFORMED_RECORD_IN_PARSING")
    run_time_error(ember, oracle,
                   lambda s: s.sql("""select from_json('{"a": "x"}', 'a INT', map('mode', 'FAILFAST'))"""),
                   "MALFORMED_RECORD_IN_PARSING")


def test_from_json_errors(diff_error):
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'int')"""), "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA")
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'map<int,int>')"""),
               "DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE")
    diff_error(lambda s: s.sql("""select from_json(1, 'a INT')"""), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 1)"""), "INVALID_SCHEMA.NON_STRING_LITERAL")
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'a INTT')"""), "PARSE_SYNTAX_ERROR")
    diff_error(lambda s: s.sql("""select from_json('x', 'a INT', map('mode', 'DROPMALFORMED'))"""),
               "PARSE_MODE_UNSUPPORTED")


STRUCTS = [(1, "x", 1.5, [1, None], {"k": 1}, None), (2, None, None, None, None, "é\n\"q\""),
           (3, "日本", float("nan"), [], {}, "")]


def test_to_json(diff):
    df = lambda s: s.createDataFrame(STRUCTS, "i int, s string, d double, a array<int>, m map<string,int>, t string")  # noqa: E731
    diff(lambda s: df(s).select("i", F.to_json(F.struct("i", "s", "d", "a", "m", "t")),
                                F.to_json("a"), F.to_json("m"), F.to_json(F.array(F.struct("s", "d")))))
    diff(lambda s: df(s).select("i", F.to_json(F.struct("s", "t"), {"ignoreNullFields": "false"}),
                                F.to_json(F.struct("i", "a", "m"), {"pretty": "true"})))


def test_to_json_types(diff):
    diff(lambda s: s.sql("""select to_json(named_struct('d', date'2020-01-02', 't', timestamp'2020-01-02 03:04:05.123',
                                   'n', timestamp_ntz'2020-01-02 03:04:05', 'x', 1e20d, 'y', cast(1e-5 as double),
                                   'f', 1.5f, 'i', cast('Infinity' as double), 'dec', 1.50bd,
                                   'dec2', cast(1e-10 as decimal(20,15)), 'b', X'0102', 'bo', true,
                                   'by', cast(1 as tinyint), 'l', 3L)) as j,
                                   to_json(map(1, 'x', 2, null)) as m,
                                   to_json(array(array(1), array())) as a,
                                   to_json(named_struct('a', named_struct('b', cast(null as int)))) as e,
                                   to_json(named_struct('d', date'2020-01-02', 't', timestamp'2020-01-02 03:04:05'),
                                           map('dateFormat', 'dd/MM/yyyy', 'timestampFormat', 'yyyy HH')) as o"""))


def test_to_json_time_zone(diff):
    diff(lambda s: s.sql("""select to_json(named_struct('t', timestamp'2020-01-02 03:04:05'),
                                           map('timeZone', 'America/Los_Angeles')) as j"""))


def test_to_json_errors(diff_error):
    diff_error(lambda s: s.sql("select to_json(1)"), "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA")


def test_schema_of_json(diff):
    diff(lambda s: s.sql("""select schema_of_json('{"a":1, "b":[1.5, "x"], "c": {"d": null}, "e": true, "f": [],
                                                   "g": {}}') as a,
                                   schema_of_json('[{"a":1}, {"b":12345678901234567890}]') as b,
                                   schema_of_json('1') as c, schema_of_json('"x"') as d, schema_of_json('') as e,
                                   schema_of_json('{"a b":1, "`c":2, "n": NaN}') as f,
                                   schema_of_json('{"a":[1, 1.5]}') as g"""))
    diff(lambda s: s.range(1).select(
        F.schema_of_json(F.lit('{"a": 1, "b": 1.5}')),
        F.schema_of_json(F.lit('{"a": 1}'), {"primitivesAsString": "true"}),
        F.schema_of_json(F.lit('{"a": 1.5}'), {"prefersDecimal": "true"}),
        F.schema_of_json(F.lit("{a: 1}"), {"allowUnquotedFieldNames": "true"})))


def test_schema_of_json_errors(diff_error):
    diff_error(lambda s: s.sql("select schema_of_json(cast(null as string))"), "DATATYPE_MISMATCH.UNEXPECTED_NULL")


def test_get_json_object(diff):
    doc = '{"a":{"b":"x"},"c":[1,2,{"d":"e"}],"f":[{"d":"e"},{"d":"f"}],"g":[[1,2],[3]],"h":null,"i":1.50e3}'
    paths = ["$", "$.a", "$.a.b", "$.c", "$.c[2].d", "$.c[*]", "$.c[*].d", "$.f[*].d", "$.g[*][*]", "$.g[*][0]",
             "$.h", "$.i", "$['a']['b']", "$.c[5]", "$.missing", "a", "$.", "$..a", "$[*]", "$.*", '$["a"]',
             "$.g[0][1]"]
    diff(lambda s: s.createDataFrame([(doc,), ('{"c":["x"]}',), ("[1,2]",), ('"s"',), ("bad",), (None,), ("",),
                                      ("{'a': {'b': 'q'}}",), ('{"a":1,"a":2}',)], "j string")
         .select("j", *[F.get_json_object("j", p).alias(f"p{i}") for i, p in enumerate(paths)]))


def test_get_json_object_column_path(diff):
    rows = [('{"a": 1, "b": [1, 2]}', "$.a"), ('{"a": 1, "b": [1, 2]}', "$.b[1]"), ('{"a": 1}', None),
            (None, "$.a")]
    diff(lambda s: s.createDataFrame(rows, "j string, p string").select(F.expr("get_json_object(j, p)")))


def test_json_tuple(diff):
    diff(lambda s: docs(s).select("k", F.json_tuple("j", "a", "b", "c", "d", "zz")))
    diff(lambda s: docs(s).select(F.json_tuple("j", "b").alias("bee"), "k"))
    diff(lambda s: docs(s).createOrReplaceTempView("json_docs_t") or s.sql(
        "select k, x.* from json_docs_t lateral view json_tuple(j, 'a', 'c') x as p, q"))
    diff(lambda s: s.sql("""select json_tuple('{"a":1, "b":{"c":[1, "x"]}, "s": "t"}', 'a', 'b', 's')"""))


def test_json_tuple_errors(diff_error):
    diff_error(lambda s: s.sql("select json_tuple('{}')"), "WRONG_NUM_ARGS")
    diff_error(lambda s: s.sql("select json_tuple('{}', 1)"), "DATATYPE_MISMATCH.NON_STRING_TYPE")


def test_json_array_length_and_object_keys(diff):
    rows = [("[1,2,[3,4]]",), ("[]",), ("{}",), ("1",), ("[1,2",), ("",), ("[1,2] x",), (None,),
            ('{"a":1,"b":{"c":2}}',), ('{"a":1',), ('{"a":1,"a":2}',), ('{"é":[]}',)]
    diff(lambda s: s.createDataFrame(rows, "j string").select(
        "j", F.json_array_length("j"), F.json_object_keys("j")))


def test_from_json_partial_results_in_containers(diff):
    rows = [(1, '[{"a": "x"}, {"a": 2}]'), (2, '{"a": [{"b": "x"}], "m": {"k": {"b": "y"}}, "c": 1}'),
            (3, 'null')]
    diff(lambda s: s.createDataFrame(rows, "k int, j string").select(
        "k", F.from_json("j", "array<struct<a:int>>"),
        F.from_json("j", "a array<struct<b:int>>, m map<string, struct<b:int>>, c int"),
        F.from_json("j", "array<int>")))


def test_schema_text_errors(diff_error):
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'a FOO')"""), "PARSE_SYNTAX_ERROR")
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'FOO')"""), "UNSUPPORTED_DATATYPE")
    diff_error(lambda s: s.sql("""select from_json('{"a":1}', 'struct<a:intt>')"""), "UNSUPPORTED_DATATYPE")


def test_numbers_written_back_as_text(diff):
    diff(lambda s: s.sql("""select get_json_object('{"a":[1.50e3, -0, 1E2]}', '$.a') as a,
                                   get_json_object('{"a":[1.50e3, 2.50]}', '$.a[*]') as b,
                                   from_json('{"a":{"b":1.50e3, "c": -0, "d": 1E400}}', 'a STRING') as c,
                                   from_json('{"a":-0.0}', 'a STRING') as d,
                                   from_json('{"a":123456789012345678901234567890}', 'a STRING') as e,
                                   from_json('{"a":0.1234567890123456789}', 'a STRING') as f"""))
    diff(lambda s: s.sql("""select json_tuple('{"a":{"b":1.50e3}, "c": 2.50, "d": "x"}', 'a', 'c', 'd')"""))


def test_schema_of_csv(diff):
    diff(lambda s: s.sql("""select schema_of_csv('1,abc') as a,
                                   schema_of_csv('a,,"x,y",99999999999,1e400, 1.5') as b,
                                   schema_of_csv('12345678901234567890123') as c,
                                   schema_of_csv('"a""b",NaN,Inf,-Inf') as d,
                                   schema_of_csv(' ') as e"""))
    diff(lambda s: s.range(1).select(
        F.schema_of_csv(F.lit("1|2.5|true|2020-01-01|2020-01-01 10:00:00"), {"sep": "|"}),
        F.schema_of_csv(F.lit("01/02/2020"), {"dateFormat": "dd/MM/yyyy"}),
        F.schema_of_csv(F.lit("1;2"), {"sep": ";", "inferSchema": "false"}),
        F.schema_of_csv(F.lit("a\tb"), {"sep": "\t"})))


def test_schema_of_csv_errors(diff_error):
    diff_error(lambda s: s.sql("select schema_of_csv(cast(null as string))"), "DATATYPE_MISMATCH.UNEXPECTED_NULL")
