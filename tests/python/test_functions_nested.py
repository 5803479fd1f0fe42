"""Arrays, maps and structs in expressions against Apache Spark: constructors, element access,
membership, and nulls at every level (null array, null element, empty array, null map value)."""

from __future__ import annotations

from harness import session_conf
from pyspark.sql import functions as F


def nested(s):
    return s.createDataFrame(
        [(1, [1, 2, 3], {"a": 1, "b": None}, ("x", 10), 2, "a"),
         (2, [None, 5], {}, ("y", None), -1, "b"),
         (3, [], None, None, 1, "z"),
         (4, None, {"c": 3}, ("z", 30), None, None)],
        "k int, arr array<int>, m map<string,int>, st struct<name:string,v:int>, i int, key string")


def test_constructors(diff):
    diff(lambda s: nested(s).select(
        "k", F.array("k", "i"), F.array(F.lit(1), F.lit(None)), F.array(),
        F.struct("k", "i"), F.struct(F.col("k").alias("kk"), F.lit("c"), "st.name"),
        F.named_struct(F.lit("x"), "k", F.lit("y"), "key"),
        F.create_map(F.lit("one"), F.lit(1), F.lit("two"), "i")))
    diff(lambda s: nested(s).where("key IS NOT NULL").select("k", F.create_map("key", "k")))
    diff(lambda s: s.sql("SELECT array(1, 2, NULL), array(1, 2.5), array(1L, 2), struct(1 AS a, 'x'), "
                         "named_struct('x', 1, 'y', 'z'), map(1, 'a', 2, 'b'), map(), array()"))
    diff(lambda s: nested(s).select(
        "k", F.map_from_arrays(F.array(F.coalesce("key", F.lit("?"))), F.array("k")),
        F.map_from_entries(F.array(F.struct(F.lit("p"), "k"), F.struct(F.lit("q"), F.col("i").alias("k"))))))


def test_constructor_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT map(1, 'a', 1, 'b')"), "DUPLICATED_MAP_KEY")
    diff_error(lambda s: nested(s).where("k = 4").select(F.create_map("key", "k")), "NULL_MAP_KEY")
    diff_error(lambda s: s.sql("SELECT map(1, 'a', 2)"), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION")
    diff_error(lambda s: s.sql("SELECT array(1, array(1))"), "DATATYPE_MISMATCH.DATA_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT named_struct(a, 1) FROM (SELECT 'x' a)"),
               "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING")
    diff_error(lambda s: s.sql("SELECT map_from_arrays(array(1, NULL), array('a', 'b'))"), "NULL_MAP_KEY")


def test_map_key_dedup_last_win(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_mapKeyDedupPolicy="LAST_WIN"):
        diff(lambda s: s.sql("SELECT map(1, 'a', 2, 'b', 1, 'c')"))


def test_element_access(diff):
    diff(lambda s: nested(s).where("size(arr) >= 2").select(
        "k", F.element_at("arr", 1), F.element_at("arr", -2), F.element_at("arr", F.col("i")), F.col("arr")[0]))
    diff(lambda s: nested(s).select(
        "k", F.element_at("m", F.lit("a")),
        F.element_at("m", "key"), F.try_element_at("arr", F.lit(7)), F.get("arr", 1), F.get("arr", "i"),
        F.col("m")["b"], F.col("m").getItem("c"), F.col("st")["name"],
        F.col("st").getField("v"), F.col("st.name"), "st.v"))
    diff(lambda s: nested(s).select("k", "st.*"))
    diff(lambda s: s.sql("SELECT array(1, 2)[0], map('a', 1)['a'], map('a', 1)['b'], named_struct('a', 1).a, "
                         "element_at(array(1, 2, 3), -1), get(array(1, 2), 5)"))


