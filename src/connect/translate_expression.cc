// Expression messages to unresolved Ember expressions. Functions and operators keep the name the
// client sent ("+", "==", "and", "when", "in"); the analyzer resolves them.

#include <algorithm>
#include <cctype>
#include <limits>

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "plan/metadata_columns.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

std::string expression_type_name(const pb::Expression& e) {
  const auto* oneof = pb::Expression::descriptor()->FindOneofByName("expr_type");
  const auto* field = e.GetReflection()->GetOneofFieldDescriptor(e, oneof);
  if (field == nullptr) return "UNSET";
  std::string name = field->name();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return name;
}

std::shared_ptr<Expr> new_expr(ExprKind kind, std::vector<ExprPtr> children = {}) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->children = std::move(children);
  return e;
}

/// distributed_sequence_id(): pandas-on-Spark's default index and DataFrame.zipWithIndex, the
/// consecutive numbers 0..n-1 of the rows in input order (a non-null long). Spark attaches them
/// with a dedicated operator; here it is the running count of a window without partitions or
/// order, whose single ordered partition keeps the input order, minus one. The optional
/// argument (whether Spark caches the input first) changes nothing here.
ExprPtr distributed_sequence_id() {
  auto window = new_expr(ExprKind::kWindow, {plan::call("count", {plan::lit(Value::integer(1), DataType::int_())})});
  window->frame.type = plan::WindowFrame::Type::kRows;
  window->frame.lower = plan::WindowFrame::kUnboundedPreceding;
  window->frame.upper = 0;
  window->frame.specified = true;
  return plan::alias(plan::call("-", {window, plan::lit(Value::integer(1), DataType::long_())}),
                     "distributed_sequence_id()");
}

ExprPtr star_expression(const pb::Expression::UnresolvedStar& s) {
  const int64_t plan_id = s.has_plan_id() ? s.plan_id() : -1;
  if (!s.has_unparsed_target()) return plan::star({}, plan_id);
  const std::string& target = s.unparsed_target();
  if (target.size() < 2 || target.compare(target.size() - 2, 2, ".*") != 0) {
    throw_invalid_plan(
        "UNRESOLVED_STAR_TARGET_INVALID",
        "UnresolvedStar requires a unparsed target ending with '.*', but got " + target + ".",
        {{"target", target}});
  }
  if (s.has_plan_id()) {
    throw_invalid_plan("UNRESOLVED_STAR_WITH_BOTH_TARGET_AND_PLAN_ID",
                       "UnresolvedStar with both target and plan id is not supported.");
  }
  return plan::star(plan::parse_attribute_name(target.substr(0, target.size() - 2)));
}

/// df.colRegex(name): a name in backticks is a regex over the input's column names (`regex`),
/// optionally after a relation name (t.`regex`), and selects every column whose whole name it
/// matches; any other name is a DataFrame column reference, as in Spark. Like Spark, a regex
/// ignores the plan id.
ExprPtr regex_column(const pb::Expression::UnresolvedRegex& r) {
  const std::string& name = r.col_name();
  const size_t n = name.size();
  if (n >= 3 && name.front() == '`' && name.back() == '`') {
    auto star = std::make_shared<plan::Expr>(*plan::star({}));
    star->name = name.substr(1, n - 2);
    return star;
  }
  // t.`regex`: the relation name is everything before the last backtick that leaves a
  // non-empty regex, less the one character (the dot) in between.
  if (n >= 5 && name.back() == '`') {
    for (size_t k = n - 3; k >= 2; --k) {
      if (name[k] != '`') continue;
      auto star = std::make_shared<plan::Expr>(*plan::star({name.substr(0, k - 1)}));
      star->name = name.substr(k + 1, n - k - 2);
      return star;
    }
  }
  return plan::col(plan::parse_attribute_name(name), r.has_plan_id() ? r.plan_id() : -1);
}

ExprPtr lambda_variable(const pb::Expression::UnresolvedNamedLambdaVariable& v) {
  if (v.name_parts_size() == 0) {
    throw_invalid_plan("UNRESOLVED_NAMED_LAMBDA_VARIABLE_REQUIRES_NAME_PART",
                       "UnresolvedNamedLambdaVariable requires at least one name part!");
  }
  auto e = new_expr(ExprKind::kLambdaVariable);
  e->name_parts.assign(v.name_parts().begin(), v.name_parts().end());
  std::string name;
  for (const auto& part : v.name_parts()) name += (name.empty() ? "" : ".") + part;
  e->name = name;
  return e;
}

