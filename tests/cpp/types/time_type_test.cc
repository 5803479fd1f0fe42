// The TIME type's names in Spark's DDL, SQL and JSON forms.

#include <gtest/gtest.h>

#include "common/error.h"
#include "types/data_type.h"

namespace ember {
namespace {

TEST(TimeType, Names) {
  EXPECT_EQ(parse_data_type("time")->simple_string(), "time(6)");
  EXPECT_EQ(parse_data_type("TIME(3)")->sql(), "TIME(3)");
  EXPECT_EQ(parse_data_type("time(0)")->json(), "\"time(0)\"");
  EXPECT_EQ(parse_json_type("\"time(9)\"")->time_precision(), 9);
  EXPECT_TRUE(DataType::time(3)->equals(*parse_data_type("time(3)")));
  EXPECT_FALSE(DataType::time(3)->equals(*DataType::time(6)));
  EXPECT_EQ(DataType::time()->byte_width(), 8);
  EXPECT_THROW(parse_data_type("time(10)"), SparkError);
}

}  // namespace
}  // namespace ember
