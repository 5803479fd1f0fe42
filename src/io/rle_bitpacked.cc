#include "io/rle_bitpacked.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ember::io {

namespace {

inline uint64_t low_mask(int bits) { return (uint64_t{1} << bits) - 1; }

/// Value `index` of a packed stream, reading no byte at or past `end`.
inline uint32_t value_at(const uint8_t* in, const uint8_t* end, int64_t index, int bit_width) {
  const int64_t bit = index * bit_width;
  const uint8_t* p = in + (bit >> 3);
  const int shift = static_cast<int>(bit & 7);
  const int bytes = (shift + bit_width + 7) / 8;
  uint64_t word = 0;
  for (int k = 0; k < bytes && p + k < end; ++k) word |= uint64_t{p[k]} << (8 * k);
  return static_cast<uint32_t>((word >> shift) & low_mask(bit_width));
}

/// Eight values of `W` bits from `group` (which starts on a byte: eight values fill W bytes).
/// Reads up to 8 bytes past the group's last byte; callers make sure they are readable.
template <int W>
inline void unpack8(const uint8_t* group, uint32_t* out) {
  constexpr uint64_t mask = (uint64_t{1} << W) - 1;
  for (int j = 0; j < 8; ++j) {
    const int bit = j * W;
    uint64_t word;
    std::memcpy(&word, group + bit / 8, 8);
    out[j] = static_cast<uint32_t>((word >> (bit % 8)) & mask);
  }
}

template <int W>
void unpack_groups(const uint8_t* in, const uint8_t* end, int64_t groups, uint32_t* out) {
  int64_t g = 0;
  for (; g < groups && in + (g + 1) * W + 8 <= end; ++g) unpack8<W>(in + g * W, out + g * 8);
  for (; g < groups; ++g) {
    for (int j = 0; j < 8; ++j) out[g * 8 + j] = value_at(in + g * W, end, j, W);
  }
}

using GroupUnpacker = void (*)(const uint8_t*, const uint8_t*, int64_t, uint32_t*);

template <int... W>
constexpr auto make_unpackers(std::integer_sequence<int, W...>) {
  return std::array<GroupUnpacker, sizeof...(W)>{&unpack_groups<W + 1>...};
}

/// Bits set among `n` bits of `bits` from bit `offset`.
int64_t count_bits(const uint8_t* bits, int64_t offset, int64_t n) {
  int64_t count = 0;
  while (n > 0 && (offset & 7) != 0) {
    count += (bits[offset >> 3] >> (offset & 7)) & 1;
    ++offset;
    --n;
  }
  const uint8_t* p = bits + (offset >> 3);
  int64_t words = n / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t word;
    std::memcpy(&word, p + w * 8, 8);
    count += __builtin_popcountll(word);
  }
  for (int64_t i = words * 64; i < n; ++i) count += (p[i >> 3] >> (i & 7)) & 1;
  return count;
}

}  // namespace

void unpack_bits(const uint8_t* in, const uint8_t* end, int64_t first, int64_t n, int bit_width,
                 uint32_t* out) {
  if (bit_width == 0) {
    std::fill(out, out + n, 0u);
    return;
  }
  static constexpr auto unpackers = make_unpackers(std::make_integer_sequence<int, 32>{});
  // Values before the first whole group of eight, one at a time.
  int64_t i = 0;
  while (i < n && (first + i) % 8 != 0) {
    out[i] = value_at(in, end, first + i, bit_width);
    ++i;
  }
  const int64_t groups = (n - i) / 8;
  if (groups > 0) {
    unpackers[static_cast<size_t>(bit_width - 1)](in + (first + i) / 8 * bit_width, end, groups,
                                                  out + i);
    i += groups * 8;
  }
  for (; i < n; ++i) out[i] = value_at(in, end, first + i, bit_width);
}

