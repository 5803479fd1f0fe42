// spark.catalog.*: answered from the session's catalog while planning, as Spark does, each as a
// small local relation with the columns Spark returns. Ember has one catalog (spark_catalog):
// the warehouse's databases and managed tables (plan/table_catalog), plus the session's
// temporary views, which live in no database and shadow tables of the same name.

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/ascii.h"
#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "functions/function.h"
#include "plan/cache_manager.h"
#include "plan/session.h"
#include "plan/table_catalog.h"
#include "plan/table_write.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

namespace {

const char* const kCatalogName = "spark_catalog";

StructField field(const std::string& name, TypePtr type, bool nullable = true) {
  return {name, std::move(type), nullable, "{}"};
}

PlanTranslator::NodePtr rows(Schema schema, const std::vector<std::vector<Value>>& values) {
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (const auto& f : schema) builders.push_back(std::make_unique<ColumnBuilder>(f.type));
  for (const auto& row : values) {
    for (size_t c = 0; c < row.size(); ++c) builders[c]->append_value(row[c]);
  }
  std::vector<ColumnPtr> columns;
  for (auto& b : builders) columns.push_back(b->finish());
  auto node = new_node(PlanKind::kLocalRelation);
  node->schema = std::move(schema);
  if (!values.empty())
    node->batches.push_back(Batch(std::move(columns), static_cast<int64_t>(values.size())));
  return node;
}

PlanTranslator::NodePtr boolean_result(bool v) {
  return rows({field("value", DataType::boolean(), false)}, {{Value::boolean(v)}});
}

PlanTranslator::NodePtr string_result(const std::string& v) {
  return rows({field("value", DataType::string())}, {{Value::bytes(v)}});
}

/// What Spark returns for catalog calls without a result: no rows of one string column.
PlanTranslator::NodePtr no_result() {
  return rows({field("value", DataType::string(), false)}, {});
}


[[noreturn]] void schema_not_found(const std::string& db) { plan::throw_schema_not_found(plan::catalog_name(db)); }

[[noreturn]] void table_not_found(const std::string& name) { plan::throw_table_not_found({name}); }

Schema table_schema() {
  return {field("name", DataType::string()),
          field("catalog", DataType::string()),
          field("namespace", DataType::array(DataType::string(), true)),
          field("description", DataType::string()),
          field("tableType", DataType::string()),
          field("isTemporary", DataType::boolean(), false)};
}

/// A temporary view's row; a global one is listed in its reserved database (`global_temp`).
std::vector<Value> temp_view_row(const std::string& name, const std::string& database = "") {
  std::vector<Value> ns;
  if (!database.empty()) ns.push_back(Value::bytes(database));
  return {Value::bytes(name),  Value(), Value::list(std::move(ns)), Value(), Value::bytes("TEMPORARY"),
          Value::boolean(true)};
}

Schema function_schema() {
  return {field("name", DataType::string()),
          field("catalog", DataType::string()),
          field("namespace", DataType::array(DataType::string(), true)),
          field("description", DataType::string()),
          field("className", DataType::string()),
          field("isTemporary", DataType::boolean(), false)};
}

/// A built-in function's row, under the name (or alias) it is listed by.
std::vector<Value> function_row(const std::string& name) {
  const functions::FunctionDef* d = functions::Registry::instance().find_listed(name);
  return {Value::bytes(name), Value(), Value(), d->usage.empty() ? Value() : Value::bytes(d->usage),
          d->family.empty() ? Value() : Value::bytes(functions::function_class_name(*d)), Value::boolean(true)};
}

/// Whether `name` is one of the session's Python functions or table functions.
bool is_session_function(plan::Session& session, const std::string& name) {
  return session.lookup_function(name) != nullptr || session.lookup_table_function(name) != nullptr;
}

/// A session function's row (spark.udf.register, spark.udtf.register), named as asked for:
/// temporary, in no catalog or namespace, without a description. Spark's class name is the JVM
/// class of the function's builder; Ember's says which kind of function it is.
std::vector<Value> session_function_row(plan::Session& session, const std::string& name) {
  const char* cls =
      session.lookup_function(name) ? "ember.udf.PythonFunction" : "ember.udf.PythonTableFunction";
  return {Value::bytes(name),   Value(),           Value(),
          Value::bytes("N/A."), Value::bytes(cls), Value::boolean(true)};
}

std::vector<Value> table_row(const plan::TableInfo& t) {
  return {Value::bytes(t.name),
          Value::bytes(kCatalogName),
          Value::list({Value::bytes(t.database)}),
          t.comment.empty() ? Value() : Value::bytes(t.comment),
          Value::bytes("MANAGED"),
          Value::boolean(false)};
}

/// The table a catalog call names: `name` may be qualified ("db.t"); `db`, when given,
/// qualifies an unqualified name.
std::optional<plan::TableInfo> find_table(plan::Session& session, const std::string& name,
                                          const std::string* db) {
  std::vector<std::string> parts = plan::parse_attribute_name(name);
  if (db != nullptr && !db->empty() && parts.size() == 1) parts.insert(parts.begin(), *db);
  if (parts.size() > 3) return std::nullopt;
  return session.find_table(parts);
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::catalog(const pb::Catalog& r) {
  EMBER_CHECK(ctx_.session != nullptr, "catalog requests need a session");
  plan::Session& session = *ctx_.session;
  plan::Catalog& views = session.catalog();
  plan::TableCatalog& tables = session.tables();
  auto parts = [](const std::string& name) { return plan::parse_attribute_name(name); };
  const std::string global_db = plan::global_temp_database(session.config());
  // The global temporary view a name (with its database, when given) refers to, or "".
  auto global_view_name = [&](const std::string& name, const std::string* db) -> std::string {
    std::vector<std::string> n = db != nullptr && !db->empty() ? std::vector<std::string>{*db, name}
                                                               : parts(name);
    return plan::is_global_temp_name(n, session.config()) ? n[1] : "";
  };
  auto view = [&](const std::string& name, const std::string* db) -> plan::PlanPtr {
    std::string global = global_view_name(name, db);
    if (!global.empty()) return plan::global_temp_views().lookup_temp_view(global);
    if (db != nullptr && !db->empty()) return nullptr;  // temporary views live in no database
    return views.lookup_temp_view(name);
  };
  auto view_row = [&](const std::string& name, const std::string* db) {
    std::string global = global_view_name(name, db);
    return global.empty() ? temp_view_row(name) : temp_view_row(global, global_db);
  };
  // A temporary view or a table must exist (cache and refresh calls).
  auto require_relation = [&](const std::string& name) {
    if (!view(name, nullptr) && !find_table(session, name, nullptr)) table_not_found(name);
  };
  switch (r.cat_type_case()) {
    case pb::Catalog::kCurrentDatabase:
      return string_result(session.current_database());
    case pb::Catalog::kSetCurrentDatabase:
      if (!tables.database_exists(r.set_current_database().db_name()))
        schema_not_found(r.set_current_database().db_name());
      session.set_current_database(r.set_current_database().db_name());
      return no_result();
    case pb::Catalog::kListDatabases: {
      const auto& l = r.list_databases();
      std::vector<std::vector<Value>> out;
      for (const auto& d : tables.databases()) {
        if (l.has_pattern() && !plan::matches_name_pattern(l.pattern(), d.name)) continue;
        out.push_back({Value::bytes(d.name), Value::bytes(kCatalogName),
                       d.comment.empty() ? Value() : Value::bytes(d.comment),
                       Value::bytes("file:" + d.location)});
      }
      return rows(
          {field("name", DataType::string()), field("catalog", DataType::string()),
           field("description", DataType::string()), field("locationUri", DataType::string())},
          out);
    }
    case pb::Catalog::kDatabaseExists:
      return boolean_result(tables.database_exists(r.database_exists().db_name()));
    case pb::Catalog::kListTables: {
      const auto& l = r.list_tables();
      const std::string db = l.has_db_name() ? l.db_name() : session.current_database();
      const bool global = plan::catalog_name(db) == global_db;
      if (!global && !tables.database_exists(db)) schema_not_found(db);
      std::vector<std::vector<Value>> out;
      if (global) {
        std::vector<std::string> names = plan::global_temp_views().temp_view_names();
        std::sort(names.begin(), names.end());
        for (const auto& n : names)
          if (!l.has_pattern() || plan::matches_name_pattern(l.pattern(), n)) out.push_back(temp_view_row(n, global_db));
      }
      for (const auto& t : global ? std::vector<plan::TableInfo>{} : tables.tables(db)) {
        if (!l.has_pattern() || plan::matches_name_pattern(l.pattern(), t.name)) out.push_back(table_row(t));
      }
      std::vector<std::string> names = views.temp_view_names();
      std::sort(names.begin(), names.end());
      for (const auto& n : names) {
        if (!l.has_pattern() || plan::matches_name_pattern(l.pattern(), n)) out.push_back(temp_view_row(n));
      }
      return rows(table_schema(), out);
    }
    case pb::Catalog::kTableExists: {
      const auto& t = r.table_exists();
      const std::string* db = t.has_db_name() ? &t.db_name() : nullptr;
      return boolean_result(view(t.table_name(), db) != nullptr ||
                            find_table(session, t.table_name(), db).has_value());
    }
    case pb::Catalog::kGetTable: {
      const auto& t = r.get_table();
      const std::string* db = t.has_db_name() ? &t.db_name() : nullptr;
      if (view(t.table_name(), db)) return rows(table_schema(), {view_row(t.table_name(), db)});
      auto table = find_table(session, t.table_name(), db);
      if (!table) table_not_found(t.table_name());
      return rows(table_schema(), {table_row(*table)});
    }
    case pb::Catalog::kListColumns: {
      const auto& c = r.list_columns();
      const std::string* db = c.has_db_name() ? &c.db_name() : nullptr;
      Schema schema;
      std::optional<plan::TableInfo> table;
      if (plan::PlanPtr v = view(c.table_name(), db)) {
        schema = v->output_schema();
      } else if ((table = find_table(session, c.table_name(), db))) {
        schema = table->schema;
      } else {
        table_not_found(c.table_name());
      }
      std::vector<std::vector<Value>> out;
      for (const auto& f : schema) {
        out.push_back({Value::bytes(f.name), Value(), Value::bytes(f.type->simple_string()),
                       Value::boolean(f.nullable),
                       Value::boolean(table && table->is_partition_column(f.name)),
                       Value::boolean(false), Value::boolean(false)});
      }
      return rows(
          {field("name", DataType::string()), field("description", DataType::string()),
           field("dataType", DataType::string()), field("nullable", DataType::boolean(), false),
           field("isPartition", DataType::boolean(), false),
           field("isBucket", DataType::boolean(), false),
           field("isCluster", DataType::boolean(), false)},
          out);
    }
    case pb::Catalog::kCreateTable: {
      const auto& c = r.create_table();
      if (c.has_path()) throw_not_supported("createTable with a path (external tables)");
      plan::CreateTableRequest create;
      create.table = plan::parse_attribute_name(c.table_name());
      if (c.has_source()) create.provider = c.source();
      if (c.has_description()) create.comment = c.description();
      for (const auto& [k, v] : c.options()) {
        if (plan::catalog_name(k) == "path") throw_not_supported("createTable with a path (external tables)");
        create.options[k] = v;
      }
      if (!c.has_schema()) {
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1072",
                         "Unable to infer the schema. The schema specification is required to "
                         "create the table " + quote_id(c.table_name()) + ".");
      }
      create.schema = schema_from_proto(c.schema());
      // PySpark returns a DataFrame over this very request, so every later use of it (columns,
      // collect) sends it again: a table already created with this definition is that table.
      auto [db, table] = session.table_ident(create.table);
      auto existing = tables.find_table(db, table);
      bool same = existing.has_value() && existing->schema.size() == create.schema.size() &&
                  (create.provider.empty() || plan::catalog_name(create.provider) == existing->provider);
      for (size_t i = 0; same && i < create.schema.size(); ++i) {
        same = plan::catalog_name(existing->schema[i].name) == plan::catalog_name(create.schema[i].name) &&
               existing->schema[i].type->same_type(*create.schema[i].type);
      }
      if (!same) plan::create_table(session, create, nullptr);
      auto rel = new_node(PlanKind::kUnresolvedRelation);
      rel->table_name = create.table;
      return rel;
    }
    case pb::Catalog::kDropTempView:
      return boolean_result(views.drop_temp_view(r.drop_temp_view().view_name()));
    case pb::Catalog::kDropGlobalTempView:
      return boolean_result(
          plan::global_temp_views().drop_temp_view(r.drop_global_temp_view().view_name()));
    case pb::Catalog::kIsCached:
      return boolean_result(plan::is_table_cached(session, parts(r.is_cached().table_name())));
    case pb::Catalog::kCacheTable: {
      // Lazy, as Spark's Catalog.cacheTable (SQL's CACHE TABLE is eager).
      const auto& c = r.cache_table();
      plan::StorageLevel level = c.has_storage_level() ? storage_level_from_proto(c.storage_level())
                                                       : plan::StorageLevel::memory_and_disk();
      plan::cache_table(session, parts(c.table_name()), level, false);
      return no_result();
    }
    case pb::Catalog::kUncacheTable:
      plan::uncache_table(session, parts(r.uncache_table().table_name()));
      return no_result();
    case pb::Catalog::kRefreshTable:
      require_relation(r.refresh_table().table_name());
      plan::refresh_table(session, parts(r.refresh_table().table_name()));
      return no_result();
    case pb::Catalog::kClearCache:
      session.cache_manager().clear();
      return no_result();
    case pb::Catalog::kRefreshByPath:
      session.cache_manager().invalidate_path(r.refresh_by_path().path(), session.config(), false);
      return no_result();
    case pb::Catalog::kCurrentCatalog:
      return string_result(kCatalogName);
    case pb::Catalog::kSetCurrentCatalog:
      if (r.set_current_catalog().catalog_name() != kCatalogName) {
        throw SparkError(ErrorKind::kAnalysis, "CATALOG_NOT_FOUND",
                         "The catalog " + quote_id(r.set_current_catalog().catalog_name()) +
                             " not found. Consider to set the SQL config spark.sql.catalog." +
                             r.set_current_catalog().catalog_name() + " to a catalog plugin.",
                         {{"catalogName", quote_id(r.set_current_catalog().catalog_name())}},
                         "42P08");
      }
      return no_result();
    case pb::Catalog::kListFunctions: {
      // The built-in functions first, in no catalog or namespace and temporary as Spark marks
      // them (every database lists them), then the session's Python functions, Spark's
      // temporary functions; each part sorted by name.
      const auto& l = r.list_functions();
      if (l.has_db_name() && !tables.database_exists(l.db_name())) schema_not_found(l.db_name());
      auto listed = [&](const std::string& n) {
        return !l.has_pattern() || plan::matches_name_pattern(l.pattern(), n);
      };
      std::vector<std::vector<Value>> out;
      for (const auto& n : functions::Registry::instance().names())
        if (listed(n)) out.push_back(function_row(n));
      // A session function that shadows a built-in one is listed again, described as the
      // built-in one (which calls resolve to).
      for (const auto& n : session.function_names())
        if (listed(n))
          out.push_back(functions::Registry::instance().find_listed(n)
                            ? function_row(n)
                            : session_function_row(session, n));
      return rows(function_schema(), out);
    }
    case pb::Catalog::kFunctionExists: {
      const std::string& name = r.function_exists().function_name();
      return boolean_result(functions::Registry::instance().find_listed(name) != nullptr ||
                            is_session_function(session, name));
    }
    case pb::Catalog::kGetFunction: {
      const std::string& name = r.get_function().function_name();
      if (functions::Registry::instance().find_listed(name))
        return rows(function_schema(), {function_row(name)});
      if (is_session_function(session, name))
        return rows(function_schema(), {session_function_row(session, name)});
      functions::throw_unresolved_routine(name);
    }
    case pb::Catalog::kListCatalogs: {
      const auto& l = r.list_catalogs();
      std::vector<std::vector<Value>> out;
      if (!l.has_pattern() || plan::matches_name_pattern(l.pattern(), kCatalogName)) {
        out.push_back({Value::bytes(kCatalogName), Value()});
      }
      return rows({field("name", DataType::string()), field("description", DataType::string())},
                  out);
    }
    default:
      break;
  }
  const auto* oneof = pb::Catalog::descriptor()->FindOneofByName("cat_type");
  const auto* f = r.GetReflection()->GetOneofFieldDescriptor(r, oneof);
  throw_not_supported("Catalog operation " + std::string(f ? f->name() : "unset"));
}

}  // namespace ember::connect
