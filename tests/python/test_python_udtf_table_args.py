"""Differential tests of TABLE arguments to Python table functions — Ember against Apache
Spark: `f(df.asTable())` with `.partitionBy(...)`, `.orderBy(...)`, `.withSinglePartition()`
and scalar arguments beside it; SQL's `f(TABLE(t))`, `TABLE(query)`, `PARTITION BY ... ORDER
BY ...`, `WITH SINGLE PARTITION` and `name => TABLE(t)`; eval receiving one Row per input row
(PARTITION BY values that are not columns of the table stay hidden), one instance and one
terminate per partition, the rows of a partition in the requested order; `analyze` seeing the
table's struct type and asking for partitioning, ordering and columns of its own; and errors
(two TABLE arguments, a TABLE argument without parentheses or with several PARTITION BY
expressions outside parentheses, requests of analyze that contradict the call), after which the
server keeps serving; LATERAL calls, which Spark accepts beside a relation of one row or for a
deterministic function; TABLE arguments where no table function takes them."""

import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, StringType, StructType
from pyspark.sql.udtf import AnalyzeArgument, AnalyzeResult, OrderingColumn, PartitioningColumn, SelectedColumn

# The workers cannot import this test module: its classes travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ARROW_MODES = [None, False, True]

ROWS = [(1, 10, "a"), (1, 11, "b"), (2, 20, "c"), (2, 22, None), (2, 21, "e"), (3, 30, "f"), (None, 5, "g")]


def table(s):
    return s.createDataFrame(ROWS, "k int, v int, s string")


def with_view(s):
    table(s).createOrReplaceTempView("udtf_table_args")
    return s


def make(cls, return_type, use_arrow=None):
    if use_arrow is None:
        return F.udtf(cls, returnType=return_type)
    return F.udtf(cls, returnType=return_type, useArrow=use_arrow)


class Echo:
    """One output row per input row: the row's fields as eval sees them."""

    def eval(self, row):
        yield ",".join(row.__fields__), row["v"], row["s"]


class Scaled:
    def eval(self, row, factor):
        yield row.v * factor, factor


class CountSumLast:
    """State per instance: one instance (and one terminate) per partition."""

    def __init__(self):
        self.count = 0
        self.total = 0
        self.last = None
        self.key = None

    def eval(self, row):
        self.count += 1
        self.total += row.v
        self.last = row.v
        self.key = row["k"] if "k" in row.__fields__ else None

    def terminate(self):
        yield self.key, self.count, self.total, self.last


COUNT_SUM_LAST = "k int, count int, total int, last int"


class Sequence:
    """The order rows arrive in, per partition."""

    def __init__(self):
        self.seen = []

    def eval(self, row):
        self.seen.append(str(row.v))

    def terminate(self):
        yield (" ".join(self.seen),)


def test_each_row_reaches_eval(diff):
    for mode in ARROW_MODES:
        def fn(*args, mode=mode):
            return make(Echo, "fields string, v int, s string", mode)(*args)
        diff(lambda s: fn(table(s).asTable()))
        diff(lambda s: fn(table(s).filter("v > 10").select("s", "v").asTable()))


def test_scalar_argument_beside_the_table(diff):
    def fn(*args):
        return make(Scaled, "x int, factor int")(*args)
    diff(lambda s: fn(table(s).asTable(), F.lit(3)))
    diff(lambda s: fn(table(s).asTable(), F.lit(-1)))


def test_partition_by_dataframe_api(diff):
    def fn(*args):
        return make(CountSumLast, COUNT_SUM_LAST)(*args)
    # Without ORDER BY the order of a partition's rows is not defined: `last` is left out.
    diff(lambda s: fn(table(s).asTable().partitionBy("k")).select("k", "count", "total"))
    diff(lambda s: fn(table(s).asTable().partitionBy(F.col("k")).orderBy("v")))
    def seq(*args):
        return make(Sequence, "seen string")(*args)
    diff(lambda s: seq(table(s).asTable().partitionBy("k").orderBy(F.col("v").desc())))
    diff(lambda s: seq(table(s).asTable().partitionBy("k", "s").orderBy("v")))


