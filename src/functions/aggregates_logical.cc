// Aggregates over booleans and bits: count_if, bool_and (every), bool_or (some, any), and
// bit_and / bit_or / bit_xor over integral values. No non-null input gives null (count_if: 0).

#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

class CountIf final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(int64_t); }
  void init(uint8_t* s) const override { *reinterpret_cast<int64_t*>(s) = 0; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    for (int64_t i = 0; i < n; ++i)
      if (states[i] && c.is_valid(i) && c.bool_at(i)) ++*reinterpret_cast<int64_t*>(states[i]);
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    *reinterpret_cast<int64_t*>(dst) += *reinterpret_cast<const int64_t*>(src);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) out.append<int64_t>(*reinterpret_cast<const int64_t*>(states[i]));
  }
};

enum class BoolOp { kAnd, kOr };

enum class BitOp { kAnd, kOr, kXor };

template <typename T>
struct BitState {
  T value;
  bool has;
};

template <typename T>
class BitAgg final : public AggregateFunction {
 public:
  explicit BitAgg(BitOp op) : op_(op) {}
  size_t state_size() const override { return sizeof(BitState<T>); }
  void init(uint8_t* s) const override { *reinterpret_cast<BitState<T>*>(s) = {T{}, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    const T* x = c.values<T>();
    for (int64_t i = 0; i < n; ++i)
      if (states[i] && c.is_valid(i)) offer(reinterpret_cast<BitState<T>*>(states[i]), x[i]);
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* s = reinterpret_cast<const BitState<T>*>(src);
    if (s->has) offer(reinterpret_cast<BitState<T>*>(dst), s->value);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const BitState<T>*>(states[i]);
      if (s->has) out.append<T>(s->value);
      else out.append_null();
    }
  }

 private:
  void offer(BitState<T>* s, T v) const {
    if (!s->has) s->value = v;
    else if (op_ == BitOp::kAnd) s->value &= v;
    else if (op_ == BitOp::kOr) s->value |= v;
    else s->value ^= v;
    s->has = true;
  }
  BitOp op_;
};

void require_type(const std::string& fn, const TypePtr& t, bool ok, const char* wanted) {
  if (!ok)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        std::string("The first parameter requires the \"") + wanted + "\" type, however \"" +
                            t->sql() + "\" has the type \"" + t->sql() + "\".",
                        fn + "(" + t->sql() + ")");
}

}  // namespace

void register_logical_aggregates(Registry& r) {
  {
    FunctionDef d;
    d.name = "count_if";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      require_type("count_if", args[0], args[0]->id() == TypeId::kBoolean || args[0]->id() == TypeId::kNull,
                   "BOOLEAN");
      Signature s;
      s.arg_types = {DataType::boolean()};
      s.result_type = DataType::long_();
      s.null_if_any_arg_null = false;
      s.never_null = true;
      return s;
    };
    d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<CountIf>(); };
    d.usage = "count_if(expr) - Returns the number of `TRUE` values for the expression.";
    r.add(std::move(d));
  }
  for (BoolOp op : {BoolOp::kAnd, BoolOp::kOr}) {
    FunctionDef d;
    bool is_and = op == BoolOp::kAnd;
    d.name = is_and ? "bool_and" : "bool_or";
    d.aliases = is_and ? std::vector<std::string>{"every"} : std::vector<std::string>{"some", "any"};
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    std::string name = d.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      require_type(name, args[0], args[0]->id() == TypeId::kBoolean || args[0]->id() == TypeId::kNull, "BOOLEAN");
      Signature s;
      s.arg_types = {DataType::boolean()};
      s.result_type = DataType::boolean();
      s.null_if_any_arg_null = false;
      return s;
    };
    // false < true: every value true is the minimum, some value true the maximum.
    d.aggregate = [is_and](const Signature& sig, const EvalContext&) { return make_min_max(sig, !is_and); };
    d.usage = is_and ? "bool_and(expr) - Returns true if all values of `expr` are true."
                     : "bool_or(expr) - Returns true if at least one value of `expr` is true.";
    r.add(std::move(d));
  }
  struct Bit {
    const char* name;
    BitOp op;
    const char* usage;
  };
  for (Bit b : {Bit{"bit_and", BitOp::kAnd, "bit_and(expr) - Returns the bitwise AND of all non-null input values."},
                Bit{"bit_or", BitOp::kOr, "bit_or(expr) - Returns the bitwise OR of all non-null input values."},
                Bit{"bit_xor", BitOp::kXor, "bit_xor(expr) - Returns the bitwise XOR of all non-null input values."}}) {
    FunctionDef d;
    d.name = b.name;
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    std::string name = b.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      require_type(name, args[0], args[0]->is_integral() || args[0]->id() == TypeId::kNull, "INTEGRAL");
      Signature s;
      TypePtr t = args[0]->id() == TypeId::kNull ? DataType::byte() : args[0];
      s.arg_types = {t};
      s.result_type = t;
      s.null_if_any_arg_null = false;
      return s;
    };
    BitOp op = b.op;
    d.aggregate = [op](const Signature& sig, const EvalContext&) -> std::unique_ptr<AggregateFunction> {
      switch (sig.arg_types[0]->id()) {
        case TypeId::kByte: return std::make_unique<BitAgg<int8_t>>(op);
        case TypeId::kShort: return std::make_unique<BitAgg<int16_t>>(op);
        case TypeId::kInt: return std::make_unique<BitAgg<int32_t>>(op);
        default: return std::make_unique<BitAgg<int64_t>>(op);
      }
    };
    d.usage = b.usage;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
