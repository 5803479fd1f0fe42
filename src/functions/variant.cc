// VARIANT functions: parse_json, try_parse_json, is_variant_null, is_valid_variant,
// variant_get, try_variant_get, schema_of_variant, schema_of_variant_agg, to_variant_object.
// The encoding lives in common/variant; conversions to and from other types in
// variant_cast.cc.

#include <algorithm>
#include <climits>
#include <memory>

#include "common/error.h"
#include "functions/aggregate_state.h"
#include "functions/collection_util.h"
#include "functions/string_util.h"
#include "functions/variant_util.h"

namespace ember::functions {
namespace {

using Infos = std::vector<ArgInfo>;

void require_variant(const std::string& fn, const Infos& a, size_t i) {
  const TypeId id = a[i].type->id();
  if (id != TypeId::kVariant && id != TypeId::kNull) throw_unexpected_input(fn, types_of(a), i, "\"VARIANT\"");
}

void require_string(const std::string& fn, const Infos& a, size_t i) {
  const TypeId id = a[i].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input(fn, types_of(a), i, "\"STRING\"");
}

// ---- parse_json, try_parse_json -------------------------------------------------------------

ColumnPtr parse_json_kernel(const std::vector<ColumnPtr>& a, int64_t n, bool try_) {
  const Column& in = *a[0];
  ColumnBuilder out(DataType::variant(), n);
  variant::Builder b;
  std::string error, duplicate;
  for (int64_t i = 0; i < n; ++i) {
    if (in.type()->id() == TypeId::kNull || in.is_null(i)) {
      out.append_null();
      continue;
    }
    b.clear();
    std::string_view text = in.string_at(i);
    if (variant::parse_json(text, b, &error, &duplicate)) {
      append_variant(out, b);
    } else if (try_) {
      out.append_null();
    } else {
      const std::string record(text);
      throw SparkError(ErrorKind::kRuntime, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                       "Malformed records are detected in record parsing: " + record +
                           ". Parse Mode: FAILFAST. To process malformed records as null result, try setting the "
                           "option 'mode' as 'PERMISSIVE'.",
                       {{"badRecord", record}, {"failFastMode", "FAILFAST"}}, "22023");
    }
  }
  return out.finish();
}

FunctionDef parse_json_def(const std::string& name, bool try_) {
  FunctionDef d;
  d.name = name;
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [name, try_](const Infos& a, const Config&) {
    require_string(name, a, 0);
    Signature s;
    s.arg_types = {a[0].type};
    s.result_type = DataType::variant();
    s.may_introduce_null = try_;
    return s;
  };
  d.kernel = [try_](const std::vector<ColumnPtr>& a, int64_t n, const Signature&, const EvalContext&) {
    return parse_json_kernel(a, n, try_);
  };
  d.may_throw = !try_;
  d.usage = name + "(jsonStr) - Parses a JSON string as a Variant value" +
            (try_ ? std::string("; NULL when the string is not valid JSON.") : std::string("."));
  return d;
}

// ---- is_variant_null, is_valid_variant ------------------------------------------------------

FunctionDef is_variant_null_def() {
  FunctionDef d;
  d.name = "is_variant_null";
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    require_variant("is_variant_null", a, 0);
    Signature s;
    s.arg_types = {a[0].type};
    s.result_type = DataType::boolean();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature&, const EvalContext&) {
    const Column& in = *a[0];
    ColumnBuilder out(DataType::boolean(), n);
    try {
      for (int64_t i = 0; i < n; ++i) {
        bool null = in.type()->id() != TypeId::kNull && in.is_valid(i) &&
                    variant_at(in, i).kind() == variant::Kind::kNull;
        out.append_bool(null);
      }
    } catch (const variant::MalformedVariant&) {
      throw_malformed_variant();
    }
    return out.finish();
  };
  d.usage = "is_variant_null(expr) - Whether a variant value is a variant null (false for SQL NULL).";
  return d;
}

FunctionDef is_valid_variant_def() {
  FunctionDef d;
  d.name = "is_valid_variant";
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    require_variant("is_valid_variant", a, 0);
    Signature s;
    s.arg_types = {a[0].type};
    s.result_type = DataType::boolean();
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      b.append_bool(variant::is_valid(a[0]->child(1)->string_at(i), a[0]->child(0)->string_at(i)));
    });
  };
  d.usage = "is_valid_variant(expr) - Whether a variant's bytes are well formed; NULL for NULL.";
  return d;
}