def test_partition_by_an_expression_hides_its_value(diff):
    def echo(*args):
        return make(Echo, "fields string, v int, s string")(*args)
    diff(lambda s: echo(table(s).asTable().partitionBy(F.col("v") % 2)))
    def seq(*args):
        return make(Sequence, "seen string")(*args)
    diff(lambda s: seq(table(s).asTable().partitionBy(F.col("v") % 2).orderBy("v")))


def test_with_single_partition(diff):
    def fn(*args):
        return make(CountSumLast, COUNT_SUM_LAST)(*args)
    diff(lambda s: fn(table(s).asTable().withSinglePartition()))
    def seq(*args):
        return make(Sequence, "seen string")(*args)
    diff(lambda s: seq(table(s).asTable().withSinglePartition().orderBy(F.col("v").desc())))
    diff(lambda s: seq(table(s).asTable().withSinglePartition().orderBy("s", "v")))


def test_empty_partitions(diff):
    def fn(*args):
        return make(CountSumLast, COUNT_SUM_LAST)(*args)
    diff(lambda s: fn(table(s).filter("v > 100").asTable().partitionBy("k")))
    diff(lambda s: fn(table(s).filter("v > 100").asTable().withSinglePartition()))


def sql(query, *classes):
    def program(s):
        with_view(s)
        s.udtf.register("echo", make(Echo, "fields string, v int, s string"))
        s.udtf.register("count_sum_last", make(CountSumLast, COUNT_SUM_LAST))
        s.udtf.register("arrival_order", make(Sequence, "seen string"))
        s.udtf.register("scaled", make(Scaled, "x int, factor int"))
        return s.sql(query)
    return program


def lateral_sql(query):
    """`sql` with deterministic functions too (asDeterministic), which Spark accepts beside a
    relation of several rows."""
    def program(s):
        s.udtf.register("echo_det", make(Echo, "fields string, v int, s string").asDeterministic())
        s.udtf.register("count_sum_last_det", make(CountSumLast, COUNT_SUM_LAST).asDeterministic())
        return sql(query)(s)
    return program


def test_lateral_table_argument_beside_one_row(diff):
    # The call's rows joined with the relation before it, which has one row at most.
    diff(lateral_sql("SELECT * FROM VALUES (7) AS x(c), LATERAL echo(TABLE(udtf_table_args))"))
    diff(lateral_sql("SELECT * FROM range(1), LATERAL count_sum_last(TABLE(udtf_table_args) PARTITION BY k "
                     "ORDER BY v)"))
    diff(lateral_sql("SELECT m, seen FROM (SELECT max(v) AS m FROM udtf_table_args), "
                     "LATERAL arrival_order(TABLE(udtf_table_args) WITH SINGLE PARTITION ORDER BY v)"))
    diff(lateral_sql("SELECT x.s, e.* FROM (SELECT * FROM udtf_table_args LIMIT 1) x "
                     "JOIN LATERAL echo(TABLE(SELECT v, s FROM udtf_table_args WHERE v > 20)) e"))
    diff(lambda s: s.range(1).lateralJoin(make(Echo, "fields string, v int, s string")(table(s).asTable())))
    # A LEFT lateral join keeps the row the function gives no rows for.
    diff(lambda s: s.range(1).lateralJoin(
        make(Echo, "fields string, v int, s string")(table(s).filter("v > 100").asTable()), how="left"))


def test_lateral_table_argument_of_a_deterministic_function(diff):
    # A deterministic function beside any relation, joined as written.
    diff(lateral_sql("SELECT * FROM VALUES (0), (1) AS x(c), LATERAL echo_det(TABLE(udtf_table_args))"))
    diff(lateral_sql("SELECT * FROM VALUES (0), (1) AS x(c) JOIN LATERAL "
                     "count_sum_last_det(TABLE(udtf_table_args) PARTITION BY k ORDER BY v) ON c = 0"))
    diff(lateral_sql("SELECT * FROM VALUES (0), (1) AS x(c) LEFT JOIN LATERAL "
                     "echo_det(TABLE(udtf_table_args)) ON c = 1 AND v > 20"))
    diff(lambda s: s.range(2).lateralJoin(
        make(Echo, "fields string, v int, s string").asDeterministic()(table(s).asTable().partitionBy("k"))))


