// Keyed message authentication: hmac(key, message[, algorithm]) over the digests of digest.h
// (RFC 2104: the key hashed when longer than the block, padded with zeros, then
// H((key ^ opad) || H((key ^ ipad) || message))); and AES: aes_encrypt, aes_decrypt and
// try_aes_decrypt through OpenSSL's libcrypto, with Spark's modes (GCM by default, CBC and ECB),
// paddings, IVs and AAD. Without libcrypto at build time the AES functions raise
// UNSUPPORTED_FEATURE.

#include "functions/digest.h"
#include "functions/string_util.h"

#ifdef EMBER_HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif

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

// ---------------------------------------------------------------------------------------------
// AES.

enum class AesMode { kEcb, kCbc, kGcm };

[[noreturn]] void aes_error(const std::string& cls, const std::string& message, const char* state) {
  throw SparkError(cls.rfind("UNSUPPORTED", 0) == 0 ? ErrorKind::kUnsupportedOperation : ErrorKind::kRuntime, cls,
                   message, {}, state);
}

[[noreturn]] void aes_crypto_error(const std::string& detail) {
  aes_error("INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR",
            "The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: " +
                detail,
            "22023");
}

std::string upper_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// The mode for a (mode, padding) pair Spark supports: ECB and CBC with PKCS padding, GCM
/// without; DEFAULT picks the mode's own.
AesMode aes_mode(std::string_view mode, std::string_view padding, const char* fn) {
  std::string m = upper_ascii(mode), p = upper_ascii(padding);
  if ((m == "ECB" || m == "CBC") && (p == "PKCS" || p == "DEFAULT")) return m == "ECB" ? AesMode::kEcb : AesMode::kCbc;
  if (m == "GCM" && (p == "NONE" || p == "DEFAULT")) return AesMode::kGcm;
  aes_error("UNSUPPORTED_FEATURE.AES_MODE",
            "The feature is not supported: AES-" + std::string(mode) + " with the padding " + std::string(padding) +
                " by the `" + fn + "` function.",
            "0A000");
}

void check_key(std::string_view key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    aes_error("INVALID_PARAMETER_VALUE.AES_KEY_LENGTH",
              "The value of parameter(s) `key` in `aes_encrypt`/`aes_decrypt` is invalid: expects a binary value "
              "with 16, 24 or 32 bytes, but got " + std::to_string(key.size()) + " bytes.",
              "22023");
}

#ifdef EMBER_HAVE_OPENSSL
const EVP_CIPHER* cipher_for(AesMode mode, size_t key_bytes) {
  switch (mode) {
    case AesMode::kEcb: return key_bytes == 16 ? EVP_aes_128_ecb() : key_bytes == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
    case AesMode::kCbc: return key_bytes == 16 ? EVP_aes_128_cbc() : key_bytes == 24 ? EVP_aes_192_cbc() : EVP_aes_256_cbc();
    default: return key_bytes == 16 ? EVP_aes_128_gcm() : key_bytes == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
  }
}

