"""spark.sql(), SQL expression strings and spark.catalog through Spark Connect,
against Apache Spark."""

from __future__ import annotations

from pyspark.sql import functions as F

from harness import session_mode


def test_sql_queries_and_parameters(diff):
    diff(lambda s: s.sql("SELECT 1 AS a, 'x' AS b"), ordered=True)
    diff(lambda s: s.sql("SELECT id FROM range(10) WHERE id > :lo AND id < :hi",
                         args={"lo": 2, "hi": 6}), ordered=False)
    diff(lambda s: s.sql("SELECT id FROM range(10) WHERE id > ? ORDER BY id", args=[7]),
         ordered=True)


def test_sql_commands_run_eagerly(diff):
    def program(spark):
        spark.sql("CREATE OR REPLACE TEMP VIEW sql_view AS SELECT id * 2 AS d FROM range(4)")
        return spark.table("sql_view")

    diff(program, ordered=False)


def test_expression_strings(diff):
    diff(lambda s: s.range(6).selectExpr("id + 1 AS x", "id * 2").filter("x > 3"), ordered=False)
    diff(lambda s: s.range(3).select(F.expr("id * 10").alias("z")), ordered=False)


def test_sql_errors(diff_error):
    diff_error(lambda s: s.sql("SELEC 1"), "PARSE_SYNTAX_ERROR")
    diff_error(lambda s: s.sql("SELECT nope FROM range(1)"), "UNRESOLVED_COLUMN")


def test_catalog(ember, oracle):
    def answers(spark):
        with session_mode(spark):
            spark.range(3).createOrReplaceTempView("CatalogView")
            c = spark.catalog
            result = [
                c.currentDatabase(), c.currentCatalog(), c.databaseExists("default"),
                c.databaseExists("nope"), [d.name for d in c.listDatabases()],
                c.listTables(pattern="catalog*"), c.listTables(pattern="CATALOG.IEW|none"),
                c.listTables(pattern="catalogvie"), c.tableExists("catalogview"),
                c.tableExists("nope"), c.listColumns("CatalogView"), c.getTable("CatalogView"),
                c.isCached("CatalogView"),
            ]
            c.cacheTable("CatalogView")
            c.uncacheTable("CatalogView")
            c.clearCache()
            result += [c.dropTempView("CatalogView"), c.dropTempView("CatalogView")]
            return result

    assert answers(ember) == answers(oracle)
