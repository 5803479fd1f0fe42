// Pipeline construction and the morsel-driven executor.

#include <algorithm>
#include <limits>
#include <mutex>

#include "common/error.h"
#include "common/thread_pool.h"
#include "exec/operator.h"
#include "exec/operators.h"
#include "functions/input_file.h"
#include "functions/rand.h"

namespace ember::exec {

void ExecContext::check_cancelled() const {
  if (cancelled && cancelled->load(std::memory_order_relaxed))
    throw SparkError(ErrorKind::kInterrupted, "OPERATION_CANCELED", "Operation has been cancelled.");
}

std::unique_ptr<SourceState> PhysicalOperator::open_source(ExecContext&) const {
  EMBER_UNREACHABLE(name() + " is not a source");
}
bool PhysicalOperator::next_morsel(SourceState&, ExecContext&, const Emit&) const {
  EMBER_UNREACHABLE(name() + " is not a source");
}
void PhysicalOperator::execute(Batch&, ExecContext&) const {
  EMBER_UNREACHABLE(name() + " is not a streaming operator");
}
std::unique_ptr<LocalSinkState> PhysicalOperator::open_local(ExecContext&) {
  EMBER_UNREACHABLE(name() + " is not a sink");
}
void PhysicalOperator::sink(LocalSinkState&, Batch, ExecContext&) {
  EMBER_UNREACHABLE(name() + " is not a sink");
}
void PhysicalOperator::combine(LocalSinkState&, ExecContext&) {}
void PhysicalOperator::finalize(ExecContext&) {}

namespace {

/// Collects the final output, restoring source order by batch index.
class ResultCollector final : public PhysicalOperator {
 public:
  std::string name() const override { return "Collect"; }
  bool is_sink() const override { return true; }
  struct Local : LocalSinkState {
    std::vector<Batch> batches;
  };
  std::unique_ptr<LocalSinkState> open_local(ExecContext&) override { return std::make_unique<Local>(); }
  void sink(LocalSinkState& l, Batch b, ExecContext&) override {
    if (b.num_rows > 0) static_cast<Local&>(l).batches.push_back(std::move(b));
  }
  void combine(LocalSinkState& l, ExecContext&) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& b : static_cast<Local&>(l).batches) batches.push_back(std::move(b));
  }
  void finalize(ExecContext&) override {
    std::stable_sort(batches.begin(), batches.end(),
                     [](const Batch& a, const Batch& b) { return a.index < b.index; });
  }
  std::vector<Batch> batches;

 private:
  std::mutex mu_;
};

struct Pipeline {
  const PhysicalOperator* source = nullptr;
  std::vector<const PhysicalOperator*> ops;  // in execution order
  PhysicalOperator* sink = nullptr;
};

/// Splits the tree into pipelines; dependencies come first in `out`.
void build(PhysicalOperator* op, Pipeline& current, std::vector<Pipeline>& out) {
  if (op->is_sink()) {
    // `op` ends a child pipeline and is the source of `current`.
    current.source = op;
    EMBER_CHECK(op->children.size() == 1, "sinks have one input");
    Pipeline child;
    child.sink = op;
    build(op->children[0].get(), child, out);
    out.push_back(child);
    return;
  }
  if (op->is_source()) {
    current.source = op;
    return;
  }
  if (PhysicalOperator* build_side = op->build_sink()) {
    // The build input runs to completion in its own pipeline before this one streams.
    EMBER_CHECK(op->children.size() == 2, "two-input operators have two children: " + op->name());
    Pipeline build_pipeline;
    build_pipeline.sink = build_side;
    build(op->children[1].get(), build_pipeline, out);
    out.push_back(build_pipeline);
  } else {
    EMBER_CHECK(op->children.size() == 1, "streaming operators have one input: " + op->name());
  }
  current.ops.insert(current.ops.begin(), op);
  build(op->children[0].get(), current, out);
}

/// Whether the sink of `p` follows Spark's partitions, or an operator of `p` numbers the rows
/// of each partition after one that drops or adds rows (positions then come from counting
/// rows): either needs each partition on one thread.
bool needs_whole_partitions(const Pipeline& p) {
  if (p.sink->reads_whole_partitions()) return true;
  bool moved = !p.source->knows_positions();
  for (const PhysicalOperator* op : p.ops) {
    if (moved && op->numbers_rows()) return true;
    moved = moved || !op->keeps_rows();
  }
  return moved && p.sink->numbers_rows();
}

