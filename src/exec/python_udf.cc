#include "exec/python_udf.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "common/error.h"
#include "exec/group_keys.h"
#include "exec/operators.h"

namespace ember::exec {

namespace {

std::mutex runner_mutex;
std::shared_ptr<PythonRunner> installed_runner;

}  // namespace

bool is_scalar_python_eval_type(int eval_type) {
  switch (static_cast<PythonEvalType>(eval_type)) {
    case PythonEvalType::kBatchedUdf:
    case PythonEvalType::kArrowBatchedUdf:
    case PythonEvalType::kScalarPandasUdf:
    case PythonEvalType::kScalarPandasIterUdf:
    case PythonEvalType::kScalarArrowUdf:
    case PythonEvalType::kScalarArrowIterUdf: return true;
    default: break;
  }
  return false;
}

bool is_map_python_eval_type(int eval_type) {
  return eval_type == static_cast<int>(PythonEvalType::kMapPandasIterUdf) ||
         eval_type == static_cast<int>(PythonEvalType::kMapArrowIterUdf);
}

bool is_group_map_python_eval_type(int eval_type) {
  switch (static_cast<PythonEvalType>(eval_type)) {
    case PythonEvalType::kGroupedMapPandasUdf:
    case PythonEvalType::kGroupedMapPandasIterUdf:
    case PythonEvalType::kGroupedMapArrowUdf:
    case PythonEvalType::kGroupedMapArrowIterUdf: return true;
    default: break;
  }
  return false;
}

bool is_table_python_eval_type(int eval_type) {
  return eval_type == static_cast<int>(PythonEvalType::kTableUdf) ||
         eval_type == static_cast<int>(PythonEvalType::kArrowTableUdf) ||
         eval_type == static_cast<int>(PythonEvalType::kArrowUdtf);
}

void install_python_runner(std::shared_ptr<PythonRunner> runner) {
  std::lock_guard<std::mutex> lock(runner_mutex);
  installed_runner = std::move(runner);
}

PythonRunner& python_runner() {
  std::lock_guard<std::mutex> lock(runner_mutex);
  if (!installed_runner)
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "The feature is not supported: Python user-defined functions in this build of "
                     "Ember, which has no Python worker pool.",
                     {}, "0A000");
  return *installed_runner;
}

PythonEval::PythonEval(int eval_type, std::vector<std::shared_ptr<const PythonFunction>> functions,
                       std::vector<std::vector<PhysExprPtr>> args, std::vector<std::string> result_names,
                       PythonSettings settings)
    : eval_type_(eval_type),
      functions_(std::move(functions)),
      args_(std::move(args)),
      result_names_(std::move(result_names)),
      settings_(std::move(settings)) {
  distinct_python_inputs(args_, inputs_, offsets_);
}

namespace {

/// Whether `e`'s text tells it apart from every other expression. A literal's text need not
/// show its value (a folded array or map literal prints as "literal"), so an expression with a
/// literal in it is not shared.
bool identified_by_text(const PhysExpr& e) {
  if (e.kind == PhysExpr::Kind::kLiteral) return false;
  for (auto& c : e.children)
    if (!identified_by_text(*c)) return false;
  return true;
}

}  // namespace

void distinct_python_inputs(const std::vector<std::vector<PhysExprPtr>>& args, std::vector<PhysExprPtr>& inputs,
                            std::vector<std::vector<int>>& offsets) {
  std::map<std::string, int> seen;
  for (auto& call_args : args) {
    std::vector<int> call_offsets;
    for (auto& a : call_args) {
      // An argument the text cannot identify is an input of its own.
      const std::string key = identified_by_text(*a) ? a->to_string() : "\x01" + std::to_string(inputs.size());
      auto [it, added] = seen.emplace(key, static_cast<int>(inputs.size()));
      if (added) inputs.push_back(a);
      call_offsets.push_back(it->second);
    }
    offsets.push_back(std::move(call_offsets));
  }
}

std::string PythonEval::name() const {
  return eval_type_ == static_cast<int>(PythonEvalType::kBatchedUdf) ? "BatchEvalPython" : "ArrowEvalPython";
}