NON_DETERMINISTIC_LATERAL = "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES"


def test_lateral_table_argument_refused(diff_error):
    # A function that is not deterministic (the default) beside more rows than one.
    for query in ("SELECT * FROM range(2), LATERAL echo(TABLE(udtf_table_args) PARTITION BY k)",
                  "SELECT * FROM VALUES (0), (1) AS x(c) LEFT JOIN LATERAL echo(TABLE(udtf_table_args)) ON true",
                  "SELECT * FROM VALUES (0), (1) AS x(c), LATERAL (SELECT * FROM echo(TABLE(udtf_table_args)))",
                  # A deterministic function over a table that is not.
                  "SELECT * FROM VALUES (0), (1) AS x(c), "
                  "LATERAL echo_det(TABLE(SELECT *, rand() AS r FROM udtf_table_args))"):
        diff_error(lateral_sql(query), NON_DETERMINISTIC_LATERAL)
    diff_error(lambda s: s.range(2).lateralJoin(make(Echo, "fields string, v int, s string")(table(s).asTable())),
               NON_DETERMINISTIC_LATERAL)
    # The call's other arguments and the table cannot read the relation before it.
    diff_error(lateral_sql("SELECT * FROM VALUES (3) AS x(c), LATERAL scaled(TABLE(udtf_table_args), c)"),
               "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION")
    err = diff_error(lateral_sql("SELECT * FROM VALUES (3) AS x(z), LATERAL scaled(TABLE(udtf_table_args), z + 1)"),
                     "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT")
    assert err.getMessageParameters()["missingAttributes"] == '"z"', err.getMessageParameters()
    diff_error(lateral_sql("SELECT * FROM VALUES (3) AS x(c), "
                           "LATERAL echo(TABLE(SELECT * FROM udtf_table_args WHERE v > c))"), "UNRESOLVED_COLUMN")


def test_table_argument_to_range(diff_error):
    # range() takes constants only: a TABLE argument is not one, whichever parameter it stands for.
    err = diff_error(sql("SELECT * FROM range(TABLE(udtf_table_args))"), "NON_FOLDABLE_ARGUMENT")
    assert err.getMessageParameters() == {"funcName": "`range`", "paramName": "`end`", "paramType": '"BIGINT"'}
    err = diff_error(sql("SELECT * FROM range(0, 5, TABLE(udtf_table_args) PARTITION BY k)"), "NON_FOLDABLE_ARGUMENT")
    assert err.getMessageParameters()["paramName"] == "`step`", err.getMessageParameters()
    err = diff_error(sql("SELECT * FROM range(0, 5, 1, TABLE(udtf_table_args))"), "NON_FOLDABLE_ARGUMENT")
    assert err.getMessageParameters()["paramType"] == '"INT"', err.getMessageParameters()


def test_table_argument_among_expressions(diff_error):
    # Among expressions `TABLE(t)` calls a function named TABLE, which Spark looks up before it
    # resolves `t`; an unknown function around it fails first.
    err = diff_error(sql("SELECT abs(TABLE(udtf_table_args))"), "UNRESOLVED_ROUTINE")
    assert err.getMessageParameters()["routineName"] == "`TABLE`", err.getMessageParameters()
    diff_error(sql("SELECT k, count(TABLE(udtf_table_args)) FROM udtf_table_args GROUP BY k"), "UNRESOLVED_ROUTINE")
    err = diff_error(sql("SELECT no_such_function(TABLE(udtf_table_args))"), "UNRESOLVED_ROUTINE")
    assert err.getMessageParameters()["routineName"] == "`no_such_function`", err.getMessageParameters()
    # A table function among expressions, whatever its arguments.
    diff_error(sql("SELECT echo(TABLE(udtf_table_args))"), "NOT_A_SCALAR_FUNCTION")
    diff_error(sql("SELECT k, scaled(k, 2) FROM udtf_table_args"), "NOT_A_SCALAR_FUNCTION")
    diff_error(sql("SELECT * FROM udtf_table_args WHERE scaled(k, 2) IS NULL"), "NOT_A_SCALAR_FUNCTION")


