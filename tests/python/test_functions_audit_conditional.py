"""Conditional and null functions at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check

EXPRS = [
    'CASE WHEN k = 1 THEN s WHEN k = 2 THEN NULL END',
    'coalesce(NULL, i, l)',
    "nvl(s, 'z')",
    'nvl2(s, 1, 2)',
    'ifnull(d, x)',
    'nullif(i, 0)',
    'nullif(z, 0.0D)',
    'if(k > 2, s, NULL)',
    'isnull(x)',
    'isnotnull(dt)',
    'isnan(x)',
    'isnan(z)',
    'nanvl(x, d)',
    'assert_true(k < 10)',
    'assert_true(k < 3)',
    "assert_true(k < 3, 'boom')",
    'i IN (0, NULL)',
    'i IN (1, 2)',
    "x IN (CAST('NaN' AS DOUBLE))",
    'z IN (0.0D)',
    'd BETWEEN -3 AND 2',
    "x BETWEEN 0 AND CAST('Infinity' AS DOUBLE)",
    'equal_null(x, x)',
    'equal_null(i, NULL)',
    'z = 0.0D',
    'x = x',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    'assert_true(k < 3)': {'true': 'USER_RAISED_EXCEPTION', 'false': 'USER_RAISED_EXCEPTION'},
    "assert_true(k < 3, 'boom')": {'true': 'USER_RAISED_EXCEPTION', 'false': 'USER_RAISED_EXCEPTION'},
}


def test_conditional_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)
