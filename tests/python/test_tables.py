"""Differential tests of persistent managed tables (spark_catalog): CREATE TABLE [AS SELECT],
INSERT INTO / OVERWRITE (partitions static and dynamic), DROP / TRUNCATE / RENAME, SHOW and
DESCRIBE, databases, DataFrameWriter.saveAsTable / insertInto, DataFrameWriterV2 and
spark.catalog. Each engine has its own warehouse directory (see conftest); every program first
drops what it creates, so it can run on both. One test restarts an Ember server on the same
warehouse and reads the tables back."""

from __future__ import annotations

import pytest

from conftest import EmberServer, ember_binary
from harness import session_mode


def run_sql(spark, *statements):
    for s in statements:
        spark.sql(s).collect()


def fresh(spark, *tables):
    for t in tables:
        spark.sql(f"DROP TABLE IF EXISTS {t}").collect()


@pytest.fixture
def both(differ):
    """both(fn): runs fn(spark) on the oracle and on Ember and checks the results are equal."""

    def check(fn):
        with session_mode(differ.oracle):
            expected = fn(differ.oracle)
        with session_mode(differ.ember):
            actual = fn(differ.ember)
        assert actual == expected
        return expected

    return check


# ---------------------------------------------------------------------------------------------
# CREATE TABLE, INSERT, SELECT


def test_create_insert_select(diff):
    def program(spark):
        fresh(spark, "tb_basic")
        run_sql(spark,
                "CREATE TABLE tb_basic (a INT, b STRING, c DOUBLE) USING parquet",
                "INSERT INTO tb_basic VALUES (1, 'x', 1.5), (2, NULL, NULL)",
                "INSERT INTO tb_basic SELECT 3, 'z', 2.5",
                "INSERT INTO tb_basic (c, a) VALUES (9.0, 4)",
                "INSERT INTO TABLE tb_basic (SELECT 5, 'five', 5.0)")
        return spark.sql("SELECT * FROM tb_basic")

    diff(program)


def test_empty_table_reads_as_no_rows(diff):
    def program(spark):
        fresh(spark, "tb_empty")
        run_sql(spark, "CREATE TABLE tb_empty (a INT, s STRING) USING parquet")
        return spark.table("tb_empty")

    diff(program)


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_formats_round_trip(diff, fmt):
    def program(spark):
        fresh(spark, f"tb_fmt_{fmt}")
        run_sql(spark,
                f"CREATE TABLE tb_fmt_{fmt} (id BIGINT, s STRING, d DATE, v DECIMAL(10,2)) "
                f"USING {fmt}",
                f"INSERT INTO tb_fmt_{fmt} VALUES (1, 'a,b', DATE'2024-01-02', 1.25), "
                "(2, NULL, NULL, NULL)")
        return spark.table(f"tb_fmt_{fmt}")

    diff(program)


def test_ctas_and_filter_on_partition_column(diff):
    def program(spark):
        fresh(spark, "tb_ctas")
        run_sql(spark,
                "CREATE TABLE tb_ctas USING parquet PARTITIONED BY (k) AS "
                "SELECT id, CAST(id % 3 AS INT) AS k, CAST(id AS STRING) AS s FROM range(20)")
        return spark.sql("SELECT * FROM tb_ctas WHERE k = 1 AND id > 5")

    diff(program)


def test_ctas_schema_puts_partition_columns_last(diff):
    def program(spark):
        fresh(spark, "tb_ctas_order")
        run_sql(spark,
                "CREATE TABLE tb_ctas_order USING parquet PARTITIONED BY (p) AS "
                "SELECT 'x' AS p, 1 AS a, 2L AS b")
        return spark.sql("DESCRIBE tb_ctas_order")

    diff(program, ordered=True)


def test_create_if_not_exists_and_or_replace(diff):
    def program(spark):
        fresh(spark, "tb_replace")
        run_sql(spark,
                "CREATE TABLE tb_replace USING parquet AS SELECT 1 AS a",
                "CREATE TABLE IF NOT EXISTS tb_replace USING parquet AS SELECT 2 AS a",
                "CREATE TABLE IF NOT EXISTS tb_replace (b STRING) USING parquet")
        return spark.table("tb_replace")

    diff(program)


