#include "sql/builtin_table_functions.h"

#include "common/ascii.h"
#include "common/error.h"
#include "sql/keywords.h"
#include "sql/result_builder.h"
#include "types/collation.h"

namespace ember::sql {

namespace {

std::shared_ptr<plan::PlanNode> relation(ResultBuilder& rows) {
  plan::QueryResult r = rows.finish();
  auto node = std::make_shared<plan::PlanNode>();
  node->kind = plan::PlanKind::kLocalRelation;
  node->schema = std::move(r.schema);
  node->batches = std::move(r.batches);
  return node;
}

std::shared_ptr<plan::PlanNode> sql_keywords(bool enforce_reserved) {
  ResultBuilder r;
  r.column("keyword", DataType::string(), false);
  r.column("reserved", DataType::boolean(), false);
  for (const Keyword& k : keywords())
    r.row({Value::bytes(k.word), Value::boolean(enforce_reserved && k.ansi_reserved)});
  return relation(r);
}

std::shared_ptr<plan::PlanNode> collations() {
  ResultBuilder r;
  r.column("CATALOG", DataType::string(), false);
  r.column("SCHEMA", DataType::string(), false);
  r.column("NAME", DataType::string(), false);
  r.column("LANGUAGE", DataType::string(), true);
  r.column("COUNTRY", DataType::string(), true);
  r.column("ACCENT_SENSITIVITY", DataType::string(), false);
  r.column("CASE_SENSITIVITY", DataType::string(), false);
  r.column("PAD_ATTRIBUTE", DataType::string(), false);
  r.column("ICU_VERSION", DataType::string(), true);
  auto text = [](const std::string& s) { return s.empty() ? Value() : Value::bytes(s); };
  for (const CollationListing& c : list_collations())
    r.row({Value::bytes("SYSTEM"), Value::bytes("BUILTIN"), Value::bytes(c.name), text(c.language),
           text(c.country),
           Value::bytes(c.accent_sensitive ? "ACCENT_SENSITIVE" : "ACCENT_INSENSITIVE"),
           Value::bytes(c.case_sensitive ? "CASE_SENSITIVE" : "CASE_INSENSITIVE"),
           Value::bytes(c.pad_attribute), text(c.icu_version)});
  return relation(r);
}

}  // namespace

std::shared_ptr<plan::PlanNode> builtin_table_function(const std::string& name, size_t num_args,
                                                       bool enforce_reserved_keywords) {
  const std::string lower = ascii_lower(name);
  if (lower != "sql_keywords" && lower != "collations") return nullptr;
  if (num_args != 0)
    throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                     "The `" + lower + "` requires 0 parameters but the actual number is " +
                         std::to_string(num_args) + ".",
                     {{"functionName", "`" + lower + "`"},
                      {"expectedNum", "0"},
                      {"actualNum", std::to_string(num_args)}},
                     "42605");
  return lower == "sql_keywords" ? sql_keywords(enforce_reserved_keywords) : collations();
}

}  // namespace ember::sql
