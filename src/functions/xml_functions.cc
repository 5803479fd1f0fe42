// XML record functions: from_xml, which reads one record into a struct of a given schema;
// schema_of_xml, which infers the schema Spark's XML reader gives one
// record (the root element is the row: its attributes and child elements are fields, named
// attributes prefixed with `attributePrefix`, text beside them in `valueTag`, repeated elements
// arrays, fields sorted by name), as a DDL string; and to_xml, which writes a struct as that
// record, indented as Spark's XML writer indents it.

#include <algorithm>
#include <functional>
#include <map>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/number_format.h"
#include "common/error.h"
#include "common/timezone.h"
#include "common/xml.h"
#include "functions/cast.h"
#include "functions/collection_util.h"
#include "functions/json_options.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// The options schema_of_xml and from_xml read; others that would change the inferred types or
/// the values read are refused rather than ignored.
struct XmlReadOptions {
  std::string attribute_prefix = "_";
  std::string value_tag = "_VALUE";
  bool exclude_attribute = false;
  bool infer_schema = true;
  bool ignore_surrounding_spaces = true;
  bool has_null_value = false;
  std::string null_value;
  bool fail_fast = false;
  std::string corrupt_column = "_corrupt_record";
  std::string time_zone;
};

bool parse_bool_option(const FunctionOptions& o, const std::string& key, bool fallback) {
  if (!o.has(key)) return fallback;
  const std::string v = ascii_upper(o.get(key, ""));
  if (v == "TRUE") return true;
  if (v == "FALSE") return false;
  throw SparkError(ErrorKind::kIllegalArgument, "", key + " flag can be true or false.");
}

XmlReadOptions read_options(const FunctionOptions& o, const std::string& fn, const EvalContext& ctx) {
  for (const char* key : {"timestampFormat", "timestampNTZFormat", "dateFormat", "locale", "ignoreNamespace",
                          "rowValidationXSDPath", "preferDate"}) {
    if (o.has(key))
      throw SparkError(ErrorKind::kUnsupportedOperation, "",
                       "The " + fn + " option '" + key + "' is not supported by this engine.");
  }
  XmlReadOptions x;
  x.attribute_prefix = o.get("attributePrefix", x.attribute_prefix);
  x.value_tag = o.get("valueTag", x.value_tag);
  x.exclude_attribute = parse_bool_option(o, "excludeAttribute", false);
  x.infer_schema = parse_bool_option(o, "inferSchema", true);
  x.ignore_surrounding_spaces = parse_bool_option(o, "ignoreSurroundingSpaces", true);
  if (parse_bool_option(o, "prefersDecimal", false))
    throw SparkError(ErrorKind::kUnsupportedOperation, "",
                     "The " + fn + " option 'prefersDecimal' is not supported by this engine.");
  x.has_null_value = o.has("nullValue");
  x.null_value = o.get("nullValue", "");
  const std::string mode = ascii_upper(o.get("mode", "PERMISSIVE"));
  if (mode == "DROPMALFORMED")
    throw SparkError(ErrorKind::kAnalysis, "PARSE_MODE_UNSUPPORTED",
                     "The function `" + fn + "` doesn't support the DROPMALFORMED mode. Acceptable modes are "
                     "PERMISSIVE and FAILFAST.",
                     {{"funcName", "`" + fn + "`"}, {"mode", "DROPMALFORMED"}}, "42601");
  x.fail_fast = mode == "FAILFAST";
  const std::string conf_corrupt =
      ctx.config ? ctx.config->get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record") : "_corrupt_record";
  x.corrupt_column = o.get("columnNameOfCorruptRecord", conf_corrupt);
  x.time_zone = o.get("timeZone", ctx.time_zone);
  return x;
}

/// Java's String.trim: strips characters up to U+0020 from both ends.
std::string_view java_trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// An optionally signed decimal integer whose magnitude fits a long.
bool is_long(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (!all_digits(s)) return false;
  size_t i = 0;
  while (i + 1 < s.size() && s[i] == '0') ++i;
  s.remove_prefix(i);
  return s.size() < 19 || (s.size() == 19 && s <= "9223372036854775807");
}

