// Protocol data types and literals to Ember types and values, and back.

#include "connect/translate_types.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "connect/translate.h"

// The tests build literals the way PySpark 4.3 does, with the fields marked deprecated.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace ember::connect {
namespace {

namespace pb = spark::connect;

TypePtr round_trip(const TypePtr& t) { return type_from_proto(type_to_proto(*t)); }

TEST(TranslateTypes, EveryEmberTypeRoundTrips) {
  std::vector<TypePtr> types = {
      DataType::null(),
      DataType::boolean(),
      DataType::byte(),
      DataType::short_(),
      DataType::int_(),
      DataType::long_(),
      DataType::float_(),
      DataType::double_(),
      DataType::decimal(38, 18),
      DataType::decimal(5, 0),
      DataType::string(),
      DataType::binary(),
      DataType::date(),
      DataType::timestamp(),
      DataType::timestamp_ntz(),
      DataType::year_month_interval(0, 0),
      DataType::year_month_interval(1, 1),
      DataType::day_time_interval(0, 3),
      DataType::day_time_interval(2, 3),
      DataType::array(DataType::int_(), false),
      DataType::array(DataType::string(), true),
      DataType::map(DataType::string(), DataType::double_(), false),
      DataType::struct_({{"a", DataType::int_(), false, "{}"},
                         {"b", DataType::array(DataType::date()), true, "{\"comment\":\"x\"}"}}),
  };
  for (const auto& t : types) {
    TypePtr back = round_trip(t);
    EXPECT_TRUE(back->equals(*t)) << t->simple_string() << " came back as "
                                  << back->simple_string();
  }
}

TEST(TranslateTypes, ProtoFormMatchesWhatSparkSends) {
  pb::DataType p = type_to_proto(*DataType::decimal(10, 2));
  ASSERT_TRUE(p.has_decimal());
  EXPECT_EQ(p.decimal().precision(), 10);
  EXPECT_EQ(p.decimal().scale(), 2);

  Schema schema = {{"id", DataType::long_(), false, "{}"},
                   {"m", DataType::map(DataType::int_(), DataType::string(), false), true, "{}"}};
  pb::DataType s = schema_to_proto(schema);
  ASSERT_TRUE(s.has_struct_());
  ASSERT_EQ(s.struct_().fields_size(), 2);
  EXPECT_EQ(s.struct_().fields(0).name(), "id");
  EXPECT_FALSE(s.struct_().fields(0).nullable());
  EXPECT_FALSE(s.struct_().fields(0).has_metadata());  // empty metadata is left out
  EXPECT_TRUE(s.struct_().fields(0).data_type().has_long_());
  EXPECT_FALSE(s.struct_().fields(1).data_type().map().value_contains_null());
}

TEST(TranslateTypes, CharAndVarcharAreStrings) {
  pb::DataType c;
  c.mutable_char_()->set_length(3);
  EXPECT_EQ(type_from_proto(c)->id(), TypeId::kString);
  pb::DataType v;
  v.mutable_var_char()->set_length(3);
  EXPECT_EQ(type_from_proto(v)->id(), TypeId::kString);
}

TEST(TranslateTypes, UnqualifiedDecimalAndIntervalsGetSparkDefaults) {
  pb::DataType d;
  d.mutable_decimal();
  EXPECT_TRUE(type_from_proto(d)->equals(*DataType::decimal(10, 0)));
  pb::DataType dt;
  dt.mutable_day_time_interval();
  EXPECT_TRUE(type_from_proto(dt)->equals(*DataType::day_time_interval(0, 3)));
}

TEST(TranslateTypes, UnparsedTypeStringsAreParsed) {
  pb::DataType u;
  u.mutable_unparsed()->set_data_type_string("array<int>");
  EXPECT_TRUE(type_from_proto(u)->equals(*DataType::array(DataType::int_())));
}

TEST(TranslateTypes, CalendarIntervalRoundTrips) {
  pb::DataType ci;
  ci.mutable_calendar_interval();
  TypePtr t = type_from_proto(ci);
  EXPECT_EQ(t->id(), TypeId::kCalendarInterval);
  EXPECT_TRUE(type_to_proto(*t).has_calendar_interval());
}

TEST(TranslateTypes, TypesEmberLacksAreRejected) {
  pb::DataType geometry;
  geometry.mutable_geometry();
  try {
    type_from_proto(geometry);
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_DATATYPE");
  }
  pb::DataType unset;
  EXPECT_THROW(type_from_proto(unset), SparkError);
}

TEST(TranslateTypes, NonStructSchemaIsOneValueColumn) {
  Schema s = schema_from_proto(type_to_proto(*DataType::int_()));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "value");
}

