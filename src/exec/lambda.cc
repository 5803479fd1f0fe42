#include "exec/lambda.h"

#include "functions/lambda.h"

namespace ember::exec {
namespace {

/// A lambda argument bound to the batch its call runs over. A call of the body evaluates it
/// over a batch of its own: the enclosing columns the body reads, gathered at each binding's
/// row, then the parameter columns. A lambda nested in the body sees that batch as its
/// enclosing one, so it reads the outer lambda's parameters like any other column.
class BoundLambda final : public functions::LambdaFunction {
 public:
  BoundLambda(const PhysExpr& lambda, const Batch& batch, const functions::EvalContext& ctx)
      : lambda_(lambda), batch_(batch), ctx_(ctx) {}

  size_t num_params() const override { return num_params_; }
  void set_num_params(size_t n) { num_params_ = n; }

  ColumnPtr call(const std::vector<ColumnPtr>& params, const std::vector<int32_t>& rows) const override {
    int64_t m = static_cast<int64_t>(rows.size());
    bool same_rows = m == batch_.num_rows;
    for (size_t k = 0; same_rows && k < rows.size(); ++k) same_rows = rows[k] == static_cast<int32_t>(k);
    Batch inner;
    inner.num_rows = m;
    inner.columns.reserve(lambda_.lambda_inputs.size() + params.size());
    for (int c : lambda_.lambda_inputs) {
      const ColumnPtr& col = batch_.columns[static_cast<size_t>(c)];
      inner.columns.push_back(same_rows ? col : gather(*col, rows.data(), m));
    }
    for (auto& p : params) inner.columns.push_back(p);
    return evaluate(*lambda_.children[0], inner, ctx_);
  }

 private:
  const PhysExpr& lambda_;
  const Batch& batch_;
  const functions::EvalContext& ctx_;
  size_t num_params_ = 0;
};

}  // namespace

bool is_higher_order_call(const PhysExpr& e) {
  for (auto& c : e.children)
    if (c->kind == PhysExpr::Kind::kLambda) return true;
  return false;
}

ColumnPtr evaluate_higher_order(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx) {
  std::vector<ColumnPtr> args;
  std::vector<BoundLambda> bound;
  bound.reserve(e.children.size());
  for (auto& c : e.children) {
    if (c->kind == PhysExpr::Kind::kLambda) {
      args.push_back(nullptr);
      bound.emplace_back(*c, batch, ctx);
      bound.back().set_num_params(static_cast<size_t>(c->ordinal));
    } else {
      args.push_back(evaluate(*c, batch, ctx));
    }
  }
  std::vector<const functions::LambdaFunction*> lambdas;
  for (auto& b : bound) lambdas.push_back(&b);
  return e.function->higher_order(args, lambdas, batch.num_rows, e.signature, ctx);
}

}  // namespace ember::exec
