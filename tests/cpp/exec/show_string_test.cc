// show_string against the text Apache Spark 4.3's Dataset.showString produces for the same
// rows (recorded from Spark with spark.sql.session.timeZone = America/Los_Angeles).

#include "exec/show_string.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/datetime.h"
#include "common/timezone.h"

namespace ember::exec {
namespace {

const char* const k_main20 =
    R"SHOW(+---+----+----+----------+------------+-------------------+------------+--------------------+----------+------+------+------+----+----+----+--------------------+--------------------+--------------------------+---------------+
| id|   s|   d|         b|         arr|                  m|          st|                  ts|        dt|   dec|   big| small| nan|negz|   f|                 dti|                 ymi|                       uni|            ctl|
+---+----+----+----------+------------+-------------------+------------+--------------------+----------+------+------+------+----+----+----+--------------------+--------------------+--------------------------+---------------+
|  1|   a| 1.5|[01 02 FF]|[1, NULL, 3]|{k -> 1, z -> NULL}|{1, b, NULL}|2020-01-01 10:00:...|2020-02-29|1.2500|1.0E10|1.0E-5| NaN| 0.0| 1.1|INTERVAL '1 02:03...|INTERVAL '-2-3' Y...|héllo wörld 日本語テキスト|line1\nline2\tx|
|  2|NULL|NULL|      NULL|        NULL|               NULL|        NULL|                NULL|      NULL|  NULL|  NULL|  NULL|NULL|NULL|NULL|                NULL|                NULL|                      NULL|           NULL|
+---+----+----+----------+------------+-------------------+------------+--------------------+----------+------+------+------+----+----+----+--------------------+--------------------+--------------------------+---------------+
)SHOW";
const char* const k_main0 =
    R"SHOW(+---+----+----+----------+------------+-------------------+------------+---------------------+----------+------+------+------+----+----+----+-------------------------------------+-----------------------------+--------------------------+---------------+
|id |s   |d   |b         |arr         |m                  |st          |ts                   |dt        |dec   |big   |small |nan |negz|f   |dti                                  |ymi                          |uni                       |ctl            |
+---+----+----+----------+------------+-------------------+------------+---------------------+----------+------+------+------+----+----+----+-------------------------------------+-----------------------------+--------------------------+---------------+
|1  |a   |1.5 |[01 02 FF]|[1, NULL, 3]|{k -> 1, z -> NULL}|{1, b, NULL}|2020-01-01 10:00:00.5|2020-02-29|1.2500|1.0E10|1.0E-5|NaN |0.0 |1.1 |INTERVAL '1 02:03:04.5' DAY TO SECOND|INTERVAL '-2-3' YEAR TO MONTH|héllo wörld 日本語テキスト|line1\nline2\tx|
|2  |NULL|NULL|NULL      |NULL        |NULL               |NULL        |NULL                 |NULL      |NULL  |NULL  |NULL  |NULL|NULL|NULL|NULL                                 |NULL                         |NULL                      |NULL           |
+---+----+----+----------+------------+-------------------+------------+---------------------+----------+------+------+------+----+----+----+-------------------------------------+-----------------------------+--------------------------+---------------+
)SHOW";
const char* const k_main5 =
    R"SHOW(+---+----+----+-----+-----+-----+-----+-----+-----+-----+-----+-----+----+----+----+-----+-----+-----+-----+
