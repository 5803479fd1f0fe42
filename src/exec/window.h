#pragma once

// The Window operator: evaluates window functions over partitions of its input, each sorted by
// the window's ORDER BY. The per-partition algorithms live in window_functions.h.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/operators.h"

namespace ember::exec {

struct PythonFunction;
struct PythonSettings;

/// A window frame, bound: ROWS bounds count rows from the current one; RANGE bounds are
/// offsets of the (single) order key's value. INT64_MIN / INT64_MAX are unbounded preceding /
/// following; 0 is the current row (for RANGE: its peers).
struct FrameBounds {
  bool rows = true;
  int64_t lower = INT64_MIN;
  int64_t upper = 0;
  bool lower_unbounded() const { return lower == INT64_MIN; }
  bool upper_unbounded() const { return upper == INT64_MAX; }
};

/// One window function of a Window operator.
struct WindowCall {
  enum class Kind {
    kRowNumber, kRank, kDenseRank, kPercentRank, kCumeDist, kNtile,
    kLag, kLead, kFirst, kLast, kNthValue, kAggregate,
    kPython,       // a group aggregate pandas UDF over the frame (Spark's WindowInPandas)
    kCounterDiff,  // counter_diff(value[, start_time]): window_counter_diff.h
  };
  Kind kind = Kind::kRowNumber;
  /// lag / lead: input and default; first / last / nth_value: input; aggregate: its arguments;
  /// counter_diff: the counter and, when given, the start time.
  std::vector<PhysExprPtr> args;
  /// lag / lead offset, nth_value's n, ntile's bucket count.
  int64_t offset = 1;
  bool ignore_nulls = false;
  FrameBounds frame;
  // Aggregates.
  const functions::FunctionDef* function = nullptr;
  functions::Signature signature;
  PhysExprPtr filter;
  // Python: the function and the workers' settings.
  std::shared_ptr<const PythonFunction> python;
  std::shared_ptr<const PythonSettings> python_settings;
  TypePtr type;          // result type
  std::string display;   // for plans
};

/// Window functions over one PARTITION BY / ORDER BY. A sink: collects its input, sorts it by
/// partition keys then order keys, splits the sorted rows at partition boundaries into chunks
/// that threads evaluate independently, and emits the input columns followed by one column per
/// call. Output order is the sorted order.
class Window final : public PhysicalOperator {
 public:
  Window(std::vector<PhysExprPtr> partition, std::vector<SortKey> order, std::vector<WindowCall> calls);
  std::string name() const override { return "Window"; }
  std::string details() const override;
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

 private:
  std::vector<PhysExprPtr> partition_;
  std::vector<SortKey> order_;
  std::vector<WindowCall> calls_;
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> output_;
};

}  // namespace ember::exec
