// JSON functions: from_json, to_json, schema_of_json, get_json_object, json_array_length,
// json_object_keys, and the field extraction behind the json_tuple generator. Documents are
// parsed by common/json with the grammar relaxations Spark's options name; values convert to
// and from column types through io/json_values, the code the JSON data source uses.

#include "functions/json_functions.h"

#include <cctype>
#include <optional>

#include "common/error.h"
#include "common/timezone.h"
#include "functions/collection_util.h"
#include "functions/json_options.h"
#include "functions/string_util.h"
#include "io/json_values.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

/// Parses the first JSON value of `text`; false when it is not well formed.
bool parse_first(std::string_view text, const JsonParseOptions& o, JsonValue* out) {
  try {
    parse_json_prefix(text, o, out);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

[[noreturn]] void invalid_json_schema(const TypePtr& t, const std::string& sql) {
  throw_type_mismatch("INVALID_JSON_SCHEMA",
                      "Input schema \"" + t->sql() + "\" must be a struct, an array, a map or a variant.", sql);
}

void require_string_input(const std::string& fn, const Infos& a) {
  const TypeId id = a[0].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input(fn, types_of(a), 0, "\"STRING\"");
}


// ---- from_json ------------------------------------------------------------------------------

Signature from_json_rule(const Infos& a, const Config& conf) {
  require_string_input("from_json", a);
  const ArgInfo& s = a[1];
  TypePtr schema = as_nullable(schema_argument(s));
  const std::string sql = "from_json(" + a[0].type->sql() + ")";
  const TypeId id = schema->id();
  if (id != TypeId::kStruct && id != TypeId::kArray && id != TypeId::kMap) invalid_json_schema(schema, sql);
  if (id == TypeId::kMap && schema->key_type()->id() != TypeId::kString)
    throw_type_mismatch("INVALID_JSON_MAP_KEY_TYPE",
                        "Input schema \"" + schema->sql() + "\" can only contain STRING as a key type for a MAP.",
                        "entries");
  require_options_map(a, 2);
  const std::string corrupt = conf.get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record");
  if (id == TypeId::kStruct)
    for (const auto& f : schema->fields())
      if (f.name == corrupt && f.type->id() != TypeId::kString)
        throw SparkError(ErrorKind::kAnalysis, "INVALID_CORRUPT_RECORD_TYPE",
                         "The column `" + corrupt + "` for corrupt records must have the nullable STRING type, but got \"" +
                             f.type->sql() + "\".",
                         {{"columnName", "`" + corrupt + "`"}, {"actualType", "\"" + f.type->sql() + "\""}}, "42804");
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = schema;
  sig.may_introduce_null = true;
  return sig;
}

ColumnPtr from_json_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const FunctionOptions opts = options_at(a, 2);
  const TypePtr& type = sig.result_type;
  std::string mode = opts.get("mode", "PERMISSIVE");
  for (auto& c : mode) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (mode == "DROPMALFORMED")
    throw_parse_mode_unsupported("from_json", "DROPMALFORMED");
  const bool failfast = mode == "FAILFAST";
  const JsonParseOptions parse = opts.json_parse_options();
  io::JsonConvertContext cc;
  cc.zone = &TimeZone::get(opts.get("timeZone", ctx.time_zone));
  cc.case_sensitive = true;
  cc.partial_structs = true;
  cc.normalize_numbers = true;
  if (opts.has("dateFormat")) cc.date_format.emplace(opts.get("dateFormat", ""));
  if (opts.has("timestampFormat")) cc.timestamp_format.emplace(opts.get("timestampFormat", ""));
  const std::string corrupt_name = opts.get(
      "columnNameOfCorruptRecord",
      ctx.config ? ctx.config->get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record") : "_corrupt_record");
  int corrupt = -1;
  if (type->id() == TypeId::kStruct)
    for (size_t f = 0; f < type->fields().size(); ++f)
      if (type->fields()[f].name == corrupt_name && type->fields()[f].type->id() == TypeId::kString)
        corrupt = static_cast<int>(f);

  const Column& in = *a[0];
  ColumnBuilder b(type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i) || blank(in.string_at(i))) {
      b.append_null();
      continue;
    }
    const std::string_view text = in.string_at(i);
    JsonValue doc;
    Value out;
    bool bad = false;
    bool ok = parse_first(text, parse, &doc);
    if (ok) {
      if (type->id() == TypeId::kArray && doc.kind == JsonValue::Kind::kObject &&
          type->element_type()->id() == TypeId::kStruct) {
        // A single object read as an array of structs is a one-element array.
        Value e;
        ok = io::convert_json_value(doc, *type->element_type(), cc, &e, &bad);
        if (ok) out = Value::list({e});
        // Its partial results stand: there is no row to put a corrupt record in.
        if (!failfast) bad = false;
      } else if ((type->id() == TypeId::kStruct || type->id() == TypeId::kMap) && doc.kind != JsonValue::Kind::kObject) {
        ok = false;
      } else {
        ok = io::convert_json_value(doc, *type, cc, &out, &bad);
        // Arrays and maps keep the partial results of their structs.
        if (type->id() != TypeId::kStruct && !failfast) bad = false;
      }
    }
    if (ok && !bad) {
      if (corrupt >= 0) {
        Value::List fields = out.as_list();
        fields[static_cast<size_t>(corrupt)] = Value();
        out = Value::list(std::move(fields));
      }
      b.append_value(out);
      continue;
    }
    if (failfast) throw_failfast("[null]");
    if (type->id() != TypeId::kStruct) {
      b.append_null();
      continue;
    }
    Value::List fields = ok ? out.as_list() : Value::List(type->fields().size());
    if (corrupt >= 0) fields[static_cast<size_t>(corrupt)] = Value::bytes(std::string(text));
    b.append_value(Value::list(std::move(fields)));
  }
  return b.finish();
}

