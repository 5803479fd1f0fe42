#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../column_test_util.h"
#include "column/column.h"

namespace ember {
namespace {

ColumnPtr strings(const std::vector<std::string>& values) { return test_util::string_column(values); }

std::shared_ptr<DictionaryCodes> codes_of(const std::vector<int32_t>& codes, int32_t cardinality) {
  auto d = std::make_shared<DictionaryCodes>();
  d->codes = Buffer::allocate(codes.size() * sizeof(int32_t));
  if (!codes.empty()) std::memcpy(d->codes->mutable_data(), codes.data(), codes.size() * sizeof(int32_t));
  d->cardinality = cardinality;
  return d;
}

const std::vector<std::string> kDictionary = {"", "a", "exactly sixteen!", "a value far longer than sixteen bytes",
                                              "xy"};

// Rows 0..6 over kDictionary; row 3 is null and its code is out of range, as a null row's code
// may be.
ColumnPtr coded() {
  std::vector<int32_t> codes = {4, 3, 2, 99, 1, 0, 4};
  auto validity = Buffer::zeroed(1);
  for (int i : {0, 1, 2, 4, 5, 6}) set_bit(validity->mutable_data(), i);
  return Column::from_dictionary(DataType::string(), 7, validity, strings(kDictionary), codes_of(codes, 5));
}

void expect_rows(const Column& c, const std::vector<int>& dictionary_rows) {
  ASSERT_EQ(c.length(), static_cast<int64_t>(dictionary_rows.size()));
  for (size_t k = 0; k < dictionary_rows.size(); ++k) {
    const auto i = static_cast<int64_t>(k);
    if (dictionary_rows[k] < 0) {
      EXPECT_TRUE(c.is_null(i)) << k;
      continue;
    }
    ASSERT_TRUE(c.is_valid(i)) << k;
    EXPECT_EQ(c.string_at(i), kDictionary[static_cast<size_t>(dictionary_rows[k])]) << k;
  }
}

// Rows read through the dictionary without making the bytes; asking for the buffers makes them
// once, equal to what the rows read, with zeroed padding.
TEST(DictionaryColumnTest, ReadsRowsBeforeAndAfterMakingTheBytes) {
  ColumnPtr c = coded();
  expect_rows(*c, {4, 3, 2, -1, 1, 0, 4});
  EXPECT_FALSE(c->strings_made());
  const int32_t* offsets = c->offsets();
  EXPECT_TRUE(c->strings_made());
  EXPECT_EQ(offsets, c->offsets());  // made once
  EXPECT_EQ(offsets[3], offsets[4]);  // the null row holds no bytes
  expect_rows(*c, {4, 3, 2, -1, 1, 0, 4});
  const Buffer& data = *c->data_buffer();
  for (size_t b = static_cast<size_t>(offsets[7]); b < static_cast<size_t>(offsets[7]) + 16; ++b)
    EXPECT_EQ(data.data()[b], 0) << b;
  EXPECT_EQ(c->value_at(1).as_bytes(), kDictionary[3]);
}

// Gather, slice and concat keep a column whose bytes were not made as codes over the same
// dictionary; once made, rows gather as bytes and keep their codes.
TEST(DictionaryColumnTest, MovingRowsKeepsTheCodes) {
  ColumnPtr c = coded();
  std::vector<int32_t> idx = {6, -1, 3, 1, 1};
  ColumnPtr g = gather(*c, idx.data(), 5);
  EXPECT_EQ(g->dictionary(), c->dictionary());
  EXPECT_FALSE(g->strings_made());
  EXPECT_EQ(g->null_count(), 2);
  expect_rows(*g, {4, -1, -1, 3, 3});

  ColumnPtr s = slice(c, 0, 3);
  EXPECT_EQ(s->dictionary(), c->dictionary());
  expect_rows(*s, {4, 3, 2});
  ColumnPtr middle = slice(c, 2, 3);
  expect_rows(*middle, {2, -1, 1});

  ColumnPtr joined = concat({c, g});
  EXPECT_EQ(joined->dictionary(), c->dictionary());
  EXPECT_FALSE(joined->strings_made());
  expect_rows(*joined, {4, 3, 2, -1, 1, 0, 4, 4, -1, -1, 3, 3});
  // A part over another dictionary: the parts' bytes are made and joined.
  ColumnPtr mixed = concat({c, strings({"q"})});
  EXPECT_EQ(mixed->dictionary(), nullptr);
  expect_rows(*slice(mixed, 0, 7), {4, 3, 2, -1, 1, 0, 4});
  EXPECT_EQ(mixed->string_at(7), "q");

  (void)c->data_buffer();
  ColumnPtr made = gather(*c, idx.data(), 5);
  EXPECT_EQ(made->dictionary(), nullptr);
  ASSERT_NE(made->dictionary_codes(), nullptr);
  EXPECT_EQ(made->dictionary_codes()->codes->as<int32_t>()[0], 4);
  expect_rows(*made, {4, -1, -1, 3, 3});
}

// A validity that makes a null row valid shows the bytes a made column holds for it (none),
// not the dictionary value its arbitrary code names.
TEST(DictionaryColumnTest, NewValidityShowsTheMadeBytes) {
  ColumnPtr c = Column::from_dictionary(DataType::string(), 2, [] {
    auto v = Buffer::zeroed(1);
    set_bit(v->mutable_data(), 0);
    return v;
  }(), strings(kDictionary), codes_of({1, 2}, 5));
  ColumnPtr all_valid = c->with_validity(nullptr);
  EXPECT_EQ(all_valid->string_at(0), "a");
  EXPECT_EQ(all_valid->string_at(1), "");
}

// Threads that ask for the bytes at once all see one made copy.
TEST(DictionaryColumnTest, BytesAreMadeOnceAcrossThreads) {
  std::vector<int32_t> codes(100000);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<int32_t>(i % kDictionary.size());
  ColumnPtr c = Column::from_dictionary(DataType::string(), static_cast<int64_t>(codes.size()), nullptr,
                                        strings(kDictionary), codes_of(codes, 5));
  std::vector<const int32_t*> seen(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) threads.emplace_back([&, t] { seen[t] = c->offsets(); });
  for (auto& t : threads) t.join();
  for (const int32_t* s : seen) EXPECT_EQ(s, seen[0]);
  for (int64_t i = 0; i < c->length(); i += 997)
    EXPECT_EQ(c->string_at(i), kDictionary[static_cast<size_t>(i) % kDictionary.size()]);
}

}  // namespace
}  // namespace ember
