// The analyzer: unresolved plan → resolved plan.

#include "plan/analyzer.h"
#include "common/ascii.h"
#include "exec/python_udf.h"
#include "plan/collation_resolution.h"
#include "plan/datetime_arithmetic.h"
#include "plan/input_file_check.h"
#include "plan/time_window.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "common/error.h"
#include "common/number_format.h"
#include "functions/cast.h"
#include "functions/function.h"
#include "functions/regexp_util.h"
#include "functions/variant_util.h"
#include "io/file_metadata.h"
#include "plan/generator_resolution.h"
#include "plan/inline_table.h"
#include "plan/optimizer.h"
#include "plan/lambda_resolution.h"
#include "plan/lateral_checks.h"
#include "plan/metadata_columns.h"
#include "plan/named_arguments.h"
#include "plan/naming_scope.h"
#include "plan/subquery.h"
#include "plan/table_argument.h"
#include "plan/table_relation.h"
#include "plan/nested_resolution.h"
#include "plan/pivot_resolution.h"
#include "plan/range_arguments.h"
#include "plan/plan_id_resolution.h"
#include "plan/window_resolution.h"
#include "plan/within_group_resolution.h"

namespace ember::plan {
namespace {

/// A table function called among expressions (a Python UDTF, or variant_explode in a select
/// list): Spark looks the name up before it resolves the arguments and refuses it as such.
[[noreturn]] void throw_not_a_scalar_function(const std::string& name) {
  const std::string shown = quote_id(name);
  throw SparkError(
      ErrorKind::kAnalysis, "NOT_A_SCALAR_FUNCTION",
      shown +
          " appears as a scalar expression here, but the function was defined as a table "
          "function. Please update the query to move the function call into the FROM clause, "
          "or redefine " +
          shown + " as a scalar function instead.",
      {{"functionName", shown}}, "42887");
}

/// The table-valued functions whose rows need no input (sql/builtin_table_functions.h), which
/// the SQL parser and the DataFrame API resolve; among expressions they are table functions
/// misplaced.
bool is_fixed_table_function_name(const std::string& lower) {
  return lower == "sql_keywords" || lower == "collations";
}

/// Spark refuses VARIANT in grouping keys, sort keys and deduplication (it has no ordering or
/// equality).
void reject_variant_group_key(const ExprPtr& g) {
  if (!functions::contains_variant(*g->type)) return;
  const ExprPtr& e = g->kind == ExprKind::kAlias ? g->children[0] : g;
  const std::string sql = "\"" + e->to_string() + "\"", type = "\"" + g->type->sql() + "\"";
  throw SparkError(ErrorKind::kAnalysis, "GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE",
                   "The expression " + sql + " cannot be used as a grouping expression because its data type " + type +
                       " is not an orderable data type.",
                   {{"sqlExpr", sql}, {"dataType", type}}, "42822");
}

void reject_variant_columns(const std::vector<ExprPtr>& columns) {
  for (auto& c : columns) {
    if (!functions::contains_variant(*c->type)) continue;
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE",
                     "The feature is not supported: Cannot have VARIANT type columns in a set operation (INTERSECT, "
                     "EXCEPT, etc.), but the type of column " + quote_id(c->name) + " is \"" + c->type->sql() + "\".",
                     {{"columnName", quote_id(c->name)}, {"dataType", "\"" + c->type->sql() + "\""}}, "0A000");
  }
}

/// Spark compares no maps, so a set operation (DISTINCT, dropDuplicates' keys, INTERSECT,
/// EXCEPT) over a column holding one, at any depth, is an error.
void reject_map_columns(const std::vector<ExprPtr>& columns) {
  for (auto& c : columns) {
    if (!c->type->contains(TypeId::kMap)) continue;
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE",
                     "The feature is not supported: Cannot have MAP type columns in a set operation (INTERSECT, "
                     "EXCEPT, etc.), but the type of column " + quote_id(c->name) + " is \"" + c->type->sql() + "\".",
                     {{"colName", quote_id(c->name)}, {"dataType", "\"" + c->type->sql() + "\""}}, "0A000");
  }
}

using functions::FunctionDef;
using functions::Registry;

std::string join_parts(const std::vector<std::string>& parts, bool quote) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) s += ".";
    s += quote ? quote_id(parts[i]) : parts[i];
  }
  return s;
}

/// A star among count's arguments counts rows (count(*), count(df["*"])); a colRegex names the
/// columns it matches instead.
bool counts_rows(const ExprPtr& arg) {
  return arg->kind == ExprKind::kUnresolvedStar && arg->name.empty();
}

/// INVALID_USAGE_OF_STAR_OR_REGEX for a star or colRegex where `where` cannot take one.
[[noreturn]] void throw_star_misuse(const ExprPtr& star, const std::string& where) {
  const std::string elem = star->name.empty() ? "'*'" : "regular expression '" + star->name + "'";
  throw SparkError(ErrorKind::kAnalysis, "INVALID_USAGE_OF_STAR_OR_REGEX",
                   "Invalid usage of " + elem + " in " + where + ".",
                   {{"elem", elem}, {"prettyName", where}}, "42000");
}

/// A column name as Spark prints an unresolved reference: parts joined by dots, each in
/// backquotes only when it is not a plain identifier.
std::string sql_name(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    bool plain = !p.empty(), digits = true;
    for (char c : p) {
      plain &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      digits &= std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    if (i) s += ".";
    s += plain && !digits ? p : quote_id(p);
  }
  return s;
}

class Analyzer {
 public:
  explicit Analyzer(Session& s)
      : session_(s),
        case_sensitive_(s.config().case_sensitive()),
        strict_dataframe_columns_(
            s.config().get_bool("spark.sql.analyzer.strictDataFrameColumnResolution", true)) {}

  /// Resolve a node or an expression; an error raised within gets the SQL position of the
  /// innermost node or expression the parser placed (query context).
  PlanPtr resolve(const PlanPtr& p);
  PlanPtr resolve_here(const PlanPtr& p);
  /// Resolves a subquery's plan (of an expression or a LATERAL join) with `scope`'s output as
  /// its outer scope: names its own FROM does not resolve become outer references.
  PlanPtr resolve_with_outer_scope(const PlanPtr& query, const PlanPtr& scope);
  ExprPtr resolve_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg);
  ExprPtr resolve_expr_here(const ExprPtr& e, const PlanPtr& child, bool allow_agg);

 private:
  bool name_eq(const std::string& a, const std::string& b) const {
    return case_sensitive_ ? a == b : ascii_lower(a) == ascii_lower(b);
  }
  std::shared_ptr<PlanNode> copy(const PlanNode& n) const { return std::make_shared<PlanNode>(n); }

  PlanPtr resolve_node(const PlanPtr& p, std::vector<PlanPtr> children);
  RelationResolver relation_resolver() {
    RelationResolver r;
    r.resolve_plan = [this](const PlanPtr& n) { return resolve(n); };
    r.resolve_named = [this](const std::vector<ExprPtr>& es, const PlanPtr& c, bool agg) {
      return resolve_select_list(es, c, agg);
    };
    r.resolve_expr = [this](const ExprPtr& e, const PlanPtr& c, bool agg) { return resolve_expr(e, c, agg); };
    r.run = [this](const PlanPtr& analyzed) { return session_.execute_analyzed(analyzed).batches; };
    r.conf = &session_.config();
    return r;
  }
  std::vector<ExprPtr> resolve_named_list(const std::vector<ExprPtr>& exprs, const PlanPtr& child,
                                          bool allow_agg);
  ExprPtr resolve_attribute(const ExprPtr& e, const PlanPtr& child);
  /// A cast whose operand `c` is resolved: checked (DATATYPE_MISMATCH.CAST_*)
  /// and given its nullability. `e` is the cast as written (target type, try_).
  ExprPtr checked_cast(const ExprPtr& e, const ExprPtr& c) {
    const bool ansi = session_.config().ansi_enabled();
    if (!functions::can_cast(*c->type, *e->type, ansi))
      functions::throw_cast_mismatch(
          *c->type, *e->type, ansi,
          // Named as Spark names the cast: by its operand when the target is nested.
          e->type->is_nested() ? c->to_string() : "CAST(" + c->to_string() + " AS " + e->type->sql() + ")");
    auto n = std::make_shared<Expr>(*e);
    n->children = {c};
    n->nullable = c->nullable || e->try_ || (c->type->id() == TypeId::kString && !e->type->is_string_like()) ||
                  functions::cast_forces_null(*c->type, *e->type);
    if (c->type->equals(*e->type)) n->nullable = c->nullable;
    return n;
  }

  ExprPtr resolve_function(const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg);
  /// Whether the unresolved call `e` names a function resolve_function knows: a registered
  /// function or special form, a cast by type name, a window function.
  bool function_exists(const ExprPtr& e) const;
  /// A call of the Python function `fn` (a kPythonUdf) on `raw_args`, which may be passed by name.
  ExprPtr resolve_python_call(const ExprPtr& fn, const std::vector<ExprPtr>& raw_args, const PlanPtr& child,
                              bool allow_agg);
  /// A call of Python table function `function` over its arguments as written (keyword
  /// arguments unwrapped into the call's argument names).
  ExprPtr resolve_table_function_call(const ExprPtr& function, const std::vector<ExprPtr>& raw_args,
                                      const PlanPtr& child, bool allow_agg);
  /// A call of `def` (null: UNRESOLVED_ROUTINE for e's name) with resolved arguments.
  ExprPtr bind_call(const FunctionDef* def, const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg);
  ExprPtr resolve_window_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg);
  PlanPtr aggregate_with_windows(const PlanPtr& p, const std::vector<ExprPtr>& groups, std::vector<ExprPtr> aggs,
                                 const PlanPtr& child);
  PlanPtr project_with_windows(const PlanPtr& child, std::vector<ExprPtr> exprs, int64_t plan_id);
  PlanPtr resolve_grouping_sets(const PlanPtr& p, const PlanPtr& child);
  PlanPtr grouping_sets_with_windows(const PlanPtr& p, const PlanPtr& child);
  ExprPtr named(const ExprPtr& resolved, const ExprPtr& original);
  std::vector<ExprPtr> expand_star(const ExprPtr& star, const PlanPtr& child);
  [[noreturn]] void unresolved_column(const std::vector<std::string>& parts, const PlanPtr& child);
  ExprPtr extract_field(ExprPtr base, const std::string& field);
  ExprPtr implicit_cast(const ExprPtr& e, const TypePtr& to);
  PlanPtr project(const PlanPtr& child, std::vector<ExprPtr> exprs);
  std::optional<std::pair<ExprPtr, size_t>> match_name(const std::vector<std::string>& parts,
                                                       const std::vector<ExprPtr>& attrs) const;
  std::vector<PlanPtr> plan_id_roots(const PlanPtr& child) const;
  /// Fails unless `e` reads only grouping keys (`group_keys`) or aggregates: MISSING_AGGREGATION,
  /// or MISSING_GROUP_BY when the aggregate has no grouping at all (`grouped` false).
  void check_aggregate(const ExprPtr& e, const std::set<std::string>& group_keys, const ExprPtr& top,
                       bool grouped = true);
  PlanPtr dedup_right(const PlanPtr& left, const PlanPtr& right);
  PlanPtr resolve_join(const PlanPtr& p, const PlanPtr& left, PlanPtr right);
  PlanPtr resolve_set_op(const PlanPtr& p, PlanPtr left, PlanPtr right);
  /// The rows of a VALUES of several rows (the parser's UNION ALL of one-row projections),
  /// each value cast to its column's common type as Spark types an inline table.
  PlanPtr resolve_inline_rows(const PlanPtr& p);
  PlanPtr union_by_name(const PlanPtr& p, const PlanPtr& left, const PlanPtr& right, PlanPtr& new_left);
  PlanPtr join_node(const PlanPtr& left, const PlanPtr& right, JoinType type, ExprPtr condition);
  ExprPtr and_all(const std::vector<ExprPtr>& conjuncts);

  ExprPtr resolve_subquery(const ExprPtr& e, const PlanPtr& child, bool allow_agg);
  ExprPtr resolve_update_fields(const ExprPtr& e, const PlanPtr& child, bool allow_agg);
  std::vector<std::pair<std::string, ExprPtr>> struct_fields(const ExprPtr& base);
  ExprPtr build_struct(const ExprPtr& base, const std::vector<std::pair<std::string, ExprPtr>>& fields);
  void apply_field_op(std::vector<std::pair<std::string, ExprPtr>>& fields, const std::vector<std::string>& path,
                      size_t depth, const ExprPtr& value);
  ExprPtr resolve_higher_order(const ExprPtr& e, const PlanPtr& child, bool allow_agg);
  /// A call of a built-in function (not a session's Python function) with named arguments.
  bool named_builtin_call(const ExprPtr& e) const;
  ExprPtr resolve_lambda_variable(const std::vector<std::string>& parts);
  ExprPtr resolve_outer_reference(const ExprPtr& e);

  /// A select list may hold generators; they become Generate nodes below its projection.
  std::vector<ExprPtr> resolve_select_list(const std::vector<ExprPtr>& exprs, const PlanPtr& child, bool allow_agg) {
    bool saved = in_select_list_;
    in_select_list_ = true;
    try {
      auto out = resolve_named_list(exprs, child, allow_agg);
      in_select_list_ = saved;
      return out;
    } catch (...) {
      in_select_list_ = saved;
      throw;
    }
  }
  PlanPtr aggregate_with_generator(const PlanPtr& p, const std::vector<ExprPtr>& groups, std::vector<ExprPtr> aggs,
                                   const PlanPtr& child);
  PlanPtr resolve_generate(const PlanPtr& p, const PlanPtr& child);
  /// A Python table function call with a TABLE argument, or null when `p` calls no Python
  /// table function.
  PlanPtr resolve_table_argument_call(const PlanPtr& p, const PlanPtr& child);
  /// A table function call with a TABLE argument, `rows` its output, as the relation `child`
  /// reads it: those rows alone over one row without columns, else (LATERAL) joined with
  /// child's rows, under Spark's checks: MISSING_ATTRIBUTES when a `scalars` argument reads
  /// child (`table_column` is the rows' struct column), NON_DETERMINISTIC_LATERAL_SUBQUERIES.
  PlanPtr lateral_table_call(const PlanPtr& p, const PlanPtr& child, const PlanPtr& rows,
                             const std::vector<ExprPtr>& scalars, const ExprPtr& table_column = nullptr);
  PlanPtr with_time_window(const PlanPtr& p, const PlanPtr& child);
  PlanPtr with_session_window(const PlanPtr& p, const PlanPtr& child);
  PlanPtr resolve_hint(const std::shared_ptr<PlanNode>& n, const PlanPtr& child);
  PlanPtr resolve_repartition(const std::shared_ptr<PlanNode>& n, const PlanPtr& child);
  PlanPtr widened_for_frame_references(const PlanPtr& child, const std::vector<ExprPtr>& exprs);
  /// While a select list resolves: its child and the child widened for its DataFrame references.
  std::pair<const PlanNode*, PlanPtr> frame_scope_;
  PlanPtr widened_projections(const PlanPtr& p, const std::vector<ExprPtr>& missing);
  PlanPtr over_widened_projection(const std::shared_ptr<PlanNode>& n, const PlanPtr& child,
                                  const std::vector<ExprPtr>& missing, int64_t plan_id);

  Session& session_;
  bool case_sensitive_;
  /// spark.sql.analyzer.strictDataFrameColumnResolution: a DataFrame column that its DataFrame's
  /// node does not pass up to the operator is an error rather than a name to look up again.
  bool strict_dataframe_columns_;
  bool in_aggregate_ = false;
  /// While a select list resolves: generators are allowed at its top level.
  bool in_select_list_ = false;
  /// While a table-valued function call (FROM f(...), LATERAL f(...), spark.tvf.f(...))
  /// resolves: the generators Spark offers only as table functions are allowed too.
  bool in_table_function_call_ = false;
  /// While a subquery resolves: the plans whose outputs its names may also reference
  /// (innermost last), as outer references.
  std::vector<PlanPtr> outer_scopes_;
  /// While a lambda body resolves: the variables of the lambdas around it.
  LambdaScopes lambda_scopes_;
  /// While a join condition resolves: the scope node whose two inputs df["col"] references
  /// search (Spark resolves a condition by the join's children).
  const PlanNode* join_condition_scope_ = nullptr;
  /// While an operator resolves: the metadata columns (plan/metadata_columns.h) its references
  /// resolved to, each with the input node it was found below, which resolve_here then widens.
  std::vector<std::pair<const PlanNode*, ExprPtr>> metadata_needed_;
  /// A metadata column reachable from `child` that `parts` names (by_name: as a plain name;
  /// otherwise df.metadataColumn's reference below the DataFrame `plan_id`), recorded as needed.
  std::optional<std::pair<ExprPtr, size_t>> match_metadata(const std::vector<std::string>& parts,
                                                           const PlanPtr& child, int64_t plan_id,
                                                           bool by_name);
};

PlanPtr Analyzer::resolve(const PlanPtr& p) {
  if (p->resolved) return p;
  if (p->origin.known()) {
    try {
      return resolve_here(p);
    } catch (SparkError& err) {
      err.locate(p->origin);
      throw;
    }
  }
  return resolve_here(p);
}

PlanPtr Analyzer::resolve_here(const PlanPtr& p) {
  std::vector<PlanPtr> children;
  if (p->inline_table && is_values_union(*p)) {
    PlanPtr r = evaluate_inline_table(resolve_inline_rows(p), session_.config());
    auto* m = const_cast<PlanNode*>(r.get());
    m->resolved = true;
    if (m->plan_id < 0) m->plan_id = p->plan_id;
    return r;
  }
  if (p->kind == PlanKind::kJoin && p->lateral) {
    // LATERAL: the right side is resolved with the left side as its outer scope.
    children.push_back(resolve(p->children[0]));
    children.push_back(resolve_with_outer_scope(p->children[1], children[0]));
  } else {
    for (auto& c : p->children) children.push_back(resolve(c));
  }
  // References to hidden metadata columns are collected per operator (nested operators, such as
  // subqueries' plans, keep their own).
  std::vector<std::pair<const PlanNode*, ExprPtr>> outer_needed = std::move(metadata_needed_);
  metadata_needed_.clear();
  PlanPtr r;
  try {
    r = resolve_node(p, children);
  } catch (...) {
    metadata_needed_ = std::move(outer_needed);
    throw;
  }
  std::vector<std::pair<const PlanNode*, ExprPtr>> needed = std::move(metadata_needed_);
  metadata_needed_ = std::move(outer_needed);
  if (p->inline_table) r = evaluate_inline_table(r, session_.config());
  auto* m = const_cast<PlanNode*>(r.get());
  m->resolved = true;
  if (m->plan_id < 0) m->plan_id = p->plan_id;
  if (!needed.empty()) {
    PlanPtr widened = with_needed_metadata(r, needed);
    if (!widened) {
      const ExprPtr& a = needed.front().second;
      unresolved_column({a->name}, children.empty() ? r : children[0]);
    }
    r = widened;
  }
  return r;
}

