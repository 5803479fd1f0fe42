#pragma once

// Nested values in the analyzer: how `struct(...)` names its fields and shows itself (Spark's
// CreateStruct rules), and which function an extraction `base[key]` becomes.

#include <string>
#include <vector>

#include "plan/expression.h"

namespace ember::plan {

/// The arguments of `named_struct` for `struct(args)`: each field's name as Spark derives it
/// (a column's or alias's name, the key of `s['f']`, the field of `s.f`, else `colN`) as a
/// string literal, followed by the value, an alias kept as Spark keeps it (Spark's toString, which
/// names a Python function's arguments, shows `struct(x, a AS x)`). `written` are the arguments
/// as the client sent them, `resolved` the same resolved.
std::vector<ExprPtr> struct_to_named_struct_args(const std::vector<ExprPtr>& written,
                                                 const std::vector<ExprPtr>& resolved);

/// Spark's text of `struct(args)`: aliases show as `value AS name`.
std::string struct_display(const std::vector<ExprPtr>& resolved);

/// The registry name of the subscript `base[key]` over an array or a map.
inline constexpr const char* kSubscriptFunction = "[]";

}  // namespace ember::plan