/// An optionally signed decimal number with an optional exponent (no NaN, Infinity, type
/// suffixes or hexadecimal forms); trailing white space is allowed, leading white space is not.
bool is_double(std::string_view s) {
  if (s.empty() || static_cast<unsigned char>(s[0]) <= ' ') return false;
  s = java_trim(s);
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

bool is_boolean(std::string_view s) {
  const std::string u = ascii_upper(std::string(s));
  return u == "TRUE" || u == "FALSE";
}

/// yyyy-MM-dd exactly, a valid date.
bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!all_digits(s.substr(0, 4)) || !all_digits(s.substr(5, 2)) || !all_digits(s.substr(8, 2))) return false;
  const int y = std::stoi(std::string(s.substr(0, 4))), m = std::stoi(std::string(s.substr(5, 2))),
            d = std::stoi(std::string(s.substr(8, 2)));
  return is_valid_date(y, m, d);
}

class SchemaInference {
 public:
  SchemaInference(const XmlReadOptions& o) : o_(o), zone_(TimeZone::get(o.time_zone)) {}

  /// The type of one text value (NULL type for an absent or null value).
  TypePtr infer_value(std::string_view raw) const {
    std::string_view v = o_.ignore_surrounding_spaces ? java_trim(raw) : raw;
    if (v.empty() || (o_.has_null_value && v == o_.null_value)) return DataType::null();
    if (!o_.infer_schema) return DataType::string();
    if (is_long(v)) return DataType::long_();
    if (is_double(v)) return DataType::double_();
    if (is_boolean(v)) return DataType::boolean();
    if (is_date(v)) return DataType::date();
    int64_t micros;
    if (parse_timestamp(v, zone_, &micros)) return DataType::timestamp();
    return DataType::string();
  }

  /// The fields of an element: its attributes, child elements and text, repeated names merged
  /// into arrays.
  TypePtr infer_struct(const xml::Node* e) const {
    std::map<std::string, std::vector<TypePtr>> fields;
    if (!o_.exclude_attribute)
      for (const xml::Node* a : e->attributes) fields[o_.attribute_prefix + a->name].push_back(infer_value(a->value));
    for (const xml::Node* c : e->children) {
      if (c->kind == xml::NodeKind::kElement) fields[c->name].push_back(infer_child(c));
      else if (c->kind == xml::NodeKind::kText && !blank(c->value)) fields[o_.value_tag].push_back(infer_value(c->value));
    }
    std::vector<StructField> out;
    for (auto& [name, types] : fields) {
      TypePtr t = types[0];
      for (size_t i = 1; i < types.size(); ++i) t = merge(t, types[i]);
      if (types.size() > 1 && t->id() != TypeId::kArray) t = DataType::array(t, true);
      out.push_back({name, t, true, "{}"});
    }
    return DataType::struct_(std::move(out));
  }

  /// A child element: a primitive when it holds at most one text value and nothing else.
  TypePtr infer_child(const xml::Node* e) const {
    const xml::Node* text = nullptr;
    int texts = 0;
    bool structured = !o_.exclude_attribute && !e->attributes.empty();
    for (const xml::Node* c : e->children) {
      if (c->kind == xml::NodeKind::kElement) structured = true;
      else if (c->kind == xml::NodeKind::kText && !blank(c->value)) text = c, ++texts;
    }
    if (!structured && texts <= 1) return text ? infer_value(text->value) : DataType::null();
    return infer_struct(e);
  }

