// The DataType predicates that choose integer layouts for keys (sorting, hashing, device joins).

#include <gtest/gtest.h>

#include "types/data_type.h"

namespace ember {
namespace {

TEST(TypePredicates, IntegerValued) {
  for (const TypePtr& t : {DataType::byte(), DataType::short_(), DataType::int_(), DataType::long_(),
                           DataType::date(), DataType::timestamp(), DataType::timestamp_ntz(),
                           DataType::time(3), DataType::year_month_interval(),
                           DataType::day_time_interval()}) {
    EXPECT_TRUE(t->is_integer_valued()) << t->simple_string();
    EXPECT_GE(t->byte_width(), 1) << t->simple_string();
    EXPECT_LE(t->byte_width(), 8) << t->simple_string();
  }
  for (const TypePtr& t : {DataType::null(), DataType::boolean(), DataType::float_(), DataType::double_(),
                           DataType::decimal(10, 2), DataType::string(), DataType::binary(),
                           DataType::calendar_interval(), DataType::array(DataType::int_())}) {
    EXPECT_FALSE(t->is_integer_valued()) << t->simple_string();
  }
}

TEST(TypePredicates, AnsiInterval) {
  EXPECT_TRUE(DataType::year_month_interval()->is_ansi_interval());
  EXPECT_TRUE(DataType::day_time_interval(1, 2)->is_ansi_interval());
  EXPECT_FALSE(DataType::calendar_interval()->is_ansi_interval());
  EXPECT_FALSE(DataType::long_()->is_ansi_interval());
}

}  // namespace
}  // namespace ember
