// Comparison operators (= <=> < <= > >=), with Spark's ordering of NaN (NaN equals NaN and is
// larger than any other value) and of strings (bytewise UTF-8, i.e. code point order).

#include <cmath>
#include <cstring>
#include <string_view>

#include "column/compare.h"
#include "functions/variant_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

enum class Cmp { kEq, kLt, kLe, kGt, kGe };

template <typename T>
int compare_values(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn || yn) return xn && yn ? 0 : (xn ? 1 : -1);
  }
  return x < y ? -1 : (x > y ? 1 : 0);
}

inline bool test(Cmp c, int r) {
  switch (c) {
    case Cmp::kEq: return r == 0;
    case Cmp::kLt: return r < 0;
    case Cmp::kLe: return r <= 0;
    case Cmp::kGt: return r > 0;
    default: return r >= 0;
  }
}

/// `x c y` in Spark's ordering, written with bitwise operators and no branch so that a loop
/// over rows vectorizes: a NaN equals a NaN and is larger than any other value.
template <Cmp C, typename T>
inline uint8_t compare_one(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool xn = x != x, yn = y != y;
    if constexpr (C == Cmp::kEq) return (x == y) | (xn & yn);
    else if constexpr (C == Cmp::kLt) return (x < y) | (!xn & yn);
    else if constexpr (C == Cmp::kLe) return (x <= y) | yn;
    else if constexpr (C == Cmp::kGt) return (x > y) | (xn & !yn);
    else return (x >= y) | xn;
  } else {
    if constexpr (C == Cmp::kEq) return x == y;
    else if constexpr (C == Cmp::kLt) return x < y;
    else if constexpr (C == Cmp::kLe) return x <= y;
    else if constexpr (C == Cmp::kGt) return x > y;
    else return x >= y;
  }
}

/// 16-byte vectors of the types compared a vector at a time (GCC/Clang vector extensions, so
/// any target with 16-byte vectors): the compiler at -O2 does not vectorize a loop of
/// `compare_one` by itself, and one vector compare replaces two to four scalar ones.
template <typename T>
struct Lanes {
  static constexpr bool kVector = false;
};
template <>
struct Lanes<double> {
  static constexpr bool kVector = true;
  typedef double V __attribute__((vector_size(16)));
  typedef int64_t M __attribute__((vector_size(16)));
};
template <>
struct Lanes<float> {
  static constexpr bool kVector = true;
  typedef float V __attribute__((vector_size(16)));
  typedef int32_t M __attribute__((vector_size(16)));
};
template <>
struct Lanes<int64_t> {
  static constexpr bool kVector = true;
  typedef int64_t V __attribute__((vector_size(16)));
  typedef int64_t M __attribute__((vector_size(16)));
};
template <>
struct Lanes<int32_t> {
  static constexpr bool kVector = true;
  typedef int32_t V __attribute__((vector_size(16)));
  typedef int32_t M __attribute__((vector_size(16)));
};

/// compare_one over a vector of lanes: all-ones lanes where `x c y`.
template <Cmp C, typename T, typename V = typename Lanes<T>::V, typename M = typename Lanes<T>::M>
inline M compare_lanes(V x, V y) {
  if constexpr (std::is_floating_point_v<T>) {
    const M xn = x != x, yn = y != y;
    if constexpr (C == Cmp::kEq) return (x == y) | (xn & yn);
    else if constexpr (C == Cmp::kLt) return (x < y) | (~xn & yn);
    else if constexpr (C == Cmp::kLe) return (x <= y) | yn;
    else if constexpr (C == Cmp::kGt) return (x > y) | (xn & ~yn);
    else return (x >= y) | xn;
  } else {
    if constexpr (C == Cmp::kEq) return x == y;
    else if constexpr (C == Cmp::kLt) return x < y;
    else if constexpr (C == Cmp::kLe) return x <= y;
    else if constexpr (C == Cmp::kGt) return x > y;
    else return x >= y;
  }
}

template <Cmp C, typename T>
void compare_fixed(const T* x, const T* y, int64_t n, uint8_t* out) {
  int64_t i = 0;
  if constexpr (Lanes<T>::kVector) {
    using V = typename Lanes<T>::V;
    using M = typename Lanes<T>::M;
    constexpr int64_t kLanes = 16 / sizeof(T);
    for (; i + kLanes <= n; i += kLanes) {
      V a, b;
      std::memcpy(&a, x + i, 16);
      std::memcpy(&b, y + i, 16);
      const M m = compare_lanes<C, T>(a, b);
      for (int64_t k = 0; k < kLanes; ++k) out[i + k] = static_cast<uint8_t>(m[k] & 1);
    }
  }
  for (; i < n; ++i) out[i] = compare_one<C>(x[i], y[i]);
}

