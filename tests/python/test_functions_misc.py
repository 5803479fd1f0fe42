"""Miscellaneous scalar functions against Apache Spark: star arguments, nullifzero, zeroifnull,
bitwise NOT, bit_get, width_bucket, conv, implicit casts of date and factorial arguments, and
the session configuration map_concat reads."""

from __future__ import annotations

from pyspark.sql import functions as F

from harness import session_conf


def nums(s):
    return s.createDataFrame([(1, 0, 0.0, "x"), (2, 5, -2.5, "y"), (3, None, None, None),
                              (4, -7, float("nan"), "")], "k int, i int, d double, t string")


def test_hash_of_star(diff):
    diff(lambda s: nums(s).select("*", F.hash("*"), F.xxhash64("*")))
    diff(lambda s: nums(s).alias("n").select(F.hash("n.*"), F.concat_ws("-", "*")))


def test_map_key_dedup_policy_default(ember, oracle):
    assert ember.conf.get("spark.sql.mapKeyDedupPolicy") == oracle.conf.get("spark.sql.mapKeyDedupPolicy")


def test_map_concat_last_win(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_mapKeyDedupPolicy="LAST_WIN"):
        diff(lambda s: s.sql("SELECT map(1, 'a', 2, 'b') AS m1, map(2, 'c') AS m2").select(
            F.map_concat("m1", "m2")))


def test_bigint_date_parts_and_factorial(diff):
    diff(lambda s: s.range(6).select(
        "id", F.factorial("id"), F.date_from_unix_date("id"),
        F.make_date(F.col("id") + 2020, F.col("id") + 1, F.col("id") + 10),
        F.make_timestamp(F.col("id") + 2020, F.lit(2), F.lit(3), F.col("id"), F.lit(5), F.lit(6.5))))
    diff(lambda s: s.sql("SELECT factorial(5.0D), factorial(21L), factorial(-1L), date_from_unix_date(1.5D)"))


def test_factorial_bigint_overflowing_int(diff, diff_error, ember, oracle):
    diff_error(lambda s: s.sql("SELECT factorial(3000000000L)"), "CAST_OVERFLOW")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT factorial(3000000000L)"))


def test_nullifzero_zeroifnull(diff):
    diff(lambda s: nums(s).select("k", F.nullifzero("i"), F.nullifzero("d"), F.zeroifnull("i"), F.zeroifnull("d"),
                                  F.nullifzero(F.lit(0).cast("decimal(5,2)")), F.zeroifnull(F.col("i").cast("tinyint")),
                                  F.zeroifnull(F.lit(None)), F.zeroifnull(F.col("i").cast("decimal(5,2)"))))
    diff(lambda s: s.sql("SELECT nullifzero(0), nullifzero(1.5), nullifzero(0L), nullifzero(-0.0D), "
                         "zeroifnull(CAST(NULL AS INT)), zeroifnull(2.5D)"))


def test_float_beside_integers_widens_to_double_in_ansi_mode(diff, ember, oracle):
    # zeroifnull(x) is nvl(x, 0): ANSI mode widens FLOAT and INT to DOUBLE, the legacy rules keep FLOAT.
    for ansi in ("true", "false"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            diff(lambda s: s.sql("SELECT zeroifnull(f), typeof(zeroifnull(f)), f + 1, typeof(f + 1L), "
                                 "coalesce(f, CAST(1 AS TINYINT)) FROM VALUES (CAST(1.5 AS FLOAT)), (NULL) AS t(f)"))


def test_nullif_has_the_first_operands_type(diff):
    diff(lambda s: s.sql("SELECT nullif(d, ts), typeof(nullif(d, ts)), nullif(ts, d), nullif(i, l), typeof(nullif(i, l)) "
                         "FROM VALUES (DATE'2024-01-01', TIMESTAMP'2024-01-01 00:00:00', 1, 1L), "
                         "(DATE'2024-01-02', TIMESTAMP'2024-01-01 00:00:00', 2, 1L), (NULL, NULL, NULL, NULL) "
                         "AS t(d, ts, i, l)"))


def test_date_to_number_casts(diff, diff_error, ember, oracle):
    # The legacy rules cast a DATE to a number or boolean as NULL; ANSI mode refuses, suggesting
    # UNIX_DATE for numbers and turning ANSI mode off for booleans.
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT CAST(d AS BIGINT), CAST(d AS INT), CAST(d AS DOUBLE), CAST(d AS BOOLEAN), "
                             "CAST(d AS DECIMAL(10,2)) FROM VALUES (DATE'2024-01-01'), (NULL) AS t(d)"))
    diff_error(lambda s: s.sql("SELECT CAST(DATE'2024-01-01' AS BIGINT)"), "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION")
    diff_error(lambda s: s.sql("SELECT CAST(DATE'2024-01-01' AS BOOLEAN)"), "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION")