// ---- variant_get, try_variant_get -----------------------------------------------------------

using PathStep = VariantPathStep;

[[noreturn]] void throw_invalid_path(std::string_view path, const std::string& fn, ErrorKind kind) {
  const std::string p(path);
  throw SparkError(kind, "INVALID_VARIANT_GET_PATH",
                   "The path `" + p + "` is not a valid variant extraction path in `" + quote_id(fn) + "`.",
                   {{"path", p}, {"functionName", quote_id(fn)}}, "22023");
}

/// The value at `path` inside `v`; false when a step is missing or meets the wrong kind.
bool navigate(variant::Ref v, const std::vector<PathStep>& path, variant::Ref* out) {
  for (const PathStep& s : path) {
    variant::Kind k = v.kind();
    if (s.is_key) {
      if (k != variant::Kind::kObject || !v.find_field(s.key, &v)) return false;
    } else {
      if (k != variant::Kind::kArray || s.index >= v.size()) return false;
      v = v.element(s.index);
    }
  }
  *out = v;
  return true;
}

FunctionDef variant_get_def(const std::string& name, bool try_) {
  FunctionDef d;
  d.name = name;
  d.min_args = d.max_args = 3;
  d.constant_args = {2};
  d.arg_type_rule = [name](const Infos& a, const Config&) {
    require_variant(name, a, 0);
    require_string(name, a, 1);
    const std::string sql = name + "(" + a[0].type->sql() + ", " + a[1].type->sql() + ")";
    if (!a[2].literal || a[2].type->id() != TypeId::kString || a[2].literal->is_null())
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          "the input `targetType` should be a foldable \"STRING\" expression; however, got \"" +
                              a[2].type->sql() + "\".",
                          sql);
    TypePtr target = parse_data_type(a[2].literal->as_bytes());
    if (!can_cast_from_variant(*target))
      throw_type_mismatch("CAST_WITHOUT_SUGGESTION", "cannot cast \"VARIANT\" to \"" + target->sql() + "\".", sql);
    if (a[1].literal && !a[1].literal->is_null()) {
      std::vector<PathStep> steps;
      if (!parse_variant_path(a[1].literal->as_bytes(), &steps))
        throw_invalid_path(a[1].literal->as_bytes(), name, ErrorKind::kAnalysis);
    }
    Signature s;
    s.arg_types = {a[0].type, a[1].type, a[2].type};
    s.result_type = target;
    s.may_introduce_null = true;
    return s;
  };
  d.kernel = [name, try_](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
    const Column& v = *a[0];
    const Column& p = *a[1];
    ColumnBuilder out(sig.result_type, n);
    if (v.type()->id() == TypeId::kNull || p.type()->id() == TypeId::kNull) {
      for (int64_t i = 0; i < n; ++i) out.append_null();
      return out.finish();
    }
    std::string cached;
    bool have = false;
    std::vector<PathStep> steps;
    for (int64_t i = 0; i < n; ++i) {
      if (v.is_null(i) || p.is_null(i)) {
        out.append_null();
        continue;
      }
      std::string_view path = p.string_at(i);
      if (!have || path != cached) {
        if (!parse_variant_path(path, &steps)) throw_invalid_path(path, name, ErrorKind::kRuntime);
        cached = std::string(path);
        have = true;
      }
      variant::Ref r = variant_at(v, i);
      bool found;
      try {
        found = navigate(variant_at(v, i), steps, &r);
      } catch (const variant::MalformedVariant&) {
        throw_malformed_variant();
      }
      if (!found) out.append_null();
      else cast_variant_value(r, sig.result_type, ctx, try_, out);
    }
    return out.finish();
  };
  d.may_throw = true;
  d.render = [](const std::string& called, const std::vector<std::string>& args) {
    return called + "(" + args[0] + ", " + args[1] + ")";
  };
  d.usage = name + "(v, path, type) - Extracts the value at `path` from a variant and casts it to `type`" +
            (try_ ? std::string("; NULL when the cast fails.") : std::string("."));
  return d;
}

