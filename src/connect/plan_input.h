#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "connect/session_manager.h"
#include "connect/translate.h"
#include "spark/connect/base.pb.h"

namespace ember::connect {

/// The translation context of a request in `session`: its engine session and cached artifacts.
TranslateContext translate_context(ConnectSession& session,
                                   std::shared_ptr<std::atomic<bool>> cancelled = nullptr);

/// Runs `plan` and keeps its rows as the local relation of a checkpointed DataFrame (which
/// explain shows as Spark shows a checkpoint's RDD scan).
plan::PlanPtr materialize_checkpoint(plan::Session& engine, const plan::PlanPtr& plan,
                                     std::shared_ptr<std::atomic<bool>> cancelled);

/// The root relation of a Plan message; CONNECT_INVALID_PLAN errors for commands, compressed
/// or empty plans where a relation is expected.
const spark::connect::Relation& plan_relation(const spark::connect::Plan& plan);

/// Compressed plans are not accepted (Ember reports plan compression as disabled, so clients
/// do not send them); the error tells the client to stop compressing.
[[noreturn]] void reject_compressed_plan();

}  // namespace ember::connect
