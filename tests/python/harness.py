"""Differential testing of Ember against Apache Spark.

A test is a PySpark program, a function from a SparkSession to a DataFrame.
The harness runs it on Ember (through Spark Connect) and on a local Apache
Spark session of the pinned version (the oracle), and checks that both give
the same column names, the same Spark types (nullability included) and the
same rows.

Rows are compared as a multiset unless the caller asks for order, or the
oracle's analyzed plan ends in a global sort. Floating-point values match
within a relative tolerance, NaN matches NaN, and nested values (structs,
arrays, maps) are compared element by element.

The comparison functions work on plain Python data too, which is how
test_harness_selftest.py checks them without any engine.
"""

from __future__ import annotations

import contextlib
import os
import datetime
import decimal
import io
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

MAX_ROWS_SHOWN = 40
# Above this many rows the quadratic tolerant matching is not attempted.
MAX_ROWS_FOR_TOLERANT_MATCH = 20_000


class DiffError(AssertionError):
    """Raised when the two engines disagree; the message shows both sides."""


# ----------------------------------------------------------------------------
# Values


def to_plain(value: Any) -> Any:
    """Converts PySpark result values to plain Python data.

    Rows (structs) become tuples, arrays lists, maps dicts; bytearray becomes
    bytes; a VariantVal becomes its encoded bytes (value, metadata), compared
    byte for byte. Everything else is kept as is.
    """
    if type(value).__name__ == "VariantVal":
        return ("variant", bytes(value.value), bytes(value.metadata))
    # pyspark.sql.Row is a tuple subclass; keep plain tuples as tuples too.
    if isinstance(value, tuple):
        return tuple(to_plain(v) for v in value)
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {to_plain(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def _is_float(value: Any) -> bool:
    return isinstance(value, float)


def values_equal(expected: Any, actual: Any, approx: float = 1e-9) -> bool:
    """Whether two (plain or PySpark) values are the same result value.

    Floats match when equal within relative tolerance `approx` (0 means
    exactly; values within approx/1000 of each other also match, for sums
    that are zero up to rounding), NaN matches NaN, and infinities match only themselves. bool,
    int, float and Decimal are distinct kinds: 1 does not match True or 1.0.
    """
    if expected is None or actual is None:
        return expected is None and actual is None
    if _is_float(expected) or _is_float(actual):
        if not (_is_float(expected) and _is_float(actual)):
            return False
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        if math.isinf(expected) or math.isinf(actual):
            return expected == actual
        if approx == 0:
            return expected == actual
        # The small absolute floor lets results that are zero up to rounding
        # (a sum of 0.1 + 0.2 - 0.3 in different orders) match.
        return math.isclose(expected, actual, rel_tol=approx, abs_tol=approx * 1e-3)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (bytes, bytearray)) or isinstance(actual, (bytes, bytearray)):
        return (isinstance(expected, (bytes, bytearray)) and
                isinstance(actual, (bytes, bytearray)) and bytes(expected) == bytes(actual))
    if isinstance(expected, decimal.Decimal) or isinstance(actual, decimal.Decimal):
        return (isinstance(expected, decimal.Decimal) and isinstance(actual, decimal.Decimal)
                and expected == actual)
    if isinstance(expected, datetime.datetime) or isinstance(actual, datetime.datetime):
        return (isinstance(expected, datetime.datetime) and isinstance(actual, datetime.datetime)
                and (expected.tzinfo is None) == (actual.tzinfo is None) and expected == actual)
    if isinstance(expected, tuple) or isinstance(actual, tuple):
        return (isinstance(expected, tuple) and isinstance(actual, tuple) and
                len(expected) == len(actual) and
                all(values_equal(e, a, approx) for e, a in zip(expected, actual)))
    if isinstance(expected, list) or isinstance(actual, list):
        return (isinstance(expected, list) and isinstance(actual, list) and
                len(expected) == len(actual) and
                all(values_equal(e, a, approx) for e, a in zip(expected, actual)))
    if isinstance(expected, dict) or isinstance(actual, dict):
        if not (isinstance(expected, dict) and isinstance(actual, dict)):
            return False
        if len(expected) != len(actual):
            return False
        unmatched = list(actual.items())
        for key, value in expected.items():
            for i, (other_key, other_value) in enumerate(unmatched):
                if values_equal(key, other_key, approx) and values_equal(value, other_value, approx):
                    del unmatched[i]
                    break
            else:
                return False
        return True
    if type(expected) is not type(actual) and not (
            isinstance(expected, int) and isinstance(actual, int)):
        return False
    return expected == actual


def _sort_key(value: Any) -> tuple:
    """A total order over result values of any kind, for multiset matching."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, (int, float, decimal.Decimal)):
        number = float(value)
        if math.isnan(number):
            return (3,)
        return (2, number)
    if isinstance(value, str):
        return (4, value)
    if isinstance(value, (bytes, bytearray)):
        return (5, bytes(value))
    if isinstance(value, datetime.datetime):
        return (6, value.isoformat())
    if isinstance(value, datetime.date):
        return (7, value.isoformat())
    if isinstance(value, datetime.timedelta):
        return (8, value.total_seconds())
    if isinstance(value, (tuple, list)):
        return (9, tuple(_sort_key(v) for v in value))
    if isinstance(value, dict):
        return (10, tuple(sorted((_sort_key(k), _sort_key(v)) for k, v in value.items())))
    return (11, repr(value))


def row_key(row: Sequence[Any]) -> tuple:
    return tuple(_sort_key(v) for v in row)


# ----------------------------------------------------------------------------
# Tables


@dataclass
class Field:
    """One column of a result schema: name, Spark type string, nullability."""

    name: str
    type: str
    nullable: bool

    def __str__(self) -> str:
        return f"{self.name}: {self.type}{'' if self.nullable else ' NOT NULL'}"


def type_string(data_type: Any) -> str:
    """A Spark DataType as a string that includes nested nullability.

    Field metadata is left out on purpose: engines may attach different
    metadata without any visible difference to a program.
    """
    from pyspark.sql import types as T

    if isinstance(data_type, T.StructType):
        inner = ",".join(
            f"{f.name}:{type_string(f.dataType)}{'' if f.nullable else ' NOT NULL'}"
            for f in data_type.fields)
        return f"struct<{inner}>"
    if isinstance(data_type, T.ArrayType):
        null = "" if data_type.containsNull else " NOT NULL"
        return f"array<{type_string(data_type.elementType)}{null}>"
    if isinstance(data_type, T.MapType):
        null = "" if data_type.valueContainsNull else " NOT NULL"
        return (f"map<{type_string(data_type.keyType)},"
                f"{type_string(data_type.valueType)}{null}>")
    return data_type.simpleString()


def schema_fields(schema: Any) -> list[Field]:
    return [Field(f.name, type_string(f.dataType), f.nullable) for f in schema.fields]


@dataclass
class Result:
    """What one engine returned for a program."""

    engine: str
    fields: list[Field]
    rows: list[tuple]

    @property
    def columns(self) -> list[str]:
        return [f.name for f in self.fields]


def collect(engine: str, df: Any) -> Result:
    rows = [tuple(to_plain(v) for v in row) for row in df.collect()]
    return Result(engine, schema_fields(df.schema), rows)


def format_rows(rows: Iterable[Sequence[Any]], limit: int = MAX_ROWS_SHOWN,
                marks: set[int] | None = None) -> str:
    rows = list(rows)
    lines = []
    for i, row in enumerate(rows[:limit]):
        mark = ">" if marks and i in marks else " "
        lines.append(f"  {mark}{i:>5}  {row!r}")
    if len(rows) > limit:
        lines.append(f"   ... {len(rows) - limit} more rows")
    if not rows:
        lines.append("   (no rows)")
    return "\n".join(lines)


def _describe(result: Result) -> str:
    schema = ", ".join(str(f) for f in result.fields)
    return f"{result.engine}: {len(result.rows)} rows; schema [{schema}]"


def compare_schemas(expected: Result, actual: Result) -> list[str]:
    """Differences in column names, types and nullability, as messages."""
    problems = []
    if expected.columns != actual.columns:
        problems.append(f"column names differ:\n  {expected.engine}: {expected.columns}\n"
                        f"  {actual.engine}: {actual.columns}")
    for i, (e, a) in enumerate(zip(expected.fields, actual.fields)):
        if e.type != a.type or e.nullable != a.nullable:
            problems.append(f"column {i} ({e.name}) differs:\n  {expected.engine}: {e}\n"
                            f"  {actual.engine}: {a}")
    return problems


def match_multiset(expected: list[tuple], actual: list[tuple],
                   approx: float) -> tuple[list[int], list[int]]:
    """Pairs up equal rows regardless of order.

    Returns the indexes of the expected rows with no partner and of the
    actual rows with no partner; both empty means the multisets are equal.
    Rows are matched in sorted order first; with a float tolerance, rows
    that do not pair up that way get a second, exhaustive pass.
    """
    e_order = sorted(range(len(expected)), key=lambda i: row_key(expected[i]))
    a_order = sorted(range(len(actual)), key=lambda i: row_key(actual[i]))
    if len(expected) == len(actual) and all(
            values_equal(expected[i], actual[j], approx) for i, j in zip(e_order, a_order)):
        return [], []
    # Exact or near-exact pass by merged sorted order, then a tolerant pass.
    e_left, a_left = [], []
    ei = ai = 0
    while ei < len(e_order) and ai < len(a_order):
        e_row, a_row = expected[e_order[ei]], actual[a_order[ai]]
        if values_equal(e_row, a_row, approx):
            ei += 1
            ai += 1
        elif row_key(e_row) < row_key(a_row):
            e_left.append(e_order[ei])
            ei += 1
        else:
            a_left.append(a_order[ai])
            ai += 1
    e_left.extend(e_order[ei:])
    a_left.extend(a_order[ai:])
    if approx and e_left and a_left and len(e_left) * len(a_left) <= MAX_ROWS_FOR_TOLERANT_MATCH ** 2:
        still_left = []
        for i in e_left:
            for k, j in enumerate(a_left):
                if values_equal(expected[i], actual[j], approx):
                    del a_left[k]
                    break
            else:
                still_left.append(i)
        e_left = still_left
    return sorted(e_left), sorted(a_left)


def compare_results(expected: Result, actual: Result, ordered: bool = False,
                    approx: float = 1e-9) -> None:
    """Raises DiffError, showing both results, unless they are the same."""
    problems = compare_schemas(expected, actual)
    detail = ""
    if ordered:
        first_bad = None
        for i, (e, a) in enumerate(zip(expected.rows, actual.rows)):
            if not values_equal(e, a, approx):
                first_bad = i
                break
        if first_bad is None and len(expected.rows) != len(actual.rows):
            first_bad = min(len(expected.rows), len(actual.rows))
        if first_bad is not None:
            problems.append(f"rows differ (ordered comparison), first at row {first_bad}")
            start = max(0, first_bad - 5)
            detail = (f"\n{expected.engine} rows from {start}:\n"
                      f"{format_rows(expected.rows[start:], marks={first_bad - start})}\n"
                      f"{actual.engine} rows from {start}:\n"
                      f"{format_rows(actual.rows[start:], marks={first_bad - start})}")
    else:
        missing, extra = match_multiset(expected.rows, actual.rows, approx)
        if missing or extra:
            problems.append(
                f"rows differ (unordered comparison): {len(missing)} rows only in "
                f"{expected.engine}, {len(extra)} rows only in {actual.engine}")
            detail = (f"\nonly in {expected.engine}:\n"
                      f"{format_rows([expected.rows[i] for i in missing])}\n"
                      f"only in {actual.engine}:\n"
                      f"{format_rows([actual.rows[i] for i in extra])}")
    if problems:
        raise DiffError(
            "\n".join(problems) + detail +
            f"\n\n{_describe(expected)}\n{format_rows(expected.rows)}"
            f"\n{_describe(actual)}\n{format_rows(actual.rows)}")


# ----------------------------------------------------------------------------
# Errors and show()


def run_time_error(ember, oracle, program, error_class):
    """Both engines fail while running `program` with `error_class`. The classic oracle session
    reports run-time errors wrapped in a Py4JJavaError without an error class, so its message is
    searched instead."""
    with session_mode(oracle):
        try:
            program(oracle).collect()
        except Exception as e:  # noqa: BLE001 - any failure is inspected below
            expected = e
        else:
            raise AssertionError("spark raised nothing")
    assert f"[{error_class}" in str(expected), str(expected)[:500]
    with session_mode(ember):
        try:
            program(ember).collect()
        except Exception as e:  # noqa: BLE001
            actual = e
        else:
            raise AssertionError("ember raised nothing")
    condition = actual.getCondition()
    assert condition == error_class or condition.startswith(error_class + "."), condition



def python_errors(ember, oracle, program, marker: str) -> tuple[BaseException, BaseException]:
    """Both engines fail while running `program` because Python code raised: Spark's error and
    Ember's both carry `marker` (the Python exception's text), and Ember's is a PythonException
    as pyspark shows one from its own workers. Returns (Spark's error, Ember's error)."""
    errors = []
    for spark in (oracle, ember):
        with session_mode(spark):
            try:
                program(spark).collect()
            except Exception as e:  # noqa: BLE001 - the error is inspected below
                errors.append(e)
            else:
                raise AssertionError(f"{'ember' if spark is ember else 'spark'} raised nothing")
    expected, actual = errors
    assert marker in str(expected), str(expected)[:2000]
    assert type(actual).__name__ == "PythonException", repr(actual)
    assert marker in str(actual), str(actual)[:2000]
    assert "An exception was thrown from the Python worker" in str(actual), str(actual)[:2000]
    return expected, actual

@contextlib.contextmanager
def session_conf(ember, oracle, **conf):
    """Sets session configurations (dots written as underscores) on both engines for a block."""
    keys = {k.replace("_", "."): v for k, v in conf.items()}
    for s in (ember, oracle):
        for k, v in keys.items():
            s.conf.set(k, v)
    try:
        yield
    finally:
        for s in (ember, oracle):
            for k in keys:
                s.conf.unset(k)


def error_condition(exc: BaseException) -> str | None:
    """The Spark error class (condition) of an exception, if it has one."""
    for getter in ("getCondition", "getErrorClass"):
        method = getattr(exc, getter, None)
        if method is not None:
            try:
                value = method()
            except Exception:  # noqa: BLE001 - any failure means "unknown"
                value = None
            if value:
                return value
    return None


def condition_matches(condition: str | None, error_class: str) -> bool:
    """Exact match, or `error_class` is the parent of a sub-class condition
    (UNRESOLVED_COLUMN matches UNRESOLVED_COLUMN.WITH_SUGGESTION)."""
    if condition is None:
        return False
    return condition == error_class or condition.startswith(error_class + ".")


def run_for_error(engine: str, program: Callable[[Any], Any], spark: Any) -> BaseException:
    """Runs a program to completion and returns the exception it raised."""
    try:
        result = program(spark)
        if hasattr(result, "collect"):
            result.collect()
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return exc
    raise DiffError(f"{engine}: the program raised no error")


def error_text(exc: BaseException) -> str:
    """The message of an error as both clients show it: `[CLASS] text` up to its SQLSTATE (the
    classic client appends the analyzed plan or the SQL context after it, Spark Connect not)."""
    text = str(exc).strip()
    for marker in (" SQLSTATE: ", "; line "):
        cut = text.find(marker)
        if cut >= 0:
            text = text[:cut]
    return text.strip()


# EMBER_COMPARE_MESSAGES=1: errors must also have Spark's message text, not only its condition.
COMPARE_MESSAGES = os.environ.get("EMBER_COMPARE_MESSAGES") == "1"


def compare_errors(expected: BaseException, actual: BaseException, error_class: str,
                   expected_engine: str = "spark", actual_engine: str = "ember") -> None:
    e_cond, a_cond = error_condition(expected), error_condition(actual)
    problems = []
    if not condition_matches(e_cond, error_class):
        problems.append(f"{expected_engine} raised {e_cond!r}, the test expects {error_class!r}")
    if a_cond != e_cond:
        problems.append(f"{actual_engine} raised {a_cond!r}, {expected_engine} raised {e_cond!r}")
    elif COMPARE_MESSAGES and error_text(expected) != error_text(actual):
        problems.append(f"the messages differ:\n  {expected_engine}: {error_text(expected)}"
                        f"\n  {actual_engine}: {error_text(actual)}")
    if problems:
        raise DiffError("\n".join(problems) +
                        f"\n\n{expected_engine}: {type(expected).__name__}: {expected}"
                        f"\n\n{actual_engine}: {type(actual).__name__}: {actual}")


def show_text(df: Any, **show_args: Any) -> str:
    """What `df.show(**show_args)` prints."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.show(**show_args)
    return buffer.getvalue()


