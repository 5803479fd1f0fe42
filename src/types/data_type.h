#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/calendar_interval.h"

namespace ember {

/// Spark SQL data types. Physical layout (Arrow): boolean as a bitmap; byte..long, float,
/// double, date (int32 days), timestamp / timestamp_ntz (int64 microseconds), intervals
/// (year-month: int32 months; day-time: int64 microseconds) as fixed width; the calendar
/// interval (Spark's `interval`: months, days and microseconds, kept apart because a month has no
/// fixed number of days nor a day a fixed number of microseconds across DST changes) as 16-byte
/// `CalendarInterval` records (common/calendar_interval.h; Arrow results carry them as
/// MONTH_DAY_NANO); decimal as 128-bit
/// two's complement; string / binary as int32 offsets + bytes; array as offsets + one child;
/// map as offsets + a struct<key,value> child; struct as children; variant as a struct of two
/// non-null binary children, `value` and `metadata` (the Variant binary encoding, as Spark
/// Connect's Arrow results carry it). time(p) is a time of day without date or zone: int64
/// nanoseconds since midnight, p (0..9) the fractional digits of its declared type (values keep
/// all their digits; only a cast to time(p) truncates).
enum class TypeId : uint8_t {
  kNull,
  kBoolean,
  kByte,
  kShort,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kTime,
  kYearMonthInterval,
  kDayTimeInterval,
  kCalendarInterval,
  kArray,
  kMap,
  kStruct,
  kVariant,
};

class DataType;
using TypePtr = std::shared_ptr<const DataType>;

struct StructField {
  std::string name;
  TypePtr type;
  bool nullable = true;
  std::string metadata_json;  // "{}" when empty
};

class DataType {
 public:
  static constexpr int kMaxDecimalPrecision = 38;

  TypeId id() const { return id_; }

  // String: its collation (types/collation.h), 0 for UTF8_BINARY.
  int collation_id() const { return id_ == TypeId::kString ? precision_ : 0; }
  /// A string of a collation other than UTF8_BINARY.
  bool is_collated_string() const { return id_ == TypeId::kString && precision_ != 0; }
  // Decimal.
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  // Intervals: start/end field codes as Spark numbers them (YEAR=0, MONTH=1 / DAY=0 ... SECOND=3).
  int start_field() const { return precision_; }
  int end_field() const { return scale_; }
  // Time: fractional-second digits (0..9).
  int time_precision() const { return precision_; }
  // Array.
  const TypePtr& element_type() const { return children_[0].type; }
  bool contains_null() const { return children_[0].nullable; }
  // Map.
  const TypePtr& key_type() const { return children_[0].type; }
  const TypePtr& value_type() const { return children_[1].type; }
  bool value_contains_null() const { return children_[1].nullable; }
  // Struct (and the element / key+value of array and map as fields).
  const std::vector<StructField>& fields() const { return children_; }

  /// Spark's `simpleString`: int, bigint, decimal(10,2), array<int>, struct<a:int,b:string>.
  std::string simple_string() const;
  /// Spark's SQL form: INT, BIGINT, DECIMAL(10,2), ARRAY<INT>, STRUCT<a: INT>.
  std::string sql() const;
  /// Spark's `typeName` as used in the JSON schema form: integer, long, decimal(10,2) ...
  std::string type_name() const;
  /// Spark's JSON schema representation (DataType.json()).
  std::string json() const;

  bool equals(const DataType& other) const;
  /// Equality ignoring nullability flags of nested fields (Spark's `sameType`).
  bool same_type(const DataType& other) const;
  /// Equality ignoring nullability and struct field names (Spark's `equalsStructurally`).
  bool same_structure(const DataType& other) const;
  /// `a` with the nullability of `b` (of the same structure) merged in at every depth, the
  /// field names of `a` kept (Spark's `unionLikeMerge`, how a UNION types its columns).
  static TypePtr merge_nullability(const TypePtr& a, const TypePtr& b);

  /// Whether this type is `id` or nests a field, element, key or value of it.
  bool contains(TypeId id) const;
  bool is_numeric() const;
  bool is_integral() const;
  bool is_floating() const { return id_ == TypeId::kFloat || id_ == TypeId::kDouble; }
  bool is_fixed_width() const;
  bool is_nested() const {
    return id_ == TypeId::kArray || id_ == TypeId::kMap || id_ == TypeId::kStruct;
  }
  bool is_string_like() const { return id_ == TypeId::kString || id_ == TypeId::kBinary; }
  bool is_datetime() const {
    return id_ == TypeId::kDate || id_ == TypeId::kTimestamp || id_ == TypeId::kTimestampNtz;
  }
  bool is_ansi_interval() const {
    return id_ == TypeId::kYearMonthInterval || id_ == TypeId::kDayTimeInterval;
  }
  /// Whether every value is one signed integer of byte_width() bytes (1 to 8) whose integer
  /// equality and order are the values': the integral types, date, timestamp, timestamp_ntz,
  /// time and the ANSI intervals. Such keys compare, hash, sort and join as plain integers.
  bool is_integer_valued() const;
  /// Bytes per value of the data buffer for fixed-width types (boolean: 0, it is a bitmap).
  int byte_width() const;
  /// Spark's defaultSize, used for size estimates.
  int default_size() const;

  // Factories. Primitive types are shared singletons.
  static TypePtr null();
  static TypePtr boolean();
  static TypePtr byte();
  static TypePtr short_();
  static TypePtr int_();
  static TypePtr long_();
  static TypePtr float_();
  static TypePtr double_();
  static TypePtr string();
  /// STRING COLLATE <collation>; string() for UTF8_BINARY (0).
  static TypePtr string(int collation_id);
  static TypePtr binary();
  static TypePtr date();
  static TypePtr timestamp();
  static TypePtr timestamp_ntz();
  static constexpr int kMaxTimePrecision = 9;
  static constexpr int kDefaultTimePrecision = 6;
  static TypePtr time(int precision = kDefaultTimePrecision);
  static TypePtr decimal(int precision, int scale);
  static TypePtr year_month_interval(int start = 0, int end = 1);
  static TypePtr day_time_interval(int start = 0, int end = 3);
  static TypePtr calendar_interval();
  static TypePtr array(TypePtr element, bool contains_null = true);
  static TypePtr map(TypePtr key, TypePtr value, bool value_contains_null = true);
  static TypePtr struct_(std::vector<StructField> fields);
  /// VARIANT; its fields() are the `value` and `metadata` binary children of its layout.
  static TypePtr variant();
  /// For a primitive id (not decimal, interval, time or nested).
  static TypePtr primitive(TypeId id);

  DataType(TypeId id, int precision, int scale, std::vector<StructField> children);

 private:
  TypeId id_;
  int precision_ = 0;
  int scale_ = 0;
  std::vector<StructField> children_;
};

/// Parses Spark's DDL type strings ("int", "decimal(10, 2)", "array<string>",
/// "struct<a: int, b: string>", "map<string,int>") and a schema in DDL form
/// ("a INT, b STRING NOT NULL"). Throws a ParseException-style SparkError on bad input.
TypePtr parse_data_type(const std::string& text);
TypePtr parse_ddl_schema(const std::string& text);
/// Parses Spark's JSON schema representation (DataType.json()).
TypePtr parse_json_type(const std::string& json);

/// Schema: the fields of a relation's output, as a struct type's fields.
using Schema = std::vector<StructField>;
std::string schema_tree_string(const Schema& schema, int max_level = 0x7fffffff);

}  // namespace ember
