"""Differential tests of DataFrame behaviour that PySpark's own parity suites exercise: column
references by DataFrame (plan ids) in self-joins, df["*"], and their errors. Programs whose
meaning depends on Spark Connect run against Apache Spark's own Connect server."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import run_for_error, session_mode


def pairs(s):
    return s.createDataFrame([(1, 2), (3, 4), (5, 4)], "a long, b long")


# --- column references by DataFrame ------------------------------------------------------------

def test_self_join_projection_on_condition(cdiff):
    def program(s):
        df = pairs(s)
        df2 = df.select(df.a.alias("aa"), df.b)
        return df2.join(df, df2.b == df.b)
    cdiff(program)

    def reversed_sides(s):
        df = pairs(s)
        df2 = df.select(df.a.alias("aa"), df.b)
        return df.join(df2, df2.b == df.b)
    cdiff(reversed_sides)


def test_self_join_alias_on_condition(cdiff):
    def program(s):
        df = pairs(s)
        x = df.alias("x")
        return x.join(df, x.b == df.b)
    cdiff(program)


def test_alias_then_reference_after_join(cdiff_error):
    def program(s):
        df = pairs(s)
        x = df.alias("x")
        return x.join(df, x.b == df.b).select(df.a)
    cdiff_error(program, "AMBIGUOUS_COLUMN_REFERENCE")


def test_alias_reference_after_join(cdiff):
    def program(s):
        df = pairs(s)
        x = df.alias("x")
        return x.join(df, x.b == df.b).select(x.a, "x.b")
    cdiff(program)


def test_self_join_renamed_column(cdiff):
    def program(s):
        df1 = s.range(6).withColumn("a", F.lit(0))
        df2 = df1.withColumnRenamed("a", "b")
        return df1.join(df2, df1["a"] == df2["b"]).groupBy().count()
    cdiff(program)

    def other_order(s):
        df1 = s.range(6).withColumn("a", F.col("id") % 2)
        df2 = df1.withColumnRenamed("a", "b")
        return df2.join(df1, df2["b"] == df1["a"]).select("a", "b")
    cdiff(other_order)


def test_self_join_reference_below_both_sides(cdiff_error):
    def program(s):
        df1 = s.range(6).withColumn("a", F.col("id") % 2)
        df2 = df1.withColumnRenamed("a", "b")
        return df2.join(df1, df2["b"] == df1["a"]).select(df1.id)
    cdiff_error(program, "AMBIGUOUS_COLUMN_REFERENCE")


def test_self_join_with_union_and_outer(cdiff):
    def program(s):
        df1 = s.range(5).withColumn("value", F.lit(1))
        u = df1.union(df1)
        return df1.join(u, df1.id == u.id, "left").select(df1.id, u.value)
    cdiff(program)

    def right(s):
        df1 = s.range(5).withColumn("value", F.lit(1))
        df2 = df1.withColumn("value", F.lit(2)).union(df1.withColumn("value", F.lit(3)))
        return df1.join(df2, df1.id == df2.id, "right")
    cdiff(right)


def test_reference_through_later_operators(cdiff):
    def filtered(s):
        df = pairs(s)
        df2 = df.select(df.a.alias("aa"), df.b)
        return df2.join(df, df2.b == df.b).filter(df.a > 1)
    cdiff(filtered)

    def through_projection(s):
        df = pairs(s)
        return df.select(df.a.alias("aa"), df.b).select(df.b)
    cdiff(through_projection)

    def outer_side_nullable(s):
        l = pairs(s)
        r = s.createDataFrame([(4, "x")], "b long, t string")
        return l.join(r, l.b == r.b, "left").select(l.a, r.b, r.t)
    cdiff(outer_side_nullable)


def test_ambiguous_column_reference(cdiff_error):
    def same_frame(s):
        df = pairs(s)
        return df.join(df, df.b == df.b)
    cdiff_error(same_frame, "AMBIGUOUS_COLUMN_REFERENCE")

    def after_join(s):
        df = pairs(s)
        df2 = df.select(df.a.alias("aa"), df.b)
        return df2.join(df, df2.b == df.b).select(df.b)
    cdiff_error(after_join, "AMBIGUOUS_COLUMN_REFERENCE")


def test_reference_to_other_frame(cdiff_error):
    def unrelated(s):
        df = pairs(s)
        other = s.range(3)
        return df.select(other.id)
    cdiff_error(unrelated, "CANNOT_RESOLVE_DATAFRAME_COLUMN")

    def dropped(s):
        df = pairs(s)
        return df.select(df.a.alias("aa"), df.b).select(df.a)
    cdiff_error(dropped, "CANNOT_RESOLVE_DATAFRAME_COLUMN")

    def fresh_alias(s):
        df = pairs(s)
        return df.alias("x").join(df, df.alias("x").b == df.b)
    cdiff_error(fresh_alias, "CANNOT_RESOLVE_DATAFRAME_COLUMN")


def test_metadata_column_references(cdiff_error, ember):
    # df.metadataColumn(name) names a hidden column of the DataFrame's source (a file scan's
    # `_metadata`): a regular column is none, and a frame without one has none. Spark's Connect
    # server refuses the reference when a plan uses it; creating it asks nothing of the server.
    programs = [
        lambda s: (lambda df: df.select(df.metadataColumn("_metadata")))(s.range(3)),
        lambda s: (lambda df: df.select(df.metadataColumn("nope")))(pairs(s)),
        lambda s: (lambda df: df.filter(df.metadataColumn("a") > 1))(pairs(s)),
        lambda s: (lambda df: df.select(df.metadataColumn("id")))(s.range(3).filter("id > 0")),
    ]
    for program in programs:
        err = cdiff_error(program, "CANNOT_RESOLVE_DATAFRAME_COLUMN")
    assert err.getMessageParameters() == {"name": '"id"'}, err.getMessageParameters()
    with session_mode(ember):
        df = ember.range(3)
        df.metadataColumn("nope")
        assert df.count() == 3


def test_reference_no_longer_in_its_frame(cdiff, cdiff_error):
    # Strict DataFrame column resolution (Spark's default): once a later column of the same name
    # shadows df.a, or a rename or an aggregation removes it, the name does not stand in for it.
    def shadowed(s):
        df = pairs(s)
        return df.withColumn("a", F.col("a").cast("string")).select(df.a)

    def aliased(s):
        df = pairs(s)
        return df.select(df.a.cast("string").alias("a"), df.b).select(df.a)

    def renamed(s):
        df = pairs(s)
        return df.withColumnRenamed("a", "a2").select(df.a)

    def aggregated(s):
        df = pairs(s)
        return df.groupBy("b").agg(F.sum("a").alias("a")).select(df.a)

    def missing_name(s):
        df = pairs(s)
        return df.select(df["zz"])

    for program in (shadowed, aliased, renamed, aggregated, missing_name):
        cdiff_error(program, "CANNOT_RESOLVE_DATAFRAME_COLUMN")

    # Dropping such a column drops nothing; a sort or filter still reaches below a projection.
    cdiff(lambda s: (lambda df: df.withColumn("a", F.lit(0)).drop(df.a))(pairs(s)))
    cdiff(lambda s: (lambda df: df.select(df.b).sort(df.a.desc()))(pairs(s)), ordered=True)
    cdiff(lambda s: (lambda df: df.select(df.b).filter(df.a > 1))(pairs(s)))


@pytest.fixture
def lenient_frame_columns(ember, connect_oracle):
    key = "spark.sql.analyzer.strictDataFrameColumnResolution"
    for s in (ember, connect_oracle):
        s.conf.set(key, "false")
    yield
    for s in (ember, connect_oracle):
        s.conf.unset(key)


def test_reference_by_name_when_not_strict(lenient_frame_columns, cdiff):
    def shadowed(s):
        df = pairs(s)
        return df.withColumn("a", F.col("a") * 10).select(df.a)
    cdiff(shadowed)

    def dropped_shadowed(s):
        df = pairs(s)
        return df.withColumn("a", F.lit(0)).drop(df.a)
    cdiff(dropped_shadowed)


def test_duplicate_names_by_frame(cdiff_error):
    cdiff_error(lambda s: (lambda d: d.select(d.c))(s.createDataFrame([(1, 2)], ["c", "c"])),
                "AMBIGUOUS_REFERENCE")


def test_frame_star(connect_oracle, ember):
    def columns(s):
        df1 = s.createDataFrame([(1,)], "a long")
        df2 = s.createDataFrame([(1, "v")], "a long, b string")
        df3 = df2.withColumnsRenamed({"a": "x", "b": "y"})
        out = []
        with session_mode(s):
            with_c = df1.join(df2).withColumn("c", F.lit(0))
        for joined in (df1.join(df2), with_c):
            out.append((joined.columns, joined.select(df1["*"]).columns, joined.select(df2["*"]).columns))
        j = df2.join(df3)
        out.append((j.select(df2["*"]).columns, j.select(df3["*"]).columns))
        return out
    assert columns(ember) == columns(connect_oracle)


def test_frame_star_values(cdiff, cdiff_error):
    def program(s):
        df1 = s.createDataFrame([(1, 10), (2, 20)], "a long, x long")
        df2 = s.createDataFrame([(1, "v"), (3, "w")], "a long, b string")
        return df1.join(df2, df1.a == df2.a, "full").select(df2["*"], df1.x)
    cdiff(program)

    def unrelated(s):
        return pairs(s).select(s.range(2)["*"])
    cdiff_error(unrelated, "CANNOT_RESOLVE_DATAFRAME_COLUMN")


# --- sample ----------------------------------------------------------------------------------

def ids(df):
    return sorted(r[0] for r in df.collect())


def test_sample_same_seed_same_rows(ember):
    df = ember.range(0, 20000)
    assert ids(df.sample(0.3, 7)) == ids(df.sample(0.3, 7))
    assert ids(df.sample(True, 0.5, 11)) == ids(df.sample(True, 0.5, 11))
    assert ids(df.sample(0.3, 7)) != ids(df.sample(0.3, 8))
    assert ids(df.sample(True, 0.5, 11)) != ids(df.sample(True, 0.5, 12))


def test_sample_bounds(ember):
    df = ember.range(0, 5000)
    assert df.sample(0.0, 3).count() == 0
    assert ids(df.sample(1.0, 3)) == list(range(5000))
    assert df.sample(True, 0.0, 3).count() == 0


def test_sample_counts_within_statistical_bounds(ember):
    n = 100_000
    df = ember.range(0, n)
    for fraction, seed in ((0.1, 1), (0.5, 2), (0.9, 3)):
        got = df.sample(fraction, seed).count()
        sd = (n * fraction * (1 - fraction)) ** 0.5
        assert abs(got - n * fraction) < 5 * sd, (fraction, got)
    for fraction, seed in ((0.3, 4), (2.5, 5)):
        got = df.sample(True, fraction, seed).count()
        sd = (n * fraction) ** 0.5
        assert abs(got - n * fraction) < 5 * sd, (fraction, got)
    # With replacement some rows repeat; without, none does.
    rows = ids(df.sample(True, 2.0, 6))
    assert len(rows) > len(set(rows))
    rows = ids(df.sample(0.7, 6))
    assert len(rows) == len(set(rows))


def test_sample_schema(diff):
    def program(s):
        df = s.createDataFrame([(1, "a", None), (2, "b", 1.5)], "k int, v string, d double")
        return df.sample(0.0, 1)
    diff(program)
    diff(lambda s: s.range(10).sample(1.0, 1).selectExpr("id", "id * 2 AS twice"))


def same_unclassified_error(ember, oracle, program):
    """Both engines fail with the same exception type and first message line (for Spark's
    errors that carry no error class)."""
    with session_mode(oracle):
        expected = run_for_error("spark", program, oracle)
    with session_mode(ember):
        actual = run_for_error("ember", program, ember)
    first = lambda e: (str(e).splitlines() or [""])[0]  # noqa: E731
    assert (type(actual).__name__, first(actual)) == (type(expected).__name__, first(expected)), \
        f"spark: {expected!r}\nember: {actual!r}"
    return first(actual)


def test_sample_fraction_errors(ember, connect_oracle):
    for program in (lambda s: s.range(5).sample(-0.1, 1),
                    lambda s: s.range(5).sample(1.5, 1),
                    lambda s: s.range(5).sample(True, -1.0, 1)):
        assert "requirement failed: Sampling fraction" in same_unclassified_error(ember, connect_oracle, program)


def test_random_split(ember, connect_oracle):
    df = ember.range(0, 3000)
    parts = df.randomSplit([1.0, 2.0, 3.0], 24)
    got = [ids(p) for p in parts]
    assert sorted(x for g in got for x in g) == list(range(3000))
    assert [ids(p) for p in df.randomSplit([1.0, 2.0, 3.0], 24)] == got
    for g, w in zip(got, (1, 2, 3)):
        assert abs(len(g) - 3000 * w / 6) < 5 * (3000 * w / 6) ** 0.5
    assert [p.schema for p in parts] == [p.schema for p in connect_oracle.range(0, 3000).randomSplit([1.0, 2.0, 3.0], 24)]


# --- spark.sql.crossJoin.enabled -------------------------------------------------------------

@pytest.fixture
def no_cross_join(ember, connect_oracle):
    for s in (ember, connect_oracle):
        s.conf.set("spark.sql.crossJoin.enabled", "false")
    yield
    for s in (ember, connect_oracle):
        s.conf.unset("spark.sql.crossJoin.enabled")


def test_implicit_cartesian_product_rejected(no_cross_join, ember, connect_oracle):
    def left(s):
        return s.createDataFrame([(1, "1")], "key long, value string")

    def right(s):
        return s.createDataFrame([(1, "x")], "key2 long, tag string")

    programs = [
        lambda s: left(s).join(right(s)),
        lambda s: left(s).join(right(s), how="inner"),
        lambda s: left(s).join(right(s), F.lit(True)),
        lambda s: left(s).join(right(s), F.col("key") > 0, "left"),
        lambda s: left(s).join(right(s), how="full"),
    ]
    for program in programs:
        first = same_unclassified_error(ember, connect_oracle, program)
        assert first.startswith("Detected implicit cartesian product")


def test_cross_join_still_allowed(no_cross_join, cdiff):
    def left(s):
        return s.createDataFrame([(1, "1"), (2, "2")], "key long, value string")

    def right(s):
        return s.createDataFrame([(1, "x"), (3, "y")], "key2 long, tag string")

    cdiff(lambda s: left(s).crossJoin(right(s)))
    cdiff(lambda s: left(s).join(right(s), F.col("key") == F.col("key2")))
    cdiff(lambda s: left(s).join(right(s)).where(F.col("key") == F.col("key2")))
    cdiff(lambda s: left(s).join(right(s), F.col("key") < F.col("key2"), "left"))
    cdiff(lambda s: left(s).join(right(s), how="left_semi"))


# --- Column.withField / dropFields ------------------------------------------------------------

def nested(s):
    return s.createDataFrame(
        [((1, 2, (3, 4)),), ((5, None, None),), (None,)],
        "a struct<b: int, c: int, d: struct<e: int, f: int>>")


def test_with_field(diff):
    diff(lambda s: nested(s).withColumn("a", F.col("a").withField("b", F.lit(30))))
    diff(lambda s: nested(s).withColumn("a", F.col("a").withField("z", F.lit("new"))))
    diff(lambda s: nested(s).select(F.col("a").withField("d.e", F.lit(7))))
    diff(lambda s: nested(s).select(F.col("a").withField("d.g", F.col("a.b") * 2).alias("x")))
    diff(lambda s: nested(s).select(F.col("a").withField("B", F.lit(1)).withField("c", F.lit(None))))


def test_drop_fields(diff):
    diff(lambda s: nested(s).select(F.col("a").dropFields("b")))
    diff(lambda s: nested(s).select(F.col("a").dropFields("b", "c").alias("x")))
    diff(lambda s: nested(s).select(F.col("a").dropFields("d.e").alias("x")))
    diff(lambda s: nested(s).select(F.col("a").dropFields("missing").alias("x")))


def test_update_fields_over_connect(cdiff):
    cdiff(lambda s: nested(s).select(F.col("a").withField("d.e", F.lit(7)).withField("b", F.lit(0))))
    cdiff(lambda s: nested(s).select(F.col("a").dropFields("b", "d.f")))


def test_update_fields_errors(diff_error):
    diff_error(lambda s: nested(s).select(F.col("a.b").withField("x", F.lit(1))), "DATATYPE_MISMATCH")
    diff_error(lambda s: nested(s).select(F.col("a").dropFields("b", "c", "d")), "DATATYPE_MISMATCH")
    diff_error(lambda s: nested(s).select(F.col("a").withField("q.r", F.lit(1))), "FIELD_NOT_FOUND")


# --- smaller items ---------------------------------------------------------------------------

def test_with_columns_renamed_applies_in_order(cdiff):
    cdiff(lambda s: s.range(3).withColumnsRenamed({"id": "a", "a": "b"}))
    cdiff(lambda s: s.range(3).withColumnsRenamed({"a": "b", "id": "a"}))
    cdiff(lambda s: s.createDataFrame([(1, 2)], "x int, y int").withColumnsRenamed({"x": "y", "y": "z"}))


def regex_frame(s):
    return s.createDataFrame([(1, 2, 3)], ["Col1", "col2", "x"])


@pytest.mark.parametrize("name", ["`col.*`", "`(Col1)?.+`", "`Col1`", "Col1", "`zz`", "`.`"])
def test_col_regex(cdiff, name):
    cdiff(lambda s: (lambda df: df.select(df.colRegex(name)))(regex_frame(s)))


def test_col_regex_qualified_and_mixed(cdiff):
    cdiff(lambda s: (lambda t: t.select(t.colRegex("t.`c.*`")))(regex_frame(s).alias("t")))
    cdiff(lambda s: (lambda t: t.select(t.colRegex("u.`c.*`"), "x"))(regex_frame(s).alias("t")))
    cdiff(lambda s: (lambda df: df.select(df.colRegex("`x`"), "Col1"))(regex_frame(s)))
    # Over a join the regex matches the join's columns, whichever DataFrame it came from.
    def joined(s):
        df = regex_frame(s)
        other = s.createDataFrame([(1, 5)], ["Col1", "y"])
        return df.join(other, "Col1").select(other.colRegex("`.*`"))
    cdiff(joined)
    cdiff(lambda s: (lambda df: df.select(F.count(df.colRegex("`col.*`"))))(regex_frame(s)))


def test_col_regex_errors(cdiff_error):
    cdiff_error(lambda s: (lambda df: df.select(df.colRegex("zz")))(regex_frame(s)),
                "CANNOT_RESOLVE_DATAFRAME_COLUMN")
    cdiff_error(lambda s: (lambda df: df.groupBy(df.colRegex("`col.*`")).count())(regex_frame(s)),
                "INVALID_USAGE_OF_STAR_OR_REGEX")
    cdiff_error(lambda s: regex_frame(s).groupBy("*").count(), "INVALID_USAGE_OF_STAR_OR_REGEX")


def test_show_string_footer(connect_differ):
    # Spark 4.3's Connect server ends the footer without a newline, in show() and in the
    # eager-evaluation repr alike.
    diff_show = connect_differ.diff_show
    diff_show(lambda s: s.range(5), n=1)
    diff_show(lambda s: s.range(5), n=2, vertical=True)
    diff_show(lambda s: s.range(0), vertical=True)
    diff_show(lambda s: s.range(2), n=5)


def test_eager_eval_repr(ember, connect_oracle):
    def text(s):
        df = s.createDataFrame([(1, "1"), (22222, "22222")], ("key", "value"))
        s.conf.set("spark.sql.repl.eagerEval.enabled", "true")
        s.conf.set("spark.sql.repl.eagerEval.maxNumRows", "1")
        try:
            return repr(df)
        finally:
            s.conf.unset("spark.sql.repl.eagerEval.enabled")
            s.conf.unset("spark.sql.repl.eagerEval.maxNumRows")
    assert text(ember) == text(connect_oracle)


def test_alias_metadata(ember, connect_oracle):
    def metadata(s):
        df = s.createDataFrame([("",)], ["a"])
        out = []
        df = df.withMetadata("a", {"foo": "bar"})
        out.append(df.schema["a"].metadata)
        out.append(df.select("a", F.col("a").alias("b")).schema["b"].metadata)
        df = df.select([F.col("a").alias("a", metadata={})])
        out.append(df.schema["a"].metadata)
        df = df.withMetadata("a", {"baz": "burr"})
        out.append(df.select(F.concat(F.col("a"), F.lit("x")).alias("c"), "a").schema.jsonValue())
        return out

    def run(s):
        with session_mode(s):
            return metadata(s)
    assert run(ember) == run(connect_oracle)


# --- HtmlString (the eager-evaluation _repr_html_) ----------------------------------------------

def html_text(s, df, num_rows, truncate):
    from pyspark.sql.connect import plan
    from pyspark.sql.connect.dataframe import DataFrame
    table, _ = DataFrame(plan.HtmlString(child=df._plan, num_rows=num_rows, truncate=truncate),
                         session=s)._to_table()
    return table.schema.field(0).name, table[0][0].as_py()


def test_html_string(ember, connect_oracle):
    def texts(s):
        df = s.createDataFrame(
            [("<a&b>\"'x\ny", None, "éü€αΩ→≤♥ “q” ŒšŸ ˆ˜ ‰ ©®™ ½ ÿ ñ 中文 \u00a0\u2003 ∀∑ ♦ ⌈⌋ ϑ", [1, 2]),
             ("plain", 7, "", [])],
            "`k<&>` string, n int, u string, arr array<int>")
        out = [html_text(s, df, n, t) for n, t in ((20, 20), (0, 20), (1, 0), (5, 3), (2, 5), (1, 20))]
        out.append(html_text(s, s.range(3), 2, 20))
        out.append(html_text(s, s.range(0), 2, 20))
        return out
    assert texts(ember) == texts(connect_oracle)


def test_eager_eval_repr_html(ember, connect_oracle):
    def html(s):
        df = s.createDataFrame([(1, "1"), (22222, "22222")], ("key", "value"))
        out = [df._repr_html_()]
        s.conf.set("spark.sql.repl.eagerEval.enabled", "true")
        try:
            out.append(df._repr_html_())
            s.conf.set("spark.sql.repl.eagerEval.truncate", "3")
            out.append(df._repr_html_())
            s.conf.set("spark.sql.repl.eagerEval.maxNumRows", "1")
            out.append(df._repr_html_())
        finally:
            for key in ("enabled", "truncate", "maxNumRows"):
                s.conf.unset("spark.sql.repl.eagerEval." + key)
        return out
    assert html(ember) == html(connect_oracle)


# --- checkpoint / localCheckpoint ---------------------------------------------------------------

def explain_text(df, mode=None):
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.explain(mode) if mode else df.explain()
    return buffer.getvalue()


def local_checkpoint(s, df, **kwargs):
    """df.localCheckpoint(...) on session `s`. The client binds the DataFrame it gets back to
    its active session, a role this suite's two Connect sessions take in turn."""
    holder = type(s)._active_session
    saved = getattr(holder, "session", None)
    holder.session = s
    try:
        return df.localCheckpoint(**kwargs)
    finally:
        holder.session = saved


