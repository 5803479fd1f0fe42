"""VARIANT against Apache Spark: parse_json and its encoding (compared byte for byte), to_json,
show, casts to and from VARIANT, variant_get, schema_of_variant(_agg), to_variant_object,
nulls (JSON null vs SQL NULL) and errors."""

from __future__ import annotations

import pytest

from pyspark.sql import functions as F

from harness import session_conf

JSON = [
    (1, '{"b": 1, "a": [1, 2.5, "x", null, true], "c": {"z": null, "y": []}}'),
    (2, 'null'),
    (3, None),
    (4, '"a short string"'),
    (5, '[1, 300, 70000, 5000000000, -1, -129, -40000, -3000000000]'),
    (6, '[1.5, 0.10, 1.00, 100.0, -0.0, 1e3, 1E-2, 12345678901234567890, 1.5e300]'),
    (7, '[1.23456789012345678901234567890, 123456789012345678901234567890123456789, 0.000001]'),
    (8, '{"k": "' + 'long string ' * 10 + '", "é": "\\u00e9\\n\\t\\u0001/"}'),
    (9, '{"a": {"b": [1, {"c": "deep"}]}, "a b": 1, "A": 2}'),
    (10, '  [ ]  '),
    (11, '{}'),
    (12, '1 2'),
]


def jdf(s):
    return s.createDataFrame(JSON, "k int, j string")


def wide_object(n):
    return "{" + ", ".join(f'"key{i:05d}": {i}' for i in range(n)) + "}"


def test_parse_json_encoding(diff):
    # Rows come back as VariantVal; the harness compares their value and metadata bytes.
    diff(lambda s: jdf(s).select("k", F.parse_json("j"), F.try_parse_json("j")))


def test_parse_json_large_containers(diff):
    # Objects past 255 fields (4-byte sizes), dictionaries and offsets of 2 and 3 bytes.
    rows = [(1, wide_object(300)), (2, "[" + ",".join(['"' + "x" * 100 + '"'] * 700) + "]"),
            (3, wide_object(20)), (4, "[" + ",".join(str(i) for i in range(40000)) + "]")]
    diff(lambda s: s.createDataFrame(rows, "k int, j string").select(
        "k", F.parse_json("j"), F.schema_of_variant(F.parse_json("j")),
        F.variant_get(F.parse_json("j"), "$.key00299", "int"),
        F.variant_get(F.parse_json("j"), "$[699]", "string"),
        F.variant_get(F.parse_json("j"), "$[39999]", "int")))


def test_to_json_and_cast_to_string(diff):
    diff(lambda s: jdf(s).select("k", F.to_json(F.parse_json("j")),
                                 F.parse_json("j").cast("string")))


def test_show(diff_show):
    diff_show(lambda s: jdf(s).select("k", F.parse_json("j").alias("v")), truncate=False)
    diff_show(lambda s: jdf(s).select(F.parse_json("j").alias("v")))


def test_is_variant_null_and_valid(diff):
    diff(lambda s: jdf(s).select("k", F.is_variant_null(F.parse_json("j")),
                                 F.is_valid_variant(F.parse_json("j")),
                                 F.is_variant_null(F.lit(None))))


def test_schema_of_variant(diff):
    diff(lambda s: jdf(s).select("k", F.schema_of_variant(F.parse_json("j"))))
    diff(lambda s: s.sql("""select schema_of_variant(parse_json('{"a b":1, "`x":2, "":3, "B":4, "12":5}')),
                            schema_of_variant(parse_json('[1, 1.5]')), schema_of_variant(parse_json('[true, 1]')),
                            schema_of_variant(parse_json('[null, {"a":1}, {"b":2}]')),
                            schema_of_variant(parse_json('{"a":{"B":1,"a":[[]]}}'))"""))


