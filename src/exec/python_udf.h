#pragma once

// Python user-defined functions as the engine sees them: the pickled function a client sent,
// the operator that evaluates a projection's or filter's Python calls batch by batch, and the
// interface through which that operator reaches Python workers. The workers themselves (a pool
// of processes speaking PySpark's worker protocol) live in udf/, a layer above: it installs
// its runner with `install_python_runner` when the server starts.

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/operator.h"

namespace ember::exec {

/// PySpark's PythonEvalType codes (pyspark.util.PythonEvalType), which the worker reads to
/// choose how it feeds the function.
enum class PythonEvalType : int {
  kBatchedUdf = 100,        // udf(f): rows one by one
  kArrowBatchedUdf = 101,   // udf(f, useArrow=True): rows one by one, Arrow framing
  kScalarPandasUdf = 200,   // pandas_udf: Series -> Series
  kScalarPandasIterUdf = 204,  // pandas_udf: Iterator[Series] -> Iterator[Series]
  kGroupedMapPandasUdf = 201,  // groupBy().applyInPandas: DataFrame -> DataFrame per group
  kGroupedAggPandasUdf = 202,  // pandas_udf: Series -> scalar per group (groupBy().agg)
  kWindowAggPandasUdf = 203,   // the same function over a window: one value per frame
  kMapPandasIterUdf = 205,     // mapInPandas: Iterator[DataFrame] -> Iterator[DataFrame]
  kMapArrowIterUdf = 207,      // mapInArrow: Iterator[RecordBatch] -> Iterator[RecordBatch]
  kCogroupedMapPandasUdf = 206,  // cogroup().applyInPandas: two DataFrames -> DataFrame per key
  kCogroupedMapArrowUdf = 210,   // cogroup().applyInArrow: two Tables -> Table per key
  kGroupedMapArrowUdf = 209,   // groupBy().applyInArrow: Table -> Table per group
  kGroupedMapArrowIterUdf = 215,   // applyInArrow: Iterator[RecordBatch] -> Iterator[RecordBatch]
  kGroupedMapPandasIterUdf = 216,  // applyInPandas: Iterator[DataFrame] -> Iterator[DataFrame]
  kScalarArrowUdf = 250,       // arrow_udf: Array -> Array
  kScalarArrowIterUdf = 251,   // arrow_udf: Iterator[Array] -> Iterator[Array]
  kGroupedAggArrowUdf = 252,   // arrow_udf: Array -> scalar per group (groupBy().agg)
  kWindowAggArrowUdf = 253,    // the same function over a window
  kTableUdf = 300,             // udtf: a class whose eval yields rows, pickled framing
  kArrowTableUdf = 301,        // udtf(useArrow=True): the same, Arrow framing
  kArrowUdtf = 302,            // arrow_udtf: eval takes Arrow arrays, yields Arrow tables
};

/// Whether PythonEval evaluates functions of `eval_type` as scalar calls.
bool is_scalar_python_eval_type(int eval_type);
/// Whether PythonMapBatches runs functions of `eval_type` (mapInPandas, mapInArrow).
bool is_map_python_eval_type(int eval_type);
/// Whether PythonGroupMap runs functions of `eval_type` (applyInPandas, applyInArrow).
bool is_group_map_python_eval_type(int eval_type);

/// Whether `eval_type` is a Python user-defined table function's (udtf, arrow_udtf).
bool is_table_python_eval_type(int eval_type);

/// A Python function as the client pickled it (cloudpickle of `(function, returnType)`).
struct PythonFunction {
  std::string name;
  int eval_type = 0;
  std::string command;          // the pickled bytes, passed to the worker untouched
  std::string python_version;   // the client's "major.minor"; the worker checks it
  TypePtr return_type;
  bool deterministic = true;
  /// Per argument of a call, its parameter name when passed by name (`f(b => x)`, a Python
  /// keyword argument), else empty; empty when every argument is positional.
  std::vector<std::string> arg_names;
  /// A table function without a return type, resolved for one call: what its `analyze` static
  /// method returned, pickled by the analyze worker, for the eval worker's constructor.
  std::optional<std::string> pickled_analyze_result;
  /// A call with a TABLE argument: which arguments are TABLE arguments (struct columns of the
  /// table's rows), and the fields of that struct that only mark PARTITION BY boundaries
  /// (PySpark's partition_child_indexes; the worker compares them on consecutive rows).
  std::vector<bool> table_args;
  std::vector<int> partition_child_indexes;
};

/// One argument of a table function's `analyze` call (pyspark.sql.udtf.AnalyzeArgument): its
/// type, its value when it is a constant, whether it is a TABLE argument, and its keyword when
/// passed by name.
struct AnalyzeArgument {
  TypePtr type;
  std::optional<Value> constant;
  bool is_table = false;
  std::string name;
};

/// What a table function's `analyze` method returned (pyspark.sql.udtf.AnalyzeResult): the
/// output schema, the whole result pickled, and what it asks of its TABLE argument's rows.
struct TableFunctionAnalysis {
  TypePtr schema;
  std::string pickled_result;
  bool with_single_partition = false;
  std::vector<std::string> partition_by;
  struct Ordering {
    std::string name;
    bool ascending = true;
    int nulls_first = 0;  // 0: the default for the direction, 1: first, 2: last
  };
  std::vector<Ordering> order_by;
  std::vector<std::pair<std::string, std::string>> select;  // (column, alias)
};

/// What a Python worker task needs besides its data: the interpreter, the batch size and the
/// settings PySpark's worker reads (RunnerConf), taken from the session when the query is
/// planned.
struct PythonSettings {
  std::string executable = "python3";
  int64_t max_records_per_batch = 10000;
  std::map<std::string, std::string> runner_conf;
  /// GPU slots (udf/gpu_slots.h): spark.task.resource.gpu.amount (0: the tasks ask for no GPU)
  /// and the GPUs there are, by address.
  double gpu_amount = 0;
  std::vector<std::string> gpu_addresses;
};

/// What the worker reads of a table function besides its arguments (PySpark's UDTFInfo): the
/// input columns that only mark PARTITION BY boundaries, the result of its `analyze` method as
/// the analyze worker pickled it (empty when it has none), its return type as Spark's JSON,
/// and its name for error messages. A table function's command is the pickled class.
struct PythonTableFunctionInfo {
  std::vector<int> partition_child_indexes;
  std::string pickled_analyze_result;
  bool has_analyze_result = false;
  std::string return_type_json;
  std::string name;
  /// Arrow UDTFs: the input columns that are TABLE arguments (structs the worker flattens).
  std::vector<int> table_arg_offsets;
};

/// One function of a task and the columns of the task's input it takes, in order.
struct PythonUdfCall {
  std::shared_ptr<const PythonFunction> function;
  std::vector<int> args;
};

/// A task: evaluate every call over `input` (whose schema is `input_schema`); the result has
/// one column per call, of its return type, and (`row_per_row`) as many rows as the input.
struct PythonTask {
  int eval_type = 0;
  /// Scalar calls answer each input row with one result row; a map function (mapInPandas)
  /// returns any number of rows.
  bool row_per_row = true;
  std::vector<PythonUdfCall> calls;
  const Batch* input = nullptr;
  /// Grouped functions: one batch per group instead of `input`, each sent as its own Arrow
  /// stream (PySpark's group protocol); `input_schema` describes them.
  const std::vector<Batch>* groups = nullptr;
  /// Cogrouped functions: per key, the left side's rows (of `input_schema`) and the right
  /// side's (of `other_schema`), either possibly empty.
  const std::vector<std::pair<Batch, Batch>>* cogroups = nullptr;
  Schema input_schema;
  Schema other_schema;
  const PythonSettings* settings = nullptr;
  int64_t partition = 0;
  /// Table functions: its one call is a UDTF (calls[0]); the worker answers with one batch of
  /// rows per input row, then one batch of the rows `terminate` yields (when the class has
  /// it). The runner stores each result batch's row count in `result_batch_rows`.
  const PythonTableFunctionInfo* table_function = nullptr;
  std::vector<int64_t>* result_batch_rows = nullptr;
};

/// Runs Python tasks. Implementations must be safe to call from several threads at once (each
/// pipeline thread runs its own task).
class PythonRunner {
 public:
  virtual ~PythonRunner() = default;
  virtual std::vector<ColumnPtr> run(const PythonTask& task) = 0;
  /// Runs table function `function`'s `analyze` static method over `args` (Spark's
  /// UserDefinedPythonTableFunctionAnalyzeRunner); its failure is
  /// TABLE_VALUED_FUNCTION_FAILED_TO_ANALYZE_IN_PYTHON.
  virtual TableFunctionAnalysis analyze_table_function(const PythonFunction& function,
                                                       const std::vector<AnalyzeArgument>& args,
                                                       const PythonSettings& settings) = 0;
};

/// Installs the runner that evaluates Python functions (replacing any earlier one).
void install_python_runner(std::shared_ptr<PythonRunner> runner);
/// The installed runner; UNSUPPORTED_FEATURE when this build has none.
PythonRunner& python_runner();

/// Evaluates Python functions of one eval type over each batch and appends their results, one
/// column per call, after the input's columns (Spark's BatchEvalPython / ArrowEvalPython). The
/// arguments are evaluated first into a batch of their own, which is what the worker receives.
class PythonEval final : public PhysicalOperator {
 public:
  PythonEval(int eval_type, std::vector<std::shared_ptr<const PythonFunction>> functions,
             std::vector<std::vector<PhysExprPtr>> args, std::vector<std::string> result_names,
             PythonSettings settings);
  std::string name() const override;
  std::string details() const override;
  void execute(Batch& batch, ExecContext& ctx) const override;
  bool keeps_rows() const override { return true; }