def test_builtin_generator_over_a_table_argument(diff):
    # The rows' struct is a value like any other to a built-in generator.
    diff(sql("SELECT * FROM stack(1, TABLE(udtf_table_args))"))
    diff(sql("SELECT * FROM stack(1, 'x', TABLE(udtf_table_args))"))


def test_sql_table_arguments(diff):
    diff(sql("SELECT * FROM echo(TABLE(udtf_table_args))"))
    diff(sql("SELECT * FROM echo(TABLE(SELECT s, v FROM udtf_table_args WHERE v < 25))"))
    diff(sql("SELECT * FROM echo(row => TABLE(udtf_table_args))"))
    diff(sql("SELECT * FROM scaled(TABLE(udtf_table_args), 2)"))
    diff(sql("SELECT x FROM scaled(TABLE(udtf_table_args), 5) WHERE x > 100"))
    diff(sql("SELECT f.* FROM echo(TABLE(udtf_table_args)) AS f(a, b, c)"))


def test_sql_partitioning(diff):
    diff(sql("SELECT k, count, total FROM count_sum_last(TABLE(udtf_table_args) PARTITION BY k)"))
    diff(sql("SELECT * FROM count_sum_last(TABLE(udtf_table_args) PARTITION BY k ORDER BY v DESC)"))
    diff(sql("SELECT * FROM arrival_order(TABLE(udtf_table_args) PARTITION BY k ORDER BY v DESC)"))
    diff(sql("SELECT * FROM arrival_order(TABLE(udtf_table_args) PARTITION BY (k, s IS NULL) ORDER BY (s, v))"))
    diff(sql("SELECT * FROM arrival_order(TABLE(udtf_table_args) DISTRIBUTE BY v % 3 SORT BY v)"))
    diff(sql("SELECT * FROM echo(TABLE(udtf_table_args) PARTITION BY v % 3)"))
    diff(sql("SELECT * FROM arrival_order(TABLE(udtf_table_args) WITH SINGLE PARTITION ORDER BY s NULLS FIRST)"))
    diff(sql("SELECT count, total FROM count_sum_last(TABLE(SELECT * FROM udtf_table_args WHERE k > 1) "
             "WITH SINGLE PARTITION)"))


class TableInfo:
    """analyze sees the TABLE argument as a table of the table's struct type."""

    @staticmethod
    def analyze(t: AnalyzeArgument, n: AnalyzeArgument) -> AnalyzeResult:
        schema = StructType()
        schema = schema.add(f"{t.isTable} {t.dataType.simpleString()} {t.value!r}", StringType())
        return AnalyzeResult(schema.add(f"{n.isTable} {n.dataType.simpleString()} {n.value!r}", IntegerType()))

    def eval(self, t, n):
        yield t.s, n


class SinglePartitionOrdered:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("seen", StringType()), withSinglePartition=True,
                             orderBy=[OrderingColumn("v", ascending=False)])

    def __init__(self, analyze_result=None):
        self.seen = []

    def eval(self, row):
        self.seen.append(str(row.v))

    def terminate(self):
        yield (" ".join(self.seen),)


class PartitionedOrdered:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("seen", StringType()), partitionBy=[PartitioningColumn("k")],
                             orderBy=[OrderingColumn("v", ascending=True)])

    def __init__(self, analyze_result=None):
        self.seen = []

    def eval(self, row):
        self.seen.append(str(row.v))

    def terminate(self):
        yield (" ".join(self.seen),)


class Selected:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("fields", StringType()).add("w", IntegerType()),
                             select=[SelectedColumn("v", alias="w"), SelectedColumn("s")])

    def eval(self, row):
        yield ",".join(row.__fields__), row.w


