// Element access and membership on arrays and maps: element_at / try_element_at (1-based,
// negative from the end), get and the subscript `a[i]` / `m[k]` (0-based), size / cardinality /
// array_size, array_contains and array_position.

#include "common/error.h"
#include "functions/collection_util.h"
#include "functions/java_form.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// How an element access treats its index and a miss.
struct Access {
  std::string fn;
  bool one_based;      // element_at: 1-based, negative counts from the end, 0 is an error
  bool never_throws;   // try_element_at, get: out of bounds is null whatever the mode
  bool element_at_error;  // which out-of-bounds error class ANSI mode raises
};

const Access kElementAt{"element_at", true, false, true};
const Access kTryElementAt{"try_element_at", true, true, true};
const Access kGet{"get", false, true, false};
const Access kSubscript{"[]", false, false, false};

Signature access_rule(const Access& how, const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  const TypePtr& c = types[0];
  bool maps = c->id() == TypeId::kMap && how.fn != "get";
  if (c->id() != TypeId::kArray && !maps)
    throw_unexpected_input(how.fn, types, 0, maps || how.fn == "get" ? "\"ARRAY\"" : "(\"ARRAY\" or \"MAP\")");
  Signature s;
  if (c->id() == TypeId::kArray) {
    // get casts any number or string index to INT implicitly; the other forms want an integer.
    const bool castable = how.fn == "get" && (types[1]->is_numeric() || types[1]->id() == TypeId::kString);
    if (!types[1]->is_integral() && types[1]->id() != TypeId::kNull && !castable)
      throw_unexpected_input(how.fn, types, 1, "\"INT\"");
    s.arg_types = {c, DataType::int_()};
    s.result_type = c->element_type();
    bool throws = conf.ansi_enabled() && !how.never_throws;
    s.may_introduce_null = !throws || c->contains_null();
  } else {
    s.arg_types = {c, c->key_type()};
    s.result_type = c->value_type();
    s.may_introduce_null = true;
  }
  return s;
}

ColumnPtr access_kernel(const Access& how, const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const Column& c = *a[0];
  const Column& key = *a[1];
  const int32_t* o = c.offsets();
  const ColumnPtr& elements = c.child(0);
  std::vector<int32_t> picks(static_cast<size_t>(n), -1);
  if (c.type()->id() == TypeId::kArray) {
    bool throws = ctx.ansi && !how.never_throws;
    const int32_t* idx = key.values<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (c.is_null(i) || key.is_null(i)) continue;
      int64_t size = o[i + 1] - o[i];
      int64_t k = idx[i];
      int64_t pos;
      if (how.one_based) {
        if (k == 0) throw_invalid_index_of_zero();
        pos = k > 0 ? k - 1 : size + k;
      } else {
        pos = k;
      }
      if (pos < 0 || pos >= size) {
        if (throws) throw_array_index_out_of_bounds(k, size, how.element_at_error);
        continue;
      }
      picks[static_cast<size_t>(i)] = static_cast<int32_t>(o[i] + pos);
    }
    return gather(*elements, picks.data(), n);
  }
  // Maps: the value of the first entry whose key equals the lookup key.
  const ColumnPtr& keys = elements->child(0);
  ColumnPtr probe = a[1];
  ValueCompare eq = value_comparator(keys, probe);
  for (int64_t i = 0; i < n; ++i) {
    if (c.is_null(i) || key.is_null(i)) continue;
    for (int32_t k = o[i]; k < o[i + 1]; ++k)
      if (eq(k, i) == 0) {
        picks[static_cast<size_t>(i)] = k;
        break;
      }
  }
  (void)sig;
  return gather(*elements->child(1), picks.data(), n);
}

FunctionDef access_fn(const Access& how) {
  FunctionDef d = scalar_args(
      how.fn, 2, 2, [&how](const Infos& a, const Config& conf) { return access_rule(how, a, conf); },
      [&how](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
        return access_kernel(how, a, n, sig, ctx);
      });
  d.may_throw = !how.never_throws || how.one_based;
  return d;
}

Signature size_rule(const std::string& fn, bool arrays_only, const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  TypeId id = types[0]->id();
  if (id != TypeId::kArray && (arrays_only || id != TypeId::kMap) && id != TypeId::kNull)
    throw_unexpected_input(fn, types, 0, arrays_only ? "\"ARRAY\"" : "(\"ARRAY\" or \"MAP\")");
  Signature s;
  s.arg_types = types;
  s.result_type = DataType::int_();
  // Spark's legacy size of null (-1) applies only outside ANSI mode, and never to array_size.
  if (!arrays_only && !conf.ansi_enabled() && conf.get_bool("spark.sql.legacy.sizeOfNull", true)) {
    s.null_if_any_arg_null = false;
    s.never_null = true;
  }
  return s;
}

