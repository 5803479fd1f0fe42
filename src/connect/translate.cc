#include "connect/translate.h"

#include <algorithm>
#include <cctype>

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate_transpose.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

PlanTranslator::NodePtr new_node(PlanKind kind, std::vector<plan::PlanPtr> children) {
  auto n = std::make_shared<plan::PlanNode>();
  n->kind = kind;
  n->children = std::move(children);
  return n;
}

std::string relation_type_name(const pb::Relation& rel) {
  const auto* oneof = pb::Relation::descriptor()->FindOneofByName("rel_type");
  const auto* field = rel.GetReflection()->GetOneofFieldDescriptor(rel, oneof);
  if (field == nullptr) return "UNSET";
  std::string name = field->name();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return name;
}

plan::PlanPtr PlanTranslator::relation(const pb::Relation& rel) {
  NodePtr node = dispatch(rel);
  if (rel.has_common() && rel.common().has_plan_id()) node->plan_id = rel.common().plan_id();
  return node;
}

plan::PlanPtr PlanTranslator::input(const pb::Relation& child, const char* what) {
  if (child.rel_type_case() == pb::Relation::REL_TYPE_NOT_SET) {
    throw_invalid_plan("ASSERTION_FAILURE", std::string(what) + " needs a plan input",
                       {{"message", std::string(what) + " needs a plan input"}});
  }
  return relation(child);
}

PlanTranslator::NodePtr PlanTranslator::dispatch(const pb::Relation& rel) {
  switch (rel.rel_type_case()) {
    case pb::Relation::kRead:
      return read(rel.read());
    case pb::Relation::kRange:
      return range(rel.range());
    case pb::Relation::kProject:
      return project(rel.project());
    case pb::Relation::kFilter:
      return filter(rel.filter());
    case pb::Relation::kSort:
      return sort(rel.sort());
    case pb::Relation::kLimit:
      return limit(rel.limit());
    case pb::Relation::kOffset:
      return offset(rel.offset());
    case pb::Relation::kTail:
      return tail(rel.tail());
    case pb::Relation::kSubqueryAlias:
      return subquery_alias(rel.subquery_alias());
    case pb::Relation::kSample:
      return sample(rel.sample());
    case pb::Relation::kMapPartitions:
      return map_partitions(rel.map_partitions());
    case pb::Relation::kGroupMap:
      return group_map(rel.group_map());
    case pb::Relation::kCoGroupMap:
      return co_group_map(rel.co_group_map());
    case pb::Relation::kCommonInlineUserDefinedTableFunction:
      return table_function_call(rel.common_inline_user_defined_table_function());
    case pb::Relation::kDeduplicate:
      return deduplicate(rel.deduplicate());
    case pb::Relation::kToDf:
      return to_df(rel.to_df());
    case pb::Relation::kWithColumns:
      return with_columns(rel.with_columns());
    case pb::Relation::kWithColumnsRenamed:
      return with_columns_renamed(rel.with_columns_renamed());
    case pb::Relation::kDrop:
      return drop(rel.drop());
    case pb::Relation::kRepartition:
      return repartition(rel.repartition());
    case pb::Relation::kRepartitionByExpression:
      return repartition_by_expression(rel.repartition_by_expression());
    case pb::Relation::kHint:
      return hint(rel.hint());
    case pb::Relation::kWithWatermark:
      return with_watermark(rel.with_watermark());
    case pb::Relation::kAggregate:
      return aggregate(rel.aggregate());
    case pb::Relation::kUnpivot:
      return unpivot(rel.unpivot());
    case pb::Relation::kToSchema:
      return to_schema(rel.to_schema());
    case pb::Relation::kJoin:
      return join(rel.join());
    case pb::Relation::kSetOp:
      return set_operation(rel.set_op());
    case pb::Relation::kZip:
      return zip(rel.zip());
    case pb::Relation::kNearestByJoin:
      return nearest_by_join(rel.nearest_by_join());
    case pb::Relation::kLateralJoin:
      return lateral_join(rel.lateral_join());
    case pb::Relation::kUnresolvedTableValuedFunction:
      return unresolved_table_valued_function(rel.unresolved_table_valued_function());
    case pb::Relation::kLocalRelation:
      return local_relation(rel.local_relation());
    case pb::Relation::kCachedLocalRelation:
      return cached_local_relation(rel.cached_local_relation());
    case pb::Relation::kChunkedCachedLocalRelation:
      return chunked_cached_local_relation(rel.chunked_cached_local_relation());
    case pb::Relation::kShowString:
      return show_string(rel.show_string());
    case pb::Relation::kHtmlString:
      return html_string(rel.html_string());
    case pb::Relation::kCachedRemoteRelation:
      return cached_remote_relation(rel.cached_remote_relation());
    case pb::Relation::kSql:
      return sql(rel.sql());
    case pb::Relation::kFillNa:
      return na_fill(rel.fill_na());
    case pb::Relation::kDropNa:
      return na_drop(rel.drop_na());
    case pb::Relation::kReplace:
      return na_replace(rel.replace());
    case pb::Relation::kDescribe:
      return describe(rel.describe());
    case pb::Relation::kSummary:
      return summary(rel.summary());
    case pb::Relation::kCov:
    case pb::Relation::kCorr:
      return covariance(rel);
    case pb::Relation::kApproxQuantile:
      return approx_quantile(rel.approx_quantile());
    case pb::Relation::kCrosstab:
      return crosstab(rel.crosstab());
    case pb::Relation::kSampleBy:
      return sample_by(rel.sample_by());
    case pb::Relation::kFreqItems:
      return freq_items(rel.freq_items());
    case pb::Relation::kCatalog:
      return catalog(rel.catalog());
    case pb::Relation::kTranspose: {
      EMBER_CHECK(ctx_.session != nullptr, "Transpose needs a session");
      const auto& t = rel.transpose();
      if (t.index_columns_size() > 1)
        throw_invalid_plan("ASSERTION_FAILURE", "The number of index columns should be either 0 or 1.",
                           {{"message", "The number of index columns should be either 0 or 1."}});
      plan::ExprPtr index = t.index_columns_size() == 1 ? expression(t.index_columns(0)) : nullptr;
      return std::make_shared<plan::PlanNode>(
          *transpose_relation(*ctx_.session, input(t.input(), "Transpose"), index, ctx_.cancelled));
    }
    case pb::Relation::kCollectMetrics:
      return collect_metrics(rel);
    case pb::Relation::kWithRelations:
      with_relations(rel.with_relations());
      return std::const_pointer_cast<plan::PlanNode>(input(rel.with_relations().root(), "WithRelations"));
    case pb::Relation::REL_TYPE_NOT_SET:
      throw_invalid_plan("INVALID_ONE_OF_FIELD_NOT_SET",
                         "This oneOf field in spark.connect.Relation is not set: rel_type",
                         {{"fullName", "spark.connect.Relation"}, {"name", "rel_type"}});
    default:
      break;
  }
  throw_not_supported("Relation type " + relation_type_name(rel));
}

