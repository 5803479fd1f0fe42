#include "plan/physical_planner.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

#include "common/error.h"
#include "common/thread_pool.h"
#include "exec/deduplicate.h"
#include "exec/generate.h"
#include "exec/hash_join.h"
#include "exec/in_memory_scan.h"
#include "exec/python_udtf.h"
#include "exec/operators.h"
#include "exec/shared_subplan.h"
#include "exec/sort_keys.h"
#include "exec/window.h"
#include "exec/window_group_limit.h"
#include "plan/analyzer.h"
#include "plan/cache_manager.h"
#include "plan/cardinality.h"
#include "plan/collation_resolution.h"
#include "plan/generator_resolution.h"
#include "plan/gpu_placement.h"
#include "plan/optimizer.h"
#include "plan/plan_equivalence.h"
#include "plan/python_udf_extraction.h"
#include "plan/scan_predicates.h"
#include "plan/subquery.h"

namespace ember::plan {
namespace {

using exec::PhysExpr;
using exec::PhysExprPtr;

void collect_refs(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  for (auto& c : e->children) collect_refs(c, out);
  if (e->filter) collect_refs(e->filter, out);
}

/// The attributes and lambda variables an expression reads (lambda bodies included).
void collect_lambda_reads(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute || e->kind == ExprKind::kLambdaVariable) out.insert(e->expr_id);
  for (auto& c : e->children) collect_lambda_reads(c, out);
}

/// The text plans show for an expression: Spark's rendering with attribute ids (`amount#12`).
std::string display_of(const ExprPtr& e) {
  if (e->kind == ExprKind::kAttribute) return e->name + "#" + std::to_string(e->expr_id);
  if (e->kind == ExprKind::kAlias) return display_of(e->children[0]) + " AS " + e->name + "#" + std::to_string(e->expr_id);
  if (e->children.empty()) return e->to_string();
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(attribute(display_of(c), c->type, c->nullable, -1));
  return with_children(e, std::move(kids))->to_string();
}

namespace {

/// A repartitioning: Coalesce; a shuffle into the partitions the program fixed (a number, with
/// or without columns), which moves rows as Spark's exchange does; or, when the count is left
/// to adaptive execution (columns alone, a rebalance), an Exchange line that moves nothing.
/// Explain shows each as Spark does: Coalesce n, or Exchange with its partitioning and reason.
/// `input` is the child's output, which the partitioning expressions read.
/// The fewest rows a task of a TABLE argument's partitions gets (the last may get fewer): below
/// that, starting one more Python worker costs more than the rows it takes over.
constexpr int64_t kTableArgumentTaskRows = 4096;

exec::OperatorPtr repartition_operator(const PlanNode& n, const std::vector<ExprPtr>& input,
                                       const Config& conf) {
  if (!n.shuffle) return std::make_unique<exec::Coalesce>(std::max(1, n.num_partitions));
  if (n.task_partitions) {
    // One partition for each thread that runs tasks, the hash of the values picking it.
    const auto threads = static_cast<int64_t>(ThreadPool::global().size() + 1);
    std::string partitioning = "hashpartitioning(";
    for (auto& e : n.exprs) partitioning += expr_with_ids(e) + ", ";
    partitioning += std::to_string(threads) + "), REPARTITION_BY_COL";
    std::vector<exec::SortKey> keys = {{bind_expr(resolved_call("hash", n.exprs, conf), input, conf), true, true}};
    return std::make_unique<exec::ShuffleExchange>(exec::ShuffleExchange::Kind::kHash, threads, std::move(keys),
                                                   partitioning, kTableArgumentTaskRows);
  }
  const int64_t partitions =
      n.num_partitions > 0 ? n.num_partitions : conf.get_int("spark.sql.shuffle.partitions", 200);
  std::string partitioning;
  if (n.exprs.empty()) {
    partitioning = "RoundRobinPartitioning(" + std::to_string(partitions) + ")";
  } else {
    partitioning = n.by_range ? "rangepartitioning(" : n.by_partition_id ? "shufflepartitionidpassthrough(" : "hashpartitioning(";
    for (auto& e : n.exprs) partitioning += expr_with_ids(e) + ", ";
    partitioning += std::to_string(partitions) + ")";
  }
  std::string reason;
  if (n.rebalance) reason = n.exprs.empty() ? "REBALANCE_PARTITIONS_BY_NONE" : "REBALANCE_PARTITIONS_BY_COL";
  else reason = n.num_partitions > 0 ? "REPARTITION_BY_NUM" : "REPARTITION_BY_COL";
  const std::string details = partitioning + ", " + reason;
  if (n.rebalance || n.num_partitions <= 0) return std::make_unique<exec::Repartition>(details);
  using Kind = exec::ShuffleExchange::Kind;
  std::vector<exec::SortKey> keys;
  if (n.exprs.empty()) return std::make_unique<exec::ShuffleExchange>(Kind::kRoundRobin, partitions, keys, details);
  if (n.by_range) {
    for (const auto& o : n.exprs) {
      const bool order = o->kind == ExprKind::kSortOrder;
      keys.push_back({bind_expr(order ? o->children[0] : o, input, conf), !order || o->ascending,
                      order ? o->nulls_first : true});
    }
    return std::make_unique<exec::ShuffleExchange>(Kind::kRange, partitions, std::move(keys), details);
  }
  if (n.by_partition_id) {
    // The expression's value is the partition: pmod(id, n), and partition 0 for a null.
    ExprPtr id = resolved_call("pmod", {n.exprs[0], lit(Value::integer(partitions), DataType::int_())}, conf);
    if (id->type->id() != TypeId::kInt) id = cast(id, DataType::int_());
    auto or_zero = std::make_shared<Expr>();
    or_zero->kind = ExprKind::kCoalesce;
    or_zero->children = {id, lit(Value::integer(0), DataType::int_())};
    or_zero->type = DataType::int_();
    or_zero->nullable = false;
    keys.push_back({bind_expr(or_zero, input, conf), true, true});
    return std::make_unique<exec::ShuffleExchange>(Kind::kHash, partitions, std::move(keys), details);
  }
  // Spark's HashPartitioning: pmod(murmur3 hash of the columns with seed 42, n).
  ExprPtr id = resolved_call(
      "pmod", {resolved_call("hash", n.exprs, conf), lit(Value::integer(partitions), DataType::int_())},
      conf);
  keys.push_back({bind_expr(id, input, conf), true, true});
  return std::make_unique<exec::ShuffleExchange>(Kind::kHash, partitions, std::move(keys), details);
}

}  // namespace
}  // namespace


PhysExprPtr bind_expr_impl(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf);

PhysExprPtr bind_expr(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf) {
  PhysExprPtr p = bind_expr_impl(e, input, conf);
  const_cast<PhysExpr*>(p.get())->display = display_of(e);
  return p;
}

PhysExprPtr bind_expr_impl(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf) {
  auto p = std::make_shared<PhysExpr>();
  p->type = e->type;
  p->nullable = e->nullable;
  switch (e->kind) {
    case ExprKind::kLambdaVariable:
    case ExprKind::kAttribute: {
      for (size_t i = 0; i < input.size(); ++i) {
        if (input[i]->expr_id == e->expr_id) {
          p->kind = PhysExpr::Kind::kColumn;
          p->column = static_cast<int>(i);
          return p;
        }
      }
      EMBER_UNREACHABLE("binding: attribute " + e->name + "#" + std::to_string(e->expr_id) + " not in input");
    }
    case ExprKind::kAlias: return bind_expr(e->children[0], input, conf);
    case ExprKind::kLambda: {
      // The body runs over a batch of its own: the enclosing columns it reads (outer
      // attributes, and the parameters of enclosing lambdas), then its parameters.
      std::set<int64_t> reads;
      collect_lambda_reads(e->children[0], reads);
      std::vector<ExprPtr> body_input;
      for (size_t i = 0; i < input.size(); ++i)
        if (reads.count(input[i]->expr_id)) {
          p->lambda_inputs.push_back(static_cast<int>(i));
          body_input.push_back(input[i]);
        }
      body_input.insert(body_input.end(), e->children.begin() + 1, e->children.end());
      p->kind = PhysExpr::Kind::kLambda;
      p->ordinal = static_cast<int>(e->children.size()) - 1;
      p->children.push_back(bind_expr(e->children[0], body_input, conf));
      return p;
    }
    case ExprKind::kLiteral:
      p->kind = PhysExpr::Kind::kLiteral;
      p->value = e->value;
      return p;
    case ExprKind::kCast:
      p->kind = PhysExpr::Kind::kCast;
      p->try_cast = e->try_;
      break;
    case ExprKind::kCall: {
      p->kind = PhysExpr::Kind::kCall;
      p->function = e->function;
      p->signature = scalar_call_signature(*e->function, e->children, conf);
      break;
    }
    case ExprKind::kCaseWhen:
      p->kind = PhysExpr::Kind::kCaseWhen;
      p->has_else = e->has_else;
      break;
    case ExprKind::kIf: p->kind = PhysExpr::Kind::kIf; break;
    case ExprKind::kCoalesce: p->kind = PhysExpr::Kind::kCoalesce; break;
    case ExprKind::kGetField:
      p->kind = PhysExpr::Kind::kGetField;
      p->ordinal = e->ordinal;
      break;
    case ExprKind::kPythonUdf:
      // Projections and filters move Python calls into their own operator; the optimizer's
      // ExtractPythonUDFs moves the other operators' calls into projections.
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: the Python function call " + e->to_string() +
                           " in this position (not implemented in Ember yet).",
                       {}, "0A000");
    default: EMBER_UNREACHABLE("binding: unexpected expression " + e->to_string());
  }
  for (auto& c : e->children) p->children.push_back(bind_expr(c, input, conf));
  return p;
}