std::optional<std::pair<ExprPtr, size_t>> Analyzer::match_metadata(
    const std::vector<std::string>& parts, const PlanPtr& child, int64_t plan_id, bool by_name) {
  const std::vector<ExprPtr> reachable = metadata_output(child);
  std::optional<std::pair<ExprPtr, size_t>> found;
  if (plan_id < 0) {
    found = match_name(parts, metadata_output(child));
  } else {
    // The metadata columns of the DataFrame's own node, which must reach the operator.
    std::function<PlanPtr(const PlanPtr&)> frame = [&](const PlanPtr& n) -> PlanPtr {
      if (n->plan_id == plan_id) return n;
      for (const auto& c : n->children)
        if (PlanPtr f = frame(c)) return f;
      return nullptr;
    };
    PlanPtr node = frame(child);
    if (!node) return std::nullopt;
    std::vector<ExprPtr> own = metadata_output(node);
    // A read the query already widened outputs its metadata column.
    if (!by_name && node->kind == PlanKind::kRead)
      for (const auto& a : node->exprs)
        for (const auto& o : node->output)
          if (o->expr_id == a->expr_id) own.push_back(o);
    if (by_name) {
      found = match_name(parts, own);
    } else if (parts.size() == 1) {
      // df.metadataColumn(name) names the column by its own name, even where a data column took
      // it and the metadata column goes by another.
      for (const auto& a : own)
        if (parts[0] == io::kFileMetadataColumn) found = std::make_pair(a, size_t{1});
    }
    if (found) {
      for (const auto& o : child->output)
        if (o->expr_id == found->first->expr_id) return std::make_pair(o, found->second);
      bool reaches = false;
      for (const auto& a : reachable) reaches |= a->expr_id == found->first->expr_id;
      if (!reaches) found.reset();
    }
  }
  if (!found) return std::nullopt;
  for (const auto& a : reachable)
    if (a->expr_id == found->first->expr_id) found->first = a;  // as the operator's input shows it
  metadata_needed_.emplace_back(child.get(), found->first);
  return found;
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
  // A generator's columns are named by the generator (col, pos, key ...), not by its text.
  if (resolved->kind == ExprKind::kAttribute || resolved->kind == ExprKind::kAlias ||
      resolved->kind == ExprKind::kGenerator)
    return resolved;
  // A cast of a named column keeps the column's name (Spark's ResolveAliases); inside other
  // expressions the cast shows.
  if (resolved->kind == ExprKind::kCast && !resolved->implicit &&
      (resolved->children[0]->kind == ExprKind::kAttribute || resolved->children[0]->kind == ExprKind::kAlias))
    return alias(resolved, resolved->children[0]->name);
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
  if (!star->name.empty()) {
    // df.colRegex: the input's columns (of the named relation) whose whole name the regex
    // matches, regardless of case unless spark.sql.caseSensitive.
    functions::JavaRegex regex("colRegex");
    const std::string pattern = case_sensitive_ ? star->name : "(?i)" + star->name;
    std::vector<ExprPtr> out;
    for (auto& a : child->output) {
      if (!star->name_parts.empty() &&
          (a->qualifier.empty() || !name_eq(a->qualifier.back(), star->name_parts[0])))
        continue;
      if (regex.matches(pattern, a->name)) out.push_back(a);
    }
    return out;
  }
  std::vector<ExprPtr> attrs = child->output;
  if (star->plan_id >= 0) {
    const PlanPtr& scope = frame_scope_.first == child.get() ? frame_scope_.second : child;
    std::vector<ExprPtr> keep;
    for (auto& a : expand_star_by_plan_id(plan_id_roots(scope), star->plan_id, "unresolveddataframestar()"))
      for (auto& o : scope->output)
        if (o->expr_id == a->expr_id) {
          keep.push_back(o);
          break;
        }
    attrs = keep;
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

void Analyzer::unresolved_column(const std::vector<std::string>& parts, const PlanPtr& child) {
  std::string name = join_parts(parts, false);
  std::vector<std::pair<size_t, std::string>> cands;
  for (auto& a : child->output) {
    std::string full = a->qualifier.empty() ? a->name : join_parts(a->qualifier, false) + "." + a->name;
    std::string shown = a->qualifier.empty() ? quote_id(a->name) : join_parts(a->qualifier, true) + "." + quote_id(a->name);
    cands.emplace_back(std::min(edit_distance(ascii_lower(name), ascii_lower(a->name)), edit_distance(ascii_lower(name), ascii_lower(full))), shown);
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

std::optional<std::pair<ExprPtr, size_t>> Analyzer::match_name(const std::vector<std::string>& parts,
                                                             const std::vector<ExprPtr>& attrs) const {
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
  if (matches.empty()) return std::nullopt;
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
  return matches[0];
}

std::vector<PlanPtr> Analyzer::plan_id_roots(const PlanPtr& child) const {
  // A join condition is resolved by the join's two inputs, not by the join itself.
  if (child.get() == join_condition_scope_) return child->children;
  return {child};
}

ExprPtr Analyzer::resolve_attribute(const ExprPtr& e, const PlanPtr& child) {
  const auto& parts = e->name_parts;
  if (!lambda_scopes_.empty() && e->plan_id < 0)
    if (ExprPtr v = resolve_lambda_variable(parts)) return v;
  std::optional<std::pair<ExprPtr, size_t>> found;
  if (is_metadata_column_reference(*e)) {
    // df.metadataColumn(name): only a metadata column of the DataFrame (one the operator's input
    // already outputs, or a hidden one below it).
    const std::string shown = sql_name(parts);
    found = match_metadata(parts, child, e->plan_id, false);
    if (!found) throw_cannot_resolve_dataframe_column(shown);
    return found->first;
  }
  if (e->plan_id >= 0) {
    std::string shown = sql_name(parts);
    auto by_plan_id = [&](const PlanPtr& scope) {
      return resolve_by_plan_id(
          plan_id_roots(scope), e->plan_id,
          [&](const std::vector<ExprPtr>& output) { return match_name(parts, output); }, shown);
    };
    PlanIdResult r = by_plan_id(child);
    // A column the select's child dropped may come back in the child widened for it (a USING
    // join's hidden key); the widened child is searched only then, as its added columns would
    // make other names ambiguous.
    if (r.plan_found && !r.match && frame_scope_.first == child.get())
      r = by_plan_id(frame_scope_.second);
    if (!r.plan_found) throw_cannot_resolve_dataframe_column(shown);
    found = r.match;
    // df["_metadata"]: a name of no column of the DataFrame may be one of its metadata columns.
    if (!found) found = match_metadata(parts, child, e->plan_id, true);
    if (!found) {
      // The column is not at its DataFrame's node or does not reach the operator: shadowed by a
      // later column of the same name, renamed, aggregated away. Strict resolution (Spark's
      // default) stops here; otherwise Spark resolves the name against the operator's input,
      // and a name that does not resolve there either is still reported as a DataFrame column.
      if (strict_dataframe_columns_) {
        if (r.error) throw *r.error;
        throw_cannot_resolve_dataframe_column(shown);
      }
      found = match_name(parts, child->output);
      if (!found) throw_cannot_resolve_dataframe_column(shown);
    }
  } else {
    found = match_name(parts, child->output);
    if (!found) found = match_metadata(parts, child, -1, true);
    if (!found && !outer_scopes_.empty())
      if (ExprPtr outer = resolve_outer_reference(e)) return outer;
    if (!found) unresolved_column(parts, child);
  }
  ExprPtr out = found->first;
  // The operator's input may mark the attribute nullable (an outer join's side).
  const PlanPtr& input = frame_scope_.first == child.get() ? frame_scope_.second : child;
  for (auto& a : input->output)
    if (a->expr_id == out->expr_id) out = a;
  // A column matched regardless of case takes the name as written (`SELECT A` of a column `a`
  // outputs `A`), as in Spark.
  if (out->kind == ExprKind::kAttribute && found->second >= 1 &&
      out->name != parts[found->second - 1]) {
    auto renamed = std::make_shared<Expr>(*out);
    renamed->name = parts[found->second - 1];
    out = renamed;
  }
  for (size_t i = found->second; i < parts.size(); ++i) out = extract_field(out, parts[i]);
  return out;
}

/// Column.withField(path, value) / dropFields(path): the struct rebuilt field by field
/// (named_struct), a null struct staying null; nested paths rebuild each level. As in Spark,
/// withField replaces every field of that name or appends one, dropFields removes every field
/// of that name, and a struct cannot lose all its fields.
ExprPtr Analyzer::resolve_update_fields(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  // Chained calls (withField(...).withField(...), dropFields(a, b)) apply in order to one
  // struct, as Spark merges them into one update_fields.
  std::vector<ExprPtr> ops;
  ExprPtr inner = e;
  while (inner->kind == ExprKind::kUnresolvedFunction && inner->implicit && inner->name == "update_fields") {
    ops.insert(ops.begin(), inner);
    inner = inner->children[0];
  }
  ExprPtr base = resolve_expr(inner, child, allow_agg);
  std::vector<std::pair<std::vector<std::string>, ExprPtr>> steps;
  for (auto& op : ops)
    steps.emplace_back(parse_attribute_name(op->children[1]->value.as_bytes()),
                       op->children.size() > 2 ? resolve_expr(op->children[2], child, allow_agg) : nullptr);
  // Spark's name: one update_fields per level of a path, WithField(...) naming the value or
  // the next level, dropfield() a drop.
  std::function<std::string(const std::string&, const std::vector<std::string>&, size_t, const ExprPtr&)> op_name =
      [&](const std::string& at, const std::vector<std::string>& path, size_t depth, const ExprPtr& value) {
        if (depth + 1 < path.size())
          return "WithField(update_fields(" + at + "." + path[depth] + ", " +
                 op_name(at + "." + path[depth], path, depth + 1, value) + "))";
        return value ? "WithField(" + value->to_string() + ")" : std::string("dropfield()");
      };
  // A nested step reads its level from the struct as updated by the steps before it.
  std::string ops_shown;
  for (auto& [path, value] : steps) {
    std::string at = ops_shown.empty() ? base->to_string() : "update_fields(" + base->to_string() + ops_shown + ")";
    ops_shown += ", " + op_name(at, path, 0, value);
  }
  std::string shown = "update_fields(" + base->to_string() + ops_shown + ")";
  if (base->type->id() != TypeId::kStruct)
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                     "Cannot resolve \"" + shown + "\" due to data type mismatch: The first parameter requires the "
                         "\"STRUCT\" type, however \"" + base->to_string() + "\" has the type \"" + base->type->sql() + "\".",
                     {{"sqlExpr", "\"" + shown + "\""}, {"paramIndex", "first"}, {"requiredType", "\"STRUCT\""},
                      {"inputSql", "\"" + base->to_string() + "\""}, {"inputType", "\"" + base->type->sql() + "\""}});
  std::vector<std::pair<std::string, ExprPtr>> fields = struct_fields(base);
  for (auto& [path, value] : steps) apply_field_op(fields, path, 0, value);
  ExprPtr out = build_struct(base, fields);
  auto named = std::make_shared<Expr>(*out);
  named->display = shown;
  return named;
}

std::vector<std::pair<std::string, ExprPtr>> Analyzer::struct_fields(const ExprPtr& base) {
  std::vector<std::pair<std::string, ExprPtr>> out;
  const auto& fields = base->type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    auto get = std::make_shared<Expr>();
    get->kind = ExprKind::kGetField;
    get->name = fields[i].name;
    get->ordinal = static_cast<int>(i);
    get->type = fields[i].type;
    get->nullable = base->nullable || fields[i].nullable;
    get->children = {base};
    out.emplace_back(fields[i].name, get);
  }
  return out;
}

ExprPtr Analyzer::build_struct(const ExprPtr& base, const std::vector<std::pair<std::string, ExprPtr>>& fields) {
  if (fields.empty())
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.CANNOT_DROP_ALL_FIELDS",
                     "Cannot resolve \"update_fields\" due to data type mismatch: Cannot drop all fields in struct.",
                     {{"sqlExpr", "\"update_fields\""}});
  std::vector<ExprPtr> args;
  for (auto& [n, v] : fields) {
    args.push_back(lit(Value::bytes(n), DataType::string()));
    args.push_back(v);
  }
  ExprPtr made = resolve_function(call("named_struct", {}), std::move(args), false);
  if (!base->nullable) return made;
  ExprPtr is_null = resolve_function(call("isnull", {}), {base}, false);
  return resolve_function(call("if", {}), {is_null, lit(Value(), made->type), made}, false);
}

void Analyzer::apply_field_op(std::vector<std::pair<std::string, ExprPtr>>& fields, const std::vector<std::string>& path,
                              size_t depth, const ExprPtr& value) {
  const std::string& name = path[depth];
  const bool last = depth + 1 == path.size();
  std::vector<std::pair<std::string, ExprPtr>> out;
  bool found = false;
  for (auto& [n, expr] : fields) {
    if (!name_eq(n, name)) {
      out.emplace_back(n, expr);
      continue;
    }
    found = true;
    if (last) {
      if (value) out.emplace_back(name, value);
      continue;
    }
    if (expr->type->id() != TypeId::kStruct)
      throw SparkError(ErrorKind::kAnalysis, "FIELD_NOT_FOUND",
                       "No such struct field " + quote_id(path[depth + 1]) + " in .",
                       {{"fieldName", quote_id(path[depth + 1])}, {"fields", ""}});
    auto nested = struct_fields(expr);
    apply_field_op(nested, path, depth + 1, value);
    out.emplace_back(n, build_struct(expr, nested));
  }
  if (!found) {
    if (last && value) {
      out.emplace_back(name, value);
    } else if (!last) {
      std::string names;
      for (size_t i = 0; i < fields.size(); ++i) names += (i ? ", " : "") + quote_id(fields[i].first);
      throw SparkError(ErrorKind::kAnalysis, "FIELD_NOT_FOUND",
                       "No such struct field " + quote_id(name) + " in " + names + ".",
                       {{"fieldName", quote_id(name)}, {"fields", names}});
    }
  }
  fields = std::move(out);
}

ExprPtr Analyzer::implicit_cast(const ExprPtr& e, const TypePtr& to) {
  if (e->type->equals(*to)) return e;
  if (e->kind == ExprKind::kLiteral && e->value.is_null()) return lit(Value(), to);
  // A string literal read in another collation is that collation's literal.
  if (e->kind == ExprKind::kLiteral && e->type->id() == TypeId::kString && to->id() == TypeId::kString)
    return lit(e->value, to);
  auto c = cast(e, to);
  auto* m = const_cast<Expr*>(c.get());
  m->implicit = true;
  m->nullable = e->nullable || (e->type->id() == TypeId::kString && !to->is_string_like()) ||
                functions::cast_forces_null(*e->type, *to);
  return c;
}

ExprPtr Analyzer::resolve_python_call(const ExprPtr& fn, const std::vector<ExprPtr>& raw_args, const PlanPtr& child,
                                      bool allow_agg) {
  std::vector<ExprPtr> args;
  std::vector<std::string> names;
  bool any_named = false;
  for (auto& a : raw_args) {
    const bool named = a->kind == ExprKind::kNamedArgument;
    args.push_back(resolve_expr(named ? a->children[0] : a, child, allow_agg));
    if (args.back()->kind == ExprKind::kGenerator) throw_generator_nested(fn->to_string());
    names.push_back(named ? a->name : "");
    any_named |= named;
  }
  if (!any_named) return with_children(fn, std::move(args));
  // Keyword arguments: the worker passes them by name (the function's own rules apply there).
  auto py = std::make_shared<exec::PythonFunction>(*fn->python);
  py->arg_names = std::move(names);
  auto call = std::make_shared<Expr>(*with_children(fn, std::move(args)));
  call->python = std::move(py);
  return call;
}

ExprPtr Analyzer::resolve_table_function_call(const ExprPtr& function, const std::vector<ExprPtr>& raw_args,
                                              const PlanPtr& child, bool allow_agg) {
  std::vector<ExprPtr> args;
  std::vector<std::string> names;
  for (auto& a : raw_args) {
    const bool named = a->kind == ExprKind::kNamedArgument;
    args.push_back(resolve_expr(named ? a->children[0] : a, child, allow_agg));
    names.push_back(named ? a->name : "");
  }
  return resolve_python_table_function(function, std::move(args), names, session_.config());
}

ExprPtr Analyzer::resolve_function(const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg) {
  std::string name = ascii_lower(e->name);
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
      TypePtr w = functions::wider_common_type(t, args[i]->type, session_.config().ansi_enabled());
      if (!w) {
        // Spark lists the branch types as CaseWhen and If do, or as coalesce does.
        const bool listed = is_case || name == "if";
        std::string types;
        for (size_t k : value_idx)
          types += std::string(types.empty() ? "" : (listed ? ", " : " or ")) + "\"" + args[k]->type->sql() + "\"";
        const std::string shown = is_case ? "casewhen" : name == "if" ? "if" : "coalesce";
        functions::throw_type_mismatch(
            "DATA_DIFF_TYPES",
            "Input to `" + shown + "` should all be the same type, but it's " + (listed ? "[" : "(") + types +
                (listed ? "]" : ")") + ".",
            name);
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
    // a IN (b, c) ≡ (a = b) OR (a = c), with the same null semantics; named as written.
    ExprPtr acc;
    std::string shown;
    for (size_t i = 1; i < args.size(); ++i) shown += (i > 1 ? ", " : "") + args[i]->to_string();
    const std::string value_shown = args[0]->to_string();
    // The value and the list meet at their common type first, as Spark's InConversion casts
    // them (a string among numbers: BIGINT or DOUBLE in ANSI mode, STRING otherwise).
    TypePtr common = DataType::null();
    for (const ExprPtr& a : args)
      if (common) common = functions::wider_common_type(common, a->type, session_.config().ansi_enabled());
    // Strings among strings keep their own types (and collations) for `=` to reconcile.
    bool all_strings = true;
    for (const ExprPtr& a : args)
      all_strings &= a->type->id() == TypeId::kString || a->type->id() == TypeId::kNull;
    if (common && common->id() != TypeId::kNull && !all_strings)
      for (ExprPtr& a : args) a = implicit_cast(a, common);
    for (size_t i = 1; i < args.size(); ++i) {
      ExprPtr eq = resolve_function(call("==", {}), {args[0], args[i]}, false);
      acc = acc ? resolve_function(call("or", {}), {acc, eq}, false) : eq;
    }
    if (!acc) return lit(Value::boolean(false), DataType::boolean());
    auto named = std::make_shared<Expr>(*acc);
    named->display = "(" + value_shown + " IN (" + shown + "))";
    return named;
  }
  if ((name == "current_database" || name == "current_schema" || name == "current_catalog") && args.empty()) {
    // The session's current namespace, fixed when the query is analyzed; Spark names the
    // database form current_schema() whichever name is called.
    bool catalog = name == "current_catalog";
    auto out = std::make_shared<Expr>(
        *lit(Value::bytes(catalog ? "spark_catalog" : session_.current_database()), DataType::string()));
    out->display = catalog ? "current_catalog()" : "current_schema()";
    return out;
  }
  if ((name == "extract" || name == "date_part" || name == "datepart") && args.size() == 2 &&
      args[0]->kind == ExprKind::kLiteral && args[0]->type->id() == TypeId::kString && !args[0]->value.is_null()) {
    // EXTRACT(field FROM e) / date_part('field', e) / datepart('field', e): the field's
    // function, named as Spark shows each form.
    const std::string& written = args[0]->value.as_bytes();
    const std::string shown = name == "date_part" ? "date_part(" + written + ", " + args[1]->to_string() + ")"
                                                  : name + "(" + written + " FROM " + args[1]->to_string() + ")";
    static const std::map<std::string, std::string> kFields = {
        {"YEAR", "year"},       {"Y", "year"},           {"YEARS", "year"},      {"YR", "year"},
        {"YRS", "year"},        {"QUARTER", "quarter"},  {"QTR", "quarter"},     {"MONTH", "month"},
        {"MON", "month"},       {"MONS", "month"},       {"MONTHS", "month"},    {"WEEK", "weekofyear"},
        {"W", "weekofyear"},    {"WEEKS", "weekofyear"}, {"DAY", "day"},         {"D", "day"},
        {"DAYS", "day"},        {"DAYOFWEEK", "dayofweek"}, {"DOW", "dayofweek"}, {"DOY", "dayofyear"},
        {"HOUR", "hour"},       {"H", "hour"},           {"HOURS", "hour"},      {"HR", "hour"},
        {"HRS", "hour"},        {"MINUTE", "minute"},    {"M", "minute"},        {"MIN", "minute"},
        {"MINS", "minute"},     {"MINUTES", "minute"}};
    std::string upper;
    for (char c : written) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto it = kFields.find(upper);
    static const std::set<std::string> kSecondNames = {"SECOND", "S", "SEC", "SECONDS", "SECS"};
    static const std::set<std::string> kIsoDayNames = {"DAYOFWEEK_ISO", "DOW_ISO"};
    if (kSecondNames.count(upper) || kIsoDayNames.count(upper)) {
      ExprPtr out;
      if (kIsoDayNames.count(upper)) {
        // Monday = 1 ... Sunday = 7.
        out = resolve_function(call("+", {}), {resolve_function(call("weekday", {}), {args[1]}, false),
                                               lit(Value::integer(1), DataType::int_())}, false);
      } else {
        // The seconds of the minute with their fraction, as DECIMAL(8,6): the whole seconds plus
        // the microseconds of the instant (zone offsets are whole seconds).
        ExprPtr ts = args[1]->type->id() == TypeId::kTimestamp ? args[1] : cast(args[1], DataType::timestamp());
        ExprPtr whole = resolve_function(call("second", {}), {args[1]}, false);
        ExprPtr micros = resolve_function(
            call("pmod", {}), {resolve_function(call("unix_micros", {}), {ts}, false),
                               lit(Value::integer(1000000), DataType::long_())}, false);
        ExprPtr fraction = resolve_function(
            call("/", {}), {cast(micros, DataType::decimal(20, 6)), lit(Value::decimal(1000000), DataType::decimal(7, 0))},
            false);
        out = cast(resolve_function(call("+", {}), {cast(whole, DataType::decimal(8, 6)), fraction}, false),
                   DataType::decimal(8, 6));
        // Seconds below 60 always fit DECIMAL(8,6): null only for a null source.
        auto exact = std::make_shared<Expr>(*out);
        exact->nullable = args[1]->nullable;
        out = exact;
      }
      auto named = std::make_shared<Expr>(*out);
      named->display = shown;
      return named;
    }
    if (it == kFields.end()) {
      throw SparkError(ErrorKind::kAnalysis, "INVALID_EXTRACT_FIELD",
                       "Cannot extract " + quote_id(written) + " from " + args[1]->to_string() + ".",
                       {{"field", quote_id(written)}, {"expr", args[1]->to_string()}});
    }
    auto out = std::make_shared<Expr>(*resolve_function(call(it->second, {}), {args[1]}, false));
    out->display = shown;
    return out;
  }
  if (name == "assert_true" && args.size() == 1) {
    // Spark's message for a failed assertion without one: the condition's text.
    args.push_back(lit(Value::bytes("'" + args[0]->to_string() + "' is not true!"), DataType::string()));
  }
  if (name == "between" && args.size() == 3) {
    // a BETWEEN lo AND hi ≡ a >= lo AND a <= hi.
    ExprPtr ge = resolve_function(call(">=", {}), {args[0], args[1]}, false);
    ExprPtr le = resolve_function(call("<=", {}), {args[0], args[2]}, false);
    auto named = std::make_shared<Expr>(*resolve_function(call("and", {}), {ge, le}, false));
    named->display = "between(" + args[0]->to_string() + ", " + args[1]->to_string() + ", " + args[2]->to_string() + ")";
    return named;
  }
  if (name == "struct") {
    auto out = std::make_shared<Expr>(
        *resolve_function(call("named_struct", {}), struct_to_named_struct_args(e->children, args), false));
    out->display = struct_display(args);
    out->name = "struct";
    return out;
  }
  if (name == "count" && args.size() == 1 && args[0]->kind == ExprKind::kUnresolvedStar) {
    args[0] = lit(Value::integer(1), DataType::int_());
  }
  if ((name == "+" || name == "-" || name == "*" || name == "/") && args.size() == 2) {
    DatetimeArithmeticBinder binder{
        [this](const std::string& fn, std::vector<ExprPtr> a) { return resolve_function(call(fn, {}), std::move(a), false); },
        [this](const FunctionDef* d, std::vector<ExprPtr> a) { return bind_call(d, call(d->name, {}), std::move(a), false); },
        [this](ExprPtr x, TypePtr t) { return implicit_cast(std::move(x), std::move(t)); }};
    if (ExprPtr rewritten = rewrite_datetime_arithmetic(name, args, binder)) return rewritten;
  }
  if ((name == "to_char" || name == "to_varchar") && args.size() == 2) {
    // to_char of a datetime is date_format; of binary, base64 / hex / decode by the format
    // (Spark names the column after the function it becomes).
    const TypeId t = args[0]->type->id();
    if (t == TypeId::kDate || t == TypeId::kTimestamp || t == TypeId::kTimestampNtz || t == TypeId::kTime)
      return resolve_function(call("date_format", {}), args, false);
    if (t == TypeId::kBinary && args[1]->kind == ExprKind::kLiteral && !args[1]->value.is_null() &&
        args[1]->type->id() == TypeId::kString) {
      const std::string& fmt = args[1]->value.as_bytes();
      const std::string lowered = ascii_lower(fmt);
      if (lowered == "base64") return resolve_function(call("base64", {}), {args[0]}, false);
      if (lowered == "hex") return resolve_function(call("hex", {}), {args[0]}, false);
      if (lowered == "utf-8") return resolve_function(call("decode", {}), args, false);
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.BINARY_FORMAT",
                       "The value of parameter(s) `format` in `to_char` is invalid: expects one of binary formats "
                       "'base64', 'hex', 'utf-8', but got '" + fmt + "'.",
                       {{"parameter", "`format`"}, {"functionName", "`to_char`"}, {"invalidFormat", "'" + fmt + "'"}},
                       "22023");
    }
  }
  // SQL's unary minus reaches here as a one-argument "-": it is negative(), shown as `(- a)`.
  // A call the planner built may name an internal function directly (DataFrame.freqItems).
  const FunctionDef* def =
      e->function ? e->function : Registry::instance().find(name == "-" && args.size() == 1 ? "negative" : name);
  if (!def && args.size() == 1) {
    // int(x), double(x), string(x) ...: Spark's cast aliases, casts as CAST(x AS type) is.
    static const std::map<std::string, TypePtr> kCastAliases = {
        {"boolean", DataType::boolean()}, {"tinyint", DataType::byte()},  {"smallint", DataType::short_()},
        {"int", DataType::int_()},        {"bigint", DataType::long_()},  {"float", DataType::float_()},
        {"double", DataType::double_()},  {"decimal", DataType::decimal(10, 0)},
        {"string", DataType::string()},   {"binary", DataType::binary()}, {"date", DataType::date()},
        {"timestamp", DataType::timestamp()}, {"time", DataType::time()}};
    auto it = kCastAliases.find(name);
    if (it != kCastAliases.end()) {
      // Named by its operand alone, as Spark names casts the user did not write as CAST.
      auto c = std::make_shared<Expr>(*checked_cast(cast(args[0], it->second), args[0]));
      c->implicit = true;
      return c;
    }
  }
  if (!def && is_window_function_name(name)) {
    // A window function (not also an aggregate) called without OVER.
    std::string shown = resolve_window_function(name, std::move(args), e->ignore_nulls)->to_string();
    throw SparkError(ErrorKind::kAnalysis, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE",
                     "Window function \"" + shown + "\" requires an OVER clause.", {{"funcName", "\"" + shown + "\""}},
                     "42601");
  }
  return bind_call(def, e, std::move(args), allow_agg);
}