def test_local_checkpoint_results(cdiff):
    def source(s):
        return s.createDataFrame([(1, "a"), (2, None), (3, "c")], "k int, v string") \
            .withColumn("k2", F.col("k") * 2)
    cdiff(lambda s: local_checkpoint(s, source(s)))
    cdiff(lambda s: local_checkpoint(s, source(s), eager=False))
    cdiff(lambda s: local_checkpoint(s, source(s)).filter(F.col("k") > 1).select("v", "k2"))
    cdiff(lambda s: local_checkpoint(s, source(s), eager=False).groupBy().agg(F.sum("k2")))

    def self_join(s):
        c = local_checkpoint(s, source(s))
        other = c.select(c.k.alias("kk"), c.v)
        return c.join(other, c.k == other.kk).select(c.k, other.v)
    cdiff(self_join)


def test_local_checkpoint_storage_level(cdiff):
    from pyspark import StorageLevel
    for level in (StorageLevel.DISK_ONLY, StorageLevel.MEMORY_ONLY, StorageLevel.MEMORY_AND_DISK_2):
        cdiff(lambda s, level=level: local_checkpoint(
            s, s.range(5).withColumn("x", F.col("id") + 1), storageLevel=level))
        cdiff(lambda s, level=level: local_checkpoint(s, s.range(5), eager=False, storageLevel=level))


