// Window expressions in the analyzer (see window_resolution.h).

#include "plan/window_resolution.h"

#include <map>
#include <optional>
#include <set>

#include "common/error.h"
#include "functions/function.h"
#include "plan/analyzer.h"

namespace ember::plan {
namespace {

bool is_ranking(const std::string& n) {
  return n == "row_number" || n == "rank" || n == "dense_rank" || n == "percent_rank" || n == "cume_dist" ||
         n == "ntile";
}

[[noreturn]] void wrong_num_args(const std::string& name, const std::string& expected, size_t actual) {
  throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                   "The " + quote_id(name) + " requires " + expected + " parameters but the actual number is " +
                       std::to_string(actual) + ".",
                   {{"functionName", quote_id(name)}, {"expectedNum", expected}, {"actualNum", std::to_string(actual)}});
}

/// A constant integral argument (ntile buckets, lag offset, nth_value's n).
int64_t constant_int(const std::string& fn_sql, const ExprPtr& e, const char* what) {
  if (e->kind == ExprKind::kLiteral && e->type->is_integral() && !e->value.is_null()) return e->value.as_int();
  if (e->kind == ExprKind::kCast && e->children[0]->kind == ExprKind::kLiteral) return constant_int(fn_sql, e->children[0], what);
  functions::throw_type_mismatch("NON_FOLDABLE_INPUT",
                                 std::string("the input ") + what + " should be a foldable \"INT\" expression; however, got \"" +
                                     e->to_string() + "\".",
                                 fn_sql);
}

ExprPtr implicit(const ExprPtr& e, const TypePtr& to) {
  if (e->type->equals(*to)) return e;
  if (e->kind == ExprKind::kLiteral && e->value.is_null()) return lit(Value(), to);
  auto c = std::make_shared<Expr>(*cast(e, to));
  c->implicit = true;
  return c;
}

bool bool_literal(const ExprPtr& e, const std::string& fn_sql) {
  if (e->kind == ExprKind::kLiteral && e->type->id() == TypeId::kBoolean && !e->value.is_null()) return e->value.as_bool();
  functions::throw_type_mismatch("NON_FOLDABLE_INPUT",
                                 "the input ignoreNulls should be a foldable \"BOOLEAN\" expression; however, got \"" +
                                     e->to_string() + "\".",
                                 fn_sql);
}

/// Spark's internal rendering of a frame in error messages: specifiedwindowframe(RowFrame, -1, 1).
std::string frame_debug(const WindowFrame& f) {
  auto b = [](int64_t v, bool lower) -> std::string {
    if (v == WindowFrame::kUnboundedPreceding) return "unboundedpreceding$()";
    if (v == WindowFrame::kUnboundedFollowing) return "unboundedfollowing$()";
    if (v == 0) return "currentrow$()";
    (void)lower;
    return std::to_string(v);
  };
  return std::string("specifiedwindowframe(") + (f.type == WindowFrame::Type::kRows ? "RowFrame" : "RangeFrame") + ", " +
         b(f.lower, true) + ", " + b(f.upper, false) + ")";
}

bool same_frame(const WindowFrame& a, const WindowFrame& b) {
  return a.type == b.type && a.lower == b.lower && a.upper == b.upper;
}

std::string spec_key(const Expr& w) {
  std::string k = "P(";
  for (auto& p : w.partition_by) k += semantic_key(p) + ",";
  k += ")O(";
  for (auto& o : w.order_by) k += semantic_key(o) + ",";
  return k + ")";
}

std::string window_key(const Expr& w) {
  const WindowFrame& f = w.frame;
  return semantic_key(w.children[0]) + (w.children[0]->ignore_nulls ? ":ign" : "") + spec_key(w) +
         (f.type == WindowFrame::Type::kRows ? "R" : "G") + std::to_string(f.lower) + ":" + std::to_string(f.upper);
}

ExprPtr replace_windows(const ExprPtr& e, const std::map<std::string, ExprPtr>& attrs) {
  if (e->kind == ExprKind::kWindow) return attrs.at(window_key(*e));
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(replace_windows(c, attrs));
    changed |= kids.back() != c;
  }
  return changed ? with_children(e, std::move(kids)) : e;
}

