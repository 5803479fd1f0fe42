#include "plan/expression.h"

#include "exec/python_udf.h"

#include "exec/show_string.h"

#include <atomic>
#include <cctype>

#include "column/column.h"
#include "common/datetime.h"
#include "common/timezone.h"
#include "common/error.h"
#include "functions/cast.h"
#include "functions/function.h"
#include "functions/java_form.h"
#include "plan/naming_scope.h"

namespace ember::plan {

namespace {
thread_local const NamingScope* t_naming = nullptr;
}  // namespace

NamingScope::NamingScope(const TimeZone& zone, bool ansi)
    : previous_(t_naming), zone_(zone), ansi_(ansi) {
  t_naming = this;
}
NamingScope::~NamingScope() { t_naming = previous_; }
const TimeZone& NamingScope::time_zone() { return t_naming ? t_naming->zone_ : TimeZone::utc(); }
bool NamingScope::ansi() { return t_naming ? t_naming->ansi_ : true; }

int64_t new_expr_id() {
  static std::atomic<int64_t> next{1};
  return next.fetch_add(1);
}

namespace {
std::shared_ptr<Expr> node(ExprKind k) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  return e;
}

/// Java's BigDecimal.toString, which Spark's names show decimals with: plain digits unless the
/// exponent falls below -6, then scientific notation (0.0000001 is 1E-7, 0.00000010 is 1.0E-7).
std::string big_decimal_string(int128_t unscaled, int scale) {
  const std::string plain = decimal_to_string(unscaled, scale);
  if (scale <= 0) return plain;
  const std::string digits = decimal_to_string(unscaled < 0 ? -unscaled : unscaled, 0);
  const long adjusted = static_cast<long>(digits.size()) - 1 - scale;
  if (adjusted >= -6) return plain;
  std::string out = unscaled < 0 ? "-" : "";
  out += digits[0];
  if (digits.size() > 1) out += "." + digits.substr(1);
  return out + "E" + std::to_string(adjusted);
}

/// Spark's rendering of a literal inside an expression name: strings unquoted (as in column
/// names), numbers as their SQL text.
std::string literal_string(const Value& v, const TypePtr& t) {
  if (v.is_null()) return "NULL";
  switch (t->id()) {
    case TypeId::kBoolean: return v.as_bool() ? "true" : "false";
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt: return std::to_string(v.as_int());
    case TypeId::kLong: return std::to_string(v.as_int());
    case TypeId::kFloat: return functions::format_float(static_cast<float>(v.as_double()));
    case TypeId::kDouble: return functions::format_double(v.as_double());
    case TypeId::kDecimal: return big_decimal_string(v.as_decimal(), t->scale());
    case TypeId::kString: return v.as_bytes();
    case TypeId::kBinary: {
      static const char* kHex = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : v.as_bytes()) out += kHex[c >> 4], out += kHex[c & 15];
      return out + "'";
    }
    case TypeId::kDate: return "DATE '" + format_date(static_cast<int32_t>(v.as_int())) + "'";
    // Spark prints timestamp literals in the session time zone, which the analyzer makes
    // current while it names expressions.
    case TypeId::kTimestamp:
      return "TIMESTAMP '" + format_timestamp(v.as_int(), NamingScope::time_zone()) + "'";
    case TypeId::kTimestampNtz: return "TIMESTAMP_NTZ '" + format_timestamp_ntz(v.as_int()) + "'";
    case TypeId::kTime: return "TIME '" + format_time(v.as_int()) + "'";
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: {
      // Spark's interval text (INTERVAL '30' DAY), as show() prints it.
      ColumnBuilder b(t, 1);
      b.append_value(v);
      return exec::show_cell(*b.finish(), 0, "UTC");
    }
    case TypeId::kCalendarInterval: return format_calendar_interval(v.as_calendar_interval());
    default: return "literal";
  }
}
}  // namespace

