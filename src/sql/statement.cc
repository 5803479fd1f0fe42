// Running statements: queries through the engine, commands against the session.

#include "sql/statement.h"

#include <algorithm>
#include <cctype>

#include "common/ascii.h"
#include "common/error.h"
#include "common/timezone.h"
#include "functions/function.h"
#include "plan/cache_manager.h"
#include "plan/table_catalog.h"
#include "sql/parser.h"
#include "sql/result_builder.h"
#include "sql/table_statement.h"

namespace ember::sql {

using plan::PlanKind;
using plan::QueryResult;
using plan::analyze_relation;

namespace {

std::string quoted_name(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "." : "") + quote_id(parts[i]);
  return s;
}

Value str(const std::string& s) { return Value::bytes(s); }


[[noreturn]] void schema_not_found(const std::vector<std::string>& ns) {
  std::vector<std::string> full = ns;
  if (full.size() == 1) full.insert(full.begin(), "spark_catalog");
  std::string name = quoted_name(full);
  throw SparkError(
      ErrorKind::kAnalysis, "SCHEMA_NOT_FOUND",
      "The schema " + name +
          " cannot be found. Verify the spelling and correctness of the schema and catalog.\n"
          "If you did not qualify the name with a catalog, verify the current_schema() output, or "
          "qualify the name with the correct catalog.\nTo tolerate the error on drop use DROP "
          "SCHEMA "
          "IF EXISTS.",
      {{"schemaName", name}}, "42704");
}

[[noreturn]] void table_not_found(const std::vector<std::string>& name) {
  std::vector<std::string> full = name;
  if (full.size() == 1) full.insert(full.begin(), {"spark_catalog", "default"});
  plan::throw_table_not_found(full, "[`spark_catalog`.`default`]");
}


QueryResult describe_columns(const plan::PlanPtr& analyzed) {
  ResultBuilder r;
  r.column("col_name", DataType::string(), false);
  r.column("data_type", DataType::string(), false);
  r.column("comment", DataType::string(), true);
  for (auto& f : analyzed->output_schema())
    r.row({str(f.name), str(f.type->simple_string()), Value()});
  return r.finish();
}

/// Settings that only take effect at startup in Spark.
bool is_static_config(const std::string& key) {
  static const char* const kStatic[] = {
      "spark.sql.warehouse.dir", "spark.sql.catalogImplementation", "spark.sql.extensions",
      "spark.sql.globalTempDatabase", "spark.sql.artifact.isolation.enabled"};
  return std::find(std::begin(kStatic), std::end(kStatic), key) != std::end(kStatic);
}

QueryResult run_set(plan::Session& session, const Statement& s) {
  Config& config = session.config();
  ResultBuilder r;
  r.column("key", DataType::string(), false);
  r.column("value", DataType::string(), false);
  if (s.key.empty()) {
    if (s.verbose) {
      r.column("meaning", DataType::string(), false);
      r.column("Since version", DataType::string(), false);
    }
    auto all = config.all();
    std::sort(all.begin(), all.end());
    for (auto& [k, v] : all) {
      if (s.verbose)
        r.row({str(k), str(v), str(""), str("")});
      else
        r.row({str(k), str(v)});
    }
    return r.finish();
  }
  if (!s.has_value) {
    r.row({str(s.key), str(config.get(s.key).value_or("<undefined>"))});
    return r.finish();
  }
  if (is_static_config(s.key))
    throw SparkError(ErrorKind::kAnalysis, "CANNOT_MODIFY_STATIC_CONFIG",
                     "Cannot modify the value of the static Spark config: \"" + s.key + "\".",
                     {{"key", "\"" + s.key + "\""}}, "46110");
  std::string value = s.value;
  if (s.key == "spark.sql.session.timeZone") {
    if (value.empty()) value = TimeZone::utc().name();  // SET TIME ZONE LOCAL
    if (TimeZone::find(value) == nullptr)
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE.TIME_ZONE",
                       "The value '" + value + "' in the config \"" + s.key +
                           "\" is invalid. Cannot resolve the given timezone.",
                       {{"confName", s.key}, {"confValue", value}}, "22022");
  }
  config.set(s.key, value);
  r.row({str(s.key), str(value)});
  return r.finish();
}

