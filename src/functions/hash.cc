// Hash functions: hash (Murmur3, seed 42), xxhash64 (seed 42), md5, sha1, sha2, crc32, with the
// bit patterns Spark produces for each type (see digest.h).

#include <cmath>
#include <cstring>

#include "functions/digest.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

bool hashable(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kString:
    case TypeId::kBinary: return true;
    case TypeId::kDecimal: return t.precision() <= 18;
    default: return false;
  }
}

/// Folds row i of column c into `h` with the 32-bit (Murmur3) or 64-bit (XXH64) hash; nulls
/// leave the running hash unchanged, as in Spark.
template <typename H, typename IntFn, typename LongFn, typename BytesFn>
void fold(const Column& c, int64_t n, std::vector<H>& h, IntFn hi, LongFn hl, BytesFn hb) {
  const DataType& t = *c.type();
  for (int64_t i = 0; i < n; ++i) {
    if (c.is_null(i)) continue;
    H& x = h[static_cast<size_t>(i)];
    switch (t.id()) {
      case TypeId::kBoolean: x = hi(c.bool_at(i) ? 1 : 0, x); break;
      case TypeId::kByte: x = hi(c.values<int8_t>()[i], x); break;
      case TypeId::kShort: x = hi(c.values<int16_t>()[i], x); break;
      case TypeId::kInt:
      case TypeId::kDate: x = hi(c.values<int32_t>()[i], x); break;
      case TypeId::kLong:
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: x = hl(c.values<int64_t>()[i], x); break;
      case TypeId::kDecimal: x = hl(static_cast<int64_t>(c.values<int128_t>()[i]), x); break;
      case TypeId::kFloat: {
        float f = c.values<float>()[i];
        int32_t bits;
        if (f == 0.0f) f = 0.0f;  // -0.0 hashes as 0.0
        if (std::isnan(f)) bits = 0x7fc00000;
        else std::memcpy(&bits, &f, 4);
        x = hi(bits, x);
        break;
      }
      case TypeId::kDouble: {
        double d = c.values<double>()[i];
        int64_t bits;
        if (d == 0.0) d = 0.0;
        if (std::isnan(d)) bits = 0x7ff8000000000000LL;
        else std::memcpy(&bits, &d, 8);
        x = hl(bits, x);
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary: x = hb(c.string_at(i), x); break;
      default: break;
    }
  }
}

Signature hash_rule(const std::string& fn, const Types& args, TypePtr result) {
  if (args.empty())
    throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                     "The `" + fn + "` requires > 0 parameters but the actual number is 0.",
                     {{"functionName", "`" + fn + "`"}, {"expectedNum", "> 0"}, {"actualNum", "0"}});
  for (auto& t : args)
    if (!hashable(*t))
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       fn + " of " + t->sql() + " is not supported yet.");
  Signature s = coerce_args(fn, args, "*", std::move(result));
  s.never_null = true;
  return s;
}

ColumnPtr murmur3_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<int32_t> h(static_cast<size_t>(n), 42);
  for (auto& c : a)
    fold<int32_t>(*c, n, h, digest::murmur3_int, digest::murmur3_long, digest::murmur3_bytes);
  ColumnBuilder b(sig.result_type, n);
  for (int32_t v : h) b.append<int32_t>(v);
  return b.finish();
}

ColumnPtr xxhash_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<int64_t> h(static_cast<size_t>(n), 42);
  for (auto& c : a) fold<int64_t>(*c, n, h, digest::xxh64_int, digest::xxh64_long, digest::xxh64_bytes);
  ColumnBuilder b(sig.result_type, n);
  for (int64_t v : h) b.append<int64_t>(v);
  return b.finish();
}

template <typename F>
ScalarKernel hex_digest(F f) {
  return [f](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type,
                    [&](int64_t i, ColumnBuilder& b) { b.append_bytes(digest::hex(f(a[0]->string_at(i)))); });
  };
}

ColumnPtr sha2_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i) || a[1]->is_null(i)) {
      b.append_null();
      continue;
    }
    std::string_view s = a[0]->string_at(i);
    switch (int_arg(a, 1, i)) {
      case 0:
      case 256: b.append_bytes(digest::hex(digest::sha256(s))); break;
      case 224: b.append_bytes(digest::hex(digest::sha256(s, true))); break;
      case 384: b.append_bytes(digest::hex(digest::sha512(s, true))); break;
      case 512: b.append_bytes(digest::hex(digest::sha512(s))); break;
      default: b.append_null();
    }
  }
  return b.finish();
}

}  // namespace

void register_hash(Registry& r) {
  r.add(scalar("hash", 0, -1, [](const Types& a, const Config&) { return hash_rule("hash", a, DataType::int_()); },
               murmur3_kernel));
  r.add(scalar("xxhash64", 0, -1,
               [](const Types& a, const Config&) { return hash_rule("xxhash64", a, DataType::long_()); },
               xxhash_kernel));
  auto digest_rule = [](const std::string& fn, TypePtr result) -> TypeRule {
    return [fn, result](const Types& a, const Config&) { return coerce_args(fn, a, "B", result); };
  };
  r.add(scalar("md5", 1, 1, digest_rule("md5", DataType::string()),
               hex_digest([](std::string_view s) { return digest::md5(s); })));
  r.add(scalar("sha1", 1, 1, digest_rule("sha1", DataType::string()),
               hex_digest([](std::string_view s) { return digest::sha1(s); }), {"sha"}));
  r.add(scalar("sha2", 2, 2,
               [](const Types& a, const Config&) {
                 Signature s = coerce_args("sha2", a, "BI", DataType::string());
                 s.may_introduce_null = true;
                 return s;
               },
               sha2_kernel));
  r.add(scalar("crc32", 1, 1, digest_rule("crc32", DataType::long_()),
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                   b.append<int64_t>(digest::crc32(a[0]->string_at(i)));
                 });
               }));
}

}  // namespace ember::functions