@pytest.mark.parametrize("statements", [
    ["CREATE TABLE tb_replace_old USING parquet AS SELECT 1 AS a",
     "CREATE OR REPLACE TABLE tb_replace_old USING parquet AS SELECT 2 AS a"],
    ["CREATE OR REPLACE TABLE tb_replace_old USING parquet AS SELECT 2 AS a"],
])
def test_replace_table_is_not_supported(diff_error, statements):
    # Spark's session catalog keeps v1 tables, which it cannot replace, existing or not.
    def program(spark):
        fresh(spark, "tb_replace_old")
        run_sql(spark, *statements)

    diff_error(program, "UNSUPPORTED_FEATURE.TABLE_OPERATION")


# ---------------------------------------------------------------------------------------------
# Partitions and overwrite


def test_partitioned_insert_and_show_partitions(diff):
    def program(spark):
        fresh(spark, "tb_part")
        run_sql(spark,
                "CREATE TABLE tb_part (a INT, b STRING, p INT) USING parquet PARTITIONED BY (p)",
                "INSERT INTO tb_part VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', NULL)",
                "INSERT INTO tb_part PARTITION (p = 5) VALUES (9, 'z')",
                "INSERT INTO tb_part PARTITION (p) SELECT 10, 'y', 6")
        return spark.sql("SHOW PARTITIONS tb_part")

    diff(program)


def test_partition_pruned_reads(diff):
    def program(spark):
        fresh(spark, "tb_prune")
        run_sql(spark,
                "CREATE TABLE tb_prune (a INT, p STRING) USING parquet PARTITIONED BY (p)",
                "INSERT INTO tb_prune VALUES (1, 'x'), (2, 'y'), (3, NULL)")
        return spark.sql("SELECT a, p FROM tb_prune WHERE p = 'y' OR p IS NULL")

    diff(program)


def test_insert_overwrite_static_mode(diff):
    def program(spark):
        fresh(spark, "tb_ow_static")
        spark.conf.set("spark.sql.sources.partitionOverwriteMode", "static")
        run_sql(spark,
                "CREATE TABLE tb_ow_static (a INT, p INT) USING parquet PARTITIONED BY (p)",
                "INSERT INTO tb_ow_static VALUES (1, 1), (2, 2), (3, 3)",
                "INSERT OVERWRITE tb_ow_static PARTITION (p = 2) VALUES (20)")
        first = spark.table("tb_ow_static").collect()
        run_sql(spark, "INSERT OVERWRITE tb_ow_static VALUES (7, 7)")
        return spark.createDataFrame(
            [(r.a, r.p, "before") for r in first]
            + [(r.a, r.p, "after") for r in spark.table("tb_ow_static").collect()],
            "a INT, p INT, stage STRING")

    diff(program)


def test_insert_overwrite_dynamic_mode(diff):
    def program(spark):
        fresh(spark, "tb_ow_dyn")
        spark.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
        try:
            run_sql(spark,
                    "CREATE TABLE tb_ow_dyn (a INT, p INT) USING parquet PARTITIONED BY (p)",
                    "INSERT INTO tb_ow_dyn VALUES (1, 1), (2, 2), (3, 3)",
                    "INSERT OVERWRITE tb_ow_dyn VALUES (20, 2), (21, 2), (40, 4)")
        finally:
            spark.conf.unset("spark.sql.sources.partitionOverwriteMode")
        return spark.table("tb_ow_dyn")

    diff(program)


def test_insert_overwrite_unpartitioned(diff):
    def program(spark):
        fresh(spark, "tb_ow")
        run_sql(spark,
                "CREATE TABLE tb_ow (a INT) USING parquet",
                "INSERT INTO tb_ow VALUES (1), (2)",
                "INSERT OVERWRITE TABLE tb_ow SELECT 3")
        return spark.table("tb_ow")

    diff(program)


