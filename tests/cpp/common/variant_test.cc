#include "common/variant.h"

#include <gtest/gtest.h>

#include <string>

#include "common/timezone.h"

namespace ember::variant {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s += static_cast<char>(x);
  return s;
}

struct Parsed {
  std::string value, metadata;
  Ref ref() const { return Ref(metadata, value); }
};

Parsed parse(const std::string& json) {
  Builder b;
  std::string error, dup;
  EXPECT_TRUE(parse_json(json, b, &error, &dup)) << json << ": " << error;
  return {b.value(), b.metadata()};
}

std::string json_of(const Ref& r) {
  std::string out;
  to_json(r, TimeZone::utc(), out);
  return out;
}

std::string round_trip(const std::string& json) {
  Parsed p = parse(json);
  EXPECT_TRUE(is_valid(p.metadata, p.value)) << json;
  return json_of(p.ref());
}

TEST(Variant, IntegersUseTheSmallestWidth) {
  EXPECT_EQ(parse("1").value, bytes({0x0c, 0x01}));
  EXPECT_EQ(parse("300").value, bytes({0x10, 0x2c, 0x01}));
  EXPECT_EQ(parse("70000").value, bytes({0x14, 0x70, 0x11, 0x01, 0x00}));
  EXPECT_EQ(parse("5000000000").value.size(), 9u);
  EXPECT_EQ(parse("-129").ref().get_long(), -129);
  EXPECT_EQ(parse("-9223372036854775808").ref().get_long(), INT64_MIN);
  EXPECT_EQ(parse("1").metadata, bytes({0x01, 0x00, 0x00}));
}

TEST(Variant, FractionsAreDecimalsExponentsDoubles) {
  // 1.5: decimal4, scale 1, unscaled 15.
  EXPECT_EQ(parse("1.5").value, bytes({0x20, 0x01, 0x0f, 0x00, 0x00, 0x00}));
  EXPECT_EQ(parse("0.10").value, bytes({0x20, 0x02, 0x0a, 0x00, 0x00, 0x00}));
  EXPECT_EQ(parse("1e3").ref().kind(), Kind::kDouble);
  EXPECT_EQ(parse("12345678901234567890").ref().kind(), Kind::kDecimal);
  EXPECT_EQ(parse("1234567890.5").value[0], static_cast<char>(kPrimDecimal8 << 2));
  EXPECT_EQ(parse("1.23456789012345678901234567890").value[0], static_cast<char>(kPrimDecimal16 << 2));
  EXPECT_EQ(parse("123456789012345678901234567890123456789").ref().kind(), Kind::kDouble);
  EXPECT_EQ(round_trip("[1.5, 0.10, 1.00, 100.0, -0.0, 1e3, 1E-2, 12345678901234567890]"),
            "[1.5,0.1,1,100,0,1000.0,0.01,12345678901234567890]");
  EXPECT_EQ(round_trip("[1.23456789012345678901234567890, -0.000001, 1e400]"),
            "[1.2345678901234567890123456789,-0.000001,\"Infinity\"]");
}

TEST(Variant, EveryPrimitiveRoundTrips) {
  Builder b;
  size_t start = b.position();
  std::vector<size_t> starts;
  auto next = [&] { starts.push_back(b.position()); };
  next(); b.append_null();
  next(); b.append_bool(true);
  next(); b.append_bool(false);
  next(); b.append_long(-5);
  next(); b.append_long(-30000);
  next(); b.append_long(2000000000);
  next(); b.append_long(-9000000000LL);
  next(); b.append_double(2.5);
  next(); b.append_decimal(-1234, 2);
  next(); b.append_decimal(123456789012LL, 3);
  next(); b.append_decimal(static_cast<__int128>(1) << 100, 5);
  next(); b.append_date(18262);
  next(); b.append_timestamp(1577872800123000LL);
  next(); b.append_timestamp_ntz(1577872800000000LL);
  next(); b.append_float(1.5f);
  next(); b.append_binary(std::string("\x01\x02", 2));
  next(); b.append_string("short");
  next(); b.append_string(std::string(100, 'x'));
  b.finish_array(start, starts);
  Ref r(b.metadata(), b.value());
  ASSERT_TRUE(is_valid(b.metadata(), b.value()));
  ASSERT_EQ(r.size(), starts.size());
  EXPECT_EQ(json_of(r),
            "[null,true,false,-5,-30000,2000000000,-9000000000,2.5,-12.34,123456789.012,"
            "12676506002282294014967032.05376,\"2020-01-01\",\"2020-01-01 10:00:00.123+00:00\","
            "\"2020-01-01 10:00:00\",1.5,\"AQI=\",\"short\",\"" + std::string(100, 'x') + "\"]");
  EXPECT_EQ(r.element(3).kind(), Kind::kLong);
  EXPECT_EQ(r.element(6).get_long(), -9000000000LL);
  int scale;
  EXPECT_EQ(static_cast<int64_t>(r.element(9).get_decimal(&scale)), 123456789012LL);
  EXPECT_EQ(scale, 3);
  EXPECT_EQ(r.element(14).get_float(), 1.5f);
  EXPECT_EQ(r.element(16).bytes().size(), 6u);   // short string: header + 5 bytes
  EXPECT_EQ(r.element(17).bytes().size(), 105u);  // long string: header + length + 100 bytes
}

