#pragma once

// Normalized sort keys: the sort keys of a row packed into one 128-bit unsigned integer whose
// natural order is the requested order (per key: direction, nulls first or last, Spark's
// ordering of floating point values with -0.0 = 0.0 and NaN greatest). Sorting then compares
// integers instead of calling a comparator per key and row.

#include <cstdint>
#include <vector>

#include "column/column.h"

namespace ember::exec {

using NormalizedKey = unsigned __int128;

struct NormalizedKeySpec {
  TypePtr type;
  bool ascending = true;
  bool nulls_first = true;
};

/// Whether keys of these types fit a normalized key exactly (fixed-width types, 16 bytes in all
/// with a null byte per key), so that equal normalized keys mean equal rows.
bool normalized_keys_fit(const std::vector<NormalizedKeySpec>& keys);

/// The normalized key of rows [begin, end) of `cols` (one column per spec) into out[0..).
void encode_normalized_keys(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
                            int64_t begin, int64_t end, NormalizedKey* out);

/// One row to sort: its key, then its position (the tie-breaker that keeps the sort stable).
struct SortEntry {
  NormalizedKey key;
  uint32_t row;
  bool operator<(const SortEntry& o) const { return key != o.key ? key < o.key : row < o.row; }
};

/// Sorts entries on all threads of the global pool (chunks sorted in parallel, then merged).
void parallel_sort(std::vector<SortEntry>& entries);

/// Sorts 128-bit integers on all threads of the global pool: a most-significant-digit radix
/// pass on the bits below the keys' common prefix (in parallel), then each bucket the same way
/// until buckets sort in cache.
void radix_sort(std::vector<NormalizedKey>& keys);

/// The entries (normalized key, row) of rows [0, n) of `cols`, encoded on all threads. The keys
/// must fit (normalized_keys_fit).
std::vector<SortEntry> normalized_entries(const std::vector<NormalizedKeySpec>& keys,
                                          const std::vector<ColumnPtr>& cols, int64_t n);

/// The first `limit` rows (all when `limit` < 0) of rows [0, n) of `cols` in the order `keys` ask
/// for, ties in row order (a stable sort). Rows are sorted by normalized keys on all threads: the
/// leading keys that fit 16 bytes (no null byte for a column without nulls; an integer column as
/// its distance from its smallest value, in the bytes its range needs; a prefix of the first
/// string or binary key that does not fit), values compared only where those are equal.
std::vector<int32_t> sort_order(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
                                int64_t n, int64_t limit);

/// sort_order of all rows.
std::vector<int32_t> stable_sort_order(const std::vector<NormalizedKeySpec>& keys,
                                       const std::vector<ColumnPtr>& cols, int64_t n);

}  // namespace ember::exec
