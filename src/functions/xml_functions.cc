// XML record functions: schema_of_xml, which infers the schema Spark's XML reader gives one
// record (the root element is the row: its attributes and child elements are fields, named
// attributes prefixed with `attributePrefix`, text beside them in `valueTag`, repeated elements
// arrays, fields sorted by name), as a DDL string.

#include <algorithm>
#include <map>

#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"
#include "common/xml.h"
#include "functions/collection_util.h"
#include "functions/json_options.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// The options schema_of_xml reads; others that would change the inferred types are refused
/// rather than ignored.
struct XmlInferOptions {
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

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool parse_bool_option(const FunctionOptions& o, const std::string& key, bool fallback) {
  if (!o.has(key)) return fallback;
  const std::string v = upper(o.get(key, ""));
  if (v == "TRUE") return true;
  if (v == "FALSE") return false;
  throw SparkError(ErrorKind::kIllegalArgument, "", key + " flag can be true or false.");
}

XmlInferOptions read_options(const FunctionOptions& o, const std::string& fn, const EvalContext& ctx) {
  for (const char* key : {"timestampFormat", "timestampNTZFormat", "dateFormat", "locale", "ignoreNamespace",
                          "rowValidationXSDPath", "preferDate"}) {
    if (o.has(key))
      throw SparkError(ErrorKind::kUnsupportedOperation, "",
                       "The " + fn + " option '" + key + "' is not supported by this engine.");
  }
  XmlInferOptions x;
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
  const std::string mode = upper(o.get("mode", "PERMISSIVE"));
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
  const std::string u = upper(std::string(s));
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
  SchemaInference(const XmlInferOptions& o) : o_(o), zone_(TimeZone::get(o.time_zone)) {}

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

  const XmlInferOptions& o_;
  const TimeZone& zone_;
};

[[noreturn]] void throw_failfast(const std::string& corrupt) {
  throw SparkError(ErrorKind::kRuntime, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                   "Malformed records are detected in record parsing: " + corrupt +
                       ". Parse Mode: FAILFAST. To process malformed records as null result, try setting the "
                       "option 'mode' as 'PERMISSIVE'.",
                   {{"badRecord", corrupt}, {"failFastMode", "FAILFAST"}}, "22023");
}

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
  if (a.size() > 1) {
    const TypePtr& t = a[1].type;
    if (t->id() != TypeId::kMap || t->key_type()->id() != TypeId::kString ||
        t->value_type()->id() != TypeId::kString)
      throw SparkError(ErrorKind::kAnalysis, "INVALID_OPTIONS.NON_STRING_TYPE",
                       "Invalid options: A type of keys and values in `map()` must be string, but got \"" + t->sql() +
                           "\".",
                       {{"mapType", "\"" + t->sql() + "\""}}, "42K06");
  }
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.never_null = true;
  sig.null_if_any_arg_null = false;
  return sig;
}

ColumnPtr schema_of_xml_kernel(const Args& a, int64_t n, const Signature&, const EvalContext& ctx) {
  const FunctionOptions opts = a.size() > 1 ? FunctionOptions(*a[1]) : FunctionOptions();
  const XmlInferOptions o = read_options(opts, "schema_of_xml", ctx);
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

}  // namespace

void register_xml_functions(Registry& r) {
  FunctionDef d = scalar_args("schema_of_xml", 1, 2, schema_of_xml_rule, schema_of_xml_kernel);
  d.constant_args = {0};
  d.may_throw = true;
  d.render = [](const std::string&, const std::vector<std::string>& args) { return "schema_of_xml(" + args[0] + ")"; };
  r.add(std::move(d));
}

}  // namespace ember::functions