 private:
  int eval_type_;
  std::vector<std::shared_ptr<const PythonFunction>> functions_;
  std::vector<std::vector<PhysExprPtr>> args_;
  std::vector<std::string> result_names_;
  PythonSettings settings_;
  // The distinct argument expressions (the worker's input columns) and, per call, which of
  // them it reads.
  std::vector<PhysExprPtr> inputs_;
  std::vector<std::vector<int>> offsets_;
};

/// What Python operators that call their function once per partition share: Spark runs one
/// worker task per partition, so an iterator function (mapInPandas) sees every batch of its
/// partition in one call — a model loaded at its start is loaded once — and a UDTF's
/// `terminate` runs once per partition. A sink gathers each input partition's rows (the
/// columns `prepare` takes from a batch), in order; as a source it runs one task per partition
/// (`run_partition`), several partitions at once, and its output keeps the input's partitions.
/// A partition without rows runs no task.
class PythonPartitionSink : public PhysicalOperator {
 public:
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override { return std::max<size_t>(1, partitions_.size()); }
  int64_t output_partitions() const override;

 protected:
  /// The columns of `batch` that a partition's task needs (a batch with rows).
  virtual Batch prepare(const Batch& batch, ExecContext& ctx) const = 0;
  /// The output columns of one partition, given its prepared rows in order.
  virtual std::vector<ColumnPtr> run_partition(const Batch& rows, int64_t partition, ExecContext& ctx) const = 0;