def test_local_checkpoint_keeps_its_rows(ember, connect_oracle):
    # A checkpoint is computed once: a nondeterministic column keeps its values afterwards,
    # whether it was computed when checkpointed (eager) or by the first query (lazy).
    def stable(s):
        with session_mode(s):
            return stable_rows(s)

    def stable_rows(s):
        out = []
        for eager in (True, False):
            c = local_checkpoint(s, s.range(50).withColumn("r", F.rand()), eager=eager)
            first = c.collect()
            out.append(first == c.collect() and len(first) == 50)
            out.append(c.schema.simpleString())
        return out
    assert stable(ember) == stable(connect_oracle) == [True, "struct<id:bigint,r:double>"] * 2


def test_local_checkpoint_explain(ember, connect_oracle):
    for s in (ember, connect_oracle):
        text = explain_text(local_checkpoint(s, s.range(3)))
        assert "ExistingRDD" in text, text
        assert "LogicalRDD [id" in explain_text(local_checkpoint(s, s.range(3)), "extended")


def test_checkpoint_errors(ember, connect_oracle, cdiff_error):
    # A reliable checkpoint needs a checkpoint directory, which neither server was given.
    first = same_unclassified_error(ember, connect_oracle, lambda s: s.range(3).checkpoint())
    assert first.startswith("Checkpoint directory has not been set")
    cdiff_error(lambda s: local_checkpoint(s, s.range(3), eager=False).select("nope"),
                "UNRESOLVED_COLUMN")
    cdiff_error(lambda s: local_checkpoint(s, s.range(3).select("nope"), eager=False),
                "UNRESOLVED_COLUMN")