def test_schema_of_variant_agg(diff):
    diff(lambda s: jdf(s).select(F.schema_of_variant_agg(F.parse_json("j"))))
    groups = [(1, '{"a":1}'), (1, '{"a":"x","b":2}'), (1, '{"a":null}'), (2, '1'), (2, '70000'),
              (2, '1.55'), (2, '12.5'), (3, '[1]'), (3, '[1.5, 2]'), (3, '[1e3]'), (4, None),
              (5, '"a"'), (5, '1'), (6, '12345678901234567890123456789012345678'), (6, '1.5'),
              (7, '{"b":{"c":[1]}}'), (7, '{"b":{"c":[null, 1.5]}}')]
    diff(lambda s: s.createDataFrame(groups, "g int, j string").groupBy("g").agg(
        F.schema_of_variant_agg(F.parse_json("j"))))
    diff(lambda s: s.sql("select schema_of_variant_agg(parse_json(col1)) from values ('1') where false"))


def test_variant_get(diff):
    diff(lambda s: jdf(s).select(
        "k", F.variant_get(F.parse_json("j"), "$.a[1]", "double"),
        F.variant_get(F.parse_json("j"), "$.a", "string"),
        F.variant_get(F.parse_json("j"), "$.a[2]", "string"),
        F.variant_get(F.parse_json("j"), "$['a b']", "int"),
        F.variant_get(F.parse_json("j"), '$["A"]', "bigint"),
        F.variant_get(F.parse_json("j"), "$.a.b[1].c", "string"),
        F.variant_get(F.parse_json("j"), "$[1]", "string"), F.try_variant_get(F.parse_json("j"), "$[1]", "int"),
        F.variant_get(F.parse_json("j"), "$", "variant"),
        F.variant_get(F.parse_json("j"), "$.a", "variant"),
        F.try_variant_get(F.parse_json("j"), "$.b", "boolean")))


def test_variant_get_column_path(diff):
    rows = [('{"a": 1, "b": [10, 20]}', "$.a"), ('{"a": 1, "b": [10, 20]}', "$.b[1]"),
            ('{"a": 1}', None), (None, "$.a"), ('[1, 2]', "$[5]")]
    diff(lambda s: s.createDataFrame(rows, "j string, p string").select(
        F.variant_get(F.parse_json("j"), F.col("p"), "int"),
        F.try_variant_get(F.parse_json("j"), F.col("p"), "string")))


def test_variant_get_nested_targets(diff):
    diff(lambda s: s.sql("""select variant_get(v, '$.a', 'struct<b:int, c:string, z:int>') s,
                                   variant_get(v, '$.l', 'array<string>') a,
                                   variant_get(v, '$.m', 'map<string,double>') m,
                                   cast(v as struct<A:int, a:struct<b:bigint>>) c
                            from (select parse_json('{"a":{"b":1,"c":"x"},"l":[1,null,"y"],"m":{"p":1,"q":2.5}}') v)"""))


SCALARS = ["1", "1.25", "true", '"2020-01-02"', '"12"', "null", "1e2", '"true"', '{"a":1}', "[1]",
           "1.5e300", '"x"', "1.50", '"2020-01-02 03:04:05"', "-129", "3000000000"]


def test_try_cast_from_variant(diff):
    types = ["string", "boolean", "tinyint", "int", "bigint", "double", "float", "decimal(10,2)", "date",
             "timestamp", "timestamp_ntz", "binary"]
    diff(lambda s: s.createDataFrame([(j,) for j in SCALARS], "j string").select(
        "j", *[F.parse_json("j").try_cast(t).alias(t) for t in types]))


