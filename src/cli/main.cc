// The `ember` executable: dispatches to its subcommands.

#include <cstdio>
#include <cstring>
#include <string>

#include "cli/commands.h"
#include "cli/demo.h"
#include "common/host_allocator.h"
#include "gpu/device.h"
#include "plan/table_argument.h"
#include "sql/parser.h"
#include "sql/shell.h"
#include "udf/python_runner.h"
#include "ember_build_info.h"

namespace {

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: ember <command> [arguments]\n"
      "\n"
      "commands:\n"
      "  server [--host HOST] [--port PORT]  run the Spark Connect server\n"
      "                                      (default 127.0.0.1:15002)\n"
      "  submit APP.py [ARGS...]             run a PySpark script on an in-process server\n"
      "  demo [SALES.csv]                    run the sales aggregation demo\n"
      "  sql [-e SQL | -f FILE] [--conf k=v] SQL shell on the embedded engine\n"
      "  doctor                              explain what this machine offers Ember (GPU, CUDA)\n"
      "  --version                           print the version\n"
      "  --help                              print this help\n");
}

}  // namespace

int main(int argc, char** argv) {
  ember::tune_host_allocator();
  // Python functions (udf, pandas_udf) run on the pool of Python workers.
  ember::udf::install_worker_pool_runner();
  // The expressions a Python table function's `analyze` asks for are SQL text.
  ember::plan::install_analyze_expression_parser(
      [](const std::string& text) { return ember::sql::parse_expression(text); });
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--version" || command == "version") {
    std::printf("ember %s (Spark %s compatible)\n", EMBER_VERSION_STRING,
                EMBER_SPARK_VERSION_STRING);
    return 0;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    usage(stdout);
    return 0;
  }
  if (command == "server") return ember::cli::run_server(argc - 2, argv + 2);
  if (command == "submit") return ember::cli::run_submit(argc - 2, argv + 2);
  if (command == "demo") return ember::cli::run_demo(argc - 2, argv + 2);
  if (command == "sql") return ember::sql::run_shell(argc - 2, argv + 2);
  if (command == "doctor") {
    std::printf("ember %s (Spark %s compatible)\n%s", EMBER_VERSION_STRING, EMBER_SPARK_VERSION_STRING,
                ember::gpu::doctor_report().c_str());
    return 0;
  }
  std::fprintf(stderr, "ember: unknown command '%s'\n\n", command.c_str());
  usage(stderr);
  return 2;
}
