#include "connect/plan_input.h"

#include "connect/errors.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;

TranslateContext translate_context(ConnectSession& session,
                                   std::shared_ptr<std::atomic<bool>> cancelled) {
  TranslateContext ctx;
  ctx.session = &session.engine();
  ctx.cached_artifact = [&session](const std::string& name, std::string* bytes) {
    return session.artifact(name, bytes);
  };
  ctx.checkpoint = [&session, cancelled](const std::string& relation_id) -> plan::PlanPtr {
    std::shared_ptr<Checkpoint> checkpoint = session.checkpoint(relation_id);
    if (checkpoint == nullptr) {
      throw_invalid_plan("DATAFRAME_NOT_FOUND",
                         "No DataFrame with id " + relation_id + " is found in the session " +
                             session.session_id(),
                         {{"dfId", relation_id}, {"sessionId", session.session_id()}});
    }
    return checkpoint->rows([&](const plan::PlanPtr& plan) {
      return materialize_checkpoint(session.engine(), plan, cancelled);
    });
  };
  ctx.cancelled = std::move(cancelled);
  return ctx;
}

plan::PlanPtr materialize_checkpoint(plan::Session& engine, const plan::PlanPtr& plan,
                                     std::shared_ptr<std::atomic<bool>> cancelled) {
  plan::ExecuteOptions options;
  options.cancelled = std::move(cancelled);
  plan::QueryResult result = engine.execute(plan, options);
  auto node = std::make_shared<plan::PlanNode>();
  node->kind = plan::PlanKind::kLocalRelation;
  node->schema = std::move(result.schema);
  node->batches = std::move(result.batches);
  node->checkpointed = true;
  return node;
}

void reject_compressed_plan() {
  const std::string msg = "compressed plans are not supported";
  throw_invalid_plan("CANNOT_PARSE",
                     "Cannot decompress or parse the input plan (" + msg +
                         ") This may be caused by a corrupted compressed plan. To disable plan "
                         "compression, set 'spark.connect.session.planCompression.threshold' to "
                         "-1.",
                     {{"errorMsg", msg}});
}

const pb::Relation& plan_relation(const pb::Plan& plan) {
  switch (plan.op_type_case()) {
    case pb::Plan::kRoot:
      return plan.root();
    case pb::Plan::kCompressedOperation:
      reject_compressed_plan();
    case pb::Plan::kCommand:
      throw_invalid_plan("ASSERTION_FAILURE", "Expected a relation but got a command",
                         {{"message", "Expected a relation but got a command"}});
    case pb::Plan::OP_TYPE_NOT_SET:
      break;
  }
  throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                     "This oneOf field in spark.connect.Plan is not set: op_type",
                     {{"fullName", "spark.connect.Plan"}, {"name", "op_type"}});
}

}  // namespace ember::connect
