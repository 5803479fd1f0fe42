#include "types/data_type.h"

#include <cctype>

#include "common/ascii.h"
#include "common/error.h"
#include "common/json.h"
#include "types/collation.h"

#include <map>
#include <mutex>

namespace ember {

DataType::DataType(TypeId id, int precision, int scale, std::vector<StructField> children)
    : id_(id), precision_(precision), scale_(scale), children_(std::move(children)) {}

namespace {
TypePtr make(TypeId id) { return std::make_shared<DataType>(id, 0, 0, std::vector<StructField>{}); }

const char* kDayTimeFields[] = {"day", "hour", "minute", "second"};
const char* kYearMonthFields[] = {"year", "month"};

std::string interval_name(const DataType& t) {
  const char** names = t.id() == TypeId::kYearMonthInterval ? kYearMonthFields : kDayTimeFields;
  std::string s = "interval " + std::string(names[t.start_field()]);
  if (t.end_field() != t.start_field()) s += " to " + std::string(names[t.end_field()]);
  return s;
}

bool needs_quoting(const std::string& name) {
  if (name.empty()) return true;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return true;
  return false;
}
}  // namespace

TypePtr DataType::null() { static TypePtr t = make(TypeId::kNull); return t; }
TypePtr DataType::boolean() { static TypePtr t = make(TypeId::kBoolean); return t; }
TypePtr DataType::byte() { static TypePtr t = make(TypeId::kByte); return t; }
TypePtr DataType::short_() { static TypePtr t = make(TypeId::kShort); return t; }
TypePtr DataType::int_() { static TypePtr t = make(TypeId::kInt); return t; }
TypePtr DataType::long_() { static TypePtr t = make(TypeId::kLong); return t; }
TypePtr DataType::float_() { static TypePtr t = make(TypeId::kFloat); return t; }
TypePtr DataType::double_() { static TypePtr t = make(TypeId::kDouble); return t; }
TypePtr DataType::string() { static TypePtr t = make(TypeId::kString); return t; }
TypePtr DataType::string(int collation_id) {
  if (collation_id == kUtf8BinaryCollation) return string();
  static std::mutex mu;
  static std::map<int, TypePtr> by_collation;
  std::lock_guard<std::mutex> lock(mu);
  TypePtr& t = by_collation[collation_id];
  if (!t) t = std::make_shared<DataType>(TypeId::kString, collation_id, 0, std::vector<StructField>{});
  return t;
}
TypePtr DataType::binary() { static TypePtr t = make(TypeId::kBinary); return t; }
TypePtr DataType::date() { static TypePtr t = make(TypeId::kDate); return t; }
TypePtr DataType::timestamp() { static TypePtr t = make(TypeId::kTimestamp); return t; }
TypePtr DataType::timestamp_ntz() { static TypePtr t = make(TypeId::kTimestampNtz); return t; }

TypePtr DataType::time(int precision) {
  static const TypePtr kByPrecision[] = {
      std::make_shared<DataType>(TypeId::kTime, 0, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 1, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 2, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 3, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 4, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 5, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 6, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 7, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 8, 0, std::vector<StructField>{}),
      std::make_shared<DataType>(TypeId::kTime, 9, 0, std::vector<StructField>{})};
  EMBER_CHECK(precision >= 0 && precision <= kMaxTimePrecision, "time precision out of range");
  return kByPrecision[precision];
}

TypePtr DataType::decimal(int precision, int scale) {
  return std::make_shared<DataType>(TypeId::kDecimal, precision, scale, std::vector<StructField>{});
}
TypePtr DataType::year_month_interval(int start, int end) {
  return std::make_shared<DataType>(TypeId::kYearMonthInterval, start, end,
                                    std::vector<StructField>{});
}
TypePtr DataType::day_time_interval(int start, int end) {
  return std::make_shared<DataType>(TypeId::kDayTimeInterval, start, end,
                                    std::vector<StructField>{});
}
TypePtr DataType::calendar_interval() { static TypePtr t = make(TypeId::kCalendarInterval); return t; }
TypePtr DataType::array(TypePtr element, bool contains_null) {
  return std::make_shared<DataType>(
      TypeId::kArray, 0, 0, std::vector<StructField>{{"element", std::move(element), contains_null, "{}"}});
}
TypePtr DataType::map(TypePtr key, TypePtr value, bool value_contains_null) {
  return std::make_shared<DataType>(
      TypeId::kMap, 0, 0,
      std::vector<StructField>{{"key", std::move(key), false, "{}"},
                               {"value", std::move(value), value_contains_null, "{}"}});
}
TypePtr DataType::struct_(std::vector<StructField> fields) {
  return std::make_shared<DataType>(TypeId::kStruct, 0, 0, std::move(fields));
}

TypePtr DataType::variant() {
  static TypePtr t = std::make_shared<DataType>(
      TypeId::kVariant, 0, 0,
      std::vector<StructField>{{"value", binary(), false, "{}"}, {"metadata", binary(), false, "{}"}});
  return t;
}

TypePtr DataType::primitive(TypeId id) {
  switch (id) {
    case TypeId::kNull: return null();
    case TypeId::kBoolean: return boolean();
    case TypeId::kByte: return byte();
    case TypeId::kShort: return short_();
    case TypeId::kInt: return int_();
    case TypeId::kLong: return long_();
    case TypeId::kFloat: return float_();
    case TypeId::kDouble: return double_();
    case TypeId::kString: return string();
    case TypeId::kBinary: return binary();
    case TypeId::kDate: return date();
    case TypeId::kTimestamp: return timestamp();
    case TypeId::kTimestampNtz: return timestamp_ntz();
    default: EMBER_UNREACHABLE("not a primitive type");
  }
}

std::string DataType::simple_string() const {
  switch (id_) {
    case TypeId::kNull: return "void";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kByte: return "tinyint";
    case TypeId::kShort: return "smallint";
    case TypeId::kInt: return "int";
    case TypeId::kLong: return "bigint";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kString:
      return precision_ ? "string collate " + collation(precision_).name : "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampNtz: return "timestamp_ntz";
    case TypeId::kTime: return "time(" + std::to_string(precision_) + ")";
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: return interval_name(*this);
    case TypeId::kCalendarInterval: return "interval";
    case TypeId::kArray: return "array<" + element_type()->simple_string() + ">";
    case TypeId::kMap:
      return "map<" + key_type()->simple_string() + "," + value_type()->simple_string() + ">";
    case TypeId::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) s += ",";
        s += children_[i].name + ":" + children_[i].type->simple_string();
      }
      return s + ">";
    }
    case TypeId::kVariant: return "variant";
  }
  return "?";
}

