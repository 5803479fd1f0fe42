#include "udf/worker_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "common/error.h"

extern char** environ;

namespace ember::udf {

namespace {

[[noreturn]] void throw_worker_error(const std::string& what) {
  throw SparkError(ErrorKind::kPython, "", what, {}, "");
}

/// Reads exactly n bytes, waiting at most `timeout_ms` for each read; false at the end of the
/// stream or on timeout.
bool read_fully(int fd, char* dst, size_t n, int timeout_ms) {
  size_t got = 0;
  while (got < n) {
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    ssize_t k = ::read(fd, dst + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    got += static_cast<size_t>(k);
  }
  return true;
}

int32_t decode_int32(const unsigned char* b) {
  return static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]);
}

void write_all(int fd, const char* src, size_t n) {
  while (n > 0) {
    ssize_t k = ::write(fd, src, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;  // the daemon is gone; nothing left to tell it
    src += k;
    n -= static_cast<size_t>(k);
  }
}

}  // namespace

struct WorkerPool::Daemon {
  int pid = -1;
  int stdin_fd = -1;
  int stdout_fd = -1;
  std::string dir;
  std::string socket_path;
  std::vector<Worker> idle;
};

std::string python_executable(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("PYSPARK_PYTHON"); env && *env) return env;
  return "python3";
}

WorkerPool& WorkerPool::instance() {
  static WorkerPool pool;
  return pool;
}

WorkerPool::WorkerPool() {
  // A worker that dies while the engine writes to it must fail the write, not the process.
  ::signal(SIGPIPE, SIG_IGN);
}

WorkerPool::~WorkerPool() { shutdown(); }