 private:
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> partitions_;  // after finalize: each partition's rows, in partition order
};

/// mapInPandas / mapInArrow (Spark's MapInPandas / MapInArrow): the columns of a partition's
/// rows go to the function as one struct column, in one task, and the rows it returns, of its
/// struct return type, are the output.
class PythonMapBatches final : public PythonPartitionSink {
 public:
  PythonMapBatches(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> inputs,
                   std::vector<std::string> input_names, std::string display, PythonSettings settings);
  std::string name() const override;
  std::string details() const override { return display_; }

 protected:
  Batch prepare(const Batch& batch, ExecContext& ctx) const override;
  std::vector<ColumnPtr> run_partition(const Batch& rows, int64_t partition, ExecContext& ctx) const override;

 private:
  std::shared_ptr<const PythonFunction> function_;
  std::vector<PhysExprPtr> inputs_;
  std::vector<std::string> input_names_;
  std::string display_;
  PythonSettings settings_;
};

/// What grouped Python operators share: a sink that gathers the key and value columns of its
/// whole input in input order, then (`group_input`) splits them into groups of equal keys
/// (Spark's grouping semantics: NULLs equal, groups in the order of their first rows).
class PythonGroupedSink : public PhysicalOperator {
 public:
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;

 protected:
  PythonGroupedSink(std::vector<PhysExprPtr> keys, std::vector<PhysExprPtr> values)
      : keys_(std::move(keys)), values_(std::move(values)) {}
  /// The gathered input (keys, then values) and the rows of each group; clears the input.
  struct Grouped {
    Batch all;
    std::vector<std::vector<int32_t>> rows;
  };
  Grouped group_input();
  /// Runs a task whose one function returns rows of its struct type, which become the output.
  void run_for_rows(const PythonTask& task, ExecContext& ctx);