std::string DataType::sql() const {
  switch (id_) {
    case TypeId::kNull: return "VOID";
    case TypeId::kString: return precision_ ? "STRING COLLATE " + collation(precision_).name : "STRING";
    case TypeId::kArray: return "ARRAY<" + element_type()->sql() + ">";
    case TypeId::kMap: return "MAP<" + key_type()->sql() + ", " + value_type()->sql() + ">";
    case TypeId::kStruct: {
      std::string s = "STRUCT<";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) s += ", ";
        s += (needs_quoting(children_[i].name) ? quote_id(children_[i].name) : children_[i].name) +
             ": " + children_[i].type->sql();
        if (!children_[i].nullable) s += " NOT NULL";
      }
      return s + ">";
    }
    default: return ascii_upper(simple_string());
  }
}

std::string DataType::type_name() const {
  switch (id_) {
    case TypeId::kByte: return "byte";
    case TypeId::kShort: return "short";
    case TypeId::kInt: return "integer";
    case TypeId::kLong: return "long";
    case TypeId::kArray: return "array";
    case TypeId::kMap: return "map";
    case TypeId::kStruct: return "struct";
    default: return simple_string();
  }
}

namespace {
/// Spark keeps the collations of a field's strings in the field's metadata, under
/// __COLLATIONS: the path of each collated string inside the field's type (through array
/// elements and map keys and values; a nested struct's fields carry their own) mapped to
/// `provider.name`. The type itself writes as "string".
void collect_collations(const DataType& t, const std::string& path, std::string& out) {
  if (t.is_collated_string()) {
    const Collation& c = collation(t.collation_id());
    if (!out.empty()) out += ",";
    json_quote(out, path);
    out += ":";
    json_quote(out, std::string(c.provider()) + "." + c.name);
  } else if (t.id() == TypeId::kArray) {
    collect_collations(*t.element_type(), path + ".element", out);
  } else if (t.id() == TypeId::kMap) {
    collect_collations(*t.key_type(), path + ".key", out);
    collect_collations(*t.value_type(), path + ".value", out);
  }
}

std::string field_metadata_json(const StructField& f) {
  std::string meta = f.metadata_json.empty() ? "{}" : f.metadata_json;
  std::string collations;
  collect_collations(*f.type, f.name, collations);
  if (collations.empty()) return meta;
  std::string entry = "\"__COLLATIONS\":{" + collations + "}";
  const size_t close = meta.rfind('}');
  const bool empty = meta.find_first_not_of(" \t\n{", 0) == close;
  return meta.substr(0, close) + (empty ? "" : ",") + entry + "}";
}

/// The collated string types a field's __COLLATIONS metadata gives its type.
TypePtr with_collations(const TypePtr& t, const std::string& path, const JsonValue& collations) {
  if (t->id() == TypeId::kString) {
    for (const auto& [key, value] : collations.members) {
      if (key != path) continue;
      const std::string& v = value.text;
      const size_t dot = v.find('.');
      return DataType::string(collation_id(dot == std::string::npos ? v : v.substr(dot + 1)));
    }
    return t;
  }
  if (t->id() == TypeId::kArray)
    return DataType::array(with_collations(t->element_type(), path + ".element", collations), t->contains_null());
  if (t->id() == TypeId::kMap)
    return DataType::map(with_collations(t->key_type(), path + ".key", collations),
                         with_collations(t->value_type(), path + ".value", collations),
                         t->value_contains_null());
  return t;
}
}  // namespace

