// Protocol relations and expressions to Ember's unresolved plan.

#include "connect/translate.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "connect/arrow_results.h"
#include "plan/session.h"

namespace ember::connect {
namespace {

namespace pb = spark::connect;
using plan::ExprKind;
using plan::PlanKind;

pb::Expression attr(const std::string& name, int64_t plan_id = -1) {
  pb::Expression e;
  e.mutable_unresolved_attribute()->set_unparsed_identifier(name);
  if (plan_id >= 0) e.mutable_unresolved_attribute()->set_plan_id(plan_id);
  return e;
}

pb::Expression int_lit(int v) {
  pb::Expression e;
  e.mutable_literal()->set_integer(v);
  return e;
}

pb::Expression fn(const std::string& name, std::vector<pb::Expression> args) {
  pb::Expression e;
  e.mutable_unresolved_function()->set_function_name(name);
  for (auto& a : args) *e.mutable_unresolved_function()->add_arguments() = a;
  return e;
}

pb::Relation range_rel(int64_t end, int64_t plan_id = -1) {
  pb::Relation r;
  r.mutable_range()->set_end(end);
  r.mutable_range()->set_step(1);
  if (plan_id >= 0) r.mutable_common()->set_plan_id(plan_id);
  return r;
}

/// The error class of what `f` throws, or "" when it does not throw a SparkError.
template <typename F>
std::string error_class_of(F f) {
  try {
    f();
  } catch (const SparkError& e) {
    return e.error_class();
  }
  return "";
}

// ---- Expressions ----------------------------------------------------------------------------

TEST(TranslateExpression, AttributesKeepPartsAndPlanId) {
  PlanTranslator t;
  auto e = t.expression(attr("a.`b.c`", 7));
  ASSERT_EQ(e->kind, ExprKind::kUnresolvedAttribute);
  EXPECT_EQ(e->name_parts, (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(e->plan_id, 7);
  EXPECT_EQ(t.expression(attr("x"))->plan_id, -1);
}

TEST(TranslateExpression, FunctionsKeepTheNameAsSent) {
  PlanTranslator t;
  auto e = t.expression(fn("==", {attr("a"), int_lit(1)}));
  ASSERT_EQ(e->kind, ExprKind::kUnresolvedFunction);
  EXPECT_EQ(e->name, "==");
  ASSERT_EQ(e->children.size(), 2u);
  EXPECT_EQ(e->children[1]->kind, ExprKind::kLiteral);

  pb::Expression d = fn("count", {attr("a")});
  d.mutable_unresolved_function()->set_is_distinct(true);
  EXPECT_TRUE(t.expression(d)->distinct);

  pb::Expression c;
  c.mutable_call_function()->set_function_name("my_fn");
  EXPECT_EQ(t.expression(c)->name, "my_fn");
}

TEST(TranslateExpression, Stars) {
  PlanTranslator t;
  pb::Expression s;
  s.mutable_unresolved_star();
  auto all = t.expression(s);
  EXPECT_EQ(all->kind, ExprKind::kUnresolvedStar);
  EXPECT_TRUE(all->name_parts.empty());

  s.mutable_unresolved_star()->set_unparsed_target("t.s.*");
  EXPECT_EQ(t.expression(s)->name_parts, (std::vector<std::string>{"t", "s"}));

  s.mutable_unresolved_star()->set_unparsed_target("t");
  EXPECT_EQ(error_class_of([&] { t.expression(s); }),
            "CONNECT_INVALID_PLAN.UNRESOLVED_STAR_TARGET_INVALID");

  pb::Expression p;
  p.mutable_unresolved_star()->set_plan_id(3);
  EXPECT_EQ(t.expression(p)->plan_id, 3);
}

TEST(TranslateExpression, AliasesWithMetadataAndSeveralNames) {
  PlanTranslator t;
  pb::Expression a;
  *a.mutable_alias()->mutable_expr() = attr("x");
  a.mutable_alias()->add_name("y");
  a.mutable_alias()->set_metadata("{\"k\":1}");
  auto e = t.expression(a);
  ASSERT_EQ(e->kind, ExprKind::kAlias);
  EXPECT_EQ(e->name, "y");
  EXPECT_EQ(e->metadata_json, "{\"k\":1}");

  pb::Expression m;
  *m.mutable_alias()->mutable_expr() = fn("posexplode", {attr("arr")});
  m.mutable_alias()->add_name("pos");
  m.mutable_alias()->add_name("val");
  auto multi = t.expression(m);
  EXPECT_EQ(multi->name_parts, (std::vector<std::string>{"pos", "val"}));
  m.mutable_alias()->set_metadata("{}");
  EXPECT_EQ(error_class_of([&] { t.expression(m); }),
            "CONNECT_INVALID_PLAN.ALIAS_WITH_MULTIPLE_IDENTIFIERS_AND_METADATA");
}

TEST(TranslateExpression, Casts) {
  PlanTranslator t;
  pb::Expression c;
  *c.mutable_cast()->mutable_expr() = attr("x");
  c.mutable_cast()->set_type_str("decimal(10, 2)");
  auto e = t.expression(c);
  ASSERT_EQ(e->kind, ExprKind::kCast);
  EXPECT_TRUE(e->type->equals(*DataType::decimal(10, 2)));
  EXPECT_FALSE(e->try_);

  c.mutable_cast()->mutable_type()->mutable_long_();
  c.mutable_cast()->set_eval_mode(pb::Expression::Cast::EVAL_MODE_TRY);
  e = t.expression(c);
  EXPECT_EQ(e->type->id(), TypeId::kLong);
  EXPECT_TRUE(e->try_);
}

TEST(TranslateExpression, SortOrderDefaultsFollowSpark) {
  PlanTranslator t;
  pb::Expression s;
  *s.mutable_sort_order()->mutable_child() = attr("x");
  auto asc = t.expression(s);
  EXPECT_TRUE(asc->ascending);
  EXPECT_TRUE(asc->nulls_first);
  s.mutable_sort_order()->set_direction(pb::Expression::SortOrder::SORT_DIRECTION_DESCENDING);
  auto desc = t.expression(s);
  EXPECT_FALSE(desc->ascending);
  EXPECT_FALSE(desc->nulls_first);
  s.mutable_sort_order()->set_null_ordering(pb::Expression::SortOrder::SORT_NULLS_FIRST);
  EXPECT_TRUE(t.expression(s)->nulls_first);
}

TEST(TranslateExpression, WindowsAndFrames) {
  PlanTranslator t;
  pb::Expression w;
  auto* win = w.mutable_window();
  *win->mutable_window_function() = fn("row_number", {});
  *win->add_partition_spec() = attr("g");
  *win->add_order_spec()->mutable_child() = attr("o");
  auto* frame = win->mutable_frame_spec();
  frame->set_frame_type(pb::Expression::Window::WindowFrame::FRAME_TYPE_ROW);
  frame->mutable_lower()->set_unbounded(true);
  *frame->mutable_upper()->mutable_value() = int_lit(2);
  auto e = t.expression(w);
  ASSERT_EQ(e->kind, ExprKind::kWindow);
  EXPECT_EQ(e->children[0]->name, "row_number");
  EXPECT_EQ(e->partition_by.size(), 1u);
  EXPECT_EQ(e->order_by.size(), 1u);
  EXPECT_TRUE(e->frame.specified);
  EXPECT_EQ(e->frame.type, plan::WindowFrame::Type::kRows);
  EXPECT_EQ(e->frame.lower, INT64_MIN);
  EXPECT_EQ(e->frame.upper, 2);

  pb::Expression no_fn;
  no_fn.mutable_window();
  EXPECT_EQ(error_class_of([&] { t.expression(no_fn); }),
            "CONNECT_INVALID_PLAN.WINDOW_FUNCTION_REQUIRED");
}

TEST(TranslateExpression, LambdasAndExtraction) {
  PlanTranslator t;
  pb::Expression l;
  auto* lf = l.mutable_lambda_function();
  pb::Expression var;
  var.mutable_unresolved_named_lambda_variable()->add_name_parts("x_1");
  *lf->mutable_function() = fn("+", {var, int_lit(1)});
  *lf->add_arguments() = var.unresolved_named_lambda_variable();
  auto e = t.expression(l);
  ASSERT_EQ(e->kind, ExprKind::kLambda);
  ASSERT_EQ(e->children.size(), 2u);
  EXPECT_EQ(e->children[1]->kind, ExprKind::kLambdaVariable);
  EXPECT_EQ(e->children[1]->name, "x_1");
  EXPECT_EQ(e->children[0]->children[0]->kind, ExprKind::kLambdaVariable);

  pb::Expression x;
  *x.mutable_unresolved_extract_value()->mutable_child() = attr("s");
  x.mutable_unresolved_extract_value()->mutable_extraction()->mutable_literal()->set_string("f");
  auto ex = t.expression(x);
  EXPECT_EQ(ex->kind, ExprKind::kUnresolvedExtract);
  EXPECT_EQ(ex->children.size(), 2u);
}

TEST(TranslateExpression, ExpressionStringsAreParsedAsSql) {
  PlanTranslator t;
  pb::Expression s;
  s.mutable_expression_string()->set_expression("a + 1 AS b");
  auto e = t.expression(s);
  ASSERT_EQ(e->kind, ExprKind::kAlias);
  EXPECT_EQ(e->name, "b");
  EXPECT_EQ(e->children[0]->name, "+");
}

TEST(TranslateRelation, SqlQueriesBecomeTheirPlan) {
  PlanTranslator t;
  pb::Relation sql;
  sql.mutable_sql()->set_query("SELECT id FROM range(3) WHERE id > :lo");
  pb::Expression lo = int_lit(0);
  (*sql.mutable_sql()->mutable_named_arguments())["lo"] = lo;
  sql.mutable_common()->set_plan_id(9);
  auto p = t.relation(sql);
  EXPECT_EQ(p->plan_id, 9);
  EXPECT_EQ(p->kind, PlanKind::kProject);
}

TEST(TranslateExpression, ColRegexIsARegexStarOrAColumn) {
  PlanTranslator t;
  auto regex = [&](const std::string& name, int64_t plan_id) {
    pb::Expression e;
    e.mutable_unresolved_regex()->set_col_name(name);
    if (plan_id >= 0) e.mutable_unresolved_regex()->set_plan_id(plan_id);
    return t.expression(e);
  };
  auto all = regex("`a.*`", 4);
  EXPECT_EQ(all->kind, ExprKind::kUnresolvedStar);
  EXPECT_EQ(all->name, "a.*");
  EXPECT_TRUE(all->name_parts.empty());
  EXPECT_EQ(all->plan_id, -1);
  auto qualified = regex("t.`(x|y)`", -1);
  EXPECT_EQ(qualified->kind, ExprKind::kUnresolvedStar);
  EXPECT_EQ(qualified->name, "(x|y)");
  EXPECT_EQ(qualified->name_parts, std::vector<std::string>{"t"});
  auto column = regex("s.f", 4);
  EXPECT_EQ(column->kind, ExprKind::kUnresolvedAttribute);
  EXPECT_EQ(column->name_parts, (std::vector<std::string>{"s", "f"}));
  EXPECT_EQ(column->plan_id, 4);
}

TEST(TranslateExpression, UnsupportedAndMalformedExpressionsFailClearly) {
  PlanTranslator t;
  // A subquery must name a reference of the enclosing WithRelations.
  pb::Expression s;
  s.mutable_subquery_expression()->set_plan_id(7);
  EXPECT_EQ(error_class_of([&] { t.expression(s); }), "CONNECT_INVALID_PLAN.ASSERTION_FAILURE");
  // A named argument without its value.
  pb::Expression named;
  named.mutable_named_argument_expression()->set_key("k");
  EXPECT_EQ(error_class_of([&] { t.expression(named); }), "CONNECT_INVALID_PLAN.INVALID_ONE_OF_FIELD_NOT_SET");
  pb::Expression none;
  EXPECT_EQ(error_class_of([&] { t.expression(none); }),
            "CONNECT_INVALID_PLAN.INVALID_ONE_OF_FIELD_NOT_SET");
}

// ---- Relations ------------------------------------------------------------------------------

TEST(TranslateRelation, RangeAndPlanIds) {
  PlanTranslator t;
  pb::Relation r = range_rel(10, 5);
  r.mutable_range()->set_start(2);
  r.mutable_range()->set_step(3);
  auto p = t.relation(r);
  EXPECT_EQ(p->kind, PlanKind::kRange);
  EXPECT_EQ(p->range_start, 2);
  EXPECT_EQ(p->range_end, 10);
  EXPECT_EQ(p->range_step, 3);
  EXPECT_EQ(p->plan_id, 5);
  EXPECT_EQ(t.relation(range_rel(1))->range_start, 0);
}

TEST(TranslateRelation, ProjectFilterSortLimit) {
  PlanTranslator t;
  pb::Relation project;
  *project.mutable_project()->mutable_input() = range_rel(10, 1);
  *project.mutable_project()->add_expressions() = attr("id");
  project.mutable_common()->set_plan_id(2);

  pb::Relation filter;
  *filter.mutable_filter()->mutable_input() = project;
  *filter.mutable_filter()->mutable_condition() = fn(">", {attr("id"), int_lit(3)});

  pb::Relation sort;
  *sort.mutable_sort()->mutable_input() = filter;
  *sort.mutable_sort()->add_order()->mutable_child() = attr("id");
  sort.mutable_sort()->set_is_global(true);

  pb::Relation limit;
  *limit.mutable_limit()->mutable_input() = sort;
  limit.mutable_limit()->set_limit(4);

  auto p = t.relation(limit);
  ASSERT_EQ(p->kind, PlanKind::kLimit);
  EXPECT_EQ(p->limit, 4);
  const auto& s = p->children[0];
  ASSERT_EQ(s->kind, PlanKind::kSort);
  EXPECT_TRUE(s->is_global);
  EXPECT_EQ(s->exprs[0]->kind, ExprKind::kSortOrder);
  const auto& f = s->children[0];
  ASSERT_EQ(f->kind, PlanKind::kFilter);
  EXPECT_EQ(f->condition->name, ">");
  const auto& pr = f->children[0];
  ASSERT_EQ(pr->kind, PlanKind::kProject);
  EXPECT_EQ(pr->plan_id, 2);
  EXPECT_EQ(pr->children[0]->plan_id, 1);
}

TEST(TranslateRelation, ProjectWithoutInputSelectsFromOneRow) {
  PlanTranslator t;
  pb::Relation project;
  *project.mutable_project()->add_expressions() = int_lit(1);
  auto p = t.relation(project);
  const auto& child = p->children[0];
  ASSERT_EQ(child->kind, PlanKind::kLocalRelation);
  ASSERT_EQ(child->batches.size(), 1u);
  EXPECT_EQ(child->batches[0].num_rows, 1);
  EXPECT_TRUE(child->schema.empty());
}

TEST(TranslateRelation, Deduplicate) {
  PlanTranslator t;
  pb::Relation d;
  *d.mutable_deduplicate()->mutable_input() = range_rel(3);
  d.mutable_deduplicate()->set_all_columns_as_keys(true);
  EXPECT_TRUE(t.relation(d)->dedup_all);
  d.mutable_deduplicate()->add_column_names("id");
  EXPECT_EQ(error_class_of([&] { t.relation(d); }),
            "CONNECT_INVALID_PLAN.DEDUPLICATE_ALL_COLUMNS_AND_SUBSET");
  d.mutable_deduplicate()->clear_all_columns_as_keys();
  auto p = t.relation(d);
  EXPECT_FALSE(p->dedup_all);
  EXPECT_EQ(p->dedup_columns, (std::vector<std::string>{"id"}));
}

TEST(TranslateRelation, ColumnReshaping) {
  PlanTranslator t;
  pb::Relation wc;
  *wc.mutable_with_columns()->mutable_input() = range_rel(3);
  auto* a = wc.mutable_with_columns()->add_aliases();
  *a->mutable_expr() = int_lit(1);
  a->add_name("one");
  auto p = t.relation(wc);
  ASSERT_EQ(p->kind, PlanKind::kWithColumns);
  EXPECT_EQ(p->exprs[0]->name, "one");

  pb::Relation rn;
  *rn.mutable_with_columns_renamed()->mutable_input() = range_rel(3);
  auto* r = rn.mutable_with_columns_renamed()->add_renames();
  r->set_col_name("id");
  r->set_new_col_name("x");
  auto q = t.relation(rn);
  EXPECT_EQ(q->renames, (std::vector<std::pair<std::string, std::string>>{{"id", "x"}}));

  pb::Relation dr;
  *dr.mutable_drop()->mutable_input() = range_rel(3);
  dr.mutable_drop()->add_column_names("id");
  *dr.mutable_drop()->add_columns() = attr("other");
  auto d = t.relation(dr);
  EXPECT_EQ(d->names, (std::vector<std::string>{"id"}));
  EXPECT_EQ(d->exprs.size(), 1u);

  pb::Relation todf;
  *todf.mutable_to_df()->mutable_input() = range_rel(3);
  todf.mutable_to_df()->add_column_names("n");
  EXPECT_EQ(t.relation(todf)->names, (std::vector<std::string>{"n"}));
}

TEST(TranslateRelation, JoinsAndSetOperations) {
  PlanTranslator t;
  pb::Relation j;
  *j.mutable_join()->mutable_left() = range_rel(3, 1);
  *j.mutable_join()->mutable_right() = range_rel(3, 2);
  j.mutable_join()->set_join_type(pb::Join::JOIN_TYPE_LEFT_ANTI);
  j.mutable_join()->add_using_columns("id");
  auto p = t.relation(j);
  ASSERT_EQ(p->kind, PlanKind::kJoin);
  EXPECT_EQ(p->join_type, plan::JoinType::kLeftAnti);
  EXPECT_EQ(p->using_columns, (std::vector<std::string>{"id"}));
  *j.mutable_join()->mutable_join_condition() = fn("==", {attr("id", 1), attr("id", 2)});
  EXPECT_EQ(error_class_of([&] { t.relation(j); }),
            "CONNECT_INVALID_PLAN.USING_COLUMNS_OR_JOIN_CONDITION_SET_IN_JOIN");

  pb::Relation u;
  *u.mutable_set_op()->mutable_left_input() = range_rel(3);
  *u.mutable_set_op()->mutable_right_input() = range_rel(4);
  u.mutable_set_op()->set_set_op_type(pb::SetOperation::SET_OP_TYPE_UNION);
  u.mutable_set_op()->set_is_all(true);
  u.mutable_set_op()->set_by_name(true);
  auto s = t.relation(u);
  EXPECT_EQ(s->set_op, plan::SetOpType::kUnion);
  EXPECT_TRUE(s->is_all);
  EXPECT_TRUE(s->by_name);
  u.mutable_set_op()->set_set_op_type(pb::SetOperation::SET_OP_TYPE_EXCEPT);
  EXPECT_EQ(error_class_of([&] { t.relation(u); }),
            "CONNECT_INVALID_PLAN.EXCEPT_DOES_NOT_SUPPORT_UNION_BY_NAME");
}

TEST(TranslateRelation, Aggregate) {
  PlanTranslator t;
  pb::Relation a;
  *a.mutable_aggregate()->mutable_input() = range_rel(10);
  a.mutable_aggregate()->set_group_type(pb::Aggregate::GROUP_TYPE_GROUPBY);
  *a.mutable_aggregate()->add_grouping_expressions() = attr("id");
  *a.mutable_aggregate()->add_aggregate_expressions() = fn("count", {int_lit(1)});
  auto p = t.relation(a);
  ASSERT_EQ(p->kind, PlanKind::kAggregate);
  EXPECT_EQ(p->exprs.size(), 1u);
  EXPECT_EQ(p->aggregates[0]->name, "count");
  EXPECT_TRUE(p->grouping_sets.empty());
  // CUBE over (id, id2): every subset, the full set first and the empty set last.
  *a.mutable_aggregate()->add_grouping_expressions() = attr("id2");
  a.mutable_aggregate()->set_group_type(pb::Aggregate::GROUP_TYPE_CUBE);
  auto cube = t.relation(a);
  ASSERT_EQ(cube->grouping_sets.size(), 4u);
  EXPECT_EQ(cube->grouping_sets[0].size(), 2u);
  EXPECT_EQ(cube->grouping_sets[1][0]->to_string(), "id");
  EXPECT_EQ(cube->grouping_sets[2][0]->to_string(), "id2");
  EXPECT_TRUE(cube->grouping_sets[3].empty());
  a.mutable_aggregate()->set_group_type(pb::Aggregate::GROUP_TYPE_ROLLUP);
  EXPECT_EQ(t.relation(a)->grouping_sets.size(), 3u);
  a.mutable_aggregate()->set_group_type(pb::Aggregate::GROUP_TYPE_PIVOT);
  EXPECT_EQ(error_class_of([&] { t.relation(a); }), "CONNECT_INVALID_PLAN.INVALID_PIVOT");
  // groupBy(...).pivot(col, [values]): a kPivot node; no values leaves them to the analyzer.
  auto* pivot = a.mutable_aggregate()->mutable_pivot();
  *pivot->mutable_col() = attr("id");
  auto pivot_node = t.relation(a);
  EXPECT_EQ(pivot_node->kind, PlanKind::kPivot);
  EXPECT_EQ(pivot_node->exprs.size(), 2u);
  ASSERT_EQ(pivot_node->pivot_columns.size(), 1u);
  EXPECT_EQ(pivot_node->pivot_columns[0]->to_string(), "id");
  EXPECT_TRUE(pivot_node->pivot_values.empty());
  pivot->add_values()->set_integer(3);
  pivot->add_values()->set_string("x");
  pivot_node = t.relation(a);
  ASSERT_EQ(pivot_node->pivot_values.size(), 2u);
  EXPECT_EQ(pivot_node->pivot_values[0]->to_string(), "3");
}

TEST(TranslateRelation, ReadsAndTables) {
  PlanTranslator t;
  pb::Relation r;
  auto* ds = r.mutable_read()->mutable_data_source();
  ds->set_format("csv");
  ds->add_paths("/data/a.csv");
  (*ds->mutable_options())["Header"] = "true";
  ds->set_schema("a INT, b STRING");
  auto p = t.relation(r);
  ASSERT_EQ(p->kind, PlanKind::kRead);
  EXPECT_EQ(p->read.format, "csv");
  EXPECT_EQ(p->read.paths, (std::vector<std::string>{"/data/a.csv"}));
  EXPECT_TRUE(p->read.options.get_bool("header", false));
  ASSERT_TRUE(p->read.user_schema);
  EXPECT_EQ(p->read.user_schema->fields().size(), 2u);

  ds->set_schema(DataType::struct_({{"x", DataType::long_(), true, "{}"}})->json());
  EXPECT_EQ(t.relation(r)->read.user_schema->fields()[0].name, "x");
  ds->clear_format();
  ds->clear_schema();
  EXPECT_EQ(t.relation(r)->read.format, "parquet");

  pb::Relation table;
  table.mutable_read()->mutable_named_table()->set_unparsed_identifier("db.`my view`");
  auto n = t.relation(table);
  ASSERT_EQ(n->kind, PlanKind::kUnresolvedRelation);
  EXPECT_EQ(n->table_name, (std::vector<std::string>{"db", "my view"}));
}

TEST(TranslateRelation, LocalRelationTakesNamesAndTypesFromItsSchema) {
  // Arrow data with columns (a: int64, b: string), declared as (x INT, y STRING).
  Schema arrow_schema = {{"a", DataType::long_(), true, "{}"},
                         {"b", DataType::string(), true, "{}"}};
  ColumnBuilder a(DataType::long_()), b(DataType::string());
  a.append<int64_t>(1);
  a.append<int64_t>(2);
  b.append_bytes("p");
  b.append_null();
  Batch batch({a.finish(), b.finish()}, 2);
  ArrowResultEncoder encoder(arrow_schema, "UTC", 100, 1 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(batch, &chunks);
  ASSERT_EQ(chunks.size(), 1u);

  PlanTranslator t;
  pb::Relation r;
  r.mutable_local_relation()->set_data(chunks[0].data);
  auto plain = t.relation(r);
  ASSERT_EQ(plain->kind, PlanKind::kLocalRelation);
  EXPECT_EQ(plain->schema[0].name, "a");
  EXPECT_EQ(plain->schema[0].type->id(), TypeId::kLong);

  r.mutable_local_relation()->set_schema("x INT, y STRING NOT NULL");
  auto p = t.relation(r);
  ASSERT_EQ(p->schema.size(), 2u);
  EXPECT_EQ(p->schema[0].name, "x");
  EXPECT_EQ(p->schema[0].type->id(), TypeId::kInt);
  EXPECT_FALSE(p->schema[1].nullable);
  ASSERT_EQ(p->batches.size(), 1u);
  EXPECT_EQ(p->batches[0].column(0)->type()->id(), TypeId::kInt);
  EXPECT_EQ(p->batches[0].column(0)->values<int32_t>()[1], 2);
  EXPECT_EQ(p->batches[0].column(1)->string_at(0), "p");

  pb::Relation empty;
  empty.mutable_local_relation()->set_schema(
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"v\",\"type\":\"double\",\"nullable\":true,"
      "\"metadata\":{}}]}");
  auto e = t.relation(empty);
  EXPECT_TRUE(e->batches.empty());
  EXPECT_EQ(e->schema[0].type->id(), TypeId::kDouble);

  pb::Relation bad;
  bad.mutable_local_relation()->set_data("not arrow at all");
  EXPECT_EQ(error_class_of([&] { t.relation(bad); }), "CONNECT_INVALID_PLAN.ASSERTION_FAILURE");
}

TEST(TranslateRelation, CachedLocalRelationsComeFromArtifacts) {
  Schema schema = {{"v", DataType::int_(), true, "{}"}};
  ColumnBuilder v(DataType::int_());
  v.append<int32_t>(5);
  ArrowResultEncoder encoder(schema, "UTC", 100, 1 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(Batch({v.finish()}, 1), &chunks);
  std::map<std::string, std::string> store = {{"cache/h1", chunks[0].data},
                                              {"cache/s", "v BIGINT"}};
  TranslateContext ctx;
  ctx.cached_artifact = [&](const std::string& name, std::string* bytes) {
    auto it = store.find(name);
    if (it == store.end()) return false;
    *bytes = it->second;
    return true;
  };
  PlanTranslator t(ctx);
  pb::Relation r;
  r.mutable_chunked_cached_local_relation()->add_datahashes("h1");
  r.mutable_chunked_cached_local_relation()->add_datahashes("h1");
  r.mutable_chunked_cached_local_relation()->set_schemahash("s");
  auto p = t.relation(r);
  EXPECT_EQ(p->schema[0].type->id(), TypeId::kLong);
  ASSERT_EQ(p->batches.size(), 2u);
  EXPECT_EQ(p->batches[1].column(0)->values<int64_t>()[0], 5);

  r.mutable_chunked_cached_local_relation()->add_datahashes("missing");
  EXPECT_EQ(error_class_of([&] { t.relation(r); }),
            "CONNECT_INVALID_PLAN.NOT_FOUND_CHUNKED_CACHED_LOCAL_RELATION");
}

// ---- Relations evaluated while planning -----------------------------------------------------

TEST(TranslateRelation, ShowStringRunsTheQueryAndReturnsItsText) {
  plan::Session session("00000000-0000-4000-8000-000000000001");
  TranslateContext ctx;
  ctx.session = &session;
  PlanTranslator t(ctx);
  pb::Relation r;
  *r.mutable_show_string()->mutable_input() = range_rel(5);
  r.mutable_show_string()->set_num_rows(2);
  r.mutable_show_string()->set_truncate(20);
  auto p = t.relation(r);
  ASSERT_EQ(p->kind, PlanKind::kLocalRelation);
  ASSERT_EQ(p->schema.size(), 1u);
  EXPECT_EQ(p->schema[0].name, "show_string");
  EXPECT_FALSE(p->schema[0].nullable);
  ASSERT_EQ(p->batches.size(), 1u);
  EXPECT_EQ(p->batches[0].column(0)->string_at(0),
            "+---+\n| id|\n+---+\n|  0|\n|  1|\n+---+\nonly showing top 2 rows");
}

TEST(TranslateRelation, CatalogCallsAnswerFromTheSession) {
  plan::Session session("00000000-0000-4000-8000-000000000002");
  TranslateContext ctx;
  ctx.session = &session;
  PlanTranslator t(ctx);
  PlanTranslator plain;
  session.catalog().create_temp_view("MyView", session.analyze(plain.relation(range_rel(3))),
                                     false);

  pb::Relation exists;
  exists.mutable_catalog()->mutable_table_exists()->set_table_name("myview");
  auto e = t.relation(exists);
  EXPECT_TRUE(e->batches[0].column(0)->bool_at(0));

  pb::Relation tables;
  tables.mutable_catalog()->mutable_list_tables()->set_pattern("my*");
  auto l = t.relation(tables);
  ASSERT_EQ(l->schema.size(), 6u);
  EXPECT_EQ(l->schema[5].name, "isTemporary");
  ASSERT_EQ(l->batches.size(), 1u);
  EXPECT_EQ(l->batches[0].column(0)->string_at(0), "myview");

  pb::Relation columns;
  columns.mutable_catalog()->mutable_list_columns()->set_table_name("MyView");
  auto c = t.relation(columns);
  EXPECT_EQ(c->batches[0].column(2)->string_at(0), "bigint");

  pb::Relation drop;
  drop.mutable_catalog()->mutable_drop_temp_view()->set_view_name("MyView");
  EXPECT_TRUE(t.relation(drop)->batches[0].column(0)->bool_at(0));
  EXPECT_FALSE(t.relation(drop)->batches[0].column(0)->bool_at(0));

  pb::Relation use;
  use.mutable_catalog()->mutable_set_current_database()->set_db_name("nope");
  EXPECT_EQ(error_class_of([&] { t.relation(use); }), "SCHEMA_NOT_FOUND");
  pb::Relation cached;
  cached.mutable_catalog()->mutable_is_cached()->set_table_name("MyView");
  EXPECT_EQ(error_class_of([&] { t.relation(cached); }), "TABLE_OR_VIEW_NOT_FOUND");
}

TEST(TranslateRelation, SqlCommandsRunWhilePlanning) {
  plan::Session session("00000000-0000-4000-8000-000000000003");
  TranslateContext ctx;
  ctx.session = &session;
  PlanTranslator t(ctx);
  pb::Relation set;
  set.mutable_sql()->set_query("SET spark.sql.shuffle.partitions = 3");
  auto p = t.relation(set);
  EXPECT_EQ(p->kind, PlanKind::kLocalRelation);
  EXPECT_EQ(session.config().get("spark.sql.shuffle.partitions").value_or(""), "3");
}

TEST(TranslateRelation, UnsupportedRelationsNameTheirType) {
  PlanTranslator t;
  pb::Relation as_of;
  *as_of.mutable_as_of_join()->mutable_left() = range_rel(3);
  *as_of.mutable_as_of_join()->mutable_right() = range_rel(3);
  try {
    t.relation(as_of);
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_FEATURE");
    EXPECT_NE(std::string(e.what()).find("Relation type AS_OF_JOIN"), std::string::npos) << e.what();
  }
  pb::Relation unset;
  EXPECT_EQ(error_class_of([&] { t.relation(unset); }),
            "CONNECT_INVALID_PLAN.INVALID_ONE_OF_FIELD_NOT_SET");
  pb::Relation filter_without_input;
  *filter_without_input.mutable_filter()->mutable_condition() = int_lit(1);
  EXPECT_THROW(t.relation(filter_without_input), SparkError);
}

}  // namespace
}  // namespace ember::connect
