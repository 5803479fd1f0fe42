#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "column/column.h"

namespace ember::exec {

/// Encodes the grouping key of each row as a compact byte string so that rows with equal keys
/// (in Spark's grouping semantics: nulls equal, NaN equal to NaN, -0.0 equal to 0.0) have equal
/// bytes. Used by hash aggregation and distinct; decoded back into columns for the output.
class KeyEncoder {
 public:
  explicit KeyEncoder(std::vector<TypePtr> types) : types_(std::move(types)) {}
  /// Appends the encoded key of every row to `arena` and records [offset, length) per row.
  void encode(const std::vector<ColumnPtr>& keys, int64_t n, std::string& arena,
              std::vector<uint32_t>& offsets, std::vector<uint32_t>& lengths) const;
  /// Decodes keys (each a pointer/length into some arena) into one column per key type.
  std::vector<ColumnPtr> decode(const std::vector<std::string_view>& keys) const;

 private:
  std::vector<TypePtr> types_;
};

uint64_t hash_bytes(const void* data, size_t len);

}  // namespace ember::exec
