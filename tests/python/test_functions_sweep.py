"""Every function Ember registers, evaluated over columns of edge values against Apache Spark,
with ANSI mode off and on.

One table of edge values (EDGE) holds a column per argument type: NULL, empty and multi-byte
UTF-8 strings, 0, -0.0, NaN, ±Infinity, the limits of each integral type, decimals at precision
38, the epoch, leap days, and local times in America/Los_Angeles' spring gap and autumn overlap
(the session time zone of the sweep). Each column has a rotated twin (`i2` beside `i`) so that a
two-argument function meets many pairs of values.

SWEEP lists the functions by signature shape, family by family: each entry names the functions
and the argument lists they are called with. A family runs as one query per ANSI mode; where
either engine fails, its expressions run one by one, and each must give Spark's values, or
Spark's error class where Spark raises. test_every_function_is_swept reads SHOW FUNCTIONS, so a
function Ember adds must get a sweep entry or a reason in NOT_SWEPT.
"""

from __future__ import annotations

import re

import pytest

from harness import error_condition, schema_fields, session_conf, session_mode, to_plain, values_equal

ZONE = "America/Los_Angeles"

# Each column: its type and the SQL text of its values (cast to the type). Shorter lists repeat.
COLUMNS = {
    "b": ("tinyint", ["NULL", "0", "1", "-1", "127", "-128", "42"]),
    "sh": ("smallint", ["NULL", "0", "1", "-1", "32767", "-32768", "300"]),
    "i": ("int", ["NULL", "0", "1", "-1", "2147483647", "-2147483648", "42", "100000"]),
    "l": ("bigint", ["NULL", "0", "1", "-1", "9223372036854775807", "-9223372036854775808",
                     "1700000000", "86400000"]),
    "n": ("int", ["NULL", "0", "1", "2", "3", "-1", "5", "10"]),
    "fl": ("float", ["NULL", "'0.0'", "'-0.0'", "'NaN'", "'Infinity'", "'-Infinity'", "'1.5'",
                     "'3.4028235E38'", "'1.4E-45'", "'-2.5'", "'0.1'"]),
    "d": ("double", ["NULL", "'0.0'", "'-0.0'", "'NaN'", "'Infinity'", "'-Infinity'", "'1.5'",
                     "'-2.5'", "'1.7976931348623157E308'", "'4.9E-324'", "'0.5'", "'1e10'",
                     "'-1.0'", "'2.0'"]),
    "m": ("decimal(38,18)", ["NULL", "0", "'99999999999999999999.999999999999999999'",
                             "'-99999999999999999999.999999999999999999'",
                             "'0.000000000000000001'", "1.5", "-2.5", "12345.678"]),
    "st": ("string", ["NULL", "''", "'a'", "'Hello World'", "'ß'", "'日本語'", "'😀x'",
                      "'  padded  '", "'ǅ'", "'123'", "'-4.5'", "'NaN'", "'2024-02-29'", "'İ'",
                      "'a,b,,c'", "'AbC'"]),
    "bn": ("binary", ["NULL", "X''", "X'00'", "X'FF00'", "X'E697A5E69CAC'", "X'61626364'"]),
    "bo": ("boolean", ["NULL", "true", "false"]),
    "dt": ("date", ["NULL", "'1970-01-01'", "'2024-02-29'", "'1900-02-28'", "'0001-01-01'",
                    "'9999-12-31'", "'2024-03-10'", "'2024-11-03'", "'1969-12-31'",
                    "'2000-02-29'", "'2023-12-31'"]),
    "ts": ("timestamp", ["NULL", "'1970-01-01 00:00:00'", "'2024-03-10 02:30:00'",
                         "'2024-11-03 01:30:00'", "'2024-02-29 23:59:59.999999'",
                         "'1900-02-28 12:00:00'", "'0001-01-01 00:00:00'",
                         "'9999-12-31 23:59:59.999999'", "'1969-12-31 23:59:59'",
                         "'2024-03-10 01:59:59'", "'2024-11-03 01:00:00'"]),
    "ntz": ("timestamp_ntz", ["NULL", "'1970-01-01 00:00:00'", "'2024-03-10 02:30:00'",
                              "'2024-11-03 01:30:00'", "'2024-02-29 23:59:59.999999'",
                              "'1900-02-28 12:00:00'", "'0001-01-01 00:00:00'",
                              "'9999-12-31 23:59:59.999999'"]),
    "js": ("string", ["NULL", "''", "'{\"a\":1,\"b\":[1,2]}'", "'[1,\"ß\",null]'", "'{\"a\":'",
                      "'{\"a\":{\"b\":\"日本\"}}'", "'[]'", "'123'"]),
    "ai": ("array<int>", ["NULL", "array()", "array(1, 2, 3)", "array(NULL, 1)",
                          "array(2147483647, -2147483648)", "array(3, 1, 2, 1)"]),
    "ad": ("array<double>", ["NULL", "array()", "array(0.0D, -0.0D, CAST('NaN' AS DOUBLE))",
                             "array(1.5D, NULL, CAST('Infinity' AS DOUBLE))", "array(-1.0D)"]),
    "ast": ("array<string>", ["NULL", "array()", "array('a', 'ß')", "array(NULL, 'b')",
                              "array('日本', '😀')", "array('', 'a', 'a')"]),
    "mp": ("map<string,int>", ["NULL", "map()", "map('a', 1, 'b', NULL)",
                               "map('ß', 2147483647)", "map('', 0, '日本', -1)"]),
}
ROWS = max(len(values) for _, values in COLUMNS.values())


