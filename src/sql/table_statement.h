#pragma once

#include <optional>

#include "plan/session.h"
#include "sql/statement.h"

namespace ember::sql {

/// Runs a statement over persistent tables and databases (kCreateTable, kInsert,
/// kTruncateTable, kRenameTable, kShowPartitions, kShowCreateTable, kCreateNamespace,
/// kDropNamespace) against the session's warehouse catalog.
plan::QueryResult execute_table_statement(plan::Session& session, const Statement& statement,
                                          const plan::ExecuteOptions& options);

/// DESCRIBE [EXTENDED] of a persistent table, laid out as Spark prints it (columns, then
/// `# Partition Information`, then with EXTENDED `# Detailed Table Information`); nullopt when
/// the name is a temporary view or not a table.
std::optional<plan::QueryResult> describe_table(plan::Session& session, const Statement& statement);

}  // namespace ember::sql