void copy_bits(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t dst_offset,
               int64_t n) {
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    const int64_t bytes = n / 8;
    std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(bytes));
    src_offset += bytes * 8;
    dst_offset += bytes * 8;
    n -= bytes * 8;
  }
  const int dst_shift = static_cast<int>(dst_offset & 7);
  while (n >= 8) {
    const int src_shift = static_cast<int>(src_offset & 7);
    const uint8_t* s = src + (src_offset >> 3);
    const uint8_t b = src_shift == 0
                          ? s[0]
                          : static_cast<uint8_t>((s[0] >> src_shift) | (s[1] << (8 - src_shift)));
    uint8_t* d = dst + (dst_offset >> 3);
    d[0] |= static_cast<uint8_t>(b << dst_shift);
    if (dst_shift != 0) d[1] |= static_cast<uint8_t>(b >> (8 - dst_shift));
    src_offset += 8;
    dst_offset += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++src_offset, ++dst_offset) {
    if ((src[src_offset >> 3] >> (src_offset & 7)) & 1)
      dst[dst_offset >> 3] |= static_cast<uint8_t>(1u << (dst_offset & 7));
  }
}

void set_bits(uint8_t* dst, int64_t offset, int64_t n) {
  while (n > 0 && (offset & 7) != 0) {
    dst[offset >> 3] |= static_cast<uint8_t>(1u << (offset & 7));
    ++offset;
    --n;
  }
  const int64_t bytes = n / 8;
  std::memset(dst + (offset >> 3), 0xFF, static_cast<size_t>(bytes));
  offset += bytes * 8;
  n -= bytes * 8;
  for (; n > 0; --n, ++offset) dst[offset >> 3] |= static_cast<uint8_t>(1u << (offset & 7));
}

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width)
    : pos_(data), end_(data + size), bit_width_(bit_width) {}

bool RleBitPackedDecoder::next_run() {
  uint64_t header = 0;
  int shift = 0;
  for (;;) {
    if (pos_ >= end_ || shift > 63) return false;
    const uint8_t b = *pos_++;
    header |= uint64_t{b & 0x7Fu} << shift;
    if ((b & 0x80) == 0) break;
    shift += 7;
  }
  if (header & 1) {
    // A bit-packed run; the last one of a stream may hold fewer bytes than its groups call for,
    // so it holds only the values its bytes can.
    const uint64_t groups = header >> 1;
    const int64_t available = end_ - pos_;
    const uint64_t bytes = std::min<uint64_t>(groups * static_cast<uint64_t>(bit_width_),
                                              static_cast<uint64_t>(available));
    packed_ = pos_;
    packed_index_ = 0;
    packed_left_ = bit_width_ == 0
                       ? static_cast<int64_t>(groups * 8)
                       : static_cast<int64_t>(bytes * 8 / static_cast<uint64_t>(bit_width_));
    pos_ += bytes;
    return true;
  }
  const int value_bytes = (bit_width_ + 7) / 8;
  if (end_ - pos_ < value_bytes) return false;
  uint32_t value = 0;
  for (int k = 0; k < value_bytes; ++k) value |= static_cast<uint32_t>(pos_[k]) << (8 * k);
  pos_ += value_bytes;
  repeat_value_ = value;
  repeat_left_ = static_cast<int64_t>(std::min<uint64_t>(header >> 1, INT64_MAX));
  return true;
}

int64_t RleBitPackedDecoder::decode(uint32_t* out, int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      const int64_t take = std::min(n - done, repeat_left_);
      std::fill(out + done, out + done + take, repeat_value_);
      repeat_left_ -= take;
      done += take;
    } else if (packed_left_ > 0) {
      const int64_t take = std::min(n - done, packed_left_);
      unpack_bits(packed_, end_, packed_index_, take, bit_width_, out + done);
      packed_index_ += take;
      packed_left_ -= take;
      done += take;
    } else if (!next_run()) {
      break;
    }
  }
  return done;
}

int64_t RleBitPackedDecoder::decode_bits(uint8_t* dst, int64_t offset, int64_t n, int64_t* ones) {
  int64_t done = 0;
  int64_t set = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      const int64_t take = std::min(n - done, repeat_left_);
      if (repeat_value_ & 1) {
        set_bits(dst, offset + done, take);
        set += take;
      }
      repeat_left_ -= take;
      done += take;
    } else if (packed_left_ > 0) {
      const int64_t take = std::min(n - done, packed_left_);
      copy_bits(packed_, packed_index_, dst, offset + done, take);
      set += count_bits(dst, offset + done, take);
      packed_index_ += take;
      packed_left_ -= take;
      done += take;
    } else if (!next_run()) {
      break;
    }
  }
  *ones = set;
  return done;
}

}  // namespace ember::io
