"""Differential tests of Python table functions whose output schema comes from their static
`analyze` method, and of table function keyword arguments — Ember against Apache Spark: the
schema analyze builds from its arguments' types, the constant values it sees (every type Spark
hands it as a Python object, and None for arguments that are not constant), keyword arguments
from the DataFrame API and from SQL (`name => value`), the AnalyzeResult handed to __init__,
LATERAL calls over a table's columns, and analyze's errors, after which the server keeps
serving."""

import dataclasses
import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, StringType, StructType
from pyspark.sql.udtf import AnalyzeArgument, AnalyzeResult

# The workers cannot import this test module: its classes travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


class SameTypes:
    """One output column per argument, of the argument's type."""

    @staticmethod
    def analyze(a: AnalyzeArgument, b: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("a", a.dataType).add("b", b.dataType))

    def eval(self, a, b):
        yield a, b
        yield b if isinstance(b, type(a)) else a, a


class Keywords:
    @staticmethod
    def analyze(a: AnalyzeArgument, b: AnalyzeArgument, **kwargs: AnalyzeArgument) -> AnalyzeResult:
        schema = StructType().add("a", a.dataType).add("b", b.dataType)
        for name in sorted(kwargs):
            schema = schema.add(name, kwargs[name].dataType)
        return AnalyzeResult(schema)

    def eval(self, a, b, **kwargs):
        yield (a, b, *[kwargs[name] for name in sorted(kwargs)])


class Seen:
    """Column names that show what analyze saw of each argument: its type, whether it is a
    constant, and the value as Python got it."""

    @staticmethod
    def analyze(*args: AnalyzeArgument) -> AnalyzeResult:
        schema = StructType()
        for i, a in enumerate(args):
            seen = f"{i}: {a.dataType.simpleString()} {a.isConstantExpression} {a.value!r}"
            schema = schema.add(seen, StringType())
        return AnalyzeResult(schema)

    def eval(self, *args):
        yield tuple(repr(a) for a in args)


@dataclasses.dataclass
class Repeat(AnalyzeResult):
    times: int = 1


class Repeated:
    """__init__ receives analyze's result, here with a field of its own."""

    @staticmethod
    def analyze(word: AnalyzeArgument, times: AnalyzeArgument) -> AnalyzeResult:
        return Repeat(schema=StructType().add("word", StringType()).add("n", IntegerType()), times=times.value)

    def __init__(self, analyze_result):
        self.times = analyze_result.times

    def eval(self, word, times):
        for n in range(self.times):
            yield word, n


class Lengths:
    """analyze sees a column argument as no constant; the schema does not depend on it."""

    @staticmethod
    def analyze(text: AnalyzeArgument) -> AnalyzeResult:
        name = "length" if not text.isConstantExpression and text.value is None else "constant"
        return AnalyzeResult(StructType().add(name, IntegerType()))

    def eval(self, text):
        if text is not None:
            yield (len(text),)


class Fails:
    @staticmethod
    def analyze(x: AnalyzeArgument) -> AnalyzeResult:
        raise ValueError("analyze refuses " + x.dataType.simpleString())

    def eval(self, x):
        yield (x,)


class NotAResult:
    @staticmethod
    def analyze(x: AnalyzeArgument):
        return StructType().add("x", IntegerType())

    def eval(self, x):
        yield (x,)


class OneParameter:
    @staticmethod
    def analyze(x: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("x", x.dataType))

    def eval(self, x):
        yield (x,)


class FixedKeywords:
    """A return type given at registration, called with keyword arguments."""

    def eval(self, a, b=10):
        yield a, b


def test_schema_from_analyze(diff):
    diff(lambda s: F.udtf(SameTypes)(F.lit(1), F.lit("x")))
    diff(lambda s: F.udtf(SameTypes)(F.lit(1.5), F.lit(2)))
    diff(lambda s: F.udtf(SameTypes, useArrow=True)(F.lit("p"), F.lit("q")))


