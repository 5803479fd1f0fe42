"""reflect / java_method / try_reflect: static Java methods by name, their results as
String.valueOf gives them, and Spark's analysis errors for unknown classes and methods, other
argument types and class or method names that are not constant."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

UUID = "a5cf6c42-0c85-418f-af6c-3e4e5b1328f2"


def test_uuid_from_string(diff):
    diff(lambda s: s.createDataFrame([(UUID,), ("1-2-3-4-5",), ("A5CF6C42-0C85-418F-AF6C-3E4E5B1328F2",)], ["a"])
         .select(F.reflect(F.lit("java.util.UUID"), F.lit("fromString"), "a"),
                 F.java_method(F.lit("java.util.UUID"), F.lit("fromString"), "a"),
                 F.try_reflect(F.lit("java.util.UUID"), F.lit("fromString"), "a")))


def test_random_uuid(diff):
    diff(lambda s: s.sql("SELECT length(reflect('java.util.UUID', 'randomUUID')) AS n, "
                         "substr(reflect('java.util.UUID', 'randomUUID'), 15, 1) AS version"))


def test_math(diff):
    diff(lambda s: s.sql(
        "SELECT reflect('java.lang.Math', 'abs', -3), reflect('java.lang.Math', 'abs', -3L), "
        "reflect('java.lang.Math', 'abs', -2.5D), reflect('java.lang.Math', 'abs', CAST(-1.5 AS FLOAT)), "
        "reflect('java.lang.Math', 'abs', -2147483648), reflect('java.lang.Math', 'max', 2, 7), "
        "reflect('java.lang.Math', 'min', -0.0D, 0.0D), reflect('java.lang.Math', 'sqrt', 2D), "
        "java_method('java.lang.Math', 'pow', 2D, 10D), reflect('java.lang.Math', 'sqrt', -1D), "
        "reflect('java.lang.Math', 'log', 0D), reflect('java.lang.Math', 'floorDiv', 7, -2), "
        "reflect('java.lang.Math', 'floorMod', -7L, 3L), reflect('java.lang.Math', 'round', 2.5D), "
        "reflect('java.lang.Math', 'round', -2.5D), reflect('java.lang.Math', 'exp', 1D), "
        "reflect('java.lang.StrictMath', 'toDegrees', 1D), reflect('java.lang.Math', 'signum', -4D)"))


def test_strict_math(diff):
    # StrictMath is fdlibm to the last bit; java.lang.Math runs the same code for cosh, atan2,
    # cbrt and hypot (HotSpot's intrinsics for exp, log, sin and the like give other digits).
    diff(lambda s: s.sql(
        "SELECT reflect('java.lang.StrictMath', 'exp', 1D), reflect('java.lang.StrictMath', 'log', 3D), "
        "reflect('java.lang.StrictMath', 'log10', 7D), reflect('java.lang.StrictMath', 'sin', 1e300D), "
        "reflect('java.lang.StrictMath', 'cos', 1e22D), reflect('java.lang.StrictMath', 'tan', 10D), "
        "reflect('java.lang.StrictMath', 'pow', 3D, 0.7D), reflect('java.lang.StrictMath', 'expm1', 0.3D), "
        "reflect('java.lang.Math', 'cosh', 1D), reflect('java.lang.Math', 'atan2', -1D, -3D), "
        "reflect('java.lang.Math', 'cbrt', 10D), reflect('java.lang.Math', 'hypot', 2D, 3D)"))


def test_parsing_and_printing(diff):
    diff(lambda s: s.sql(
        "SELECT reflect('java.lang.String', 'valueOf', 12), reflect('java.lang.String', 'valueOf', true), "
        "reflect('java.lang.String', 'valueOf', 1.5D), reflect('java.lang.String', 'valueOf', 1e10D), "
        "reflect('java.lang.String', 'valueOf', 'x'), reflect('java.lang.Integer', 'parseInt', '42'), "
        "reflect('java.lang.Integer', 'parseInt', 'ff', 16), reflect('java.lang.Long', 'parseLong', '-9'), "
        "reflect('java.lang.Double', 'parseDouble', ' 1e3 '), reflect('java.lang.Integer', 'toHexString', -1), "
        "reflect('java.lang.Long', 'toBinaryString', 5L), reflect('java.lang.Integer', 'valueOf', '7'), "
        "reflect('java.lang.Boolean', 'parseBoolean', 'TRUE'), reflect('java.lang.Integer', 'toString', 255, 16)"))


def test_url_codecs(diff):
    diff(lambda s: s.sql("SELECT reflect('java.net.URLDecoder', 'decode', 'a%20b+c%C3%A9', 'UTF-8'), "
                         "reflect('java.net.URLEncoder', 'encode', 'a b&c=é', 'UTF-8')"))


def test_void_and_null_results(diff):
    diff(lambda s: s.sql("SELECT reflect('scala.Predef', 'require', true), "
                         "reflect('java.lang.String', 'valueOf', CAST(NULL AS STRING))"))


def test_try_reflect_gives_null_when_the_method_throws(diff):
    diff(lambda s: s.range(1).select(F.try_reflect(F.lit("scala.Predef"), F.lit("require"), F.lit(False))))
    diff(lambda s: s.sql("SELECT try_reflect('java.lang.Integer', 'parseInt', 'x'), "
                         "try_reflect('java.util.UUID', 'fromString', 'nope'), "
                         "try_reflect('java.lang.Math', 'abs', CAST(NULL AS INT)), "
                         "try_reflect('java.lang.Math', 'addExact', 2147483647, 1)"))


@pytest.mark.parametrize("sql", [
    "SELECT reflect('java.lang.Integer', 'parseInt', 'x')",
    "SELECT reflect('java.util.UUID', 'fromString', CAST(NULL AS STRING))",
    "SELECT reflect('scala.Predef', 'require', false)",
])
def test_reflect_raises_what_the_method_throws(ember, sql):
    # Spark fails the task with the method's exception (no error class of its own).
    with pytest.raises(Exception, match="java.lang"):
        ember.sql(sql).collect()


@pytest.mark.parametrize("sql,error_class", [
    ("SELECT reflect('java.util.NoSuch', 'x')", "DATATYPE_MISMATCH.UNEXPECTED_CLASS_TYPE"),
    ("SELECT reflect('java.util.UUID', 'nosuch')", "DATATYPE_MISMATCH.UNEXPECTED_STATIC_METHOD"),
    ("SELECT try_reflect('java.util.UUID', 'nosuch')", "DATATYPE_MISMATCH.UNEXPECTED_STATIC_METHOD"),
    ("SELECT reflect('java.lang.Math', 'sqrt', 2)", "DATATYPE_MISMATCH.UNEXPECTED_STATIC_METHOD"),
    ("SELECT reflect('java.lang.Math', 'abs', CAST(-3 AS SMALLINT))", "DATATYPE_MISMATCH.UNEXPECTED_STATIC_METHOD"),
    ("SELECT reflect('java.lang.Math', 'abs', -1.5)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
    ("SELECT reflect(1, 'x')", "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT"),
    ("SELECT reflect(CAST(id AS STRING), 'randomUUID') FROM range(1)", "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT"),
    ("SELECT reflect('java.util.UUID')", "WRONG_NUM_ARGS"),
])
def test_analysis_errors(diff_error, sql, error_class):
    diff_error(lambda s: s.sql(sql), error_class)
