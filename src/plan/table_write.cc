// Writing managed tables: CREATE TABLE [AS SELECT], INSERT INTO / OVERWRITE, TRUNCATE, and the
// table facts SHOW PARTITIONS and SHOW CREATE TABLE print.

#include "plan/table_write.h"

#include "plan/cache_manager.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>

#include "common/error.h"
#include "io/data_sink.h"
#include "io/value_text.h"
#include "plan/cache_manager.h"

namespace ember::plan {

namespace fs = std::filesystem;

namespace {

std::string quoted_ident(const TableInfo& t) {
  return quote_id("spark_catalog") + "." + quote_id(t.database) + "." + quote_id(t.name);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + quote_id(n);
  return s;
}

TableInfo require_table(Session& session, const std::vector<std::string>& name) {
  auto [db, table] = session.table_ident(name);
  if (auto t = session.tables().find_table(db, table)) return *t;
  throw_table_not_found({"spark_catalog", db, table});
}

/// Spark's ANSI store assignment (Cast.canANSIStoreAssign): numbers convert among themselves,
/// anything atomic becomes a string, dates and timestamps convert, nested types element-wise.
bool can_store_assign(const DataType& from, const DataType& to) {
  if (from.same_type(to) || from.id() == TypeId::kNull) return true;
  if (from.is_numeric() && to.is_numeric()) return true;
  if (to.id() == TypeId::kString && !from.is_nested()) return true;
  if (from.is_datetime() && to.is_datetime()) return true;
  if (from.id() == TypeId::kArray && to.id() == TypeId::kArray)
    return can_store_assign(*from.element_type(), *to.element_type());
  if (from.id() == TypeId::kMap && to.id() == TypeId::kMap)
    return can_store_assign(*from.key_type(), *to.key_type()) &&
           can_store_assign(*from.value_type(), *to.value_type());
  if (from.id() == TypeId::kStruct && to.id() == TypeId::kStruct) {
    if (from.fields().size() != to.fields().size()) return false;
    for (size_t i = 0; i < from.fields().size(); ++i)
      if (!can_store_assign(*from.fields()[i].type, *to.fields()[i].type)) return false;
    return true;
  }
  return false;
}

[[noreturn]] void arity_mismatch(const TableInfo& t, const std::vector<std::string>& table_cols,
                                 const std::vector<std::string>& data_cols) {
  const bool too_many = data_cols.size() > table_cols.size();
  const std::string reason = too_many ? "too many data columns" : "not enough data columns";
  throw SparkError(ErrorKind::kAnalysis,
                   std::string("INSERT_COLUMN_ARITY_MISMATCH.") +
                       (too_many ? "TOO_MANY_DATA_COLUMNS" : "NOT_ENOUGH_DATA_COLUMNS"),
                   "Cannot write to " + quoted_ident(t) + ", the reason is " + reason +
                       ":\nTable columns: " + quoted_list(table_cols) +
                       ".\nData columns: " + quoted_list(data_cols) + ".",
                   {{"tableName", quoted_ident(t)},
                    {"tableColumns", quoted_list(table_cols)},
                    {"dataColumns", quoted_list(data_cols)}},
                   "21S01");
}

int find_column(const Schema& schema, const std::string& name) {
  for (size_t i = 0; i < schema.size(); ++i)
    if (catalog_name(schema[i].name) == catalog_name(name)) return static_cast<int>(i);
  return -1;
}

/// A plan producing the table's columns, in table order, from the analyzed query: query
/// column `source[c]` (cast to the column's type), the static partition value, or null.
PlanPtr table_projection(Session& session, const TableInfo& t, const PlanPtr& analyzed,
                         const std::vector<int>& source,
                         const std::map<int, ExprPtr>& static_values) {
  // Positional names keep duplicate or odd query column names apart.
  auto todf = std::make_shared<PlanNode>();
  todf->kind = PlanKind::kToDF;
  todf->children = {analyzed};
  for (size_t i = 0; i < analyzed->output.size(); ++i) todf->names.push_back("__c" + std::to_string(i));
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanKind::kProject;
  project->children = {todf};
  const Schema query_schema = analyzed->output_schema();
  for (size_t c = 0; c < t.schema.size(); ++c) {
    const StructField& f = t.schema[c];
    ExprPtr value;
    if (auto it = static_values.find(static_cast<int>(c)); it != static_values.end()) {
      value = it->second;
    } else if (source[c] >= 0) {
      const StructField& q = query_schema[static_cast<size_t>(source[c])];
      if (!can_store_assign(*q.type, *f.type)) {
        const std::string detail = "Cannot safely cast " + quote_id(f.name) + " \"" + q.type->sql() +
                                   "\" to \"" + f.type->sql() + "\"";
        throw SparkError(ErrorKind::kAnalysis, "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
                         "Cannot write incompatible data for the table " + quoted_ident(t) + ": " +
                             detail + ".",
                         {{"tableName", quoted_ident(t)},
                          {"colName", quote_id(f.name)},
                          {"srcType", "\"" + q.type->sql() + "\""},
                          {"targetType", "\"" + f.type->sql() + "\""}},
                         "KD000");
      }
      value = col({"__c" + std::to_string(source[c])});
    } else {
      value = lit(Value(), DataType::null());
    }
    project->exprs.push_back(alias(cast(value, f.type), f.name));
  }
  return session.analyze(project);
}

/// The text of a static partition value converted to its column's type, as the partition
/// directory names it; nullopt for null.
std::optional<std::string> static_value_text(Session& session, const ExprPtr& value, const TypePtr& type) {
  auto range = std::make_shared<PlanNode>();
  range->kind = PlanKind::kRange;
  range->range_end = 1;
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanKind::kProject;
  project->children = {range};
  project->exprs = {alias(cast(value, type), "v")};
  QueryResult r = session.execute(project);
  for (const auto& b : r.batches) {
    if (b.num_rows == 0) continue;
    if (b.columns[0]->is_null(0)) return std::nullopt;
    return io::value_text(*b.columns[0], 0, session.config().session_time_zone());
  }
  return std::nullopt;
}

/// Runs `plan` (already in table column order) and writes its rows into the table.
void write_rows(Session& session, const TableInfo& t, const PlanPtr& plan, io::WriteRequest request,
                const ExecuteOptions& options) {
  request.format = t.provider;
  request.path = t.location;
  for (const auto& [k, v] : t.options) request.options.set(k, v);
  request.partition_by = t.partition_columns;
  request.config = &session.config();
  QueryResult result;
  try {
    result = session.execute_analyzed(plan, options);
  } catch (const SparkError& e) {
    // Spark names the column whose value does not fit when the cast is the insert's own.
    if (e.error_class() != "CAST_OVERFLOW") throw;
    std::string source, target, column;
    for (const auto& [k, v] : e.params()) {
      if (k == "sourceType") source = v;
      if (k == "targetType") target = v;
    }
    for (const auto& f : t.schema)
      if (column.empty() && "\"" + f.type->sql() + "\"" == target) column = f.name;
    if (column.empty()) throw;
    throw SparkError(ErrorKind::kArithmetic, "CAST_OVERFLOW_IN_TABLE_INSERT",
                     "Fail to assign a value of " + source + " type to the " + target +
                         " type column or variable " + quote_id(column) +
                         " due to an overflow. Use `try_cast` on the input value to tolerate "
                         "overflow and return NULL instead.",
                     {{"sourceType", source}, {"targetType", target}, {"columnName", quote_id(column)}},
                     "22003");
  }
  size_t next = 0;
  io::write_files(request, result.schema, [&](Batch* out) {
    if ((options.cancelled && options.cancelled->load()) || next >= result.batches.size()) return false;
    *out = std::move(result.batches[next++]);
    return true;
  });
  // Cached plans over the table read it again (Spark refreshes them after a write).
  session.cache_manager().invalidate_path(t.location, session.config(), false);
}

/// Spark refuses to overwrite a table its own query reads, which would delete the input.
void check_not_reading(const TableInfo& t, const PlanPtr& plan) {
  std::function<void(const PlanPtr&)> walk = [&](const PlanPtr& node) {
    if (node->kind == PlanKind::kRead) {
      for (const auto& p : node->read.paths) {
        if (fs::path(p).lexically_normal() == fs::path(t.location).lexically_normal()) {
          throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_OVERWRITE.TABLE",
                           "Can't overwrite the target that is also being read from. The target "
                           "table is " + quoted_ident(t) + ".",
                           {{"table", quoted_ident(t)}}, "42902");
        }
      }
    }
    for (const auto& c : node->children) walk(c);
  };
  walk(plan);
}

bool directory_has_entries(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && fs::directory_iterator(path, ec) != fs::directory_iterator();
}

}  // namespace