/// Compares row i of a with row i of b for every row; writes 1/0 bytes.
void compare_rows(const ColumnPtr& a_col, const ColumnPtr& b_col, int64_t n, Cmp c, std::vector<uint8_t>& out) {
  out.assign(static_cast<size_t>(n), 0);
  const Column& a = *a_col;
  const Column& b = *b_col;
  TypeId id = a.type()->id();
  if (a.type()->is_nested()) {
    // Structs field by field, arrays element by element (column/compare.h); null rows are
    // masked by the caller.
    ValueCompare cmp = value_comparator(a_col, b_col);
    for (int64_t i = 0; i < n; ++i)
      if (a.is_valid(i) && b.is_valid(i)) out[i] = test(c, cmp(i, i));
    return;
  }
  if (id == TypeId::kString || id == TypeId::kBinary) {
    if (c == Cmp::kEq) {  // lengths first: most unequal strings never reach their bytes
      const int32_t* ao = a.offsets();
      const int32_t* bo = b.offsets();
      const char* ad = a.data_buffer() ? reinterpret_cast<const char*>(a.data_buffer()->data()) : nullptr;
      const char* bd = b.data_buffer() ? reinterpret_cast<const char*>(b.data_buffer()->data()) : nullptr;
      uint8_t* r = out.data();
      for (int64_t i = 0; i < n; ++i)
        r[i] = same_bytes({ad + ao[i], static_cast<size_t>(ao[i + 1] - ao[i])},
                          {bd + bo[i], static_cast<size_t>(bo[i + 1] - bo[i])});
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      int r = a.string_at(i).compare(b.string_at(i));
      out[i] = test(c, r);
    }
    return;
  }
  if (id == TypeId::kBoolean) {
    for (int64_t i = 0; i < n; ++i) out[i] = test(c, compare_values<int>(a.bool_at(i), b.bool_at(i)));
    return;
  }
  if (id == TypeId::kNull) return;
  dispatch_fixed(id, [&]<typename T>() {
    const T* x = a.values<T>();
    const T* y = b.values<T>();
    uint8_t* r = out.data();
    switch (c) {
      case Cmp::kEq: compare_fixed<Cmp::kEq>(x, y, n, r); break;
      case Cmp::kLt: compare_fixed<Cmp::kLt>(x, y, n, r); break;
      case Cmp::kLe: compare_fixed<Cmp::kLe>(x, y, n, r); break;
      case Cmp::kGt: compare_fixed<Cmp::kGt>(x, y, n, r); break;
      default: compare_fixed<Cmp::kGe>(x, y, n, r); break;
    }
  });
}

ScalarKernel compare_kernel(Cmp c) {
  return [c](const std::vector<ColumnPtr>& args, int64_t n, const Signature&, const EvalContext&) {
    std::vector<uint8_t> out;
    compare_rows(args[0], args[1], n, c, out);
    return make_bool_column(out, and_validity({args[0].get(), args[1].get()}, n), n);
  };
}

ColumnPtr null_safe_equal(const std::vector<ColumnPtr>& args, int64_t n, const Signature&,
                          const EvalContext&) {
  std::vector<uint8_t> out;
  compare_rows(args[0], args[1], n, Cmp::kEq, out);
  for (int64_t i = 0; i < n; ++i) {
    bool an = args[0]->is_null(i) || args[0]->type()->id() == TypeId::kNull;
    bool bn = args[1]->is_null(i) || args[1]->type()->id() == TypeId::kNull;
    if (an || bn) out[i] = an && bn;
  }
  return make_bool_column(out, nullptr, n);
}

/// Implicit casts for comparisons: numeric widening; a string against a non-string atomic
/// value is cast to that value's type.
TypeRule compare_rule(const char* sym) {
  return [sym](const std::vector<TypePtr>& args, const Config& conf) {
    TypePtr a = args[0], b = args[1];
    TypePtr common;
    if (a->id() == TypeId::kString && !b->is_nested() && b->id() != TypeId::kNull && b->id() != TypeId::kString) {
      common = b->id() == TypeId::kBinary ? b : b;
    } else if (b->id() == TypeId::kString && !a->is_nested() && a->id() != TypeId::kNull && a->id() != TypeId::kString) {
      common = a;
    } else {
      common = wider_type(a, b, conf.ansi_enabled());
    }
    std::string sql = args[0]->sql() + " " + sym + " " + args[1]->sql();
    if (!common) {
      throw_type_mismatch("BINARY_OP_DIFF_TYPES",
                          "the left and right operands of the binary operator have incompatible types (\"" +
                              args[0]->sql() + "\" and \"" + args[1]->sql() + "\").",
                          sql);
    }
    if (!orderable(*common))
      throw_type_mismatch("INVALID_ORDERING_TYPE",
                          "the " + std::string(sym) + " does not support ordering on type \"" + common->sql() + "\".",
                          sql);
    Signature s;
    s.arg_types = {common, common};
    s.result_type = DataType::boolean();
    return s;
  };
}

}  // namespace

void register_comparison(Registry& r) {
  struct Spec {
    const char* name;
    const char* sym;
    Cmp c;
    std::vector<std::string> aliases;
  };
  for (auto& s : {Spec{"==", "=", Cmp::kEq, {"="}}, Spec{"<", "<", Cmp::kLt, {}},
                  Spec{"<=", "<=", Cmp::kLe, {}}, Spec{">", ">", Cmp::kGt, {}},
                  Spec{">=", ">=", Cmp::kGe, {}}}) {
    FunctionDef d;
    d.name = s.name;
    d.aliases = s.aliases;
    d.min_args = d.max_args = 2;
    d.type_rule = compare_rule(s.sym);
    d.kernel = compare_kernel(s.c);
    d.display = Display::kInfix;
    d.display_name = s.sym;
    d.gpu_supported = true;
    d.usage = std::string("expr1 ") + s.sym + " expr2 - Compares two values.";
    r.add(std::move(d));
  }
  FunctionDef d;
  d.name = "<=>";
  d.aliases = {"equal_null"};
  d.min_args = d.max_args = 2;
  auto rule = compare_rule("<=>");
  d.type_rule = [rule](const std::vector<TypePtr>& args, const Config& conf) {
    Signature s = rule(args, conf);
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.kernel = null_safe_equal;
  d.display = Display::kInfix;
  d.gpu_supported = true;
  d.usage = "expr1 <=> expr2 - Returns same result as the EQUAL(=) operator for non-null operands, "
            "but returns true if both are null, false if one of them is null.";
  r.add(std::move(d));
}

}  // namespace ember::functions