std::string DataType::json() const {
  std::string out;
  switch (id_) {
    case TypeId::kArray:
      out = "{\"type\":\"array\",\"elementType\":" + element_type()->json() +
            ",\"containsNull\":" + (contains_null() ? "true" : "false") + "}";
      return out;
    case TypeId::kMap:
      out = "{\"type\":\"map\",\"keyType\":" + key_type()->json() +
            ",\"valueType\":" + value_type()->json() +
            ",\"valueContainsNull\":" + (value_contains_null() ? "true" : "false") + "}";
      return out;
    case TypeId::kStruct: {
      out = "{\"type\":\"struct\",\"fields\":[";
      for (size_t i = 0; i < children_.size(); ++i) {
        auto& f = children_[i];
        if (i) out += ",";
        out += "{\"name\":";
        json_quote(out, f.name);
        out += ",\"type\":" + f.type->json() + ",\"nullable\":" + (f.nullable ? "true" : "false") +
               ",\"metadata\":" + field_metadata_json(f) + "}";
      }
      return out + "]}";
    }
    case TypeId::kString: return "\"string\"";
    default: return json_quote(type_name());
  }
}

bool DataType::equals(const DataType& o) const {
  if (id_ != o.id_ || precision_ != o.precision_ || scale_ != o.scale_ ||
      children_.size() != o.children_.size())
    return false;
  for (size_t i = 0; i < children_.size(); ++i) {
    auto& a = children_[i];
    auto& b = o.children_[i];
    if (a.nullable != b.nullable || !a.type->equals(*b.type)) return false;
    if (id_ == TypeId::kStruct && a.name != b.name) return false;
  }
  return true;
}

bool DataType::same_type(const DataType& o) const {
  if (id_ != o.id_ || precision_ != o.precision_ || scale_ != o.scale_ ||
      children_.size() != o.children_.size())
    return false;
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!children_[i].type->same_type(*o.children_[i].type)) return false;
    if (id_ == TypeId::kStruct && children_[i].name != o.children_[i].name) return false;
  }
  return true;
}

bool DataType::same_structure(const DataType& o) const {
  if (id_ != o.id_ || precision_ != o.precision_ || scale_ != o.scale_ ||
      children_.size() != o.children_.size())
    return false;
  for (size_t i = 0; i < children_.size(); ++i)
    if (!children_[i].type->same_structure(*o.children_[i].type)) return false;
  return true;
}

TypePtr DataType::merge_nullability(const TypePtr& a, const TypePtr& b) {
  const auto& fa = a->children_;
  const auto& fb = b->children_;
  switch (a->id_) {
    case TypeId::kArray:
      return array(merge_nullability(fa[0].type, fb[0].type), fa[0].nullable || fb[0].nullable);
    case TypeId::kMap:
      return map(merge_nullability(fa[0].type, fb[0].type), merge_nullability(fa[1].type, fb[1].type),
                 fa[1].nullable || fb[1].nullable);
    case TypeId::kStruct: {
      std::vector<StructField> fields = fa;
      for (size_t i = 0; i < fields.size(); ++i) {
        fields[i].type = merge_nullability(fa[i].type, fb[i].type);
        fields[i].nullable = fa[i].nullable || fb[i].nullable;
      }
      return struct_(std::move(fields));
    }
    default:
      return a;
  }
}