def test_truncate(diff):
    def program(spark):
        fresh(spark, "tb_trunc")
        run_sql(spark,
                "CREATE TABLE tb_trunc (a INT, p INT) USING parquet PARTITIONED BY (p)",
                "INSERT INTO tb_trunc VALUES (1, 1), (2, 2)",
                "TRUNCATE TABLE tb_trunc",
                "INSERT INTO tb_trunc VALUES (5, 5)")
        return spark.table("tb_trunc")

    diff(program)


# ---------------------------------------------------------------------------------------------
# Store assignment


def test_store_assignment_casts(diff):
    def program(spark):
        fresh(spark, "tb_cast")
        run_sql(spark,
                "CREATE TABLE tb_cast (i INT, s STRING, d DOUBLE, l BIGINT) USING parquet",
                "INSERT INTO tb_cast VALUES (2.7, 1, 3, 4)",
                "INSERT INTO tb_cast SELECT CAST(-1.9 AS DECIMAL(3,1)), DATE'2020-01-02', 1L, 5")
        return spark.table("tb_cast")

    diff(program)


@pytest.mark.parametrize("statement,error_class", [
    ("INSERT INTO tb_err VALUES ('a', 'x')", "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST"),
    ("INSERT INTO tb_err VALUES (true, 'x')", "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST"),
    ("INSERT INTO tb_err VALUES (3000000000, 'x')", "CAST_OVERFLOW_IN_TABLE_INSERT"),
    ("INSERT INTO tb_err VALUES (1)", "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS"),
    ("INSERT INTO tb_err VALUES (1, 'x', 3)", "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS"),
    ("INSERT INTO tb_missing VALUES (1)", "TABLE_OR_VIEW_NOT_FOUND"),
])
def test_insert_errors(diff_error, statement, error_class):
    def program(spark):
        fresh(spark, "tb_err")
        run_sql(spark, "CREATE TABLE tb_err (a INT, b STRING) USING parquet")
        spark.sql(statement).collect()

    diff_error(program, error_class)


def test_failed_insert_leaves_table_unchanged(diff):
    def program(spark):
        fresh(spark, "tb_atomic")
        run_sql(spark, "CREATE TABLE tb_atomic (a INT) USING parquet",
                "INSERT INTO tb_atomic VALUES (1)")
        try:
            spark.sql("INSERT INTO tb_atomic SELECT 10 / (id - 2) FROM range(5)").collect()
        except Exception:  # noqa: BLE001 - both engines fail with DIVIDE_BY_ZERO
            pass
        return spark.table("tb_atomic")

    diff(program)


def test_failed_ctas_leaves_nothing(both):
    def program(spark):
        fresh(spark, "tb_bad_ctas")
        try:
            spark.sql("CREATE TABLE tb_bad_ctas USING parquet AS "
                      "SELECT 1 / (id - 1) AS x FROM range(3)").collect()
        except Exception:  # noqa: BLE001
            pass
        return spark.catalog.tableExists("tb_bad_ctas")

    assert both(program) is False


# ---------------------------------------------------------------------------------------------
# DDL errors


@pytest.mark.parametrize("statements,error_class", [
    (["CREATE TABLE tb_dup (a INT) USING parquet", "CREATE TABLE tb_dup (b INT) USING parquet"],
     "TABLE_OR_VIEW_ALREADY_EXISTS"),
    (["DROP TABLE tb_nope_xyz"], "TABLE_OR_VIEW_NOT_FOUND"),
    (["SELECT * FROM tb_nope_xyz"], "TABLE_OR_VIEW_NOT_FOUND"),
    (["CREATE TABLE tb_dup (a INT, b INT) USING parquet PARTITIONED BY (a, b)"],
     "ALL_PARTITION_COLUMNS_NOT_ALLOWED"),
    (["CREATE TABLE tb_dup (a INT) USING parquet PARTITIONED BY (zz)"], "COLUMN_NOT_DEFINED_IN_TABLE"),
    (["CREATE TABLE tb_dup (a INT) USING parquet", "SHOW PARTITIONS tb_dup"],
     "INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY"),
    (["CREATE TABLE nodb_xyz.t (a INT) USING parquet"], "SCHEMA_NOT_FOUND"),
    (["CREATE TABLE tb_dup USING parquet"], "UNABLE_TO_INFER_SCHEMA"),
])
def test_ddl_errors(diff_error, statements, error_class):
    def program(spark):
        fresh(spark, "tb_dup")
        run_sql(spark, *statements)

    diff_error(program, error_class)