// ---- schema_of_variant, schema_of_variant_agg ----------------------------------------------

/// The SQL type Spark infers for variant values: scalars by their kind (every integer as
/// BIGINT, decimals by their digits), objects as OBJECT<key: type> in key order, arrays by the
/// merged type of their elements, and VARIANT where types disagree.
struct VSchema {
  enum Kind {
    kVoid, kBoolean, kBigint, kDouble, kFloat, kDecimal, kDate, kTimestamp, kTimestampNtz,
    kBinary, kString, kObject, kArray, kVariant
  };
  Kind kind = kVoid;
  int precision = 0, scale = 0;
  std::vector<std::pair<std::string, VSchema>> fields;  // objects, in key order
  std::vector<VSchema> element;                          // arrays: one element schema
};

VSchema merge_schema(const VSchema& a, const VSchema& b);

VSchema schema_of(const variant::Ref& v) {
  VSchema s;
  switch (v.kind()) {
    case variant::Kind::kNull: s.kind = VSchema::kVoid; break;
    case variant::Kind::kBoolean: s.kind = VSchema::kBoolean; break;
    case variant::Kind::kLong: s.kind = VSchema::kBigint; break;
    case variant::Kind::kDouble: s.kind = VSchema::kDouble; break;
    case variant::Kind::kFloat: s.kind = VSchema::kFloat; break;
    case variant::Kind::kDecimal: {
      int scale;
      __int128 u = v.get_decimal(&scale);
      int digits = variant::normalize_decimal(&u, &scale);
      s.kind = VSchema::kDecimal;
      s.precision = std::max(digits, scale);
      s.scale = scale;
      break;
    }
    case variant::Kind::kDate: s.kind = VSchema::kDate; break;
    case variant::Kind::kTimestamp: s.kind = VSchema::kTimestamp; break;
    case variant::Kind::kTimestampNtz: s.kind = VSchema::kTimestampNtz; break;
    case variant::Kind::kBinary: s.kind = VSchema::kBinary; break;
    case variant::Kind::kString: s.kind = VSchema::kString; break;
    case variant::Kind::kObject: {
      s.kind = VSchema::kObject;
      uint32_t n = v.size();
      for (uint32_t i = 0; i < n; ++i) {
        std::string_view key;
        variant::Ref c = v.field_at(i, &key);
        s.fields.emplace_back(std::string(key), schema_of(c));
      }
      break;
    }
    case variant::Kind::kArray: {
      s.kind = VSchema::kArray;
      VSchema e;
      uint32_t n = v.size();
      for (uint32_t i = 0; i < n; ++i) e = merge_schema(e, schema_of(v.element(i)));
      s.element.push_back(std::move(e));
      break;
    }
  }
  return s;
}

VSchema make(VSchema::Kind k, int p = 0, int s = 0) {
  VSchema r;
  r.kind = k;
  r.precision = p;
  r.scale = s;
  return r;
}

