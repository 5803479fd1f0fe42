#include "plan/cardinality.h"

#include <algorithm>
#include <limits>

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

std::optional<int64_t> max_rows(const PlanPtr& n) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (n->kind) {
    case PlanKind::kEmpty: return 0;
    case PlanKind::kRange: {
      if (n->range_step == 0) return std::nullopt;
      __int128 span = static_cast<__int128>(n->range_end) - n->range_start;
      __int128 count = span / n->range_step + (span % n->range_step != 0 ? 1 : 0);
      if (count < 0) count = 0;
      if (count > kMax) return std::nullopt;
      return static_cast<int64_t>(count);
    }
    case PlanKind::kLocalRelation: {
      // A cached plan's rows and a checkpoint's (Spark's InMemoryRelation and LogicalRDD) are
      // not counted.
      if (n->cached || n->checkpointed) return std::nullopt;
      int64_t rows = 0;
      for (auto& b : n->batches) rows += b.num_rows;
      return rows;
    }
    case PlanKind::kLimit:
    case PlanKind::kTail: {
      auto c = max_rows(n->children[0]);
      return c ? std::min(*c, n->limit) : n->limit;
    }
    case PlanKind::kOffset: {
      auto c = max_rows(n->children[0]);
      if (!c) return std::nullopt;
      return std::max<int64_t>(0, *c - n->limit);
    }
    case PlanKind::kAggregate:
      if (n->exprs.empty() && n->grouping_sets.empty()) return 1;
      return max_rows(n->children[0]);
    case PlanKind::kProject:
    case PlanKind::kFilter:
    case PlanKind::kSort:
    case PlanKind::kSubqueryAlias:
    case PlanKind::kDistinct:
    case PlanKind::kRepartition:
    case PlanKind::kHint:
    case PlanKind::kWindow:
      return max_rows(n->children[0]);
    case PlanKind::kSample:
      // Drawn with replacement, a row may come out several times.
      if (n->with_replacement) return std::nullopt;
      return max_rows(n->children[0]);
    case PlanKind::kSetOp: {
      if (n->set_op == SetOpType::kExcept) return max_rows(n->children[0]);
      std::optional<int64_t> out;
      for (auto& c : n->children) {
        auto r = max_rows(c);
        if (!r) return std::nullopt;
        if (n->set_op == SetOpType::kIntersect) out = out ? std::min(*out, *r) : *r;
        else if (out && *r > kMax - *out) return std::nullopt;
        else out = out.value_or(0) + *r;
      }
      return out;
    }
    case PlanKind::kJoin: {
      auto left = max_rows(n->children[0]);
      if (n->join_type == JoinType::kLeftSemi || n->join_type == JoinType::kLeftAnti ||
          n->join_type == JoinType::kExistence)
        return left;
      auto right = max_rows(n->children[1]);
      if (!left || !right) return std::nullopt;
      __int128 rows = static_cast<__int128>(*left) * *right;
      // An outer join keeps its preserved sides' rows even without matches.
      if (n->join_type == JoinType::kLeftOuter) rows = std::max<__int128>(rows, *left);
      if (n->join_type == JoinType::kRightOuter) rows = std::max<__int128>(rows, *right);
      if (n->join_type == JoinType::kFullOuter) rows = std::max<__int128>(rows, static_cast<__int128>(*left) + *right);
      if (rows > kMax) return std::nullopt;
      return static_cast<int64_t>(rows);
    }
    default: return std::nullopt;
  }
}

}  // namespace ember::plan
