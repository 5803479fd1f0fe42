"""unwrap_udt against Apache Spark: pyspark.ml.linalg's VectorUDT and MatrixUDT columns from
createDataFrame unwrapped into their sqlType structs (schema, printSchema tree, values and
NULLs)."""

from __future__ import annotations

from pyspark.ml.linalg import Matrices, Vectors
from pyspark.sql import functions as F

from harness import compare_text, session_mode


def vectors(s):
    return s.createDataFrame([(1, Vectors.dense(1, 2, 3)), (2, Vectors.sparse(4, {1: 1.0, 3: 5.5})),
                              (3, None), (4, Vectors.dense([]))], ["k", "vec"])


def matrices(s):
    return s.createDataFrame([(1, Matrices.dense(2, 2, range(4))),
                              (2, Matrices.sparse(2, 2, [0, 2, 3], [0, 1, 1], [2, 3, 4])),
                              (3, Matrices.sparse(3, 2, [0, 1, 1], [2], [7.5]))], ["k", "mat"])


def test_unwrap_vectors_and_matrices(diff):
    diff(lambda s: vectors(s).select("k", F.unwrap_udt("vec")))
    diff(lambda s: matrices(s).select("k", F.unwrap_udt("mat")))
    diff(lambda s: vectors(s).select(F.unwrap_udt("vec").alias("u")).select("u.type", "u.size", "u.values"))


def test_unwrap_schema_tree(ember, oracle):
    for program in [lambda s: vectors(s).select(F.unwrap_udt("vec")),
                    lambda s: matrices(s).select(F.unwrap_udt(F.col("mat")))]:
        with session_mode(oracle):
            expected = program(oracle).schema.treeString()
        with session_mode(ember):
            actual = program(ember).schema.treeString()
        compare_text(expected, actual)