def test_keyword_arguments_from_the_dataframe_api(diff):
    diff(lambda s: F.udtf(Keywords)(F.lit(1), b=F.lit("b"), x=F.lit(2.5)))
    diff(lambda s: F.udtf(Keywords)(a=F.lit(1), b=F.lit("b")))
    diff(lambda s: F.udtf(FixedKeywords, returnType="a int, b int")(F.lit(1), b=F.lit(2)))
    diff(lambda s: F.udtf(FixedKeywords, returnType="a int, b int")(a=F.lit(3)))


def test_keyword_arguments_from_sql(diff):
    def run(query):
        def program(s):
            s.udtf.register("kw", F.udtf(Keywords))
            s.udtf.register("fixed_kw", F.udtf(FixedKeywords, returnType="a int, b int"))
            return s.sql(query)
        return program

    diff(run("SELECT * FROM kw(1, x => 'x', b => 'b')"))
    diff(run("SELECT * FROM kw(b => 2, a => 1)"))
    diff(run("SELECT * FROM fixed_kw(5, b => 6)"))
    diff(run("SELECT * FROM fixed_kw(a => 7)"))


def test_constant_values_analyze_sees(diff):
    def run(s):
        s.udtf.register("seen", F.udtf(Seen))
        return s.sql("SELECT * FROM seen(1, 2L, -129, 3000000000, 1.5D, CAST(2.5 AS FLOAT), 'text', '', "
                     "DATE'2024-02-29', 1.25BD, -0.001BD, X'0102', true, NULL, 1 + 1, upper('a'), "
                     "array(1, 2), array(), map('a', 1), named_struct('f', 1, 'g', 'h'), "
                     "array(named_struct('x', CAST(NULL AS INT))), TIMESTAMP'2024-03-10 10:30:00.25', "
                     "TIMESTAMP_NTZ'1969-12-31 23:59:59.5')")

    diff(run)


def test_analyze_result_reaches_init(diff):
    diff(lambda s: F.udtf(Repeated)(F.lit("w"), F.lit(3)))
    diff(lambda s: F.udtf(Repeated)(F.lit("w"), F.lit(0)))


def test_lateral_call_over_columns(diff):
    def run(s):
        s.createDataFrame([(1, "a b"), (2, None), (3, "cde")], "x int, text string") \
            .createOrReplaceTempView("analyze_input")
        s.udtf.register("lengths", F.udtf(Lengths))
        return s.sql("SELECT t.x, f.* FROM analyze_input t, LATERAL lengths(t.text) f")

    diff(run)


@pytest.mark.parametrize("cls, marker", [
    (Fails, "analyze refuses int"),
    (NotAResult, "pyspark.sql.udtf.AnalyzeResult"),
])
def test_analyze_errors(ember, oracle, cls, marker):
    from harness import error_condition, run_for_error, session_mode

    program = lambda s: F.udtf(cls)(F.lit(1))  # noqa: E731
    with session_mode(oracle):
        expected = run_for_error("spark", program, oracle)
    with session_mode(ember):
        actual = run_for_error("ember", program, ember)
    assert error_condition(expected) == "TABLE_VALUED_FUNCTION_FAILED_TO_ANALYZE_IN_PYTHON", repr(expected)
    assert error_condition(actual) == error_condition(expected), repr(actual)
    assert marker in str(expected) and marker in str(actual), (str(expected), str(actual))
    # The server keeps serving.
    with session_mode(ember):
        assert F.udtf(SameTypes)(F.lit(4), F.lit(5)).collect()[0] == (4, 5)


def test_arguments_that_do_not_match_analyze(ember, oracle):
    from harness import error_condition, run_for_error, session_mode

    program = lambda s: F.udtf(OneParameter)(F.lit(1), F.lit(2))  # noqa: E731
    with session_mode(oracle):
        expected = run_for_error("spark", program, oracle)
    with session_mode(ember):
        actual = run_for_error("ember", program, ember)
    assert error_condition(actual) == error_condition(expected), (repr(expected), repr(actual))
    marker = "did not match the expected signature of the static 'analyze' method"
    assert marker in str(expected) and marker in str(actual), (str(expected), str(actual))
