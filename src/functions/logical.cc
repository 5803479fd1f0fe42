// Boolean connectives with SQL's three-valued logic, and null tests.

#include <cmath>
#include <tuple>

#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

Signature boolean_args(const std::vector<TypePtr>& args, const char* name) {
  Signature s;
  for (auto& t : args) {
    if (t->id() != TypeId::kBoolean && t->id() != TypeId::kNull)
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("the ") + name + " requires the input type \"BOOLEAN\", not \"" +
                              t->sql() + "\".",
                          name);
    s.arg_types.push_back(DataType::boolean());
  }
  s.result_type = DataType::boolean();
  return s;
}

/// AND / OR over three-valued booleans: `dominant` is the value that decides the result
/// alone (false for AND, true for OR).
ColumnPtr connective(const Column& a, const Column& b, int64_t n, bool dominant) {
  // Byte at a time over the bitmaps: per bit, t = valid and true, f = valid and false.
  // AND is true where both are true, and valid where both are valid or either is false;
  // OR is true where either is true, and valid where both are valid or either is true.
  const int64_t bytes = bitmap_bytes(n);
  auto data = Buffer::allocate(static_cast<size_t>(bytes));
  const bool any_null = a.may_have_nulls() || b.may_have_nulls();
  BufferPtr validity = any_null ? Buffer::allocate(static_cast<size_t>(bytes)) : nullptr;
  // A column of only nulls may have no data buffer: its bits read as false.
  std::vector<uint8_t> a_zero, b_zero;
  auto bits = [&](const Column& c, std::vector<uint8_t>& zero) -> const uint8_t* {
    if (c.data_buffer() && c.data_buffer()->size() >= static_cast<size_t>(bytes)) return c.data_buffer()->data();
    zero.assign(static_cast<size_t>(bytes), 0);
    return zero.data();
  };
  const uint8_t* ad = bits(a, a_zero);
  const uint8_t* bd = bits(b, b_zero);
  const uint8_t* av = a.validity_bits();
  const uint8_t* bv = b.validity_bits();
  uint8_t* out = data->mutable_data();
  uint8_t* out_valid = validity ? validity->mutable_data() : nullptr;
  for (int64_t i = 0; i < bytes; ++i) {
    uint8_t va = av ? av[i] : 0xFF, vb = bv ? bv[i] : 0xFF;
    uint8_t ta = ad[i] & va, tb = bd[i] & vb;
    if (dominant) {
      out[i] = ta | tb;
      if (out_valid) out_valid[i] = (va & vb) | ta | tb;
    } else {
      out[i] = ta & tb;
      if (out_valid) out_valid[i] = (va & vb) | (va & ~ad[i]) | (vb & ~bd[i]);
    }
  }
  return Column::make(DataType::boolean(), n, validity, data);
}

ColumnPtr not_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature&, const EvalContext&) {
  const Column& a = *args[0];
  auto data = Buffer::allocate(static_cast<size_t>(bitmap_bytes(n)));
  const uint8_t* in = a.data_buffer()->data();
  for (int64_t i = 0; i < bitmap_bytes(n); ++i) data->mutable_data()[i] = static_cast<uint8_t>(~in[i]);
  return Column::make(DataType::boolean(), n, a.validity_buffer(), data);
}

Signature any_arg_boolean(const std::vector<TypePtr>& args) {
  Signature s;
  s.arg_types = args;
  s.result_type = DataType::boolean();
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

ColumnPtr null_test(const Column& a, int64_t n, bool want_null) {
  std::vector<uint8_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[i] = (a.is_null(i) || a.type()->id() == TypeId::kNull) == want_null;
  return make_bool_column(out, nullptr, n);
}

}  // namespace

void register_logical(Registry& r) {
  for (auto [name, sym, dominant] : {std::tuple{"and", "AND", false}, std::tuple{"or", "OR", true}}) {
    FunctionDef d;
    d.name = name;
    d.min_args = d.max_args = 2;
    d.type_rule = [name = name](const std::vector<TypePtr>& args, const Config&) {
      Signature s = boolean_args(args, name);
      s.null_if_any_arg_null = false;
      return s;
    };
    bool dom = dominant;
    d.kernel = [dom](const std::vector<ColumnPtr>& args, int64_t n, const Signature&, const EvalContext&) {
      return connective(*args[0], *args[1], n, dom);
    };
    d.display = Display::kInfix;
    d.display_name = sym;
    d.gpu_supported = true;
    d.usage = std::string("expr1 ") + sym + " expr2 - Logical " + sym + ".";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "not";
    d.aliases = {"!"};
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) { return boolean_args(args, "not"); };
    d.kernel = not_kernel;
    d.display = Display::kPrefix;
    d.display_name = "NOT";
    d.gpu_supported = true;
    d.usage = "not expr - Logical not.";
    r.add(std::move(d));
  }
  for (auto [name, want_null, shown] : {std::tuple{"isnull", true, "IS NULL"}, std::tuple{"isnotnull", false, "IS NOT NULL"}}) {
    FunctionDef d;
    d.name = name;
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) { return any_arg_boolean(args); };
    bool w = want_null;
    d.kernel = [w](const std::vector<ColumnPtr>& args, int64_t n, const Signature&, const EvalContext&) {
      return null_test(*args[0], n, w);
    };
    d.display = Display::kPostfix;
    d.display_name = shown;
    d.gpu_supported = true;
    d.usage = std::string("expr ") + shown + " - Null test.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "isnan";
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      if (!args[0]->is_numeric() && args[0]->id() != TypeId::kNull)
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The first parameter requires the (\"DOUBLE\" or \"FLOAT\") type, however \"" +
                                args[0]->sql() + "\" has the type \"" + args[0]->sql() + "\".",
                            "isnan(" + args[0]->sql() + ")");
      Signature s;
      s.arg_types = {DataType::double_()};
      s.result_type = DataType::boolean();
      s.null_if_any_arg_null = false;
      s.never_null = true;
      return s;
    };
    d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature&, const EvalContext&) {
      std::vector<uint8_t> out(static_cast<size_t>(n));
      const double* x = args[0]->values<double>();
      for (int64_t i = 0; i < n; ++i) out[i] = args[0]->is_valid(i) && std::isnan(x[i]);
      return make_bool_column(out, nullptr, n);
    };
    d.gpu_supported = true;
    d.usage = "isnan(expr) - Returns true if expr is NaN, or false otherwise.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
