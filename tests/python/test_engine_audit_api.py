"""Differential tests of DataFrame, Column, na and stat methods that the rest of the suite does
not reach: withColumns, unionAll, drop_duplicates, groupingSets, between / isNaN / astype,
the row-returning actions (take, tail, head, first, isEmpty, toLocalIterator, toArrow), the
stat functions (cov, crosstab, freqItems, approxQuantile, sampleBy), global temp views and
the semantic questions of AnalyzePlan — Ember against Apache Spark."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import session_mode, to_plain

ROWS = [(1, "a", 1.5, 10), (2, "b", None, 20), (2, "b", 2.5, None), (3, None, float("nan"), 30),
        (None, "e", -1.0, 40), (3, "c", 0.0, 30)]
SCHEMA = "k int, s string, d double, v int"


def data(spark):
    return spark.createDataFrame(ROWS, SCHEMA)


def empty(spark):
    return spark.createDataFrame([], SCHEMA)


def both(ember, oracle, action):
    """Runs `action(spark)` on both sessions and returns the plain results (oracle, ember)."""
    results = []
    for spark in (oracle, ember):
        with session_mode(spark):
            results.append(to_plain(action(spark)))
    return results


def test_with_columns_and_column_methods(diff):
    diff(lambda s: data(s).withColumns({"k2": F.col("k") * 2, "s": F.upper("s"),
                                        "lit": F.lit(None).cast("string")}))
    diff(lambda s: data(s).select(
        F.col("k").between(1, 2).alias("btw"), F.col("d").between(F.lit(0.0), F.col("v")),
        F.col("d").isNaN().alias("nan"), F.isnan("d"), F.col("v").astype("string"),
        F.col("k").astype("double").alias("kd")))
    diff(lambda s: data(s).orderBy(F.col("d").desc_nulls_first(), F.col("k").asc(),
                                   F.col("v").asc_nulls_last()), ordered=True)
    diff(lambda s: data(s).orderBy(F.desc_nulls_first("k"), F.asc("s"), F.desc("v")), ordered=True)
    diff(lambda s: data(s).sort("s", "k", ascending=[False, True]), ordered=True)


def test_union_all_and_drop_duplicates_alias(diff):
    diff(lambda s: data(s).unionAll(data(s)).unionAll(empty(s)))
    diff(lambda s: data(s).drop_duplicates(["k", "s"]).select("k", "s"))
    diff(lambda s: data(s).drop_duplicates().select("k", "s", "v"))
    diff(lambda s: empty(s).drop_duplicates(["k"]))


def test_grouping_sets_method(diff):
    diff(lambda s: data(s).groupingSets([["k"], ["s"], []], "k", "s").agg(
        F.sum("v").alias("sv"), F.count("*").alias("n"), F.grouping_id().alias("g")))
    diff(lambda s: data(s).groupingSets([[F.col("k"), F.col("s")], [F.col("k")]],
                                        F.col("k"), F.col("s")).count())
    diff(lambda s: empty(s).groupingSets([["k"], []], "k").agg(F.max("v")))


def test_row_actions(ember, oracle):
    def actions(s):
        df = data(s).orderBy(F.col("k").asc_nulls_first(), "v")
        e = empty(s)
        return [df.take(2), df.tail(2), df.head(), df.head(3), df.first(), df.isEmpty(),
                e.isEmpty(), e.take(3), e.tail(3), e.head(), e.first(), e.head(2),
                list(df.toLocalIterator()), list(df.toLocalIterator(prefetchPartitions=True)),
                df.limit(0).isEmpty(), s.range(1000).tail(3), s.range(0).tail(1), df.tail(0),
                df.toArrow().num_rows, df.toArrow().schema.names]
    expected, actual = both(ember, oracle, actions)
    assert repr(actual) == repr(expected)


def test_to_json_and_to_arrow_values(ember, oracle):
    def actions(s):
        df = data(s).orderBy(F.col("k").asc_nulls_first(), "v")
        table = df.toArrow()
        # A classic session answers toJSON with an RDD of strings, Spark Connect with rows.
        lines = df.select("k", "s", "v").toJSON().collect()
        return [r if isinstance(r, str) else r[0] for r in lines], table.to_pylist()

    expected, actual = both(ember, oracle, actions)
    assert repr(actual) == repr(expected)


def assert_same_requirement_error(ember, oracle, program):
    """Both engines refuse `program` with the same IllegalArgumentException message."""
    messages = []
    for spark in (oracle, ember):
        with session_mode(spark):
            with pytest.raises(Exception) as info:
                program(spark)
            messages.append(str(info.value).splitlines()[0])
    assert "requirement failed" in messages[0]
    assert messages[1] == messages[0]


def test_stat_cov_corr_crosstab(ember, oracle, diff):
    def stats(s):
        df = data(s).na.drop(subset=["k", "v"])
        return [round(df.stat.cov("k", "v"), 9), round(df.cov("k", "v"), 9),
                round(df.stat.corr("k", "v"), 9), round(df.corr("k", "v", "pearson"), 9)]
    expected, actual = both(ember, oracle, stats)
    assert actual == expected
    for program in (lambda s: data(s).stat.cov("k", "s"), lambda s: data(s).corr("s", "v"),
                    lambda s: data(s).approxQuantile("s", [0.5], 0.1)):
        assert_same_requirement_error(ember, oracle, program)
    diff(lambda s: data(s).stat.crosstab("k", "s"))
    diff(lambda s: data(s).crosstab("s", "v"))
    diff(lambda s: empty(s).crosstab("k", "s"))


def test_stat_freq_items(ember, oracle):
    def items(s):
        rows = [(i % 3, "x" if i % 4 else None, i) for i in range(40)]
        df = s.createDataFrame(rows, "a int not null, b string, c int")
        result = df.freqItems(["a", "b"], 0.4)
        first = result.collect()[0]
        # Few distinct values: every one is a candidate, whatever the order rows come in.
        small = (result.columns, sorted(first[0]), sorted(first[1], key=str),
                 [f.dataType.simpleString() for f in result.schema.fields],
                 [f.dataType.containsNull for f in result.schema.fields])
        # Many: the heavy hitter (7 in half the rows) must be among the candidates.
        skewed = s.range(0, 2000).select(
            F.when(F.col("id") % 2 == 0, F.lit(7)).otherwise(F.col("id")).alias("v"))
        heavy = 7 in skewed.stat.freqItems(["v"]).collect()[0][0]
        return small, heavy, s.range(0).freqItems(["id"]).collect()[0][0]
    expected, actual = both(ember, oracle, items)
    assert actual == expected


def test_stat_approx_quantile(ember, oracle):
    def quantiles(s):
        df = s.range(0, 1001).withColumn("x", (F.col("id") * 7 % 1001).cast("double"))
        return [df.approxQuantile("x", [0.0, 0.25, 0.5, 0.75, 1.0], 0.0),
                df.approxQuantile(["id", "x"], [0.1, 0.9], 0.0),
                df.stat.approxQuantile("x", [0.5], 0.05) != [],
                data(s).approxQuantile("d", [0.5], 0.0),
                empty(s).approxQuantile("d", [0.5], 0.0)]
    expected, actual = both(ember, oracle, quantiles)
    assert actual == expected


def test_stat_sample_by(ember, oracle):
    def sampled(s):
        df = s.range(0, 3000).withColumn("key", (F.col("id") % 3).cast("int"))
        out = df.sampleBy("key", {0: 0.0, 1: 1.0}, seed=5)
        # Numeric strata match across numeric types; a string key matches no number.
        longs = s.range(0, 30).withColumn("key", F.col("id") % 3).sampleBy("key", {1: 1.0}, 1)
        strings = s.range(0, 30).withColumn("key", (F.col("id") % 3).cast("string"))
        return (sorted(set(r[0] for r in out.select("key").collect())), out.count(), out.columns,
                longs.count(), strings.sampleBy("key", {"2": 1.0, "0": 0.0}, 2).count(),
                s.range(0, 30).sampleBy(F.col("id") % 2, {0: 1.0}, 3).count(),
                strings.withColumn("key", F.col("key").cast("int")).sampleBy("key", {"1": 1.0}, 4).count())
    expected, actual = both(ember, oracle, sampled)
    assert actual == expected
    # A fraction strictly between 0 and 1 keeps about that share of the stratum.
    df = ember.range(0, 20000).withColumn("key", F.col("id") % 2)
    got = df.sampleBy("key", {0: 0.5}, seed=3).count()
    assert abs(got - 5000) < 5 * (10000 * 0.25) ** 0.5


def test_global_temp_view_method(ember, oracle, diff, diff_error):
    def drop(s):
        s.catalog.dropGlobalTempView("audit_gtv")

    both(ember, oracle, drop)

    def view(s):
        data(s).createGlobalTempView("audit_gtv")
        return s.table("global_temp.audit_gtv").select("k", "s")

    diff(view)
    diff(lambda s: s.sql("SELECT k, v FROM global_temp.audit_gtv WHERE k > 1"))
    diff_error(lambda s: data(s).createGlobalTempView("audit_gtv"),
               "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS")
    both(ember, oracle, drop)


def test_same_semantics_and_semantic_hash(ember, oracle):
    def answers(s):
        a = s.range(10).filter(F.col("id") > 3)
        b = s.range(10).filter(F.col("id") > 3)
        c = s.range(10).filter(F.col("id") > 4)
        return [a.sameSemantics(b), a.sameSemantics(c),
                a.semanticHash() == b.semanticHash(), a.semanticHash() == c.semanticHash(),
                isinstance(a.semanticHash(), int)]
    expected, actual = both(ember, oracle, answers)
    assert actual == expected


def test_catalog_lists_temp_views(ember, oracle):
    def listing(s):
        data(s).createOrReplaceTempView("audit_tv_b")
        s.range(1).createOrReplaceTempView("audit_tv_a")
        tables = sorted((t.name, t.isTemporary, t.tableType) for t in s.catalog.listTables()
                        if t.name.startswith("audit_tv"))
        cols = sorted((c.name, c.dataType, c.nullable) for c in s.catalog.listColumns("audit_tv_b"))
        exists = (s.catalog.tableExists("audit_tv_a"), s.catalog.tableExists("audit_tv_zz"))
        dropped = (s.catalog.dropTempView("audit_tv_a"), s.catalog.dropTempView("audit_tv_a"))
        s.catalog.dropTempView("audit_tv_b")
        return tables, cols, exists, dropped
    expected, actual = both(ember, oracle, listing)
    assert actual == expected


@pytest.mark.parametrize("mode", ["simple", "extended", "formatted", "cost", "codegen"])
def test_explain_modes_run(ember, mode, capsys):
    df = data(ember).join(data(ember).select("k", F.col("v").alias("w")), "k") \
        .groupBy("s").agg(F.sum("w"))
    df.explain(mode=mode)
    text = capsys.readouterr().out
    assert "Physical Plan" in text or mode == "codegen"
    if mode in ("extended", "cost"):
        assert "Optimized Logical Plan" in text


def test_rdd_is_rejected_and_foreach_runs(ember, oracle):
    with pytest.raises(Exception) as info:
        ember.range(3).rdd  # noqa: B018 - the property raises
    assert "NOT_IMPLEMENTED" in str(info.value)
    # foreach and foreachPartition run the function in Python workers, over every row.
    ember.range(5).foreach(lambda row: None)
    ember.range(5).repartition(2).foreachPartition(lambda rows: list(rows))

    def fail_on_three(row):
        if row.id == 3:
            raise ValueError("row three")

    for spark in (oracle, ember):
        with session_mode(spark):
            with pytest.raises(Exception) as info:
                spark.range(5).foreach(fail_on_three)
            assert "row three" in str(info.value)


def test_summary_percentiles_and_counts(ember, oracle, diff, diff_error):
    def numbers(s):
        rows = [(i, i * 0.5, str(i % 7) if i % 5 else "x", f"w{i % 3}") for i in range(1, 60)]
        return s.createDataFrame(rows + [(None, None, None, None)], "i int, d double, n string, w string")

    diff(lambda s: numbers(s).summary(), ordered=True)
    diff(lambda s: numbers(s).summary("count", "count_distinct", "approx_count_distinct", "10%",
                                      "50%", "99.5%", "MEAN", "Max"), ordered=True)
    diff(lambda s: numbers(s).describe(), ordered=True)
    # Without stddev, whose last digit depends on the order rows are summed in; percentiles of
    # a column with NaN depend on Spark's partitions too.
    diff(lambda s: data(s).select("k", "s", "v").summary("count", "mean", "min", "25%", "50%", "max"), ordered=True)
    diff(lambda s: empty(s).summary(), ordered=True)
    diff(lambda s: s.range(3).select(F.array("id").alias("a")).summary(), ordered=True)
    diff_error(lambda s: numbers(s).summary("median"), "UNRECOGNIZED_STATISTIC")
    diff_error(lambda s: numbers(s).summary("abc%"), "UNRECOGNIZED_STATISTIC")
    for stat in ("150%", "-1%"):
        assert_same_requirement_error(ember, oracle, lambda s: numbers(s).summary(stat).collect())


def test_dataframe_subqueries(diff):
    def small(s):
        return s.createDataFrame([(1, 10), (2, 20), (2, 21), (4, None)], "k int, w int")

    diff(lambda s: data(s).select("k", small(s).select(F.max("w")).scalar().alias("m")))
    diff(lambda s: data(s).where(F.col("v") > small(s).select(F.avg("k")).scalar()))
    diff(lambda s: data(s).where(F.col("k").isin(small(s).select("k"))))
    diff(lambda s: data(s).where(~F.col("k").isin(small(s).select("k"))))
    diff(lambda s: data(s).alias("d").where(
        small(s).where(F.col("k") == F.col("d.k").outer()).exists()))
    diff(lambda s: data(s).alias("d").where(
        ~small(s).where((F.col("k") == F.col("d.k").outer()) & F.col("w").isNotNull()).exists()))
    diff(lambda s: data(s).alias("d").select(
        "k", small(s).where(F.col("k") == F.col("d.k").outer()).select(F.sum("w")).scalar().alias("s")))
    diff(lambda s: data(s).where(F.struct("k", "v").isin(
        small(s).select("k", F.col("w").cast("double")))))