ExprPtr lit(Value v, TypePtr type) {
  auto e = node(ExprKind::kLiteral);
  e->value = std::move(v);
  e->nullable = e->value.is_null();
  e->type = std::move(type);
  return e;
}

ExprPtr col(std::vector<std::string> name_parts, int64_t plan_id) {
  auto e = node(ExprKind::kUnresolvedAttribute);
  e->name_parts = std::move(name_parts);
  e->plan_id = plan_id;
  return e;
}

ExprPtr star(std::vector<std::string> target, int64_t plan_id) {
  auto e = node(ExprKind::kUnresolvedStar);
  e->name_parts = std::move(target);
  e->plan_id = plan_id;
  return e;
}

ExprPtr call(std::string name, std::vector<ExprPtr> args, bool distinct) {
  auto e = node(ExprKind::kUnresolvedFunction);
  e->name = std::move(name);
  e->children = std::move(args);
  e->distinct = distinct;
  return e;
}

ExprPtr alias(ExprPtr child, std::string name, int64_t expr_id) {
  auto e = node(ExprKind::kAlias);
  e->name = std::move(name);
  e->expr_id = expr_id >= 0 ? expr_id : new_expr_id();
  if (child->type) {
    e->type = child->type;
    e->nullable = child->nullable;
  }
  e->children = {std::move(child)};
  return e;
}

ExprPtr cast(ExprPtr child, TypePtr type, bool try_cast) {
  auto e = node(ExprKind::kCast);
  e->type = std::move(type);
  e->try_ = try_cast;
  e->nullable = child->nullable;
  e->children = {std::move(child)};
  return e;
}

ExprPtr sort_order(ExprPtr child, bool ascending, bool nulls_first) {
  auto e = node(ExprKind::kSortOrder);
  e->ascending = ascending;
  e->nulls_first = nulls_first;
  e->type = child->type;
  e->nullable = child->nullable;
  e->children = {std::move(child)};
  return e;
}

ExprPtr subquery(SubqueryKind kind, std::shared_ptr<const PlanNode> query, std::vector<ExprPtr> values) {
  auto e = node(ExprKind::kSubquery);
  e->subquery_kind = kind;
  e->subquery = std::move(query);
  e->children = std::move(values);
  return e;
}

ExprPtr attribute(std::string name, TypePtr type, bool nullable, int64_t expr_id,
                  std::vector<std::string> qualifier) {
  auto e = node(ExprKind::kAttribute);
  e->name = std::move(name);
  e->type = std::move(type);
  e->nullable = nullable;
  e->expr_id = expr_id;
  e->qualifier = std::move(qualifier);
  return e;
}

ExprPtr with_children(const ExprPtr& e, std::vector<ExprPtr> children) {
  auto copy = std::make_shared<Expr>(*e);
  copy->children = std::move(children);
  return copy;
}

ExprPtr to_attribute(const ExprPtr& named) {
  if (named->kind == ExprKind::kAttribute) return named;
  EMBER_CHECK(named->kind == ExprKind::kAlias, "to_attribute of an unnamed expression");
  auto a = std::make_shared<Expr>(*attribute(named->name, named->type, named->nullable, named->expr_id));
  // An alias without metadata of its own keeps its column's metadata, as in Spark.
  a->metadata_json = named->metadata_json;
  if (a->metadata_json.empty() && named->children[0]->kind == ExprKind::kAttribute)
    a->metadata_json = named->children[0]->metadata_json;
  return a;
}

functions::Signature call_signature(const functions::FunctionDef& def, const std::vector<ExprPtr>& args,
                                    const Config& conf) {
  if (def.arg_type_rule) {
    std::vector<functions::ArgInfo> infos;
    for (auto& a : args) {
      bool named = a->kind == ExprKind::kAttribute || a->kind == ExprKind::kAlias;
      infos.push_back({a->type, a->nullable, a->kind == ExprKind::kLiteral ? &a->value : nullptr,
                       named ? a->name : std::string()});
    }
    return def.arg_type_rule(infos, conf);
  }
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type);
  return def.type_rule(types, conf);
}