  /// Spark's XML type merge: numbers widen to DOUBLE, DATE to TIMESTAMP, arrays absorb single
  /// values, structs merge by field, a struct with a value field takes a primitive into it, and
  /// anything else is STRING.
  TypePtr merge(const TypePtr& a, const TypePtr& b) const {
    const TypeId x = a->id(), y = b->id();
    if (x == TypeId::kNull) return b;
    if (y == TypeId::kNull) return a;
    if (a->equals(*b)) return a;
    auto is_num = [](TypeId t) { return t == TypeId::kLong || t == TypeId::kDouble; };
    if (is_num(x) && is_num(y)) return DataType::double_();
    auto is_time = [](TypeId t) { return t == TypeId::kDate || t == TypeId::kTimestamp; };
    if (is_time(x) && is_time(y)) return DataType::timestamp();
    if (x == TypeId::kArray || y == TypeId::kArray) {
      const TypePtr& ea = x == TypeId::kArray ? a->element_type() : a;
      const TypePtr& eb = y == TypeId::kArray ? b->element_type() : b;
      return DataType::array(merge(ea, eb), true);
    }
    if (x == TypeId::kStruct && y == TypeId::kStruct) {
      std::map<std::string, TypePtr> fields;
      for (const auto& f : a->fields()) fields[f.name] = f.type;
      for (const auto& f : b->fields()) {
        auto it = fields.find(f.name);
        fields[f.name] = it == fields.end() ? f.type : merge(it->second, f.type);
      }
      std::vector<StructField> out;
      for (auto& [name, t] : fields) out.push_back({name, t, true, "{}"});
      return DataType::struct_(std::move(out));
    }
    if (x == TypeId::kStruct || y == TypeId::kStruct) {
      const TypePtr& s = x == TypeId::kStruct ? a : b;
      const TypePtr& p = x == TypeId::kStruct ? b : a;
      bool has_value = false;
      std::vector<StructField> out;
      for (const auto& f : s->fields()) {
        if (f.name == o_.value_tag) {
          has_value = true;
          out.push_back({f.name, merge(f.type, p), true, "{}"});
        } else {
          out.push_back(f);
        }
      }
      if (has_value) return DataType::struct_(std::move(out));
    }
    return DataType::string();
  }

  /// NULL types left at the end (elements that never held a value) read as STRING.
  static TypePtr canonical(const TypePtr& t) {
    switch (t->id()) {
      case TypeId::kNull: return DataType::string();
      case TypeId::kArray: return DataType::array(canonical(t->element_type()), true);
      case TypeId::kStruct: {
        std::vector<StructField> out;
        for (const auto& f : t->fields()) out.push_back({f.name, canonical(f.type), true, "{}"});
        return DataType::struct_(std::move(out));
      }
      default: return t;
    }
  }

 private:
  static bool blank(const std::string& s) {
    for (char c : s)
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
    return true;
  }

  const XmlReadOptions& o_;
  const TimeZone& zone_;
};

