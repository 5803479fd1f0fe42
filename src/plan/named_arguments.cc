#include "plan/named_arguments.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "common/ascii.h"
#include "common/error.h"
#include "functions/function.h"

namespace ember::plan {
namespace {

[[noreturn]] void fail(const std::string& error_class, const std::string& message,
                       std::map<std::string, std::string> params) {
  throw SparkError(ErrorKind::kAnalysis, error_class, message, std::move(params), "4274K");
}

/// UNRECOGNIZED_PARAMETER_NAME: the three parameters closest to `given` (quoted names by edit
/// distance to it, ties in declaration order), as Spark proposes them.
[[noreturn]] void unrecognized(const std::string& routine, const std::string& given,
                               const std::vector<functions::Parameter>& params) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& p : params) scored.emplace_back(edit_distance(quote_id(p.name), given), quote_id(p.name));
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string proposal;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) proposal += (i ? " " : "") + scored[i].second;
  fail("UNRECOGNIZED_PARAMETER_NAME",
       "Cannot invoke routine " + routine + " because the routine call included a named argument reference for "
           "the argument named " + quote_id(given) + ", but this routine does not include any signature containing "
           "an argument with this name. Did you mean one of the following? [" + proposal + "].",
       {{"routineName", routine}, {"argumentName", quote_id(given)}, {"proposal", proposal}});
}

[[noreturn]] void duplicate(const std::string& routine, const std::string& name, bool both) {
  const std::string sub = both ? "BOTH_POSITIONAL_AND_NAMED" : "DOUBLE_NAMED_ARGUMENT_REFERENCE";
  const std::string detail = both ? "A positional argument and named argument both referred to the same parameter. "
                                    "Please remove the named argument referring to this parameter."
                                  : "More than one named argument referred to the same parameter. Please assign a "
                                    "value only once.";
  fail("DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT." + sub,
       "Call to routine " + routine + " is invalid because it includes multiple argument assignments to the same "
           "parameter name " + quote_id(name) + ". " + detail,
       {{"routineName", routine}, {"parameterName", quote_id(name)}});
}

}  // namespace

bool has_named_arguments(const std::vector<ExprPtr>& args) {
  return std::any_of(args.begin(), args.end(), [](const ExprPtr& a) { return a->kind == ExprKind::kNamedArgument; });
}

ExprPtr with_positional_arguments(const ExprPtr& call) {
  const std::string name = ascii_lower(call->name);
  const std::string routine = quote_id(name);
  const functions::FunctionDef* def = functions::Registry::instance().find_listed(name);
  if (def == nullptr || def->parameters.empty())
    fail("NAMED_PARAMETERS_NOT_SUPPORTED",
         "Named parameters are not supported for function " + routine +
             "; please retry the query with positional arguments to the function call instead.",
         {{"functionName", routine}});
  const std::vector<functions::Parameter>& params = def->parameters;
  const std::vector<ExprPtr>& args = call->children;
  // Positional arguments come first.
  size_t positional = 0;
  while (positional < args.size() && args[positional]->kind != ExprKind::kNamedArgument) ++positional;
  for (size_t i = positional; i < args.size(); ++i)
    if (args[i]->kind != ExprKind::kNamedArgument)
      fail("UNEXPECTED_POSITIONAL_ARGUMENT",
           "Cannot invoke routine " + routine + " because it contains positional argument(s) following the named "
               "argument assigned to " + quote_id(args[i - 1]->name) + "; please rearrange them so the positional "
               "arguments come first and then retry the query again.",
           {{"routineName", routine}, {"parameterName", quote_id(args[i - 1]->name)}});
  std::vector<ExprPtr> slots(std::max(params.size(), positional));
  for (size_t i = 0; i < positional; ++i) slots[i] = args[i];
  for (size_t i = positional; i < args.size(); ++i) {
    const std::string& given = args[i]->name;
    size_t k = 0;
    while (k < params.size() && ascii_lower(params[k].name) != ascii_lower(given)) ++k;
    if (k == params.size()) unrecognized(routine, given, params);
    if (k < positional) duplicate(routine, given, true);
    if (slots[k]) duplicate(routine, given, false);
    slots[k] = args[i]->children[0];
  }
  size_t given_until = slots.size();
  while (given_until > 0 && !slots[given_until - 1]) --given_until;
  for (size_t k = 0; k < params.size(); ++k) {
    if (slots[k]) continue;
    // Spark counts the index from the first parameter after the positional arguments.
    if (params[k].required())
      fail("REQUIRED_PARAMETER_NOT_FOUND",
           "Cannot invoke routine " + routine + " because the parameter named " + quote_id(params[k].name) +
               " is required, but the routine call did not supply a value. Please update the routine call to "
               "supply an argument value (either positionally at index " + std::to_string(k - positional) +
               " or by name) and retry the query again.",
           {{"routineName", routine}, {"parameterName", quote_id(params[k].name)}, {"index", std::to_string(k - positional)}});
    if (k < given_until) slots[k] = lit(params[k].default_value, params[k].default_type);
  }
  slots.resize(given_until);
  return with_children(call, std::move(slots));
}

}  // namespace ember::plan
