#include "exec/python_udtf.h"

#include "common/error.h"

namespace ember::exec {

PythonUdtfEval::PythonUdtfEval(std::shared_ptr<const PythonFunction> function, PythonTableFunctionInfo info,
                               std::vector<PhysExprPtr> args, std::vector<int> kept, std::string display,
                               PythonSettings settings)
    : function_(std::move(function)),
      info_(std::move(info)),
      kept_(std::move(kept)),
      display_(std::move(display)),
      settings_(std::move(settings)) {
  std::vector<std::vector<int>> offsets;
  distinct_python_inputs({std::move(args)}, inputs_, offsets);
  offsets_ = std::move(offsets[0]);
  // An Arrow UDTF gets each TABLE argument as a record batch of the table's columns.
  if (function_->eval_type == static_cast<int>(PythonEvalType::kArrowUdtf))
    for (size_t i = 0; i < function_->table_args.size() && i < offsets_.size(); ++i)
      if (function_->table_args[i]) info_.table_arg_offsets.push_back(offsets_[i]);
}

std::string PythonUdtfEval::name() const {
  return function_->eval_type == static_cast<int>(PythonEvalType::kTableUdf) ? "BatchEvalPythonUDTF"
                                                                              : "ArrowEvalPythonUDTF";
}

Batch PythonUdtfEval::prepare(const Batch& batch, ExecContext& ctx) const {
  Batch cols;
  cols.num_rows = batch.num_rows;
  for (int k : kept_) cols.columns.push_back(batch.columns[static_cast<size_t>(k)]);
  for (auto& e : inputs_) cols.columns.push_back(evaluate(*e, batch, ctx.eval));
  return cols;
}

std::vector<ColumnPtr> PythonUdtfEval::run_partition(const Batch& rows, int64_t partition, ExecContext& ctx) const {
  Batch input;
  input.num_rows = rows.num_rows;
  Schema schema;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    input.columns.push_back(rows.columns[kept_.size() + i]);
    schema.push_back({"_" + std::to_string(i), inputs_[i]->type, inputs_[i]->nullable, "{}"});
  }
  std::vector<int64_t> batch_rows;
  PythonTask task;
  task.eval_type = function_->eval_type;
  task.row_per_row = false;
  task.calls.push_back({function_, offsets_});
  task.input = &input;
  task.input_schema = std::move(schema);
  task.settings = &settings_;
  task.partition = partition;
  task.table_function = &info_;
  task.result_batch_rows = &batch_rows;
  ctx.check_cancelled();
  std::vector<ColumnPtr> result = python_runner().run(task);
  std::vector<ColumnPtr> generated = result[0]->children();  // the rows the calls yielded
  const int64_t n = generated.empty() ? 0 : generated[0]->length();
  std::vector<ColumnPtr> out;
  if (!kept_.empty()) {
    // Each result batch answers one call: eval of input row i, then terminate.
    std::vector<int32_t> from;
    from.reserve(static_cast<size_t>(n));
    const int64_t last = rows.num_rows - 1;
    for (size_t b = 0; b < batch_rows.size(); ++b) {
      const auto row = static_cast<int32_t>(std::min<int64_t>(static_cast<int64_t>(b), last));
      from.insert(from.end(), static_cast<size_t>(batch_rows[b]), row);
    }
    if (static_cast<int64_t>(from.size()) != n)
      EMBER_UNREACHABLE("Python worker protocol: " + std::to_string(from.size()) + " table function rows in batches, " +
                        std::to_string(n) + " in all");
    Batch kept;
    kept.num_rows = rows.num_rows;
    for (size_t k = 0; k < kept_.size(); ++k) kept.columns.push_back(rows.columns[k]);
    out = gather_batch(kept, from.data(), n).columns;
  }
  for (auto& c : generated) out.push_back(std::move(c));
  return out;
}

}  // namespace ember::exec
