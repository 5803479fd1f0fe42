// Assembly of one SELECT into plan nodes, Spark's way:
//
//   FROM → Filter (WHERE) → Aggregate (GROUP BY, aggregates) or Project
//        → Filter (HAVING) → Distinct → Sort (ORDER BY) → (hidden columns dropped)
//
// The SQL-only conveniences are rewritten here so that the plan uses only what the DataFrame
// API also builds: GROUP BY ordinals, ALL and select-list aliases become the expressions they
// name; ORDER BY ordinals the output column they name. An aggregate's output is exactly the
// select list. HAVING and ORDER BY may use aggregates and grouping expressions that the select
// list does not show: those are computed as extra aggregate outputs under reserved names and
// dropped after the filter or sort. A non-aggregate ORDER BY on columns that the select list
// does not keep sorts below the projection instead, with select aliases replaced by what they
// stand for.

#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "common/ascii.h"
#include "plan/generator_resolution.h"
#include "plan/window_resolution.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::Expr;
using plan::ExprKind;
using plan::PlanKind;

namespace {

constexpr const char* kHiddenPrefix = "__sql_hidden_";

/// A key for comparing unresolved expressions as written, ignoring case.
std::string expr_key(const ExprPtr& e) {
  std::string k = ascii_lower(e->to_string());
  if (e->filter) k += " filter " + expr_key(e->filter);
  if (e->kind == ExprKind::kWindow) k += " window";
  return k;
}

bool references_name(const ExprPtr& e, const std::string& name) {
  if (e->kind == ExprKind::kUnresolvedAttribute && ascii_lower(e->name_parts[0]) == ascii_lower(name))
    return true;
  for (auto& c : e->children)
    if (references_name(c, name)) return true;
  return false;
}

bool contains_window_or_nondeterministic(const ExprPtr& e) {
  if (e->kind == ExprKind::kWindow) return true;
  if (e->kind == ExprKind::kUnresolvedFunction) {
    static const char* const kNondeterministic[] = {"rand",
                                                    "randn",
                                                    "random",
                                                    "uuid",
                                                    "shuffle",
                                                    "monotonically_increasing_id",
                                                    "spark_partition_id",
                                                    "input_file_name"};
    for (const char* f : kNondeterministic)
      if (ascii_lower(e->name) == f) return true;
  }
  for (auto& c : e->children)
    if (contains_window_or_nondeterministic(c)) return true;
  return false;
}

ExprPtr rebuild(const ExprPtr& e, std::vector<ExprPtr> children) {
  bool same = children.size() == e->children.size();
  for (size_t i = 0; same && i < children.size(); ++i) same = children[i] == e->children[i];
  return same ? e : plan::with_children(e, std::move(children));
}

/// The select list as the plan carries it: aliased items wrapped in Alias.
std::vector<ExprPtr> named_items(const std::vector<SelectItem>& items) {
  std::vector<ExprPtr> out;
  for (auto& it : items) out.push_back(it.alias ? plan::alias(it.expr, *it.alias) : it.expr);
  return out;
}

/// Output names the text shows: the alias, or a column reference's last part; "" otherwise.
std::vector<std::string> output_names(const std::vector<SelectItem>& items) {
  std::vector<std::string> out;
  for (auto& it : items) {
    if (it.alias)
      out.push_back(*it.alias);
    else if (it.expr->kind == ExprKind::kUnresolvedAttribute)
      out.push_back(it.expr->name_parts.back());
    else
      out.push_back("");
  }
  return out;
}

/// How Spark's messages show a select item: "expr AS `name`".
std::string item_text(const SelectItem& it) {
  std::string e = it.expr->to_string();
  return e + " AS " + quote_id(it.alias ? *it.alias : e);
}

/// Rewrites HAVING / ORDER BY expressions of an aggregate query to refer to the aggregate's
/// outputs, adding hidden outputs for what the select list does not provide.
class AggregateLifter {
 public:
  AggregateLifter(const std::vector<SelectItem>& items, const std::vector<ExprPtr>& keys,
                  std::vector<ExprPtr>* aggregates, std::vector<std::string>* hidden)
      : aggregates_(aggregates), hidden_(hidden) {
    names_ = output_names(items);
    for (auto& it : items) item_keys_.push_back(expr_key(it.expr));
    for (auto& k : keys) group_keys_.insert(expr_key(k));
  }