/// Spark's merge of two inferred types: numeric types widen (BIGINT as DECIMAL(20,0); a
/// decimal past 38 digits and anything beside DOUBLE become DOUBLE), datetimes widen to
/// TIMESTAMP, objects merge key by key, arrays element-wise, and the rest is VARIANT.
VSchema merge_schema(const VSchema& a, const VSchema& b) {
  using K = VSchema::Kind;
  if (a.kind == K::kVoid) return b;
  if (b.kind == K::kVoid) return a;
  if (a.kind == K::kObject && b.kind == K::kObject) {
    VSchema r = make(K::kObject);
    size_t i = 0, j = 0;
    while (i < a.fields.size() || j < b.fields.size()) {
      if (j == b.fields.size() || (i < a.fields.size() && a.fields[i].first < b.fields[j].first)) {
        r.fields.push_back(a.fields[i++]);
      } else if (i == a.fields.size() || b.fields[j].first < a.fields[i].first) {
        r.fields.push_back(b.fields[j++]);
      } else {
        r.fields.emplace_back(a.fields[i].first, merge_schema(a.fields[i].second, b.fields[j].second));
        ++i;
        ++j;
      }
    }
    return r;
  }
  if (a.kind == K::kArray && b.kind == K::kArray) {
    VSchema r = make(K::kArray);
    r.element.push_back(merge_schema(a.element[0], b.element[0]));
    return r;
  }
  auto numeric = [](K k) { return k == K::kBigint || k == K::kDecimal || k == K::kDouble || k == K::kFloat; };
  if (numeric(a.kind) && numeric(b.kind)) {
    if (a.kind == K::kDouble || b.kind == K::kDouble) return make(K::kDouble);
    if (a.kind == K::kFloat || b.kind == K::kFloat) {
      if (a.kind == K::kDecimal || b.kind == K::kDecimal) return make(K::kDouble);
      return make(K::kFloat);
    }
    if (a.kind == K::kBigint && b.kind == K::kBigint) return a;
    VSchema x = a.kind == K::kBigint ? make(K::kDecimal, 20, 0) : a;
    VSchema y = b.kind == K::kBigint ? make(K::kDecimal, 20, 0) : b;
    int scale = std::max(x.scale, y.scale);
    int range = std::max(x.precision - x.scale, y.precision - y.scale);
    if (range + scale > DataType::kMaxDecimalPrecision) return make(K::kDouble);
    return make(K::kDecimal, range + scale, scale);
  }
  auto datetime = [](K k) { return k == K::kDate || k == K::kTimestamp || k == K::kTimestampNtz; };
  if (datetime(a.kind) && datetime(b.kind)) {
    if (a.kind == b.kind) return a;
    if (a.kind == K::kTimestamp || b.kind == K::kTimestamp) return make(K::kTimestamp);
    return make(K::kTimestampNtz);
  }
  if (a.kind == b.kind && a.kind != K::kObject && a.kind != K::kArray) return a;
  return make(K::kVariant);
}

/// A field name as Spark prints it: backquoted unless it is made of letters, digits and
/// underscores and is not all digits.
std::string field_name(const std::string& name) {
  bool plain = !name.empty();
  bool all_digits = true;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '_')) plain = false;
    if (!std::isdigit(u)) all_digits = false;
  }
  return plain && !all_digits ? name : quote_id(name);
}

std::string print(const VSchema& s) {
  switch (s.kind) {
    case VSchema::kVoid: return "VOID";
    case VSchema::kBoolean: return "BOOLEAN";
    case VSchema::kBigint: return "BIGINT";
    case VSchema::kDouble: return "DOUBLE";
    case VSchema::kFloat: return "FLOAT";
    case VSchema::kDecimal: return "DECIMAL(" + std::to_string(s.precision) + "," + std::to_string(s.scale) + ")";
    case VSchema::kDate: return "DATE";
    case VSchema::kTimestamp: return "TIMESTAMP";
    case VSchema::kTimestampNtz: return "TIMESTAMP_NTZ";
    case VSchema::kBinary: return "BINARY";
    case VSchema::kString: return "STRING";
    case VSchema::kVariant: return "VARIANT";
    case VSchema::kArray: return "ARRAY<" + print(s.element[0]) + ">";
    case VSchema::kObject: {
      std::string out = "OBJECT<";
      for (size_t i = 0; i < s.fields.size(); ++i) {
        if (i) out += ", ";
        out += field_name(s.fields[i].first) + ": " + print(s.fields[i].second);
      }
      return out + ">";
    }
  }
  return "VARIANT";
}

Signature variant_to_string_rule(const std::string& fn, const Infos& a) {
  require_variant(fn, a, 0);
  Signature s;
  s.arg_types = {a[0].type};
  s.result_type = DataType::string();
  return s;
}

FunctionDef schema_of_variant_def() {
  FunctionDef d;
  d.name = "schema_of_variant";
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) { return variant_to_string_rule("schema_of_variant", a); };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext&) {
    try {
      return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
        b.append_bytes(print(schema_of(variant_at(*a[0], i))));
      });
    } catch (const variant::MalformedVariant&) {
      throw_malformed_variant();
    }
  };
  d.usage = "schema_of_variant(v) - The SQL schema of a variant value, e.g. OBJECT<a: BIGINT>.";
  return d;
}

