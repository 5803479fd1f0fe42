#include "connect/execute.h"

#include <algorithm>

#include "common/thread_pool.h"
#include "connect/arrow_results.h"
#include "connect/errors.h"
#include "connect/plan_input.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "connect/translate_write.h"
#include "connect/uuid.h"
#include "plan/observed_metrics.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

/// Spark caps each Arrow batch of a result at this many bytes, besides the row cap of
/// spark.sql.execution.arrow.maxRecordsPerBatch.
constexpr int64_t kMaxArrowBatchBytes = 4 << 20;

/// The aggregations of the plan's observations (`DataFrame.observe`), analyzed now so that a bad
/// metric fails the action before any row is sent, as in Spark.
std::vector<plan::PlanPtr> observation_plans(ConnectSession& session,
                                             const PlanTranslator& translator) {
  std::vector<plan::PlanPtr> plans;
  for (const auto& o : translator.observations()) {
    for (const auto& m : o.metrics) plan::check_observed_metric(*m);
    auto agg = new_node(plan::PlanKind::kAggregate, {o.input});
    agg->aggregates = o.metrics;
    session.engine().analyze(agg);
    plans.push_back(agg);
  }
  return plans;
}

/// Spark computes an observation's metrics over the rows that pass its CollectMetrics node
/// while the action runs; every action here reads its input whole, so the metrics are the
/// aggregation of that input, computed after the action and sent before its completion.
void send_observed_metrics(ConnectSession& session, Operation& op,
                           const PlanTranslator& translator,
                           const std::vector<plan::PlanPtr>& plans,
                           const plan::ExecuteOptions& options) {
  for (size_t i = 0; i < plans.size(); ++i) {
    if (op.cancelled()->load()) return;
    plan::QueryResult r = session.engine().execute(plans[i], options);
    const PlanTranslator::Observation& o = translator.observations()[i];
    Operation::Response response = response_for(session, op);
    auto* m = response.add_observed_metrics();
    m->set_name(o.name);
    if (o.plan_id >= 0) m->set_plan_id(o.plan_id);
    const Batch* row = nullptr;
    for (const Batch& b : r.batches)
      if (b.num_rows > 0) {
        row = &b;
        break;
      }
    for (size_t c = 0; c < r.schema.size(); ++c) {
      m->add_keys(r.schema[c].name);
      Value v = row != nullptr ? row->columns[c]->value_at(0) : Value();
      literal_to_proto(v, *r.schema[c].type, m->add_values());
    }
    op.push(std::move(response));
  }
}

void run_relation(ConnectSession& session, Operation& op, const pb::Relation& root) {
  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr plan = translator.relation(root);
  plan::ExecuteOptions options;
  options.cancelled = op.cancelled();
  std::vector<plan::PlanPtr> observations = observation_plans(session, translator);
  plan::QueryResult result = session.engine().execute(plan, options);

  Operation::Response schema = response_for(session, op);
  *schema.mutable_schema() = schema_to_proto(result.schema);
  op.push(std::move(schema));

  const Config& config = session.engine().config();
  int64_t max_rows = config.get_int("spark.sql.execution.arrow.maxRecordsPerBatch", 10000);
  if (max_rows <= 0) max_rows = INT64_MAX;
  ArrowResultEncoder encoder(result.schema, config.session_time_zone(), max_rows,
                             kMaxArrowBatchBytes);
  int64_t offset = 0;
  auto send = [&](ArrowChunk& chunk) {
    Operation::Response r = response_for(session, op);
    auto* batch = r.mutable_arrow_batch();
    batch->set_row_count(chunk.row_count);
    batch->set_start_offset(offset);
    batch->set_data(std::move(chunk.data));
    offset += chunk.row_count;
    op.push(std::move(r));
  };
  // Batches are encoded on all cores, a window of them at a time (so that encoded chunks do not
  // pile up far ahead of the client), and sent in order.
  ThreadPool& pool = ThreadPool::global();
  const size_t window = std::max<size_t>(1, 2 * pool.size());
  std::vector<Batch>& batches = result.batches;
  for (size_t start = 0; start < batches.size() && !op.cancelled()->load(); start += window) {
    const size_t n = std::min(window, batches.size() - start);
    std::vector<std::vector<ArrowChunk>> encoded(n);
    auto encode = [&](size_t i) {
      encoder.add(batches[start + i], &encoded[i]);
      batches[start + i] = Batch();  // its rows now live in the encoded chunks
    };
    if (n == 1) encode(0);
    else pool.parallel_run(n, encode);
    for (auto& chunks : encoded)
      for (auto& c : chunks) send(c);
  }
  if (offset == 0) {
    ArrowChunk empty = encoder.empty();
    send(empty);
  }
  send_observed_metrics(session, op, translator, observations, options);
}

