// Published reference vectors for the byte-level functions, called through the registry:
// HMAC (RFC 4231 and RFC 2202), base32 (RFC 4648), AES-128 ECB (FIPS-197), plus the UTF-8
// repair rule (maximal subparts) and conv's unsigned wrap-around, which only edge inputs reach.

#include <gtest/gtest.h>

#include "common/config.h"
#include "common/error.h"
#include "functions/digest.h"
#include "functions/function.h"

namespace ember::functions {
namespace {

ColumnPtr bytes_col(const TypePtr& type, const std::vector<std::string>& values) {
  ColumnBuilder b(type);
  for (const std::string& v : values) b.append_bytes(v);
  return b.finish();
}
ColumnPtr bin(const std::string& v) { return bytes_col(DataType::binary(), {v}); }
ColumnPtr str(const std::string& v) { return bytes_col(DataType::string(), {v}); }
ColumnPtr int_col(int32_t v) {
  ColumnBuilder b(DataType::int_());
  b.append<int32_t>(v);
  return b.finish();
}

std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return out;
}

std::string call1(const std::string& name, const std::vector<ColumnPtr>& args, bool ansi = true) {
  const FunctionDef* d = Registry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type());
  Config conf;
  Signature sig = d->type_rule(types, conf);
  EvalContext ctx;
  ctx.ansi = ansi;
  ctx.config = &conf;
  ColumnPtr r = d->kernel(args, 1, sig, ctx);
  EXPECT_FALSE(r->is_null(0)) << name;
  return std::string(r->string_at(0));
}

TEST(Hmac, Rfc4231AndRfc2202Vectors) {
  // RFC 4231 test case 2: key "Jefe".
  const std::string msg = "what do ya want for nothing?";
  EXPECT_EQ(digest::hex(call1("hmac", {bin("Jefe"), bin(msg), str("SHA-256")})),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(digest::hex(call1("hmac", {bin("Jefe"), bin(msg), str("sha512")})),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
  // RFC 4231 test case 6: a 131-byte key, longer than the SHA-256 block, is hashed first.
  EXPECT_EQ(digest::hex(call1("hmac", {bin(std::string(131, '\xaa')),
                                       bin("Test Using Larger Than Block-Size Key - Hash Key First")})),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  // RFC 2202: HMAC-MD5 and HMAC-SHA1 with key "Jefe".
  EXPECT_EQ(digest::hex(call1("hmac", {bin("Jefe"), bin(msg), str("MD5")})), "750c783e6ab0b503eaa86e310a5db738");
  EXPECT_EQ(digest::hex(call1("hmac", {bin("Jefe"), bin(msg), str("SHA-1")})),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
}

TEST(Base32, Rfc4648Vectors) {
  const std::pair<const char*, const char*> cases[] = {{"", ""},
                                                       {"f", "MY======"},
                                                       {"fo", "MZXQ===="},
                                                       {"foo", "MZXW6==="},
                                                       {"foob", "MZXW6YQ="},
                                                       {"fooba", "MZXW6YTB"},
                                                       {"foobar", "MZXW6YTBOI======"}};
  for (auto& [plain, encoded] : cases) {
    EXPECT_EQ(call1("to_base32", {bin(plain)}), encoded);
    EXPECT_EQ(call1("from_base32", {str(encoded)}), plain);
  }
}

TEST(Aes, Fips197Aes128Block) {
  // FIPS-197 appendix C.1; ECB adds a PKCS#7 block, so only the first block is the vector.
  // Builds without OpenSSL raise UNSUPPORTED_FEATURE.
  try {
    call1("aes_encrypt", {bin("x"), bin(std::string(16, 'k')), str("ECB")});
  } catch (const SparkError& e) {
    if (e.error_class() == "UNSUPPORTED_FEATURE") GTEST_SKIP() << "no OpenSSL in this build";
    throw;
  }
  std::string out = call1("aes_encrypt", {bin(unhex("00112233445566778899aabbccddeeff")),
                                          bin(unhex("000102030405060708090a0b0c0d0e0f")), str("ECB")});
  ASSERT_EQ(out.size(), 32u);
  EXPECT_EQ(digest::hex(out.substr(0, 16)), "69c4e0d86a7b0430d8cdb78070b4c55a");
  EXPECT_EQ(digest::hex(call1("aes_decrypt", {bin(out), bin(unhex("000102030405060708090a0b0c0d0e0f")), str("ECB")})),
            "00112233445566778899aabbccddeeff");
}

TEST(Utf8, MaximalSubpartsBecomeOneReplacementEach) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(call1("make_valid_utf8", {str("a\xE2\x82" "A")}), "a" + r + "A");
  EXPECT_EQ(call1("make_valid_utf8", {str("\xF4\x90\x80\x80")}), r + r + r + r);
  EXPECT_EQ(call1("make_valid_utf8", {str("\xF0\x9F\x98")}), r);
  EXPECT_EQ(call1("make_valid_utf8", {str("\xF0\x9F\x98\x80")}), "\xF0\x9F\x98\x80");
}

TEST(Conv, NegativeInputsAreTwosComplementAndOverflowSaturates) {
  EXPECT_EQ(call1("conv", {str("-1"), int_col(10), int_col(16)}), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(call1("conv", {str("-ff"), int_col(16), int_col(-10)}), "-255");
  EXPECT_EQ(call1("conv", {str("18446744073709551616"), int_col(10), int_col(16)}, /*ansi=*/false),
            "FFFFFFFFFFFFFFFF");
  EXPECT_THROW(call1("conv", {str("18446744073709551616"), int_col(10), int_col(16)}), SparkError);
}

}  // namespace
}  // namespace ember::functions
