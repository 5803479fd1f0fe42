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
}

std::string PythonUdtfEval::name() const {
  return function_->eval_type == static_cast<int>(PythonEvalType::kTableUdf) ? "BatchEvalPythonUDTF"
                                                                              : "ArrowEvalPythonUDTF";
}

void PythonUdtfEval::execute(Batch& batch, ExecContext& ctx) const {
  const auto& fields = function_->return_type->fields();
  std::vector<ColumnPtr> out;
  if (batch.num_rows == 0) {
    for (int k : kept_) out.push_back(batch.columns[static_cast<size_t>(k)]);
    for (auto& f : fields) out.push_back(ColumnBuilder(f.type).finish());
    Batch next(std::move(out), 0, batch.index);
    next.partition = batch.partition;
    batch = std::move(next);
    return;
  }
  Batch input;
  input.num_rows = batch.num_rows;
  input.partition = batch.partition;
  Schema schema;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    input.columns.push_back(evaluate(*inputs_[i], batch, ctx.eval));
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
  task.partition = batch.partition;
  task.table_function = &info_;
  task.result_batch_rows = &batch_rows;
  ctx.check_cancelled();
  std::vector<ColumnPtr> result = python_runner().run(task);
  std::vector<ColumnPtr> generated = result[0]->children();  // the rows the calls yielded
  const int64_t rows = generated.empty() ? 0 : generated[0]->length();
  if (!kept_.empty()) {
    // Each result batch answers one call: eval of input row i, then terminate.
    std::vector<int32_t> from;
    from.reserve(static_cast<size_t>(rows));
    const int64_t last = batch.num_rows - 1;
    for (size_t b = 0; b < batch_rows.size(); ++b) {
      const auto row = static_cast<int32_t>(std::min<int64_t>(static_cast<int64_t>(b), last));
      from.insert(from.end(), static_cast<size_t>(batch_rows[b]), row);
    }
    if (static_cast<int64_t>(from.size()) != rows)
      EMBER_UNREACHABLE("Python worker protocol: " + std::to_string(from.size()) + " table function rows in batches, " +
                        std::to_string(rows) + " in all");
    Batch kept;
    kept.num_rows = batch.num_rows;
    for (int k : kept_) kept.columns.push_back(batch.columns[static_cast<size_t>(k)]);
    out = gather_batch(kept, from.data(), rows).columns;
  }
  for (auto& c : generated) out.push_back(std::move(c));
  Batch next(std::move(out), rows, batch.index);
  next.partition = batch.partition;
  batch = std::move(next);
}

}  // namespace ember::exec