void create_view(ConnectSession& session, Operation& op,
                 const pb::CreateDataFrameViewCommand& cmd) {
  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr analyzed = session.engine().analyze(translator.relation(cmd.input()));
  plan::Catalog& views = cmd.is_global() ? plan::global_temp_views() : session.engine().catalog();
  views.create_temp_view(cmd.name(), analyzed, cmd.replace());
}

/// spark.sql(...): a query comes back as a relation the client builds its DataFrame on (and
/// sends back when it runs it); a command runs now and comes back as its local result.
void run_sql_command(ConnectSession& session, Operation& op, const pb::SqlCommand& cmd) {
  // PySpark 4.3 sends the statement as a SQL relation in `input`; older clients used the
  // command's own (now deprecated) fields.
  pb::Relation input;
  if (cmd.has_input()) {
    input = cmd.input();
  } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    pb::SQL* sql = input.mutable_sql();
    sql->set_query(cmd.sql());
    *sql->mutable_args() = cmd.args();
    *sql->mutable_pos_args() = cmd.pos_args();
    *sql->mutable_named_arguments() = cmd.named_arguments();
    *sql->mutable_pos_arguments() = cmd.pos_arguments();
#pragma GCC diagnostic pop
  }
  PlanTranslator translator(translate_context(session, op.cancelled()));
  PlanTranslator::SqlStatement statement = translator.sql_command(input);
  Operation::Response r = response_for(session, op);
  pb::Relation* relation = r.mutable_sql_command_result()->mutable_relation();
  if (!statement.ran_command) {
    *relation = input;
  } else {
    const plan::PlanPtr& result = statement.plan;
    const Config& config = session.engine().config();
    ArrowResultEncoder encoder(result->schema, config.session_time_zone(), INT64_MAX, INT64_MAX);
    Batch all = concat_batches(result->batches, result->schema.size());
    std::vector<ArrowChunk> chunks;
    if (all.num_rows > 0) encoder.add(all, &chunks);
    relation->mutable_local_relation()->set_data(chunks.empty() ? encoder.empty().data
                                                                : std::move(chunks[0].data));
  }
  op.push(std::move(r));
}

/// DataFrame.checkpoint / localCheckpoint: the rows are kept in the session's memory (the
/// storage level asks for memory, disk or both; memory holds them in every case) and the
/// client gets a CachedRemoteRelation that refers to them by id. A reliable checkpoint needs a
/// checkpoint directory, as Spark's does, although the rows stay in memory here too.
void run_checkpoint(ConnectSession& session, Operation& op, const pb::CheckpointCommand& cmd) {
  if (!cmd.local() && !session.engine().config().get("spark.checkpoint.dir")) {
    throw SparkError(ErrorKind::kInternal, "_LEGACY_ERROR_TEMP_3016",
                     "Checkpoint directory has not been set in the SparkContext");
  }
  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr plan = translator.relation(cmd.relation());
  std::shared_ptr<Checkpoint> checkpoint;
  if (cmd.eager()) {
    checkpoint = std::make_shared<Checkpoint>(
        nullptr, materialize_checkpoint(session.engine(), plan, op.cancelled()));
  } else {
    session.engine().analyze(plan);  // a lazy checkpoint still fails now on a bad plan
    checkpoint = std::make_shared<Checkpoint>(plan, nullptr);
  }
  const std::string id = new_uuid();
  session.put_checkpoint(id, std::move(checkpoint));
  Operation::Response r = response_for(session, op);
  r.mutable_checkpoint_command_result()->mutable_relation()->set_relation_id(id);
  op.push(std::move(r));
}

std::string command_type_name(const pb::Command& cmd) {
  const auto* oneof = pb::Command::descriptor()->FindOneofByName("command_type");
  const auto* field = cmd.GetReflection()->GetOneofFieldDescriptor(cmd, oneof);
  return field == nullptr ? "UNSET" : field->name();
}

