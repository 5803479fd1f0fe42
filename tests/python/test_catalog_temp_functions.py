"""Python functions in the catalog against Apache Spark: what spark.udf.register and
spark.udtf.register add (Spark's temporary functions) as SHOW [USER | SYSTEM | ALL] FUNCTIONS,
Catalog.listFunctions, functionExists and getFunction show them (names, LIKE patterns, order,
className, isTemporary), DROP TEMPORARY FUNCTION and its errors, and LATERAL VIEW over a Python
table function.

Each session lives for the whole worker, so every test registers its functions under the
prefix `tmpfn_` on both engines, drops them when it ends, and filters listings by that prefix:
what other tests register never shows in what these compare."""

import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F

from harness import error_condition, session_mode

# The workers cannot import this test module: its classes travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

UDF_NAMES = ["tmpfn_plus_one", "TmpFn_Upper"]
UDTF_NAMES = ["tmpfn_squares"]


class Squares:
    def eval(self, start: int, end: int):
        for n in range(start, end + 1):
            yield n, n * n


def _register(s):
    s.udf.register("tmpfn_plus_one", lambda v: None if v is None else v + 1, "int")
    s.udf.register("TmpFn_Upper", lambda v: v.upper() if v else v, "string")
    s.udtf.register("tmpfn_squares", F.udtf(Squares, returnType="num: int, squared: int"))


def _drop_all(s):
    for name in UDF_NAMES + UDTF_NAMES:
        s.sql(f"DROP TEMPORARY FUNCTION IF EXISTS {name}")


@pytest.fixture
def registered(ember, oracle):
    """The functions registered on both engines for the test's duration."""
    for spark in (ember, oracle):
        with session_mode(spark):
            _register(spark)
    yield
    for spark in (ember, oracle):
        with session_mode(spark):
            _drop_all(spark)


def _on_both(ember, oracle, program):
    results = []
    for spark in (ember, oracle):
        with session_mode(spark):
            results.append(program(spark))
    return results


def _rows(spark, sql):
    return [tuple(r) for r in spark.sql(sql).collect()]


SHOW = [
    "SHOW USER FUNCTIONS LIKE 'tmpfn*'",
    "SHOW FUNCTIONS LIKE 'tmpfn*'",
    "SHOW ALL FUNCTIONS LIKE 'tmpfn_s*|tmpfn_u*'",
    "SHOW SYSTEM FUNCTIONS LIKE 'tmpfn*'",
    "SHOW USER FUNCTIONS LIKE 'TMPFN_PLUS_ONE'",
    "SHOW FUNCTIONS LIKE 'tmpfn_s*|abs|upper'",
    "SHOW USER FUNCTIONS 'tmpfn_squ*'",
]


@pytest.mark.parametrize("sql", SHOW)
def test_show_functions_lists_python_functions(registered, ember, oracle, sql):
    got, expected = _on_both(ember, oracle, lambda s: _rows(s, sql))
    assert got == expected


def _function(f):
    # Spark's class name of a Python function is the JVM class of its builder, a lambda's
    # generated name; Ember names the kind of function. Built-in functions are compared in
    # test_functions_catalog.py (their descriptions are Ember's own words).
    description = f.description if f.name.lower().startswith("tmpfn") else None
    return f.name, f.catalog, f.namespace, description, f.isTemporary, f.className is not None


def _listed(spark, pattern, *db):
    return [_function(f) for f in spark.catalog.listFunctions(*db, pattern=pattern)]


@pytest.mark.parametrize("pattern", ["tmpfn*", "tmpfn*|abs|upper", "*fn_u*", "tmpfn_squares"])
def test_list_functions_lists_python_functions(registered, ember, oracle, pattern):
    got, expected = _on_both(ember, oracle, lambda s: _listed(s, pattern))
    assert got == expected
    got, expected = _on_both(ember, oracle, lambda s: _listed(s, pattern, "default"))
    assert got == expected


def test_function_exists_and_get_function(registered, ember, oracle):
    names = ["tmpfn_plus_one", "TMPFN_PLUS_ONE", "tmpfn_upper", "tmpfn_squares", "tmpfn_missing"]

    def program(s):
        exists = [s.catalog.functionExists(n) for n in names]
        got = [s.catalog.getFunction(n) for n in ["tmpfn_plus_one", "TmpFn_Upper", "tmpfn_squares"]]
        return exists, [_function(f) for f in got]

    got, expected = _on_both(ember, oracle, program)
    assert got == expected