void insert_into_table(Session& session, const InsertRequest& request, const PlanPtr& query,
                       const ExecuteOptions& options) {
  const TableInfo t = require_table(session, request.table);
  const PlanPtr analyzed = session.analyze(query);
  const Schema query_schema = analyzed->output_schema();
  if (request.overwrite) check_not_reading(t, analyzed);

  // Static partition values.
  std::map<int, ExprPtr> static_values;
  std::string static_dir;
  bool any_dynamic_partition = false;
  for (const auto& p : request.partition) {
    const int c = find_column(t.schema, p.column);
    if (c < 0 || !t.is_partition_column(p.column)) {
      throw SparkError(ErrorKind::kAnalysis, "PARTITIONS_NOT_FOUND",
                       "The partition(s) " + quote_id(p.column) + " cannot be found in table " +
                           quoted_ident(t) + ".\nVerify the partition specification and table name.",
                       {{"partitionList", quote_id(p.column)}, {"tableName", quoted_ident(t)}}, "428FT");
    }
    if (!p.value) {
      any_dynamic_partition = true;
      continue;
    }
    static_values[c] = p.value;
  }
  // The directory of the static values, when they form a prefix of the partition columns.
  for (const auto& pc : t.partition_columns) {
    const int c = find_column(t.schema, pc);
    auto it = static_values.find(c);
    if (it == static_values.end()) break;
    if (!static_dir.empty()) static_dir += "/";
    static_dir += io::partition_directory(t.schema[static_cast<size_t>(c)].name,
                                          static_value_text(session, it->second, t.schema[static_cast<size_t>(c)].type));
  }
  (void)any_dynamic_partition;

  // Which query column feeds each table column.
  std::vector<int> source(t.schema.size(), -1);
  std::vector<std::string> data_names;
  for (const auto& f : query_schema) data_names.push_back(f.name);
  if (!request.columns.empty()) {
    std::vector<std::string> listed;
    for (size_t i = 0; i < request.columns.size(); ++i) {
      const int c = find_column(t.schema, request.columns[i]);
      if (c < 0) {
        std::string cols;
        for (const auto& f : t.schema) cols += (cols.empty() ? "" : ", ") + quote_id(f.name);
        throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
                         "A column, variable, or function parameter with name " +
                             quote_id(request.columns[i]) + " cannot be resolved. Did you mean one of the "
                             "following? [" + cols + "].",
                         {{"objectName", quote_id(request.columns[i])}, {"proposal", cols}}, "42703");
      }
      listed.push_back(t.schema[static_cast<size_t>(c)].name);
      if (i < query_schema.size()) source[static_cast<size_t>(c)] = static_cast<int>(i);
    }
    if (listed.size() != query_schema.size()) arity_mismatch(t, listed, data_names);
  } else if (request.by_name) {
    // saveAsTable's append: Spark's own (legacy) errors for a schema that does not line up.
    const std::string ident = "spark_catalog." + t.database + "." + t.name;
    if (t.schema.size() != query_schema.size()) {
      const std::string table_type = DataType::struct_(t.schema)->simple_string();
      const std::string data_type = DataType::struct_(query_schema)->simple_string();
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1161",
                       "The column number of the existing table " + ident + " (" + table_type +
                           ") doesn't match the data schema (" + data_type + ").",
                       {{"tableName", ident}, {"existingTableSchema", table_type}, {"querySchema", data_type}});
    }
    for (size_t c = 0; c < t.schema.size(); ++c) {
      const int q = find_column(query_schema, t.schema[c].name);
      if (q < 0) {
        std::string inputs;
        for (const auto& f : query_schema) inputs += (inputs.empty() ? "" : ", ") + f.name;
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1162",
                         "Cannot resolve '" + t.schema[c].name + "' given input columns: [" + inputs + "].",
                         {{"col", t.schema[c].name}, {"inputColumns", inputs}});
      }
      source[c] = q;
    }
  } else {
    std::vector<std::string> table_cols;
    std::vector<size_t> targets;
    for (size_t c = 0; c < t.schema.size(); ++c) {
      if (static_values.count(static_cast<int>(c))) continue;
      table_cols.push_back(t.schema[c].name);
      targets.push_back(c);
    }
    if (table_cols.size() != query_schema.size()) arity_mismatch(t, table_cols, data_names);
    for (size_t i = 0; i < targets.size(); ++i) source[targets[i]] = static_cast<int>(i);
  }

  const PlanPtr plan = table_projection(session, t, analyzed, source, static_values);
  io::WriteRequest w;
  w.mode = request.overwrite ? io::SaveMode::kOverwrite : io::SaveMode::kAppend;
  if (request.overwrite && !t.partition_columns.empty()) {
    const bool dynamic =
        catalog_name(session.config().get_or("spark.sql.sources.partitionOverwriteMode", "static")) == "dynamic";
    if (dynamic) {
      w.overwrite_scope = io::OverwriteScope::kWrittenPartitions;
    } else if (!static_dir.empty()) {
      w.overwrite_scope = io::OverwriteScope::kStaticPartition;
      w.static_partition = static_dir;
    }
  }
  write_rows(session, t, plan, std::move(w), options);
}

