#pragma once

// Sorting on the device: a stable least-significant-key-first radix sort over normalized keys
// (CUB's DeviceRadixSort), which yields the permutation of the rows; the host gathers them.
//
// Each key becomes an unsigned integer whose order is Spark's: integers with the sign bit
// flipped, floating values by their bits with negative values inverted (-0.0 as 0.0, every NaN
// as one NaN above +Infinity), booleans as 0/1, every bit inverted for a descending key, using
// only the key's own width so that narrow keys take fewer radix passes. Nulls are ordered by a
// second one-bit pass over the same key. Keys are sorted from the last to the first, each pass
// stable, so ties keep the input order, as the CPU sort does.

#include <cstdint>
#include <vector>

#include "column/column.h"

namespace ember::gpu {

class Runtime;
class DeviceMemoryPool;
class Stream;

struct SortColumn {
  const Column* column;
  bool ascending = true;
  bool nulls_first = true;
};

/// Whether keys of type `t` sort on the device (booleans, integral, date, timestamp, floating,
/// and the null type).
bool sortable_on_device(const DataType& t);

/// The stable order of `rows` rows by `keys` (indices into the rows). Throws GpuOutOfMemory,
/// GpuError, or Unsupported (more than 2^31 - 1 rows, a type the device does not sort).
std::vector<int32_t> sort_permutation(const std::vector<SortColumn>& keys, int64_t rows,
                                      DeviceMemoryPool& pool, const Stream& stream);

}  // namespace ember::gpu
