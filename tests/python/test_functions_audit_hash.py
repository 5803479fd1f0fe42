"""Hash functions and typeof at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check

EXPRS = [
    'hash(i, l, d, s, dt, ts, dc, z)',
    'hash(z)',
    'hash(x)',
    'xxhash64(i, l, d, s, dt, ts, dc, z)',
    'xxhash64(z)',
    'md5(s)',
    'sha1(s)',
    'sha2(s, 256)',
    'sha2(s, 384)',
    'sha2(s, 224)',
    'sha2(s, 1)',
    'crc32(s)',
    'typeof(dc * dc)',
    'typeof(d + dc)',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
}


def test_hash_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_typeof_does_not_evaluate_its_argument(diff):
    # Only the argument's type matters: an overflow or a division by zero in it never happens.
    diff(lambda s: s.sql(
        "SELECT typeof(i + l), typeof(dc / i), typeof(1 / 0), typeof(CAST('x' AS INT)), typeof(i) "
        "FROM VALUES (2147483647, 9223372036854775807L, 1.5BD), (0, 1L, 0.0BD) t(i, l, dc)"))
