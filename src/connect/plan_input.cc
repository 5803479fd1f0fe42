#include "connect/plan_input.h"

#include "connect/errors.h"

namespace ember::connect {

namespace pb = spark::connect;

TranslateContext translate_context(ConnectSession& session,
                                   std::shared_ptr<std::atomic<bool>> cancelled) {
  TranslateContext ctx;
  ctx.session = &session.engine();
  ctx.cached_artifact = [&session](const std::string& name, std::string* bytes) {
    return session.artifact(name, bytes);
  };
  ctx.cancelled = std::move(cancelled);
  return ctx;
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