void collect_windows(const ExprPtr& e, std::vector<ExprPtr>& out, std::set<std::string>& seen) {
  if (e->kind == ExprKind::kWindow) {
    if (seen.insert(window_key(*e)).second) out.push_back(e);
    return;
  }
  for (auto& c : e->children) collect_windows(c, out, seen);
}

}  // namespace

bool is_window_function_name(const std::string& n) {
  return is_ranking(n) || n == "lag" || n == "lead" || n == "nth_value" || n == "first" || n == "last" ||
         n == "first_value" || n == "last_value" || n == "counter_diff";
}

ExprPtr resolve_window_function(const std::string& called, std::vector<ExprPtr> args, bool ignore_nulls) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kWindowFunction;
  e->name = called;
  e->nullable = false;
  const std::string& n = called;
  if (n == "row_number" || n == "rank" || n == "dense_rank" || n == "percent_rank" || n == "cume_dist") {
    if (!args.empty()) wrong_num_args(n, "0", args.size());
    e->type = n == "percent_rank" || n == "cume_dist" ? DataType::double_() : DataType::int_();
    return e;
  }
  if (n == "ntile") {
    if (args.size() != 1) wrong_num_args(n, "1", args.size());
    e->children = args;
    int64_t buckets = constant_int(e->to_string(), args[0], "buckets");
    if (buckets <= 0 || buckets > INT32_MAX)
      functions::throw_type_mismatch("VALUE_OUT_OF_RANGE",
                                     "The buckets must be between (0, 2147483647] (current value = " +
                                         std::to_string(buckets) + ").",
                                     e->to_string());
    e->children = {lit(Value::integer(buckets), DataType::int_())};
    e->type = DataType::int_();
    return e;
  }
  if (n == "lag" || n == "lead") {
    if (args.empty() || args.size() > 4) wrong_num_args(n, "[1, 4]", args.size());
    ExprPtr input = args[0];
    ExprPtr offset = args.size() > 1 ? args[1] : lit(Value::integer(1), DataType::int_());
    ExprPtr def = args.size() > 2 ? args[2] : lit(Value(), input->type);
    if (args.size() > 3) ignore_nulls = bool_literal(args[3], n + "(" + input->to_string() + ")");
    e->children = {input, offset, def};
    int64_t off = constant_int(e->to_string(), offset, "offset");
    if (!def->type->equals(*input->type)) {
      TypePtr w = functions::wider_type(input->type, def->type, false);
      if (!w || !w->equals(*input->type))
        functions::throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                       "The default value's type \"" + def->type->sql() +
                                           "\" does not match the input's type \"" + input->type->sql() + "\".",
                                       e->to_string());
      def = implicit(def, input->type);
    }
    e->children = {input, lit(Value::integer(off), DataType::int_()), def};
    e->type = input->type;
    e->nullable = input->nullable || def->nullable;
    e->ignore_nulls = ignore_nulls;
    return e;
  }
  if (n == "nth_value") {
    if (args.size() < 2 || args.size() > 3) wrong_num_args(n, "[2, 3]", args.size());
    e->children = {args[0], args[1]};
    if (args.size() > 2) ignore_nulls = bool_literal(args[2], n + "(" + args[0]->to_string() + ")");
    int64_t off = constant_int(e->to_string(), args[1], "offset");
    if (off <= 0)
      functions::throw_type_mismatch("VALUE_OUT_OF_RANGE",
                                     "The offset must be between (0, 9223372036854775807] (current value = " +
                                         std::to_string(off) + "L).",
                                     e->to_string());
    e->type = args[0]->type;
    e->nullable = true;
    e->ignore_nulls = ignore_nulls;
    return e;
  }
  if (n == "counter_diff") {
    // counter_diff(value[, start_time]): the counter's type is the result's; the start time is a
    // TIMESTAMP or TIMESTAMP_NTZ.
    if (args.empty() || args.size() > 2) wrong_num_args(n, "[1, 2]", args.size());
    e->children = args;
    auto unexpected = [&](size_t i, const char* ordinal, const std::string& required) {
      functions::throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                     std::string("The ") + ordinal + " parameter requires the " + required +
                                         " type, however \"" + args[i]->to_string() + "\" has the type \"" +
                                         args[i]->type->sql() + "\".",
                                     e->to_string());
    };
    const TypeId v = args[0]->type->id();
    if (!args[0]->type->is_numeric() && v != TypeId::kNull) unexpected(0, "first", "\"NUMERIC\"");
    if (args.size() > 1) {
      const TypeId t = args[1]->type->id();
      if (t != TypeId::kTimestamp && t != TypeId::kTimestampNtz && t != TypeId::kNull)
        unexpected(1, "second", "(\"TIMESTAMP\" or \"TIMESTAMP_NTZ\")");
    }
    // Untyped NULLs take the first type each argument accepts.
    if (v == TypeId::kNull) e->children[0] = implicit(args[0], DataType::double_());
    if (args.size() > 1 && args[1]->type->id() == TypeId::kNull)
      e->children[1] = implicit(args[1], DataType::timestamp());
    e->type = e->children[0]->type;
    e->nullable = true;
    return e;
  }
  // first / last / first_value / last_value (input[, ignoreNulls]).
  if (args.empty() || args.size() > 2) wrong_num_args(n, "[1, 2]", args.size());
  if (args.size() > 1) ignore_nulls = bool_literal(args[1], n + "(" + args[0]->to_string() + ")");
  e->children = {args[0]};
  e->type = args[0]->type;
  e->nullable = true;
  e->ignore_nulls = ignore_nulls;
  return e;
}

