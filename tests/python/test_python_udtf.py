"""Differential tests of Python user-defined table functions (udtf) — Ember against Apache Spark:
calls from the DataFrame API with literal arguments, spark.udtf.register and SQL calls in FROM,
LATERAL joins with a table (comma and JOIN ... ON), eval yielding several rows, none, or rows
with nulls, terminate and __init__ state, cleanup, arguments and results of many types, the
plain and the Arrow-optimized forms; and errors: an exception in eval, rows of the wrong width
or kind, an unknown table function, after which the server keeps serving."""

import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F

# The workers cannot import this test module: its classes travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ARROW_MODES = [None, False, True]


def make(cls, return_type, use_arrow=None):
    """The class as a udtf of the API mode the program runs in (a udtf object belongs to the
    mode, classic or Connect, that made it)."""
    if use_arrow is None:
        return F.udtf(cls, returnType=return_type)
    return F.udtf(cls, returnType=return_type, useArrow=use_arrow)


class Squares:
    def eval(self, start: int, end: int):
        for n in range(start, end + 1):
            yield n, n * n


class Nothing:
    def eval(self, x):
        if x > 100:
            yield (x,)


class ReturnsNone:
    def eval(self, x):
        return None


class Counter:
    """State across calls: __init__ runs once per task, terminate at its end."""

    def __init__(self):
        self.count = 0
        self.total = 0

    def eval(self, x):
        self.count += 1
        self.total += x or 0
        yield "row", x

    def terminate(self):
        yield "total", self.total


class WithCleanup:
    def eval(self, x):
        yield (x * 2,)

    def cleanup(self):
        self.done = True


class Nulls:
    def eval(self, x, s):
        yield x, s
        yield None, None
        yield (x + 1 if x is not None else None), (s.upper() if s is not None else None)


class Types:
    def eval(self, i, s, d, b):
        yield (i, s, d, b, [i, i + 1], {"k": s}, (i, s), i * 10_000_000_000, None)


class NoArguments:
    def eval(self):
        yield ("only",)
        yield ("rows",)


class Split:
    def eval(self, text):
        if text is None:
            return
        for i, word in enumerate(text.split(" ")):
            yield word, i


TYPES_RETURN = ("i: int, s: string, d: double, b: boolean, arr: array<int>, m: map<string,string>, "
                "st: struct<x: int, y: string>, big: bigint, n: string")


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_dataframe_call_yields_rows(diff, use_arrow):
    diff(lambda s: make(Squares, "num: int, squared: int", use_arrow)(F.lit(1), F.lit(4)))
    diff(lambda s: make(Squares, "num: int, squared: int", use_arrow)(F.lit(3), F.lit(1)))
    diff(lambda s: make(NoArguments, "word: string", use_arrow)())


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_zero_rows(diff, use_arrow):
    diff(lambda s: make(Nothing, "x: int", use_arrow)(F.lit(1)))
    diff(lambda s: make(ReturnsNone, "x: int", use_arrow)(F.lit(1)))


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_terminate_and_cleanup(diff, use_arrow):
    diff(lambda s: make(Counter, "kind: string, value: int", use_arrow)(F.lit(5)))
    diff(lambda s: make(WithCleanup, "y: int", use_arrow)(F.lit(21)))


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_nulls(diff, use_arrow):
    diff(lambda s: make(Nulls, "x: int, s: string", use_arrow)(F.lit(1), F.lit("a")))
    diff(lambda s: make(Nulls, "x: int, s: string", use_arrow)(F.lit(None).cast("int"), F.lit(None).cast("string")))


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_argument_and_result_types(diff, use_arrow):
    diff(lambda s: make(Types, TYPES_RETURN, use_arrow)(F.lit(7), F.lit("seven"), F.lit(0.5), F.lit(True)))


def test_select_and_filter_over_the_rows(diff):
    diff(lambda s: make(Squares, "num: int, squared: int")(F.lit(1), F.lit(10))
         .where("squared > 10").select((F.col("num") + F.col("squared")).alias("t")))
    diff(lambda s: make(Squares, "num: int, squared: int")(F.lit(1), F.lit(5)).orderBy(F.desc("num")), ordered=True)


def _table(s):
    s.createDataFrame([(1, "a b"), (2, None), (0, "c"), (3, "d e f")], "x int, text string") \
        .createOrReplaceTempView("udtf_input")


def _register(s, name, cls, return_type, use_arrow=None):
    s.udtf.register(name, make(cls, return_type, use_arrow))


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_sql_call_of_a_registered_udtf(diff, use_arrow):
    def program(query):
        def run(s):
            _register(s, "squares", Squares, "num: int, squared: int", use_arrow)
            return s.sql(query)
        return run

    diff(program("SELECT * FROM squares(1, 3)"))
    diff(program("SELECT squared FROM squares(2, 4) WHERE num > 2"))
    diff(program("SELECT * FROM squares(1, 3) AS f(a, b)"))
    diff(program("SELECT f.num FROM squares(1, 3) f"))
    diff(program("SELECT * FROM SQUARES(0, 1)"))


