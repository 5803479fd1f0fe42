#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace grpc {
class Server;
}

namespace ember::connect {

class SessionManager;
class SparkConnectService;

/// The Spark Connect gRPC server: a synchronous gRPC server whose handler threads are bounded,
/// with Spark's inbound message limit (128 MiB).
class ConnectServer {
 public:
  struct Options {
    std::string host = "127.0.0.1";
    int port = 15002;  // 0 picks a free port
    /// Bearer token clients must present; empty for none.
    std::string auth_token;
    /// Upper bound on concurrent RPC handler threads; 0 picks one from the core count.
    int max_threads = 0;
  };

  explicit ConnectServer(Options options);
  ~ConnectServer();
  ConnectServer(const ConnectServer&) = delete;
  ConnectServer& operator=(const ConnectServer&) = delete;

  /// Starts listening and returns the bound port. Throws std::runtime_error when the address
  /// cannot be bound.
  int start();
  /// Blocks until shutdown() has completed.
  void wait();
  /// Interrupts running operations, stops accepting requests and waits up to `grace` for
  /// in-flight RPCs and executions. Safe to call from any thread, more than once.
  void shutdown(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

 private:
  Options options_;
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<SparkConnectService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::atomic<bool> shut_down_{false};
};

}  // namespace ember::connect
