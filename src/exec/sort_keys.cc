#include "exec/sort_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "common/error.h"
#include "common/thread_pool.h"
#include "exec/row_compare.h"

namespace ember::exec {
namespace {

/// Bytes of a key's value in a normalized key; -1 when the type has no fixed-width form.
int value_width(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return 1;
    case TypeId::kDecimal: return -1;
    default: return t.byte_width() > 0 ? t.byte_width() : -1;
  }
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

template <typename T>
void append_values(const Column& c, int64_t begin, int64_t end, int width, bool ascending, NormalizedKey* out) {
  const T* v = c.values<T>();
  const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  for (int64_t i = begin; i < end; ++i) {
    uint64_t bits = ordered_bits<T>(v[i]);
    if (!ascending) bits = ~bits & mask;
    NormalizedKey& k = out[i - begin];
    k = (k << (8 * width)) | bits;
  }
}

}  // namespace

bool normalized_keys_fit(const std::vector<NormalizedKeySpec>& keys) {
  int total = 0;
  for (auto& k : keys) {
    int w = value_width(*k.type);
    if (w < 0) return false;
    total += 1 + w;
  }
  return total <= 16;
}

void encode_normalized_keys(const std::vector<NormalizedKeySpec>& keys, const std::vector<ColumnPtr>& cols,
                            int64_t begin, int64_t end, NormalizedKey* out) {
  const int64_t n = end - begin;
  std::fill_n(out, n, NormalizedKey{0});
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = *cols[k];
    const int width = value_width(*keys[k].type);
    const bool asc = keys[k].ascending;
    // The null byte: 0 or 2 for a null (first or last), 1 for a value.
    const unsigned null_byte = keys[k].nulls_first ? 0 : 2;
    for (int64_t i = begin; i < end; ++i) {
      bool is_null = c.type()->id() == TypeId::kNull || c.is_null(i);
      out[i - begin] = (out[i - begin] << 8) | (is_null ? null_byte : 1u);
    }
    if (width == 0) continue;
    switch (c.type()->id()) {
      case TypeId::kBoolean:
        for (int64_t i = begin; i < end; ++i) {
          unsigned bit = c.bool_at(i) ? 1 : 0;
          out[i - begin] = (out[i - begin] << 8) | (asc ? bit : 1 - bit);
        }
        break;
      case TypeId::kFloat: append_values<float>(c, begin, end, width, asc, out); break;
      case TypeId::kDouble: append_values<double>(c, begin, end, width, asc, out); break;
      default:
        switch (width) {
          case 1: append_values<int8_t>(c, begin, end, width, asc, out); break;
          case 2: append_values<int16_t>(c, begin, end, width, asc, out); break;
          case 4: append_values<int32_t>(c, begin, end, width, asc, out); break;
          default: append_values<int64_t>(c, begin, end, width, asc, out); break;
        }
    }
    if (c.may_have_nulls()) {
      // Null rows carry value bits 0, so that all nulls compare equal.
      const NormalizedKey mask = (width == 16 ? ~NormalizedKey{0} : (NormalizedKey{1} << (8 * width)) - 1);
      for (int64_t i = begin; i < end; ++i)
        if (c.is_null(i)) out[i - begin] &= ~mask;
    }
  }
}

void parallel_sort(std::vector<SortEntry>& entries) {
  ThreadPool& pool = ThreadPool::global();
  const size_t n = entries.size();
  size_t parts = std::min<size_t>(pool.size() + 1, std::max<size_t>(1, n / 65536));
  if (parts <= 1) {
    std::sort(entries.begin(), entries.end());
    return;
  }
  std::vector<size_t> bounds(parts + 1);
  for (size_t p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  pool.parallel_run(parts, [&](size_t p) {
    std::sort(entries.begin() + static_cast<std::ptrdiff_t>(bounds[p]),
              entries.begin() + static_cast<std::ptrdiff_t>(bounds[p + 1]));
  });
  // Merge neighbouring runs pairwise, in parallel, until one run is left.
  std::vector<SortEntry> scratch(n);
  std::vector<SortEntry>* src = &entries;
  std::vector<SortEntry>* dst = &scratch;
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
                 dst->begin() + static_cast<std::ptrdiff_t>(a));
    });
    std::swap(src, dst);
    bounds = std::move(next);
  }
  if (src != &entries) entries.swap(*src);
}

std::vector<SortEntry> normalized_entries(const std::vector<NormalizedKeySpec>& keys,
                                          const std::vector<ColumnPtr>& cols, int64_t n) {
  std::vector<SortEntry> entries(static_cast<size_t>(n));
  const int64_t chunk = 1 << 16;
  const size_t chunks = static_cast<size_t>((n + chunk - 1) / chunk);
  ThreadPool::global().parallel_run(chunks, [&](size_t c) {
    int64_t begin = static_cast<int64_t>(c) * chunk, end = std::min(n, begin + chunk);
    std::vector<NormalizedKey> encoded(static_cast<size_t>(end - begin));
    encode_normalized_keys(keys, cols, begin, end, encoded.data());
    for (int64_t i = begin; i < end; ++i)
      entries[static_cast<size_t>(i)] = {encoded[static_cast<size_t>(i - begin)], static_cast<uint32_t>(i)};
  });
  return entries;
}

std::vector<int32_t> stable_sort_order(const std::vector<NormalizedKeySpec>& keys,
                                       const std::vector<ColumnPtr>& cols, int64_t n) {
  std::vector<int32_t> idx(static_cast<size_t>(n));
  if (normalized_keys_fit(keys)) {
    std::vector<SortEntry> entries = normalized_entries(keys, cols, n);
    parallel_sort(entries);
    for (int64_t i = 0; i < n; ++i) idx[static_cast<size_t>(i)] = static_cast<int32_t>(entries[static_cast<size_t>(i)].row);
    return idx;
  }
  std::vector<bool> ascending, nulls_first;
  for (auto& k : keys) {
    ascending.push_back(k.ascending);
    nulls_first.push_back(k.nulls_first);
  }
  RowComparator cmp(cols, std::move(ascending), std::move(nulls_first));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int32_t a, int32_t b) { return cmp.less(a, b); });
  return idx;
}

}  // namespace ember::exec