/// schema_of_variant_agg: the merged schema of a group's variants ("VOID" for none).
class SchemaOfVariantAgg final : public HeapStateAggregate<VSchema> {
 public:
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    try {
      for (int64_t i = 0; i < n; ++i) {
        if (!states[i] || c.is_null(i)) continue;
        HeapState<VSchema>& s = state(states[i]);
        VSchema v = schema_of(variant_at(c, i));
        if (!s)
          s.create(std::move(v));
        else *s = merge_schema(*s, v);
      }
    } catch (const variant::MalformedVariant&) {
      throw_malformed_variant();
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    HeapState<VSchema>& d = state(dst);
    const VSchema* s = state(src).get();
    if (!s) return;
    if (!d)
      d.assign(*s);
    else *d = merge_schema(*d, *s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const VSchema* s = state(states[i]).get();
      out.append_bytes(s ? print(*s) : "VOID");
    }
  }
};

FunctionDef schema_of_variant_agg_def() {
  FunctionDef d;
  d.name = "schema_of_variant_agg";
  d.kind = FunctionKind::kAggregate;
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    Signature s = variant_to_string_rule("schema_of_variant_agg", a);
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<SchemaOfVariantAgg>(); };
  d.usage = "schema_of_variant_agg(v) - The merged SQL schema of all variant values in a group.";
  return d;
}

// ---- to_variant_object ----------------------------------------------------------------------

bool objects_allowed(const DataType& t) {
  switch (t.id()) {
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: return false;
    case TypeId::kArray: return objects_allowed(*t.element_type());
    case TypeId::kMap: return t.key_type()->id() == TypeId::kString && objects_allowed(*t.value_type());
    case TypeId::kStruct:
      for (auto& f : t.fields())
        if (!objects_allowed(*f.type)) return false;
      return true;
    default: return true;
  }
}

FunctionDef to_variant_object_def() {
  FunctionDef d;
  d.name = "to_variant_object";
  d.min_args = d.max_args = 1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    const TypePtr& t = a[0].type;
    if (!t->is_nested() || !objects_allowed(*t))
      throw_type_mismatch("CAST_WITHOUT_SUGGESTION", "cannot cast \"" + t->sql() + "\" to \"VARIANT\".",
                          call_sql("to_variant_object", types_of(a)));
    Signature s;
    s.arg_types = {t};
    s.result_type = DataType::variant();
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t, const Signature&, const EvalContext&) {
    return cast_to_variant(a[0]);
  };
  d.usage = "to_variant_object(expr) - Converts an array, map or struct to a variant; maps and structs "
            "become variant objects.";
  return d;
}

}  // namespace

bool parse_variant_path(std::string_view p, std::vector<VariantPathStep>* out) {
  out->clear();
  if (p.empty() || p[0] != '$') return false;
  size_t i = 1;
  while (i < p.size()) {
    if (p[i] == '.') {
      size_t start = ++i;
      while (i < p.size() && p[i] != '.' && p[i] != '[') ++i;
      if (i == start) return false;
      out->push_back({true, std::string(p.substr(start, i - start)), 0, i});
    } else if (p[i] == '[') {
      ++i;
      if (i < p.size() && (p[i] == '\'' || p[i] == '"')) {
        char q = p[i++];
        size_t start = i;
        while (i < p.size() && p[i] != q) ++i;
        if (i + 1 >= p.size() || p[i + 1] != ']') return false;
        i += 2;
        out->push_back({true, std::string(p.substr(start, i - 2 - start)), 0, i});
      } else {
        size_t start = i;
        int64_t v = 0;
        while (i < p.size() && p[i] >= '0' && p[i] <= '9') {
          v = v * 10 + (p[i] - '0');
          if (v > INT32_MAX) return false;
          ++i;
        }
        if (i == start || i >= p.size() || p[i] != ']') return false;
        ++i;
        out->push_back({false, {}, static_cast<uint32_t>(v), i});
      }
    } else {
      return false;
    }
  }
  return true;
}

void register_variant_functions(Registry& r) {
  r.add(parse_json_def("parse_json", false));
  r.add(parse_json_def("try_parse_json", true));
  r.add(is_variant_null_def());
  r.add(is_valid_variant_def());
  r.add(variant_get_def("variant_get", false));
  r.add(variant_get_def("try_variant_get", true));
  r.add(schema_of_variant_def());
  r.add(schema_of_variant_agg_def());
  r.add(to_variant_object_def());
  register_variant_edit_functions(r);
}

}  // namespace ember::functions