def test_fractional_seconds_to_timestamp(diff, diff_error):
    # NaN and infinities are malformed; finite seconds beyond the range overflow the BIGINT
    # microseconds (ANSI mode).
    diff(lambda s: s.sql("SELECT CAST(d AS TIMESTAMP) FROM VALUES (1.5D), (-2.25D), (1e10D), (NULL) AS t(d)"))
    for value in ["CAST('NaN' AS DOUBLE)", "CAST('-Infinity' AS FLOAT)"]:
        diff_error(lambda s, v=value: s.sql(f"SELECT CAST(d AS TIMESTAMP) FROM VALUES ({v}) AS t(d)"),
                   "CAST_INVALID_INPUT")
    for value in ["1e17D", "1.7976931348623157E308D"]:
        diff_error(lambda s, v=value: s.sql(f"SELECT CAST(d AS TIMESTAMP) FROM VALUES ({v}) AS t(d)"), "CAST_OVERFLOW")


def test_div_of_fractional_operands(diff_error):
    diff_error(lambda s: s.sql("SELECT 1.5D div 2.0D"), "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE")
    diff_error(lambda s: s.sql("SELECT CAST(1.5 AS FLOAT) div 2"), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES")


def test_bitwise_not_and_bit_get(diff):
    diff(lambda s: nums(s).select("k", F.bitwise_not("i"), F.bitwise_not(F.col("i").cast("tinyint")),
                                  F.bitwise_not(F.col("i").cast("bigint")), F.bit_get("i", F.lit(0)),
                                  F.getbit("i", F.lit(31)), F.bit_get(F.col("i").cast("bigint"), F.lit(63)),
                                  F.bit_get(F.col("i").cast("tinyint"), F.lit(2))))
    diff(lambda s: s.sql("SELECT ~5, ~CAST(5 AS SMALLINT), bit_get(11, 3), getbit(11L, 1)"))


def test_bit_get_position_out_of_range(diff_error):
    diff_error(lambda s: nums(s).select(F.bit_get("i", F.lit(32))), "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE")
    diff_error(lambda s: s.sql("SELECT bit_get(11L, -1)"), "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE")


def test_width_bucket(diff):
    rows = [(5.3, 0.2, 10.6, 5), (-2.1, 1.3, 3.4, 3), (8.1, 0.0, 5.7, 4), (-0.9, 5.2, 0.5, 2), (5.0, 0.0, 10.0, 0),
            (5.0, 10.0, 10.0, 3), (float("nan"), 0.0, 1.0, 2), (1.0, 0.0, float("inf"), 2), (10.0, 0.0, 10.0, 4),
            (0.5, 5.2, 0.5, 2), (5.0, 0.0, 10.0, 9223372036854775807), (None, 0.0, 1.0, 1), (3.0, 0.0, 4.0, None)]
    diff(lambda s: s.createDataFrame(rows, "v double, lo double, hi double, n bigint").select(
        F.width_bucket("v", "lo", "hi", "n")))
    diff(lambda s: s.sql("SELECT width_bucket(5.3, 0.2, 10.6, 5), width_bucket(5, 0, 10, 3)"))


def test_conv(diff, diff_error, ember, oracle):
    rows = [("100", 2, 10), ("-10", 16, -10), ("ff", 16, 10), ("-1", 10, 16), ("zz", 36, 10), ("1", 1, 10),
            ("9223372036854775807", 10, -10), ("1 2", 10, 10), ("", 10, 10), ("g", 16, 10), ("-ff", 16, -16),
            ("18446744073709551615", 10, 16), ("-9223372036854775808", 10, -10), ("10", 37, 10), ("10", 10, -1),
            ("-", 10, 10), ("  12", 10, 10), ("12ab", 10, 16), ("-5", 10, 2), (None, 10, 2), ("7", None, 2),
            ("1" * 19, 10, 16), ("1" * 20, 10, -16)]
    df = lambda s: s.createDataFrame(rows, "n string, f int, t int")
    diff(lambda s: df(s).select(F.conv("n", 10, 16), F.expr("conv(n, f, t)")))
    diff(lambda s: s.sql("SELECT conv(10.5, 10, 2), conv(-10, 16, -10), conv(255, 10, 36)"))
    diff_error(lambda s: s.sql("SELECT conv('18446744073709551616', 10, 16)"), "ARITHMETIC_OVERFLOW")
    diff_error(lambda s: s.sql("SELECT conv(repeat('1', 65), 2, 10)"), "ARITHMETIC_OVERFLOW")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.sql("SELECT conv('18446744073709551616', 10, 16), conv('-18446744073709551616', 10, 16), "
                             "conv('ZZZZZZZZZZZZZZ', 36, 16), conv(repeat('1', 65), 2, 10), conv(repeat('1', 64), 10, -16)"))
        diff(lambda s: df(s).union(s.createDataFrame([("1" * 64, 2, 16), ("1" * 65, 2, -2)], "n string, f int, t int"))
             .select(F.conv("n", 10, 16), F.expr("conv(n, f, t)")))


