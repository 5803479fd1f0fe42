#include "plan/cardinality.h"

#include <algorithm>

#include "functions/function.h"
#include "io/data_source.h"
#include "plan/cache_manager.h"
#include "plan/expression.h"

namespace ember::plan {
namespace {

// Sources whose size is not known count as large, so they are probed rather than built.
constexpr double kUnknownRows = 1e6;

bool is_constant(const ExprPtr& e) {
  if (e->kind == ExprKind::kLiteral) return true;
  if (e->kind == ExprKind::kCast) return is_constant(e->children[0]);
  return false;
}

double conjunct_selectivity(const ExprPtr& e) {
  if (e->kind == ExprKind::kCall && e->function) {
    const std::string& f = e->function->name;
    if (f == "and") return conjunct_selectivity(e->children[0]) * conjunct_selectivity(e->children[1]);
    if (f == "or")
      return std::min(1.0, conjunct_selectivity(e->children[0]) + conjunct_selectivity(e->children[1]));
    if (f == "not") return 1.0 - conjunct_selectivity(e->children[0]);
    if ((f == "==" || f == "<=>") && e->children.size() == 2 &&
        (is_constant(e->children[0]) || is_constant(e->children[1])))
      return 0.1;
    if (f == "==" || f == "<" || f == "<=" || f == ">" || f == ">=" || f == "<=>") return 1.0 / 3;
    if (f == "in") return std::min(0.5, 0.1 * static_cast<double>(e->children.size() - 1));
  }
  return 0.5;
}

}  // namespace

double estimate_selectivity(const ExprPtr& condition) {
  return std::clamp(conjunct_selectivity(condition), 1e-4, 1.0);
}

RowEstimate estimate_rows_and_base(const PlanPtr& n) {
  auto child = [&](size_t i = 0) { return estimate_rows_and_base(n->children[i]); };
  auto same = [](double rows) { return RowEstimate{rows, rows}; };
  switch (n->kind) {
    case PlanKind::kRange: {
      if (n->range_step == 0) return same(0);
      double rows = (static_cast<double>(n->range_end) - static_cast<double>(n->range_start)) /
                    static_cast<double>(n->range_step);
      return same(std::max(0.0, rows));
    }
    case PlanKind::kLocalRelation: {
      if (n->cached) {
        int64_t cached = n->cached->batches->num_rows();
        if (cached >= 0) return same(static_cast<double>(cached));
        return estimate_rows_and_base(n->cached->plan);
      }
      double rows = 0;
      for (auto& b : n->batches) rows += static_cast<double>(b.num_rows);
      return same(rows);
    }
    case PlanKind::kRead: return same(n->reader ? n->reader->estimated_rows() : kUnknownRows);
    case PlanKind::kEmpty: return same(0);
    case PlanKind::kFilter: {
      RowEstimate c = child();
      return {c.rows * estimate_selectivity(n->condition), c.base};
    }
    case PlanKind::kAggregate: {
      if (n->exprs.empty()) return same(1);
      RowEstimate c = child();
      return {std::max(1.0, c.rows * 0.25), std::max(1.0, c.base * 0.25)};
    }
    case PlanKind::kDistinct: {
      RowEstimate c = child();
      return {c.rows * 0.5, c.base * 0.5};
    }
    case PlanKind::kLimit:
    case PlanKind::kTail: {
      RowEstimate c = child();
      double limit = static_cast<double>(n->limit);
      return {std::min(limit, c.rows), std::min(limit, c.base)};
    }
    case PlanKind::kOffset: {
      RowEstimate c = child();
      double offset = static_cast<double>(n->limit);
      return {std::max(0.0, c.rows - offset), std::max(0.0, c.base - offset)};
    }
    case PlanKind::kSample: {
      RowEstimate c = child();
      double f = std::max(0.0, n->upper - n->lower);
      return {c.rows * f, c.base * f};
    }
    case PlanKind::kJoin: {
      RowEstimate le = child(0), re = child(1);
      double l = le.rows, r = re.rows;
      bool equi = n->condition != nullptr;
      switch (n->join_type) {
        case JoinType::kLeftSemi:
        case JoinType::kLeftAnti: return {l * 0.5, le.base * 0.5};
        case JoinType::kExistence: return {l, le.base};
        case JoinType::kFullOuter: return same(equi ? l + r : l * r);
        case JoinType::kLeftOuter: return {equi ? std::max(l, r) : std::max(l, l * r), le.base};
        case JoinType::kRightOuter: return {equi ? std::max(l, r) : std::max(r, l * r), re.base};
        case JoinType::kInner:
        case JoinType::kCross:
          if (!equi) return {l * r, le.base * re.base};
          return {inner_join_rows(le, re), std::max(le.base, re.base)};
      }
      return same(std::max(l, r));
    }
    case PlanKind::kSetOp: {
      RowEstimate l = child(0), r = child(1);
      switch (n->set_op) {
        case SetOpType::kUnion: {
          RowEstimate sum{0, 0};
          for (size_t i = 0; i < n->children.size(); ++i) {
            RowEstimate c = child(i);
            sum.rows += c.rows;
            sum.base += c.base;
          }
          return sum;
        }
        case SetOpType::kIntersect: return {std::min(l.rows, r.rows), std::min(l.base, r.base)};
        case SetOpType::kExcept: return l;
      }
      return l;
    }
    default: return n->children.empty() ? same(kUnknownRows) : child();
  }
}

double inner_join_rows(const RowEstimate& l, const RowEstimate& r) {
  auto kept = [](const RowEstimate& e) { return e.base > 0 ? std::min(1.0, e.rows / e.base) : 1.0; };
  return std::max(l.base, r.base) * kept(l) * kept(r);
}

double estimate_rows(const PlanPtr& n) { return estimate_rows_and_base(n).rows; }

}  // namespace ember::plan
