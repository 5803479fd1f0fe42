// The analyzer: unresolved plan → resolved plan.

#include "plan/analyzer.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "common/error.h"
#include "functions/cast.h"
#include "functions/function.h"

namespace ember::plan {
namespace {

using functions::FunctionDef;
using functions::Registry;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string join_parts(const std::vector<std::string>& parts, bool quote) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) s += ".";
    s += quote ? quote_id(parts[i]) : parts[i];
  }
  return s;
}

class Analyzer {
 public:
  explicit Analyzer(Session& s) : session_(s), case_sensitive_(s.config().case_sensitive()) {}

  PlanPtr resolve(const PlanPtr& p);
  ExprPtr resolve_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg);

 private:
  bool name_eq(const std::string& a, const std::string& b) const {
    return case_sensitive_ ? a == b : lower(a) == lower(b);
  }
  std::shared_ptr<PlanNode> copy(const PlanNode& n) const { return std::make_shared<PlanNode>(n); }

  PlanPtr resolve_node(const PlanPtr& p, std::vector<PlanPtr> children);
  std::vector<ExprPtr> resolve_named_list(const std::vector<ExprPtr>& exprs, const PlanPtr& child,
                                          bool allow_agg);
  ExprPtr resolve_attribute(const ExprPtr& e, const PlanPtr& child);
  ExprPtr resolve_function(const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg);
  ExprPtr named(const ExprPtr& resolved, const ExprPtr& original);
  std::vector<ExprPtr> expand_star(const ExprPtr& star, const PlanPtr& child);
  [[noreturn]] void unresolved_column(const std::vector<std::string>& parts, const PlanPtr& child);
  ExprPtr extract_field(ExprPtr base, const std::string& field);
  ExprPtr implicit_cast(const ExprPtr& e, const TypePtr& to);
  PlanPtr project(const PlanPtr& child, std::vector<ExprPtr> exprs);
  const PlanNode* find_plan_id(const PlanPtr& p, int64_t id) const;
  void check_aggregate(const ExprPtr& e, const std::set<std::string>& group_keys, const ExprPtr& top);

  Session& session_;
  bool case_sensitive_;
  bool in_aggregate_ = false;
};

PlanPtr Analyzer::resolve(const PlanPtr& p) {
  if (p->resolved) return p;
  std::vector<PlanPtr> children;
  for (auto& c : p->children) children.push_back(resolve(c));
  PlanPtr r = resolve_node(p, std::move(children));
  auto* m = const_cast<PlanNode*>(r.get());
  m->resolved = true;
  if (m->plan_id < 0) m->plan_id = p->plan_id;
  return r;
}

PlanPtr Analyzer::project(const PlanPtr& child, std::vector<ExprPtr> exprs) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kProject;
  n->children = {child};
  n->exprs = std::move(exprs);
  for (auto& e : n->exprs) n->output.push_back(to_attribute(e));
  n->resolved = true;
  return n;
}

ExprPtr Analyzer::named(const ExprPtr& resolved, const ExprPtr& original) {
  if (resolved->kind == ExprKind::kAttribute || resolved->kind == ExprKind::kAlias) return resolved;
  return alias(resolved, original->kind == ExprKind::kUnresolvedAttribute ? original->name_parts.back()
                                                                          : resolved->to_string());
}

std::vector<ExprPtr> Analyzer::resolve_named_list(const std::vector<ExprPtr>& exprs, const PlanPtr& child,
                                                  bool allow_agg) {
  std::vector<ExprPtr> out;
  for (auto& e : exprs) {
    if (e->kind == ExprKind::kUnresolvedStar) {
      for (auto& a : expand_star(e, child)) out.push_back(a);
      continue;
    }
    out.push_back(named(resolve_expr(e, child, allow_agg), e));
  }
  return out;
}

