// Unary relations that reshape their input: projection, filtering, ordering, limits, aliases,
// sampling, deduplication, column renames and drops, repartitioning and hints.

#include <map>
#include <random>

#include "column/column.h"
#include "common/calendar_interval.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

PlanTranslator::NodePtr PlanTranslator::project(const pb::Project& r) {
  plan::PlanPtr child;
  if (r.has_input() && r.input().rel_type_case() != pb::Relation::REL_TYPE_NOT_SET) {
    child = relation(r.input());
  } else {
    // A projection without input selects from a single row with no columns, as Spark's
    // OneRowRelation (e.g. `SELECT 1`).
    auto one_row = new_node(PlanKind::kLocalRelation);
    one_row->batches.push_back(Batch({}, 1));
    child = one_row;
  }
  auto node = new_node(PlanKind::kProject, {child});
  node->exprs = expressions(r.expressions());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::filter(const pb::Filter& r) {
  auto node = new_node(PlanKind::kFilter, {input(r.input(), "Filter")});
  node->condition = expression(r.condition());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::sort(const pb::Sort& r) {
  auto node = new_node(PlanKind::kSort, {input(r.input(), "Sort")});
  for (const auto& o : r.order()) node->exprs.push_back(sort_order(o));
  node->is_global = r.is_global();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::limit(const pb::Limit& r) {
  auto node = new_node(PlanKind::kLimit, {input(r.input(), "Limit")});
  node->limit = r.limit();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::offset(const pb::Offset& r) {
  auto node = new_node(PlanKind::kOffset, {input(r.input(), "Offset")});
  node->limit = r.offset();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::tail(const pb::Tail& r) {
  auto node = new_node(PlanKind::kTail, {input(r.input(), "Tail")});
  node->limit = r.limit();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::subquery_alias(const pb::SubqueryAlias& r) {
  auto node = new_node(PlanKind::kSubqueryAlias, {input(r.input(), "SubqueryAlias")});
  node->alias = r.alias();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::sample(const pb::Sample& r) {
  auto node = new_node(PlanKind::kSample, {input(r.input(), "Sample")});
  node->lower = r.lower_bound();
  node->upper = r.upper_bound();
  node->with_replacement = r.has_with_replacement() && r.with_replacement();
  node->sample_sorted_input = r.deterministic_order();
  // PySpark always sends a seed; other clients may leave it to the server.
  if (r.has_seed()) {
    node->seed = r.seed();
  } else {
    std::random_device rd;
    node->seed = static_cast<int64_t>((static_cast<uint64_t>(rd()) << 32) | rd());
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::deduplicate(const pb::Deduplicate& r) {
  const bool all = r.has_all_columns_as_keys() && r.all_columns_as_keys();
  if (all && r.column_names_size() > 0) {
    throw_invalid_plan("DEDUPLICATE_ALL_COLUMNS_AND_SUBSET",
                       "Cannot deduplicate on both all columns and a subset of columns");
  }
  if (!all && r.column_names_size() == 0) {
    throw_invalid_plan("DEDUPLICATE_REQUIRES_COLUMNS_OR_ALL",
                       "Deduplicate requires to either deduplicate on all columns or a subset of "
                       "columns");
  }
  auto node = new_node(PlanKind::kDistinct, {input(r.input(), "Deduplicate")});
  node->dedup_all = all;
  node->dedup_columns.assign(r.column_names().begin(), r.column_names().end());
  if (r.has_within_watermark() && r.within_watermark()) {
    // Only a streaming query keeps state within a watermark; Spark refuses it on a batch
    // DataFrame once the columns are known to exist.
    if (ctx_.session != nullptr) ctx_.session->analyze(node);
    const std::string msg = "dropDuplicatesWithinWatermark is not supported with batch DataFrames/DataSets";
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_3102", msg + ";", {{"msg", msg}});
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::with_watermark(const pb::WithWatermark& r) {
  const std::string& delay = r.delay_threshold();
  std::optional<CalendarInterval> parsed = parse_calendar_interval(delay);
  if (!parsed) throw_cannot_parse_interval(delay, ErrorKind::kAnalysis);
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  const double length = static_cast<double>(parsed->months) * 31 * kMicrosPerDay +
                        static_cast<double>(parsed->days) * kMicrosPerDay + static_cast<double>(parsed->micros);
  if (length < 0)
    throw SparkError(ErrorKind::kIllegalArgument, "",
                     "requirement failed: delay threshold (" + delay + ") should not be negative.");
  // A watermark bounds the state of a streaming query; a batch DataFrame's rows pass unchanged
  // (Spark's optimizer removes the node), whatever the event time column.
  auto node = new_node(PlanKind::kProject, {input(r.input(), "WithWatermark")});
  node->exprs = {plan::star()};
  return node;
}

PlanTranslator::NodePtr PlanTranslator::to_df(const pb::ToDF& r) {
  auto node = new_node(PlanKind::kToDF, {input(r.input(), "ToDF")});
  node->names.assign(r.column_names().begin(), r.column_names().end());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::with_columns(const pb::WithColumns& r) {
  auto node = new_node(PlanKind::kWithColumns, {input(r.input(), "WithColumns")});
  for (const auto& a : r.aliases()) {
    if (a.name_size() != 1) {
      throw_invalid_plan("WITH_COLUMNS_REQUIRE_SINGLE_NAME_PART",
                         "WithColumns require column name only contains one name part, but got [" +
                             std::to_string(a.name_size()) + " parts]",
                         {{"got", std::to_string(a.name_size())}});
    }
    node->exprs.push_back(alias(a));
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::with_columns_renamed(const pb::WithColumnsRenamed& r) {
  auto node = new_node(PlanKind::kWithColumnsRenamed, {input(r.input(), "WithColumnsRenamed")});
  if (r.renames_size() > 0) {
    for (const auto& rn : r.renames()) node->renames.emplace_back(rn.col_name(), rn.new_col_name());
  } else {
    // Older clients send an (unordered, now deprecated) map; keep a deterministic order.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    std::map<std::string, std::string> sorted(r.rename_columns_map().begin(),
                                              r.rename_columns_map().end());
#pragma GCC diagnostic pop
    for (const auto& [from, to] : sorted) node->renames.emplace_back(from, to);
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::drop(const pb::Drop& r) {
  auto node = new_node(PlanKind::kDrop, {input(r.input(), "Drop")});
  node->exprs = expressions(r.columns());
  node->names.assign(r.column_names().begin(), r.column_names().end());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::repartition(const pb::Repartition& r) {
  auto node = new_node(PlanKind::kRepartition, {input(r.input(), "Repartition")});
  node->num_partitions = r.num_partitions();
  node->shuffle = !r.has_shuffle() || r.shuffle();
  return node;
}

PlanTranslator::NodePtr PlanTranslator::repartition_by_expression(
    const pb::RepartitionByExpression& r) {
  auto node = new_node(PlanKind::kRepartition, {input(r.input(), "RepartitionByExpression")});
  if (r.partition_exprs_size() == 1 && r.partition_exprs(0).has_direct_shuffle_partition_id()) {
    // repartitionById: the expression is the partition of each row.
    node->exprs = {expression(r.partition_exprs(0).direct_shuffle_partition_id().child())};
    node->by_partition_id = true;
    node->num_partitions = r.has_num_partitions() ? r.num_partitions() : 0;
    return node;
  }
  node->exprs = expressions(r.partition_exprs());
  node->num_partitions = r.has_num_partitions() ? r.num_partitions() : 0;
  // repartitionByRange sends sort orders.
  for (auto& e : node->exprs) node->by_range |= e->kind == plan::ExprKind::kSortOrder;
  return node;
}

PlanTranslator::NodePtr PlanTranslator::hint(const pb::Hint& r) {
  auto node = new_node(PlanKind::kHint, {input(r.input(), "Hint")});
  node->names = {r.name()};
  node->exprs = expressions(r.parameters());
  return node;
}

}  // namespace ember::connect
