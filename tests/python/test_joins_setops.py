"""Differential tests of joins and set operations — Ember against Apache Spark: every join
type, null and duplicate keys, empty sides, skewed keys, USING columns and column naming,
self-joins, intersect / subtract / unionByName."""

from __future__ import annotations

from harness import session_conf
from pyspark.sql import functions as F

LEFT_ROWS = [(1, "a", 1.0), (2, "b", 2.0), (2, "b2", 2.5), (3, "c", None), (None, "n", 9.0),
             (5, "e", 5.0)]
RIGHT_ROWS = [(2, "x"), (2, "y"), (3, "z"), (4, "w"), (None, "rn"), (6, "v")]


def left(s):
    return s.createDataFrame(LEFT_ROWS, "id int, name string, score double")


def right(s):
    return s.createDataFrame(RIGHT_ROWS, "id int, tag string")


def empty_right(s):
    return s.createDataFrame([], "id int, tag string")


JOIN_TYPES = ["inner", "left", "right", "full", "left_semi", "left_anti"]


def test_join_on_condition_all_types(diff):
    for how in JOIN_TYPES:
        def program(s, how=how):
            l, r = left(s), right(s)
            return l.join(r, l["id"] == r["id"], how)
        diff(program)


def test_join_using_column_all_types(diff):
    for how in JOIN_TYPES:
        diff(lambda s, how=how: left(s).join(right(s), "id", how))
        diff(lambda s, how=how: left(s).join(right(s), ["id"], how))


def test_join_empty_sides(diff):
    for how in JOIN_TYPES:
        diff(lambda s, how=how: left(s).join(empty_right(s), "id", how))
        diff(lambda s, how=how: empty_right(s).join(left(s), "id", how))


def test_join_null_safe_keys(diff):
    def program(s):
        l, r = left(s), right(s)
        return l.join(r, l["id"].eqNullSafe(r["id"]), "inner")
    diff(program)

    def full(s):
        l, r = left(s), right(s)
        return l.join(r, l["id"].eqNullSafe(r["id"]), "full")
    diff(full)


def test_join_extra_non_equi_condition(diff):
    for how in JOIN_TYPES:
        def program(s, how=how):
            l, r = left(s), right(s)
            return l.join(r, (l["id"] == r["id"]) & (r["tag"] != "x"), how)
        diff(program)


def test_join_only_non_equi_condition(diff):
    for how in ["inner", "left", "full", "left_anti"]:
        def program(s, how=how):
            l, r = left(s), right(s)
            return l.join(r, l["id"] < r["id"], how)
        diff(program)


def test_cross_join(diff):
    diff(lambda s: left(s).crossJoin(right(s)))
    diff(lambda s: s.range(3).crossJoin(s.range(4).withColumnRenamed("id", "j")))


def test_join_multi_key_and_mixed_types(diff):
    def program(s):
        a = s.createDataFrame([(1, "x", 10), (1, "y", 11), (2, "x", 12)], "k1 int, k2 string, v int")
        b = s.createDataFrame([(1, "x", 100), (2, "x", 200), (2, "y", 300)], "k1 long, k2 string, w int")
        return a.join(b, ["k1", "k2"], "full")
    diff(program)


def test_join_skewed_keys(diff):
    def program(s):
        big = s.range(20000).select((F.col("id") % 3).alias("k"), F.col("id").alias("v"))
        small = s.range(5).select(F.col("id").alias("k"), (F.col("id") * 10).alias("w"))
        return big.join(small, "k").groupBy("k").agg(F.count("*").alias("n"), F.sum("w").alias("s"))
    diff(program)


def test_join_large_outer(diff):
    def program(s):
        a = s.range(0, 100000, 3).select(F.col("id").alias("k"))
        b = s.range(0, 100000, 5).select(F.col("id").alias("k"), F.lit(1).alias("one"))
        return a.join(b, "k", "full").agg(F.count("*"), F.count("one"), F.sum("k"))
    diff(program)


def test_self_join_with_derived_frame(diff):
    def program(s):
        l = left(s)
        r = l.filter(F.col("score") > 1.5)
        return (l.alias("l").join(r.alias("r"), F.col("l.id") == F.col("r.id"))
                .select("l.name", "r.score"))
    diff(program)


def test_join_aliases_and_qualified_columns(diff):
    def program(s):
        a = left(s).alias("a")
        b = right(s).alias("b")
        return a.join(b, F.col("a.id") == F.col("b.id"), "left").select("a.name", "b.tag", F.col("a.id"))
    diff(program)


