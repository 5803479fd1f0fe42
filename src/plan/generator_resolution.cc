// Generators in the analyzer (see generator_resolution.h).

#include "plan/generator_resolution.h"

#include <algorithm>

#include "common/error.h"
#include "exec/python_udf.h"
#include "functions/function.h"
#include "plan/optimizer.h"
#include "plan/python_udf_extraction.h"

namespace ember::plan {
namespace {

std::string call_sql(const std::string& name, const std::vector<ExprPtr>& args) {
  std::string s = name + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i]->to_string();
  return s + ")";
}

[[noreturn]] void unexpected_input(const std::string& sql, const ExprPtr& arg, const char* ordinal,
                                   const std::string& required) {
  functions::throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                 std::string("The ") + ordinal + " parameter requires the " + required +
                                     " type, however \"" + arg->to_string() + "\" has the type \"" + arg->type->sql() +
                                     "\".",
                                 sql);
}

[[noreturn]] void wrong_num_args(const std::string& name, const std::string& expected, size_t actual) {
  throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                   "The " + quote_id(name) + " requires " + expected + " parameters but the actual number is " +
                       std::to_string(actual) + ".",
                   {{"functionName", quote_id(name)}, {"expectedNum", expected}, {"actualNum", std::to_string(actual)}});
}

/// A null literal of the column's type, or an implicit cast (stack's untyped nulls).
ExprPtr implicit(const ExprPtr& e, const TypePtr& to) {
  if (e->type->equals(*to)) return e;
  if (e->kind == ExprKind::kLiteral && e->value.is_null()) return lit(Value(), to);
  auto c = std::make_shared<Expr>(*cast(e, to));
  c->implicit = true;
  return c;
}

/// stack(n, v1, ..., vk): n rows of ceil(k / n) columns; column j takes the values j, j + cols,
/// ... of the list, which must share one type (untyped nulls take it), padded with nulls.
std::vector<StructField> stack_fields(const std::string& sql, std::vector<ExprPtr>& args) {
  if (args.size() < 2) wrong_num_args("stack", "> 1", args.size());
  const ExprPtr& n = args[0];
  if (n->type->id() != TypeId::kInt) unexpected_input(sql, n, "first", "\"INT\"");
  if (n->kind != ExprKind::kLiteral)
    functions::throw_type_mismatch("NON_FOLDABLE_INPUT",
                                   "the input `n` should be a foldable \"INT\" expression; however, got \"" +
                                       n->to_string() + "\".",
                                   sql);
  int64_t rows = n->value.is_null() ? 0 : n->value.as_int();
  if (rows <= 0)
    functions::throw_type_mismatch("VALUE_OUT_OF_RANGE",
                                   "The `n` must be between (0, 2147483647] (current value = " + std::to_string(rows) +
                                       ").",
                                   sql);
  size_t values = args.size() - 1;
  size_t cols = (values + static_cast<size_t>(rows) - 1) / static_cast<size_t>(rows);
  std::vector<StructField> fields;
  for (size_t j = 0; j < cols; ++j) {
    TypePtr t = DataType::null();
    size_t first = 0;
    for (size_t i = 1 + j; i < args.size(); i += cols) {
      if (args[i]->type->id() == TypeId::kNull) continue;
      if (t->id() == TypeId::kNull) {
        t = args[i]->type;
        first = i;
      } else if (!t->equals(*args[i]->type)) {
        functions::throw_type_mismatch("STACK_COLUMN_DIFF_TYPES",
                                       "The data type of the column (" + std::to_string(j) +
                                           ") do not have the same type: \"" + t->sql() + "\" (" +
                                           std::to_string(first) + ") <> \"" + args[i]->type->sql() + "\" (" +
                                           std::to_string(i) + ").",
                                       sql);
      }
    }
    for (size_t i = 1 + j; i < args.size(); i += cols) args[i] = implicit(args[i], t);
    fields.push_back({"col" + std::to_string(j), t, true, "{}"});
  }
  return fields;
}

}  // namespace

bool is_generator_name(const std::string& n) {
  return n == "explode" || n == "explode_outer" || n == "posexplode" || n == "posexplode_outer" ||
         n == "inline" || n == "inline_outer" || n == "stack" || n == "json_tuple" ||
         is_table_only_generator_name(n);
}