def compare_text(expected: str, actual: str, expected_engine: str = "spark",
                 actual_engine: str = "ember") -> None:
    if expected == actual:
        return
    import difflib

    diff = "\n".join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), expected_engine, actual_engine, lineterm=""))
    raise DiffError(f"show() output differs:\n{diff}\n\n{expected_engine}:\n{expected}\n"
                    f"{actual_engine}:\n{actual}")


# ----------------------------------------------------------------------------
# Plans


def ends_in_global_sort(df: Any) -> bool:
    """Whether a classic DataFrame's analyzed plan returns rows in a defined
    order: a global Sort, possibly under projections, filters and limits."""
    try:
        plan = df._jdf.queryExecution().analyzed()
        while True:
            name = plan.nodeName()
            if name == "Sort":
                return bool(getattr(plan, "global")())
            if name in ("Project", "Filter", "GlobalLimit", "LocalLimit", "Offset",
                        "SubqueryAlias", "Tail"):
                plan = plan.child()
                continue
            return False
    except Exception:  # noqa: BLE001 - unknown plans compare as multisets
        return False


# ----------------------------------------------------------------------------
# Sessions

_MODE_VARIABLES = ("SPARK_CONNECT_MODE_ENABLED", "PYSPARK_NO_NAMESPACE_SHARE")


