"""KLL sketch builders against Apache Spark: kll_sketch_agg_*, kll_merge_agg_*, kll_sketch_merge_*
and kll_sketch_to_string_* (bigint, float, double).

Below k a sketch holds its items as they came, so Ember's bytes equal Spark's. Above k the
compactions keep a random half of a level's items: the level structure (and so the summary text)
is the same on both engines, the items are not, and the checks are the exact count and
quantiles within the sketch's rank error. Sketches built by either engine are read by the other.
"""

from __future__ import annotations

from pyspark.sql import functions as F

from harness import session_mode

SMALL = [(1, 5, 2.5, "a"), (2, -3, -0.0, "b"), (3, None, None, "a"), (4, 9, 0.0, "b"), (5, 5, float("nan"), "a"),
         (6, -9223372036854775808, 1e300, "c"), (7, 9223372036854775807, -1e-300, "a")]
SMALL_SCHEMA = "id int, l long, d double, g string"


def small(s):
    # One partition: Spark then adds the rows to one sketch in order, as Ember does, and the
    # bytes of sketches below k match.
    return s.createDataFrame(SMALL, SMALL_SCHEMA).coalesce(1)


def test_sketch_agg_bytes_below_k(diff):
    diff(lambda s: small(s).select(
        F.kll_sketch_agg_bigint("l"), F.kll_sketch_agg_bigint("id", 8), F.kll_sketch_agg_double("d"),
        F.kll_sketch_agg_float(F.col("d").cast("float"), 65535), F.kll_sketch_agg_double(F.col("d").cast("float")),
        F.kll_sketch_agg_bigint(F.col("id").cast("tinyint")), F.kll_sketch_agg_bigint(F.col("id").cast("smallint"))))
    diff(lambda s: s.sql("SELECT kll_sketch_agg_bigint(id), kll_sketch_agg_double(CAST(id AS DOUBLE) / 3, 100), "
                         "kll_sketch_agg_float(CAST(id AS FLOAT)) FROM range(0, 100, 1, 1)"))


def test_sketch_agg_empty_single_and_null_input(diff):
    diff(lambda s: small(s).where("id > 100").select(
        F.kll_sketch_agg_bigint("l"), F.kll_sketch_agg_double("d", 50), F.kll_sketch_agg_float(F.col("d").cast("float"))))
    diff(lambda s: small(s).where("id = 3").select(F.kll_sketch_agg_bigint("l"), F.kll_sketch_agg_double("d")))
    diff(lambda s: small(s).where("id = 1").select(F.kll_sketch_agg_bigint("l"), F.kll_sketch_agg_double("d", 20)))
    diff(lambda s: s.sql("SELECT kll_sketch_agg_bigint(NULL), kll_sketch_agg_double(NULL, 30), "
                         "kll_sketch_agg_double(CAST('NaN' AS DOUBLE)) FROM range(3)"))


def test_sketch_agg_grouped(diff):
    diff(lambda s: small(s).groupBy("g").agg(
        F.kll_sketch_agg_bigint("l").alias("b"), F.kll_sketch_agg_double("d").alias("d"), F.count("*")))
    diff(lambda s: s.sql(
        "SELECT id % 7 AS g, kll_sketch_get_n_bigint(kll_sketch_agg_bigint(id, 16)) AS n, "
        "kll_sketch_get_quantile_bigint(kll_sketch_agg_bigint(id), 0.5) AS median, "
        "kll_sketch_get_quantile_bigint(kll_sketch_agg_bigint(id), array(0.0, 0.25, 1.0)) AS qs, "
        "kll_sketch_get_rank_double(kll_sketch_agg_double(CAST(id AS DOUBLE)), 500.0D) AS r "
        "FROM range(1400) GROUP BY id % 7"))