def test_drop_if_exists_and_drop_deletes_data(diff):
    def program(spark):
        fresh(spark, "tb_drop")
        run_sql(spark,
                "DROP TABLE IF EXISTS tb_drop_never",
                "CREATE TABLE tb_drop USING parquet AS SELECT 1 AS a",
                "DROP TABLE tb_drop",
                # A managed table of the same name starts empty: the data went with the drop.
                "CREATE TABLE tb_drop (a INT) USING parquet")
        return spark.table("tb_drop")

    diff(program)


def test_rename(diff):
    def program(spark):
        fresh(spark, "tb_old", "tb_new")
        run_sql(spark,
                "CREATE TABLE tb_old USING parquet AS SELECT 1 AS a",
                "ALTER TABLE tb_old RENAME TO tb_new")
        exists = spark.catalog.tableExists("tb_old")
        return spark.sql(f"SELECT a, {exists} AS old_exists FROM tb_new")

    diff(program)


# ---------------------------------------------------------------------------------------------
# SHOW and DESCRIBE


def test_show_tables_lists_tables_and_temp_views(diff):
    def program(spark):
        fresh(spark, "tb_show_a", "tb_show_b")
        run_sql(spark,
                "CREATE TABLE tb_show_a (a INT) USING parquet",
                "CREATE TABLE tb_show_b (a INT) USING parquet")
        spark.range(1).createOrReplaceTempView("tb_show_v")
        return spark.sql("SHOW TABLES LIKE 'tb_show*'")

    diff(program)


def test_describe_table(diff):
    def program(spark):
        fresh(spark, "tb_desc")
        run_sql(spark, "CREATE TABLE tb_desc (a INT, b STRING, p DATE) USING parquet "
                       "PARTITIONED BY (p) COMMENT 'about'")
        return spark.sql("DESCRIBE tb_desc")

    diff(program, ordered=True)


def test_describe_extended(diff):
    def program(spark):
        from pyspark.sql import functions as F

        fresh(spark, "tb_desc_ext")
        run_sql(spark, "CREATE TABLE tb_desc_ext (a INT, p STRING) USING json "
                       "PARTITIONED BY (p) OPTIONS (k 'v') COMMENT 'hi'")
        # The creation time and the location differ between the engines by nature.
        return (spark.sql("DESCRIBE EXTENDED tb_desc_ext")
                .where(~F.col("col_name").isin("Created Time", "Location")))

    diff(program, ordered=True)


def test_show_create_table_and_columns(diff):
    def program(spark):
        fresh(spark, "tb_ddl")
        run_sql(spark, "CREATE TABLE tb_ddl (a INT, s STRING, p BIGINT) USING parquet "
                       "PARTITIONED BY (p) OPTIONS (compression 'zstd') COMMENT 'c'")
        return spark.sql("SHOW CREATE TABLE tb_ddl").unionByName(
            spark.sql("SHOW COLUMNS IN tb_ddl").withColumnRenamed("col_name", "createtab_stmt"))

    diff(program)


def test_temp_view_shadows_table(diff):
    def program(spark):
        fresh(spark, "tb_shadow")
        run_sql(spark, "CREATE TABLE tb_shadow USING parquet AS SELECT 'table' AS src")
        spark.sql("SELECT 'view' AS src").createOrReplaceTempView("tb_shadow")
        shadowed = spark.table("tb_shadow").collect()[0].src
        spark.catalog.dropTempView("tb_shadow")
        return spark.sql(f"SELECT '{shadowed}' AS first, src AS second FROM default.tb_shadow "
                         "UNION ALL SELECT '-', src FROM tb_shadow")

    diff(program)


# ---------------------------------------------------------------------------------------------
# Databases


