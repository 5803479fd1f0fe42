#include "exec/join_hash_table.h"

#include <cstring>

#include "common/error.h"
#include "exec/group_keys.h"

namespace ember::exec {

std::vector<uint8_t> null_key_rows(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                                   int64_t n) {
  std::vector<uint8_t> out(static_cast<size_t>(n), 0);
  for (size_t k = 0; k < keys.size(); ++k) {
    if (null_safe[k]) continue;
    const Column& c = *keys[k];
    if (c.type()->id() == TypeId::kNull) {
      std::fill(out.begin(), out.end(), 1);
      continue;
    }
    if (!c.may_have_nulls()) continue;
    for (int64_t i = 0; i < n; ++i)
      if (c.is_null(i)) out[static_cast<size_t>(i)] = 1;
  }
  return out;
}

namespace {
std::vector<TypePtr> types_of(const std::vector<ColumnPtr>& keys) {
  std::vector<TypePtr> t;
  for (auto& k : keys) t.push_back(k->type());
  return t;
}
}  // namespace

void JoinHashTable::build(Batch rows, const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe) {
  rows_ = std::move(rows);
  const int64_t n = rows_.num_rows;
  if (n > INT32_MAX - 1)
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR", "join build side exceeds 2^31 rows");
  KeyEncoder encoder(types_of(keys));
  std::vector<uint8_t> skip = null_key_rows(keys, null_safe, n);
  packed_ = encoder.can_pack();
  if (packed_) {
    std::vector<PackedKey> packed(static_cast<size_t>(n));
    encoder.encode_packed(keys, n, packed.data());
    uint64_t buckets = 16;
    while (buckets < static_cast<uint64_t>(n) * 2) buckets <<= 1;
    mask_ = buckets - 1;
    slots_.assign(buckets, PackedSlot{0, -1});
    next_.assign(static_cast<size_t>(n), -1);
    // Insert in reverse so that each chain lists rows in build order.
    for (int64_t i = n - 1; i >= 0; --i) {
      size_t r = static_cast<size_t>(i);
      if (skip[r]) continue;
      PackedKey k = packed[r];
      size_t pos = hash_packed(k) & mask_;
      while (slots_[pos].first >= 0 && slots_[pos].key != k) pos = (pos + 1) & mask_;
      next_[r] = slots_[pos].first;
      slots_[pos].key = k;
      slots_[pos].first = static_cast<int32_t>(i);
    }
    return;
  }
  encoder.encode(keys, n, arena_, offsets_, lengths_);
  uint64_t buckets = 16;
  while (buckets < static_cast<uint64_t>(n) * 2) buckets <<= 1;
  mask_ = buckets - 1;
  heads_.assign(buckets, -1);
  next_.assign(static_cast<size_t>(n), -1);
  hashes_.resize(static_cast<size_t>(n));
  // Insert in reverse so that each chain lists rows in build order.
  for (int64_t i = n - 1; i >= 0; --i) {
    size_t r = static_cast<size_t>(i);
    if (skip[r]) continue;
    hashes_[r] = hash_bytes(arena_.data() + offsets_[r], lengths_[r]);
    int32_t& head = heads_[hashes_[r] & mask_];
    next_[r] = head;
    head = static_cast<int32_t>(i);
  }
}

void JoinHashTable::probe(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe, int64_t n,
                          std::vector<int32_t>& probe_rows, std::vector<int32_t>& build_rows) const {
  if (rows_.num_rows == 0 || n == 0) return;
  if (packed_) {
    KeyEncoder encoder(types_of(keys));
    std::vector<PackedKey> packed(static_cast<size_t>(n));
    encoder.encode_packed(keys, n, packed.data());
    std::vector<uint8_t> skip = null_key_rows(keys, null_safe, n);
    for (int64_t i = 0; i < n; ++i) {
      size_t r = static_cast<size_t>(i);
      if (skip[r]) continue;
      PackedKey k = packed[r];
      size_t pos = hash_packed(k) & mask_;
      while (slots_[pos].first >= 0 && slots_[pos].key != k) pos = (pos + 1) & mask_;
      for (int32_t b = slots_[pos].first; b >= 0; b = next_[static_cast<size_t>(b)]) {
        probe_rows.push_back(static_cast<int32_t>(i));
        build_rows.push_back(b);
      }
    }
    return;
  }
  std::string arena;
  std::vector<uint32_t> offsets, lengths;
  KeyEncoder(types_of(keys)).encode(keys, n, arena, offsets, lengths);
  std::vector<uint8_t> skip = null_key_rows(keys, null_safe, n);
  for (int64_t i = 0; i < n; ++i) {
    size_t r = static_cast<size_t>(i);
    if (skip[r]) continue;
    const char* key = arena.data() + offsets[r];
    uint32_t len = lengths[r];
    uint64_t h = hash_bytes(key, len);
    for (int32_t b = heads_[h & mask_]; b >= 0; b = next_[static_cast<size_t>(b)]) {
      size_t br = static_cast<size_t>(b);
      if (hashes_[br] != h || lengths_[br] != len || std::memcmp(arena_.data() + offsets_[br], key, len) != 0) continue;
      probe_rows.push_back(static_cast<int32_t>(i));
      build_rows.push_back(b);
    }
  }
}

}  // namespace ember::exec