std::vector<ExprPtr> Analyzer::expand_star(const ExprPtr& star, const PlanPtr& child) {
  std::vector<ExprPtr> attrs = child->output;
  if (star->plan_id >= 0) {
    if (const PlanNode* n = find_plan_id(child, star->plan_id)) {
      std::set<int64_t> ids;
      for (auto& a : n->output) ids.insert(a->expr_id);
      std::vector<ExprPtr> keep;
      for (auto& a : attrs)
        if (ids.count(a->expr_id)) keep.push_back(a);
      attrs = keep;
    }
  }
  if (star->name_parts.empty()) return attrs;
  // qualifier.* or struct.*
  std::vector<ExprPtr> out;
  for (auto& a : attrs) {
    const auto& q = a->qualifier;
    if (q.size() >= star->name_parts.size()) {
      bool match = true;
      size_t off = q.size() - star->name_parts.size();
      for (size_t i = 0; i < star->name_parts.size(); ++i) match &= name_eq(q[off + i], star->name_parts[i]);
      if (match) out.push_back(a);
    }
  }
  if (!out.empty()) return out;
  ExprPtr base = resolve_attribute(col(star->name_parts), child);
  if (base->type->id() != TypeId::kStruct)
    throw SparkError(ErrorKind::kAnalysis, "CANNOT_RESOLVE_STAR_EXPAND",
                     "Cannot resolve " + join_parts(star->name_parts, true) + ".* given input columns " + "[].",
                     {{"targetString", join_parts(star->name_parts, true)}, {"columns", ""}});
  for (auto& f : base->type->fields()) out.push_back(alias(extract_field(base, f.name), f.name));
  return out;
}

const PlanNode* Analyzer::find_plan_id(const PlanPtr& p, int64_t id) const {
  if (p->plan_id == id) return p.get();
  for (auto& c : p->children)
    if (const PlanNode* n = find_plan_id(c, id)) return n;
  return nullptr;
}

void Analyzer::unresolved_column(const std::vector<std::string>& parts, const PlanPtr& child) {
  std::string name = join_parts(parts, false);
  std::vector<std::pair<size_t, std::string>> cands;
  for (auto& a : child->output) {
    std::string full = a->qualifier.empty() ? a->name : join_parts(a->qualifier, false) + "." + a->name;
    std::string shown = a->qualifier.empty() ? quote_id(a->name) : join_parts(a->qualifier, true) + "." + quote_id(a->name);
    cands.emplace_back(std::min(edit_distance(lower(name), lower(a->name)), edit_distance(lower(name), lower(full))), shown);
  }
  std::stable_sort(cands.begin(), cands.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::string proposal;
  for (size_t i = 0; i < cands.size() && i < 5; ++i) proposal += (i ? ", " : "") + cands[i].second;
  std::string object = join_parts(parts, true);
  if (cands.empty())
    throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                     "A column, variable, or function parameter with name " + object + " cannot be resolved.",
                     {{"objectName", object}});
  throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
                   "A column, variable, or function parameter with name " + object +
                       " cannot be resolved. Did you mean one of the following? [" + proposal + "].",
                   {{"objectName", object}, {"proposal", proposal}});
}

ExprPtr Analyzer::extract_field(ExprPtr base, const std::string& field) {
  if (base->type->id() != TypeId::kStruct)
    throw SparkError(ErrorKind::kAnalysis, "INVALID_EXTRACT_BASE_FIELD_TYPE",
                     "Can't extract a value from \"" + base->to_string() + "\". Need a complex type [STRUCT, ARRAY, MAP] but got \"" +
                         base->type->sql() + "\".",
                     {{"base", "\"" + base->to_string() + "\""}, {"other", "\"" + base->type->sql() + "\""}});
  const auto& fields = base->type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (name_eq(fields[i].name, field)) {
      auto e = std::make_shared<Expr>();
      e->kind = ExprKind::kGetField;
      e->name = fields[i].name;
      e->ordinal = static_cast<int>(i);
      e->type = fields[i].type;
      e->nullable = base->nullable || fields[i].nullable;
      e->children = {std::move(base)};
      return e;
    }
  }
  std::string names;
  for (size_t i = 0; i < fields.size(); ++i) names += (i ? ", " : "") + quote_id(fields[i].name);
  throw SparkError(ErrorKind::kAnalysis, "FIELD_NOT_FOUND",
                   "No such struct field " + quote_id(field) + " in " + names + ".",
                   {{"fieldName", quote_id(field)}, {"fields", names}});
}