QueryResult run_show_functions(plan::Session& session, const Statement& s) {
  std::vector<std::string> names;
  if (s.key != "USER") names = functions::Registry::instance().names();
  if (s.key != "SYSTEM") {
    // A session function that shadows a built-in one is listed once.
    for (auto& n : session.function_names()) names.push_back(n);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
  }
  ResultBuilder r;
  r.column("function", DataType::string(), false);
  for (auto& n : names)
    if (!s.has_pattern || plan::matches_name_pattern(s.pattern, n)) r.row({str(n)});
  return r.finish();
}

/// DROP TEMPORARY FUNCTION: the session's Python function or table function of the name, which
/// may be qualified with the session's namespace (`session.f`, `system.session.f`).
void drop_temporary_function(plan::Session& session, const Statement& s) {
  const std::string& name = s.name.back();
  std::vector<std::string> qualifier(s.name.begin(), s.name.end() - 1);
  const bool session_qualifier =
      qualifier.empty() || (qualifier.size() == 1 && ascii_lower(qualifier[0]) == "session") ||
      (qualifier.size() == 2 && ascii_lower(qualifier[0]) == "system" &&
       ascii_lower(qualifier[1]) == "session");
  if (!session_qualifier)
    throw SparkError(
        ErrorKind::kParse, "INVALID_TEMP_OBJ_QUALIFIER",
        "Temporary FUNCTION " + quote_id(name) + " cannot be qualified with " +
            quoted_name(qualifier) +
            ". Temporary objects can only be qualified with SESSION or SYSTEM.SESSION.",
        {{"objectType", "FUNCTION"},
         {"objectName", quote_id(name)},
         {"qualifier", quoted_name(qualifier)}},
        "42602");
  if (session.drop_function(name) || s.if_exists) return;
  // A built-in function is no temporary one to drop (unless a session function shadowed it).
  if (functions::Registry::instance().find_listed(name))
    throw SparkError(
        ErrorKind::kAnalysis, "FORBIDDEN_OPERATION",
        "The operation DROP is not allowed on the FUNCTION: " + quote_id(name) + ".",
        {{"statement", "DROP"}, {"objectType", "FUNCTION"}, {"objectName", quote_id(name)}},
        "42809");
  plan::throw_routine_not_found(quote_id(name));
}

/// DROP FUNCTION: Ember keeps no persistent functions, so there is none to drop; a session
/// function's name is Spark's error for a temporary one.
void drop_function(plan::Session& session, const Statement& s) {
  if (s.temporary) return drop_temporary_function(session, s);
  if (s.name.size() == 1 &&
      (session.lookup_function(s.name[0]) || session.lookup_table_function(s.name[0])))
    throw SparkError(ErrorKind::kAnalysis, "EXPECT_PERSISTENT_FUNCTION_NOT_TEMP",
                     quote_id(s.name[0]) +
                         " is a temporary function. 'DROP FUNCTION' expects a persistent function. "
                         "Please use DROP "
                         "TEMPORARY FUNCTION to drop a temporary function.",
                     {{"functionName", quote_id(s.name[0])}}, "42809");
  if (s.if_exists) return;
  std::vector<std::string> full = s.name;
  if (full.size() == 1) full.insert(full.begin(), session.current_database());
  plan::throw_routine_not_found(quoted_name(full));
}

/// The class name the catalog shows for a session function: Spark names the JVM class of the
/// function's builder, Ember the kind of function.
std::string session_function_class(plan::Session& session, const std::string& name) {
  return session.lookup_function(name) ? "ember.udf.PythonFunction"
                                       : "ember.udf.PythonTableFunction";
}

QueryResult run_describe_function(plan::Session& session, const Statement& s) {
  const functions::FunctionDef* d = functions::Registry::instance().find_listed(s.key);
  plan::ExprPtr registered = session.lookup_function(s.key);
  if (!registered) registered = session.lookup_table_function(s.key);
  if (registered && !d) {
    // A session function, in the session's namespace, as Spark describes its temporary ones.
    ResultBuilder r;
    r.column("function_desc", DataType::string(), false);
    r.row({str("Function: spark_catalog.session." + ascii_lower(s.key))});
    r.row({str("Class: " + session_function_class(session, s.key))});
    r.row({str("Usage: N/A.")});
    if (s.verbose)
      r.row({str("Extended Usage:\n    No example/argument for " +
                 (registered->name.empty() ? s.key : registered->name) + ".\n")});
    return r.finish();
  }
  if (!d) functions::throw_unresolved_routine(s.key);
  ResultBuilder r;
  r.column("function_desc", DataType::string(), false);
  for (auto& line : functions::describe_function(*d, s.key, s.verbose)) r.row({str(line)});
  return r.finish();
}

}  // namespace

