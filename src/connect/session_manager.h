#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "connect/errors.h"
#include "connect/operation.h"
#include "plan/session.h"
#include "spark/connect/common.pb.h"

namespace ember::connect {

/// The rows of a checkpointed DataFrame (DataFrame.checkpoint / localCheckpoint). An eager
/// checkpoint is materialized when it is created; a lazy one keeps its plan until a query
/// first reads it, and from then on every query reads the same rows. Thread-safe.
class Checkpoint {
 public:
  /// `plan`: the unresolved plan of the DataFrame; `rows`: its materialized local relation
  /// (null for a lazy checkpoint).
  Checkpoint(plan::PlanPtr plan, plan::PlanPtr rows);

  /// The materialized rows as a local relation, running `materialize` on the plan the first
  /// time for a lazy checkpoint.
  plan::PlanPtr rows(const std::function<plan::PlanPtr(const plan::PlanPtr&)>& materialize);

 private:
  std::mutex mu_;
  plan::PlanPtr plan_;
  plan::PlanPtr rows_;
};

/// What the protocol keeps per client session besides the engine session: the server-side
/// session id Spark 4 reports, uploaded artifacts, running operations, recent errors and
/// checkpointed DataFrames (cached plans live in the engine session). Thread-safe.
class ConnectSession {
 public:
  ConnectSession(std::string session_id, std::string user_id);

  const std::string& session_id() const { return session_id_; }
  const std::string& server_side_session_id() const { return server_side_session_id_; }
  const std::string& user_id() const { return user_id_; }
  plan::Session& engine() { return engine_; }
  const plan::Session& engine() const { return engine_; }
  ErrorStore& errors() { return errors_; }

  // Artifacts (AddArtifacts): in memory, by name ("cache/<sha256>", "pyfiles/x.py", ...).
  void put_artifact(const std::string& name, std::string bytes);
  bool artifact(const std::string& name, std::string* bytes) const;
  bool has_artifact(const std::string& name) const;

  // Operations.
  /// Registers an operation; INVALID_HANDLE.OPERATION_ALREADY_EXISTS when the id is taken.
  void add_operation(const std::shared_ptr<Operation>& op);
  /// The operation or null.
  std::shared_ptr<Operation> find_operation(const std::string& id) const;
  void remove_operation(const std::string& id);
  std::vector<std::shared_ptr<Operation>> operations() const;
  /// Interrupts the matching running operations; returns their ids.
  std::vector<std::string> interrupt_all();
  std::vector<std::string> interrupt_tag(const std::string& tag);
  std::vector<std::string> interrupt_operation(const std::string& id);

  // Checkpointed DataFrames (CachedRemoteRelation), by relation id. They live until the
  // client removes them (RemoveCachedRemoteRelationCommand) or the session ends.
  void put_checkpoint(const std::string& relation_id, std::shared_ptr<Checkpoint> checkpoint);
  /// The checkpoint or null.
  std::shared_ptr<Checkpoint> checkpoint(const std::string& relation_id) const;
  void remove_checkpoint(const std::string& relation_id);

  void touch();
  std::chrono::steady_clock::time_point last_access() const;

 private:
  const std::string session_id_;
  const std::string server_side_session_id_;
  const std::string user_id_;
  plan::Session engine_;
  ErrorStore errors_;

  mutable std::mutex mu_;
  std::map<std::string, std::string> artifacts_;
  std::map<std::string, std::shared_ptr<Operation>> operations_;
  std::map<std::string, std::shared_ptr<Checkpoint>> checkpoints_;
  std::chrono::steady_clock::time_point last_access_;
};

/// All sessions of the server. Sessions are created on first use and live until the client
/// releases them (ReleaseSession) or they stay idle for the session timeout. A maintenance
/// thread also removes operations whose client went away without releasing them.
class SessionManager {
 public:
  struct Options {
    std::chrono::seconds session_idle_timeout{3600};
    std::chrono::seconds detached_operation_timeout{300};
    std::chrono::seconds maintenance_interval{10};
  };

  SessionManager();
  explicit SessionManager(Options options);
  ~SessionManager();

  /// The session of a request, created when new. Fails with INVALID_HANDLE.SESSION_CLOSED for
  /// a released session and SESSION_CHANGED when the client saw another server-side session.
  std::shared_ptr<ConnectSession> get_or_create(const std::string& user_id,
                                                const std::string& session_id,
                                                const std::string* observed_server_side_id);
  /// An existing session; INVALID_HANDLE.SESSION_NOT_FOUND (or SESSION_CLOSED) otherwise.
  std::shared_ptr<ConnectSession> get(const std::string& user_id, const std::string& session_id,
                                      const std::string* observed_server_side_id);
  /// Closes a session: interrupts its operations and forgets it. Returns its server-side id,
  /// or "" when unknown.
  std::string release(const std::string& user_id, const std::string& session_id,
                      bool allow_reconnect);

  /// A new session `new_session_id` with the configuration and temporary views of `from`;
  /// INVALID_HANDLE.SESSION_ALREADY_EXISTS when the id is taken.
  std::shared_ptr<ConnectSession> clone(const ConnectSession& from,
                                        const std::string& new_session_id);

  /// Interrupts every operation of every session (server shutdown).
  void interrupt_everything();

  /// Execution threads register here so that shutdown can wait for them.
  void execution_started();
  void execution_finished();
  /// Waits until no execution thread runs, at most `timeout`; true when none is left.
  bool wait_for_executions(std::chrono::milliseconds timeout);

  /// One maintenance pass (also run periodically by the maintenance thread).
  void maintain();

 private:
  static std::string key(const std::string& user_id, const std::string& session_id);
  void check_session_id(const std::string& session_id) const;
  void maintenance_loop();

  const Options options_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<ConnectSession>> sessions_;
  std::set<std::string> closed_;  // keys of released sessions (bounded)

  std::mutex exec_mu_;
  std::condition_variable exec_cv_;
  int running_executions_ = 0;
  /// Executions started in all, and that count at the last maintenance round: a round that
  /// finds none running and none started since the round before finds the server idle.
  uint64_t executions_started_ = 0;
  uint64_t started_at_last_round_ = 0;
  bool host_memory_released_ = true;

  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread maintenance_;
};

}  // namespace ember::connect