@pytest.mark.parametrize("use_arrow", ARROW_MODES)
def test_lateral_join_with_a_table(diff, use_arrow):
    def program(query, cls=Split, return_type="word: string, pos: int"):
        def run(s):
            _table(s)
            _register(s, "split_words", cls, return_type, use_arrow)
            return s.sql(query)
        return run

    diff(program("SELECT t.x, f.* FROM udtf_input t, LATERAL split_words(t.text) f"))
    diff(program("SELECT * FROM udtf_input, LATERAL split_words(text)"))
    diff(program("SELECT t.x, f.word FROM udtf_input t JOIN LATERAL split_words(t.text) f ON f.pos > 0"))
    diff(program("SELECT x, word FROM udtf_input AS t CROSS JOIN LATERAL split_words(t.text) AS f(word, p)"))
    diff(program("SELECT t.x, f.* FROM udtf_input t, LATERAL split_words(0, t.x) f", Squares, "num: int, squared: int"))


def test_lateral_terminate_rows_join_the_last_row(diff):
    def run(s):
        s.createDataFrame([(1,), (2,), (0,)], "x int").coalesce(1).createOrReplaceTempView("udtf_single")
        _register(s, "counter", Counter, "kind: string, value: int")
        return s.sql("SELECT t.x, c.* FROM udtf_single t, LATERAL counter(t.x) c")

    diff(run)


def test_sql_column_arguments_of_an_aggregate(diff):
    def run(s):
        _table(s)
        _register(s, "squares", Squares, "num: int, squared: int")
        return s.sql("SELECT * FROM (SELECT max(x) AS m FROM udtf_input) t, LATERAL squares(1, t.m)")

    diff(run)


def test_unknown_table_function(diff_error):
    diff_error(lambda s: s.sql("SELECT * FROM no_such_udtf(1)"), "UNRESOLVABLE_TABLE_VALUED_FUNCTION")


# ---------------------------------------------------------------------------------------------
# Errors from the worker


def _python_error(spark, program):
    from harness import session_mode

    with session_mode(spark):
        with pytest.raises(Exception) as info:
            program(spark).collect()
    return info.value


class Raises:
    def eval(self, x):
        yield (x,)
        raise ValueError(f"bad value {x}")


class RaisesEagerly:
    """eval is no generator: its exception comes from the call itself."""

    def eval(self, x):
        raise ValueError(f"eager {x}")


class WrongWidth:
    def eval(self, x):
        yield x, x, x


class NotATuple:
    def eval(self, x):
        yield x


class NotIterable:
    def eval(self, x):
        return 5


def _same_python_error(ember, oracle, cls, return_type, marker, use_arrow=None):
    from harness import python_errors, session_mode

    python_errors(ember, oracle, lambda s: make(cls, return_type, use_arrow)(F.lit(3)), marker)
    # The server keeps serving, with a fresh worker.
    with session_mode(ember):
        assert make(Squares, "num: int, squared: int")(F.lit(2), F.lit(2)).collect()[0][1] == 4


@pytest.mark.parametrize("use_arrow", [None, True])
def test_exception_in_eval(ember, oracle, use_arrow):
    _same_python_error(ember, oracle, Raises, "x: int", "ValueError: bad value 3", use_arrow)
    _same_python_error(ember, oracle, RaisesEagerly, "x: int", "UDTF_EXEC_ERROR", use_arrow)
    _same_python_error(ember, oracle, RaisesEagerly, "x: int", "eager 3", use_arrow)


def test_wrong_number_of_values(ember, oracle):
    _same_python_error(ember, oracle, WrongWidth, "a: int, b: int", "UDTF_RETURN_SCHEMA_MISMATCH")


def test_row_that_is_not_a_tuple(ember, oracle):
    _same_python_error(ember, oracle, NotATuple, "a: int, b: int", "UDTF_ARROW_DATA_CONVERSION_ERROR")


def test_result_that_is_not_iterable(ember, oracle):
    _same_python_error(ember, oracle, NotIterable, "a: int", "UDTF_RETURN_NOT_ITERABLE")


def test_explain_shows_the_udtf_operator(ember):
    from harness import session_mode

    with session_mode(ember):
        _table(ember)
        _register(ember, "split_words", Split, "word: string, pos: int")
        plan = ember.sql("SELECT t.x, f.* FROM udtf_input t, LATERAL split_words(t.text) f") \
            ._explain_string(extended=False)
    assert "ArrowEvalPythonUDTF split_words(text#" in plan, plan


def test_terminate_runs_once_per_partition(diff):
    # Two partitions of 100000 rows each, several engine batches apiece: one task per partition,
    # so `terminate` yields each partition's total once, joined with its last row.
    def run(s):
        s.range(0, 200000, 1, 2).selectExpr("CAST(id % 7 AS INT) AS x").createOrReplaceTempView("udtf_many")
        _register(s, "counter", Counter, "kind: string, value: int")
        return s.sql("SELECT c.kind, count(*) AS n, sum(c.value) AS v FROM udtf_many t, LATERAL counter(t.x) c "
                     "GROUP BY c.kind")

    diff(run)
