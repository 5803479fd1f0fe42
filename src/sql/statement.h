#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "plan/logical_plan.h"
#include "plan/session.h"
#include "plan/table_write.h"

namespace ember::sql {

struct ParseOptions;

enum class StatementKind {
  kQuery,           // query
  kSet,             // SET (list), SET key (show), SET key = value; SET -v lists with docs
  kReset,           // RESET, RESET key
  kCreateView,      // CREATE [OR REPLACE] [GLOBAL] TEMP VIEW [IF NOT EXISTS] name [(cols)] AS query
  kDropView,        // DROP VIEW|TABLE [IF EXISTS] name
  kShowTables,      // SHOW TABLES|VIEWS [IN db] [LIKE 'pattern']
  kShowFunctions,   // SHOW [USER|SYSTEM|ALL] FUNCTIONS [LIKE 'pattern']
  kDropFunction,    // DROP [TEMPORARY] FUNCTION [IF EXISTS] name
  kShowNamespaces,  // SHOW DATABASES|SCHEMAS|NAMESPACES [LIKE 'pattern']
  kShowCurrentNamespace,
  kShowColumns,  // SHOW COLUMNS FROM|IN name
  kDescribe,     // DESCRIBE [TABLE] [EXTENDED] name, DESCRIBE QUERY query
  kDescribeFunction,
  kExplain,       // EXPLAIN [EXTENDED|FORMATTED|COST|CODEGEN] query
  kUse,           // USE [NAMESPACE] name
  kCacheTable,    // CACHE [LAZY] TABLE name [AS query]
  kUncacheTable,  // UNCACHE TABLE [IF EXISTS] name
  kClearCache,    // CLEAR CACHE
  kRefreshTable,  // REFRESH TABLE name
  // Persistent tables and databases (sql/parse_table_statement.cc, sql/table_statement.cc).
  kCreateTable,  // CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(cols)] [USING f] ... [AS query]
  kInsert,       // INSERT INTO|OVERWRITE [TABLE] name [PARTITION (...)] [(cols)] query
  kTruncateTable,    // TRUNCATE TABLE name
  kRenameTable,      // ALTER TABLE name RENAME TO new_name
  kShowPartitions,   // SHOW PARTITIONS name
  kShowCreateTable,  // SHOW CREATE TABLE name
  kCreateNamespace,  // CREATE DATABASE|SCHEMA|NAMESPACE [IF NOT EXISTS] name [COMMENT '...']
  kDropNamespace,    // DROP DATABASE|SCHEMA|NAMESPACE [IF EXISTS] name [RESTRICT|CASCADE]
  kUnsupported,      // a command Ember recognises but does not run (CREATE TABLE, INSERT ...)
};

/// One parsed statement. Commands carry what they need to run; `text` is the statement's text.
struct Statement {
  StatementKind kind = StatementKind::kQuery;
  std::string text;
  plan::PlanPtr query;  // kQuery, kCreateView, kDescribe (QUERY form), kExplain, kCacheTable AS
  std::vector<std::string> name;  // relation, view or namespace name parts
  std::string key, value;         // SET / RESET; kDescribeFunction: function name
  bool has_value = false;         // SET key = value
  bool verbose = false;           // SET -v, DESCRIBE EXTENDED
  bool replace = false, if_exists = false, if_not_exists = false, global = false, is_view = false;
  std::vector<std::string> column_names;  // CREATE VIEW v (a, b)
  std::string pattern;                    // SHOW ... LIKE 'pattern'
  bool has_pattern = false;
  plan::ExplainMode explain_mode = plan::ExplainMode::kSimple;
  std::string feature;  // kUnsupported: what the statement is ("CREATE TABLE")
  // kCreateTable, kInsert, kRenameTable, kDropNamespace.
  Schema table_schema;                 // CREATE TABLE t (a INT, ...)
  std::string provider;                // USING f
  std::vector<std::string> partition_by;
  std::map<std::string, std::string> table_options;
  std::string comment;
  bool overwrite = false, by_name = false, cascade = false;
  bool lazy = false;  // CACHE LAZY TABLE (options: table_options, storageLevel lower-cased)
  bool temporary = false;                       // DROP TEMPORARY FUNCTION
  std::vector<plan::PartitionValue> partition;  // INSERT ... PARTITION (p = 1, q)
  std::vector<std::string> new_name;            // ALTER TABLE ... RENAME TO
};

/// Whether the statement is a query whose result is a relation (as opposed to a command that
/// runs eagerly and returns a small local result).
inline bool is_query(const Statement& s) { return s.kind == StatementKind::kQuery; }

/// Runs a parsed statement on the session: queries through the engine, commands against the
/// session's configuration and catalog. Returns the result Spark would (SET returns key/value
/// rows, SHOW TABLES namespace/tableName/isTemporary ...). Raises Spark's errors for what fails
/// and UNSUPPORTED_FEATURE for commands Ember does not run.
plan::QueryResult execute_statement(plan::Session& session, const Statement& statement,
                                    const plan::ExecuteOptions& options = {});

/// Parses `sql` with the session's options and runs it.
plan::QueryResult execute_statement(plan::Session& session, std::string_view sql);

}  // namespace ember::sql
