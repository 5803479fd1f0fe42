// Keyed message authentication: hmac(key, message[, algorithm]) over the digests of digest.h
// (RFC 2104: the key hashed when longer than the block, padded with zeros, then
// H((key ^ opad) || H((key ^ ipad) || message))).

#include "functions/digest.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

struct HmacAlgorithm {
  std::string (*hash)(std::string_view);
  size_t block;
};

std::string sha224(std::string_view d) { return digest::sha256(d, true); }
std::string sha256(std::string_view d) { return digest::sha256(d); }
std::string sha384(std::string_view d) { return digest::sha512(d, true); }
std::string sha512(std::string_view d) { return digest::sha512(d); }

/// The algorithm named `name` (case-insensitive, with or without the hyphen of SHA-256).
HmacAlgorithm hmac_algorithm(std::string_view name) {
  std::string key;
  for (char c : name)
    if (c != '-') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key == "md5") return {digest::md5, 64};
  if (key == "sha1") return {digest::sha1, 64};
  if (key == "sha224") return {sha224, 64};
  if (key == "sha256") return {sha256, 64};
  if (key == "sha384") return {sha384, 128};
  if (key == "sha512") return {sha512, 128};
  throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.HMAC_ALGORITHM",
                   "The value of parameter(s) `algorithm` in `hmac` is invalid: expects one of the algorithms "
                   "'SHA-224', 'SHA-256', 'SHA-384', 'SHA-512', 'SHA-1', 'MD5', but got '" + std::string(name) + "'.",
                   {{"parameter", "`algorithm`"}, {"functionName", "`hmac`"}, {"invalidValue", std::string(name)}},
                   "22023");
}

std::string hmac(const HmacAlgorithm& alg, std::string_view message, std::string_view key) {
  if (key.empty())
    throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.HMAC_CRYPTO_ERROR",
                     "The value of parameter(s) `key` in `hmac` is invalid: detail message: Empty key",
                     {{"parameter", "`key`"}, {"functionName", "`hmac`"}, {"detailMessage", "Empty key"}}, "22023");
  std::string k = key.size() > alg.block ? alg.hash(key) : std::string(key);
  k.resize(alg.block, '\0');
  std::string inner(alg.block, '\0'), outer(alg.block, '\0');
  for (size_t i = 0; i < alg.block; ++i) {
    inner[i] = static_cast<char>(k[i] ^ 0x36);
    outer[i] = static_cast<char>(k[i] ^ 0x5c);
  }
  inner.append(message);
  return alg.hash(outer + alg.hash(inner));
}

ColumnPtr hmac_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::string last;
  bool parsed = false;
  HmacAlgorithm alg{sha256, 64};
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    if (a.size() > 2) {
      std::string_view name = a[2]->string_at(i);
      if (!parsed || name != last) {
        alg = hmac_algorithm(name);
        last = std::string(name);
        parsed = true;
      }
    }
    b.append_bytes(hmac(alg, a[1]->string_at(i), a[0]->string_at(i)));
  });
}

}  // namespace

void register_crypto(Registry& r) {
  FunctionDef d = scalar(
      "hmac", 2, 3,
      [](const Types& a, const Config&) {
        Signature s = coerce_args("hmac", a, "BBS", DataType::binary());
        s.may_introduce_null = true;
        return s;
      },
      hmac_kernel);
  d.may_throw = true;
  d.render = [](const std::string& called, const std::vector<std::string>& a) {
    return called + "(" + a[0] + ", " + a[1] + ", " + (a.size() > 2 ? a[2] : "SHA-256") + ")";
  };
  d.usage = "hmac(key, message[, algorithm]) - Returns the HMAC of message with key, SHA-256 by default.";
  r.add(std::move(d));
}

}  // namespace ember::functions