ExprPtr Analyzer::resolve_attribute(const ExprPtr& e, const PlanPtr& child) {
  const auto& parts = e->name_parts;
  std::vector<ExprPtr> attrs = child->output;
  if (e->plan_id >= 0) {
    if (const PlanNode* n = find_plan_id(child, e->plan_id)) {
      std::set<int64_t> ids;
      for (auto& a : n->output) ids.insert(a->expr_id);
      std::vector<ExprPtr> keep;
      for (auto& a : attrs)
        if (ids.count(a->expr_id)) keep.push_back(a);
      if (!keep.empty()) attrs = keep;
    }
  }
  // Candidates: (attribute, number of name parts consumed). Qualified matches take priority.
  std::vector<std::pair<ExprPtr, size_t>> qualified, plain;
  for (auto& a : attrs) {
    const auto& q = a->qualifier;
    for (size_t k = 1; k <= q.size() && k < parts.size(); ++k) {
      bool match = true;
      for (size_t i = 0; i < k; ++i) match &= name_eq(q[q.size() - k + i], parts[i]);
      if (match && name_eq(a->name, parts[k])) {
        qualified.emplace_back(a, k + 1);
        break;
      }
    }
    if (name_eq(a->name, parts[0])) plain.emplace_back(a, 1);
  }
  auto& matches = !qualified.empty() ? qualified : plain;
  if (matches.empty()) unresolved_column(parts, child);
  if (matches.size() > 1) {
    std::set<int64_t> ids;
    for (auto& m : matches) ids.insert(m.first->expr_id);
    if (ids.size() > 1) {
      std::string refs;
      for (size_t i = 0; i < matches.size(); ++i) {
        auto& a = matches[i].first;
        refs += (i ? ", " : "") + (a->qualifier.empty() ? quote_id(a->name) : join_parts(a->qualifier, true) + "." + quote_id(a->name));
      }
      throw SparkError(ErrorKind::kAnalysis, "AMBIGUOUS_REFERENCE",
                       "Reference " + join_parts(parts, true) + " is ambiguous, could be: [" + refs + "].",
                       {{"name", join_parts(parts, true)}, {"referenceNames", "[" + refs + "]"}});
    }
  }
  ExprPtr out = matches[0].first;
  for (size_t i = matches[0].second; i < parts.size(); ++i) out = extract_field(out, parts[i]);
  return out;
}

ExprPtr Analyzer::implicit_cast(const ExprPtr& e, const TypePtr& to) {
  if (e->type->equals(*to)) return e;
  if (e->kind == ExprKind::kLiteral && e->value.is_null()) return lit(Value(), to);
  auto c = cast(e, to);
  auto* m = const_cast<Expr*>(c.get());
  m->implicit = true;
  m->nullable = e->nullable || (e->type->id() == TypeId::kString && !to->is_string_like());
  return c;
}