namespace {

/// Spark's Literal.toString, where it differs from the literal's text in names: dates and
/// timestamps bare (`2020-01-02`), binary as `0x6162`.
std::string java_literal_string(const Expr& e) {
  if (e.value.is_null()) return e.to_string();
  switch (e.type->id()) {
    case TypeId::kDate: return format_date(static_cast<int32_t>(e.value.as_int()));
    case TypeId::kTimestamp:
      return format_timestamp(e.value.as_int(), NamingScope::time_zone());
    case TypeId::kTimestampNtz: return format_timestamp_ntz(e.value.as_int());
    case TypeId::kBinary: {
      static const char* kHex = "0123456789ABCDEF";
      std::string out = "0x";
      for (unsigned char c : e.value.as_bytes()) out += kHex[c >> 4], out += kHex[c & 15];
      return out;
    }
    default: return e.to_string();
  }
}

std::string java_string(const ExprPtr& e);

/// Spark's In.toString (`a IN (1,2)`) of the chain of equalities the analyzer rewrites an IN
/// into ((a = 1) OR (a = 2), named by its SQL text); "" when `e` is not one.
std::string java_in_string(const Expr& e) {
  if (e.display.find(" IN (") == std::string::npos) return "";
  std::vector<const Expr*> tests;
  const Expr* x = &e;
  while (x->kind == ExprKind::kCall && x->function && x->function->name == "or" &&
         x->children.size() == 2) {
    tests.push_back(x->children[1].get());
    x = x->children[0].get();
  }
  tests.push_back(x);
  std::string list;
  for (auto it = tests.rbegin(); it != tests.rend(); ++it) {
    const Expr* t = *it;
    if (t->kind != ExprKind::kCall || !t->function || t->function->name != "==" ||
        t->children.size() != 2)
      return "";
    list += (list.empty() ? "" : ",") + java_string(t->children[1]);
  }
  return java_string(tests.back()->children[0]) + " IN (" + list + ")";
}

/// How Spark's toString shows an expression (a Python function's arguments are named that way,
/// not by their SQL text): casts as `cast(x as int)`, `isnull(x)`, `positive(x)`, `NOT x`, `-x`,
/// `count(distinct x)`, `struct(x, a AS x)` (each field's name, then its value). An alias and a
/// field access keep their SQL text (`(a IS NULL) AS x`, `struct(a, b).a`).
std::string java_string(const ExprPtr& e) {
  auto args = [&e] {
    std::string s;
    for (size_t i = 0; i < e->children.size(); ++i) s += (i ? ", " : "") + java_string(e->children[i]);
    return s;
  };
  switch (e->kind) {
    // Spark's pretty rendering leaves aliases to their SQL, and shows a field access by the SQL
    // of its struct (`struct(a, b).a`).
    case ExprKind::kAlias:
    case ExprKind::kGetField: return e->to_string();
    case ExprKind::kLiteral: return java_literal_string(*e);
    // Spark's If.toString: `if ((a > 0)) 1 else 2`.
    case ExprKind::kIf:
      if (!e->display.empty() || e->children.size() != 3) break;
      return "if (" + java_string(e->children[0]) + ") " + java_string(e->children[1]) + " else " +
             java_string(e->children[2]);
    case ExprKind::kCast:
      if (e->implicit || !e->display.empty()) break;
      return std::string(e->try_ ? "try_cast(" : "cast(") + java_string(e->children[0]) + " as " +
             e->type->simple_string() + ")";
    case ExprKind::kCall:
    case ExprKind::kAggregate: {
      // struct(...) is named_struct called by another name; its text lists names and values.
      if (e->name == "struct") return "struct(" + args() + ")";
      if (!e->display.empty()) {
        std::string in = java_in_string(*e);
        if (!in.empty()) return in;
        break;
      }
      if (!e->function) break;
      const std::string& fn = e->function->name;
      if (fn == "negative") return "-" + java_string(e->children[0]);
      // What the function's family declares of its toString (hidden parameters, class names).
      if (const functions::JavaForm* form = functions::java_form(fn);
          form && !e->distinct && !e->filter) {
        functions::JavaFormCall call{e->name.empty() ? fn : e->name,
                                     {},
                                     {},
                                     NamingScope::time_zone().name(),
                                     NamingScope::ansi()};
        for (const ExprPtr& c : e->children) {
          call.args.push_back(java_string(c));
          call.arg_types.push_back(c->type);
        }
        std::string shown = (*form)(call);
        if (!shown.empty()) return shown;
      }
      if (e->function->render) break;
      if (fn == "not") return "NOT " + java_string(e->children[0]);
      // `(a IS NULL)`, `(+ a)`: Spark's toString is the function's name and arguments.
      if (e->function->display == functions::Display::kPostfix || e->function->display == functions::Display::kPrefix)
        return fn + "(" + args() + ")";
      if (e->kind == ExprKind::kAggregate && e->distinct && e->function->display == functions::Display::kCall)
        return (e->name.empty() || e->name == fn ? e->function->display_name : e->name) + "(distinct " + args() + ")" +
               (e->filter ? " FILTER (WHERE " + java_string(e->filter) + ")" : "");
      break;
    }
    default: break;
  }
  if (e->children.empty() || !e->display.empty() || e->kind == ExprKind::kLambda) return e->to_string();
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(attribute(java_string(c), c->type, c->nullable, -1));
  return with_children(e, std::move(kids))->to_string();
}

}  // namespace

