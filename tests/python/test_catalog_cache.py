"""Differential tests of the catalog's cache bookkeeping — spark.catalog.cacheTable,
uncacheTable, clearCache and isCached, and SQL's CACHE / UNCACHE / CLEAR CACHE — Ember against
Apache Spark."""

from __future__ import annotations


def cache_states(s):
    """Runs a sequence of cache calls and returns what isCached said after each step."""
    names = ["cc_t1", "cc_t2", "cc_t3"]
    for i, name in enumerate(names):
        s.createDataFrame([(2, i), (3, i)], "a int, b int").createOrReplaceTempView(name)
    states = []

    def record():
        states.append(tuple(s.catalog.isCached(n) for n in names))

    try:
        record()
        s.catalog.cacheTable("cc_t1")
        s.catalog.cacheTable("CC_T3")
        record()
        s.catalog.cacheTable("cc_t2")
        s.catalog.uncacheTable("cc_t1")
        s.catalog.uncacheTable("cc_t3")
        record()
        s.catalog.clearCache()
        record()
        s.sql("CACHE TABLE cc_t1")
        s.sql("CACHE LAZY TABLE cc_t2")
        record()
        s.sql("UNCACHE TABLE cc_t1")
        record()
        # Replacing a cached view uncaches it.
        s.createDataFrame([(1, 1)], "a int, b int").createOrReplaceTempView("cc_t2")
        record()
        s.sql("CACHE TABLE cc_t4 AS SELECT 1 AS x")
        states.append((s.catalog.isCached("cc_t4"),))
        s.sql("CLEAR CACHE")
        states.append((s.catalog.isCached("cc_t4"),))
    finally:
        s.catalog.clearCache()
        for n in names + ["cc_t4"]:
            s.catalog.dropTempView(n)
    return s.createDataFrame([(i, str(st)) for i, st in enumerate(states)], "step int, state string")


def test_cache_bookkeeping(diff):
    diff(cache_states)


def test_cache_errors(diff_error):
    diff_error(lambda s: s.catalog.isCached("cc_does_not_exist"), "TABLE_OR_VIEW_NOT_FOUND")
    diff_error(lambda s: s.catalog.cacheTable("cc_does_not_exist"), "TABLE_OR_VIEW_NOT_FOUND")
    diff_error(lambda s: s.catalog.uncacheTable("cc_does_not_exist"), "TABLE_OR_VIEW_NOT_FOUND")