bool Analyzer::function_exists(const ExprPtr& e) const {
  if (e->function) return true;
  const std::string name = ascii_lower(e->name);
  // The forms resolve_function builds itself, whatever the registry says of them.
  static const std::set<std::string> kForms = {"when",    "casewhen", "if",          "coalesce",   "nvl",
                                               "ifnull",  "in",       "between",     "struct",     "extract",
                                               "date_part", "datepart", "to_char",   "to_varchar", "assert_true",
                                               "current_database", "current_schema", "current_catalog"};
  return kForms.count(name) || Registry::instance().find_internal(name) != nullptr || is_window_function_name(name) ||
         is_generator_name(name) || session_.lookup_function(e->name) != nullptr;
}

ExprPtr Analyzer::bind_call(const FunctionDef* def, const ExprPtr& e, std::vector<ExprPtr> args, bool allow_agg) {
  if (!def) functions::throw_unresolved_routine(e->name);
  int nargs = static_cast<int>(args.size());
  if (nargs < def->min_args || (def->max_args >= 0 && nargs > def->max_args)) {
    // Spark words a variadic function's minimum as a bound (greatest: `> 1`).
    std::string expected = def->min_args == def->max_args ? std::to_string(def->min_args)
                           : def->max_args < 0 && def->min_args > 0
                               ? "> " + std::to_string(def->min_args - 1)
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
  // Spark promotes an integral literal beside a decimal in a binary operator to the narrowest
  // decimal that holds it (DECIMAL(digits, 0)), which decides the result's precision and scale.
  static const std::set<std::string> kDecimalLiteralOperators = {
      "+", "-", "*", "/", "%", "pmod", "div", "==", "<", "<=", ">", ">=", "<=>",
      "try_add", "try_subtract", "try_multiply", "try_divide", "try_mod"};
  if (args.size() == 2 && kDecimalLiteralOperators.count(def->name)) {
    for (size_t i = 0; i < 2; ++i) {
      const ExprPtr& l = args[i];
      if (args[1 - i]->type->id() != TypeId::kDecimal || l->kind != ExprKind::kLiteral || !l->type->is_integral() ||
          l->value.is_null())
        continue;
      int64_t v = l->value.as_int();
      int digits = 1;
      for (uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); m >= 10; m /= 10) ++digits;
      args[i] = implicit_cast(l, DataType::decimal(digits, 0));
    }
  }
  for (int k : def->constant_args)
    if (static_cast<size_t>(k) < args.size()) args[static_cast<size_t>(k)] = fold_constant(args[static_cast<size_t>(k)], session_.config());
  auto n = std::make_shared<Expr>();
  n->kind = is_agg ? ExprKind::kAggregate : ExprKind::kCall;
  n->function = def;
  // Remember the name the caller used when it is a word (negative, mean) rather than the
  // operator symbol; names of result columns follow it.
  std::string called = ascii_lower(e->name);
  n->name = (!called.empty() && std::isalpha(static_cast<unsigned char>(called[0])) &&
             def->display != functions::Display::kCall && called != def->name)
                ? called
                : (def->display == functions::Display::kCall ? called : "");
  if (def->display == functions::Display::kCall && called == def->name) n->name = def->name;
  n->distinct = e->distinct;
  // Type errors name the call and its arguments by their SQL text, as Spark does.
  functions::CallText call_text;
  call_text.name = def->name;
  n->children = args;
  call_text.call = n->to_string();
  for (auto& a : args) {
    call_text.args.push_back(a->to_string());
    call_text.types_sql.push_back(a->type ? a->type->sql() : "");
    call_text.literal.push_back(a->kind == ExprKind::kLiteral);
  }
  functions::Signature sig;
  // Strings are read in the call's collation before its type rule sees them.
  const int collation = call_collation(*def, args, call_text.call);
  if (collation >= 0)
    for (auto& a : args)
      if (a->type && a->type->id() == TypeId::kString) a = implicit_cast(a, DataType::string(collation));
  {
    functions::CallTextScope scope(&call_text);
    sig = call_signature(*def, args, session_.config());
  }
  apply_call_collation(*def, collation, args, sig);
  for (size_t i = 0; i < args.size() && i < sig.arg_types.size(); ++i) args[i] = implicit_cast(args[i], sig.arg_types[i]);
  n->type = sig.result_type;
  bool any_nullable = false, all_nullable = !args.empty();
  for (auto& a : args) any_nullable |= a->nullable, all_nullable &= a->nullable;
  if (sig.never_null) n->nullable = false;
  else if (!sig.nullable_from.empty()) {
    n->nullable = sig.may_introduce_null;
    for (int k : sig.nullable_from)
      if (static_cast<size_t>(k) < args.size()) n->nullable = n->nullable || args[static_cast<size_t>(k)]->nullable;
  }
  else if (sig.null_if_all_args_null) n->nullable = all_nullable || sig.may_introduce_null;
  else if (is_agg) n->nullable = true;
  else n->nullable = any_nullable || sig.may_introduce_null;
  n->children = std::move(args);
  return n;
}

ExprPtr Analyzer::resolve_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  if (!e->origin.known()) return resolve_expr_here(e, child, allow_agg);
  try {
    return resolve_expr_here(e, child, allow_agg);
  } catch (SparkError& err) {
    err.locate(e->origin);  // the innermost expression written in SQL places the error
    throw;
  }
}

ExprPtr Analyzer::resolve_expr_here(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  switch (e->kind) {
    case ExprKind::kLiteral:
    case ExprKind::kAttribute: return e;
    case ExprKind::kUnresolvedAttribute: return resolve_attribute(e, child);
    case ExprKind::kUnresolvedStar: throw_star_misuse(e, "expression");
    case ExprKind::kUnresolvedFunction: {
      if (named_builtin_call(e)) return resolve_expr(with_positional_arguments(e), child, allow_agg);
      if (e->implicit && e->name == "update_fields") return resolve_update_fields(e, child, allow_agg);
      if (is_higher_order_call(e)) return resolve_higher_order(e, child, allow_agg);
      std::vector<ExprPtr> args;
      if (is_generator_name(ascii_lower(e->name))) {
        if (is_table_only_generator_name(ascii_lower(e->name)) && !in_table_function_call_)
          throw_not_a_scalar_function(e->name);
        if (!in_select_list_) throw_generator_outside_select(e->to_string());
        for (auto& a : e->children) args.push_back(resolve_expr(a, child, allow_agg));
        return resolve_generator(ascii_lower(e->name), std::move(args), e->outer);
      }
      if (ExprPtr registered = session_.lookup_function(e->name)) {
        if (registered->kind == ExprKind::kPythonUdf) return resolve_python_call(registered, e->children, child, allow_agg);
        for (auto& a : e->children) args.push_back(resolve_expr(a, child, allow_agg));
        return with_children(registered, std::move(args));
      }
      // Spark looks a function up before it resolves the arguments (LookupFunctions): a table
      // function among expressions fails as such, whatever its arguments.
      if (session_.lookup_table_function(e->name) ||
          is_fixed_table_function_name(ascii_lower(e->name)))
        throw_not_a_scalar_function(e->name);
      bool agg_fn = false;
      if (const FunctionDef* d = e->function ? e->function : Registry::instance().find(e->name))
        agg_fn = d->kind == functions::FunctionKind::kAggregate;
      if (agg_fn && in_aggregate_)
        throw SparkError(ErrorKind::kAnalysis, "NESTED_AGGREGATE_FUNCTION",
                         "It is not allowed to use an aggregate function in the argument of another aggregate "
                         "function. Please use the inner aggregate function in a sub-query.");
      bool saved = in_aggregate_;
      in_aggregate_ = in_aggregate_ || agg_fn;
      try {
        for (auto& a : e->children) {
          if (counts_rows(a) && ascii_lower(e->name) == "count") args.push_back(a);
          // A star among a function's arguments stands for the columns it names (hash(*)).
          else if (a->kind == ExprKind::kUnresolvedStar && child)
            for (auto& c : expand_star(a, child)) args.push_back(c);
          else args.push_back(resolve_expr(a, child, allow_agg));
        }
      } catch (const SparkError&) {
        in_aggregate_ = saved;
        // A function that does not exist fails before its arguments do (`abs(TABLE(t))` in an
        // expression calls a function named TABLE).
        if (!function_exists(e)) functions::throw_unresolved_routine(e->name);
        throw;
      }
      in_aggregate_ = saved;
      for (auto& a : args)
        if (a->kind == ExprKind::kGenerator) throw_generator_nested(e->to_string());
      ExprPtr resolved;
      const FunctionDef* def = e->order_by.empty() ? nullptr : Registry::instance().find(e->name);
      if (!e->order_by.empty() && def && takes_order_within_group(def->name) && !args.empty() && args.size() <= 2) {
        // listagg(...) WITHIN GROUP (ORDER BY ...): the keys are the aggregate's inputs too.
        std::vector<ExprPtr> keys;
        in_aggregate_ = true;
        for (const ExprPtr& o : e->order_by)
          keys.push_back(sort_order(resolve_expr(o->children[0], child, allow_agg), o->ascending, o->nulls_first));
        in_aggregate_ = saved;
        resolved = bind_call(Registry::instance().find_internal("listagg_ordered"), e,
                             ordered_listagg_args(std::move(args), keys), allow_agg);
        check_within_group_distinct(*resolved);
      } else {
        if (!e->order_by.empty() && def && !takes_order_within_group(def->name))
          throw_within_group_unsupported(ascii_lower(e->name));
        resolved = resolve_function(e, std::move(args), allow_agg);
      }
      if (e->filter) {
        // FILTER (WHERE ...) of an aggregate: a boolean over the aggregate's input rows.
        if (resolved->kind != ExprKind::kAggregate)
          throw SparkError(ErrorKind::kAnalysis, "INVALID_WHERE_CONDITION",
                           "FILTER is only allowed on aggregate functions: " + e->to_string() + ".");
        ExprPtr cond = resolve_expr(e->filter, child, false);
        if (cond->type->id() != TypeId::kBoolean)
          functions::throw_type_mismatch("FILTER_NOT_BOOLEAN", "Filter expression must be boolean.",
                                         cond->to_string());
        auto withf = std::make_shared<Expr>(*resolved);
        withf->filter = cond;
        resolved = withf;
      }
      return resolved;
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
      if (c->kind == ExprKind::kGenerator) throw_generator_nested(e->to_string());
      return checked_cast(e, c);
    }
    case ExprKind::kSortOrder: {
      ExprPtr c = resolve_expr(e->children[0], child, allow_agg);
      return sort_order(c, e->ascending, e->nulls_first);
    }
    case ExprKind::kUnresolvedExtract: {
      ExprPtr base = resolve_expr(e->children[0], child, allow_agg);
      ExprPtr key = resolve_expr(e->children[1], child, allow_agg);
      if (base->kind == ExprKind::kGenerator || key->kind == ExprKind::kGenerator) throw_generator_nested(e->to_string());
      if (base->type->id() == TypeId::kArray || base->type->id() == TypeId::kMap)
        return resolve_function(call(kSubscriptFunction, {}), {base, key}, false);
      if (base->type->id() == TypeId::kStruct && !(key->kind == ExprKind::kLiteral && key->type->id() == TypeId::kString))
        throw SparkError(ErrorKind::kAnalysis, "INVALID_EXTRACT_FIELD_TYPE",
                         "Field name should be a non-null string literal, but it's " + key->to_string() + ".",
                         {{"extraction", key->to_string()}});
      return extract_field(base, key->kind == ExprKind::kLiteral && key->type->id() == TypeId::kString ? key->value.as_bytes() : "");
    }
    case ExprKind::kWindow: return resolve_window_expr(e, child, allow_agg);
    case ExprKind::kSubquery: return resolve_subquery(e, child, allow_agg);
    case ExprKind::kOuterReference: return e;
    case ExprKind::kGenerator: {
      // A Python table function called from the DataFrame API, its arguments unresolved.
      if (!is_python_table_function(e) || e->resolved()) return e;
      if (!in_select_list_) throw_generator_outside_select(e->to_string());
      return resolve_table_function_call(e, e->children, child, allow_agg);
    }
    case ExprKind::kPythonUdf: {
      if (is_python_aggregate(*e) && !allow_agg)
        throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_EXPR_FOR_OPERATOR",
                         "A query operator contains one or more unsupported expressions. Consider to rewrite it to "
                         "avoid window functions, aggregate functions, and generator functions in the WHERE clause.",
                         {{"invalidExprSqls", "\"" + e->to_string() + "\""}});
      return resolve_python_call(e, e->children, child, allow_agg);
    }
    case ExprKind::kNamedArgument:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: named arguments (`" + e->name +
                           " => ...`) of functions other than Python functions.",
                       {}, "0A000");
    case ExprKind::kLambdaVariable: {
      if (e->type) return e;
      if (ExprPtr v = resolve_lambda_variable(e->name_parts.empty() ? std::vector<std::string>{e->name} : e->name_parts))
        return v;
      unresolved_column(e->name_parts.empty() ? std::vector<std::string>{e->name} : e->name_parts, child);
    }
    case ExprKind::kWindowFunction:
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