ExprPtr Analyzer::resolve_function(const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg) {
  std::string name = lower(e->name);
  // Conditional forms are expressions, not functions, because they evaluate lazily.
  if (name == "when" || name == "casewhen" || name == "if" || name == "coalesce" || name == "nvl" || name == "ifnull") {
    auto n = std::make_shared<Expr>();
    bool is_case = name == "when" || name == "casewhen";
    n->kind = is_case ? ExprKind::kCaseWhen : (name == "if" ? ExprKind::kIf : ExprKind::kCoalesce);
    if (name == "if" && args.size() != 3)
      throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                       "The `if` requires 3 parameters but the actual number is " + std::to_string(args.size()) + ".",
                       {{"functionName", "`if`"}, {"expectedNum", "3"}, {"actualNum", std::to_string(args.size())}});
    n->has_else = is_case ? args.size() % 2 == 1 : true;
    std::vector<size_t> value_idx;
    if (is_case) {
      for (size_t i = 1; i < args.size(); i += 2) value_idx.push_back(i);
      if (n->has_else) value_idx.push_back(args.size() - 1);
      for (size_t i = 0; i + 1 < args.size(); i += 2)
        if (args[i]->type->id() != TypeId::kBoolean && args[i]->type->id() != TypeId::kNull)
          functions::throw_type_mismatch("UNEXPECTED_INPUT_TYPE", "WHEN expressions in CaseWhen should all be boolean type",
                                         "CASE WHEN");
    } else if (name == "if") {
      value_idx = {1, 2};
    } else {
      for (size_t i = 0; i < args.size(); ++i) value_idx.push_back(i);
    }
    TypePtr t = DataType::null();
    for (size_t i : value_idx) {
      TypePtr w = functions::wider_type(t, args[i]->type, true);
      if (!w) {
        if (t->id() == TypeId::kString || args[i]->type->id() == TypeId::kString) w = DataType::string();
        else
          functions::throw_type_mismatch("DATA_DIFF_TYPES", "Input to `" + name + "` should all be the same type.", name);
      }
      t = w;
    }
    bool nullable = is_case && !n->has_else;
    bool all_nullable = true;
    for (size_t i : value_idx) {
      args[i] = implicit_cast(args[i], t);
      nullable |= is_case || name == "if" ? args[i]->nullable : false;
      all_nullable &= args[i]->nullable;
    }
    if (name == "if") args[0] = implicit_cast(args[0], DataType::boolean());
    n->type = t;
    n->nullable = n->kind == ExprKind::kCoalesce ? all_nullable : nullable;
    n->children = std::move(args);
    n->name = name;
    return n;
  }
  if (name == "in") {
    // a IN (b, c) ≡ (a = b) OR (a = c), with the same null semantics.
    ExprPtr acc;
    for (size_t i = 1; i < args.size(); ++i) {
      ExprPtr eq = resolve_function(call("==", {}), {args[0], args[i]}, false);
      acc = acc ? resolve_function(call("or", {}), {acc, eq}, false) : eq;
    }
    if (!acc) return lit(Value::boolean(false), DataType::boolean());
    return acc;
  }
  if (name == "count" && args.size() == 1 && args[0]->kind == ExprKind::kUnresolvedStar) {
    args[0] = lit(Value::integer(1), DataType::int_());
  }
  const FunctionDef* def = Registry::instance().find(name);
  if (!def) {
    std::string routine = quote_id(e->name);
    throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_ROUTINE",
                     "Cannot resolve routine " + routine +
                         " on search path [`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`].",
                     {{"routineName", routine},
                      {"searchPath", "[`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`]"}});
  }
  int nargs = static_cast<int>(args.size());
  if (nargs < def->min_args || (def->max_args >= 0 && nargs > def->max_args)) {
    std::string expected = def->min_args == def->max_args ? std::to_string(def->min_args)
                                                           : "[" + std::to_string(def->min_args) + ", " +
                                                                 (def->max_args < 0 ? "..." : std::to_string(def->max_args)) + "]";
    throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                     "The " + quote_id(def->name) + " requires " + expected + " parameters but the actual number is " +
                         std::to_string(nargs) + ".",
                     {{"functionName", quote_id(def->name)}, {"expectedNum", expected}, {"actualNum", std::to_string(nargs)}});
  }
  bool is_agg = def->kind == functions::FunctionKind::kAggregate;
  if (is_agg && !allow_agg) {
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_EXPR_FOR_OPERATOR",
                     "A query operator contains one or more unsupported expressions. Consider to rewrite it to avoid "
                     "window functions, aggregate functions, and generator functions in the WHERE clause.",
                     {{"invalidExprSqls", "\"" + e->to_string() + "\""}});
  }
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type);
  functions::Signature sig = def->type_rule(types, session_.config());
  for (size_t i = 0; i < args.size() && i < sig.arg_types.size(); ++i) args[i] = implicit_cast(args[i], sig.arg_types[i]);
  auto n = std::make_shared<Expr>();
  n->kind = is_agg ? ExprKind::kAggregate : ExprKind::kCall;
  n->function = def;
  // Remember the name the caller used when it is a word (negative, mean) rather than the
  // operator symbol; names of result columns follow it.
  std::string called = lower(e->name);
  n->name = (!called.empty() && std::isalpha(static_cast<unsigned char>(called[0])) &&
             def->display != functions::Display::kCall && called != def->name)
                ? called
                : (def->display == functions::Display::kCall ? called : "");
  if (def->display == functions::Display::kCall && called == def->name) n->name = def->name;
  n->distinct = e->distinct;
  n->type = sig.result_type;
  bool any_nullable = false;
  for (auto& a : args) any_nullable |= a->nullable;
  if (sig.never_null) n->nullable = false;
  else if (is_agg) n->nullable = true;
  else n->nullable = any_nullable || sig.may_introduce_null;
  n->children = std::move(args);
  return n;
}

