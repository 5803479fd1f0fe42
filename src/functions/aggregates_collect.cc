// Aggregates that collect values into arrays: collect_list (array_agg), collect_set and
// collect_union (the set of the elements of array inputs). All skip nulls (collect_union also
// null elements); the set forms keep the first occurrence of each value. The internal
// collect_frequent_items is DataFrame.freqItems.

#include <algorithm>

#include "functions/aggregate_state.h"
#include "functions/collection_util.h"

namespace ember::functions {
namespace {

/// State: the group's non-null values, made by `init`.
class Collect final : public HeapStateAggregate<std::vector<Value>> {
 public:
  /// `unnest`: the input is an array whose elements are collected (collect_union).
  Collect(TypePtr element, bool distinct, bool unnest = false)
      : element_(std::move(element)), distinct_(distinct), unnest_(unnest) {}
  void init(uint8_t* s) const override { state(s).create(); }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    if (unnest_) {
      const Column& elements = *c.child(0);
      const int32_t* off = c.offsets();
      for (int64_t i = 0; i < n; ++i) {
        if (!states[i] || !c.is_valid(i)) continue;
        std::vector<Value>& values = *state(states[i]);
        for (int32_t p = off[i]; p < off[i + 1]; ++p)
          if (elements.is_valid(p)) values.push_back(elements.value_at(p));
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      if (states[i] && c.is_valid(i)) state(states[i])->push_back(c.value_at(i));
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    std::vector<Value>& d = *state(dst);
    const std::vector<Value>& s = *state(src);
    d.insert(d.end(), s.begin(), s.end());
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    // All groups' values in one column, so that collect_set compares them column-wise.
    ColumnBuilder all(element_);
    std::vector<int32_t> starts = {0};
    for (int64_t i = 0; i < n; ++i) {
      for (const Value& v : *state(states[i])) all.append_value(v);
      starts.push_back(static_cast<int32_t>(all.length()));
    }
    // collect_set keeps one zero and one NaN at any depth: Spark normalizes floating-point
    // values (-0.0 to 0.0, inside arrays and structs too) before it compares them.
    ColumnPtr values = distinct_ ? normalize_floats(all.finish()) : all.finish();
    ValueCompare cmp = value_comparator(values);
    for (int64_t i = 0; i < n; ++i) {
      int32_t b = starts[static_cast<size_t>(i)], e = starts[static_cast<size_t>(i) + 1];
      if (distinct_) {
        for (int32_t p : distinct_positions(*values, cmp, b, e)) out.child(0).append_from(*values, p);
      } else {
        for (int32_t p = b; p < e; ++p) out.child(0).append_from(*values, p);
      }
      out.close_list();
    }
  }

 private:
  TypePtr element_;
  bool distinct_;
  bool unnest_;
};

/// The candidates of a group's frequent items and their counts; `size` is the most kept.
struct FrequentItemsState {
  int64_t size = 0;
  std::vector<std::pair<Value, int64_t>> items;
};

/// The frequent items of a group by the one-pass algorithm of Karp, Schenker and Papadimitriou,
/// as Spark's freqItems finds them: at most `size` candidates with counts; a value that is not a
/// candidate when the table is full takes the place of those whose count it reaches, and the
/// counts drop by the smallest. Every value of frequency above 1 / (size + 1) stays (with false
/// positives possible, which depend on the order rows arrive in). Nulls are values too.
class FrequentItems final : public HeapStateAggregate<FrequentItemsState> {
 public:
  void init(uint8_t* s) const override { state(s).create(); }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (n == 0) return;
    const int64_t size = args[1]->value_at(0).as_int();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      FrequentItemsState& s = *state(states[i]);
      s.size = size;
      add(s, c.type()->id() != TypeId::kNull && c.is_valid(i) ? c.value_at(i) : Value(), 1);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    FrequentItemsState& d = *state(dst);
    d.size = std::max(d.size, state(src)->size);
    for (const auto& [key, count] : state(src)->items) add(d, key, count);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      for (const auto& item : state(states[i])->items) out.child(0).append_value(item.first);
      out.close_list();
    }
  }