// ---- Literals -------------------------------------------------------------------------------

pb::Expression::Literal decimal(const std::string& text, int precision = -1, int scale = -1) {
  pb::Expression::Literal l;
  l.mutable_decimal()->set_value(text);
  if (precision >= 0) l.mutable_decimal()->set_precision(precision);
  if (scale >= 0) l.mutable_decimal()->set_scale(scale);
  return l;
}

TEST(TranslateLiterals, Scalars) {
  pb::Expression::Literal l;
  l.set_integer(42);
  TypedValue v = literal_from_proto(l);
  EXPECT_EQ(v.type->id(), TypeId::kInt);
  EXPECT_EQ(v.value.as_int(), 42);

  l.set_string("héllo");
  v = literal_from_proto(l);
  EXPECT_EQ(v.type->id(), TypeId::kString);
  EXPECT_EQ(v.value.as_bytes(), "héllo");

  l.set_float_(1.5f);
  v = literal_from_proto(l);
  EXPECT_EQ(v.type->id(), TypeId::kFloat);
  EXPECT_DOUBLE_EQ(v.value.as_double(), 1.5);

  l.set_date(18262);
  EXPECT_EQ(literal_from_proto(l).type->id(), TypeId::kDate);
  l.set_timestamp(1577836800000000);
  EXPECT_EQ(literal_from_proto(l).type->id(), TypeId::kTimestamp);
  l.set_timestamp_ntz(1);
  EXPECT_EQ(literal_from_proto(l).type->id(), TypeId::kTimestampNtz);
  l.set_day_time_interval(86400000000);
  EXPECT_TRUE(literal_from_proto(l).type->equals(*DataType::day_time_interval(0, 3)));
  l.set_year_month_interval(14);
  EXPECT_TRUE(literal_from_proto(l).type->equals(*DataType::year_month_interval(0, 1)));
  l.set_binary(std::string("\x00\x01", 2));
  EXPECT_EQ(literal_from_proto(l).value.as_bytes().size(), 2u);
}

TEST(TranslateLiterals, TypedNull) {
  pb::Expression::Literal l;
  l.mutable_null()->mutable_string();
  TypedValue v = literal_from_proto(l);
  EXPECT_TRUE(v.value.is_null());
  EXPECT_EQ(v.type->id(), TypeId::kString);
}

TEST(TranslateLiterals, DecimalsAsPySparkSendsThem) {
  // PySpark infers DecimalType(38, 18) for Python Decimals and sends their str().
  TypedValue v = literal_from_proto(decimal("1.5", 38, 18));
  EXPECT_TRUE(v.type->equals(*DataType::decimal(38, 18)));
  EXPECT_TRUE(v.value.as_decimal() == 15 * pow10_int128(17));

  v = literal_from_proto(decimal("-0.001", 10, 3));
  EXPECT_TRUE(v.value.as_decimal() == -1);
}

TEST(TranslateLiterals, DecimalsWithoutPrecisionFollowBigDecimal) {
  TypedValue v = literal_from_proto(decimal("1.50"));
  EXPECT_TRUE(v.type->equals(*DataType::decimal(3, 2)));
  EXPECT_TRUE(v.value.as_decimal() == 150);

  v = literal_from_proto(decimal("1E+2"));
  EXPECT_TRUE(v.type->equals(*DataType::decimal(3, 0)));
  EXPECT_TRUE(v.value.as_decimal() == 100);

  v = literal_from_proto(decimal("0.001"));
  EXPECT_TRUE(v.type->equals(*DataType::decimal(3, 3)));
}

