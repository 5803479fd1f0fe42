#include "exec/sort_keys.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "common/error.h"
#include "common/thread_pool.h"
#include "exec/row_compare.h"

namespace ember::exec {
namespace {

constexpr int kKeyBytes = static_cast<int>(sizeof(NormalizedKey));

/// Bytes of a key's value in a normalized key when the whole value fits; -1 for types without a
/// fixed-width form (strings and binary can still contribute a prefix).
int value_width(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return 1;
    case TypeId::kDecimal: return t.precision() <= 18 ? 8 : -1;  // unscaled value as int64
    default: return t.byte_width() > 0 ? t.byte_width() : -1;
  }
}

bool prefix_encodable(const DataType& t) { return t.id() == TypeId::kString || t.id() == TypeId::kBinary; }

/// Bytes that hold every value of [0, range].
int range_bytes(uint64_t range) {
  int bytes = 0;
  while (range != 0) {
    ++bytes;
    range >>= 8;
  }
  return bytes;
}

/// How each key lands in the normalized key: whether it has a null byte, how many value bytes,
/// and whether those bytes hold the whole value. Keys after the first one that does not fit
/// wholly are left to the comparator.
struct KeyLayout {
  struct Part {
    bool null_byte = true;
    int bytes = 0;
    /// Whether the value is encoded as its distance from `min` (an integer column whose range
    /// needs fewer bytes than its type).
    bool offset = false;
    int64_t min = 0;
  };
  std::vector<Part> parts;  // one per encoded key, a prefix of the keys
  bool exact = true;        // every key wholly encoded: equal normalized keys are equal rows
  int used = 0;             // bytes of the normalized key that the parts take
};

/// The layout of `keys`. With the columns (`cols` and their `n` rows) known, a column without
/// nulls takes no null byte and an integer column takes only the bytes of its value range.
KeyLayout plan_layout(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>* cols,
                      int64_t n = 0) {
  KeyLayout out;
  int used = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    const DataType& t = *keys[k].type;
    // A null byte unless the column (when known) has no nulls.
    const bool null_byte = t.id() == TypeId::kNull || !cols || (*cols)[k]->may_have_nulls();
    int w = value_width(t);
    KeyLayout::Part part{null_byte, w};
    int64_t lo, hi;
    if (cols && t.is_integer_valued() && integer_range(*(*cols)[k], n, lo, hi)) {
      const int narrow = range_bytes(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo));
      if (narrow < w) part = KeyLayout::Part{null_byte, w = narrow, true, lo};
    }
    const int need = (null_byte ? 1 : 0) + std::max(w, 0);
    if (w >= 0 && used + need <= kKeyBytes) {
      out.parts.push_back(part);
      used += need;
      out.used = used;
      continue;
    }
    out.exact = false;
    const int room = kKeyBytes - used - (null_byte ? 1 : 0);
    if (prefix_encodable(t) && room >= 2) {
      out.parts.push_back({null_byte, room});
      out.used = kKeyBytes;
    }
    break;
  }
  return out;
}

template <typename T>
uint64_t ordered_bits(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v == 0) v = 0;                                          // -0.0 sorts with 0.0
    if (std::isnan(v)) v = std::numeric_limits<T>::quiet_NaN();  // every NaN alike, greatest
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
    return (u & sign) ? U(~u) : U(u | sign);
  } else {
    using U = std::make_unsigned_t<T>;
    constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
    return U(U(v) ^ sign);
  }
}

template <typename T, typename Get>
void append_bits(int64_t begin, int64_t end, int width, bool ascending, NormalizedKey* out, Get get) {
  const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  for (int64_t i = begin; i < end; ++i) {
    uint64_t bits = ordered_bits<T>(get(i));
    if (!ascending) bits = ~bits & mask;
    NormalizedKey& k = out[i - begin];
    k = (k << (8 * width)) | bits;
  }
}

template <typename T>
void append_values(const Column& c, int64_t begin, int64_t end, int width, bool ascending, NormalizedKey* out) {
  const T* v = c.values<T>();
  append_bits<T>(begin, end, width, ascending, out, [v](int64_t i) { return v[i]; });
}