ExprPtr Analyzer::resolve_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  switch (e->kind) {
    case ExprKind::kLiteral:
    case ExprKind::kAttribute: return e;
    case ExprKind::kUnresolvedAttribute: return resolve_attribute(e, child);
    case ExprKind::kUnresolvedStar:
      throw SparkError(ErrorKind::kAnalysis, "INVALID_USAGE_OF_STAR_OR_REGEX",
                       "Invalid usage of '*' in expression.", {{"elem", "'*'"}, {"prettyName", "expression"}});
    case ExprKind::kUnresolvedFunction: {
      std::vector<ExprPtr> args;
      bool agg_fn = false;
      if (const FunctionDef* d = Registry::instance().find(e->name)) agg_fn = d->kind == functions::FunctionKind::kAggregate;
      if (agg_fn && in_aggregate_)
        throw SparkError(ErrorKind::kAnalysis, "NESTED_AGGREGATE_FUNCTION",
                         "It is not allowed to use an aggregate function in the argument of another aggregate "
                         "function. Please use the inner aggregate function in a sub-query.");
      bool saved = in_aggregate_;
      in_aggregate_ = in_aggregate_ || agg_fn;
      for (auto& a : e->children) {
        if (a->kind == ExprKind::kUnresolvedStar && lower(e->name) == "count") args.push_back(a);
        else args.push_back(resolve_expr(a, child, allow_agg));
      }
      in_aggregate_ = saved;
      return resolve_function(e, std::move(args), allow_agg);
    }
    case ExprKind::kAlias: {
      ExprPtr c = resolve_expr(e->children[0], child, allow_agg);
      auto a = std::make_shared<Expr>(*e);
      a->children = {c};
      a->type = c->type;
      a->nullable = c->nullable;
      return a;
    }
    case ExprKind::kUnresolvedAlias: return resolve_expr(e->children[0], child, allow_agg);
    case ExprKind::kCast: {
      ExprPtr c = resolve_expr(e->children[0], child, allow_agg);
      if (!functions::can_cast(*c->type, *e->type, session_.config().ansi_enabled())) {
        std::string sql = "CAST(" + c->to_string() + " AS " + e->type->sql() + ")";
        throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION",
                         "Cannot resolve \"" + sql + "\" due to data type mismatch: cannot cast \"" + c->type->sql() +
                             "\" to \"" + e->type->sql() + "\".",
                         {{"sqlExpr", "\"" + sql + "\""}, {"srcType", "\"" + c->type->sql() + "\""}, {"targetType", "\"" + e->type->sql() + "\""}});
      }
      auto n = std::make_shared<Expr>(*e);
      n->children = {c};
      n->nullable = c->nullable || e->try_ || (c->type->id() == TypeId::kString && !e->type->is_string_like()) ||
                    !session_.config().ansi_enabled();
      if (c->type->equals(*e->type)) n->nullable = c->nullable;
      return n;
    }
    case ExprKind::kSortOrder: {
      ExprPtr c = resolve_expr(e->children[0], child, allow_agg);
      return sort_order(c, e->ascending, e->nulls_first);
    }
    case ExprKind::kUnresolvedExtract: {
      ExprPtr base = resolve_expr(e->children[0], child, allow_agg);
      const ExprPtr& key = e->children[1];
      if (base->type->id() == TypeId::kStruct && key->kind == ExprKind::kLiteral && key->type->id() == TypeId::kString)
        return extract_field(base, key->value.as_bytes());
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "Extracting values from " + base->type->sql() + " is not supported yet.");
    }
    case ExprKind::kCall:
    case ExprKind::kAggregate:
    case ExprKind::kCaseWhen:
    case ExprKind::kIf:
    case ExprKind::kCoalesce:
    case ExprKind::kGetField: return e;
    default:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The expression " + e->to_string() + " is not supported yet.");
  }
}

