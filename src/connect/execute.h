#pragma once

#include "connect/operation.h"
#include "connect/session_manager.h"
#include "spark/connect/base.pb.h"

namespace ember::connect {

/// Runs the plan (a relation or a command) of an ExecutePlan request and pushes its responses
/// to `op`: for a relation the schema, then the rows as Arrow batches (at least one, so that the
/// client always learns the Arrow schema), then `result_complete`; for a command its result (if
/// any), then `result_complete`. Errors are thrown as SparkErrors; the caller fails the
/// operation with them.
void run_execute_plan(ConnectSession& session, Operation& op,
                      const spark::connect::ExecutePlanRequest& request);

/// A response carrying the session and operation identifiers every response carries.
Operation::Response response_for(const ConnectSession& session, const Operation& op);

}  // namespace ember::connect