 private:
  static void add(FrequentItemsState& s, const Value& key, int64_t count) {
    auto& items = s.items;
    for (auto& item : items) {
      if (item.first == key) {
        item.second += count;
        return;
      }
    }
    if (static_cast<int64_t>(items.size()) < s.size) {
      items.emplace_back(key, count);
      return;
    }
    int64_t least = items.empty() ? 0 : items.front().second;
    for (const auto& item : items) least = std::min(least, item.second);
    if (count >= least) {
      items.emplace_back(key, count);
      std::erase_if(items, [&](const auto& item) { return item.second <= least; });
      for (auto& item : items) item.second -= least;
    } else {
      for (auto& item : items) item.second -= count;
    }
  }
};

FunctionDef collect_fn(const std::string& name, bool distinct, std::vector<std::string> aliases, std::string usage) {
  FunctionDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.kind = FunctionKind::kAggregate;
  d.min_args = d.max_args = 1;
  d.type_rule = [name, distinct](const std::vector<TypePtr>& args, const Config&) {
    if (distinct) {
      // Maps have no equality, and collated strings none that their bytes give.
      std::function<bool(const TypePtr&)> unsupported = [&](const TypePtr& t) {
        if (t->id() == TypeId::kMap || t->is_collated_string()) return true;
        for (auto& f : t->fields())
          if (unsupported(f.type)) return true;
        return false;
      };
      if (unsupported(args[0]))
        throw_type_mismatch("UNSUPPORTED_INPUT_TYPE",
                            "The input of `" + name + "` can't be \"MAP\" or \"COLLATED STRING\" type data.",
                            name + "(" + args[0]->sql() + ")");
    }
    Signature s;
    s.arg_types = args;
    s.result_type = DataType::array(args[0], false);
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [distinct](const Signature& sig, const EvalContext&) {
    return std::make_unique<Collect>(sig.arg_types[0], distinct);
  };
  d.usage = std::move(usage);
  return d;
}

}  // namespace

void register_collect_aggregates(Registry& r) {
  {
    FunctionDef d = collect_fn("collect_list", false, {"array_agg"},
                               "collect_list(expr) - Collects and returns a list of non-unique elements.");
    // array_agg is collect_list under another name; Spark names the column collect_list.
    d.render = [](const std::string&, const std::vector<std::string>& args) { return "collect_list(" + args[0] + ")"; };
    r.add(std::move(d));
  }
  r.add(collect_fn("collect_set", true, {}, "collect_set(expr) - Collects and returns a set of unique elements."));
  {
    // collect_frequent_items(col, size): freqItems' aggregate. Its array contains nulls when
    // the column may be null.
    FunctionDef d;
    d.name = "collect_frequent_items";
    d.kind = FunctionKind::kAggregate;
    d.internal = true;
    d.min_args = d.max_args = 2;
    d.constant_args = {1};
    d.arg_type_rule = [](const std::vector<ArgInfo>& args, const Config&) {
      Signature s;
      for (const auto& a : args) s.arg_types.push_back(a.type);
      s.result_type = DataType::array(args[0].type, args[0].nullable);
      s.null_if_any_arg_null = false;
      s.never_null = true;
      return s;
    };
    d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<FrequentItems>(); };
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "collect_union";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      if (args[0]->id() != TypeId::kArray)
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The first parameter requires the \"ARRAY\" type, however \"" + args[0]->sql() +
                                "\" has the type \"" + args[0]->sql() + "\".",
                            "collect_union(" + args[0]->sql() + ")");
      Signature s;
      s.arg_types = args;
      s.result_type = DataType::array(args[0]->element_type(), false);
      s.null_if_any_arg_null = false;
      s.never_null = true;
      return s;
    };
    d.aggregate = [](const Signature& sig, const EvalContext&) {
      return std::make_unique<Collect>(sig.arg_types[0]->element_type(), true, true);
    };
    d.usage = "collect_union(expr) - Collects and returns the set of unique elements of the array values.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