void run_pipeline(const Pipeline& p, ExecContext& ctx) {
  auto state = p.source->open_source(ctx);
  state->whole_partitions = needs_whole_partitions(p);
  const bool source_is_sink = p.source->is_sink();
  ThreadPool& pool = ThreadPool::global();
  size_t threads = std::min(pool.size() + 1, p.source->max_parallelism(*state));
  threads = std::max<size_t>(threads, 1);
  pool.parallel_run(threads, [&](size_t) {
    auto local = p.sink->open_local(ctx);
    // Partition-aware functions (spark_partition_id, rand, monotonically_increasing_id) see the
    // batch's partition and the position of its first row there, at the operator evaluating
    // them (the sink last): the source's position until an operator drops or adds rows, then
    // the rows this thread passed to the operator since the partition began (exact because
    // such pipelines run each partition whole on one thread).
    struct Seen {
      int64_t partition = -1;
      int64_t rows = 0;
    };
    std::vector<Seen> seen(p.ops.size() + 1);
    auto position = [&](size_t at, const Batch& b, bool from_source) {
      Seen& s = seen[at];
      if (s.partition != b.partition) s = {b.partition, 0};
      int64_t first = from_source ? b.partition_row : s.rows;
      s.rows = first + b.num_rows;
      return functions::PartitionContext{b.partition, first, b.index};
    };
    Emit emit = [&](Batch b) {
      // Rows out of a sink crossed what Spark plans as an exchange (aggregation, sort, limit,
      // the build side of a join): they no longer come straight from a file.
      if (source_is_sink) b.file.reset();
      bool from_source = p.source->knows_positions();
      for (size_t i = 0; i < p.ops.size(); ++i) {
        if (b.num_rows == 0) break;
        functions::PartitionScope scope(position(i, b, from_source));
        functions::InputFileScope file(b.file.get());
        from_source = from_source && p.ops[i]->keeps_rows();
        p.ops[i]->execute(b, ctx);
      }
      functions::PartitionScope scope(position(p.ops.size(), b, from_source));
      const std::shared_ptr<const InputFileBlock> held = b.file;
      functions::InputFileScope file(held.get());
      p.sink->sink(*local, std::move(b), ctx);
    };
    while (p.source->next_morsel(*state, ctx, emit)) ctx.check_cancelled();
    p.sink->combine(*local, ctx);
  });
  ctx.check_cancelled();
  // Trailing output of streaming operators (outer joins' unmatched build rows), in order, after
  // every batch of the source; it passes through the operators that follow the producer.
  for (size_t i = 0; i < p.ops.size(); ++i) {
    Batch tail;
    if (!p.ops[i]->finish_output(tail, ctx)) continue;
    tail.index = std::numeric_limits<int64_t>::max() - static_cast<int64_t>(p.ops.size() - i);
    auto local = p.sink->open_local(ctx);
    for (size_t j = i + 1; j < p.ops.size() && tail.num_rows > 0; ++j) p.ops[j]->execute(tail, ctx);
    p.sink->sink(*local, std::move(tail), ctx);
    p.sink->combine(*local, ctx);
  }
  p.sink->finalize(ctx);
}

void tree_lines(const PhysicalOperator& op, const std::string& prefix, bool last, bool root,
                std::string& out) {
  std::string line = root ? "" : prefix + (last ? "+- " : ":- ");
  std::string d = op.details();
  out += line + (op.on_gpu() ? "Gpu" : "") + op.name() + (d.empty() ? "" : " " + d) + "\n";
  std::string child_prefix = root ? "" : prefix + (last ? "   " : ":  ");
  for (size_t i = 0; i < op.children.size(); ++i)
    tree_lines(*op.children[i], child_prefix, i + 1 == op.children.size(), false, out);
}

}  // namespace

int64_t PhysicalOperator::output_partitions() const {
  if (is_sink() || children.empty()) return 1;
  return children[0]->output_partitions();
}

std::vector<Batch> run_plan(PhysicalOperator& root, ExecContext& ctx) {
  ResultCollector collector;
  std::vector<Pipeline> pipelines;
  Pipeline last;
  last.sink = &collector;
  build(&root, last, pipelines);
  pipelines.push_back(last);
  for (auto& p : pipelines) run_pipeline(p, ctx);
  return std::move(collector.batches);
}

std::string physical_tree_string(const PhysicalOperator& root) {
  std::string out;
  tree_lines(root, "", true, true, out);
  return out;
}

}  // namespace ember::exec