bool Analyzer::named_builtin_call(const ExprPtr& e) const {
  // Python functions take keyword arguments their own way (resolve_python_call).
  return e->kind == ExprKind::kUnresolvedFunction && has_named_arguments(e->children) &&
         !session_.lookup_function(e->name) && !session_.lookup_table_function(e->name);
}

ExprPtr Analyzer::resolve_lambda_variable(const std::vector<std::string>& parts) {
  ExprPtr v = find_lambda_variable(lambda_scopes_, parts[0], case_sensitive_);
  if (!v) return nullptr;
  for (size_t i = 1; i < parts.size(); ++i) v = extract_field(v, parts[i]);
  return v;
}

ExprPtr Analyzer::resolve_higher_order(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  auto resolve = [&](const ExprPtr& arg, const std::vector<ExprPtr>& params) {
    if (params.empty()) return resolve_expr(arg, child, allow_agg);
    lambda_scopes_.push_back(params);
    try {
      ExprPtr r = resolve_expr(arg, child, allow_agg);
      lambda_scopes_.pop_back();
      return r;
    } catch (...) {
      lambda_scopes_.pop_back();
      throw;
    }
  };
  return resolve_higher_order_call(
      e, resolve, [&](std::vector<ExprPtr> args) { return resolve_function(e, std::move(args), allow_agg); },
      session_.config());
}

ExprPtr Analyzer::resolve_window_expr(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  if (e->type) return e;  // already resolved
  if (in_aggregate_)
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1031",
                     "It is not allowed to use a window function inside an aggregate function. Please use the inner "
                     "window function in a sub-query.");
  const ExprPtr f = named_builtin_call(e->children[0]) ? with_positional_arguments(e->children[0]) : e->children[0];
  ExprPtr fn;
  std::string lname = f->kind == ExprKind::kUnresolvedFunction ? ascii_lower(f->name) : "";
  if (is_generator_name(lname)) throw_generator_nested(e->to_string());
  if (!lname.empty() && is_window_function_name(lname)) {
    std::vector<ExprPtr> args;
    for (auto& a : f->children) args.push_back(resolve_expr(a, child, allow_agg));
    fn = resolve_window_function(lname, std::move(args), f->ignore_nulls);
  } else if (f->kind == ExprKind::kUnresolvedFunction && !f->filter && f->order_by.empty()) {
    // The window's own aggregate: its arguments may hold aggregates when the window runs over
    // a GROUP BY (sum(sum(v)) OVER ...).
    std::vector<ExprPtr> args;
    for (auto& a : f->children) {
      if (counts_rows(a) && lname == "count") args.push_back(a);
      else args.push_back(resolve_expr(a, child, allow_agg));
    }
    fn = resolve_function(f, std::move(args), true);
  } else {
    fn = resolve_expr(f->kind == ExprKind::kUnresolvedAlias ? f->children[0] : f, child, true);
  }
  {
    if (fn->kind == ExprKind::kGenerator) throw_generator_nested(e->to_string());
    if (fn->kind != ExprKind::kAggregate && fn->kind != ExprKind::kWindowFunction && !is_python_aggregate(*fn)) {
      std::string shown = fn->to_string();
      throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_EXPR_FOR_WINDOW",
                       "Expression \"" + shown + "\" not supported within a window function.",
                       {{"sqlExpr", "\"" + shown + "\""}}, "42P20");
    }
  }
  std::vector<ExprPtr> partition, order;
  for (auto& p : e->partition_by) partition.push_back(resolve_expr(p, child, allow_agg));
  for (auto& o : e->order_by) {
    ExprPtr so = o->kind == ExprKind::kSortOrder ? o : sort_order(o, true, true);
    order.push_back(resolve_expr(so, child, allow_agg));
  }
  return resolve_window(std::move(fn), std::move(partition), std::move(order), e->frame);
}

/// A name no attribute of the subquery's own FROM resolves: an attribute of an enclosing
/// query (innermost first), wrapped as an outer reference; null when none has it.
ExprPtr Analyzer::resolve_outer_reference(const ExprPtr& e) {
  std::vector<PlanPtr> scopes;
  scopes.swap(outer_scopes_);
  ExprPtr found;
  int levels = 0;
  for (size_t i = scopes.size(); i-- > 0 && !found;) {
    try {
      levels = static_cast<int>(scopes.size() - i);
      found = resolve_attribute(e, scopes[i]);
    } catch (const SparkError& err) {
      if (err.error_class().rfind("UNRESOLVED_COLUMN", 0) != 0) {
        scopes.swap(outer_scopes_);
        throw;
      }
    }
  }
  scopes.swap(outer_scopes_);
  if (!found) return nullptr;
  return transform_attributes(found, [&](const ExprPtr& a) {
    auto o = std::make_shared<Expr>();
    o->kind = ExprKind::kOuterReference;
    o->ordinal = levels;
    o->type = a->type;
    o->nullable = a->nullable;
    o->children = {a};
    return ExprPtr(o);
  });
}

PlanPtr Analyzer::resolve_with_outer_scope(const PlanPtr& query, const PlanPtr& scope) {
  bool saved_agg = in_aggregate_, saved_select = in_select_list_;
  in_aggregate_ = false;
  in_select_list_ = false;
  outer_scopes_.push_back(scope);
  auto restore = [&] {
    outer_scopes_.pop_back();
    in_aggregate_ = saved_agg;
    in_select_list_ = saved_select;
  };
  PlanPtr resolved;
  try {
    resolved = resolve(query);
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return resolved;
}

/// Resolves a subquery's plan with `child` as its outer scope, then types the expression:
/// a scalar subquery has its one column's type, EXISTS and IN are boolean; IN's values and the
/// subquery's columns are cast pairwise to the type their equality compares in.
ExprPtr Analyzer::resolve_subquery(const ExprPtr& e, const PlanPtr& child, bool allow_agg) {
  if (e->subquery_kind == SubqueryKind::kTableArgument) throw_unsupported_table_argument(e->subquery);
  if (e->subquery->resolved) return e;
  std::vector<ExprPtr> values;
  for (auto& v : e->children) values.push_back(resolve_expr(v, child, allow_agg));
  PlanPtr query = resolve_with_outer_scope(e->subquery, child);
  auto out = std::make_shared<Expr>(*e);
  out->name = outer_reference_names(query);
  switch (e->subquery_kind) {
    case SubqueryKind::kScalar:
      if (query->output.size() != 1) {
        std::string n = std::to_string(query->output.size());
        throw SparkError(ErrorKind::kAnalysis, "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
                         "Invalid subquery: Scalar subquery must return only one column, but got " + n + ".",
                         {{"number", n}}, "42823");
      }
      out->type = query->output[0]->type;
      out->nullable = true;
      break;
    case SubqueryKind::kExists:
      out->type = DataType::boolean();
      out->nullable = false;
      break;
    case SubqueryKind::kIn: {
      out->children = values;
      if (values.size() != query->output.size()) {
        auto list = [](const std::vector<ExprPtr>& xs) {
          std::string s;
          for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + ("\"" + xs[i]->to_string() + "\"");
          return "[" + s + "]";
        };
        std::string shown = "\"" + out->to_string() + "\"";
        throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH",
                         "Cannot resolve " + shown + " due to data type mismatch: The number of columns in the left hand "
                         "side of an IN subquery does not match the number of columns in the output of subquery. Left "
                         "hand side columns(length: " + std::to_string(values.size()) + "): " + list(values) +
                             ", right hand side columns(length: " + std::to_string(query->output.size()) + "): " +
                             list(query->output) + ".",
                         {{"sqlExpr", shown}, {"leftLength", std::to_string(values.size())},
                          {"leftColumns", list(values)}, {"rightLength", std::to_string(query->output.size())},
                          {"rightColumns", list(query->output)}},
                         "42K09");
      }
      std::vector<ExprPtr> casted;
      bool recast = false;
      bool nullable = false;
      for (size_t i = 0; i < values.size(); ++i) {
        ExprPtr eq = resolve_function(call("==", {}), {values[i], query->output[i]}, false);
        out->children[i] = eq->children[0];
        const ExprPtr& q = eq->children[1];
        recast |= q != query->output[i];
        casted.push_back(q == query->output[i] ? q : alias(q, query->output[i]->name));
        nullable |= values[i]->nullable || query->output[i]->nullable;
      }
      if (recast) query = project(query, std::move(casted));
      out->type = DataType::boolean();
      out->nullable = nullable;
      break;
    }
  }
  out->subquery = query;
  return out;
}

namespace {
/// A resolved Aggregate of `child` grouped by `groups`, whose output is `aggregates` (the
/// select list's form).
PlanPtr resolved_aggregate(const PlanPtr& child, std::vector<ExprPtr> groups, std::vector<ExprPtr> aggregates) {
  auto agg = std::make_shared<PlanNode>();
  agg->kind = PlanKind::kAggregate;
  agg->children = {child};
  agg->exprs = std::move(groups);
  agg->aggregates = std::move(aggregates);
  agg->aggregate_output_is_select_list = true;
  for (auto& e : agg->aggregates) agg->output.push_back(to_attribute(e));
  agg->resolved = true;
  return agg;
}
}  // namespace

/// An aggregate whose outputs hold window expressions (`rank() OVER (ORDER BY sum(v))` with a
/// GROUP BY): the Aggregate computes the grouping keys and aggregates the windows read, Window
/// nodes run over its rows, and a projection restores the output list.
PlanPtr Analyzer::aggregate_with_windows(const PlanPtr& p, const std::vector<ExprPtr>& groups, std::vector<ExprPtr> aggs,
                                         const PlanPtr& child) {
  std::set<std::string> keys;
  for (auto& g : groups) keys.insert(semantic_key(g));
  std::vector<ExprPtr> agg_list;
  std::map<std::string, ExprPtr> hidden;
  std::function<ExprPtr(const ExprPtr&, const ExprPtr&)> lift = [&](const ExprPtr& e, const ExprPtr& top) -> ExprPtr {
    if (e->kind == ExprKind::kLiteral) return e;
    std::string k = semantic_key(e);
    if (e->kind != ExprKind::kAlias && (e->kind == ExprKind::kAggregate || keys.count(k))) {
      auto it = hidden.find(k);
      if (it != hidden.end()) return it->second;
      ExprPtr a = alias(e, e->kind == ExprKind::kAttribute ? e->name : e->to_string());
      agg_list.push_back(a);
      return hidden[k] = to_attribute(a);
    }
    if (e->kind == ExprKind::kAttribute) check_aggregate(e, keys, top, !groups.empty());
    if (e->kind == ExprKind::kWindow) {
      auto w = std::make_shared<Expr>(*e);
      const ExprPtr& fn = e->children[0];
      std::vector<ExprPtr> args;
      for (auto& c : fn->children) args.push_back(lift(c, top));
      w->children = {with_children(fn, std::move(args))};
      for (auto& x : w->partition_by) x = lift(x, top);
      for (auto& o : w->order_by) o = sort_order(lift(o->children[0], top), o->ascending, o->nulls_first);
      return w;
    }
    if (e->children.empty()) return e;
    std::vector<ExprPtr> kids;
    for (auto& c : e->children) kids.push_back(lift(c, top));
    return with_children(e, std::move(kids));
  };
  std::vector<ExprPtr> all;
  if (!p->aggregate_output_is_select_list) all = groups;
  for (auto& a : aggs) all.push_back(a);
  std::vector<ExprPtr> out;
  for (auto& a : all) {
    if (contains_window(a)) {
      out.push_back(lift(a, a));
      continue;
    }
    check_aggregate(a->kind == ExprKind::kAlias ? a->children[0] : a, keys, a, !groups.empty());
    agg_list.push_back(a);
    out.push_back(to_attribute(a));
  }
  return project_with_windows(resolved_aggregate(child, groups, agg_list), std::move(out), p->plan_id);
}

/// A select list with a generator over aggregates (`SELECT explode(collect_list(x)) ... GROUP BY
/// k`): the Aggregate computes the generator's arguments as columns `_gen_input_N`, as Spark
/// names them, the Generate runs over its rows, and a projection restores the select list. Only
/// one generator may appear there (UNSUPPORTED_GENERATOR.MULTI_GENERATOR).
PlanPtr Analyzer::aggregate_with_generator(const PlanPtr& p, const std::vector<ExprPtr>& groups,
                                           std::vector<ExprPtr> aggs, const PlanPtr& child) {
  std::vector<ExprPtr> all;
  if (!p->aggregate_output_is_select_list) all = groups;
  for (auto& a : aggs) all.push_back(a);
  std::vector<std::string> found;
  for (auto& a : all)
    if (ExprPtr g = top_level_generator(a)) found.push_back("\"" + g->to_string() + "\"");
  if (found.size() > 1) {
    std::string list;
    for (size_t i = 0; i < found.size(); ++i) list += (i ? ", " : "") + found[i];
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
                     "The generator is not supported: only one generator allowed per SELECT clause but found " +
                         std::to_string(found.size()) + ": " + list + ".",
                     {{"num", std::to_string(found.size())}, {"generators", list}}, "42K0E");
  }
  for (auto& group : groups)
    if (ExprPtr g = top_level_generator(group)) {
      // groupBy(explode(arr)): the generator's input is not grouped (MISSING_AGGREGATION, as in
      // Spark); grouping by a generator is not supported beyond that.
      for (auto& arg : g->children) check_aggregate(arg, {}, arg);
      throw_generator_outside_select("GROUP BY " + g->to_string());
    }
  std::set<std::string> keys;
  for (auto& g : groups) keys.insert(semantic_key(g));
  std::vector<ExprPtr> agg_list, out;
  for (auto& a : all) {
    ExprPtr g = top_level_generator(a);
    if (!g) {
      check_aggregate(a->kind == ExprKind::kAlias ? a->children[0] : a, keys, a, !groups.empty());
      agg_list.push_back(a);
      out.push_back(to_attribute(a));
      continue;
    }
    std::vector<ExprPtr> inputs;
    for (size_t i = 0; i < g->children.size(); ++i) {
      const ExprPtr& arg = g->children[i];
      if (arg->kind == ExprKind::kLiteral) {
        inputs.push_back(arg);
        continue;
      }
      check_aggregate(arg, keys, arg, !groups.empty());
      ExprPtr hidden = alias(arg, "_gen_input_" + std::to_string(i));
      agg_list.push_back(hidden);
      inputs.push_back(to_attribute(hidden));
    }
    ExprPtr over = with_children(g, std::move(inputs));
    out.push_back(a->kind == ExprKind::kAlias ? with_children(a, {over}) : over);
  }
  PlanPtr generated = extract_generators(resolved_aggregate(child, groups, agg_list), out);
  return project_with_windows(generated, std::move(out), p->plan_id);
}

namespace {

bool is_integral_literal(const ExprPtr& e) {
  return e->kind == ExprKind::kLiteral && !e->value.is_null() &&
         (e->type->id() == TypeId::kInt || e->type->id() == TypeId::kShort || e->type->id() == TypeId::kByte);
}

std::string upper_ascii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string hint_value_text(const ExprPtr& e) { return e->value.is_null() && e->kind == ExprKind::kLiteral ? "null" : e->to_string(); }

}  // namespace

/// Spark's hints (ResolveHints): join strategies become a ResolvedHint over the plan; COALESCE,
/// REPARTITION, REPARTITION_BY_RANGE and REBALANCE become the repartitioning they name (the
/// last only with adaptive execution, as in Spark); any other hint is dropped. Parameters are
/// checked as Spark checks them.
PlanPtr Analyzer::resolve_hint(const std::shared_ptr<PlanNode>& n, const PlanPtr& child) {
  const std::string name = upper_ascii(n->names.empty() ? "" : n->names[0]);
  const std::vector<ExprPtr>& params = n->exprs;
  static const std::map<std::string, std::string> kJoinStrategies = {
      {"BROADCAST", "broadcast"},       {"BROADCASTJOIN", "broadcast"}, {"MAPJOIN", "broadcast"},
      {"SHUFFLE_MERGE", "merge"},       {"MERGEJOIN", "merge"},         {"MERGE", "merge"},
      {"SHUFFLE_HASH", "shuffle_hash"}, {"SHUFFLE_REPLICATE_NL", "shuffle_replicate_nl"}};
  if (auto it = kJoinStrategies.find(name); it != kJoinStrategies.end()) {
    for (auto& p : params) {
      const bool name_like = p->kind == ExprKind::kUnresolvedAttribute ||
                             (p->kind == ExprKind::kLiteral && p->type->id() == TypeId::kString && !p->value.is_null());
      if (!name_like)
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1046",
                         "Join strategy hint parameter should be an identifier or string but was \"" +
                             hint_value_text(p) + "\" (class org.apache.spark.sql.catalyst.expressions." +
                             (p->kind == ExprKind::kLiteral ? "Literal" : "Expression") + ").",
                         {{"rawParam", hint_value_text(p)}, {"className", p->kind == ExprKind::kLiteral ? "Literal" : "Expression"}});
    }
    // A hint naming relations applies to the relations of those names below; Ember's plans
    // carry no join strategy of their own, so only an unnamed hint is kept to be shown.
    if (!params.empty()) return child;
    n->exprs.clear();
    n->hint_strategy = it->second;
    n->output = child->output;
    n->resolved = true;
    return n;
  }
  const bool coalesce = name == "COALESCE";
  if (!coalesce && name != "REPARTITION" && name != "REPARTITION_BY_RANGE" && name != "REBALANCE") return child;
  auto r = std::make_shared<PlanNode>();
  r->kind = PlanKind::kRepartition;
  r->children = {child};
  r->plan_id = n->plan_id;
  if (coalesce) {
    if (params.size() != 1 || !is_integral_literal(params[0]))
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1048",
                       name + " Hint expects a partition number as a parameter.", {{"hintName", name}});
    r->num_partitions = static_cast<int>(params[0]->value.as_int());
    r->shuffle = false;
    return resolve_repartition(r, child);
  }
  // An optional partition number first, then columns (names or column expressions).
  size_t first_column = 0;
  if (!params.empty() && is_integral_literal(params[0])) {
    r->num_partitions = static_cast<int>(params[0]->value.as_int());
    if (r->num_partitions <= 0)
      throw SparkError(ErrorKind::kIllegalArgument, "",
                       "requirement failed: Number of partitions (" + std::to_string(r->num_partitions) +
                           ") must be positive.");
    first_column = 1;
  }
  std::string invalid;
  for (size_t i = first_column; i < params.size(); ++i) {
    const ExprPtr& p = params[i];
    if (p->kind == ExprKind::kLiteral) {
      if (p->type->id() == TypeId::kString && !p->value.is_null()) {
        r->exprs.push_back(col(parse_attribute_name(p->value.as_bytes())));
        continue;
      }
      invalid += (invalid.empty() ? "" : ", ") + hint_value_text(p);
      continue;
    }
    r->exprs.push_back(p);
  }
  if (!invalid.empty())
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1047",
                     name + " Hint parameters should include an optional integral partitionNum and/or columns, but \"" +
                         invalid + "\" can not be recognized as either partitionNum or columns.",
                     {{"hintName", name}, {"invalidParams", invalid}});
  if (name == "REBALANCE") {
    if (!session_.config().get_bool("spark.sql.adaptive.enabled", true)) return child;
    r->rebalance = true;
  }
  if (name == "REPARTITION_BY_RANGE") {
    r->by_range = true;
    for (auto& e : r->exprs)
      if (e->kind != ExprKind::kSortOrder) e = sort_order(e, true, true);
  }
  return resolve_repartition(r, child);
}