Signature schema_of_xml_rule(const Infos& a, const Config&) {
  const TypeId id = a[0].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input("schema_of_xml", types_of(a), 0, "\"STRING\"");
  const std::string sql = "schema_of_xml(" + a[0].type->sql() + ")";
  if (!a[0].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `xml` should be a foldable \"STRING\" expression; however, got \"" +
                            (a[0].name.empty() ? a[0].type->sql() : a[0].name) + "\".",
                        sql);
  if (a[0].literal->is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The xml must not be null.", sql);
  require_options_map(a, 1);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.never_null = true;
  sig.null_if_any_arg_null = false;
  return sig;
}

ColumnPtr schema_of_xml_kernel(const Args& a, int64_t n, const Signature&, const EvalContext& ctx) {
  const FunctionOptions opts = a.size() > 1 ? FunctionOptions(*a[1]) : FunctionOptions();
  const XmlReadOptions o = read_options(opts, "schema_of_xml", ctx);
  const std::string_view text = n > 0 && a[0]->is_valid(0) ? a[0]->string_at(0) : std::string_view();
  xml::Document doc;
  std::string error;
  xml::ParseOptions po;
  po.keep_namespace_declarations = true;
  po.stop_after_root = true;
  po.declared_entities = false;
  const xml::ParseStatus st = doc.parse(text, &error, po);
  if (st == xml::ParseStatus::kUnsupported)
    throw SparkError(ErrorKind::kUnsupportedOperation, "", "Unsupported XML construct: " + error);
  TypePtr schema;
  if (st != xml::ParseStatus::kOk) {
    if (o.fail_fast) throw_failfast(o.corrupt_column);
    schema = DataType::struct_({{o.corrupt_column, DataType::string(), true, "{}"}});
  } else {
    SchemaInference inference(o);
    const xml::Node* root = nullptr;
    for (const xml::Node* c : doc.root()->children)
      if (c->kind == xml::NodeKind::kElement) root = c;
    schema = SchemaInference::canonical(inference.infer_struct(root));
  }
  return Column::constant(DataType::string(), Value::bytes(schema->sql()), n);
}

// ---- from_xml -------------------------------------------------------------------------------

/// Reads one record into a struct of the given schema as Spark's XML parser does: attributes
/// and child elements fill the fields of their (prefixed) names, text the value tag, repeated
/// elements an array field (a field that is not an array keeps the last), a map field its
/// element's children by name. Values are the trimmed text converted as a CAST does, booleans
/// only from true / false; a value that does not convert makes the record malformed.
class XmlRecordReader {
 public:
  XmlRecordReader(const XmlReadOptions& o, const EvalContext& ctx) : o_(o), ctx_(ctx) {}

  bool struct_of(const xml::Node* e, const TypePtr& t, Value* out) const {
    const auto& fields = t->fields();
    Value::List values(fields.size());
    std::vector<Value::List> arrays(fields.size());
    auto field = [&](const std::string& name) -> int {
      for (size_t f = 0; f < fields.size(); ++f)
        if (fields[f].name == name) return static_cast<int>(f);
      return -1;
    };
    // One value for a field: appended to an array field, kept (the last) by any other.
    auto put = [&](int f, const xml::Node* node, const std::string* text) {
      const TypePtr& ft = fields[static_cast<size_t>(f)].type;
      const bool array = ft->id() == TypeId::kArray;
      const TypePtr& vt = array ? ft->element_type() : ft;
      Value v;
      const bool ok = text ? primitive(*text, vt, &v) : value_of(node, vt, &v);
      if (!ok) return false;
      if (array) arrays[static_cast<size_t>(f)].push_back(std::move(v));
      else values[static_cast<size_t>(f)] = std::move(v);
      return ok;
    };
    // Spark stops at the first value that does not convert: the record's fields read before it
    // stay (a nested record's do not).
    auto finish = [&](bool ok) {
      for (size_t f = 0; f < fields.size(); ++f)
        if (fields[f].type->id() == TypeId::kArray && !arrays[f].empty()) values[f] = Value::list(std::move(arrays[f]));
      *out = Value::list(std::move(values));
      return ok;
    };
    if (!o_.exclude_attribute)
      for (const xml::Node* a : e->attributes)
        if (int f = field(o_.attribute_prefix + a->name); f >= 0 && !put(f, nullptr, &a->value)) return finish(false);
    std::string text;
    bool has_text = false;
    for (const xml::Node* c : e->children) {
      if (c->kind == xml::NodeKind::kElement) {
        if (int f = field(c->name); f >= 0 && !put(f, c, nullptr)) return finish(false);
      } else if (c->kind == xml::NodeKind::kText && !blank(c->value)) {
        text += c->value;
        has_text = true;
      }
    }
    if (int f = field(o_.value_tag); f >= 0 && has_text && !put(f, nullptr, &text)) return finish(false);
    return finish(true);
  }

 private:
  static bool blank(const std::string& s) {
    for (char c : s)
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
    return true;
  }

  /// An element read as a value of type `t`.
  bool value_of(const xml::Node* e, const TypePtr& t, Value* out) const {
    if (t->id() == TypeId::kStruct) return struct_of(e, t, out);
    if (t->id() == TypeId::kMap) {
      Value::List entries;
      for (const xml::Node* c : e->children) {
        if (c->kind != xml::NodeKind::kElement) continue;
        Value v;
        if (!value_of(c, t->value_type(), &v)) return false;
        entries.push_back(Value::list({Value::bytes(c->name), std::move(v)}));
      }
      *out = Value::list(std::move(entries));
      return true;
    }
    if (t->id() == TypeId::kArray) {
      Value v;
      if (!value_of(e, t->element_type(), &v)) return false;
      *out = Value::list({std::move(v)});
      return true;
    }
    std::string text;
    for (const xml::Node* c : e->children)
      if (c->kind == xml::NodeKind::kText) text += c->value;
    return primitive(text, t, out);
  }

  bool primitive(std::string_view raw, const TypePtr& t, Value* out) const {
    const std::string_view v = o_.ignore_surrounding_spaces ? java_trim(raw) : raw;
    *out = Value();
    if (o_.has_null_value && v == o_.null_value) return true;
    if (t->id() == TypeId::kString) {
      *out = Value::bytes(std::string(v));
      return true;
    }
    if (v.empty()) return true;
    if (t->id() == TypeId::kBoolean) {
      const std::string u = ascii_upper(std::string(v));
      if (u != "TRUE" && u != "FALSE") return false;
      *out = Value::boolean(u == "TRUE");
      return true;
    }
    ColumnPtr cast = cast_column(Column::constant(DataType::string(), Value::bytes(std::string(v)), 1),
                                 t, ctx_, true);
    if (cast->is_null(0)) return false;
    *out = cast->value_at(0);
    return true;
  }

  const XmlReadOptions& o_;
  const EvalContext& ctx_;
};

Signature from_xml_rule(const Infos& a, const Config&) {
  const TypeId id = a[0].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input("from_xml", types_of(a), 0, "\"STRING\"");
  TypePtr schema = as_nullable(schema_argument(a[1]));
  if (schema->id() != TypeId::kStruct)
    throw_type_mismatch("INVALID_XML_SCHEMA", "Input schema \"" + schema->sql() + "\" must be a struct or a variant.",
                        "from_xml(" + a[0].type->sql() + ")");
  require_options_map(a, 2);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = schema;
  sig.may_introduce_null = true;
  return sig;
}

ColumnPtr from_xml_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const FunctionOptions opts = options_at(a, 2);
  const XmlReadOptions o = read_options(opts, "from_xml", ctx);
  const TypePtr& type = sig.result_type;
  int corrupt = -1;
  for (size_t f = 0; f < type->fields().size(); ++f)
    if (type->fields()[f].name == o.corrupt_column && type->fields()[f].type->id() == TypeId::kString)
      corrupt = static_cast<int>(f);
  const XmlRecordReader reader(o, ctx);
  xml::ParseOptions po;
  po.keep_namespace_declarations = true;
  po.stop_after_root = true;
  po.declared_entities = false;
  const Column& in = *a[0];
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i)) {
      b.append_null();
      continue;
    }
    const std::string_view text = in.string_at(i);
    xml::Document doc;
    std::string error;
    const xml::ParseStatus st = doc.parse(text, &error, po);
    if (st == xml::ParseStatus::kUnsupported)
      throw SparkError(ErrorKind::kUnsupportedOperation, "", "Unsupported XML construct: " + error);
    const xml::Node* root = nullptr;
    if (st == xml::ParseStatus::kOk)
      for (const xml::Node* c : doc.root()->children)
        if (c->kind == xml::NodeKind::kElement) root = c;
    Value out;
    if (root && reader.struct_of(root, type, &out)) {
      b.append_value(out);
      continue;
    }
    // A malformed record: the fields read before the failure, and the record in the corrupt
    // record column.
    if (o.fail_fast) throw_failfast("[null]");
    Value::List fields = root ? out.as_list() : Value::List(type->fields().size());
    if (corrupt >= 0) fields[static_cast<size_t>(corrupt)] = Value::bytes(std::string(text));
    b.append_value(Value::list(std::move(fields)));
  }
  return b.finish();
}