std::string from_json_render(const std::vector<std::string>& args) {
  try {
    if (parse_schema_text(args[1])->id() == TypeId::kMap) return "entries";
  } catch (const std::exception&) {
  }
  return "from_json(" + args[0] + ")";
}

// ---- to_json --------------------------------------------------------------------------------

bool has_interval(const DataType& t) {
  if (t.id() == TypeId::kYearMonthInterval || t.id() == TypeId::kDayTimeInterval) return true;
  for (const auto& f : t.fields())
    if (has_interval(*f.type)) return true;
  return false;
}

Signature to_json_rule(const Infos& a, const Config&) {
  const TypePtr& t = a[0].type;
  const std::string sql = "to_json(" + t->sql() + ")";
  if (t->id() != TypeId::kStruct && t->id() != TypeId::kArray && t->id() != TypeId::kMap &&
      t->id() != TypeId::kVariant)
    invalid_json_schema(t, sql);
  if (has_interval(*t))
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE",
                     "The feature is not supported: interval values in to_json (Ember does not write them yet).",
                     {}, "0A000");
  require_options_map(a, 1);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.may_introduce_null = true;
  return sig;
}

ColumnPtr to_json_kernel(const Args& a, int64_t n, const Signature&, const EvalContext& ctx) {
  const FunctionOptions opts = options_at(a, 1);
  io::JsonValueWriter::Options o;
  const bool conf_ignore = ctx.config ? ctx.config->get_bool("spark.sql.jsonGenerator.ignoreNullFields", true) : true;
  o.ignore_null_fields = opts.get_bool("ignoreNullFields", conf_ignore);
  o.pretty = opts.get_bool("pretty", false);
  o.date_format = opts.get("dateFormat", o.date_format);
  o.timestamp_format = opts.get("timestampFormat", o.timestamp_format);
  o.timestamp_ntz_format = opts.get("timestampNTZFormat", o.timestamp_ntz_format);
  o.time_zone = opts.get("timeZone", ctx.time_zone);
  const io::JsonValueWriter writer(o);
  const Column& in = *a[0];
  ColumnBuilder b(DataType::string(), n);
  std::string text;
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i)) {
      b.append_null();
      continue;
    }
    text.clear();
    writer.append_value(text, in, i);
    b.append_bytes(text);
  }
  return b.finish();
}