def test_databases(diff):
    def program(spark):
        run_sql(spark, "DROP DATABASE IF EXISTS tb_db CASCADE",
                "CREATE DATABASE tb_db COMMENT 'mine'",
                "CREATE DATABASE IF NOT EXISTS tb_db",
                "CREATE TABLE tb_db.t1 USING json AS SELECT 1 AS x",
                "CREATE TABLE spark_catalog.tb_db.t2 (y STRING) USING parquet",
                "INSERT INTO tb_db.t2 VALUES ('b')")
        return (spark.sql("SHOW TABLES IN tb_db")
                .crossJoin(spark.sql("SELECT x, y FROM tb_db.t1, tb_db.t2")))

    diff(program)


def test_use_database_resolves_unqualified_names(diff):
    def program(spark):
        # The session is shared with other tests: a unique table name (a temp view `t` would
        # shadow a table `t`), and the current database restored whatever happens.
        run_sql(spark, "DROP DATABASE IF EXISTS tb_use CASCADE", "CREATE DATABASE tb_use")
        try:
            run_sql(spark, "USE tb_use", "CREATE TABLE tb_use_t (a INT) USING parquet",
                    "INSERT INTO tb_use_t VALUES (7)")
            current = spark.catalog.currentDatabase()
            rows = [r for r in spark.sql("SHOW TABLES").collect() if not r.isTemporary]
        finally:
            run_sql(spark, "USE default")
        return spark.sql(f"SELECT a, '{current}' AS db, {len(rows)} AS n FROM tb_use.tb_use_t")

    diff(program)


@pytest.mark.parametrize("statements,error_class", [
    (["CREATE DATABASE tb_db_err", "CREATE TABLE tb_db_err.t (a INT) USING parquet",
      "DROP DATABASE tb_db_err"], "SCHEMA_NOT_EMPTY"),
    (["CREATE DATABASE tb_db_err", "CREATE DATABASE tb_db_err"], "SCHEMA_ALREADY_EXISTS"),
    (["DROP DATABASE tb_db_never"], "SCHEMA_NOT_FOUND"),
    (["USE tb_db_never"], "SCHEMA_NOT_FOUND"),
    (["SHOW TABLES IN tb_db_never"], "SCHEMA_NOT_FOUND"),
])
def test_database_errors(diff_error, statements, error_class):
    def program(spark):
        run_sql(spark, "DROP DATABASE IF EXISTS tb_db_err CASCADE", *statements)

    diff_error(program, error_class)


def test_drop_database_cascade_and_list(both):
    def program(spark):
        run_sql(spark, "DROP DATABASE IF EXISTS tb_db_c CASCADE", "CREATE DATABASE tb_db_c",
                "CREATE TABLE tb_db_c.t USING parquet AS SELECT 1 AS a")
        before = sorted(d.name for d in spark.catalog.listDatabases() if d.name.startswith("tb_db_c"))
        run_sql(spark, "DROP DATABASE tb_db_c CASCADE")
        after = sorted(d.name for d in spark.catalog.listDatabases() if d.name.startswith("tb_db_c"))
        return before, after, spark.catalog.databaseExists("tb_db_c")

    assert both(program) == (["tb_db_c"], [], False)


# ---------------------------------------------------------------------------------------------
# DataFrameWriter


def test_save_as_table_modes(diff):
    def program(spark):
        fresh(spark, "tb_save")
        df = spark.createDataFrame([(1, "a"), (2, "b")], "id INT, s STRING")
        df.write.saveAsTable("tb_save")
        df.write.mode("ignore").saveAsTable("tb_save")
        # Append matches columns by name.
        spark.createDataFrame([("c", 3)], "s STRING, id INT").write.mode("append").saveAsTable("tb_save")
        return spark.table("tb_save")

    diff(program)


def test_save_as_table_overwrite_replaces_schema(diff):
    def program(spark):
        fresh(spark, "tb_save_ow")
        spark.range(3).write.saveAsTable("tb_save_ow")
        spark.createDataFrame([("x", 1.5)], "name STRING, v DOUBLE").write.mode("overwrite") \
            .saveAsTable("tb_save_ow")
        return spark.table("tb_save_ow")

    diff(program)


