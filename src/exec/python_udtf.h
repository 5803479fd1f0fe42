#pragma once

// Python user-defined table functions (udtf, arrow_udtf), one worker task per partition: Spark's
// BatchEvalPythonUDTF / ArrowEvalPythonUDTF. The function is a Python class whose `eval` yields
// rows for each input row and whose optional `terminate` yields more rows at the end.

#include <memory>
#include <string>
#include <vector>

#include "exec/python_udf.h"

namespace ember::exec {

/// Output = the kept input columns (`kept`, ordinals of the input batch) followed by the
/// columns of the function's struct return type. Each input partition is one worker task
/// (PythonPartitionSink): the worker calls `eval` once per row (`arrow_udtf`: once per Arrow
/// batch) and `terminate` once at the end, and answers each call with a batch of rows. The rows
/// of a row's `eval` are joined with that row; the rows of `terminate` (and of any call past the
/// last row) with the partition's last row, as Spark joins them.
class PythonUdtfEval final : public PythonPartitionSink {
 public:
  PythonUdtfEval(std::shared_ptr<const PythonFunction> function, PythonTableFunctionInfo info,
                 std::vector<PhysExprPtr> args, std::vector<int> kept, std::string display, PythonSettings settings);
  std::string name() const override;
  std::string details() const override { return display_; }

 protected:
  /// The kept columns, then the distinct argument expressions' values.
  Batch prepare(const Batch& batch, ExecContext& ctx) const override;
  std::vector<ColumnPtr> run_partition(const Batch& rows, int64_t partition, ExecContext& ctx) const override;

 private:
  std::shared_ptr<const PythonFunction> function_;
  PythonTableFunctionInfo info_;
  std::vector<PhysExprPtr> inputs_;  // distinct argument expressions
  std::vector<int> offsets_;         // per argument, its column among inputs_
  std::vector<int> kept_;
  std::string display_;
  PythonSettings settings_;
};

}  // namespace ember::exec
