#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../column_test_util.h"
#include "column/column.h"

namespace ember {
namespace {

ColumnPtr strings(const std::vector<std::string>& values) { return test_util::string_column(values); }

// Gathered strings equal their sources whatever their length and place: short values near the
// end of the source buffer (where a fixed-width copy would read past it), long values, empty
// values and the nulls of index -1, in any order and repeated.
TEST(GatherTest, StringsOfEveryLengthAndPlace) {
  std::vector<std::string> values = {"", "A", "DELIVER IN PERSON", "exactly sixteen!",
                                     "a value far longer than sixteen bytes", "xy"};
  ColumnPtr in = strings(values);
  std::vector<int32_t> idx = {5, 4, 3, 2, 1, 0, -1, 5, 5, 1, 4};
  ColumnPtr out = gather(*in, idx.data(), static_cast<int64_t>(idx.size()));
  ASSERT_EQ(out->length(), static_cast<int64_t>(idx.size()));
  EXPECT_EQ(out->null_count(), 1);
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0) {
      EXPECT_TRUE(out->is_null(static_cast<int64_t>(k)));
      continue;
    }
    EXPECT_EQ(out->string_at(static_cast<int64_t>(k)), values[static_cast<size_t>(idx[k])]) << k;
  }
  // The bytes past the last value are zero, as every buffer's padding is.
  const int32_t end = out->offsets()[idx.size()];
  const auto& data = *out->data_buffer();
  for (size_t b = static_cast<size_t>(end); b < data.capacity(); ++b) EXPECT_EQ(data.data()[b], 0) << b;
}

TEST(GatherTest, SixteenByteValues) {
  ColumnBuilder b(DataType::decimal(20, 2));
  for (int i = 0; i < 5; ++i) b.append<int128_t>(static_cast<int128_t>(i) * 1000000000000000000LL * 7 + i);
  ColumnPtr in = b.finish();
  std::vector<int32_t> idx = {4, -1, 0, 2, 2};
  ColumnPtr out = gather(*in, idx.data(), 5);
  EXPECT_TRUE(out->is_null(1));
  for (int k : {0, 2, 3, 4})
    EXPECT_EQ(out->values<int128_t>()[k], in->values<int128_t>()[idx[static_cast<size_t>(k)]]) << k;
}

// A string column's dictionary codes travel with its gathered rows; a column without codes
// gathers into one without.
TEST(GatherTest, DictionaryCodesFollowTheRows) {
  ColumnPtr plain = strings({"b", "a", "b", "c"});
  auto d = std::make_shared<DictionaryCodes>();
  d->codes = Buffer::allocate(4 * sizeof(int32_t));
  const int32_t codes[] = {1, 0, 1, 2};
  std::memcpy(d->codes->mutable_data(), codes, sizeof(codes));
  d->cardinality = 3;
  ColumnPtr in = plain->with_dictionary_codes(d);
  std::vector<int32_t> idx = {3, 3, 1, -1, 0};
  ColumnPtr out = gather(*in, idx.data(), 5);
  ASSERT_NE(out->dictionary_codes(), nullptr);
  EXPECT_EQ(out->dictionary_codes()->cardinality, 3);
  const int32_t* got = out->dictionary_codes()->codes->as<int32_t>();
  for (int k : {0, 1, 2, 4}) {
    EXPECT_EQ(got[k], codes[idx[static_cast<size_t>(k)]]) << k;
    EXPECT_EQ(out->string_at(k), in->string_at(idx[static_cast<size_t>(k)])) << k;
  }
  EXPECT_TRUE(out->is_null(3));
  EXPECT_EQ(gather(*plain, idx.data(), 5)->dictionary_codes(), nullptr);
}

// Fixed-width values of every width gather alike whether or not an index is -1 (a -1 past the
// first block of indices too), and keep the source's nulls.
TEST(GatherTest, FixedWidthValuesWithAndWithoutNullIndices) {
  const std::vector<TypePtr> types = {DataType::byte(), DataType::short_(), DataType::int_(), DataType::long_(),
                                      DataType::double_()};
  const int64_t rows = 300;
  for (const TypePtr& type : types) {
    ColumnBuilder b(type);
    for (int64_t i = 0; i < rows; ++i) {
      if (i % 17 == 5) {
        b.append_null();
        continue;
      }
      const int64_t v = (i * 37) % 101 - 50;
      switch (type->byte_width()) {
        case 1: b.append<int8_t>(static_cast<int8_t>(v)); break;
        case 2: b.append<int16_t>(static_cast<int16_t>(v * 300)); break;
        case 4: b.append<int32_t>(static_cast<int32_t>(v * 70000)); break;
        default:
          if (type->id() == TypeId::kDouble) b.append<double>(static_cast<double>(v) / 3);
          else b.append<int64_t>(v * 10000000000LL);
      }
    }
    ColumnPtr in = b.finish();
    for (int64_t null_at : {int64_t{-1}, int64_t{3}, int64_t{2500}}) {
      std::vector<int32_t> idx;
      for (int64_t k = 0; k < 3000; ++k) idx.push_back(static_cast<int32_t>((k * 7919) % rows));
      if (null_at >= 0) idx[static_cast<size_t>(null_at)] = -1;
      ColumnPtr out = gather(*in, idx.data(), static_cast<int64_t>(idx.size()));
      const int w = type->byte_width();
      for (size_t k = 0; k < idx.size(); ++k) {
        const int64_t r = static_cast<int64_t>(k);
        if (idx[k] < 0 || in->is_null(idx[k])) {
          EXPECT_TRUE(out->is_null(r)) << type->simple_string() << " " << k;
          continue;
        }
        ASSERT_TRUE(out->is_valid(r)) << type->simple_string() << " " << k;
        EXPECT_EQ(std::memcmp(out->data_buffer()->data() + r * w, in->data_buffer()->data() + idx[k] * w,
                              static_cast<size_t>(w)), 0)
            << type->simple_string() << " " << k;
      }
    }
  }
}

}  // namespace
}  // namespace ember
