// Hash functions: hash (Murmur3, seed 42), xxhash64 (seed 42), md5, sha1, sha2, crc32, with the
// bit patterns Spark produces for each type (see digest.h).

#include <cmath>
#include <cstring>

#include "functions/digest.h"
#include "functions/java_form.h"
#include "functions/string_util.h"
#include "functions/value_hash.h"

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
    case TypeId::kTime:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kDecimal:
      return true;
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kStruct: {
      for (const auto& f : t.fields())
        if (!hashable(*f.type)) return false;
      return true;
    }
    default:
      return false;
  }
}

/// The hash functions of one algorithm (Murmur3 or XXH64).
template <typename H>
struct Hasher {
  H (*int_fn)(int32_t, H);
  H (*long_fn)(int64_t, H);
  H (*bytes_fn)(std::string_view, H);
};

/// Folds row i of column c into `h` as Spark does: nulls leave the running hash unchanged,
/// arrays fold their elements, structs their fields, maps each key then its value.
template <typename H>
H hash_row(const Column& c, int64_t i, H h, const Hasher<H>& f) {
  if (c.is_null(i)) return h;
  switch (c.type()->id()) {
    case TypeId::kNull:
      return h;
    case TypeId::kBoolean:
      return f.int_fn(c.bool_at(i) ? 1 : 0, h);
    case TypeId::kByte:
      return f.int_fn(c.values<int8_t>()[i], h);
    case TypeId::kShort:
      return f.int_fn(c.values<int16_t>()[i], h);
    case TypeId::kInt:
    case TypeId::kDate:
      return f.int_fn(c.values<int32_t>()[i], h);
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
      return f.long_fn(c.values<int64_t>()[i], h);
    case TypeId::kDecimal: {
      int128_t v = c.values<int128_t>()[i];
      if (c.type()->precision() <= 18) return f.long_fn(static_cast<int64_t>(v), h);
      // Wider decimals hash the unscaled value's minimal big-endian two's complement bytes
      // (java.math.BigInteger.toByteArray).
      char bytes[16];
      auto u = static_cast<unsigned __int128>(v);
      for (int k = 15; k >= 0; --k, u >>= 8) bytes[k] = static_cast<char>(u & 0xFF);
      int start = 0;
      while (start < 15 && ((bytes[start] == 0 && (bytes[start + 1] & 0x80) == 0) ||
                            (bytes[start] == static_cast<char>(0xFF) && (bytes[start + 1] & 0x80) != 0)))
        ++start;
      return f.bytes_fn(std::string_view(bytes + start, static_cast<size_t>(16 - start)), h);
    }
    case TypeId::kFloat: {
      float v = c.values<float>()[i];
      int32_t bits;
      if (v == 0.0f) v = 0.0f;  // -0.0 hashes as 0.0
      if (std::isnan(v))
        bits = 0x7fc00000;
      else
        std::memcpy(&bits, &v, 4);
      return f.int_fn(bits, h);
    }
    case TypeId::kDouble: {
      double v = c.values<double>()[i];
      int64_t bits;
      if (v == 0.0) v = 0.0;
      if (std::isnan(v))
        bits = 0x7ff8000000000000LL;
      else
        std::memcpy(&bits, &v, 8);
      return f.long_fn(bits, h);
    }
    case TypeId::kString:
    case TypeId::kBinary:
      return f.bytes_fn(c.string_at(i), h);
    case TypeId::kArray: {
      const int32_t* off = c.offsets();
      for (int32_t k = off[i]; k < off[i + 1]; ++k) h = hash_row(*c.child(0), k, h, f);
      return h;
    }
    case TypeId::kMap: {
      const int32_t* off = c.offsets();
      const Column& entries = *c.child(0);
      for (int32_t k = off[i]; k < off[i + 1]; ++k) {
        h = hash_row(*entries.child(0), k, h, f);
        h = hash_row(*entries.child(1), k, h, f);
      }
      return h;
    }
    case TypeId::kStruct:
      for (const ColumnPtr& field : c.children()) h = hash_row(*field, i, h, f);
      return h;
    default:
      return h;
  }
}

