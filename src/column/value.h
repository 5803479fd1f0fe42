#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "types/data_type.h"

namespace ember {

using int128_t = __int128;

/// One scalar value of some Spark type, for literals, constant folding and row-at-a-time slow
/// paths (formatting, nested builders). Vectorized kernels never use it. The type is carried
/// beside the value, not in it: integral, date, timestamp and interval values are int64;
/// float and double are double; decimals are the unscaled int128; string and binary are bytes;
/// arrays and structs are lists of values; a map is a list of two-element [key, value] lists; a
/// calendar interval is the list of its months, days and microseconds.
class Value {
 public:
  using List = std::vector<Value>;

  Value() = default;  // null
  static Value boolean(bool v) { return Value(Storage(v)); }
  static Value integer(int64_t v) { return Value(Storage(v)); }
  static Value floating(double v) { return Value(Storage(v)); }
  static Value decimal(int128_t unscaled) { return Value(Storage(unscaled)); }
  static Value bytes(std::string v) { return Value(Storage(std::move(v))); }
  static Value list(List items) { return Value(Storage(std::make_shared<List>(std::move(items)))); }
  static Value calendar_interval(const CalendarInterval& v) {
    return list({integer(v.months), integer(v.days), integer(v.micros)});
  }

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool as_bool() const { return std::get<bool>(v_); }
  int64_t as_int() const { return std::get<int64_t>(v_); }
  double as_double() const { return std::get<double>(v_); }
  int128_t as_decimal() const { return std::get<int128_t>(v_); }
  const std::string& as_bytes() const { return std::get<std::string>(v_); }
  const List& as_list() const { return *std::get<std::shared_ptr<List>>(v_); }
  CalendarInterval as_calendar_interval() const {
    const List& l = as_list();
    return {static_cast<int32_t>(l[0].as_int()), static_cast<int32_t>(l[1].as_int()), l[2].as_int()};
  }

  bool operator==(const Value& o) const;

 private:
  using Storage = std::variant<std::monostate, bool, int64_t, double, int128_t, std::string,
                               std::shared_ptr<List>>;
  explicit Value(Storage v) : v_(std::move(v)) {}
  Storage v_;
};

/// A value with its type: what a literal is.
struct TypedValue {
  Value value;
  TypePtr type;
};

/// Decimal helpers shared by every layer that formats or parses decimals.
std::string int128_to_string(int128_t v);
std::string decimal_to_string(int128_t unscaled, int scale);
int128_t pow10_int128(int n);

}  // namespace ember
