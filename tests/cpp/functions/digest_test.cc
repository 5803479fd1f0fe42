// Reference vectors for the hash kernels: published Murmur3/XXH64/MD5/SHA/CRC-32 test vectors
// for inputs where Spark's variants agree with the reference algorithms (Murmur3 on whole
// 4-byte words), plus values Spark itself returns for hash()/xxhash64().

#include "functions/digest.h"

#include <gtest/gtest.h>

namespace ember::functions::digest {
namespace {

TEST(Murmur3, ReferenceVectorsOnAlignedInput) {
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes("", 0)), 0u);
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes("", 1)), 0x514E28B7u);
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes("", static_cast<int32_t>(0xffffffffu))),
            0x81F16F39u);
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes(std::string_view("\0\0\0\0", 4), 0)), 0x2362F9DEu);
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes("aaaa", static_cast<int32_t>(0x9747b28cu))),
            0x5A97808Au);
  EXPECT_EQ(static_cast<uint32_t>(murmur3_bytes("abcd", static_cast<int32_t>(0x9747b28cu))),
            0xF0478627u);
}

TEST(Murmur3, SparkValues) {
  // SELECT hash(1), hash(1L), hash('Spark') in Apache Spark.
  EXPECT_EQ(murmur3_int(1, 42), -559580957);
  EXPECT_EQ(murmur3_long(1, 42), -1712319331);
  EXPECT_EQ(murmur3_bytes("Spark", 42), 228093765);
}

TEST(Xxh64, ReferenceAndSparkValues) {
  EXPECT_EQ(static_cast<uint64_t>(xxh64_bytes("", 0)), 0xEF46DB3751D8E999ull);
  // SELECT xxhash64(1), xxhash64(1L) in Apache Spark.
  EXPECT_EQ(xxh64_int(1, 42), -6698625589789238999LL);
  EXPECT_EQ(xxh64_long(1, 42), -7001672635703045582LL);
}

TEST(Digests, ReferenceVectors) {
  EXPECT_EQ(hex(md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(hex(md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(hex(sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256("abc", true)), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
  EXPECT_EQ(hex(sha512("abc", true)),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baec"
            "a134c825a7");
  EXPECT_EQ(hex(sha512("abc")).substr(0, 32), "ddaf35a193617abacc417349ae204131");
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);
  // A message spanning two blocks after padding.
  EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

}  // namespace
}  // namespace ember::functions::digest
