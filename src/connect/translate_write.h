#pragma once

#include "connect/operation.h"
#include "connect/session_manager.h"
#include "spark/connect/commands.pb.h"

namespace ember::connect {

/// DataFrame.write...save(path): runs the input relation and writes its rows through the io
/// layer's file sinks (format, mode, options, partitionBy). Tables (saveAsTable, insertInto),
/// bucketing, sorting and clustering are not supported and say so.
void run_write_operation(ConnectSession& session, Operation& op,
                         const spark::connect::WriteOperation& write);

}  // namespace ember::connect
