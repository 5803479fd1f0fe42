"""Which of the functions Ember registers the differential tests (tests/python) call.

    .venv/bin/python tools/compat/function_coverage.py [--remote sc://host:port] [--binary PATH]
        [--tests DIR] [--json out.json] [-v]

The function names come from a running Ember: `SHOW FUNCTIONS`, and `DESCRIBE FUNCTION` for the
function each name stands for. Without --remote the tool starts `build/release/ember server` (or
--binary) on a free port.

The tests are read as Python syntax trees, never run. A name counts as used where a test
 - calls it through PySpark's function module: `F.name(...)`, `functions.name(...)`,
   `sf.name(...)` (or any other name the file imports the module as), `getattr(F, "name")` and
   `F.call_function("name", ...)`. PySpark functions whose Spark name differs from their Python
   name (`bitwise_not` is `~`, `timestamp_add` is `timestampadd`) count for the name they send,
   found by building each such call and reading its expression;
 - calls it inside a string, as SQL does (`SELECT name(x)`, `F.expr("name(x)")`, `selectExpr`);
 - writes it as SQL syntax or as a Column operator or method, for the operators and the
   functions that have a syntax of their own (`a LIKE b`, `x IS NULL`, `col("a") + 1`,
   `col("a").isNull()`; see SYNTAX and COLUMN_METHODS below).
Strings and function names built at run time are followed where their values are written in the
same test: f-strings and `getattr(F, n)` over the values of `for n in [...]` loops, of variables
assigned a literal, and of `pytest.mark.parametrize` arguments.

Every name is a name users type, so an alias counts only where the alias itself is used: calling
`ceiling` does not cover `ceil`. A name whose only uses are in skipped tests is reported as
skipped, with the skip's reason.
"""

from __future__ import annotations

import argparse
import ast
import collections
import itertools
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ember_server import DEFAULT_BINARY, ROOT, start_server, stop_server

# The modules PySpark's functions live in, as a test file may import them.
FUNCTION_MODULES = {"pyspark.sql.functions", "pyspark.sql.connect.functions",
                    "pyspark.sql.functions.builtin", "pyspark.sql.connect.functions.builtin"}
DEFAULT_MODULE_NAMES = {"F", "functions", "sf"}
# Files of the test directory that hold no tests.
NOT_TESTS = {"conftest.py", "harness.py"}
# Spark syntax for functions that SQL writes without `name(`: operators and keyword forms.
# Matched case-insensitively inside strings.
_VALUE = r"[\w)\]'\"`]"  # the end of an operand
_START = r"[\w(\['\"`-]"  # the start of one
SYNTAX = {
    "+": rf"{_VALUE}\s*\+\s*{_START}",
    "-": rf"{_VALUE}\s*-\s*{_START}",
    "*": rf"{_VALUE}\s*\*\s*{_START}",
    "/": rf"{_VALUE}\s*/\s*{_START}",
    "%": rf"{_VALUE}\s*%\s*{_START}",
    "&": rf"{_VALUE}\s*&\s*{_START}",
    "^": rf"{_VALUE}\s*\^\s*{_START}",
    "<": rf"{_VALUE}\s*<\s*{_START}",
    "<=": rf"{_VALUE}\s*<=\s*{_START}",
    ">": rf"{_VALUE}\s*>\s*{_START}",
    ">=": rf"{_VALUE}\s*>=\s*{_START}",
    "=": rf"{_VALUE}\s*=\s*{_START}",
    "==": rf"{_VALUE}\s*==\s*{_START}",
    "<=>": rf"{_VALUE}\s*<=>\s*{_START}",
    "<<": rf"{_VALUE}\s*<<\s*{_START}",
    ">>": rf"{_VALUE}\s*>>\s*{_START}",
    ">>>": rf"{_VALUE}\s*>>>\s*{_START}",
    "!": r"(?:^|[\s(,])!\s*[\w(]",
    "~": r"(?:^|[\s(,])~\s*[\w(]",
    "[]": r"[\w)\]]\[",
    "and": r"\bAND\b",
    "or": r"\bOR\b",
    "not": r"\bNOT\b",
    "like": r"\bLIKE\b",
    "ilike": r"\bILIKE\b",
    "rlike": r"\bRLIKE\b",
    "regexp": r"\bREGEXP\b",
    "isnull": r"\bIS\s+NULL\b",
    "isnotnull": r"\bIS\s+NOT\s+NULL\b",
    "!=": rf"{_VALUE}\s*!=\s*{_START}",
    "<>": rf"{_VALUE}\s*<>\s*{_START}",
    "||": rf"{_VALUE}\s*\|\|\s*{_START}",
    "between": r"\bBETWEEN\b",
    "case": r"\bCASE\b",
}
# Where SQL syntax is looked for: strings passed to these methods, and strings holding SELECT.
SQL_METHODS = {"sql", "expr", "selectExpr", "filter", "where"}
_SELECT = re.compile(r"\bSELECT\b")
# `AS e(x)` names a table and its columns, it calls nothing; matched at the end of the text
# before a call.
_TABLE_ALIAS = re.compile(r"\bAS\s+$", re.I)
# Python operators on Column values and the Spark function each sends.
BINARY_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%",
                    ast.Pow: "power", ast.BitAnd: "and", ast.BitOr: "or"}
