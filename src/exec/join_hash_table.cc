#include "exec/join_hash_table.h"

#include <algorithm>
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

/// Calls `f(values)` with the column's values as a pointer to its signed integer storage type.
template <typename F>
void with_int_values(const Column& c, F&& f) {
  switch (c.type()->byte_width()) {
    case 1: f(c.values<int8_t>()); break;
    case 2: f(c.values<int16_t>()); break;
    case 4: f(c.values<int32_t>()); break;
    default: f(c.values<int64_t>()); break;
  }
}

uint64_t buckets_for(int64_t rows) {
  uint64_t buckets = 16;
  while (buckets < static_cast<uint64_t>(rows) * 2) buckets <<= 1;
  return buckets;
}

// How far ahead of the row being probed its table slot is fetched into cache.
constexpr int64_t kPrefetchAhead = 16;

/// Pairs written in place at the end of the probe and build lists, at most one per probe row,
/// without a branch on whether a row matched: room for `n` pairs is made first, each row writes
/// its pair at the count kept so far and advances it when the pair counts, and `keep` cuts the
/// lists to the pairs kept.
struct PairsInPlace {
  PairsInPlace(std::vector<int32_t>& probe_rows, std::vector<int32_t>& build_rows, int64_t n)
      : probe(probe_rows), build(build_rows), base(probe_rows.size()) {
    probe.resize(base + static_cast<size_t>(n));
    build.resize(base + static_cast<size_t>(n));
  }
  int32_t* probe_out() { return probe.data() + base; }
  int32_t* build_out() { return build.data() + base; }
  void keep(int64_t m) {
    probe.resize(base + static_cast<size_t>(m));
    build.resize(base + static_cast<size_t>(m));
  }
  std::vector<int32_t>& probe;
  std::vector<int32_t>& build;
  const size_t base;
};

}  // namespace

bool JoinHashTable::try_int_keys(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                                 const std::vector<uint8_t>& skip, bool may_reorder) {
  if (keys.empty()) return false;
  for (size_t k = 0; k < keys.size(); ++k)
    if (null_safe[k] || !keys[k]->type()->is_integer_valued()) return false;
  const int64_t n = rows_.num_rows;
  const size_t nk = keys.size();
  key_min_.assign(nk, INT64_MAX);
  key_max_.assign(nk, INT64_MIN);
  for (size_t k = 0; k < nk; ++k) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    with_int_values(*keys[k], [&](const auto* x) {
      for (int64_t i = 0; i < n; ++i) {
        if (skip[static_cast<size_t>(i)]) continue;
        int64_t v = x[i];
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    });
    if (lo > hi) lo = hi = 0;  // no row can match
    key_min_[k] = lo;
    key_max_[k] = hi;
  }
  // The combined key's range must stay below 2^62: -1 marks rows that cannot match.
  key_stride_.assign(nk, 1);
  __int128 total = 1;
  for (size_t k = nk; k-- > 0;) {
    key_stride_[k] = static_cast<int64_t>(total);
    total *= static_cast<__int128>(key_max_[k]) - key_min_[k] + 1;
    if (total >= (static_cast<__int128>(1) << 62)) return false;
  }
  const int64_t range = static_cast<int64_t>(total);
  mode_ = range <= std::max<int64_t>(4 * n, 1024) && range <= (int64_t{1} << 30) ? Mode::kDirect : Mode::kInt64;
  std::vector<int64_t> combined;
  combine_int_keys(keys, n, combined);
  next_.assign(static_cast<size_t>(n), -1);
  unique_keys_ = true;
  if (mode_ == Mode::kDirect) {
    direct_.assign(static_cast<size_t>(range), -1);
    // Insert in reverse so that each chain lists rows in build order.
    for (int64_t i = n - 1; i >= 0; --i) {
      int64_t key = combined[static_cast<size_t>(i)];
      if (key < 0) continue;
      int32_t& head = direct_[static_cast<size_t>(key)];
      if (head >= 0) unique_keys_ = false;
      next_[static_cast<size_t>(i)] = head;
      head = static_cast<int32_t>(i);
    }
    if (may_reorder && unique_keys_ && std::find(direct_.begin(), direct_.end(), -1) == direct_.end()) {
      // Every key of the range is present once: the rows move into key order (the rows that
      // cannot match after them), so that row k holds key k.
      std::vector<int32_t> order(direct_.begin(), direct_.end());
      order.reserve(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        if (combined[static_cast<size_t>(i)] < 0) order.push_back(static_cast<int32_t>(i));
      rows_ = gather_batch(rows_, order.data(), n);
      for (int64_t k = 0; k < range; ++k) direct_[static_cast<size_t>(k)] = static_cast<int32_t>(k);
      dense_keys_ = true;
    }
    return true;
  }
  uint64_t buckets = buckets_for(n);
  mask_ = buckets - 1;
  int_slots_.assign(buckets, Int64Slot{0, -1});
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t key = combined[static_cast<size_t>(i)];
    if (key < 0) continue;
    size_t pos = join_int_hash(key) & mask_;
    while (int_slots_[pos].first >= 0 && int_slots_[pos].key != key) pos = (pos + 1) & mask_;
    if (int_slots_[pos].first >= 0) unique_keys_ = false;
    next_[static_cast<size_t>(i)] = int_slots_[pos].first;
    int_slots_[pos].key = key;
    int_slots_[pos].first = static_cast<int32_t>(i);
  }
  return true;
}

