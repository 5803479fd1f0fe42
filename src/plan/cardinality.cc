#include "plan/cardinality.h"

#include <algorithm>

#include "functions/function.h"
#include "io/data_source.h"
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

double estimate_rows(const PlanPtr& n) {
  auto child = [&](size_t i = 0) { return estimate_rows(n->children[i]); };
  switch (n->kind) {
    case PlanKind::kRange: {
      if (n->range_step == 0) return 0;
      double rows = (static_cast<double>(n->range_end) - static_cast<double>(n->range_start)) /
                    static_cast<double>(n->range_step);
      return std::max(0.0, rows);
    }
    case PlanKind::kLocalRelation: {
      double rows = 0;
      for (auto& b : n->batches) rows += static_cast<double>(b.num_rows);
      return rows;
    }
    case PlanKind::kRead: return n->reader ? n->reader->estimated_rows() : kUnknownRows;
    case PlanKind::kEmpty: return 0;
    case PlanKind::kFilter: return child() * estimate_selectivity(n->condition);
    case PlanKind::kAggregate: return n->exprs.empty() ? 1 : std::max(1.0, child() * 0.25);
    case PlanKind::kDistinct: return child() * 0.5;
    case PlanKind::kLimit:
    case PlanKind::kTail: return std::min(static_cast<double>(n->limit), child());
    case PlanKind::kOffset: return std::max(0.0, child() - static_cast<double>(n->limit));
    case PlanKind::kSample: return child() * std::max(0.0, n->upper - n->lower);
    case PlanKind::kJoin: {
      double l = child(0), r = child(1);
      bool equi = n->condition != nullptr;
      switch (n->join_type) {
        case JoinType::kLeftSemi:
        case JoinType::kLeftAnti: return l * 0.5;
        case JoinType::kExistence: return l;
        case JoinType::kFullOuter: return equi ? l + r : l * r;
        case JoinType::kLeftOuter: return equi ? std::max(l, r) : std::max(l, l * r);
        case JoinType::kRightOuter: return equi ? std::max(l, r) : std::max(r, l * r);
        case JoinType::kInner:
        case JoinType::kCross: return equi ? std::max(l, r) : l * r;
      }
      return std::max(l, r);
    }
    case PlanKind::kSetOp: {
      double l = child(0), r = child(1);
      switch (n->set_op) {
        case SetOpType::kUnion: {
          double sum = 0;
          for (size_t i = 0; i < n->children.size(); ++i) sum += child(i);
          return sum;
        }
        case SetOpType::kIntersect: return std::min(l, r);
        case SetOpType::kExcept: return l;
      }
      return l;
    }
    default: return n->children.empty() ? kUnknownRows : child();
  }
}

}  // namespace ember::plan
