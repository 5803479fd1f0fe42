// String aggregates: listagg / string_agg(expr[, delimiter]) — the group's non-null values
// concatenated in the order rows arrive, separated by a constant delimiter; STRING or BINARY.
// Other atomic inputs are cast to STRING; the delimiter takes the input's type (a null delimiter
// is the empty one). DISTINCT goes through the engine's generic distinct aggregate.
//
// With WITHIN GROUP (ORDER BY k1 [ASC | DESC] [NULLS FIRST | LAST], ...) the analyzer calls the
// internal listagg_ordered(expr, delimiter, order, k1, ...) instead: the values concatenate in
// the order of their keys, rows of equal keys in input order (Spark sorts stably); `order` is a
// constant naming each key's direction and null placement (the analyzer checks the keys, and
// DISTINCT's rule that its key be the value: plan/within_group_resolution.h).

#include <algorithm>

#include "column/compare.h"
#include "functions/aggregate_state.h"
#include "functions/row_position.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

/// State: the concatenation so far and the delimiter, kept from the call's constant argument
/// for merging; both empty until a value arrives.
struct ListAggState {
  HeapState<std::string> text;
  HeapState<std::string> delimiter;
};

class ListAgg final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(ListAggState); }
  void init(uint8_t* s) const override { *reinterpret_cast<ListAggState*>(s) = {}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    std::string_view delim;
    if (args.size() > 1 && args[1]->length() > 0 && args[1]->type()->id() != TypeId::kNull && args[1]->is_valid(0))
      delim = args[1]->string_at(0);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      auto* s = reinterpret_cast<ListAggState*>(states[i]);
      if (!s->text) {
        s->text.assign(c.string_at(i));
        s->delimiter.assign(delim);
      } else {
        s->text->append(delim);
        s->text->append(c.string_at(i));
      }
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<ListAggState*>(dst);
    auto* s = reinterpret_cast<const ListAggState*>(src);
    if (!s->text) return;
    if (!d->text) {
      d->text.assign(*s->text);
      d->delimiter.assign(*s->delimiter);
      return;
    }
    d->text->append(*s->delimiter);
    d->text->append(*s->text);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const ListAggState*>(states[i]);
      if (s->text) out.append_bytes(*s->text);
      else out.append_null();
    }
  }
  void destroy(uint8_t* state) const override {
    auto* s = reinterpret_cast<ListAggState*>(state);
    s->text.destroy();
    s->delimiter.destroy();
  }
  bool needs_destroy() const override { return true; }
};

/// How one WITHIN GROUP key orders rows.
struct KeyOrder {
  bool ascending;
  bool nulls_first;
};

/// The `order` argument of listagg_ordered: one word per key, `A` or `D` then `F` or `L`
/// (ascending or descending, nulls first or last), separated by spaces.
std::vector<KeyOrder> parse_key_orders(std::string_view text) {
  std::vector<KeyOrder> out;
  for (size_t i = 0; i + 1 < text.size(); i += 3) out.push_back({text[i] == 'A', text[i + 1] == 'F'});
  return out;
}

/// listagg with WITHIN GROUP (ORDER BY ...): the state gathers each non-null value with its keys
/// and position; the values are sorted when the group ends.
struct OrderedListAggState {
  struct Entry {
    std::string value;
    std::vector<Value> keys;
    RowPosition at;
  };
  std::vector<Entry> entries;
  std::string delimiter;
};

/// State: the group's `OrderedListAggState`, made on its first value or merge.
class OrderedListAgg final : public HeapStateAggregate<OrderedListAggState> {
 public:
  OrderedListAgg(std::vector<TypePtr> key_types, std::vector<KeyOrder> orders)
      : key_types_(std::move(key_types)), orders_(std::move(orders)) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    std::string_view delim;
    if (args[1]->length() > 0 && args[1]->type()->id() != TypeId::kNull && args[1]->is_valid(0))
      delim = args[1]->string_at(0);
    const int64_t batch = current_batch();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      OrderedListAggState& s = state(states[i]).get_or_create();
      s.delimiter.assign(delim);
      OrderedListAggState::Entry e{std::string(c.string_at(i)), {}, {batch, i}};
      for (size_t k = 0; k < key_types_.size(); ++k) e.keys.push_back(args[3 + k]->value_at(i));
      s.entries.push_back(std::move(e));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const OrderedListAggState* from = state(src).get();
    if (!from || from->entries.empty()) return;
    OrderedListAggState& d = state(dst).get_or_create();
    d.delimiter = from->delimiter;
    d.entries.insert(d.entries.end(), from->entries.begin(), from->entries.end());
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const OrderedListAggState* s = state(states[i]).get();
      if (!s || s->entries.empty()) {
        out.append_null();
        continue;
      }
      std::vector<const OrderedListAggState::Entry*> sorted;
      for (auto& e : s->entries) sorted.push_back(&e);
      std::sort(sorted.begin(), sorted.end(), [&](const auto* a, const auto* b) {
        int c = compare_keys(a->keys, b->keys);
        return c != 0 ? c < 0 : a->at < b->at;
      });
      std::string text;
      for (size_t k = 0; k < sorted.size(); ++k) {
        if (k > 0) text += s->delimiter;
        text += sorted[k]->value;
      }
      out.append_bytes(text);
    }
  }

 private:
  int compare_keys(const std::vector<Value>& a, const std::vector<Value>& b) const {
    for (size_t k = 0; k < key_types_.size(); ++k) {
      const bool an = a[k].is_null(), bn = b[k].is_null();
      if (an || bn) {
        if (an && bn) continue;
        return an == orders_[k].nulls_first ? -1 : 1;
      }
      int c = compare_values(a[k], b[k], *key_types_[k]);
      if (c != 0) return orders_[k].ascending ? c : -c;
    }
    return 0;
  }
  std::vector<TypePtr> key_types_;
  std::vector<KeyOrder> orders_;
};