namespace {

/// Rewrites an aggregate output expression over the hash aggregate's output: grouping
/// expressions and aggregate calls become references to its columns.
ExprPtr rewrite_over_aggregate(const ExprPtr& e, const std::map<std::string, ExprPtr>& replacements) {
  auto it = replacements.find(semantic_key(e));
  if (it != replacements.end() && e->kind != ExprKind::kAlias) return it->second;
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(rewrite_over_aggregate(c, replacements));
  return with_children(e, std::move(kids));
}

void collect_aggregates(const ExprPtr& e, std::vector<ExprPtr>& out, std::set<std::string>& seen) {
  if (e->kind == ExprKind::kAggregate || is_python_aggregate(*e)) {
    if (seen.insert(semantic_key(e)).second) out.push_back(e);
    return;
  }
  for (auto& c : e->children) collect_aggregates(c, out, seen);
}

/// A filter on a rank-like window function that bounds the rows of each partition.
struct GroupLimit {
  exec::WindowGroupLimit::Rank rank;
  int64_t limit;
};

/// Spark's InferWindowGroupLimit: under `Filter(rn <= k)` (also `<`, `=` and the mirrored forms)
/// over a Window whose functions are all row_number / rank / dense_rank with an ORDER BY, a
/// partition's rows beyond the k-th rank can never pass, so a WindowGroupLimit drops them before
/// the Window sorts. spark.sql.optimizer.windowGroupLimitThreshold bounds k (-1: off).
std::optional<GroupLimit> infer_window_group_limit(const PlanPtr& filter, const Config& conf) {
  using Rank = exec::WindowGroupLimit::Rank;
  const PlanPtr& window = filter->children[0];
  int64_t threshold = conf.get_int("spark.sql.optimizer.windowGroupLimitThreshold", 1000);
  if (threshold < 0 || window->exprs.empty()) return std::nullopt;
  if (window->exprs[0]->children[0]->order_by.empty()) return std::nullopt;
  std::map<int64_t, Rank> ranks;
  for (auto& a : window->exprs) {
    const ExprPtr& fn = a->children[0]->children[0];
    if (fn->kind == ExprKind::kAggregate) return std::nullopt;
    if (fn->name == "row_number") ranks[a->expr_id] = Rank::kRowNumber;
    else if (fn->name == "rank") ranks[a->expr_id] = Rank::kRank;
    else if (fn->name == "dense_rank") ranks[a->expr_id] = Rank::kDenseRank;
    else return std::nullopt;
  }
  auto integral = [](const ExprPtr& e) {
    if (!e->type) return false;
    TypeId t = e->type->id();
    return t == TypeId::kByte || t == TypeId::kShort || t == TypeId::kInt || t == TypeId::kLong;
  };
  auto rank_of = [&](ExprPtr e) -> const Rank* {
    if (e->kind == ExprKind::kCast && integral(e) && integral(e->children[0])) e = e->children[0];
    if (e->kind != ExprKind::kAttribute) return nullptr;
    auto it = ranks.find(e->expr_id);
    return it == ranks.end() ? nullptr : &it->second;
  };
  std::vector<ExprPtr> conjuncts{filter->condition};
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const ExprPtr c = conjuncts[i];  // a copy: push_back below may move the vector
    if (c->kind != ExprKind::kCall || !c->function || c->children.size() != 2) continue;
    std::string op = c->function->name;
    if (op == "and") {
      conjuncts.push_back(c->children[0]);
      conjuncts.push_back(c->children[1]);
      continue;
    }
    ExprPtr lhs = c->children[0], rhs = c->children[1];
    if (lhs->kind == ExprKind::kLiteral) {  // k >= rn is rn <= k
      std::swap(lhs, rhs);
      op = op == ">=" ? "<=" : op == ">" ? "<" : op == "<=" ? ">=" : op == "<" ? ">" : op;
    }
    const Rank* rank = rank_of(lhs);
    if (!rank || rhs->kind != ExprKind::kLiteral || !integral(rhs) || rhs->value.is_null()) continue;
    int64_t v = rhs->value.as_int();
    int64_t limit = op == "<=" || op == "==" ? v : op == "<" ? v - 1 : 0;
    if (limit >= 1 && limit <= threshold) return GroupLimit{*rank, limit};
  }
  return std::nullopt;
}

class Planner {
 public:
  explicit Planner(Session& s)
      : session_(s), gpu_(s.config()), prune_columns_(optimizer_rule_enabled("ColumnPruning", s.config())) {}
  GpuPlacement& gpu() { return gpu_; }

  /// Finds, before planning, the subplans the query reads more than once: equivalent plans
  /// (plans_equivalent) with a join, an aggregate, a window, a sort or a set operation in
  /// them. Each such subplan is planned once and runs once (exec::SharedSubplan); its other
  /// places read its result. Only the outermost repeated subplan counts: what repeats inside
  /// it is planned once with it. A shared subplan keeps the columns any of its places needs:
  /// a first planning of the whole query, thrown away, records them.
  /// Off with spark.sql.exchange.reuse=false, the Spark setting for reusing equal subplans.
  void find_shared_subplans(const PlanPtr& root) {
    if (!session_.config().get_bool("spark.sql.exchange.reuse", true)) return;
    for (auto& members : repeated_subplans(root)) {
      for (auto& m : members) shared_of_[m.get()] = groups_.size();
      groups_.emplace_back();
    }
    if (groups_.empty()) return;
    Planner dry(session_);
    dry.shared_of_ = shared_of_;
    dry.groups_ = groups_;
    dry.recording_ = true;
    dry.plan(root, nullptr);
    groups_ = std::move(dry.groups_);
  }

  /// `required`: expr ids the parent needs (nullptr = all output).
  /// An in-memory relation (a cached plan): the scan of its columns `proj` over the entry's
  /// own physical plan, which reads any other cache entry inside it.
  exec::OperatorPtr in_memory_scan(const PlanNode& n, const std::vector<int>& proj,
                                   const std::vector<ExprPtr>& columns) {
    const CachedData& entry = *n.cached;
    PlanPtr inner = session_.optimize(session_.cache_manager().use_cached_data(entry.plan, &entry));
    PhysicalPlan child = create_physical_plan(inner, session_);
    std::string attrs;
    for (const auto& a : n.output) attrs += (attrs.empty() ? "" : ", ") + expr_with_ids(a);
    auto relation = std::make_unique<exec::InMemoryRelation>("[" + attrs + "], " + entry.level.to_string());
    relation->schema = child.root->schema;
    relation->children.push_back(std::move(child.root));
    std::string shown;
    for (const auto& a : columns) shown += (shown.empty() ? "" : ", ") + expr_with_ids(a);
    auto scan = std::make_unique<exec::InMemoryTableScan>(entry.batches, proj, "[" + shown + "]",
                                                          std::move(relation));
    return scan;
  }

