#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "plan/expression.h"
#include "plan/logical_plan.h"
#include "spark/connect/catalog.pb.h"
#include "spark/connect/expressions.pb.h"
#include "spark/connect/relations.pb.h"

namespace ember::plan {
class Session;
}

namespace ember::connect {

/// What translation may need beyond the message itself.
struct TranslateContext {
  /// The session, for relations Spark evaluates eagerly while planning (ShowString) and for
  /// configuration. May be null when translating for tests; such relations then fail.
  plan::Session* session = nullptr;
  /// Looks up a cached artifact (`cache/<hash>`) uploaded with AddArtifacts; returns false when
  /// unknown. Used by CachedLocalRelation and ChunkedCachedLocalRelation.
  std::function<bool(const std::string& name, std::string* bytes)> cached_artifact;
  /// The rows of a checkpointed DataFrame (CachedRemoteRelation) as a local relation;
  /// CONNECT_INVALID_PLAN.DATAFRAME_NOT_FOUND when the session holds none with that id.
  std::function<plan::PlanPtr(const std::string& relation_id)> checkpoint;
  /// The cancellation flag of the operation being translated, for eager evaluation.
  std::shared_ptr<std::atomic<bool>> cancelled;
};

/// Translates Spark Connect protocol relations and expressions into Ember's unresolved logical
/// plan. Names, functions and types are not checked here (the analyzer does that); this layer
/// only maps message shapes, keeps each relation's `plan_id`, and rejects malformed or
/// unsupported messages with Spark-style errors that name what is missing.
///
/// The methods are split over one source file per relation family (translate_<family>.cc).
class PlanTranslator {
 public:
  /// Nodes under construction; they become immutable `PlanPtr`s once returned.
  using NodePtr = std::shared_ptr<plan::PlanNode>;

  explicit PlanTranslator(TranslateContext ctx = {}) : ctx_(std::move(ctx)) {}

  plan::PlanPtr relation(const spark::connect::Relation& rel);
  plan::ExprPtr expression(const spark::connect::Expression& expr);
  /// A Python UDTF (udtf, arrow_udtf) as a generator expression over its call's arguments
  /// (translate_udf.cc); what spark.udtf.register keeps in the session.
  plan::ExprPtr python_table_function(const spark::connect::CommonInlineUserDefinedTableFunction& f);

 private:
  /// The relation's child, which must be present.
  plan::PlanPtr input(const spark::connect::Relation& child, const char* what);
  NodePtr dispatch(const spark::connect::Relation& rel);

  // translate_read.cc
  NodePtr read(const spark::connect::Read& r);
  NodePtr range(const spark::connect::Range& r);
  // translate_basic.cc
  NodePtr project(const spark::connect::Project& r);
  NodePtr filter(const spark::connect::Filter& r);
  NodePtr sort(const spark::connect::Sort& r);
  NodePtr limit(const spark::connect::Limit& r);
  NodePtr offset(const spark::connect::Offset& r);
  NodePtr tail(const spark::connect::Tail& r);
  NodePtr subquery_alias(const spark::connect::SubqueryAlias& r);
  NodePtr sample(const spark::connect::Sample& r);
  NodePtr deduplicate(const spark::connect::Deduplicate& r);
  NodePtr to_df(const spark::connect::ToDF& r);
  NodePtr with_columns(const spark::connect::WithColumns& r);
  NodePtr with_columns_renamed(const spark::connect::WithColumnsRenamed& r);
  NodePtr drop(const spark::connect::Drop& r);
  NodePtr repartition(const spark::connect::Repartition& r);
  NodePtr repartition_by_expression(const spark::connect::RepartitionByExpression& r);
  NodePtr hint(const spark::connect::Hint& r);
  /// withWatermark on a batch DataFrame: the delay checked, the rows unchanged.
  NodePtr with_watermark(const spark::connect::WithWatermark& r);
  // translate_aggregate.cc
  NodePtr aggregate(const spark::connect::Aggregate& r);
  NodePtr unpivot(const spark::connect::Unpivot& r);
  NodePtr to_schema(const spark::connect::ToSchema& r);
  // translate_join_setop.cc
  NodePtr join(const spark::connect::Join& r);
  NodePtr set_operation(const spark::connect::SetOperation& r);
  /// DataFrame.zip: the two sides' columns side by side over the plan they share.
  NodePtr zip(const spark::connect::Zip& r);
  /// DataFrame.nearestByJoin: for each left row, the `numResults` right rows ranked first.
  NodePtr nearest_by_join(const spark::connect::NearestByJoin& r);
  // translate_table_function.cc
  NodePtr unresolved_table_valued_function(const spark::connect::UnresolvedTableValuedFunction& r);
  NodePtr lateral_join(const spark::connect::LateralJoin& r);
  // translate_local.cc
  NodePtr local_relation(const spark::connect::LocalRelation& r);
  NodePtr cached_local_relation(const spark::connect::CachedLocalRelation& r);
  NodePtr chunked_cached_local_relation(const spark::connect::ChunkedCachedLocalRelation& r);
  NodePtr show_string(const spark::connect::ShowString& r);
  NodePtr html_string(const spark::connect::HtmlString& r);
  NodePtr cached_remote_relation(const spark::connect::CachedRemoteRelation& r);
  // translate_na.cc
  NodePtr na_fill(const spark::connect::NAFill& r);
  NodePtr na_drop(const spark::connect::NADrop& r);
  NodePtr na_replace(const spark::connect::NAReplace& r);
  /// The output columns of `child`, analyzed now (for relations that depend on the schema).
  std::vector<plan::ExprPtr> input_columns(const plan::PlanPtr& child);
  // translate_stat.cc
  NodePtr describe(const spark::connect::StatDescribe& r);
  NodePtr summary(const spark::connect::StatSummary& r);
  NodePtr describe_columns(const plan::PlanPtr& child, const std::vector<std::string>& cols,
                           const std::vector<std::string>& stats);
  /// StatCov or StatCorr (the relation, to tell which).
  NodePtr covariance(const spark::connect::Relation& rel);
  NodePtr approx_quantile(const spark::connect::StatApproxQuantile& r);
  NodePtr crosstab(const spark::connect::StatCrosstab& r);
  NodePtr sample_by(const spark::connect::StatSampleBy& r);
  NodePtr freq_items(const spark::connect::StatFreqItems& r);
  // translate_sql.cc
  NodePtr sql(const spark::connect::SQL& r);
  // translate_catalog.cc
  NodePtr catalog(const spark::connect::Catalog& r);
  // translate_expression.cc
  plan::ExprPtr sort_order(const spark::connect::Expression::SortOrder& s);
  plan::ExprPtr alias(const spark::connect::Expression::Alias& a);
  plan::ExprPtr window(const spark::connect::Expression::Window& w);
  plan::ExprPtr lambda(const spark::connect::Expression::LambdaFunction& l);
  std::vector<plan::ExprPtr> expressions(
      const google::protobuf::RepeatedPtrField<spark::connect::Expression>& list);
  /// An `expr("...")` / `selectExpr` / `filter("...")` string, parsed as Spark SQL.
  plan::ExprPtr expression_string(const std::string& text);
  // translate_udf.cc
  plan::ExprPtr python_udf(const spark::connect::CommonInlineUserDefinedFunction& f);
  NodePtr map_partitions(const spark::connect::MapPartitions& r);
  NodePtr group_map(const spark::connect::GroupMap& r);
  NodePtr co_group_map(const spark::connect::CoGroupMap& r);
  NodePtr table_function_call(const spark::connect::CommonInlineUserDefinedTableFunction& f);

