#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "plan/logical_plan.h"
#include "plan/table_catalog.h"

namespace ember::plan {

class CacheManager;

/// Temporary views and (later) tables of a session. Names are matched case-insensitively
/// unless spark.sql.caseSensitive is set.
class Catalog {
 public:
  void create_temp_view(const std::string& name, PlanPtr plan, bool replace);
  bool drop_temp_view(const std::string& name);
  /// The analyzed plan of a view, or null.
  PlanPtr lookup_temp_view(const std::string& name) const;
  std::vector<std::string> temp_view_names() const;

  /// The session's cache, which replacing a view with another plan or dropping it uncaches
  /// from (with what reads the view), as in Spark. Set once by the session.
  void set_cache_manager(CacheManager* cache) { cache_ = cache; }
  /// The session's configuration, whose spark.sql.caseSensitive decides how names match.
  void set_config(const Config* config) { config_ = config; }

 private:
  std::string key(const std::string& name) const;

  mutable std::mutex mu_;
  std::map<std::string, PlanPtr> views_;  // key: the name, lower-case unless case-sensitive
  CacheManager* cache_ = nullptr;
  const Config* config_ = nullptr;
};

/// Spark's global temporary views: one set for the whole server, visible to every session as
/// `global_temp.name` (the database spark.sql.globalTempDatabase names) until dropped or the
/// server stops.
Catalog& global_temp_views();
/// The reserved database of global temporary views, lower-case (`global_temp`).
std::string global_temp_database(const Config& conf);
/// Whether a two-part name (`global_temp.v`) names a global temporary view.
bool is_global_temp_name(const std::vector<std::string>& name, const Config& conf);

enum class ExplainMode { kSimple, kExtended, kCodegen, kCost, kFormatted };

/// Options of one execution.
struct ExecuteOptions {
  /// Set by Interrupt: checked between batches; the query then fails with OPERATION_CANCELED.
  std::shared_ptr<std::atomic<bool>> cancelled;
};

/// The result of a query: its schema and batches in result order.
struct QueryResult {
  Schema schema;
  std::vector<Batch> batches;
  int64_t num_rows() const;
};

/// One Spark session: configuration, catalog and the entry points that take a plan from the
/// client through analysis, optimization, physical planning and execution. Thread-safe: a
/// client may run several operations on one session at once.
class Session {
 public:
  explicit Session(std::string session_id);
  ~Session();
  const std::string& id() const { return id_; }
  Config& config() { return config_; }
  const Config& config() const { return config_; }
  Catalog& catalog() { return catalog_; }
  /// The persistent tables and databases of the warehouse (spark.sql.warehouse.dir), shared
  /// with every session on the same warehouse.
  TableCatalog& tables() const;
  /// The database unqualified table names resolve in (USE db); `default` at first.
  std::string current_database() const;
  void set_current_database(const std::string& db);
  /// The persistent table a name refers to (`t`, `db.t`, `spark_catalog.db.t`), or nullopt.
  /// Temporary views are not consulted: callers that resolve relations look them up first.
  std::optional<TableInfo> find_table(const std::vector<std::string>& name) const;
  /// The (database, table) a name refers to, whether or not it exists; throws
  /// REQUIRES_SINGLE_PART_NAMESPACE-style errors for names of more parts.
  std::pair<std::string, std::string> table_ident(const std::vector<std::string>& name) const;
  /// The cached plans (DataFrame.cache, CACHE TABLE); freed with the session.
  CacheManager& cache_manager() { return *cache_; }

  /// Session functions (spark.udf.register): `function` is the call with no arguments; SQL
  /// calls by `name` (case-insensitive) take it with their arguments. Registering a name again
  /// replaces the function.
  void register_function(const std::string& name, ExprPtr function);
  /// The registered function of that name, or null.
  ExprPtr lookup_function(const std::string& name) const;
  /// Session table functions (spark.udtf.register): `function` is the Python UDTF's generator
  /// with no arguments; SQL calls it by `name` (case-insensitive) in FROM and LATERAL.
  void register_table_function(const std::string& name, ExprPtr function);
  /// The registered table function of that name, or null.
  ExprPtr lookup_table_function(const std::string& name) const;
  /// The names of the session's functions and table functions (Spark's temporary functions),
  /// in lower case as Spark lists them, sorted.
  std::vector<std::string> function_names() const;
  /// DROP TEMPORARY FUNCTION: removes the session function of that name, else the table
  /// function; false when the session has neither.
  bool drop_function(const std::string& name);

  /// Resolves names and types; throws AnalysisException-style SparkErrors.
  PlanPtr analyze(const PlanPtr& unresolved);
  /// Applies the enabled optimizer rules to an analyzed plan.
  PlanPtr optimize(const PlanPtr& analyzed);
  /// Analyzes, optimizes, plans and runs; returns all result batches in order.
  QueryResult execute(const PlanPtr& unresolved, const ExecuteOptions& options = {});
  /// Runs an already analyzed plan.
  QueryResult execute_analyzed(const PlanPtr& analyzed, const ExecuteOptions& options = {});
  /// Spark's `explain` text for the given mode.
  std::string explain(const PlanPtr& unresolved, ExplainMode mode);

 private:
  std::string id_;
  Config config_;
  Catalog catalog_;
  std::unique_ptr<CacheManager> cache_;
  mutable std::mutex db_mu_;
  std::string current_database_ = "default";
  std::map<std::string, ExprPtr> functions_;  // guarded by db_mu_; key: the name in lower case
  std::map<std::string, ExprPtr> table_functions_;  // guarded by db_mu_; key as functions_
};

}  // namespace ember::plan
