#include <algorithm>
#include <map>

#include "common/timezone.h"
#include "connect/errors.h"
#include "connect/handlers.h"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

/// Spark's values for settings the PySpark client reads that the engine itself does not
/// define. A few differ from Spark on purpose: Ember does not accept compressed plans and has
/// no JVM stack traces to show.
const std::map<std::string, std::string>& client_defaults() {
  static const std::map<std::string, std::string> kDefaults = {
      {"spark.connect.session.planCompression.threshold", "-1"},
      {"spark.connect.session.planCompression.defaultAlgorithm", "NONE"},
      {"spark.sql.connect.serverStacktrace.enabled", "false"},
      {"spark.sql.pyspark.jvmStacktrace.enabled", "false"},
      {"spark.sql.artifact.isolation.enabled", "false"},
      {"spark.sql.artifact.isolation.alwaysApplyClassloader", "false"},
      {"spark.sql.catalogImplementation", "in-memory"},
      {"spark.sql.execution.arrow.pyspark.enabled", "true"},
      {"spark.sql.execution.arrow.pyspark.fallback.enabled", "true"},
      {"spark.sql.execution.arrow.pyspark.selfDestruct.enabled", "false"},
      {"spark.sql.execution.arrow.pyspark.validateSchema.enabled", "false"},
      {"spark.sql.execution.arrow.useLargeVarTypes", "false"},
      {"spark.sql.execution.pandas.convertToArrowArraySafely", "true"},
      {"spark.sql.execution.pandas.inferPandasDictAsMap", "false"},
      {"spark.sql.execution.pandas.structHandlingMode", "legacy"},
      {"spark.sql.execution.pandas.udf.buffer.size", "65536"},
      {"spark.sql.execution.pyspark.binaryAsBytes", "true"},
      {"spark.sql.execution.pythonUDF.arrow.enabled", "true"},
      {"spark.sql.execution.pythonUDTF.arrow.enabled", "true"},
      {"spark.sql.execution.pythonUDF.pandas.intToDecimalCoercionEnabled", "false"},
      {"spark.sql.legacy.execution.pandas.groupedMap.assignColumnsByName", "true"},
      {"spark.sql.pyspark.inferNestedDictAsStruct.enabled", "false"},
      {"spark.sql.pyspark.legacy.inferArrayTypeFromFirstElement.enabled", "false"},
      {"spark.sql.pyspark.legacy.inferMapTypeFromFirstPair.enabled", "false"},
      {"spark.sql.pyspark.plotting.max_rows", "1000"},
      {"spark.sql.session.localRelationCacheThreshold", "1048576"},
      {"spark.sql.session.localRelationSizeLimit", "3221225472"},
      {"spark.sql.session.localRelationChunkSizeRows", "10000"},
      {"spark.sql.session.localRelationChunkSizeBytes", "16777216"},
      {"spark.sql.session.localRelationBatchOfChunksSizeBytes", "1073741824"},
      {"spark.sql.debug.maxToStringFields", "25"},
      {"spark.sql.adaptive.enabled", "true"},
      {"spark.sql.crossJoin.enabled", "true"},
      {"spark.sql.autoBroadcastJoinThreshold", "10485760b"},
  };
  return kDefaults;
}

/// Settings that only take effect at startup in Spark.
bool is_static(const std::string& key) {
  static const char* kStatic[] = {"spark.sql.warehouse.dir", "spark.sql.catalogImplementation",
                                  "spark.sql.extensions", "spark.sql.globalTempDatabase",
                                  "spark.sql.artifact.isolation.enabled"};
  return std::find(std::begin(kStatic), std::end(kStatic), key) != std::end(kStatic);
}

/// Settings of Spark's core (the SparkContext's) that a session cannot change.
bool is_core_setting(const std::string& key) {
  static const char* kCore[] = {"spark.checkpoint.dir",   "spark.driver.memory",
                                "spark.driver.cores",     "spark.executor.memory",
                                "spark.executor.cores",   "spark.executor.instances",
                                "spark.task.cpus"};
  return std::find(std::begin(kCore), std::end(kCore), key) != std::end(kCore);
}

[[noreturn]] void invalid_value(const std::string& key, const std::string& value,
                                const std::string& sub_class, const std::string& detail,
                                std::map<std::string, std::string> extra = {}) {
  std::map<std::string, std::string> params = {{"confName", key}, {"confValue", value}};
  params.insert(extra.begin(), extra.end());
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE." + sub_class,
                   "The value '" + value + "' in the config \"" + key + "\" is invalid. " + detail,
                   std::move(params), "22022");
}

