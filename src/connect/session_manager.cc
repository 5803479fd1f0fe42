#include "connect/session_manager.h"

#include "common/block_cache.h"
#include "common/host_allocator.h"
#include "connect/uuid.h"

namespace ember::connect {

// ---- ConnectSession -----------------------------------------------------------------------

ConnectSession::ConnectSession(std::string session_id, std::string user_id)
    : session_id_(std::move(session_id)),
      server_side_session_id_(new_uuid()),
      user_id_(std::move(user_id)),
      engine_(session_id_),
      last_access_(std::chrono::steady_clock::now()) {}

void ConnectSession::put_artifact(const std::string& name, std::string bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  artifacts_[name] = std::move(bytes);
}

bool ConnectSession::artifact(const std::string& name, std::string* bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = artifacts_.find(name);
  if (it == artifacts_.end()) return false;
  *bytes = it->second;
  return true;
}

bool ConnectSession::has_artifact(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  return artifacts_.count(name) > 0;
}

void ConnectSession::add_operation(const std::shared_ptr<Operation>& op) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!operations_.emplace(op->id(), op).second) {
    throw_invalid_handle("OPERATION_ALREADY_EXISTS", op->id());
  }
}

std::shared_ptr<Operation> ConnectSession::find_operation(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = operations_.find(id);
  return it == operations_.end() ? nullptr : it->second;
}

void ConnectSession::remove_operation(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  operations_.erase(id);
}

std::vector<std::shared_ptr<Operation>> ConnectSession::operations() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<Operation>> out;
  for (const auto& [id, op] : operations_) out.push_back(op);
  return out;
}

std::vector<std::string> ConnectSession::interrupt_all() {
  std::vector<std::string> ids;
  for (const auto& op : operations()) {
    if (op->interrupt()) ids.push_back(op->id());
  }
  return ids;
}

std::vector<std::string> ConnectSession::interrupt_tag(const std::string& tag) {
  std::vector<std::string> ids;
  for (const auto& op : operations()) {
    for (const auto& t : op->tags()) {
      if (t == tag) {
        if (op->interrupt()) ids.push_back(op->id());
        break;
      }
    }
  }
  return ids;
}

std::vector<std::string> ConnectSession::interrupt_operation(const std::string& id) {
  auto op = find_operation(id);
  if (op && op->interrupt()) return {id};
  return {};
}

Checkpoint::Checkpoint(plan::PlanPtr plan, plan::PlanPtr rows)
    : plan_(std::move(plan)), rows_(std::move(rows)) {}

plan::PlanPtr Checkpoint::rows(
    const std::function<plan::PlanPtr(const plan::PlanPtr&)>& materialize) {
  std::lock_guard<std::mutex> lock(mu_);
  if (rows_ == nullptr) {
    rows_ = materialize(plan_);
    plan_ = nullptr;
  }
  return rows_;
}

void ConnectSession::put_checkpoint(const std::string& relation_id,
                                    std::shared_ptr<Checkpoint> checkpoint) {
  std::lock_guard<std::mutex> lock(mu_);
  checkpoints_[relation_id] = std::move(checkpoint);
}

std::shared_ptr<Checkpoint> ConnectSession::checkpoint(const std::string& relation_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = checkpoints_.find(relation_id);
  return it == checkpoints_.end() ? nullptr : it->second;
}

void ConnectSession::remove_checkpoint(const std::string& relation_id) {
  std::lock_guard<std::mutex> lock(mu_);
  checkpoints_.erase(relation_id);
}

void ConnectSession::touch() {
  std::lock_guard<std::mutex> lock(mu_);
  last_access_ = std::chrono::steady_clock::now();
}

std::chrono::steady_clock::time_point ConnectSession::last_access() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_access_;
}

// ---- SessionManager -----------------------------------------------------------------------

SessionManager::SessionManager() : SessionManager(Options{}) {}

SessionManager::SessionManager(Options options) : options_(options) {
  maintenance_ = std::thread([this] { maintenance_loop(); });
}

SessionManager::~SessionManager() {
  {
    std::lock_guard<std::mutex> lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (maintenance_.joinable()) maintenance_.join();
}

std::string SessionManager::key(const std::string& user_id, const std::string& session_id) {
  return user_id + '\x1f' + session_id;
}

void SessionManager::check_session_id(const std::string& session_id) const {
  if (!is_uuid(session_id)) throw_invalid_handle("FORMAT", session_id);
}

std::shared_ptr<ConnectSession> SessionManager::get_or_create(
    const std::string& user_id, const std::string& session_id,
    const std::string* observed_server_side_id) {
  check_session_id(session_id);
  std::shared_ptr<ConnectSession> session;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string k = key(user_id, session_id);
    auto it = sessions_.find(k);
    if (it != sessions_.end()) {
      session = it->second;
    } else {
      if (closed_.count(k)) throw_invalid_handle("SESSION_CLOSED", session_id);
      // A client that already talked to a server-side session which no longer exists (the
      // server restarted) must reconnect rather than silently lose its state.
      if (observed_server_side_id != nullptr && !observed_server_side_id->empty()) {
        throw_invalid_handle("SESSION_CHANGED", session_id);
      }
      session = std::make_shared<ConnectSession>(session_id, user_id);
      sessions_.emplace(k, session);
    }
  }
  if (observed_server_side_id != nullptr && !observed_server_side_id->empty() &&
      *observed_server_side_id != session->server_side_session_id()) {
    throw_invalid_handle("SESSION_CHANGED", session_id);
  }
  session->touch();
  return session;
}