void run_command(ConnectSession& session, Operation& op, const pb::Command& cmd) {
  switch (cmd.command_type_case()) {
    case pb::Command::kCreateDataframeView:
      create_view(session, op, cmd.create_dataframe_view());
      break;
    case pb::Command::kSqlCommand:
      run_sql_command(session, op, cmd.sql_command());
      break;
    case pb::Command::kWriteOperation:
      run_write_operation(session, op, cmd.write_operation());
      break;
    case pb::Command::kWriteOperationV2:
      run_write_operation_v2(session, op, cmd.write_operation_v2());
      break;
    case pb::Command::kCheckpointCommand:
      run_checkpoint(session, op, cmd.checkpoint_command());
      break;
    case pb::Command::kRemoveCachedRemoteRelationCommand:
      session.remove_checkpoint(cmd.remove_cached_remote_relation_command().relation().relation_id());
      break;
    case pb::Command::kRegisterFunction: {
      // spark.udf.register: the function becomes a session function SQL can call by name.
      pb::Expression call;
      *call.mutable_common_inline_user_defined_function() = cmd.register_function();
      PlanTranslator translator(translate_context(session, op.cancelled()));
      session.engine().register_function(cmd.register_function().function_name(), translator.expression(call));
      break;
    }
    case pb::Command::kRegisterTableFunction: {
      // spark.udtf.register: SQL calls the function by name in FROM and LATERAL.
      PlanTranslator translator(translate_context(session, op.cancelled()));
      plan::ExprPtr f = translator.python_table_function(cmd.register_table_function());
      session.engine().register_table_function(cmd.register_table_function().function_name(), std::move(f));
      break;
    }
    case pb::Command::kMergeIntoTableCommand: {
      // DataFrame.mergeInto: the session catalog's file tables, like Spark's, take no row-level
      // operations, so the target is looked up (TABLE_OR_VIEW_NOT_FOUND) and then refused.
      const std::string& target = cmd.merge_into_table_command().target_table_name();
      std::vector<std::string> name = plan::parse_attribute_name(target);
      auto table = std::make_shared<plan::PlanNode>();
      table->kind = plan::PlanKind::kUnresolvedRelation;
      table->table_name = name;
      session.engine().analyze(table);
      std::string shown;
      if (std::optional<plan::TableInfo> info = session.engine().find_table(name)) {
        shown = "`spark_catalog`.`" + info->database + "`.`" + info->name + "`";
      } else {
        for (const auto& part : name) shown += (shown.empty() ? "" : ".") + quote_id(part);
      }
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE.TABLE_OPERATION",
                       "The feature is not supported: Table " + shown +
                           " does not support MERGE INTO TABLE. Please check the current catalog and namespace "
                           "to make sure the qualified table name is expected, and also check the catalog "
                           "implementation which is configured by \"spark.sql.catalog\".",
                       {{"tableName", shown}, {"operation", "MERGE INTO TABLE"}}, "0A000");
    }
    case pb::Command::COMMAND_TYPE_NOT_SET:
      throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                         "This oneOf field in spark.connect.Command is not set: command_type",
                         {{"fullName", "spark.connect.Command"}, {"name", "command_type"}});
    default:
      throw_not_supported("Command " + command_type_name(cmd));
  }
}

}  // namespace

Operation::Response response_for(const ConnectSession& session, const Operation& op) {
  Operation::Response r;
  r.set_session_id(session.session_id());
  r.set_server_side_session_id(session.server_side_session_id());
  r.set_operation_id(op.id());
  return r;
}

void run_execute_plan(ConnectSession& session, Operation& op,
                      const pb::ExecutePlanRequest& request) {
  const pb::Plan& plan = request.plan();
  switch (plan.op_type_case()) {
    case pb::Plan::kRoot:
      run_relation(session, op, plan.root());
      break;
    case pb::Plan::kCommand:
      run_command(session, op, plan.command());
      break;
    case pb::Plan::kCompressedOperation:
      reject_compressed_plan();
    case pb::Plan::OP_TYPE_NOT_SET:
      throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                         "This oneOf field in spark.connect.Plan is not set: op_type",
                         {{"fullName", "spark.connect.Plan"}, {"name", "op_type"}});
  }
  Operation::Response complete = response_for(session, op);
  complete.mutable_result_complete();
  op.push(std::move(complete));
}

}  // namespace ember::connect