// ---- schema_of_json -------------------------------------------------------------------------

Signature schema_of_json_rule(const Infos& a, const Config&) {
  require_string_input("schema_of_json", a);
  const std::string sql = "schema_of_json(" + a[0].type->sql() + ")";
  if (!a[0].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `json` should be a foldable \"STRING\" expression; however, got \"" +
                            a[0].type->sql() + "\".",
                        sql);
  if (a[0].literal->is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The json must not be null.", sql);
  require_options_map(a, 1);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.never_null = true;
  sig.null_if_any_arg_null = false;
  return sig;
}

ColumnPtr schema_of_json_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  const FunctionOptions opts = options_at(a, 1);
  std::string ddl = "STRING";
  if (n > 0 && !a[0]->is_null(0) && !blank(a[0]->string_at(0))) {
    JsonValue doc;
    if (!parse_first(a[0]->string_at(0), opts.json_parse_options(), &doc)) throw_failfast("[null]");
    TypePtr t = io::infer_json_type(doc, opts.get_bool("primitivesAsString", false),
                                    opts.get_bool("prefersDecimal", false));
    auto c = io::canonical_json_type(t);
    ddl = c ? (*c)->sql() : DataType::struct_({})->sql();
  }
  return Column::constant(DataType::string(), Value::bytes(ddl), n);
}

// ---- get_json_object ------------------------------------------------------------------------

/// One step of Spark's JSONPath subset.
struct PathStep {
  enum class Kind { kField, kIndex, kWildcard } kind;
  std::string name;
  int64_t index = 0;
};