/// A repartitioning: its expressions resolved against the child, its output the child's.
PlanPtr Analyzer::resolve_repartition(const std::shared_ptr<PlanNode>& n, const PlanPtr& child) {
  if (!n->shuffle && n->num_partitions <= 0)
    throw SparkError(ErrorKind::kIllegalArgument, "",
                     "requirement failed: Number of partitions (" + std::to_string(n->num_partitions) +
                         ") must be positive.");
  for (auto& e : n->exprs) e = resolve_expr(e, child, false);
  if (n->by_partition_id && n->exprs[0]->type->id() != TypeId::kInt) {
    // repartitionById takes an INT partition id, without implicit casts.
    const std::string sql = n->exprs[0]->to_string();
    const std::string type = n->exprs[0]->type->sql();
    const std::string call = "direct_shuffle_partition_id(" + sql + ")";
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                     "Cannot resolve \"" + call + "\" due to data type mismatch: The first parameter requires "
                     "the \"INT\" type, however \"" + sql + "\" has the type \"" + type + "\".",
                     {{"sqlExpr", "\"" + call + "\""},
                      {"paramIndex", "first"},
                      {"requiredType", "\"INT\""},
                      {"inputSql", "\"" + sql + "\""},
                      {"inputType", "\"" + type + "\""}},
                     "42K09");
  }
  n->output = child->output;
  n->resolved = true;
  return n;
}

namespace {

/// The output of the first node with `plan_id` in `p` (depth first), or null.
const std::vector<ExprPtr>* output_of_plan_id(const PlanPtr& p, int64_t plan_id) {
  if (p->plan_id == plan_id) return &p->output;
  for (auto& c : p->children)
    if (const auto* found = output_of_plan_id(c, plan_id)) return found;
  return nullptr;
}

ExprPtr with_id(const std::vector<ExprPtr>& attrs, int64_t expr_id) {
  for (auto& a : attrs)
    if (a->expr_id == expr_id) return a;
  return nullptr;
}

}  // namespace

/// `df["*"]` or `df["col"]` in a select over projections that dropped some of df's columns (the
/// other side's keys of a USING join, say): Spark adds the dropped columns back to those
/// projections, as its ResolveMissingReferences does, so that the star still yields all of df's
/// columns and the column still resolves to df's own. The child so widened, or `child` itself
/// when nothing is missing or a node other than a projection stands in the way (the reference
/// then fails as before). A column that cannot come back (shadowed or renamed above df) does
/// not stop the others from coming back.
PlanPtr Analyzer::widened_for_frame_references(const PlanPtr& child,
                                               const std::vector<ExprPtr>& exprs) {
  std::vector<ExprPtr> missing;
  auto add = [&](const ExprPtr& a) {
    if (!with_id(child->output, a->expr_id) && !with_id(missing, a->expr_id)) missing.push_back(a);
  };
  for (auto& e : exprs) {
    if (e->kind != ExprKind::kUnresolvedStar || e->plan_id < 0 || !e->name_parts.empty()) continue;
    const auto* frame = output_of_plan_id(child, e->plan_id);
    if (frame == nullptr) continue;
    for (auto& a : *frame) add(a);
  }
  std::function<void(const ExprPtr&)> add_columns = [&](const ExprPtr& e) {
    if (e->kind == ExprKind::kUnresolvedAttribute && e->plan_id >= 0) {
      const auto* frame = output_of_plan_id(child, e->plan_id);
      if (frame == nullptr) return;
      std::optional<std::pair<ExprPtr, size_t>> m;
      try {
        m = match_name(e->name_parts, *frame);
      } catch (const SparkError&) {
        return;  // ambiguous at df's node: reported when the reference itself resolves
      }
      if (m && !with_id(child->output, m->first->expr_id) && widened_projections(child, {m->first}))
        add(m->first);
      return;
    }
    for (auto& c : e->children) add_columns(c);
  };
  for (auto& e : exprs) add_columns(e);
  if (missing.empty()) return child;
  PlanPtr widened = widened_projections(child, missing);
  return widened ? widened : child;
}

/// The projection `p` (and the projections below it, as far as needed) widened by `missing`,
/// the hidden key columns of a USING join below; null when one of them is not such a column.
PlanPtr Analyzer::widened_projections(const PlanPtr& p, const std::vector<ExprPtr>& missing) {
  std::vector<ExprPtr> absent;
  for (auto& m : missing)
    if (!with_id(p->output, m->expr_id)) absent.push_back(m);
  if (absent.empty()) return p;
  if (p->kind != PlanKind::kProject || p->children.size() != 1) return nullptr;
  const PlanPtr& below = p->children[0];
  PlanPtr child;
  if (below->kind == PlanKind::kJoin) {
    // Only the keys a USING join's projection keeps out of sight (the other side's column of
    // each key name) can come back, as Spark keeps them as hidden columns.
    for (auto& m : absent) {
      bool key = false;
      for (auto& o : p->output) key |= name_eq(o->name, m->name);
      if (!key || !with_id(below->output, m->expr_id)) return nullptr;
    }
    child = below;
  } else {
    // A column a projection dropped is gone; hidden columns pass through projections.
    for (auto& m : absent)
      if (with_id(below->output, m->expr_id)) return nullptr;
    child = widened_projections(below, absent);
    if (!child) return nullptr;
  }
  auto widened = copy(*p);
  widened->children = {child};
  for (auto& m : absent) {
    ExprPtr a = with_id(child->output, m->expr_id);  // the child's form (nullable after outer joins)
    widened->exprs.push_back(a);
    widened->output.push_back(a);
  }
  return widened;
}

/// SQL's LATERAL VIEW [OUTER] f(args) alias AS names: a Generate over the FROM clause.
/// A Filter or Sort `n` over the projection `child` that reads columns the projection dropped
/// (`missing`, attributes of its input), as Spark resolves them: the projection below widened by
/// them, `n` over it, and the projection's own columns again on top. Without missing columns,
/// `n` as it is.
PlanPtr Analyzer::over_widened_projection(const std::shared_ptr<PlanNode>& n, const PlanPtr& child,
                                          const std::vector<ExprPtr>& missing, int64_t plan_id) {
  if (missing.empty()) {
    n->output = child->output;
    return n;
  }
  std::vector<ExprPtr> widened = child->exprs;
  for (auto& m : missing) widened.push_back(m);
  auto inner = std::const_pointer_cast<PlanNode>(project(child->children[0], widened));
  inner->plan_id = child->plan_id;
  n->children = {inner};
  n->output = inner->output;
  n->resolved = true;
  auto top = std::const_pointer_cast<PlanNode>(project(n, child->output));
  top->plan_id = plan_id;
  return top;
}

/// session_window(ts, gapDuration) among an aggregation's grouping expressions (Spark's
/// SessionWindowing and MergingSessions): each row with a timestamp opens the session
/// [ts, ts + gap); sessions of the same other grouping keys that overlap or touch (a start at
/// most the latest end before it) merge into one from the earliest start to the latest end.
/// The rewrite numbers the sessions with window functions over the rows ordered by time, then
/// groups by the merged session's struct. Null without a session window.
PlanPtr Analyzer::with_session_window(const PlanPtr& p, const PlanPtr& child) {
  if (!child) return nullptr;
  int found = -1;
  for (size_t i = 0; i < p->exprs.size(); ++i) {
    const ExprPtr& e = p->exprs[i];
    if (e->kind == ExprKind::kUnresolvedFunction && ascii_lower(e->name) == "session_window") {
      if (found >= 0)
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1222",
                         "Multiple time/session window expressions would result in a cartesian product of rows, "
                         "therefore they are currently not supported.");
      found = static_cast<int>(i);
    }
  }
  if (found < 0) return nullptr;
  const ExprPtr& w = p->exprs[static_cast<size_t>(found)];
  if (w->children.size() != 2)
    throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                     "The `session_window` requires 2 parameters but the actual number is " +
                         std::to_string(w->children.size()) + ".",
                     {{"functionName", "`session_window`"}, {"expectedNum", "2"},
                      {"actualNum", std::to_string(w->children.size())}});
  ExprPtr ts = resolve_expr(w->children[0], child, false);
  if (ts->type->id() == TypeId::kString) ts = resolve_expr(cast(ts, DataType::timestamp()), child, false);
  const TypeId tid = ts->type->id();
  if (tid != TypeId::kTimestamp && tid != TypeId::kTimestampNtz)
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                     "Cannot resolve \"" + w->to_string() + "\" due to data type mismatch: The first parameter "
                     "requires the (\"TIMESTAMP\" or \"TIMESTAMP_NTZ\") type, however \"" + ts->to_string() +
                         "\" has the type \"" + ts->type->sql() + "\".",
                     {{"sqlExpr", "\"" + w->to_string() + "\""}}, "42K09");
  // The session's end: the timestamp plus the gap, a duration string constant or per row.
  const ExprPtr& gap = w->children[1];
  ExprPtr end;
  if (gap->kind == ExprKind::kLiteral && gap->type->id() == TypeId::kString && !gap->value.is_null()) {
    const int64_t micros = parse_window_duration(gap->value.as_bytes());
    end = call("+", {ts, lit(Value::integer(micros), DataType::day_time_interval())});
  } else {
    end = call("+", {ts, cast(gap, DataType::calendar_interval())});
  }
  // Rows without a timestamp or with a gap that is not positive belong to no session.
  auto node = [](PlanKind kind, PlanPtr in) {
    auto n = std::make_shared<PlanNode>();
    n->kind = kind;
    n->children = {std::move(in)};
    return n;
  };
  std::vector<ExprPtr> keys;
  for (size_t i = 0; i < p->exprs.size(); ++i)
    if (static_cast<int>(i) != found) keys.push_back(resolve_expr(p->exprs[i], child, false));
  auto columns = [&](const PlanPtr& in) {
    std::vector<ExprPtr> out;
    for (const auto& a : in->output) out.push_back(a);
    return out;
  };
  auto bounded = node(PlanKind::kProject, child);
  bounded->exprs = columns(child);
  bounded->exprs.push_back(alias(ts, "__session_start"));
  bounded->exprs.push_back(alias(end, "__session_end"));
  PlanPtr rows = resolve_node(bounded, {child});
  const ExprPtr start_col = rows->output[rows->output.size() - 2], end_col = rows->output.back();
  auto kept = node(PlanKind::kFilter, rows);
  kept->condition = call("and", {call("isnotnull", {start_col}), call(">", {end_col, start_col})});
  rows = resolve_node(kept, {rows});
  auto window = [&](ExprPtr function, std::vector<ExprPtr> partition, bool ordered, int64_t upper) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kWindow;
    e->children = {std::move(function)};
    e->partition_by = std::move(partition);
    if (ordered) {
      e->order_by = {sort_order(start_col, true, true)};
      e->frame.type = WindowFrame::Type::kRows;
      e->frame.lower = WindowFrame::kUnboundedPreceding;
      e->frame.upper = upper;
      e->frame.specified = true;
    }
    return ExprPtr(e);
  };
  // The latest end before each row (in time order), then the running count of rows that start
  // after it: the session number.
  auto previous = node(PlanKind::kProject, rows);
  previous->exprs = columns(rows);
  previous->exprs.push_back(alias(window(call("max", {end_col}), keys, true, -1), "__session_previous_end"));
  PlanPtr with_previous = resolve_node(previous, {rows});
  const ExprPtr previous_end = with_previous->output.back();
  auto numbered = node(PlanKind::kProject, with_previous);
  numbered->exprs = columns(with_previous);
  auto opens = call("if", {call("or", {call("isnull", {previous_end}), call(">", {start_col, previous_end})}),
                             lit(Value::integer(1), DataType::long_()), lit(Value::integer(0), DataType::long_())});
  numbered->exprs.push_back(alias(window(call("sum", {opens}), keys, true, 0), "__session_number"));
  PlanPtr sessions = resolve_node(numbered, {with_previous});
  std::vector<ExprPtr> session_keys = keys;
  session_keys.push_back(sessions->output.back());
  auto merged = node(PlanKind::kProject, sessions);
  merged->exprs = columns(sessions);
  merged->exprs.push_back(alias(call("named_struct", {lit(Value::bytes("start"), DataType::string()),
                                                       window(call("min", {start_col}), session_keys, false, 0),
                                                       lit(Value::bytes("end"), DataType::string()),
                                                       window(call("max", {end_col}), session_keys, false, 0)}),
                                "session_window"));
  PlanPtr grouped_input = resolve_node(merged, {sessions});
  auto q = copy(*p);
  q->exprs[static_cast<size_t>(found)] = grouped_input->output.back();
  q->children = {grouped_input};
  return resolve_node(q, {grouped_input});
}

/// window(ts, windowDuration[, slideDuration[, startTime]]) in a projection or aggregation:
/// the node again over a Generate of the windows holding each row's timestamp, with every such
/// call replaced by the generated `window` column (plan/time_window.h). Null without a window.
PlanPtr Analyzer::with_time_window(const PlanPtr& p, const PlanPtr& child) {
  if (!child) return nullptr;
  std::vector<ExprPtr> calls;
  std::function<void(const ExprPtr&)> find = [&](const ExprPtr& e) {
    if (!e) return;
    if (e->kind == ExprKind::kUnresolvedFunction && ascii_lower(e->name) == "window") {
      for (auto& c : calls)
        if (c->to_string() == e->to_string()) return;
      calls.push_back(e);
      return;
    }
    for (auto& c : e->children) find(c);
  };
  for (auto& e : p->exprs) find(e);
  for (auto& e : p->aggregates) find(e);
  if (calls.empty()) return nullptr;
  if (calls.size() > 1)
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1222",
                     "Multiple time/session window expressions would result in a cartesian product of rows, "
                     "therefore they are currently not supported.");
  const ExprPtr& w = calls[0];
  if (w->children.size() < 2 || w->children.size() > 4)
    throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                     "The `window` requires [2, 4] parameters but the actual number is " +
                         std::to_string(w->children.size()) + ".",
                     {{"functionName", "`window`"}, {"expectedNum", "[2, 4]"},
                      {"actualNum", std::to_string(w->children.size())}});
  ExprPtr ts = resolve_expr(w->children[0], child, false);
  const TypeId tid = ts->type->id();
  std::vector<int64_t> durations;
  for (size_t i = 1; i < w->children.size(); ++i) {
    const ExprPtr& d = w->children[i];
    if (d->kind != ExprKind::kLiteral || d->value.is_null() || d->type->id() != TypeId::kString)
      throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                       "Cannot resolve \"" + w->to_string() + "\" due to data type mismatch: the window durations "
                       "must be string literals.",
                       {{"sqlExpr", "\"" + w->to_string() + "\""}}, "42K09");
    durations.push_back(parse_window_duration(d->value.as_bytes()));
  }
  const int64_t window = durations[0];
  const int64_t slide = durations.size() > 1 ? durations[1] : window;
  const int64_t start = durations.size() > 2 ? durations[2] : 0;
  const std::string shown = "window(" + ts->to_string() + ", " + std::to_string(window) + ", " +
                            std::to_string(slide) + ", " + std::to_string(start) + ")";
  auto mismatch = [&](const std::string& sub, const std::string& msg) {
    throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH." + sub,
                     "Cannot resolve \"" + shown + "\" due to data type mismatch: " + msg,
                     {{"sqlExpr", "\"" + shown + "\""}}, "42K09");
  };
  if (tid != TypeId::kTimestamp && tid != TypeId::kTimestampNtz)
    mismatch("UNEXPECTED_INPUT_TYPE", "The first parameter requires the (\"TIMESTAMP\" or \"TIMESTAMP_NTZ\") type, "
             "however \"" + ts->to_string() + "\" has the type \"" + ts->type->sql() + "\".");
  if (window <= 0)
    mismatch("VALUE_OUT_OF_RANGE", "The `window_duration` must be between (0, 9223372036854775807] (current value = " +
             std::to_string(window) + "L).");
  if (slide <= 0)
    mismatch("VALUE_OUT_OF_RANGE", "The `slide_duration` must be between (0, 9223372036854775807] (current value = " +
             std::to_string(slide) + "L).");
  if (slide > window)
    mismatch("PARAMETER_CONSTRAINT_VIOLATION", "The `slide_duration`(" + std::to_string(slide) +
             "L) must be <= the `window_duration`(" + std::to_string(window) + "L).");
  if (start < 0 ? -start >= slide : start >= slide)
    mismatch("PARAMETER_CONSTRAINT_VIOLATION", "The absolute value of `start_time`(" + std::to_string(start) +
             "L) must be < the `slide_duration`(" + std::to_string(slide) + "L).");
  const FunctionDef* array_fn = Registry::instance().find_internal("time_window_array");
  EMBER_CHECK(array_fn != nullptr, "missing internal function time_window_array");
  auto long_lit = [](int64_t v) { return lit(Value::integer(v), DataType::long_()); };
  ExprPtr windows = bind_call(array_fn, call(array_fn->name, {}), {ts, long_lit(window), long_lit(slide), long_lit(start)},
                              false);
  PlanPtr generated = generate_node(child, resolve_generator("explode", {windows}, false), {"window"}, "");
  const ExprPtr column = generated->output.back();
  const std::string key = w->to_string();
  std::function<ExprPtr(const ExprPtr&)> replace = [&](const ExprPtr& e) -> ExprPtr {
    if (!e) return e;
    if (e->kind == ExprKind::kUnresolvedFunction && ascii_lower(e->name) == "window" && e->to_string() == key) return column;
    bool changed = false;
    std::vector<ExprPtr> kids;
    for (auto& c : e->children) {
      kids.push_back(replace(c));
      changed = changed || kids.back() != c;
    }
    return changed ? with_children(e, std::move(kids)) : e;
  };
  auto q = copy(*p);
  for (auto& e : q->exprs) e = replace(e);
  for (auto& e : q->aggregates) e = replace(e);
  q->children = {generated};
  return resolve_node(q, {generated});
}

PlanPtr Analyzer::resolve_generate(const PlanPtr& p, const PlanPtr& child) {
  const ExprPtr& call = p->exprs[0];
  auto not_generator = [&] {
    std::string fn = call->kind == ExprKind::kUnresolvedFunction ? call->name : call->to_string();
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_GENERATOR.NOT_GENERATOR",
                     "The generator is not supported: " + quote_id(fn) +
                         " is expected to be a generator. However, it is not a generator.",
                     {{"functionName", quote_id(fn)}}, "42K0E");
  };
  if (PlanPtr with_table = resolve_table_argument_call(p, child)) return with_table;
  // LATERAL VIEW looks the generator up among functions, where Spark keeps neither Python table
  // functions nor its table-only generators (variant_explode): it then looks for a persistent
  // function of the name in the current database.
  if (!p->lateral && !p->table_function_call && call->kind == ExprKind::kUnresolvedFunction) {
    const std::string lname = ascii_lower(call->name);
    if (is_table_only_generator_name(lname) ||
        (!is_generator_name(lname) && session_.lookup_table_function(call->name)))
      throw_routine_not_found(quote_id(session_.current_database()) + "." +
                              quote_id(call->name));
  }
  ExprPtr g;
  if (is_python_table_function(call)) {
    // A Python table function called from the DataFrame API.
    g = resolve_table_function_call(call, call->children, child, false);
  } else if (call->kind != ExprKind::kUnresolvedFunction) {
    not_generator();
  } else if (is_generator_name(ascii_lower(call->name))) {
    const bool saved = in_table_function_call_;
    in_table_function_call_ = p->table_function_call || p->lateral;
    try {
      g = resolve_select_list({call}, child, false)[0];
    } catch (...) {
      in_table_function_call_ = saved;
      throw;
    }
    in_table_function_call_ = saved;
  } else if (ExprPtr table_function = session_.lookup_table_function(call->name)) {
    // LATERAL f(t.a) of a Python table function: its arguments read the relation before it.
    g = resolve_table_function_call(table_function, call->children, child, false);
  } else if (p->table_function_call) {
    const std::string shown = quote_id(call->name);
    throw SparkError(ErrorKind::kAnalysis, "UNRESOLVABLE_TABLE_VALUED_FUNCTION",
                     "Could not resolve " + shown + " to a table-valued function. Please make sure that " + shown +
                         " is defined as a table-valued function and that all required parameters are provided "
                         "correctly. If " + shown +
                         " is not defined, please create the table-valued function before using it. For more "
                         "information about defining table-valued functions, please refer to the Apache Spark "
                         "documentation.",
                     {{"name", shown}}, "42883");
  } else {
    not_generator();
  }
  auto n = std::const_pointer_cast<PlanNode>(generate_node(child, g, p->names, p->alias));
  n->plan_id = p->plan_id;
  // `t, LATERAL f(t.a)` is Spark's lateral subquery of the call over one row, for each row of t.
  if (p->lateral && !is_one_row_without_columns(child))
    check_lateral_subquery(child, generate_node(one_row_without_columns(), g, p->names, p->alias), n);
  return n;
}

