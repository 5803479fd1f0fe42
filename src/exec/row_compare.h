#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "column/column.h"
#include "column/compare.h"

namespace ember::exec {

/// Compares rows of several key columns in Spark's sort order: each key ascending or
/// descending, with nulls first or last. Rows are positions in the key columns.
class RowComparator {
 public:
  RowComparator(std::vector<ColumnPtr> keys, std::vector<bool> ascending, std::vector<bool> nulls_first);
  /// <0 when row a sorts before row b, 0 when they are peers, >0 otherwise.
  int compare(int64_t a, int64_t b) const;
  bool less(int64_t a, int64_t b) const { return compare(a, b) < 0; }
  bool empty() const { return keys_.empty(); }

 private:
  std::vector<ColumnPtr> keys_;
  std::vector<ValueCompare> cmps_;
  std::vector<bool> ascending_, nulls_first_, null_type_;
};

}  // namespace ember::exec
