#include "connect/service.h"

#include <thread>

#include "connect/artifacts.h"
#include "connect/errors.h"
#include "connect/execute.h"
#include "connect/handlers.h"
#include "connect/uuid.h"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

const std::string* observed_id(bool has, const std::string& value) {
  return has ? &value : nullptr;
}

/// The status of a failed request, with the error remembered for FetchErrorDetails when the
/// request has a session.
grpc::Status failure(const std::shared_ptr<ConnectSession>& session) {
  return to_status(describe_exception(std::current_exception()),
                   session ? &session->errors() : nullptr);
}

template <typename Response>
void stamp(Response* response, const ConnectSession& session) {
  response->set_session_id(session.session_id());
  response->set_server_side_session_id(session.server_side_session_id());
}

bool wants_reattach(const pb::ExecutePlanRequest& request) {
  for (const auto& option : request.request_options()) {
    if (option.has_reattach_options() && option.reattach_options().reattachable()) return true;
  }
  return false;
}

}  // namespace

SparkConnectService::SparkConnectService(SessionManager& sessions, std::string auth_token)
    : sessions_(sessions), auth_token_(std::move(auth_token)) {}

grpc::Status SparkConnectService::authenticate(const grpc::ServerContext* context) const {
  if (auth_token_.empty()) return grpc::Status::OK;
  const auto& md = context->client_metadata();
  auto it = md.find("authorization");
  if (it != md.end() &&
      std::string(it->second.data(), it->second.size()) == "Bearer " + auth_token_) {
    return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "Invalid authentication token");
}

template <typename Request>
std::shared_ptr<ConnectSession> SparkConnectService::session_of(const Request& request, bool create) {
  const std::string* observed = observed_id(request.has_client_observed_server_side_session_id(),
                                            request.client_observed_server_side_session_id());
  return create ? sessions_.get_or_create(request.user_context().user_id(), request.session_id(), observed)
                : sessions_.get(request.user_context().user_id(), request.session_id(), observed);
}

template <typename Request, typename Response, typename Serve>
grpc::Status SparkConnectService::unary(grpc::ServerContext* context, const Request& request, Response* response,
                                        bool create, Serve&& serve, bool remember_error) {
  if (auto st = authenticate(context); !st.ok()) return st;
  std::shared_ptr<ConnectSession> session;
  try {
    session = session_of(request, create);
    serve(*session);
    stamp(response, *session);
    return grpc::Status::OK;
  } catch (...) {
    return failure(remember_error ? session : nullptr);
  }
}

grpc::Status SparkConnectService::ExecutePlan(grpc::ServerContext* context,
                                              const pb::ExecutePlanRequest* request,
                                              grpc::ServerWriter<pb::ExecutePlanResponse>* writer) {
  if (auto st = authenticate(context); !st.ok()) return st;
  std::shared_ptr<ConnectSession> session;
  std::shared_ptr<Operation> op;
  try {
    session = session_of(*request, true);
    std::string op_id = request->operation_id();
    if (!request->has_operation_id() || op_id.empty()) {
      op_id = new_uuid();
    } else if (!is_uuid(op_id)) {
      throw_invalid_handle("FORMAT", op_id);
    }
    std::vector<std::string> tags(request->tags().begin(), request->tags().end());
    op = std::make_shared<Operation>(op_id, std::move(tags), wants_reattach(*request));
    session->add_operation(op);
    auto owned = std::make_shared<const pb::ExecutePlanRequest>(*request);
    sessions_.execution_started();
    try {
      std::thread([this, session, op, owned] {
        try {
          run_execute_plan(*session, *op, *owned);
          op->finish();
        } catch (...) {
          op->fail(failure(session));
        }
        sessions_.execution_finished();
      }).detach();
    } catch (...) {
      sessions_.execution_finished();
      session->remove_operation(op->id());
      throw;
    }
  } catch (...) {
    return failure(session);
  }
  grpc::Status status;
  try {
    status = op->stream(context, writer, nullptr);
  } catch (...) {
    status = failure(session);
  }
  if (!op->reattachable()) {
    // Nobody can come back for the rest: stop the execution if it still runs.
    op->interrupt();
    session->remove_operation(op->id());
  }
  return status;
}

