#pragma once

// Building blocks shared by the vectorized kernels: null propagation, typed dispatch and the
// loops that every unary and binary kernel needs, so each function states only its operation.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "column/column.h"
#include "common/error.h"
#include "functions/function.h"

namespace ember::functions {

/// Whether two byte strings are equal. Short strings (the flags, codes and names that filters
/// compare most) are compared with two overlapping word loads inside each string, not a call.
inline bool same_bytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  auto load8 = [](const char* p) { uint64_t v; std::memcpy(&v, p, 8); return v; };
  auto load4 = [](const char* p) { uint32_t v; std::memcpy(&v, p, 4); return v; };
  if (n >= 8) {
    if (n > 32) return std::memcmp(x, y, n) == 0;
    const bool ends = load8(x) == load8(y) && load8(x + n - 8) == load8(y + n - 8);
    if (n <= 16 || !ends) return ends;
    return load8(x + 8) == load8(y + 8) && load8(x + n - 16) == load8(y + n - 16);
  }
  if (n >= 4) return load4(x) == load4(y) && load4(x + n - 4) == load4(y + n - 4);
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}

/// AND of the validity bitmaps of `cols` over n rows; null when every row is valid.
BufferPtr and_validity(const std::vector<const Column*>& cols, int64_t n);

/// Dispatches `f.template operator()<T>()` on the C++ storage type of a fixed-width type id.
template <typename F>
decltype(auto) dispatch_fixed(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kByte: return f.template operator()<int8_t>();
    case TypeId::kShort: return f.template operator()<int16_t>();
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kYearMonthInterval: return f.template operator()<int32_t>();
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kDayTimeInterval: return f.template operator()<int64_t>();
    case TypeId::kFloat: return f.template operator()<float>();
    case TypeId::kDouble: return f.template operator()<double>();
    case TypeId::kDecimal: return f.template operator()<int128_t>();
    default: EMBER_UNREACHABLE("dispatch_fixed: not a fixed-width type");
  }
}

/// out[i] = op(a[i], b[i]) over fixed-width inputs. `Op` returns the value; it is applied to
/// every row when `kMayThrow` is false (cheap, branch-free), and only to valid rows otherwise,
/// so that ANSI errors are raised only for real values.
template <typename A, typename B, typename R, bool kMayThrow, typename Op>
ColumnPtr binary_fixed(const Column& a, const Column& b, int64_t n, const TypePtr& rtype, Op op) {
  BufferPtr validity = and_validity({&a, &b}, n);
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(R));
  const A* x = a.values<A>();
  const B* y = b.values<B>();
  R* out = data->mutable_as<R>();
  if constexpr (kMayThrow) {
    const uint8_t* v = validity ? validity->data() : nullptr;
    for (int64_t i = 0; i < n; ++i) out[i] = (!v || get_bit(v, i)) ? op(x[i], y[i]) : R{};
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = op(x[i], y[i]);
  }
  return Column::make(rtype, n, validity, data);
}

/// Like binary_fixed, but `op(x, y, &out)` returns false to make the row null.
template <typename A, typename B, typename R, typename Op>
ColumnPtr binary_fixed_nullable(const Column& a, const Column& b, int64_t n, const TypePtr& rtype,
                                Op op) {
  BufferPtr in_valid = and_validity({&a, &b}, n);
  auto validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(R));
  const A* x = a.values<A>();
  const B* y = b.values<B>();
  R* out = data->mutable_as<R>();
  const uint8_t* v = in_valid ? in_valid->data() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = R{};
    if ((!v || get_bit(v, i)) && op(x[i], y[i], &out[i])) set_bit(validity->mutable_data(), i);
  }
  return Column::make(rtype, n, validity, data);
}

/// out[i] = op(a[i]) over a fixed-width input.
template <typename A, typename R, bool kMayThrow, typename Op>
ColumnPtr unary_fixed(const Column& a, int64_t n, const TypePtr& rtype, Op op) {
  BufferPtr validity = a.validity_buffer();
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(R));
  const A* x = a.values<A>();
  R* out = data->mutable_as<R>();
  if constexpr (kMayThrow) {
    for (int64_t i = 0; i < n; ++i) out[i] = a.is_valid(i) ? op(x[i]) : R{};
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = op(x[i]);
  }
  return Column::make(rtype, n, validity, data);
}

/// A signature that takes its arguments as they are and returns `result`.
inline Signature same_args(const std::vector<TypePtr>& args, TypePtr result) {
  Signature s;
  s.arg_types = args;
  s.result_type = std::move(result);
  return s;
}

/// Spark's ANSI arithmetic errors, shared by every kernel that raises them. `try_fn` names the
/// try_ variant the message suggests (none when null).
[[noreturn]] void throw_arithmetic_overflow(const std::string& type_word, const char* try_fn);
/// ARITHMETIC_OVERFLOW with Spark's own message ("Overflow in integral divide").
[[noreturn]] void throw_arithmetic_overflow_message(const std::string& message, const char* try_fn);
[[noreturn]] void throw_divide_by_zero();
[[noreturn]] void throw_remainder_by_zero();
/// BINARY_ARITHMETIC_OVERFLOW, what + - * of TINYINT and SMALLINT raise: Spark shows both
/// operands as SMALLINT literals (`127S + 1S`).
[[noreturn]] void throw_binary_arithmetic_overflow(int64_t left, const char* symbol, int64_t right,
                                                   const char* try_fn);

/// Packs a byte-per-row predicate result into a boolean column.
ColumnPtr make_bool_column(const std::vector<uint8_t>& values, BufferPtr validity, int64_t n);

}  // namespace ember::functions