def is_connect_session(spark: Any) -> bool:
    from pyspark.sql.connect.session import SparkSession as ConnectSparkSession

    return isinstance(spark, ConnectSparkSession)


@contextlib.contextmanager
def api_mode(connect: bool):
    """Makes PySpark's shared API (pyspark.sql.functions, Column, Window ...)
    build objects for a Spark Connect session, or for a classic one.

    PySpark decides that process-wide, from the SPARK_CONNECT_MODE_ENABLED
    environment variable, which creating a Spark Connect session sets. One
    process holding both kinds of session therefore switches around each use:
    a program must build its columns inside the function it passes to the
    harness, not before.
    """
    saved = {name: os.environ.get(name) for name in _MODE_VARIABLES}
    os.environ.pop("PYSPARK_NO_NAMESPACE_SHARE", None)
    if connect:
        os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
    else:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def session_mode(spark: Any):
    """api_mode() for the kind of session `spark` is."""
    return api_mode(is_connect_session(spark))


# ----------------------------------------------------------------------------
# The checks tests call


@contextlib.contextmanager
def api_mode(connect: bool):
    """PySpark's `functions` build classic or Spark Connect columns depending on whether the
    process is in Connect mode; a program runs in the mode of the engine it targets. The
    process returns to Connect mode (Ember's) afterwards."""
    if connect:
        os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
    else:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
    try:
        yield
    finally:
        os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"


