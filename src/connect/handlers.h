#pragma once

#include <optional>
#include <string>

#include "connect/session_manager.h"
#include "spark/connect/base.pb.h"

namespace ember::connect {

/// AnalyzePlan: schema, explain, tree string, local/streaming checks, input files, version,
/// DDL parsing, semantic comparison and hashing, persist / unpersist / storage level (analyze.cc).
void handle_analyze(ConnectSession& session, const spark::connect::AnalyzePlanRequest& request,
                    spark::connect::AnalyzePlanResponse* response);

/// Config: set, get, get with default, get option, get all, unset, is modifiable
/// (config_handler.cc).
void handle_config(ConnectSession& session, const spark::connect::ConfigRequest& request,
                   spark::connect::ConfigResponse* response);

/// The value of a configuration key as a client sees it: set in the session, else the
/// engine's default, else the Spark default of a key PySpark reads; nullopt when unknown.
std::optional<std::string> config_value(const ConnectSession& session, const std::string& key);

}  // namespace ember::connect