def test_element_access_errors(diff, diff_error):
    diff_error(lambda s: nested(s).select(F.element_at("arr", 3)), "INVALID_ARRAY_INDEX_IN_ELEMENT_AT")
    diff_error(lambda s: nested(s).select(F.element_at("arr", 0)), "INVALID_INDEX_OF_ZERO")
    diff_error(lambda s: nested(s).select(F.try_element_at("arr", F.lit(0))), "INVALID_INDEX_OF_ZERO")
    diff_error(lambda s: nested(s).select(F.col("arr")[5]), "INVALID_ARRAY_INDEX")
    diff_error(lambda s: s.sql("SELECT element_at(1, 2)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: nested(s).select(F.col("k")["x"]), "INVALID_EXTRACT_BASE_FIELD_TYPE")
    diff_error(lambda s: nested(s).select(F.col("st")["nope"]), "FIELD_NOT_FOUND")
    # A guarded access does not fail: the branch runs only where the condition holds.
    diff(lambda s: nested(s).select(
        "k", F.when(F.size("arr") >= 3, F.element_at("arr", 3)).otherwise(F.lit(-1))))


def test_element_access_non_ansi(diff, ember, oracle):
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: nested(s).select("k", F.element_at("arr", 3), F.col("arr")[5], F.size("arr"),
                                        F.size("m"), F.cardinality("arr")))
        diff(lambda s: s.sql("SELECT size(NULL), element_at(array(1, 2, 3), 5)"))


def test_implicit_casts_of_get_and_sequence(diff, diff_error, ember, oracle):
    # get casts a fractional or string index to INT (ANSI mode checks it); sequence steps two
    # dates one day apart.
    for ansi in ("true", "false"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            diff(lambda s: s.sql("SELECT get(a, d), get(a, t), get(a, CAST(1.5 AS DECIMAL(3,1))), sequence(x, y) "
                                 "FROM VALUES (array(1, 2, 3), 1.9D, '1', DATE'2024-02-27', DATE'2024-03-01'), "
                                 "(array(4), -0.5D, '0', DATE'2024-01-03', DATE'2024-01-01'), "
                                 "(NULL, NULL, NULL, DATE'2024-01-01', NULL) AS v(a, d, t, x, y)"))
    diff_error(lambda s: s.sql("SELECT get(array(1), 'x')"), "CAST_INVALID_INPUT")
    diff_error(lambda s: s.sql("SELECT get(array(1), CAST('NaN' AS DOUBLE))"), "CAST_OVERFLOW")


def test_size_and_membership(diff):
    diff(lambda s: nested(s).select(
        "k", F.size("arr"), F.size("m"), F.cardinality("m"), F.array_size("arr"),
        F.array_contains("arr", 2), F.array_contains("arr", F.col("i")), F.array_contains("arr", 7),
        F.array_position("arr", 5), F.array_position("arr", F.col("i"))))
    diff(lambda s: s.sql("SELECT size(NULL), array_size(NULL), array_contains(array(1, NULL), 2), "
                         "array_contains(array(1, NULL), 1), array_position(array(3, 2, 1), 1), "
                         "array_contains(array(1, 2), 2L), array_contains(array('a'), 'a')"))


def test_membership_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT array_contains(array(1, 2), 'a')"),
               "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT array_contains(1, 2)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT size(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_nested_show(diff_show):
    diff_show(lambda s: nested(s).select("k", F.array("k", "i"), F.struct("k", "key"),
                                         F.create_map("k", "arr")).orderBy("k"))


def arrays(s):
    return s.createDataFrame(
        [(1, [3, 1, None, 2, 1], [2, 5], ["b", None, "a"], [[1, 2], [3]]),
         (2, [], [1], [], [[]]),
         (3, None, [None, 4], None, [[1], None]),
         (4, [5, 5, None, None], [], ["x"], None)],
        "k int, a array<int>, b array<int>, s array<string>, aa array<array<int>>")


def test_sorting_and_sets(diff):
    diff(lambda s: arrays(s).select(
        "k", F.sort_array("a"), F.sort_array("a", asc=False), F.array_sort("a"), F.array_distinct("a"),
        F.array_union("a", "b"), F.array_intersect("a", "b"), F.array_except("a", "b"),
        F.arrays_overlap("a", "b"), F.array_max("a"), F.array_min("s"), F.sort_array("s")))


def test_array_transforms(diff):
    diff(lambda s: arrays(s).select(
        "k", F.array_join("s", ","), F.array_join("s", "-", "?"), F.array_remove("a", 1), F.array_compact("a"),
        F.array_repeat("k", 2), F.array_append("a", F.lit(9)), F.array_prepend("s", F.lit("p")),
        F.array_insert("a", 2, F.lit(7)), F.array_insert("a", -1, F.lit(7)), F.array_insert("b", 4, F.lit(0)),
        F.flatten("aa"), F.slice("a", 2, 2), F.slice("a", -2, 5), F.reverse("a"), F.concat("a", "b")))
    diff(lambda s: s.sql("SELECT sequence(1, 5), sequence(5, 1), sequence(1, 9, 3), sequence(1L, 3L), "
                         "array_repeat('x', 0), array_insert(array(1, 2), -4, 9), "
                         "concat(array(1), array(2L), array(NULL))"))


def test_split_flows_through(diff):
    diff(lambda s: s.createDataFrame([("b,a,,c",), ("",), (None,)], "t string").select(
        F.split("t", ","), F.size(F.split("t", ",")), F.sort_array(F.split("t", ",")),
        F.array_contains(F.split("t", ","), "a"), F.element_at(F.split("t", ","), -1),
        F.array_join(F.array_distinct(F.split("t", ",")), "|")))


def test_array_function_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT slice(array(1, 2), 0, 1)"), "INVALID_PARAMETER_VALUE.START")
    diff_error(lambda s: s.sql("SELECT slice(array(1, 2), 1, -1)"), "INVALID_PARAMETER_VALUE.LENGTH")
    diff_error(lambda s: s.sql("SELECT array_insert(array(1), 0, 2)"), "INVALID_INDEX_OF_ZERO")
    diff_error(lambda s: s.sql("SELECT array_union(array(1), array('a'))"),
               "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES")
    diff_error(lambda s: s.sql("SELECT sort_array(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_map_functions(diff):
    diff(lambda s: nested(s).select(
        "k", F.map_keys("m"), F.map_values("m"), F.map_entries("m"), F.map_contains_key("m", "a"),
        F.map_contains_key("m", F.col("key")), F.map_concat("m", F.create_map(F.lit("z"), "k"))))
    diff(lambda s: s.sql("SELECT map_keys(map(1, 'a', 2, NULL)), map_values(map(1, 'a', 2, NULL)), "
                         "map_concat(map(1, 'a'), map(2, 'b')), map_contains_key(map(1, 'a'), 1L)"))


def test_map_function_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT map_concat(map(1, 'a'), map(1, 'b'))"), "DUPLICATED_MAP_KEY")
    diff_error(lambda s: s.sql("SELECT map_keys(array(1))"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")


def test_collect_aggregates(diff):
    diff(lambda s: arrays(s).groupBy((F.col("k") % 2).alias("g")).agg(
        F.sort_array(F.collect_list("k")), F.sort_array(F.collect_set(F.col("k") % 3)), F.count("*")))
    diff(lambda s: arrays(s).agg(F.size(F.collect_list("a")), F.sort_array(F.collect_set("s")),
                                    F.sort_array(F.collect_list(F.try_element_at("b", F.lit(1))))))
    diff(lambda s: arrays(s).where("k > 10").agg(F.collect_list("k"), F.collect_set("k")))
    diff(lambda s: s.sql("SELECT sort_array(array_agg(x)) FROM VALUES (1), (NULL), (2), (1) AS t(x)"))


def test_group_and_sort_by_nested(diff):
    def df(s):
        return s.createDataFrame(
            [([1, 2], ("a", 1)), ([1, 2], ("a", 1)), ([2], ("b", None)), (None, None), ([], ("a", 0))],
            "arr array<int>, st struct<x:string,y:int>")
    diff(lambda s: df(s).groupBy("arr").count())
    diff(lambda s: df(s).groupBy("st").agg(F.count("*")))
    diff(lambda s: df(s).distinct())
    diff(lambda s: df(s).orderBy("st", "arr"), ordered=True)


def test_collect_over_windows(diff):
    from pyspark.sql import Window

    def df(s):
        return s.createDataFrame([(1, 1, "a"), (1, 2, None), (1, 3, "c"), (2, 1, "d")], "g int, o int, v string")
    diff(lambda s: df(s).select("g", "o", F.collect_list("v").over(Window.partitionBy("g").orderBy("o")),
                                F.size(F.collect_set("v").over(Window.partitionBy("g")))))


def test_empty_arrays_from_local_data(diff):
    # Arrow may send an empty array's element buffers as absent; every function must cope.
    def program(s):
        df = s.createDataFrame([([], []), ([3, 1, 3], ["b", "a"])], "data array<int>, s array<string>")
        return df.select(F.array_distinct("data"), F.sort_array("data"), F.array_max("data"),
                         F.array_contains("data", 1), F.array_distinct("s"), F.array_join("s", ","),
                         F.size("s"), F.array_union("data", "data"))
    diff(program)


def test_structs_widen_field_by_field(diff, diff_error):
    # Structs whose fields have the same names (in any case) meet at a struct of the wider field
    # types under the first one's names, each field nullable when either side's is.
    diff(lambda s: s.sql(
        "SELECT coalesce(named_struct('x', 1), named_struct('X', 2L)) a, "
        "coalesce(named_struct('X', 1), named_struct('x', CAST(NULL AS INT))) b, "
        "CASE WHEN rand() > 2 THEN named_struct('x', 1) ELSE named_struct('x', CAST(NULL AS INT)) END c, "
        "if(true, array(named_struct('x', 1)), array(named_struct('x', CAST(NULL AS INT)))) d, "
        "named_struct('x', 1) IN (named_struct('x', 2L)) e, "
        "array(named_struct('x', 1), named_struct('x', CAST(NULL AS BIGINT))) f, "
        "map_concat(map(1, named_struct('x', 1)), map(2, named_struct('x', CAST(NULL AS INT)))) g, "
        "nvl(named_struct('x', 1, 'y', 'a'), named_struct('x', 2.5D, 'y', CAST(NULL AS STRING))) h"))
    diff_error(lambda s: s.sql("SELECT coalesce(named_struct('x', 1), named_struct('y', 2))"),
               "DATATYPE_MISMATCH.DATA_DIFF_TYPES")
