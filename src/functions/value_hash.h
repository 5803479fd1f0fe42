#pragma once

// Spark's hash of one value as the `hash` and `xxhash64` functions fold it (nulls leave the seed
// unchanged, arrays fold their elements, maps each key then its value, structs their fields),
// shared with the aggregates that hash their input the same way (approx_count_distinct).

#include <cstdint>

#include "column/column.h"

namespace ember::functions {

/// Whether values of type `t` have a Spark hash here (numbers, strings, binaries, dates,
/// timestamps, decimals, and arrays, maps and structs of them).
bool value_hashable(const DataType& t);

/// XXH64 of row `i` of `c` with `seed`, as Spark's XxHash64Function hashes the value.
int64_t xxhash64_value(const Column& c, int64_t i, int64_t seed);

}  // namespace ember::functions
