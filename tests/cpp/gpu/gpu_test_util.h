#pragma once

// Helpers for the GPU tests: bound expressions built by hand (as the physical planner would),
// the CPU operator trees they are compared against, and result comparison.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "exec/operators.h"
#include "functions/function.h"
#include "gpu/device.h"

namespace ember::gpu::test_util {

using exec::PhysExpr;
using exec::PhysExprPtr;

/// Skips the test when no usable GPU is present (CPU-only machines, builds without CUDA);
/// with EMBER_EXPECT_GPU=1 a missing GPU fails instead.
#define EMBER_REQUIRE_GPU()                                                          \
  do {                                                                               \
    const ::ember::gpu::DeviceInfo& info_ = ::ember::gpu::device_info();             \
    if (!info_.available) {                                                          \
      const char* expect_ = std::getenv("EMBER_EXPECT_GPU");                         \
      if (expect_ != nullptr && std::string(expect_) == "1") FAIL() << info_.reason; \
      GTEST_SKIP() << "no usable GPU: " << info_.reason;                             \
    }                                                                                \
  } while (0)

inline PhysExprPtr column(int i, TypePtr type, bool nullable = true) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kColumn;
  e->column = i;
  e->type = std::move(type);
  e->nullable = nullable;
  return e;
}

inline PhysExprPtr literal(Value v, TypePtr type) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kLiteral;
  e->nullable = v.is_null();
  e->value = std::move(v);
  e->type = std::move(type);
  return e;
}
inline PhysExprPtr i64(int64_t v) { return literal(Value::integer(v), DataType::long_()); }
inline PhysExprPtr i32(int64_t v) { return literal(Value::integer(v), DataType::int_()); }
inline PhysExprPtr f64(double v) { return literal(Value::floating(v), DataType::double_()); }
inline PhysExprPtr null_of(TypePtr t) { return literal(Value(), std::move(t)); }

inline PhysExprPtr cast(PhysExprPtr child, TypePtr to, bool try_cast = false) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kCast;
  e->type = std::move(to);
  e->try_cast = try_cast;
  e->nullable = true;
  e->children = {std::move(child)};
  return e;
}

/// A call with the analyzer's implicit casts to the signature's argument types.
inline PhysExprPtr call(const std::string& name, std::vector<PhysExprPtr> args,
                        const Config& conf = Config()) {
  const functions::FunctionDef* f = functions::Registry::instance().find(name);
  EXPECT_NE(f, nullptr) << name;
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type);
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kCall;
  e->function = f;
  e->signature = f->type_rule(types, conf);
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < e->signature.arg_types.size() && !args[i]->type->equals(*e->signature.arg_types[i]))
      args[i] = cast(args[i], e->signature.arg_types[i]);
  }
  e->type = e->signature.result_type;
  e->nullable = !e->signature.never_null;
  e->children = std::move(args);
  return e;
}

inline PhysExprPtr if_(PhysExprPtr c, PhysExprPtr a, PhysExprPtr b) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kIf;
  e->type = a->type;
  e->children = {std::move(c), std::move(a), std::move(b)};
  return e;
}

inline PhysExprPtr coalesce(std::vector<PhysExprPtr> args) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kCoalesce;
  e->type = args[0]->type;
  e->children = std::move(args);
  return e;
}

inline exec::AggregateCall aggregate(const std::string& name, std::vector<PhysExprPtr> args,
                                     PhysExprPtr filter = nullptr, const Config& conf = Config()) {
  exec::AggregateCall c;
  c.function = functions::Registry::instance().find(name);
  EXPECT_NE(c.function, nullptr) << name;
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type);
  c.signature = c.function->type_rule(types, conf);
  for (size_t i = 0; i < args.size(); ++i)
    if (i < c.signature.arg_types.size() && !args[i]->type->equals(*c.signature.arg_types[i]))
      args[i] = cast(args[i], c.signature.arg_types[i]);
  c.args = std::move(args);
  c.filter = std::move(filter);
  return c;
}