def _twin(values: list[str], k: int) -> str:
    """The rotated twin's value of row k: a different pairing with the first column's rows."""
    return values[(k * 3 + len(values) // 2 + 1) % len(values)]


def edge_sql() -> str:
    """The edge-value table as a query: column k numbers the rows."""
    names = ["k"]
    for name in COLUMNS:
        names += [name, name + "2"]
    rows = []
    for k in range(ROWS):
        cells = [str(k)]
        for type_name, values in COLUMNS.values():
            for text in (values[k % len(values)], _twin(values, k)):
                cells.append(f"CAST({text} AS {type_name})")
        rows.append("(" + ", ".join(cells) + ")")
    return f"SELECT * FROM VALUES {', '.join(rows)} AS edge({', '.join(names)})"


NUM = ["b", "sh", "i", "l", "fl", "d", "m"]
INTEGRAL = ["b", "sh", "i", "l"]
NUM_PAIRS = [("b", "b2"), ("sh", "sh2"), ("i", "i2"), ("l", "l2"), ("fl", "fl2"), ("d", "d2"),
             ("m", "m2"), ("i", "l2"), ("l", "d2"), ("m", "i2"), ("b", "m2")]
INTEGRAL_PAIRS = [("b", "b2"), ("sh", "sh2"), ("i", "i2"), ("l", "l2"), ("i", "l2")]
ANY = ["i", "d", "m", "st", "bn", "bo", "dt", "ts", "ai", "mp"]
COMPARABLE_PAIRS = NUM_PAIRS + [("st", "st2"), ("bn", "bn2"), ("bo", "bo2"), ("dt", "dt2"),
                                ("ts", "ts2"), ("ntz", "ntz2"), ("dt", "ts2"), ("ai", "ai2")]


def unary(*columns):
    return [[c] for c in columns]


def pairs(column_pairs):
    return [list(p) for p in column_pairs]


# family -> [(function names, argument lists)]. An argument is SQL text over EDGE's columns.
# Operators are written between their operands.
SWEEP = {
    "math": [
        (["abs", "negative", "positive", "sign", "signum", "ceil", "ceiling", "floor", "round",
          "bround", "sqrt", "cbrt", "exp", "expm1", "ln", "log10", "log1p", "log2", "sin", "cos",
          "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
          "cot", "sec", "csc", "degrees", "radians", "rint", "isnan", "zeroifnull",
          "nullifzero", "bin", "hex", "factorial", "-"], unary(*NUM)),
        (["bit_count", "~"], unary(*INTEGRAL, "bo")),
        (["round", "bround"], [["d", "n"], ["d", "-1"], ["m", "n"], ["m", "2"], ["i", "-2"],
                               ["l", "-18"], ["fl", "1"], ["b", "-1"], ["sh", "-3"]]),
        (["ceil", "floor"], [["d", "2"], ["m", "-1"], ["l", "-3"], ["i", "1"]]),
        (["atan2", "hypot", "pow", "power", "log", "nanvl"], pairs(NUM_PAIRS)),
        (["+", "-", "*", "/", "%", "div", "mod", "pmod", "try_add", "try_subtract",
          "try_multiply", "try_divide", "try_mod", "greatest", "least"], pairs(NUM_PAIRS)),
        (["&", "|", "^", "shiftleft", "shiftright", "shiftrightunsigned", "<<", ">>", ">>>"],
         pairs(INTEGRAL_PAIRS) + [["i", "n"], ["l", "n2"], ["l", "i2"]]),
        (["bit_get", "getbit"], [["l", "n"], ["i", "n2"], ["b", "n"]]),
        (["width_bucket"], [["d", "0", "10", "n"], ["d", "d2", "1.0", "3"], ["m", "0", "100", "l2"],
                            ["i", "-1", "1", "n2"]]),
        (["conv"], [["st", "10", "16"], ["st", "16", "-10"], ["st", "36", "2"], ["i", "n", "16"],
                    ["l", "10", "-2"]]),
        (["pi", "e"], [[]]),
    ],
    "compare": [
        (["<", "<=", ">", ">=", "=", "==", "<=>", "equal_null"], pairs(COMPARABLE_PAIRS)),
        (["and", "or"], [["bo", "bo2"]]),
        (["not", "!"], [["bo"]]),
    ],
    "string": [
        (["ascii", "base64", "bit_length", "char_length", "character_length", "len", "length",
          "octet_length", "lower", "lcase", "upper", "ucase", "initcap", "reverse", "soundex",
          "trim", "ltrim", "rtrim", "btrim", "quote", "unbase64", "unhex", "is_valid_utf8",
          "make_valid_utf8", "validate_utf8", "try_validate_utf8", "url_encode", "url_decode",
          "try_url_decode", "to_binary", "try_to_binary", "sentences", "mask", "hex",
          "to_base32", "from_base32"], unary("st")),
        (["length", "octet_length", "bit_length", "reverse", "hex", "base64", "to_base32",
          "is_valid_utf8", "make_valid_utf8", "try_validate_utf8", "concat"], unary("bn")),
        (["space"], unary("n")),
        (["chr", "char"], unary("n", "i", "l")),
        (["concat", "contains", "startswith", "endswith", "instr", "locate", "position",
          "find_in_set", "levenshtein", "jaro_winkler_similarity", "like", "ilike", "split",
          "concat_ws", "btrim", "trim", "ltrim", "rtrim"],
         [["st", "st2"]]),
        (["elt"], [["n", "st", "st2"], ["i", "st", "st2"]]),
        (["luhn_check"], unary("st", "l", "i")),
        (["substring_index", "split_part"], [["st", "st2", "n"], ["st", "','", "n2"],
                                             ["st", "''", "i"]]),
        (["repeat", "left", "right", "substr", "substring"], [["st", "n"], ["bn", "n2"]]),
        (["substr", "substring"], [["st", "i", "n"], ["st", "n", "i2"], ["bn", "n", "i"]]),
        (["lpad", "rpad"], [["st", "n"], ["st", "n", "st2"], ["bn", "n", "bn2"]]),
        (["overlay"], [["st", "st2", "n"], ["st", "st2", "n", "n2"], ["bn", "bn2", "n"]]),
        (["replace", "translate"], [["st", "st2", "'x'"], ["st", "'a'", "st2"]]),
        (["replace"], [["st", "st2"]]),
        (["locate", "instr"], [["st2", "st", "n"], ["'a'", "st", "i"]]),
        (["mask"], [["st", "'Q'", "'q'", "'9'", "'*'"], ["st", "NULL", "NULL", "NULL", "'-'"]]),
        (["encode"], [["st", "'UTF-8'"], ["st", "'US-ASCII'"], ["st", "'UTF-16'"],
                      ["st", "'ISO-8859-1'"]]),
        (["decode"], [["bn", "'UTF-8'"], ["bn", "'US-ASCII'"], ["bn", "'UTF-16LE'"],
                      ["bn", "'ISO-8859-1'"]]),
        (["to_binary", "try_to_binary"], [["st", "'utf-8'"], ["st", "'base64'"],
                                          ["st", "'hex'"]]),
        (["rlike", "regexp", "regexp_like", "regexp_count", "regexp_substr", "regexp_instr",
          "regexp_extract_all", "split", "regexp_extract"],
         [["st", "'[a-z]+'"], ["st", "'(\\\\p{L})'"], ["st", "''"], ["st", "'.'"]]),
        (["regexp_replace"], [["st", "'[a-z]'", "'#'"], ["st", "''", "'-'"],
                              ["st", "'(.)'", "'$1$1'"]]),
        (["regexp_extract", "regexp_extract_all"], [["st", "'(\\\\w)(\\\\w)?'", "2"]]),
        (["format_string", "printf"], [["'%s|%d|%.3f|%10s|%-5s|%x'", "st", "i", "d", "st2", "l"],
                                       ["'%e %g %b %c'", "d", "fl", "bo", "n"]]),
        (["format_number"], [["d", "n"], ["m", "2"], ["l", "0"], ["fl", "3"], ["i", "'#,##0.0'"],
                             ["d", "''"]]),
        (["to_number", "try_to_number"], [["st", "'999.99'"], ["st", "'S999'"],
                                          ["st", "'$99,999.00'"]]),
        (["to_char", "to_varchar"], [["m", "'999,999.999'"], ["i", "'S9999999999'"],
                                     ["dt", "'yyyy-MM-dd'"], ["bn", "'hex'"], ["bn", "'base64'"]]),
        (["get_json_object"], [["js", "'$.a'"], ["js", "'$[1]'"], ["js", "'$.b[0]'"],
                               ["js", "'$'"]]),
        (["json_array_length", "json_object_keys"], unary("js")),
        (["parse_url", "try_parse_url"], [["st", "'HOST'"], ["'http://u@日本.com:80/p?q=1#f'", "'QUERY'"],
                                          ["'http://a.b/c?x=1&y=ß'", "'QUERY'", "'y'"]]),
        (["to_json"], [["named_struct('i', i, 'd', d, 'st', st, 'ts', ts, 'm', m)"], ["ai"],
                       ["mp"], ["ad"]]),
        (["levenshtein"], [["st", "st2", "n"]]),
        (["soundex", "initcap", "upper", "lower"], [["concat(st, st2)"]]),
    ],
    "datetime": [
        (["year", "quarter", "month", "day", "dayofmonth", "dayofweek", "dayofyear", "weekday",
          "weekofyear", "dayname", "monthname", "last_day", "unix_date", "to_date"],
         unary("dt", "ts", "ntz")),
        (["hour", "minute", "second", "unix_seconds", "unix_millis", "unix_micros",
          "to_timestamp", "to_timestamp_ntz", "to_timestamp_ltz", "unix_timestamp",
          "to_unix_timestamp"], unary("ts", "ntz")),
        (["to_date", "try_to_date", "to_timestamp", "to_timestamp_ntz", "to_timestamp_ltz",
          "try_to_timestamp", "unix_timestamp", "to_unix_timestamp"], unary("st")),
        (["to_date", "to_timestamp", "try_to_timestamp", "unix_timestamp"],
         [["st", "'yyyy-MM-dd'"], ["st", "'dd/MM/yyyy HH:mm'"]]),
        (["date_from_unix_date"], unary("i", "n")),
        (["timestamp_seconds"], unary("l", "i", "d", "m")),
        (["timestamp_millis", "timestamp_micros"], unary("l", "i")),
        (["from_unixtime"], [["l"], ["i"], ["l", "'yyyy-MM-dd HH:mm:ss.SSS VV'"]]),
        (["date_add", "date_sub", "dateadd", "add_months"], [["dt", "i"], ["dt", "n"],
                                                             ["dt", "sh"], ["ts", "n2"]]),
        (["datediff", "date_diff", "months_between"], [["dt", "dt2"], ["ts", "ts2"], ["dt", "ts"]]),
        (["months_between"], [["ts", "ts2", "false"]]),
        (["next_day"], [["dt", "'Mon'"], ["dt", "'SUNDAY'"], ["dt", "st"], ["ts", "'fr'"]]),
        (["make_date"], [["i", "n", "n2"], ["2024", "2", "29"], ["2023", "n", "29"]]),
        (["make_timestamp", "make_timestamp_ltz", "try_make_timestamp",
          "try_make_timestamp_ltz"],
         [["2024", "3", "10", "2", "30", "0"], ["2024", "11", "3", "1", "30", "m"],
          ["i", "n", "n2", "n", "n2", "d"], ["2024", "2", "29", "23", "59", "60"],
          ["2024", "3", "10", "2", "30", "0", "'UTC'"]]),
        (["make_timestamp_ntz", "try_make_timestamp_ntz"],
         [["2024", "3", "10", "2", "30", "0"], ["i", "n", "n2", "n", "n2", "d"]]),
        (["date_trunc"], [["'YEAR'", "ts"], ["'QUARTER'", "ts"], ["'WEEK'", "ts"], ["'DAY'", "ts"],
                          ["'HOUR'", "ts"], ["'MINUTE'", "ntz"], ["'MILLISECOND'", "ts"],
                          ["st", "ts"]]),
        (["trunc"], [["dt", "'MM'"], ["dt", "'YEAR'"], ["dt", "'WEEK'"], ["dt", "'QUARTER'"],
                     ["dt", "st"]]),
        (["from_utc_timestamp", "to_utc_timestamp"], [["ts", "'America/Los_Angeles'"],
                                                      ["ts", "'UTC'"], ["ntz", "'+05:30'"],
                                                      ["ts", "'Asia/Tokyo'"]]),
        (["date_format"], [["ts", "'yyyy-MM-dd HH:mm:ss.SSSSSS XXX'"], ["ts", "'EEE MMM d h:mm a z'"],
                           ["dt", "'D w u'"], ["ntz", "'yyyy G'"]]),
        (["convert_timezone"], [["'UTC'", "'America/Los_Angeles'", "ntz"],
                                ["'America/Los_Angeles'", "ntz"]]),
        (["make_dt_interval"], [["n", "n2", "n", "d"], ["i"], ["n", "i", "0", "m"]]),
        (["make_ym_interval"], [["n", "n2"], ["i", "i2"]]),
        (["make_interval", "try_make_interval"], [["n", "n2", "n", "n2", "n", "n2", "d"],
                                                  ["i", "i2"]]),
        (["time_bucket"], [["INTERVAL '1' DAY", "ts"], ["INTERVAL '2' HOUR", "ntz"],
                           ["INTERVAL '1' MONTH", "ts"]]),
        (["current_timezone"], [[]]),
    ],
    "conditional": [
        (["isnull", "isnotnull", "typeof"], unary(*ANY)),
        (["nvl2"], [["i", "d", "m"], ["st", "st2", "'x'"], ["ts", "dt", "dt2"]]),
        (["nullif", "equal_null"], [["i", "i2"], ["st", "st2"], ["d", "d2"], ["dt", "ts"]]),
        (["greatest", "least"], [["st", "st2"], ["dt", "dt2", "ts"], ["d", "d2", "fl"],
                                 ["i", "l2", "m"], ["bo", "bo2"]]),
        (["assert_true"], [["isnull(k)"]]),
        (["raise_error"], [["st"], ["i"]]),
    ],
    "hash": [
        (["hash", "xxhash64"], unary(*ANY, "b", "sh", "fl", "ntz", "ad", "ast") +
         [["i", "st", "d"], ["named_struct('a', i, 'b', st)"]]),
        (["md5", "sha", "sha1", "crc32"], unary("st", "bn")),
        (["sha2"], [["st", "256"], ["bn", "224"], ["st", "512"], ["st", "0"], ["st", "384"],
                    ["st", "1"]]),
        (["hmac"], [["st", "st2"], ["bn", "'k'", "'SHA512'"], ["st", "bn", "'SHA1'"]]),
    ],
    "collection": [
        (["size", "cardinality", "array_size", "array_distinct", "array_max", "array_min",
          "sort_array", "array_sort", "array_compact", "reverse", "concat",
          "to_json", "typeof"], unary("ai", "ad", "ast")),
        (["array_contains", "array_position", "array_remove", "array_append", "array_prepend",
          "element_at", "try_element_at", "get"], [["ai", "i"], ["ad", "d"], ["ast", "st"],
                                                   ["ai", "n"]]),
        (["array_union", "array_intersect", "array_except", "arrays_overlap", "concat",
          "arrays_zip"], [["ai", "ai2"], ["ad", "ad2"], ["ast", "ast2"]]),
        (["sort_array"], [["ai", "false"], ["ad", "false"], ["ast", "true"]]),
        (["array_join"], [["ast", "','"], ["ast", "st", "'NULL'"], ["ai", "'-'"]]),
        (["slice"], [["ai", "n", "n2"], ["ast", "-1", "n"], ["ad", "i", "1"]]),
        (["array_insert"], [["ai", "n", "i"], ["ast", "-1", "st"], ["ad", "n2", "d"]]),
        (["array_repeat"], [["i", "n"], ["st", "n2"], ["d", "n"]]),
        (["array"], [["i", "i2"], ["st"], ["d", "fl", "i"], []]),
        (["sequence"], [["n", "n2"], ["1", "n", "n2"], ["dt", "date_add(dt, n)"]]),
        (["flatten"], [["array(ai, ai2)"], ["array(ast, NULL)"]]),
        (["map_keys", "map_values", "map_entries", "size", "cardinality"], unary("mp")),
        (["map_contains_key", "element_at", "try_element_at"], [["mp", "st"], ["mp", "'a'"]]),
        (["map_concat"], [["mp", "mp2"]]),
        (["map"], [["st", "i"], ["'a'", "d", "'b'", "d2"]]),
        (["map_from_arrays"], [["ast", "ai"], ["ai", "ad"]]),
        (["map_from_entries"], [["arrays_zip(ast, ai)"]]),
        (["str_to_map"], [["st"], ["st", "','", "'b'"], ["'a:1,b:2,a:3'"]]),
        (["named_struct"], [["'a'", "i", "'b'", "st"], ["'x'", "mp"]]),
        (["[]"], [["ai", "n"], ["mp", "st"], ["ast", "i"], ["ad", "0"]]),
        (["from_json"], [["js", "'a INT, b ARRAY<INT>'"], ["js", "'ARRAY<STRING>'"],
                         ["js", "'MAP<STRING, STRING>'"]]),
        (["schema_of_json"], [["'{\"a\":1,\"b\":[1.5,null],\"c\":\"ß\"}'"], ["'[]'"]]),
    ],
    "special_forms": [
        (["coalesce"], [["i", "i2"], ["st", "st2", "'x'"], ["d", "m"]]),
        (["nvl", "ifnull"], [["st", "st2"], ["d", "i"], ["ts", "dt"]]),
        (["if"], [["bo", "i", "l2"], ["bo", "st", "st2"], ["bo2", "d", "m"]]),
        (["tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "boolean",
          "string"], [["st"], ["d"]]),
        (["date", "timestamp"], [["st"], ["ts"]]),
        (["binary"], [["st"], ["i"]]),
        (["date_part", "datepart"], [["'YEAR'", "ts"], ["'dayofweek'", "dt"], ["'SECONDS'", "ntz"]]),
        (["!=", "<>"], [["i", "i2"], ["st", "st2"], ["d", "d2"]]),
        (["||"], [["st", "st2"], ["st", "i"]]),
        (["between"], [["i", "n", "i2"], ["st", "'a'", "st2"], ["d", "d2", "'Infinity'"]]),
        (["case"], [["i", "i2", "st", "'x'"], ["bo", "true", "d", "m"]]),
        (["current_catalog", "current_database", "current_schema"], [[]]),
    ],
    "cast": [
        (["cast"], [[c, t] for c in ["b", "sh", "i", "l", "fl", "d", "m"]
                    for t in ["tinyint", "int", "bigint", "float", "decimal(10,2)", "string",
                              "boolean", "timestamp"]] +
         [["st", t] for t in ["int", "bigint", "double", "decimal(38,18)", "date", "timestamp",
                              "timestamp_ntz", "boolean", "binary"]] +
         [[c, t] for c in ["dt", "ts", "ntz"] for t in ["string", "date", "timestamp",
                                                        "timestamp_ntz", "bigint"]] +
         [["bn", "string"], ["bo", "int"], ["ai", "array<string>"], ["mp", "string"],
          ["ad", "array<int>"]]),
    ],
}

# Calls by syntax that SHOW FUNCTIONS does not list: try_cast follows cast with NULL for errors,
# and the subscript `[]` is a[i] and m[k].
SYNTAX_FUNCTIONS = {"try_cast", "[]"}

INFIX = {"+", "-", "*", "/", "%", "&", "|", "^", "<", "<=", ">", ">=", "=", "==", "<=>", "and",
         "or", "div", "!=", "<>", "||", "<<", ">>", ">>>"}

# Registered functions the sweep leaves to other tests, with the reason.
NOT_SWEPT = {
    # Aggregates take a column of rows, not values: tests/python/test_functions_aggregate*.py
    # and the sketch test files sweep them over groups with NULLs, empty input and overflow.
    **{name: "aggregate" for name in [
        "any", "any_value", "approx_count_distinct", "approx_percentile", "array_agg", "avg",
        "bit_and", "bit_or", "bit_xor", "bitmap_and_agg", "bitmap_construct_agg",
        "bitmap_or_agg", "bool_and", "bool_or", "collect_list", "collect_set", "collect_union",
        "corr", "count", "count_if", "count_min_sketch", "covar_pop", "covar_samp", "every",
        "first", "first_value", "histogram_numeric", "hll_sketch_agg", "hll_union_agg",
        "kurtosis", "last", "last_value", "listagg", "max", "max_by", "mean", "median", "min",
        "min_by", "mode", "percentile", "percentile_approx", "percentile_cont",
        "percentile_disc", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept",
        "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "schema_of_variant_agg",
        "skewness", "some", "std", "stddev", "stddev_pop", "stddev_samp", "string_agg", "sum",
        "theta_intersection_agg", "theta_sketch_agg", "theta_union_agg", "try_avg", "try_sum",
        "var_pop", "var_samp", "variance", "vector_avg", "vector_sum",
        "kll_merge_agg_bigint", "kll_merge_agg_double", "kll_merge_agg_float",
        "kll_sketch_agg_bigint", "kll_sketch_agg_double", "kll_sketch_agg_float",
        "tuple_intersection_agg_double", "tuple_intersection_agg_integer",
        "tuple_sketch_agg_double", "tuple_sketch_agg_integer", "tuple_union_agg_double",
        "tuple_union_agg_integer"]},
    # Functions of sketch images: their arguments are BINARY sketches an aggregate builds, not
    # edge values (test_functions_sketch.py, _hll.py, _kll.py, _theta.py).
    **{name: "takes a sketch image" for name in [
        "bitmap_bit_position", "bitmap_bucket_number", "bitmap_count", "hll_sketch_estimate",
        "hll_union", "theta_difference", "theta_intersection", "theta_sketch_estimate",
        "theta_union"] + [f"kll_sketch_{op}_{t}" for op in ["get_n", "get_quantile", "get_rank",
                                                             "merge", "to_string"]
                          for t in ["bigint", "double", "float"]] +
        [f"tuple_{op}_{t}" for op in ["difference", "difference_theta", "intersection",
                                      "intersection_theta", "sketch_estimate", "sketch_summary",
                                      "sketch_theta", "union", "union_theta"]
         for t in ["double", "integer"]]},
    # Values that change from run to run or with the query's start time.
    **{name: "nondeterministic or time-dependent" for name in [
        "rand", "randn", "random", "randstr", "uniform", "monotonically_increasing_id",
        "spark_partition_id", "current_date", "current_timestamp", "now", "current_time",
        "input_file_name", "input_file_block_start", "input_file_block_length", "curdate",
        "localtimestamp", "uuid", "shuffle"]},
    # The user running the engine and the engine's build: test_functions_added.py compares their
    # types and how the user functions agree.
    **{name: "the engine's user and build" for name in [
        "current_user", "user", "session_user", "version"]},
    # Higher-order functions take lambdas: test_higher_order_functions.py.
    **{name: "takes a lambda" for name in [
        "aggregate", "exists", "filter", "forall", "map_filter", "map_zip_with", "reduce",
        "transform", "transform_keys", "transform_values", "zip_with"]},
    # Documents in their own languages, each with its test file of documents and schemas.
    **{name: "VARIANT values: test_variant.py" for name in [
        "is_valid_variant", "is_variant_null", "parse_json", "try_parse_json", "schema_of_variant",
        "to_variant_object", "try_variant_get", "variant_get", "variant_array_append",
        "try_variant_array_append", "variant_delete", "variant_insert", "try_variant_insert",
        "variant_set", "try_variant_set", "variant_strip_nulls"]},
    **{name: "XML documents: test_functions_xml.py, test_functions_xpath.py" for name in [
        "from_xml", "schema_of_xml", "to_xml", "xpath", "xpath_boolean", "xpath_double",
        "xpath_float", "xpath_int", "xpath_long", "xpath_number", "xpath_short", "xpath_string"]},
    **{name: "CSV records: test_functions_csv.py" for name in ["from_csv", "schema_of_csv",
                                                              "to_csv"]},
    **{name: "keys and ciphertexts of given lengths: test_functions_misc.py" for name in [
        "aes_encrypt", "aes_decrypt", "try_aes_decrypt"]},
    **{name: "Java classes and methods by name: test_functions_reflect.py" for name in [
        "reflect", "java_method", "try_reflect"]},
    **{name: "ARRAY<FLOAT> vectors of equal length: test_functions_misc.py" for name in [
        "vector_cosine_similarity", "vector_inner_product", "vector_l2_distance", "vector_norm",
        "vector_normalize"]},
    **{name: "TIME values: test_time_type.py" for name in [
        "make_time", "time_diff", "time_from_micros", "time_from_millis", "time_from_seconds",
        "time_to_micros", "time_to_millis", "time_to_seconds", "time_trunc", "to_time",
        "try_to_time"]},
    **{name: "a collation name; collated strings: test_collation.py" for name in ["collate", "collation"]},
    "window_time": "the window column of a time-window aggregation: test_time_window.py",
    # Names the analyzer and the parser resolve outside the registry, which SHOW FUNCTIONS lists
    # as Spark does: syntax, generators, window functions and grouping markers.
    **{name: "syntax: test_functions_operators.py, test_sql*.py" for name in [
        "in", "when", "extract", "struct"]},
    **{name: "generators and table functions: test_generators.py, test_sql_basic.py" for name in [
        "explode", "explode_outer", "posexplode", "posexplode_outer", "inline", "inline_outer",
        "stack", "json_tuple", "range"]},
    **{name: "table-valued functions: test_builtin_table_functions.py" for name in [
        "variant_explode", "variant_explode_outer", "sql_keywords", "collations"]},
    **{name: "window and grouping functions: test_functions_agg_sweep.py, test_windows.py"
       for name in ["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
                    "lag", "lead", "nth_value", "grouping", "grouping_id", "window",
                    "session_window"]},
    "counter_diff": "a window function: test_functions_window_counter.py, test_functions_agg_sweep.py",
    "time": "TIME values: test_time_type.py",
}


def call_sql(name: str, args: list[str]) -> str:
    if name == "cast":
        return f"CAST({args[0]} AS {args[1]})"
    if name in INFIX and len(args) == 2:
        return f"({args[0]} {name} {args[1]})"
    if name in ("not", "!", "~", "-") and len(args) == 1:
        return f"({name} {args[0]})"
    if name == "[]":
        return f"{args[0]}[{args[1]}]"
    if name == "between":
        return f"({args[0]} BETWEEN {args[1]} AND {args[2]})"
    if name == "case":
        return f"CASE {args[0]} WHEN {args[1]} THEN {args[2]} ELSE {args[3]} END"
    return f"{name}({', '.join(args)})"


def family_calls(family: str) -> list[tuple[str, str]]:
    """(function name, SQL expression) for every call of a family."""
    return [(name, call_sql(name, args)) for names, arg_lists in SWEEP[family]
            for name in names for args in arg_lists]


_CONDITION = re.compile(r"\[([A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)*)\]")


def condition_of(exc: BaseException) -> str:
    """The error class of a failure. The classic client wraps some run-time errors (Java
    exceptions Spark gives no class) without one: those read `java:`; values the Python client
    cannot convert (dates beyond year 9999, say) read `client:`."""
    value = error_condition(exc)
    if value:
        return value
    match = _CONDITION.search(str(exc))
    if match:
        return match.group(1)
    if isinstance(exc, (ValueError, OverflowError)):
        return f"client: {type(exc).__name__}: {str(exc)[:100]}"
    return f"java: {type(exc).__name__}: {str(exc)[:200]}"


# Errors of a client that cannot hold a result Spark computed: the classic client's datetime
# conversion fails within a day of 0001-01-01 and beyond year 9999 (`client:`), and neither
# client converts CALENDAR INTERVAL values (the classic one raises NOT_IMPLEMENTED, Spark
# Connect UNSUPPORTED_DATA_TYPE_FOR_ARROW_CONVERSION).
UNCONVERTIBLE = {"NOT_IMPLEMENTED", "UNSUPPORTED_DATA_TYPE_FOR_ARROW_CONVERSION"}


def unconvertible(result) -> bool:
    return result[0] == "error" and (result[1].startswith("client:") or result[1] in UNCONVERTIBLE)


def run_query(spark, expressions: list[str], as_text: bool = False):
    """("ok", field types, rows ordered by k) or ("error", error class). With `as_text` the
    rows hold each result CAST to STRING (the types are still the expressions' own)."""
    columns = ", ".join(f"{e} AS c{j}" for j, e in enumerate(expressions))
    query = f"SELECT k, {columns} FROM ({edge_sql()})"
    with session_mode(spark):
        try:
            df = spark.sql(query)
            fields = schema_fields(df.schema)
            if as_text:
                text = ", ".join(f"CAST(c{j} AS STRING) AS c{j}" for j in range(len(expressions)))
                df = spark.sql(f"SELECT k, {text} FROM ({query})")
            rows = [tuple(to_plain(v) for v in row) for row in df.orderBy("k").collect()]
        except Exception as exc:  # noqa: BLE001 - the error is the result
            return ("error", condition_of(exc))
    return ("ok", [f"{f.type}{'' if f.nullable else ' NOT NULL'}" for f in fields[1:]], rows)


def column_difference(expected, actual, j: int) -> str | None:
    _, e_types, e_rows = expected
    _, a_types, a_rows = actual
    if e_types[j] != a_types[j]:
        return f"type: spark {e_types[j]}, ember {a_types[j]}"
    bad = [(row[0], row[j + 1], other[j + 1]) for row, other in zip(e_rows, a_rows)
           if not values_equal(row[j + 1], other[j + 1], 1e-12)]
    if bad:
        k, e, a = bad[0]
        return f"{len(bad)} rows differ; row {k}: spark {e!r}, ember {a!r}"
    return None


def _one_difference(expected, actual) -> str | None:
    if expected[0] == "ok" and actual[0] == "ok":
        return column_difference(expected, actual, 0)
    if expected[0] == "error" and actual[0] == "error":
        e, a = expected[1], actual[1]
        # A Java exception without a class matches any error; values neither client can
        # convert match each other.
        if e == a or e.startswith("java:") or (e.startswith("client:") and a.startswith("client:")):
            return None
    if expected != actual:
        return (f"spark {expected[1] if expected[0] == 'error' else 'returns'}, "
                f"ember {actual[1] if actual[0] == 'error' else 'returns'}")
    return None


def sweep_differences(ember, oracle, expressions: list[str]) -> dict[str, str]:
    """Expression -> how Ember differs from Spark, for the expressions that differ. Runs them
    in one query; where either engine fails, halves the list until each failure is one
    expression's, whose error class is then compared. A result a client cannot hold is compared
    as its text."""
    expected, actual = run_query(oracle, expressions), run_query(ember, expressions)
    if len(expressions) == 1 and (unconvertible(expected) or unconvertible(actual)):
        expected, actual = (run_query(oracle, expressions, as_text=True),
                            run_query(ember, expressions, as_text=True))
    if expected[0] == "ok" and actual[0] == "ok":
        return {e: problem for j, e in enumerate(expressions)
                if (problem := column_difference(expected, actual, j))}
    if len(expressions) == 1:
        problem = _one_difference(expected, actual)
        return {expressions[0]: problem} if problem else {}
    half = len(expressions) // 2
    return {**sweep_differences(ember, oracle, expressions[:half]),
            **sweep_differences(ember, oracle, expressions[half:])}


# Expressions whose difference from Spark (in either ANSI mode) is known and not fixed yet, by
# reason: the sweep's open differences. They still run; only their difference is tolerated.
KNOWN = {
    **dict.fromkeys([
        'repeat(bn, n2)',
        'right(bn, n2)',
        'CAST(bn AS string)',
    ], 'BINARY taken as a STRING (repeat and right do so, as Spark) keeps its invalid UTF-8, which the classic client shows as U+FFFD and the Spark Connect client cannot decode'),
    **dict.fromkeys([
        "regexp_count(st, '')",
        "regexp_replace(st, '', '-')",
    ], "empty regular expressions over supplementary characters: Java matches between the UTF-16 surrogates of one character (and encodes the halves as '?'), where Ember matches between characters"),
    **dict.fromkeys([
        "to_json(named_struct('i', i, 'd', d, 'st', st, 'ts', ts, 'm', m))",
    ], 'to_json of a timestamp before 1883 in America/Los_Angeles: the local mean time offset has seconds (-07:52:58), which Ember cuts to minutes'),
}


@pytest.mark.parametrize("ansi", ["false", "true"])
@pytest.mark.parametrize("family", list(SWEEP))
def test_sweep(ember, oracle, family, ansi):
    with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi,
                      spark_sql_session_timeZone=ZONE):
        differences = sweep_differences(ember, oracle, [e for _, e in family_calls(family)])
    unexpected = {e: p for e, p in differences.items() if e not in KNOWN}
    assert not unexpected, "\n".join(f"{e}: {p}" for e, p in unexpected.items())


def test_every_function_is_swept(ember):
    with session_mode(ember):
        # SYSTEM: the Python functions other tests register are no built-ins to sweep.
        registered = {row[0] for row in ember.sql("SHOW SYSTEM FUNCTIONS").collect()}
    swept = {name for family in SWEEP for names, _ in SWEEP[family] for name in names}
    missing = sorted(registered - swept - set(NOT_SWEPT))
    assert not missing, f"functions with no sweep entry and no reason in NOT_SWEPT: {missing}"
    stale = sorted((swept | set(NOT_SWEPT)) - registered - SYNTAX_FUNCTIONS)
    assert not stale, f"sweep entries for functions Ember does not register: {stale}"
