#pragma once

#include <cstdint>
#include <optional>

#include "plan/logical_plan.h"

namespace ember::plan {

/// Row-count estimates of resolved plans, for the planner's choices only: which side of a hash
/// join to build, and the order of inner joins. Without column statistics they are rough, in
/// the way of a rule-based optimizer:
///  - sources report their row counts (Parquet footers) or a guess from their bytes;
///  - a filter keeps a fixed fraction per conjunct (a tenth for an equality with a constant,
///    a third for any other comparison, half for anything else);
///  - an inner equi-join keeps the larger of its inputs as they were before any filter (a
///    foreign key meeting its primary key), times the fraction of each input its filters keep:
///    a fact table joined to a filtered dimension keeps that dimension's share. Outer equi-joins
///    keep the larger of their inputs; a join without equalities multiplies them;
///  - a grouping keeps a quarter of its input, a global aggregate one row.
/// A result never feeds back into answers, so a bad estimate costs time, never correctness.
double estimate_rows(const PlanPtr& plan);

/// An estimate with `base`, the rows the same plan would give with every filter in it keeping
/// all rows: `rows / base` is the fraction its filters keep.
struct RowEstimate {
  double rows = 0;
  double base = 0;
};
RowEstimate estimate_rows_and_base(const PlanPtr& plan);

/// The rows of an inner equi-join of inputs so estimated (the rule above).
double inner_join_rows(const RowEstimate& left, const RowEstimate& right);

/// The fraction of rows a filter condition keeps, by the rules above.
double estimate_selectivity(const ExprPtr& condition);

/// The most rows a resolved plan can produce, when its shape alone bounds them (Spark's
/// maxRows): a range's or local relation's rows, a limit, one row of an aggregate without
/// grouping keys, through the operators that never add rows, a union's sum, a join's product.
/// Unlike the estimates above, answers depend on it: the optimizer drops limits it makes
/// redundant, and a LATERAL join's checks accept a non-deterministic subquery only beside a
/// relation of one row at most.
std::optional<int64_t> max_rows(const PlanPtr& plan);

}  // namespace ember::plan