PlanPtr Analyzer::resolve_table_argument_call(const PlanPtr& p, const PlanPtr& child) {
  const ExprPtr& call = p->exprs[0];
  auto unwrap = [](const ExprPtr& a) { return a->kind == ExprKind::kNamedArgument ? a->children[0] : a; };
  std::vector<size_t> tables;
  for (size_t i = 0; i < call->children.size(); ++i)
    if (is_table_argument(unwrap(call->children[i]))) tables.push_back(i);
  if (tables.empty()) return nullptr;
  ExprPtr function;
  const bool builtin = call->kind == ExprKind::kUnresolvedFunction && is_generator_name(ascii_lower(call->name));
  if (is_python_table_function(call)) function = call;
  else if (call->kind == ExprKind::kUnresolvedFunction && !builtin) function = session_.lookup_table_function(call->name);
  if (!function && !builtin) return nullptr;
  const Config& conf = session_.config();
  // Spark refuses a second TABLE argument of a Python table function whatever
  // spark.sql.allowMultipleTableArguments.enabled says.
  if (tables.size() > 1) throw_too_many_table_arguments(tables.size());
  const size_t at = tables[0];
  const ExprPtr& t = unwrap(call->children[at]);
  TableArgument arg;
  {
    // The table is a query of its own: a LATERAL call's outer relation is not in its scope.
    std::vector<PlanPtr> scopes;
    scopes.swap(outer_scopes_);
    try {
      arg.table = resolve(t->subquery);
    } catch (...) {
      scopes.swap(outer_scopes_);
      throw;
    }
    scopes.swap(outer_scopes_);
  }
  for (auto& e : t->partition_by) arg.partition_by.push_back(resolve_expr(e, arg.table, false));
  for (auto& o : t->order_by) arg.order_by.push_back(resolve_expr(o, arg.table, false));
  arg.with_single_partition = t->with_single_partition;
  auto make_struct = [&](std::vector<ExprPtr> fields) {
    return resolve_function(plan::call("named_struct", {}), std::move(fields), false);
  };
  if (builtin) {
    // A built-in generator takes the rows' struct like any other value (explode refuses it).
    if (!arg.partition_by.empty())
      throw SparkError(ErrorKind::kAnalysis, "INTERNAL_ERROR",
                       "Cannot evaluate the table-valued function call because it included the PARTITION BY clause, "
                       "but only Python table functions support this clause",
                       {}, "XX000");
    TableArgumentInput input = table_argument_input(arg, make_struct);
    auto over_rows = std::make_shared<Expr>(*call);
    over_rows->children[at] = input.plan->output[0];
    PlanPtr gen = generate_node(input.plan, resolve_select_list({over_rows}, input.plan, false)[0], p->names, p->alias);
    return lateral_table_call(p, child, project(gen, gen->generator_output), {});
  }

  // The function's arguments; the TABLE argument is a struct of the table's columns.
  std::vector<ExprPtr> args;
  std::vector<std::string> names;
  std::vector<bool> is_table;
  for (size_t i = 0; i < call->children.size(); ++i) {
    const ExprPtr& a = call->children[i];
    names.push_back(a->kind == ExprKind::kNamedArgument ? a->name : "");
    is_table.push_back(i == at);
    args.push_back(i == at ? attribute("c", table_struct_type(arg.table->output), false, new_expr_id())
                           : resolve_expr(unwrap(a), child, false));
  }
  exec::TableFunctionAnalysis analysis;
  ExprPtr g = resolve_python_table_function(function, args, names, conf, is_table, &analysis);
  apply_table_function_analysis(analysis, g->name, arg, [&](const std::string& name) {
    return resolve_expr(parse_analyze_expression(name), arg.table, false);
  });
  TableArgumentInput input = table_argument_input(arg, make_struct);
  auto py = std::make_shared<exec::PythonFunction>(*g->python);
  py->table_args = is_table;
  py->partition_child_indexes = input.partition_child_indexes;
  auto generator = std::make_shared<Expr>(*g);
  generator->python = std::move(py);
  generator->children[at] = input.plan->output[0];
  PlanPtr gen = generate_node(input.plan, generator, p->names, p->alias);
  std::vector<ExprPtr> scalars;
  for (size_t i = 0; i < args.size(); ++i)
    if (i != at) scalars.push_back(args[i]);
  return lateral_table_call(p, child, project(gen, gen->generator_output), scalars, input.plan->output[0]);
}

PlanPtr Analyzer::lateral_table_call(const PlanPtr& p, const PlanPtr& child, const PlanPtr& rows,
                                     const std::vector<ExprPtr>& scalars, const ExprPtr& table_column) {
  if (is_one_row_without_columns(child)) {
    auto out = std::const_pointer_cast<PlanNode>(rows);
    out->plan_id = p->plan_id;
    return out;
  }
  // Spark runs the call as a lateral join of the table's rows with the call over one row,
  // itself a lateral subquery of the relation before it; its scalar arguments see the table's
  // rows alone, so a column of that relation is missing from them.
  std::vector<ExprPtr> missing;
  std::set<int64_t> outer;
  for (auto& a : child->output) outer.insert(a->expr_id);
  std::function<void(const ExprPtr&)> collect = [&](const ExprPtr& e) {
    if (e->kind == ExprKind::kAttribute && outer.count(e->expr_id)) {
      outer.erase(e->expr_id);
      missing.push_back(e);
    }
    for (auto& c : e->children) collect(c);
  };
  for (auto& a : scalars) collect(a);
  if (!missing.empty()) {
    std::string names, refs = table_column->name + "#" + std::to_string(table_column->expr_id);
    bool same_name = false;
    for (auto& m : missing) {
      names += (names.empty() ? "\"" : ", \"") + m->name + "\"";
      refs += " && " + m->name + "#" + std::to_string(m->expr_id);
      same_name |= name_eq(m->name, table_column->name);
    }
    const std::string input = "\"" + table_column->name + "\"";
    const std::string op = "!LateralJoin lateral-subquery#" + std::to_string(new_expr_id()) + " [" + refs + "], Inner";
    const std::string text = "Resolved attribute(s) " + names + " missing from " + input + " in operator " + op + ".";
    if (same_name)
      throw SparkError(ErrorKind::kAnalysis, "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
                       text + " Attribute(s) with the same name appear in the operation: " + input +
                           ".\nPlease check if the right attribute(s) are used.",
                       {{"missingAttributes", names}, {"input", input}, {"operator", op}, {"operation", input}},
                       "XX000");
    throw SparkError(ErrorKind::kAnalysis, "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT", text + " ",
                     {{"missingAttributes", names}, {"input", input}, {"operator", op}}, "XX000");
  }
  auto joined = std::const_pointer_cast<PlanNode>(join_node(child, rows, JoinType::kInner, nullptr));
  check_lateral_subquery(child, rows, joined);
  joined->plan_id = p->plan_id;
  return joined;
}

/// ROLLUP / CUBE / GROUPING SETS under window functions (`rank() OVER (PARTITION BY
/// grouping(a) ORDER BY sum(v))`): the windows rank rows of all the sets together, so they run
/// over the union. The sets compute every select item without a window and, as hidden columns,
/// what the windows read (function arguments, partition and order keys: aggregates, grouping
/// keys, grouping() calls); a projection with the windows over the union restores the list.
PlanPtr Analyzer::grouping_sets_with_windows(const PlanPtr& p, const PlanPtr& child) {
  std::vector<ExprPtr> inner;
  int hidden = 0;
  auto lift = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kLiteral) return e;
    std::string name = "__window_input_" + std::to_string(hidden++);
    inner.push_back(alias(e, name));
    return col({name});
  };
  std::function<ExprPtr(const ExprPtr&)> rewrite = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kWindow) {
      auto w = std::make_shared<Expr>(*e);
      const ExprPtr& fn = e->children[0];
      std::vector<ExprPtr> args;
      for (auto& a : fn->children) args.push_back(lift(a));
      w->children = {with_children(fn, std::move(args))};
      for (auto& x : w->partition_by) x = lift(x);
      for (auto& o : w->order_by) o = with_children(o, {lift(o->children[0])});
      return w;
    }
    if (!contains_window(e)) return lift(e);
    std::vector<ExprPtr> kids;
    for (auto& c : e->children) kids.push_back(rewrite(c));
    return with_children(e, std::move(kids));
  };
  std::vector<ExprPtr> outer;
  std::vector<int> position;  // an item's column in the sets' output, or -1 for a window item
  for (auto& a : p->aggregates) {
    if (!contains_window(a)) {
      position.push_back(static_cast<int>(inner.size()));
      inner.push_back(a);
      outer.push_back(nullptr);
      continue;
    }
    position.push_back(-1);
    if (a->kind == ExprKind::kAlias || a->kind == ExprKind::kUnresolvedAlias) {
      auto named = std::make_shared<Expr>(*a);
      named->children = {rewrite(a->children[0])};
      outer.push_back(named);
    } else {
      outer.push_back(rewrite(a));
    }
  }
  auto sets = std::make_shared<PlanNode>(*p);
  sets->aggregates = inner;
  PlanPtr below = resolve_grouping_sets(sets, child);
  std::vector<ExprPtr> items;
  for (size_t i = 0; i < outer.size(); ++i) {
    if (position[i] >= 0) items.push_back(below->output[static_cast<size_t>(position[i])]);
    else items.push_back(resolve_select_list({outer[i]}, below, false)[0]);
  }
  return project_with_windows(below, std::move(items), p->plan_id);
}

/// ROLLUP / CUBE / GROUPING SETS: one Aggregate per grouping set, whose grouping expressions
/// outside the set read as null (outside aggregate functions) and whose grouping() /
/// grouping_id() calls are the set's constants, under a UNION ALL.
PlanPtr Analyzer::resolve_grouping_sets(const PlanPtr& p, const PlanPtr& child) {
  if (p->aggregate_output_is_select_list &&
      std::any_of(p->aggregates.begin(), p->aggregates.end(), [](const ExprPtr& a) { return contains_window(a); }))
    return grouping_sets_with_windows(p, child);
  std::vector<ExprPtr> groups = resolve_named_list(p->exprs, child, false);
  const size_t n = groups.size();
  std::vector<std::string> gkeys;
  for (auto& g : groups) gkeys.push_back(semantic_key(g));
  auto index_of = [&](const ExprPtr& unresolved, const std::string& fn) -> size_t {
    ExprPtr r = resolve_expr(unresolved, child, false);
    std::string k = semantic_key(r);
    for (size_t i = 0; i < n; ++i)
      if (gkeys[i] == k) return i;
    std::string shown = fn.empty() ? r->to_string() : fn;
    throw SparkError(ErrorKind::kAnalysis, "GROUPING_COLUMN_MISMATCH",
                     "Column of grouping (" + r->to_string() + ") can't be found in grouping columns " + [&] {
                       std::string cols;
                       for (size_t i = 0; i < n; ++i) cols += (i ? "," : "") + groups[i]->to_string();
                       return cols;
                     }() + ".",
                     {{"grouping", r->to_string()}});
  };
  std::vector<std::vector<bool>> sets;
  for (auto& set : p->grouping_sets) {
    std::vector<bool> m(n, false);
    for (auto& e : set) m[index_of(e, "")] = true;
    sets.push_back(std::move(m));
  }
  std::vector<PlanPtr> branches;
  for (auto& m : sets) {
    int64_t gid = 0;
    for (size_t i = 0; i < n; ++i) gid = (gid << 1) | (m[i] ? 0 : 1);
    std::function<ExprPtr(const ExprPtr&)> constants = [&](const ExprPtr& e) -> ExprPtr {
      if (e->kind == ExprKind::kUnresolvedFunction) {
        std::string nm = ascii_lower(e->name);
        if (nm == "grouping" || nm == "grouping_id") {
          std::string shown = nm + "(";
          for (size_t i = 0; i < e->children.size(); ++i) shown += (i ? ", " : "") + e->children[i]->to_string();
          shown += ")";
          if (nm == "grouping") {
            if (e->children.size() != 1)
              throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                               "The `grouping` requires 1 parameters but the actual number is " +
                                   std::to_string(e->children.size()) + ".",
                               {{"functionName", "`grouping`"}, {"expectedNum", "1"},
                                {"actualNum", std::to_string(e->children.size())}});
            size_t i = index_of(e->children[0], shown);
            return alias(lit(Value::integer(m[i] ? 0 : 1), DataType::byte()), shown);
          }
          int64_t v = 0;
          if (e->children.empty()) v = gid;
          for (auto& c : e->children) v = (v << 1) | (m[index_of(c, shown)] ? 0 : 1);
          return alias(lit(Value::integer(v), DataType::long_()), shown);
        }
      }
      if (e->children.empty()) return e;
      std::vector<ExprPtr> kids;
      for (auto& c : e->children) kids.push_back(constants(c));
      return with_children(e, std::move(kids));
    };
    std::vector<ExprPtr> aggs_in;
    for (auto& a : p->aggregates) aggs_in.push_back(constants(a));
    std::vector<ExprPtr> aggs = resolve_named_list(aggs_in, child, true);
    std::function<ExprPtr(const ExprPtr&)> nullify = [&](const ExprPtr& e) -> ExprPtr {
      if (e->kind == ExprKind::kAggregate || e->kind == ExprKind::kLiteral) return e;
      if (e->kind != ExprKind::kAlias) {
        std::string k = semantic_key(e);
        for (size_t i = 0; i < n; ++i)
          if (!m[i] && gkeys[i] == k) return lit(Value(), e->type);
      }
      if (e->children.empty()) return e;
      std::vector<ExprPtr> kids;
      for (auto& c : e->children) kids.push_back(nullify(c));
      return with_children(e, std::move(kids));
    };
    std::vector<ExprPtr> set_groups, out;
    std::set<std::string> set_keys;
    for (size_t i = 0; i < n; ++i)
      if (m[i]) {
        set_groups.push_back(groups[i]);
        set_keys.insert(gkeys[i]);
      }
    if (!p->aggregate_output_is_select_list)
      for (size_t i = 0; i < n; ++i)
        out.push_back(m[i] ? groups[i] : alias(lit(Value(), groups[i]->type), to_attribute(groups[i])->name));
    for (auto& a : aggs) {
      ExprPtr r = nullify(a);
      if (r->kind != ExprKind::kAttribute && r->kind != ExprKind::kAlias) r = alias(r, a->name);
      check_aggregate(r->kind == ExprKind::kAlias ? r->children[0] : r, set_keys, r);
      out.push_back(r);
    }
    // The set's id is a grouping key too, so that empty input gives no row even for the empty
    // set, as in Spark.
    set_groups.push_back(lit(Value::integer(gid), DataType::long_()));
    branches.push_back(resolved_aggregate(child, set_groups, out));
  }
  auto u = std::make_shared<PlanNode>();
  u->kind = PlanKind::kSetOp;
  u->set_op = SetOpType::kUnion;
  u->is_all = true;
  u->children = branches;
  for (size_t c = 0; c < branches[0]->output.size(); ++c) {
    bool nullable = false;
    for (auto& b : branches) nullable |= b->output[c]->nullable;
    const ExprPtr& first = branches[0]->output[c];
    u->output.push_back(attribute(first->name, first->type, nullable, new_expr_id()));
  }
  u->resolved = true;
  u->plan_id = p->plan_id;
  return u;
}

/// A projection whose expressions may hold window expressions: those move into Window nodes
/// below it (plan/window_resolution.h).
PlanPtr Analyzer::project_with_windows(const PlanPtr& child, std::vector<ExprPtr> exprs, int64_t plan_id) {
  PlanPtr below = extract_windows(child, exprs);
  auto n = std::const_pointer_cast<PlanNode>(project(below, std::move(exprs)));
  if (plan_id >= 0) n->plan_id = plan_id;
  return n;
}

namespace {

/// UNRESOLVED_COLUMN_AMONG_FIELD_NAMES: `name` is none of `columns`, which Spark lists by their
/// names as they are, unquoted.
[[noreturn]] void throw_column_among_field_names(const std::string& name, const std::vector<ExprPtr>& columns) {
  std::string cols;
  for (size_t i = 0; i < columns.size(); ++i) cols += (i ? ", " : "") + columns[i]->name;
  throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES",
                   "Cannot resolve column name \"" + name + "\" among (" + cols + ").",
                   {{"colName", name}, {"fieldNames", cols}}, "42703");
}

/// The operator's name in Spark's messages.
const char* set_op_name(SetOpType op) {
  switch (op) {
    case SetOpType::kUnion: return "UNION";
    case SetOpType::kIntersect: return "INTERSECT";
    case SetOpType::kExcept: return "EXCEPT";
  }
  return "UNION";
}

/// Spark's DataType.sameType under its default resolver: equal but for nullability and the
/// case of struct field names.
bool same_type_ignoring_case(const DataType& a, const DataType& b) {
  if (!a.same_structure(b)) return false;
  if (a.id() == TypeId::kStruct)
    for (size_t i = 0; i < a.fields().size(); ++i)
      if (ascii_lower(a.fields()[i].name) != ascii_lower(b.fields()[i].name)) return false;
  for (size_t i = 0; i < a.fields().size(); ++i)
    if (!same_type_ignoring_case(*a.fields()[i].type, *b.fields()[i].type)) return false;
  return true;
}

/// The type of each column of set operation `op` over columns `left` and `right`, as Spark's
/// WidenSetOperationTypes and the operators' outputs find it: columns of the same type but for
/// nullability keep the first side's type (a UNION merging the nullability of both); others
/// take the wider type, for a UNION the first side's type when both have the same structure
/// (struct field names may differ; nullability merged), STRING beside a string;
/// INCOMPATIBLE_COLUMN_TYPE otherwise.
std::vector<TypePtr> set_op_column_types(const std::vector<ExprPtr>& left, const std::vector<ExprPtr>& right,
                                         SetOpType op) {
  const std::string what = set_op_name(op);
  std::vector<TypePtr> types;
  for (size_t i = 0; i < left.size(); ++i) {
    const TypePtr& l = left[i]->type;
    const TypePtr& r = right[i]->type;
    const bool union_like = op == SetOpType::kUnion;
    TypePtr w = same_type_ignoring_case(*l, *r) ? (union_like ? DataType::merge_nullability(l, r) : l)
                                                : functions::wider_type(l, r, false);
    if (!w && union_like && l->same_structure(*r)) w = DataType::merge_nullability(l, r);
    if (!w && (l->id() == TypeId::kString || r->id() == TypeId::kString)) w = DataType::string();
    if (!w)
      throw SparkError(ErrorKind::kAnalysis, "INCOMPATIBLE_COLUMN_TYPE",
                       what + " can only be performed on tables with compatible column types. The " +
                           ordinal_number(i) + " column of the second table is \"" + r->sql() +
                           "\" type which is not compatible with \"" + l->sql() +
                           "\" at the same column of the first table..",
                       {{"operator", what},
                        {"columnOrdinalNumber", ordinal_number(i)},
                        {"tableOrdinalNumber", "second"},
                        {"dataType1", "\"" + r->sql() + "\""},
                        {"dataType2", "\"" + l->sql() + "\""},
                        {"hint", ""}},
                       "42825");
    types.push_back(std::move(w));
  }
  return types;
}

}  // namespace

