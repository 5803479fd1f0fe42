#pragma once

// Parquet's RLE / bit-packed hybrid encoding (the format specification's "RLE" encoding), which
// stores definition levels, dictionary indices and RLE-encoded booleans: a sequence of runs, each
// a ULEB128 header whose low bit says whether the run is bit-packed (header >> 1 groups of eight
// values, each value `bit_width` bits, LSB first) or repeated (header >> 1 copies of one value
// stored in ceil(bit_width / 8) little-endian bytes).

#include <cstdint>

namespace ember::io {

/// Unpacks `n` values of `bit_width` bits (0 to 32) stored LSB first from `in`, starting at value
/// `first`, into `out`. `end` bounds the readable bytes; the caller guarantees that the values
/// lie before it. Groups of eight values unpack with shifts and masks fixed at compile time.
void unpack_bits(const uint8_t* in, const uint8_t* end, int64_t first, int64_t n, int bit_width,
                 uint32_t* out);

/// Copies `n` bits from `src` at bit `src_offset` into `dst` at bit `dst_offset`, both LSB first.
/// The destination bits must be clear (bits are OR-ed in); bits of `dst` outside the range are
/// kept.
void copy_bits(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t dst_offset, int64_t n);

/// Sets the `n` bits of `dst` from bit `offset` (whole bytes at a time where it can).
void set_bits(uint8_t* dst, int64_t offset, int64_t n);

/// Reads values of one run-length / bit-packed hybrid stream in order. The stream is not owned;
/// it must outlive the decoder. Malformed or short data makes the decode functions return fewer
/// values than asked for, which callers report as a corrupt page.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width);

  /// Decodes up to `n` values into `out`; returns how many were decoded.
  int64_t decode(uint32_t* out, int64_t n);

  /// For a stream of 1-bit values (definition levels with a maximum of 1, booleans): writes the
  /// next `n` values as bits of `dst` from bit `offset` (whose bits must be clear) and returns how
  /// many were decoded; `ones` receives the number of ones among them. A run of ones sets its
  /// bits a byte at a time and a bit-packed run is copied as bits, with no per-value work.
  int64_t decode_bits(uint8_t* dst, int64_t offset, int64_t n, int64_t* ones);

 private:
  /// Reads the next run header; false at the end of the data or on a malformed header.
  bool next_run();

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  int64_t repeat_left_ = 0;  // values left in the current repeated run
  uint32_t repeat_value_ = 0;
  int64_t packed_left_ = 0;  // values left in the current bit-packed run
  const uint8_t* packed_ = nullptr;
  int64_t packed_index_ = 0;  // index in `packed_` of the next value
};

}  // namespace ember::io