| id|   s|   d|    b|  arr|    m|   st|   ts|   dt|  dec|  big|small| nan|negz|   f|  dti|  ymi|  uni|  ctl|
+---+----+----+-----+-----+-----+-----+-----+-----+-----+-----+-----+----+----+----+-----+-----+-----+-----+
|  1|   a| 1.5|[0...|[1...|{k...|{1...|20...|20...|1....|1....|1....| NaN| 0.0| 1.1|IN...|IN...|hé...|li...|
|  2|NULL|NULL| NULL| NULL| NULL| NULL| NULL| NULL| NULL| NULL| NULL|NULL|NULL|NULL| NULL| NULL| NULL| NULL|
+---+----+----+-----+-----+-----+-----+-----+-----+-----+-----+-----+----+----+----+-----+-----+-----+-----+
)SHOW";
const char* const k_main2 =
    R"SHOW(+---+---+---+---+---+---+---+---+---+---+---+-----+---+----+---+---+---+---+---+
| id|  s|  d|  b|arr|  m| st| ts| dt|dec|big|small|nan|negz|  f|dti|ymi|uni|ctl|
+---+---+---+---+---+---+---+---+---+---+---+-----+---+----+---+---+---+---+---+
|  1|  a| 1.| [0| [1| {k| {1| 20| 20| 1.| 1.|   1.| Na|  0.| 1.| IN| IN| hé| li|
|  2| NU| NU| NU| NU| NU| NU| NU| NU| NU| NU|   NU| NU|  NU| NU| NU| NU| NU| NU|
+---+---+---+---+---+---+---+---+---+---+---+-----+---+----+---+---+---+---+---+
)SHOW";
const char* const k_vert =
    R"SHOW(-RECORD 0---------------------------
 id    | 1                          
 s     | a                          
 d     | 1.5                        
 b     | [01 02 FF]                 
 arr   | [1, NULL, 3]               
 m     | {k -> 1, z -> NULL}        
 st    | {1, b, NULL}               
 ts    | 2020-01-01 10:00:...       
 dt    | 2020-02-29                 
 dec   | 1.2500                     
 big   | 1.0E10                     
 small | 1.0E-5                     
 nan   | NaN                        
 negz  | 0.0                        
 f     | 1.1                        
 dti   | INTERVAL '1 02:03...       
 ymi   | INTERVAL '-2-3' Y...       
 uni   | héllo wörld 日本語テキスト 
 ctl   | line1\nline2\tx            
-RECORD 1---------------------------
 id    | 2                          
 s     | NULL                       
 d     | NULL                       
 b     | NULL                       
 arr   | NULL                       
 m     | NULL                       
 st    | NULL                       
 ts    | NULL                       
 dt    | NULL                       
 dec   | NULL                       
 big   | NULL                       
 small | NULL                       
 nan   | NULL                       
 negz  | NULL                       
 f     | NULL                       
 dti   | NULL                       
 ymi   | NULL                       
 uni   | NULL                       
 ctl   | NULL                       
)SHOW";
const char* const k_vert0 =
    R"SHOW(-RECORD 0--------------------------------------
 id    | 1                                     
 s     | a                                     
 d     | 1.5                                   
 b     | [01 02 FF]                            
 arr   | [1, NULL, 3]                          
 m     | {k -> 1, z -> NULL}                   
 st    | {1, b, NULL}                          
 ts    | 2020-01-01 10:00:00.5                 
 dt    | 2020-02-29                            
 dec   | 1.2500                                
 big   | 1.0E10                                
 small | 1.0E-5                                
 nan   | NaN                                   
 negz  | 0.0                                   
 f     | 1.1                                   
 dti   | INTERVAL '1 02:03:04.5' DAY TO SECOND 
 ymi   | INTERVAL '-2-3' YEAR TO MONTH         
 uni   | héllo wörld 日本語テキスト            
 ctl   | line1\nline2\tx                       
-RECORD 1--------------------------------------
 id    | 2                                     
 s     | NULL                                  
 d     | NULL                                  
 b     | NULL                                  
 arr   | NULL                                  
 m     | NULL                                  
 st    | NULL                                  
 ts    | NULL                                  
 dt    | NULL                                  
 dec   | NULL                                  
 big   | NULL                                  
 small | NULL                                  
 nan   | NULL                                  
 negz  | NULL                                  
 f     | NULL                                  
 dti   | NULL                                  
 ymi   | NULL                                  
 uni   | NULL                                  
 ctl   | NULL                                  
)SHOW";
const char* const k_n1 =
    R"SHOW(+---+
| id|
+---+
|  0|
+---+
only showing top 1 row)SHOW";
const char* const k_n0 =
    R"SHOW(+---+
| id|
+---+
+---+
only showing top 0 rows)SHOW";
const char* const k_empty =
    R"SHOW(+---+
| id|
+---+
+---+
)SHOW";
const char* const k_empty_vert = R"SHOW((0 rows))SHOW";
const char* const k_n1vert =
    R"SHOW(-RECORD 0--
 id  | 0   
only showing top 1 row)SHOW";
const char* const k_nested =
    R"SHOW(+--------------+------------+-----------+------+---------------------+---------+--------+
