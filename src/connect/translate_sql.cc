// SQL text inside DataFrame plans: spark.sql(...) relations and expr() / selectExpr() strings.

#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/session.h"
#include "sql/parser.h"
#include "sql/statement.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

namespace {

sql::ParseOptions parse_options(plan::Session* session) {
  if (session == nullptr) return {};
  return sql::ParseOptions::for_session(*session);
}

}  // namespace

plan::ExprPtr PlanTranslator::expression_string(const std::string& text) {
  return sql::parse_expression(text, parse_options(ctx_.session));
}

PlanTranslator::SqlStatement PlanTranslator::sql_statement(const std::string& text,
                                                           const SqlArguments& arguments) {
  sql::ParseOptions options = parse_options(ctx_.session);
  options.relations = sql_relations_;
  if (arguments.args) {
    for (const auto& [name, literal] : *arguments.args) {
      TypedValue v = literal_from_proto(literal);
      options.parameters.named[name] = plan::lit(std::move(v.value), std::move(v.type));
    }
  }
  if (arguments.pos_args) {
    for (const auto& literal : *arguments.pos_args) {
      TypedValue v = literal_from_proto(literal);
      options.parameters.positional.push_back(plan::lit(std::move(v.value), std::move(v.type)));
    }
  }
  if (arguments.named_arguments) {
    for (const auto& [name, e] : *arguments.named_arguments)
      options.parameters.named[name] = expression(e);
  }
  if (arguments.pos_arguments) {
    for (const auto& e : *arguments.pos_arguments)
      options.parameters.positional.push_back(expression(e));
  }
  sql::Statement statement = sql::parse_statement(text, options);
  if (sql::is_query(statement)) return {statement.query, false};
  EMBER_CHECK(ctx_.session != nullptr, "SQL commands need a session");
  plan::ExecuteOptions exec;
  exec.cancelled = ctx_.cancelled;
  plan::QueryResult result = sql::execute_statement(*ctx_.session, statement, exec);
  auto node = new_node(PlanKind::kLocalRelation);
  node->schema = std::move(result.schema);
  node->batches = std::move(result.batches);
  return {node, true};
}

PlanTranslator::SqlArguments PlanTranslator::sql_arguments(const pb::SQL& sql) {
  // Literal arguments (args, pos_args) are what older clients send; PySpark 4.3 sends
  // expressions (named_arguments, pos_arguments).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return SqlArguments{&sql.args(), &sql.pos_args(), &sql.named_arguments(), &sql.pos_arguments()};
#pragma GCC diagnostic pop
}

PlanTranslator::SqlStatement PlanTranslator::sql_command(const pb::Relation& input) {
  if (input.has_with_relations()) {
    with_relations(input.with_relations());
    const pb::Relation& root = input.with_relations().root();
    if (!root.has_sql())
      throw_invalid_plan("SQL_COMMAND_EXPECTS_SQL_OR_WITH_RELATIONS",
                         "SQL command expects either a SQL or a WithRelations, but got " +
                             relation_type_name(root),
                         {{"other", relation_type_name(root)}});
    return sql_statement(root.sql().query(), sql_arguments(root.sql()));
  }
  if (!input.has_sql())
    throw_invalid_plan("SQL_COMMAND_EXPECTS_SQL_OR_WITH_RELATIONS",
                       "SQL command expects either a SQL or a WithRelations, but got " +
                           relation_type_name(input),
                       {{"other", relation_type_name(input)}});
  return sql_statement(input.sql().query(), sql_arguments(input.sql()));
}

PlanTranslator::NodePtr PlanTranslator::sql(const pb::SQL& r) {
  plan::PlanPtr p = sql_statement(r.query(), sql_arguments(r)).plan;
  // The plan id of the relation goes on a node of our own: the parsed plan may be shared.
  auto node = std::make_shared<plan::PlanNode>(*p);
  return node;
}

}  // namespace ember::connect