def test_cast_typed_values_to_variant(diff):
    diff(lambda s: s.sql("""select cast(1Y as variant) a, cast(300S as variant) b, cast(70000 as variant) c,
                                   cast(5000000000L as variant) d, cast(1.5f as variant) e, cast(1e20d as variant) f,
                                   cast(cast(1.50 as decimal(5,2)) as variant) g,
                                   cast(12345678901234567890.123 as variant) h, cast(date'2020-01-01' as variant) i,
                                   cast(timestamp'2020-01-01 10:00:00.123' as variant) j,
                                   cast(timestamp_ntz'2020-01-01 10:00:00' as variant) k, cast(X'0102' as variant) l,
                                   cast(true as variant) m, cast('s' as variant) n, cast(null as variant) o,
                                   cast(array(1, null, 3) as variant) p"""))
    diff(lambda s: s.sql("""select to_json(cast(date'2020-01-01' as variant)),
                                   to_json(cast(timestamp'2020-01-01 10:00:00.123' as variant)),
                                   to_json(cast(timestamp_ntz'2020-01-01 10:00:00' as variant)),
                                   to_json(cast(X'0102' as variant)), to_json(cast(1.5f as variant)),
                                   to_json(cast(1e20d as variant)), to_json(cast(cast(1.50 as decimal(5,2)) as variant)),
                                   schema_of_variant(cast(cast(1.50 as decimal(5,2)) as variant)),
                                   schema_of_variant(cast(1Y as variant)), cast(cast(1.5f as variant) as string)"""))


def test_to_variant_object(diff):
    diff(lambda s: s.sql("""select to_variant_object(named_struct('b', 1, 'a', array(1, 2), 'c', cast(null as int))),
                                   to_variant_object(map('x', 1, 'y', 2)), to_variant_object(array(named_struct('z', 1))),
                                   to_json(to_variant_object(named_struct('m', map('k', 'v'), 'n', 1.5)))"""))


def test_nested_to_json(diff):
    diff(lambda s: s.sql("""select to_json(named_struct('v', parse_json('{"a":1}'), 'x', 1)),
                                   to_json(array(parse_json('1'), parse_json('"s"'))),
                                   to_json(map('k', parse_json('[1]')))"""))


def test_sql_forms(diff):
    diff(lambda s: s.sql("""select parse_json('{"b":1}')::string, parse_json('"abc"')::string, parse_json('123')::int,
                                   parse_json('1.5')::int, try_cast(parse_json('"abc"') as int),
                                   typeof(parse_json('1'))"""))


MALFORMED = ["{a:1}", '{"a":{"a":1,"a":2}}', '{"a":1,"a":2}', "", "[1,]", " 01", "NaN", "'x'"]


def test_malformed_json(ember, diff):
    # Spark raises MALFORMED_RECORD_IN_PARSING as a bare SparkException, which its Python
    # client does not convert; the oracle's side is checked through try_parse_json.
    diff(lambda s: s.createDataFrame([(m,) for m in MALFORMED], "j string").select(
        "j", F.try_parse_json("j")))
    for text in MALFORMED:
        df = ember.createDataFrame([(text,)], "j string").select(F.parse_json("j"))
        with pytest.raises(Exception) as e:
            df.collect()
        assert "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" in str(e.value)
        assert "Malformed records are detected in record parsing: " + text + "." in str(e.value)