def test_save_as_table_error_if_exists(diff_error):
    def program(spark):
        fresh(spark, "tb_save_err")
        spark.range(1).write.saveAsTable("tb_save_err")
        spark.range(1).write.mode("error").saveAsTable("tb_save_err")

    diff_error(program, "TABLE_OR_VIEW_ALREADY_EXISTS")


def test_save_as_table_format_partition_options(diff):
    def program(spark):
        fresh(spark, "tb_save_csv")
        df = spark.createDataFrame([(1, "x", "p1"), (2, None, "p2"), (3, "z", "p1")],
                                   "id INT, s STRING, part STRING")
        df.write.format("csv").partitionBy("part").option("nullValue", "NA").saveAsTable("tb_save_csv")
        return spark.sql("SELECT * FROM tb_save_csv WHERE part = 'p1'").unionByName(
            spark.read.table("default.tb_save_csv").where("part = 'p2'"))

    diff(program)


def test_insert_into(diff):
    def program(spark):
        fresh(spark, "tb_ins")
        run_sql(spark, "CREATE TABLE tb_ins (a INT, b STRING) USING parquet")
        # By position: the names of the DataFrame's columns do not matter.
        spark.createDataFrame([("x", 1)], "b STRING, a INT").selectExpr("a AS b", "b AS a") \
            .write.insertInto("tb_ins")
        spark.createDataFrame([(2, "y")], "p INT, q STRING").write.insertInto("tb_ins")
        first = spark.table("tb_ins").count()
        spark.createDataFrame([(3, "z")], "p INT, q STRING").write.insertInto("tb_ins", overwrite=True)
        return spark.table("tb_ins").selectExpr("*", f"{first} AS before")

    diff(program)


def test_insert_into_arity_mismatch(diff_error):
    def program(spark):
        fresh(spark, "tb_ins_err")
        run_sql(spark, "CREATE TABLE tb_ins_err (a INT, b STRING) USING parquet")
        spark.range(1).write.insertInto("tb_ins_err")

    diff_error(program, "INSERT_COLUMN_ARITY_MISMATCH")


def test_write_to_v2_create(diff):
    def program(spark):
        from pyspark.sql import functions as F

        fresh(spark, "tb_v2")
        df = spark.createDataFrame([(1, "a"), (2, "b")], "id INT, p STRING")
        df.writeTo("tb_v2").using("parquet").partitionedBy(F.col("p")).create()
        return spark.table("tb_v2").unionByName(spark.sql("SHOW PARTITIONS tb_v2")
                                                .selectExpr("0 AS id", "partition AS p"))

    diff(program)


@pytest.mark.parametrize("action,error_class", [
    ("create", "TABLE_OR_VIEW_ALREADY_EXISTS"),
    # The session catalog's tables are v1 tables: DataFrameWriterV2 cannot write or replace them.
    ("append", "_LEGACY_ERROR_TEMP_1012"),
    ("overwritePartitions", "_LEGACY_ERROR_TEMP_1012"),
    ("replace", "UNSUPPORTED_FEATURE.TABLE_OPERATION"),
    ("createOrReplace", "UNSUPPORTED_FEATURE.TABLE_OPERATION"),
])
def test_write_to_v2_existing_table(diff_error, action, error_class):
    def program(spark):
        fresh(spark, "tb_v2e")
        spark.range(1).writeTo("tb_v2e").create()
        getattr(spark.range(1).writeTo("tb_v2e"), action)()

    diff_error(program, error_class)


@pytest.mark.parametrize("data,fmt,error_class", [
    ("id INT", None, "_LEGACY_ERROR_TEMP_1161"),
    ("id INT, zz STRING", None, "_LEGACY_ERROR_TEMP_1162"),
    ("id INT, s STRING", "json", "_LEGACY_ERROR_TEMP_1159"),
])
def test_save_as_table_append_mismatch(diff_error, data, fmt, error_class):
    def program(spark):
        fresh(spark, "tb_app_err")
        spark.createDataFrame([(1, "a")], "id INT, s STRING").write.saveAsTable("tb_app_err")
        row = (1,) if data == "id INT" else (1, "b")
        writer = spark.createDataFrame([row], data).write.mode("append")
        if fmt:
            writer = writer.format(fmt)
        writer.saveAsTable("tb_app_err")

    diff_error(program, error_class)


