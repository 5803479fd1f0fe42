// String aggregates: listagg / string_agg(expr[, delimiter]) — the group's non-null values
// concatenated in the order rows arrive, separated by a constant delimiter; STRING or BINARY.
// Other atomic inputs are cast to STRING; the delimiter takes the input's type (a null delimiter
// is the empty one). DISTINCT goes through the engine's generic distinct aggregate.

#include "functions/string_util.h"

namespace ember::functions {
namespace {

/// State: the concatenation so far (null until a value arrives) and the delimiter, kept from
/// the call's constant argument for merging.
struct ListAggState {
  std::string* text;
  std::string* delimiter;
};

class ListAgg final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(ListAggState); }
  void init(uint8_t* s) const override { *reinterpret_cast<ListAggState*>(s) = {nullptr, nullptr}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    std::string_view delim;
    if (args.size() > 1 && args[1]->length() > 0 && args[1]->type()->id() != TypeId::kNull && args[1]->is_valid(0))
      delim = args[1]->string_at(0);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      auto* s = reinterpret_cast<ListAggState*>(states[i]);
      if (!s->delimiter) s->delimiter = new std::string(delim);
      if (!s->text) {
        s->text = new std::string(c.string_at(i));
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
      d->text = new std::string(*s->text);
      d->delimiter = new std::string(*s->delimiter);
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
    delete s->text;
    delete s->delimiter;
    *s = {nullptr, nullptr};
  }
  bool needs_destroy() const override { return true; }
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
}

}  // namespace ember::functions