PlanPtr Analyzer::resolve_inline_rows(const PlanPtr& p) {
  // Spark types an inline table as a whole, not as a union of pairs: each column takes the
  // wider type of all its values (no string promotion), checked after every value is known to
  // be evaluable once.
  std::vector<PlanPtr> rows;
  std::function<void(const PlanPtr&)> collect = [&](const PlanPtr& n) {
    if (!is_values_union(*n)) {
      rows.push_back(resolve(n));
      return;
    }
    collect(n->children[0]);
    collect(n->children[1]);
  };
  collect(p);
  check_inline_table_values(rows, *p);
  const std::vector<TypePtr> types = inline_table_types(rows, *p);
  size_t next = 0;
  std::function<PlanPtr(const PlanPtr&)> build = [&](const PlanPtr& n) -> PlanPtr {
    if (!is_values_union(*n)) {
      const PlanPtr& row = rows[next++];
      std::vector<ExprPtr> exprs;
      bool cast = false;
      for (size_t c = 0; c < types.size(); ++c) {
        const ExprPtr& a = row->output[c];
        if (same_type_ignoring_case(*a->type, *types[c])) {
          exprs.push_back(a);
        } else {
          exprs.push_back(alias(implicit_cast(a, types[c]), a->name));
          cast = true;
        }
      }
      return cast ? project(row, exprs) : row;
    }
    PlanPtr left = build(n->children[0]);
    PlanPtr right = build(n->children[1]);
    PlanPtr r = resolve_node(n, {left, right});
    auto* m = const_cast<PlanNode*>(r.get());
    m->resolved = true;
    if (m->plan_id < 0) m->plan_id = n->plan_id;
    return r;
  };
  return build(p);
}

void Analyzer::check_aggregate(const ExprPtr& e, const std::set<std::string>& group_keys, const ExprPtr& top,
                               bool grouped) {
  if (e->kind == ExprKind::kAggregate || e->kind == ExprKind::kLiteral || is_python_aggregate(*e)) return;
  if (group_keys.count(semantic_key(e))) return;
  if (e->kind == ExprKind::kAttribute) {
    if (!grouped)
      throw SparkError(ErrorKind::kAnalysis, "MISSING_GROUP_BY",
                       "The query does not include a GROUP BY clause. Add GROUP BY or turn it into the window "
                       "functions using OVER clauses.",
                       {}, "42803");
    std::string expr = top->kind == ExprKind::kAlias ? top->children[0]->to_string() : top->to_string();
    throw SparkError(ErrorKind::kAnalysis, "MISSING_AGGREGATION",
                     "The non-aggregating expression \"" + expr +
                         "\" is based on columns which are not participating in the GROUP BY clause.\nAdd the columns "
                         "or the expression to the GROUP BY, aggregate the expression, or use \"any_value(" + expr +
                         ")\" if you do not care which of the values within a group is returned.",
                     {{"expression", "\"" + expr + "\""}, {"expressionAnyValue", "\"any_value(" + expr + ")\""}});
  }
  for (auto& c : e->children) check_aggregate(c, group_keys, top, grouped);
}

namespace {

/// The output of a node whose Python function returns rows (mapInPandas, applyInPandas, cogroup):
/// new attributes for the fields of its struct return type.
void set_rows_function_output(PlanNode& n) {
  const ExprPtr& fn = n.exprs[0];
  if (fn->type->id() != TypeId::kStruct)
    throw SparkError(ErrorKind::kAnalysis, "INVALID_UDF_EVAL_TYPE",
                     "The output of " + fn->name + " must be a struct (the schema of its rows).");
  n.output.clear();
  for (auto& f : fn->type->fields()) n.output.push_back(attribute(f.name, f.type, f.nullable, new_expr_id()));
}

}  // namespace

PlanPtr Analyzer::resolve_node(const PlanPtr& p, std::vector<PlanPtr> children) {
  auto n = copy(*p);
  n->children = children;
  PlanPtr child = children.empty() ? nullptr : children[0];
  switch (p->kind) {
    case PlanKind::kRange:
      if (!p->exprs.empty()) {
        // range(...) over arguments the parser left for analysis.
        auto r = range_from_arguments(
            p->exprs, [&](const ExprPtr& e) { return resolve_expr(e, one_row_without_columns(), false); },
            session_.config());
        r->plan_id = p->plan_id;
        return resolve_node(r, {});
      }
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
      n->exprs.clear();
      if (ExprPtr metadata = file_metadata_attribute(n->read.format, n->output))
        n->exprs.push_back(metadata);
      return n;
    }
    case PlanKind::kUnresolvedRelation: {
      std::string name = join_parts(p->table_name, false);
      PlanPtr view = p->table_name.size() == 1 ? session_.catalog().lookup_temp_view(p->table_name[0]) : nullptr;
      if (is_global_temp_name(p->table_name, session_.config()))
        view = global_temp_views().lookup_temp_view(p->table_name[1]);
      const bool temp_view = view != nullptr;
      // Temporary views shadow persistent tables of the same name, as in Spark.
      if (!view) {
        if (auto table = session_.find_table(p->table_name)) view = resolve(table_read_plan(*table));
      }
      if (!view && p->table_name.size() == 2 && io::has_format(p->table_name[0])) {
        // SQL on files: SELECT ... FROM parquet.`/path`.
        io::ReadRequest req;
        req.format = p->table_name[0];
        req.paths = {p->table_name[1]};
        req.config = &session_.config();
        n->kind = PlanKind::kRead;
        n->reader = io::open_reader(req);
        req.config = nullptr;
        n->read = req;
        n->output.clear();
        for (auto& f : n->reader->schema()) n->output.push_back(attribute(f.name, f.type, f.nullable, new_expr_id()));
        n->exprs.clear();
        if (ExprPtr metadata = file_metadata_attribute(n->read.format, n->output))
          n->exprs.push_back(metadata);
        return n;
      }
      if (!view)
        throw_table_not_found(p->table_name, relation_search_path(session_.current_database()));
      if (!outer_scopes_.empty()) {
        // Inside a subquery a view gets fresh attribute ids, so that its columns stay apart
        // from the same view's columns in the enclosing query once the subquery becomes a join.
        std::vector<ExprPtr> fresh;
        for (auto& a : view->output) fresh.push_back(alias(a, a->name));
        view = project(view, std::move(fresh));
      }
      auto alias_node = std::make_shared<PlanNode>();
      alias_node->kind = PlanKind::kSubqueryAlias;
      alias_node->alias = p->table_name.back();
      // A temporary view's alias names it, which keeps its metadata columns out of reach, as
      // Spark's View node does (plan/metadata_columns.h).
      if (temp_view) alias_node->table_name = p->table_name;
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
      if (PlanPtr windowed = with_time_window(p, child)) return windowed;
      // DataFrame references resolve over `widened` (see widened_for_frame_references); names
      // resolve against the child itself, whose columns the widened child keeps with the same
      // ids, so that the added columns make no name ambiguous.
      PlanPtr widened = widened_for_frame_references(child, p->exprs);
      const std::pair<const PlanNode*, PlanPtr> saved_scope = frame_scope_;
      if (widened != child) frame_scope_ = {child.get(), widened};
      try {
        n->exprs = resolve_select_list(p->exprs, child, false);
        frame_scope_ = saved_scope;
        if (widened != child) {
          child = widened;
          n->children = {child};
        }
      } catch (const SparkError& e) {
        frame_scope_ = saved_scope;
        // A projection of aggregate functions is a global aggregate (df.select(sum(v))).
        if (e.error_class() != "UNSUPPORTED_EXPR_FOR_OPERATOR") throw;
        std::vector<ExprPtr> aggs = resolve_select_list(p->exprs, child, true);
        bool any = false;
        for (auto& a : aggs) any |= a->contains_aggregate();
        if (!any) throw;
        for (auto& a : aggs)
          if (top_level_generator(a)) return aggregate_with_generator(p, {}, aggs, child);
        for (auto& a : aggs)
          if (contains_window(a)) return aggregate_with_windows(p, {}, aggs, child);
        for (auto& a : aggs) check_aggregate(a->kind == ExprKind::kAlias ? a->children[0] : a, {}, a, false);
        n->kind = PlanKind::kAggregate;
        n->exprs.clear();
        n->aggregates = aggs;
        n->output.clear();
        for (auto& a : aggs) n->output.push_back(to_attribute(a));
        return n;
      }
      for (auto& e : n->exprs)
        if (top_level_generator(e)) {
          PlanPtr generated = extract_generators(child, n->exprs);
          return project_with_windows(generated, n->exprs, p->plan_id);
        }
      bool windows = false;
      for (auto& e : n->exprs) windows |= contains_window(e);
      if (windows) return project_with_windows(child, n->exprs, p->plan_id);
      n->output.clear();
      for (auto& e : n->exprs) n->output.push_back(to_attribute(e));
      return n;
    }
    case PlanKind::kFilter: {
      ExprPtr c;
      // As for Sort: a condition may name columns the child projection dropped
      // (df.select("i").where(col("t") < x)); Spark resolves them below the projection, adds them
      // to it, and projects them away above the filter.
      std::vector<ExprPtr> missing;
      // Aggregates resolve here only to be reported as Spark reports them below.
      try {
        c = resolve_expr(p->condition, child, true);
      } catch (const SparkError& original) {
        if (child->kind != PlanKind::kProject || child->children.empty()) throw;
        try {
          c = resolve_expr(p->condition, child->children[0], true);
        } catch (const SparkError&) {
          throw original;
        }
        std::set<int64_t> have;
        for (auto& a : child->output) have.insert(a->expr_id);
        std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& x) {
          if (x->kind == ExprKind::kAttribute && have.insert(x->expr_id).second) missing.push_back(x);
          for (auto& k : x->children) walk(k);
        };
        walk(c);
      }
      if (c->contains_aggregate()) {
        std::string found;
        std::function<void(const ExprPtr&)> collect = [&](const ExprPtr& x) {
          if (x->kind == ExprKind::kAggregate || is_python_aggregate(*x)) {
            found += (found.empty() ? "" : ", ") + x->to_string();
            return;
          }
          for (auto& k : x->children) collect(k);
        };
        collect(c);
        throw SparkError(ErrorKind::kAnalysis, "INVALID_WHERE_CONDITION",
                         "The WHERE condition \"" + c->to_string() + "\" contains invalid expressions: " + found +
                             ".\nRewrite the query to avoid window functions, aggregate functions, and generator "
                             "functions in the WHERE clause.",
                         {{"condition", "\"" + c->to_string() + "\""}, {"expressionList", found}}, "42903");
      }
      if (contains_window(c))
        throw SparkError(ErrorKind::kAnalysis, "WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE",
                         "It is not allowed to use window functions inside WHERE clause.", {{"clauseName", "WHERE"}},
                         "42601");
      if (c->type->id() != TypeId::kBoolean && c->type->id() != TypeId::kNull)
        throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                         "Cannot resolve \"" + c->to_string() + "\" due to data type mismatch: Filter expression \"" +
                             c->to_string() + "\" of type \"" + c->type->sql() + "\" is not a boolean.",
                         {{"sqlExpr", "\"" + c->to_string() + "\""}, {"filter", "\"" + c->to_string() + "\""}, {"type", "\"" + c->type->sql() + "\""}});
      // The ON condition of `t JOIN LATERAL f(...)`.
      if (p->lateral) check_lateral_join_condition(c);
      n->condition = c;
      return over_widened_projection(n, child, missing, p->plan_id);
    }
    case PlanKind::kAggregate: {
      if (PlanPtr sessions = with_session_window(p, child)) return sessions;
      if (PlanPtr windowed = with_time_window(p, child)) return windowed;
      if (!p->grouping_sets.empty()) return resolve_grouping_sets(p, child);
      // The DataFrame API's grouping expressions are also its output, so a generator there is
      // extracted like one in the select list (its input must then be grouped).
      if (!p->aggregate_output_is_select_list)
        for (auto& g : p->exprs)
          if (g->kind == ExprKind::kUnresolvedStar) throw_star_misuse(g, "Aggregate");
      std::vector<ExprPtr> groups = p->aggregate_output_is_select_list ? resolve_named_list(p->exprs, child, true)
                                                                        : resolve_select_list(p->exprs, child, true);
      for (auto& g : groups) {
        if (!g->contains_aggregate()) continue;
        const ExprPtr& shown = g->kind == ExprKind::kAlias ? g->children[0] : g;
        throw SparkError(ErrorKind::kAnalysis, "GROUP_BY_AGGREGATE",
                         "Aggregate functions are not allowed in GROUP BY, but found " + shown->to_string() + ".",
                         {{"sqlExpr", shown->to_string()}}, "42903");
      }
      std::vector<ExprPtr> aggs = resolve_select_list(p->aggregates, child, true);
      for (auto& g : groups)
        if (top_level_generator(g)) return aggregate_with_generator(p, groups, aggs, child);
      for (auto& a : aggs)
        if (top_level_generator(a)) return aggregate_with_generator(p, groups, aggs, child);
      for (auto& a : aggs)
        if (contains_window(a)) return aggregate_with_windows(p, groups, aggs, child);
      std::set<std::string> keys;
      for (auto& g : groups) keys.insert(semantic_key(g));
      for (auto& g : groups) reject_variant_group_key(g);
      for (auto& a : aggs) check_aggregate(a->kind == ExprKind::kAlias ? a->children[0] : a, keys, a, !groups.empty());
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
      // Sort keys may name columns the child projection dropped (Spark resolves them below the
      // projection, adds them to it, and projects them away above the sort).
      std::vector<ExprPtr> missing;
      std::set<int64_t> have;
      for (auto& a : child->output) have.insert(a->expr_id);
      for (auto& e : p->exprs) {
        ExprPtr order = e->kind == ExprKind::kSortOrder ? e : sort_order(e, true, true);
        ExprPtr r;
        try {
          r = resolve_expr(order, child, false);
        } catch (const SparkError& original) {
          if (child->kind != PlanKind::kProject || child->children.empty()) throw;
          try {
            r = resolve_expr(order, child->children[0], false);
          } catch (const SparkError&) {
            throw original;
          }
          std::set<int64_t> refs;
          std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& x) {
            if (x->kind == ExprKind::kAttribute && !have.count(x->expr_id) && refs.insert(x->expr_id).second)
              missing.push_back(x);
            for (auto& c : x->children) walk(c);
          };
          walk(r);
          for (int64_t id : refs) have.insert(id);
        }
        if (!r->children.empty() && (functions::contains_variant(*r->children[0]->type) ||
                                     r->children[0]->type->contains(TypeId::kCalendarInterval)))
          functions::throw_type_mismatch("INVALID_ORDERING_TYPE",
                                         "The `sortorder` does not support ordering on type \"" +
                                             r->children[0]->type->sql() + "\".",
                                         r->to_string());
        n->exprs.push_back(r);
      }
      return over_widened_projection(n, child, missing, p->plan_id);
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
      return resolve_repartition(n, child);
    case PlanKind::kHint:
      return resolve_hint(n, child);
    case PlanKind::kSubqueryAlias: {
      n->output.clear();
      if (!outer_scopes_.empty()) {
        // Inside a subquery an aliased relation gets fresh attribute ids, as a view does: a
        // common table expression's plan is shared by all its references, and its columns must
        // stay apart from the same CTE's columns in the enclosing query.
        std::vector<ExprPtr> fresh;
        for (auto& a : child->output) fresh.push_back(alias(a, a->name));
        n->children = {project(child, std::move(fresh))};
        for (auto& a : n->children[0]->output) {
          auto q = std::make_shared<Expr>(*a);
          q->qualifier = {p->alias};
          n->output.push_back(q);
        }
        return n;
      }
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
        reject_variant_columns(child->output);
        reject_map_columns(child->output);
        agg->exprs = child->output;
        agg->aggregates = child->output;
        agg->output = child->output;
        return agg;
      }
      // dropDuplicates(subset): the first row of each key, kept as a Deduplicate node.
      n->exprs.clear();
      // Spark matches each name against the output's column names as they are (every column
      // of that name; no parsing of dots).
      for (auto& name : p->dedup_columns) {
        bool found = false;
        for (auto& a : child->output)
          if (name_eq(a->name, name)) {
            n->exprs.push_back(a);
            found = true;
          }
        if (!found) throw_column_among_field_names(name, child->output);
      }
      reject_variant_columns(n->exprs);
      reject_map_columns(n->exprs);
      n->output = child->output;
      return n;
    }
    case PlanKind::kWithColumns: {
      std::vector<ExprPtr> list = child->output;
      for (auto& e : p->exprs) {
        ExprPtr r = resolve_select_list({e}, child, false)[0];
        bool replaced = false;
        for (auto& existing : list) {
          if (name_eq(existing->kind == ExprKind::kAlias ? existing->name : existing->name, r->name)) {
            existing = r;
            replaced = true;
          }
        }
        if (!replaced) list.push_back(r);
      }
      PlanPtr generated = extract_generators(child, list);
      return project_with_windows(generated, list, -1);
    }
    case PlanKind::kWithColumnsRenamed: {
      std::vector<ExprPtr> list;
      // The renames apply one after another, as Spark folds them: {id: a, a: b} renames id to b.
      for (auto& a : child->output) {
        std::string name = a->name;
        for (auto& [from, to] : p->renames)
          if (name_eq(name, from)) name = to;
        list.push_back(name == a->name ? a : alias(a, name));
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
        // A DataFrame column drops only df's own column, never another by its name, whatever
        // spark.sql.analyzer.strictDataFrameColumnResolution says (as in Spark).
        const bool strict = strict_dataframe_columns_;
        strict_dataframe_columns_ = true;
        try {
          ExprPtr r = resolve_expr(e, child, false);
          if (r->kind == ExprKind::kAttribute) drop_ids.insert(r->expr_id);
        } catch (const SparkError&) {
          // Dropping a column that does not exist is a no-op, as in Spark.
        }
        strict_dataframe_columns_ = strict;
      }
      for (auto& name : p->names)
        for (auto& a : child->output)
          if (name_eq(a->name, name)) drop_ids.insert(a->expr_id);
      std::vector<ExprPtr> list;
      for (auto& a : child->output)
        if (!drop_ids.count(a->expr_id)) list.push_back(a);
      return project(child, list);
    }
    case PlanKind::kCoGroupMap: {
      // The function takes every column of both sides; each side's keys resolve against it.
      auto n = std::make_shared<PlanNode>(*p);
      n->children = children;
      std::vector<ExprPtr> args = children[0]->output;
      args.insert(args.end(), children[1]->output.begin(), children[1]->output.end());
      n->exprs = {with_children(p->exprs[0], std::move(args))};
      const size_t k = (p->exprs.size() - 1) / 2;
      for (size_t i = 0; i < 2 * k; ++i) n->exprs.push_back(resolve_expr(p->exprs[1 + i], children[i < k ? 0 : 1], false));
      set_rows_function_output(*n);
      return n;
    }
    case PlanKind::kFlatMapGroups:
    case PlanKind::kMapPartitions: {
      auto n = std::make_shared<PlanNode>(*p);
      n->children = {child};
      n->exprs = {with_children(p->exprs[0], child->output)};
      for (size_t i = 1; i < p->exprs.size(); ++i) n->exprs.push_back(resolve_expr(p->exprs[i], child, false));
      set_rows_function_output(*n);
      return n;
    }
    case PlanKind::kSample: {
      // Spark checks the fraction when it builds the Sample (a plain IllegalArgumentException).
      const double fraction = p->upper - p->lower, eps = 1e-6;
      if (p->with_replacement ? fraction < -eps : (fraction < -eps || fraction > 1 + eps))
        throw SparkError(ErrorKind::kIllegalArgument, "",
                         "requirement failed: Sampling fraction (" + java_double_string(fraction) + ") must be " +
                             (p->with_replacement ? "nonnegative with replacement" : "on interval [0, 1] without replacement"));
      if (p->sample_sorted_input) {
        auto sort = std::make_shared<PlanNode>();
        sort->kind = PlanKind::kSort;
        sort->children = {child};
        for (auto& a : child->output)
          if (a->type->id() != TypeId::kMap) sort->exprs.push_back(sort_order(a, true, true));
        sort->output = child->output;
        sort->resolved = true;
        if (!sort->exprs.empty()) n->children = {sort};
      }
      n->output = child->output;
      return n;
    }
    case PlanKind::kJoin: return resolve_join(p, children[0], children[1]);
    case PlanKind::kGenerate: return resolve_generate(p, child);
    case PlanKind::kPivot: return resolve_pivot(*p, child, relation_resolver());
    case PlanKind::kUnpivot: return resolve_unpivot(*p, child, relation_resolver());
    case PlanKind::kSetOp: {
      if (p->set_op != SetOpType::kUnion) return resolve_set_op(p, children[0], children[1]);
      PlanPtr by_name_left = child;
      const PlanPtr right = p->by_name ? union_by_name(p, children[0], children[1], by_name_left) : children[1];
      const PlanPtr& child = by_name_left;
      n->children = {child, right};
      if (child->output.size() != right->output.size())
        throw SparkError(ErrorKind::kAnalysis, "NUM_COLUMNS_MISMATCH",
                         "UNION can only be performed on inputs with the same number of columns, but the first input has " +
                             std::to_string(child->output.size()) + " columns and the second input has " +
                             std::to_string(right->output.size()) + " columns.");
      std::vector<ExprPtr> lcast, rcast;
      bool need_cast = false;
      n->output.clear();
      std::vector<TypePtr> types = set_op_column_types(child->output, right->output, SetOpType::kUnion);
      for (size_t i = 0; i < child->output.size(); ++i) {
        auto& l = child->output[i];
        auto& r = right->output[i];
        const TypePtr& w = types[i];
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

ExprPtr Analyzer::and_all(const std::vector<ExprPtr>& conjuncts) {
  ExprPtr acc;
  for (auto& c : conjuncts) acc = acc ? resolve_function(call("and", {}), {acc, c}, false) : c;
  return acc;
}

/// Spark's "dedupRight": when both sides of a binary node share attribute ids (a self-join,
/// or a frame joined with one derived from it), the right side's shared attributes get new
/// ids through a projection that keeps their names, qualifiers and the right side's plan id.
PlanPtr Analyzer::dedup_right(const PlanPtr& left, const PlanPtr& right) {
  std::set<int64_t> lids;
  for (auto& a : left->output) lids.insert(a->expr_id);
  bool shared = false;
  for (auto& a : right->output) shared |= lids.count(a->expr_id) > 0;
  if (!shared) return right;
  std::vector<ExprPtr> exprs;
  for (auto& a : right->output) exprs.push_back(lids.count(a->expr_id) ? alias(a, a->name) : a);
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kProject;
  n->children = {right};
  n->exprs = exprs;
  for (size_t i = 0; i < exprs.size(); ++i) {
    auto attr = std::make_shared<Expr>(*to_attribute(exprs[i]));
    attr->qualifier = right->output[i]->qualifier;
    n->output.push_back(attr);
  }
  n->resolved = true;
  n->plan_id = right->plan_id;
  return n;
}

PlanPtr Analyzer::join_node(const PlanPtr& left, const PlanPtr& right, JoinType type, ExprPtr condition) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kJoin;
  n->children = {left, right};
  n->join_type = type;
  n->condition = std::move(condition);
  auto nullable = [](const ExprPtr& a) {
    if (a->nullable) return a;
    auto c = std::make_shared<Expr>(*a);
    c->nullable = true;
    return ExprPtr(c);
  };
  bool left_nullable = type == JoinType::kRightOuter || type == JoinType::kFullOuter;
  bool right_nullable = type == JoinType::kLeftOuter || type == JoinType::kFullOuter;
  for (auto& a : left->output) n->output.push_back(left_nullable ? nullable(a) : a);
  if (type != JoinType::kLeftSemi && type != JoinType::kLeftAnti)
    for (auto& a : right->output) n->output.push_back(right_nullable ? nullable(a) : a);
  n->resolved = true;
  return n;
}

namespace {
/// A join type as SQL writes it (`RIGHT OUTER`).
std::string sql_join_type(JoinType t) {
  switch (t) {
    case JoinType::kRightOuter: return "RIGHT OUTER";
    case JoinType::kFullOuter: return "FULL OUTER";
    case JoinType::kLeftSemi: return "LEFT SEMI";
    case JoinType::kLeftAnti: return "LEFT ANTI";
    case JoinType::kLeftOuter: return "LEFT OUTER";
    case JoinType::kCross: return "CROSS";
    default: return "INNER";
  }
}
}  // namespace

PlanPtr Analyzer::resolve_join(const PlanPtr& p, const PlanPtr& left, PlanPtr right) {
  if (p->natural) {
    // NATURAL JOIN is a USING join on the columns both sides have, in the left side's order.
    auto using_join = copy(*p);
    using_join->natural = false;
    for (auto& l : left->output) {
      bool common = false;
      for (auto& r : right->output) common |= name_eq(l->name, r->name);
      bool listed = false;
      for (auto& u : using_join->using_columns) listed |= name_eq(u, l->name);
      if (common && !listed) using_join->using_columns.push_back(l->name);
    }
    return resolve_join(using_join, left, right);
  }
  right = dedup_right(left, right);
  if (p->using_columns.empty()) {
    ExprPtr condition;
    if (p->condition) {
      // The condition sees both sides; df["col"] references pick a side through plan ids.
      PlanPtr scope = join_node(left, right, JoinType::kInner, nullptr);
      const PlanNode* saved = join_condition_scope_;
      join_condition_scope_ = scope.get();
      try {
        condition = resolve_expr(p->condition, scope, false);
      } catch (...) {
        join_condition_scope_ = saved;
        throw;
      }
      join_condition_scope_ = saved;
      if (condition->type->id() != TypeId::kBoolean && condition->type->id() != TypeId::kNull)
        throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                         "Cannot resolve \"" + condition->to_string() + "\" due to data type mismatch: the join "
                         "condition must be a boolean.");
    }
    if (p->lateral) {
      if (p->join_type != JoinType::kInner && p->join_type != JoinType::kLeftOuter &&
          p->join_type != JoinType::kCross)
        throw SparkError(ErrorKind::kAnalysis, "INVALID_LATERAL_JOIN_TYPE",
                         "The " + sql_join_type(p->join_type) +
                             " JOIN with LATERAL correlation is not allowed because an OUTER "
                             "subquery cannot correlate to its join partner. Remove the LATERAL "
                             "correlation or use an INNER JOIN, or LEFT OUTER JOIN instead.",
                         {{"joinType", sql_join_type(p->join_type)}}, "42613");
      JoinType type = p->join_type == JoinType::kCross ? JoinType::kInner : p->join_type;
      check_lateral_subquery(left, right, join_node(left, right, type, condition));
      check_lateral_join_condition(condition);
      return lateral_join(left, right, type, condition, session_.config());
    }
    auto n = std::const_pointer_cast<PlanNode>(join_node(left, right, p->join_type, condition));
    n->plan_id = p->plan_id;
    return n;
  }
  // USING join: equality on same-named columns; key columns appear once, first.
  auto find = [&](const PlanPtr& side, const std::string& name, const char* which) -> ExprPtr {
    ExprPtr found;
    for (auto& a : side->output)
      if (name_eq(a->name, name)) {
        found = a;
        break;
      }
    if (!found) {
      std::string cols;
      for (size_t i = 0; i < side->output.size(); ++i) cols += (i ? ", " : "") + side->output[i]->name;
      throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_USING_COLUMN_FOR_JOIN",
                       "USING column " + quote_id(name) + " cannot be resolved on the " + which +
                           " side of the join. The " + which + "-side columns: [" + cols + "].",
                       {{"colName", quote_id(name)}, {"side", which}, {"suggestion", cols}});
    }
    return found;
  };
  std::vector<ExprPtr> lkeys, rkeys, eqs;
  for (auto& name : p->using_columns) {
    lkeys.push_back(find(left, name, "left"));
    rkeys.push_back(find(right, name, "right"));
    eqs.push_back(resolve_function(call("==", {}), {lkeys.back(), rkeys.back()}, false));
  }
  PlanPtr join = join_node(left, right, p->join_type, and_all(eqs));
  std::set<int64_t> key_ids;
  for (auto& k : lkeys) key_ids.insert(k->expr_id);
  for (auto& k : rkeys) key_ids.insert(k->expr_id);
  auto out_attr = [&](const ExprPtr& a) {
    for (auto& o : join->output)
      if (o->expr_id == a->expr_id) return o;
    return a;
  };
  std::vector<ExprPtr> list;
  for (size_t i = 0; i < lkeys.size(); ++i) {
    switch (p->join_type) {
      case JoinType::kRightOuter: list.push_back(out_attr(rkeys[i])); break;
      case JoinType::kFullOuter: {
        auto c = std::make_shared<Expr>();
        c->kind = ExprKind::kCoalesce;
        c->name = "coalesce";
        ExprPtr l = lkeys[i], r = rkeys[i];
        TypePtr t = l->type;
        if (!l->type->equals(*r->type)) {
          TypePtr w = functions::wider_type(l->type, r->type, false);
          if (w) {
            t = w;
            l = implicit_cast(l, w);
            r = implicit_cast(r, w);
          }
        }
        c->type = t;
        c->nullable = l->nullable && r->nullable;
        c->children = {l, r};
        list.push_back(alias(c, lkeys[i]->name));
        break;
      }
      default: list.push_back(out_attr(lkeys[i]));
    }
  }
  for (auto& a : join->output) {
    if (key_ids.count(a->expr_id)) continue;
    list.push_back(a);
  }
  auto proj = std::const_pointer_cast<PlanNode>(project(join, list));
  // Qualified references (t.col) keep working above a USING join.
  for (size_t i = 0; i < proj->output.size(); ++i)
    if (list[i]->kind == ExprKind::kAttribute) proj->output[i] = list[i];
  proj->plan_id = p->plan_id;
  return proj;
}

