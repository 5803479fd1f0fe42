#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/error.h"
#include "functions/function.h"
#include "functions/java_form.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {
}  // namespace

// Families registered here whose entry points are not in function.h.
void register_datetime_interval(Registry& r);
void register_calendar_interval(Registry& r);
void register_sentences(Registry& r);
void register_string_aggregates(Registry& r);
void register_bitmap_functions(Registry& r);
void register_histogram_aggregates(Registry& r);
void register_number_format(Registry& r);
void register_time_window(Registry& r);
void register_collation_functions(Registry& r);
void register_session_info(Registry& r);
void register_theta_functions(Registry& r);
void register_hll_functions(Registry& r);
void register_sketch_functions(Registry& r);
void register_kll_functions(Registry& r);
void register_xpath_functions(Registry& r);
void register_xml_functions(Registry& r);

Registry& Registry::instance() {
  static Registry* r = new Registry();
  return *r;
}

Registry::Registry() {
  // Each family registers under the name of its file, which FunctionDef::family records.
  const auto family = [this](const char* name, void (*register_family)(Registry&)) {
    family_ = name;
    register_family(*this);
  };
  family("arithmetic", register_arithmetic);
  family("comparison", register_comparison);
  family("logical", register_logical);
  family("aggregates", register_aggregates);
  family("misc", register_misc);
  family("crypto", register_crypto);
  family("math", register_math);
  family("rand", register_rand);
  family("aggregates_stats", register_statistical_aggregates);
  family("aggregates_value", register_value_aggregates);
  family("aggregates_logical", register_logical_aggregates);
  family("aggregates_regression", register_regression_aggregates);
  family("aggregates_percentile", register_percentile_aggregates);
  family("aggregates_approx_percentile", register_approx_percentile);
  family("string_basic", register_string_basic);
  family("string_regexp", register_string_regexp);
  family("string_format", register_string_format);
  family("string_encode", register_string_encode);
  family("string_misc", register_string_misc);
  family("hash", register_hash);
  family("conditional", register_conditional);
  family("datetime_fields", register_datetime_fields);
  family("datetime_arith", register_datetime_arith);
  family("datetime_operators", register_datetime_operators);
  family("datetime_format", register_datetime_format);
  family("datetime_time", register_datetime_time);
  family("datetime_interval", register_datetime_interval);
  family("calendar_interval", register_calendar_interval);
  family("sentences", register_sentences);
  family("aggregates_string", register_string_aggregates);
  family("bitmap_functions", register_bitmap_functions);
  family("aggregates_histogram", register_histogram_aggregates);
  family("theta_functions", register_theta_functions);
  family("hll_functions", register_hll_functions);
  family("sketch_functions", register_sketch_functions);
  family("kll_functions", register_kll_functions);
  family("collection_constructors", register_collection_constructors);
  family("collection_access", register_collection_access);
  family("array_functions", register_array_functions);
  family("map_functions", register_map_functions);
  family("arrays_zip", register_arrays_zip);
  family("vector_functions", register_vector_functions);
  family("aggregates_collect", register_collect_aggregates);
  family("higher_order_arrays", register_higher_order_arrays);
  family("higher_order_maps", register_higher_order_maps);
  family("json_functions", register_json_functions);
  family("variant", register_variant_functions);
  family("url_functions", register_url_functions);
  family("reflect", register_reflect);
  family("csv_functions", register_csv_functions);
  family("input_file", register_input_file_functions);
  family("udt", register_udt);
  family("xpath_functions", register_xpath_functions);
  family("xml_functions", register_xml_functions);
  family("number_format", register_number_format);
  family("time_window", register_time_window);
  family("collation_functions", register_collation_functions);
  family("session_info", register_session_info);
  family("special_forms", register_special_forms);
  family_.clear();
}