std::string Expr::to_string() const {
  if (!display.empty()) return display;
  auto args = [this](size_t from = 0) {
    std::string s;
    for (size_t i = from; i < children.size(); ++i) {
      if (i > from) s += ", ";
      s += children[i]->to_string();
    }
    return s;
  };
  switch (kind) {
    case ExprKind::kUnresolvedAttribute: {
      std::string s;
      for (size_t i = 0; i < name_parts.size(); ++i) s += (i ? "." : "") + name_parts[i];
      return s;
    }
    case ExprKind::kUnresolvedStar: {
      std::string s;
      for (auto& p : name_parts) s += p + ".";
      return s + "*";
    }
    case ExprKind::kUnresolvedFunction: return name + "(" + (distinct ? "DISTINCT " : "") + args() + ")";
    case ExprKind::kLiteral:
      if (type && type->is_collated_string() && !value.is_null())
        return "'" + value.as_bytes() + "' collate " + type->sql().substr(sizeof("STRING COLLATE ") - 1);
      return literal_string(value, type);
    // An alias inside another expression shows as Spark's Alias.sql (`(a AS x + 1)`); a
    // top-level alias names its column and is never rendered.
    case ExprKind::kAlias: return children[0]->to_string() + " AS " + quote_id_if_needed(name);
    case ExprKind::kUnresolvedAlias: return children[0]->to_string();
    case ExprKind::kCast:
      // Spark names a cast to an array, map or struct (CAST(NULL AS ARRAY<INT>) is `NULL`) by
      // its operand, as it does a cast that type coercion inserted.
      if (implicit || (type && type->is_nested())) return children[0]->to_string();
      return std::string(try_ ? "TRY_CAST(" : "CAST(") + children[0]->to_string() + " AS " + type->sql() + ")";
    case ExprKind::kSortOrder:
      return children[0]->to_string() + (ascending ? " ASC" : " DESC") + (nulls_first ? " NULLS FIRST" : " NULLS LAST");
    case ExprKind::kAttribute: return name;
    case ExprKind::kCall:
    case ExprKind::kAggregate: {
      const std::string& shown = function->display_name;
      if (function->render) {
        std::vector<std::string> rendered;
        for (const auto& c : children) rendered.push_back(c->to_string());
        std::string shown_call = function->render(name.empty() ? function->name : name, rendered);
        // listagg(DISTINCT x, NULL): the keyword goes right after the opening parenthesis.
        if (distinct) {
          size_t open = shown_call.find('(');
          if (open != std::string::npos && shown_call.compare(open + 1, 9, "DISTINCT ") != 0)
            shown_call.insert(open + 1, "DISTINCT ");
        }
        return shown_call + (filter ? " FILTER (WHERE " + filter->to_string() + ")" : "");
      }
      // A function called by its name (negative(x)) is shown by that name, as Spark does.
      if (!name.empty() && name != function->name) return name + "(" + args() + ")";
      switch (function->display) {
        case functions::Display::kInfix:
          return "(" + children[0]->to_string() + " " + shown + " " + children[1]->to_string() + ")";
        case functions::Display::kPrefix: return "(" + shown + " " + children[0]->to_string() + ")";
        case functions::Display::kPostfix: return "(" + children[0]->to_string() + " " + shown + ")";
        // Called by its canonical name: Spark shows the pretty name (SQRT, CEIL, ...).
        default:
          return shown + "(" + (distinct ? "DISTINCT " : "") + args() + ")" +
                 (filter ? " FILTER (WHERE " + filter->to_string() + ")" : "");
      }
    }
    case ExprKind::kCaseWhen: {
      std::string s = "CASE";
      size_t pairs = (children.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i)
        s += " WHEN " + children[2 * i]->to_string() + " THEN " + children[2 * i + 1]->to_string();
      if (has_else) s += " ELSE " + children.back()->to_string();
      return s + " END";
    }
    case ExprKind::kIf: return "(IF(" + args() + "))";
    // nvl and ifnull are coalesce under the name they were called by.
    case ExprKind::kCoalesce: return (name.empty() ? std::string("coalesce") : name) + "(" + args() + ")";
    case ExprKind::kGetField: return children[0]->to_string() + "." + name;
    case ExprKind::kUnresolvedExtract: return children[0]->to_string() + "[" + children[1]->to_string() + "]";
    // Spark names a resolved lambda variable by no name at all.
    case ExprKind::kLambdaVariable: return type ? "namedlambdavariable()" : name;
    // Spark's names: scalarsubquery(), exists(), (a IN (listquery())), listing the outer
    // references a correlated subquery reads.
    case ExprKind::kSubquery: {
      std::string outer = name;
      switch (subquery_kind) {
        case SubqueryKind::kScalar: return "scalarsubquery(" + outer + ")";
        case SubqueryKind::kExists: return "exists(" + outer + ")";
        case SubqueryKind::kIn: {
          std::string values = children.size() == 1 ? children[0]->to_string() : "named_struct(" + [&] {
            std::string s;
            for (size_t i = 0; i < children.size(); ++i)
              s += (i ? ", " : "") + std::string("col") + std::to_string(i + 1) + ", " + children[i]->to_string();
            return s;
          }() + ")";
          return "(" + values + " IN (listquery(" + outer + ")))";
        }
        case SubqueryKind::kTableArgument: return "functiontablesubqueryargumentexpression()";
      }
      return "?";
    }
    case ExprKind::kOuterReference: return "outer(" + children[0]->to_string() + ")";
    case ExprKind::kGenerator: return name + (outer ? "_outer(" : "(") + args() + ")";
    case ExprKind::kPythonUdf: {
      std::string s = name + "(";
      for (size_t i = 0; i < children.size(); ++i) {
        s += i ? ", " : "";
        if (python && i < python->arg_names.size() && !python->arg_names[i].empty()) s += python->arg_names[i] + " => ";
        s += java_string(children[i]);
      }
      return s + ")";
    }
    case ExprKind::kNamedArgument: return name + " => " + children[0]->to_string();
    case ExprKind::kLambda: return "lambdafunction(" + args() + ")";
    case ExprKind::kWindow: {
      std::string spec;
      if (!partition_by.empty()) {
        spec += "PARTITION BY ";
        for (size_t i = 0; i < partition_by.size(); ++i) spec += (i ? ", " : "") + partition_by[i]->to_string();
      }
      if (!order_by.empty()) {
        spec += std::string(spec.empty() ? "" : " ") + "ORDER BY ";
        for (size_t i = 0; i < order_by.size(); ++i) spec += (i ? ", " : "") + order_by[i]->to_string();
      }
      if (frame.specified) spec += std::string(spec.empty() ? "" : " ") + frame.to_string();
      return children[0]->to_string() + " OVER (" + spec + ")";
    }
    case ExprKind::kWindowFunction: {
      // Spark's pretty names: the ranking functions print in upper case, except row_number,
      // cume_dist and ntile.
      std::string shown = name;
      if (name == "rank" || name == "dense_rank" || name == "percent_rank") {
        shown.clear();
        for (char c : name) shown += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      std::string s = shown + "(" + args() + ")";
      if (ignore_nulls && name == "nth_value") s += " ignore nulls";
      return s;
    }
  }
  return "?";
}

bool Expr::resolved() const {
  switch (kind) {
    case ExprKind::kUnresolvedAttribute:
    case ExprKind::kUnresolvedStar:
    case ExprKind::kUnresolvedFunction:
    case ExprKind::kUnresolvedExtract:
    case ExprKind::kUnresolvedAlias: return false;
    case ExprKind::kLambdaVariable: return type != nullptr;
    default: break;
  }
  for (auto& c : children)
    if (!c->resolved()) return false;
  return type != nullptr;
}

std::string WindowFrame::to_string() const {
  auto bound = [this](int64_t v, bool preceding_syntax) -> std::string {
    if (v == kUnboundedPreceding) return "UNBOUNDED PRECEDING";
    if (v == kUnboundedFollowing) return "UNBOUNDED FOLLOWING";
    if (v == 0 && !preceding_syntax && !value_bounds) return "CURRENT ROW";
    if (preceding_syntax) return std::to_string(-v) + " PRECEDING";
    return std::to_string(v) + " FOLLOWING";
  };
  return std::string(type == Type::kRows ? "ROWS" : "RANGE") + " BETWEEN " + bound(lower, lower_preceding_syntax) +
         " AND " + bound(upper, upper_preceding_syntax);
}

bool Expr::deterministic() const {
  if (function && !function->deterministic) return false;
  if (python && !python->deterministic) return false;
  for (auto& c : children)
    if (!c->deterministic()) return false;
  return true;
}

bool is_python_aggregate(const Expr& e) {
  return e.kind == ExprKind::kPythonUdf && e.python &&
         (e.python->eval_type == static_cast<int>(exec::PythonEvalType::kGroupedAggPandasUdf) ||
          e.python->eval_type == static_cast<int>(exec::PythonEvalType::kGroupedAggArrowUdf));
}

bool Expr::contains_aggregate() const {
  if (kind == ExprKind::kAggregate || is_python_aggregate(*this)) return true;
  if (kind == ExprKind::kWindow) return false;
  for (auto& c : children)
    if (c->contains_aggregate()) return true;
  return false;
}

std::vector<std::string> parse_attribute_name(const std::string& name) {
  std::vector<std::string> parts;
  std::string cur;
  bool in_quote = false;
  bool quoted_part = false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (in_quote) {
      if (c == '`') {
        if (i + 1 < name.size() && name[i + 1] == '`') {
          cur += '`';
          ++i;
        } else {
          in_quote = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '`') {
      in_quote = true;
      quoted_part = true;
    } else if (c == '.') {
      parts.push_back(cur);
      cur.clear();
      quoted_part = false;
    } else {
      cur += c;
    }
  }
  if (in_quote)
    throw SparkError(ErrorKind::kAnalysis, "INVALID_ATTRIBUTE_NAME_SYNTAX",
                     "Syntax error in the attribute name: " + name +
                         ". Check that backticks appear in pairs, a quoted string is a complete name "
                         "part and use a backtick only inside quoted name parts.",
                     {{"name", name}});
  (void)quoted_part;
  parts.push_back(cur);
  return parts;
}

}  // namespace ember::plan