/// Each value's distance from `min` (at most `width` bytes; null rows, whatever their value bits,
/// are masked to their width here and cleared by the caller).
template <typename T>
void append_offsets(const Column& c, int64_t begin, int64_t end, int width, bool ascending, int64_t min,
                    NormalizedKey* out) {
  const T* v = c.values<T>();
  const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  const uint64_t base = static_cast<uint64_t>(min);
  for (int64_t i = begin; i < end; ++i) {
    uint64_t bits = (static_cast<uint64_t>(static_cast<int64_t>(v[i])) - base) & mask;
    if (!ascending) bits = ~bits & mask;
    NormalizedKey& k = out[i - begin];
    k = (k << (8 * width)) | bits;
  }
}

/// The first `width` bytes of each string (zero padded), unsigned byte order as Spark compares
/// strings and binary; equal prefixes are settled by the comparator.
void append_prefix(const Column& c, int64_t begin, int64_t end, int width, bool ascending, NormalizedKey* out) {
  for (int64_t i = begin; i < end; ++i) {
    std::string_view s = c.is_null(i) ? std::string_view() : c.string_at(i);
    NormalizedKey& k = out[i - begin];
    for (int b = 0; b < width; ++b) {
      unsigned byte = b < static_cast<int>(s.size()) ? static_cast<unsigned char>(s[static_cast<size_t>(b)]) : 0u;
      k = (k << 8) | (ascending ? byte : 0xffu - byte);
    }
  }
}