TEST(Variant, ObjectsSortFieldIdsAndKeepValueOrder) {
  Parsed p = parse(R"({"b": 1, "a": "x\u00e9\n"})");
  // Keys in order of first appearance; field ids sorted by key; values in document order.
  EXPECT_EQ(p.metadata, bytes({0x01, 0x02, 0x00, 0x01, 0x02, 'b', 'a'}));
  EXPECT_EQ(p.value, bytes({0x02, 0x02, 0x01, 0x00, 0x02, 0x00, 0x07, 0x0c, 0x01, 0x11, 'x', 0xc3, 0xa9, '\n'}));
  EXPECT_EQ(json_of(p.ref()), "{\"a\":\"xé\\n\",\"b\":1}");
  Ref v = p.ref();
  ASSERT_TRUE(p.ref().find_field("b", &v));
  EXPECT_EQ(v.get_long(), 1);
  EXPECT_FALSE(p.ref().find_field("c", &v));
}

TEST(Variant, DuplicateKeysAndMalformedJsonFail) {
  Builder b;
  std::string error, dup;
  EXPECT_FALSE(parse_json(R"({"a": {"x": 1, "x": 2}})", b, &error, &dup));
  EXPECT_EQ(dup, "x");
  for (const char* bad : {"{a:1}", "", "[1,]", "01", "NaN"}) {
    b.clear();
    EXPECT_FALSE(parse_json(bad, b, &error, &dup)) << bad;
  }
}

TEST(Variant, BigContainersUseWiderSizes) {
  // 300 fields: a 4-byte field count and 2-byte field ids.
  std::string obj = "{";
  for (int i = 0; i < 300; ++i) obj += (i ? "," : "") + std::string("\"k") + std::to_string(1000 + i) + "\":" + std::to_string(i);
  obj += "}";
  Parsed p = parse(obj);
  int param = static_cast<uint8_t>(p.value[0]) >> 2;
  EXPECT_EQ((param >> 4) & 1, 1);          // large
  EXPECT_EQ(((param >> 2) & 3) + 1, 2);    // field id size
  Ref v = p.ref();
  ASSERT_TRUE(p.ref().find_field("k1299", &v));
  EXPECT_EQ(v.get_long(), 299);
  EXPECT_TRUE(is_valid(p.metadata, p.value));

  // Offsets of 3 bytes (more than 64 KiB of data) and of 4 bytes (more than 16 MiB).
  for (size_t len : {70000u, 17000000u}) {
    std::string arr = "[\"" + std::string(len, 'y') + "\", 7]";
    Parsed q = parse(arr);
    int offset_size = ((static_cast<uint8_t>(q.value[0]) >> 2) & 3) + 1;
    EXPECT_EQ(offset_size, len == 70000u ? 3 : 4);
    EXPECT_EQ(q.ref().element(1).get_long(), 7);
    EXPECT_EQ(q.ref().element(0).get_string().size(), len);
  }

  // A dictionary with more than 255 bytes of keys takes 2-byte offsets.
  uint8_t header = static_cast<uint8_t>(p.metadata[0]);
  EXPECT_EQ(((header >> 6) & 3) + 1, 2);
}

TEST(Variant, AppendVariantRebuildsTheDictionary) {
  Parsed p = parse(R"({"a": [{"b": 1}], "A": 2})");
  Ref a = p.ref();
  ASSERT_TRUE(p.ref().find_field("a", &a));
  Builder b;
  b.append_variant(a);
  EXPECT_EQ(b.metadata(), bytes({0x01, 0x01, 0x00, 0x01, 'b'}));
  EXPECT_EQ(b.value(), bytes({0x03, 0x01, 0x00, 0x07, 0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01}));
}

TEST(Variant, MalformedBytesAreRejected) {
  EXPECT_FALSE(is_valid(bytes({0x01, 0x00, 0x00}), bytes({0x03, 0x05, 0x00})));
  EXPECT_FALSE(is_valid(bytes({0x02, 0x00, 0x00}), bytes({0x0c, 0x01})));
  EXPECT_FALSE(is_valid(bytes({0x01, 0x00, 0x00}), bytes({0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01})));
  EXPECT_TRUE(is_valid(bytes({0x01, 0x00, 0x00}), bytes({0x0c, 0x01})));
  EXPECT_EQ(decimal_plain_string(-5, 3), "-0.005");
  EXPECT_EQ(decimal_plain_string(1000, 1), "100");
}

}  // namespace
}  // namespace ember::variant
