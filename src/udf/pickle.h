#pragma once

// Python's pickle format (protocol 3), write side only, for the constant values Spark hands
// a Python worker as Python objects: a table function's constant `analyze` arguments. Values
// take PySpark's internal form of their type (DataType.toInternal): dates as days and
// timestamps as microseconds (ints), decimals as decimal.Decimal, binary as bytes, arrays
// as lists, maps as dicts and structs as tuples; the worker converts them with fromInternal.

#include <optional>
#include <string>

#include "column/value.h"

namespace ember::udf {

/// The pickled bytes of `v` of `type`; nullopt for a type that has no Python form here
/// (intervals, variant, time), which the caller passes as a non-constant argument instead.
std::optional<std::string> pickle_value(const Value& v, const DataType& type);

}  // namespace ember::udf