void Registry::add(FunctionDef def) {
  if (def.display_name.empty()) def.display_name = def.name;
  if (def.family.empty() && !def.special_form) def.family = family_;
  defs_.push_back(std::make_unique<FunctionDef>(std::move(def)));
  const FunctionDef* d = defs_.back().get();
  index_.emplace_back(ascii_lower(d->name), d);
  for (auto& a : d->aliases) index_.emplace_back(ascii_lower(a), d);
  std::sort(index_.begin(), index_.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
}

const FunctionDef* Registry::find_internal(const std::string& name) const {
  std::string key = ascii_lower(name);
  auto it = std::lower_bound(index_.begin(), index_.end(), key,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  return it != index_.end() && it->first == key ? it->second : nullptr;
}

const FunctionDef* Registry::find(const std::string& name) const {
  const FunctionDef* d = find_listed(name);
  return d && !d->special_form ? d : nullptr;
}

const FunctionDef* Registry::find_listed(const std::string& name) const {
  const FunctionDef* d = find_internal(name);
  return d && !d->internal ? d : nullptr;
}

std::vector<const FunctionDef*> Registry::all() const {
  std::vector<const FunctionDef*> out;
  for (auto& d : defs_)
    if (!d->internal && !d->special_form) out.push_back(d.get());
  return out;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (auto& d : defs_) {
    if (d->internal || d->unlisted) continue;
    out.push_back(d->name);
    for (const auto& a : d->aliases) out.push_back(a);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string function_class_name(const FunctionDef& def) {
  // Aggregates sit in their own package, as Spark's do (expressions.aggregate.Count).
  if (def.family.empty()) return "";
  if (def.special_form) return "ember.plan." + def.family;
  return (def.kind == FunctionKind::kAggregate ? "ember.functions.aggregate." : "ember.functions.") + def.family;
}

std::vector<std::string> describe_function(const FunctionDef& def, const std::string& called, bool extended) {
  // An alias is described under its own name, in its usage text too.
  const std::string name = ascii_lower(called);
  std::string usage = def.usage.empty() ? "N/A." : def.usage;
  if (name != def.name) {
    const std::string from = def.name + "(", to = name + "(";
    for (size_t at = usage.find(from); at != std::string::npos; at = usage.find(from, at + to.size()))
      usage.replace(at, from.size(), to);
  }
  std::vector<std::string> rows = {"Function: " + name};
  if (const std::string cls = function_class_name(def); !cls.empty()) rows.push_back("Class: " + cls);
  rows.push_back("Usage: " + usage);
  if (!extended) return rows;
  std::string text = "Extended Usage:";
  if (def.examples.empty() && def.since.empty()) text += "\n    No example/argument for " + name + ".\n";
  if (!def.examples.empty()) {
    text += "\n    Examples:\n";
    for (const auto& [query, result] : def.examples) {
      text += "      > " + query + ";\n";
      size_t start = 0;
      while (start <= result.size()) {
        size_t end = result.find('\n', start);
        if (end == std::string::npos) end = result.size();
        text += "       " + result.substr(start, end - start) + "\n";
        start = end + 1;
      }
    }
    text += "  ";
  }
  if (!def.since.empty()) text += "\n    Since: " + def.since + "\n";
  rows.push_back(text);
  return rows;
}

void throw_unresolved_routine(const std::string& name) {
  std::string routine = "`" + name + "`";
  const std::string path = "[`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`]";
  throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_ROUTINE",
                   "Cannot resolve routine " + routine + " on search path " + path + ".",
                   {{"routineName", routine}, {"searchPath", path}});
}

std::vector<std::string> Registry::similar(const std::string& name, size_t max) const {
  std::string key = ascii_lower(name);
  std::vector<std::pair<size_t, std::string>> scored;
  for (auto& [n, d] : index_) {
    if (!std::isalpha(static_cast<unsigned char>(n[0])) || d->internal) continue;
    scored.emplace_back(edit_distance(key, n), n);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (auto& [d, n] : scored) {
    if (out.size() >= max || d > std::max<size_t>(2, key.size() / 2)) break;
    out.push_back(n);
  }
  return out;
}

void throw_arithmetic_overflow(const std::string& type_word, const char* try_fn) {
  // Interval arithmetic's message is the bare word.
  throw_arithmetic_overflow_message(type_word.empty() ? "overflow" : type_word + " overflow", try_fn);
}

void throw_arithmetic_overflow_message(const std::string& message, const char* try_fn) {
  std::string alt = try_fn ? std::string(" Use '") + try_fn + "' to tolerate overflow and return NULL instead."
                           : std::string();
  throw SparkError(ErrorKind::kArithmetic, "ARITHMETIC_OVERFLOW",
                   message + "." + alt + " If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                   {{"message", message}, {"alternative", alt}, {"config", "\"spark.sql.ansi.enabled\""}});
}

int64_t EvalContext::now() const { return query_start_micros != 0 ? query_start_micros : now_micros(); }

void throw_binary_arithmetic_overflow(int64_t left, const char* symbol, int64_t right, const char* try_fn) {
  const std::string value1 = std::to_string(left) + "S", value2 = std::to_string(right) + "S";
  const std::string function = std::string("`") + try_fn + "`";
  throw SparkError(ErrorKind::kArithmetic, "BINARY_ARITHMETIC_OVERFLOW",
                   value1 + " " + symbol + " " + value2 + " caused overflow. Use " + function +
                       " to ignore overflow problem and return NULL.",
                   {{"value1", value1}, {"symbol", symbol}, {"value2", value2}, {"functionName", function}},
                   "22003");
}

void throw_divide_by_zero() {
  throw SparkError(ErrorKind::kArithmetic, "DIVIDE_BY_ZERO",
                   "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL "
                   "instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                   "this error.",
                   {{"config", "\"spark.sql.ansi.enabled\""}});
}

void throw_remainder_by_zero() {
  throw SparkError(ErrorKind::kArithmetic, "REMAINDER_BY_ZERO",
                   "Remainder by zero. Use `try_mod` to tolerate divisor being 0 and return NULL "
                   "instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                   "this error.",
                   {{"config", "\"spark.sql.ansi.enabled\""}}, "22012");
}

BufferPtr and_validity(const std::vector<const Column*>& cols, int64_t n) {
  BufferPtr out;
  for (const Column* c : cols) {
    if (c->type()->id() == TypeId::kNull) {
      return Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
    }
    if (!c->may_have_nulls()) continue;
    if (!out) {
      if (cols.size() == 1) return c->validity_buffer();
      out = Buffer::allocate(static_cast<size_t>(bitmap_bytes(n)));
      std::memcpy(out->mutable_data(), c->validity_bits(), static_cast<size_t>(bitmap_bytes(n)));
    } else {
      uint8_t* o = out->mutable_data();
      const uint8_t* v = c->validity_bits();
      for (int64_t i = 0; i < bitmap_bytes(n); ++i) o[i] &= v[i];
    }
  }
  return out;
}

ColumnPtr make_bool_column(const std::vector<uint8_t>& values, BufferPtr validity, int64_t n) {
  auto data = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  uint8_t* d = data->mutable_data();
  const uint8_t* v = values.data();
  const int64_t whole = n / 8;
  // Eight bytes at a time: each byte's "not zero" as its low bit, then one multiply gathers
  // the eight low bits into the top byte, first row lowest.
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
  for (int64_t i = 0; i < whole; ++i) {
    uint64_t x;
    std::memcpy(&x, v + i * 8, 8);
    const uint64_t nonzero = (((x & kLow7) + kLow7) | x) >> 7 & 0x0101010101010101ull;
    d[i] = static_cast<uint8_t>((nonzero * 0x0102040810204080ull) >> 56);
  }
  for (int64_t i = whole * 8; i < n; ++i)
    if (v[i]) set_bit(d, i);
  return Column::make(DataType::boolean(), n, std::move(validity), data);
}

namespace {
thread_local const CallText* g_call_text = nullptr;

std::string lower_ascii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The index named by "The <ordinal> parameter" in a message, or -1.
int parameter_index(const std::string& message) {
  static const char* kOrdinals[] = {"first", "second", "third"};
  for (int i = 0; i < 3; ++i)
    if (message.find(std::string("The ") + kOrdinals[i] + " parameter") != std::string::npos) return i;
  for (int i = 3; i < 64; ++i)
    if (message.find("The " + std::to_string(i + 1) + "th parameter") != std::string::npos) return i;
  return -1;
}

/// Replaces the text between `open` and the next `close` after it with `text`.
void replace_between(std::string& message, const std::string& open, const std::string& close,
                     const std::string& text) {
  size_t a = message.find(open);
  if (a == std::string::npos) return;
  a += open.size();
  size_t b = message.find(close, a);
  if (b == std::string::npos) return;
  message.replace(a, b - a, text);
}

/// The call's text for `sql_expr` when it names the current call (by its argument types or by
/// its name alone), else `sql_expr`.
std::string call_text_for(const CallText& t, const std::string& sql_expr) {
  const std::string e = lower_ascii(sql_expr), n = lower_ascii(t.name);
  if (e == n || (e.rfind(n + "(", 0) == 0 && e.back() == ')')) return t.call;
  return sql_expr;
}
}  // namespace

CallTextScope::CallTextScope(const CallText* text) : previous_(g_call_text) { g_call_text = text; }
CallTextScope::~CallTextScope() { g_call_text = previous_; }
const CallText* CallTextScope::current() { return g_call_text; }

void throw_type_mismatch(const std::string& sub_class, const std::string& message,
                         const std::string& sql_expr) {
  std::string expr = sql_expr, text = message;
  if (const CallText* t = g_call_text) {
    expr = call_text_for(*t, sql_expr);
    int i = parameter_index(text);
    if (i >= 0 && static_cast<size_t>(i) < t->args.size())
      replace_between(text, "type, however \"", "\" has the type", t->args[static_cast<size_t>(i)]);
    // A non-foldable argument, shown by its type (`however, got "INT".` or, in the older
    // messages, `however, got INT.`): the last argument of that type that is not a literal, as
    // the arguments that must be constant come after the data.
    size_t got = text.find("however, got ");
    if (got != std::string::npos) {
      size_t from = got + 13;
      bool quoted = from < text.size() && text[from] == '"';
      if (quoted) ++from;
      size_t to = quoted ? text.find('"', from) : text.rfind('.');
      if (to != std::string::npos && to > from) {
        std::string shown = text.substr(from, to - from);
        int match = -1;
        for (size_t k = 0; k < t->args.size(); ++k)
          if (!t->literal[k] && (t->args[k] == shown || (k < t->types_sql.size() && t->types_sql[k] == shown)))
            match = static_cast<int>(k);
        if (match >= 0) text.replace(from, to - from, t->args[static_cast<size_t>(match)]);
      }
    }
  }
  throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH." + sub_class,
                   "Cannot resolve \"" + expr + "\" due to data type mismatch: " + text,
                   {{"sqlExpr", "\"" + expr + "\""}});
}

namespace {

// Two arrays, two maps, or two structs whose fields have the same names (case-insensitively,
// Spark's default resolver), widened element by element with `element_rule` (wider_type or
// wider_common_type), their nullability merged and the first side's field names kept, as
// Spark's findTypeForComplex does; null when the kinds differ or an element pair has no common
// type.
TypePtr wider_nested(const TypePtr& a, const TypePtr& b, bool ansi,
                     TypePtr (*element_rule)(const TypePtr&, const TypePtr&, bool)) {
  if (a->id() == TypeId::kStruct && b->id() == TypeId::kStruct) {
    const auto& fa = a->fields();
    const auto& fb = b->fields();
    if (fa.size() != fb.size()) return nullptr;
    std::vector<StructField> fields;
    for (size_t i = 0; i < fa.size(); ++i) {
      if (ascii_lower(fa[i].name) != ascii_lower(fb[i].name)) return nullptr;
      TypePtr t = element_rule(fa[i].type, fb[i].type, ansi);
      if (!t) return nullptr;
      fields.push_back({fa[i].name, t, fa[i].nullable || fb[i].nullable, "{}"});
    }
    return DataType::struct_(std::move(fields));
  }
  if (a->id() == TypeId::kArray && b->id() == TypeId::kArray) {
    TypePtr e = element_rule(a->element_type(), b->element_type(), ansi);
    return e ? DataType::array(e, a->contains_null() || b->contains_null()) : nullptr;
  }
  if (a->id() == TypeId::kMap && b->id() == TypeId::kMap) {
    TypePtr k = element_rule(a->key_type(), b->key_type(), ansi);
    TypePtr v = element_rule(a->value_type(), b->value_type(), ansi);
    return k && v ? DataType::map(k, v, a->value_contains_null() || b->value_contains_null()) : nullptr;
  }
  return nullptr;
}

}  // namespace

TypePtr wider_type(const TypePtr& a, const TypePtr& b, bool ansi) {
  if (a->equals(*b)) return a;
  // ANSI mode widens FLOAT beside an integral type to DOUBLE, which holds every integral
  // value the FLOAT cannot.
  if (ansi && ((a->id() == TypeId::kFloat && b->is_integral()) || (b->id() == TypeId::kFloat && a->is_integral())))
    return DataType::double_();
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  auto rank = [](TypeId id) {
    switch (id) {
      case TypeId::kByte: return 1;
      case TypeId::kShort: return 2;
      case TypeId::kInt: return 3;
      case TypeId::kLong: return 4;
      case TypeId::kFloat: return 6;
      case TypeId::kDouble: return 7;
      default: return 0;
    }
  };
  int ra = rank(a->id()), rb = rank(b->id());
  if (ra && rb) return ra >= rb ? a : b;
  // Decimal with integral: the integral becomes a decimal wide enough for it.
  auto int_as_decimal = [](const TypePtr& t) -> TypePtr {
    switch (t->id()) {
      case TypeId::kByte: return DataType::decimal(3, 0);
      case TypeId::kShort: return DataType::decimal(5, 0);
      case TypeId::kInt: return DataType::decimal(10, 0);
      case TypeId::kLong: return DataType::decimal(20, 0);
      default: return t;
    }
  };
  if (a->id() == TypeId::kDecimal || b->id() == TypeId::kDecimal) {
    if (a->is_floating() || b->is_floating()) return DataType::double_();
    TypePtr da = int_as_decimal(a), db = int_as_decimal(b);
    if (da->id() != TypeId::kDecimal || db->id() != TypeId::kDecimal) return nullptr;
    int scale = std::max(da->scale(), db->scale());
    int range = std::max(da->precision() - da->scale(), db->precision() - db->scale());
    return DataType::decimal(std::min(range + scale, 38), std::min(scale, 38));
  }
  if (a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) return b;
  if (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate) return a;
  if ((a->id() == TypeId::kDate || a->id() == TypeId::kTimestampNtz) && b->id() == TypeId::kTimestampNtz) return b;
  if (a->id() == TypeId::kTimestampNtz && b->id() == TypeId::kDate) return a;
  // A timestamp with the local time zone beside one without is the former.
  if ((a->id() == TypeId::kTimestamp && b->id() == TypeId::kTimestampNtz) ||
      (a->id() == TypeId::kTimestampNtz && b->id() == TypeId::kTimestamp))
    return DataType::timestamp();
  // ANSI intervals of one kind meet at the interval spanning both field ranges (HOUR beside
  // MINUTE is HOUR TO MINUTE).
  if (a->id() == TypeId::kDayTimeInterval && b->id() == TypeId::kDayTimeInterval)
    return DataType::day_time_interval(std::min(a->start_field(), b->start_field()),
                                       std::max(a->end_field(), b->end_field()));
  if (a->id() == TypeId::kYearMonthInterval && b->id() == TypeId::kYearMonthInterval)
    return DataType::year_month_interval(std::min(a->start_field(), b->start_field()),
                                         std::max(a->end_field(), b->end_field()));
  // TIMEs of different precisions meet at the finer one.
  if (a->id() == TypeId::kTime && b->id() == TypeId::kTime)
    return a->time_precision() >= b->time_precision() ? a : b;
  // Nested types widen element by element (array<void> beside array<int> is array<int>), with
  // their nullability merged, as Spark's findWiderTypeForTwo does.
  if (TypePtr n = wider_nested(a, b, ansi, wider_type)) return n;
  return nullptr;
}

TypePtr wider_common_type(const TypePtr& a, const TypePtr& b, bool ansi) {
  if (TypePtr w = wider_type(a, b, ansi)) return w;
  if (TypePtr n = wider_nested(a, b, ansi, wider_common_type)) return n;
  const bool sa = a->id() == TypeId::kString, sb = b->id() == TypeId::kString;
  if (sa && sb) return DataType::string();
  if (!sa && !sb) return nullptr;
  const TypePtr& other = sa ? b : a;
  const TypeId o = other->id();
  if (other->is_nested() || o == TypeId::kCalendarInterval || o == TypeId::kVariant) return nullptr;
  if (!ansi) return o == TypeId::kBoolean || o == TypeId::kBinary ? nullptr : (sa ? a : b);
  if (other->is_integral()) return DataType::long_();
  if (other->is_floating() || o == TypeId::kDecimal) return DataType::double_();
  if (other->is_ansi_interval()) return nullptr;
  return other;
}

}  // namespace ember::functions