def test_errors(diff_error):
    diff_error(lambda s: s.sql("""select parse_json('"abc"')::int"""), "INVALID_VARIANT_CAST")
    diff_error(lambda s: s.sql("select parse_json('300')::tinyint"), "INVALID_VARIANT_CAST")
    diff_error(lambda s: s.sql("""select parse_json('{"a":"x"}')::struct<a:int>"""), "INVALID_VARIANT_CAST")
    diff_error(lambda s: s.sql("""select variant_get(parse_json('{"a":"x"}'), '$.a', 'int')"""),
               "INVALID_VARIANT_CAST")
    for path in ["a", "$.", "$[-1]", "$['a", "$..a", "$[2147483648]", "$ .a", "$.a."]:
        diff_error(lambda s: s.sql(f"""select variant_get(parse_json('{{"a":1}}'), "{path}", 'int')"""),
                   "INVALID_VARIANT_GET_PATH")
    diff_error(lambda s: s.createDataFrame([("bad",)], "p string").select(
        F.try_variant_get(F.parse_json(F.lit('{"a":1}')), F.col("p"), "int")), "INVALID_VARIANT_GET_PATH")
    diff_error(lambda s: s.sql("""select variant_get(parse_json('{"a":1}'), '$.a', 'interval day')"""),
               "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("select cast(map('x', 1) as variant)"), "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("select cast(named_struct('a', 1) as variant)"),
               "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("select parse_json(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("select is_variant_null(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_variant_cast_errors_without_ansi(diff, diff_error, ember, oracle):
    with session_conf(ember, oracle, **{"spark.sql.ansi.enabled": "false"}):
        diff_error(lambda s: s.sql("""select parse_json('"abc"')::int"""), "INVALID_VARIANT_CAST")
        diff(lambda s: s.sql("""select try_variant_get(parse_json('"abc"'), '$', 'int'),
                                       variant_get(parse_json('"12"'), '$', 'int')"""))


def test_collect_variant_values(ember):
    rows = jdf(ember).select("k", F.parse_json("j").alias("v")).orderBy("k").collect()
    assert rows[0].v.toJson() == '{"a":[1,2.5,"x",null,true],"b":1,"c":{"y":[],"z":null}}'
    assert rows[1].v.toJson() == "null"
    assert rows[2].v is None
    assert rows[3].v.toPython() == "a short string"
    assert rows[4].v.toPython() == [1, 300, 70000, 5000000000, -1, -129, -40000, -3000000000]


EDIT_DOC = '{"a":1,"arr":["x","y"],"o":{"p":null},"n":[[1,2],5]}'


def edit_df(s):
    return s.createDataFrame([(1, EDIT_DOC, "$.d"), (2, '{"b": 1}', "$.arr[1]"), (3, None, "$.a"),
                              (4, "[1, null, {\"z\": null}]", "$[0]"), (5, EDIT_DOC, None)],
                             "k int, j string, p string")


def test_variant_insert_and_set(diff):
    def program(s):
        v = F.parse_json("j")
        return edit_df(s).select(
            "k", F.try_variant_insert(v, "$.c.d", F.lit(3)), F.try_variant_insert(v, "$.arr[1]", F.lit("z")),
            F.try_variant_insert(v, "$.arr[5]", F.lit("z")), F.try_variant_insert(v, F.col("p"), F.lit(9)),
            F.try_variant_insert(v, "$.b", F.parse_json(F.lit('{"z":1,"y":[2]}'))),
            F.try_variant_insert(v, "$.a", F.lit(2)), F.try_variant_insert(v, "$.a.b", F.lit(2)),
            F.try_variant_insert(v, "$.q", F.lit(None)), F.try_variant_insert(v, "$.c[2]", F.array(F.lit(1))),
            F.try_variant_set(v, "$.a", F.lit(9)), F.try_variant_set(v, "$.b", F.lit(2), False),
            F.try_variant_set(v, "$.arr[5]", F.lit(9)), F.try_variant_set(v, "$.arr[1]", F.lit(1.5)),
            F.try_variant_set(v, "$.o.p.q", F.lit(1)), F.try_variant_set(v, "$.n[0][1]", F.lit(True)))
    diff(program)
    diff(lambda s: program(s).toDF(*[f"c{i}" for i in range(16)]).select(
        "c0", *[F.to_json(f"c{i}") for i in range(1, 16)]))


def test_variant_delete_append_strip(diff):
    def program(s):
        v = F.parse_json("j")
        return edit_df(s).select(
            "k", F.variant_delete(v, F.lit(None), "$.a", "$.arr[0]"), F.variant_delete(v, "$.zz", "$.a.b", "$.arr.q"),
            F.variant_delete(v, F.col("p")), F.variant_delete(v, "$.n[0][0]", "$.n[0][0]"),
            F.try_variant_array_append(v, "$.arr", F.lit(3)), F.try_variant_array_append(v, "$.zz", F.lit(3)),
            F.try_variant_array_append(v, "$", F.lit(3)), F.try_variant_array_append(v, "$.n[0]", F.lit("x")),
            F.try_variant_array_append(v, "$.a", F.lit(3)), F.try_variant_array_append(v, "$.arr[7]", F.lit(3)),
            F.variant_strip_nulls(v), F.variant_strip_nulls(v, False))
    diff(program)


def test_variant_edit_errors(diff_error):
    doc = f"parse_json('{EDIT_DOC}')"
    diff_error(lambda s: s.sql(f"select variant_insert({doc}, '$.a', 2)"), "VARIANT_DUPLICATE_KEY")
    diff_error(lambda s: s.sql(f"select variant_insert({doc}, '$.a.b', 2)"), "VARIANT_PATH_TYPE_MISMATCH")
    diff_error(lambda s: s.sql(f"select variant_insert({doc}, '$[0]', 2)"), "VARIANT_PATH_TYPE_MISMATCH")
    diff_error(lambda s: s.sql(f"select variant_set({doc}, '$.o.p.q', 2)"), "VARIANT_PATH_TYPE_MISMATCH")
    diff_error(lambda s: s.sql(f"select variant_array_append({doc}, '$.a', 3)"), "VARIANT_PATH_TYPE_MISMATCH")
    diff_error(lambda s: s.sql(f"select variant_array_append({doc}, '$.arr.b', 3)"), "VARIANT_PATH_TYPE_MISMATCH")
    for fn in ["variant_insert", "variant_set"]:
        diff_error(lambda s: s.sql(f"select {fn}({doc}, '$', 2)"), "INVALID_VARIANT_PATH")
        diff_error(lambda s: s.sql(f"select {fn}({doc}, 'bad', 2)"), "INVALID_VARIANT_PATH")
    diff_error(lambda s: s.sql(f"select variant_delete({doc}, '$')"), "INVALID_VARIANT_PATH")
    diff_error(lambda s: s.sql(f"select variant_insert({doc}, '$.q', named_struct('a', 1))"),
               "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION")


def test_variant_is_not_orderable(diff_error):
    def vdf(s):
        return s.createDataFrame([('{"a":1}',), ('[1,2]',)], "j string").select(
            F.parse_json("j").alias("v"), F.lit(1).alias("k"))
    diff_error(lambda s: vdf(s).groupBy("v").count(), "GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE")
    diff_error(lambda s: vdf(s).groupBy(F.struct("v")).count(), "GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE")
    diff_error(lambda s: vdf(s).orderBy("v"), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    diff_error(lambda s: vdf(s).distinct(), "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE")
    diff_error(lambda s: vdf(s).dropDuplicates(["v"]), "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE")
    diff_error(lambda s: s.sql("select distinct parse_json('1')"), "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE")
    diff_error(lambda s: s.sql("select parse_json('1') = parse_json('1')"), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    diff_error(lambda s: s.sql("select array(parse_json('1')) = array(parse_json('1'))"),
               "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")
    diff_error(lambda s: vdf(s).join(vdf(s), "v"), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE")


def test_variant_rows_round_trip_from_client(diff):
    # VariantVal objects sent back by the client (Arrow struct tagged as a variant).
    def program(s):
        rows = s.createDataFrame(JSON, "k int, j string").select("k", F.parse_json("j").alias("v")).collect()
        return s.createDataFrame(rows).select("k", "v", F.to_json("v"))
    diff(program)


def test_timestamps_in_session_time_zone(diff, ember, oracle):
    with session_conf(ember, oracle, **{"spark.sql.session.timeZone": "America/Los_Angeles"}):
        # Aliased: Ember names timestamp literals in UTC rather than in the session zone.
        diff(lambda s: s.sql("""select to_json(cast(timestamp'2020-06-01 10:00:00' as variant)) a,
                                       to_json(cast(timestamp'2020-01-01 10:00:00.5' as variant)) b,
                                       cast(cast(timestamp'2020-06-01 10:00:00' as variant) as string) c,
                                       variant_get(cast(timestamp'2020-06-01 10:00:00' as variant), '$', 'string') d"""))