def test_join_then_filter_and_select(diff):
    def program(s):
        l, r = left(s), right(s)
        return (l.join(r, "id", "left").filter(F.col("tag").isNull())
                .select("id", "name"))
    diff(program)


def test_intersect_and_subtract(diff):
    def a(s):
        return s.createDataFrame([(1, "a"), (1, "a"), (2, None), (None, "c"), (4, "d")], "x int, y string")

    def b(s):
        return s.createDataFrame([(1, "a"), (2, None), (None, "c"), (5, "e")], "x int, y string")
    diff(lambda s: a(s).intersect(b(s)))
    diff(lambda s: a(s).subtract(b(s)))
    diff(lambda s: b(s).subtract(a(s)))
    diff(lambda s: a(s).intersect(a(s).filter(F.col("x") > 0)))


def test_intersect_widening(diff):
    diff(lambda s: s.range(10).intersect(s.createDataFrame([(3,), (4,), (11,)], "id int")))


def test_union_by_name(diff):
    def a(s):
        return s.createDataFrame([(1, "a")], "x int, y string")

    def b(s):
        return s.createDataFrame([("b", 2)], "y string, x int")

    def c(s):
        return s.createDataFrame([("c", 3.5)], "y string, z double")
    diff(lambda s: a(s).unionByName(b(s)), ordered=True)
    diff(lambda s: a(s).unionByName(c(s), allowMissingColumns=True), ordered=True)


def test_drop_duplicates_subset(diff):
    def program(s):
        df = s.createDataFrame([(1, "a", 10), (1, "a", 10), (2, None, 5), (2, None, 5), (None, "c", 1),
                                (None, "c", 1)], "k int, s string, v int")
        return df.dropDuplicates(["k", "s"])
    diff(program)
    # Rows that differ only outside the key: the count and the keys are determined.
    diff(lambda s: s.range(1000).select((F.col("id") % 7).alias("k"), F.col("id"))
         .dropDuplicates(["k"]).select("k"))


def test_distinct_after_join(diff):
    diff(lambda s: left(s).join(right(s), "id").select("id").distinct())


def test_sort_by_column_not_in_projection(diff):
    diff(lambda s: left(s).select("name").orderBy("score"), ordered=True)
    diff(lambda s: left(s).select("name", "id").orderBy(F.col("score").desc_nulls_last(), "name"),
         ordered=True)


def test_sort_by_expression(diff):
    diff(lambda s: left(s).orderBy(-F.col("score"), F.col("name")), ordered=True)
    diff(lambda s: left(s).select("name").orderBy((F.col("id") % 2).desc(), "name"), ordered=True)


def test_sort_missing_column_error(diff_error):
    diff_error(lambda s: left(s).select("name").orderBy("nope"), "UNRESOLVED_COLUMN.WITH_SUGGESTION")


def test_intersect_all_and_except_all(diff):
    def frames(s):
        l = s.createDataFrame([(1, "a"), (1, "a"), (1, "a"), (2, "b"), (None, None), (None, None), (3, "c")],
                              "id int, name string")
        r = s.createDataFrame([(1, "a"), (1, "a"), (None, None), (4, "d"), (3, "c"), (3, "c")], "id int, name string")
        return l, r
    diff(lambda s: frames(s)[0].intersectAll(frames(s)[1]))
    diff(lambda s: frames(s)[0].exceptAll(frames(s)[1]))
    diff(lambda s: frames(s)[1].exceptAll(frames(s)[0]))
    diff(lambda s: frames(s)[0].exceptAll(frames(s)[0].filter("id > 100")))


def test_intersect_except_all_sql(diff):
    def program(s, q):
        s.createDataFrame([(1,), (1,), (2,), (None,)], "a int").createOrReplaceTempView("sa_l")
        s.createDataFrame([(1,), (None,), (None,)], "a int").createOrReplaceTempView("sa_r")
        return s.sql(q)
    diff(lambda s: program(s, "SELECT a FROM sa_l INTERSECT ALL SELECT a FROM sa_r"))
    diff(lambda s: program(s, "SELECT a FROM sa_l EXCEPT ALL SELECT a FROM sa_r"))


def test_where_equalities_turn_a_comma_join_into_a_hash_join(diff):
    def program(s):
        s.range(30000).selectExpr("id AS k", "id % 7 AS g").createOrReplaceTempView("cj_a")
        s.range(30000).selectExpr("id AS k", "id * 2 AS v").createOrReplaceTempView("cj_b")
        return s.sql("SELECT a.g, count(*), sum(b.v) FROM cj_a a, cj_b b "
                     "WHERE a.k = b.k AND a.g < 5 AND b.v > 10 GROUP BY a.g")
    # Without the equality moved into the join this is a 900-million-row cross product, which
    # does not finish in the test's time.
    diff(program)


