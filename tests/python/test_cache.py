"""Differential tests of caching: DataFrame.cache / persist / unpersist / storageLevel, SQL's
CACHE [LAZY] TABLE / UNCACHE TABLE / CLEAR CACHE and the catalog's cacheTable / isCached,
Ember against Apache Spark. Results must not depend on the cache; what shows that the cache is
read (rows kept after the files under them change, a refresh after INSERT) is compared with
what Spark does."""

from __future__ import annotations

import os
import shutil

import pytest
from pyspark import StorageLevel
from pyspark.sql import functions as F

from harness import session_mode


@pytest.fixture
def both(differ):
    """both(fn): fn(spark) on the oracle and on Ember give equal plain results."""

    def check(fn):
        with session_mode(differ.oracle):
            expected = fn(differ.oracle)
        with session_mode(differ.ember):
            actual = fn(differ.ember)
        assert actual == expected
        return expected

    return check


def test_cached_results_equal_uncached(diff):
    def cached_aggregate(s):
        s.catalog.clearCache()
        df = s.range(1000).withColumn("k", (F.col("id") % 7).cast("int")).cache()
        df.count()
        return df.groupBy("k").agg(F.sum("id").alias("s"), F.count("*").alias("n"))

    def persisted_join(s):
        s.catalog.clearCache()
        left = s.createDataFrame([(1, "a"), (2, "b"), (3, None)], "k int, v string")
        left.persist(StorageLevel.DISK_ONLY)
        right = left.select(F.col("k").alias("k2"), F.upper("v").alias("u"))
        return left.join(right, left.k == right.k2).select("k", "v", "u")

    def pruned_columns(s):
        s.catalog.clearCache()
        df = s.range(20).selectExpr("id", "id * 2 AS twice", "cast(id AS string) AS text").cache()
        return df.filter("id > 10").select("text")

    def cached_then_unpersisted(s):
        s.catalog.clearCache()
        df = s.range(5).selectExpr("id", "id + 1 AS next").cache()
        df.collect()
        df.unpersist()
        return df.union(df)

    for program in (cached_aggregate, persisted_join, pruned_columns, cached_then_unpersisted):
        diff(program)


