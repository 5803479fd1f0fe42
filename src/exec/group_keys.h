#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "column/column.h"

namespace ember::exec {

/// Encodes the grouping key of each row as a compact byte string so that rows with equal keys
/// (in Spark's grouping semantics: nulls equal, NaN equal to NaN, -0.0 equal to 0.0) have equal
/// bytes. Used by hash aggregation and distinct; decoded back into columns for the output.
using PackedKey = unsigned __int128;

class KeyEncoder {
 public:
  explicit KeyEncoder(std::vector<TypePtr> types);
  /// Appends the encoded key of every row to `arena` and records [offset, length) per row.
  void encode(const std::vector<ColumnPtr>& keys, int64_t n, std::string& arena,
              std::vector<uint32_t>& offsets, std::vector<uint32_t>& lengths) const;
  /// Decodes keys (each a pointer/length into some arena) into one column per key type.
  std::vector<ColumnPtr> decode(const std::vector<std::string_view>& keys) const;

  /// Packed keys: when every key type is fixed width and the keys fit in 16 bytes (a null flag
  /// byte and the value bytes per key), each row's key is one 128-bit integer, equal for rows
  /// of equal keys in the grouping semantics above. True when this encoder's types allow it.
  bool can_pack() const { return packed_width_ >= 0 && short_string_width_ == 0; }
  void encode_packed(const std::vector<ColumnPtr>& keys, int64_t n, PackedKey* out) const;
  std::vector<ColumnPtr> decode_packed(const PackedKey* keys, int64_t n) const;

  /// Packed keys with strings: when the keys are fixed width, strings or binaries, and each
  /// string gets at least one byte of the 16 (a length byte, 0 for null, then the string
  /// zero-padded to short_string_width() bytes), keys whose strings are all short enough pack
  /// as above. True when this encoder's types have strings and allow it.
  bool can_pack_short_strings() const { return packed_width_ >= 0 && short_string_width_ > 0; }
  int short_string_width() const { return short_string_width_; }
  /// Packs every row's key, fixed-width and short-string layouts alike. False (and `out`
  /// unspecified) when a string of some row is longer than short_string_width().
  bool try_encode_packed(const std::vector<ColumnPtr>& keys, int64_t n, PackedKey* out) const;

 private:
  std::vector<TypePtr> types_;
  std::vector<int> packed_offsets_;  // byte offset of each key's null flag in a packed key
  int packed_width_ = -1;
  int short_string_width_ = 0;       // value bytes of each string key; 0: no string keys
};

/// Codes of the rows' keys over a small domain, computed without encoding the keys: when every
/// key column is dictionary-coded (Column::dictionary_codes), boolean, all null, or
/// integer-valued with a narrow range of values among the first `n` rows, row i gets a code in
/// [0, *domain) and rows of equal codes have equal keys (nulls included, each key's null its own
/// code). Rows of different codes may still have equal keys (a dictionary may repeat a value),
/// so codes find the distinct rows of a batch, and their keys still decide the groups. False
/// when a key allows no such code or the domain would exceed `max_domain`.
bool small_domain_codes(const std::vector<ColumnPtr>& keys, int64_t n, uint32_t max_domain,
                        std::vector<uint32_t>& codes, uint32_t* domain);

uint64_t hash_bytes(const void* data, size_t len);

inline uint64_t hash_packed(PackedKey k) {
  uint64_t lo = static_cast<uint64_t>(k), hi = static_cast<uint64_t>(k >> 64);
  uint64_t h = (lo ^ (hi * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
  h ^= h >> 32;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

}  // namespace ember::exec