  ExprPtr lift(const ExprPtr& e) {
    std::string key = expr_key(e);
    for (size_t i = 0; i < item_keys_.size(); ++i)
      if (item_keys_[i] == key && !names_[i].empty() && e->kind != ExprKind::kUnresolvedAttribute)
        return plan::col({names_[i]});
    switch (e->kind) {
      case ExprKind::kLiteral:
      case ExprKind::kLambda:
      case ExprKind::kLambdaVariable:
        return e;
      case ExprKind::kUnresolvedAttribute:
        if (e->name_parts.size() == 1)
          for (auto& n : names_)
            if (!n.empty() && ascii_lower(n) == ascii_lower(e->name_parts[0])) return e;
        return hide(e);
      case ExprKind::kSortOrder:
        return rebuild(e, {lift(e->children[0])});
      case ExprKind::kWindow:
        return hide(e);
      case ExprKind::kUnresolvedFunction:
        if (is_aggregate_function(e->name)) return hide(e);
        break;
      default:
        break;
    }
    if (group_keys_.count(key)) return hide(e);
    std::vector<ExprPtr> children;
    for (auto& c : e->children) children.push_back(lift(c));
    return rebuild(e, std::move(children));
  }

 private:
  ExprPtr hide(const ExprPtr& e) {
    std::string key = expr_key(e);
    auto it = hidden_by_key_.find(key);
    if (it != hidden_by_key_.end()) return plan::col({it->second});
    std::string name = kHiddenPrefix + std::to_string(hidden_->size());
    aggregates_->push_back(plan::alias(e, name));
    hidden_->push_back(name);
    hidden_by_key_[key] = name;
    return plan::col({name});
  }

  std::vector<ExprPtr>* aggregates_;
  std::vector<std::string>* hidden_;
  std::vector<std::string> names_, item_keys_;
  std::set<std::string> group_keys_;
  std::map<std::string, std::string> hidden_by_key_;
};

PlanPtr drop_columns(PlanPtr child, const std::vector<std::string>& names) {
  if (names.empty()) return child;
  auto drop = new_node(PlanKind::kDrop, {std::move(child)});
  drop->names = names;
  return drop;
}

[[noreturn]] void order_position_out_of_range(const Parser& p, const ClauseKey& key, size_t size) {
  p.fail_range(ErrorKind::kAnalysis, "ORDER_BY_POS_OUT_OF_RANGE",
               "ORDER BY position " + std::to_string(key.ordinal) +
                   " is not in select list (valid range is [1, " + std::to_string(size) + "]).",
               {{"index", std::to_string(key.ordinal)}, {"size", std::to_string(size)}}, key.begin,
               key.stop);
}

/// Where an ORDER BY position points: a select item, or a column that a `*` expands to.
struct OrdinalTarget {
  const SelectItem* item = nullptr;
  ExprPtr column;  // set for a column of a `*`
};

/// The output columns of a select list, one entry per column, when the columns behind its
/// stars can be known (`ParseOptions::relation_columns`); empty otherwise.
std::vector<OrdinalTarget> expand_outputs(const Parser& p, const SelectClause& s,
                                          const PlanPtr& from) {
  std::vector<OrdinalTarget> out;
  std::vector<std::pair<std::string, std::string>> columns;
  bool have_columns = false;
  for (auto& item : s.items) {
    if (item.expr->kind != ExprKind::kUnresolvedStar) {
      out.push_back({&item, nullptr});
      continue;
    }
    if (!p.options().relation_columns) return {};
    if (!have_columns) {
      columns = p.options().relation_columns(from);
      have_columns = true;
    }
    const auto& target = item.expr->name_parts;
    for (auto& [qualifier, name] : columns) {
      if (!target.empty() && ascii_lower(target.back()) != ascii_lower(qualifier)) continue;
      out.push_back(
          {nullptr, qualifier.empty() ? plan::col({name}) : plan::col({qualifier, name})});
    }
  }
  return out;
}

/// The target of an ORDER BY position; fails when out of range, or behind a star whose
/// columns are unknown.
OrdinalTarget ordinal_target(const Parser& p, const SelectClause& s, const PlanPtr& from,
                             const ClauseKey& key) {
  bool star_before = false;
  for (size_t i = 0; i < s.items.size() && i < static_cast<size_t>(std::max(key.ordinal, 0)); ++i)
    star_before |= s.items[i].expr->kind == ExprKind::kUnresolvedStar;
  if (star_before) {
    std::vector<OrdinalTarget> outputs = expand_outputs(p, s, from);
    if (outputs.empty())
      p.fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: ORDER BY position after a star in the select "
                   "list; name the column instead.",
                   {}, key.begin, key.stop);
    if (static_cast<size_t>(key.ordinal) > outputs.size())
      order_position_out_of_range(p, key, outputs.size());
    return outputs[static_cast<size_t>(key.ordinal - 1)];
  }
  if (key.ordinal < 1 || static_cast<size_t>(key.ordinal) > s.items.size()) {
    bool has_star = false;
    for (auto& item : s.items) has_star |= item.expr->kind == ExprKind::kUnresolvedStar;
    std::vector<OrdinalTarget> outputs =
        has_star ? expand_outputs(p, s, from) : std::vector<OrdinalTarget>{};
    order_position_out_of_range(p, key, outputs.empty() ? s.items.size() : outputs.size());
  }
  return {&s.items[static_cast<size_t>(key.ordinal - 1)], nullptr};
}