def test_removed_checkpoint_is_gone(ember, connect_oracle):
    from pyspark.sql.connect import plan
    from pyspark.sql.connect.dataframe import DataFrame

    def program(s):
        c = local_checkpoint(s, s.range(3))
        relation_id = c._plan._relation_id
        assert c.count() == 3
        c.unpersist()  # not a release: the rows stay
        assert c.count() == 3
        c._plan.__del__()  # what the client sends once the DataFrame is garbage
        return DataFrame(plan.CachedRemoteRelation(relation_id, s), s)

    def condition(s):
        with session_mode(s):
            e = run_for_error("engine", program, s)
        return e.getCondition(), str(e).splitlines()[0].split(" is found")[0]
    ember_class, ember_text = condition(ember)
    oracle_class, oracle_text = condition(connect_oracle)
    assert ember_class == oracle_class == "CONNECT_INVALID_PLAN.DATAFRAME_NOT_FOUND"
    assert ember_text.split("No DataFrame")[0] == oracle_text.split("No DataFrame")[0]


# --- df["*"] over USING joins -------------------------------------------------------------------

def using_sides(s):
    df1 = s.createDataFrame([(1, 10), (2, 20)], "a long, x long")
    df2 = s.createDataFrame([(1, "v"), (3, "w")], "a long, b string")
    return df1, df2


