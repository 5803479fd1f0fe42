#include "connect/server.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "connect/service.h"
#include "connect/session_manager.h"

namespace ember::connect {

namespace {
constexpr int kMaxInboundMessageBytes = 128 << 20;
}

ConnectServer::ConnectServer(Options options)
    : options_(std::move(options)),
      sessions_(std::make_unique<SessionManager>()),
      service_(std::make_unique<SparkConnectService>(*sessions_, options_.auth_token)) {}

ConnectServer::~ConnectServer() { shutdown(std::chrono::milliseconds(1000)); }

int ConnectServer::start() {
  grpc::ServerBuilder builder;
  int bound_port = 0;
  std::string address = options_.host + ":" + std::to_string(options_.port);
  if (options_.host.find(':') != std::string::npos && options_.host.front() != '[') {
    address = "[" + options_.host + "]:" + std::to_string(options_.port);
  }
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &bound_port);
  builder.RegisterService(service_.get());
  builder.SetMaxReceiveMessageSize(kMaxInboundMessageBytes);
  builder.SetMaxSendMessageSize(-1);
  // Every ExecutePlan holds a handler thread while it streams; bound them so that a flood of
  // clients gets RESOURCE_EXHAUSTED rather than exhausting the process.
  int threads = options_.max_threads;
  if (threads <= 0) {
    threads = std::max(64, 8 * static_cast<int>(std::thread::hardware_concurrency()));
  }
  grpc::ResourceQuota quota("ember-connect");
  quota.SetMaxThreads(threads);
  builder.SetResourceQuota(quota);
  server_ = builder.BuildAndStart();
  if (!server_ || bound_port == 0) {
    server_.reset();
    throw std::runtime_error("cannot listen on " + address);
  }
  return bound_port;
}

void ConnectServer::wait() {
  if (server_) server_->Wait();
}

void ConnectServer::shutdown(std::chrono::milliseconds grace) {
  if (!server_ || shut_down_.exchange(true)) return;
  sessions_->interrupt_everything();
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  if (!sessions_->wait_for_executions(grace)) {
    // An execution that ignores its cancellation flag still references the sessions and the
    // service; they are kept alive (leaked) rather than freed under its feet.
    server_->Wait();
    (void)server_.release();
    (void)service_.release();
    (void)sessions_.release();
  }
}

}  // namespace ember::connect
