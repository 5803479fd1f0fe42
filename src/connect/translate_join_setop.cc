// Binary relations: joins and set operations (UNION, INTERSECT, EXCEPT).

#include <algorithm>
#include <cctype>

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/plan_equivalence.h"
#include "plan/session.h"
#include "plan/subquery.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::JoinType;
using plan::PlanKind;
using plan::SetOpType;

JoinType join_type_from_proto(pb::Join::JoinType t) {
  switch (t) {
    case pb::Join::JOIN_TYPE_UNSPECIFIED:
    case pb::Join::JOIN_TYPE_INNER:
      return JoinType::kInner;
    case pb::Join::JOIN_TYPE_FULL_OUTER:
      return JoinType::kFullOuter;
    case pb::Join::JOIN_TYPE_LEFT_OUTER:
      return JoinType::kLeftOuter;
    case pb::Join::JOIN_TYPE_RIGHT_OUTER:
      return JoinType::kRightOuter;
    case pb::Join::JOIN_TYPE_LEFT_ANTI:
      return JoinType::kLeftAnti;
    case pb::Join::JOIN_TYPE_LEFT_SEMI:
      return JoinType::kLeftSemi;
    case pb::Join::JOIN_TYPE_CROSS:
      return JoinType::kCross;
    default:
      break;
  }
  std::string name = pb::Join::JoinType_Name(t);
  throw_invalid_plan("INVALID_ENUM",
                     "This enum value of spark.connect.Join.JoinType is invalid: " + name + "(" +
                         std::to_string(static_cast<int>(t)) + ")",
                     {{"fullName", "spark.connect.Join.JoinType"},
                      {"name", name},
                      {"number", std::to_string(static_cast<int>(t))}});
}