|a             |m           |ad         |ab    |ats                  |astr     |ns      |
+--------------+------------+-----------+------+---------------------+---------+--------+
|[[1, 2], NULL]|{1 -> [{1}]}|[1.0, NULL]|[[01]]|[2021-01-01 00:00:00]|[a, NULL]|{{NULL}}|
+--------------+------------+-----------+------+---------------------+---------+--------+
)SHOW";
const char* const k_ts =
    R"SHOW(+--------------------------+---------------------+-------------------+----------+----------+
|a                         |b                    |c                  |d         |e         |
+--------------------------+---------------------+-------------------+----------+----------+
|2020-06-01 00:00:00.123456|2020-06-01 00:00:00.1|0001-01-01 00:00:00|0001-01-01|9999-12-31|
+--------------------------+---------------------+-------------------+----------+----------+
)SHOW";
const char* const k_intervals =
    R"SHOW(+----------------+------------------+-------------------------------+---------------------+-------------------+------------------+------------------------------------------+----------------------+--------------------+
|a               |b                 |c                              |d                    |e                  |f                 |g                                         |h                     |i                   |
+----------------+------------------+-------------------------------+---------------------+-------------------+------------------+------------------------------------------+----------------------+--------------------+
|INTERVAL '1' DAY|INTERVAL '10' HOUR|INTERVAL '01:02' HOUR TO MINUTE|INTERVAL '-05' SECOND|INTERVAL '100' YEAR|INTERVAL '7' MONTH|INTERVAL '1 00:00:01.000001' DAY TO SECOND|INTERVAL '00.5' SECOND|INTERVAL '12' SECOND|
+----------------+------------------+-------------------------------+---------------------+-------------------+------------------+------------------------------------------+----------------------+--------------------+
)SHOW";
const char* const k_doubles =
    R"SHOW(+-------+-----+-----+---------+------+--------+---+------+-----+------+
|a      |b    |c    |d        |e     |f       |g  |h     |i    |j     |
+-------+-----+-----+---------+------+--------+---+------+-----+------+
|123.456|1.0E7|0.001|9999999.0|1.0E21|Infinity|0.1|1.0E20|100.0|1.0E-4|
+-------+-----+-----+---------+------+--------+---+------+-----+------+
)SHOW";
const char* const k_decimals =
    R"SHOW(+----+----+------------------------+--------------------+
|a   |b   |c                       |d                   |
+----+----+------------------------+--------------------+
|0.00|-1.5|12345678901234567890.123|1.000000000000000000|
+----+----+------------------------+--------------------+
)SHOW";
const char* const k_fullwidth =
    R"SHOW(+----+--------+------+------+------------+
|   a|       b|     c|     d|日本語カラム|
+----+--------+------+------+------------+
|日本|ｆｕｌｌ|한국어|ab😀cd|           x|
+----+--------+------+------+------------+
)SHOW";
const char* const k_fullwidth_trunc =
    R"SHOW(+-------+-----+
|      a|    b|
+-------+-----+
|日本...|ab...|
+-------+-----+
)SHOW";
const char* const k_longname =
    R"SHOW(+----------------------------+---+
|a very long column name here|  b|
+----------------------------+---+
|                           1|sho|
+----------------------------+---+
)SHOW";
const char* const k_bools =
    R"SHOW(+----+-----+----+---+---+---+
|   a|    b|   c|  d|  e|  f|
+----+-----+----+---+---+---+
|true|false|NULL|  1|  2|  3|
+----+-----+----+---+---+---+
)SHOW";
const char* const k_cnames =
    R"SHOW(+----+---------+
