#include <cstdio>
#include <string>

#include "cli/commands.h"

#ifdef EMBER_WITH_GRPC
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "connect/server.h"
#include "connect/uuid.h"
#include "ember_build_info.h"

extern char** environ;
#endif

namespace ember::cli {

#ifdef EMBER_WITH_GRPC

namespace {

namespace fs = std::filesystem;

/// The interpreter for the script: $EMBER_PYTHON, else the project's virtual environment found
/// above the executable (build/<type>/ember → .venv/bin/python), else python3 from PATH.
std::string find_python() {
  if (const char* p = std::getenv("EMBER_PYTHON"); p != nullptr && *p != '\0') return p;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      fs::path candidate = dir / ".venv" / "bin" / "python";
      if (fs::exists(candidate, ec)) return candidate.string();
    }
  }
  return "python3";
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

/// Writes the file through which PySpark's classic builder finds a running local Spark Connect
/// server when local-server reuse is enabled (pyspark.sql.connect.local_server): a builder with
/// a `local[...]` master then connects here instead of starting a JVM.
bool write_discovery(const std::string& path, int port, const std::string& token) {
  std::string json = "{\"host\": \"localhost\", \"port\": " + std::to_string(port) +
                     ", \"token\": \"" + json_escape(token) +
                     "\", \"pid\": " + std::to_string(getpid()) + ", \"spark_version\": \"" +
                     EMBER_SPARK_VERSION_STRING + "\"}";
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return false;
  bool ok = write(fd, json.data(), json.size()) == static_cast<ssize_t>(json.size());
  return close(fd) == 0 && ok;
}

/// The script's environment: the classic builder switches to Spark Connect (API mode
/// "connect"), reuses the "local" server described by the discovery file, which is this one.
/// SPARK_REMOTE is removed: with it set, `builder.master(...)` raises
/// CANNOT_CONFIGURE_SPARK_CONNECT_MASTER.
std::vector<std::string> script_environment(const std::string& discovery) {
  std::vector<std::string> env;
  auto overridden = [](const std::string& entry) {
    static const char* kKeys[] = {"SPARK_REMOTE=",
                                  "SPARK_API_MODE=",
                                  "SPARK_LOCAL_CONNECT_REUSE=",
                                  "SPARK_LOCAL_CONNECT_DISCOVERY=",
                                  "SPARK_CONNECT_MODE_ENABLED=",
                                  "SPARK_LOCAL_REMOTE=",
                                  "SPARK_CONNECT_AUTHENTICATE_TOKEN="};
    for (const char* k : kKeys) {
      if (entry.rfind(k, 0) == 0) return true;
    }
    return false;
  };
  for (char** e = environ; *e != nullptr; ++e) {
    if (!overridden(*e)) env.emplace_back(*e);
  }
  env.emplace_back("SPARK_API_MODE=connect");
  env.emplace_back("SPARK_CONNECT_MODE_ENABLED=1");
  env.emplace_back("SPARK_LOCAL_CONNECT_REUSE=1");
  env.emplace_back("SPARK_LOCAL_CONNECT_DISCOVERY=" + discovery);
  return env;
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int run_submit(int argc, char** argv) {
  if (argc < 1 || std::strcmp(argv[0], "--help") == 0 || std::strcmp(argv[0], "-h") == 0) {
    std::fprintf(argc < 1 ? stderr : stdout, "usage: ember submit APP.py [ARGS...]\n");
    return argc < 1 ? 2 : 0;
  }

  // Signals are received synchronously by this thread (sigwaitinfo below); every thread the
  // server starts inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGCHLD);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  connect::ConnectServer::Options options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.auth_token = connect::new_uuid();
  connect::ConnectServer server(options);
  int port = 0;
  try {
    port = server.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ember submit: %s\n", e.what());
    return 1;
  }

  char dir_template[] = "/tmp/ember-submit-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::fprintf(stderr, "ember submit: cannot create a temporary directory: %s\n",
                 std::strerror(errno));
    return 1;
  }
  const std::string dir = dir_template;
  const std::string discovery = dir + "/connect-local.json";
  if (!write_discovery(discovery, port, options.auth_token)) {
    std::fprintf(stderr, "ember submit: cannot write %s\n", discovery.c_str());
    return 1;
  }

  const std::string python = find_python();
  std::vector<std::string> args = {python};
  for (int i = 0; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> c_args;
  for (auto& a : args) c_args.push_back(a.data());
  c_args.push_back(nullptr);
  std::vector<std::string> env = script_environment(discovery);
  std::vector<char*> c_env;
  for (auto& e : env) c_env.push_back(e.data());
  c_env.push_back(nullptr);

  // The script gets default signal handling and an empty mask.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty, defaults;
  sigemptyset(&empty);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGCHLD);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t child = 0;
  int rc = posix_spawnp(&child, python.c_str(), nullptr, &attr, c_args.data(), c_env.data());
  posix_spawnattr_destroy(&attr);

  int code = 127;
  if (rc != 0) {
    std::fprintf(stderr, "ember submit: cannot run %s: %s\n", python.c_str(), std::strerror(rc));
  } else {
    while (true) {
      int status = 0;
      pid_t done = waitpid(child, &status, WNOHANG);
      if (done == child) {
        code = exit_code(status);
        break;
      }
      siginfo_t info;
      timespec tick{1, 0};
      int sig = sigtimedwait(&signals, &info, &tick);
      // A Ctrl-C from the terminal reaches the script too (same process group); only a
      // signal sent to this process alone is passed on.
      if (sig == SIGTERM || (sig == SIGINT && info.si_code == SI_USER)) kill(child, sig);
    }
  }

  server.shutdown();
  std::error_code ec;
  fs::remove_all(dir, ec);
  return code;
}

#else

int run_submit(int, char**) {
  std::fprintf(stderr,
               "ember submit: this build has no Spark Connect server (built without gRPC)\n");
  return 2;
}

#endif

}  // namespace ember::cli