def test_overwrite_of_a_table_the_query_reads(diff_error):
    def program(spark):
        fresh(spark, "tb_self")
        run_sql(spark, "CREATE TABLE tb_self USING parquet AS SELECT 1 AS a",
                "INSERT OVERWRITE tb_self SELECT a + 1 FROM tb_self")

    diff_error(program, "UNSUPPORTED_OVERWRITE.TABLE")


# ---------------------------------------------------------------------------------------------
# spark.catalog


def test_catalog_tables(both):
    def program(spark):
        fresh(spark, "tb_cat", "tb_cat_made")
        run_sql(spark, "CREATE TABLE tb_cat (a INT, p STRING) USING parquet PARTITIONED BY (p) "
                       "COMMENT 'desc'")
        spark.range(1).createOrReplaceTempView("tb_cat_view")
        tables = sorted((t.name, t.catalog, tuple(t.namespace or []), t.description, t.tableType,
                         t.isTemporary)
                        for t in spark.catalog.listTables() if t.name.startswith("tb_cat"))
        got = spark.catalog.getTable("tb_cat")
        columns = [(c.name, c.dataType, c.nullable, c.isPartition)
                   for c in spark.catalog.listColumns("tb_cat")]
        from pyspark.sql.types import IntegerType, StringType, StructField, StructType

        made = spark.catalog.createTable("tb_cat_made", schema=StructType([
            StructField("x", IntegerType()), StructField("y", StringType())]))
        spark.catalog.refreshTable("tb_cat")
        exists = (spark.catalog.tableExists("tb_cat"), spark.catalog.tableExists("tb_cat", "default"),
                  spark.catalog.tableExists("default.tb_cat"), spark.catalog.tableExists("tb_cat_view"),
                  spark.catalog.tableExists("tb_cat_nope"))
        spark.catalog.dropTempView("tb_cat_view")
        return (tables, (got.name, got.tableType, got.isTemporary), columns, made.columns,
                spark.table("tb_cat_made").count(), exists, spark.catalog.tableExists("tb_cat"))

    both(program)


def test_catalog_get_missing_table(diff_error):
    def program(spark):
        spark.catalog.getTable("tb_cat_missing_xyz")

    diff_error(program, "TABLE_OR_VIEW_NOT_FOUND")


# ---------------------------------------------------------------------------------------------
# Surviving a restart


def test_tables_survive_server_restart(tmp_path):
    from pyspark.sql.connect.session import SparkSession as RemoteSparkSession

    warehouse = tmp_path / "warehouse"

    def session(server):
        return RemoteSparkSession.builder.remote(server.url).create()

    first = EmberServer(ember_binary(), warehouse)
    first.start()
    try:
        spark = session(first)
        run_sql(spark,
                "CREATE DATABASE keep_db",
                "CREATE TABLE keep_db.kept (a INT, s STRING, p INT) USING parquet PARTITIONED BY (p)",
                "INSERT INTO keep_db.kept VALUES (1, 'one', 10), (2, NULL, 20)",
                "CREATE TABLE plain USING json AS SELECT 'j' AS s")
        spark.stop()
    finally:
        first.stop()
    assert (warehouse / "keep_db.db" / "kept" / "p=10").is_dir()
    assert (warehouse / "plain").is_dir()

    second = EmberServer(ember_binary(), warehouse)
    second.start()
    try:
        spark = session(second)
        assert sorted(d.name for d in spark.catalog.listDatabases()) == ["default", "keep_db"]
        rows = sorted(tuple(r) for r in spark.table("keep_db.kept").collect())
        assert rows == [(1, "one", 10), (2, None, 20)]
        assert [tuple(r) for r in spark.sql("SELECT * FROM plain").collect()] == [("j",)]
        assert [r.partition for r in spark.sql("SHOW PARTITIONS keep_db.kept").collect()] == [
            "p=10", "p=20"]
        run_sql(spark, "DROP DATABASE keep_db CASCADE")
        spark.stop()
    finally:
        second.stop()
    assert not (warehouse / "keep_db.db").exists()