@pytest.mark.parametrize("how", ["inner", "left", "right", "full"])
def test_frame_star_over_using_join(cdiff, cdiff_error, how):
    def star(pick):
        def program(s):
            df1, df2 = using_sides(s)
            return pick(df1, df2, df1.join(df2, "a", how))
        return program
    cdiff(star(lambda df1, df2, j: j.select(df2["*"])))
    cdiff(star(lambda df1, df2, j: j.select(df1["*"])))
    cdiff(star(lambda df1, df2, j: j.withColumn("c", F.lit(0)).select(df2["*"], "c")))
    cdiff(star(lambda df1, df2, j: j.select(df2["*"], df1["*"], j.a)))
    # A USING join keeps the other side's key columns hidden, and hidden columns pass through
    # later projections; a column the join shows and a projection drops is gone.
    after_projection = star(lambda df1, df2, j: j.select("b").select(df2["*"]))
    if how == "right":
        cdiff_error(after_projection, "CANNOT_RESOLVE_DATAFRAME_COLUMN")
    else:
        cdiff(after_projection)


def test_frame_star_over_using_join_columns(ember, connect_oracle):
    def columns(s):
        df1 = s.createDataFrame([(1,)], "a long")
        df2 = s.createDataFrame([(1, "v")], "a long, b string")
        out = []
        for j in (df1.join(df2, "a"), df1.join(df2, "a").withColumn("c", F.lit(0)),
                  df1.join(df2, ["a"], "left_outer")):
            out.append((j.columns, j.select(df1["*"]).columns, j.select(df2["*"]).columns))
        return out
    assert columns(ember) == columns(connect_oracle)


