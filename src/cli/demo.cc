#include "cli/demo.h"

#include <chrono>
#include <cstdio>
#include <string>

#include "common/error.h"
#include "exec/show_string.h"
#include "plan/session.h"

namespace ember::cli {
namespace {

using namespace ember::plan;

PlanPtr sales_query(const std::string& path) {
  auto read = std::make_shared<PlanNode>();
  read->kind = PlanKind::kRead;
  read->read.format = "csv";
  read->read.paths = {path};
  read->read.options.set("header", "true");
  read->read.options.set("inferSchema", "true");

  auto agg = std::make_shared<PlanNode>();
  agg->kind = PlanKind::kAggregate;
  agg->children = {read};
  agg->exprs = {col({"region"}), col({"product_id"})};
  agg->aggregates = {alias(call("sum", {col({"amount"})}), "total_amount"),
                     alias(call("count", {star()}), "transactions"),
                     alias(call("avg", {col({"amount"})}), "avg_amount")};

  auto sort = std::make_shared<PlanNode>();
  sort->kind = PlanKind::kSort;
  sort->children = {agg};
  sort->exprs = {sort_order(col({"region"}), true, true), sort_order(col({"product_id"}), true, true)};
  return sort;
}

}  // namespace

int run_demo(int argc, char** argv) {
  std::string path = argc > 0 ? argv[0] : "data/sales.csv";
  try {
    Session session("demo");
    PlanPtr query = sales_query(path);
    std::printf("Query: spark.read.csv(\"%s\", header=True, inferSchema=True)\n"
                "         .groupBy(\"region\", \"product_id\")\n"
                "         .agg(sum(\"amount\"), count(\"*\"), avg(\"amount\"))\n"
                "         .orderBy(\"region\", \"product_id\")\n\n",
                path.c_str());
    auto t0 = std::chrono::steady_clock::now();
    QueryResult result = session.execute(query);
    auto t1 = std::chrono::steady_clock::now();
    std::fputs(exec::show_string(result.schema, result.batches, 100, 20, false,
                                 session.config().session_time_zone())
                   .c_str(),
               stdout);
    double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    std::printf("\n%lld groups in %.1f ms (read, infer schema, parse, aggregate, sort)\n\n",
                static_cast<long long>(result.num_rows()), ms);
    std::fputs(session.explain(query, ExplainMode::kSimple).c_str(), stdout);
    return 0;
  } catch (const SparkError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

}  // namespace ember::cli