grpc::Status SparkConnectService::ReattachExecute(
    grpc::ServerContext* context, const pb::ReattachExecuteRequest* request,
    grpc::ServerWriter<pb::ExecutePlanResponse>* writer) {
  if (auto st = authenticate(context); !st.ok()) return st;
  std::shared_ptr<ConnectSession> session;
  std::shared_ptr<Operation> op;
  try {
    session = session_of(*request, false);
    op = session->find_operation(request->operation_id());
    if (!op) throw_invalid_handle("OPERATION_NOT_FOUND", request->operation_id());
    if (!op->reattachable()) {
      throw SparkError(ErrorKind::kRuntime, "INVALID_CURSOR.NOT_REATTACHABLE",
                       "The cursor is invalid. The cursor is not reattachable.", {}, "HY109");
    }
  } catch (...) {
    return failure(session);
  }
  try {
    return op->stream(context, writer,
                      request->has_last_response_id() ? &request->last_response_id() : nullptr);
  } catch (...) {
    return failure(session);
  }
}

grpc::Status SparkConnectService::ReleaseExecute(grpc::ServerContext* context,
                                                 const pb::ReleaseExecuteRequest* request,
                                                 pb::ReleaseExecuteResponse* response) {
  return unary(context, *request, response, false, [&](ConnectSession& session) {
    response->set_operation_id(request->operation_id());
    // Releasing an operation that is already gone is not an error: releases are
    // asynchronous and may race with the end of the execution.
    if (auto op = session.find_operation(request->operation_id())) {
      if (request->has_release_until()) {
        op->release_until(request->release_until().response_id());
      } else {
        op->interrupt();
        session.remove_operation(op->id());
      }
    }
  });
}

grpc::Status SparkConnectService::AnalyzePlan(grpc::ServerContext* context,
                                              const pb::AnalyzePlanRequest* request,
                                              pb::AnalyzePlanResponse* response) {
  return unary(context, *request, response, true,
               [&](ConnectSession& session) { handle_analyze(session, *request, response); });
}

grpc::Status SparkConnectService::Config(grpc::ServerContext* context,
                                         const pb::ConfigRequest* request,
                                         pb::ConfigResponse* response) {
  return unary(context, *request, response, true,
               [&](ConnectSession& session) { handle_config(session, *request, response); });
}

grpc::Status SparkConnectService::AddArtifacts(grpc::ServerContext* context,
                                               grpc::ServerReader<pb::AddArtifactsRequest>* reader,
                                               pb::AddArtifactsResponse* response) {
  if (auto st = authenticate(context); !st.ok()) return st;
  std::shared_ptr<ConnectSession> session;
  try {
    pb::AddArtifactsRequest request;
    // A chunked artifact in progress.
    std::string chunked_name, chunked_data;
    int64_t chunks_left = 0;
    bool chunked_ok = true;
    auto summary = [&](const std::string& name, bool ok) {
      auto* s = response->add_artifacts();
      s->set_name(name);
      s->set_is_crc_successful(ok);
    };
    while (reader->Read(&request)) {
      if (!session) session = session_of(request, true);
      switch (request.payload_case()) {
        case pb::AddArtifactsRequest::kBatch:
          for (const auto& a : request.batch().artifacts()) {
            const bool ok = crc32(a.data().data()) == static_cast<uint32_t>(a.data().crc());
            if (ok) session->put_artifact(a.name(), a.data().data());
            summary(a.name(), ok);
          }
          break;
        case pb::AddArtifactsRequest::kBeginChunk: {
          const auto& begin = request.begin_chunk();
          chunked_name = begin.name();
          chunked_data = begin.initial_chunk().data();
          chunked_data.reserve(static_cast<size_t>(std::max<int64_t>(0, begin.total_bytes())));
          chunked_ok = crc32(begin.initial_chunk().data()) ==
                       static_cast<uint32_t>(begin.initial_chunk().crc());
          chunks_left = begin.num_chunks() - 1;
          break;
        }
        case pb::AddArtifactsRequest::kChunk:
          if (chunked_name.empty()) {
            throw_invalid_plan("ASSERTION_FAILURE", "An artifact chunk arrived without a beginning",
                               {{"message", "An artifact chunk arrived without a beginning"}});
          }
          chunked_data += request.chunk().data();
          chunked_ok = chunked_ok && crc32(request.chunk().data()) ==
                                         static_cast<uint32_t>(request.chunk().crc());
          --chunks_left;
          break;
        case pb::AddArtifactsRequest::PAYLOAD_NOT_SET:
          break;
      }
      if (!chunked_name.empty() && chunks_left <= 0) {
        if (chunked_ok) session->put_artifact(chunked_name, std::move(chunked_data));
        summary(chunked_name, chunked_ok);
        chunked_name.clear();
        chunked_data.clear();
      }
    }
    if (session) stamp(response, *session);
    return grpc::Status::OK;
  } catch (...) {
    return failure(session);
  }
}

