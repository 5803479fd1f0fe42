#pragma once

#include <map>
#include <string>
#include <vector>

#include "plan/session.h"

namespace ember::plan {

/// One entry of `INSERT ... PARTITION (p = 1, q)`: a static value (a literal expression), or a
/// dynamic partition column when `value` is null.
struct PartitionValue {
  std::string column;
  ExprPtr value;
};

/// `INSERT INTO|OVERWRITE t [PARTITION (...)] [(cols)] query`, `df.write.insertInto`,
/// `df.writeTo(t).append()` and friends.
struct InsertRequest {
  std::vector<std::string> table;  // the name as written
  bool overwrite = false;
  /// An explicit column list; table columns left out get nulls, as Spark fills missing
  /// columns with their (null) defaults.
  std::vector<std::string> columns;
  std::vector<PartitionValue> partition;
  /// Match query columns to table columns by name (INSERT ... BY NAME, saveAsTable's append)
  /// instead of by position; every table column must be given.
  bool by_name = false;
};

/// Runs an insert: the query's columns are matched to the table's (INSERT_COLUMN_ARITY_MISMATCH
/// when the counts differ), cast as Spark's ANSI store assignment casts them
/// (INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST for casts it refuses,
/// CAST_OVERFLOW_IN_TABLE_INSERT for values that do not fit), and written through the table's
/// format with a staging-directory commit, so a failed insert leaves the table as it was.
void insert_into_table(Session& session, const InsertRequest& request, const PlanPtr& query,
                       const ExecuteOptions& options = {});

/// `CREATE [OR REPLACE] TABLE [IF NOT EXISTS] t [(schema)] USING f [PARTITIONED BY] [OPTIONS]
/// [COMMENT] [AS query]`, `df.write.saveAsTable`, `df.writeTo(t).create()`.
struct CreateTableRequest {
  std::vector<std::string> table;
  Schema schema;  // the declared columns; empty with a query
  std::string provider;  // empty: spark.sql.sources.default
  std::vector<std::string> partition_by;
  std::map<std::string, std::string> options;
  std::string comment;
  bool if_not_exists = false;
  /// CREATE OR REPLACE / createOrReplace(): creates a missing table; an existing one fails with
  /// UNSUPPORTED_FEATURE.TABLE_OPERATION, as Spark's session catalog cannot replace its tables.
  bool replace = false;
  /// saveAsTable in overwrite mode: an existing table is dropped and created anew.
  bool overwrite = false;
};

/// Creates a managed table, and fills it from `query` when one is given (CTAS). The data is
/// written before the metadata is recorded, so a failing query leaves neither. Returns false
/// when the table existed and `if_not_exists` left it alone.
bool create_table(Session& session, const CreateTableRequest& request, const PlanPtr& query,
                  const ExecuteOptions& options = {});

/// Deletes every data file of a table (TRUNCATE TABLE); the table stays.
void truncate_table(Session& session, const std::vector<std::string>& table);

/// The partitions of a partitioned table as `p=1/q=a` (SHOW PARTITIONS), sorted; throws
/// INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY for an unpartitioned one.
std::vector<std::string> table_partitions(Session& session, const std::vector<std::string>& table);

/// Spark's DDL of a table (SHOW CREATE TABLE).
std::string show_create_table(const TableInfo& table);

}  // namespace ember::plan