/// Every row of `batches` as values, sorted (for comparing unordered aggregate output).
inline std::vector<std::vector<Value>> sorted_rows(const std::vector<Batch>& batches) {
  std::vector<std::vector<Value>> rows;
  for (auto& b : batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::vector<Value> r;
      for (auto& c : b.columns) r.push_back(c->value_at(i));
      rows.push_back(std::move(r));
    }
  // Each column's kind, found once (Value does not expose it; a failed accessor throws, and
  // throwing per comparison made sorting hundreds of thousands of rows take a minute).
  enum Kind { kUnknown, kInt, kBool, kDouble, kBytes };
  size_t width = rows.empty() ? 0 : rows[0].size();
  std::vector<Kind> kinds(width, kUnknown);
  for (size_t c = 0; c < width; ++c)
    for (auto& r : rows) {
      const Value& v = r[c];
      if (v.is_null()) continue;
      try {
        v.as_int();
        kinds[c] = kInt;
      } catch (...) {
        try {
          v.as_bool();
          kinds[c] = kBool;
        } catch (...) {
          try {
            v.as_double();
            kinds[c] = kDouble;
          } catch (...) {
            try {
              v.as_bytes();
              kinds[c] = kBytes;
            } catch (...) {
            }
          }
        }
      }
      break;
    }
  auto less = [&kinds](const std::vector<Value>& a, const std::vector<Value>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      const Value &x = a[i], &y = b[i];
      if (x.is_null() != y.is_null()) return x.is_null();
      if (x.is_null()) continue;
      // Keys are integral, boolean or strings; other columns only break ties.
      switch (kinds[i]) {
        case kInt:
          if (x.as_int() != y.as_int()) return x.as_int() < y.as_int();
          break;
        case kBool:
          if (x.as_bool() != y.as_bool()) return x.as_bool() < y.as_bool();
          break;
        case kDouble:
          if (x.as_double() != y.as_double()) return x.as_double() < y.as_double();
          break;
        case kBytes:
          if (x.as_bytes() != y.as_bytes()) return x.as_bytes() < y.as_bytes();
          break;
        case kUnknown:
          break;
      }
    }
    return false;
  };
  std::sort(rows.begin(), rows.end(), less);
  return rows;
}

/// Equal values, doubles to a relative tolerance (the GPU sums in another order); NaN equals NaN.
inline ::testing::AssertionResult same_value(const Value& x, const Value& y, double tolerance) {
  if (x.is_null() || y.is_null()) {
    if (x.is_null() == y.is_null()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "one side is null";
  }
  if (x == y) return ::testing::AssertionSuccess();
  try {
    double a = x.as_double(), b = y.as_double();
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) && std::isnan(b)) return ::testing::AssertionSuccess();
      return ::testing::AssertionFailure() << a << " vs " << b;
    }
    if (a == b) return ::testing::AssertionSuccess();
    double scale = std::max({std::fabs(a), std::fabs(b), 1e-300});
    if (std::fabs(a - b) / scale <= tolerance || std::fabs(a - b) <= tolerance * 1e-3)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << a << " vs " << b << " (relative difference " << std::fabs(a - b) / scale << ")";
  } catch (...) {
  }
  if (x == y) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "values differ";
}

inline void expect_same_rows(const std::vector<Batch>& gpu, const std::vector<Batch>& cpu,
                             double tolerance = 1e-9) {
  auto g = sorted_rows(gpu), c = sorted_rows(cpu);
  ASSERT_EQ(g.size(), c.size());
  for (size_t r = 0; r < g.size(); ++r) {
    ASSERT_EQ(g[r].size(), c[r].size());
    for (size_t k = 0; k < g[r].size(); ++k)
      EXPECT_TRUE(same_value(g[r][k], c[r][k], tolerance)) << "row " << r << " column " << k;
  }
}

}  // namespace ember::gpu::test_util
