"""Shared input and checks of the function audit tests (test_functions_audit_*.py).

Every expression runs over one small table whose columns hold the values that break
functions: the int and long extremes, NaN, ±Infinity, 1e308, ±0.0, the smallest subnormal,
multi-byte UTF-8 and empty strings, a leap day, the first and last days of Spark's usual
date range, timestamps on the days Los Angeles changes its clocks, decimals at their
precision, and a row of nulls.
"""

from __future__ import annotations

from harness import session_conf

TABLE = (
    "SELECT * FROM VALUES "
    "(1, 2147483647, 9223372036854775807, 1.5D, CAST('NaN' AS DOUBLE), 'héllo wörld', "
    "DATE'2024-02-29', TIMESTAMP'2024-03-10 10:30:00', CAST(99999.99 AS DECIMAL(7,2)), -0.0D),"
    "(2, -2147483648, -9223372036854775808, -2.5D, CAST('Infinity' AS DOUBLE), '  日本語  ', "
    "DATE'1900-01-01', TIMESTAMP'2024-11-03 09:15:00', CAST(-0.01 AS DECIMAL(7,2)), 0.0D),"
    "(3, 0, 0, 0.0D, 1e308D, '', DATE'9999-12-31', TIMESTAMP'1970-01-01 00:00:00', "
    "CAST(0 AS DECIMAL(7,2)), 4.9e-324D),"
    "(4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"
    " AS t(k, i, l, d, x, s, dt, ts, dc, z)")


def query(exprs: list[str]) -> str:
    """One query computing every expression over the table, as columns c0, c1, ..."""
    cols = ", ".join(f"{e} AS c{n}" for n, e in enumerate(exprs))
    return f"SELECT k, {cols} FROM ({TABLE})"


def check(diff, diff_error, ember, oracle, exprs: list[str],
          errors: dict[str, dict[str, str]] | None = None, approx: float = 1e-9) -> None:
    """Compares the expressions with ANSI mode on and off: those that succeed in one query per
    mode (and again over no rows), and each one that fails (errors[expr][ansi] is its error
    class) on its own."""
    errors = errors or {}
    for ansi in ("true", "false"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            ok = [e for e in exprs if ansi not in errors.get(e, {})]
            diff(lambda s: s.sql(query(ok)), approx=approx)
            # Empty input: no rows, the same column types and nullability.
            diff(lambda s: s.sql(query(ok) + " WHERE k < 0"))
            for e in exprs:
                if ansi in errors.get(e, {}):
                    diff_error(lambda s: s.sql(query([e])), errors[e][ansi])
