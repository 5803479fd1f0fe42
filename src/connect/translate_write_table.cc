// DataFrameWriter.saveAsTable / insertInto (WriteOperation with a table) and DataFrameWriterV2
// (WriteOperationV2): the input relation becomes the query of a CREATE TABLE AS SELECT or an
// INSERT, run by plan/table_write as the SQL statements run.

#include "common/error.h"
#include "connect/errors.h"
#include "connect/plan_input.h"
#include "connect/translate.h"
#include "connect/translate_write.h"
#include "plan/table_write.h"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

std::vector<std::string> table_name(const std::string& text) { return plan::parse_attribute_name(text); }

plan::ExecuteOptions execute_options(Operation& op) {
  plan::ExecuteOptions options;
  options.cancelled = op.cancelled();
  return options;
}

void no_external_path(const std::map<std::string, std::string>& options) {
  for (const auto& [k, v] : options)
    if (plan::catalog_name(k) == "path") throw_not_supported("Tables at a given path (external tables)");
}

}  // namespace

void run_table_write(ConnectSession& session, Operation& op, const pb::WriteOperation& w) {
  plan::Session& engine = session.engine();
  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr input = translator.relation(w.input());
  const std::vector<std::string> name = table_name(w.table().table_name());
  const plan::ExecuteOptions options = execute_options(op);

  if (w.table().save_method() == pb::WriteOperation::SaveTable::TABLE_SAVE_METHOD_INSERT_INTO) {
    plan::InsertRequest r;
    r.table = name;
    r.overwrite = w.mode() == pb::WriteOperation::SAVE_MODE_OVERWRITE;
    plan::insert_into_table(engine, r, input, options);
    return;
  }

  plan::CreateTableRequest create;
  create.table = name;
  if (w.has_source()) create.provider = w.source();
  create.partition_by.assign(w.partitioning_columns().begin(), w.partitioning_columns().end());
  for (const auto& [k, v] : w.options()) create.options[k] = v;
  if (w.has_path()) throw_not_supported("saveAsTable with a path (external tables)");
  no_external_path(create.options);
  auto [db, table] = engine.table_ident(name);
  const bool exists = engine.tables().find_table(db, table).has_value();
  switch (w.mode()) {
    case pb::WriteOperation::SAVE_MODE_APPEND:
      if (exists) {
        const plan::TableInfo t = engine.tables().table(db, table);
        if (!create.provider.empty() && plan::catalog_name(create.provider) != t.provider) {
          const std::string ident = "spark_catalog." + db + "." + table;
          throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1159",
                           "The format of the existing table " + ident + " is `" + t.provider +
                               "`. It doesn't match the specified format `" + create.provider + "`.",
                           {{"tableName", ident}, {"existingProvider", t.provider},
                            {"specifiedProvider", create.provider}});
        }
        // saveAsTable appends by column name, unlike insertInto.
        plan::InsertRequest r;
        r.table = name;
        r.by_name = true;
        plan::insert_into_table(engine, r, input, options);
        return;
      }
      break;
    case pb::WriteOperation::SAVE_MODE_OVERWRITE:
      create.overwrite = true;
      break;
    case pb::WriteOperation::SAVE_MODE_IGNORE:
      create.if_not_exists = true;
      break;
    default:
      break;  // error if it exists
  }
  plan::create_table(engine, create, input, options);
}

void run_write_operation_v2(ConnectSession& session, Operation& op, const pb::WriteOperationV2& w) {
  plan::Session& engine = session.engine();
  PlanTranslator translator(translate_context(session, op.cancelled()));
  plan::PlanPtr input = translator.relation(w.input());
  const std::vector<std::string> name = table_name(w.table_name());
  const plan::ExecuteOptions options = execute_options(op);

  plan::CreateTableRequest create;
  create.table = name;
  if (w.has_provider()) create.provider = w.provider();
  for (const auto& e : w.partitioning_columns()) {
    if (!e.has_unresolved_attribute()) throw_not_supported("Partition transforms in writeTo(...).partitionedBy");
    create.partition_by.push_back(plan::parse_attribute_name(e.unresolved_attribute().unparsed_identifier()).back());
  }
  for (const auto& [k, v] : w.options()) create.options[k] = v;
  no_external_path(create.options);

  switch (w.mode()) {
    case pb::WriteOperationV2::MODE_CREATE:
      plan::create_table(engine, create, input, options);
      return;
    case pb::WriteOperationV2::MODE_CREATE_OR_REPLACE:
      create.replace = true;
      plan::create_table(engine, create, input, options);
      return;
    case pb::WriteOperationV2::MODE_REPLACE:
      create.replace = true;  // fails as Spark's session catalog does
      plan::create_table(engine, create, input, options);
      return;
    case pb::WriteOperationV2::MODE_APPEND:
    case pb::WriteOperationV2::MODE_OVERWRITE_PARTITIONS:
    case pb::WriteOperationV2::MODE_OVERWRITE: {
      // The session catalog's tables are v1 tables, which DataFrameWriterV2 cannot write into.
      auto [db, table] = engine.table_ident(name);
      if (!engine.tables().find_table(db, table)) plan::throw_table_not_found({"spark_catalog", db, table});
      const std::string ident = quote_id("spark_catalog") + "." + quote_id(db) + "." + quote_id(table);
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1012",
                       "Cannot write into v1 table: " + ident + ".", {{"identifier", ident}});
    }
    default:
      throw_not_supported("DataFrameWriterV2 mode");
  }
}

}  // namespace ember::connect