std::string PythonEval::details() const {
  std::string s = "[";
  for (size_t i = 0; i < functions_.size(); ++i) {
    s += (i ? ", " : "") + functions_[i]->name + "(";
    for (size_t j = 0; j < args_[i].size(); ++j) s += (j ? ", " : "") + args_[i][j]->to_string();
    s += ")";
  }
  s += "], [";
  for (size_t i = 0; i < result_names_.size(); ++i) s += (i ? ", " : "") + result_names_[i];
  s += "]";
  if (eval_type_ != static_cast<int>(PythonEvalType::kBatchedUdf)) s += ", " + std::to_string(eval_type_);
  return s;
}

void PythonEval::execute(Batch& batch, ExecContext& ctx) const {
  if (batch.num_rows == 0) {
    for (auto& f : functions_) batch.columns.push_back(ColumnBuilder(f->return_type).finish());
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
  PythonTask task;
  task.eval_type = eval_type_;
  for (size_t i = 0; i < functions_.size(); ++i) task.calls.push_back({functions_[i], offsets_[i]});
  task.input = &input;
  task.input_schema = std::move(schema);
  task.settings = &settings_;
  task.partition = batch.partition;
  ctx.check_cancelled();
  std::vector<ColumnPtr> results = python_runner().run(task);
  for (auto& c : results) batch.columns.push_back(std::move(c));
}

PythonMapBatches::PythonMapBatches(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> inputs,
                                   std::vector<std::string> input_names, std::string display,
                                   PythonSettings settings)
    : function_(std::move(function)),
      inputs_(std::move(inputs)),
      input_names_(std::move(input_names)),
      display_(std::move(display)),
      settings_(std::move(settings)) {}

std::string PythonMapBatches::name() const {
  return function_->eval_type == static_cast<int>(PythonEvalType::kMapArrowIterUdf) ? "MapInArrow" : "MapInPandas";
}

Batch PythonMapBatches::prepare(const Batch& batch, ExecContext& ctx) const {
  Batch cols;
  cols.num_rows = batch.num_rows;
  for (auto& e : inputs_) cols.columns.push_back(evaluate(*e, batch, ctx.eval));
  return cols;
}

std::vector<ColumnPtr> PythonMapBatches::run_partition(const Batch& rows, int64_t partition, ExecContext& ctx) const {
  std::vector<StructField> struct_fields;
  for (size_t i = 0; i < inputs_.size(); ++i)
    struct_fields.push_back({input_names_[i], inputs_[i]->type, inputs_[i]->nullable, "{}"});
  TypePtr row_type = DataType::struct_(struct_fields);
  Batch input({Column::make(row_type, rows.num_rows, nullptr, nullptr, nullptr, rows.columns, 0)}, rows.num_rows);
  PythonTask task;
  task.eval_type = function_->eval_type;
  task.row_per_row = false;
  task.calls.push_back({function_, {0}});
  task.input = &input;
  task.input_schema = {{"_0", row_type, false, "{}"}};
  task.settings = &settings_;
  task.partition = partition;
  ctx.check_cancelled();
  std::vector<ColumnPtr> result = python_runner().run(task);
  return result[0]->children();  // the rows the function returned, never null
}

namespace {

struct PartitionLocal : LocalSinkState {
  std::vector<Batch> batches;
};

struct PartitionSource : SourceState {
  std::atomic<size_t> next{0};
};

}  // namespace

std::unique_ptr<LocalSinkState> PythonPartitionSink::open_local(ExecContext&) {
  return std::make_unique<PartitionLocal>();
}

void PythonPartitionSink::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  if (batch.num_rows == 0) return;
  Batch cols = prepare(batch, ctx);
  cols.index = batch.index;
  cols.partition = batch.partition;
  static_cast<PartitionLocal&>(local).batches.push_back(std::move(cols));
}

void PythonPartitionSink::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<PartitionLocal&>(local).batches) input_.push_back(std::move(b));
}

void PythonPartitionSink::finalize(ExecContext&) {
  partitions_.clear();
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.index < b.index;
  });
  for (size_t i = 0; i < input_.size();) {
    size_t j = i;
    std::vector<Batch> parts;
    while (j < input_.size() && input_[j].partition == input_[i].partition) parts.push_back(std::move(input_[j++]));
    Batch rows = parts.size() == 1 ? std::move(parts[0]) : concat_batches(parts, parts[0].columns.size());
    rows.partition = input_[i].partition;
    partitions_.push_back(std::move(rows));
    i = j;
  }
  input_.clear();
}