bool atomic(const DataType& t) { return !t.is_nested(); }

Signature listagg_signature(const std::string& fn, const std::vector<ArgInfo>& a) {
  auto shown = [&] {
    std::vector<TypePtr> types;
    for (auto& x : a) types.push_back(x.type);
    return call_sql(fn, types);
  };
  const TypePtr& in = a[0].type;
  if (!atomic(*in))
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the (\"STRING\" or \"BINARY\") type, however \"" + in->sql() +
                            "\" has the type \"" + in->sql() + "\".",
                        shown());
  TypePtr value_type = in->id() == TypeId::kBinary ? in : DataType::string();
  Signature s;
  s.arg_types = {value_type};
  if (a.size() > 1) {
    const TypePtr& d = a[1].type;
    if (!a[1].literal)
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          "the input `delimiter` should be a foldable \"" + value_type->sql() +
                              "\" expression; however, got \"" + d->sql() + "\".",
                          shown());
    bool clash = (value_type->id() == TypeId::kBinary && d->id() == TypeId::kString) ||
                 (value_type->id() == TypeId::kString && d->id() == TypeId::kBinary);
    if (clash || !atomic(*d))
      throw_type_mismatch("DATA_DIFF_TYPES",
                          "Input to `" + fn + "` should all be the same type, but it's (\"" + in->sql() + "\" or \"" +
                              d->sql() + "\").",
                          shown());
    s.arg_types.push_back(d->id() == TypeId::kNull ? d : value_type);
  }
  s.result_type = value_type;
  s.null_if_any_arg_null = false;
  s.may_introduce_null = true;
  return s;
}

}  // namespace

void register_string_aggregates(Registry& r) {
  for (const char* name : {"listagg", "string_agg"}) {
    FunctionDef d;
    d.name = name;
    d.kind = FunctionKind::kAggregate;
    d.min_args = 1;
    d.max_args = 2;
    std::string fn = name;
    d.arg_type_rule = [fn](const std::vector<ArgInfo>& a, const Config&) { return listagg_signature(fn, a); };
    d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<ListAgg>(); };
    // Spark shows the delimiter always, NULL when the call has none.
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : "NULL") + ")";
    };
    d.usage = fn + "(expr[, delimiter]) - Returns the concatenation of non-NULL input values, separated by the "
                   "delimiter.";
    r.add(std::move(d));
  }
  {
    // listagg / string_agg(expr, delimiter) WITHIN GROUP (ORDER BY k1, ...), as the analyzer
    // rewrites it: (expr, delimiter or NULL, order, k1, ...).
    FunctionDef d;
    d.name = "listagg_ordered";
    d.kind = FunctionKind::kAggregate;
    d.internal = true;
    d.min_args = 4;
    d.max_args = -1;
    d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
      Signature s = listagg_signature("listagg", {a[0], a[1]});
      EMBER_CHECK(a[2].literal && !a[2].literal->is_null(), "listagg_ordered: the key order is a constant");
      std::vector<KeyOrder> orders = parse_key_orders(a[2].literal->as_bytes());
      EMBER_CHECK(orders.size() + 3 == a.size(), "listagg_ordered: one order per key");
      s.arg_types.push_back(a[2].type);
      for (size_t k = 3; k < a.size(); ++k) {
        s.arg_types.push_back(a[k].type);
        s.parameters.push_back(orders[k - 3].ascending ? 1 : 0);
        s.parameters.push_back(orders[k - 3].nulls_first ? 1 : 0);
      }
      return s;
    };
    d.aggregate = [](const Signature& sig, const EvalContext&) {
      std::vector<TypePtr> keys(sig.arg_types.begin() + 3, sig.arg_types.end());
      std::vector<KeyOrder> orders;
      for (size_t k = 0; k + 1 < sig.parameters.size(); k += 2)
        orders.push_back({sig.parameters[k] != 0, sig.parameters[k + 1] != 0});
      return std::make_unique<OrderedListAgg>(std::move(keys), std::move(orders));
    };
    // Spark's name: listagg(expr, delimiter) WITHIN GROUP (ORDER BY k1 ASC NULLS FIRST, ...),
    // listagg whether called listagg or string_agg.
    d.render = [](const std::string&, const std::vector<std::string>& args) {
      std::vector<KeyOrder> orders = parse_key_orders(args[2]);
      std::string s = "listagg(" + args[0] + ", " + args[1] + ") WITHIN GROUP (ORDER BY ";
      for (size_t k = 3; k < args.size() && k - 3 < orders.size(); ++k) {
        if (k > 3) s += ", ";
        s += args[k] + (orders[k - 3].ascending ? " ASC" : " DESC") +
             (orders[k - 3].nulls_first ? " NULLS FIRST" : " NULLS LAST");
      }
      return s + ")";
    };
    d.usage = "listagg(expr[, delimiter]) WITHIN GROUP (ORDER BY key [ASC | DESC] [NULLS FIRST | LAST], ...) - "
              "Returns the concatenation of non-NULL input values in the order of the keys.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