 public:
  /// The SQL parameters of a `spark.sql(query, args)` request: literal arguments by name and
  /// by position, or expression arguments.
  struct SqlArguments {
    const google::protobuf::Map<std::string, spark::connect::Expression::Literal>* args = nullptr;
    const google::protobuf::RepeatedPtrField<spark::connect::Expression::Literal>* pos_args =
        nullptr;
    const google::protobuf::Map<std::string, spark::connect::Expression>* named_arguments = nullptr;
    const google::protobuf::RepeatedPtrField<spark::connect::Expression>* pos_arguments = nullptr;
  };
  /// A SQL statement as a relation: a query becomes its plan; a command (SET, CREATE VIEW,
  /// SHOW ...) runs now, as Spark runs it, and becomes a local relation of its result.
  struct SqlStatement {
    plan::PlanPtr plan;
    bool ran_command = false;
  };
  SqlStatement sql_statement(const std::string& text, const SqlArguments& arguments);
  /// The arguments of a SQL relation.
  static SqlArguments sql_arguments(const spark::connect::SQL& sql);
  /// What a SqlCommand's input holds: a SQL relation, or a WithRelations around one whose
  /// references are the DataFrames the text names (`spark.sql("... {df} ...", df=df)`).
  SqlStatement sql_command(const spark::connect::Relation& input);

  /// A `DataFrame.observe(name, *metrics)` met in the plan (Spark's CollectMetrics): the
  /// relation passes its input's rows on unchanged; the metrics are aggregates over those rows,
  /// reported to the client after the action as observed metrics.
  struct Observation {
    std::string name;
    std::vector<plan::ExprPtr> metrics;
    plan::PlanPtr input;
    int64_t plan_id = -1;
  };
  /// The observations of the relations translated so far, in the order met.
  const std::vector<Observation>& observations() const { return observations_; }

  TranslateContext ctx_;

 private:
  NodePtr collect_metrics(const spark::connect::Relation& rel);
  /// A subquery of a DataFrame expression (df.scalar(), df.exists(), col.isin(df)): the
  /// WithRelations reference of its plan id, translated where it is used.
  plan::ExprPtr subquery_expression(const spark::connect::SubqueryExpression& s);
  std::vector<Observation> observations_;
  /// The references of the WithRelations being translated, by plan id.
  std::map<int64_t, const spark::connect::Relation*> references_;
  /// Registers a WithRelations' references; when its root is SQL text, the references that
  /// are SubqueryAliases become the relations the text may name.
  void with_relations(const spark::connect::WithRelations& w);
  /// The DataFrames a SQL root of a WithRelations names as tables, by name.
  std::map<std::string, plan::PlanPtr> sql_relations_;
};

/// A fresh, mutable plan node (for the translate_*.cc files).
PlanTranslator::NodePtr new_node(plan::PlanKind kind, std::vector<plan::PlanPtr> children = {});

/// A literal message as an Ember value and type (translate_literal.cc). Decimal strings are
/// parsed exactly; arrays, maps and structs become `Value::list`s.
TypedValue literal_from_proto(const spark::connect::Expression::Literal& lit);

/// An Ember value of `type` as a literal message (the inverse of literal_from_proto), for
/// values the server sends: observed metrics.
void literal_to_proto(const Value& v, const DataType& type, spark::connect::Expression::Literal* out);

/// The name of the relation type set in `rel`, as Spark names it in messages ("SQL", "NA_FILL").
std::string relation_type_name(const spark::connect::Relation& rel);

// The join type a Connect Join or LateralJoin names; INVALID_ENUM for a value it does not know.
plan::JoinType join_type_from_proto(spark::connect::Join::JoinType t);

}  // namespace ember::connect