  PhysicalPlan plan(const PlanPtr& n, const std::set<int64_t>* required) {
    // Operators carry only the columns the plan above reads when ColumnPruning decided so;
    // with the rule excluded every column flows from the scans up.
    if (!prune_columns_) required = nullptr;
    if (auto it = shared_of_.find(n.get()); it != shared_of_.end() && planning_shared_.count(n.get()) == 0)
      return plan_shared(n, groups_[it->second], required);
    const Config& conf = session_.config();
    auto needed = [&](const ExprPtr& a) { return !required || required->count(a->expr_id) > 0; };
    switch (n->kind) {
      case PlanKind::kRange: {
        PhysicalPlan p;
        p.root = std::make_unique<exec::RangeScan>(
            n->range_start, n->range_end, n->range_step,
            n->num_partitions > 0 ? n->num_partitions : leaf_node_default_parallelism(&conf));
        gpu_.note_range(p.root.get(), n->range_start, n->range_end, n->range_step);  // GPU placement
        p.output = n->output;
        return p;
      }
      case PlanKind::kLocalRelation:
      case PlanKind::kEmpty: {
        std::vector<int> proj;
        PhysicalPlan p;
        for (size_t i = 0; i < n->output.size(); ++i)
          if (needed(n->output[i])) {
            proj.push_back(static_cast<int>(i));
            p.output.push_back(n->output[i]);
          }
        if (n->cached)
          p.root = in_memory_scan(*n, proj, p.output);
        else
          p.root = std::make_unique<exec::LocalScan>(n->batches, proj, n->checkpointed);
        for (int i : proj) p.root->schema.push_back(n->schema[static_cast<size_t>(i)]);
        return p;
      }
      case PlanKind::kRead: {
        // Output index i is column i of the reader's schema; the one past it (a metadata column
        // the query reads) is the `_metadata` column FileScan makes.
        std::vector<int> proj;
        PhysicalPlan p;
        for (size_t i = 0; i < n->output.size(); ++i)
          if (needed(n->output[i])) {
            proj.push_back(static_cast<int>(i));
            p.output.push_back(n->output[i]);
          }
        p.root = std::make_unique<exec::FileScan>(n->reader, n->read.format, proj, &conf);
        return p;
      }
      case PlanKind::kProject: {
        std::vector<ExprPtr> exprs;
        for (auto& e : n->exprs)
          if (needed(to_attribute(e))) exprs.push_back(e);
        std::set<int64_t> req;
        for (auto& e : exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        // A projection of the very columns its input produces, in their order (one that
        // ColumnPruning put above a scan the planner already narrowed), is no operator: Spark's
        // RemoveRedundantProjects.
        bool redundant = exprs.size() == c.output.size();
        for (size_t i = 0; redundant && i < exprs.size(); ++i)
          redundant = exprs[i]->kind == ExprKind::kAttribute && exprs[i]->expr_id == c.output[i]->expr_id;
        if (redundant) {
          c.output = exprs;
          return c;
        }
        exprs = hoist_repeated_subexpressions(extract_python_udfs(exprs, c, conf), c, conf);
        std::vector<PhysExprPtr> bound;
        PhysicalPlan p;
        for (auto& e : exprs) {
          bound.push_back(bind_expr(e, c.output, conf));
          p.output.push_back(to_attribute(e));
        }
        p.root = std::make_unique<exec::Project>(bound);
        gpu_.note_project(p.root.get(), std::move(bound));  // GPU placement
        p.root->children.push_back(std::move(c.root));
        return p;
      }
      case PlanKind::kFilter: {
        std::set<int64_t> req = required ? *required : ids(n->output);
        collect_refs(n->condition, req);
        std::optional<GroupLimit> group_limit;
        if (n->children[0]->kind == PlanKind::kWindow) group_limit = infer_window_group_limit(n, conf);
        PhysicalPlan c = group_limit ? plan_window(n->children[0], &req, conf, &*group_limit)
                                     : plan(n->children[0], &req);
        if (n->children[0]->kind == PlanKind::kRead) {
          // Sources may skip splits (Parquet row groups) that cannot match.
          auto* scan = dynamic_cast<exec::FileScan*>(c.root.get());
          // Only the data columns, which the source knows statistics of (not `_metadata`).
          const PlanNode& read = *n->children[0];
          const std::vector<ExprPtr> columns(
              read.output.begin(),
              read.output.begin() + static_cast<std::ptrdiff_t>(std::min(
                                        read.output.size(), read.reader->schema().size())));
          if (scan) scan->set_predicates(scan_predicates(n->condition, columns));
        }
        PhysicalPlan p;
        const std::vector<ExprPtr> input = c.output;
        ExprPtr cond = hoist_repeated_subexpressions(extract_python_udfs({n->condition}, c, conf), c, conf)[0];
        PhysExprPtr condition = bind_expr(cond, c.output, conf);
        // Columns that only the condition reads stay behind: the filter passes on what the
        // operators above read (when no subexpression was hoisted below it).
        std::vector<int> outputs;
        std::vector<ExprPtr> kept;
        if (required && c.output.size() == input.size()) {
          for (size_t i = 0; i < c.output.size(); ++i)
            if (required->count(c.output[i]->expr_id) > 0) {
              outputs.push_back(static_cast<int>(i));
              kept.push_back(c.output[i]);
            }
          if (outputs.size() == c.output.size()) outputs.clear();
        }
        std::vector<PhysExprPtr> passed;
        for (auto& a : kept) passed.push_back(bind_expr(a, c.output, conf));
        p.root = std::make_unique<exec::Filter>(condition, outputs);
        gpu_.note_filter(p.root.get(), std::move(condition), std::move(passed));  // GPU placement
        p.root->children.push_back(std::move(c.root));
        p.output = outputs.empty() ? c.output : kept;
        if (c.output.size() != input.size()) {
          // The filter's own columns only: the hoisted values stay below.
          std::vector<PhysExprPtr> cols;
          for (auto& a : input) cols.push_back(bind_expr(a, p.output, conf));
          auto proj = std::make_unique<exec::Project>(cols);
          gpu_.note_project(proj.get(), std::move(cols));  // GPU placement
          proj->children.push_back(std::move(p.root));
          p.root = std::move(proj);
          p.output = input;
        }
        return p;
      }
      case PlanKind::kAggregate: return plan_aggregate(n, conf);
      case PlanKind::kJoin: return plan_join(n, required, conf);
      case PlanKind::kDistinct: {
        // Only dropDuplicates(subset) reaches here; a full distinct is an Aggregate.
        std::set<int64_t> req = required ? *required : ids(n->output);
        for (auto& e : n->exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        std::vector<exec::PhysExprPtr> keys;
        for (auto& e : n->exprs) keys.push_back(bind_expr(e, c.output, conf));
        PhysicalPlan p;
        p.root = std::make_unique<exec::Deduplicate>(std::move(keys));
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kSort: return plan_sort(n, required, -1);
      case PlanKind::kGenerate: return plan_generate(n, required, conf);
      case PlanKind::kWindow: return plan_window(n, required, conf);
      case PlanKind::kLimit:
      case PlanKind::kOffset:
      case PlanKind::kTail: {
        // Sort followed by limit is a top-N; an offset over a sort (under a limit or not) is
        // the sort's to skip, so the rows before it are never gathered.
        // A sort within partitions orders no rows across partitions: a limit takes its first rows.
        auto global_sort = [](const PlanPtr& c) { return c->kind == PlanKind::kSort && c->is_global; };
        if (n->kind == PlanKind::kLimit && global_sort(n->children[0]))
          return plan_sort(n->children[0], required, n->limit);
        if (n->kind == PlanKind::kOffset && global_sort(n->children[0]))
          return plan_sort(n->children[0], required, -1, n->limit);
        if (n->kind == PlanKind::kLimit && n->children[0]->kind == PlanKind::kOffset &&
            global_sort(n->children[0]->children[0]))
          return plan_sort(n->children[0]->children[0], required, n->limit, n->children[0]->limit);
        PhysicalPlan c = plan(n->children[0], required);
        PhysicalPlan p;
        if (n->kind == PlanKind::kLimit) p.root = std::make_unique<exec::Limit>(n->limit, 0, false, !n->is_global);
        else if (n->kind == PlanKind::kOffset) p.root = std::make_unique<exec::Limit>(-1, n->limit, false);
        else p.root = std::make_unique<exec::Limit>(n->limit, 0, true);
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kFlatMapGroups: {
        const ExprPtr& fn = n->exprs[0];
        std::set<int64_t> req;
        for (auto& e : n->exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        std::vector<PhysExprPtr> keys, values;
        std::vector<std::string> names;
        std::string shown = "[";
        for (size_t i = 1; i < n->exprs.size(); ++i) {
          keys.push_back(bind_expr(n->exprs[i], c.output, conf));
          shown += (i > 1 ? ", " : "") + display_of(n->exprs[i]);
        }
        for (auto& a : fn->children) {
          values.push_back(bind_expr(a, c.output, conf));
          names.push_back(a->name);
        }
        shown += "], " + display_of(fn) + ", [";
        for (size_t i = 0; i < n->output.size(); ++i) shown += (i ? ", " : "") + display_of(n->output[i]);
        PhysicalPlan p;
        p.root = std::make_unique<exec::PythonGroupMap>(fn->python, std::move(keys), std::move(values),
                                                        std::move(names), shown + "]", python_settings(conf));
        p.root->children.push_back(std::move(c.root));
        p.output = n->output;
        return p;
      }
      case PlanKind::kCoGroupMap: {
        // Both sides meet in one union of rows `side, keys..., left columns..., right columns...`
        // (the other side's columns null, the right keys cast to the left keys' types), which
        // PythonCoGroupMap groups by key.
        const ExprPtr& fn = n->exprs[0];
        const size_t k = (n->exprs.size() - 1) / 2;
        const std::vector<ExprPtr>& lout = n->children[0]->output;
        const std::vector<ExprPtr>& rout = n->children[1]->output;
        std::vector<ExprPtr> attrs = {attribute("__side", DataType::int_(), false, new_expr_id())};
        for (size_t i = 0; i < k; ++i)
          attrs.push_back(attribute("__key" + std::to_string(i), n->exprs[1 + i]->type, true, new_expr_id()));
        for (auto& a : lout) attrs.push_back(attribute(a->name, a->type, true, new_expr_id()));
        for (auto& a : rout) attrs.push_back(attribute(a->name, a->type, true, new_expr_id()));
        auto u = std::make_unique<exec::UnionAll>();
        for (int side = 0; side < 2; ++side) {
          PhysicalPlan c = plan(n->children[static_cast<size_t>(side)], nullptr);
          std::vector<PhysExprPtr> cols = {bind_expr(lit(Value::integer(side), DataType::int_()), c.output, conf)};
          for (size_t i = 0; i < k; ++i) {
            ExprPtr key = n->exprs[1 + i + static_cast<size_t>(side) * k];
            if (!key->type->equals(*attrs[1 + i]->type)) key = cast(key, attrs[1 + i]->type);
            cols.push_back(bind_expr(key, c.output, conf));
          }
          for (auto& a : lout) cols.push_back(bind_expr(side == 0 ? a : lit(Value(), a->type), c.output, conf));
          for (auto& a : rout) cols.push_back(bind_expr(side == 1 ? a : lit(Value(), a->type), c.output, conf));
          auto proj = std::make_unique<exec::Project>(std::move(cols));
          proj->children.push_back(std::move(c.root));
          u->children.push_back(std::move(proj));
        }
        std::vector<PhysExprPtr> keys, values;
        for (size_t i = 0; i < k; ++i) keys.push_back(bind_expr(attrs[1 + i], attrs, conf));
        values.push_back(bind_expr(attrs[0], attrs, conf));
        std::vector<std::string> left_names, right_names;
        for (size_t i = 0; i < lout.size() + rout.size(); ++i) {
          values.push_back(bind_expr(attrs[1 + k + i], attrs, conf));
          (i < lout.size() ? left_names : right_names).push_back(attrs[1 + k + i]->name);
        }
        std::string shown = "[";
        for (size_t i = 1; i < n->exprs.size(); ++i) shown += (i > 1 ? ", " : "") + display_of(n->exprs[i]);
        shown += "], " + display_of(fn) + ", [";
        for (size_t i = 0; i < n->output.size(); ++i) shown += (i ? ", " : "") + display_of(n->output[i]);
        PhysicalPlan p;
        p.root = std::make_unique<exec::PythonCoGroupMap>(fn->python, std::move(keys), std::move(values),
                                                          std::move(left_names), std::move(right_names), shown + "]",
                                                          python_settings(conf));
        p.root->children.push_back(std::move(u));
        p.output = n->output;
        return p;
      }
      case PlanKind::kMapPartitions: {
        // The function takes every column of its input.
        const ExprPtr& fn = n->exprs[0];
        std::set<int64_t> req;
        for (auto& a : fn->children) collect_refs(a, req);
        PhysicalPlan c = plan(n->children[0], &req);
        std::vector<PhysExprPtr> inputs;
        std::vector<std::string> names;
        for (auto& a : fn->children) {
          inputs.push_back(bind_expr(a, c.output, conf));
          names.push_back(a->name);
        }
        std::string shown = display_of(fn) + ", [";
        for (size_t i = 0; i < n->output.size(); ++i) shown += (i ? ", " : "") + display_of(n->output[i]);
        PhysicalPlan p;
        p.root = std::make_unique<exec::PythonMapBatches>(fn->python, std::move(inputs), std::move(names),
                                                          shown + "]", python_settings(conf));
        p.root->children.push_back(std::move(c.root));
        p.output = n->output;
        return p;
      }
      case PlanKind::kSample: {
        PhysicalPlan c = plan(n->children[0], required);
        PhysicalPlan p;
        p.root = std::make_unique<exec::Sample>(n->lower, n->upper, n->with_replacement, n->seed);
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kRepartition: {
        // The partitioning expressions read columns the operators above may not.
        std::set<int64_t> req = required ? *required : ids(n->output);
        for (const auto& e : n->exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        PhysicalPlan p;
        p.root = repartition_operator(*n, c.output, conf);
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kSubqueryAlias:
      case PlanKind::kHint: {
        PhysicalPlan c = plan(n->children[0], required);
        // Subquery aliases re-qualify attributes but keep their ids.
        return c;
      }
      case PlanKind::kSetOp: {
        // Union by position: the children's columns map onto this node's attributes.
        auto u = std::make_unique<exec::UnionAll>();
        for (auto& child : n->children) {
          PhysicalPlan c = plan(child, nullptr);
          std::vector<PhysExprPtr> cols;
          for (auto& a : child->output) cols.push_back(bind_expr(a, c.output, conf));
          auto proj = std::make_unique<exec::Project>(std::move(cols));
          proj->children.push_back(std::move(c.root));
          u->children.push_back(std::move(proj));
        }
        PhysicalPlan p;
        p.root = std::move(u);
        p.output = n->output;
        if (required) {
          // Keep every column; a projection above prunes what the parent does not need.
        }
        return p;
      }
      default:
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "Physical planning of " + plan_tree_string(n) + " is not supported yet.");
    }
  }

 private:
  static std::set<int64_t> ids(const std::vector<ExprPtr>& attrs) {
    std::set<int64_t> s;
    for (auto& a : attrs) s.insert(a->expr_id);
    return s;
  }

  static void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
    if (e->kind == ExprKind::kCall && e->function && e->function->name == "and") {
      for (auto& c : e->children) split_conjuncts(c, out);
      return;
    }
    out.push_back(e);
  }

  static bool refs_within(const ExprPtr& e, const std::set<int64_t>& side) {
    std::set<int64_t> refs;
    collect_refs(e, refs);
    for (int64_t r : refs)
      if (!side.count(r)) return false;
    return !refs.empty();
  }

  /// Joins: equalities between one expression of each side become hash keys; the whole
  /// condition stays as a filter on candidate pairs when any other conjunct remains.
  /// The build side of a hash join is its right input, held in memory and indexed on one
  /// thread; the probe side streams on all of them. So an inner or outer join whose left
  /// input looks clearly smaller runs mirrored (LEFT OUTER as RIGHT OUTER, and so on), with a
  /// projection restoring the column order. A join standing for a scalar subquery keeps its
  /// sides: it checks that each left row matches at most once.
  static std::optional<JoinType> mirrored_join(const PlanNode& n) {
    if (n.single_match) return std::nullopt;
    JoinType mirror;
    switch (n.join_type) {
      case JoinType::kInner:
      case JoinType::kCross:
      case JoinType::kFullOuter: mirror = n.join_type; break;
      case JoinType::kLeftOuter: mirror = JoinType::kRightOuter; break;
      case JoinType::kRightOuter: mirror = JoinType::kLeftOuter; break;
      default: return std::nullopt;
    }
    if (estimate_rows(n.children[0]) * 1.25 >= estimate_rows(n.children[1])) return std::nullopt;
    return mirror;
  }

  PhysicalPlan plan_join(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf) {
    if (auto mirror = mirrored_join(*n); mirror && conf.get_bool("spark.ember.join.buildSmallerSide", true)) {
      auto m = std::make_shared<PlanNode>(*n);
      std::swap(m->children[0], m->children[1]);
      m->join_type = *mirror;
      PhysicalPlan swapped = plan_join_sides(m, required, conf);
      std::vector<PhysExprPtr> cols;
      PhysicalPlan p;
      for (auto& a : n->output) {
        auto it = std::find_if(swapped.output.begin(), swapped.output.end(),
                               [&](const ExprPtr& o) { return o->expr_id == a->expr_id; });
        if (it == swapped.output.end()) continue;
        cols.push_back(bind_expr(*it, swapped.output, conf));
        p.output.push_back(*it);
      }
      p.root = std::make_unique<exec::Project>(cols);
      gpu_.note_project(p.root.get(), std::move(cols));  // GPU placement
      p.root->children.push_back(std::move(swapped.root));
      return p;
    }
    return plan_join_sides(n, required, conf);
  }

  PhysicalPlan plan_join_sides(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf) {
    const PlanPtr& left = n->children[0];
    const PlanPtr& right = n->children[1];
    std::set<int64_t> req = required ? *required : ids(n->output);
    if (n->condition) collect_refs(n->condition, req);
    PhysicalPlan l = plan(left, &req);
    PhysicalPlan r = plan(right, &req);
    std::set<int64_t> lids = ids(l.output), rids = ids(r.output);
    std::vector<ExprPtr> conjuncts;
    if (n->condition) split_conjuncts(n->condition, conjuncts);
    std::vector<exec::PhysExprPtr> lkeys, rkeys;
    std::vector<bool> null_safe;
    bool residual = false;
    for (auto& c : conjuncts) {
      bool is_eq = c->kind == ExprKind::kCall && c->function &&
                   (c->function->name == "==" || c->function->name == "<=>") && c->children.size() == 2;
      if (is_eq && c->children[0]->type->equals(*c->children[1]->type)) {
        const ExprPtr& a = c->children[0];
        const ExprPtr& b = c->children[1];
        const ExprPtr* lk = nullptr;
        const ExprPtr* rk = nullptr;
        if (refs_within(a, lids) && refs_within(b, rids)) lk = &a, rk = &b;
        else if (refs_within(b, lids) && refs_within(a, rids)) lk = &b, rk = &a;
        if (lk) {
          lkeys.push_back(bind_expr(*lk, l.output, conf));
          rkeys.push_back(bind_expr(*rk, r.output, conf));
          null_safe.push_back(c->function->name == "<=>");
          continue;
        }
      }
      residual = true;
    }
    std::vector<ExprPtr> both = l.output;
    both.insert(both.end(), r.output.begin(), r.output.end());
    exec::PhysExprPtr condition = residual ? bind_expr(n->condition, both, conf) : nullptr;
    exec::HashJoinKind kind = exec::HashJoinKind::kInner;
    switch (n->join_type) {
      case JoinType::kInner:
      case JoinType::kCross: kind = exec::HashJoinKind::kInner; break;
      case JoinType::kLeftOuter: kind = exec::HashJoinKind::kLeftOuter; break;
      case JoinType::kRightOuter: kind = exec::HashJoinKind::kRightOuter; break;
      case JoinType::kFullOuter: kind = exec::HashJoinKind::kFullOuter; break;
      case JoinType::kLeftSemi: kind = exec::HashJoinKind::kLeftSemi; break;
      case JoinType::kLeftAnti: kind = exec::HashJoinKind::kLeftAnti; break;
      case JoinType::kExistence: kind = exec::HashJoinKind::kExistence; break;
    }
    std::vector<TypePtr> ltypes, rtypes;
    for (auto& a : l.output) ltypes.push_back(a->type);
    for (auto& a : r.output) rtypes.push_back(a->type);
    PhysicalPlan p;
    auto join = std::make_unique<exec::HashJoin>(kind, std::move(lkeys), std::move(rkeys), std::move(null_safe),
                                                 std::move(condition), std::move(ltypes), std::move(rtypes));
    if (n->single_match) join->require_single_match();
    p.root = std::move(join);
    p.root->children.push_back(std::move(l.root));
    p.root->children.push_back(std::move(r.root));
    bool semi = kind == exec::HashJoinKind::kLeftSemi || kind == exec::HashJoinKind::kLeftAnti ||
                kind == exec::HashJoinKind::kExistence;
    // Output attributes carry the join's nullability (outer sides become nullable).
    std::map<int64_t, ExprPtr> by_id;
    for (auto& a : n->output) by_id[a->expr_id] = a;
    // Only the columns the operators above read leave the join (join keys and columns read by
    // the condition alone are never gathered).
    const std::vector<ExprPtr>& full = semi ? l.output : both;
    std::vector<int> outputs;
    if (required && kind != exec::HashJoinKind::kExistence) {
      for (size_t i = 0; i < full.size(); ++i)
        if (required->count(full[i]->expr_id) > 0) outputs.push_back(static_cast<int>(i));
      if (outputs.size() == full.size()) outputs.clear();
    }
    for (size_t i = 0; i < full.size(); ++i) {
      if (!outputs.empty() && std::find(outputs.begin(), outputs.end(), static_cast<int>(i)) == outputs.end())
        continue;
      auto it = by_id.find(full[i]->expr_id);
      p.output.push_back(it != by_id.end() ? it->second : full[i]);
    }
    if (!outputs.empty()) static_cast<exec::HashJoin*>(p.root.get())->set_outputs(std::move(outputs));
    if (kind == exec::HashJoinKind::kExistence) p.output.push_back(n->exprs[0]);
    return p;
  }

  /// A Generate: the child's columns the parent needs are repeated per generated row (the
  /// generator's arguments are read, not kept, unless needed); the generated columns follow.
  PhysicalPlan plan_generate(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf) {
    const ExprPtr& g = n->exprs[0];
    std::set<int64_t> req = required ? *required : ids(n->output);
    for (auto& a : n->generator_output) req.erase(a->expr_id);
    std::set<int64_t> kept_ids = req;
    collect_refs(g, req);
    PhysicalPlan c = plan(n->children[0], &req);
    if (is_python_table_function(g)) return plan_python_udtf(n, std::move(c), kept_ids, conf);
    exec::GeneratorSpec spec;
    using K = exec::GeneratorSpec::Kind;
    spec.kind = g->name == "posexplode"        ? K::kPosExplode
                : g->name == "inline"          ? K::kInline
                : g->name == "stack"           ? K::kStack
                : g->name == "json_tuple"      ? K::kJsonTuple
                : g->name == "variant_explode" ? K::kVariantExplode
                                               : K::kExplode;
    spec.outer = g->outer;
    for (size_t i = 0; i < g->children.size(); ++i) {
      if (spec.kind == K::kStack && i == 0) spec.stack_rows = g->children[0]->value.as_int();
      else spec.args.push_back(bind_expr(g->children[i], c.output, conf));
    }
    for (auto& f : g->type->fields()) spec.output_types.push_back(f.type);
    std::vector<int> kept;
    PhysicalPlan p;
    p.output = kept_columns(c.output, kept_ids, kept);
    std::string args;
    for (size_t i = 0; i < g->children.size(); ++i) args += (i ? ", " : "") + display_of(g->children[i]);
    std::string display = g->name + "(" + args + "), " + attribute_list(p.output) + ", " +
                          (g->outer ? "true" : "false") + ", " + attribute_list(n->generator_output);
    p.root = std::make_unique<exec::Generate>(std::move(spec), std::move(kept), std::move(display));
    return finish_generate(std::move(p), *n, std::move(c));
  }

  /// The attributes of `output` whose ids are in `ids`, in order; their positions go to `kept`.
  static std::vector<ExprPtr> kept_columns(const std::vector<ExprPtr>& output, const std::set<int64_t>& ids,
                                           std::vector<int>& kept) {
    std::vector<ExprPtr> attrs;
    for (size_t i = 0; i < output.size(); ++i)
      if (ids.count(output[i]->expr_id)) {
        kept.push_back(static_cast<int>(i));
        attrs.push_back(output[i]);
      }
    return attrs;
  }

  /// Spark's list of attributes in an operator's details: `[a#1, b#2]`.
  static std::string attribute_list(const std::vector<ExprPtr>& attrs) {
    std::string s;
    for (size_t i = 0; i < attrs.size(); ++i) s += (i ? ", " : "") + display_of(attrs[i]);
    return "[" + s + "]";
  }

  /// A generator's operator (`p.root`, whose output holds the kept child columns so far) over
  /// the planned child `c`: the generated columns follow the kept ones.
  static PhysicalPlan finish_generate(PhysicalPlan p, const PlanNode& n, PhysicalPlan c) {
    for (auto& a : p.output) p.root->schema.push_back({a->name, a->type, a->nullable, "{}"});
    for (auto& a : n.generator_output) {
      p.root->schema.push_back({a->name, a->type, a->nullable, "{}"});
      p.output.push_back(a);
    }
    p.root->children.push_back(std::move(c.root));
    return p;
  }

  /// A Python table function's Generate (Spark's ArrowEvalPythonUDTF) over the planned child.
  PhysicalPlan plan_python_udtf(const PlanPtr& n, PhysicalPlan c, const std::set<int64_t>& kept_ids,
                                const Config& conf) {
    const ExprPtr& g = n->exprs[0];
    std::vector<exec::PhysExprPtr> args;
    for (auto& a : g->children) args.push_back(bind_expr(a, c.output, conf));
    std::vector<int> kept;
    PhysicalPlan p;
    p.output = kept_columns(c.output, kept_ids, kept);
    if (!kept.empty() && g->python->eval_type == static_cast<int>(exec::PythonEvalType::kArrowUdtf))
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: an Arrow table function (arrow_udtf) joined with the rows "
                       "of a relation.",
                       {}, "0A000");
    exec::PythonTableFunctionInfo info;
    info.return_type_json = g->type->json();
    info.name = g->name;
    info.partition_child_indexes = g->python->partition_child_indexes;
    if (g->python->pickled_analyze_result) {
      info.has_analyze_result = true;
      info.pickled_analyze_result = *g->python->pickled_analyze_result;
    }
    std::string call;
    for (size_t i = 0; i < g->children.size(); ++i) call += (i ? ", " : "") + display_of(g->children[i]);
    std::string display = g->name + "(" + call + "), " + attribute_list(p.output) + ", " +
                          attribute_list(n->generator_output) + ", " +
                          std::to_string(g->python->eval_type == static_cast<int>(exec::PythonEvalType::kTableUdf)
                                             ? static_cast<int>(exec::PythonEvalType::kArrowTableUdf)
                                             : g->python->eval_type);
    p.root = std::make_unique<exec::PythonUdtfEval>(g->python, std::move(info), std::move(args), std::move(kept),
                                                    std::move(display), python_settings(conf));
    return finish_generate(std::move(p), *n, std::move(c));
  }

  PhysicalPlan plan_sort(const PlanPtr& n, const std::set<int64_t>* required, int64_t limit, int64_t offset = 0) {
    const Config& conf = session_.config();
    std::set<int64_t> req = required ? *required : ids(n->output);
    for (auto& e : n->exprs) collect_refs(e, req);
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<exec::SortKey> keys;
    for (auto& o : n->exprs) keys.push_back({bind_expr(o->children[0], c.output, conf), o->ascending, o->nulls_first});
    PhysicalPlan p;
    std::vector<exec::SortKey> gpu_keys = keys;
    // sortWithinPartitions and a TABLE argument's PARTITION BY sort each partition on its own.
    const bool within_partitions = !n->is_global && limit < 0 && offset == 0;
    p.root = std::make_unique<exec::Sort>(std::move(keys), limit, offset, within_partitions);
    // GPU placement (GpuSort keeps every row from the first, of one partition).
    if (offset == 0 && !within_partitions) gpu_.note_sort(p.root.get(), std::move(gpu_keys), limit);
    p.root->children.push_back(std::move(c.root));
    p.output = c.output;
    return p;
  }

  /// A Window node: the child's columns the parent needs, plus those the window expressions
  /// read, flow through; one column per window expression follows them.
  PhysicalPlan plan_window(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf,
                           const GroupLimit* group_limit = nullptr) {
    std::set<int64_t> req = required ? *required : ids(n->output);
    const Expr& spec = *n->exprs[0]->children[0];
    for (auto& a : n->exprs) collect_refs(a, req);
    for (auto& p : spec.partition_by) collect_refs(p, req);
    for (auto& o : spec.order_by) collect_refs(o, req);
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<PhysExprPtr> partition;
    for (auto& p : spec.partition_by) partition.push_back(bind_expr(p, c.output, conf));
    std::vector<exec::SortKey> order;
    for (auto& o : spec.order_by) order.push_back({bind_expr(o->children[0], c.output, conf), o->ascending, o->nulls_first});
    std::vector<exec::WindowCall> calls;
    PhysicalPlan p;
    p.output = c.output;
    for (auto& a : n->exprs) {
      const Expr& w = *a->children[0];
      const ExprPtr& fn = w.children[0];
      exec::WindowCall call;
      call.type = fn->type;
      call.display = display_of(fn) + " windowspecdefinition(" + w.frame.to_string() + ") AS " + a->name + "#" +
                     std::to_string(a->expr_id);
      call.frame.rows = w.frame.type == WindowFrame::Type::kRows;
      call.frame.lower = w.frame.lower;
      call.frame.upper = w.frame.upper;
      call.ignore_nulls = fn->ignore_nulls;
      using K = exec::WindowCall::Kind;
      if (is_python_aggregate(*fn)) {
        call.kind = K::kPython;
        call.python = fn->python;
        call.python_settings = std::make_shared<const exec::PythonSettings>(python_settings(conf));
        for (auto& arg : fn->children) call.args.push_back(bind_expr(arg, c.output, conf));
      } else if (fn->kind == ExprKind::kAggregate) {
        call.kind = K::kAggregate;
        call.function = fn->function;
        for (auto& arg : fn->children) call.args.push_back(bind_expr(arg, c.output, conf));
        call.signature = call_signature(*fn->function, fn->children, conf);
        if (fn->filter) call.filter = bind_expr(fn->filter, c.output, conf);
      } else {
        static const std::map<std::string, K> kinds = {
            {"row_number", K::kRowNumber}, {"rank", K::kRank}, {"dense_rank", K::kDenseRank},
            {"percent_rank", K::kPercentRank}, {"cume_dist", K::kCumeDist}, {"ntile", K::kNtile},
            {"lag", K::kLag}, {"lead", K::kLead}, {"first", K::kFirst}, {"first_value", K::kFirst},
            {"last", K::kLast}, {"last_value", K::kLast}, {"nth_value", K::kNthValue},
            {"counter_diff", K::kCounterDiff}};
        call.kind = kinds.at(fn->name);
        switch (call.kind) {
          case K::kNtile: call.offset = fn->children[0]->value.as_int(); break;
          case K::kLag:
          case K::kLead:
            call.offset = fn->children[1]->value.as_int();
            call.args = {bind_expr(fn->children[0], c.output, conf), bind_expr(fn->children[2], c.output, conf)};
            break;
          case K::kNthValue:
            call.offset = fn->children[1]->value.as_int();
            call.args = {bind_expr(fn->children[0], c.output, conf)};
            break;
          case K::kFirst:
          case K::kLast: call.args = {bind_expr(fn->children[0], c.output, conf)}; break;
          case K::kCounterDiff:
            for (auto& arg : fn->children) call.args.push_back(bind_expr(arg, c.output, conf));
            break;
          default: break;
        }
      }
      calls.push_back(std::move(call));
      p.output.push_back(to_attribute(a));
    }
    std::vector<exec::NormalizedKeySpec> order_specs;
    for (auto& o : order) order_specs.push_back({o.expr->type, o.ascending, o.nulls_first});
    if (group_limit && exec::normalized_keys_fit(order_specs)) {
      auto limit = std::make_unique<exec::WindowGroupLimit>(partition, order, group_limit->rank,
                                                            group_limit->limit);
      for (auto& a : c.output) limit->schema.push_back({a->name, a->type, a->nullable, {}});
      limit->children.push_back(std::move(c.root));
      c.root = std::move(limit);
    }
    p.root = std::make_unique<exec::Window>(std::move(partition), std::move(order), std::move(calls));
    for (auto& a : c.output) p.root->schema.push_back({a->name, a->type, a->nullable, {}});
    for (auto& a : n->exprs) p.root->schema.push_back({a->name, a->type, a->nullable, {}});
    p.root->children.push_back(std::move(c.root));
    return p;
  }

  PhysicalPlan plan_aggregate(const PlanPtr& n, const Config& conf) {
    std::set<int64_t> req;
    for (auto& g : n->exprs) collect_refs(g, req);
    for (auto& a : n->aggregates) collect_refs(a, req);
    std::vector<ExprPtr> calls_found;
    std::set<std::string> seen;
    for (auto& a : n->aggregates) collect_aggregates(a, calls_found, seen);
    std::vector<ExprPtr> python_calls;
    for (auto& call : calls_found)
      if (is_python_aggregate(*call)) python_calls.push_back(call);
    if (!python_calls.empty() && python_calls.size() != calls_found.size()) {
      std::string list;
      for (auto& call : python_calls) list += (list.empty() ? "`" : ", `") + call->name + "`";
      throw SparkError(ErrorKind::kAnalysis, "INVALID_PANDAS_UDF_PLACEMENT",
                       "The group aggregate pandas UDF " + list +
                           " cannot be invoked together with as other, non-pandas aggregate functions.",
                       {{"functionList", list}}, "0A000");
    }
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<PhysExprPtr> keys;
    std::vector<ExprPtr> agg_output;  // attributes of the HashAggregate's columns
    std::map<std::string, ExprPtr> replacements;
    for (auto& g : n->exprs) {
      keys.push_back(bind_expr(g, c.output, conf));
      ExprPtr attr = g->kind == ExprKind::kAttribute ? g : attribute(g->kind == ExprKind::kAlias ? g->name : g->to_string(), g->type, g->nullable, new_expr_id());
      agg_output.push_back(attr);
      replacements[semantic_key(g)] = attr;
    }
    if (!python_calls.empty()) return plan_python_aggregate(n, std::move(c), std::move(keys), python_calls,
                                                            std::move(agg_output), std::move(replacements), conf);
    std::vector<exec::AggregateCall> calls;
    for (auto& call : calls_found) {
      exec::AggregateCall ac;
      ac.distinct = call->distinct;
      ac.function = call->function;
      ac.display = display_of(call);
      for (auto& arg : call->children) ac.args.push_back(bind_expr(arg, c.output, conf));
      ac.signature = call_signature(*call->function, call->children, conf);
      if (call->filter) ac.filter = bind_expr(call->filter, c.output, conf);
      calls.push_back(std::move(ac));
      ExprPtr attr = attribute(call->to_string(), call->type, call->nullable, new_expr_id());
      agg_output.push_back(attr);
      replacements[semantic_key(call)] = attr;
    }
    auto agg = std::make_unique<exec::HashAggregate>(keys, calls);
    gpu_.note_aggregate(agg.get(), std::move(keys), std::move(calls));  // GPU placement
    agg->children.push_back(std::move(c.root));
    return project_aggregate_output(*n, std::move(agg), agg_output, replacements, conf);
  }

  /// The final projection of an aggregation: its output expressions over the aggregate
  /// operator's columns (`agg_output`: keys, then the calls' results, which `replacements`
  /// name by semantic key).
  PhysicalPlan project_aggregate_output(const PlanNode& n, exec::OperatorPtr agg,
                                        const std::vector<ExprPtr>& agg_output,
                                        const std::map<std::string, ExprPtr>& replacements, const Config& conf) {
    std::vector<ExprPtr> exprs;
    for (auto& out : n.aggregates)
      exprs.push_back(rewrite_over_aggregate(out->kind == ExprKind::kAlias ? out->children[0] : out, replacements));
    // Python calls over the aggregate's results (`SELECT f(k) ... GROUP BY k`) run above it.
    PhysicalPlan below;
    below.root = std::move(agg);
    below.output = agg_output;
    exprs = extract_python_udfs(exprs, below, conf);
    std::vector<PhysExprPtr> proj;
    PhysicalPlan p;
    for (size_t i = 0; i < exprs.size(); ++i) {
      proj.push_back(bind_expr(exprs[i], below.output, conf));
      p.output.push_back(to_attribute(n.aggregates[i]));
    }
    p.root = std::make_unique<exec::Project>(std::move(proj));
    p.root->children.push_back(std::move(below.root));
    return p;
  }

  /// Group aggregate pandas UDFs (AggregateInPandas): the grouped rows' arguments go to Python
  /// workers, one value per group and call; a projection computes the output expressions over
  /// the keys and the calls' results. Arguments that call scalar Python functions are evaluated
  /// below, by their own operator.
  PhysicalPlan plan_python_aggregate(const PlanPtr& n, PhysicalPlan c, std::vector<PhysExprPtr> keys,
                                     const std::vector<ExprPtr>& python_calls, std::vector<ExprPtr> agg_output,
                                     std::map<std::string, ExprPtr> replacements, const Config& conf) {
    std::vector<ExprPtr> flat_args;
    for (auto& call : python_calls)
      for (auto& a : call->children) flat_args.push_back(a);
    flat_args = extract_python_udfs(flat_args, c, conf);
    std::vector<std::shared_ptr<const exec::PythonFunction>> functions;
    std::vector<std::vector<exec::PhysExprPtr>> args;
    std::string display = "[";
    for (size_t i = 0; i < n->exprs.size(); ++i) display += (i ? ", " : "") + n->exprs[i]->to_string();
    display += "], [";
    size_t next_arg = 0;
    for (size_t i = 0; i < python_calls.size(); ++i) {
      const ExprPtr& call = python_calls[i];
      functions.push_back(call->python);
      std::vector<exec::PhysExprPtr> bound;
      for (size_t j = 0; j < call->children.size(); ++j) bound.push_back(bind_expr(flat_args[next_arg++], c.output, conf));
      args.push_back(std::move(bound));
      ExprPtr attr = attribute(call->to_string(), call->type, call->nullable, new_expr_id());
      display += (i ? ", " : "") + call->to_string() + "#" + std::to_string(attr->expr_id);
      agg_output.push_back(attr);
      replacements[semantic_key(call)] = attr;
    }
    display += "]";
    auto agg = std::make_unique<exec::PythonGroupAggregate>(std::move(functions), std::move(keys), std::move(args),
                                                            std::move(display), python_settings(conf));
    agg->children.push_back(std::move(c.root));
    return project_aggregate_output(*n, std::move(agg), agg_output, replacements, conf);
  }

  /// Common subexpression elimination. Subexpressions that a filter condition, or the
  /// expressions of one projection together, repeat are computed once, in a projection added
  /// below the operator (into `c`), and the expressions read their columns: `f(x) IN (v1, ...,
  /// vn)` is an OR of n equalities that would each compute f(x) (TPC-DS q8: substring of a zip
  /// code against 400 values); `select(g(x) + 1, g(x) * 2)` computes g(x) once. Only
  /// deterministic expressions that cannot fail are hoisted, since the projection computes them
  /// for every row, where AND, OR and CASE might not have. The hoisted columns show in the
  /// physical plan as `__hoisted_<n>`. Off with spark.sql.subexpressionElimination.enabled=false,
  /// Spark's setting for the same.
  std::vector<ExprPtr> hoist_repeated_subexpressions(const std::vector<ExprPtr>& exprs, PhysicalPlan& c,
                                                     const Config& conf) {
    if (!conf.get_bool("spark.sql.subexpressionElimination.enabled", true)) return exprs;
    std::map<std::string, int> counts;
    std::function<void(const ExprPtr&)> count = [&](const ExprPtr& e) {
      if (!hoistable_kind(e)) {
        if (e->kind != ExprKind::kLambda)
          for (auto& k : e->children) count(k);
        return;
      }
      ++counts[semantic_key(e)];
      for (auto& k : e->children) count(k);
    };
    for (auto& e : exprs) count(e);
    std::map<std::string, ExprPtr> hoisted;  // key → attribute of its column
    std::vector<PhysExprPtr> cols;
    std::vector<ExprPtr> attrs;
    std::function<ExprPtr(const ExprPtr&)> rewrite = [&](const ExprPtr& e) -> ExprPtr {
      if (hoistable_kind(e)) {
        std::string k = semantic_key(e);
        auto it = hoisted.find(k);
        if (it != hoisted.end()) return it->second;
        if (counts[k] > 1 && e->deterministic() && !contains_lambda(e)) {
          PhysExprPtr bound = bind_expr(e, c.output, conf);
          if (!bound->may_throw()) {
            ExprPtr attr = attribute("__hoisted_" + std::to_string(attrs.size()), e->type, e->nullable, new_expr_id());
            hoisted[k] = attr;
            cols.push_back(bound);
            attrs.push_back(attr);
            return attr;
          }
        }
      }
      if (e->kind == ExprKind::kLambda || e->children.empty()) return e;
      std::vector<ExprPtr> kids;
      bool changed = false;
      for (auto& k : e->children) {
        kids.push_back(rewrite(k));
        changed |= kids.back() != k;
      }
      return changed ? with_children(e, std::move(kids)) : e;
    };
    std::vector<ExprPtr> out;
    for (auto& e : exprs) out.push_back(rewrite(e));
    if (attrs.empty()) return exprs;
    std::vector<PhysExprPtr> all;
    for (auto& a : c.output) all.push_back(bind_expr(a, c.output, conf));
    for (auto& b : cols) all.push_back(b);
    auto proj = std::make_unique<exec::Project>(all);
    gpu_.note_project(proj.get(), std::move(all));  // GPU placement
    proj->children.push_back(std::move(c.root));
    c.root = std::move(proj);
    for (auto& a : attrs) c.output.push_back(a);
    return out;
  }

  /// AND, OR and NOT only combine their operands: never worth a column (and the keys of long
  /// chains of them are long).
  static bool hoistable_kind(const ExprPtr& e) {
    if (e->kind == ExprKind::kCall && e->function &&
        (e->function->name == "and" || e->function->name == "or" || e->function->name == "not"))
      return false;
    switch (e->kind) {
      case ExprKind::kCall:
      case ExprKind::kCast:
      case ExprKind::kCaseWhen:
      case ExprKind::kIf:
      case ExprKind::kCoalesce:
      case ExprKind::kGetField: return e->type != nullptr;
      default: return false;
    }
  }

  static bool contains_lambda(const ExprPtr& e) {
    if (e->kind == ExprKind::kLambda || e->kind == ExprKind::kLambdaVariable) return true;
    for (auto& k : e->children)
      if (contains_lambda(k)) return true;
    return false;
  }

  /// One subplan read in several places: planned at its first place, where its reader owns it.
  struct SharedGroup {
    std::set<size_t> needed;          // output positions some place needs
    bool all_needed = false;          // some place needs every column
    std::shared_ptr<exec::SharedSubplan::Result> result;
    PlanPtr planned;                  // the place it was planned at
    std::vector<ExprPtr> columns;     // its physical columns, attributes of `planned`
  };

  PhysicalPlan plan_shared(const PlanPtr& n, SharedGroup& g, const std::set<int64_t>* required) {
    PhysicalPlan p;
    if (recording_) {
      // The first planning: note the columns this place needs, plan it on its own.
      if (!required) g.all_needed = true;
      for (size_t i = 0; required && i < n->output.size(); ++i)
        if (required->count(n->output[i]->expr_id)) g.needed.insert(i);
      planning_shared_.insert(n.get());
      PhysicalPlan own = plan(n, required);
      planning_shared_.erase(n.get());
      return own;
    }
    if (!g.result) {
      std::set<int64_t> needed;
      for (size_t i = 0; i < n->output.size(); ++i)
        if (g.needed.count(i) || (required && required->count(n->output[i]->expr_id)))
          needed.insert(n->output[i]->expr_id);
      planning_shared_.insert(n.get());
      PhysicalPlan inner = plan(n, g.all_needed || !required ? nullptr : &needed);
      planning_shared_.erase(n.get());
      g.result = std::make_shared<exec::SharedSubplan::Result>(static_cast<int>(next_shared_id_++));
      g.planned = n;
      g.columns = inner.output;
      p.output = inner.output;
      p.root = std::make_unique<exec::SharedSubplan>(g.result, std::move(inner.root));
    } else {
      // Equivalent plans list their output in the same positions.
      const auto& out = g.planned->output;
      std::vector<bool> present(n->output.size(), false);
      bool ok = out.size() == n->output.size();
      for (size_t k = 0; ok && k < g.columns.size(); ++k) {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const ExprPtr& o) { return o->expr_id == g.columns[k]->expr_id; });
        ok = it != out.end();
        if (!ok) break;
        size_t i = static_cast<size_t>(it - out.begin());
        present[i] = true;
        p.output.push_back(n->output[i]);
      }
      for (size_t i = 0; ok && i < n->output.size(); ++i)
        ok = present[i] || (required && !required->count(n->output[i]->expr_id));
      if (!ok) {
        // The shared plan lacks a column this place needs: plan this place on its own.
        planning_shared_.insert(n.get());
        PhysicalPlan own = plan(n, required);
        planning_shared_.erase(n.get());
        return own;
      }
      p.root = std::make_unique<exec::SharedSubplan>(g.result);
    }
    for (auto& a : p.output) p.root->schema.push_back({a->name, a->type, a->nullable, "{}"});
    if (required) {
      // The parent's columns only, so that joins above do not carry the others.
      std::vector<PhysExprPtr> cols;
      std::vector<ExprPtr> kept;
      for (auto& a : p.output)
        if (required->count(a->expr_id)) {
          cols.push_back(bind_expr(a, p.output, session_.config()));
          kept.push_back(a);
        }
      if (kept.size() < p.output.size()) {
        auto proj = std::make_unique<exec::Project>(cols);
        gpu_.note_project(proj.get(), std::move(cols));  // GPU placement
        proj->children.push_back(std::move(p.root));
        p.root = std::move(proj);
        p.output = std::move(kept);
      }
    }
    return p;
  }

  std::map<const PlanNode*, size_t> shared_of_;  // a place of a shared subplan → its group
  std::vector<SharedGroup> groups_;
  std::set<const PlanNode*> planning_shared_;    // being planned as the subplan itself
  size_t next_shared_id_ = 0;
  bool recording_ = false;                        // the first planning of find_shared_subplans

  Session& session_;
  GpuPlacement gpu_;  // notes bound expressions for GPU placement (plan/gpu_placement.h)
  /// Whether operators drop the columns no operator above reads (ColumnPruning enabled).
  bool prune_columns_;
};

}  // namespace

/// Uncorrelated scalar subqueries run once, before the query, and become literals: no row is
/// null, more than one row SCALAR_SUBQUERY_TOO_MANY_ROWS. Any other subquery expression left
/// means the optimizer's subquery rules were switched off.
///
/// A subquery equal to one already run (the same plan, or an equivalent one: a CTE read in
/// several subqueries, the subqueries a ROLLUP repeats per grouping set) takes that one's
/// value instead of running again, unless spark.sql.execution.reuseSubquery is false.
PlanPtr run_scalar_subqueries(const PlanPtr& plan, Session& session) {
  const bool reuse = session.config().get_bool("spark.sql.execution.reuseSubquery", true);
  std::vector<std::pair<PlanPtr, Value>> done;
  auto substitute = [&](const ExprPtr& e) -> ExprPtr {
    return transform_expr_up(e, [&](const ExprPtr& x) -> ExprPtr {
      if (x->kind == ExprKind::kOuterReference ||
          (x->kind == ExprKind::kSubquery && (x->subquery_kind != SubqueryKind::kScalar || plan_is_correlated(x->subquery))))
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY",
                         "Unsupported subquery expression: " + x->to_string() +
                             " runs only as a join; enable the optimizer rules RewritePredicateSubquery and "
                             "RewriteCorrelatedScalarSubquery.",
                         {}, "0A000");
      if (x->kind != ExprKind::kSubquery) return x;
      if (reuse)
        for (auto& [query, value] : done)
          if (query == x->subquery || plans_equivalent(query, x->subquery)) return lit(value, x->type);
      QueryResult r = session.execute_analyzed(x->subquery);
      Value v;
      int64_t rows = 0;
      for (auto& b : r.batches) {
        if (b.num_rows > 0 && rows == 0) v = b.columns[0]->value_at(0);
        rows += b.num_rows;
      }
      if (rows > 1)
        throw SparkError(ErrorKind::kRuntime, "SCALAR_SUBQUERY_TOO_MANY_ROWS",
                         "More than one row returned by a subquery used as an expression.", {}, "21000");
      if (reuse) done.emplace_back(x->subquery, v);
      return lit(std::move(v), x->type);
    });
  };
  return transform_up(plan, [&](const PlanPtr& node) {
    bool any = false;
    for (auto* list : {&node->exprs, &node->aggregates})
      for (auto& e : *list) any |= has_subquery(e) || has_outer_reference(e);
    if (node->condition) any |= has_subquery(node->condition) || has_outer_reference(node->condition);
    return any ? map_expressions(node, substitute) : node;
  });
}

PhysicalPlan create_physical_plan(const PlanPtr& plan, Session& session) {
  Planner planner(session);
  PlanPtr substituted = run_scalar_subqueries(plan, session);
  planner.find_shared_subplans(substituted);
  PhysicalPlan p = planner.plan(substituted, nullptr);
  p.gpu_explain = planner.gpu().apply(p.root);  // GPU placement
  return p;
}

}  // namespace ember::plan