/// Parses `$`, `.name`, `['name']`, `[n]` and `[*]`; nullopt for anything else.
std::optional<std::vector<PathStep>> parse_path(std::string_view p) {
  if (p.empty() || p[0] != '$') return std::nullopt;
  std::vector<PathStep> steps;
  size_t i = 1;
  while (i < p.size()) {
    if (p[i] == '.') {
      size_t e = i + 1;
      while (e < p.size() && p[e] != '.' && p[e] != '[') ++e;
      std::string name(p.substr(i + 1, e - i - 1));
      if (name.empty() || name == "*") return std::nullopt;
      steps.push_back({PathStep::Kind::kField, name});
      i = e;
    } else if (p[i] == '[') {
      if (p.compare(i, 3, "[*]") == 0) {
        steps.push_back({PathStep::Kind::kWildcard, ""});
        i += 3;
      } else if (p.compare(i, 2, "['") == 0) {
        size_t e = p.find("']", i + 2);
        if (e == std::string_view::npos) return std::nullopt;
        steps.push_back({PathStep::Kind::kField, std::string(p.substr(i + 2, e - i - 2))});
        i = e + 2;
      } else {
        size_t e = p.find(']', i + 1);
        if (e == std::string_view::npos || e == i + 1) return std::nullopt;
        int64_t idx = 0;
        for (size_t k = i + 1; k < e; ++k) {
          if (p[k] < '0' || p[k] > '9' || idx > (int64_t{1} << 40)) return std::nullopt;
          idx = idx * 10 + (p[k] - '0');
        }
        steps.push_back({PathStep::Kind::kIndex, "", idx});
        i = e + 1;
      }
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

/// Writes values as a JSON generator does, separating the values of an open array by commas.
class PathOutput {
 public:
  void raw(std::string_view s) {
    separate();
    out_ += s;
  }
  void start_array() {
    separate();
    out_ += '[';
    first_.push_back(true);
  }
  void end_array() {
    out_ += ']';
    first_.pop_back();
  }
  const std::string& text() const { return out_; }

 private:
  void separate() {
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  std::string out_;
  std::vector<bool> first_;
};

/// How a match is written: strings unquoted (the top level), quoted (inside a wildcard's
/// array), or with arrays flattened into the enclosing one (nested wildcards).
enum class Style { kRaw, kQuoted, kFlatten };

using Steps = std::vector<PathStep>;

bool evaluate_path(const JsonValue& v, Style style, const Steps& path, size_t at, PathOutput& g) {
  using K = JsonValue::Kind;
  const size_t left = path.size() - at;
  if (left == 0) {
    if (v.kind == K::kString && style == Style::kRaw) {
      g.raw(v.text);
      return true;
    }
    if (v.kind == K::kArray && style == Style::kFlatten) {
      bool dirty = false;
      for (const auto& item : v.items) dirty |= evaluate_path(item, style, path, at, g);
      return dirty;
    }
    std::string t;
    if (v.kind == K::kString) json_quote(t, v.text, true);
    else t = io::json_token_text(v);
    g.raw(t);
    return true;
  }
  const PathStep& step = path[at];
  if (v.kind == K::kObject && step.kind == PathStep::Kind::kField) {
    for (const auto& [name, value] : v.members) {
      if (name != step.name) continue;
      if (value.kind == K::kNull) return false;
      return evaluate_path(value, style, path, at + 1, g);
    }
    return false;
  }
  if (v.kind != K::kArray) return false;
  if (step.kind == PathStep::Kind::kIndex) {
    if (step.index >= static_cast<int64_t>(v.items.size())) return false;
    return evaluate_path(v.items[static_cast<size_t>(step.index)], style, path, at + 1, g);
  }
  if (step.kind != PathStep::Kind::kWildcard) return false;
  if (left >= 2 && path[at + 1].kind == PathStep::Kind::kWildcard) {
    // Nested wildcards flatten every level into one array.
    bool dirty = false;
    g.start_array();
    for (const auto& item : v.items) dirty |= evaluate_path(item, Style::kFlatten, path, at + 2, g);
    g.end_array();
    return dirty;
  }
  if (style == Style::kQuoted) {
    bool dirty = false;
    g.start_array();
    for (const auto& item : v.items) dirty |= evaluate_path(item, style, path, at + 1, g);
    g.end_array();
    return dirty;
  }
  // A wildcard's matches form an array, unwrapped when there is exactly one.
  PathOutput sub;
  int dirty = 0;
  const Style next = style == Style::kRaw ? Style::kQuoted : Style::kFlatten;
  sub.start_array();
  for (const auto& item : v.items) dirty += evaluate_path(item, next, path, at + 1, sub) ? 1 : 0;
  sub.end_array();
  const std::string& t = sub.text();
  if (dirty > 1) g.raw(t);
  else if (dirty == 1) g.raw(std::string_view(t).substr(1, t.size() - 2));
  return dirty > 0;
}

/// The grammar get_json_object, json_tuple and the json_* functions accept: Jackson's
/// defaults with single quotes and raw control characters allowed.
JsonParseOptions lenient_parse() {
  JsonParseOptions o;
  o.allow_single_quotes = true;
  o.allow_unquoted_control_chars = true;
  return o;
}

ColumnPtr get_json_object_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  const JsonParseOptions po = lenient_parse();
  std::optional<std::vector<PathStep>> cached;
  std::string cached_text;
  bool have_cached = false;
  return map_rows(a, n, DataType::string(), [&](int64_t i, ColumnBuilder& b) {
    const std::string_view path_text = a[1]->string_at(i);
    if (!have_cached || path_text != cached_text) {
      cached = parse_path(path_text);
      cached_text = std::string(path_text);
      have_cached = true;
    }
    JsonValue doc;
    if (!cached || !parse_first(a[0]->string_at(i), po, &doc)) {
      b.append_null();
      return;
    }
    PathOutput g;
    if (evaluate_path(doc, Style::kRaw, *cached, 0, g)) b.append_bytes(g.text());
    else b.append_null();
  });
}

// ---- json_array_length, json_object_keys ----------------------------------------------------

ColumnPtr json_array_length_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const JsonParseOptions po = lenient_parse();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    JsonValue doc;
    if (parse_first(a[0]->string_at(i), po, &doc) && doc.kind == JsonValue::Kind::kArray)
      b.append(static_cast<int32_t>(doc.items.size()));
    else
      b.append_null();
  });
}

