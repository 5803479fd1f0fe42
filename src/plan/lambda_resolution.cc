#include "plan/lambda_resolution.h"

#include <cctype>
#include <map>

#include "common/ascii.h"
#include "common/error.h"
#include "functions/cast.h"
#include "functions/function.h"

namespace ember::plan {
namespace {

[[noreturn]] void throw_lambda_error(const std::string& sub_class, const std::string& message,
                                     std::map<std::string, std::string> params) {
  throw SparkError(ErrorKind::kAnalysis, "INVALID_LAMBDA_FUNCTION_CALL." + sub_class,
                   "Invalid lambda function call. " + message, std::move(params), "42K0D");
}

/// An unresolved lambda `x -> x` (aggregate's default finish).
ExprPtr identity_lambda() {
  auto var = std::make_shared<Expr>();
  var->kind = ExprKind::kLambdaVariable;
  var->name = "id";
  var->name_parts = {"id"};
  auto l = std::make_shared<Expr>();
  l->kind = ExprKind::kLambda;
  l->children = {var, var};
  return l;
}

/// A lambda's body cast to the type the function requires of it (filter's NULL predicate).
ExprPtr cast_body(const ExprPtr& lambda, const TypePtr& to) {
  const ExprPtr& body = lambda->children[0];
  ExprPtr cast_to = body->kind == ExprKind::kLiteral && body->value.is_null() ? lit(Value(), to) : [&] {
    auto c = std::make_shared<Expr>(*cast(body, to));
    c->implicit = true;
    c->nullable = body->nullable || functions::cast_forces_null(*body->type, *to);
    return ExprPtr(c);
  }();
  auto l = std::make_shared<Expr>(*lambda);
  l->children[0] = cast_to;
  l->type = cast_to->type;
  l->nullable = cast_to->nullable;
  return l;
}

std::vector<functions::ArgInfo> arg_infos(const std::vector<ExprPtr>& args) {
  std::vector<functions::ArgInfo> infos;
  for (auto& a : args) {
    bool resolved = a && a->type;
    infos.push_back({resolved ? a->type : nullptr, resolved ? a->nullable : true,
                     resolved && a->kind == ExprKind::kLiteral ? &a->value : nullptr, {}});
  }
  return infos;
}

}  // namespace

ExprPtr find_lambda_variable(const LambdaScopes& scopes, const std::string& name, bool case_sensitive) {
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope)
    for (const auto& v : *scope)
      if (case_sensitive ? v->name == name : ascii_lower(v->name) == ascii_lower(name)) return v;
  return nullptr;
}

bool is_higher_order_call(const ExprPtr& call) {
  for (auto& c : call->children)
    if (c->kind == ExprKind::kLambda) return true;
  const functions::FunctionDef* def = functions::Registry::instance().find(call->name);
  return def && def->first_lambda >= 0 && static_cast<int>(call->children.size()) > def->first_lambda;
}

ExprPtr resolve_higher_order_call(const ExprPtr& call,
                                  const std::function<ExprPtr(const ExprPtr&, const std::vector<ExprPtr>&)>& resolve,
                                  const std::function<ExprPtr(std::vector<ExprPtr>)>& finish, const Config& conf) {
  const functions::FunctionDef* def = functions::Registry::instance().find(call->name);
  std::vector<ExprPtr> args = call->children;
  if (!def || !def->lambda_binder) {
    if (!def) return finish(args);  // UNRESOLVED_ROUTINE
    throw_lambda_error("NON_HIGHER_ORDER_FUNCTION",
                       "A lambda function should only be used in a higher order function. However, its class is " +
                           quote_id(def->name) + ", which is not a higher order function.",
                       {{"class", quote_id(def->name)}});
  }
  int nargs = static_cast<int>(args.size());
  if (nargs < def->min_args || nargs > def->max_args) return finish(args);  // WRONG_NUM_ARGS
  while (static_cast<int>(args.size()) < def->max_args) args.push_back(identity_lambda());
  // Plain arguments first: lambda parameters take their types. Lambda positions stay
  // unresolved (a null type to the binder) until their turn.
  const std::vector<ExprPtr> written = args;
  for (size_t i = 0; i < args.size(); ++i) args[i] = static_cast<int>(i) < def->first_lambda ? resolve(args[i], {}) : nullptr;
  for (size_t i = static_cast<size_t>(def->first_lambda); i < args.size(); ++i) {
    const ExprPtr& lambda = written[i];
    // An expression where a lambda goes is a lambda that ignores the parameters it is given.
    bool is_lambda = lambda->kind == ExprKind::kLambda;
    size_t declared = is_lambda ? lambda->children.size() - 1 : 0;
    std::vector<functions::LambdaParam> params = def->lambda_binder(arg_infos(args), i, declared);
    if (is_lambda && params.size() != declared)
      throw_lambda_error("NUM_ARGS_MISMATCH",
                         "A higher order function expects " + std::to_string(declared) + " arguments, but got " +
                             std::to_string(params.size()) + ".",
                         {{"expectedNumArgs", std::to_string(declared)}, {"actualNumArgs", std::to_string(params.size())}});
    std::vector<ExprPtr> vars;
    for (size_t k = 0; k < params.size(); ++k) {
      auto v = std::make_shared<Expr>();
      v->kind = ExprKind::kLambdaVariable;
      v->name = is_lambda ? lambda->children[k + 1]->name : "col" + std::to_string(k);
      v->expr_id = new_expr_id();
      v->type = params[k].type;
      v->nullable = params[k].nullable;
      vars.push_back(v);
    }
    if (is_lambda) {
      std::vector<std::string> dups;
      for (size_t a = 0; a < vars.size(); ++a)
        for (size_t b = 0; b < vars.size(); ++b)
          if (a != b && (conf.case_sensitive() ? vars[a]->name == vars[b]->name
                                               : ascii_lower(vars[a]->name) == ascii_lower(vars[b]->name))) {
            dups.push_back(quote_id(conf.case_sensitive() ? vars[a]->name : ascii_lower(vars[a]->name)));
            break;
          }
      if (!dups.empty()) {
        std::string list;
        for (size_t k = 0; k < dups.size(); ++k) list += (k ? ", " : "") + dups[k];
        throw_lambda_error("DUPLICATE_ARG_NAMES",
                           "The lambda function has duplicate arguments " + list +
                               ". Please, consider to rename the argument names or set \"spark.sql.caseSensitive\" "
                               "to \"true\".",
                           {{"args", list}, {"caseSensitiveConfig", "\"spark.sql.caseSensitive\""}});
      }
    }
    ExprPtr body = resolve(is_lambda ? lambda->children[0] : lambda, vars);
    auto resolved = std::make_shared<Expr>();
    resolved->kind = ExprKind::kLambda;
    resolved->children.push_back(body);
    resolved->children.insert(resolved->children.end(), vars.begin(), vars.end());
    resolved->type = body->type;
    resolved->nullable = body->nullable;
    args[i] = resolved;
  }
  // A lambda whose body the function needs of another type (a NULL predicate) gets a cast body.
  functions::Signature sig = call_signature(*def, args, conf);
  for (size_t i = static_cast<size_t>(def->first_lambda); i < args.size() && i < sig.arg_types.size(); ++i)
    if (!args[i]->type->equals(*sig.arg_types[i])) args[i] = cast_body(args[i], sig.arg_types[i]);
  return finish(std::move(args));
}

}  // namespace ember::plan
