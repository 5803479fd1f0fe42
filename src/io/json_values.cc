// Values between JSON and Spark types (see json_values.h).

#include "io/json_values.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/ascii.h"
#include "common/error.h"
#include "common/datetime.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "common/variant.h"
#include "io/text_parse.h"
#include "io/value_text.h"

namespace ember::io {

namespace {

TypePtr merge_structs(const DataType& a, const DataType& b) {
  std::vector<StructField> fields = a.fields();
  for (const auto& f : b.fields()) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const StructField& g) { return g.name == f.name; });
    if (it == fields.end()) fields.push_back(f);
    else it->type = merge_json_types(it->type, f.type);
  }
  std::sort(fields.begin(), fields.end(),
            [](const StructField& x, const StructField& y) { return x.name < y.name; });
  return DataType::struct_(std::move(fields));
}

/// Strict base64 as Jackson decodes binary values: padded groups of four characters.
bool decode_base64(const std::string& text, std::string* bytes) {
  static const std::string kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (text.size() % 4 != 0) return false;
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=') {
      if (i + 2 < text.size()) return false;
      ++pad;
      continue;
    }
    if (pad) return false;
    const size_t k = kChars.find(c);
    if (k == std::string::npos) return false;
    acc = (acc << 6) | static_cast<uint32_t>(k);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *bytes += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return true;
}

void append_token_text(std::string& out, const JsonValue& v) {
  using K = JsonValue::Kind;
  switch (v.kind) {
    case K::kNull: out += "null"; return;
    case K::kBool: out += v.boolean ? "true" : "false"; return;
    case K::kString: json_quote(out, v.text, true); return;
    case K::kNumber: {
      if (json_number_is_integral(v)) {
        int64_t l;
        if (parse_java_integer(v.text, INT64_MIN, INT64_MAX, &l)) {
          out += std::to_string(l);
        } else {
          std::string t = v.text;
          if (t[0] == '-' && t.find_first_not_of("0", 1) == std::string::npos) t = "0";
          out += t;
        }
        return;
      }
      double d;
      if (!parse_java_double(v.text, &d)) d = std::numeric_limits<double>::quiet_NaN();
      const std::string t = java_double_string(d);
      if (std::isfinite(d)) out += t;
      else json_quote(out, t, true);
      return;
    }
    case K::kArray:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        append_token_text(out, v.items[i]);
      }
      out += ']';
      return;
    case K::kObject:
      out += '{';
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) out += ',';
        json_quote(out, v.members[i].first, true);
        out += ':';
        append_token_text(out, v.members[i].second);
      }
      out += '}';
      return;
  }
}

void append_base64(std::string& out, std::string_view s) {
  static const char* kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out += '"';
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(s[i]) << 16) | (static_cast<uint8_t>(s[i + 1]) << 8) |
                       static_cast<uint8_t>(s[i + 2]);
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += kChars[(v >> 6) & 63];
    out += kChars[v & 63];
  }
  if (i < s.size()) {
    uint32_t v = static_cast<uint8_t>(s[i]) << 16;
    if (i + 1 < s.size()) v |= static_cast<uint8_t>(s[i + 1]) << 8;
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += i + 1 < s.size() ? kChars[(v >> 6) & 63] : '=';
    out += '=';
  }
  out += '"';
}

/// java.math.BigDecimal.toString, which Jackson writes decimals with: plain notation unless
/// the adjusted exponent is below -6, then one digit, a point, the rest and E-n.
std::string big_decimal_string(int128_t unscaled, int scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 m = negative ? 0 - static_cast<unsigned __int128>(unscaled) : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  const int64_t adjusted = -static_cast<int64_t>(scale) + static_cast<int64_t>(digits.size()) - 1;
  std::string out = negative ? "-" : "";
  if (adjusted >= -6) {
    if (scale <= 0) return out + digits;
    if (static_cast<size_t>(scale) >= digits.size())
      return out + "0." + std::string(static_cast<size_t>(scale) - digits.size(), '0') + digits;
    return out + digits.substr(0, digits.size() - static_cast<size_t>(scale)) + "." +
           digits.substr(digits.size() - static_cast<size_t>(scale));
  }
  out += digits[0];
  if (digits.size() > 1) out += "." + digits.substr(1);
  return out + "E" + std::to_string(adjusted);
}

}  // namespace

// ---- Schema inference (Spark's JsonInferSchema) ---------------------------------------------