ColumnPtr json_object_keys_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const JsonParseOptions po = lenient_parse();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    JsonValue doc;
    if (!parse_first(a[0]->string_at(i), po, &doc) || doc.kind != JsonValue::Kind::kObject) {
      b.append_null();
      return;
    }
    Value::List keys;
    for (const auto& m : doc.members) keys.push_back(Value::bytes(m.first));
    b.append_value(Value::list(std::move(keys)));
  });
}

Signature nullable_result(Signature s) {
  s.may_introduce_null = true;
  return s;
}

}  // namespace

std::vector<ColumnPtr> json_tuple_columns(const Column& json, const std::vector<ColumnPtr>& fields, int64_t n) {
  const JsonParseOptions po = lenient_parse();
  std::vector<std::unique_ptr<ColumnBuilder>> out;
  for (size_t k = 0; k < fields.size(); ++k) out.push_back(std::make_unique<ColumnBuilder>(DataType::string(), n));
  for (int64_t i = 0; i < n; ++i) {
    JsonValue doc;
    const bool ok = json.is_valid(i) && parse_first(json.string_at(i), po, &doc) &&
                    doc.kind == JsonValue::Kind::kObject;
    for (size_t k = 0; k < fields.size(); ++k) {
      const JsonValue* v = nullptr;
      if (ok && fields[k]->is_valid(i)) {
        const std::string_view name = fields[k]->string_at(i);
        for (const auto& m : doc.members)
          if (m.first == name) v = &m.second;  // the last of duplicate fields wins
      }
      if (!v || v->kind == JsonValue::Kind::kNull) out[k]->append_null();
      else out[k]->append_bytes(io::json_token_text(*v));
    }
  }
  std::vector<ColumnPtr> cols;
  for (auto& b : out) cols.push_back(b->finish());
  return cols;
}

void register_json_functions(Registry& r) {
  FunctionDef from_json;
  from_json.name = "from_json";
  from_json.min_args = 2;
  from_json.max_args = 3;
  from_json.constant_args = {1};
  from_json.arg_type_rule = from_json_rule;
  from_json.kernel = from_json_kernel;
  from_json.may_throw = true;
  from_json.render = [](const std::string&, const std::vector<std::string>& args) { return from_json_render(args); };
  r.add(std::move(from_json));

  FunctionDef to_json;
  to_json.name = "to_json";
  to_json.min_args = 1;
  to_json.max_args = 2;
  to_json.arg_type_rule = to_json_rule;
  to_json.kernel = to_json_kernel;
  to_json.render = [](const std::string&, const std::vector<std::string>& args) { return "to_json(" + args[0] + ")"; };
  r.add(std::move(to_json));

  FunctionDef schema_of_json;
  schema_of_json.name = "schema_of_json";
  schema_of_json.min_args = 1;
  schema_of_json.max_args = 2;
  schema_of_json.constant_args = {0};
  schema_of_json.arg_type_rule = schema_of_json_rule;
  schema_of_json.kernel = schema_of_json_kernel;
  schema_of_json.may_throw = true;
  schema_of_json.render = [](const std::string&, const std::vector<std::string>& args) {
    return "schema_of_json(" + args[0] + ")";
  };
  r.add(std::move(schema_of_json));

  r.add(scalar(
      "get_json_object", 2, 2,
      [](const std::vector<TypePtr>& t, const Config&) {
        return nullable_result(coerce_args("get_json_object", t, "SS", DataType::string()));
      },
      get_json_object_kernel));
  r.add(scalar(
      "json_array_length", 1, 1,
      [](const std::vector<TypePtr>& t, const Config&) {
        return nullable_result(coerce_args("json_array_length", t, "S", DataType::int_()));
      },
      json_array_length_kernel));
  r.add(scalar(
      "json_object_keys", 1, 1,
      [](const std::vector<TypePtr>& t, const Config&) {
        return nullable_result(coerce_args("json_object_keys", t, "S", DataType::array(DataType::string(), true)));
      },
      json_object_keys_kernel));
}

}  // namespace ember::functions
