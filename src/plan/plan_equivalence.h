#pragma once

#include <cstddef>
#include <vector>

#include "plan/logical_plan.h"

namespace ember::plan {

/// Whether two resolved plans give the same rows in the same column positions, the attributes
/// each defines (scan columns, aliases, aggregate and window outputs) being renamed one-to-one.
/// The same view or CTE read twice, or the input a ROLLUP repeats under each grouping set,
/// compare equal although the analyzer gave each copy fresh attribute ids.
///
/// Answers false whenever it cannot be sure: a nondeterministic expression (rand, uuid ...),
/// a subquery or outer reference left in an expression, a node kind it does not know, or any
/// field that differs (literals compare by value and type, functions by definition). Both plans
/// must be closed: every attribute an expression reads comes from the node's children, which
/// holds for plans past run_scalar_subqueries.
bool plans_equivalent(const PlanPtr& a, const PlanPtr& b);

/// Whether two resolved plans give the same result in Spark's sense of `sameResult`, which the
/// cache uses to find a cached plan inside a query: as plans_equivalent, except that a
/// nondeterministic call equals the same call (rand(42) and rand(42): a cached rand column
/// keeps its values) unless it draws its seed when it runs (SQL's rand()), reads equal when they scan the same files with the same format, options
/// and schema (the reader objects of two analyses differ), and local relations when they hold
/// equal values.
bool plans_same_result(const PlanPtr& a, const PlanPtr& b);

/// A hash of a plan's shape that ignores attribute ids: equivalent plans hash alike, so that
/// candidates for plans_equivalent can be bucketed.
size_t plan_shape_hash(const PlanPtr& p);

/// Whether plans_equivalent can ever hold for `p` (deterministic, no subqueries, known kinds).
bool plan_comparable(const PlanPtr& p);

/// The subplans a query reads more than once, which the physical plan runs once for all their
/// places (spark.sql.exchange.reuse): groups of two or more equivalent places, each with a join,
/// aggregate, window, sort or set operation in it. The walk does not enter a place equivalent to
/// one it saw before, so a subplan nested in a repeated one groups only with others outside.
std::vector<std::vector<PlanPtr>> repeated_subplans(const PlanPtr& root);

}  // namespace ember::plan