bool DataType::contains(TypeId id) const {
  if (id_ == id) return true;
  for (const auto& f : children_)
    if (f.type->contains(id)) return true;
  return false;
}

bool DataType::is_integral() const {
  return id_ == TypeId::kByte || id_ == TypeId::kShort || id_ == TypeId::kInt ||
         id_ == TypeId::kLong;
}

bool DataType::is_integer_valued() const {
  switch (id_) {
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: return true;
    default: return false;
  }
}

bool DataType::is_numeric() const {
  return is_integral() || is_floating() || id_ == TypeId::kDecimal;
}

bool DataType::is_fixed_width() const { return byte_width() > 0 || id_ == TypeId::kBoolean; }

int DataType::byte_width() const {
  switch (id_) {
    case TypeId::kByte: return 1;
    case TypeId::kShort: return 2;
    case TypeId::kInt:
    case TypeId::kFloat:
    case TypeId::kDate:
    case TypeId::kYearMonthInterval: return 4;
    case TypeId::kLong:
    case TypeId::kDouble:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kDayTimeInterval: return 8;
    case TypeId::kDecimal:
    case TypeId::kCalendarInterval: return 16;
    default: return 0;
  }
}

int DataType::default_size() const {
  switch (id_) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kByte: return 1;
    case TypeId::kDecimal: return precision_ <= 18 ? 8 : 16;
    case TypeId::kString:
    case TypeId::kBinary: return 20;
    case TypeId::kVariant: return 2048;
    case TypeId::kArray: return element_type()->default_size();
    case TypeId::kMap: return key_type()->default_size() + value_type()->default_size();
    case TypeId::kStruct: {
      int s = 0;
      for (auto& f : children_) s += f.type->default_size();
      return s;
    }
    default: return byte_width();
  }
}

// ---------------------------------------------------------------------------------------------
// DDL parsing.

namespace {

class DdlParser {
 public:
  explicit DdlParser(const std::string& s) : s_(s) {}

  TypePtr parse_type_only() {
    TypePtr t = parse_type();
    skip_ws();
    if (pos_ != s_.size()) fail();
    return t;
  }

  /// "a INT, b STRING NOT NULL COMMENT '...'" or "a: int, b: string"
  std::vector<StructField> parse_fields(char terminator) {
    std::vector<StructField> fields;
    skip_ws();
    if (peek() == terminator) return fields;
    for (;;) {
      StructField f;
      f.name = parse_identifier();
      skip_ws();
      if (peek() == ':') ++pos_;
      f.type = parse_type();
      f.nullable = true;
      f.metadata_json = "{}";
      skip_ws();
      if (match_word("NOT")) {
        if (!match_word("NULL")) fail();
        f.nullable = false;
      }
      if (match_word("COMMENT")) {
        skip_ws();
        std::string comment = parse_quoted(peek());
        f.metadata_json = "{\"comment\":" + json_quote(comment) + "}";
      }
      fields.push_back(std::move(f));
      skip_ws();
      if (peek() != ',') break;
      ++pos_;
    }
    return fields;
  }

  bool at_end() {
    skip_ws();
    return pos_ == s_.size();
  }

  [[noreturn]] void fail() {
    std::string near = pos_ < s_.size() ? s_.substr(pos_, 10) : "end of input";
    throw SparkError(ErrorKind::kParse, "PARSE_SYNTAX_ERROR",
                     "Syntax error at or near '" + near + "'.", {{"error", "'" + near + "'"}, {"hint", ""}});
  }

 private:
  char peek() { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string parse_quoted(char q) {
    if (q != '\'' && q != '"' && q != '`') fail();
    ++pos_;
    std::string out;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == q) {
        if (q == '`' && peek() == '`') {
          out += '`';
          ++pos_;
          continue;
        }
        return out;
      }
      if (c == '\\' && q != '`' && pos_ < s_.size()) c = s_[pos_++];
      out += c;
    }
    fail();
  }
  std::string parse_identifier() {
    skip_ws();
    if (peek() == '`') return parse_quoted('`');
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    if (start == pos_) fail();
    return s_.substr(start, pos_ - start);
  }
  bool match_word(const char* w) {
    skip_ws();
    size_t n = std::char_traits<char>::length(w);
    if (pos_ + n > s_.size()) return false;
    for (size_t i = 0; i < n; ++i)
      if (std::toupper(static_cast<unsigned char>(s_[pos_ + i])) != w[i]) return false;
    if (pos_ + n < s_.size() &&
        (std::isalnum(static_cast<unsigned char>(s_[pos_ + n])) || s_[pos_ + n] == '_'))
      return false;
    pos_ += n;
    return true;
  }
  int parse_int() {
    skip_ws();
    size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (start == pos_) fail();
    return std::stoi(s_.substr(start, pos_ - start));
  }
  void expect(char c) {
    skip_ws();
    if (peek() != c) fail();
    ++pos_;
  }
  int interval_field(const char* const* names, int n) {
    for (int i = 0; i < n; ++i) {
      std::string up = ascii_upper(names[i]);
      if (match_word(up.c_str())) return i;
    }
    fail();
  }

