#pragma once

#include <string>

#include "connect/session_manager.h"
#include "spark/connect/base.grpc.pb.h"

namespace ember::connect {

/// The Spark Connect service. Every handler catches everything: failures reach the client as
/// Spark-style errors (see errors.h), never as a crash. Executions run on their own threads so
/// that a client can reattach to them (ReattachExecute) after its stream broke.
class SparkConnectService final : public spark::connect::SparkConnectService::Service {
 public:
  /// With a non-empty `auth_token`, requests must carry "authorization: Bearer <token>".
  explicit SparkConnectService(SessionManager& sessions, std::string auth_token = "");

  grpc::Status ExecutePlan(
      grpc::ServerContext* context, const spark::connect::ExecutePlanRequest* request,
      grpc::ServerWriter<spark::connect::ExecutePlanResponse>* writer) override;
  grpc::Status AnalyzePlan(grpc::ServerContext* context,
                           const spark::connect::AnalyzePlanRequest* request,
                           spark::connect::AnalyzePlanResponse* response) override;
  grpc::Status Config(grpc::ServerContext* context, const spark::connect::ConfigRequest* request,
                      spark::connect::ConfigResponse* response) override;
  grpc::Status AddArtifacts(grpc::ServerContext* context,
                            grpc::ServerReader<spark::connect::AddArtifactsRequest>* reader,
                            spark::connect::AddArtifactsResponse* response) override;
  grpc::Status ArtifactStatus(grpc::ServerContext* context,
                              const spark::connect::ArtifactStatusesRequest* request,
                              spark::connect::ArtifactStatusesResponse* response) override;
  grpc::Status Interrupt(grpc::ServerContext* context,
                         const spark::connect::InterruptRequest* request,
                         spark::connect::InterruptResponse* response) override;
  grpc::Status ReattachExecute(
      grpc::ServerContext* context, const spark::connect::ReattachExecuteRequest* request,
      grpc::ServerWriter<spark::connect::ExecutePlanResponse>* writer) override;
  grpc::Status ReleaseExecute(grpc::ServerContext* context,
                              const spark::connect::ReleaseExecuteRequest* request,
                              spark::connect::ReleaseExecuteResponse* response) override;
  grpc::Status ReleaseSession(grpc::ServerContext* context,
                              const spark::connect::ReleaseSessionRequest* request,
                              spark::connect::ReleaseSessionResponse* response) override;
  grpc::Status FetchErrorDetails(grpc::ServerContext* context,
                                 const spark::connect::FetchErrorDetailsRequest* request,
                                 spark::connect::FetchErrorDetailsResponse* response) override;
  grpc::Status CloneSession(grpc::ServerContext* context,
                            const spark::connect::CloneSessionRequest* request,
                            spark::connect::CloneSessionResponse* response) override;
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const spark::connect::GetStatusRequest* request,
                         spark::connect::GetStatusResponse* response) override;

 private:
  /// UNAUTHENTICATED unless the request carries the expected bearer token.
  grpc::Status authenticate(const grpc::ServerContext* context) const;
  /// The session `request` names: opened when `create`, else one that exists.
  template <typename Request>
  std::shared_ptr<ConnectSession> session_of(const Request& request, bool create);
  /// A unary request: authenticated, served by `serve(session)` on the session it names (see
  /// session_of), its response stamped with the session's ids. An exception becomes the
  /// request's status, remembered for FetchErrorDetails when `remember_error`.
  template <typename Request, typename Response, typename Serve>
  grpc::Status unary(grpc::ServerContext* context, const Request& request, Response* response, bool create,
                     Serve&& serve, bool remember_error = true);

  SessionManager& sessions_;
  const std::string auth_token_;
};

}  // namespace ember::connect
