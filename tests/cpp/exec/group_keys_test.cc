// KeyEncoder: packed and byte keys agree on Spark's grouping equality (nulls equal to nulls,
// NaN to NaN, -0.0 to 0.0) and decode back to the original values.

#include "exec/group_keys.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace ember::exec {
namespace {

template <typename T>
ColumnPtr column(const TypePtr& type, const std::vector<std::optional<T>>& values) {
  ColumnBuilder b(type);
  for (auto& v : values) {
    if (v) b.append<T>(*v);
    else b.append_null();
  }
  return b.finish();
}

ColumnPtr bools(const std::vector<std::optional<bool>>& values) {
  ColumnBuilder b(DataType::boolean());
  for (auto& v : values) {
    if (v) b.append_bool(*v);
    else b.append_null();
  }
  return b.finish();
}

std::vector<PackedKey> pack(const KeyEncoder& enc, const std::vector<ColumnPtr>& cols) {
  std::vector<PackedKey> out(static_cast<size_t>(cols[0]->length()));
  enc.encode_packed(cols, cols[0]->length(), out.data());
  return out;
}

TEST(KeyEncoder, PacksOnlyFixedWidthKeysThatFit) {
  EXPECT_TRUE(KeyEncoder({}).can_pack());
  EXPECT_TRUE(KeyEncoder({DataType::long_(), DataType::int_()}).can_pack());       // 9 + 5 bytes
  EXPECT_FALSE(KeyEncoder({DataType::long_(), DataType::long_()}).can_pack());     // 18 bytes
  EXPECT_FALSE(KeyEncoder({DataType::string()}).can_pack());
  EXPECT_FALSE(KeyEncoder({DataType::decimal(10, 2)}).can_pack());
}

TEST(KeyEncoder, PackedKeysFollowGroupingEquality) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnPtr d = column<double>(DataType::double_(), {0.0, -0.0, nan, -nan, std::nullopt, 1.5});
  ColumnPtr i = column<int32_t>(DataType::int_(), {1, 1, 2, 2, std::nullopt, 0});
  KeyEncoder enc({DataType::double_(), DataType::int_()});
  auto k = pack(enc, {d, i});
  EXPECT_EQ(k[0], k[1]);  // -0.0 groups with 0.0
  EXPECT_EQ(k[2], k[3]);  // every NaN groups together
  EXPECT_NE(k[0], k[2]);
  EXPECT_NE(k[4], k[5]);
  // A null key differs from a zero value.
  auto z = pack(KeyEncoder({DataType::int_()}), {column<int32_t>(DataType::int_(), {0, std::nullopt})});
  EXPECT_NE(z[0], z[1]);
}

TEST(KeyEncoder, PackedKeysDecodeToTheirValues) {
  ColumnPtr b = bools({true, false, std::nullopt, true});
  ColumnPtr s = column<int16_t>(DataType::short_(), {-3, std::nullopt, 7, 32767});
  ColumnPtr l = column<int64_t>(DataType::long_(), {std::numeric_limits<int64_t>::min(), 5, std::nullopt, -1});
  KeyEncoder enc({DataType::boolean(), DataType::short_(), DataType::long_()});
  ASSERT_TRUE(enc.can_pack());
  auto k = pack(enc, {b, s, l});
  auto out = enc.decode_packed(k.data(), static_cast<int64_t>(k.size()));
  ASSERT_EQ(out.size(), 3u);
  for (int64_t r = 0; r < 4; ++r) {
    EXPECT_TRUE(out[0]->value_at(r) == b->value_at(r)) << r;
    EXPECT_TRUE(out[1]->value_at(r) == s->value_at(r)) << r;
    EXPECT_TRUE(out[2]->value_at(r) == l->value_at(r)) << r;
  }
}

ColumnPtr strings(const std::vector<std::optional<std::string>>& values) {
  ColumnBuilder b(DataType::string());
  for (auto& v : values) {
    if (v) b.append_bytes(*v);
    else b.append_null();
  }
  return b.finish();
}

TEST(KeyEncoder, ShortStringsPackBesideFixedWidthKeys) {
  KeyEncoder one({DataType::string()});
  EXPECT_FALSE(one.can_pack());
  EXPECT_TRUE(one.can_pack_short_strings());
  EXPECT_EQ(one.short_string_width(), 15);
  KeyEncoder two({DataType::string(), DataType::string()});
  EXPECT_EQ(two.short_string_width(), 7);
  KeyEncoder mixed({DataType::long_(), DataType::string()});  // 9 bytes, then 1 + 6
  EXPECT_EQ(mixed.short_string_width(), 6);
  EXPECT_FALSE(KeyEncoder({DataType::long_(), DataType::long_(), DataType::string()}).can_pack_short_strings());
  EXPECT_FALSE(KeyEncoder({DataType::decimal(10, 2), DataType::string()}).can_pack_short_strings());
}

