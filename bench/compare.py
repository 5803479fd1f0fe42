"""Result equality against the reference answer (Apache Spark's), for a benchmark.

What counts as equal: the same number of rows and columns and, row by row after sorting both
sides, the same values, with numbers of any type (integer, decimal, floating point) compared
as doubles within a relative and absolute tolerance of 1e-6 (floating-point sums depend on the
order of addition; Spark rounds decimal averages to six places). Strings compare exactly;
dates and timestamps as ISO text. Where the query defines an order, the engine's rows must
also be sorted by those keys. Column names are compared for Spark Connect engines, which
promise Spark's names; other engines name columns their own way.

This is a sanity check that flags a fast wrong answer. The differential test suite, not this,
is the specification of Ember's semantics.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

RTOL = 1e-6
ATOL = 1e-6


def _numeric(t: pa.DataType) -> bool:
    return (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
            or pa.types.is_boolean(t))


def _column(arr: pa.ChunkedArray) -> tuple[str, np.ndarray, np.ndarray]:
    """(kind, values, null mask) with kind 'num' (float64 values) or 'str' (object values)."""
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type)
        t = arr.type
    mask = arr.is_null().to_numpy(zero_copy_only=False)
    if _numeric(t):
        if pa.types.is_boolean(t):
            arr = arr.cast(pa.int8())
        values = arr.cast(pa.float64(), safe=False).fill_null(0.0).to_numpy(zero_copy_only=False)
        return "num", values, mask
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        arr = arr.cast(pa.large_string())
    elif pa.types.is_date(t) or pa.types.is_timestamp(t):
        arr = pc.strftime(arr, format="%Y-%m-%dT%H:%M:%S") if pa.types.is_timestamp(t) \
            else arr.cast(pa.string())
    else:
        arr = pa.chunked_array([pa.array([repr(v) for v in arr.to_pylist()], pa.large_string())])
    values = arr.fill_null("").to_numpy(zero_copy_only=False)
    return "str", values, mask


def _sort_order(cols: list[tuple[str, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Row order sorting by the exact columns first, then by floats rounded to 6 significant
    digits, so that tiny floating-point differences do not reorder rows."""
    keys = []
    for kind, values, mask in cols:
        if kind == "str":
            keys.append((0, values, mask))
    for kind, values, mask in cols:
        if kind == "num":
            with np.errstate(all="ignore"):
                mag = np.where(values == 0, 0, np.floor(np.log10(np.abs(values) + 1e-300)))
                rounded = np.round(values / 10.0 ** (mag - 5)) * 10.0 ** (mag - 5)
            keys.append((1, rounded, mask))
    if not keys:
        return np.arange(0)
    table = pa.table({f"k{i}": pa.array(v, mask=m) for i, (_, v, m) in enumerate(keys)})
    return pc.sort_indices(
        table, sort_keys=[(f"k{i}", "ascending", "at_start") for i in range(len(keys))]).to_numpy()


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= ATOL + RTOL * max(abs(a), abs(b))


def _diff(kind, a, am, b, bm, nan_is_null: bool) -> np.ndarray:
    """Indices where two normalized columns differ."""
    if kind == "num":
        if nan_is_null:
            am = am | np.isnan(a)
            bm = bm | np.isnan(b)
        with np.errstate(all="ignore"):
            both_nan = np.isnan(a) & np.isnan(b)
            close = np.abs(a - b) <= ATOL + RTOL * np.maximum(np.abs(a), np.abs(b))
        same = (am == bm) & (am | both_nan | close)
    else:
        same = (am == bm) & (am | (a == b))
    return np.nonzero(~same)[0]


def _check_order(cols, names: list[str], order: list[tuple[str, bool]]) -> str | None:
    """None when rows are sorted by `order`, else a description of the first violation."""
    idx = []
    for name, desc in order:
        if name not in names:
            return None  # the reference has no such column: nothing to verify
        idx.append((names.index(name), desc))
    n = len(cols[0][1]) if cols else 0
    for r in range(n - 1):
        for i, desc in idx:
            kind, values, mask = cols[i]
            a, b = values[r], values[r + 1]
            if mask[r] or mask[r + 1]:
                break  # null ordering differs between engines; do not judge it
            if a == b:
                continue
            if kind == "num" and _close(a, b):
                break  # equal up to float noise: the order between them is not judged
            if (a > b) != desc:
                return f"rows {r} and {r + 1} are out of order on {names[i]}"
            break
    return None


def compare(result: pa.Table, reference: pa.Table, order: list[tuple[str, bool]],
            check: list[str] | None, spark_semantics: bool) -> tuple[str, str]:
    """Returns (status, detail): status 'ok', 'wrong' (values, shape, order) or 'names'.

    `spark_semantics`: the engine promises Spark's answers (Spark Connect servers): column
    names must match and NaN is not null. Other engines may name columns their own way and
    answer NaN where Spark answers null (e.g. the correlation of a constant column)."""
    if result.num_columns != reference.num_columns:
        return "wrong", (f"{result.num_columns} columns, expected {reference.num_columns} "
                         f"({', '.join(reference.column_names)})")
    if result.num_rows != reference.num_rows:
        return "wrong", f"{result.num_rows} rows, expected {reference.num_rows}"
    names = reference.column_names
    positions = list(range(len(names))) if check is None else [names.index(c) for c in check]
    res_cols = [_column(result.column(i)) for i in range(result.num_columns)]
    ref_cols = [_column(reference.column(i)) for i in range(reference.num_columns)]
    for i in positions:
        if res_cols[i][0] != ref_cols[i][0]:
            return "wrong", f"column {names[i]}: {result.schema.field(i).type} vs " \
                            f"{reference.schema.field(i).type}"
    if order:
        problem = _check_order(res_cols, names, order)
        if problem:
            return "wrong", problem
    sub_res = [res_cols[i] for i in positions]
    sub_ref = [ref_cols[i] for i in positions]
    ro, fo = _sort_order(sub_res), _sort_order(sub_ref)
    for j, i in enumerate(positions):
        kind, a, am = sub_res[j]
        _, b, bm = sub_ref[j]
        if len(ro):
            a, am, b, bm = a[ro], am[ro], b[fo], bm[fo]
        bad = _diff(kind, a, am, b, bm, not spark_semantics)
        if len(bad):
            r = bad[0]
            got = "null" if am[r] else a[r].item() if hasattr(a[r], "item") else a[r]
            want = "null" if bm[r] else b[r].item() if hasattr(b[r], "item") else b[r]
            return "wrong", (f"{len(bad)} of {len(a)} values differ in {names[i]} "
                             f"(e.g. {got!r}, expected {want!r})")
    if spark_semantics and result.column_names != names:
        return "names", f"columns {result.column_names}, expected {names}"
    return "ok", ""