grpc::Status SparkConnectService::ArtifactStatus(grpc::ServerContext* context,
                                                 const pb::ArtifactStatusesRequest* request,
                                                 pb::ArtifactStatusesResponse* response) {
  return unary(context, *request, response, true, [&](ConnectSession& session) {
    for (const auto& name : request->names()) {
      (*response->mutable_statuses())[name].set_exists(session.has_artifact(name));
    }
  });
}

grpc::Status SparkConnectService::Interrupt(grpc::ServerContext* context,
                                            const pb::InterruptRequest* request,
                                            pb::InterruptResponse* response) {
  return unary(context, *request, response, true, [&](ConnectSession& session) {
    std::vector<std::string> ids;
    switch (request->interrupt_type()) {
      case pb::InterruptRequest::INTERRUPT_TYPE_ALL:
        ids = session.interrupt_all();
        break;
      case pb::InterruptRequest::INTERRUPT_TYPE_TAG:
        ids = session.interrupt_tag(request->operation_tag());
        break;
      case pb::InterruptRequest::INTERRUPT_TYPE_OPERATION_ID:
        ids = session.interrupt_operation(request->operation_id());
        break;
      default:
        throw_invalid_plan(
            "INVALID_ENUM",
            "This enum value of spark.connect.InterruptRequest.InterruptType is "
            "invalid: " +
                pb::InterruptRequest::InterruptType_Name(request->interrupt_type()),
            {{"fullName", "spark.connect.InterruptRequest.InterruptType"},
             {"name", pb::InterruptRequest::InterruptType_Name(request->interrupt_type())},
             {"number", std::to_string(static_cast<int>(request->interrupt_type()))}});
    }
    for (const auto& id : ids) response->add_interrupted_ids(id);
  });
}

grpc::Status SparkConnectService::ReleaseSession(grpc::ServerContext* context,
                                                 const pb::ReleaseSessionRequest* request,
                                                 pb::ReleaseSessionResponse* response) {
  if (auto st = authenticate(context); !st.ok()) return st;
  try {
    std::string server_side = sessions_.release(request->user_context().user_id(),
                                                request->session_id(), request->allow_reconnect());
    response->set_session_id(request->session_id());
    response->set_server_side_session_id(server_side);
    return grpc::Status::OK;
  } catch (...) {
    return failure(nullptr);
  }
}

grpc::Status SparkConnectService::FetchErrorDetails(grpc::ServerContext* context,
                                                    const pb::FetchErrorDetailsRequest* request,
                                                    pb::FetchErrorDetailsResponse* response) {
  return unary(
      context, *request, response, false,
      [&](ConnectSession& session) {
        ErrorReport report;
        if (session.errors().take(request->error_id(), &report)) fill_error_details(report, response);
      },
      /*remember_error=*/false);
}

grpc::Status SparkConnectService::CloneSession(grpc::ServerContext* context,
                                               const pb::CloneSessionRequest* request,
                                               pb::CloneSessionResponse* response) {
  return unary(context, *request, response, false, [&](ConnectSession& session) {
    std::string new_id = request->has_new_session_id() && !request->new_session_id().empty()
                             ? request->new_session_id()
                             : new_uuid();
    auto clone = sessions_.clone(session, new_id);
    response->set_new_session_id(clone->session_id());
    response->set_new_server_side_session_id(clone->server_side_session_id());
  });
}

grpc::Status SparkConnectService::GetStatus(grpc::ServerContext* context,
                                            const pb::GetStatusRequest* request,
                                            pb::GetStatusResponse* response) {
  return unary(context, *request, response, false, [&](ConnectSession& session) {
    using State = pb::GetStatusResponse::OperationStatus;
    auto add = [&](const std::string& id, const std::shared_ptr<Operation>& op) {
      auto* s = response->add_operation_statuses();
      s->set_operation_id(id);
      if (!op) {
        s->set_state(State::OPERATION_STATE_UNKNOWN);
      } else if (!op->done()) {
        s->set_state(op->cancelled()->load() ? State::OPERATION_STATE_TERMINATING
                                             : State::OPERATION_STATE_RUNNING);
      } else {
        s->set_state(op->cancelled()->load() ? State::OPERATION_STATE_CANCELLED
                     : op->failed()          ? State::OPERATION_STATE_FAILED
                                             : State::OPERATION_STATE_SUCCEEDED);
      }
    };
    if (request->has_operation_status()) {
      if (request->operation_status().operation_ids_size() == 0) {
        for (const auto& op : session.operations()) add(op->id(), op);
      }
      for (const auto& id : request->operation_status().operation_ids()) {
        add(id, session.find_operation(id));
      }
    }
  });
}

}  // namespace ember::connect