UNARY_OPERATORS = {ast.USub: "negative", ast.Invert: "not"}
COMPARE_OPERATORS = {ast.Eq: ("==",), ast.NotEq: ("==", "not"), ast.Lt: ("<",),
                     ast.LtE: ("<=",), ast.Gt: (">",), ast.GtE: (">=",)}
# Column methods and the Spark functions they send.
COLUMN_METHODS = {"like": "like", "ilike": "ilike", "rlike": "rlike", "isNull": "isnull",
                  "isNotNull": "isnotnull", "isNaN": "isnan", "eqNullSafe": "<=>",
                  "bitwiseAND": "&", "bitwiseOR": "|", "bitwiseXOR": "^", "startswith": "startswith",
                  "endswith": "endswith", "contains": "contains", "substr": "substr",
                  "getItem": "[]", "between": "and"}
# How often each name's uses are listed in the JSON report.
MAX_USES_LISTED = 5


@dataclass
class Use:
    path: str
    line: int
    how: str  # "call", "sql" or "syntax"
    skip: str | None = None  # the reason of the skipped test it is in


@dataclass
class Scan:
    uses: dict[str, list[Use]] = field(default_factory=dict)

    def add(self, name: str, use: Use) -> None:
        self.uses.setdefault(name.lower(), []).append(use)


# ---------------------------------------------------------------------------------------------
# Names PySpark sends


def spark_name_of(python_name: str) -> str | None:
    """The name the Spark Connect function `python_name` sends for its call, when building a call
    with placeholder arguments succeeds and gives a plain function call; None otherwise."""
    import inspect

    os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
    import pyspark.sql.connect.functions.builtin as CF
    from pyspark.sql.connect.expressions import UnresolvedFunction

    fn = getattr(CF, python_name, None)
    if fn is None or not callable(fn):
        return None
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    args = []
    for p in params:
        if p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        ann = str(p.annotation)
        if "Column" in ann:
            args.append(CF.col("a"))
        elif "int" in ann:
            args.append(1)
        elif "float" in ann:
            args.append(1.0)
        elif "str" in ann:
            args.append("a")
        else:
            args.append(CF.col("a"))
    try:
        expr = fn(*args)._expr
    except Exception:  # noqa: BLE001 - functions that need real arguments keep their name
        return None
    return expr._name if isinstance(expr, UnresolvedFunction) else None


# ---------------------------------------------------------------------------------------------
# Scanning the tests