bool is_table_only_generator_name(const std::string& n) {
  return n == "variant_explode" || n == "variant_explode_outer";
}

ExprPtr resolve_generator(const std::string& called, std::vector<ExprPtr> args, bool outer) {
  const std::string suffix = "_outer";
  std::string base = called;
  if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
    base.resize(base.size() - suffix.size());
    outer = true;
  }
  const std::string sql = call_sql(called, args);
  for (auto& a : args)
    if (a->kind == ExprKind::kGenerator) throw_generator_nested(sql);
  std::vector<StructField> fields;
  if (base == "stack") {
    fields = stack_fields(sql, args);
  } else if (base == "json_tuple") {
    // json_tuple(json, k1, ..., kn): one row per input row, string columns c0 ... c(n-1).
    if (args.size() < 2) wrong_num_args("json_tuple", "> 1", args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const TypeId id = args[i]->type->id();
      if (id == TypeId::kNull) args[i] = implicit(args[i], DataType::string());
      else if (id != TypeId::kString)
        functions::throw_type_mismatch("NON_STRING_TYPE",
                                       "all arguments of the function `json_tuple` must be string type.", sql);
    }
    for (size_t i = 1; i < args.size(); ++i) fields.push_back({"c" + std::to_string(i - 1), DataType::string(), true, "{}"});
  } else if (base == "variant_explode") {
    // variant_explode(input): pos, key and value of each field or element of a variant. Its
    // one parameter has a name, so Spark reports a missing argument by it.
    if (args.empty())
      throw SparkError(
          ErrorKind::kAnalysis, "REQUIRED_PARAMETER_NOT_FOUND",
          "Cannot invoke routine " + quote_id(called) +
              " because the parameter named `input` is required, but the routine call did not "
              "supply a "
              "value. Please update the routine call to supply an argument value (either "
              "positionally at "
              "index 0 or by name) and retry the query again.",
          {{"routineName", quote_id(called)}, {"parameterName", "`input`"}, {"index", "0"}},
          "4274K");
    if (args.size() != 1) wrong_num_args(called, "1", args.size());
    if (args[0]->type->id() == TypeId::kNull) args[0] = implicit(args[0], DataType::variant());
    if (args[0]->type->id() != TypeId::kVariant)
      unexpected_input(sql, args[0], "first", "\"VARIANT\"");
    fields.push_back({"pos", DataType::int_(), false, "{}"});
    fields.push_back({"key", DataType::string(), true, "{}"});
    fields.push_back({"value", DataType::variant(), false, "{}"});
  } else {
    if (args.size() != 1) wrong_num_args(called, "1", args.size());
    const ExprPtr& in = args[0];
    const TypeId id = in->type->id();
    if (base == "inline") {
      if (id != TypeId::kArray || in->type->element_type()->id() != TypeId::kStruct)
        unexpected_input(sql, in, "first", "\"ARRAY<STRUCT>\"");
      // A null struct element gives a row of nulls, so its fields are nullable when elements are.
      for (auto f : in->type->element_type()->fields()) {
        f.nullable = f.nullable || in->type->contains_null();
        fields.push_back(f);
      }
    } else {
      if (id != TypeId::kArray && id != TypeId::kMap) unexpected_input(sql, in, "first", "(\"ARRAY\" or \"MAP\")");
      if (base == "posexplode") fields.push_back({"pos", DataType::int_(), false, "{}"});
      if (id == TypeId::kArray) {
        fields.push_back({"col", in->type->element_type(), in->type->contains_null(), "{}"});
      } else {
        fields.push_back({"key", in->type->key_type(), false, "{}"});
        fields.push_back({"value", in->type->value_type(), in->type->value_contains_null(), "{}"});
      }
    }
  }
  auto g = std::make_shared<Expr>();
  g->kind = ExprKind::kGenerator;
  g->name = base;
  g->outer = outer;
  g->children = std::move(args);
  g->type = DataType::struct_(std::move(fields));
  g->nullable = false;
  return g;
}

bool is_python_table_function(const ExprPtr& e) {
  return e->kind == ExprKind::kGenerator && e->python != nullptr;
}