TEST(KeyEncoder, ShortStringKeysFollowEqualityAndRoundTrip) {
  ColumnPtr s = strings({std::string("a"), std::string("a\0", 2), std::string(""), std::nullopt,
                         std::string("id001"), std::string("id001"), std::string("\xe6\x97\xa5\xe6\x9c\xac"),
                         std::string("fifteen bytes!!")});
  ColumnPtr i = column<int32_t>(DataType::int_(), {1, 1, 1, 1, std::nullopt, std::nullopt, 7, 8});
  KeyEncoder enc({DataType::string(), DataType::int_()});
  ASSERT_TRUE(enc.can_pack_short_strings());
  EXPECT_EQ(enc.short_string_width(), 10);
  std::vector<PackedKey> k(8);
  // "fifteen bytes!!" does not fit in 10 bytes: the whole batch is refused.
  EXPECT_FALSE(enc.try_encode_packed({s, i}, 8, k.data()));
  ASSERT_TRUE(enc.try_encode_packed({slice(s, 0, 7), slice(i, 0, 7)}, 7, k.data()));
  EXPECT_NE(k[0], k[1]);  // "a" and "a\0": lengths differ
  EXPECT_NE(k[2], k[3]);  // empty string and null
  EXPECT_NE(k[0], k[2]);
  EXPECT_EQ(k[4], k[5]);
  auto cols = enc.decode_packed(k.data(), 7);
  ASSERT_EQ(cols.size(), 2u);
  for (int64_t r = 0; r < 7; ++r) {
    EXPECT_EQ(cols[0]->is_null(r), s->is_null(r)) << r;
    if (!s->is_null(r)) EXPECT_EQ(cols[0]->string_at(r), s->string_at(r)) << r;
    EXPECT_EQ(cols[1]->is_null(r), i->is_null(r)) << r;
  }
  KeyEncoder wide({DataType::string()});
  std::vector<PackedKey> w(8);
  ASSERT_TRUE(wide.try_encode_packed({s}, 8, w.data()));
  EXPECT_EQ(wide.decode_packed(w.data(), 8)[0]->string_at(7), "fifteen bytes!!");
}

TEST(KeyEncoder, ByteKeysFollowEqualityAndRoundTrip) {
  // Every flat key type (written a column at a time) beside a nested one (a row at a time).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnPtr s = strings({std::string("a"), std::string("a\0", 2), std::string(""), std::nullopt,
                         std::string("a string longer than any packed key"), std::string(""), std::string("a")});
  ColumnPtr i = column<int32_t>(DataType::int_(), {1, 1, std::nullopt, std::nullopt, -5, std::nullopt, 1});
  ColumnPtr d = column<double>(DataType::double_(), {0.0, -0.0, nan, -nan, std::nullopt, nan, -0.0});
  ColumnPtr b = bools({true, true, std::nullopt, false, false, std::nullopt, true});
  ColumnPtr l = column<int64_t>(DataType::long_(), {7, 7, 7, 7, std::nullopt, 7, 7});
  ColumnBuilder nested(DataType::array(DataType::int_()));
  for (int r = 0; r < 7; ++r) {
    nested.child(0).append<int32_t>(r % 2);
    nested.close_list();
  }
  const std::vector<ColumnPtr> flat{s, i, d, b, l};
  std::vector<ColumnPtr> with_nested = flat;
  with_nested.push_back(nested.finish());
  for (const auto& cols : {flat, with_nested}) {
    std::vector<TypePtr> types;
    for (auto& c : cols) types.push_back(c->type());
    KeyEncoder enc(types);
    std::string arena = "xyz";  // keys are appended behind what the arena holds
    std::vector<uint32_t> offs, lens;
    enc.encode(cols, 7, arena, offs, lens);
    EXPECT_EQ(offs[0], 3u);
    std::vector<std::string_view> keys;
    for (int r = 0; r < 7; ++r) keys.emplace_back(arena.data() + offs[r], lens[r]);
    // Rows 0 and 6 are equal in grouping (-0.0 is 0.0); rows 2 and 5 too (NaN is NaN, nulls
    // are equal, empty strings equal); every other pair differs in some key.
    for (int r = 0; r < 7; ++r)
      for (int q = 0; q < 7; ++q) {
        const bool same = r == q || (r == 0 && q == 6) || (r == 6 && q == 0) || (r == 2 && q == 5) || (r == 5 && q == 2);
        EXPECT_EQ(keys[r] == keys[q], same && (cols.size() == flat.size() || r % 2 == q % 2)) << r << " " << q;
      }
    auto back = enc.decode(keys);
    ASSERT_EQ(back.size(), cols.size());
    for (size_t k = 0; k < cols.size(); ++k)
      for (int r = 0; r < 7; ++r) {
        ASSERT_EQ(back[k]->is_null(r), cols[k]->is_null(r)) << k << " " << r;
      }
    for (int r = 0; r < 7; ++r) {
      if (!s->is_null(r)) EXPECT_EQ(back[0]->string_at(r), s->string_at(r));
      if (!i->is_null(r)) EXPECT_EQ(back[1]->values<int32_t>()[r], i->values<int32_t>()[r]);
      if (!b->is_null(r)) EXPECT_EQ(back[3]->bool_at(r), b->bool_at(r));
      if (!l->is_null(r)) EXPECT_EQ(back[4]->values<int64_t>()[r], 7);
    }
    EXPECT_TRUE(std::isnan(back[2]->values<double>()[2]));
    EXPECT_EQ(back[2]->values<double>()[1], 0.0);
  }
}

