#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/config.h"
#include "plan/logical_plan.h"

namespace ember::plan {

// Subquery expressions (`ExprKind::kSubquery`) and their decorrelation into joins.
//
// The analyzer resolves a subquery's plan with the enclosing query's input as an outer scope:
// names its own FROM does not resolve become `kOuterReference`s to the enclosing attributes.
// The optimizer then rewrites every subquery that is not an uncorrelated scalar into a join
// (rule_rewrite_predicate_subquery.cc, rule_rewrite_correlated_scalar_subquery.cc); what is
// left, uncorrelated scalar subqueries, runs once before the query (physical planning).

/// A copy of `e` with every attribute replaced by `f(attribute)`.
ExprPtr transform_attributes(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f);
/// `e` moved one query up: outer references to the enclosing query become the attributes they
/// name; those to queries further up stay outer references, one level nearer.
ExprPtr strip_outer_references(const ExprPtr& e);
bool has_outer_reference(const ExprPtr& e);
bool has_subquery(const ExprPtr& e);
/// Whether the plan reads an attribute of an enclosing query anywhere (nested subqueries
/// included).
bool plan_is_correlated(const PlanPtr& plan);
/// Spark's listing of the outer attributes a subquery reads, for its name (`a, b`).
std::string outer_reference_names(const PlanPtr& plan);

/// A resolved call of a registered scalar function (`==`, `and`, `isnull`, ...) over resolved
/// arguments whose types the function accepts as they are.
ExprPtr resolved_call(const std::string& name, std::vector<ExprPtr> args, const Config& conf);
void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out);
/// The ids of the attributes `e` reads, and whether they all lie in `ids`.
void collect_attribute_ids(const ExprPtr& e, std::set<int64_t>& out);
bool refs_subset(const ExprPtr& e, const std::set<int64_t>& ids);
ExprPtr conjoin(const std::vector<ExprPtr>& parts, const Config& conf);

/// A subquery plan with its correlated conjuncts pulled out of it: `plan` no longer reads outer
/// attributes and outputs the subquery's columns first, then the columns `predicates` read;
/// `predicates` are the pulled conjuncts over those columns and the outer attributes (no longer
/// wrapped). Pulls through Project, Filter and SubqueryAlias; correlation anywhere else raises
/// Spark's UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY error.
struct Decorrelated {
  PlanPtr plan;
  std::vector<ExprPtr> predicates;
};
Decorrelated pull_up_correlated_predicates(const PlanPtr& subquery, const Config& conf);

/// A LATERAL join: `right`, resolved with `left` as its outer scope, decorrelated into a join
/// with `left` (an inner or left outer `type`; `condition` over both outputs, or null). A
/// correlated aggregate without keys gives one row for each left row; otherwise the subquery's
/// correlated conjuncts become the join condition and its select list is computed above the
/// join. The result outputs the left columns, then the subquery's under their own ids.
/// `single_match`: each left row may match one subquery row at most (a scalar subquery), more
/// fail the query.
PlanPtr lateral_join(const PlanPtr& left, const PlanPtr& right, JoinType type,
                     const ExprPtr& condition, const Config& conf, bool single_match = false);

/// Rewrites the subquery expressions of `e`, reading `input`'s columns, into attributes of
/// joins added above `input` (which the call replaces): EXISTS and IN become existence joins
/// (a match flag), a correlated scalar subquery a left outer join with its aggregate grouped by
/// the correlation keys. `predicates` picks which: EXISTS / IN (true) or correlated scalar
/// subqueries (false); uncorrelated scalar subqueries always stay. `rewrite_nested` is applied
/// to each subquery's plan first.
ExprPtr rewrite_subquery_expressions(const ExprPtr& e, PlanPtr& input, const Config& conf,
                                     bool predicates,
                                     const std::function<PlanPtr(const PlanPtr&)>& rewrite_nested);

/// The join that tests a predicate subquery: `kind` is kLeftSemi, kLeftAnti or kExistence
/// (then `mark` is the flag attribute). IN's values compare with the subquery's columns; a
/// negated IN (kLeftAnti, or an existence flag that will be negated: `null_aware`) matches
/// when a comparison is null too, as NOT IN requires.
PlanPtr predicate_subquery_join(const PlanPtr& input, const ExprPtr& subquery, JoinType kind,
                                bool null_aware, const ExprPtr& mark, const Config& conf);

/// A projection of `child` to exactly `output` (attributes of `child`).
PlanPtr project_to(const PlanPtr& child, const std::vector<ExprPtr>& output);
PlanPtr filter_node(const PlanPtr& child, ExprPtr condition);

}  // namespace ember::plan