/// A frame boundary: unbounded, the current row, or a constant integral offset.
int64_t frame_bound(const pb::Expression::Window::WindowFrame::FrameBoundary& b, bool lower) {
  using B = pb::Expression::Window::WindowFrame::FrameBoundary;
  switch (b.boundary_case()) {
    case B::kCurrentRow:
      return 0;
    case B::kUnbounded:
      return lower ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    case B::kValue: {
      if (b.value().has_literal()) {
        TypedValue v = literal_from_proto(b.value().literal());
        if (!v.value.is_null() && v.type->is_integral()) return v.value.as_int();
      }
      throw_not_supported("A window frame boundary that is not an integer literal");
    }
    case B::BOUNDARY_NOT_SET:
      break;
  }
  if (lower) {
    throw_invalid_plan("LOWER_BOUND_REQUIRED_IN_WINDOW_FRAME",
                       "LowerBound is required in WindowFrame");
  }
  throw_invalid_plan("UPPER_BOUND_REQUIRED_IN_WINDOW_FRAME",
                     "UpperBound is required in WindowFrame");
}

}  // namespace

std::vector<ExprPtr> PlanTranslator::expressions(
    const google::protobuf::RepeatedPtrField<pb::Expression>& list) {
  std::vector<ExprPtr> out;
  out.reserve(static_cast<size_t>(list.size()));
  for (const auto& e : list) out.push_back(expression(e));
  return out;
}

ExprPtr PlanTranslator::expression(const pb::Expression& e) {
  switch (e.expr_type_case()) {
    case pb::Expression::kLiteral: {
      TypedValue v = literal_from_proto(e.literal());
      return plan::lit(std::move(v.value), std::move(v.type));
    }
    case pb::Expression::kUnresolvedAttribute: {
      const auto& a = e.unresolved_attribute();
      // df.metadataColumn(name): a hidden metadata column of the DataFrame (file reads'
      // `_metadata`).
      if (a.is_metadata_column())
        return plan::metadata_column_reference(plan::parse_attribute_name(a.unparsed_identifier()),
                                               a.has_plan_id() ? a.plan_id() : -1);
      return plan::col(plan::parse_attribute_name(a.unparsed_identifier()),
                       a.has_plan_id() ? a.plan_id() : -1);
    }
    case pb::Expression::kUnresolvedFunction: {
      const auto& f = e.unresolved_function();
      if (f.function_name() == "distributed_sequence_id" && f.arguments_size() <= 1)
        return distributed_sequence_id();
      return plan::call(f.function_name(), expressions(f.arguments()), f.is_distinct());
    }
    case pb::Expression::kCallFunction: {
      const auto& f = e.call_function();
      return plan::call(f.function_name(), expressions(f.arguments()));
    }
    case pb::Expression::kUnresolvedStar:
      return star_expression(e.unresolved_star());
    case pb::Expression::kAlias:
      return alias(e.alias());
    case pb::Expression::kCast: {
      const auto& c = e.cast();
      TypePtr type;
      switch (c.cast_to_type_case()) {
        case pb::Expression::Cast::kType:
          type = type_from_proto(c.type());
          break;
        case pb::Expression::Cast::kTypeStr:
          type = parse_data_type(c.type_str());
          break;
        default:
          throw_invalid_plan(
              "INVALID_ONE_OF_FIELD_NOT_SET",
              "This oneOf field in spark.connect.Expression.Cast is not set: "
              "cast_to_type",
              {{"fullName", "spark.connect.Expression.Cast"}, {"name", "cast_to_type"}});
      }
      return plan::cast(expression(c.expr()), type, c.eval_mode() == pb::Expression::Cast::EVAL_MODE_TRY);
    }
    case pb::Expression::kSortOrder:
      return sort_order(e.sort_order());
    case pb::Expression::kLambdaFunction:
      return lambda(e.lambda_function());
    case pb::Expression::kUnresolvedNamedLambdaVariable:
      return lambda_variable(e.unresolved_named_lambda_variable());
    case pb::Expression::kWindow:
      return window(e.window());
    case pb::Expression::kUnresolvedExtractValue: {
      const auto& x = e.unresolved_extract_value();
      return new_expr(ExprKind::kUnresolvedExtract,
                      {expression(x.child()), expression(x.extraction())});
    }
    case pb::Expression::kExpressionString:
      return expression_string(e.expression_string().expression());
    case pb::Expression::kUnresolvedRegex:
      return regex_column(e.unresolved_regex());
    case pb::Expression::kUpdateFields: {
      // Column.withField / dropFields: an internal call (marked implicit, so that SQL cannot
      // name it) that the analyzer rewrites into struct construction.
      const auto& u = e.update_fields();
      std::vector<ExprPtr> args = {expression(u.struct_expression()),
                                   plan::lit(Value::bytes(u.field_name()), DataType::string())};
      if (u.has_value_expression()) args.push_back(expression(u.value_expression()));
      auto c = std::make_shared<plan::Expr>(*plan::call("update_fields", std::move(args)));
      c->implicit = true;
      return c;
    }
    case pb::Expression::kCommonInlineUserDefinedFunction:
      return python_udf(e.common_inline_user_defined_function());
    case pb::Expression::kNamedArgumentExpression: {
      auto n = std::make_shared<plan::Expr>();
      n->kind = plan::ExprKind::kNamedArgument;
      n->name = e.named_argument_expression().key();
      n->children = {expression(e.named_argument_expression().value())};
      return n;
    }
    case pb::Expression::kSubqueryExpression:
      return subquery_expression(e.subquery_expression());
    case pb::Expression::EXPR_TYPE_NOT_SET:
      throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                         "This oneOf field in spark.connect.Expression is not set: expr_type",
                         {{"fullName", "spark.connect.Expression"}, {"name", "expr_type"}});
    default:
      break;
  }
  throw_not_supported("Expression type " + expression_type_name(e));
}