def test_hmac(diff):
    diff(lambda s: s.createDataFrame([("key", "Spark"), ("k", ""), ("x" * 200, "é日"), ("k", None), (None, "m")],
                                     "k string, m string").select(
        F.hmac("k", "m"), *[F.hmac("k", "m", F.lit(a)) for a in ("sha256", "MD5", "SHA1", "sha224", "sha384",
                                                                  "sha512", "SHA-256", "sha-1")]))
    diff(lambda s: s.sql("SELECT hex(hmac('key', 'Spark')), hmac(X'00ff', X'', 'SHA-512')"))


def test_hmac_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT hmac('', 'Spark', 'sha256')"), "INVALID_PARAMETER_VALUE.HMAC_CRYPTO_ERROR")
    diff_error(lambda s: s.sql("SELECT hmac('key', 'Spark', 'sha3')"), "INVALID_PARAMETER_VALUE.HMAC_ALGORITHM")


def test_randn_stream(diff):
    diff(lambda s: s.range(0, 50, 1, 1).select("id", F.randn(42), F.randn(0), F.randn(-7).alias("r")))
    # One partition on both engines: the stream depends on the partition index.
    diff(lambda s: s.range(0, 3, 1, 1).select(F.expr("randn(NULL)"), F.expr("randn(1L)"), F.expr("randn(7)")))


def test_arrays_zip(diff):
    df = lambda s: s.createDataFrame([([1, 2], ["a", "b", "c"], [1.5]), ([], ["x"], None), (None, ["y"], [2.0]),
                                      ([3], [], [])], "a array<int>, b array<string>, c array<double>")
    diff(lambda s: df(s).select(F.arrays_zip("a", "b"), F.arrays_zip("a", "b", "c"), F.arrays_zip("b"),
                                F.arrays_zip("a", F.array(F.lit(1)))))
    diff(lambda s: s.sql("SELECT arrays_zip(array(1, 2), array('a', 'b', 'c')), arrays_zip(array(1), NULL), "
                         "arrays_zip()"))


def vectors(s):
    rows = [([1.0, 2.0, 3.0], [4.0, 5.0, 6.5]), ([1.1, 2.2], [3.3, 4.4]), ([0.0, 0.0], [1.0, 2.0]),
            ([1.0, None], [1.0, 2.0]), ([], []), (None, [1.0]), ([3.0, -4.0], [3e38, 3e38]),
            ([float("nan"), 1.0], [1.0, 1.0])]
    return s.createDataFrame(rows, "x array<float>, y array<float>")


def test_vector_pair_functions(diff):
    diff(lambda s: vectors(s).select(F.vector_cosine_similarity("x", "y"), F.vector_inner_product("x", "y"),
                                     F.vector_l2_distance("x", "y")))