/// One EVP cipher run; `tag` is read (decrypting) or written (encrypting) for GCM.
std::string run_cipher(bool encrypt, AesMode mode, std::string_view key, std::string_view iv, std::string_view aad,
                       std::string_view data, std::string* tag) {
  std::unique_ptr<EVP_CIPHER_CTX, void (*)(EVP_CIPHER_CTX*)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  const EVP_CIPHER* cipher = cipher_for(mode, key.size());
  auto u8 = [](std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); };
  bool ok = EVP_CipherInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr, encrypt ? 1 : 0) == 1;
  if (ok && mode == AesMode::kGcm)
    ok = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(iv.size()), nullptr) == 1;
  ok = ok && EVP_CipherInit_ex(ctx.get(), nullptr, nullptr, u8(key), iv.empty() ? nullptr : u8(iv), -1) == 1;
  int len = 0;
  if (ok && mode == AesMode::kGcm && !aad.empty())
    ok = EVP_CipherUpdate(ctx.get(), nullptr, &len, u8(aad), static_cast<int>(aad.size())) == 1;
  std::string out(data.size() + 32, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  int total = 0;
  if (ok && !data.empty()) {
    ok = EVP_CipherUpdate(ctx.get(), o, &len, u8(data), static_cast<int>(data.size())) == 1;
    total = len;
  }
  if (ok && mode == AesMode::kGcm && !encrypt)
    ok = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, 16, const_cast<char*>(tag->data())) == 1;
  if (!ok) aes_crypto_error("Invalid buffer arguments");
  if (EVP_CipherFinal_ex(ctx.get(), o + total, &len) != 1)
    aes_crypto_error(mode == AesMode::kGcm ? "Tag mismatch!"
                                           : "Given final block not properly padded. Such issues can arise if a bad "
                                             "key is used during decryption.");
  total += len;
  if (mode == AesMode::kGcm && encrypt) {
    tag->assign(16, '\0');
    EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, tag->data());
  }
  out.resize(static_cast<size_t>(total));
  return out;
}

std::string random_bytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1)
    aes_crypto_error("no random bytes for the initialization vector");
  return out;
}
#endif

/// aes_encrypt's output: the IV (CBC, GCM), the ciphertext and the GCM tag.
std::string aes_encrypt(std::string_view input, std::string_view key, AesMode mode, std::string_view iv,
                        std::string_view aad) {
  check_key(key);
  const char* name = mode == AesMode::kEcb ? "ECB" : mode == AesMode::kCbc ? "CBC" : "GCM";
  if (mode == AesMode::kEcb && !iv.empty())
    aes_error("UNSUPPORTED_FEATURE.AES_MODE_IV",
              "The feature is not supported: `aes_encrypt` with AES-ECB does not support initialization vectors "
              "(IVs).",
              "0A000");
  if (mode != AesMode::kGcm && !aad.empty())
    aes_error("UNSUPPORTED_FEATURE.AES_MODE_AAD",
              std::string("The feature is not supported: `aes_encrypt` with AES-") + name +
                  " does not support additional authenticate data (AAD).",
              "0A000");
  size_t iv_bytes = mode == AesMode::kCbc ? 16 : 12;
  if (mode != AesMode::kEcb && !iv.empty() && iv.size() != iv_bytes)
    aes_error("INVALID_PARAMETER_VALUE.AES_IV_LENGTH",
              "The value of parameter(s) `iv` in `aes_encrypt`/`aes_decrypt` is invalid: supports 16-byte CBC IVs "
              "and 12-byte GCM IVs, but got " + std::to_string(iv.size()) + " bytes for " + name + ".",
              "22023");
#ifdef EMBER_HAVE_OPENSSL
  std::string v = mode == AesMode::kEcb ? std::string() : iv.empty() ? random_bytes(iv_bytes) : std::string(iv);
  std::string tag;
  std::string body = run_cipher(true, mode, key, v, aad, input, &tag);
  return v + body + tag;
#else
  (void)input;
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: aes_encrypt (this build has no OpenSSL).");
#endif
}