  TypePtr parse_type() {
    std::string w = ascii_upper(parse_identifier());
    if (w == "BOOLEAN") return DataType::boolean();
    if (w == "TINYINT" || w == "BYTE") return DataType::byte();
    if (w == "SMALLINT" || w == "SHORT") return DataType::short_();
    if (w == "INT" || w == "INTEGER") return DataType::int_();
    if (w == "BIGINT" || w == "LONG") return DataType::long_();
    if (w == "FLOAT" || w == "REAL") return DataType::float_();
    if (w == "DOUBLE") return DataType::double_();
    if (w == "STRING") {
      if (!match_word("COLLATE")) return DataType::string();
      skip_ws();
      return DataType::string(collation_id(parse_identifier()));
    }
    if (w == "VARCHAR" || w == "CHAR") {
      // Spark reads char/varchar as string in DataFrame schemas.
      skip_ws();
      if (peek() == '(') {
        ++pos_;
        parse_int();
        expect(')');
      }
      return DataType::string();
    }
    if (w == "BINARY") return DataType::binary();
    if (w == "DATE") return DataType::date();
    if (w == "TIMESTAMP" || w == "TIMESTAMP_LTZ") return DataType::timestamp();
    if (w == "TIMESTAMP_NTZ") return DataType::timestamp_ntz();
    if (w == "TIME") {
      skip_ws();
      int p = DataType::kDefaultTimePrecision;
      if (peek() == '(') {
        ++pos_;
        p = parse_int();
        expect(')');
        if (p < 0 || p > DataType::kMaxTimePrecision) {
          throw SparkError(ErrorKind::kParse, "UNSUPPORTED_TIME_PRECISION",
                           "The seconds precision " + std::to_string(p) +
                               " of the TIME data type is out of the supported range [0, 9].",
                           {{"precision", std::to_string(p)}}, "0A001");
        }
      }
      return DataType::time(p);
    }
    if (w == "VOID" || w == "NULL") return DataType::null();
    if (w == "VARIANT") return DataType::variant();
    if (w == "DECIMAL" || w == "DEC" || w == "NUMERIC") {
      skip_ws();
      int p = 10, s = 0;
      if (peek() == '(') {
        ++pos_;
        p = parse_int();
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          s = parse_int();
        }
        expect(')');
      }
      if (p < 1 || p > DataType::kMaxDecimalPrecision || s < 0 || s > p) {
        throw SparkError(ErrorKind::kAnalysis, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                         "Decimal precision " + std::to_string(p) +
                             " exceeds max precision 38.");
      }
      return DataType::decimal(p, s);
    }
    if (w == "INTERVAL") {
      int start, end;
      size_t save = pos_;
      if (!match_word("YEAR") && !match_word("MONTH") && !match_word("DAY") && !match_word("HOUR") &&
          !match_word("MINUTE") && !match_word("SECOND"))
        return DataType::calendar_interval();
      pos_ = save;
      if (match_word("YEAR") || match_word("MONTH")) {
        pos_ = save;
        start = interval_field(kYearMonthFields, 2);
        end = match_word("TO") ? interval_field(kYearMonthFields, 2) : start;
        return DataType::year_month_interval(start, end);
      }
      start = interval_field(kDayTimeFields, 4);
      end = match_word("TO") ? interval_field(kDayTimeFields, 4) : start;
      return DataType::day_time_interval(start, end);
    }
    if (w == "ARRAY") {
      expect('<');
      TypePtr e = parse_type();
      expect('>');
      return DataType::array(e, true);
    }
    if (w == "MAP") {
      expect('<');
      TypePtr k = parse_type();
      expect(',');
      TypePtr v = parse_type();
      expect('>');
      return DataType::map(k, v, true);
    }
    if (w == "STRUCT") {
      expect('<');
      auto fields = parse_fields('>');
      expect('>');
      return DataType::struct_(std::move(fields));
    }
    throw SparkError(ErrorKind::kParse, "UNSUPPORTED_DATATYPE",
                     "Unsupported data type \"" + w + "\".", {{"typeName", "\"" + w + "\""}});
  }

  const std::string& s_;
  size_t pos_ = 0;
};