class ByExpression:
    """analyze names SQL expressions: partitions by parity, selects a computed column."""

    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("fields", StringType()).add("seen", StringType()),
                             partitionBy=[PartitioningColumn("v % 2")], orderBy=[OrderingColumn("v + 0")],
                             select=[SelectedColumn("v * 10", alias="w"), SelectedColumn("v")])

    def __init__(self, analyze_result=None):
        self.seen = []
        self.fields = None

    def eval(self, row):
        self.fields = ",".join(row.__fields__)
        self.seen.append(str(row.w))

    def terminate(self):
        yield self.fields, " ".join(self.seen)


class SelectedWithoutAlias:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("w", IntegerType()), select=[SelectedColumn("v + 1")])

    def eval(self, row):
        yield (1,)


class OrderingWithAlias:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("w", IntegerType()), withSinglePartition=True,
                             orderBy=[OrderingColumn("v AS w")])

    def eval(self, row):
        yield (1,)


class OrderWithoutPartition:
    @staticmethod
    def analyze(t: AnalyzeArgument) -> AnalyzeResult:
        return AnalyzeResult(StructType().add("v", IntegerType()), orderBy=[OrderingColumn("v")])

    def eval(self, row):
        yield (row.v,)


def test_analyze_names_expressions(diff, diff_error):
    diff(lambda s: F.udtf(ByExpression)(table(s).asTable()))
    diff_error(lambda s: F.udtf(SelectedWithoutAlias)(table(s).asTable()),
               "UDTF_INVALID_REQUESTED_SELECTED_EXPRESSION_FROM_ANALYZE_METHOD_REQUIRES_ALIAS")
    diff_error(lambda s: F.udtf(OrderingWithAlias)(table(s).asTable()),
               "UDTF_INVALID_ALIAS_IN_REQUESTED_ORDERING_STRING_FROM_ANALYZE_METHOD")


def test_analyze_sees_the_table(diff):
    diff(lambda s: F.udtf(TableInfo)(table(s).asTable(), F.lit(7)))


def test_analyze_requests_partitioning_and_columns(diff):
    diff(lambda s: F.udtf(SinglePartitionOrdered)(table(s).asTable()))
    diff(lambda s: F.udtf(PartitionedOrdered)(table(s).asTable()))
    diff(lambda s: F.udtf(Selected)(table(s).asTable()))

    def run(s):
        with_view(s)
        s.udtf.register("single_ordered", F.udtf(SinglePartitionOrdered))
        return s.sql("SELECT * FROM single_ordered(TABLE(udtf_table_args))")

    diff(run)