def test_to_string(diff):
    diff(lambda s: small(s).select(
        F.kll_sketch_to_string_bigint(F.kll_sketch_agg_bigint("l")), F.kll_sketch_to_string_double(F.kll_sketch_agg_double("d")),
        F.kll_sketch_to_string_float(F.kll_sketch_agg_float(F.col("d").cast("float"), 12345))))
    diff(lambda s: small(s).where("id > 100").select(
        F.kll_sketch_to_string_bigint(F.kll_sketch_agg_bigint("l")), F.kll_sketch_to_string_float(F.kll_sketch_agg_float(F.col("d").cast("float"))),
        F.kll_sketch_to_string_double(F.kll_sketch_agg_double("d", 9))))
    diff(lambda s: s.sql("SELECT kll_sketch_to_string_bigint(NULL), kll_sketch_to_string_bigint(X'02010f01c8000800000000')"))


def spark_sketches(oracle):
    """Sketches built by Spark: small ones (exact) and compacted ones of several k."""
    row = oracle.sql(
        "SELECT kll_sketch_agg_bigint(id) FILTER (WHERE id < 3) AS s3, kll_sketch_agg_bigint(id + 40) FILTER (WHERE id < 7) AS s7, "
        "kll_sketch_agg_bigint(id) FILTER (WHERE id < 0) AS e, kll_sketch_agg_bigint(id * 2, 20) AS c20, "
        "kll_sketch_agg_bigint(id % 977, 200) AS c200, kll_sketch_agg_bigint(id, 8) AS c8, "
        "kll_sketch_agg_double(CAST(id AS DOUBLE) / 7, 30) AS d30, kll_sketch_agg_float(CAST(id % 100 AS FLOAT)) AS f, "
        "kll_sketch_agg_bigint(id, 300) FILTER (WHERE id = 42) AS one "
        "FROM range(5000)").collect()[0]
    return [tuple(bytes(v) for v in row)]


SPARK_SCHEMA = ("s3 binary, s7 binary, e binary, c20 binary, c200 binary, c8 binary, d30 binary, f binary, "
                "one binary")


def test_to_string_of_spark_sketches(diff, oracle):
    data = spark_sketches(oracle)
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(
        *[F.kll_sketch_to_string_bigint(c) for c in ["s3", "s7", "e", "c20", "c200", "c8", "one"]],
        F.kll_sketch_to_string_double("d30"), F.kll_sketch_to_string_float("f")))


def test_merge_scalar(diff, oracle):
    data = spark_sketches(oracle)
    # Below k the merged bytes are Spark's; above, the structure (summary) and count are.
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(
        F.kll_sketch_merge_bigint("s3", "s7"), F.kll_sketch_merge_bigint("s7", "s3"), F.kll_sketch_merge_bigint("s3", "e"),
        F.kll_sketch_merge_bigint("e", "s3"), F.kll_sketch_merge_bigint("e", "e"), F.kll_sketch_merge_bigint("s3", "s3"),
        F.kll_sketch_merge_bigint("s7", F.lit(None).cast("binary")), F.kll_sketch_merge_bigint("one", "s3"),
        F.kll_sketch_merge_bigint("s3", "one"), F.kll_sketch_merge_bigint("one", "one"), F.kll_sketch_merge_bigint("e", "one")))
    pairs = [("c20", "c200"), ("c200", "c20"), ("c8", "c20"), ("s7", "c8"), ("c8", "s7"), ("e", "c200"), ("c200", "c200"),
             ("one", "c8"), ("c20", "one")]
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(
        *[F.kll_sketch_to_string_bigint(F.kll_sketch_merge_bigint(a, b)) for a, b in pairs],
        *[F.kll_sketch_get_n_bigint(F.kll_sketch_merge_bigint(a, b)) for a, b in pairs],
        F.kll_sketch_to_string_double(F.kll_sketch_merge_double("d30", "d30"))))


