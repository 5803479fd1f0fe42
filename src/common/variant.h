#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ember {

class TimeZone;

/// The Variant binary encoding (the open format Spark's VARIANT type and Parquet share): a
/// `metadata` buffer holding a dictionary of object keys, and a `value` buffer holding one
/// self-describing value whose objects refer to keys by dictionary id.
///
/// Value header byte: the low 2 bits are the basic type (primitive, short string, object,
/// array), the upper 6 bits its parameter (primitive type id, short string length, or the
/// sizes of an object's or array's ids and offsets). All integers are little-endian.
namespace variant {

/// What a value is, with the integer widths folded into kLong and the decimal widths into
/// kDecimal (Spark's view of a variant value's type).
enum class Kind : uint8_t {
  kNull,
  kBoolean,
  kLong,
  kDouble,
  kDecimal,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kFloat,
  kBinary,
  kString,
  kObject,
  kArray,
};

/// The primitive type ids of the encoding.
enum PrimitiveId : uint8_t {
  kPrimNull = 0,
  kPrimTrue = 1,
  kPrimFalse = 2,
  kPrimInt8 = 3,
  kPrimInt16 = 4,
  kPrimInt32 = 5,
  kPrimInt64 = 6,
  kPrimDouble = 7,
  kPrimDecimal4 = 8,
  kPrimDecimal8 = 9,
  kPrimDecimal16 = 10,
  kPrimDate = 11,
  kPrimTimestamp = 12,
  kPrimTimestampNtz = 13,
  kPrimFloat = 14,
  kPrimBinary = 15,
  kPrimString = 16,
};

/// Thrown for bytes that are not a well-formed variant (callers turn it into
/// MALFORMED_VARIANT).
struct MalformedVariant {};

/// A read-only view of one value inside a variant. `value` starts at this value's header and
/// may run past its end (the rest of an enclosing container). Accessors assume the kind they
/// read; they throw MalformedVariant when the bytes are too short or inconsistent.
class Ref {
 public:
  Ref(std::string_view metadata, std::string_view value);

  Kind kind() const;
  bool get_bool() const;
  int64_t get_long() const;  // kLong, kDate (days), kTimestamp, kTimestampNtz (microseconds)
  double get_double() const;
  float get_float() const;
  /// A decimal's unscaled value and scale, as stored.
  __int128 get_decimal(int* scale) const;
  std::string_view get_string() const;  // kString and kBinary
  /// Objects and arrays: the number of fields or elements.
  uint32_t size() const;
  /// Array element i.
  Ref element(uint32_t i) const;
  /// Object field i in stored order (ascending key order): its key and value.
  Ref field_at(uint32_t i, std::string_view* key) const;
  /// The value of the field named `key` (exact match); false when absent.
  bool find_field(std::string_view key, Ref* out) const;
  /// The encoded bytes of this value alone.
  std::string_view bytes() const;

  std::string_view metadata() const { return metadata_; }

 private:
  struct Container {
    uint32_t n;
    int id_size;      // objects
    int offset_size;
    size_t ids;       // position of the field ids (objects)
    size_t offsets;   // position of the offsets
    size_t data;      // position of the first value
  };
  Container container() const;
  std::string_view key(uint32_t id) const;
  size_t value_size() const;

  std::string_view metadata_;
  std::string_view value_;
};

/// Checks that `metadata` and `value` form a well-formed variant (is_valid_variant).
bool is_valid(std::string_view metadata, std::string_view value);

/// Builds one variant value and its metadata. Containers are written depth first: a caller
/// records `position()` before writing a container's children and then calls
/// `finish_object` / `finish_array` with the children's starting positions.
class Builder {
 public:
  struct Field {
    std::string_view key;  // must stay valid until finish_object
    int32_t id;
    size_t offset;  // relative to the start of the container's values
  };

  size_t position() const { return value_.size(); }
  void append_null();
  void append_bool(bool v);
  /// An integer in the smallest of int8, int16, int32, int64 that holds it.
  void append_long(int64_t v);
  void append_double(double v);
  void append_float(float v);
  /// A decimal in the smallest of decimal4, decimal8, decimal16 that holds its precision and
  /// scale (`precision` is the digit count of the unscaled value, at least 1).
  void append_decimal(__int128 unscaled, int scale);
  void append_date(int32_t days);
  void append_timestamp(int64_t micros);
  void append_timestamp_ntz(int64_t micros);
  void append_binary(std::string_view v);
  void append_string(std::string_view v);
  /// The dictionary id of `key`, added when new.
  int32_t add_key(std::string_view key);
  /// Ends an object whose field values were written from `start` on, in any order. Fails with
  /// `duplicate` (when non-null) set to the first duplicated key; returns false then.
  bool finish_object(size_t start, std::vector<Field>& fields, std::string* duplicate = nullptr);
  /// Ends an array whose elements start at `starts` (each relative to the whole value).
  void finish_array(size_t start, const std::vector<size_t>& starts);
  /// Re-encodes `v` (from another variant) into this builder, its keys into this dictionary.
  void append_variant(const Ref& v);

  std::string metadata() const;
  const std::string& value() const { return value_; }
  void clear();

 private:
  void put_int(uint64_t v, int bytes);
  std::string value_;
  std::vector<std::string> keys_;
  std::unordered_map<std::string, int32_t> key_ids_;
};

/// Parses JSON text as Spark's parse_json does: integers into the smallest integer type (or a
/// decimal, or a double when beyond DECIMAL(38)), numbers with a fraction into decimals when
/// they fit DECIMAL(38) and doubles otherwise, numbers with an exponent into doubles. Text
/// after the first value is ignored. Returns false for malformed JSON (`error` says why) or a
/// duplicate key in an object (`*duplicate_key` set to it).
bool parse_json(std::string_view text, Builder& out, std::string* error, std::string* duplicate_key);

/// The value as JSON text, as Spark prints it (to_json, show, cast to string): object fields in
/// key order, decimals without trailing zeros, timestamps in `zone` with their offset, binary
/// as base64, non-finite doubles quoted.
void to_json(const Ref& v, const TimeZone& zone, std::string& out);

/// A decimal in plain notation without trailing fraction zeros ("1.5", "100", "0.01").
std::string decimal_plain_string(__int128 unscaled, int scale);
/// Strips trailing zeros from a decimal's fraction; returns the digit count (at least 1).
int normalize_decimal(__int128* unscaled, int* scale);

}  // namespace variant
}  // namespace ember