TypePtr merge_json_types(const TypePtr& a, const TypePtr& b) {
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (a->equals(*b)) return a;
  const TypeId x = a->id(), y = b->id();
  auto numeric = [](TypeId t) { return t == TypeId::kLong || t == TypeId::kDouble || t == TypeId::kDecimal; };
  if (numeric(x) && numeric(y)) {
    if (x == TypeId::kDouble || y == TypeId::kDouble) return DataType::double_();
    // long behaves as decimal(20, 0) when widened with a decimal.
    auto as_dec = [](const TypePtr& t) {
      return t->id() == TypeId::kLong ? std::pair{20, 0} : std::pair{t->precision(), t->scale()};
    };
    auto [p1, s1] = as_dec(a);
    auto [p2, s2] = as_dec(b);
    const int scale = std::max(s1, s2);
    const int range = std::max(p1 - s1, p2 - s2);
    if (range + scale > DataType::kMaxDecimalPrecision) return DataType::double_();
    return DataType::decimal(range + scale, scale);
  }
  if (x == TypeId::kStruct && y == TypeId::kStruct) return merge_structs(*a, *b);
  if (x == TypeId::kArray && y == TypeId::kArray)
    return DataType::array(merge_json_types(a->element_type(), b->element_type()), true);
  return DataType::string();
}

TypePtr infer_json_type(const JsonValue& v, bool primitives_as_string, bool prefers_decimal) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: return DataType::null();
    case JsonValue::Kind::kBool: return primitives_as_string ? DataType::string() : DataType::boolean();
    case JsonValue::Kind::kNumber: {
      if (primitives_as_string) return DataType::string();
      if (!json_number_is_integral(v)) {
        DecimalText d;
        if (prefers_decimal && parse_big_decimal(v.text, &d) && d.scale >= 0) {
          const int64_t p = std::max<int64_t>(d.precision, d.scale);
          if (p <= DataType::kMaxDecimalPrecision) return DataType::decimal(static_cast<int>(p), static_cast<int>(d.scale));
        }
        return DataType::double_();
      }
      int64_t l;
      if (parse_java_integer(v.text, INT64_MIN, INT64_MAX, &l)) return DataType::long_();
      const size_t digits = v.text.size() - (v.text[0] == '-' ? 1 : 0);
      return digits <= 38 ? DataType::decimal(static_cast<int>(digits), 0) : DataType::double_();
    }
    case JsonValue::Kind::kString: return DataType::string();
    case JsonValue::Kind::kArray: {
      TypePtr e = DataType::null();
      for (const auto& item : v.items) e = merge_json_types(e, infer_json_type(item, primitives_as_string, prefers_decimal));
      return DataType::array(e, true);
    }
    case JsonValue::Kind::kObject: {
      std::vector<StructField> fields;
      for (const auto& [name, value] : v.members) {
        auto it = std::find_if(fields.begin(), fields.end(), [&](const StructField& f) { return f.name == name; });
        TypePtr t = infer_json_type(value, primitives_as_string, prefers_decimal);
        if (it == fields.end()) fields.push_back({name, t, true, "{}"});
        else it->type = merge_json_types(it->type, t);
      }
      std::sort(fields.begin(), fields.end(),
                [](const StructField& x, const StructField& y) { return x.name < y.name; });
      return DataType::struct_(std::move(fields));
    }
  }
  return DataType::string();
}

std::optional<TypePtr> canonical_json_type(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kNull: return DataType::string();
    case TypeId::kArray: {
      auto e = canonical_json_type(t->element_type());
      if (!e) return std::nullopt;
      return DataType::array(*e, true);
    }
    case TypeId::kStruct: {
      std::vector<StructField> fields;
      for (const auto& f : t->fields()) {
        auto c = canonical_json_type(f.type);
        if (c) fields.push_back({f.name, *c, true, "{}"});
      }
      if (fields.empty()) return std::nullopt;
      return DataType::struct_(std::move(fields));
    }
    default: return t;
  }
}

// ---- Values ---------------------------------------------------------------------------------

std::string json_token_text(const JsonValue& v) {
  if (v.kind == JsonValue::Kind::kString) return v.text;
  std::string out;
  append_token_text(out, v);
  return out;
}

