#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/config.h"
#include "types/data_type.h"

namespace ember::plan {

/// A database (schema) of the session catalog, spark_catalog.
struct DatabaseInfo {
  std::string name;  // lower-case
  std::string comment;
  std::string location;  // absolute local path of its directory
};

/// A persistent managed table: what Spark's session catalog keeps of it.
struct TableInfo {
  std::string database;  // lower-case
  std::string name;      // lower-case, as Spark's session catalog stores it
  /// Every column: the data columns, then the partition columns in PARTITIONED BY order.
  Schema schema;
  std::string provider = "parquet";  // parquet, orc, csv or json
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> options;  // OPTIONS (...): reader and writer options
  std::string comment;
  int64_t created_ms = 0;  // milliseconds since the epoch
  std::string location;    // absolute local path of its data directory

  bool is_partition_column(const std::string& column) const;
};

/// The tables and databases of a warehouse directory (spark.sql.warehouse.dir), shared by every
/// session of the process, as Spark's external catalog is. Data lives where Spark puts it:
/// `<warehouse>/<table>` for the default database, `<warehouse>/<db>.db/<table>` otherwise.
/// The metadata lives in one file the engine owns, `<warehouse>/.ember-catalog.json`, rewritten
/// atomically (a temporary file renamed over it) after every change, so that a server started
/// later on the same warehouse sees the same databases and tables. Names are case-insensitive.
/// Thread-safe. Errors are Spark's: SCHEMA_NOT_FOUND, SCHEMA_ALREADY_EXISTS, SCHEMA_NOT_EMPTY,
/// TABLE_OR_VIEW_NOT_FOUND, TABLE_OR_VIEW_ALREADY_EXISTS.
class TableCatalog {
 public:
  /// The catalog of a warehouse directory (a local path or a file: URI), loaded from its
  /// metadata file on first use; the same object for the same directory afterwards.
  static std::shared_ptr<TableCatalog> open(const std::string& warehouse);

  explicit TableCatalog(std::string warehouse_path);

  const std::string& warehouse() const { return warehouse_; }
  /// Where the metadata file is.
  std::string metadata_path() const;

  bool database_exists(const std::string& db) const;
  /// Creates the database and its `<db>.db` directory.
  void create_database(const std::string& db, const std::string& comment, bool if_not_exists);
  /// Drops a database; with `cascade` its tables (and their data) too, else SCHEMA_NOT_EMPTY.
  void drop_database(const std::string& db, bool if_exists, bool cascade);
  std::optional<DatabaseInfo> database(const std::string& db) const;
  /// All databases, `default` included, by name.
  std::vector<DatabaseInfo> databases() const;

  std::optional<TableInfo> find_table(const std::string& db, const std::string& table) const;
  /// The table or TABLE_OR_VIEW_NOT_FOUND.
  TableInfo table(const std::string& db, const std::string& table) const;
  /// Tables of a database by name; SCHEMA_NOT_FOUND for an unknown one.
  std::vector<TableInfo> tables(const std::string& db) const;
  /// Where a managed table's data goes.
  std::string default_location(const std::string& db, const std::string& table) const;

  /// Records a table (its directory must exist already when it has data). Throws
  /// TABLE_OR_VIEW_ALREADY_EXISTS unless `replace`, which replaces the metadata only.
  void create_table(TableInfo info, bool replace = false);
  /// Forgets a table and deletes its data directory.
  void drop_table(const std::string& db, const std::string& table);
  /// Renames a table within its database, moving its data directory.
  void rename_table(const std::string& db, const std::string& from, const std::string& to);

 private:
  void load();
  void save() const;  // mu_ held
  std::string key(const std::string& db, const std::string& table) const;

  std::string warehouse_;
  mutable std::mutex mu_;
  std::map<std::string, DatabaseInfo> databases_;  // key: name
  std::map<std::string, TableInfo> tables_;        // key: db + '.' + table
};

/// The session's warehouse directory as an absolute local path: spark.sql.warehouse.dir, or
/// `spark-warehouse` under the working directory, as Spark defaults it.
std::string warehouse_path(const Config& config);

/// Lower-cases a name the way the session catalog stores it.
std::string catalog_name(const std::string& name);

/// Spark's errors for catalog objects. Names are shown qualified with spark_catalog.
[[noreturn]] void throw_schema_not_found(const std::string& db);
/// Spark's TABLE_OR_VIEW_NOT_FOUND for the name as shown (each part quoted); `search_path`,
/// when given, is the namespaces looked in as Spark lists them (`[`spark_catalog`.`default`]`).
[[noreturn]] void throw_table_not_found(const std::vector<std::string>& shown_parts,
                                        const std::string& search_path = "");
/// Spark's ROUTINE_NOT_FOUND for a function name as shown (its parts quoted and joined).
[[noreturn]] void throw_routine_not_found(const std::string& shown);
/// The search path Spark shows when a query's relation is not found: the built-in and session
/// namespaces, then the current database.
std::string relation_search_path(const std::string& current_database);
[[noreturn]] void throw_table_already_exists(const std::string& db, const std::string& table);

/// Whether `name` matches a pattern of SHOW ... LIKE and the catalog listings, as Spark reads
/// them (StringUtils.filterPattern): `|` separates alternatives, each a case-insensitive
/// pattern of the whole name in which `*` matches any characters and `.` any one character.
bool matches_name_pattern(const std::string& pattern, const std::string& name);

}  // namespace ember::plan