PlanTranslator::NodePtr PlanTranslator::join(const pb::Join& r) {
  if (r.has_join_data_type()) throw_not_supported("joinWith");
  if (r.has_join_condition() && r.using_columns_size() > 0) {
    throw_invalid_plan("USING_COLUMNS_OR_JOIN_CONDITION_SET_IN_JOIN",
                       "Using columns or join conditions cannot be set at the same time in Join");
  }
  auto node = new_node(PlanKind::kJoin, {input(r.left(), "Join"), input(r.right(), "Join")});
  node->join_type = join_type_from_proto(r.join_type());
  if (r.has_join_condition()) node->condition = expression(r.join_condition());
  node->using_columns.assign(r.using_columns().begin(), r.using_columns().end());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::set_operation(const pb::SetOperation& r) {
  if (!r.has_left_input() || !r.has_right_input()) {
    throw_invalid_plan("SET_OPERATION_MUST_HAVE_TWO_INPUTS", "Set operation must have 2 inputs");
  }
  const bool by_name = r.has_by_name() && r.by_name();
  const bool allow_missing = r.has_allow_missing_columns() && r.allow_missing_columns();
  SetOpType op;
  switch (r.set_op_type()) {
    case pb::SetOperation::SET_OP_TYPE_UNION:
      op = SetOpType::kUnion;
      break;
    case pb::SetOperation::SET_OP_TYPE_INTERSECT:
      if (by_name) {
        throw_invalid_plan("INTERSECT_DOES_NOT_SUPPORT_UNION_BY_NAME",
                           "Intersect does not support union_by_name");
      }
      op = SetOpType::kIntersect;
      break;
    case pb::SetOperation::SET_OP_TYPE_EXCEPT:
      if (by_name) {
        throw_invalid_plan("EXCEPT_DOES_NOT_SUPPORT_UNION_BY_NAME",
                           "Except does not support union_by_name");
      }
      op = SetOpType::kExcept;
      break;
    default: {
      std::string name = pb::SetOperation::SetOpType_Name(r.set_op_type());
      throw_invalid_plan("INVALID_ENUM",
                         "This enum value of spark.connect.SetOperation.SetOpType is invalid: " +
                             name + "(" + std::to_string(static_cast<int>(r.set_op_type())) + ")",
                         {{"fullName", "spark.connect.SetOperation.SetOpType"},
                          {"name", name},
                          {"number", std::to_string(static_cast<int>(r.set_op_type()))}});
    }
  }
  if (allow_missing && !by_name) {
    throw_invalid_plan("UNION_BY_NAME_ALLOW_MISSING_COL_REQUIRES_BY_NAME",
                       "UnionByName `allowMissingCol` can be true only if `byName` is true.");
  }
  auto node = new_node(PlanKind::kSetOp, {input(r.left_input(), "SetOperation"),
                                          input(r.right_input(), "SetOperation")});
  node->set_op = op;
  node->is_all = r.has_is_all() && r.is_all();
  node->by_name = by_name;
  node->allow_missing = allow_missing;
  return node;
}

namespace {

/// A resolved plan's columns as expressions over what lies below its chain of projections
/// (returned in `base`): Spark's Zip aligns two DataFrames whose plans agree below them.
std::vector<plan::ExprPtr> over_projections(const plan::PlanPtr& top, plan::PlanPtr* base) {
  std::vector<plan::ExprPtr> values = top->output;
  plan::PlanPtr p = top;
  while (p->kind == PlanKind::kProject) {
    std::vector<plan::ExprPtr> exprs;
    for (const auto& e : p->exprs) exprs.push_back(e->kind == plan::ExprKind::kAlias ? e->children[0] : e);
    const std::vector<plan::ExprPtr>& from = p->output;
    for (auto& v : values)
      v = plan::transform_attributes(v, [&](const plan::ExprPtr& a) {
        for (size_t i = 0; i < from.size(); ++i)
          if (from[i]->expr_id == a->expr_id) return exprs[i];
        return a;
      });
    p = p->children[0];
  }
  *base = p;
  return values;
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::zip(const pb::Zip& r) {
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.zip needs a session");
  plan::PlanPtr left = ctx_.session->analyze(input(r.left(), "Zip"));
  plan::PlanPtr right = ctx_.session->analyze(input(r.right(), "Zip"));
  plan::PlanPtr left_base, right_base;
  std::vector<plan::ExprPtr> left_values = over_projections(left, &left_base);
  std::vector<plan::ExprPtr> right_values = over_projections(right, &right_base);
  if (!plan::plans_same_result(left_base, right_base))
    throw SparkError(ErrorKind::kAnalysis, "ZIP_PLANS_NOT_MERGEABLE",
                     "The two DataFrames in zip() cannot be merged. They must produce the same "
                     "canonicalized plan after stripping outer Project chains, and must not "
                     "contain non-scalar Python UDFs.",
                     {}, "42K03");
  // Both sides are now columns over the left's base: the right's base columns are the left's,
  // position by position.
  for (auto& v : right_values)
    v = plan::transform_attributes(v, [&](const plan::ExprPtr& a) {
      for (size_t i = 0; i < right_base->output.size(); ++i)
        if (right_base->output[i]->expr_id == a->expr_id) return left_base->output[i];
      return a;
    });
  auto node = new_node(PlanKind::kProject, {left_base});
  for (size_t i = 0; i < left_values.size(); ++i) {
    const plan::ExprPtr& v = left_values[i];
    node->exprs.push_back(plan::alias(v, left->output[i]->name));
  }
  for (size_t i = 0; i < right_values.size(); ++i)
    node->exprs.push_back(plan::alias(right_values[i], right->output[i]->name));
  for (auto& e : node->exprs) node->output.push_back(plan::to_attribute(e));
  node->resolved = true;
  return node;
}

namespace {

[[noreturn]] void invalid_nearest_by_join(const std::string& sub_class, const std::string& message,
                                          std::map<std::string, std::string> params) {
  throw SparkError(ErrorKind::kAnalysis, "NEAREST_BY_JOIN." + sub_class, "Invalid nearest-by join. " + message,
                   std::move(params), "42604");
}

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::nearest_by_join(const pb::NearestByJoin& r) {
  const int k = r.num_results();
  if (k < 1 || k > 100000)
    invalid_nearest_by_join("NUM_RESULTS_OUT_OF_RANGE",
                            "The number of results " + std::to_string(k) +
                                " must be between 1 and 100000. Update the literal in `APPROX NEAREST " +
                                std::to_string(k) + " BY ...` (or `EXACT NEAREST " + std::to_string(k) +
                                " BY ...`) to fall within that range.",
                            {{"numResults", std::to_string(k)}, {"min", "1"}, {"max", "100000"}});
  const std::string mode = lower_ascii(r.mode());
  if (mode != "approx" && mode != "exact")
    invalid_nearest_by_join("UNSUPPORTED_MODE",
                            "Unsupported nearest-by join mode '" + r.mode() +
                                "'. Supported modes include: 'approx', 'exact'.",
                            {{"mode", r.mode()}, {"supported", "'approx', 'exact'"}});
  const std::string direction = lower_ascii(r.direction());
  if (direction != "distance" && direction != "similarity")
    invalid_nearest_by_join("UNSUPPORTED_DIRECTION",
                            "Unsupported nearest-by join direction '" + r.direction() +
                                "'. Supported nearest-by join directions include: 'distance', 'similarity'.",
                            {{"direction", r.direction()}, {"supported", "'distance', 'similarity'"}});
  std::string join_type = lower_ascii(r.join_type());
  join_type.erase(std::remove(join_type.begin(), join_type.end(), '_'), join_type.end());
  JoinType type;
  if (join_type.empty() || join_type == "inner") {
    type = JoinType::kInner;
  } else if (join_type == "left" || join_type == "leftouter") {
    type = JoinType::kLeftOuter;
  } else {
    invalid_nearest_by_join("UNSUPPORTED_JOIN_TYPE",
                            "Unsupported nearest-by join type " + r.join_type() +
                                ". Supported types: 'INNER', 'LEFT OUTER'.",
                            {{"joinType", r.join_type()}, {"supported", "'INNER', 'LEFT OUTER'"}});
  }
  if (!r.has_ranking_expression())
    throw_invalid_plan("ASSERTION_FAILURE", "NearestByJoin needs a ranking expression",
                       {{"message", "NearestByJoin needs a ranking expression"}});

  // Every left row against every right row, the right rows of each left row ranked and the
  // first `k` kept: a row number over (left row) ordered by the ranking, nearest first.
  const std::string row = "__nearest_by_row";
  const std::string rank = "__nearest_by_rank";
  auto numbered = new_node(PlanKind::kProject, {input(r.left(), "NearestByJoin")});
  numbered->exprs = {plan::star(), plan::alias(plan::call("monotonically_increasing_id", {}), row)};
  auto join = new_node(PlanKind::kJoin, {numbered, input(r.right(), "NearestByJoin")});
  join->join_type = type;
  auto window = std::make_shared<plan::Expr>();
  window->kind = plan::ExprKind::kWindow;
  window->children = {plan::call("row_number", {})};
  window->partition_by = {plan::col({row})};
  const bool ascending = direction == "distance";
  window->order_by = {plan::sort_order(expression(r.ranking_expression()), ascending, false)};
  auto ranked = new_node(PlanKind::kProject, {join});
  ranked->exprs = {plan::star(), plan::alias(window, rank)};
  auto kept = new_node(PlanKind::kFilter, {ranked});
  kept->condition = plan::call("<=", {plan::col({rank}), plan::lit(Value::integer(k), DataType::int_())});
  auto out = new_node(PlanKind::kDrop, {kept});
  out->names = {row, rank};
  return out;
}

}  // namespace ember::connect