ExprPtr resolve_python_table_function(const ExprPtr& function, std::vector<ExprPtr> args,
                                      const std::vector<std::string>& names, const Config& conf,
                                      const std::vector<bool>& table_args, exec::TableFunctionAnalysis* analysis_out) {
  const std::string sql = call_sql(function->name, args);
  for (auto& a : args)
    if (a->kind == ExprKind::kGenerator) throw_generator_nested(sql);
  auto py = std::make_shared<exec::PythonFunction>(*function->python);
  if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return !n.empty(); })) py->arg_names = names;
  if (!py->return_type) {
    std::vector<exec::AnalyzeArgument> analyze_args;
    for (size_t i = 0; i < args.size(); ++i) {
      exec::AnalyzeArgument a;
      a.type = args[i]->type;
      a.is_table = i < table_args.size() && table_args[i];
      ExprPtr folded = args[i]->deterministic() && !a.is_table ? fold_constant(args[i], conf) : args[i];
      if (folded->kind == ExprKind::kLiteral) a.constant = folded->value;
      if (i < names.size()) a.name = names[i];
      analyze_args.push_back(std::move(a));
    }
    exec::TableFunctionAnalysis analysis =
        exec::python_runner().analyze_table_function(*py, analyze_args, python_settings(conf));
    py->return_type = analysis.schema;
    py->pickled_analyze_result = analysis.pickled_result;
    if (analysis_out) *analysis_out = std::move(analysis);
  }
  auto g = std::make_shared<Expr>(*function);
  g->python = py;
  g->children = std::move(args);
  g->type = py->return_type;
  g->nullable = false;
  g->outer = false;
  return g;
}

ExprPtr top_level_generator(const ExprPtr& named) {
  if (named->kind == ExprKind::kGenerator) return named;
  if (named->kind == ExprKind::kAlias && named->children[0]->kind == ExprKind::kGenerator) return named->children[0];
  return nullptr;
}

void throw_generator_nested(const std::string& expr) {
  throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
                   "The generator is not supported: nested in expressions \"" + expr + "\".",
                   {{"expression", "\"" + expr + "\""}}, "42K0E");
}

void throw_generator_outside_select(const std::string& clause) {
  throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT",
                   "The generator is not supported: outside the SELECT clause, found: " + clause + ".",
                   {{"plan", clause}}, "42K0E");
}

PlanPtr generate_node(const PlanPtr& child, const ExprPtr& generator, const std::vector<std::string>& names,
                      const std::string& qualifier) {
  const auto& fields = generator->type->fields();
  if (!names.empty() && names.size() != fields.size()) {
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
    throw SparkError(ErrorKind::kAnalysis, "UDTF_ALIAS_NUMBER_MISMATCH",
                     "The number of aliases supplied in the AS clause does not match the number of columns output by "
                     "the UDTF. Expected " + std::to_string(fields.size()) + " aliases, but got " + list +
                         ". Please ensure that the number of aliases provided matches the number of columns output by "
                         "the UDTF.",
                     {{"aliasesSize", std::to_string(fields.size())}, {"aliasesNames", list}}, "42802");
  }
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kGenerate;
  n->children = {child};
  n->exprs = {generator};
  std::vector<std::string> q;
  if (!qualifier.empty()) q = {qualifier};
  for (size_t i = 0; i < fields.size(); ++i)
    n->generator_output.push_back(attribute(names.empty() ? fields[i].name : names[i], fields[i].type,
                                            fields[i].nullable || generator->outer, new_expr_id(), q));
  n->output = child->output;
  n->output.insert(n->output.end(), n->generator_output.begin(), n->generator_output.end());
  n->resolved = true;
  return n;
}

PlanPtr extract_generators(const PlanPtr& child, std::vector<ExprPtr>& named) {
  PlanPtr below = child;
  std::vector<ExprPtr> out;
  for (auto& e : named) {
    ExprPtr g = top_level_generator(e);
    if (!g) {
      out.push_back(e);
      continue;
    }
    std::vector<std::string> names;
    if (e->kind == ExprKind::kAlias) names = e->name_parts.empty() ? std::vector<std::string>{e->name} : e->name_parts;
    below = generate_node(below, g, names, "");
    for (auto& a : below->generator_output) out.push_back(a);
  }
  named = std::move(out);
  return below;
}

}  // namespace ember::plan
