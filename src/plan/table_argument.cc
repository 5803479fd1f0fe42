#include "plan/table_argument.h"

#include "common/error.h"

namespace ember::plan {

bool is_table_argument(const ExprPtr& e) {
  return e->kind == ExprKind::kSubquery && e->subquery_kind == SubqueryKind::kTableArgument;
}

void throw_unsupported_table_argument(const PlanPtr& table) {
  const std::string tree = plan_tree_string(table);
  throw SparkError(
      ErrorKind::kAnalysis, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_TABLE_ARGUMENT",
      "Unsupported subquery expression: Table arguments are used in a function where they are not "
      "supported:\n" +
          tree,
      {{"treeNode", tree}}, "0A000");
}

void throw_too_many_table_arguments(size_t count) {
  const std::string n = std::to_string(count);
  throw SparkError(ErrorKind::kAnalysis, "TABLE_VALUED_FUNCTION_TOO_MANY_TABLE_ARGUMENTS",
                   "There are too many table arguments for table-valued function.\nIt allows one "
                   "table argument, but "
                   "got: " +
                       n +
                       ".\nIf you want to allow it, please set "
                       "\"spark.sql.allowMultipleTableArguments.enabled\" to \"true\"",
                   {{"num", n}}, "54023");
}

bool is_one_row_without_columns(const PlanPtr& p) {
  return p->kind == PlanKind::kLocalRelation && p->schema.empty() && p->batches.size() == 1 &&
         p->batches[0].num_rows == 1 && p->batches[0].columns.empty();
}

PlanPtr one_row_without_columns() {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kLocalRelation;
  n->batches.push_back(Batch({}, 1));
  n->resolved = true;
  return n;
}

TypePtr table_struct_type(const std::vector<ExprPtr>& output) {
  std::vector<StructField> fields;
  for (auto& a : output) fields.push_back({a->name, a->type, a->nullable, "{}"});
  return DataType::struct_(std::move(fields));
}

namespace {

std::vector<std::string> split_column_name(const std::string& name) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '`') {
      if (quoted && i + 1 < name.size() && name[i + 1] == '`') {
        parts.back() += '`';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

std::function<ExprPtr(const std::string&)>& analyze_expression_parser() {
  static std::function<ExprPtr(const std::string&)> parse;
  return parse;
}

[[noreturn]] void throw_metadata_invalid(const std::string& function, const std::string& reason) {
  throw SparkError(ErrorKind::kAnalysis, "TABLE_VALUED_FUNCTION_REQUIRED_METADATA_INVALID",
                   "Failed to evaluate the table function " + function +
                       " because its table metadata was invalid; " + reason + ".",
                   {{"functionName", function}, {"reason", reason}}, "22023");
}

PlanPtr node(PlanKind kind, const PlanPtr& child, std::vector<ExprPtr> exprs,
             std::vector<ExprPtr> output) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {child};
  n->exprs = std::move(exprs);
  n->output = std::move(output);
  n->resolved = true;
  return n;
}

PlanPtr project(const PlanPtr& child, std::vector<ExprPtr> exprs) {
  std::vector<ExprPtr> out;
  for (auto& e : exprs) out.push_back(to_attribute(e));
  return node(PlanKind::kProject, child, std::move(exprs), std::move(out));
}

}  // namespace

void install_analyze_expression_parser(std::function<ExprPtr(const std::string&)> parse) {
  analyze_expression_parser() = std::move(parse);
}

ExprPtr parse_analyze_expression(const std::string& text) {
  if (const auto& parse = analyze_expression_parser()) return parse(text);
  return col(split_column_name(text));
}

void apply_table_function_analysis(const exec::TableFunctionAnalysis& analysis,
                                   const std::string& function, TableArgument& arg,
                                   const std::function<ExprPtr(const std::string&)>& resolve_name) {
  if (analysis.with_single_partition && !analysis.partition_by.empty())
    throw_metadata_invalid(function,
                           "the 'with_single_partition' field cannot be assigned to true if the "
                           "'partition_by' list is non-empty");
  if (!analysis.order_by.empty() && !analysis.with_single_partition &&
      analysis.partition_by.empty())
    throw_metadata_invalid(
        function,
        "the 'order_by' field cannot be non-empty unless the 'with_single_partition' "
        "field is set to true or the 'partition_by' list is non-empty");
  if ((analysis.with_single_partition || !analysis.partition_by.empty()) &&
      (arg.with_single_partition || !arg.partition_by.empty())) {
    const std::string requested = "specified its own required partitioning of the input table";
    const std::string call =
        "specified the WITH SINGLE PARTITION or PARTITION BY clause; please remove these clauses "
        "and retry the "
        "query again.";
    throw SparkError(
        ErrorKind::kAnalysis, "TABLE_VALUED_FUNCTION_REQUIRED_METADATA_INCOMPATIBLE_WITH_CALL",
        "Failed to evaluate the table function " + function + " because its table metadata " +
            requested + ", but the function call " + call + ".",
        {{"functionName", function},
         {"requestedMetadata", requested},
         {"invalidFunctionCallProperty", call}},
        "22023");
  }
  if (analysis.with_single_partition) arg.with_single_partition = true;
  if (!analysis.partition_by.empty()) {
    arg.partition_by.clear();
    for (auto& name : analysis.partition_by) arg.partition_by.push_back(resolve_name(name));
  }
  if (!analysis.order_by.empty()) {
    arg.order_by.clear();
    for (auto& o : analysis.order_by) {
      const bool nulls_first = o.nulls_first == 0 ? o.ascending : o.nulls_first == 1;
      ExprPtr key = resolve_name(o.name);
      if (key->kind == ExprKind::kAlias)
        throw SparkError(
            ErrorKind::kAnalysis,
            "UDTF_INVALID_ALIAS_IN_REQUESTED_ORDERING_STRING_FROM_ANALYZE_METHOD",
            "Failed to evaluate the user-defined table function because its 'analyze' method "
            "returned a "
            "requested OrderingColumn whose column name expression included an unnecessary alias " +
                key->name + "; please remove this alias and then try the query again.",
            {{"aliasName", key->name}}, "42802");
      arg.order_by.push_back(sort_order(key, o.ascending, nulls_first));
    }
  }
  if (!analysis.select.empty()) {
    arg.selected.clear();
    for (auto& [name, as] : analysis.select) {
      ExprPtr e = resolve_name(name);
      if (as.empty() && e->kind != ExprKind::kAttribute) {
        const std::string shown = e->to_string();
        throw SparkError(
            ErrorKind::kAnalysis,
            "UDTF_INVALID_REQUESTED_SELECTED_EXPRESSION_FROM_ANALYZE_METHOD_REQUIRES_ALIAS",
            "Failed to evaluate the user-defined table function because its 'analyze' method "
            "returned a "
            "requested 'select' expression (" +
                shown +
                ") that does not include a corresponding alias; please update the UDTF to specify "
                "an "
                "alias there and then try the query again.",
            {{"expression", shown}}, "42802");
      }
      arg.selected.emplace_back(e, as);
    }
  }
}

TableArgumentInput table_argument_input(
    const TableArgument& arg, const std::function<ExprPtr(std::vector<ExprPtr>)>& make_struct) {
  TableArgumentInput in;
  const std::vector<ExprPtr>& columns = arg.table->output;
  PlanPtr rows = arg.table;
  // Each partitioning value becomes a column of its own after the table's, even one that is a
  // column of the table: Spark's analyzer never matches them (the worker drops these columns
  // from the Row that eval gets, so every column of the table reaches eval).
  std::vector<ExprPtr> extra;
  if (!arg.partition_by.empty()) {
    // Their places in the struct eval's rows come from: after the selected columns, if any.
    const size_t before = arg.selected.empty() ? columns.size() : arg.selected.size();
    for (auto& e : arg.partition_by) {
      in.partition_child_indexes.push_back(static_cast<int>(before + extra.size()));
      extra.push_back(alias(e, "partition_by_" + std::to_string(extra.size())));
    }
    std::vector<ExprPtr> all = columns;
    all.insert(all.end(), extra.begin(), extra.end());
    rows = project(rows, std::move(all));
    // The rows spread over tasks by their partitioning values, then each task's rows sorted
    // by them and the ORDER BY: a partition's rows arrive together, in the requested order,
    // at one task (Spark's RepartitionByExpression and local Sort).
    std::vector<ExprPtr> keys(rows->output.begin() + static_cast<std::ptrdiff_t>(columns.size()), rows->output.end());
    auto spread = std::const_pointer_cast<PlanNode>(node(PlanKind::kRepartition, rows, keys, rows->output));
    spread->task_partitions = true;
    std::vector<ExprPtr> order;
    for (auto& k : keys) order.push_back(sort_order(k, true, true));
    order.insert(order.end(), arg.order_by.begin(), arg.order_by.end());
    auto sorted = std::const_pointer_cast<PlanNode>(node(PlanKind::kSort, spread, std::move(order), rows->output));
    sorted->is_global = false;
    rows = sorted;
  }
  if (arg.with_single_partition) {
    auto one =
        std::const_pointer_cast<PlanNode>(node(PlanKind::kRepartition, rows, {}, rows->output));
    one->num_partitions = 1;
    one->shuffle = false;
    rows = one;
    if (!arg.order_by.empty()) rows = node(PlanKind::kSort, rows, arg.order_by, rows->output);
  }
  if (!arg.selected.empty()) {
    std::vector<ExprPtr> list;
    for (auto& [e, as] : arg.selected) list.push_back(as.empty() ? e : alias(e, as));
    for (auto& x : extra) list.push_back(to_attribute(x));
    rows = project(rows, std::move(list));
  }
  std::vector<ExprPtr> fields;
  for (auto& a : rows->output) {
    fields.push_back(lit(Value::bytes(a->name), DataType::string()));
    fields.push_back(a);
  }
  in.plan = project(rows, {alias(make_struct(std::move(fields)), "c")});
  return in;
}

}  // namespace ember::plan