def test_errors(diff_error, ember):
    diff_error(sql("SELECT * FROM echo(TABLE(udtf_table_args), TABLE(udtf_table_args))"),
                    "TABLE_VALUED_FUNCTION_TOO_MANY_TABLE_ARGUMENTS")
    diff_error(sql("SELECT * FROM echo(TABLE udtf_table_args)"),
                    "INVALID_SQL_SYNTAX.INVALID_TABLE_FUNCTION_IDENTIFIER_ARGUMENT_MISSING_PARENTHESES")
    diff_error(sql("SELECT * FROM echo(TABLE(udtf_table_args) PARTITION BY k, v)"),
                    "INVALID_SQL_SYNTAX.INVALID_TABLE_FUNCTION_TABLE_ARGUMENT_PARTITIONING")
    diff_error(sql("SELECT * FROM echo(TABLE(udtf_table_args) PARTITION BY k ORDER BY v, s)"),
                    "INVALID_SQL_SYNTAX.INVALID_TABLE_FUNCTION_TABLE_ARGUMENT_PARTITIONING")
    diff_error(sql("SELECT * FROM no_such_udtf(TABLE(udtf_table_args))"), "UNRESOLVABLE_TABLE_VALUED_FUNCTION")
    diff_error(sql("SELECT * FROM explode(TABLE(udtf_table_args))"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(sql("SELECT * FROM VALUES (0), (1) AS x(c) JOIN LATERAL echo(TABLE(udtf_table_args))"),
               "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES")
    diff_error(sql("SELECT * FROM VALUES (0), (1) AS x(c), LATERAL echo(row => TABLE(udtf_table_args) PARTITION BY k)"),
               "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES")
    diff_error(lambda s: make(Echo, "fields string, v int, s string")(table(s).asTable(), table(s).asTable()),
               "TABLE_VALUED_FUNCTION_TOO_MANY_TABLE_ARGUMENTS")

    def two_tables_allowed(s):
        s.conf.set("spark.sql.allowMultipleTableArguments.enabled", "true")
        try:
            return sql("SELECT * FROM echo(TABLE(udtf_table_args), TABLE(udtf_table_args))")(s)
        finally:
            s.conf.unset("spark.sql.allowMultipleTableArguments.enabled")

    diff_error(two_tables_allowed, "TABLE_VALUED_FUNCTION_TOO_MANY_TABLE_ARGUMENTS")
    diff_error(lambda s: F.udtf(SinglePartitionOrdered)(table(s).asTable().partitionBy("k")),
                    "TABLE_VALUED_FUNCTION_REQUIRED_METADATA_INCOMPATIBLE_WITH_CALL")
    diff_error(lambda s: F.udtf(OrderWithoutPartition)(table(s).asTable()),
                    "TABLE_VALUED_FUNCTION_REQUIRED_METADATA_INVALID")
    diff_error(lambda s: make(Echo, "fields string, v int, s string")(table(s).asTable().partitionBy("nope")),
                    "UNRESOLVED_COLUMN")
    # The server keeps serving.
    from harness import session_mode
    with session_mode(ember):
        fn = make(Scaled, "x int, factor int")
        assert sorted(fn(table(ember).asTable(), F.lit(2)).collect()) == sorted(
            (v * 2, 2) for _, v, _ in ROWS)


class ArrowTotals:
    """An Arrow UDTF gets the TABLE argument as record batches of the table's columns."""

    def eval(self, batch):
        import pyarrow as pa
        import pyarrow.compute as pc

        yield pa.table({"columns": [",".join(batch.schema.names)], "n": pa.array([batch.num_rows], pa.int32()),
                        "total": pa.array([pc.sum(batch.column("v")).as_py()], pa.int64())})


def test_arrow_udtf_table_argument(diff):
    def run(t):
        return lambda s: F.arrow_udtf(ArrowTotals, returnType="columns string, n int, total bigint")(t(s))

    diff(run(lambda s: table(s).asTable().partitionBy("k")))
    diff(run(lambda s: table(s).select("v").asTable().withSinglePartition()))


def test_partition_by_of_a_builtin_generator(ember):
    """Spark fails with an internal error (an assertion of its analyzer): only Python table
    functions take PARTITION BY. Ember refuses the call with the same words."""
    from harness import error_condition, run_for_error, session_mode

    with session_mode(ember):
        actual = run_for_error("ember", sql("SELECT * FROM stack(1, TABLE(udtf_table_args) PARTITION BY k)"), ember)
    assert error_condition(actual) == "INTERNAL_ERROR", repr(actual)
    assert "only Python table functions support this clause" in str(actual)


class RaisesOnAValue:
    def eval(self, row):
        if row.v == 21:
            raise ValueError(f"refused {row.v}")
        yield (row.v,)


@pytest.mark.parametrize("partitioned", [False, True])
def test_exception_in_eval(ember, oracle, partitioned):
    from harness import python_errors, session_mode

    def program(s):
        t = table(s).asTable()
        return make(RaisesOnAValue, "v int")(t.partitionBy("k") if partitioned else t)

    python_errors(ember, oracle, program, "refused 21")
    # The server keeps serving.
    with session_mode(ember):
        assert sorted(make(Echo, "fields string, v int, s string")(table(ember).asTable()).select("v").collect()) == \
            sorted((v,) for _, v, _ in ROWS)
