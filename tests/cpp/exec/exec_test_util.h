// What the operator tests share: physical expressions built by hand.
#pragma once

#include <memory>
#include <utility>

#include "exec/operators.h"

namespace ember::exec::test_util {

/// A reference to input column `i` of type `type`.
inline PhysExprPtr column(int i, TypePtr type) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kColumn;
  e->column = i;
  e->type = std::move(type);
  return e;
}

}  // namespace ember::exec::test_util