/// The column names of the FROM relation, asked for once and only when needed (through
/// `ParseOptions::relation_columns`).
class FromColumns {
 public:
  FromColumns(const Parser& p, PlanPtr from) : p_(p), from_(std::move(from)) {}
  bool known() const { return static_cast<bool>(p_.options().relation_columns); }
  bool has(const std::string& name) {
    if (!loaded_) {
      for (auto& [q, n] : p_.options().relation_columns(from_)) names_.insert(ascii_lower(n));
      loaded_ = true;
    }
    return names_.count(ascii_lower(name)) > 0;
  }

 private:
  const Parser& p_;
  PlanPtr from_;
  bool loaded_ = false;
  std::set<std::string> names_;
};

/// Lateral column aliases: a select item may use the alias of an earlier item
/// (`SELECT a * 2 AS b, b + 1 AS c`) when no FROM column has that name. The reference is
/// replaced by the aliased expression, except for a generator's alias (`explode(arr) AS x,
/// x + 1`): the reference stays and the item's index goes to `generators`, whose items become
/// Generate nodes below the select list. Needs the FROM columns, so only with
/// `ParseOptions::relation_columns`.
void resolve_lateral_aliases(SelectClause& s, FromColumns& from, std::set<size_t>& generators) {
  if (!from.known()) return;
  std::map<std::string, size_t> earlier;  // lower-case alias → item
  for (size_t i = 0; i < s.items.size(); ++i) {
    SelectItem& item = s.items[i];
    if (!earlier.empty()) {
      std::function<ExprPtr(const ExprPtr&)> substitute = [&](const ExprPtr& e) -> ExprPtr {
        if (e->kind == ExprKind::kUnresolvedAttribute && e->name_parts.size() == 1) {
          auto it = earlier.find(ascii_lower(e->name_parts[0]));
          if (it == earlier.end() || from.has(it->first)) return e;
          const ExprPtr& target = s.items[it->second].expr;
          if (target->kind == ExprKind::kUnresolvedFunction && plan::is_generator_name(ascii_lower(target->name))) {
            generators.insert(it->second);
            return e;
          }
          return target;
        }
        std::vector<ExprPtr> children;
        for (auto& c : e->children) children.push_back(substitute(c));
        return rebuild(e, std::move(children));
      };
      item.expr = substitute(item.expr);
    }
    if (item.alias) earlier.emplace(ascii_lower(*item.alias), i);
  }
}

/// The first aggregate call of `e` outside window functions' own calls, or null.
ExprPtr first_aggregate_call(const ExprPtr& e) {
  if (e->kind == ExprKind::kUnresolvedFunction && is_aggregate_function(e->name)) return e;
  if (e->kind == ExprKind::kWindow) return nullptr;
  for (auto& c : e->children)
    if (ExprPtr a = first_aggregate_call(c)) return a;
  return nullptr;
}

