#include "plan/table_catalog.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "common/ascii.h"
#include "common/error.h"
#include "common/json.h"
#include "io/file_listing.h"

namespace ember::plan {

namespace fs = std::filesystem;

namespace {

const char* const kMetadataFile = ".ember-catalog.json";
const char* const kDefaultDatabase = "default";
constexpr int kMetadataVersion = 1;

std::string quoted(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "." : "") + quote_id(parts[i]);
  return s;
}

[[noreturn]] void metadata_error(const std::string& path, const std::string& why) {
  throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                   "The catalog metadata file " + path + " cannot be read: " + why);
}

std::string table_json(const TableInfo& t) {
  std::string out = "{\"database\":" + json_quote(t.database) + ",\"name\":" + json_quote(t.name) +
                    ",\"provider\":" + json_quote(t.provider) +
                    ",\"schema\":" + DataType::struct_(t.schema)->json() + ",\"partitionColumns\":[";
  for (size_t i = 0; i < t.partition_columns.size(); ++i)
    out += (i ? "," : "") + json_quote(t.partition_columns[i]);
  out += "],\"options\":{";
  bool first = true;
  for (const auto& [k, v] : t.options) {
    out += (first ? "" : ",") + json_quote(k) + ":" + json_quote(v);
    first = false;
  }
  out += "},\"comment\":" + json_quote(t.comment) +
         ",\"createdMs\":" + std::to_string(t.created_ms) + ",\"location\":" + json_quote(t.location) + "}";
  return out;
}

TableInfo table_from_json(const JsonValue& j) {
  TableInfo t;
  t.database = j.get_string("database");
  t.name = j.get_string("name");
  t.provider = j.get_string("provider", "parquet");
  const JsonValue* schema = j.find("schema");
  if (schema == nullptr) throw std::invalid_argument("table " + t.name + " has no schema");
  // The schema was written by DataType::json(); re-serialising the parsed object keeps this
  // reader independent of the JSON text's layout.
  t.schema = parse_json_type(json_text(*schema))->fields();
  if (const JsonValue* p = j.find("partitionColumns"))
    for (const auto& c : p->items) t.partition_columns.push_back(c.text);
  if (const JsonValue* o = j.find("options"))
    for (const auto& [k, v] : o->members) t.options[k] = v.text;
  t.comment = j.get_string("comment");
  if (const JsonValue* c = j.find("createdMs")) t.created_ms = static_cast<int64_t>(std::stoll(c->text));
  t.location = j.get_string("location");
  return t;
}

}  // namespace

bool TableInfo::is_partition_column(const std::string& column) const {
  const std::string c = catalog_name(column);
  for (const auto& p : partition_columns)
    if (catalog_name(p) == c) return true;
  return false;
}

std::string catalog_name(const std::string& name) { return ascii_lower(name); }

std::string warehouse_path(const Config& config) {
  std::string dir = config.get_or("spark.sql.warehouse.dir", "");
  if (dir.empty()) {
    std::error_code ec;
    return (fs::current_path(ec) / "spark-warehouse").lexically_normal().string();
  }
  return io::local_path(dir);
}

void throw_schema_not_found(const std::string& db) {
  const std::string name = quoted({"spark_catalog", db});
  throw SparkError(ErrorKind::kAnalysis, "SCHEMA_NOT_FOUND",
                   "The schema " + name +
                       " cannot be found. Verify the spelling and correctness of the schema and "
                       "catalog.\nIf you did not qualify the name with a catalog, verify the "
                       "current_schema() output, or qualify the name with the correct catalog.\n"
                       "To tolerate the error on drop use DROP SCHEMA IF EXISTS.",
                   {{"schemaName", name}}, "42704");
}

void throw_routine_not_found(const std::string& shown) {
  throw SparkError(ErrorKind::kAnalysis, "ROUTINE_NOT_FOUND",
                   "The routine " + shown +
                       " cannot be found. Verify the spelling and correctness of the schema and "
                       "catalog.\nIf you did not qualify the name with a schema and catalog, "
                       "verify the current_schema() output, or qualify the name with the correct "
                       "schema and catalog.\nTo tolerate the error on drop use DROP ... IF "
                       "EXISTS.",
                   {{"routineName", shown}}, "42883");
}

void throw_table_not_found(const std::vector<std::string>& shown_parts,
                           const std::string& search_path) {
  const std::string shown = quoted(shown_parts);
  std::map<std::string, std::string> params{{"relationName", shown}};
  if (!search_path.empty()) params["searchPath"] = search_path;
  throw SparkError(ErrorKind::kAnalysis, "TABLE_OR_VIEW_NOT_FOUND",
                   "The table or view " + shown +
                       " cannot be found. Verify the spelling and correctness of the schema and "
                       "catalog.\n" +
                       (search_path.empty() ? "" : "Search path: " + search_path + ".\n") +
                       "If you did not qualify the name with a schema, verify the "
                       "current_schema() output, or qualify the name with the correct schema and "
                       "catalog.\nTo tolerate the error on drop use DROP VIEW IF EXISTS or DROP "
                       "TABLE IF EXISTS.",
                   std::move(params), "42P01");
}