JoinHashTable::IntIndex JoinHashTable::int_index() const {
  return IntIndex{mode_, direct_.data(), direct_.size(), int_slots_.data(), int_slots_.size(),
                  mask_, next_.data(), next_.size()};
}

void JoinHashTable::combine_int_keys(const std::vector<ColumnPtr>& keys, int64_t n, std::vector<int64_t>& out) const {
  out.assign(static_cast<size_t>(n), 0);
  int64_t* o = out.data();
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = *keys[k];
    const int64_t lo = key_min_[k], hi = key_max_[k], stride = key_stride_[k];
    const uint8_t* valid = c.validity_bits();
    with_int_values(c, [&](const auto* x) {
      for (int64_t i = 0; i < n; ++i) {
        int64_t v = x[i];
        bool ok = o[i] >= 0 && v >= lo && v <= hi && (!valid || get_bit(valid, i));
        o[i] = ok ? o[i] + (v - lo) * stride : -1;
      }
    });
  }
}

void JoinHashTable::probe_int(const std::vector<int64_t>& combined, std::vector<int32_t>& probe_rows,
                              std::vector<int32_t>& build_rows, bool first_only) const {
  const int64_t n = static_cast<int64_t>(combined.size());
  const int64_t* key = combined.data();
  const bool direct = mode_ == Mode::kDirect;
  const int32_t* heads = direct_.data();
  const Int64Slot* slots = int_slots_.data();
  // The first build row of key[i] (which is >= 0), or -1.
  auto first_row = [&](int64_t i) -> int32_t {
    if (direct) return heads[key[i]];
    uint64_t p = join_int_hash(key[i]) & mask_;
    while (slots[p].first >= 0 && slots[p].key != key[i]) p = (p + 1) & mask_;
    return slots[p].first;
  };
  auto prefetch = [&](int64_t i) {
    if (key[i] < 0) return;
    if (direct) __builtin_prefetch(heads + key[i]);
    else __builtin_prefetch(slots + (join_int_hash(key[i]) & mask_));
  };
  if (first_only || unique_keys_) {
    // At most one pair per probe row: written in place, without a branch on whether it matched.
    PairsInPlace pairs(probe_rows, build_rows, n);
    int32_t* pr = pairs.probe_out();
    int32_t* br = pairs.build_out();
    int64_t m = 0;
    if (dense_keys_) {
      // A combined key is its build row.
      for (int64_t i = 0; i < n; ++i) {
        pr[m] = static_cast<int32_t>(i);
        br[m] = static_cast<int32_t>(key[i]);
        m += key[i] >= 0;
      }
    }
    for (int64_t i = dense_keys_ ? n : 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) prefetch(i + kPrefetchAhead);
      const int32_t b = key[i] >= 0 ? first_row(i) : -1;
      pr[m] = static_cast<int32_t>(i);
      br[m] = b;
      m += b >= 0;
    }
    pairs.keep(m);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) prefetch(i + kPrefetchAhead);
    if (key[i] < 0) continue;
    for (int32_t b = first_row(i); b >= 0; b = next_[static_cast<size_t>(b)]) {
      probe_rows.push_back(static_cast<int32_t>(i));
      build_rows.push_back(b);
    }
  }
}