// ---- to_xml ---------------------------------------------------------------------------------

struct XmlWriteOptions {
  std::string row_tag = "ROW";
  std::string attribute_prefix = "_";
  std::string value_tag = "_VALUE";
  std::string array_element_name = "item";
  std::string indent = "    ";
  bool has_null_value = false;
  std::string null_value;
  const TimeZone* zone = nullptr;
};

XmlWriteOptions read_write_options(const FunctionOptions& o, const EvalContext& ctx) {
  // compression, declaration and rootTag shape files, not one record: to_xml ignores them.
  for (const char* key : {"timestampFormat", "timestampNTZFormat", "dateFormat", "locale"}) {
    if (o.has(key))
      throw SparkError(ErrorKind::kUnsupportedOperation, "",
                       std::string("The to_xml option '") + key + "' is not supported by this engine.");
  }
  XmlWriteOptions w;
  w.row_tag = o.get("rowTag", w.row_tag);
  w.attribute_prefix = o.get("attributePrefix", w.attribute_prefix);
  w.value_tag = o.get("valueTag", w.value_tag);
  w.array_element_name = o.get("arrayElementName", w.array_element_name);
  w.indent = o.get("indent", w.indent);
  w.has_null_value = o.has("nullValue");
  w.null_value = o.get("nullValue", "");
  w.zone = &TimeZone::get(o.get("timeZone", ctx.time_zone));
  return w;
}

