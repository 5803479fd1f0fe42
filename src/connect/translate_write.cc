// DataFrameWriter (WriteOperation): file sinks.

#include "connect/translate_write.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "connect/errors.h"
#include "connect/plan_input.h"
#include "connect/translate.h"
#include "io/data_sink.h"
#include "io/file_listing.h"
#include "plan/cache_manager.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;

void run_write_operation(ConnectSession& session, Operation& op, const pb::WriteOperation& w) {
  if (w.has_bucket_by()) throw_not_supported("bucketBy");
  if (w.sort_column_names_size() > 0) throw_not_supported("sortBy");
  if (w.clustering_columns_size() > 0) throw_not_supported("clusterBy");
  if (w.has_table()) {
    run_table_write(session, op, w);
    return;
  }

  io::WriteRequest request;
  const plan::Session& engine = session.engine();
  request.config = &engine.config();
  // Spark's default source (spark.sql.sources.default) when no format is given.
  request.format = w.has_source() && !w.source().empty()
                       ? w.source()
                       : engine.config().get_or("spark.sql.sources.default", "parquet");
  for (const auto& [k, v] : w.options()) request.options.set(k, v);
  if (w.has_path()) request.path = w.path();
  else request.path = request.options.get("path");
  request.partition_by.assign(w.partitioning_columns().begin(), w.partitioning_columns().end());
  switch (w.mode()) {
    case pb::WriteOperation::SAVE_MODE_APPEND: request.mode = io::SaveMode::kAppend; break;
    case pb::WriteOperation::SAVE_MODE_OVERWRITE: request.mode = io::SaveMode::kOverwrite; break;
    case pb::WriteOperation::SAVE_MODE_IGNORE: request.mode = io::SaveMode::kIgnore; break;
    default: request.mode = io::SaveMode::kErrorIfExists; break;
  }
  // Spark's dynamic partition overwrite (the partitionOverwriteMode option, else the session's
  // spark.sql.sources.partitionOverwriteMode) replaces only the partitions the job writes.
  if (request.mode == io::SaveMode::kOverwrite && !request.partition_by.empty()) {
    std::string overwrite = request.options.get(
        "partitionOverwriteMode", engine.config().get_or("spark.sql.sources.partitionOverwriteMode", "static"));
    std::transform(overwrite.begin(), overwrite.end(), overwrite.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (overwrite == "dynamic") request.overwrite_scope = io::OverwriteScope::kWrittenPartitions;
  }

  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr input = translator.relation(w.input());
  if (request.mode == io::SaveMode::kOverwrite && !request.path.empty()) {
    // Spark refuses to overwrite a path the query reads, which would delete its own input.
    const std::string target = io::local_path(request.path);
    std::function<void(const plan::PlanPtr&)> check = [&](const plan::PlanPtr& node) {
      if (node->kind == plan::PlanKind::kRead) {
        for (const auto& p : node->read.paths) {
          const std::string read = io::local_path(p);
          if (read == target || read.rfind(target + "/", 0) == 0) {
            throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_OVERWRITE.PATH",
                             "Can't overwrite the target that is also being read from. The target "
                             "path is file:" + target + ".",
                             {{"path", "file:" + target}}, "42902");
          }
        }
      }
      for (const auto& c : node->children) check(c);
    };
    check(input);
  }
  plan::ExecuteOptions options;
  options.cancelled = op.cancelled();
  plan::QueryResult result = session.engine().execute(input, options);
  size_t next = 0;
  io::write_files(request, result.schema, [&](Batch* out) {
    if (op.cancelled()->load() || next >= result.batches.size()) return false;
    *out = std::move(result.batches[next++]);
    return true;
  });
  // Cached plans over the files read them again (Spark's recacheByPath).
  session.engine().cache_manager().invalidate_path(request.path, session.engine().config(), false);
}

}  // namespace ember::connect