ColumnPtr size_kernel(const Args& a, int64_t n, const Signature& sig) {
  const Column& c = *a[0];
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
  int32_t* out = data->mutable_as<int32_t>();
  if (c.type()->id() == TypeId::kNull) {
    for (int64_t i = 0; i < n; ++i) out[i] = -1;
    return sig.never_null ? Column::make(DataType::int_(), n, nullptr, data) : Column::all_null(DataType::int_(), n);
  }
  const int32_t* o = c.offsets();
  for (int64_t i = 0; i < n; ++i) out[i] = c.is_valid(i) ? o[i + 1] - o[i] : -1;
  return Column::make(DataType::int_(), n, sig.never_null ? nullptr : c.validity_buffer(), data);
}

/// array_contains / array_position: the array's element type and the value widened to one
/// type, without promotion to string.
Signature membership_rule(const std::string& fn, TypePtr result, const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  TypePtr w;
  if (types[0]->id() == TypeId::kArray) {
    const TypePtr& e = types[0]->element_type();
    const TypePtr& v = types[1];
    if (e->is_nested() || v->is_nested()) w = e->same_type(*v) ? e : nullptr;
    else if (e->id() == TypeId::kString || v->id() == TypeId::kString)
      w = e->equals(*v) || v->id() == TypeId::kNull ? e : nullptr;
    else w = wider_type(e, v, conf.ansi_enabled());
  } else if (types[0]->id() != TypeId::kNull) {
    throw_unexpected_input(fn, types, 0, "\"ARRAY\"");
  }
  if (!w || w->id() == TypeId::kNull)
    throw_type_mismatch("ARRAY_FUNCTION_DIFF_TYPES",
                        "Input to `" + fn + "` should have been \"ARRAY\" followed by a value with same element type, "
                        "but it's [\"" + types[0]->sql() + "\", \"" + types[1]->sql() + "\"].",
                        call_sql(fn, types));
  Signature s;
  s.arg_types = {DataType::array(w, types[0]->contains_null()), w};
  s.result_type = std::move(result);
  s.may_introduce_null = fn == "array_contains" && types[0]->contains_null();
  return s;
}

/// For each row, the 0-based position of the first element equal to the value (-1 when none),
/// and whether a null element was seen before the end.
template <typename Emit>
void scan_members(const Args& a, int64_t n, Emit emit) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ValueCompare eq = value_comparator(elems, a[1]);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i) || a[1]->is_null(i)) {
      emit(i, true, -1, false);
      continue;
    }
    int64_t found = -1;
    bool saw_null = false;
    for (int32_t k = o[i]; k < o[i + 1]; ++k) {
      if (elems->is_null(k)) {
        saw_null = true;
      } else if (eq(k, i) == 0) {
        found = k - o[i];
        break;
      }
    }
    emit(i, false, found, saw_null);
  }
}

ColumnPtr array_contains_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  std::vector<uint8_t> value(static_cast<size_t>(n)), valid(static_cast<size_t>(n));
  scan_members(a, n, [&](int64_t i, bool null_in, int64_t found, bool saw_null) {
    value[static_cast<size_t>(i)] = found >= 0;
    valid[static_cast<size_t>(i)] = !null_in && (found >= 0 || !saw_null);
  });
  return make_bool_column(value, validity_from(valid), n);
}

ColumnPtr array_position_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int64_t));
  int64_t* out = data->mutable_as<int64_t>();
  std::vector<uint8_t> valid(static_cast<size_t>(n));
  scan_members(a, n, [&](int64_t i, bool null_in, int64_t found, bool) {
    out[i] = found + 1;
    valid[static_cast<size_t>(i)] = !null_in;
  });
  return Column::make(DataType::long_(), n, validity_from(valid), data);
}

}  // namespace

void register_collection_access(Registry& r) {
  r.add(access_fn(kElementAt));
  // Spark's element_at keeps its default for an index out of bounds and its ANSI flag:
  // `element_at(arr, 1, None, true)`.
  set_java_form("element_at", [](const JavaFormCall& c) -> std::string {
    if (c.args.size() != 2) return "";
    return c.called + "(" + c.args[0] + ", " + c.args[1] + ", None, " +
           (c.ansi ? "true" : "false") + ")";
  });
  r.add(access_fn(kTryElementAt));
  r.add(access_fn(kGet));
  {
    FunctionDef d = access_fn(kSubscript);
    d.unlisted = true;
    d.render = [](const std::string&, const std::vector<std::string>& args) { return args[0] + "[" + args[1] + "]"; };
    r.add(std::move(d));
  }
  r.add(scalar_args(
      "size", 1, 1, [](const Infos& a, const Config& conf) { return size_rule("size", false, a, conf); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) { return size_kernel(a, n, sig); },
      {"cardinality"}));
  r.add(scalar_args(
      "array_size", 1, 1, [](const Infos& a, const Config& conf) { return size_rule("array_size", true, a, conf); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) { return size_kernel(a, n, sig); }));
  r.add(scalar_args(
      "array_contains", 2, 2,
      [](const Infos& a, const Config& conf) {
        return membership_rule("array_contains", DataType::boolean(), a, conf);
      },
      array_contains_kernel));
  r.add(scalar_args(
      "array_position", 2, 2,
      [](const Infos& a, const Config& conf) { return membership_rule("array_position", DataType::long_(), a, conf); },
      array_position_kernel));
}

}  // namespace ember::functions