void PlanTranslator::with_relations(const pb::WithRelations& w) {
  // The root's expressions name the references (subqueries) by plan id.
  for (const auto& r : w.references()) {
    if (!r.has_common() || !r.common().has_plan_id())
      throw_invalid_plan("ASSERTION_FAILURE", "A WithRelations reference needs a plan id",
                         {{"message", "A WithRelations reference needs a plan id"}});
    references_[r.common().plan_id()] = &r;
  }
  // SQL text names its DataFrame arguments as tables: each is a SubqueryAlias of that name.
  if (!w.root().has_sql()) return;
  for (const auto& r : w.references())
    if (r.has_subquery_alias())
      sql_relations_[r.subquery_alias().alias()] = input(r.subquery_alias().input(), "SubqueryAlias");
}

PlanTranslator::NodePtr PlanTranslator::collect_metrics(const pb::Relation& rel) {
  const pb::CollectMetrics& r = rel.collect_metrics();
  Observation o;
  o.name = r.name();
  o.input = input(r.input(), "CollectMetrics");
  o.metrics = expressions(r.metrics());
  if (rel.has_common() && rel.common().has_plan_id()) o.plan_id = rel.common().plan_id();
  for (const Observation& seen : observations_)
    if (seen.name == o.name)
      throw SparkError(ErrorKind::kAnalysis, "DUPLICATED_METRICS_NAME",
                       "The metric name is not unique: " + o.name +
                           ". The same name cannot be used for metrics with different results. "
                           "However multiple instances of metrics with with same result and name "
                           "are allowed (e.g. self-joins).",
                       {{"metricName", o.name}}, "42710");
  // The rows pass through as they are: a projection of every input column.
  NodePtr node = new_node(PlanKind::kProject, {o.input});
  node->exprs = {plan::star()};
  observations_.push_back(std::move(o));
  return node;
}

plan::ExprPtr PlanTranslator::subquery_expression(const pb::SubqueryExpression& s) {
  auto found = references_.find(s.plan_id());
  if (found == references_.end())
    throw_invalid_plan("ASSERTION_FAILURE", "No WithRelations reference has the plan id " + std::to_string(s.plan_id()),
                       {{"message", "No WithRelations reference has the plan id " + std::to_string(s.plan_id())}});
  plan::PlanPtr query = relation(*found->second);
  switch (s.subquery_type()) {
    case pb::SubqueryExpression::SUBQUERY_TYPE_SCALAR:
      return plan::subquery(plan::SubqueryKind::kScalar, query);
    case pb::SubqueryExpression::SUBQUERY_TYPE_EXISTS:
      return plan::subquery(plan::SubqueryKind::kExists, query);
    case pb::SubqueryExpression::SUBQUERY_TYPE_IN:
      return plan::subquery(plan::SubqueryKind::kIn, query, expressions(s.in_subquery_values()));
    case pb::SubqueryExpression::SUBQUERY_TYPE_TABLE_ARG: {
      // df.asTable()[.partitionBy(...) | .withSinglePartition()][.orderBy(...)]
      auto e = std::const_pointer_cast<plan::Expr>(plan::subquery(plan::SubqueryKind::kTableArgument, query));
      const pb::SubqueryExpression::TableArgOptions& o = s.table_arg_options();
      for (const auto& p : o.partition_spec()) e->partition_by.push_back(expression(p));
      for (const auto& so : o.order_spec()) e->order_by.push_back(sort_order(so));
      e->with_single_partition = o.has_with_single_partition() && o.with_single_partition();
      return e;
    }
    default:
      break;
  }
  throw_not_supported("Subquery expressions of type " + pb::SubqueryExpression::SubqueryType_Name(s.subquery_type()));
}

}  // namespace ember::connect