void JoinHashTable::probe_direct_one_key(const Column& key, int64_t n, std::vector<int32_t>& probe_rows,
                                         std::vector<int32_t>& build_rows) const {
  const int64_t lo = key_min_[0], hi = key_max_[0];
  const uint8_t* valid = key.validity_bits();
  const int32_t* heads = direct_.data();
  PairsInPlace pairs(probe_rows, build_rows, n);
  int32_t* pr = pairs.probe_out();
  int32_t* br = pairs.build_out();
  int64_t m = 0;
  // Each row's pair is written in place and kept when it matched, without a branch per row: a
  // row outside the range reads the first slot (the range is never empty) and drops it.
  with_int_values(key, [&](const auto* x) {
    if (dense_keys_ && valid == nullptr) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = x[i];
        const bool in = v >= lo && v <= hi;
        pr[m] = static_cast<int32_t>(i);
        // In unsigned arithmetic: a key far outside the range (its pair is dropped) must not
        // overflow the subtraction.
        br[m] = static_cast<int32_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(lo));
        m += in;
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = x[i];
      const bool in = v >= lo && v <= hi && (valid == nullptr || get_bit(valid, i));
      const int32_t b = heads[in ? v - lo : 0];
      pr[m] = static_cast<int32_t>(i);
      br[m] = b;
      m += in && b >= 0;
    }
  });
  pairs.keep(m);
}

void JoinHashTable::build(Batch rows, const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                          bool may_reorder) {
  rows_ = std::move(rows);
  const int64_t n = rows_.num_rows;
  if (n > INT32_MAX - 1)
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR", "join build side exceeds 2^31 rows");
  std::vector<uint8_t> skip = null_key_rows(keys, null_safe, n);
  if (try_int_keys(keys, null_safe, skip, may_reorder)) return;
  KeyEncoder encoder(types_of(keys));
  if (encoder.can_pack()) {
    mode_ = Mode::kPacked;
    std::vector<PackedKey> packed(static_cast<size_t>(n));
    encoder.encode_packed(keys, n, packed.data());
    mask_ = buckets_for(n) - 1;
    slots_.assign(mask_ + 1, PackedSlot{0, -1});
    next_.assign(static_cast<size_t>(n), -1);
    unique_keys_ = true;
    // Insert in reverse so that each chain lists rows in build order.
    for (int64_t i = n - 1; i >= 0; --i) {
      size_t r = static_cast<size_t>(i);
      if (skip[r]) continue;
      PackedKey k = packed[r];
      size_t pos = hash_packed(k) & mask_;
      while (slots_[pos].first >= 0 && slots_[pos].key != k) pos = (pos + 1) & mask_;
      if (slots_[pos].first >= 0) unique_keys_ = false;
      next_[r] = slots_[pos].first;
      slots_[pos].key = k;
      slots_[pos].first = static_cast<int32_t>(i);
    }
    return;
  }
  mode_ = Mode::kBytes;
  encoder.encode(keys, n, arena_, offsets_, lengths_);
  mask_ = buckets_for(n) - 1;
  heads_.assign(mask_ + 1, -1);
  next_.assign(static_cast<size_t>(n), -1);
  hashes_.resize(static_cast<size_t>(n));
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
                          std::vector<int32_t>& probe_rows, std::vector<int32_t>& build_rows,
                          bool first_only) const {
  if (rows_.num_rows == 0 || n == 0) return;
  if (mode_ == Mode::kDirect && keys.size() == 1 && (first_only || unique_keys_)) {
    probe_direct_one_key(*keys[0], n, probe_rows, build_rows);
    return;
  }
  if (mode_ == Mode::kDirect || mode_ == Mode::kInt64) {
    std::vector<int64_t> combined;
    combine_int_keys(keys, n, combined);
    probe_int(combined, probe_rows, build_rows, first_only);
    return;
  }
  if (mode_ == Mode::kPacked) {
    KeyEncoder encoder(types_of(keys));
    std::vector<PackedKey> packed(static_cast<size_t>(n));
    encoder.encode_packed(keys, n, packed.data());
    std::vector<uint8_t> skip = null_key_rows(keys, null_safe, n);
    const bool once = first_only || unique_keys_;
    for (int64_t i = 0; i < n; ++i) {
      size_t r = static_cast<size_t>(i);
      if (skip[r]) continue;
      PackedKey k = packed[r];
      size_t pos = hash_packed(k) & mask_;
      while (slots_[pos].first >= 0 && slots_[pos].key != k) pos = (pos + 1) & mask_;
      for (int32_t b = slots_[pos].first; b >= 0; b = once ? -1 : next_[static_cast<size_t>(b)]) {
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
      if (first_only) break;
    }
  }
}

}  // namespace ember::exec