std::unique_ptr<SourceState> PythonPartitionSink::open_source(ExecContext&) const {
  return std::make_unique<PartitionSource>();
}

bool PythonPartitionSink::next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const {
  const size_t i = static_cast<PartitionSource&>(state).next.fetch_add(1);
  if (i >= partitions_.size()) return false;
  const Batch& rows = partitions_[i];
  std::vector<ColumnPtr> out = run_partition(rows, rows.partition, ctx);
  const int64_t n = out.empty() ? 0 : out[0]->length();
  // The output in batches of the usual size, numbered after the partition's place.
  const Batch all(std::move(out), n);
  for (int64_t at = 0, sub = 0; at < n; at += kBatchRows, ++sub) {
    Batch b = n <= kBatchRows ? all : slice_batch(all, at, std::min<int64_t>(kBatchRows, n - at));
    b.index = batch_index(static_cast<int64_t>(i), sub);
    b.partition = rows.partition;
    b.partition_row = at;
    emit(std::move(b));
  }
  return true;
}

int64_t PythonPartitionSink::output_partitions() const {
  return children.empty() ? 1 : children[0]->output_partitions();
}

namespace {

struct GroupedLocal : LocalSinkState {
  std::vector<Batch> batches;
};

}  // namespace

std::unique_ptr<LocalSinkState> PythonGroupedSink::open_local(ExecContext&) {
  return std::make_unique<GroupedLocal>();
}

void PythonGroupedSink::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  if (batch.num_rows == 0) return;
  Batch kv;
  kv.num_rows = batch.num_rows;
  kv.index = batch.index;
  for (auto& k : keys_) kv.columns.push_back(evaluate(*k, batch, ctx.eval));
  for (auto& v : values_) kv.columns.push_back(evaluate(*v, batch, ctx.eval));
  static_cast<GroupedLocal&>(local).batches.push_back(std::move(kv));
}

void PythonGroupedSink::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<GroupedLocal&>(local).batches) input_.push_back(std::move(b));
}

PythonGroupedSink::Grouped PythonGroupedSink::group_input() {
  Grouped g;
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
  g.all = concat_batches(input_, keys_.size() + values_.size());
  input_.clear();
  if (keys_.empty()) {
    if (g.all.num_rows > 0) {
      g.rows.emplace_back(static_cast<size_t>(g.all.num_rows));
      for (int32_t r = 0; r < static_cast<int32_t>(g.all.num_rows); ++r) g.rows[0][static_cast<size_t>(r)] = r;
    }
    return g;
  }
  std::vector<TypePtr> key_types;
  std::vector<ColumnPtr> key_cols;
  for (size_t i = 0; i < keys_.size(); ++i) {
    key_types.push_back(keys_[i]->type);
    key_cols.push_back(g.all.columns[i]);
  }
  std::string arena;
  std::vector<uint32_t> offsets, lengths;
  KeyEncoder(key_types).encode(key_cols, g.all.num_rows, arena, offsets, lengths);
  std::unordered_map<std::string_view, size_t> group_of;
  for (int64_t r = 0; r < g.all.num_rows; ++r) {
    std::string_view key(arena.data() + offsets[static_cast<size_t>(r)], lengths[static_cast<size_t>(r)]);
    auto [it, added] = group_of.emplace(key, g.rows.size());
    if (added) g.rows.emplace_back();
    g.rows[it->second].push_back(static_cast<int32_t>(r));
  }
  return g;
}

void PythonGroupedSink::run_for_rows(const PythonTask& task, ExecContext& ctx) {
  ctx.check_cancelled();
  std::vector<ColumnPtr> result = python_runner().run(task);
  std::vector<ColumnPtr> cols = result[0]->children();  // the rows the function returned
  int64_t n = cols.empty() ? 0 : cols[0]->length();
  if (n > 0) output_.push_back(Batch(std::move(cols), n));
}

std::unique_ptr<SourceState> PythonGroupedSink::open_source(ExecContext&) const {
  return std::make_unique<BatchListSource>();
}