/// `e` with each one-part name that is a select alias, and not a FROM column, replaced by the
/// aliased expression, window specifications included: how QUALIFY reads the select list.
ExprPtr substitute_select_aliases(const ExprPtr& e, const SelectClause& s, FromColumns& from) {
  std::function<ExprPtr(const ExprPtr&)> sub = [&](const ExprPtr& x) -> ExprPtr {
    if (x->kind == ExprKind::kUnresolvedAttribute && x->name_parts.size() == 1) {
      const std::string name = ascii_lower(x->name_parts[0]);
      for (auto& it : s.items) {
        if (!it.alias || ascii_lower(*it.alias) != name) continue;
        bool is_column = from.known() ? from.has(name) : references_name(it.expr, name);
        return is_column ? x : it.expr;
      }
      return x;
    }
    std::vector<ExprPtr> children;
    for (auto& c : x->children) children.push_back(sub(c));
    ExprPtr out = rebuild(x, std::move(children));
    if (x->kind != ExprKind::kWindow) return out;
    auto w = std::make_shared<Expr>(*out);
    for (auto& p : w->partition_by) p = sub(p);
    for (auto& o : w->order_by) o = sub(o);
    return w;
  };
  return sub(e);
}

/// Checks the QUALIFY clause as Spark does and returns its condition as a hidden select item's
/// expression: select aliases replaced, so that it reads the FROM columns like the items do.
ExprPtr qualify_condition(const Parser& p, const SelectClause& s, FromColumns& from) {
  if (ExprPtr agg = first_aggregate_call(s.qualify)) {
    std::string text = agg->to_string();
    p.fail_range(ErrorKind::kAnalysis, "QUALIFY_AGGREGATE_NOT_ALLOWED",
                 "Aggregate functions are not supported in QUALIFY: \"" + text + "\".",
                 {{"sqlExpr", "\"" + text + "\""}}, s.qualify_begin, s.qualify_stop);
  }
  bool has_window = plan::contains_window(s.qualify);
  for (auto& it : s.items) has_window |= plan::contains_window(it.expr);
  if (!has_window)
    p.fail_range(ErrorKind::kAnalysis, "QUALIFY_REQUIRES_WINDOW_FUNCTION",
                 "The QUALIFY clause requires at least one window function in the current SELECT "
                 "list or the QUALIFY condition.",
                 {}, s.qualify_begin, s.qualify_stop);
  return substitute_select_aliases(s.qualify, s, from);
}

}  // namespace

ExprPtr apply_named_windows(const Parser& p, const ExprPtr& e,
                            const std::map<std::string, WindowSpec>& windows) {
  std::vector<ExprPtr> children;
  for (auto& c : e->children) children.push_back(apply_named_windows(p, c, windows));
  ExprPtr out = rebuild(e, std::move(children));
  if (e->kind != ExprKind::kWindow || e->name.empty()) return out;
  auto w = std::make_shared<Expr>(*out);
  std::string name = w->name;
  w->name.clear();
  // Follow the chain of windows based on other windows.
  for (int depth = 0; !name.empty() && depth < 64; ++depth) {
    auto it = windows.find(ascii_lower(name));
    if (it == windows.end()) {
      throw SparkError(
          ErrorKind::kAnalysis, "MISSING_WINDOW_SPECIFICATION",
          "Window specification is not defined in the WINDOW clause for " + name +
              ". For more information about WINDOW clauses, please refer to "
              "'https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-window.html'.",
          {{"windowName", name}, {"docroot", "https://spark.apache.org/docs/latest"}}, "42P20");
    }
    const WindowSpec& base = it->second;
    if (w->partition_by.empty()) w->partition_by = base.partition_by;
    if (w->order_by.empty()) w->order_by = base.order_by;
    if (!w->frame.specified) w->frame = base.frame;
    name = base.base;
  }
  (void)p;
  return w;
}