def _string_values(node: ast.AST) -> list[str] | None:
    """The strings a literal holds: a str, or a list/tuple/set of them (nested tuples too)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        out: list[str] = []
        for elt in node.elts:
            values = _string_values(elt)
            if values is None:
                continue
            out.extend(values)
        return out
    return None


class Bindings:
    """The literal string values a variable may hold inside one test function (or the module),
    from loops, assignments and parametrize decorators."""

    def __init__(self, parent: Bindings | None = None):
        self.parent = parent
        self.values: dict[str, list[str]] = {}

    def bind(self, name: str, values: list[str]) -> None:
        self.values.setdefault(name, []).extend(values)

    def lookup(self, name: str) -> list[str] | None:
        if name in self.values:
            return self.values[name]
        return self.parent.lookup(name) if self.parent else None

    def collect(self, scope: ast.AST) -> None:
        """Binds what `scope` (a module or a function) assigns, leaving out nested functions,
        which bind their own."""
        for node in _walk_scope(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                self._assign(node.targets[0], node.value)
            elif isinstance(node, (ast.For, ast.comprehension)):
                self._assign(node.target, node.iter, iterate=True)
        for deco in getattr(scope, "decorator_list", []):
            self._parametrize(deco)

    def _assign(self, target: ast.AST, value: ast.AST, iterate: bool = False) -> None:
        if iterate and isinstance(value, ast.Name):
            named = self.lookup(value.id)
            if named is not None and isinstance(target, ast.Name):
                self.bind(target.id, named)
            return
        if iterate and isinstance(value, (ast.List, ast.Tuple)):
            if isinstance(target, ast.Name):
                self.bind(target.id, _string_values(value) or [])
            elif isinstance(target, ast.Tuple):
                for elt in value.elts:
                    if isinstance(elt, ast.Tuple) and len(elt.elts) == len(target.elts):
                        for t, v in zip(target.elts, elt.elts):
                            self._assign(t, v)
            return
        if isinstance(target, ast.Name):
            values = _string_values(value)
            if values is not None:
                self.bind(target.id, values)

    def _parametrize(self, deco: ast.AST) -> None:
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "parametrize" and len(deco.args) >= 2):
            return
        names = _string_values(deco.args[0])
        if not names:
            return
        names = [n.strip() for part in names for n in part.split(",") if n.strip()]
        rows = deco.args[1]
        if isinstance(rows, ast.Name):
            for name in names:
                values = self.lookup(rows.id)
                if values is not None:
                    self.bind(name, values)
            return
        if not isinstance(rows, (ast.List, ast.Tuple)):
            return
        for row in rows.elts:
            if len(names) == 1:
                self.bind(names[0], _string_values(row) or [])
            elif isinstance(row, (ast.Tuple, ast.List)) and len(row.elts) == len(names):
                for name, elt in zip(names, row.elts):
                    self.bind(name, _string_values(elt) or [])


def _walk_scope(scope: ast.AST):
    """ast.walk (breadth first, in source order, so that a name is bound before the loops
    nested deeper that iterate over it) that does not enter the functions defined inside
    `scope`."""
    todo = collections.deque([scope])
    while todo:
        node = todo.popleft()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                todo.append(child)


def _expand(node: ast.AST, bindings: Bindings, limit: int = 64) -> list[str] | None:
    """The strings a string expression may evaluate to: a literal, an f-string or a `+` of them,
    with the variables it formats replaced by their bound values."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return bindings.lookup(node.id)
    if isinstance(node, ast.JoinedStr):
        parts: list[list[str]] = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                inner = _expand(value.value, bindings, limit)
                parts.append(inner if inner else ["\x00"])  # unknown: matches nothing
            else:
                parts.append(_expand(value, bindings, limit) or [""])
        combos = 1
        for p in parts:
            combos *= len(p)
        if combos > limit:
            return None
        return ["".join(c) for c in itertools.product(*parts)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _expand(node.left, bindings, limit), _expand(node.right, bindings, limit)
        if left is None or right is None or len(left) * len(right) > limit:
            return None
        return [a + b for a, b in itertools.product(left, right)]
    return None


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of docstring nodes, which are prose, not SQL."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _skip_reason(fn: ast.AST) -> str | None:
    """Why a test function is skipped: a skip mark, or a `pytest.skip(reason)` in its body."""
    for deco in getattr(fn, "decorator_list", []):
        target = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(target, ast.Attribute) and target.attr == "skip":
            reason = next((k.value for k in getattr(deco, "keywords", []) if k.arg == "reason"),
                          deco.args[0] if getattr(deco, "args", None) else None)
            return reason.value if isinstance(reason, ast.Constant) else "skipped"
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "skip" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "pytest":
            arg = node.args[0] if node.args else None
            return arg.value if isinstance(arg, ast.Constant) else "skipped"
    return None


class FileScanner(ast.NodeVisitor):
    def __init__(self, path: str, scan: Scan, sql_names: set[str], spark_names: dict[str, str]):
        self.path = path
        self.scan = scan
        self.sql_names = sql_names
        self.spark_names = spark_names
        self.modules = set(DEFAULT_MODULE_NAMES)
        self.bindings = Bindings()
        self.skip: str | None = None
        self.docstrings: set[int] = set()
        self.sql_nodes: set[int] = set()  # string arguments of the methods that take SQL
        self.parameters: dict[str, Bindings] = {}  # function name -> its parameters' values
        self.call_pattern = re.compile(
            r"(?<![\w.$`])(" + "|".join(sorted((re.escape(n) for n in sql_names if n.isidentifier()),
                                               key=len, reverse=True)) + r")\s*\(", re.I)
        self.syntax = {name: re.compile(rx, re.I) for name, rx in SYNTAX.items() if name in sql_names}

    def run(self, tree: ast.Module) -> None:
        self.docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in FUNCTION_MODULES:
                        self.modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in FUNCTION_MODULES and alias.asname:
                        self.modules.add(alias.asname)
        self.bindings.collect(tree)
        self._bind_parameters(tree)
        self.visit(tree)

    def _bind_parameters(self, tree: ast.Module) -> None:
        """Binds the parameters of the file's top-level functions to the strings their callers in
        the file pass (`tuple_readings(col, "double")`, or a caller's parametrized value)."""
        functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for caller in functions.values():
            bindings = Bindings(self.bindings)
            bindings.collect(caller)
            for node in ast.walk(caller):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in functions):
                    continue
                params = [a.arg for a in functions[node.func.id].args.args]
                passed = list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords]
                for param, arg in passed:
                    values = _expand(arg, bindings)
                    if values:
                        self.parameters.setdefault(node.func.id, Bindings()).bind(param, values)

    def _use(self, name: str, node: ast.AST, how: str) -> None:
        self.scan.add(name, Use(self.path, getattr(node, "lineno", 0), how, self.skip))

    def _function(self, python_name: str, node: ast.AST) -> None:
        self._use(self.spark_names.get(python_name, python_name), node, "call")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer_bindings, outer_skip = self.bindings, self.skip
        self.bindings = Bindings(outer_bindings)
        if node.name in self.parameters:
            self.bindings.values.update(self.parameters[node.name].values)
        self.bindings.collect(node)
        self.skip = _skip_reason(node) or outer_skip
        self.generic_visit(node)
        self.bindings, self.skip = outer_bindings, outer_skip

    visit_AsyncFunctionDef = visit_FunctionDef

    def _is_module(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id in self.modules

    def _is_column(self, node: ast.AST) -> bool:
        """Whether an expression is (almost surely) a Column: a call of the function module or a
        method called on one, `df["x"]`, or an operator on one."""
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                return self._is_module(f.value) or self._is_column(f.value)
            return False
        if isinstance(node, ast.Subscript):
            return self._is_column(node.value)
        if isinstance(node, ast.BinOp):
            return self._is_column(node.left) or self._is_column(node.right)
        if isinstance(node, ast.UnaryOp):
            return self._is_column(node.operand)
        return False

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and self._is_module(f.value):
            if f.attr in ("call_function", "call_udf") and node.args:
                for name in _expand(node.args[0], self.bindings) or []:
                    self._use(name, node, "call")
            else:
                self._function(f.attr, node)
        elif isinstance(f, ast.Name) and f.id == "getattr" and len(node.args) >= 2 \
                and self._is_module(node.args[0]):
            for name in _expand(node.args[1], self.bindings) or []:
                self._function(name, node)
        elif isinstance(f, ast.Attribute) and f.attr in SQL_METHODS:
            for arg in node.args:
                self.sql_nodes.add(id(arg))
                if isinstance(arg, ast.Name):
                    for text in self.bindings.lookup(arg.id) or []:
                        self._text(text, node, sql=True)
        if isinstance(f, ast.Attribute) and f.attr in COLUMN_METHODS and self._is_column(f.value):
            self._use(COLUMN_METHODS[f.attr], node, "syntax")
            if f.attr == "between":
                self._use(">=", node, "syntax")
                self._use("<=", node, "syntax")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        name = BINARY_OPERATORS.get(type(node.op))
        if name and (self._is_column(node.left) or self._is_column(node.right)):
            self._use(name, node, "syntax")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        name = UNARY_OPERATORS.get(type(node.op))
        if name and self._is_column(node.operand):
            self._use(name, node, "syntax")
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        if any(self._is_column(o) for o in operands):
            for op in node.ops:
                for name in COMPARE_OPERATORS.get(type(op), ()):
                    self._use(name, node, "syntax")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if self._is_column(node.value):
            self._use("[]", node, "syntax")
        self.generic_visit(node)

    def _text(self, text: str, node: ast.AST, sql: bool = False) -> None:
        for m in self.call_pattern.finditer(text):
            if not _TABLE_ALIAS.search(text, 0, m.start()):
                self._use(m.group(1), node, "sql")
        if sql or id(node) in self.sql_nodes or _SELECT.search(text):
            for name, rx in self.syntax.items():
                if rx.search(text):
                    self._use(name, node, "syntax")

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and id(node) not in self.docstrings:
            self._text(node.value, node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for text in _expand(node, self.bindings) or []:
            self._text(text, node)
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value)


def scan_tests(test_dir: Path, sql_names: set[str]) -> Scan:
    """Every use of a registered name in the test files under `test_dir`."""
    files = sorted(p for p in test_dir.rglob("*.py") if p.name not in NOT_TESTS)
    trees = {p: ast.parse(p.read_text(), str(p)) for p in files}
    # PySpark functions whose Python name is not a registered name may send another one.
    python_names = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                python_names.add(node.attr)
    spark_names = {}
    for name in sorted(python_names - sql_names):
        sent = spark_name_of(name)
        if sent and sent.lower() != name.lower():
            spark_names[name] = sent.lower()
    scan = Scan()
    for path, tree in trees.items():
        FileScanner(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path), scan,
                    sql_names, spark_names).run(tree)
    return scan