WorkerPool::Daemon& WorkerPool::daemon(const std::string& executable, const std::string& module) {
  const auto key = std::make_pair(executable, module);
  auto& slot = daemons_[key];
  if (slot && slot->pid > 0 && ::waitpid(slot->pid, nullptr, WNOHANG) == 0) return *slot;
  if (slot) stop(*slot);
  daemons_.erase(key);  // until the new daemon is up
  auto d = std::make_unique<Daemon>();
  char dir[] = "/tmp/ember-python-XXXXXX";
  if (!::mkdtemp(dir)) throw_worker_error("Cannot create a folder for the Python workers' socket.");
  d->dir = dir;

  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    throw_worker_error("Cannot start the Python worker daemon: pipe() failed.");
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string s = *e;
    if (s.rfind("PYTHON_UNIX_DOMAIN_ENABLED=", 0) == 0 || s.rfind("PYTHON_WORKER_FACTORY_SOCK_DIR=", 0) == 0 ||
        s.rfind("SPARK_REUSE_WORKER=", 0) == 0)
      continue;
    env_strings.push_back(std::move(s));
  }
  env_strings.push_back("PYTHON_UNIX_DOMAIN_ENABLED=true");
  env_strings.push_back("PYTHON_WORKER_FACTORY_SOCK_DIR=" + d->dir);
  env_strings.push_back("SPARK_REUSE_WORKER=1");
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = executable;
  std::string dash_m = "-m", daemon_module = "pyspark.daemon", worker_module = module;
  char* argv[] = {exe.data(), dash_m.data(), daemon_module.data(), worker_module.empty() ? nullptr : worker_module.data(),
                  nullptr};

  pid_t pid = ::fork();
  if (pid < 0) throw_worker_error("Cannot start the Python worker daemon: fork() failed.");
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::execvpe(exe.c_str(), argv, envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  d->pid = pid;
  d->stdin_fd = in[1];
  d->stdout_fd = out[0];

  // The daemon announces its socket's path, length-prefixed, on its standard output.
  unsigned char len[4];
  bool ok = read_fully(d->stdout_fd, reinterpret_cast<char*>(len), 4, 60000);
  int32_t n = ok ? decode_int32(len) : -1;
  if (ok && n > 0 && n < 4096) {
    d->socket_path.resize(static_cast<size_t>(n));
    ok = read_fully(d->stdout_fd, d->socket_path.data(), static_cast<size_t>(n), 60000);
  } else {
    ok = false;
  }
  if (!ok) {
    ::close(d->stdout_fd);
    stop(*d);
    throw_worker_error("Cannot run the Python workers with '" + executable +
                       "': it did not start pyspark.daemon (is PySpark installed for that interpreter? Set "
                       "spark.pyspark.python or PYSPARK_PYTHON).");
  }
  // What the workers print goes to the daemon's standard output: pass it on to the engine's
  // standard error, so that a chatty function never blocks on a full pipe.
  std::thread([fd = d->stdout_fd] {
    char buf[4096];
    for (;;) {
      ssize_t k = ::read(fd, buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;
      write_all(2, buf, static_cast<size_t>(k));
    }
    ::close(fd);
  }).detach();
  auto& started = daemons_[key];
  started = std::move(d);
  return *started;
}

void WorkerPool::stop(Daemon& d) {
  for (auto& w : d.idle) ::close(w.fd);
  d.idle.clear();
  if (d.stdin_fd >= 0) ::close(d.stdin_fd);  // end of its standard input: the daemon exits
  d.stdin_fd = -1;
  if (d.pid > 0) {
    bool reaped = false;
    for (int i = 0; i < 100 && !reaped; ++i) {
      if (::waitpid(d.pid, nullptr, WNOHANG) != 0) reaped = true;
      else std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!reaped) {
      ::kill(d.pid, SIGKILL);
      ::waitpid(d.pid, nullptr, 0);
    }
  }
  d.pid = -1;
  if (!d.socket_path.empty()) ::unlink(d.socket_path.c_str());
  if (!d.dir.empty()) ::rmdir(d.dir.c_str());
}

Worker WorkerPool::acquire(const std::string& executable, const std::string& module) {
  std::lock_guard<std::mutex> lock(mu_);
  for (int attempt = 0; attempt < 2; ++attempt) {
    Daemon& d = daemon(executable, module);
    if (!d.idle.empty()) {
      Worker w = d.idle.back();
      d.idle.pop_back();
      return w;
    }
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw_worker_error("Cannot open a socket to the Python worker daemon.");
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, d.socket_path.c_str(), sizeof(addr.sun_path) - 1);
    unsigned char pid[4];
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        read_fully(fd, reinterpret_cast<char*>(pid), 4, 60000)) {
      ++started_;
      return Worker{fd, decode_int32(pid), executable, module};
    }
    ::close(fd);
    // The daemon is gone or cannot fork: start a fresh one and try once more.
    stop(d);
  }
  throw_worker_error("Cannot start a Python worker with '" + executable + "'.");
}

void WorkerPool::release(Worker worker, bool reusable) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = daemons_.find(std::make_pair(worker.executable, worker.module));
  if (reusable && it != daemons_.end() && it->second->pid > 0) {
    it->second->idle.push_back(worker);
    return;
  }
  ::close(worker.fd);
  if (it != daemons_.end() && it->second->stdin_fd >= 0 && worker.pid > 0) {
    // The daemon kills the worker whose id it reads on its standard input.
    unsigned char b[4] = {static_cast<unsigned char>(worker.pid >> 24), static_cast<unsigned char>(worker.pid >> 16),
                          static_cast<unsigned char>(worker.pid >> 8), static_cast<unsigned char>(worker.pid)};
    write_all(it->second->stdin_fd, reinterpret_cast<const char*>(b), 4);
  }
}

int64_t WorkerPool::workers_started() const {
  std::lock_guard<std::mutex> lock(mu_);
  return started_;
}

size_t WorkerPool::idle_workers() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (auto& [exe, d] : daemons_) n += d->idle.size();
  return n;
}

void WorkerPool::shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [exe, d] : daemons_) stop(*d);
  daemons_.clear();
}

}  // namespace ember::udf
