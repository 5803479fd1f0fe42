// Running the statements over persistent tables and databases.

#include "sql/table_statement.h"

#include <ctime>

#include "common/error.h"
#include "ember_build_info.h"
#include "plan/table_write.h"
#include "sql/result_builder.h"

namespace ember::sql {

namespace {

Value str(const std::string& s) { return Value::bytes(s); }

/// Java's Date.toString, which Spark's DESCRIBE uses for Created Time.
std::string java_date_string(int64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Z %Y", &tm);
  return buf;
}

}  // namespace

plan::QueryResult execute_table_statement(plan::Session& session, const Statement& s,
                                          const plan::ExecuteOptions& options) {
  switch (s.kind) {
    case StatementKind::kCreateTable: {
      plan::CreateTableRequest r;
      r.table = s.name;
      r.schema = s.table_schema;
      r.provider = s.provider;
      r.partition_by = s.partition_by;
      r.options = s.table_options;
      r.comment = s.comment;
      r.if_not_exists = s.if_not_exists;
      r.replace = s.replace;
      plan::create_table(session, r, s.query, options);
      return {};
    }
    case StatementKind::kInsert: {
      plan::InsertRequest r;
      r.table = s.name;
      r.overwrite = s.overwrite;
      r.columns = s.column_names;
      r.partition = s.partition;
      r.by_name = s.by_name;
      plan::insert_into_table(session, r, s.query, options);
      return {};
    }
    case StatementKind::kTruncateTable:
      plan::truncate_table(session, s.name);
      return {};
    case StatementKind::kRenameTable: {
      auto [db, from] = session.table_ident(s.name);
      if (!session.tables().find_table(db, from)) {
        // A temporary view renames within the session.
        if (s.name.size() == 1 && s.new_name.size() == 1) {
          if (plan::PlanPtr view = session.catalog().lookup_temp_view(s.name[0])) {
            session.catalog().create_temp_view(s.new_name[0], view, false);
            session.catalog().drop_temp_view(s.name[0]);
            return {};
          }
        }
        plan::throw_table_not_found({"spark_catalog", db, from});
      }
      auto [new_db, to] = session.table_ident(s.new_name);
      if (s.new_name.size() == 1) new_db = db;
      if (new_db != db) {
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1073",
                         "RENAME TABLE source and destination databases do not match: '" + db +
                             "' != '" + new_db + "'.",
                         {{"db", db}, {"newDb", new_db}});
      }
      session.tables().rename_table(db, from, to);
      return {};
    }
    case StatementKind::kShowPartitions: {
      ResultBuilder r;
      r.column("partition", DataType::string(), false);
      for (const auto& p : plan::table_partitions(session, s.name)) r.row({str(p)});
      return r.finish();
    }
    case StatementKind::kShowCreateTable: {
      auto [db, name] = session.table_ident(s.name);
      ResultBuilder r;
      r.column("createtab_stmt", DataType::string(), false);
      r.row({str(plan::show_create_table(session.tables().table(db, name)))});
      return r.finish();
    }
    case StatementKind::kCreateNamespace:
      if (s.name.size() != 1) {
        throw SparkError(ErrorKind::kAnalysis, "REQUIRES_SINGLE_PART_NAMESPACE",
                         "spark_catalog requires a single-part namespace, but got " + quote_id(s.name[0]) + ".",
                         {{"sessionCatalog", "spark_catalog"}}, "42K05");
      }
      session.tables().create_database(s.name[0], s.comment, s.if_not_exists);
      return {};
    case StatementKind::kDropNamespace:
      if (s.name.size() != 1) plan::throw_schema_not_found(s.name.back());
      if (plan::catalog_name(s.name[0]) == session.current_database() && s.cascade) {
        session.tables().drop_database(s.name[0], s.if_exists, s.cascade);
        session.set_current_database("default");
        return {};
      }
      session.tables().drop_database(s.name[0], s.if_exists, s.cascade);
      return {};
    default:
      break;
  }
  EMBER_UNREACHABLE("table statement kind");
}

std::optional<plan::QueryResult> describe_table(plan::Session& session, const Statement& s) {
  if (s.query || s.name.empty()) return std::nullopt;
  if (s.name.size() == 1 && session.catalog().lookup_temp_view(s.name[0])) return std::nullopt;
  auto t = session.find_table(s.name);
  if (!t) return std::nullopt;
  ResultBuilder r;
  r.column("col_name", DataType::string(), false);
  r.column("data_type", DataType::string(), false);
  r.column("comment", DataType::string(), true);
  for (const auto& f : t->schema) r.row({str(f.name), str(f.type->simple_string()), Value()});
  if (!t->partition_columns.empty()) {
    r.row({str("# Partition Information"), str(""), str("")});
    r.row({str("# col_name"), str("data_type"), str("comment")});
    for (const auto& p : t->partition_columns)
      for (const auto& f : t->schema)
        if (plan::catalog_name(f.name) == plan::catalog_name(p))
          r.row({str(f.name), str(f.type->simple_string()), Value()});
  }
  if (s.verbose) {
    auto row = [&](const std::string& k, const std::string& v) { r.row({str(k), str(v), str("")}); };
    row("", "");
    row("# Detailed Table Information", "");
    row("Catalog", "spark_catalog");
    row("Database", t->database);
    row("Table", t->name);
    row("Created Time", java_date_string(t->created_ms));
    row("Last Access", "UNKNOWN");
    row("Created By", "Spark " EMBER_SPARK_VERSION_STRING);
    row("Type", "MANAGED");
    row("Provider", t->provider);
    if (!t->comment.empty()) row("Comment", t->comment);
    row("Location", "file:" + t->location);
    if (!t->options.empty()) {
      std::string props;
      for (const auto& [k, v] : t->options) props += (props.empty() ? "" : ", ") + k + "=" + v;
      row("Storage Properties", "[" + props + "]");
    }
    if (!t->partition_columns.empty()) row("Partition Provider", "Catalog");
  }
  return r.finish();
}

}  // namespace ember::sql
