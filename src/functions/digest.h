#pragma once

// Hash functions with Spark's exact bit patterns: Murmur3 x86 32-bit and XXH64 as Spark's
// `hash` and `xxhash64` apply them (including Spark's handling of trailing bytes), and the
// message digests behind md5, sha1, sha2 and crc32. Self-contained so that builds without
// OpenSSL or zlib compute the same values.

#include <cstdint>
#include <string>
#include <string_view>

namespace ember::functions::digest {

int32_t murmur3_int(int32_t v, int32_t seed);
int32_t murmur3_long(int64_t v, int32_t seed);
/// Spark's Murmur3_x86_32.hashUnsafeBytes: 4-byte little-endian words, then each remaining byte
/// mixed on its own as a signed int.
int32_t murmur3_bytes(std::string_view b, int32_t seed);

int64_t xxh64_int(int32_t v, int64_t seed);
int64_t xxh64_long(int64_t v, int64_t seed);
int64_t xxh64_bytes(std::string_view b, int64_t seed);

/// Raw digests (16, 20, 28/32, 48/64 bytes).
std::string md5(std::string_view data);
std::string sha1(std::string_view data);
std::string sha256(std::string_view data, bool is224 = false);
std::string sha512(std::string_view data, bool is384 = false);
uint32_t crc32(std::string_view data);

/// Lower-case hexadecimal of raw bytes.
std::string hex(std::string_view raw);

}  // namespace ember::functions::digest
