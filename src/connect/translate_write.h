#pragma once

#include "connect/operation.h"
#include "connect/session_manager.h"
#include "spark/connect/commands.pb.h"

namespace ember::connect {

/// DataFrame.write...save(path): runs the input relation and writes its rows through the io
/// layer's file sinks (format, mode, options, partitionBy); a table target goes to
/// run_table_write. Bucketing, sorting and clustering are not supported and say so.
void run_write_operation(ConnectSession& session, Operation& op,
                         const spark::connect::WriteOperation& write);

/// DataFrame.write.saveAsTable (modes error, append by name, overwrite, ignore) and insertInto
/// (by position, overwrite from the mode) on the session's managed tables.
void run_table_write(ConnectSession& session, Operation& op,
                     const spark::connect::WriteOperation& write);

/// DataFrame.writeTo(t): create, createOrReplace, replace, append and overwritePartitions.
void run_write_operation_v2(ConnectSession& session, Operation& op,
                            const spark::connect::WriteOperationV2& write);

}  // namespace ember::connect