void escape_text(std::string& out, std::string_view s, bool attribute) {
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (attribute && c == '"') out += "&quot;";
    else out += c;
  }
}

/// java.math.BigDecimal's toString: plain digits while the adjusted exponent is at least -6 and
/// the scale is not negative, scientific notation ("1E-9", "1.5E-7") otherwise.
std::string java_big_decimal_string(int128_t unscaled, int scale) {
  const bool negative = unscaled < 0;
  std::string digits = int128_to_string(negative ? -unscaled : unscaled);
  const int64_t adjusted = -static_cast<int64_t>(scale) + static_cast<int64_t>(digits.size()) - 1;
  if (scale >= 0 && adjusted >= -6) return decimal_to_string(unscaled, scale);
  std::string out = negative ? "-" : "";
  out += digits[0];
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += "E";
  out += adjusted >= 0 ? "+" : "";
  out += std::to_string(adjusted);
  return out;
}

/// yyyy-MM-dd'T'HH:mm:ss.SSS of local micros, then the zone as XXX (Z for a zero offset).
std::string iso_millis(int64_t local_micros) {
  const int64_t days = floor_div(local_micros, 86400000000LL);
  const int64_t in_day = local_micros - days * 86400000000LL;
  std::string out = format_date(static_cast<int32_t>(days));
  char buf[32];
  const int64_t secs = in_day / 1000000;
  std::snprintf(buf, sizeof buf, "T%02d:%02d:%02d.%03d", static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60), static_cast<int>(in_day % 1000000 / 1000));
  return out + buf;
}

class XmlWriter {
 public:
  XmlWriter(const XmlWriteOptions& o, std::string& out) : o_(o), out_(out) {}

  void row(const Column& c, int64_t r) {
    element(o_.row_tag, c, r, 0);
    if (o_.indent.empty()) out_ += '\n';
  }

 private:
  /// Names are written without namespace processing: a colon is not allowed in them.
  void check_name(const std::string& name) const {
    if (!xml::is_xml_name(name) || name.find(':') != std::string::npos)
      throw SparkError(ErrorKind::kRuntime, "", "Illegal XML name for to_xml: '" + name + "'");
  }

  void newline(int depth) {
    if (o_.indent.empty()) return;
    out_ += '\n';
    for (int i = 0; i < depth; ++i) out_ += o_.indent;
  }

  /// The text of a non-null primitive value.
  std::string text(const Column& c, int64_t r) const {
    const TypePtr& t = c.type();
    switch (t->id()) {
      case TypeId::kString: return std::string(c.string_at(r));
      case TypeId::kBoolean: return c.bool_at(r) ? "true" : "false";
      case TypeId::kByte: return std::to_string(c.values<int8_t>()[r]);
      case TypeId::kShort: return std::to_string(c.values<int16_t>()[r]);
      case TypeId::kInt: return std::to_string(c.values<int32_t>()[r]);
      case TypeId::kLong: return std::to_string(c.values<int64_t>()[r]);
      case TypeId::kFloat: return java_float_string(c.values<float>()[r]);
      case TypeId::kDouble: return java_double_string(c.values<double>()[r]);
      case TypeId::kDecimal: return java_big_decimal_string(c.values<int128_t>()[r], t->scale());
      case TypeId::kDate: return format_date(c.values<int32_t>()[r]);
      case TypeId::kTimestamp: {
        const int64_t utc = c.values<int64_t>()[r];
        const int64_t off = o_.zone->offset_seconds_at_utc(floor_div(utc, 1000000));
        std::string s = iso_millis(utc + off * 1000000);
        if (off == 0) return s + "Z";
        char buf[16];
        const int64_t a = off < 0 ? -off : off;
        if (a % 60 == 0)
          std::snprintf(buf, sizeof buf, "%c%02d:%02d", off < 0 ? '-' : '+', static_cast<int>(a / 3600),
                        static_cast<int>(a / 60 % 60));
        else
          std::snprintf(buf, sizeof buf, "%c%02d:%02d:%02d", off < 0 ? '-' : '+', static_cast<int>(a / 3600),
                        static_cast<int>(a / 60 % 60), static_cast<int>(a % 60));
        return s + buf;
      }
      case TypeId::kTimestampNtz: return iso_millis(c.values<int64_t>()[r]);
      default:
        throw SparkError(ErrorKind::kUnsupportedOperation, "",
                         "to_xml does not support values of type " + t->sql() + " in this engine.");
    }
  }

