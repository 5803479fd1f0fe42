"""String functions at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check

EXPRS = [
    'concat(s, NULL)',
    'concat(s, s)',
    "concat_ws('|', s, NULL, s)",
    'concat_ws(NULL, s)',
    'length(s)',
    'char_length(s)',
    'octet_length(s)',
    'bit_length(s)',
    'lower(s)',
    "upper('ßtraße ǅ')",
    'initcap(s)',
    "initcap('hello  world-foo_bar aBC')",
    'trim(s)',
    "trim(BOTH 'hé' FROM s)",
    'ltrim(s)',
    "rtrim('xxhixx', 'x')",
    "trim(LEADING 'ab' FROM 'abbabcab')",
    "lpad(s, 12, '語')",
    "lpad(s, -1, 'x')",
    "lpad(s, 3, '')",
    "rpad(s, 15, 'ab')",
    'substring(s, 0, 3)',
    'substring(s, -3)',
    'substring(s, -100, 102)',
    'substr(s, 2147483647)',
    'left(s, -1)',
    'right(s, 3)',
    'right(s, 0)',
    "instr(s, 'l')",
    "locate('l', s, 0)",
    "locate('l', s, 5)",
    "position('語' IN s)",
    "replace(s, 'l', '')",
    "replace(s, '', 'x')",
    "translate(s, 'lo語', 'L')",
    "overlay(s PLACING '__' FROM 2 FOR 3)",
    "overlay(s PLACING 'x' FROM -1)",
    "split(s, 'l')",
    "split(s, '', -1)",
    "split(s, 'l', 2)",
    "split(s, '[lö]', 0)",
    "split_part(s, 'l', -1)",
    "split_part(s, 'l', 0)",
    "split_part(s, '', 1)",
    'repeat(s, -1)',
    'repeat(s, 3)',
    'reverse(s)',
    'ascii(s)',
    'chr(i)',
    'chr(-1)',
    'chr(256 + 65)',
    'base64(s)',
    "unbase64('###')",
    "format_string('%5.2f|%d|%s', d, i, s)",
    "printf('%x %08.3e %b', l, x, NULL)",
    'format_number(d, 2)',
    'format_number(x, 2)',
    'format_number(l, 0)',
    "format_number(dc, '#,##0.0')",
    'format_number(d, -1)',
    "regexp_extract(s, '(l+)', 1)",
    "regexp_extract(s, '(l+)', 2)",
    "regexp_extract_all(s, '(\\\\w)', 1)",
    "regexp_replace(s, '(l)', '<$1>')",
    "regexp_replace(s, 'l', '\\\\$')",
    "regexp_like(s, '^\\\\s')",
    "regexp_count(s, 'l|語')",
    "regexp_count(s, '')",
    "regexp_extract(s, '(', 1)",
    "s like '%l_o%'",
    "s like 'h\\\\%'",
    "s like '%!%%' escape '!'",
    "s ilike '%HÉ%'",
    "startswith(s, 'hé')",
    "endswith(s, '')",
    'contains(s, NULL)',
    "levenshtein(s, 'hello world')",
    "levenshtein(s, 'hallo', 2)",
    'soundex(s)',
    "soundex('Tymczak')",
    "encode(s, 'UTF-16')",
    "decode(encode(s, 'utf-8'), 'US-ASCII')",
    "encode(s, 'nope')",
    "to_number('$1,234.56', '$9,999.99')",
    "to_number('12', '9')",
    "try_to_number('abc', '999')",
    'mask(s)',
    "mask(s, 'X', 'x', 'n', '*')",
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    "split_part(s, 'l', 0)": {'true': 'INVALID_INDEX_OF_ZERO', 'false': 'INVALID_INDEX_OF_ZERO'},
    "regexp_extract(s, '(l+)', 2)": {'true': 'INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX', 'false': 'INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX'},
    "regexp_extract(s, '(', 1)": {'true': 'INVALID_PARAMETER_VALUE.PATTERN', 'false': 'INVALID_PARAMETER_VALUE.PATTERN'},
    "decode(encode(s, 'utf-8'), 'US-ASCII')": {'true': 'MALFORMED_CHARACTER_CODING', 'false': 'MALFORMED_CHARACTER_CODING'},
    "encode(s, 'nope')": {'true': 'INVALID_PARAMETER_VALUE.CHARSET', 'false': 'INVALID_PARAMETER_VALUE.CHARSET'},
    "to_number('12', '9')": {'true': 'INVALID_FORMAT.MISMATCH_INPUT', 'false': 'INVALID_FORMAT.MISMATCH_INPUT'},
}


def test_string_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_format_string_floating_conversions(diff):
    # Java's %e and %g: HALF_UP on the shortest digits, %g keeps its trailing zeros and switches
    # to scientific notation outside [1e-4, 10^precision); NaN and Infinity as Java writes them;
    # a null argument is the text "null" cut to the precision.
    diff(lambda s: s.sql(
        "SELECT format_string('%5.2f|%.1s|%-6.3e|%g|%.3g|%10.4G|%e|%E|%.0e|%.0g', d, s, d, d, d, d, d, d, d, d), "
        "printf('%+g|%,g|%08.2e|%+e|%x %08.3e %b', d, d, d, d, k, d, NULL) "
        "FROM VALUES (1.25D, 'ab', 1), (CAST('NaN' AS DOUBLE), NULL, 2), (CAST('-Infinity' AS DOUBLE), 'x', 3), "
        "(0.0D, '', 4), (-0.0D, 'z', 5), (123456789.0D, 'q', 6), (0.00012345D, 'w', 7), (1e-5D, 'e', 8), "
        "(999999.5D, 'r', 9), (NULL, NULL, NULL), (9.9995D, 'y', 10), (1e300D, 'u', 11), (2.5D, 'v', 12), "
        "(0.000099995D, 'n', 13), (4.9e-324D, 'm', 14), (1234567.0D, 'o', 15), (-0.5D, 'p', 16) t(d, s, k)"))