def test_vector_norm_and_normalize(diff):
    diff(lambda s: vectors(s).select(
        F.vector_norm("x"), F.vector_norm("y", F.lit(1.0).cast("float")),
        F.vector_norm("x", F.lit(float("inf")).cast("float")), F.vector_normalize("x"),
        F.vector_normalize("y", F.lit(1.0).cast("float")), F.vector_normalize("x", F.lit(float("inf")).cast("float"))))


def test_vector_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT vector_cosine_similarity(array(1.0F), array(1.0F, 2.0F))"),
               "VECTOR_DIMENSION_MISMATCH")
    diff_error(lambda s: s.sql("SELECT vector_norm(array(3.0F, 4.0F), 3.0F)"), "INVALID_VECTOR_NORM_DEGREE")
    diff_error(lambda s: s.sql("SELECT vector_inner_product(array(1.0D), array(1.0D))"),
               "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT vector_norm(array(1.0F), 2.0D)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


AES_KEYS = ["0000111122223333", "000011112222333344445555", "abcdefghijklmnop12345678ABCDEFGH"]


def test_aes_deterministic_modes(diff):
    # ECB, and CBC/GCM with a given IV, encrypt the same way on both engines.
    diff(lambda s: s.createDataFrame([("Spark", k) for k in AES_KEYS] + [("", AES_KEYS[0]), (None, AES_KEYS[0])],
                                     "m string, k string").select(
        F.hex(F.aes_encrypt("m", "k", F.lit("ECB"))), F.hex(F.aes_encrypt("m", "k", F.lit("ecb"), F.lit("pkcs"))),
        F.hex(F.aes_encrypt("m", "k", F.lit("CBC"), F.lit("DEFAULT"), F.unhex(F.lit("00" * 16)))),
        F.hex(F.aes_encrypt("m", "k", F.lit("GCM"), F.lit("NONE"), F.unhex(F.lit("01" * 12)), F.lit("aad"))),
        F.hex(F.aes_encrypt("m", "k", F.lit("GCM"), F.lit("DEFAULT"), F.unhex(F.lit("02" * 12))))))


def test_aes_round_trip_and_known_ciphertexts(diff):
    diff(lambda s: s.createDataFrame([("Spark SQL", k) for k in AES_KEYS] + [("é日", AES_KEYS[1])],
                                     "m string, k string").select(
        F.aes_decrypt(F.aes_encrypt("m", "k"), "k").cast("string"),
        F.aes_decrypt(F.aes_encrypt("m", "k", F.lit("CBC")), "k", F.lit("CBC")).cast("string"),
        F.aes_decrypt(F.aes_encrypt("m", "k", F.lit("GCM"), F.lit("DEFAULT"), F.lit(""), F.lit("x")), "k",
                      F.lit("GCM"), F.lit("DEFAULT"), F.lit("x")).cast("string")))
    diff(lambda s: s.sql(
        "SELECT CAST(aes_decrypt(unbase64('AAAAAAAAAAAAAAAAQiYi+sTLm7KD9UcZ2nlRdYDe/PX4'), "
        "'abcdefghijklmnop12345678ABCDEFGH', 'GCM', 'DEFAULT', 'This is an AAD mixed into the input') AS STRING), "
        "CAST(aes_decrypt(unbase64('AAAAAAAAAAAAAAAAAAAAAPSd4mWyMZ5mhvjiAPQJnfg='), "
        "'abcdefghijklmnop12345678ABCDEFGH', 'CBC') AS STRING), "
        "try_aes_decrypt(X'0102', '0000111122223333'), try_aes_decrypt(X'0102', 'short'), "
        "try_aes_decrypt(aes_encrypt('a', '0000111122223333', 'GCM', 'DEFAULT', '', 'x'), '0000111122223333', "
        "'GCM', 'DEFAULT', 'y')"))


def test_aes_errors(diff_error):
    cases = [("aes_encrypt('Spark', 'short')", "INVALID_PARAMETER_VALUE.AES_KEY_LENGTH"),
             ("aes_encrypt('Spark', '0000111122223333', 'CTR')", "UNSUPPORTED_FEATURE.AES_MODE"),
             ("aes_encrypt('Spark', '0000111122223333', 'ECB', 'NONE')", "UNSUPPORTED_FEATURE.AES_MODE"),
             ("aes_encrypt('Spark', '0000111122223333', 'ECB', 'DEFAULT', X'00000000000000000000000000000000')",
              "UNSUPPORTED_FEATURE.AES_MODE_IV"),
             ("aes_encrypt('Spark', '0000111122223333', 'CBC', 'DEFAULT', X'0000')",
              "INVALID_PARAMETER_VALUE.AES_IV_LENGTH"),
             ("aes_encrypt('Spark', '0000111122223333', 'CBC', 'DEFAULT', '', 'aad')", "UNSUPPORTED_FEATURE.AES_MODE_AAD"),
             ("aes_decrypt(X'0102', '0000111122223333')", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR"),
             ("aes_decrypt(X'0102', '0000111122223333', 'ECB')", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR"),
             ("aes_decrypt(aes_encrypt('a', '0000111122223333', 'GCM', 'DEFAULT', '', 'x'), '0000111122223333', "
              "'GCM', 'DEFAULT', 'y')", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR")]
    for expr, cls in cases:
        diff_error(lambda s, expr=expr: s.sql(f"SELECT {expr}"), cls)


def test_vector_sum_and_avg(diff):
    rows = [(1, [0.1, 1e8]), (1, [0.2, 1.0]), (1, [0.3, 1.0]), (1, [0.7, 3.0]), (2, [1.0, None]), (2, [3.0, 4.0]),
            (3, None), (4, [3e38, 3e38]), (4, [3e38, float("nan")]), (5, []), (5, [])]
    df = lambda s: s.createDataFrame(rows, "g int, v array<float>").coalesce(1)
    diff(lambda s: df(s).groupBy("g").agg(F.vector_sum("v"), F.vector_avg("v")))
    diff(lambda s: df(s).where("g = 1").agg(F.vector_sum("v"), F.vector_avg("v")))


def test_vector_sum_dimension_mismatch(diff_error):
    diff_error(lambda s: s.createDataFrame([([1.0, 2.0],), ([3.0],)], "v array<float>").coalesce(1).agg(
        F.vector_avg("v")), "VECTOR_DIMENSION_MISMATCH")


def test_uniform(diff):
    diff(lambda s: s.range(0, 20, 1, 1).select(
        "id", F.uniform(F.lit(5), F.lit(105), F.lit(3)), F.uniform(F.lit(5.0), F.lit(105.0), F.lit(3)),
        F.uniform(F.lit(-10), F.lit(10), F.lit(3)), F.uniform(F.lit(10), F.lit(5), F.lit(3)),
        F.uniform(F.lit(5).cast("bigint"), F.lit(105), F.lit(3)), F.uniform(F.lit(5).cast("float"), F.lit(105), F.lit(3)),
        F.uniform(F.lit(5), F.lit(6), F.lit(3))))
    diff(lambda s: s.sql("SELECT uniform(5, 105.5, 3), uniform(5, 105.55, 3), uniform(5, 105, NULL), "
                         "uniform(NULL, 1, 3), uniform(1, CAST(NULL AS INT), 3), uniform(5, 105, 3L) "
                         "FROM range(0, 10, 1, 1)"))


def test_uniform_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT uniform('a', 10, 3)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_randstr(diff, diff_error):
    diff(lambda s: s.range(0, 20, 1, 1).select("id", F.randstr(F.lit(10), F.lit(3)), F.randstr(F.lit(3), F.lit(0)),
                                               F.randstr(F.lit(0), F.lit(5))))
    diff(lambda s: s.sql("SELECT randstr(CAST(3 AS SMALLINT), 0), randstr(NULL, 1) FROM range(0, 3, 1, 1)"))
    diff_error(lambda s: s.sql("SELECT randstr(-1, 3)"), "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE")


def test_date_add_days_stay_strictly_integral(diff, diff_error):
    diff(lambda s: s.sql("SELECT add_months(DATE'2020-01-31', 1.5D), add_months(DATE'2020-01-31', 1L), "
                         "date_add(DATE'2020-01-01', CAST(2 AS SMALLINT)), date_sub(DATE'2020-01-01', '3')"))
    diff_error(lambda s: s.sql("SELECT date_add(DATE'2020-01-01', 1L)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT date_sub(DATE'2020-01-01', 1.5D)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