@pytest.mark.parametrize("how", ["inner", "left", "right", "full"])
def test_frame_column_over_using_join(cdiff, how):
    # The side's own key column, hidden by the USING join, with that side's values (null where
    # an outer join found no row on it).
    def program(s):
        df1, df2 = using_sides(s)
        return df1.join(df2, "a", how).select(df1.a.alias("l"), df2.a.alias("r"), df2.b)
    cdiff(program)


def test_frame_star_unresolved_messages(ember, connect_oracle):
    def messages(s):
        df1, df2 = using_sides(s)
        programs = (lambda: df1.join(df2, "a").groupBy().count().select(df2["*"]),
                    lambda: s.range(2).select(df1["*"]),
                    lambda: df1.join(df1).select(df1["*"]))
        out = []
        for program in programs:
            with pytest.raises(Exception) as info:
                program().collect()
            out.append((info.value.getCondition(), str(info.value).splitlines()[0]))
        return out
    assert messages(ember) == messages(connect_oracle)


# --- hints --------------------------------------------------------------------------------------

def plan_lines(text, words):
    """The lines of an explain text whose operator is one of `words`, without tree prefixes,
    attribute ids, Spark's physical plan ids and adaptive-execution wrappers."""
    import re
    out = []
    for line in text.splitlines():
        line = re.sub(r"^[\s:+\-|]*(\*\(\d+\) )?", "", line)
        line = re.sub(r"#\d+L?", "", line)
        line = re.sub(r", \[plan_id=\d+\]", "", line)
        if line.split(" ")[0].lstrip("!") in words:
            out.append(line)
    return out