std::string relation_search_path(const std::string& current_database) {
  return "[`system`.`builtin`, `system`.`session`, " + quoted({"spark_catalog", current_database}) +
         "]";
}

void throw_table_already_exists(const std::string& db, const std::string& table) {
  const std::string shown = quoted({"spark_catalog", db, table});
  throw SparkError(ErrorKind::kAnalysis, "TABLE_OR_VIEW_ALREADY_EXISTS",
                   "Cannot create table or view " + shown +
                       " because it already exists.\nChoose a different name, drop or replace the "
                       "existing object, or add the IF NOT EXISTS clause to tolerate pre-existing "
                       "objects.",
                   {{"relationName", shown}}, "42P07");
}

std::shared_ptr<TableCatalog> TableCatalog::open(const std::string& warehouse) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<TableCatalog>> open_catalogs;
  const std::string path = fs::path(io::local_path(warehouse)).lexically_normal().string();
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = open_catalogs[path];
  if (!slot) slot = std::make_shared<TableCatalog>(path);
  return slot;
}

TableCatalog::TableCatalog(std::string warehouse_path) : warehouse_(std::move(warehouse_path)) {
  while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
  databases_[kDefaultDatabase] = {kDefaultDatabase, "default database", warehouse_};
  load();
}

std::string TableCatalog::metadata_path() const { return warehouse_ + "/" + kMetadataFile; }

std::string TableCatalog::key(const std::string& db, const std::string& table) const {
  return catalog_name(db) + "." + catalog_name(table);
}

void TableCatalog::load() {
  const std::string path = metadata_path();
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // a new warehouse
  std::stringstream text;
  text << in.rdbuf();
  JsonValue doc;
  try {
    doc = parse_json(text.str());
    for (const auto& d : doc.find("databases") ? doc.find("databases")->items : std::vector<JsonValue>{}) {
      DatabaseInfo info{d.get_string("name"), d.get_string("comment"), d.get_string("location")};
      databases_[info.name] = info;
    }
    for (const auto& t : doc.find("tables") ? doc.find("tables")->items : std::vector<JsonValue>{}) {
      TableInfo info = table_from_json(t);
      tables_[key(info.database, info.name)] = std::move(info);
    }
  } catch (const std::exception& e) {
    metadata_error(path, e.what());
  }
}

void TableCatalog::save() const {
  std::string out = "{\"version\":" + std::to_string(kMetadataVersion) + ",\"databases\":[";
  bool first = true;
  for (const auto& [name, d] : databases_) {
    if (name == kDefaultDatabase) continue;
    out += std::string(first ? "" : ",") + "{\"name\":" + json_quote(d.name) +
           ",\"comment\":" + json_quote(d.comment) + ",\"location\":" + json_quote(d.location) + "}";
    first = false;
  }
  out += "],\"tables\":[";
  first = true;
  for (const auto& [k, t] : tables_) {
    out += (first ? "\n" : ",\n") + table_json(t);
    first = false;
  }
  out += "]}\n";
  std::error_code ec;
  fs::create_directories(warehouse_, ec);
  const std::string tmp = metadata_path() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << out;
    f.flush();
    if (!f) {
      throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                       "Cannot write the catalog metadata file " + tmp + ".");
    }
  }
  fs::rename(tmp, metadata_path(), ec);
  if (ec) {
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                     "Cannot write the catalog metadata file " + metadata_path() + ": " + ec.message());
  }
}

bool TableCatalog::database_exists(const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  return databases_.count(catalog_name(db)) != 0;
}

std::optional<DatabaseInfo> TableCatalog::database(const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = databases_.find(catalog_name(db));
  if (it == databases_.end()) return std::nullopt;
  return it->second;
}

void TableCatalog::create_database(const std::string& db, const std::string& comment, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string name = catalog_name(db);
  if (databases_.count(name)) {
    if (if_not_exists) return;
    throw SparkError(ErrorKind::kAnalysis, "SCHEMA_ALREADY_EXISTS",
                     "Cannot create schema " + quote_id(name) +
                         " because it already exists.\nChoose a different name, drop the existing "
                         "schema, or add the IF NOT EXISTS clause to tolerate pre-existing schema.",
                     {{"schemaName", quote_id(name)}}, "42P06");
  }
  DatabaseInfo info{name, comment, warehouse_ + "/" + name + ".db"};
  std::error_code ec;
  fs::create_directories(info.location, ec);
  databases_[name] = info;
  save();
}

