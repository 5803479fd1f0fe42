#include "plan/gpu_placement.h"

#include <functional>

#include "gpu/operators.h"
#include "gpu/program.h"
#include "gpu/radix_sort.h"
#include "gpu/runtime.h"

namespace ember::plan {

GpuPlacement::GpuPlacement(const Config& conf) : conf_(conf), settings_(gpu::read_settings(conf)) {}

void GpuPlacement::note_range(const exec::PhysicalOperator* op, int64_t start, int64_t end,
                              int64_t step) {
  Note n;
  n.kind = Note::kRange;
  n.start = start;
  n.end = end;
  n.step = step;
  n.partitions = op->output_partitions();
  notes_[op] = std::move(n);
}

void GpuPlacement::note_project(const exec::PhysicalOperator* op,
                                std::vector<exec::PhysExprPtr> exprs) {
  Note n;
  n.kind = Note::kProject;
  n.exprs = std::move(exprs);
  notes_[op] = std::move(n);
}

void GpuPlacement::note_filter(const exec::PhysicalOperator* op, exec::PhysExprPtr condition,
                               std::vector<exec::PhysExprPtr> passed) {
  Note n;
  n.kind = Note::kFilter;
  n.exprs = {std::move(condition)};
  n.passed = std::move(passed);
  notes_[op] = std::move(n);
}

void GpuPlacement::note_aggregate(const exec::PhysicalOperator* op,
                                  std::vector<exec::PhysExprPtr> keys,
                                  std::vector<exec::AggregateCall> calls) {
  Note n;
  n.kind = Note::kAggregate;
  n.exprs = std::move(keys);
  n.calls = std::move(calls);
  notes_[op] = std::move(n);
}

void GpuPlacement::note_sort(const exec::PhysicalOperator* op, std::vector<exec::SortKey> keys,
                             int64_t limit) {
  Note n;
  n.kind = Note::kSort;
  n.sort_keys = std::move(keys);
  n.limit = limit;
  notes_[op] = std::move(n);
}

const GpuPlacement::Note* GpuPlacement::note(const exec::PhysicalOperator* op) const {
  auto it = notes_.find(op);
  return it == notes_.end() ? nullptr : &it->second;
}

std::vector<std::string> GpuPlacement::apply(exec::OperatorPtr& root) {
  lines_.clear();
  std::string blocked;
  if (!settings_.enabled) {
    blocked = settings_.disabled_by;
  } else {
    // Asking for the device creates the CUDA context (a fifth of a second): only a plan with an
    // operator the GPU could take, or a report of every operator, is worth that. Hash joins do
    // not count: whether their probe goes to the GPU depends on the build side's size, known
    // only at run time, where GpuJoinProbe asks for the device itself.
    // Aggregates count only when their input chain can fuse (filters and projections down to
    // a range or a source), not over a join or another aggregate.
    bool candidates = false;
    for (const auto& [op, n] : notes_)
      candidates |= n.kind == Note::kSort || (n.kind == Note::kAggregate && fused_input(op) != nullptr);
    if (candidates || settings_.explain == gpu::ExplainGpu::kAll)
      blocked = gpu::Runtime::unavailable_reason();
  }
  // Turned off on purpose: nothing to explain unless everything was asked for.
  if (!settings_.enabled && settings_.explain != gpu::ExplainGpu::kAll) return {};
  place(root, blocked);
  if (settings_.explain == gpu::ExplainGpu::kNone) return {};
  return lines_;
}

void GpuPlacement::report(const exec::PhysicalOperator& op, bool gpu, const std::string& reason) {
  if (gpu) {
    if (settings_.explain == gpu::ExplainGpu::kAll)
      lines_.push_back("*Exec <" + op.name() + "> will run on GPU" +
                       (reason.empty() ? "" : " (" + reason + ")"));
  } else {
    lines_.push_back("!Exec <" + op.name() + "> cannot run on GPU because " + reason);
  }
}

void GpuPlacement::place(exec::OperatorPtr& op, const std::string& blocked) {
  if (!blocked.empty()) {
    // One reason for the whole plan (no device, or the GPU switched off): said once, unless
    // every operator was asked for.
    if (settings_.explain != gpu::ExplainGpu::kAll) {
      lines_.push_back("!Exec <" + op->name() + "> and every operator under it cannot run on GPU because " + blocked);
      return;
    }
    report(*op, false, blocked);
  } else {
    const Note* n = note(op.get());
    if (n != nullptr && n->kind == Note::kAggregate) {
      // The aggregate and every operator it would fuse must be switched on.
      std::string reason = disabled_reason(*op);
      for (const exec::PhysicalOperator* s = op->children.empty() ? nullptr : op->children[0].get();
           reason.empty() && s != nullptr && note(s) != nullptr && note(s)->kind != Note::kAggregate;
           s = s->children.empty() ? nullptr : s->children[0].get())
        reason = disabled_reason(*s);
      if (reason.empty()) reason = try_aggregate(op);
      if (reason.empty()) {
        report(*op, true, "");
        for (const exec::PhysicalOperator* s = op->children.empty() ? nullptr
                                                                    : op->children[0].get();
             s != nullptr; s = s->children.empty() ? nullptr : s->children[0].get()) {
          if (auto* ref = dynamic_cast<const gpu::GpuSourceRef*>(s))
            report(*ref, false,
                   cpu_reason(*ref->source()) + "; its batches are copied to the GPU " +
                       op->name() + " above");
          else
            report(*s, true, "fused into the HashAggregate above");
        }
        return;
      }
      report(*op, false, reason);
    } else if (n != nullptr && n->kind == Note::kSort) {
      std::string reason = disabled_reason(*op);
      if (reason.empty()) reason = try_sort(op);
      if (reason.empty())
        report(*op, true,
               "inputs under spark.ember.gpu.minRows rows (" + std::to_string(settings_.min_rows) +
                   ") sort on the CPU");
      else
        report(*op, false, reason);
    } else if (auto* join = dynamic_cast<exec::HashJoin*>(op.get())) {
      std::string reason = disabled_reason(*op);
      if (reason.empty()) reason = try_join(*join);
      if (reason.empty())
        report(*op, true,
               "the probe; build sides under spark.ember.gpu.joinMinBuildRows rows (" +
                   std::to_string(settings_.join_min_build_rows) + ") probe on the CPU");
      else
        report(*op, false, reason);
    } else {
      report(*op, false, cpu_reason(*op));
    }
  }
  for (auto& c : op->children) place(c, blocked);
}

std::string GpuPlacement::disabled_reason(const exec::PhysicalOperator& op) const {
  // The RAPIDS accelerator's per-operator switch, named after Spark's physical operator class.
  const std::string exec_name = op.name() + "Exec";
  const std::string key = "spark.rapids.sql.exec." + exec_name;
  if (conf_.get_bool(key, true)) return "";
  return exec_name + " has been disabled. Set " + key + " to true if you wish to enable it";
}

std::string GpuPlacement::cpu_reason(const exec::PhysicalOperator& op) const {
  const Note* n = note(&op);
  bool ansi = conf_.ansi_enabled();
  if (n != nullptr && (n->kind == Note::kProject || n->kind == Note::kFilter)) {
    for (auto& e : n->exprs) {
      std::string r = gpu::unsupported_reason(*e, ansi);
      if (!r.empty()) return r;
    }
    return "the GPU " + op.name() +
           " runs only fused into a GPU aggregation, which is not above it";
  }
  if (n != nullptr && n->kind == Note::kRange)
    return "the GPU Range runs only fused into a GPU aggregation, which is not above it";
  if (const auto* sort = dynamic_cast<const exec::Sort*>(&op); sort != nullptr && sort->within_partitions())
    return "the GPU Sort orders all rows as one partition, not each partition on its own";
  return "the GPU version of " + op.name() + " is not implemented yet";
}

std::string GpuPlacement::try_sort(exec::OperatorPtr& op) {
  const Note* n = note(op.get());
  for (auto& k : n->sort_keys)
    if (!gpu::sortable_on_device(*k.expr->type))
      return "sorting by type " + k.expr->type->simple_string() + " is not supported";
  auto g = std::make_unique<gpu::GpuSort>(n->sort_keys, n->limit, settings_);
  g->schema = op->schema;
  g->children = std::move(op->children);
  op = std::move(g);
  return "";
}

std::string GpuPlacement::try_join(exec::HashJoin& join) {
  if (join.probe_keys().empty())
    return "a join without equality keys (nested loop) is not implemented on the GPU";
  for (size_t k = 0; k < join.probe_keys().size(); ++k) {
    if (join.null_safe()[k]) return "null-safe equality (<=>) join keys are not supported";
    const DataType& t = *join.probe_keys()[k]->type;
    // The device probe compares keys as integers of their byte width; ANSI interval keys have
    // not been verified there yet.
    if (!t.is_integer_valued() || t.is_ansi_interval())
      return "join keys of type " + t.simple_string() + " are not supported";
  }
  join.set_offload(std::make_unique<gpu::GpuJoinProbe>(settings_));
  return "";
}

const exec::PhysicalOperator* GpuPlacement::input_chain(
    const exec::PhysicalOperator* agg, std::vector<const Note*>* steps) const {
  const exec::PhysicalOperator* cur = agg->children.empty() ? nullptr : agg->children[0].get();
  while (cur != nullptr) {
    const Note* n = note(cur);
    if (n == nullptr || n->kind == Note::kRange || n->kind == Note::kAggregate) break;
    if (steps != nullptr) steps->push_back(n);
    cur = cur->children.empty() ? nullptr : cur->children[0].get();
  }
  return cur;
}

const exec::PhysicalOperator* GpuPlacement::fused_input(const exec::PhysicalOperator* agg) const {
  const exec::PhysicalOperator* cur = input_chain(agg, nullptr);
  if (cur == nullptr) return nullptr;
  const Note* n = note(cur);
  return (n != nullptr && n->kind == Note::kRange) || cur->is_source() ? cur : nullptr;
}

std::string GpuPlacement::try_aggregate(exec::OperatorPtr& op) {
  const Note* agg = note(op.get());
  gpu::FusedAggregatePlan plan;
  plan.keys = agg->exprs;
  plan.calls = agg->calls;
  bool ansi = conf_.ansi_enabled();
  // The chain below the aggregate, top-down, down to its source.
  std::vector<const Note*> chain_notes;
  const exec::PhysicalOperator* cur = input_chain(op.get(), &chain_notes);
  std::vector<gpu::FusedAggregatePlan::Step> top_down;
  for (const Note* n : chain_notes) {
    if (n->kind == Note::kFilter && !n->passed.empty()) {
      // A filter that passes on some columns only: a projection of them above the filter.
      gpu::FusedAggregatePlan::Step pass;
      pass.filter = false;
      pass.exprs = n->passed;
      top_down.push_back(std::move(pass));
    }
    gpu::FusedAggregatePlan::Step s;
    s.filter = n->kind == Note::kFilter;
    s.exprs = n->exprs;
    top_down.push_back(std::move(s));
  }
  const Note* source = cur ? note(cur) : nullptr;
  bool over_range = source != nullptr && source->kind == Note::kRange;
  if (cur == nullptr || (!over_range && !cur->is_source())) {
    // Name what is unsupported first, then the missing input path.
    for (auto& s : top_down)
      for (auto& e : s.exprs) {
        std::string r = gpu::unsupported_reason(*e, ansi);
        if (!r.empty()) return r;
      }
    return "GPU aggregation over the output of " + (cur ? cur->name() : std::string("this input")) +
           " is not implemented yet";
  }
  plan.steps.assign(top_down.rbegin(), top_down.rend());
  if (over_range) {
    plan.start = source->start;
    plan.end = source->end;
    plan.step = source->step;
    plan.partitions = source->partitions;
    if (plan.rows() < static_cast<uint64_t>(std::max<int64_t>(settings_.min_rows, 0)))
      return "the input has " + std::to_string(plan.rows()) +
             " rows, fewer than spark.ember.gpu.minRows (" + std::to_string(settings_.min_rows) +
             ")";
  } else {
    // Batches from a CPU source: the types of its columns, as the lowest expressions see them.
    plan.range = false;
    std::function<void(const exec::PhysExpr&)> collect = [&](const exec::PhysExpr& e) {
      if (e.kind == exec::PhysExpr::Kind::kLambda) return;  // its columns are the lambda's own
      if (e.kind == exec::PhysExpr::Kind::kColumn) {
        auto i = static_cast<size_t>(e.column);
        if (plan.source_types.size() <= i) plan.source_types.resize(i + 1, DataType::long_());
        plan.source_types[i] = e.type;
      }
      for (auto& c : e.children) collect(*c);
    };
    // Filters pass the source's columns through: everything up to the first projection (or
    // the aggregate itself) reads them.
    bool projected = false;
    for (auto& st : plan.steps) {
      for (auto& e : st.exprs) collect(*e);
      if (!st.filter) {
        projected = true;
        break;
      }
    }
    if (!projected) {
      for (auto& e : plan.keys) collect(*e);
      for (auto& c : plan.calls) {
        for (auto& e : c.args) collect(*e);
        if (c.filter) collect(*c.filter);
      }
    }
  }
  bool legacy = conf_.get_bool("spark.sql.legacy.statisticalAggregate", false);
  try {
    gpu::CompiledAggregate check(plan, ansi, legacy);
  } catch (const gpu::Unsupported& u) {
    return u.what();
  }
  // Explain shows the fused stages under the GPU aggregate, mirroring the CPU operators, which
  // the GPU aggregate keeps as its fallback.
  std::vector<const exec::PhysicalOperator*> chain;
  for (const exec::PhysicalOperator* s = op->children[0].get(); s != nullptr;
       s = s->children.empty() || s == cur ? nullptr : s->children[0].get())
    chain.push_back(s);
  exec::OperatorPtr stages;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    exec::OperatorPtr stage;
    if (*it == cur && !over_range)
      stage = std::make_unique<gpu::GpuSourceRef>(cur);
    else
      stage = std::make_unique<gpu::GpuFusedStage>((*it)->name(), (*it)->details());
    if (stages) stage->children.push_back(std::move(stages));
    stages = std::move(stage);
  }
  auto g = std::make_unique<gpu::GpuHashAggregate>(std::move(plan), std::move(op), settings_, ansi,
                                                   legacy);
  g->children.push_back(std::move(stages));
  op = std::move(g);
  return "";
}

}  // namespace ember::plan
