#pragma once

// What the ORC reader checks of a file's bytes before Arrow's ORC adapter decodes them. ORC's
// C++ decoder trusts parts of a file that a corrupt file can set to anything, and on some of
// them it crashes the process instead of failing: these checks turn such files into read
// errors. They read only a file's tail, a stripe's footer and its string length streams, never
// the data itself.

#include <arrow/io/interfaces.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ember::io {

/// Whether the types in an ORC file's tail (FileTail, as the adapter serializes it) are ones
/// the adapter converts: it aborts the process on a decimal precision Arrow has no type for,
/// and on a union of more than 127 members.
bool orc_adapter_accepts_types(const std::string& serialized_tail);

/// Whether stripe `stripe` of an ORC file is sound where ORC's decoder trusts it, for a read of
/// the top-level fields `fields` (indices into the file's schema): the stripe and its footer lie
/// inside the file, its streams inside the stripe, and every string, binary, char and varchar
/// column among those fields has string lengths that its data can hold. The decoder sums a
/// column's lengths and allocates that much without checking the allocation, so lengths that
/// claim more memory than there is crash it; a dictionary column's entry count is allocated
/// the same way. For a compressed stream the bytes its data can hold are bounded by the
/// codec's block size per chunk (exactly for Snappy, which records each chunk's size).
/// Streams compressed with LZO, which Arrow cannot decompress, are not checked.
bool orc_stripe_is_sound(arrow::io::RandomAccessFile& file, const std::string& serialized_tail,
                         int64_t stripe, const std::vector<int>& fields);

/// The values of an ORC unsigned integer run-length encoded stream (version 1, or version 2
/// when `v2`), in order, passed to `visit` until it returns false. False when the stream is
/// malformed.
bool decode_orc_unsigned_rle(std::string_view bytes, bool v2,
                             const std::function<bool(uint64_t)>& visit);

}  // namespace ember::io