TypePtr type_from_json(const JsonValue& v) {
  if (v.kind == JsonValue::Kind::kString) {
    const std::string& n = v.text;
    if (n == "integer") return DataType::int_();
    if (n == "long") return DataType::long_();
    if (n == "short") return DataType::short_();
    if (n == "byte") return DataType::byte();
    if (n == "void" || n == "null") return DataType::null();
    if (n == "decimal") return DataType::decimal(10, 0);
    return parse_data_type(n);
  }
  std::string type = v.get_string("type");
  if (type == "array") {
    return DataType::array(type_from_json(*v.find("elementType")), v.get_bool("containsNull", true));
  }
  if (type == "map") {
    return DataType::map(type_from_json(*v.find("keyType")), type_from_json(*v.find("valueType")),
                         v.get_bool("valueContainsNull", true));
  }
  if (type == "struct") {
    std::vector<StructField> fields;
    if (auto* fs = v.find("fields")) {
      for (auto& f : fs->items) {
        StructField sf;
        sf.name = f.get_string("name");
        sf.type = type_from_json(*f.find("type"));
        if (const JsonValue* meta = f.find("metadata"))
          if (const JsonValue* collations = meta->find("__COLLATIONS"))
            sf.type = with_collations(sf.type, sf.name, *collations);
        sf.nullable = f.get_bool("nullable", true);
        sf.metadata_json = "{}";
        fields.push_back(std::move(sf));
      }
    }
    return DataType::struct_(std::move(fields));
  }
  if (type == "udt") {
    if (auto* sql = v.find("sqlType")) return type_from_json(*sql);
  }
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_JSON_DATA_TYPE",
                   "Failed to convert the JSON string '" + type + "' to a data type.");
}

}  // namespace

TypePtr parse_data_type(const std::string& text) { return DdlParser(text).parse_type_only(); }

TypePtr parse_ddl_schema(const std::string& text) {
  DdlParser p(text);
  // Accept both "a INT, b STRING" and a bare type such as "struct<a:int>" or "int".
  try {
    auto fields = p.parse_fields('\0');
    if (!p.at_end()) p.fail();
    return DataType::struct_(std::move(fields));
  } catch (const SparkError&) {
    return parse_data_type(text);
  }
}

TypePtr parse_json_type(const std::string& json) {
  JsonValue v;
  try {
    v = parse_json(json);
  } catch (const std::invalid_argument& e) {
    throw SparkError(ErrorKind::kIllegalArgument, "INVALID_JSON_DATA_TYPE", e.what());
  }
  return type_from_json(v);
}

namespace {
void tree_lines(std::string& out, const TypePtr& t, const std::string& prefix, int level,
                int max_level) {
  if (level > max_level) return;
  switch (t->id()) {
    case TypeId::kStruct:
      for (auto& f : t->fields()) {
        out += prefix + "-- " + f.name + ": " + f.type->type_name() +
               " (nullable = " + (f.nullable ? "true" : "false") + ")\n";
        tree_lines(out, f.type, prefix + "    |", level + 1, max_level);
      }
      break;
    case TypeId::kArray:
      out += prefix + "-- element: " + t->element_type()->type_name() +
             " (containsNull = " + (t->contains_null() ? "true" : "false") + ")\n";
      tree_lines(out, t->element_type(), prefix + "    |", level + 1, max_level);
      break;
    case TypeId::kMap:
      out += prefix + "-- key: " + t->key_type()->type_name() + "\n";
      tree_lines(out, t->key_type(), prefix + "    |", level + 1, max_level);
      out += prefix + "-- value: " + t->value_type()->type_name() +
             " (valueContainsNull = " + (t->value_contains_null() ? "true" : "false") + ")\n";
      tree_lines(out, t->value_type(), prefix + "    |", level + 1, max_level);
      break;
    default: break;
  }
}
}  // namespace

std::string schema_tree_string(const Schema& schema, int max_level) {
  std::string out = "root\n";
  tree_lines(out, DataType::struct_(schema), " |", 1, max_level);
  return out;
}

}  // namespace ember