ExprPtr resolve_window(ExprPtr function, std::vector<ExprPtr> partition_by, std::vector<ExprPtr> order_by,
                       WindowFrame frame) {
  const bool ordered = !order_by.empty();
  auto w = std::make_shared<Expr>();
  w->kind = ExprKind::kWindow;
  w->partition_by = std::move(partition_by);
  w->order_by = std::move(order_by);
  w->type = function->type;
  w->nullable = function->nullable;
  const std::string fname = function->kind == ExprKind::kWindowFunction ? function->name : "";

  if (function->kind == ExprKind::kAggregate && function->distinct)
    throw SparkError(ErrorKind::kAnalysis, "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED",
                     "Distinct window functions are not supported: " + function->to_string() + ".",
                     {{"windowExpr", "\"" + function->to_string() + "\""}});

  // Functions that need an ordered window and fix their own frame.
  std::optional<WindowFrame> required;
  if (is_ranking(fname) || fname == "lag" || fname == "lead" || fname == "counter_diff") {
    if (!ordered) {
      ExprPtr shown = function;
      throw SparkError(ErrorKind::kAnalysis, "WINDOW_FUNCTION_FRAME_NOT_ORDERED",
                       "Window function " + fname + " requires the window to be ordered. You need to add an ORDER BY "
                       "clause. For example: SELECT " + shown->to_string() +
                           " OVER (PARTITION BY window_partition ORDER BY window_ordering) FROM table.",
                       {{"windowFunction", fname}}, "42601");
    }
    WindowFrame r;
    r.specified = true;
    if (fname == "lag" || fname == "lead") {
      int64_t off = function->children[1]->value.as_int();
      r.type = WindowFrame::Type::kRows;
      r.lower = r.upper = fname == "lag" ? -off : off;
      r.value_bounds = true;
    } else {
      // The ranking functions and counter_diff run over the rows up to the current one.
      r.type = fname == "cume_dist" ? WindowFrame::Type::kRange : WindowFrame::Type::kRows;
      r.lower = WindowFrame::kUnboundedPreceding;
      r.upper = 0;
    }
    required = r;
  }
  if (required) {
    if (frame.specified && !same_frame(frame, *required))
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1036",
                       "Window Frame " + frame_debug(frame) + " must match the required frame " +
                           frame_debug(*required) + ".",
                       {{"wf", frame_debug(frame)}, {"required", frame_debug(*required)}});
    frame = *required;
  } else if (!frame.specified) {
    frame.specified = true;
    if (ordered) {
      frame.type = WindowFrame::Type::kRange;
      frame.lower = WindowFrame::kUnboundedPreceding;
      frame.upper = 0;
    } else {
      frame.type = WindowFrame::Type::kRows;
      frame.lower = WindowFrame::kUnboundedPreceding;
      frame.upper = WindowFrame::kUnboundedFollowing;
    }
  }
  w->frame = frame;

  auto spec_sql = [&]() {
    auto copy = std::make_shared<Expr>(*w);
    std::string s = copy->to_string();
    return "(" + s.substr(s.find(" OVER (") + 7);
  };
  auto is_offset = [](int64_t b) {
    return b != 0 && b != WindowFrame::kUnboundedPreceding && b != WindowFrame::kUnboundedFollowing;
  };
  if (frame.type == WindowFrame::Type::kRange && (is_offset(frame.lower) || is_offset(frame.upper))) {
    w->children = {function};
    if (!ordered)
      functions::throw_type_mismatch("RANGE_FRAME_WITHOUT_ORDER",
                                     "A range window frame cannot be used in an unordered window specification.",
                                     spec_sql());
    if (w->order_by.size() > 1) {
      std::string keys;
      for (size_t i = 0; i < w->order_by.size(); ++i) keys += (i ? "," : "") + w->order_by[i]->to_string();
      functions::throw_type_mismatch("RANGE_FRAME_MULTI_ORDER",
                                     "A range window frame with value boundaries cannot be used in a window "
                                     "specification with multiple order by expressions: " + keys + ".",
                                     spec_sql());
    }
    const TypePtr& t = w->order_by[0]->children[0]->type;
    if (!t->is_numeric() && t->id() != TypeId::kDate)
      functions::throw_type_mismatch("SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE",
                                     "The data type of the lower bound \"" + t->sql() +
                                         "\" does not match the expected data type (\"NUMERIC\" or \"INTERVAL DAY TO "
                                         "SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\").",
                                     frame.to_string());
  }
  auto bound_rank = [](int64_t b) { return b; };
  if (!frame.lower_unbounded() && !frame.upper_unbounded() && bound_rank(frame.lower) > bound_rank(frame.upper))
    functions::throw_type_mismatch("SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
                                   "The lower bound of a window frame must be less than or equal to the upper bound.",
                                   frame.to_string());
  w->children = {std::move(function)};
  return w;
}