template <typename H>
void fold(const Column& c, int64_t n, std::vector<H>& h, const Hasher<H>& f) {
  for (int64_t i = 0; i < n; ++i)
    h[static_cast<size_t>(i)] = hash_row(c, i, h[static_cast<size_t>(i)], f);
}

Signature hash_rule(const std::string& fn, const Types& args, TypePtr result) {
  if (args.empty())
    throw SparkError(
        ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
        "The `" + fn + "` requires > 0 parameters but the actual number is 0.",
        {{"functionName", "`" + fn + "`"}, {"expectedNum", "> 0"}, {"actualNum", "0"}});
  std::function<bool(const DataType&)> has_map = [&](const DataType& t) {
    if (t.id() == TypeId::kMap) return true;
    if (t.is_nested())
      for (const auto& f : t.fields())
        if (has_map(*f.type)) return true;
    return false;
  };
  for (auto& t : args)
    if (has_map(*t))
      throw_type_mismatch(
          "HASH_MAP_TYPE",
          "Input to the function `" + fn + "` cannot contain elements of the \"MAP\" type. In Spark, "
          "same maps may have different hashcode, thus hash expressions are prohibited on \"MAP\" "
          "elements. To restore previous behavior set \"spark.sql.legacy.allowHashOnMapType\" to "
          "\"true\".",
          call_sql(fn, args));
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
  static const Hasher<int32_t> f{digest::murmur3_int, digest::murmur3_long, digest::murmur3_bytes};
  for (auto& c : a) fold<int32_t>(*c, n, h, f);
  ColumnBuilder b(sig.result_type, n);
  for (int32_t v : h) b.append<int32_t>(v);
  return b.finish();
}

ColumnPtr xxhash_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  std::vector<int64_t> h(static_cast<size_t>(n), 42);
  static const Hasher<int64_t> f{digest::xxh64_int, digest::xxh64_long, digest::xxh64_bytes};
  for (auto& c : a) fold<int64_t>(*c, n, h, f);
  ColumnBuilder b(sig.result_type, n);
  for (int64_t v : h) b.append<int64_t>(v);
  return b.finish();
}

template <typename F>
ScalarKernel hex_digest(F f) {
  return [f](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      b.append_bytes(digest::hex(f(a[0]->string_at(i))));
    });
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
      case 256:
        b.append_bytes(digest::hex(digest::sha256(s)));
        break;
      case 224:
        b.append_bytes(digest::hex(digest::sha256(s, true)));
        break;
      case 384:
        b.append_bytes(digest::hex(digest::sha512(s, true)));
        break;
      case 512:
        b.append_bytes(digest::hex(digest::sha512(s)));
        break;
      default:
        b.append_null();
    }
  }
  return b.finish();
}

}  // namespace

bool value_hashable(const DataType& t) { return hashable(t); }

int64_t xxhash64_value(const Column& c, int64_t i, int64_t seed) {
  static const Hasher<int64_t> f{digest::xxh64_int, digest::xxh64_long, digest::xxh64_bytes};
  return hash_row<int64_t>(c, i, seed, f);
}

void register_hash(Registry& r) {
  r.add(scalar(
      "hash", 0, -1,
      [](const Types& a, const Config&) { return hash_rule("hash", a, DataType::int_()); },
      murmur3_kernel));
  r.add(scalar(
      "xxhash64", 0, -1,
      [](const Types& a, const Config&) { return hash_rule("xxhash64", a, DataType::long_()); },
      xxhash_kernel));
  // Spark's hash expressions keep their seed, which their toString shows: `hash(a, 42)`.
  set_java_form("hash", java_form_appending({"42"}));
  set_java_form("xxhash64", java_form_appending({"42"}));
  auto digest_rule = [](const std::string& fn, TypePtr result) -> TypeRule {
    return [fn, result](const Types& a, const Config&) { return coerce_args(fn, a, "B", result); };
  };
  r.add(scalar("md5", 1, 1, digest_rule("md5", DataType::string()),
               hex_digest([](std::string_view s) { return digest::md5(s); })));
  r.add(scalar("sha1", 1, 1, digest_rule("sha1", DataType::string()),
               hex_digest([](std::string_view s) { return digest::sha1(s); }), {"sha"}));
  r.add(scalar(
      "sha2", 2, 2,
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
