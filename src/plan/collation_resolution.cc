#include "plan/collation_resolution.h"

#include <algorithm>
#include <set>
#include <string>

#include "common/error.h"
#include "types/collation.h"

namespace ember::plan {

namespace {

bool is_string(const ExprPtr& e) { return e->type && e->type->id() == TypeId::kString; }

bool is_explicit(const ExprPtr& e) {
  return e->kind == ExprKind::kCall && e->function && e->function->name == "collate";
}

std::string quoted_types(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += std::string(s.empty() ? "" : ", ") + "\"" + DataType::string(id)->sql() + "\"";
  return s;
}

/// Functions whose STRING result is their input's text (or one of their inputs): the result
/// keeps the inputs' collation, as Spark's string functions do.
const std::set<std::string>& keeping_functions() {
  static const std::set<std::string> names = {
      "upper", "lower", "ucase", "lcase", "initcap", "substring", "substr", "left", "right", "trim", "ltrim",
      "rtrim", "btrim", "lpad", "rpad", "repeat", "reverse", "concat", "concat_ws", "replace", "translate",
      "overlay", "split_part", "substring_index", "elt", "nvl2", "nullif", "greatest", "least", "min", "max",
      "first", "first_value", "last", "last_value", "any_value", "mode", "min_by", "max_by", "regexp_replace",
      "regexp_extract", "lag", "lead", "nth_value"};
  return names;
}

/// String functions that match patterns or search text: their answers depend on the collation.
/// Spark's regular expressions and LIKE take UTF8_BINARY (and UTF8_LCASE for some) strings only.
const std::set<std::string>& pattern_functions() {
  static const std::set<std::string> names = {"like", "ilike", "rlike", "regexp", "regexp_like", "regexp_count",
                                              "regexp_extract", "regexp_extract_all", "regexp_instr",
                                              "regexp_replace", "regexp_substr", "split", "str_to_map"};
  return names;
}
/// String functions that search text under the collation (functions/collation_search.h). Spark
/// refuses case-sensitive accent-insensitive collations (UNICODE_AI, de_CS_AI) for them, for
/// their source string (the first parameter of Spark's expression).
const std::set<std::string>& search_functions() {
  static const std::set<std::string> names = {
      "instr", "locate", "position", "replace", "split_part", "substring_index", "translate",
      "trim",  "ltrim",  "rtrim",    "btrim",   "contains",   "startswith",      "endswith"};
  return names;
}

std::string string_param_sql(const ExprPtr& e, const Collation& c) {
  // Spark shows a literal cast to the collation as `'text' collate NAME`.
  if (e->kind == ExprKind::kLiteral) return e->to_string() + " collate " + c.name;
  return e->to_string();
}

[[noreturn]] void unexpected_input_type(const std::string& fn, size_t index, const std::string& sql,
                                        int collation_id) {
  const std::string ordinal = ordinal_number(index);
  const std::string type = DataType::string(collation_id)->sql();
  throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                   "Cannot resolve \"" + fn + "\" due to data type mismatch: The " + ordinal +
                       " parameter requires the \"STRING\" type, however \"" + sql +
                       "\" has the type \"" + type + "\".",
                   {{"paramIndex", ordinal},
                    {"requiredType", "\"STRING\""},
                    {"inputSql", "\"" + sql + "\""},
                    {"inputType", "\"" + type + "\""}});
}

/// Raises Spark's analysis errors where a function does not take strings of the collation: the
/// pattern functions for every collation but UTF8_BINARY, the searching ones for case-sensitive
/// accent-insensitive collations.
void check_collation_support(const functions::FunctionDef& def, int collation_id, const std::vector<ExprPtr>& args) {
  const Collation& c = collation(collation_id);
  if (c.binary_equality()) return;
  const std::string& fn = def.name;
  if (pattern_functions().count(fn)) {
    for (size_t i = 0; i < args.size(); ++i)
      if (is_string(args[i])) unexpected_input_type(fn, i, args[i]->to_string(), collation_id);
  }
  if (search_functions().count(fn) && c.family == Collation::Family::kIcu && c.accent_insensitive &&
      !c.case_insensitive) {
    // trim(chars, str), ltrim and rtrim take their source string second.
    const bool chars_first = (fn == "trim" || fn == "ltrim" || fn == "rtrim") && args.size() == 2;
    const size_t source = chars_first ? 1 : 0;
    if (source < args.size())
      unexpected_input_type(fn, 0, string_param_sql(args[source], c), collation_id);
  }
}

}  // namespace