QueryResult execute_statement(plan::Session& session, const Statement& s,
                              const plan::ExecuteOptions& options) {
  switch (s.kind) {
    case StatementKind::kQuery:
      return session.execute(s.query, options);
    case StatementKind::kSet:
      return run_set(session, s);
    case StatementKind::kReset: {
      Config& config = session.config();
      if (!s.key.empty()) {
        config.unset(s.key);
      } else {
        for (auto& [k, v] : config.all())
          if (!is_static_config(k)) config.unset(k);
      }
      return {};
    }
    case StatementKind::kCreateView: {
      if (s.name.size() != 1)
        throw SparkError(
            ErrorKind::kAnalysis, "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS",
            "CREATE TEMPORARY VIEW or the corresponding Dataset APIs only accept single-part view "
            "names, but got: " +
                quoted_name(s.name) + ".",
            {{"actualName", quoted_name(s.name)}}, "428EK");
      plan::Catalog& views = s.global ? plan::global_temp_views() : session.catalog();
      if (s.if_not_exists && views.lookup_temp_view(s.name[0])) return {};
      plan::PlanPtr q = s.query;
      if (!s.column_names.empty()) {
        plan::PlanPtr analyzed = session.analyze(q);
        if (analyzed->output.size() != s.column_names.size()) {
          std::string view_cols, query_cols;
          for (auto& c : s.column_names) view_cols += (view_cols.empty() ? "" : ", ") + quote_id(c);
          for (auto& a : analyzed->output)
            query_cols += (query_cols.empty() ? "" : ", ") + quote_id(a->name);
          const bool too_many = s.column_names.size() > analyzed->output.size();
          throw SparkError(ErrorKind::kAnalysis,
                           std::string("CREATE_VIEW_COLUMN_ARITY_MISMATCH.") +
                               (too_many ? "NOT_ENOUGH_DATA_COLUMNS" : "TOO_MANY_DATA_COLUMNS"),
                           "Cannot create view " + quoted_name(s.name) + ", the reason is " +
                               (too_many ? "not enough data columns" : "too many data columns") +
                               ":\nView columns: " + view_cols + ".\nData columns: " + query_cols +
                               ".",
                           {{"viewName", quoted_name(s.name)},
                            {"viewColumns", view_cols},
                            {"dataColumns", query_cols}},
                           "21S01");
        }
        auto todf = std::make_shared<plan::PlanNode>();
        todf->kind = PlanKind::kToDF;
        todf->children = {analyzed};
        todf->names = s.column_names;
        q = todf;
      }
      views.create_temp_view(s.name[0], session.analyze(q), s.replace);
      return {};
    }
    case StatementKind::kDropView: {
      if (plan::is_global_temp_name(s.name, session.config())) {
        if (!plan::global_temp_views().drop_temp_view(s.name[1]) && !s.if_exists)
          plan::throw_table_not_found({"spark_catalog", ascii_lower(s.name[0]), s.name[1]},
                                      "[`spark_catalog`.`" + ascii_lower(s.name[0]) + "`]");
        return {};
      }
      bool dropped = s.name.size() == 1 && session.catalog().drop_temp_view(s.name[0]);
      if (!dropped && !s.is_view && s.name.size() <= 3) {
        // DROP TABLE: a temporary view of the name goes first, then the persistent table.
        auto [db, table] = session.table_ident(s.name);
        if (auto info = session.tables().find_table(db, table)) {
          session.cache_manager().invalidate_path(info->location, session.config(), true);
          session.tables().drop_table(db, table);
          dropped = true;
        } else if (!s.if_exists) {
          plan::throw_table_not_found({"spark_catalog", db, table}, "[`spark_catalog`.`" + db + "`]");
        }
      }
      if (!dropped && !s.if_exists) table_not_found(s.name);
      return {};
    }
    case StatementKind::kShowTables: {
      ResultBuilder r;
      r.column("namespace", DataType::string(), false);
      r.column(s.is_view ? "viewName" : "tableName", DataType::string(), false);
      r.column("isTemporary", DataType::boolean(), false);
      std::string db = session.current_database();
      if (!s.name.empty()) {
        if (s.name.size() == 2 && ascii_lower(s.name[0]) == "spark_catalog") db = ascii_lower(s.name[1]);
        else if (s.name.size() == 1) db = ascii_lower(s.name[0]);
        else schema_not_found(s.name);
      }
      const bool global = db == plan::global_temp_database(session.config());
      if (!global && !session.tables().database_exists(db)) schema_not_found({db});
      if (global) {
        auto names = plan::global_temp_views().temp_view_names();
        std::sort(names.begin(), names.end());
        for (auto& n : names)
          if (!s.has_pattern || plan::matches_name_pattern(s.pattern, n))
            r.row({str(db), str(n), Value::boolean(true)});
      } else if (!s.is_view) {
        for (const auto& t : session.tables().tables(db))
          if (!s.has_pattern || plan::matches_name_pattern(s.pattern, t.name))
            r.row({str(t.database), str(t.name), Value::boolean(false)});
      }
      auto names = session.catalog().temp_view_names();
      std::sort(names.begin(), names.end());
      for (auto& n : names)
        if (!s.has_pattern || plan::matches_name_pattern(s.pattern, n))
          r.row({str(""), str(n), Value::boolean(true)});
      return r.finish();
    }
    case StatementKind::kShowFunctions:
      return run_show_functions(session, s);
    case StatementKind::kDropFunction:
      drop_function(session, s);
      return {};
    case StatementKind::kShowNamespaces: {
      ResultBuilder r;
      r.column("namespace", DataType::string(), false);
      for (const auto& d : session.tables().databases())
        if (!s.has_pattern || plan::matches_name_pattern(s.pattern, d.name)) r.row({str(d.name)});
      return r.finish();
    }
    case StatementKind::kShowCurrentNamespace: {
      ResultBuilder r;
      r.column("catalog", DataType::string(), false);
      r.column("namespace", DataType::string(), false);
      r.row({str("spark_catalog"), str(session.current_database())});
      return r.finish();
    }
    case StatementKind::kShowColumns: {
      plan::PlanPtr rel = analyze_relation(session, s.name);
      ResultBuilder r;
      r.column("col_name", DataType::string(), false);
      for (auto& a : rel->output) r.row({str(a->name)});
      return r.finish();
    }
    case StatementKind::kDescribe:
      if (auto table = describe_table(session, s)) return std::move(*table);
      return describe_columns(s.query ? session.analyze(s.query)
                                      : analyze_relation(session, s.name));
    case StatementKind::kDescribeFunction:
      return run_describe_function(session, s);
    case StatementKind::kExplain: {
      ResultBuilder r;
      r.column("plan", DataType::string(), true);
      r.row({str(session.explain(s.query, s.explain_mode))});
      return r.finish();
    }
    case StatementKind::kUse:
      if (s.name.size() == 2 && ascii_lower(s.name[0]) == "spark_catalog") {
        session.set_current_database(s.name[1]);
      } else if (s.name.size() == 1) {
        session.set_current_database(s.name[0]);
      } else {
        schema_not_found(s.name);
      }
      return {};
    case StatementKind::kCreateTable:
    case StatementKind::kInsert:
    case StatementKind::kTruncateTable:
    case StatementKind::kRenameTable:
    case StatementKind::kShowPartitions:
    case StatementKind::kShowCreateTable:
    case StatementKind::kCreateNamespace:
    case StatementKind::kDropNamespace:
      return execute_table_statement(session, s, options);
    case StatementKind::kCacheTable: {
      plan::StorageLevel level = plan::StorageLevel::memory_and_disk();
      if (auto it = s.table_options.find("storagelevel"); it != s.table_options.end())
        level = plan::StorageLevel::from_name(it->second);
      if (s.query) {
        if (s.name.size() != 1) table_not_found(s.name);
        session.catalog().create_temp_view(s.name[0], session.analyze(s.query), false);
      }
      plan::cache_table(session, s.name, level, !s.lazy);
      return {};
    }
    case StatementKind::kUncacheTable:
      try {
        plan::uncache_table(session, s.name);
      } catch (const SparkError& e) {
        if (!s.if_exists || e.error_class() != "TABLE_OR_VIEW_NOT_FOUND") throw;
      }
      return {};
    case StatementKind::kRefreshTable:
      plan::refresh_table(session, s.name);
      return {};
    case StatementKind::kClearCache:
      session.cache_manager().clear();
      return {};
    case StatementKind::kUnsupported:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: " + s.feature + ".", {}, "0A000");
  }
  EMBER_UNREACHABLE("statement kind");
}

QueryResult execute_statement(plan::Session& session, std::string_view sql) {
  return execute_statement(session, parse_statement(sql, ParseOptions::for_session(session)));
}

}  // namespace ember::sql