void Analyzer::check_aggregate(const ExprPtr& e, const std::set<std::string>& group_keys, const ExprPtr& top) {
  if (e->kind == ExprKind::kAggregate || e->kind == ExprKind::kLiteral) return;
  if (group_keys.count(semantic_key(e))) return;
  if (e->kind == ExprKind::kAttribute) {
    std::string expr = top->kind == ExprKind::kAlias ? top->children[0]->to_string() : top->to_string();
    throw SparkError(ErrorKind::kAnalysis, "MISSING_AGGREGATION",
                     "The non-aggregating expression \"" + expr +
                         "\" is based on columns which are not participating in the GROUP BY clause. Add the columns "
                         "or the expression to the GROUP BY, aggregate the expression, or use \"any_value(" + expr +
                         ")\" if you do not care which of the values within a group is returned.",
                     {{"expression", "\"" + expr + "\""}, {"expressionAnyValue", "\"any_value(" + expr + ")\""}});
  }
  for (auto& c : e->children) check_aggregate(c, group_keys, top);
}

PlanPtr Analyzer::resolve_node(const PlanPtr& p, std::vector<PlanPtr> children) {
  auto n = copy(*p);
  n->children = children;
  const PlanPtr child = children.empty() ? nullptr : children[0];
  switch (p->kind) {
    case PlanKind::kRange:
      n->output = {attribute("id", DataType::long_(), false, new_expr_id())};
      return n;
    case PlanKind::kLocalRelation:
    case PlanKind::kEmpty:
      n->output.clear();
      for (auto& f : n->schema) n->output.push_back(attribute(f.name, f.type, f.nullable, new_expr_id()));
      return n;
    case PlanKind::kRead: {
      io::ReadRequest req = p->read;
      req.config = &session_.config();
      n->reader = io::open_reader(req);
      n->read.config = nullptr;
      n->output.clear();
      for (auto& f : n->reader->schema()) n->output.push_back(attribute(f.name, f.type, f.nullable, new_expr_id()));
      return n;
    }
    case PlanKind::kUnresolvedRelation: {
      std::string name = join_parts(p->table_name, false);
      PlanPtr view = p->table_name.size() == 1 ? session_.catalog().lookup_temp_view(p->table_name[0]) : nullptr;
      if (!view)
        throw SparkError(ErrorKind::kAnalysis, "TABLE_OR_VIEW_NOT_FOUND",
                         "The table or view " + join_parts(p->table_name, true) +
                             " cannot be found. Verify the spelling and correctness of the schema and catalog.\n"
                             "If you did not qualify the name with a schema, verify the current_schema() output, or "
                             "qualify the name with the correct schema and catalog.\nTo tolerate the error on drop use "
                             "DROP VIEW IF EXISTS or DROP TABLE IF EXISTS.",
                         {{"relationName", join_parts(p->table_name, true)}});
      auto alias_node = std::make_shared<PlanNode>();
      alias_node->kind = PlanKind::kSubqueryAlias;
      alias_node->alias = p->table_name.back();
      alias_node->children = {view};
      alias_node->plan_id = p->plan_id;
      for (auto& a : view->output) {
        auto q = std::make_shared<Expr>(*a);
        q->qualifier = {p->table_name.back()};
        alias_node->output.push_back(q);
      }
      return alias_node;
    }
    case PlanKind::kProject: {
      n->exprs = resolve_named_list(p->exprs, child, false);
      n->output.clear();
      for (auto& e : n->exprs) n->output.push_back(to_attribute(e));
      return n;
    }
    case PlanKind::kFilter: {
      ExprPtr c = resolve_expr(p->condition, child, false);
      if (c->type->id() != TypeId::kBoolean && c->type->id() != TypeId::kNull)
        throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                         "Cannot resolve \"" + c->to_string() + "\" due to data type mismatch: Filter expression \"" +
                             c->to_string() + "\" of type \"" + c->type->sql() + "\" is not a boolean.",
                         {{"sqlExpr", "\"" + c->to_string() + "\""}, {"filter", "\"" + c->to_string() + "\""}, {"type", "\"" + c->type->sql() + "\""}});
      n->condition = c;
      n->output = child->output;
      return n;
    }
    case PlanKind::kAggregate: {
      std::vector<ExprPtr> groups = resolve_named_list(p->exprs, child, false);
      std::vector<ExprPtr> aggs = resolve_named_list(p->aggregates, child, true);
      std::set<std::string> keys;
      for (auto& g : groups) keys.insert(semantic_key(g));
      for (auto& a : aggs) check_aggregate(a->kind == ExprKind::kAlias ? a->children[0] : a, keys, a);
      n->exprs = groups;
      std::vector<ExprPtr> out;
      if (!p->aggregate_output_is_select_list) out = groups;
      for (auto& a : aggs) out.push_back(a);
      n->aggregates = out;
      n->output.clear();
      for (auto& e : out) n->output.push_back(to_attribute(e));
      return n;
    }
    case PlanKind::kSort: {
      n->exprs.clear();
      for (auto& e : p->exprs) {
        ExprPtr r = resolve_expr(e->kind == ExprKind::kSortOrder ? e : sort_order(e, true, true), child, false);
        n->exprs.push_back(r);
      }
      n->output = child->output;
      return n;
    }
    case PlanKind::kLimit:
    case PlanKind::kOffset:
    case PlanKind::kTail:
      if (p->limit < 0)
        throw SparkError(ErrorKind::kAnalysis, "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                         "The limit like expression \"" + std::to_string(p->limit) + "\" is invalid. The limit expression must be equal to or greater than 0, but got " +
                             std::to_string(p->limit) + ".");
      n->output = child->output;
      return n;
    case PlanKind::kRepartition:
    case PlanKind::kHint:
      n->output = child->output;
      return n;
    case PlanKind::kSubqueryAlias: {
      n->output.clear();
      for (auto& a : child->output) {
        auto q = std::make_shared<Expr>(*a);
        q->qualifier = {p->alias};
        n->output.push_back(q);
      }
      return n;
    }
    case PlanKind::kDistinct: {
      auto agg = std::make_shared<PlanNode>();
      agg->kind = PlanKind::kAggregate;
      agg->children = {child};
      if (p->dedup_all || p->dedup_columns.empty()) {
        agg->exprs = child->output;
        agg->aggregates = child->output;
        agg->output = child->output;
        return agg;
      }
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "dropDuplicates with a subset of columns is not supported yet.");
    }
    case PlanKind::kWithColumns: {
      std::vector<ExprPtr> list = child->output;
      for (auto& e : p->exprs) {
        ExprPtr r = named(resolve_expr(e, child, false), e);
        bool replaced = false;
        for (auto& existing : list) {
          if (name_eq(existing->kind == ExprKind::kAlias ? existing->name : existing->name, r->name)) {
            existing = r;
            replaced = true;
          }
        }
        if (!replaced) list.push_back(r);
      }
      return project(child, list);
    }
    case PlanKind::kWithColumnsRenamed: {
      std::vector<ExprPtr> list;
      for (auto& a : child->output) {
        ExprPtr out = a;
        for (auto& [from, to] : p->renames)
          if (name_eq(a->name, from)) out = alias(a, to);
        list.push_back(out);
      }
      return project(child, list);
    }
    case PlanKind::kToDF: {
      if (p->names.size() != child->output.size())
        throw SparkError(ErrorKind::kAnalysis, "INVALID_COLUMN_NAME_AS_PATH",
                         "The number of columns doesn't match.\nOld column names (" + std::to_string(child->output.size()) +
                             "), New column names (" + std::to_string(p->names.size()) + ")");
      std::vector<ExprPtr> list;
      for (size_t i = 0; i < p->names.size(); ++i) list.push_back(alias(child->output[i], p->names[i]));
      return project(child, list);
    }
    case PlanKind::kDrop: {
      std::set<int64_t> drop_ids;
      for (auto& e : p->exprs) {
        if (e->kind == ExprKind::kUnresolvedAttribute && e->plan_id < 0 && e->name_parts.size() == 1) {
          for (auto& a : child->output)
            if (name_eq(a->name, e->name_parts[0])) drop_ids.insert(a->expr_id);
          continue;
        }
        try {
          ExprPtr r = resolve_expr(e, child, false);
          if (r->kind == ExprKind::kAttribute) drop_ids.insert(r->expr_id);
        } catch (const SparkError&) {
          // Dropping a column that does not exist is a no-op, as in Spark.
        }
      }
      for (auto& name : p->names)
        for (auto& a : child->output)
          if (name_eq(a->name, name)) drop_ids.insert(a->expr_id);
      std::vector<ExprPtr> list;
      for (auto& a : child->output)
        if (!drop_ids.count(a->expr_id)) list.push_back(a);
      return project(child, list);
    }
    case PlanKind::kSetOp: {
      if (p->set_op != SetOpType::kUnion || p->by_name)
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "This set operation is not supported yet.");
      const PlanPtr& right = children[1];
      if (child->output.size() != right->output.size())
        throw SparkError(ErrorKind::kAnalysis, "NUM_COLUMNS_MISMATCH",
                         "UNION can only be performed on inputs with the same number of columns, but the first input has " +
                             std::to_string(child->output.size()) + " columns and the second input has " +
                             std::to_string(right->output.size()) + " columns.");
      std::vector<ExprPtr> lcast, rcast;
      bool need_cast = false;
      n->output.clear();
      for (size_t i = 0; i < child->output.size(); ++i) {
        auto& l = child->output[i];
        auto& r = right->output[i];
        TypePtr w = functions::wider_type(l->type, r->type, true);
        if (!w) {
          if (l->type->id() == TypeId::kString || r->type->id() == TypeId::kString) w = DataType::string();
          else
            throw SparkError(ErrorKind::kAnalysis, "INCOMPATIBLE_COLUMN_TYPE",
                             "UNION can only be performed on tables with compatible column types.");
        }
        need_cast |= !l->type->equals(*w) || !r->type->equals(*w);
        lcast.push_back(l->type->equals(*w) ? l : alias(implicit_cast(l, w), l->name));
        rcast.push_back(r->type->equals(*w) ? r : alias(implicit_cast(r, w), r->name));
        n->output.push_back(attribute(l->name, w, l->nullable || r->nullable, new_expr_id()));
      }
      if (need_cast) n->children = {project(child, lcast), project(right, rcast)};
      return n;
    }
    default:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The operation " + plan_tree_string(p) + " is not supported yet.");
  }
}

}  // namespace

std::string semantic_key(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::kAttribute: return "#" + std::to_string(e->expr_id);
    case ExprKind::kAlias: return semantic_key(e->children[0]);
    case ExprKind::kLiteral: return "lit:" + e->to_string() + ":" + (e->type ? e->type->simple_string() : "");
    default: {
      std::string s = std::to_string(static_cast<int>(e->kind)) + ":" + (e->function ? e->function->name : e->name) +
                      (e->type ? ":" + e->type->simple_string() : "") + (e->distinct ? ":d" : "") + "(";
      for (auto& c : e->children) s += semantic_key(c) + ",";
      return s + ")";
    }
  }
}

PlanPtr analyze_plan(const PlanPtr& unresolved, Session& session) {
  return Analyzer(session).resolve(unresolved);
}

ExprPtr resolve_expression(const ExprPtr& e, const PlanPtr& child, Session& session, bool allow_aggregates) {
  return Analyzer(session).resolve_expr(e, child, allow_aggregates);
}

}  // namespace ember::plan