void TableCatalog::drop_database(const std::string& db, bool if_exists, bool cascade) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string name = catalog_name(db);
  auto it = databases_.find(name);
  if (it == databases_.end()) {
    if (if_exists) return;
    throw_schema_not_found(name);
  }
  if (name == kDefaultDatabase) {
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE.DROP_DATABASE",
                     "The feature is not supported: Drop the default database `spark_catalog`.`default`.",
                     {{"database", "`spark_catalog`.`default`"}}, "0A000");
  }
  std::vector<std::string> owned;
  for (const auto& [k, t] : tables_)
    if (t.database == name) owned.push_back(k);
  if (!owned.empty() && !cascade) {
    throw SparkError(ErrorKind::kAnalysis, "SCHEMA_NOT_EMPTY",
                     "Cannot drop a schema " + quote_id(name) +
                         " because it contains objects.\nUse DROP SCHEMA ... CASCADE to drop the "
                         "schema and all its objects.",
                     {{"schemaName", quote_id(name)}}, "2BP01");
  }
  for (const auto& k : owned) tables_.erase(k);
  const std::string location = it->second.location;
  databases_.erase(it);
  save();
  std::error_code ec;
  fs::remove_all(location, ec);
}

std::vector<DatabaseInfo> TableCatalog::databases() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<DatabaseInfo> out;
  for (const auto& [k, d] : databases_) out.push_back(d);
  return out;
}

std::optional<TableInfo> TableCatalog::find_table(const std::string& db, const std::string& table) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(key(db, table));
  if (it == tables_.end()) return std::nullopt;
  return it->second;
}

TableInfo TableCatalog::table(const std::string& db, const std::string& table) const {
  auto t = find_table(db, table);
  if (!t) throw_table_not_found({"spark_catalog", catalog_name(db), table});
  return *t;
}

std::vector<TableInfo> TableCatalog::tables(const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string name = catalog_name(db);
  if (!databases_.count(name)) throw_schema_not_found(name);
  std::vector<TableInfo> out;
  for (const auto& [k, t] : tables_)
    if (t.database == name) out.push_back(t);
  return out;
}

std::string TableCatalog::default_location(const std::string& db, const std::string& table) const {
  const std::string d = catalog_name(db), t = catalog_name(table);
  return d == kDefaultDatabase ? warehouse_ + "/" + t : warehouse_ + "/" + d + ".db/" + t;
}

void TableCatalog::create_table(TableInfo info, bool replace) {
  std::lock_guard<std::mutex> lock(mu_);
  info.database = catalog_name(info.database);
  info.name = catalog_name(info.name);
  if (!databases_.count(info.database)) throw_schema_not_found(info.database);
  const std::string k = key(info.database, info.name);
  if (!replace && tables_.count(k)) throw_table_already_exists(info.database, info.name);
  tables_[k] = std::move(info);
  save();
}

void TableCatalog::drop_table(const std::string& db, const std::string& table) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(key(db, table));
  if (it == tables_.end()) throw_table_not_found({"spark_catalog", catalog_name(db), catalog_name(table)});
  const std::string location = it->second.location;
  tables_.erase(it);
  save();
  std::error_code ec;
  fs::remove_all(location, ec);
}

void TableCatalog::rename_table(const std::string& db, const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(key(db, from));
  if (it == tables_.end()) throw_table_not_found({"spark_catalog", catalog_name(db), catalog_name(from)});
  const std::string new_key = key(db, to);
  if (tables_.count(new_key)) throw_table_already_exists(catalog_name(db), catalog_name(to));
  TableInfo info = it->second;
  const std::string d = catalog_name(db), t = catalog_name(to);
  const std::string new_location = d == kDefaultDatabase ? warehouse_ + "/" + t : warehouse_ + "/" + d + ".db/" + t;
  if (fs::exists(new_location)) {
    throw SparkError(ErrorKind::kAnalysis, "LOCATION_ALREADY_EXISTS",
                     "Cannot name the managed table as " + quoted({"spark_catalog", d, t}) +
                         ", as its associated location " + quote_id("file:" + new_location) +
                         " already exists. Please pick a different table name, or remove the "
                         "existing location first.",
                     {{"identifier", quoted({"spark_catalog", d, t})},
                      {"location", quote_id("file:" + new_location)}},
                     "42710");
  }
  std::error_code ec;
  if (fs::exists(info.location)) {
    fs::rename(info.location, new_location, ec);
    if (ec) {
      throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                       "Cannot move " + info.location + " to " + new_location + ": " + ec.message());
    }
  }
  info.name = t;
  info.location = new_location;
  tables_.erase(it);
  tables_[new_key] = std::move(info);
  save();
}

bool matches_name_pattern(const std::string& pattern, const std::string& name) {
  std::string n = ascii_lower(name);
  size_t start = 0;
  while (start <= pattern.size()) {
    size_t bar = pattern.find('|', start);
    std::string alt =
        ascii_lower(pattern.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    alt.erase(0, alt.find_first_not_of(' '));
    alt.erase(alt.find_last_not_of(' ') + 1);
    // Glob match with '*'.
    size_t p = 0, s = 0, star = std::string::npos, mark = 0;
    while (s < n.size()) {
      if (p < alt.size() && (alt[p] == n[s] || alt[p] == '.')) {
        ++p;
        ++s;
      } else if (p < alt.size() && alt[p] == '*') {
        star = p++;
        mark = s;
      } else if (star != std::string::npos) {
        p = star + 1;
        s = ++mark;
      } else {
        break;
      }
    }
    while (p < alt.size() && alt[p] == '*') ++p;
    if (s == n.size() && p == alt.size()) return true;
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return false;
}

}  // namespace ember::plan
