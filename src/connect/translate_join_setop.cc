// Binary relations: joins and set operations (UNION, INTERSECT, EXCEPT).

#include "connect/errors.h"
#include "connect/translate.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::JoinType;
using plan::PlanKind;
using plan::SetOpType;

namespace {

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

}  // namespace

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

}  // namespace ember::connect