ExprPtr PlanTranslator::sort_order(const pb::Expression::SortOrder& s) {
  using S = pb::Expression::SortOrder;
  const bool ascending = s.direction() != S::SORT_DIRECTION_DESCENDING;
  bool nulls_first = ascending;  // Spark's default null ordering follows the direction
  if (s.null_ordering() == S::SORT_NULLS_FIRST) nulls_first = true;
  if (s.null_ordering() == S::SORT_NULLS_LAST) nulls_first = false;
  return plan::sort_order(expression(s.child()), ascending, nulls_first);
}

ExprPtr PlanTranslator::alias(const pb::Expression::Alias& a) {
  ExprPtr child = expression(a.expr());
  if (a.name_size() == 0) {
    throw_invalid_plan("FIELD_CANNOT_BE_EMPTY",
                       "name in spark.connect.Expression.Alias cannot be empty",
                       {{"fieldName", "name"}, {"fullName", "spark.connect.Expression.Alias"}});
  }
  if (a.name_size() > 1) {
    if (a.has_metadata()) {
      throw_invalid_plan("ALIAS_WITH_MULTIPLE_IDENTIFIERS_AND_METADATA",
                         "Alias expressions with more than 1 identifier must not use optional "
                         "metadata.");
    }
    // Spark's MultiAlias (for generators such as posexplode): every name in `name_parts`.
    auto e = std::make_shared<Expr>(*plan::alias(child, a.name(0)));
    e->name_parts.assign(a.name().begin(), a.name().end());
    return e;
  }
  if (!a.has_metadata() || a.metadata().empty()) return plan::alias(child, a.name(0));
  auto e = std::make_shared<Expr>(*plan::alias(child, a.name(0)));
  e->metadata_json = a.metadata();
  return e;
}

ExprPtr PlanTranslator::window(const pb::Expression::Window& w) {
  if (!w.has_window_function()) {
    throw_invalid_plan("WINDOW_FUNCTION_REQUIRED",
                       "WindowFunction is required in WindowExpression");
  }
  auto e = new_expr(ExprKind::kWindow, {expression(w.window_function())});
  e->partition_by = expressions(w.partition_spec());
  for (const auto& o : w.order_spec()) e->order_by.push_back(sort_order(o));
  if (w.has_frame_spec()) {
    using F = pb::Expression::Window::WindowFrame;
    const auto& f = w.frame_spec();
    switch (f.frame_type()) {
      case F::FRAME_TYPE_ROW:
        e->frame.type = plan::WindowFrame::Type::kRows;
        break;
      case F::FRAME_TYPE_RANGE:
        e->frame.type = plan::WindowFrame::Type::kRange;
        break;
      default:
        throw_invalid_plan("INVALID_ENUM",
                           "This enum value of spark.connect.Expression.Window.WindowFrame."
                           "FrameType is invalid: " +
                               F::FrameType_Name(f.frame_type()) + "(" +
                               std::to_string(static_cast<int>(f.frame_type())) + ")",
                           {{"fullName", "spark.connect.Expression.Window.WindowFrame.FrameType"},
                            {"name", F::FrameType_Name(f.frame_type())},
                            {"number", std::to_string(static_cast<int>(f.frame_type()))}});
    }
    e->frame.lower = frame_bound(f.lower(), true);
    e->frame.upper = frame_bound(f.upper(), false);
    e->frame.specified = true;
  }
  return e;
}

ExprPtr PlanTranslator::lambda(const pb::Expression::LambdaFunction& l) {
  if (l.arguments_size() < 1 || l.arguments_size() > 3) {
    throw_invalid_plan("LAMBDA_FUNCTION_ARGUMENT_COUNT_INVALID",
                       "LambdaFunction requires 1 ~ 3 arguments, but got " +
                           std::to_string(l.arguments_size()) + " ones!",
                       {{"got", std::to_string(l.arguments_size())}});
  }
  std::vector<ExprPtr> children = {expression(l.function())};
  for (const auto& v : l.arguments()) children.push_back(lambda_variable(v));
  return new_expr(ExprKind::kLambda, std::move(children));
}

}  // namespace ember::connect