  static bool is_primitive(const TypePtr& t) {
    return t->id() != TypeId::kStruct && t->id() != TypeId::kArray && t->id() != TypeId::kMap;
  }

  /// `<name>text</name>`, or `<name/>` for an empty text.
  void text_element(const std::string& name, const std::string& value, int depth) {
    check_name(name);
    newline(depth);
    out_ += '<';
    out_ += name;
    out_ += '>';
    escape_text(out_, value, false);
    out_ += "</";
    out_ += name;
    out_ += '>';
  }

  /// A struct row as an element: attributes, then child elements and text in field order.
  void element(const std::string& name, const Column& c, int64_t r, int depth) {
    check_name(name);
    if (depth > 0) newline(depth);
    out_ += '<';
    out_ += name;
    const auto& fields = c.type()->fields();
    for (size_t k = 0; k < fields.size(); ++k) {
      const std::string& f = fields[k].name;
      if (f == o_.value_tag || f.compare(0, o_.attribute_prefix.size(), o_.attribute_prefix) != 0 ||
          o_.attribute_prefix.empty())
        continue;
      const Column& v = *c.child(k);
      if (v.is_null(r)) continue;
      if (!is_primitive(v.type()))
        throw SparkError(ErrorKind::kUnsupportedOperation, "",
                         "to_xml does not support attributes of type " + v.type()->sql() + " in this engine.");
      const std::string attr = f.substr(o_.attribute_prefix.size());
      check_name(attr);
      out_ += ' ';
      out_ += attr;
      out_ += "=\"";
      escape_text(out_, text(v, r), true);
      out_ += '"';
    }
    bool open = false, children = false;
    const std::function<void()> open_tag = [&] {
      if (!open) out_ += '>';
      open = true;
    };
    for (size_t k = 0; k < fields.size(); ++k) {
      const std::string& f = fields[k].name;
      const Column& v = *c.child(k);
      if (f == o_.value_tag) {
        if (v.is_null(r)) continue;
        if (!is_primitive(v.type()))
          throw SparkError(ErrorKind::kUnsupportedOperation, "",
                           "to_xml does not support a value tag of type " + v.type()->sql() + " in this engine.");
        open_tag();
        escape_text(out_, text(v, r), false);
        continue;
      }
      if (!o_.attribute_prefix.empty() && f.compare(0, o_.attribute_prefix.size(), o_.attribute_prefix) == 0) continue;
      field(f, v, r, depth + 1, open_tag, children);
    }
    if (!open) {
      out_ += "/>";
      return;
    }
    if (children) newline(depth);
    out_ += "</";
    out_ += name;
    out_ += '>';
  }