def test_merge_agg(diff, oracle):
    data = spark_sketches(oracle)
    # One partition: Spark's partial aggregate of an empty partition is an empty sketch of the
    # default k, and merging it into the result would change the result's k.

    def sketches(s):
        df = s.createDataFrame(data, SPARK_SCHEMA).coalesce(1)
        return df.select(F.explode(F.array("s3", "s7", "e", F.lit(None).cast("binary"))).alias("sk"))

    diff(lambda s: sketches(s).select(
        F.kll_sketch_get_n_bigint(F.kll_merge_agg_bigint("sk")).alias("n"),
        F.kll_sketch_get_quantile_bigint(F.kll_merge_agg_bigint("sk", 16), F.array(*[F.lit(r / 10) for r in range(11)])),
        F.kll_sketch_to_string_bigint(F.kll_merge_agg_bigint("sk", 40)).alias("summary")))
    # Empty and all-null input: the empty sketch of the given k, or of the default.
    diff(lambda s: sketches(s).where("sk IS NULL").select(F.kll_merge_agg_bigint("sk"), F.kll_merge_agg_bigint("sk", 50)))
    diff(lambda s: sketches(s).where("false").select(F.kll_merge_agg_double("sk"), F.kll_merge_agg_float("sk", 9)))
    # A single input sketch comes back as it was.
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).coalesce(1).select(F.kll_merge_agg_bigint("c20"), F.kll_merge_agg_bigint("s7")))
    # Different k: the result keeps k of the argument (else of the first sketch) and the smallest
    # dynamic k of the compacted inputs.
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).coalesce(1).select(F.explode(F.array("c20", "c8")).alias("sk")).select(
        F.kll_sketch_get_n_bigint(F.kll_merge_agg_bigint("sk", 100)), F.kll_sketch_to_string_bigint(F.kll_merge_agg_bigint("sk", 100))))


def test_spark_reads_ember_sketches(oracle, ember):
    """Sketches Ember builds (exact and compacted) are read by Spark as Ember reads them."""
    with session_mode(ember):
        row = ember.sql(
            "SELECT kll_sketch_agg_bigint((id * 7919) % 100003) AS b, kll_sketch_agg_double(CAST(id AS DOUBLE) / 3, 50) AS d, "
            "kll_sketch_agg_float(CAST(id % 1000 AS FLOAT), 8) AS f, kll_sketch_agg_bigint(id) FILTER (WHERE id < 150) AS x "
            "FROM range(30000)").collect()[0]
        merged = ember.sql(
            "SELECT kll_merge_agg_bigint(sk) FROM (SELECT kll_sketch_agg_bigint(id, 30) AS sk FROM range(30000) "
            "GROUP BY id % 3)").collect()[0]
    data = [tuple(bytes(v) for v in row) + (bytes(merged[0]),)]
    schema = "b binary, d binary, f binary, x binary, m binary"
    ranks = [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0]

    def read(s):
        return s.createDataFrame(data, schema).select(
            F.kll_sketch_get_n_bigint("b"), F.kll_sketch_get_n_double("d"), F.kll_sketch_get_n_float("f"),
            F.kll_sketch_get_n_bigint("x"), F.kll_sketch_get_n_bigint("m"),
            F.kll_sketch_get_quantile_bigint("b", F.array(*[F.lit(r) for r in ranks])),
            F.kll_sketch_get_quantile_double("d", F.array(*[F.lit(r) for r in ranks])),
            F.kll_sketch_get_quantile_float("f", F.array(*[F.lit(r) for r in ranks])),
            F.kll_sketch_get_quantile_bigint("x", F.array(*[F.lit(r) for r in ranks])),
            F.kll_sketch_get_rank_bigint("b", F.lit(50000)), F.kll_sketch_get_rank_double("d", F.lit(5000.0)),
            F.kll_sketch_get_rank_float("f", F.lit(500.0).cast("float")), F.kll_sketch_get_rank_bigint("x", F.lit(75)),
            F.kll_sketch_to_string_bigint("b"), F.kll_sketch_to_string_double("d"), F.kll_sketch_to_string_float("f"))

    with session_mode(oracle):
        expected = read(oracle).collect()[0]
    with session_mode(ember):
        actual = read(ember).collect()[0]
    assert list(expected) == list(actual)
    assert list(expected[:5]) == [30000, 30000, 30000, 150, 30000]
    # Counts are exact; quantiles of the compacted sketches are within their rank error
    # (k = 200: 1.33%, k = 50: 4.5%, k = 8: 30%; 2.5 times that allowed).
    b, d, f, x = expected[5], expected[6], expected[7], expected[8]
    for r, q in zip(ranks, d):
        assert abs(q * 3 / 29999 - r) <= 0.12, (r, q)
    for r, q in zip(ranks, f):
        assert abs(q / 999 - r) <= 0.76, (r, q)
    assert x == [0, 1, 14, 37, 74, 112, 134, 148, 149]
    assert b[0] == min((i * 7919) % 100003 for i in range(30000))
    assert b[-1] == max((i * 7919) % 100003 for i in range(30000))


