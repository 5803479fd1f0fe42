// DataFrame.to(schema): the input's columns picked by name in the schema's order, each cast
// to the schema's type by ANSI store assignment (structs reordered field by field), as Spark's Project.matchSchema does.
// The input is analyzed here for its types; the result is a projection the analyzer resolves.

#include "common/ascii.h"
#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::ExprPtr;
using plan::PlanKind;

namespace {

bool is_numeric(TypeId id) {
  switch (id) {
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal: return true;
    default: return false;
  }
}

bool is_datetime(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampNtz;
}

/// Spark's ANSI store-assignment rule (Cast.canANSIStoreAssign), which DataFrame.to applies.
bool can_store_assign(const DataType& from, const DataType& to) {
  if (from.equals(to) || from.id() == TypeId::kNull) return true;
  if (is_numeric(from.id()) && is_numeric(to.id())) return true;
  const bool atomic = from.id() != TypeId::kArray && from.id() != TypeId::kMap && from.id() != TypeId::kStruct;
  if (atomic && to.is_string_like()) return true;
  if (is_datetime(from.id()) && is_datetime(to.id())) return true;
  if (from.id() == TypeId::kArray && to.id() == TypeId::kArray)
    return (!from.fields()[0].nullable || to.fields()[0].nullable) &&
           can_store_assign(*from.fields()[0].type, *to.fields()[0].type);
  return false;
}

std::string quoted_path(const std::vector<std::string>& path) {
  std::string s;
  for (size_t i = 0; i < path.size(); ++i) s += (i ? "." : "") + quote_id(path[i]);
  return s;
}

/// `e` (of type `from`, nullable `nullable`) conformed to the field `to`.
ExprPtr conform(const ExprPtr& e, const TypePtr& from, bool nullable, const StructField& to,
                std::vector<std::string> path) {
  if (nullable && !to.nullable)
    throw SparkError(ErrorKind::kAnalysis, "NULLABLE_COLUMN_OR_FIELD",
                     "Column or field " + quoted_path(path) + " is nullable while it's required to be non-nullable.",
                     {{"name", quoted_path(path)}}, "42000");
  if (from->id() == TypeId::kStruct && to.type->id() == TypeId::kStruct && !from->equals(*to.type)) {
    std::vector<ExprPtr> args;
    for (const auto& field : to.type->fields()) {
      const StructField* match = nullptr;
      for (const auto& f : from->fields())
        if (ascii_lower(f.name) == ascii_lower(field.name)) match = &f;
      std::vector<std::string> sub = path;
      sub.push_back(field.name);
      args.push_back(plan::lit(Value::bytes(field.name), DataType::string()));
      // A field the input lacks is null where the schema allows it.
      if (!match && field.nullable) {
        args.push_back(plan::cast(plan::lit(Value(), DataType::null()), field.type));
        continue;
      }
      if (!match)
        throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_FIELD.WITH_SUGGESTION",
                         "A field with name " + quote_id(field.name) + " cannot be resolved with the struct-type column " +
                             quoted_path(path) + ".",
                         {{"fieldName", quote_id(field.name)}, {"columnPath", quoted_path(path)}}, "42703");
      auto get = std::make_shared<plan::Expr>();
      get->kind = plan::ExprKind::kUnresolvedExtract;
      get->children = {e, plan::lit(Value::bytes(match->name), DataType::string())};
      args.push_back(conform(get, match->type, match->nullable, field, sub));
    }
    ExprPtr built = plan::call("named_struct", std::move(args));
    if (!nullable) return built;
    return plan::call("if", {plan::call("isnull", {e}), plan::lit(Value(), DataType::null()), built});
  }
  if (from->equals(*to.type)) return e;
  if (!can_store_assign(*from, *to.type))
    throw SparkError(ErrorKind::kAnalysis, "INVALID_COLUMN_OR_FIELD_DATA_TYPE",
                     "Column or field " + quoted_path(path) + " is of type \"" + from->sql() +
                         "\" while it's required to be \"" + to.type->sql() + "\".",
                     {{"name", quoted_path(path)}, {"type", "\"" + from->sql() + "\""},
                      {"expectedType", "\"" + to.type->sql() + "\""}},
                     "42000");
  return plan::cast(e, to.type);
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::to_schema(const pb::ToSchema& r) {
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.to needs a session");
  plan::PlanPtr input = relation(r.input());
  plan::PlanPtr analyzed = ctx_.session->analyze(input);
  Schema schema = schema_from_proto(r.schema());
  auto node = new_node(PlanKind::kProject, {analyzed});
  for (const auto& field : schema) {
    const plan::Expr* match = nullptr;
    ExprPtr attr;
    for (const auto& a : analyzed->output)
      if (ascii_lower(a->name) == ascii_lower(field.name)) {
        match = a.get();
        attr = a;
      }
    if (!match && field.nullable) {
      // A column the input lacks is null where the schema allows it.
      node->exprs.push_back(plan::alias(plan::cast(plan::lit(Value(), DataType::null()), field.type), field.name));
      continue;
    }
    if (!match)
      throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
                       "A column, variable, or function parameter with name " + quote_id(field.name) +
                           " cannot be resolved.",
                       {{"objectName", quote_id(field.name)}}, "42703");
    ExprPtr e = conform(attr, match->type, match->nullable, field, {field.name});
    auto named = std::make_shared<plan::Expr>(*plan::alias(e, field.name));
    if (field.metadata_json != "{}" && !field.metadata_json.empty()) named->metadata_json = field.metadata_json;
    node->exprs.push_back(named);
  }
  return node;
}

}  // namespace ember::connect