std::shared_ptr<ConnectSession> SessionManager::get(const std::string& user_id,
                                                    const std::string& session_id,
                                                    const std::string* observed_server_side_id) {
  check_session_id(session_id);
  std::shared_ptr<ConnectSession> session;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string k = key(user_id, session_id);
    auto it = sessions_.find(k);
    if (it == sessions_.end()) {
      throw_invalid_handle(closed_.count(k) ? "SESSION_CLOSED" : "SESSION_NOT_FOUND", session_id);
    }
    session = it->second;
  }
  if (observed_server_side_id != nullptr && !observed_server_side_id->empty() &&
      *observed_server_side_id != session->server_side_session_id()) {
    throw_invalid_handle("SESSION_CHANGED", session_id);
  }
  session->touch();
  return session;
}

std::string SessionManager::release(const std::string& user_id, const std::string& session_id,
                                    bool allow_reconnect) {
  std::shared_ptr<ConnectSession> session;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string k = key(user_id, session_id);
    auto it = sessions_.find(k);
    if (it != sessions_.end()) {
      session = it->second;
      sessions_.erase(it);
    }
    if (!allow_reconnect) {
      // Remember a bounded number of closed sessions, enough to reject stray requests.
      if (closed_.size() > 10000) closed_.clear();
      closed_.insert(k);
    }
  }
  if (!session) return "";
  session->interrupt_all();
  return session->server_side_session_id();
}

std::shared_ptr<ConnectSession> SessionManager::clone(const ConnectSession& from,
                                                      const std::string& new_session_id) {
  check_session_id(new_session_id);
  auto session = std::make_shared<ConnectSession>(new_session_id, from.user_id());
  for (const auto& [k, v] : from.engine().config().all()) session->engine().config().set(k, v);
  auto& source_catalog = const_cast<plan::Session&>(from.engine()).catalog();
  for (const auto& name : source_catalog.temp_view_names()) {
    if (auto view = source_catalog.lookup_temp_view(name)) {
      session->engine().catalog().create_temp_view(name, view, true);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!sessions_.emplace(key(from.user_id(), new_session_id), session).second) {
    throw_invalid_handle("SESSION_ALREADY_EXISTS", new_session_id);
  }
  return session;
}

void SessionManager::interrupt_everything() {
  std::vector<std::shared_ptr<ConnectSession>> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [k, s] : sessions_) all.push_back(s);
  }
  for (const auto& s : all) s->interrupt_all();
}

void SessionManager::execution_started() {
  std::lock_guard<std::mutex> lock(exec_mu_);
  ++running_executions_;
  ++executions_started_;
  host_memory_released_ = false;
}

void SessionManager::execution_finished() {
  std::lock_guard<std::mutex> lock(exec_mu_);
  --running_executions_;
  exec_cv_.notify_all();
}

bool SessionManager::wait_for_executions(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(exec_mu_);
  return exec_cv_.wait_for(lock, timeout, [&] { return running_executions_ == 0; });
}

void SessionManager::maintain() {
  const auto now = std::chrono::steady_clock::now();
  bool running = false, release_host = false;
  {
    std::lock_guard<std::mutex> lock(exec_mu_);
    running = running_executions_ > 0;
    release_host = !host_memory_released_ && !running && executions_started_ == started_at_last_round_;
    started_at_last_round_ = executions_started_;
    if (release_host) host_memory_released_ = true;
  }
  // Memory that large operators freed and no query took again since the last round goes back
  // to the system, so an idle server does not keep the blocks of its last big query. Not while
  // a query runs: a long one would lose the blocks it frees in one phase and takes in the next.
  if (!running) BlockCache::global().release_idle();
  // Memory malloc keeps for the next query goes back once a whole round passed without one.
  if (release_host) release_free_host_memory();
  std::vector<std::shared_ptr<ConnectSession>> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      const auto& s = it->second;
      if (now - s->last_access() > options_.session_idle_timeout && s->operations().empty()) {
        it = sessions_.erase(it);
      } else {
        all.push_back(s);
        ++it;
      }
    }
  }
  // Operations nobody streams any more: the client died or forgot to release them.
  for (const auto& s : all) {
    for (const auto& op : s->operations()) {
      if (op->detached_for(options_.detached_operation_timeout)) {
        op->interrupt();
        s->remove_operation(op->id());
      }
    }
  }
}

void SessionManager::maintenance_loop() {
  std::unique_lock<std::mutex> lock(stop_mu_);
  while (!stopping_) {
    stop_cv_.wait_for(lock, options_.maintenance_interval, [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    maintain();
    lock.lock();
  }
}

}  // namespace ember::connect
