// Leaf relations that read data: data sources, tables and views, and ranges.

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

namespace {

/// A user schema given as DDL ("a INT, b STRING") or as Spark's JSON form.
TypePtr parse_schema_string(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i != std::string::npos && text[i] == '{') return parse_json_type(text);
  return parse_ddl_schema(text);
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::read(const pb::Read& r) {
  if (r.is_streaming()) throw_not_supported("Streaming read");
  switch (r.read_type_case()) {
    case pb::Read::kNamedTable: {
      auto node = new_node(PlanKind::kUnresolvedRelation);
      node->table_name = plan::parse_attribute_name(r.named_table().unparsed_identifier());
      return node;
    }
    case pb::Read::kDataSource: {
      const auto& ds = r.data_source();
      if (ds.predicates_size() > 0) throw_not_supported("JDBC predicates");
      auto node = new_node(PlanKind::kRead);
      // Spark's default source (spark.sql.sources.default) when no format is given.
      node->read.format = ds.has_format() && !ds.format().empty() ? ds.format() : "parquet";
      for (const auto& [k, v] : ds.options()) node->read.options.set(k, v);
      node->read.paths.assign(ds.paths().begin(), ds.paths().end());
      if (ds.has_schema() && !ds.schema().empty()) {
        node->read.user_schema = parse_schema_string(ds.schema());
      }
      return node;
    }
    case pb::Read::READ_TYPE_NOT_SET:
      break;
  }
  throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                     "This oneOf field in spark.connect.Read is not set: read_type",
                     {{"fullName", "spark.connect.Read"}, {"name", "read_type"}});
}

PlanTranslator::NodePtr PlanTranslator::range(const pb::Range& r) {
  auto node = new_node(PlanKind::kRange);
  node->range_start = r.has_start() ? r.start() : 0;
  node->range_end = r.end();
  node->range_step = r.step();
  if (r.step() == 0) {
    throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.RANGE_STEP",
                     "The value of parameter(s) `step` in `range` is invalid: Step must not be 0.",
                     {{"parameter", "`step`"}, {"functionName", "`range`"}}, "22023");
  }
  node->num_partitions = r.has_num_partitions() ? r.num_partitions() : 0;
  return node;
}

}  // namespace ember::connect
