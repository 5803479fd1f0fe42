#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"
#include "common/memory.h"
#include "functions/function.h"
#include "types/data_type.h"

namespace ember::exec {

/// What every operator of one query shares: evaluation settings, the query's memory pool and
/// its cancellation flag.
struct ExecContext {
  functions::EvalContext eval;
  MemoryPool* pool = nullptr;
  std::shared_ptr<std::atomic<bool>> cancelled;
  /// Throws OPERATION_CANCELED when the query was interrupted.
  void check_cancelled() const;
};

/// Global state of a source for one pipeline run (morsel cursor, open files...).
struct SourceState {
  virtual ~SourceState() = default;
  /// Set by the executor before the first morsel when an operator of the pipeline numbers the
  /// rows of each partition after an operator that drops or adds rows: each morsel is then one
  /// whole partition, which a single thread runs through the pipeline in order, as a Spark task
  /// runs its partition.
  bool whole_partitions = false;
};
/// Per-thread state of a sink.
struct LocalSinkState {
  virtual ~LocalSinkState() = default;
};

using Emit = std::function<void(Batch)>;

/// A physical operator. The contract, in the morsel-driven model:
///  - a *source* hands out morsels: `next_morsel` claims one unit of work (a range chunk, a
///    file split, a partition of a finished sink) and emits its batches in order, numbering
///    them so that `Batch::index` orders the whole output; it is called concurrently from
///    several threads;
///  - a *streaming* operator transforms one batch at a time (`execute`), statelessly;
///  - a *sink* consumes batches into per-thread state (`sink`), merges that state once per
///    thread (`combine`), and is finalized once (`finalize`); a finalized sink is the source of
///    the next pipeline.
/// A pipeline is source → streaming operators → sink, and runs on all cores.
class PhysicalOperator {
 public:
  virtual ~PhysicalOperator() = default;

  std::vector<std::unique_ptr<PhysicalOperator>> children;
  Schema schema;  // output

  virtual std::string name() const = 0;
  /// One-line details for explain (expressions, keys).
  virtual std::string details() const { return ""; }
  /// Whether this operator runs on the GPU (name shown with a Gpu prefix).
  virtual bool on_gpu() const { return false; }

  virtual bool is_source() const { return false; }
  virtual bool is_sink() const { return false; }

  // Source.
  virtual std::unique_ptr<SourceState> open_source(ExecContext& ctx) const;
  virtual bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const;
  /// Upper bound on useful parallelism of this source (e.g. number of morsels).
  virtual size_t max_parallelism(const SourceState&) const { return 1 << 20; }
  /// Whether the batches' `partition_row` is set; otherwise positions are counted, which needs
  /// whole partitions.
  virtual bool knows_positions() const { return true; }

  /// How many Spark partitions the output has (spark_partition_id() ranges over them; a union
  /// numbers its children's partitions one after another): a streaming operator keeps its
  /// input's, a sink's output is one partition (what Spark's adaptive execution makes of a
  /// shuffle that fits one partition).
  virtual int64_t output_partitions() const;

  // Streaming.
  virtual void execute(Batch& batch, ExecContext& ctx) const;
  /// A streaming operator that emits every input row once, in order (a projection), so that
  /// rows keep their position in their partition.
  virtual bool keeps_rows() const { return false; }
  /// A streaming operator that evaluates functions numbering the rows of each partition
  /// (monotonically_increasing_id, rand): the executor tells them where each batch's rows sit.
  virtual bool numbers_rows() const { return false; }

  // Sink.
  virtual std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx);
  virtual void sink(LocalSinkState& local, Batch batch, ExecContext& ctx);
  virtual void combine(LocalSinkState& local, ExecContext& ctx);
  virtual void finalize(ExecContext& ctx);
  /// A sink whose state follows Spark's partitions (an aggregate keeping one partial result per
  /// partition, as each of Spark's tasks aggregates its own): the executor runs each partition
  /// of its input whole on one thread, in order.
  virtual bool reads_whole_partitions() const { return false; }

  // Two-input operators (joins). `build_sink` returns a sink that consumes children[1] in its
  // own pipeline, which runs before the pipeline this operator streams in (over children[0]).
  virtual PhysicalOperator* build_sink() { return nullptr; }
  /// Called once after the streaming pipeline's source is exhausted; a streaming operator may
  /// return rows that depend on all of its input (unmatched build rows of an outer join). The
  /// batch flows through the rest of the pipeline after every other batch.
  virtual bool finish_output(Batch& out, ExecContext& ctx) const {
    (void)out;
    (void)ctx;
    return false;
  }
};

using OperatorPtr = std::unique_ptr<PhysicalOperator>;

/// Runs an operator tree to completion, returning its output batches in order.
std::vector<Batch> run_plan(PhysicalOperator& root, ExecContext& ctx);

/// Renders the physical tree for explain, Spark style (`+- ` children, `*` for GPU nodes).
std::string physical_tree_string(const PhysicalOperator& root);

}  // namespace ember::exec