  /// One field's elements; `open_tag` closes the parent's start tag before the first of them.
  void field(const std::string& name, const Column& v, int64_t r, int depth, const std::function<void()>& open_tag,
             bool& children) {
    if (v.is_null(r)) {
      if (!o_.has_null_value) return;
      open_tag();
      children = true;
      text_element(name, o_.null_value, depth);
      return;
    }
    const TypePtr& t = v.type();
    if (t->id() == TypeId::kStruct) {
      open_tag();
      children = true;
      element(name, v, r, depth);
    } else if (t->id() == TypeId::kArray) {
      const Column& items = *v.child(0);
      const int32_t* off = v.offsets();
      for (int32_t i = off[r]; i < off[r + 1]; ++i) {
        if (items.type()->id() == TypeId::kArray && items.is_valid(i)) {
          // An array in an array is one element holding its items under arrayElementName.
          open_tag();
          children = true;
          check_name(name);
          newline(depth);
          out_ += '<' + name;
          bool inner_open = false, inner_children = false;
          const std::function<void()> inner_tag = [&] {
            if (!inner_open) out_ += '>';
            inner_open = true;
          };
          const Column& inner = *items.child(0);
          const int32_t* io = items.offsets();
          for (int32_t j = io[i]; j < io[i + 1]; ++j) {
            if (!is_primitive(inner.type()))
              throw SparkError(ErrorKind::kUnsupportedOperation, "",
                               "to_xml does not support arrays nested more than two deep in this engine.");
            field(o_.array_element_name, inner, j, depth + 1, inner_tag, inner_children);
          }
          if (!inner_open) {
            out_ += "/>";
            continue;
          }
          if (inner_children) newline(depth);
          out_ += "</" + name + '>';
          continue;
        }
        if (items.type()->id() == TypeId::kMap)
          throw SparkError(ErrorKind::kUnsupportedOperation, "", "to_xml does not support maps in arrays in this engine.");
        field(name, items, i, depth, open_tag, children);
      }
    } else if (t->id() == TypeId::kMap) {
      // A map is one element holding an element per entry, named by its key.
      const Column& entries = *v.child(0);
      const Column& keys = *entries.child(0);
      const Column& values = *entries.child(1);
      if ((keys.type()->id() != TypeId::kString && keys.type()->id() != TypeId::kNull) || !is_primitive(values.type()))
        throw SparkError(ErrorKind::kUnsupportedOperation, "",
                         "to_xml supports maps of STRING keys to primitive values only in this engine.");
      open_tag();
      children = true;
      check_name(name);
      newline(depth);
      out_ += '<' + name;
      bool inner_open = false, inner_children = false;
      const std::function<void()> inner_tag = [&] {
        if (!inner_open) out_ += '>';
        inner_open = true;
      };
      const int32_t* off = v.offsets();
      for (int32_t i = off[r]; i < off[r + 1]; ++i)
        field(std::string(keys.string_at(i)), values, i, depth + 1, inner_tag, inner_children);
      if (!inner_open) {
        out_ += "/>";
        return;
      }
      if (inner_children) newline(depth);
      out_ += "</" + name + '>';
    } else {
      open_tag();
      children = true;
      text_element(name, text(v, r), depth);
    }
  }

  const XmlWriteOptions& o_;
  std::string& out_;
};

Signature to_xml_rule(const Infos& a, const Config&) {
  if (a[0].type->id() != TypeId::kStruct)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"STRUCT\" type, however \"" +
                            (a[0].name.empty() ? a[0].type->sql() : a[0].name) + "\" has the type \"" +
                            a[0].type->sql() + "\".",
                        "to_xml(" + a[0].type->sql() + ")");
  require_options_map(a, 1);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.may_introduce_null = true;  // Spark declares the result nullable whatever the input
  return sig;
}

ColumnPtr to_xml_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const FunctionOptions opts = a.size() > 1 ? FunctionOptions(*a[1]) : FunctionOptions();
  const XmlWriteOptions o = read_write_options(opts, ctx);
  const Column& in = *a[0];
  ColumnBuilder b(sig.result_type, n);
  std::string text;
  XmlWriter writer(o, text);
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i)) {
      b.append_null();
      continue;
    }
    text.clear();
    writer.row(in, i);
    b.append_bytes(text);
  }
  return b.finish();
}

}  // namespace

void register_xml_functions(Registry& r) {
  FunctionDef to_xml = scalar_args("to_xml", 1, 2, to_xml_rule, to_xml_kernel);
  to_xml.may_throw = true;
  to_xml.render = [](const std::string&, const std::vector<std::string>& args) { return "to_xml(" + args[0] + ")"; };
  r.add(std::move(to_xml));

  FunctionDef from_xml = scalar_args("from_xml", 2, 3, from_xml_rule, from_xml_kernel);
  from_xml.constant_args = {1};
  from_xml.may_throw = true;
  from_xml.render = [](const std::string&, const std::vector<std::string>& args) { return "from_xml(" + args[0] + ")"; };
  r.add(std::move(from_xml));

  FunctionDef d = scalar_args("schema_of_xml", 1, 2, schema_of_xml_rule, schema_of_xml_kernel);
  d.constant_args = {0};
  d.may_throw = true;
  d.render = [](const std::string&, const std::vector<std::string>& args) { return "schema_of_xml(" + args[0] + ")"; };
  r.add(std::move(d));
}

}  // namespace ember::functions
