#pragma once

#include <string>

#include "column/column.h"
#include "functions/function.h"

namespace ember::functions {

/// Whether Spark allows casting `from` to `to` (explicit CAST) under the given ANSI mode.
bool can_cast(const DataType& from, const DataType& to, bool ansi);

/// Casts a column with Spark's semantics: ANSI errors (CAST_INVALID_INPUT, CAST_OVERFLOW) or
/// nulls when `try_cast` or ANSI is off.
ColumnPtr cast_column(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx,
                      bool try_cast = false);

/// Java's Double.toString / Float.toString, which Spark uses to print floating point values:
/// "1.0", "1.0E10", "1.0E-5", "NaN", "Infinity", "-0.0".
std::string format_double(double v);
std::string format_float(float v);

}  // namespace ember::functions