HINT_WORDS = {"UnresolvedHint", "ResolvedHint", "Repartition", "RepartitionByExpression",
              "RebalancePartitions", "Coalesce", "Exchange"}


@pytest.fixture
def no_adaptive(ember, connect_oracle):
    # Spark's physical plans then show the exchanges themselves; the default partition count
    # shows in them too.
    for s in (ember, connect_oracle):
        s.conf.set("spark.sql.adaptive.enabled", "false")
        s.conf.set("spark.sql.shuffle.partitions", "3")
    yield
    for s in (ember, connect_oracle):
        s.conf.unset("spark.sql.adaptive.enabled")
        s.conf.unset("spark.sql.shuffle.partitions")


def test_hints_in_explain(no_adaptive, ember, connect_oracle):
    def plans(s):
        df = s.createDataFrame([("A", 1), ("B", 2)], "a string, n int")
        frames = [
            df.hint("coalesce", 2),
            df.hint("REPARTITION", 3),
            df.hint("repartition", 3, "a", F.col("n")),
            df.hint("REPARTITION", "a"),
            df.hint("REPARTITION_BY_RANGE", 2, "a"),
            df.hint("REPARTITION_BY_RANGE", 2),
            df.hint("REBALANCE", 2, "a"),
            df.hint("broadcast"),
            df.hint("merge").hint("SHUFFLE_HASH"),
            df.hint("broadcast", "foo", "bar"),
            df.hint("my awesome hint", 1.2345, "what", ["itworks1", "itworks2"], [1, 2, 3]),
            df.repartition(4),
            df.coalesce(1),
            df.repartition(2, "n"),
            df.repartitionByRange(3, F.col("a").desc()),
        ]
        return [plan_lines(explain_text(f, "extended"), HINT_WORDS) for f in frames]

    def run(s):
        with session_mode(s):
            return plans(s)
    assert run(ember) == run(connect_oracle)