def test_errors(diff_error, oracle):
    data = spark_sketches(oracle)
    cases = [
        ("kll_sketch_agg_bigint(id, 7)", "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT"),
        ("kll_sketch_agg_double(CAST(id AS DOUBLE), 65536)", "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT"),
        ("kll_merge_agg_bigint(CAST(NULL AS BINARY), 7)", "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT"),
        ("kll_sketch_agg_bigint(id, CAST(id AS INT))", "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT"),
        ("kll_merge_agg_float(CAST(NULL AS BINARY), CAST(id AS INT))", "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT"),
        ("kll_sketch_agg_bigint(id, NULL)", "DATATYPE_MISMATCH.UNEXPECTED_NULL"),
        ("kll_merge_agg_bigint(CAST(NULL AS BINARY), CAST(NULL AS INT))", "DATATYPE_MISMATCH.UNEXPECTED_NULL"),
        ("kll_sketch_agg_bigint(id, 10L)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_bigint(id, '10')", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_bigint(CAST(id AS DOUBLE))", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_bigint(CAST(id AS DECIMAL(10, 0)))", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_float(id)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_float(CAST(id AS DOUBLE))", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_double(id)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_agg_double(CAST(id AS STRING))", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_merge_agg_bigint(id)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_merge_agg_bigint(CAST(id AS STRING))", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_merge_agg_bigint(X'0102')", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
        ("kll_sketch_to_string_bigint(id)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_merge_double(X'02010f01c8000800', id)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("kll_sketch_to_string_bigint(X'0102')", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
        ("kll_sketch_to_string_bigint(CAST(id AS STRING))", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
        ("kll_sketch_to_string_bigint(X'02010f01c8000900')", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
        ("kll_sketch_merge_bigint(X'0102', X'02010f01c8000800')", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
        ("kll_sketch_merge_float(X'02010f01c8000800', 'abc')", "KLL_INVALID_INPUT_SKETCH_BUFFER"),
    ]
    for sql, cls in cases:
        diff_error(lambda s, sql=sql: s.sql(f"SELECT {sql} FROM range(3)"), cls)
    # A float sketch is too short to read as a bigint one.
    diff_error(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(F.kll_sketch_merge_bigint("s3", "f")),
               "KLL_INVALID_INPUT_SKETCH_BUFFER")
    diff_error(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(F.kll_merge_agg_bigint("f")),
               "KLL_INVALID_INPUT_SKETCH_BUFFER")


def test_sketch_of_another_item_type(diff, oracle):
    # The bytes carry no item type: a bigint or double sketch reads as any type of no greater
    # width (its items reinterpreted), as in Spark; a float sketch is too short for 8-byte items.
    data = spark_sketches(oracle)
    diff(lambda s: s.createDataFrame(data, SPARK_SCHEMA).select(
        F.kll_sketch_get_n_float("s7"), F.kll_sketch_get_n_double("c20"), F.kll_sketch_get_n_bigint("d30"),
        F.kll_sketch_to_string_float("s7"), F.kll_sketch_to_string_double("s3"), F.kll_sketch_to_string_float("e"),
        F.kll_sketch_get_n_float("f")))


def test_sketch_agg_window_and_filter(diff):
    diff(lambda s: s.sql(
        "SELECT g, kll_sketch_get_n_bigint(kll_sketch_agg_bigint(id) OVER (PARTITION BY g)) AS n, "
        "kll_sketch_get_quantile_bigint(kll_sketch_agg_bigint(id, 50) OVER (PARTITION BY g ORDER BY id), 1.0) AS running_max "
        "FROM (SELECT id, id % 4 AS g FROM range(40))"))
    diff(lambda s: s.sql(
        "SELECT kll_sketch_get_n_bigint(kll_sketch_agg_bigint(id) FILTER (WHERE id % 3 = 0)) AS n, "
        "kll_sketch_get_quantile_double(kll_sketch_agg_double(CAST(id AS DOUBLE)) FILTER (WHERE id > 90), 0.5) AS m "
        "FROM range(100)"))