def test_drop_temporary_function_removes_it(registered, ember, oracle, diff_error):
    def program(s):
        s.sql("DROP TEMPORARY FUNCTION tmpfn_plus_one")
        s.sql("DROP TEMPORARY FUNCTION TMPFN_SQUARES")
        s.sql("DROP TEMPORARY FUNCTION IF EXISTS tmpfn_missing")
        return (_rows(s, "SHOW USER FUNCTIONS LIKE 'tmpfn*'"), _listed(s, "tmpfn*"),
                s.catalog.functionExists("tmpfn_plus_one"), s.catalog.functionExists("tmpfn_squares"))

    got, expected = _on_both(ember, oracle, program)
    assert got == expected
    assert got[0] == [("tmpfn_upper",)]
    diff_error(lambda s: s.sql("SELECT tmpfn_plus_one(1)"), "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT * FROM tmpfn_squares(1, 2)"), "UNRESOLVABLE_TABLE_VALUED_FUNCTION")


def test_a_function_registered_again_is_listed_once(registered, ember, oracle):
    def program(s):
        s.udf.register("tmpfn_plus_one", lambda v: v, "int")
        return _rows(s, "SHOW USER FUNCTIONS LIKE 'tmpfn_p*'"), _rows(s, "SELECT tmpfn_plus_one(5)")

    got, expected = _on_both(ember, oracle, program)
    assert got == expected


@pytest.mark.parametrize("sql", [
    "DROP TEMPORARY FUNCTION tmpfn_never_registered",
    "DROP TEMPORARY FUNCTION abs",
    "DROP TEMPORARY FUNCTION default.tmpfn_plus_one",
    "DROP TEMPORARY FUNCTION a.b.tmpfn_plus_one",
])
def test_drop_temporary_function_errors(registered, ember, oracle, sql):
    errors = []
    for spark in (ember, oracle):
        with session_mode(spark):
            with pytest.raises(Exception) as info:
                spark.sql(sql).collect()
            errors.append(info.value)
    assert error_condition(errors[0]) == error_condition(errors[1])
    # The server keeps serving, and the failed drop removed nothing.
    got, expected = _on_both(ember, oracle, lambda s: _rows(s, "SHOW USER FUNCTIONS LIKE 'tmpfn*'"))
    assert got == expected and len(got) == 3


def test_lateral_view_over_a_python_table_function(registered, diff_error):
    diff_error(lambda s: s.sql("SELECT * FROM VALUES (1), (2) t(x) LATERAL VIEW tmpfn_squares(x, 3) v AS a, b"),
               LATERAL_VIEW_ERROR)
    diff_error(lambda s: s.sql("SELECT * FROM VALUES (1) t(x) LATERAL VIEW OUTER tmpfn_squares(x, x) v"),
               LATERAL_VIEW_ERROR)


def test_lateral_over_a_python_table_function_still_runs(registered, diff):
    diff(lambda s: s.sql("SELECT t.x, v.* FROM VALUES (1), (2) t(x), LATERAL tmpfn_squares(t.x, 3) v"))


@pytest.mark.parametrize("name", ["tmpfn_plus_one", "TMPFN_Upper", "tmpfn_squares"])
def test_describe_function_of_a_python_function(registered, ember, oracle, name):
    def program(s):
        short = [r[0] for r in s.sql(f"DESCRIBE FUNCTION {name}").collect()]
        extended = [r[0] for r in s.sql(f"DESCRIBE FUNCTION EXTENDED {name}").collect()]
        # The Class line names Spark's JVM class, Ember's kind of function.
        return [line for line in short + extended if not line.startswith("Class: ")]

    got, expected = _on_both(ember, oracle, program)
    assert got == expected


def test_drop_function_is_for_persistent_functions(registered, diff_error):
    diff_error(lambda s: s.sql("DROP FUNCTION tmpfn_plus_one"), "EXPECT_PERSISTENT_FUNCTION_NOT_TEMP")
    diff_error(lambda s: s.sql("DROP FUNCTION tmpfn_never_registered"), "ROUTINE_NOT_FOUND")


def test_drop_temporary_function_in_the_session_namespace(registered, ember, oracle):
    def program(s):
        s.sql("DROP TEMPORARY FUNCTION session.tmpfn_plus_one")
        s.sql("DROP TEMP FUNCTION system.session.tmpfn_squares")
        s.sql("DROP FUNCTION IF EXISTS tmpfn_never_registered")
        return _rows(s, "SHOW USER FUNCTIONS LIKE 'tmpfn*'")

    got, expected = _on_both(ember, oracle, program)
    assert got == expected == [("tmpfn_upper",)]


# Spark looks LATERAL VIEW's function up among scalar functions and then among persistent ones.
LATERAL_VIEW_ERROR = "ROUTINE_NOT_FOUND"