def test_hints_keep_results(cdiff):
    def frame(s):
        return s.createDataFrame([("A", 1), ("B", 2), ("A", 3)], "a string, n int")
    cdiff(lambda s: frame(s).hint("coalesce", 2))
    cdiff(lambda s: frame(s).hint("REPARTITION_BY_RANGE", 2, "a").select("n"))
    cdiff(lambda s: frame(s).hint("rebalance", "a").groupBy("a").count())
    cdiff(lambda s: frame(s).join(frame(s).hint("broadcast"), "a"))
    cdiff(lambda s: frame(s).hint("whatever", 1, "x").filter("n > 1"))


def test_hint_parameter_errors(cdiff_error):
    def frame(s):
        return s.createDataFrame([("A", 1)], "a string, n int")
    for params in (("coalesce",), ("COALESCE", "a"), ("coalesce", 2, 3)):
        cdiff_error(lambda s, p=params: frame(s).hint(*p), "_LEGACY_ERROR_TEMP_1048")
    for params in (("repartition", 1.5), ("REPARTITION_BY_RANGE", "a", 2), ("repartition", 2, 3),
                   ("REBALANCE", "a", 2)):
        cdiff_error(lambda s, p=params: frame(s).hint(*p), "_LEGACY_ERROR_TEMP_1047")
    cdiff_error(lambda s: frame(s).hint("broadcast", 1), "_LEGACY_ERROR_TEMP_1046")
    cdiff_error(lambda s: frame(s).hint("repartition", "zz"), "UNRESOLVED_COLUMN")


def test_hint_partition_number_must_be_positive(ember, connect_oracle):
    for params in (("coalesce", 0), ("repartition", -1)):
        first = same_unclassified_error(ember, connect_oracle, lambda s, p=params: s.range(3).hint(*p))
        assert "must be positive" in first


# --- duplicate struct field names -------------------------------------------------------------

def test_duplicate_struct_field_names(ember, connect_oracle):
    # Results travel with distinct Arrow field names (x_0, x_1, ...); the schema message keeps
    # the real ones, and rows come back with them.
    def program(s):
        df = s.sql("SELECT named_struct('x', 'a', 'x', 1) AS s, "
                   "named_struct('a', 1, 'x', 2, 'x', 'b', 'y', 3, 'y', 'c', 'x', 'd') AS s, "
                   "array(named_struct('k', 1, 'k', 2)) AS arr, "
                   "map(1, named_struct('q', 1, 'q', named_struct('z', 1, 'z', 2))) AS m")
        table, _ = df._to_table()
        return str(table.schema), df.schema.simpleString(), df.collect()
    assert program(ember) == program(connect_oracle)

    def created(s):
        from pyspark.sql import Row
        from pyspark.sql.types import IntegerType, StringType, StructType
        schema = (StructType()
                  .add("t", StructType().add("x", StringType()).add("x", IntegerType()))
                  .add("u", StructType().add("y", IntegerType()).add("x", StringType())
                       .add("y", StringType())))
        df = s.createDataFrame([Row(Row("a", 1), Row(2, "b", "c")), Row(None, Row(None, None, "d"))],
                               schema=schema)
        return df.schema == schema, df.collect()
    assert created(ember) == created(connect_oracle)


def test_core_settings_cannot_change(ember, connect_oracle):
    # spark.checkpoint.dir (which checkpoint() needs) and the like belong to the SparkContext.
    def outcome(s):
        out = []
        for key in ("spark.checkpoint.dir", "spark.executor.memory", "spark.task.cpus",
                    "spark.some.other.setting"):
            try:
                s.conf.set(key, "1")
                s.conf.unset(key)
                out.append((key, "ok"))
            except Exception as e:  # noqa: BLE001 - the error is the result
                out.append((key, e.getCondition(), e.getMessageParameters(), str(e).split(" SQLSTATE")[0]))
        return out
    assert outcome(ember) == outcome(connect_oracle)


def test_session_builder_skips_what_it_cannot_set(ember, connect_oracle):
    # The builder's settings go with `silent`: a session starts even when one cannot be set.
    from pyspark.sql.connect.session import SparkSession as RemoteSparkSession

    def start(s):
        url = "sc://" + s.client._builder.url.netloc
        session = (RemoteSparkSession.builder.remote(url)
                   .config("spark.executor.memory", "2g")
                   .config("spark.sql.warehouse.dir", "/nowhere")
                   .config("spark.sql.shuffle.partitions", "7").create())
        try:
            return session.range(3).count(), session.conf.get("spark.sql.shuffle.partitions")
        finally:
            session.client.close()
    assert start(ember) == start(connect_oracle) == (3, "7")