bool PythonGroupedSink::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

PythonGroupMap::PythonGroupMap(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> keys,
                               std::vector<PhysExprPtr> values, std::vector<std::string> value_names,
                               std::string display, PythonSettings settings)
    : PythonGroupedSink(std::move(keys), std::move(values)),
      function_(std::move(function)),
      value_names_(std::move(value_names)),
      display_(std::move(display)),
      settings_(std::move(settings)) {}

bool PythonGroupMap::arrow() const {
  return function_->eval_type == static_cast<int>(PythonEvalType::kGroupedMapArrowUdf) ||
         function_->eval_type == static_cast<int>(PythonEvalType::kGroupedMapArrowIterUdf);
}

std::string PythonGroupMap::name() const { return arrow() ? "FlatMapGroupsInArrow" : "FlatMapGroupsInPandas"; }

void PythonGroupMap::finalize(ExecContext& ctx) {
  output_.clear();
  if (input_.empty()) return;
  Grouped in = group_input();
  const size_t width = keys_.size() + values_.size();
  Schema schema;
  for (size_t i = 0; i < keys_.size(); ++i)
    schema.push_back({"_k" + std::to_string(i), keys_[i]->type, keys_[i]->nullable, "{}"});
  for (size_t i = 0; i < values_.size(); ++i)
    schema.push_back({value_names_[i], values_[i]->type, values_[i]->nullable, "{}"});
  std::vector<Batch> groups;
  for (auto& g : in.rows) groups.push_back(gather_batch(in.all, g.data(), static_cast<int64_t>(g.size())));
  if (arrow()) {
    // PySpark's Arrow grouped map flattens one struct column of the group's columns.
    TypePtr row_type = DataType::struct_(schema);
    for (auto& g : groups) {
      ColumnPtr row = Column::make(row_type, g.num_rows, nullptr, nullptr, nullptr, std::move(g.columns), 0);
      g.columns = {std::move(row)};
    }
    schema = {{"_0", row_type, false, "{}"}};
  }
  // PySpark's grouped offsets: [length, key count, key columns..., value columns...].
  std::vector<int> args = {static_cast<int>(width + 1), static_cast<int>(keys_.size())};
  for (size_t i = 0; i < width; ++i) args.push_back(static_cast<int>(i));
  PythonTask task;
  task.eval_type = function_->eval_type;
  task.row_per_row = false;
  task.calls.push_back({function_, std::move(args)});
  task.groups = &groups;
  task.input_schema = std::move(schema);
  task.settings = &settings_;
  run_for_rows(task, ctx);
}

PythonCoGroupMap::PythonCoGroupMap(std::shared_ptr<const PythonFunction> function, std::vector<PhysExprPtr> keys,
                                   std::vector<PhysExprPtr> values, std::vector<std::string> left_names,
                                   std::vector<std::string> right_names, std::string display, PythonSettings settings)
    : PythonGroupedSink(std::move(keys), std::move(values)),
      function_(std::move(function)),
      left_names_(std::move(left_names)),
      right_names_(std::move(right_names)),
      display_(std::move(display)),
      settings_(std::move(settings)) {}