bool contains_window(const ExprPtr& e) {
  if (e->kind == ExprKind::kWindow) return true;
  for (auto& c : e->children)
    if (contains_window(c)) return true;
  return false;
}

PlanPtr extract_windows(const PlanPtr& child, std::vector<ExprPtr>& named) {
  std::vector<ExprPtr> windows;
  std::set<std::string> seen;
  for (auto& e : named) collect_windows(e, windows, seen);
  if (windows.empty()) return child;
  // One alias per distinct window expression, named as Spark names it.
  std::map<std::string, ExprPtr> attrs;
  std::vector<std::string> spec_order;
  std::map<std::string, std::vector<ExprPtr>> by_spec;
  for (auto& w : windows) {
    for (auto& c : w->children[0]->children)
      if (contains_window(c))
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "The feature is not supported: window functions nested in the arguments of window "
                         "functions.");
    ExprPtr a = alias(w, w->to_string());
    attrs[window_key(*w)] = to_attribute(a);
    std::string k = spec_key(*w);
    if (!by_spec.count(k)) spec_order.push_back(k);
    by_spec[k].push_back(a);
  }
  PlanPtr cur = child;
  for (auto& k : spec_order) {
    auto n = std::make_shared<PlanNode>();
    n->kind = PlanKind::kWindow;
    n->children = {cur};
    n->exprs = by_spec[k];
    n->output = cur->output;
    for (auto& a : n->exprs) n->output.push_back(to_attribute(a));
    n->resolved = true;
    cur = n;
  }
  for (auto& e : named) e = replace_windows(e, attrs);
  return cur;
}

}  // namespace ember::plan