bool create_table(Session& session, const CreateTableRequest& request, const PlanPtr& query,
                  const ExecuteOptions& options) {
  auto [db, name] = session.table_ident(request.table);
  TableCatalog& catalog = session.tables();
  if (!catalog.database_exists(db)) throw_schema_not_found(db);
  if (request.replace) {
    // Spark's session catalog keeps v1 tables, which cannot be replaced, existing or not.
    {
      const std::string ident = quote_id("spark_catalog") + "." + quote_id(db) + "." + quote_id(name);
      throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE.TABLE_OPERATION",
                       "The feature is not supported: Table " + ident +
                           " does not support REPLACE TABLE AS SELECT. Please check the current "
                           "catalog and namespace to make sure the qualified table name is expected, "
                           "and also check the catalog implementation which is configured by "
                           "\"spark.sql.catalog\".",
                       {{"tableName", ident}, {"operation", "REPLACE TABLE AS SELECT"}}, "0A000");
    }
  }
  if (catalog.find_table(db, name)) {
    if (request.if_not_exists) return false;
    if (!request.overwrite) throw_table_already_exists(db, name);
  }
  TableInfo t;
  t.database = db;
  t.name = name;
  t.provider = request.provider.empty()
                   ? session.config().get_or("spark.sql.sources.default", "parquet")
                   : catalog_name(request.provider);
  if (!io::has_format(t.provider) || t.provider == "text") {
    throw SparkError(ErrorKind::kAnalysis, "DATA_SOURCE_NOT_FOUND",
                     "Failed to find the data source: " + request.provider +
                         ". Make sure the provider name is correct and the package is properly "
                         "registered and compatible with your Spark version.",
                     {{"provider", request.provider}}, "42K02");
  }
  t.options = request.options;
  t.comment = request.comment;
  t.location = catalog.default_location(db, name);
  t.created_ms = static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());

  PlanPtr analyzed = query ? session.analyze(query) : nullptr;
  const Schema declared = analyzed ? analyzed->output_schema() : request.schema;
  if (!analyzed && declared.empty()) {
    // A table without columns or data to infer them from, as Spark's file sources say it.
    const std::string format = t.provider == "parquet" ? "Parquet"
                               : t.provider == "csv"   ? "CSV"
                               : t.provider == "orc"   ? "ORC"
                                                       : "JSON";
    throw SparkError(ErrorKind::kAnalysis, "UNABLE_TO_INFER_SCHEMA",
                     "Unable to infer schema for " + format + ". It must be specified manually.",
                     {{"format", format}}, "42KD9");
  }
  for (size_t i = 0; i < declared.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (catalog_name(declared[i].name) == catalog_name(declared[j].name)) {
        throw SparkError(ErrorKind::kAnalysis, "COLUMN_ALREADY_EXISTS",
                         "The column " + quote_id(catalog_name(declared[i].name)) +
                             " already exists. Choose another name or rename the existing column.",
                         {{"columnName", quote_id(catalog_name(declared[i].name))}}, "42711");
      }
    }
  }
  // Partition columns move to the end, in PARTITIONED BY order.
  std::vector<int> order;
  for (const auto& p : request.partition_by) {
    const int c = find_column(declared, p);
    if (c < 0) {
      std::vector<std::string> cols;
      for (const auto& f : declared) cols.push_back(f.name);
      const std::string ident = quote_id("spark_catalog") + "." + quote_id(db) + "." + quote_id(name);
      throw SparkError(ErrorKind::kAnalysis, "COLUMN_NOT_DEFINED_IN_TABLE",
                       "partition column " + quote_id(p) + " is not defined in table " + ident +
                           ", defined table columns are: " + quoted_list(cols) + ".",
                       {{"colType", "partition"}, {"colName", quote_id(p)}, {"tableName", ident},
                        {"tableCols", quoted_list(cols)}},
                       "42703");
    }
    t.partition_columns.push_back(declared[static_cast<size_t>(c)].name);
    order.push_back(c);
  }
  if (!order.empty() && order.size() == declared.size()) {
    throw SparkError(ErrorKind::kAnalysis, "ALL_PARTITION_COLUMNS_NOT_ALLOWED",
                     "Cannot use all columns for partition columns.", {}, "KD005");
  }
  std::vector<int> columns;
  for (size_t i = 0; i < declared.size(); ++i)
    if (std::find(order.begin(), order.end(), static_cast<int>(i)) == order.end()) columns.push_back(static_cast<int>(i));
  columns.insert(columns.end(), order.begin(), order.end());
  for (int c : columns) {
    StructField f = declared[static_cast<size_t>(c)];
    f.nullable = true;
    t.schema.push_back(f);
  }
  for (const auto& f : t.schema) {
    if (f.type->id() == TypeId::kNull) {
      throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                       "The " + t.provider + " datasource doesn't support the column " + quote_id(f.name) +
                           " of the type \"VOID\".",
                       {{"columnName", quote_id(f.name)}, {"columnType", "\"VOID\""}, {"format", t.provider}},
                       "0A000");
    }
  }

  const bool replacing = request.overwrite && catalog.find_table(db, name).has_value();
  if (!replacing && directory_has_entries(t.location)) {
    const std::string ident = quote_id("spark_catalog") + "." + quote_id(db) + "." + quote_id(name);
    throw SparkError(ErrorKind::kAnalysis, "LOCATION_ALREADY_EXISTS",
                     "Cannot name the managed table as " + ident + ", as its associated location " +
                         quote_id("file:" + t.location) +
                         " already exists. Please pick a different table name, or remove the existing "
                         "location first.",
                     {{"identifier", ident}, {"location", quote_id("file:" + t.location)}}, "42710");
  }

  if (analyzed) {
    if (replacing) {
      TableInfo old = catalog.table(db, name);
      check_not_reading(old, analyzed);
    }
    std::vector<int> source(columns.begin(), columns.end());
    const PlanPtr plan = table_projection(session, t, analyzed, source, {});
    io::WriteRequest w;
    w.mode = io::SaveMode::kOverwrite;
    write_rows(session, t, plan, std::move(w), options);
  } else {
    std::error_code ec;
    if (replacing) fs::remove_all(t.location, ec);
    fs::create_directories(t.location, ec);
  }
  catalog.create_table(t, replacing);
  return true;
}