def test_cache_is_read_after_files_change(both, tmp_path):
    """A cached DataFrame keeps its rows when the files it read are replaced behind the
    engine's back; a new read (after unpersist) sees the new files."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def program(s):
        path = str(tmp_path / ("files_" + type(s).__module__.replace(".", "_")))
        shutil.rmtree(path, ignore_errors=True)
        s.range(3).write.parquet(path)
        df = s.read.parquet(path).cache()
        first = sorted(r.id for r in df.collect())
        shutil.rmtree(path)
        os.makedirs(path)
        pq.write_table(pa.table({"id": pa.array([100, 101], pa.int64())}), path + "/part-0.parquet")
        kept = sorted(r.id for r in df.collect())
        total = df.agg(F.sum("id")).collect()[0][0]
        df.unpersist()
        fresh = sorted(r.id for r in s.read.parquet(path).collect())
        return first, kept, total, fresh

    assert both(program) == ([0, 1, 2], [0, 1, 2], 3, [100, 101])


def test_insert_and_drop_refresh_cached_tables(both):
    def program(s):
        out = []
        s.sql("DROP TABLE IF EXISTS cache_t").collect()
        s.sql("CREATE TABLE cache_t (a INT) USING parquet").collect()
        s.sql("INSERT INTO cache_t VALUES (1), (2)").collect()
        s.sql("CACHE TABLE cache_t").collect()
        out.append(sorted(r.a for r in s.table("cache_t").collect()))
        s.sql("INSERT INTO cache_t VALUES (3)").collect()
        out.append(sorted(r.a for r in s.sql("SELECT a FROM cache_t").collect()))
        out.append(s.catalog.isCached("cache_t"))
        s.sql("INSERT OVERWRITE cache_t VALUES (9)").collect()
        out.append(sorted(r.a for r in s.table("cache_t").collect()))
        s.sql("DROP TABLE cache_t").collect()
        s.sql("CREATE TABLE cache_t (a INT) USING parquet").collect()
        out.append(s.catalog.isCached("cache_t"))
        out.append(s.table("cache_t").count())
        s.sql("DROP TABLE cache_t").collect()
        return out

    assert both(program) == [[1, 2], [1, 2, 3], True, [9], False, 0]


def test_writes_over_paths_refresh_cached_reads(both, tmp_path):
    def program(s):
        path = str(tmp_path / ("write_" + type(s).__module__.replace(".", "_")))
        s.range(3).write.mode("overwrite").parquet(path)
        df = s.read.parquet(path).cache()
        before = df.count()
        s.range(10, 15).write.mode("append").parquet(path)
        after = df.count()
        df.unpersist()
        return before, after

    assert both(program) == (3, 8)


def test_storage_levels(ember, connect_oracle):
    def levels(s):
        s.catalog.clearCache()
        out = []
        df = s.range(10).selectExpr("id", "id % 3 AS k")
        out.append(str(df.storageLevel))
        df.persist(StorageLevel.DISK_ONLY_2)
        out.append(str(df.storageLevel))
        df.cache()  # already cached: the level stays
        out.append(str(df.storageLevel))
        # The same computation built again finds the entry.
        out.append(str(s.range(10).selectExpr("id", "id % 3 AS k").storageLevel))
        df.unpersist()
        out.append(str(df.storageLevel))
        s.range(4).createOrReplaceTempView("cache_v")
        s.sql("CACHE LAZY TABLE cache_v OPTIONS ('storageLevel' 'MEMORY_ONLY')").collect()
        out.append(str(s.table("cache_v").storageLevel))
        out.append(s.catalog.isCached("cache_v"))
        s.catalog.uncacheTable("cache_v")
        s.table("cache_v").persist(StorageLevel.MEMORY_AND_DISK)
        out.append(s.catalog.isCached("cache_v"))
        s.catalog.dropTempView("cache_v")
        out.append(str(df.storageLevel))
        s.catalog.clearCache()
        return out

    with session_mode(connect_oracle):
        expected = levels(connect_oracle)
    with session_mode(ember):
        actual = levels(ember)
    assert actual == expected


def explain_text(df, mode=None):
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.explain(mode) if mode else df.explain()
    return buffer.getvalue()


def test_explain_shows_in_memory_relation(ember, connect_oracle):
    for s in (ember, connect_oracle):
        with session_mode(s):
            s.catalog.clearCache()
            df = s.range(10).selectExpr("id", "id * 2 AS d")
            assert "InMemory" not in explain_text(df)
            df.cache()
            simple = explain_text(df.filter("id > 3"))
            assert "InMemoryTableScan" in simple, simple
            assert "InMemoryRelation" in simple, simple
            assert "StorageLevel(disk, memory, deserialized, 1 replicas)" in simple, simple
            extended = explain_text(df, "extended")
            optimized = extended.split("== Optimized Logical Plan ==")[1].split("== Physical Plan ==")[0]
            assert optimized.lstrip().startswith("InMemoryRelation [id"), extended
            df.unpersist()
            assert "InMemory" not in explain_text(df)


def test_sql_cache_statements(diff, diff_error):
    def program(s):
        s.catalog.clearCache()
        s.sql("DROP VIEW IF EXISTS cache_q").collect()
        s.sql("CACHE TABLE cache_q AS SELECT id, id * id AS sq FROM range(6)").collect()
        return s.sql("SELECT sum(sq) AS total, count(*) AS n FROM cache_q WHERE id > 1")

    diff(program)
    diff_error(lambda s: s.sql("UNCACHE TABLE cache_missing").collect(), "TABLE_OR_VIEW_NOT_FOUND")
    diff_error(lambda s: s.sql("CACHE TABLE cache_missing").collect(), "TABLE_OR_VIEW_NOT_FOUND")


def test_uncache_if_exists_and_clear(both):
    def program(s):
        s.sql("UNCACHE TABLE IF EXISTS cache_never").collect()
        s.range(3).createOrReplaceTempView("cache_w")
        s.sql("CACHE TABLE cache_w").collect()
        states = [s.catalog.isCached("cache_w")]
        s.sql("CLEAR CACHE").collect()
        states.append(s.catalog.isCached("cache_w"))
        s.catalog.dropTempView("cache_w")
        s.catalog.dropTempView("cache_q")
        return states

    assert both(program) == [True, False]


def test_cached_random_values(ember, connect_oracle):
    """A random column keeps its values once cached: a view of SQL's rand() (one analyzed plan)
    reads the same rows in every query while cached; a SQL query sent again draws a new seed
    each time, so it never matches the cached plan, as in Spark."""

    def program(s):
        s.catalog.clearCache()
        s.sql("SELECT id, rand() AS r FROM range(1000)").createOrReplaceTempView("cache_rand")
        view = s.table("cache_rand")
        s.sql("CACHE TABLE cache_rand").collect()
        first = view.collect()
        out = [first == view.collect()]
        out.append(sorted(first) == sorted(s.sql("SELECT * FROM cache_rand WHERE r >= 0").collect()))
        s.sql("UNCACHE TABLE cache_rand").collect()
        query = s.sql("SELECT id, rand() AS r FROM range(1000)")
        query.cache()
        out.append(query.collect() == query.collect())
        out.append(query.storageLevel.useMemory)
        query.unpersist()
        s.catalog.dropTempView("cache_rand")
        return out

    with session_mode(connect_oracle):
        expected = program(connect_oracle)
    with session_mode(ember):
        actual = program(ember)
    assert actual == expected == [True, True, False, False]


def test_replacing_a_view_of_client_decimals_while_data_is_cached(diff):
    # Replacing a view compares its old and new plans for the cache; client rows sent as Arrow
    # IPC hold decimals in buffers that need not be 16-byte aligned.
    from decimal import Decimal

    def program(s):
        s.range(7).cache().count()
        rows = [(Decimal("1.10"), 2), (None, 5), (Decimal("-2.55"), None)]
        for _ in range(3):
            s.createDataFrame(rows, "a decimal(16,2), i int").createOrReplaceTempView("cached_dec_t")
        out = s.sql("SELECT a, i FROM cached_dec_t")
        s.catalog.clearCache()
        return out

    diff(program)