def test_join_key_repeated_in_every_or_branch(diff):
    def program(s):
        s.range(20000).selectExpr("id AS k", "id % 5 AS brand", "id % 50 AS size").createOrReplaceTempView("or_p")
        s.range(40000).selectExpr("id % 20000 AS k", "id % 11 AS qty").createOrReplaceTempView("or_l")
        return s.sql("SELECT count(*), sum(qty) FROM or_l l, or_p p WHERE "
                     "(p.k = l.k AND p.brand = 1 AND l.qty < 5) OR "
                     "(p.k = l.k AND p.brand = 2 AND p.size > 10) OR "
                     "(l.k = p.k AND p.brand = 3 AND l.qty BETWEEN 2 AND 8)")
    diff(program)


def test_join_chain_is_reordered_so_no_cross_product_comes_first(diff):
    def program(s):
        s.range(20000).selectExpr("id AS ak", "id % 3 AS av").createOrReplaceTempView("chain_a")
        s.range(20000).selectExpr("id AS bk", "id % 5 AS bv").createOrReplaceTempView("chain_b")
        s.range(20000).selectExpr("id AS ck", "(id * 7) % 20000 AS cb").createOrReplaceTempView("chain_c")
        # Written order a, b, c: a and b share no condition. Joined as written, a x b is a
        # 400-million-row cross product; reordered, c joins a first, then b.
        return s.sql("SELECT av, bv, count(*) AS n FROM chain_a, chain_b, chain_c "
                     "WHERE ak = ck AND bk = cb GROUP BY av, bv")
    diff(program)


REUSE_ROWS = "VALUES (1, 'a', 10), (1, 'a', 10), (NULL, 'b', 3), (2, NULL, 7), (NULL, NULL, 1), (3, 'c', 5), " \
    "(3, 'c', 8) AS t(x, y, v)"


def test_cte_read_in_several_places(diff, ember, oracle):
    # A CTE read several times gets fresh attribute ids each time; Ember computes equal reads
    # and equal scalar subqueries once. Nulls and duplicate rows go through INTERSECT (null-safe
    # on every column), joins on the CTE and subqueries over it.
    queries = [
        f"WITH t AS (SELECT * FROM {REUSE_ROWS}), agg AS (SELECT x, count(*) AS c, sum(v) AS s FROM t GROUP BY x) "
        "SELECT a.x, a.c, b.s FROM agg a JOIN agg b ON a.x <=> b.x "
        "WHERE a.s > (SELECT avg(s) FROM agg) - 20 AND b.s >= (SELECT avg(s) FROM agg) - 20 "
        "UNION ALL SELECT x, c, s FROM agg WHERE x IN (SELECT x FROM agg WHERE c > 1)",
        f"WITH t AS (SELECT * FROM {REUSE_ROWS}), "
        "u AS (SELECT t.x, t.y FROM t JOIN (SELECT DISTINCT x AS z FROM t) d ON t.x <=> d.z) "
        "SELECT * FROM u INTERSECT SELECT * FROM u INTERSECT SELECT x, y FROM t WHERE y IS NULL OR x = 1",
        f"WITH t AS (SELECT * FROM {REUSE_ROWS}), u AS (SELECT x, y, sum(v) AS s FROM t GROUP BY x, y) "
        "SELECT * FROM u EXCEPT SELECT x, y, s FROM u WHERE s > 9",
        f"WITH t AS (SELECT * FROM {REUSE_ROWS}), u AS (SELECT x, max(v) AS m FROM t GROUP BY x) "
        "SELECT u1.x, u1.m, u2.m AS m2 FROM u u1 LEFT JOIN u u2 ON u1.x = u2.x + 1 "
        "WHERE u1.m > (SELECT min(m) FROM u) OR u1.x IS NULL",
    ]
    for q in queries:
        diff(lambda s, q=q: s.sql(q))
    with session_conf(ember, oracle, spark_sql_exchange_reuse="false", spark_sql_execution_reuseSubquery="false"):
        for q in queries:
            diff(lambda s, q=q: s.sql(q))


