// ConstantFolding: replaces deterministic expressions whose inputs are all literals by their
// value. An expression that fails to evaluate (e.g. 1/0 under ANSI) is left for execution, so
// the error surfaces only if the row is actually computed, as in Spark.

#include "common/error.h"
#include "exec/expression.h"
#include "plan/collation_resolution.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

bool foldable(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::kLiteral: return true;
    case ExprKind::kCall:
    case ExprKind::kCast:
    case ExprKind::kCaseWhen:
    case ExprKind::kIf:
    case ExprKind::kCoalesce:
      if (!e->deterministic()) return false;
      for (auto& c : e->children)
        if (c->kind != ExprKind::kLiteral) return false;
      return true;
    default: return false;
  }
}

exec::PhysExprPtr to_physical(const ExprPtr& e, const Config& conf) {
  auto p = std::make_shared<exec::PhysExpr>();
  p->type = e->type;
  p->nullable = e->nullable;
  switch (e->kind) {
    case ExprKind::kLiteral:
      p->kind = exec::PhysExpr::Kind::kLiteral;
      p->value = e->value;
      return p;
    case ExprKind::kCall: {
      p->kind = exec::PhysExpr::Kind::kCall;
      p->function = e->function;
      p->signature = scalar_call_signature(*e->function, e->children, conf);
      break;
    }
    case ExprKind::kCast:
      p->kind = exec::PhysExpr::Kind::kCast;
      p->try_cast = e->try_;
      break;
    case ExprKind::kCaseWhen:
      p->kind = exec::PhysExpr::Kind::kCaseWhen;
      p->has_else = e->has_else;
      break;
    case ExprKind::kIf: p->kind = exec::PhysExpr::Kind::kIf; break;
    default: p->kind = exec::PhysExpr::Kind::kCoalesce; break;
  }
  for (auto& c : e->children) p->children.push_back(to_physical(c, conf));
  return p;
}

/// `top` with its foldable subexpressions replaced by their values. A subexpression whose
/// evaluation fails stays as it is, or with `rethrow` raises its error.
ExprPtr fold_tree(const ExprPtr& top, const Config& conf, bool rethrow = false) {
  functions::EvalContext ctx;
  ctx.ansi = conf.ansi_enabled();
  ctx.time_zone = conf.session_time_zone();
  ctx.config = &conf;
  return transform_expr_up(top, [&](const ExprPtr& e) -> ExprPtr {
    // typeof needs only its argument's type: like Spark, never evaluate the argument (whose
    // evaluation could fail, or be expensive).
    if (e->kind == ExprKind::kCall && e->function && e->function->name == "typeof" && e->children.size() == 1)
      return lit(Value::bytes(e->children[0]->type->simple_string()), e->type);
    if (e->kind == ExprKind::kLiteral || !foldable(e)) return e;
    try {
      Batch one({}, 1);
      ColumnPtr v = exec::evaluate(*to_physical(e, conf), one, ctx);
      ExprPtr l = lit(v->value_at(0), e->type);
      return l;
    } catch (const SparkError&) {
      if (rethrow) throw;
      return e;
    }
  });
}

class ConstantFolding final : public Rule {
 public:
  const char* name() const override { return "ConstantFolding"; }
  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    return transform_up(plan, [&](const PlanPtr& node) {
      return map_expressions(node, [&](const ExprPtr& top) { return fold_tree(top, conf); });
    });
  }
};

}  // namespace

ExprPtr fold_constant(const ExprPtr& e, const Config& conf, bool rethrow) {
  if (e->kind == ExprKind::kLiteral) return e;
  ExprPtr f = fold_tree(e, conf, rethrow);
  if (f->kind != ExprKind::kLiteral) return e;
  auto named = std::make_shared<Expr>(*f);
  named->display = e->to_string();
  return named;
}

std::unique_ptr<Rule> make_constant_folding() { return std::make_unique<ConstantFolding>(); }

}  // namespace ember::plan