int call_collation(const functions::FunctionDef& def, const std::vector<ExprPtr>& args, const std::string& call_sql) {
  // collate sets a collation and collation reads one; the key is what comparisons read.
  if (def.name == "collate" || def.name == "collation" || def.name == "collationkey") return -1;
  std::vector<int> explicit_ids, implicit_ids;
  for (const auto& a : args) {
    if (!is_string(a) || a->kind == ExprKind::kLiteral) continue;
    const int id = a->type->collation_id();
    auto& ids = is_explicit(a) ? explicit_ids : implicit_ids;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  if (explicit_ids.size() > 1)
    throw SparkError(ErrorKind::kAnalysis, "COLLATION_MISMATCH.EXPLICIT",
                     "Could not determine which collation to use for string functions and operators. Error occurred "
                     "due to the mismatch between explicit collations: [" +
                         quoted_types(explicit_ids) + "]. Decide on a single explicit collation and remove others.",
                     {{"explicitTypes", quoted_types(explicit_ids)}});
  if (explicit_ids.size() == 1) return explicit_ids[0];
  if (implicit_ids.size() > 1)
    throw SparkError(ErrorKind::kAnalysis, "INDETERMINATE_COLLATION_IN_EXPRESSION",
                     "Data type of \"" + call_sql +
                         "\" has indeterminate collation. Use COLLATE clause to set the collation explicitly.",
                     {{"expr", "\"" + call_sql + "\""}});
  if (implicit_ids.size() == 1 && implicit_ids[0] != kUtf8BinaryCollation) return implicit_ids[0];
  return -1;
}

void apply_call_collation(const functions::FunctionDef& def, int collation_id, const std::vector<ExprPtr>& args,
                          functions::Signature& sig) {
  if (collation_id < 0) return;
  check_collation_support(def, collation_id, args);
  const TypePtr collated = DataType::string(collation_id);
  for (size_t i = 0; i < args.size() && i < sig.arg_types.size(); ++i)
    if (is_string(args[i]) && sig.arg_types[i] && sig.arg_types[i]->id() == TypeId::kString)
      sig.arg_types[i] = collated;
  if (sig.result_type && sig.result_type->id() == TypeId::kString && keeping_functions().count(def.name))
    sig.result_type = collated;
}

ExprPtr collation_key(const ExprPtr& e) {
  if (!e->type || !e->type->is_collated_string()) return e;
  static const functions::FunctionDef* key = functions::Registry::instance().find_internal("collationkey");
  EMBER_CHECK(key != nullptr, "missing internal function collationkey");
  auto n = std::make_shared<Expr>();
  n->kind = ExprKind::kCall;
  n->function = key;
  n->name = key->name;
  n->type = DataType::binary();
  n->nullable = e->nullable;
  n->children = {e};
  return n;
}

functions::Signature scalar_call_signature(const functions::FunctionDef& def,
                                           const std::vector<ExprPtr>& args, const Config& conf) {
  functions::Signature sig = call_signature(def, args, conf);
  for (size_t i = 0; i < args.size() && i < sig.arg_types.size(); ++i) {
    const TypePtr& t = args[i]->type;
    TypePtr& arg = sig.arg_types[i];
    if (t && t->is_collated_string() && arg && arg->id() == TypeId::kString) arg = t;
  }
  return sig;
}

}  // namespace ember::plan