PlanPtr build_select(const Parser& p, SelectClause s, QueryOrganization* org) {
  PlanPtr base = s.from ? s.from : one_row_relation();
  if (s.where) {
    auto f = new_node(PlanKind::kFilter, {base});
    f->condition = s.where;
    base = f;
  }
  for (auto& k : org->order_by) k.expr = apply_named_windows(p, k.expr, s.windows);
  std::vector<ClauseKey> order = std::move(org->order_by);
  org->order_by.clear();
  FromColumns from_columns(p, base);
  std::set<size_t> lateral_generators;
  resolve_lateral_aliases(s, from_columns, lateral_generators);
  if (!s.has_group_by) {
    // A generator whose alias later items read runs below the select list, as LATERAL VIEW
    // does, so that the alias is a column there.
    for (size_t i : lateral_generators) {
      SelectItem& item = s.items[i];
      auto generate = new_node(PlanKind::kGenerate, {base});
      generate->exprs = {item.expr};
      generate->names = {*item.alias};
      base = generate;
      item.expr = plan::col({*item.alias});
    }
  }

  bool has_star = false;
  bool has_aggregate = false;
  for (auto& it : s.items) {
    has_star |= it.expr->kind == ExprKind::kUnresolvedStar;
    has_aggregate |= contains_aggregate_call(it.expr);
  }
  const std::vector<std::string> names = output_names(s.items);
  const bool aggregate = s.has_group_by || s.having != nullptr || has_aggregate;
  // QUALIFY's condition is computed as a hidden output of the select list, filtered on above
  // it and dropped.
  const std::string qualify_name = std::string(kHiddenPrefix) + "qualify";
  ExprPtr qualify_item =
      s.qualify ? plan::alias(qualify_condition(p, s, from_columns), qualify_name) : nullptr;
  auto apply_qualify = [&](PlanPtr child) -> PlanPtr {
    if (!qualify_item) return child;
    auto f = new_node(PlanKind::kFilter, {std::move(child)});
    f->condition = plan::col({qualify_name});
    return f;
  };

  auto make_sort = [&](PlanPtr child, std::vector<ExprPtr> keys) {
    auto sort = new_node(PlanKind::kSort, {std::move(child)});
    sort->is_global = org->global_sort;
    sort->exprs = std::move(keys);
    return sort;
  };
  auto by_name_or_ordinal = [&](const ClauseKey& key) {
    if (!key.is_ordinal) return key.expr;
    OrdinalTarget t = ordinal_target(p, s, base, key);
    ExprPtr target = t.column;
    if (!target) {
      const SelectItem& item = *t.item;
      if (item.alias)
        target = plan::col({*item.alias});
      else
        target = item.expr;
    }
    return plan::sort_order(target, key.expr->ascending, key.expr->nulls_first);
  };

  if (aggregate) {
    // Grouping keys.
    std::vector<ExprPtr> keys;
    if (s.group_by_all) {
      for (auto& it : s.items)
        if (!contains_aggregate_call(it.expr) && it.expr->kind != ExprKind::kUnresolvedStar)
          keys.push_back(it.expr);
    }
    for (auto& key : s.group_by) {
      if (key.is_ordinal) {
        if (key.ordinal < 1 || static_cast<size_t>(key.ordinal) > s.items.size())
          p.fail_range(
              ErrorKind::kAnalysis, "GROUP_BY_POS_OUT_OF_RANGE",
              "GROUP BY position " + std::to_string(key.ordinal) +
                  " is not in select list (valid range is [1, " + std::to_string(s.items.size()) +
                  "]).",
              {{"index", std::to_string(key.ordinal)}, {"size", std::to_string(s.items.size())}},
              key.begin, key.stop);
        const SelectItem& item = s.items[static_cast<size_t>(key.ordinal - 1)];
        if (contains_aggregate_call(item.expr))
          p.fail_range(ErrorKind::kAnalysis, "GROUP_BY_POS_AGGREGATE",
                       "GROUP BY " + std::to_string(key.ordinal) + " refers to an expression " +
                           item_text(item) +
                           " that contains an aggregate function. Aggregate functions are not "
                           "allowed in GROUP BY.",
                       {{"index", std::to_string(key.ordinal)}, {"aggExpr", item_text(item)}},
                       key.begin, key.stop);
        keys.push_back(item.expr);
        continue;
      }
      ExprPtr k = key.expr;
      // A select alias used as a grouping key stands for its expression, unless a FROM column
      // has that name (Spark takes the column). Without the FROM columns at hand, an aliased
      // expression that reads a column of its own name shows that the column exists.
      if (k->kind == ExprKind::kUnresolvedAttribute && k->name_parts.size() == 1) {
        for (auto& it : s.items) {
          if (!it.alias || ascii_lower(*it.alias) != ascii_lower(k->name_parts[0]) ||
              contains_aggregate_call(it.expr))
            continue;
          bool is_column = from_columns.known() ? from_columns.has(*it.alias)
                                                : references_name(it.expr, *it.alias);
          if (!is_column) k = it.expr;
          break;
        }
      }
      keys.push_back(k);
    }
    auto agg = new_node(PlanKind::kAggregate, {base});
    agg->exprs = keys;
    for (auto& set : s.grouping_sets) {
      std::vector<ExprPtr> exprs;
      for (size_t i : set) exprs.push_back(keys[i]);
      agg->grouping_sets.push_back(std::move(exprs));
    }
    agg->aggregates = named_items(s.items);
    agg->aggregate_output_is_select_list = true;
    std::vector<std::string> hidden;
    if (qualify_item) {
      agg->aggregates.push_back(qualify_item);
      hidden.push_back(qualify_name);
    }
    AggregateLifter lifter(s.items, keys, &agg->aggregates, &hidden);
    ExprPtr having = s.having ? lifter.lift(s.having) : nullptr;
    std::vector<ExprPtr> sort_keys;
    if (!s.distinct)
      for (auto& key : order) sort_keys.push_back(lifter.lift(by_name_or_ordinal(key)));
    PlanPtr out = agg;
    if (having) {
      auto f = new_node(PlanKind::kFilter, {out});
      f->condition = having;
      out = f;
    }
    out = apply_qualify(out);
    if (s.distinct) {
      out = drop_columns(out, hidden);
      out = new_node(PlanKind::kDistinct, {out});
      for (auto& key : order) sort_keys.push_back(by_name_or_ordinal(key));
      if (!sort_keys.empty()) out = make_sort(out, sort_keys);
      return out;
    }
    if (!sort_keys.empty()) out = make_sort(out, sort_keys);
    return drop_columns(out, hidden);
  }

  auto project = new_node(PlanKind::kProject, {base});
  project->exprs = named_items(s.items);
  PlanPtr selected = project;
  if (qualify_item) {
    project->exprs.push_back(qualify_item);
    selected = drop_columns(apply_qualify(project), {qualify_name});
  }
  if (s.distinct) {
    PlanPtr out = new_node(PlanKind::kDistinct, {selected});
    std::vector<ExprPtr> keys;
    for (auto& key : order) keys.push_back(by_name_or_ordinal(key));
    return keys.empty() ? out : make_sort(out, keys);
  }
  if (order.empty()) return selected;

  // Sort above the projection when every key reads the projection's output; otherwise below
  // it, on the FROM columns, with select aliases replaced by their expressions.
  std::set<std::string> visible;
  for (auto& n : names)
    if (!n.empty()) visible.insert(ascii_lower(n));
  std::function<bool(const ExprPtr&)> reads_output = [&](const ExprPtr& e) -> bool {
    if (e->kind == ExprKind::kUnresolvedAttribute)
      return has_star || visible.count(ascii_lower(e->name_parts.back())) > 0;
    if (e->kind == ExprKind::kLambdaVariable) return true;
    for (auto& c : e->children)
      if (!reads_output(c)) return false;
    return true;
  };
  std::vector<ExprPtr> above;
  bool all_above = true;
  for (auto& key : order) {
    ExprPtr k = by_name_or_ordinal(key);
    all_above &= reads_output(k->children[0]);
    above.push_back(k);
  }
  bool can_go_below = true;
  for (auto& it : s.items) can_go_below &= !contains_window_or_nondeterministic(it.expr);
  if (all_above || !can_go_below || qualify_item) return make_sort(selected, above);

  std::map<std::string, ExprPtr> aliases;
  for (auto& it : s.items)
    if (it.alias) aliases.emplace(ascii_lower(*it.alias), it.expr);
  std::function<ExprPtr(const ExprPtr&)> substitute = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kUnresolvedAttribute && e->name_parts.size() == 1) {
      auto it = aliases.find(ascii_lower(e->name_parts[0]));
      if (it != aliases.end()) return it->second;
      return e;
    }
    std::vector<ExprPtr> children;
    for (auto& c : e->children) children.push_back(substitute(c));
    return rebuild(e, std::move(children));
  };
  std::vector<ExprPtr> below;
  for (auto& key : order) {
    ExprPtr k = key.expr;
    if (key.is_ordinal) {
      OrdinalTarget t = ordinal_target(p, s, base, key);
      k = plan::sort_order(t.column ? t.column : t.item->expr, k->ascending, k->nulls_first);
    }
    below.push_back(substitute(k));
  }
  auto moved = std::make_shared<plan::PlanNode>(*project);
  moved->children = {make_sort(base, below)};
  return moved;
}

}  // namespace ember::sql