/// A string column carrying dictionary codes, as the Parquet reader leaves them.
ColumnPtr coded(const std::vector<std::optional<std::string>>& values, const std::vector<int32_t>& codes,
                int32_t cardinality) {
  auto buf = Buffer::allocate(codes.size() * sizeof(int32_t));
  std::memcpy(buf->mutable_data(), codes.data(), codes.size() * sizeof(int32_t));
  auto d = std::make_shared<DictionaryCodes>();
  d->codes = buf;
  d->cardinality = cardinality;
  return strings(values)->with_dictionary_codes(d);
}

/// Rows i and j have equal codes exactly when `same(i, j)`.
template <typename Same>
void expect_grouping(const std::vector<uint32_t>& codes, uint32_t domain, Same same) {
  for (size_t i = 0; i < codes.size(); ++i) {
    EXPECT_LT(codes[i], domain) << i;
    for (size_t j = 0; j < codes.size(); ++j) EXPECT_EQ(codes[i] == codes[j], same(i, j)) << i << " " << j;
  }
}

TEST(SmallDomainCodes, DictionaryCodesNarrowIntegersBooleansAndNulls) {
  // Codes 0..2 of a 3-entry dictionary; row 4 is null (its code arbitrary).
  ColumnPtr s = coded({"a", "b", "a", "c", std::nullopt, "b"}, {0, 1, 0, 2, 77, 1}, 3);
  ColumnPtr i = column<int64_t>(DataType::long_(), {1000001, 1000003, 1000001, 1000001, std::nullopt, 1000003});
  ColumnPtr b = bools({true, true, true, false, std::nullopt, true});
  std::vector<uint32_t> codes;
  uint32_t domain = 0;
  ASSERT_TRUE(small_domain_codes({s, i, b}, 6, 1024, codes, &domain));
  EXPECT_EQ(domain, 4u * 4u * 3u);  // 3 codes + null, 3 values + null, 2 values + null
  expect_grouping(codes, domain, [&](size_t x, size_t y) {
    const auto r = static_cast<int64_t>(x), q = static_cast<int64_t>(y);
    return s->value_at(r) == s->value_at(q) && i->value_at(r) == i->value_at(q) && b->value_at(r) == b->value_at(q);
  });
  EXPECT_EQ(codes[0], codes[2]);
  EXPECT_EQ(codes[1], codes[5]);
}

TEST(SmallDomainCodes, RefusesWideOrUncodedKeys) {
  std::vector<uint32_t> codes;
  uint32_t domain = 0;
  // A plain string column has no codes.
  EXPECT_FALSE(small_domain_codes({strings({"a", "b"})}, 2, 1024, codes, &domain));
  EXPECT_FALSE(small_domain_codes({column<double>(DataType::double_(), {1.0, 2.0})}, 2, 1024, codes, &domain));
  // An integer range wider than the domain allows, alone or as a product.
  ColumnPtr wide = column<int32_t>(DataType::int_(), {0, 2000});
  EXPECT_FALSE(small_domain_codes({wide}, 2, 1024, codes, &domain));
  ColumnPtr forty = column<int32_t>(DataType::int_(), {0, 39});
  EXPECT_TRUE(small_domain_codes({forty}, 2, 1024, codes, &domain));
  EXPECT_EQ(domain, 40u);
  EXPECT_FALSE(small_domain_codes({forty, forty}, 2, 1024, codes, &domain));
  // Extreme values whose span does not fit 64 bits signed.
  ColumnPtr extremes = column<int64_t>(DataType::long_(), {std::numeric_limits<int64_t>::min(),
                                                           std::numeric_limits<int64_t>::max()});
  EXPECT_FALSE(small_domain_codes({extremes}, 2, 1024, codes, &domain));
}

TEST(SmallDomainCodes, AllNullColumns) {
  std::vector<uint32_t> codes;
  uint32_t domain = 0;
  ColumnPtr nulls = column<int32_t>(DataType::int_(), {std::nullopt, std::nullopt});
  ColumnPtr i = column<int32_t>(DataType::int_(), {5, 6});
  ASSERT_TRUE(small_domain_codes({nulls, i, Column::all_null(DataType::null(), 2)}, 2, 1024, codes, &domain));
  EXPECT_EQ(domain, 2u);
  EXPECT_NE(codes[0], codes[1]);
}

}  // namespace
}  // namespace ember::exec
