#include <csignal>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/commands.h"
#include "common/config.h"

#ifdef EMBER_WITH_GRPC
#include <pthread.h>

#include <thread>

#include "connect/server.h"
#include "gpu/device.h"
#include "ember_build_info.h"
#endif

namespace ember::cli {

#ifdef EMBER_WITH_GRPC

namespace {

bool parse_port(const std::string& text, int* port) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0 || v > 65535) return false;
  *port = static_cast<int>(v);
  return true;
}

}  // namespace

int run_server(int argc, char** argv) {
  connect::ConnectServer::Options options;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto next = [&](std::string* out) {
      if (has_value) {
        *out = value;
        return true;
      }
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    if (arg == "--host") {
      if (!next(&options.host) || options.host.empty()) {
        std::fprintf(stderr, "ember server: --host needs a value\n");
        return 2;
      }
    } else if (arg == "--port") {
      std::string p;
      if (!next(&p) || !parse_port(p, &options.port)) {
        std::fprintf(stderr, "ember server: --port needs a number from 0 to 65535\n");
        return 2;
      }
    } else if (arg == "--conf") {
      // Startup settings, as spark-submit's --conf: static ones such as
      // spark.sql.warehouse.dir can be given only here.
      std::string kv;
      size_t eq = std::string::npos;
      if (!next(&kv) || (eq = kv.find('=')) == std::string::npos || eq == 0) {
        std::fprintf(stderr, "ember server: --conf needs KEY=VALUE\n");
        return 2;
      }
      Config::set_startup(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: ember server [--host HOST] [--port PORT] [--conf KEY=VALUE ...]\n");
      return 0;
    } else {
      std::fprintf(stderr, "ember server: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }

  // SIGINT and SIGTERM are taken by a dedicated thread (sigwait), never by an asynchronous
  // handler: shutting the server down is not async-signal-safe. Blocking them before any
  // other thread starts makes every thread inherit the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Spark fixes the warehouse at startup, and reports it qualified (spark.conf.get shows it).
  if (!Config().get("spark.sql.warehouse.dir")) {
    std::error_code ec;
    const std::filesystem::path cwd = std::filesystem::current_path(ec);
    Config::set_startup("spark.sql.warehouse.dir", "file:" + (cwd / "spark-warehouse").string());
  }
  connect::ConnectServer server(options);
  int port = 0;
  try {
    port = server.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ember server: %s\n", e.what());
    return 1;
  }
  std::printf("Ember %s Spark Connect server (Spark %s) listening on sc://%s:%d\n",
              EMBER_VERSION_STRING, EMBER_SPARK_VERSION_STRING, options.host.c_str(), port);
  std::fflush(stdout);
  // Find the GPU (creating its CUDA context) while the server waits for its first query, so
  // that query does not pay for it. Joined before exit, so no CUDA call outlives main.
  std::thread gpu_probe([] { (void)gpu::device_info(); });

  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    std::fprintf(stderr, "ember server: %s received, shutting down\n",
                 sig == SIGINT ? "SIGINT" : "SIGTERM");
    server.shutdown();
  });
  server.wait();
  waiter.join();
  gpu_probe.join();
  return 0;
}

#else

int run_server(int, char**) {
  std::fprintf(stderr,
               "ember server: this build has no Spark Connect server (built without gRPC)\n");
  return 2;
}

#endif

}  // namespace ember::cli
