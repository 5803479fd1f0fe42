#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "column/column.h"

namespace ember {
namespace {

ColumnPtr strings(const std::vector<std::string>& values) {
  ColumnBuilder b(DataType::string());
  for (const auto& v : values) b.append_bytes(v);
  return b.finish();
}

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

}  // namespace
}  // namespace ember