|a\nb|tab\there|
+----+---------+
|   1|        2|
+----+---------+
)SHOW";

const char* const kZone = "America/Los_Angeles";

ColumnPtr column(const TypePtr& type, const std::vector<Value>& values) {
  ColumnBuilder b(type);
  for (const auto& v : values) b.append_value(v);
  return b.finish();
}

/// A local wall-clock time in kZone as UTC microseconds.
Value local_ts(int64_t y, int m, int d, int hh, int mm, int ss, int64_t micros = 0) {
  int64_t local = (days_from_civil(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss) * 1000000 + micros;
  return Value::integer(TimeZone::get(kZone).local_to_utc_micros(local));
}

Value date(int64_t y, int m, int d) { return Value::integer(days_from_civil(y, m, d)); }
Value str(const std::string& s) { return Value::bytes(s); }
Value i(int64_t v) { return Value::integer(v); }
Value f(double v) { return Value::floating(v); }
Value list(Value::List items) { return Value::list(std::move(items)); }
const Value kNull;

struct Table {
  Schema schema;
  std::vector<ColumnPtr> columns;
  void add(const std::string& name, const TypePtr& type, const std::vector<Value>& values) {
    schema.push_back({name, type, true, "{}"});
    columns.push_back(column(type, values));
  }
  std::vector<Batch> batches() const {
    return {Batch(columns, columns.empty() ? 0 : columns[0]->length())};
  }
  std::string show(int n = 20, int truncate = 20, bool vertical = false) const {
    return show_string(schema, batches(), n, truncate, vertical, kZone);
  }
};

/// Every kind of cell, and a row of NULLs.
Table all_types() {
  Table t;
  t.add("id", DataType::int_(), {i(1), i(2)});
  t.add("s", DataType::string(), {str("a"), kNull});
  t.add("d", DataType::double_(), {f(1.5), kNull});
  t.add("b", DataType::binary(), {str(std::string("\x01\x02\xff", 3)), kNull});
  t.add("arr", DataType::array(DataType::int_()), {list({i(1), kNull, i(3)}), kNull});
  t.add("m", DataType::map(DataType::string(), DataType::int_()),
        {list({list({str("k"), i(1)}), list({str("z"), kNull})}), kNull});
  t.add("st",
        DataType::struct_({{"x", DataType::int_(), true, "{}"},
                           {"y", DataType::string(), true, "{}"},
                           {"z", DataType::int_(), true, "{}"}}),
        {list({i(1), str("b"), kNull}), kNull});
  t.add("ts", DataType::timestamp(), {local_ts(2020, 1, 1, 10, 0, 0, 500000), kNull});
  t.add("dt", DataType::date(), {date(2020, 2, 29), kNull});
  t.add("dec", DataType::decimal(10, 4), {Value::decimal(12500), kNull});
  t.add("big", DataType::double_(), {f(1e10), kNull});
  t.add("small", DataType::double_(), {f(1e-5), kNull});
  t.add("nan", DataType::double_(), {f(std::numeric_limits<double>::quiet_NaN()), kNull});
  t.add("negz", DataType::double_(), {f(0.0), kNull});
  t.add("f", DataType::float_(), {f(static_cast<double>(1.1f)), kNull});
  t.add("dti", DataType::day_time_interval(0, 3),
        {i(((86400LL + 2 * 3600 + 3 * 60 + 4) * 1000000) + 500000), kNull});
  t.add("ymi", DataType::year_month_interval(0, 1), {i(-27), kNull});
  t.add(
      "uni", DataType::string(),
      {str("h\xc3\xa9llo w\xc3\xb6rld "
           "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88"),
       kNull});
  t.add("ctl", DataType::string(), {str("line1\nline2\tx"), kNull});
  return t;
}

Table range(int64_t n) {
  Table t;
  std::vector<Value> v;
  for (int64_t k = 0; k < n; ++k) v.push_back(i(k));
  t.add("id", DataType::long_(), v);
  t.schema[0].nullable = false;
  return t;
}

TEST(ShowString, AllTypesTruncated) { EXPECT_EQ(all_types().show(), k_main20); }
TEST(ShowString, AllTypesUntruncatedIsLeftAligned) { EXPECT_EQ(all_types().show(20, 0), k_main0); }
TEST(ShowString, ShortTruncation) {
  EXPECT_EQ(all_types().show(20, 5), k_main5);
  EXPECT_EQ(all_types().show(20, 2), k_main2);
}
TEST(ShowString, Vertical) {
  EXPECT_EQ(all_types().show(20, 20, true), k_vert);
  EXPECT_EQ(all_types().show(20, 0, true), k_vert0);
}

TEST(ShowString, MoreRowsThanShown) {
  // The batches hold num_rows + 1 rows; the last one only signals that more exist.
  EXPECT_EQ(range(2).show(1), k_n1);
  EXPECT_EQ(range(1).show(0), k_n0);
  EXPECT_EQ(range(2).show(1, 20, true), k_n1vert);
}

TEST(ShowString, Empty) {
  EXPECT_EQ(range(0).show(), k_empty);
  EXPECT_EQ(range(0).show(20, 20, true), k_empty_vert);
}

TEST(ShowString, NestedValues) {
  Table t;
  auto ints = DataType::array(DataType::int_());
  t.add("a", DataType::array(ints), {list({list({i(1), i(2)}), kNull})});
  auto inner = DataType::struct_({{"a", DataType::int_(), true, "{}"}});
  t.add("m", DataType::map(DataType::int_(), DataType::array(inner)),
        {list({list({i(1), list({list({i(1)})})})})});
  t.add("ad", DataType::array(DataType::double_()), {list({f(1.0), kNull})});
  t.add("ab", DataType::array(DataType::binary()), {list({str("\x01")})});
  t.add("ats", DataType::array(DataType::timestamp()), {list({local_ts(2021, 1, 1, 0, 0, 0)})});
  t.add("astr", DataType::array(DataType::string()), {list({str("a"), kNull})});
  auto b = DataType::struct_({{"b", DataType::null(), true, "{}"}});
  t.add("ns", DataType::struct_({{"a", b, true, "{}"}}), {list({list({kNull})})});
  EXPECT_EQ(t.show(20, 0), k_nested);
}

TEST(ShowString, DatesAndTimestamps) {
  Table t;
  t.add("a", DataType::timestamp(), {local_ts(2020, 6, 1, 0, 0, 0, 123456)});
  int64_t ntz = (days_from_civil(2020, 6, 1) * 86400) * 1000000 + 100000;
  t.add("b", DataType::timestamp_ntz(), {i(ntz)});
  t.add("c", DataType::timestamp(), {local_ts(1, 1, 1, 0, 0, 0)});
  t.add("d", DataType::date(), {date(1, 1, 1)});
  t.add("e", DataType::date(), {date(9999, 12, 31)});
  EXPECT_EQ(t.show(20, 0), k_ts);
}

TEST(ShowString, Intervals) {
  const int64_t s = 1000000;
  Table t;
  t.add("a", DataType::day_time_interval(0, 0), {i(86400 * s)});
  t.add("b", DataType::day_time_interval(1, 1), {i(10 * 3600 * s)});
  t.add("c", DataType::day_time_interval(1, 2), {i(3720 * s)});
  t.add("d", DataType::day_time_interval(3, 3), {i(-5 * s)});
  t.add("e", DataType::year_month_interval(0, 0), {i(1200)});
  t.add("f", DataType::year_month_interval(1, 1), {i(7)});
  t.add("g", DataType::day_time_interval(0, 3), {i(86400 * s + 1000001)});
  t.add("h", DataType::day_time_interval(3, 3), {i(500000)});
  t.add("i", DataType::day_time_interval(3, 3), {i(12 * s)});
  EXPECT_EQ(t.show(20, 0), k_intervals);
}

TEST(ShowString, FloatingPointAsJavaPrintsIt) {
  Table t;
  t.add("a", DataType::double_(), {f(123.456)});
  t.add("b", DataType::double_(), {f(1e7)});
  t.add("c", DataType::double_(), {f(1e-3)});
  t.add("d", DataType::double_(), {f(9999999.0)});
  t.add("e", DataType::double_(), {f(1e21)});
  t.add("f", DataType::double_(), {f(std::numeric_limits<double>::infinity())});
  t.add("g", DataType::float_(), {f(static_cast<double>(0.1f))});
  t.add("h", DataType::float_(), {f(static_cast<double>(1e20f))});
  t.add("i", DataType::double_(), {f(100.0)});
  t.add("j", DataType::double_(), {f(1e-4)});
  EXPECT_EQ(t.show(20, 0), k_doubles);
}

TEST(ShowString, Decimals) {
  Table t;
  t.add("a", DataType::decimal(10, 2), {Value::decimal(0)});
  t.add("b", DataType::decimal(5, 1), {Value::decimal(-15)});
  t.add("c", DataType::decimal(23, 3),
        {Value::decimal(static_cast<int128_t>(12345678901234567890ULL) * 1000 + 123)});
  t.add("d", DataType::decimal(38, 18), {Value::decimal(pow10_int128(18))});
  EXPECT_EQ(t.show(20, 0), k_decimals);
}

TEST(ShowString, WideCharactersTakeTwoColumns) {
  Table t;
  t.add("a", DataType::string(), {str("\xe6\x97\xa5\xe6\x9c\xac")});
  t.add("b", DataType::string(), {str("\xef\xbd\x86\xef\xbd\x95\xef\xbd\x8c\xef\xbd\x8c")});
  t.add("c", DataType::string(), {str("\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4")});
  t.add("d", DataType::string(),
        {str("ab\xf0\x9f\x98\x80"
             "cd")});
  t.add("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x82\xab\xe3\x83\xa9\xe3\x83\xa0",
        DataType::string(), {str("x")});
  EXPECT_EQ(t.show(), k_fullwidth);

  Table u;
  u.add("a", DataType::string(),
        {str("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9"
             "\xe3\x83\x88\xe3\x81\x8c\xe3\x81\x93\xe3\x81\x93\xe3\x81\xab\xe3\x81\x82\xe3\x82\x8a"
             "\xe3\x81\xbe\xe3\x81\x99\xe9\x95\xb7\xe3\x81\x84")});
  u.add("b", DataType::string(),
        {str("ab\xf0\x9f\x98\x80"
             "cdefghij")});
  EXPECT_EQ(u.show(20, 5), k_fullwidth_trunc);
}

TEST(ShowString, HeadersAreNeverTruncated) {
  Table t;
  t.add("a very long column name here", DataType::int_(), {i(1)});
  t.add("b", DataType::string(), {str("short")});
  EXPECT_EQ(t.show(20, 3), k_longname);
}

TEST(ShowString, BooleansAndIntegers) {
  Table t;
  t.add("a", DataType::boolean(), {Value::boolean(true)});
  t.add("b", DataType::boolean(), {Value::boolean(false)});
  t.add("c", DataType::boolean(), {kNull});
  t.add("d", DataType::byte(), {i(1)});
  t.add("e", DataType::short_(), {i(2)});
  t.add("f", DataType::long_(), {i(3)});
  EXPECT_EQ(t.show(), k_bools);
}

TEST(ShowString, ControlCharactersInNamesAreEscaped) {
  Table t;
  t.add("a\nb", DataType::int_(), {i(1)});
  t.add("tab\there", DataType::int_(), {i(2)});
  EXPECT_EQ(t.show(), k_cnames);
}

TEST(ShowString, RowsSpreadOverBatches) {
  Table t = range(5);
  std::vector<Batch> batches;
  for (int64_t k = 0; k < 5; ++k) batches.push_back(slice_batch(t.batches()[0], k, 1));
  EXPECT_EQ(show_string(t.schema, batches, 3, 20, false, kZone),
            "+---+\n| id|\n+---+\n|  0|\n|  1|\n|  2|\n+---+\nonly showing top 3 rows");
}

}  // namespace
}  // namespace ember::exec