# ---------------------------------------------------------------------------------------------
# Asking Ember


def registered_functions(remote: str) -> dict[str, str]:
    """Every name SHOW FUNCTIONS lists, with the name of the function it stands for."""
    from pyspark.sql.connect.session import SparkSession

    spark = SparkSession.builder.remote(remote).create()
    try:
        names = [row[0] for row in spark.sql("SHOW FUNCTIONS").collect()]
        canonical = {}
        for name in names:
            try:
                rows = spark.sql(f"DESCRIBE FUNCTION {name}").collect()
                first = rows[0][0] if rows else ""
                canonical[name] = first.split(":", 1)[1].strip() if first.startswith("Function:") \
                    else name
            except Exception:  # noqa: BLE001 - a name DESCRIBE cannot parse stands for itself
                canonical[name] = name
        return canonical
    finally:
        spark.stop()


def report(functions: dict[str, str], scan: Scan) -> dict:
    names = {}
    for name in sorted(functions):
        uses = scan.uses.get(name.lower(), [])
        live = [u for u in uses if u.skip is None]
        status = "covered" if live else ("skipped" if uses else "uncovered")
        entry = {"function": functions[name], "status": status, "uses": len(live),
                 "where": [f"{u.path}:{u.line} ({u.how})" for u in live[:MAX_USES_LISTED]]}
        if status == "skipped":
            entry["skip_reasons"] = sorted({u.skip for u in uses})
        names[name] = entry
    counts = {s: sum(1 for e in names.values() if e["status"] == s)
              for s in ("covered", "skipped", "uncovered")}
    return {"total": len(names), **counts, "names": names}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--remote")
    ap.add_argument("--binary", default=str(DEFAULT_BINARY))
    ap.add_argument("--tests", default=str(ROOT / "tests" / "python"))
    ap.add_argument("--json", help="write the report, per name, to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="list where each name is used")
    args = ap.parse_args()
    proc = None
    remote = args.remote
    if not remote:
        proc, remote = start_server(Path(args.binary))
    try:
        functions = registered_functions(remote)
    finally:
        if proc:
            stop_server(proc)
    result = report(functions, scan_tests(Path(args.tests), {n.lower() for n in functions}))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, sort_keys=True))
    for name, entry in result["names"].items():
        if args.verbose and entry["status"] == "covered":
            print(f"covered    {name}: {', '.join(entry['where'])}")
        elif entry["status"] == "skipped":
            print(f"skipped    {name}: {'; '.join(entry['skip_reasons'])}")
        elif entry["status"] == "uncovered":
            alias = f" (alias of {entry['function']})" if entry["function"] != name else ""
            print(f"uncovered  {name}{alias}")
    print(f"names: {result['total']}; covered {result['covered']}, skipped {result['skipped']}, "
          f"uncovered {result['uncovered']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