/// The value bytes of rows [begin, end) of `c` in their type's full width.
void append_column(const Column& c, int64_t begin, int64_t end, int width, bool asc, NormalizedKey* out) {
  switch (c.type()->id()) {
    case TypeId::kBoolean:
      for (int64_t i = begin; i < end; ++i) {
        unsigned bit = c.bool_at(i) ? 1 : 0;
        out[i - begin] = (out[i - begin] << 8) | (asc ? bit : 1 - bit);
      }
      break;
    case TypeId::kFloat: append_values<float>(c, begin, end, width, asc, out); break;
    case TypeId::kDouble: append_values<double>(c, begin, end, width, asc, out); break;
    case TypeId::kDecimal: {
      const __int128* v = c.values<__int128>();
      append_bits<int64_t>(begin, end, width, asc, out, [v](int64_t i) { return static_cast<int64_t>(v[i]); });
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: append_prefix(c, begin, end, width, asc, out); break;
    default:
      switch (width) {
        case 1: append_values<int8_t>(c, begin, end, width, asc, out); break;
        case 2: append_values<int16_t>(c, begin, end, width, asc, out); break;
        case 4: append_values<int32_t>(c, begin, end, width, asc, out); break;
        default: append_values<int64_t>(c, begin, end, width, asc, out); break;
      }
  }
}

void encode(const KeyLayout& layout, const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
            int64_t begin, int64_t end, NormalizedKey* out) {
  const int64_t n = end - begin;
  std::fill_n(out, n, NormalizedKey{0});
  for (size_t k = 0; k < layout.parts.size(); ++k) {
    const Column& c = *cols[k];
    const int width = layout.parts[k].bytes;
    const bool asc = keys[k].ascending;
    if (layout.parts[k].null_byte) {
      // The null byte: 0 or 2 for a null (first or last), 1 for a value.
      const unsigned null_byte = keys[k].nulls_first ? 0 : 2;
      for (int64_t i = begin; i < end; ++i) {
        bool is_null = c.type()->id() == TypeId::kNull || c.is_null(i);
        out[i - begin] = (out[i - begin] << 8) | (is_null ? null_byte : 1u);
      }
    }
    if (width == 0) continue;
    if (layout.parts[k].offset) {
      const int64_t min = layout.parts[k].min;
      switch (c.type()->byte_width()) {
        case 1: append_offsets<int8_t>(c, begin, end, width, asc, min, out); break;
        case 2: append_offsets<int16_t>(c, begin, end, width, asc, min, out); break;
        case 4: append_offsets<int32_t>(c, begin, end, width, asc, min, out); break;
        default: append_offsets<int64_t>(c, begin, end, width, asc, min, out); break;
      }
    } else {
      append_column(c, begin, end, width, asc, out);
    }
    if (layout.parts[k].null_byte && c.may_have_nulls()) {
      // Null rows carry value bits 0, so that all nulls compare equal.
      const NormalizedKey mask = (width >= 16 ? ~NormalizedKey{0} : (NormalizedKey{1} << (8 * width)) - 1);
      for (int64_t i = begin; i < end; ++i)
        if (c.is_null(i)) out[i - begin] &= ~mask;
    }
  }
}

/// Encodes rows [0, n) in chunks on all threads; `take(begin, end, keys)` receives each chunk.
template <typename Take>
void encode_chunks(const KeyLayout& layout, const std::vector<NormalizedKeySpec>& keys,
                   const std::vector<ColumnPtr>& cols, int64_t n, const Take& take) {
  const int64_t chunk = 1 << 16;
  const size_t chunks = static_cast<size_t>((n + chunk - 1) / chunk);
  ThreadPool::global().parallel_run(chunks, [&](size_t c) {
    int64_t begin = static_cast<int64_t>(c) * chunk, end = std::min(n, begin + chunk);
    std::vector<NormalizedKey> encoded(static_cast<size_t>(end - begin));
    encode(layout, keys, cols, begin, end, encoded.data());
    take(begin, end, encoded.data());
  });
}

std::vector<SortEntry> entries_for(const KeyLayout& layout, const std::vector<NormalizedKeySpec>& keys,
                                   const std::vector<ColumnPtr>& cols, int64_t n) {
  std::vector<SortEntry> entries(static_cast<size_t>(n));
  encode_chunks(layout, keys, cols, n, [&](int64_t begin, int64_t end, const NormalizedKey* encoded) {
    for (int64_t i = begin; i < end; ++i)
      entries[static_cast<size_t>(i)] = {encoded[i - begin], static_cast<uint32_t>(i)};
  });
  return entries;
}

/// Sorts chunks on all threads of the global pool, then merges neighbouring runs pairwise.
template <typename Entry, typename Less>
void parallel_sort_by(std::vector<Entry>& entries, const Less& less) {
  ThreadPool& pool = ThreadPool::global();
  const size_t n = entries.size();
  size_t parts = std::min<size_t>(pool.size() + 1, std::max<size_t>(1, n / 65536));
  if (parts <= 1) {
    std::sort(entries.begin(), entries.end(), less);
    return;
  }
  std::vector<size_t> bounds(parts + 1);
  for (size_t p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  pool.parallel_run(parts, [&](size_t p) {
    std::sort(entries.begin() + static_cast<std::ptrdiff_t>(bounds[p]),
              entries.begin() + static_cast<std::ptrdiff_t>(bounds[p + 1]), less);
  });
  std::vector<Entry> scratch(n);
  std::vector<Entry>* src = &entries;
  std::vector<Entry>* dst = &scratch;
  while (bounds.size() > 2) {
    size_t runs = bounds.size() - 1;
    size_t pairs = (runs + 1) / 2;
    std::vector<size_t> next;
    for (size_t r = 0; r < runs; r += 2) next.push_back(bounds[r]);
    next.push_back(n);
    pool.parallel_run(pairs, [&](size_t q) {
      size_t a = bounds[2 * q], m = bounds[std::min(2 * q + 1, runs)], b = bounds[std::min(2 * q + 2, runs)];
      std::merge(src->begin() + static_cast<std::ptrdiff_t>(a), src->begin() + static_cast<std::ptrdiff_t>(m),
                 src->begin() + static_cast<std::ptrdiff_t>(m), src->begin() + static_cast<std::ptrdiff_t>(b),
                 dst->begin() + static_cast<std::ptrdiff_t>(a), less);
    });
    std::swap(src, dst);
    bounds = std::move(next);
  }
  if (src != &entries) entries.swap(*src);
}

/// The highest bit set in `x` (not 0).
int high_bit(NormalizedKey x) {
  const uint64_t hi = static_cast<uint64_t>(x >> 64);
  return hi != 0 ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

/// Scatters [begin, end) by the `bits` bits above `shift` into `out` (as long), stably, and
/// returns where each bucket starts (buckets + 1 entries).
std::vector<size_t> scatter(const NormalizedKey* begin, const NormalizedKey* end, int shift, int bits, NormalizedKey* out) {
  const size_t buckets = size_t{1} << bits;
  const NormalizedKey mask = buckets - 1;
  std::vector<size_t> start(buckets + 1, 0);
  for (const NormalizedKey* k = begin; k != end; ++k) ++start[static_cast<size_t>((*k >> shift) & mask) + 1];
  for (size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  std::vector<size_t> at(start.begin(), start.end() - 1);
  for (const NormalizedKey* k = begin; k != end; ++k) out[at[static_cast<size_t>((*k >> shift) & mask)]++] = *k;
  return start;
}

constexpr size_t kBucketKeys = 4096;  // keys of a bucket sorted by comparison (64 KiB)

/// Sorts [begin, end) in place, `scratch` as long: a radix pass on the bits below the keys'
/// common prefix, then each bucket alike, down to buckets that sort in cache.
void radix_sort_range(NormalizedKey* begin, NormalizedKey* end, NormalizedKey* scratch) {
  const size_t n = static_cast<size_t>(end - begin);
  if (n <= kBucketKeys) {
    std::sort(begin, end);
    return;
  }
  NormalizedKey diff = 0;
  for (const NormalizedKey* k = begin; k != end; ++k) diff |= *k ^ *begin;
  if (diff == 0) return;
  const int bits = std::clamp(high_bit(static_cast<NormalizedKey>(n / kBucketKeys)) + 2, 2, 12);
  const int shift = std::max(0, high_bit(diff) + 1 - bits);
  std::vector<size_t> start = scatter(begin, end, shift, bits, scratch);
  std::copy(scratch, scratch + n, begin);
  for (size_t b = 0; b + 1 < start.size(); ++b)
    radix_sort_range(begin + start[b], begin + start[b + 1], scratch + start[b]);
}

}  // namespace

void radix_sort(std::vector<NormalizedKey>& keys) {
  const size_t n = keys.size();
  ThreadPool& pool = ThreadPool::global();
  const size_t parts = std::min<size_t>(pool.size() + 1, std::max<size_t>(1, n / 65536));
  std::vector<NormalizedKey> scratch(n);
  if (parts <= 1) {
    radix_sort_range(keys.data(), keys.data() + n, scratch.data());
    return;
  }
  // The first pass on all threads: each part's bits in common, histogram and scatter; then the
  // buckets, taken by threads in turn, each sorted by radix_sort_range.
  std::vector<size_t> bounds(parts + 1);
  for (size_t p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  std::vector<NormalizedKey> diffs(parts, 0);
  const NormalizedKey first = keys[0];
  pool.parallel_run(parts, [&](size_t p) {
    NormalizedKey d = 0;
    for (size_t i = bounds[p]; i < bounds[p + 1]; ++i) d |= keys[i] ^ first;
    diffs[p] = d;
  });
  NormalizedKey diff = 0;
  for (NormalizedKey d : diffs) diff |= d;
  if (diff == 0) return;
  const int bits = std::clamp(high_bit(static_cast<NormalizedKey>(n / kBucketKeys)) + 1, 2, 14);
  const int shift = std::max(0, high_bit(diff) + 1 - bits);
  const size_t buckets = size_t{1} << bits;
  const NormalizedKey mask = buckets - 1;
  std::vector<std::vector<size_t>> at(parts, std::vector<size_t>(buckets, 0));
  pool.parallel_run(parts, [&](size_t p) {
    for (size_t i = bounds[p]; i < bounds[p + 1]; ++i) ++at[p][static_cast<size_t>((keys[i] >> shift) & mask)];
  });
  std::vector<size_t> start(buckets + 1, 0);
  for (size_t b = 0; b < buckets; ++b) {
    size_t pos = start[b];
    for (size_t p = 0; p < parts; ++p) {
      const size_t count = at[p][b];
      at[p][b] = pos;
      pos += count;
    }
    start[b + 1] = pos;
  }
  pool.parallel_run(parts, [&](size_t p) {
    std::vector<size_t>& to = at[p];
    for (size_t i = bounds[p]; i < bounds[p + 1]; ++i) scratch[to[static_cast<size_t>((keys[i] >> shift) & mask)]++] = keys[i];
  });
  std::atomic<size_t> next{0};
  pool.parallel_run(parts, [&](size_t) {
    for (size_t b = next++; b < buckets; b = next++)
      radix_sort_range(scratch.data() + start[b], scratch.data() + start[b + 1], keys.data() + start[b]);
  });
  keys.swap(scratch);
}

bool normalized_keys_fit(const std::vector<NormalizedKeySpec>& keys) {
  return plan_layout(keys, nullptr).exact;
}

void encode_normalized_keys(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
                            int64_t begin, int64_t end, NormalizedKey* out) {
  encode(plan_layout(keys, nullptr), keys, cols, begin, end, out);
}

void parallel_sort(std::vector<SortEntry>& entries) {
  parallel_sort_by(entries, std::less<SortEntry>());
}

std::vector<SortEntry> normalized_entries(const std::vector<NormalizedKeySpec>& keys,
                                          const std::vector<ColumnPtr>& cols, int64_t n) {
  return entries_for(plan_layout(keys, nullptr), keys, cols, n);
}

std::vector<int32_t> sort_order(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
                                int64_t n, int64_t limit) {
  const bool top = limit >= 0 && limit < n;
  const KeyLayout layout = plan_layout(keys, &cols, n);
  std::vector<int32_t> idx;
  if (layout.parts.empty()) {
    // Nothing encodable leads the keys: compare values.
    std::vector<bool> ascending, nulls_first;
    for (auto& k : keys) {
      ascending.push_back(k.ascending);
      nulls_first.push_back(k.nulls_first);
    }
    RowComparator cmp(cols, std::move(ascending), std::move(nulls_first));
    idx.resize(static_cast<size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    auto less = [&](int32_t a, int32_t b) {
      int c = cmp.compare(a, b);
      return c != 0 ? c < 0 : a < b;
    };
    if (top) {
      std::partial_sort(idx.begin(), idx.begin() + limit, idx.end(), less);
      idx.resize(static_cast<size_t>(limit));
    } else {
      std::sort(idx.begin(), idx.end(), less);
    }
    return idx;
  }
  if (layout.exact && layout.used <= kKeyBytes - 4) {
    // The key and the row fit one 128-bit integer (key above, row below): sorting those integers
    // orders by key with ties in row order, in half the memory of key-and-row entries.
    std::vector<NormalizedKey> rows(static_cast<size_t>(n));
    encode_chunks(layout, keys, cols, n, [&](int64_t begin, int64_t end, const NormalizedKey* encoded) {
      for (int64_t i = begin; i < end; ++i)
        rows[static_cast<size_t>(i)] = (encoded[i - begin] << 32) | static_cast<uint32_t>(i);
    });
    if (top) {
      std::partial_sort(rows.begin(), rows.begin() + limit, rows.end());
      rows.resize(static_cast<size_t>(limit));
    } else {
      radix_sort(rows);
    }
    idx.resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) idx[i] = static_cast<int32_t>(static_cast<uint32_t>(rows[i]));
    return idx;
  }
  std::vector<SortEntry> entries = entries_for(layout, keys, cols, n);
  auto finish = [&](auto less) {
    if (top) {
      std::partial_sort(entries.begin(), entries.begin() + limit, entries.end(), less);
      entries.resize(static_cast<size_t>(limit));
    } else {
      parallel_sort_by(entries, less);
    }
  };
  if (layout.exact) {
    finish(std::less<SortEntry>());
  } else {
    // Equal normalized keys are settled by comparing the values, then by row (stability).
    std::vector<bool> ascending, nulls_first;
    for (auto& k : keys) {
      ascending.push_back(k.ascending);
      nulls_first.push_back(k.nulls_first);
    }
    RowComparator cmp(cols, std::move(ascending), std::move(nulls_first));
    finish([&](const SortEntry& a, const SortEntry& b) {
      if (a.key != b.key) return a.key < b.key;
      int c = cmp.compare(a.row, b.row);
      return c != 0 ? c < 0 : a.row < b.row;
    });
  }
  idx.resize(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) idx[i] = static_cast<int32_t>(entries[i].row);
  return idx;
}

std::vector<int32_t> stable_sort_order(const std::vector<NormalizedKeySpec>& keys,
                                       const std::vector<ColumnPtr>& cols, int64_t n) {
  return sort_order(keys, cols, n, -1);
}

}  // namespace ember::exec