/// Rejects values Spark would reject for the settings Ember interprets.
void validate(const ConnectSession& session, const std::string& key, const std::string& value) {
  if (is_static(key)) {
    throw SparkError(ErrorKind::kAnalysis, "CANNOT_MODIFY_STATIC_CONFIG",
                     "Cannot modify the value of the static Spark config: \"" + key + "\".",
                     {{"key", "\"" + key + "\""}}, "46110");
  }
  if (is_core_setting(key)) {
    const std::string docroot = "https://spark.apache.org/docs/latest";
    throw SparkError(ErrorKind::kAnalysis, "CANNOT_MODIFY_CONFIG",
                     "Cannot modify the value of the Spark config: \"" + key + "\".\nSee also '" +
                         docroot + "/sql-migration-guide.html#ddl-statements'.",
                     {{"key", "\"" + key + "\""}, {"docroot", docroot}}, "46110");
  }
  if (key == "spark.sql.session.timeZone") {
    if (TimeZone::find(value) == nullptr) {
      invalid_value(key, value, "TIME_ZONE", "Cannot resolve the given timezone.");
    }
    return;
  }
  // Boolean settings: those whose default is a boolean.
  auto current = config_value(session, key);
  if (current && Config::parse_bool(*current) && !Config::parse_bool(value)) {
    invalid_value(key, value, "TYPE_MISMATCH", "It should be a/an 'boolean' value.",
                  {{"confType", "boolean"}});
  }
}

void add_pair(pb::ConfigResponse* response, const std::string& key,
              const std::optional<std::string>& value) {
  auto* kv = response->add_pairs();
  kv->set_key(key);
  if (value) kv->set_value(*value);
}

}  // namespace

std::optional<std::string> config_value(const ConnectSession& session, const std::string& key) {
  auto v = session.engine().config().get(key);
  if (v) return v;
  auto it = client_defaults().find(key);
  if (it != client_defaults().end()) return it->second;
  return std::nullopt;
}

void handle_config(ConnectSession& session, const pb::ConfigRequest& request,
                   pb::ConfigResponse* response) {
  Config& config = session.engine().config();
  const auto& op = request.operation();
  switch (op.op_type_case()) {
    case pb::ConfigRequest::Operation::kSet:
      for (const auto& kv : op.set().pairs()) {
        if (!kv.has_value()) {
          config.unset(kv.key());
          continue;
        }
        if (op.set().silent()) {
          // A client's own settings at session start: what the session cannot take is skipped.
          try {
            validate(session, kv.key(), kv.value());
          } catch (const SparkError&) {
            continue;
          }
        } else {
          validate(session, kv.key(), kv.value());
        }
        config.set(kv.key(), kv.value());
      }
      break;
    case pb::ConfigRequest::Operation::kGet:
      for (const auto& key : op.get().keys()) {
        auto v = config_value(session, key);
        if (!v) {
          throw SparkError(ErrorKind::kRuntime, "SQL_CONF_NOT_FOUND",
                           "The SQL config \"" + key +
                               "\" cannot be found. Please verify that the config exists.",
                           {{"sqlConf", "\"" + key + "\""}}, "42K0I");
        }
        add_pair(response, key, v);
      }
      break;
    case pb::ConfigRequest::Operation::kGetWithDefault:
      for (const auto& kv : op.get_with_default().pairs()) {
        auto v = config_value(session, kv.key());
        add_pair(response, kv.key(),
                 v ? v : (kv.has_value() ? std::optional<std::string>(kv.value()) : std::nullopt));
      }
      break;
    case pb::ConfigRequest::Operation::kGetOption:
      for (const auto& key : op.get_option().keys())
        add_pair(response, key, config_value(session, key));
      break;
    case pb::ConfigRequest::Operation::kGetAll: {
      const std::string prefix = op.get_all().has_prefix() ? op.get_all().prefix() : "";
      for (const auto& [k, v] : config.all()) {
        if (k.compare(0, prefix.size(), prefix) == 0) add_pair(response, k, v);
      }
      break;
    }
    case pb::ConfigRequest::Operation::kUnset:
      for (const auto& key : op.unset().keys()) {
        if (is_static(key)) validate(session, key, "");
        config.unset(key);
      }
      break;
    case pb::ConfigRequest::Operation::kIsModifiable:
      for (const auto& key : op.is_modifiable().keys()) {
        add_pair(response, key, config.is_modifiable(key) ? "true" : "false");
      }
      break;
    case pb::ConfigRequest::Operation::OP_TYPE_NOT_SET:
      throw_invalid_plan(
          "INVALID_ONE_OF_FIELD_NOT_SET",
          "This oneOf field in spark.connect.ConfigRequest.Operation is not set: "
          "op_type",
          {{"fullName", "spark.connect.ConfigRequest.Operation"}, {"name", "op_type"}});
  }
}

}  // namespace ember::connect