def test_join_on_integer_valued_keys(diff):
    """Keys that join as plain integers: dates, timestamps, both ANSI interval kinds, mixed widths."""
    def program(s):
        l = s.sql("""SELECT * FROM VALUES
            (DATE'2024-02-29', TIMESTAMP'2024-03-10 02:30:00', INTERVAL '1-2' YEAR TO MONTH,
             INTERVAL '1 02:03:04.5' DAY TO SECOND, CAST(1 AS TINYINT), 'a'),
            (DATE'1970-01-01', TIMESTAMP'1970-01-01 00:00:00', INTERVAL '-0-1' YEAR TO MONTH,
             INTERVAL '-0 00:00:00.000001' DAY TO SECOND, CAST(-128 AS TINYINT), 'b'),
            (NULL, NULL, NULL, NULL, NULL, 'n'),
            (DATE'2024-02-29', TIMESTAMP'2024-03-10 02:30:00', INTERVAL '1-2' YEAR TO MONTH,
             INTERVAL '1 02:03:04.5' DAY TO SECOND, CAST(1 AS TINYINT), 'a2')
            AS l(d, ts, ym, dt, b, lname)""")
        r = s.sql("""SELECT * FROM VALUES
            (DATE'2024-02-29', TIMESTAMP'2024-03-10 02:30:00', INTERVAL '1-2' YEAR TO MONTH,
             INTERVAL '1 02:03:04.5' DAY TO SECOND, 1L, 'x'),
            (DATE'1970-01-01', TIMESTAMP'1970-01-01 00:00:00', INTERVAL '-0-1' YEAR TO MONTH,
             INTERVAL '-0 00:00:00.000001' DAY TO SECOND, -128L, 'y'),
            (DATE'2000-01-01', NULL, INTERVAL '0-0' YEAR TO MONTH, NULL, 7L, 'z')
            AS r(d, ts, ym, dt, b, rname)""")
        out = []
        for keys in (["d"], ["ts"], ["ym"], ["dt"], ["b"], ["d", "ym", "dt"]):
            for how in ("inner", "left", "full", "left_anti"):
                cond = [l[k] == r[k] for k in keys]
                j = l.join(r, cond, how)
                cols = [l["lname"]] + ([] if how == "left_anti" else [r["rname"]])
                out.append(j.select(*cols, F.lit(",".join(keys) + ":" + how).alias("case")))
        res = out[0]
        for o in out[1:]:
            res = res.unionByName(o, allowMissingColumns=True)
        return res
    diff(program)