  std::vector<PhysExprPtr> keys_;
  std::vector<PhysExprPtr> values_;
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> output_;
};

/// groupBy().applyInPandas / applyInArrow (Spark's FlatMapGroupsInPandas / FlatMapGroupsInArrow):
/// each group's key and value columns go to the function, whose rows of its struct return type
/// are the output. Arrow functions receive a group's columns as one struct column.
class PythonGroupMap final : public PythonGroupedSink {
 public:
  PythonGroupMap(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> keys,
                 std::vector<PhysExprPtr> values, std::vector<std::string> value_names, std::string display,
                 PythonSettings settings);
  std::string name() const override;
  std::string details() const override { return display_; }
  void finalize(ExecContext& ctx) override;

 private:
  bool arrow() const;
  std::shared_ptr<const PythonFunction> function_;
  std::vector<std::string> value_names_;
  std::string display_;
  PythonSettings settings_;
};

/// Group aggregate pandas UDFs (Spark's AggregateInPandas): each group's argument columns go to
/// every function, which answers one value per group. The output is one row per group: the
/// grouping keys, then one column per call. Without keys the whole input is one group, and an
/// empty input gives no row (as Spark's operator, which skips empty partitions).
class PythonGroupAggregate final : public PythonGroupedSink {
 public:
  PythonGroupAggregate(std::vector<std::shared_ptr<const PythonFunction>> functions, std::vector<PhysExprPtr> keys,
                       std::vector<std::vector<PhysExprPtr>> args, std::string display, PythonSettings settings);
  std::string name() const override { return "AggregateInPandas"; }
  std::string details() const override { return display_; }
  void finalize(ExecContext& ctx) override;

 private:
  std::vector<std::shared_ptr<const PythonFunction>> functions_;
  std::vector<std::vector<int>> offsets_;  // per call, its arguments among values_
  std::string display_;
  PythonSettings settings_;
};

/// cogroup().applyInPandas and applyInArrow (Spark's FlatMapCoGroupsInPandas / InArrow; the
/// worker gets the same streams for both). Its input is the union of both
/// sides, each row `side (0 left, 1 right), keys..., left columns..., right columns...` (the other
/// side's columns null); every key of either side is one call of the function with the left
/// rows' and the right rows' columns (keys first, then the side's columns).
class PythonCoGroupMap final : public PythonGroupedSink {
 public:
  PythonCoGroupMap(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> keys,
                   std::vector<PhysExprPtr> values, std::vector<std::string> left_names,
                   std::vector<std::string> right_names, std::string display, PythonSettings settings);
  std::string name() const override {
    return function_->eval_type == static_cast<int>(PythonEvalType::kCogroupedMapArrowUdf) ? "FlatMapCoGroupsInArrow"
                                                                                            : "FlatMapCoGroupsInPandas";
  }
  std::string details() const override { return display_; }
  void finalize(ExecContext& ctx) override;

 private:
  std::shared_ptr<const PythonFunction> function_;
  std::vector<std::string> left_names_, right_names_;
  std::string display_;
  PythonSettings settings_;
};

/// Distinct argument expressions of several calls (calls that read the same value share one
/// input column, as Spark's EvalPython does): fills `inputs` and, per call, the positions of its
/// arguments among them.
void distinct_python_inputs(const std::vector<std::vector<PhysExprPtr>>& args, std::vector<PhysExprPtr>& inputs,
                            std::vector<std::vector<int>>& offsets);

}  // namespace ember::exec