bool convert_json_value(const JsonValue& v, const DataType& type, const JsonConvertContext& ctx, Value* out,
                        bool* bad) {
  using K = JsonValue::Kind;
  if (v.kind == K::kNull) {
    *out = Value();
    return true;
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      if (v.kind != K::kBool) return false;
      *out = Value::boolean(v.boolean);
      return true;
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong: {
      if (!json_number_is_integral(v)) return false;
      const int bits = type.byte_width() * 8;
      const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
      const int64_t min = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
      int64_t l;
      if (!parse_java_integer(v.text, min, max, &l)) return false;
      *out = Value::integer(l);
      return true;
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d;
      if (v.kind == K::kNumber) {
        if (!parse_java_double(v.text, &d)) return false;
      } else if (v.kind == K::kString) {
        const std::string& s = v.text;
        if (s == "NaN") d = std::numeric_limits<double>::quiet_NaN();
        else if (s == "Infinity" || s == "+Infinity" || s == "+INF" || s == "INF") d = HUGE_VAL;
        else if (s == "-Infinity" || s == "-INF") d = -HUGE_VAL;
        else return false;
      } else {
        return false;
      }
      *out = Value::floating(type.id() == TypeId::kFloat ? static_cast<double>(static_cast<float>(d)) : d);
      return true;
    }
    case TypeId::kDecimal: {
      int128_t u;
      if (v.kind == K::kNumber) {
        if (!parse_decimal(v.text, type.precision(), type.scale(), false, &u)) return false;
      } else if (v.kind == K::kString) {
        if (!parse_locale_decimal(v.text, ctx.locale ? *ctx.locale : us_locale(), type.precision(), type.scale(), &u))
          return false;
      } else {
        return false;
      }
      *out = Value::decimal(u);
      return true;
    }
    case TypeId::kString:
      if (ctx.normalize_numbers) *out = Value::bytes(json_token_text(v));
      else *out = Value::bytes(v.kind == K::kString ? v.text : json_text(v));
      return true;
    case TypeId::kBinary: {
      if (v.kind != K::kString) return false;
      std::string bytes;
      if (!decode_base64(v.text, &bytes)) return false;
      *out = Value::bytes(std::move(bytes));
      return true;
    }
    case TypeId::kDate: {
      if (v.kind != K::kString) return false;
      int32_t days;
      const bool ok = ctx.date_format ? ctx.date_format->parse_date(v.text, &days) : parse_date(v.text, &days);
      if (!ok) return false;
      *out = Value::integer(days);
      return true;
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      int64_t micros;
      if (v.kind == K::kNumber && type.id() == TypeId::kTimestamp) {
        int64_t seconds;
        if (!json_number_is_integral(v) ||
            !parse_java_integer(v.text, INT64_MIN / 1000000, INT64_MAX / 1000000, &seconds))
          return false;
        *out = Value::integer(seconds * 1000000);
        return true;
      }
      if (v.kind != K::kString) return false;
      const TimeZone& zone = ctx.zone ? *ctx.zone : TimeZone::utc();
      bool ok;
      if (type.id() == TypeId::kTimestamp) {
        ok = ctx.timestamp_format ? ctx.timestamp_format->parse_timestamp(v.text, zone, &micros)
                                  : parse_timestamp(v.text, zone, &micros);
      } else {
        ok = ctx.timestamp_format ? ctx.timestamp_format->parse_timestamp_ntz(v.text, &micros)
                                  : parse_timestamp_ntz(v.text, &micros);
      }
      if (!ok) return false;
      *out = Value::integer(micros);
      return true;
    }
    case TypeId::kArray: {
      if (v.kind != K::kArray) return false;
      Value::List items;
      for (const auto& item : v.items) {
        Value e;
        if (!convert_json_value(item, *type.element_type(), ctx, &e, bad)) return false;
        items.push_back(std::move(e));
      }
      *out = Value::list(std::move(items));
      return true;
    }
    case TypeId::kMap: {
      if (v.kind != K::kObject) return false;
      Value::List entries;
      for (const auto& [k, item] : v.members) {
        Value key, value;
        JsonValue key_json;
        key_json.kind = K::kString;
        key_json.text = k;
        if (!convert_json_value(key_json, *type.key_type(), ctx, &key, bad)) return false;
        if (!convert_json_value(item, *type.value_type(), ctx, &value, bad)) return false;
        entries.push_back(Value::list({key, value}));
      }
      *out = Value::list(std::move(entries));
      return true;
    }
    case TypeId::kStruct: {
      if (v.kind != K::kObject) return false;
      Value::List fields(type.fields().size());
      for (const auto& [name, item] : v.members) {
        for (size_t i = 0; i < type.fields().size(); ++i) {
          const std::string& fname = type.fields()[i].name;
          if (fname == name || (!ctx.case_sensitive && ascii_lower(fname) == ascii_lower(name))) {
            if (!convert_json_value(item, *type.fields()[i].type, ctx, &fields[i], bad)) {
              if (!ctx.partial_structs) return false;
              fields[i] = Value();
              if (bad) *bad = true;
            }
            break;
          }
        }
      }
      *out = Value::list(std::move(fields));
      return true;
    }
    default: return false;
  }
}

