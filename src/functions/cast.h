#pragma once

#include <string>

#include "column/column.h"
#include "functions/function.h"

namespace ember::functions {

/// Whether Spark allows casting `from` to `to` (explicit CAST) under the given ANSI mode.
bool can_cast(const DataType& from, const DataType& to, bool ansi);

/// The DATATYPE_MISMATCH of a cast can_cast refuses, in Spark's sub-class: a cast only ANSI mode
/// refuses suggests a function (DATE to a number: UNIX_DATE) or turning ANSI mode off;
/// CAST_WITHOUT_SUGGESTION otherwise. `sql` is the cast's text.
[[noreturn]] void throw_cast_mismatch(const DataType& from, const DataType& to, bool ansi, const std::string& sql);

/// Whether a cast from `from` to `to` may produce a null from a non-null value (a malformed
/// string, a value out of a decimal's range, NaN to an integer), which makes the cast's result
/// nullable in the schema whatever the ANSI mode, as Spark's Cast.forceNullable says.
bool cast_forces_null(const DataType& from, const DataType& to);

/// Casts a column with Spark's semantics: ANSI errors (CAST_INVALID_INPUT, CAST_OVERFLOW) or
/// nulls when `try_cast` or ANSI is off.
ColumnPtr cast_column(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx,
                      bool try_cast = false);

/// Casts an argument that Spark evaluates only when the arguments before it are not null (a
/// function's null-safe evaluation stops at its first null argument, so an implicit cast of a
/// later one never runs there): rows where one of `before` is null are null and are not cast,
/// so they raise no error.
ColumnPtr cast_after_valid(const std::vector<ColumnPtr>& before, const ColumnPtr& in, const TypePtr& to,
                           const EvalContext& ctx);

/// Casts to or from DECIMAL (decimal_cast.cc); null when neither side is a decimal or the pair
/// is not a numeric, boolean or string one.
ColumnPtr cast_decimal(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx, bool try_cast);

/// Java's Double.toString / Float.toString, which Spark uses to print floating point values:
/// "1.0", "1.0E10", "1.0E-5", "NaN", "Infinity", "-0.0".
std::string format_double(double v);
std::string format_float(float v);

}  // namespace ember::functions
