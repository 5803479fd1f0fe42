#include "plan/session.h"

#include <algorithm>
#include <cctype>

#include "common/datetime.h"
#include "common/error.h"
#include "exec/operator.h"
#include "plan/analyzer.h"
#include "plan/cache_manager.h"
#include "plan/optimizer.h"
#include "plan/physical_planner.h"
#include "plan/plan_equivalence.h"

namespace ember::plan {

namespace {
std::string key_of(const std::string& name) {
  std::string s = name;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::string Catalog::key(const std::string& name) const {
  return config_ != nullptr && config_->case_sensitive() ? name : key_of(name);
}

Catalog& global_temp_views() {
  static Catalog* views = new Catalog();  // lives as long as the server
  return *views;
}

std::string global_temp_database(const Config& conf) {
  return key_of(conf.get_or("spark.sql.globalTempDatabase", "global_temp"));
}

bool is_global_temp_name(const std::vector<std::string>& name, const Config& conf) {
  return name.size() == 2 && key_of(name[0]) == global_temp_database(conf);
}

void Catalog::create_temp_view(const std::string& name, PlanPtr plan, bool replace) {
  std::unique_lock<std::mutex> lock(mu_);
  std::string k = key(name);
  if (!replace && views_.count(k))
    throw SparkError(ErrorKind::kAnalysis, "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                     "Cannot create the temporary view " + quote_id(name) + " because it already exists.\n"
                     "Choose a different name, drop or replace the existing view.",
                     {{"relationName", quote_id(name)}});
  PlanPtr old = views_.count(k) ? views_[k] : nullptr;
  views_[k] = plan;
  lock.unlock();
  if (old && cache_ && !plans_same_result(old, plan)) cache_->uncache(old, true);
}

bool Catalog::drop_temp_view(const std::string& name) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = views_.find(key(name));
  if (it == views_.end()) return false;
  PlanPtr old = it->second;
  views_.erase(it);
  lock.unlock();
  if (cache_) cache_->uncache(old, true);
  return true;
}

PlanPtr Catalog::lookup_temp_view(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = views_.find(key(name));
  return it == views_.end() ? nullptr : it->second;
}

std::vector<std::string> Catalog::temp_view_names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (auto& [k, v] : views_) out.push_back(k);
  return out;
}

int64_t QueryResult::num_rows() const {
  int64_t n = 0;
  for (auto& b : batches) n += b.num_rows;
  return n;
}

Session::Session(std::string session_id)
    : id_(std::move(session_id)), cache_(std::make_unique<CacheManager>()) {
  catalog_.set_cache_manager(cache_.get());
  catalog_.set_config(&config_);
}

Session::~Session() = default;

TableCatalog& Session::tables() const {
  // Each call looks the warehouse up again: the catalog object is cached per directory, and
  // the setting is static, so this is one map lookup.
  return *TableCatalog::open(warehouse_path(config_));
}

std::string Session::current_database() const {
  std::lock_guard<std::mutex> lock(db_mu_);
  return current_database_;
}

void Session::set_current_database(const std::string& db) {
  if (!tables().database_exists(db)) throw_schema_not_found(catalog_name(db));
  std::lock_guard<std::mutex> lock(db_mu_);
  current_database_ = catalog_name(db);
}

namespace {
std::string function_key(const std::string& name) {
  std::string k = name;
  for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}
}  // namespace

void Session::register_function(const std::string& name, ExprPtr function) {
  std::lock_guard<std::mutex> lock(db_mu_);
  functions_[function_key(name)] = std::move(function);
}

ExprPtr Session::lookup_function(const std::string& name) const {
  std::lock_guard<std::mutex> lock(db_mu_);
  auto it = functions_.find(function_key(name));
  return it == functions_.end() ? nullptr : it->second;
}

void Session::register_table_function(const std::string& name, ExprPtr function) {
  std::lock_guard<std::mutex> lock(db_mu_);
  table_functions_[function_key(name)] = std::move(function);
}

ExprPtr Session::lookup_table_function(const std::string& name) const {
  std::lock_guard<std::mutex> lock(db_mu_);
  auto it = table_functions_.find(function_key(name));
  return it == table_functions_.end() ? nullptr : it->second;
}

std::vector<std::string> Session::function_names() const {
  std::lock_guard<std::mutex> lock(db_mu_);
  std::vector<std::string> names;
  for (const auto& [name, f] : functions_) names.push_back(name);
  for (const auto& [name, f] : table_functions_)
    if (!functions_.count(name)) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

bool Session::drop_function(const std::string& name) {
  std::lock_guard<std::mutex> lock(db_mu_);
  return functions_.erase(function_key(name)) > 0 || table_functions_.erase(function_key(name)) > 0;
}

std::pair<std::string, std::string> Session::table_ident(const std::vector<std::string>& name) const {
  if (name.size() == 1) return {current_database(), catalog_name(name[0])};
  if (name.size() == 2) return {catalog_name(name[0]), catalog_name(name[1])};
  if (name.size() == 3 && catalog_name(name[0]) == "spark_catalog")
    return {catalog_name(name[1]), catalog_name(name[2])};
  std::string shown;
  for (size_t i = 0; i < name.size(); ++i) shown += (i ? "." : "") + quote_id(name[i]);
  throw SparkError(ErrorKind::kAnalysis, "REQUIRES_SINGLE_PART_NAMESPACE",
                   "spark_catalog requires a single-part namespace, but got " + shown + ".",
                   {{"sessionCatalog", "spark_catalog"}, {"namespace", shown}}, "42K05");
}

std::optional<TableInfo> Session::find_table(const std::vector<std::string>& name) const {
  if (name.empty() || name.size() > 3) return std::nullopt;
  if (name.size() == 3 && catalog_name(name[0]) != "spark_catalog") return std::nullopt;
  auto [db, table] = table_ident(name);
  return tables().find_table(db, table);
}

PlanPtr Session::analyze(const PlanPtr& unresolved) { return analyze_plan(unresolved, *this); }

PlanPtr Session::optimize(const PlanPtr& analyzed) { return optimize_plan(analyzed, config_); }

QueryResult Session::execute(const PlanPtr& unresolved, const ExecuteOptions& options) {
  return execute_analyzed(analyze(unresolved), options);
}

QueryResult Session::execute_analyzed(const PlanPtr& analyzed, const ExecuteOptions& options) {
  PlanPtr optimized = optimize(cache_->use_cached_data(analyzed));
  PhysicalPlan physical = create_physical_plan(optimized, *this);
  MemoryPool pool("query", MemoryPool::root());
  exec::ExecContext ctx;
  ctx.eval.ansi = config_.ansi_enabled();
  ctx.eval.time_zone = config_.session_time_zone();
  ctx.eval.config = &config_;
  ctx.eval.query_start_micros = now_micros();
  ctx.pool = &pool;
  ctx.cancelled = options.cancelled;
  QueryResult result;
  result.schema = analyzed->output_schema();
  result.batches = exec::run_plan(*physical.root, ctx);
  // Output columns are in the analyzed order; the physical plan keeps them, but a plan with
  // no columns needs its row count preserved as batches without columns.
  return result;
}

std::string Session::explain(const PlanPtr& unresolved, ExplainMode mode) {
  PlanPtr analyzed = analyze(unresolved);
  PlanPtr optimized = optimize(cache_->use_cached_data(analyzed));
  PhysicalPlan physical = create_physical_plan(optimized, *this);
  std::string phys = exec::physical_tree_string(*physical.root);
  // GPU placement report (spark.rapids.sql.explain), after the tree.
  if (!physical.gpu_explain.empty()) {
    phys += "\n";
    for (auto& line : physical.gpu_explain) phys += line + "\n";
  }
  if (mode == ExplainMode::kSimple) return "== Physical Plan ==\n" + phys + "\n";
  std::string schema;
  for (auto& f : analyzed->output_schema()) schema += (schema.empty() ? "" : ", ") + f.name + ": " + f.type->simple_string();
  return "== Parsed Logical Plan ==\n" + plan_tree_string(unresolved) + "\n== Analyzed Logical Plan ==\n" + schema + "\n" +
         plan_tree_string(analyzed) + "\n== Optimized Logical Plan ==\n" + plan_tree_string(optimized) +
         "\n== Physical Plan ==\n" + phys + "\n";
}

}  // namespace ember::plan