// ---- Writing --------------------------------------------------------------------------------

JsonValueWriter::JsonValueWriter(const Options& o)
    : o_(o), date_(o.date_format, o.locale), ts_(o.timestamp_format, o.locale), ntz_(o.timestamp_ntz_format, o.locale),
      zone_(TimeZone::get(o.time_zone)) {}

void JsonValueWriter::newline(std::string& out, int depth) const {
  out += '\n';
  out.append(static_cast<size_t>(depth) * 2, ' ');
}

void JsonValueWriter::append_object(std::string& out, const std::vector<StructField>& fields,
                                    const std::vector<ColumnPtr>& columns, int64_t r, int depth) const {
  out += '{';
  bool first = true;
  for (size_t c = 0; c < fields.size(); ++c) {
    const Column& col = *columns[c];
    if (col.is_null(r) && o_.ignore_null_fields) continue;
    if (!first) out += ',';
    first = false;
    if (o_.pretty) newline(out, depth + 1);
    json_quote(out, fields[c].name, true);
    out += o_.pretty ? " : " : ":";
    append(out, col, r, depth + 1);
  }
  if (o_.pretty) {
    if (first) out += ' ';
    else newline(out, depth);
  }
  out += '}';
}

void JsonValueWriter::append(std::string& out, const Column& col, int64_t r, int depth) const {
  if (col.is_null(r)) {
    out += "null";
    return;
  }
  switch (col.type()->id()) {
    case TypeId::kString: json_quote(out, col.string_at(r), true); return;
    case TypeId::kBinary: append_base64(out, col.string_at(r)); return;
    case TypeId::kDate: json_quote(out, date_.format_date(col.values<int32_t>()[r]), true); return;
    case TypeId::kTimestamp:
      json_quote(out, ts_.format_timestamp(col.values<int64_t>()[r], zone_), true);
      return;
    case TypeId::kTimestampNtz:
      json_quote(out, ntz_.format_timestamp_ntz(col.values<int64_t>()[r]), true);
      return;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const std::string t = value_text(col, r, o_.time_zone);
      // Jackson quotes the values JSON has no literal for.
      if (t == "NaN" || t == "Infinity" || t == "-Infinity") json_quote(out, t, true);
      else out += t;
      return;
    }
    case TypeId::kArray: {
      const int32_t* off = col.offsets();
      const Column& elems = *col.child(0);
      out += '[';
      if (o_.pretty) out += ' ';
      for (int32_t i = off[r]; i < off[r + 1]; ++i) {
        if (i != off[r]) out += o_.pretty ? ", " : ",";
        append(out, elems, i, depth);
      }
      if (o_.pretty && off[r + 1] > off[r]) out += ' ';
      out += ']';
      return;
    }
    case TypeId::kMap: {
      const int32_t* off = col.offsets();
      const Column& entries = *col.child(0);
      const Column& keys = *entries.child(0);
      const Column& values = *entries.child(1);
      out += '{';
      for (int32_t i = off[r]; i < off[r + 1]; ++i) {
        if (i != off[r]) out += ',';
        if (o_.pretty) newline(out, depth + 1);
        json_quote(out,
                   keys.type()->is_string_like() ? std::string(keys.string_at(i)) : value_text(keys, i, o_.time_zone),
                   true);
        out += o_.pretty ? " : " : ":";
        append(out, values, i, depth + 1);
      }
      if (o_.pretty) {
        if (off[r + 1] == off[r]) out += ' ';
        else newline(out, depth);
      }
      out += '}';
      return;
    }
    case TypeId::kStruct:
      append_object(out, col.type()->fields(), col.children(), r, depth);
      return;
    case TypeId::kVariant:
      variant::to_json(variant::Ref(col.child(1)->string_at(r), col.child(0)->string_at(r)), zone_, out);
      return;
    case TypeId::kDecimal: out += big_decimal_string(col.values<int128_t>()[r], col.type()->scale()); return;
    default: out += value_text(col, r, o_.time_zone);
  }
}

}  // namespace ember::io