namespace ember::functions {
namespace {

std::map<std::string, JavaForm>& java_forms() {
  static std::map<std::string, JavaForm> forms;
  return forms;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

}  // namespace

void set_java_form(const std::string& function, JavaForm form) {
  java_forms()[function] = std::move(form);
}

const JavaForm* java_form(const std::string& function) {
  auto it = java_forms().find(function);
  return it == java_forms().end() ? nullptr : &it->second;
}

JavaForm java_form_appending(std::vector<std::string> extra) {
  return [extra = std::move(extra)](const JavaFormCall& c) {
    std::vector<std::string> all = c.args;
    all.insert(all.end(), extra.begin(), extra.end());
    return c.called + "(" + joined(all) + ")";
  };
}

JavaForm java_form_defaults(size_t written, std::vector<std::string> shown) {
  return [written, shown = std::move(shown)](const JavaFormCall& c) -> std::string {
    if (c.args.size() != written) return "";
    std::vector<std::string> all = c.args;
    all.insert(all.end(), shown.begin(), shown.end());
    return c.called + "(" + joined(all) + ")";
  };
}

JavaForm java_form_zoned() {
  return [](const JavaFormCall& c) {
    std::vector<std::string> all = c.args;
    all.push_back("Some(" + c.time_zone + ")");
    return c.called + "(" + joined(all) + ")";
  };
}

JavaForm java_form_class(std::string class_name) {
  return [class_name = std::move(class_name)](const JavaFormCall& c) {
    return class_name + "(" + joined(c.args) + ")";
  };
}

}  // namespace ember::functions