class Differ:
    """The checks a test runs against both engines (the `diff` fixtures).

    Each program runs, and its result is collected, in the API mode of the
    session it runs on (see api_mode).
    """

    def __init__(self, ember: Any, oracle: Any):
        self.ember = ember
        self.oracle = oracle

    def diff(self, program: Callable[[Any], Any], ordered: bool | None = None,
             approx: float = 1e-9) -> Result:
        """Runs `program` on both engines and checks they agree.

        ordered: True compares rows in order, False as a multiset, None
        decides from the oracle's plan (ordered when it ends in a global
        sort). approx: relative tolerance for floating-point values.
        Returns the oracle's result.
        """
        with session_mode(self.oracle):
            oracle_df = program(self.oracle)
            expected = collect("spark", oracle_df)
            if ordered is None:
                ordered = ends_in_global_sort(oracle_df)
        with session_mode(self.ember):
            actual = collect("ember", program(self.ember))
        compare_results(expected, actual, ordered=ordered, approx=approx)
        return expected

    def diff_error(self, program: Callable[[Any], Any], error_class: str) -> BaseException:
        """Checks that both engines fail with the same error class, which is
        `error_class` or one of its sub-classes. Returns Ember's exception."""
        with session_mode(self.oracle):
            expected = run_for_error("spark", program, self.oracle)
        with session_mode(self.ember):
            actual = run_for_error("ember", program, self.ember)
        compare_errors(expected, actual, error_class)
        return actual

    def diff_show(self, program: Callable[[Any], Any], **show_args: Any) -> str:
        """Checks that `df.show(**show_args)` prints the same text on both."""
        with session_mode(self.oracle):
            expected = show_text(program(self.oracle), **show_args)
        with session_mode(self.ember):
            actual = show_text(program(self.ember), **show_args)
        compare_text(expected, actual)
        return expected