/// unionByName: the right side reordered to the left's column names; with allowMissingColumns,
/// columns missing on either side are null literals (the left's extra columns come last).
PlanPtr Analyzer::union_by_name(const PlanPtr& p, const PlanPtr& left, const PlanPtr& right, PlanPtr& new_left) {
  std::vector<ExprPtr> rlist;
  std::vector<ExprPtr> lextra;
  for (auto& l : left->output) {
    ExprPtr match;
    for (auto& r : right->output)
      if (name_eq(r->name, l->name)) {
        match = r;
        break;
      }
    if (!match) {
      if (!p->allow_missing) {
        throw_column_among_field_names(l->name, right->output);
      }
      match = alias(lit(Value(), l->type), l->name);
    }
    rlist.push_back(match);
  }
  for (auto& r : right->output) {
    bool found = false;
    for (auto& l : left->output) found |= name_eq(r->name, l->name);
    if (found) continue;
    if (!p->allow_missing)
      throw SparkError(ErrorKind::kAnalysis, "NUM_COLUMNS_MISMATCH",
                       "UNION can only be performed on inputs with the same number of columns, but the first input has " +
                           std::to_string(left->output.size()) + " columns and the second input has " +
                           std::to_string(right->output.size()) + " columns.");
    rlist.push_back(r);
    lextra.push_back(alias(lit(Value(), r->type), r->name));
  }
  new_left = left;
  if (!lextra.empty()) {
    std::vector<ExprPtr> llist = left->output;
    for (auto& e : lextra) llist.push_back(e);
    new_left = project(left, llist);
  }
  return project(right, rlist);
}

/// INTERSECT and EXCEPT (distinct) as a left semi / anti join on null-safe equality of every
/// column, followed by a distinct over the left columns.
PlanPtr Analyzer::resolve_set_op(const PlanPtr& p, PlanPtr left, PlanPtr right) {
  const char* what = set_op_name(p->set_op);
  if (left->output.size() != right->output.size())
    throw SparkError(ErrorKind::kAnalysis, "NUM_COLUMNS_MISMATCH",
                     std::string(what) + " can only be performed on inputs with the same number of columns, but the first "
                         "input has " + std::to_string(left->output.size()) + " columns and the second input has " +
                         std::to_string(right->output.size()) + " columns.",
                     {{"operator", what}, {"firstNumColumns", std::to_string(left->output.size())},
                      {"invalidOrdinalNum", "second"}, {"invalidNumColumns", std::to_string(right->output.size())}});
  reject_map_columns(left->output);
  right = dedup_right(left, right);
  std::vector<ExprPtr> lcast, rcast;
  bool need_cast = false;
  std::vector<TypePtr> types = set_op_column_types(left->output, right->output, p->set_op);
  for (size_t i = 0; i < left->output.size(); ++i) {
    auto& l = left->output[i];
    auto& r = right->output[i];
    const TypePtr& w = types[i];
    need_cast |= !l->type->equals(*w) || !r->type->equals(*w);
    lcast.push_back(l->type->equals(*w) ? l : alias(implicit_cast(l, w), l->name));
    rcast.push_back(r->type->equals(*w) ? r : alias(implicit_cast(r, w), r->name));
  }
  if (need_cast) {
    left = project(left, lcast);
    right = project(right, rcast);
  }
  std::vector<ExprPtr> eqs;
  for (size_t i = 0; i < left->output.size(); ++i)
    eqs.push_back(resolve_function(call("<=>", {}), {left->output[i], right->output[i]}, false));
  JoinType type = p->set_op == SetOpType::kIntersect ? JoinType::kLeftSemi : JoinType::kLeftAnti;
  if (p->is_all) {
    // INTERSECT ALL / EXCEPT ALL: number the left's duplicates (row_number per distinct row)
    // and count the right's; the n-th copy of a row matches when the right has at least n, so
    // a semi join keeps min(l, r) copies and an anti join max(l - r, 0).
    std::vector<ExprPtr> order = {sort_order(left->output[0], true, true)};
    ExprPtr rn = alias(resolve_window(resolve_window_function("row_number", {}, false), left->output, order, WindowFrame{}),
                       "__copy");
    std::vector<ExprPtr> numbered = left->output;
    numbered.push_back(rn);
    PlanPtr lnum = project_with_windows(left, numbered, -1);
    ExprPtr cnt = alias(resolve_function(call("count", {}), {lit(Value::integer(1), DataType::int_())}, true), "__count");
    auto counts = std::make_shared<PlanNode>();
    counts->kind = PlanKind::kAggregate;
    counts->children = {right};
    counts->exprs = right->output;
    counts->aggregates = right->output;
    counts->aggregates.push_back(cnt);
    counts->aggregate_output_is_select_list = true;
    for (auto& e : counts->aggregates) counts->output.push_back(to_attribute(e));
    counts->resolved = true;
    ExprPtr copy_attr = lnum->output.back();
    ExprPtr count_attr = counts->output.back();
    ExprPtr fits = resolve_function(call("<=", {}), {implicit_cast(copy_attr, DataType::long_()), count_attr}, false);
    eqs.push_back(fits);
    PlanPtr join = join_node(lnum, counts, type, and_all(eqs));
    std::vector<ExprPtr> out(left->output.begin(), left->output.end());
    auto proj = std::const_pointer_cast<PlanNode>(project(join, out));
    proj->plan_id = p->plan_id;
    return proj;
  }
  PlanPtr join = join_node(left, right, type, and_all(eqs));
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < left->output.size(); ++i) {
    ExprPtr a = left->output[i];
    if (type == JoinType::kLeftSemi && a->nullable && !right->output[i]->nullable) {
      auto c = std::make_shared<Expr>(*a);
      c->nullable = false;
      a = c;
    }
    out.push_back(a);
  }
  auto agg = std::make_shared<PlanNode>();
  agg->kind = PlanKind::kAggregate;
  agg->children = {join};
  agg->exprs = out;
  agg->aggregates = out;
  agg->output = out;
  agg->plan_id = p->plan_id;
  return agg;
}

}  // namespace

namespace {
/// A literal value's identity: its scalar text, or its elements' (fields', entries') keys in
/// brackets. A literal's name leaves nested values out, so two arrays of percentages must not
/// be told apart by it.
std::string literal_key(const Value& v, const TypePtr& t) {
  if (v.is_null() || !t || !t->is_nested()) return lit(v, t)->to_string();
  const auto& fields = t->fields();
  std::string out = "[";
  const auto& items = v.as_list();
  for (size_t i = 0; i < items.size(); ++i) {
    if (t->id() == TypeId::kStruct) out += literal_key(items[i], fields[i].type);
    else if (t->id() == TypeId::kMap) out += literal_key(items[i].as_list()[0], fields[0].type) + ":" +
                                             literal_key(items[i].as_list()[1], fields[1].type);
    else out += literal_key(items[i], fields[0].type);
    out += ",";
  }
  return out + "]";
}
}  // namespace

std::string semantic_key(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::kAttribute: return "#" + std::to_string(e->expr_id);
    case ExprKind::kAlias: return semantic_key(e->children[0]);
    case ExprKind::kLiteral:
      return "lit:" + literal_key(e->value, e->type) + ":" + (e->type ? e->type->simple_string() : "");
    // Two subqueries are the same expression only when they are the same node.
    case ExprKind::kSubquery: return "subquery@" + std::to_string(reinterpret_cast<uintptr_t>(e->subquery.get()));
    default: {
      std::string s = std::to_string(static_cast<int>(e->kind)) + ":" + (e->function ? e->function->name : e->name) +
                      (e->type ? ":" + e->type->simple_string() : "") + (e->distinct ? ":d" : "") + "(";
      std::vector<std::string> kids;
      for (auto& c : e->children) kids.push_back(semantic_key(c));
      // Commutative operators compare equal whatever the order of their operands (a = b is b = a).
      static const std::set<std::string> commutative = {"==", "<=>", "and", "or", "+", "*", "&", "|", "^"};
      if (e->kind == ExprKind::kCall && e->function && commutative.count(e->function->name))
        std::sort(kids.begin(), kids.end());
      for (auto& k : kids) s += k + ",";
      if (e->filter) s += " FILTER " + semantic_key(e->filter);
      if (e->kind == ExprKind::kSortOrder)
        s += std::string(e->ascending ? " ASC" : " DESC") + (e->nulls_first ? " NULLS FIRST" : " NULLS LAST");
      // Two Python functions may share a name (`<lambda>`): their pickled bytes tell them apart.
      if (e->kind == ExprKind::kPythonUdf && e->python) {
        s += " py" + std::to_string(std::hash<std::string>{}(e->python->command));
        for (auto& n : e->python->arg_names) s += "," + n;
      }
      return s + ")";
    }
  }
}

namespace {
const TimeZone& session_zone(Session& session) {
  const TimeZone* zone = TimeZone::find(session.config().session_time_zone());
  return zone ? *zone : TimeZone::utc();
}
}  // namespace

PlanPtr analyze_plan(const PlanPtr& unresolved, Session& session) {
  NamingScope naming(session_zone(session), session.config().ansi_enabled());
  PlanPtr resolved = Analyzer(session).resolve(unresolved);
  check_input_file_sources(resolved);
  return resolved;
}

ExprPtr resolve_expression(const ExprPtr& e, const PlanPtr& child, Session& session, bool allow_aggregates) {
  NamingScope naming(session_zone(session), session.config().ansi_enabled());
  return Analyzer(session).resolve_expr(e, child, allow_aggregates);
}

}  // namespace ember::plan
