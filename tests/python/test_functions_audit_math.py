"""Math functions and arithmetic operators at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check

EXPRS = [
    'abs(i)',
    'abs(l)',
    'abs(dc)',
    'abs(z)',
    'ceil(x)',
    'ceil(d, 0)',
    'ceil(dc, -2)',
    'floor(l)',
    'floor(d, -1)',
    'floor(x, 1)',
    'round(d)',
    'round(x, 2)',
    'round(dc, 1)',
    'round(i, -2)',
    'round(l, -3)',
    'bround(d)',
    'bround(dc, 1)',
    'bround(i, -1)',
    'round(z, 1)',
    'sqrt(d)',
    'sqrt(z)',
    'cbrt(x)',
    'exp(x)',
    'expm1(z)',
    'ln(d)',
    'log(z)',
    'log10(x)',
    'log2(i)',
    'log1p(d)',
    'log(2, x)',
    'pow(d, x)',
    'pow(i, 2)',
    'power(z, -1)',
    'sin(x)',
    'atan2(z, d)',
    'atan2(z, z)',
    'degrees(x)',
    'radians(i)',
    'signum(z)',
    'signum(x)',
    'greatest(d, x, z)',
    'least(d, x, z)',
    'greatest(i, l)',
    'pmod(i, 0)',
    'pmod(l, -3)',
    'pmod(d, 0)',
    'pmod(dc, 3)',
    'i % 0',
    'l % -1',
    'd % 0',
    'dc % 0',
    'i div 0',
    'l div -1',
    'i div 7',
    'dc div 0.3',
    'width_bucket(d, 0, 10, 5)',
    'width_bucket(x, 0, 10, 5)',
    'width_bucket(d, 10, 0, 3)',
    'width_bucket(d, 0, 10, 0)',
    'bin(l)',
    'bin(i)',
    'hex(l)',
    'hex(s)',
    "unhex('GG')",
    'unhex(hex(s))',
    'conv(CAST(l AS STRING), 10, 16)',
    'conv(CAST(l AS STRING), 10, -16)',
    "conv('ffffffffffffffffff', 16, 10)",
    'conv(s, 36, 2)',
    'factorial(i)',
    'factorial(k*7)',
    'shiftleft(i, 31)',
    'shiftleft(l, 65)',
    'shiftright(l, 63)',
    'shiftrightunsigned(i, 1)',
    'i & l',
    'i | k',
    'l ^ k',
    '~l',
    'try_add(i, 1)',
    'try_add(l, l)',
    'try_subtract(l, 1)',
    'try_multiply(i, i)',
    'try_divide(i, 0)',
    'try_divide(dc, 0)',
    'try_divide(d, z)',
    'i + 1',
    'l - 1',
    'i * 2',
    'l * l',
    'd / z',
    'i / 0',
    'dc * dc * dc * dc',
    '-i',
    '-l',
    'abs(i) + 0',
    'typeof(rand(1))',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    'abs(i)': {'true': 'ARITHMETIC_OVERFLOW'},
    'abs(l)': {'true': 'ARITHMETIC_OVERFLOW'},
    'ceil(x)': {'true': 'ARITHMETIC_OVERFLOW'},
    'floor(x, 1)': {'true': 'NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION'},
    'round(l, -3)': {'true': 'ARITHMETIC_OVERFLOW'},
    'bround(i, -1)': {'true': 'ARITHMETIC_OVERFLOW'},
    'pmod(i, 0)': {'true': 'REMAINDER_BY_ZERO'},
    'pmod(d, 0)': {'true': 'REMAINDER_BY_ZERO'},
    'i % 0': {'true': 'REMAINDER_BY_ZERO'},
    'd % 0': {'true': 'REMAINDER_BY_ZERO'},
    'dc % 0': {'true': 'REMAINDER_BY_ZERO'},
    'i div 0': {'true': 'DIVIDE_BY_ZERO'},
    'l div -1': {'true': 'ARITHMETIC_OVERFLOW'},
    "conv('ffffffffffffffffff', 16, 10)": {'true': 'ARITHMETIC_OVERFLOW'},
    'i + 1': {'true': 'ARITHMETIC_OVERFLOW'},
    'l - 1': {'true': 'ARITHMETIC_OVERFLOW'},
    'i * 2': {'true': 'ARITHMETIC_OVERFLOW'},
    'l * l': {'true': 'ARITHMETIC_OVERFLOW'},
    'd / z': {'true': 'DIVIDE_BY_ZERO'},
    'i / 0': {'true': 'DIVIDE_BY_ZERO'},
    '-i': {'true': 'ARITHMETIC_OVERFLOW'},
    '-l': {'true': 'ARITHMETIC_OVERFLOW'},
    'abs(i) + 0': {'true': 'ARITHMETIC_OVERFLOW'},
}


def test_math_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_shift_operators(diff):
    # `<<`, `>>` and `>>>` are the shift functions written as operators, named as operators.
    diff(lambda s: s.sql(
        "SELECT 1 << 2, -8 >> 1, -8 >>> 1, shiftleft(1, 2), i << 31, i >> 1, i >>> 1, l << 65, "
        "l >> 63, l >>> 1, 2.5 << 1, '3' >> 1, -17L >>> 60, CAST(5 AS TINYINT) << 1, NULL << 1, "
        "typeof(1L << 2) FROM VALUES (1, 1L), (-2147483648, -9223372036854775808), (NULL, NULL) "
        "t(i, l)"))


def test_shift_operators_are_listed(diff):
    diff(lambda s: s.sql("SHOW FUNCTIONS").where("function IN ('<<', '>>', '>>>', 'shiftleft')"))