void truncate_table(Session& session, const std::vector<std::string>& table) {
  const TableInfo t = require_table(session, table);
  std::error_code ec;
  if (!fs::is_directory(t.location, ec)) return;
  // Partition directories stay (empty), as Spark leaves them.
  std::function<void(const fs::path&)> clear = [&](const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_directory() && entry.path().filename().string().find('=') != std::string::npos)
        clear(entry.path());
      else
        fs::remove_all(entry.path(), ec);
    }
  };
  clear(t.location);
  session.cache_manager().invalidate_path(t.location, session.config(), false);
}

std::vector<std::string> table_partitions(Session& session, const std::vector<std::string>& table) {
  const TableInfo t = require_table(session, table);
  if (t.partition_columns.empty()) {
    throw SparkError(ErrorKind::kAnalysis, "INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY",
                     "The partition command is invalid. Table " + quoted_ident(t) + " is not partitioned.",
                     {{"name", quoted_ident(t)}}, "42601");
  }
  std::vector<std::string> out;
  std::error_code ec;
  std::function<void(const fs::path&, const std::string&, size_t)> walk = [&](const fs::path& dir,
                                                                              const std::string& prefix,
                                                                              size_t depth) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_directory() || name.empty() || name[0] == '.' || name[0] == '_') continue;
      const std::string part = prefix.empty() ? name : prefix + "/" + name;
      if (depth + 1 == t.partition_columns.size()) {
        // Only partitions holding data files count, as Spark's catalog only knows those.
        bool has_file = false;
        for (const auto& f : fs::directory_iterator(entry.path(), ec)) {
          const std::string fname = f.path().filename().string();
          if (f.is_regular_file() && !fname.empty() && fname[0] != '.' && fname[0] != '_') has_file = true;
        }
        if (has_file) out.push_back(part);
      } else {
        walk(entry.path(), part, depth + 1);
      }
    }
  };
  if (fs::is_directory(t.location, ec)) walk(t.location, "", 0);
  std::sort(out.begin(), out.end());
  return out;
}

std::string show_create_table(const TableInfo& t) {
  std::string s = "CREATE TABLE spark_catalog." + t.database + "." + t.name + " (\n";
  for (size_t i = 0; i < t.schema.size(); ++i) {
    const auto& f = t.schema[i];
    s += "  " + f.name + " " + f.type->sql() + (f.type->id() == TypeId::kString ? " COLLATE UTF8_BINARY" : "") +
         (i + 1 < t.schema.size() ? ",\n" : ")\n");
  }
  s += "USING " + t.provider + "\n";
  if (!t.options.empty()) {
    s += "OPTIONS (\n";
    size_t i = 0;
    for (const auto& [k, v] : t.options) s += "  '" + k + "' = '" + v + "'" + (++i < t.options.size() ? ",\n" : ")\n");
  }
  if (!t.partition_columns.empty()) {
    s += "PARTITIONED BY (";
    for (size_t i = 0; i < t.partition_columns.size(); ++i) s += (i ? ", " : "") + t.partition_columns[i];
    s += ")\n";
  }
  if (!t.comment.empty()) s += "COMMENT '" + t.comment + "'\n";
  return s;
}

}  // namespace ember::plan
