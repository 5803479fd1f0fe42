// Aggregates that collect values into arrays: collect_list (array_agg), collect_set and
// collect_union (the set of the elements of array inputs). All skip nulls (collect_union also
// null elements); the set forms keep the first occurrence of each value.

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
    // collect_set keeps one zero: Spark normalizes -0.0 to 0.0 before it compares values.
    const bool normalize_zero = distinct_ && element_->is_floating();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      Value v = c.value_at(i);
      if (normalize_zero && v.as_double() == 0.0) v = Value::floating(0.0);
      state(states[i])->push_back(std::move(v));
    }
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
    ColumnPtr values = all.finish();
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

FunctionDef collect_fn(const std::string& name, bool distinct, std::vector<std::string> aliases, std::string usage) {
  FunctionDef d;
  d.name = name;
  d.aliases = std::move(aliases);
  d.kind = FunctionKind::kAggregate;
  d.min_args = d.max_args = 1;
  d.type_rule = [name, distinct](const std::vector<TypePtr>& args, const Config&) {
    if (distinct) {
      std::function<bool(const TypePtr&)> has_map = [&](const TypePtr& t) {
        if (t->id() == TypeId::kMap) return true;
        for (auto& f : t->fields())
          if (has_map(f.type)) return true;
        return false;
      };
      if (has_map(args[0]))
        throw_type_mismatch("UNSUPPORTED_INPUT_TYPE",
                            "The input of `" + name + "` can't be \"MAP\" type data.", name + "(" + args[0]->sql() + ")");
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