TEST(TranslateLiterals, DecimalsWidenToTheirOwnPrecisionAndScale) {
  // Spark Connect keeps every digit: the declared precision and scale only widen the type.
  TypedValue v = literal_from_proto(decimal("1.005", 5, 2));
  EXPECT_TRUE(v.value.as_decimal() == 1005);
  EXPECT_EQ(v.type->precision(), 5);
  EXPECT_EQ(v.type->scale(), 3);
  v = literal_from_proto(decimal("-1.5", 10, 0));
  EXPECT_TRUE(v.value.as_decimal() == -15);
  EXPECT_EQ(v.type->precision(), 10);
  EXPECT_EQ(v.type->scale(), 1);
  // DECIMAL(6, 2) cannot hold 12345.60: Spark's Decimal.changePrecision error, naming the value.
  try {
    literal_from_proto(decimal("12345.6", 5, 2));
    ADD_FAILURE() << "12345.6 fits DECIMAL(6, 2)";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
    EXPECT_EQ(e.params().at("value"), "12345.6");
    EXPECT_EQ(e.params().at("precision"), "6");
    EXPECT_EQ(e.params().at("scale"), "2");
  }
  EXPECT_TRUE(literal_from_proto(decimal("-0.50", 38, 38)).value.as_decimal() == -5 * pow10_int128(37));
  try {
    literal_from_proto(decimal("1E+2", 38, 37));
    ADD_FAILURE() << "100 fits DECIMAL(38, 37)";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.params().at("value"), "100");
  }
  v = literal_from_proto(decimal("1E+3", 2, 0));
  EXPECT_TRUE(v.value.as_decimal() == 1000);
  EXPECT_EQ(v.type->precision(), 4);
  EXPECT_THROW(literal_from_proto(decimal("1.2.3")), SparkError);
  EXPECT_THROW(literal_from_proto(decimal("abc")), SparkError);
}

TEST(TranslateLiterals, ArraysMapsAndStructs) {
  pb::Expression::Literal arr;
  arr.mutable_array()->mutable_element_type()->mutable_integer();
  arr.mutable_array()->add_elements()->set_integer(1);
  arr.mutable_array()->add_elements()->mutable_null()->mutable_integer();
  TypedValue a = literal_from_proto(arr);
  ASSERT_EQ(a.type->id(), TypeId::kArray);
  EXPECT_EQ(a.type->element_type()->id(), TypeId::kInt);
  ASSERT_EQ(a.value.as_list().size(), 2u);
  EXPECT_TRUE(a.value.as_list()[1].is_null());

  pb::Expression::Literal map;
  map.mutable_map()->mutable_key_type()->mutable_string();
  map.mutable_map()->mutable_value_type()->mutable_long_();
  map.mutable_map()->add_keys()->set_string("k");
  map.mutable_map()->add_values()->set_long_(7);
  TypedValue m = literal_from_proto(map);
  ASSERT_EQ(m.type->id(), TypeId::kMap);
  ASSERT_EQ(m.value.as_list().size(), 1u);
  EXPECT_EQ(m.value.as_list()[0].as_list()[1].as_int(), 7);

  pb::Expression::Literal st;
  auto* f = st.mutable_struct_()->mutable_struct_type()->mutable_struct_()->add_fields();
  f->set_name("x");
  f->mutable_data_type()->mutable_double_();
  f->set_nullable(true);
  st.mutable_struct_()->add_elements()->set_double_(2.5);
  TypedValue s = literal_from_proto(st);
  ASSERT_EQ(s.type->id(), TypeId::kStruct);
  EXPECT_EQ(s.type->fields()[0].name, "x");
  EXPECT_DOUBLE_EQ(s.value.as_list()[0].as_double(), 2.5);

  pb::Expression::Literal spec;
  spec.mutable_specialized_array()->mutable_longs()->add_values(3);
  TypedValue l = literal_from_proto(spec);
  EXPECT_EQ(l.type->element_type()->id(), TypeId::kLong);
}

TEST(TranslateLiterals, CalendarIntervalLiteral) {
  pb::Expression::Literal ci;
  ci.mutable_calendar_interval()->set_months(14);
  ci.mutable_calendar_interval()->set_days(-1);
  ci.mutable_calendar_interval()->set_microseconds(1500000);
  TypedValue l = literal_from_proto(ci);
  EXPECT_EQ(l.type->id(), TypeId::kCalendarInterval);
  EXPECT_EQ(l.value.as_calendar_interval(), (CalendarInterval{14, -1, 1500000}));
}

TEST(TranslateLiterals, MissingOrUnsupportedKindsFail) {
  pb::Expression::Literal none;
  EXPECT_THROW(literal_from_proto(none), SparkError);
  pb::Expression::Literal arr;
  arr.mutable_array();  // no element type
  EXPECT_THROW(literal_from_proto(arr), SparkError);
}

}  // namespace
}  // namespace ember::connect
