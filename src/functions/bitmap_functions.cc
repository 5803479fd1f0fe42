// Bitmaps of 32,768 bits, stored as 4,096-byte BINARY values with bit p at byte p / 8, bit
// p % 8 (least significant first): bitmap_bit_position and bitmap_bucket_number split a BIGINT
// into its bucket and its position in that bucket's bitmap, bitmap_count counts set bits,
// bitmap_construct_agg sets the positions of a group, bitmap_or_agg / bitmap_and_agg combine
// bitmaps (inputs longer than a bitmap are cut, shorter ones padded with zero bytes).

#include <array>
#include <bit>

#include "functions/aggregate_state.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

constexpr int64_t kBitmapBytes = 4096;
constexpr int64_t kBitmapBits = kBitmapBytes * 8;

/// Negation with Java's two's complement wrap (the least BIGINT is its own negation).
int64_t wrap_negate(int64_t v) { return static_cast<int64_t>(0 - static_cast<uint64_t>(v)); }

/// Positive values count from 1 (bucket 1 holds 1..32768), the others from 0 downwards.
int64_t bit_position(int64_t v) { return v > 0 ? (v - 1) % kBitmapBits : wrap_negate(v) % kBitmapBits; }
int64_t bucket_number(int64_t v) { return v > 0 ? 1 + (v - 1) / kBitmapBits : v / kBitmapBits; }

/// State of the bitmap aggregates: the bitmap itself, on the heap.
using Bitmap = std::array<uint8_t, kBitmapBytes>;

enum class BitmapAgg { kConstruct, kOr, kAnd };

/// State: the group's bitmap, made by `init` (all ones for bitmap_and_agg, else all zeros).
class BitmapAggregate final : public HeapStateAggregate<Bitmap> {
 public:
  explicit BitmapAggregate(BitmapAgg kind) : kind_(kind) {}
  void init(uint8_t* s) const override {
    state(s).create().fill(kind_ == BitmapAgg::kAnd ? 0xFF : 0);
  }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      Bitmap& b = *state(states[i]);
      if (kind_ == BitmapAgg::kConstruct) {
        int64_t p = c.values<int64_t>()[i];
        if (p < 0 || p >= kBitmapBits)
          throw SparkError(ErrorKind::kArithmetic, "INVALID_BITMAP_POSITION",
                           "The 0-indexed bitmap position " + std::to_string(p) +
                               " is out of bounds. The bitmap has " + std::to_string(kBitmapBits) + " bits (" +
                               std::to_string(kBitmapBytes) + " bytes).",
                           {{"bitPosition", std::to_string(p)},
                            {"bitmapNumBytes", std::to_string(kBitmapBytes)},
                            {"bitmapNumBits", std::to_string(kBitmapBits)}});
        b[static_cast<size_t>(p / 8)] |= static_cast<uint8_t>(1u << (p % 8));
      } else {
        combine(b, c.string_at(i));
      }
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    Bitmap& d = *state(dst);
    const Bitmap& s = *state(src);
    for (size_t k = 0; k < d.size(); ++k) d[k] = kind_ == BitmapAgg::kAnd ? d[k] & s[k] : d[k] | s[k];
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const Bitmap& b = *state(states[i]);
      out.append_bytes(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    }
  }

 private:
  void combine(Bitmap& b, std::string_view v) const {
    size_t len = std::min(v.size(), b.size());
    for (size_t k = 0; k < len; ++k) {
      auto x = static_cast<uint8_t>(v[k]);
      b[k] = kind_ == BitmapAgg::kAnd ? b[k] & x : b[k] | x;
    }
    if (kind_ == BitmapAgg::kAnd)
      for (size_t k = len; k < b.size(); ++k) b[k] = 0;
  }
  BitmapAgg kind_;
};

/// The argument of the scalar bitmap functions is a BIGINT (numbers and strings cast to it) or,
/// for bitmap_count, a BINARY.
TypeRule bitmap_rule(const std::string& fn, bool binary, TypePtr result) {
  return [fn, binary, result](const Types& a, const Config&) {
    const TypeId id = a[0]->id();
    bool ok = binary ? id == TypeId::kBinary || id == TypeId::kNull
                     : a[0]->is_numeric() || id == TypeId::kString || id == TypeId::kNull;
    if (!ok)
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("The first parameter requires the \"") + (binary ? "BINARY" : "BIGINT") +
                              "\" type, however \"" + a[0]->sql() + "\" has the type \"" + a[0]->sql() + "\".",
                          call_sql(fn, a));
    return coerce_args(fn, a, binary ? "*" : "L", result);
  };
}

FunctionDef bitmap_aggregate(const std::string& name, BitmapAgg kind, std::string usage) {
  FunctionDef d;
  d.name = name;
  d.kind = FunctionKind::kAggregate;
  d.min_args = d.max_args = 1;
  d.type_rule = [name, kind](const Types& a, const Config&) {
    const TypeId id = a[0]->id();
    bool construct = kind == BitmapAgg::kConstruct;
    bool ok = construct ? a[0]->is_integral() || id == TypeId::kNull : id == TypeId::kBinary || id == TypeId::kNull;
    if (!ok)
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("The first parameter requires the \"") + (construct ? "BIGINT" : "BINARY") +
                              "\" type, however \"" + a[0]->sql() + "\" has the type \"" + a[0]->sql() + "\".",
                          call_sql(name, a));
    Signature s;
    s.arg_types = {construct && id != TypeId::kNull ? DataType::long_() : a[0]};
    s.result_type = DataType::binary();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [kind](const Signature&, const EvalContext&) { return std::make_unique<BitmapAggregate>(kind); };
  d.may_throw = kind == BitmapAgg::kConstruct;
  d.usage = std::move(usage);
  return d;
}

}  // namespace

void register_bitmap_functions(Registry& r) {
  for (bool bucket : {false, true}) {
    std::string fn = bucket ? "bitmap_bucket_number" : "bitmap_bit_position";
    FunctionDef d = scalar(fn, 1, 1, bitmap_rule(fn, false, DataType::long_()),
                           [bucket](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                             return unary_fixed<int64_t, int64_t, false>(*a[0], n, sig.result_type, [bucket](int64_t v) {
                               return bucket ? bucket_number(v) : bit_position(v);
                             });
                           });
    d.usage = bucket ? "bitmap_bucket_number(child) - Returns the bucket number for the given input child expression."
                     : "bitmap_bit_position(child) - Returns the bit position for the given input child expression.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar("bitmap_count", 1, 1, bitmap_rule("bitmap_count", true, DataType::long_()),
                           [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                             return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                               int64_t count = 0;
                               for (char ch : a[0]->string_at(i)) count += std::popcount(static_cast<uint8_t>(ch));
                               b.append<int64_t>(count);
                             });
                           });
    d.usage = "bitmap_count(child) - Returns the number of set bits in the child bitmap.";
    r.add(std::move(d));
  }
  r.add(bitmap_aggregate("bitmap_construct_agg", BitmapAgg::kConstruct,
                         "bitmap_construct_agg(child) - Returns a bitmap with the positions of the bits set from all "
                         "the values from the child expression."));
  r.add(bitmap_aggregate("bitmap_or_agg", BitmapAgg::kOr,
                         "bitmap_or_agg(child) - Returns a bitmap that is the bitwise OR of all of the bitmaps from "
                         "the child expression."));
  r.add(bitmap_aggregate("bitmap_and_agg", BitmapAgg::kAnd,
                         "bitmap_and_agg(child) - Returns a bitmap that is the bitwise AND of all of the bitmaps from "
                         "the child expression."));
}

}  // namespace ember::functions