std::string aes_decrypt(std::string_view input, std::string_view key, AesMode mode, std::string_view aad) {
  check_key(key);
  if (mode != AesMode::kGcm && !aad.empty())
    aes_error("UNSUPPORTED_FEATURE.AES_MODE_AAD",
              std::string("The feature is not supported: `aes_decrypt` with AES-") +
                  (mode == AesMode::kEcb ? "ECB" : "CBC") + " does not support additional authenticate data (AAD).",
              "0A000");
#ifdef EMBER_HAVE_OPENSSL
  if (mode == AesMode::kEcb) {
    if (input.size() % 16) aes_crypto_error("Input length must be multiple of 16 when decrypting with padded cipher");
    return run_cipher(false, mode, key, {}, {}, input, nullptr);
  }
  if (mode == AesMode::kCbc) {
    if (input.size() < 16 || input.size() % 16)
      aes_crypto_error("Input length must be multiple of 16 when decrypting with padded cipher");
    return run_cipher(false, mode, key, input.substr(0, 16), {}, input.substr(16), nullptr);
  }
  if (input.size() < 28) aes_crypto_error("Invalid buffer arguments");
  std::string tag(input.substr(input.size() - 16));
  return run_cipher(false, mode, key, input.substr(0, 12), aad, input.substr(12, input.size() - 28), &tag);
#else
  (void)input;
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: aes_decrypt (this build has no OpenSSL).");
#endif
}

/// The value of optional string argument k at row i, or `fallback` when the call omits it.
std::string_view opt_arg(const Args& a, size_t k, int64_t i, std::string_view fallback) {
  return a.size() > k ? a[k]->string_at(i) : fallback;
}

ColumnPtr aes_encrypt_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    AesMode mode = aes_mode(opt_arg(a, 2, i, "GCM"), opt_arg(a, 3, i, "DEFAULT"), "aes_encrypt`/`aes_decrypt");
    b.append_bytes(aes_encrypt(a[0]->string_at(i), a[1]->string_at(i), mode, opt_arg(a, 4, i, ""),
                               opt_arg(a, 5, i, "")));
  });
}

ColumnPtr aes_decrypt_kernel(const Args& a, int64_t n, const Signature& sig, bool try_form) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    try {
      AesMode mode = aes_mode(opt_arg(a, 2, i, "GCM"), opt_arg(a, 3, i, "DEFAULT"), "aes_encrypt`/`aes_decrypt");
      b.append_bytes(aes_decrypt(a[0]->string_at(i), a[1]->string_at(i), mode, opt_arg(a, 4, i, "")));
    } catch (const SparkError&) {
      if (!try_form) throw;
      b.append_null();
    }
  });
}

/// Spark shows the defaulted arguments in column names: GCM, DEFAULT and empty IV and AAD.
auto aes_render(size_t args) {
  return [args](const std::string& called, const std::vector<std::string>& a) {
    static const char* kDefaults[] = {"GCM", "DEFAULT", "", ""};
    std::string s = called + "(";
    for (size_t k = 0; k < args; ++k) {
      if (k) s += ", ";
      s += k < a.size() ? a[k] : kDefaults[k - 2];
    }
    return s + ")";
  };
}

}  // namespace

void register_crypto(Registry& r) {
  {
    FunctionDef d = scalar(
        "aes_encrypt", 2, 6,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("aes_encrypt", a, "BBSSBB", DataType::binary());
          s.may_introduce_null = true;
          return s;
        },
        aes_encrypt_kernel);
    d.may_throw = true;
    d.render = aes_render(6);
    d.usage = "aes_encrypt(expr, key[, mode[, padding[, iv[, aad]]]]) - Returns an encrypted value of expr using "
              "AES in the given mode with the specified padding.";
    r.add(std::move(d));
  }
  for (bool try_form : {false, true}) {
    std::string name = try_form ? "try_aes_decrypt" : "aes_decrypt";
    FunctionDef d = scalar(
        name, 2, 5,
        [name](const Types& a, const Config&) {
          Signature s = coerce_args(name, a, "BBSSB", DataType::binary());
          s.may_introduce_null = true;
          return s;
        },
        [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return aes_decrypt_kernel(a, n, sig, try_form);
        });
    d.may_throw = !try_form;
    d.render = aes_render(5);
    d.usage = name + "(expr, key[, mode[, padding[, aad]]]) - Returns a decrypted value of expr using AES in mode "
                     "with padding" + (try_form ? ", or NULL when decryption fails." : ".");
    r.add(std::move(d));
  }
  {
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
}

}  // namespace ember::functions