void PythonCoGroupMap::finalize(ExecContext& ctx) {
  output_.clear();
  if (input_.empty()) return;
  Grouped in = group_input();
  const size_t nkeys = keys_.size(), nleft = left_names_.size(), nright = right_names_.size();
  // The gathered columns: keys, side, left columns, right columns.
  const Column& side = *in.all.columns[nkeys];
  auto side_batch = [&](size_t first, size_t count) {
    Batch b;
    b.num_rows = in.all.num_rows;
    for (size_t i = 0; i < nkeys; ++i) b.columns.push_back(in.all.columns[i]);
    for (size_t i = 0; i < count; ++i) b.columns.push_back(in.all.columns[first + i]);
    return b;
  };
  Batch left_all = side_batch(nkeys + 1, nleft), right_all = side_batch(nkeys + 1 + nleft, nright);
  std::vector<std::pair<Batch, Batch>> cogroups;
  std::vector<int32_t> left_rows, right_rows;
  for (auto& g : in.rows) {
    left_rows.clear();
    right_rows.clear();
    for (int32_t r : g) (side.values<int32_t>()[r] == 0 ? left_rows : right_rows).push_back(r);
    cogroups.emplace_back(gather_batch(left_all, left_rows.data(), static_cast<int64_t>(left_rows.size())),
                          gather_batch(right_all, right_rows.data(), static_cast<int64_t>(right_rows.size())));
  }
  auto schema_of = [&](size_t first, const std::vector<std::string>& names) {
    Schema schema;
    for (size_t i = 0; i < nkeys; ++i)
      schema.push_back({"_k" + std::to_string(i), keys_[i]->type, keys_[i]->nullable, "{}"});
    for (size_t i = 0; i < names.size(); ++i)
      schema.push_back({names[i], values_[first + i]->type, true, "{}"});
    return schema;
  };
  // PySpark's cogrouped offsets: per side [length, key count, key columns..., value columns...].
  std::vector<int> args;
  for (size_t n : {nleft, nright}) {
    args.push_back(static_cast<int>(nkeys + n + 1));
    args.push_back(static_cast<int>(nkeys));
    for (size_t i = 0; i < nkeys + n; ++i) args.push_back(static_cast<int>(i));
  }
  PythonTask task;
  task.eval_type = function_->eval_type;
  task.row_per_row = false;
  task.calls.push_back({function_, std::move(args)});
  task.cogroups = &cogroups;
  task.input_schema = schema_of(1, left_names_);
  task.other_schema = schema_of(1 + nleft, right_names_);
  task.settings = &settings_;
  run_for_rows(task, ctx);
}

PythonGroupAggregate::PythonGroupAggregate(std::vector<std::shared_ptr<const PythonFunction>> functions,
                                           std::vector<PhysExprPtr> keys, std::vector<std::vector<PhysExprPtr>> args,
                                           std::string display, PythonSettings settings)
    : PythonGroupedSink(std::move(keys), {}),
      functions_(std::move(functions)),
      display_(std::move(display)),
      settings_(std::move(settings)) {
  distinct_python_inputs(args, values_, offsets_);
}

void PythonGroupAggregate::finalize(ExecContext& ctx) {
  output_.clear();
  if (input_.empty()) return;
  Grouped in = group_input();
  if (in.rows.empty()) return;
  const size_t nkeys = keys_.size();
  // Each group's argument columns, and the keys of its first row.
  Batch values;
  values.num_rows = in.all.num_rows;
  values.columns.assign(in.all.columns.begin() + static_cast<std::ptrdiff_t>(nkeys), in.all.columns.end());
  std::vector<Batch> groups;
  std::vector<int32_t> firsts;
  for (auto& g : in.rows) {
    groups.push_back(gather_batch(values, g.data(), static_cast<int64_t>(g.size())));
    firsts.push_back(g[0]);
  }
  Schema schema;
  for (size_t i = 0; i < values_.size(); ++i)
    schema.push_back({"_" + std::to_string(i), values_[i]->type, values_[i]->nullable, "{}"});
  PythonTask task;
  // pandas (202) or Arrow (252) aggregate functions: the worker feeds them Series or Arrays.
  task.eval_type = functions_[0]->eval_type;
  task.row_per_row = false;
  for (size_t i = 0; i < functions_.size(); ++i) task.calls.push_back({functions_[i], offsets_[i]});
  task.groups = &groups;
  task.input_schema = std::move(schema);
  task.settings = &settings_;
  ctx.check_cancelled();
  std::vector<ColumnPtr> results = python_runner().run(task);
  const int64_t n = static_cast<int64_t>(firsts.size());
  if (!results.empty() && results[0]->length() != n)
    EMBER_UNREACHABLE("Python worker protocol: " + std::to_string(results[0]->length()) + " aggregate rows for " +
                      std::to_string(n) + " groups");
  Batch keys;
  keys.num_rows = in.all.num_rows;
  keys.columns.assign(in.all.columns.begin(), in.all.columns.begin() + static_cast<std::ptrdiff_t>(nkeys));
  Batch out = gather_batch(keys, firsts.data(), n);
  for (auto& c : results) out.columns.push_back(std::move(c));
  out.num_rows = n;
  output_.push_back(std::move(out));
}

}  // namespace ember::exec