def test_join_on_dense_surrogate_keys(diff):
    """A dimension keyed 0..N-1 (a direct index whose keys are its rows) joined from a fact with
    keys below, inside and above that range, nulls, and keys of narrower and wider types; the
    same with a key missing from the dimension (a direct index with a hole)."""
    def program(s):
        out = []
        for key_type, size in (("tinyint", 100), ("smallint", 1000), ("int", 1000), ("bigint", 1000)):
            # Both sides of one key type, so that the index sees keys of that width.
            fact = s.range(0, 3000).select(
                F.when(F.col("id") % 23 == 0, None).otherwise(F.col("id") % (size + 70) - 50)
                .cast(key_type).alias("k"),
                (F.col("id") * 3 % 7).alias("v"))
            dim = s.range(0, size).select(F.col("id").cast(key_type).alias("k"), (F.col("id") % 13).alias("cat"))
            holed = dim.filter(F.col("k") != size // 2)
            for name, d in (("dense", dim), ("holed", holed)):
                f = fact
                for how in ("inner", "left", "left_semi", "left_anti"):
                    j = f.join(d, "k", how)
                    agg = [F.count("*").alias("n"), F.sum("v").alias("sv"), F.sum("k").alias("sk")]
                    if how in ("inner", "left"):
                        agg += [F.sum("cat").alias("sc"), F.count("cat").alias("nc")]
                    out.append(j.agg(*agg).withColumn("case", F.lit(f"{name}:{key_type}:{how}")))
        res = out[0]
        for o in out[1:]:
            res = res.unionByName(o, allowMissingColumns=True)
        return res
    diff(program)
    diff(lambda s: s.range(0, 2000).select((F.col("id") % 700).cast("int").alias("k"))
         .join(s.range(0, 600).select(F.col("id").cast("int").alias("k"), (F.col("id") * 2).alias("w")), "k")
         .groupBy((F.col("w") % 5).alias("g")).agg(F.count("*").alias("n"), F.sum("w").alias("sw")))


def test_set_operations_over_structs_with_different_field_names(diff, diff_error):
    # For UNION the same structure is enough: the result keeps the first side's field names,
    # with the nullability of both; INTERSECT and EXCEPT need the same field names.
    diff(lambda s: s.sql("SELECT named_struct('a', 1) s UNION ALL SELECT named_struct('b', 2)"))
    diff(lambda s: s.sql("SELECT named_struct('a', 1, 'c', array(1)) s "
                         "UNION SELECT named_struct('b', CAST(NULL AS INT), 'd', array(CAST(NULL AS INT)))"))
    diff(lambda s: s.sql("SELECT named_struct('a', 1, 'c', 'x') s")
         .union(s.sql("SELECT named_struct('b', 2, 'd', 'y') s")))
    diff_error(lambda s: s.sql("SELECT named_struct('a', 1) s INTERSECT SELECT named_struct('z', 1)"),
               "INCOMPATIBLE_COLUMN_TYPE")
    diff_error(lambda s: s.sql("SELECT named_struct('a', 1) s EXCEPT SELECT named_struct('z', 2)"),
               "INCOMPATIBLE_COLUMN_TYPE")
    diff(lambda s: s.sql("SELECT named_struct('a', 1) s EXCEPT SELECT named_struct('a', 2)"))
    # Different field types under different names are no common type.
    diff_error(lambda s: s.sql("SELECT named_struct('a', 1) s UNION ALL SELECT named_struct('b', 2L)"),
               "INCOMPATIBLE_COLUMN_TYPE")
    diff_error(lambda s: s.sql("SELECT 1 a, named_struct('a', 1) s UNION ALL SELECT 2, array(1)"),
               "INCOMPATIBLE_COLUMN_TYPE")
    diff_error(lambda s: s.sql("SELECT 1 EXCEPT SELECT array(1)"), "INCOMPATIBLE_COLUMN_TYPE")


def test_set_operations_over_nested_structs(diff, diff_error):
    # Maps and arrays of structs with the same structure union under the first side's names;
    # every level's nullability is that of either side. Structs whose fields have the same
    # names (in any case) widen field by field; INTERSECT and EXCEPT keep the first side's
    # type when only nullability differs.
    for a, b in [("map('k', named_struct('x', 1, 'y', 'a'))", "map('k', named_struct('p', 2, 'q', 'b'))"),
                 ("map('k', named_struct('x', 1))", "map('k', named_struct('p', CAST(NULL AS INT)), 'j', NULL)"),
                 ("map('k', named_struct('x', 1))", "map('k', named_struct('x', CAST(NULL AS INT)))"),
                 ("map('k', map('j', named_struct('x', 1)))", "map('k', map('j', named_struct('p', 2)))"),
                 ("map(named_struct('x', 1), 1)", "map(named_struct('p', 2), 2)"),
                 ("array(named_struct('x', 1, 'y', 'a'))", "array(named_struct('p', CAST(NULL AS INT), 'q', 'b'), NULL)"),
                 ("map('k', named_struct('a', named_struct('x', 1)))",
                  "map('k', named_struct('b', named_struct('y', CAST(NULL AS INT))))"),
                 ("map('k', named_struct('x', 1))", "map('k', named_struct('x', 2L))"),
                 ("array(named_struct('x', 1))", "array(named_struct('X', 2L), NULL)"),
                 ("named_struct('x', 1, 'y', 'a')", "named_struct('x', 2L, 'y', CAST(NULL AS STRING))")]:
        diff(lambda s, a=a, b=b: s.sql(f"SELECT {a} AS m UNION ALL SELECT {b}"))
        diff(lambda s, a=a, b=b: s.sql(f"SELECT {b} AS m UNION ALL SELECT {a}"))
    diff(lambda s: s.sql("SELECT map('k', named_struct('x', 1)) AS m")
         .union(s.createDataFrame([({"k": (None,)},)], "m map<string, struct<p:int>>")))
    diff(lambda s: s.sql("SELECT map('k', named_struct('x', 1)) AS m")
         .unionByName(s.sql("SELECT map('k', named_struct('p', CAST(NULL AS INT))) AS m")))
    diff(lambda s: s.sql("SELECT named_struct('x', 1) c INTERSECT SELECT named_struct('x', CAST(NULL AS INT))"))
    diff(lambda s: s.sql("SELECT named_struct('x', 1) c EXCEPT SELECT named_struct('X', 2L)"))
    diff(lambda s: s.sql("SELECT array(named_struct('x', 1)) c INTERSECT SELECT array(named_struct('X', 1))"))
    diff_error(lambda s: s.sql("SELECT map('k', named_struct('x', 1)) m UNION ALL SELECT map('k', named_struct('p', 2L))"),
               "INCOMPATIBLE_COLUMN_TYPE")
