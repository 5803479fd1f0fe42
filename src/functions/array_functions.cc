// Array functions: sort_array, array_sort, array_distinct, array_union, array_intersect,
// array_except, arrays_overlap, array_join, array_max, array_min, array_remove, array_repeat,
// array_append, array_prepend, array_insert, array_compact, flatten, slice, sequence and concat
// of arrays. Every kernel chooses, row by row, which source elements make up the result (a list
// of positions) and gathers them in one pass at the end.

#include <algorithm>
#include <numeric>

#include "common/calendar_interval.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"
#include "functions/calendar_interval.h"
#include "functions/collection_util.h"
#include "functions/lambda.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// Collects, row by row, positions into one source element column; then gathers them into the
/// result array column.
class ListAssembler {
 public:
  ListAssembler(ColumnPtr source, int64_t n) : source_(std::move(source)), valid_(static_cast<size_t>(n), 1) {
    offsets_.reserve(static_cast<size_t>(n) + 1);
    offsets_.push_back(0);
  }
  void pick(int32_t position) { picks_.push_back(position); }
  void pick_null() { picks_.push_back(-1); }
  void end_row() { offsets_.push_back(static_cast<int32_t>(picks_.size())); }
  void null_row() {
    valid_[offsets_.size() - 1] = 0;
    end_row();
  }
  ColumnPtr finish(const TypePtr& type) {
    ColumnPtr elems = gather(*source_, picks_.data(), static_cast<int64_t>(picks_.size()));
    if (!elems->type()->equals(*type->element_type()))
      elems = Column::make(type->element_type(), elems->length(), elems->validity_buffer(), elems->data_buffer(),
                           elems->offsets_buffer(), elems->children());
    return make_list(type, static_cast<int64_t>(offsets_.size()) - 1, offsets_, elems, validity_from(valid_));
  }

 private:
  ColumnPtr source_;
  std::vector<int32_t> picks_, offsets_;
  std::vector<uint8_t> valid_;
};

bool any_null(const Args& a, int64_t i) {
  for (auto& c : a)
    if (c->is_null(i)) return true;
  return false;
}

void require_array(const std::string& fn, const std::vector<TypePtr>& types, size_t i) {
  if (types[i]->id() != TypeId::kArray) throw_unexpected_input(fn, types, i, "\"ARRAY\"");
}

void require_orderable(const std::string& fn, const std::vector<TypePtr>& types, const TypePtr& t) {
  bool ok = true;
  std::function<void(const TypePtr&)> walk = [&](const TypePtr& x) {
    if (x->id() == TypeId::kMap) ok = false;
    for (auto& f : x->fields()) walk(f.type);
  };
  if (t->is_nested()) walk(t);
  if (!ok)
    throw_type_mismatch("INVALID_ORDERING_TYPE",
                        "The `" + fn + "` does not support ordering on type \"" + t->sql() + "\".",
                        call_sql(fn, types));
}

// --- sort_array / array_sort ------------------------------------------------------------------

Signature sort_rule(const std::string& fn, const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  require_array(fn, types, 0);
  if (types.size() > 1 && (types[1]->id() != TypeId::kBoolean || !a[1].literal))
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The second parameter requires the \"BOOLEAN\" type, however \"" + types[1]->sql() +
                            "\" has the type \"" + types[1]->sql() + "\".",
                        call_sql(fn, types));
  require_orderable(fn, types, types[0]->element_type());
  Signature s;
  s.arg_types = types;
  s.result_type = types[0];
  return s;
}

/// Sorts each row's elements; nulls first when ascending (sort_array), last for array_sort and
/// sort_array descending.
ColumnPtr sort_kernel(const Args& a, int64_t n, const Signature& sig, bool ascending, bool nulls_first) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ValueCompare cmp = value_comparator(elems);
  // Spark normalizes floating-point elements (-0.0 to 0.0 at any depth) as it deduplicates.
  ListAssembler out(normalize_floats(elems), n);
  const int32_t* o = arr.offsets();
  std::vector<int32_t> row;
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      out.null_row();
      continue;
    }
    row.resize(static_cast<size_t>(o[i + 1] - o[i]));
    std::iota(row.begin(), row.end(), o[i]);
    std::stable_sort(row.begin(), row.end(), [&](int32_t x, int32_t y) {
      bool xn = elems->is_null(x), yn = elems->is_null(y);
      if (xn || yn) return xn != yn && (xn == nulls_first);
      int r = cmp(x, y);
      return ascending ? r < 0 : r > 0;
    });
    for (int32_t p : row) out.pick(p);
    out.end_row();
  }
  return out.finish(sig.result_type);
}

ColumnPtr sort_array_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  bool asc = a.size() < 2 || a[1]->is_null(0) || a[1]->bool_at(0);
  return sort_kernel(a, n, sig, asc, asc);
}

ColumnPtr array_sort_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return sort_kernel(a, n, sig, true, false);
}

// --- set-like functions -----------------------------------------------------------------------

Signature one_array_rule(const std::string& fn, const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  require_array(fn, types, 0);
  Signature s;
  s.arg_types = types;
  s.result_type = types[0];
  return s;
}

ColumnPtr array_distinct_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ValueCompare cmp = value_comparator(elems);
  // Spark normalizes floating-point elements (-0.0 to 0.0 at any depth) as it deduplicates.
  ListAssembler out(normalize_floats(elems), n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      out.null_row();
      continue;
    }
    for (int32_t p : distinct_positions(*elems, cmp, o[i], o[i + 1])) out.pick(p);
    out.end_row();
  }
  return out.finish(sig.result_type);
}

/// Two arrays of one common element type.
Signature two_arrays_rule(const std::string& fn, const Infos& a, const Config& conf, TypePtr result = nullptr) {
  std::vector<TypePtr> types = types_of(a);
  for (size_t i = 0; i < 2; ++i)
    if (types[i]->id() != TypeId::kArray && types[i]->id() != TypeId::kNull) require_array(fn, types, i);
  TypePtr t;
  try {
    bool arrays = types[0]->id() == TypeId::kArray && types[1]->id() == TypeId::kArray;
    // No promotion to string between the element types.
    if (arrays && (types[0]->element_type()->id() == TypeId::kString) !=
                      (types[1]->element_type()->id() == TypeId::kString) &&
        types[0]->element_type()->id() != TypeId::kNull && types[1]->element_type()->id() != TypeId::kNull)
      throw SparkError(ErrorKind::kAnalysis, "DATATYPE_MISMATCH", "");
    t = collection_common_type(fn, types, {0, 1}, conf);
  } catch (const SparkError&) {
    throw_type_mismatch("BINARY_ARRAY_DIFF_TYPES",
                        "Input to function `" + fn + "` should have been two \"ARRAY\" with same element type, but "
                        "it's [\"" + types[0]->sql() + "\", \"" + types[1]->sql() + "\"].",
                        call_sql(fn, types));
  }
  Signature s;
  s.arg_types = {t, t};
  s.result_type = result ? result : t;
  return s;
}

enum class SetOp { kUnion, kIntersect, kExcept };

ColumnPtr set_op_kernel(SetOp op, const Args& a, int64_t n, const Signature& sig) {
  const Column& x = *a[0];
  const Column& y = *a[1];
  // The elements of both, floating-point values normalized as Spark's set functions do.
  ColumnPtr both = normalize_floats(concat({x.child(0), y.child(0)}));
  const int32_t shift = static_cast<int32_t>(x.child(0)->length());
  ValueCompare cmp = value_comparator(both);
  ListAssembler out(both, n);
  const int32_t* xo = x.offsets();
  const int32_t* yo = y.offsets();
  std::vector<int32_t> cand;
  for (int64_t i = 0; i < n; ++i) {
    if (x.is_null(i) || y.is_null(i)) {
      out.null_row();
      continue;
    }
    auto in_y = [&](int32_t p) {
      for (int32_t k = yo[i] + shift; k < yo[i + 1] + shift; ++k) {
        bool pn = both->is_null(p), kn = both->is_null(k);
        if (pn || kn) {
          if (pn && kn) return true;
          continue;
        }
        if (cmp(p, k) == 0) return true;
      }
      return false;
    };
    if (op == SetOp::kUnion) {
      cand.clear();
      for (int32_t k = xo[i]; k < xo[i + 1]; ++k) cand.push_back(k);
      for (int32_t k = yo[i] + shift; k < yo[i + 1] + shift; ++k) cand.push_back(k);
      // distinct over the candidate positions, first occurrences in order.
      std::vector<int32_t> keep;
      for (int32_t p : cand) {
        bool seen = false;
        for (int32_t q : keep) {
          bool pn = both->is_null(p), qn = both->is_null(q);
          if ((pn && qn) || (!pn && !qn && cmp(p, q) == 0)) {
            seen = true;
            break;
          }
        }
        if (!seen) keep.push_back(p);
      }
      for (int32_t p : keep) out.pick(p);
    } else {
      for (int32_t p : distinct_positions(*both, cmp, xo[i], xo[i + 1]))
        if (in_y(p) == (op == SetOp::kIntersect)) out.pick(p);
    }
    out.end_row();
  }
  return out.finish(sig.result_type);
}

ColumnPtr arrays_overlap_kernel(const Args& a, int64_t n, const Signature&, const EvalContext&) {
  const Column& x = *a[0];
  const Column& y = *a[1];
  ValueCompare cmp = value_comparator(x.child(0), y.child(0));
  const ColumnPtr& xe = x.child(0);
  const ColumnPtr& ye = y.child(0);
  std::vector<uint8_t> value(static_cast<size_t>(n)), valid(static_cast<size_t>(n));
  const int32_t* xo = x.offsets();
  const int32_t* yo = y.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (x.is_null(i) || y.is_null(i)) continue;
    bool found = false, saw_null = false;
    for (int32_t p = xo[i]; p < xo[i + 1] && !found; ++p) {
      if (xe->is_null(p)) {
        saw_null = true;
        continue;
      }
      for (int32_t q = yo[i]; q < yo[i + 1]; ++q) {
        if (ye->is_null(q)) {
          saw_null = true;
        } else if (cmp(p, q) == 0) {
          found = true;
          break;
        }
      }
    }
    bool both_nonempty = xo[i + 1] > xo[i] && yo[i + 1] > yo[i];
    if (!found && yo[i + 1] > yo[i])
      for (int32_t q = yo[i]; q < yo[i + 1]; ++q) saw_null |= ye->is_null(q);
    value[static_cast<size_t>(i)] = found;
    valid[static_cast<size_t>(i)] = found || !(saw_null && both_nonempty);
  }
  for (int64_t i = 0; i < n; ++i)
    if (x.is_null(i) || y.is_null(i)) valid[static_cast<size_t>(i)] = 0;
  return make_bool_column(value, validity_from(valid), n);
}

// --- array_join, array_max / array_min ---------------------------------------------------------

Signature array_join_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  require_array("array_join", types, 0);
  if (types[0]->element_type()->is_nested()) throw_unexpected_input("array_join", types, 0, "\"ARRAY<STRING>\"");
  Signature s;
  s.arg_types = {DataType::array(DataType::string(), types[0]->contains_null()), DataType::string()};
  if (types.size() > 2) s.arg_types.push_back(DataType::string());
  s.result_type = DataType::string();
  return s;
}

ColumnPtr array_join_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  const Column& elems = *arr.child(0);
  const int32_t* o = arr.offsets();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string s;
    bool first = true;
    for (int32_t k = o[i]; k < o[i + 1]; ++k) {
      std::string_view v;
      if (elems.is_null(k)) {
        if (a.size() < 3) continue;
        v = a[2]->string_at(i);
      } else {
        v = elems.string_at(k);
      }
      if (!first) s += a[1]->string_at(i);
      s += v;
      first = false;
    }
    b.append_bytes(s);
  });
}

Signature extreme_rule(const std::string& fn, const Infos& a, const Config& conf) {
  Signature s = one_array_rule(fn, a, conf);
  require_orderable(fn, s.arg_types, s.arg_types[0]->element_type());
  s.result_type = s.arg_types[0]->element_type();
  s.may_introduce_null = true;
  return s;
}

ColumnPtr extreme_kernel(const Args& a, int64_t n, bool max) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ValueCompare cmp = value_comparator(elems);
  std::vector<int32_t> picks(static_cast<size_t>(n), -1);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) continue;
    int32_t best = -1;
    for (int32_t k = o[i]; k < o[i + 1]; ++k) {
      if (elems->is_null(k)) continue;
      if (best < 0 || (max ? cmp(k, best) > 0 : cmp(k, best) < 0)) best = k;
    }
    picks[static_cast<size_t>(i)] = best;
  }
  return gather(*elems, picks.data(), n);
}

// --- array_remove, array_compact, array_repeat, append / prepend / insert -------------------------

/// An array and a value of its element type, widened to one type.
Signature array_value_rule(const std::string& fn, const Infos& a, const Config& conf, bool value_nullable_in_result) {
  std::vector<TypePtr> types = types_of(a);
  require_array(fn, types, 0);
  size_t v = types.size() - 1;
  std::vector<TypePtr> pair = {types[0]->element_type(), types[v]};
  TypePtr w;
  try {
    w = collection_common_type(fn, pair, {0, 1}, conf);
  } catch (const SparkError&) {
    throw_type_mismatch("ARRAY_FUNCTION_DIFF_TYPES",
                        "Input to `" + fn + "` should have been \"ARRAY\" followed by a value with same element type, "
                        "but it's [\"" + types[0]->sql() + "\", \"" + types[v]->sql() + "\"].",
                        call_sql(fn, types));
  }
  if (w->id() == TypeId::kNull) w = types[0]->element_type();
  Signature s;
  bool contains_null = types[0]->contains_null() || (value_nullable_in_result && a[v].nullable);
  s.arg_types = types;
  s.arg_types[0] = DataType::array(w, types[0]->contains_null());
  s.arg_types[v] = w;
  s.result_type = DataType::array(w, contains_null);
  if (value_nullable_in_result) s.nullable_from = {0};
  return s;
}

ColumnPtr array_remove_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ValueCompare eq = value_comparator(elems, a[1]);
  ListAssembler out(elems, n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (any_null(a, i)) {
      out.null_row();
      continue;
    }
    for (int32_t k = o[i]; k < o[i + 1]; ++k)
      if (elems->is_null(k) || eq(k, i) != 0) out.pick(k);
    out.end_row();
  }
  return out.finish(sig.result_type);
}

ColumnPtr array_compact_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  ListAssembler out(elems, n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      out.null_row();
      continue;
    }
    for (int32_t k = o[i]; k < o[i + 1]; ++k)
      if (elems->is_valid(k)) out.pick(k);
    out.end_row();
  }
  return out.finish(sig.result_type);
}

/// array_append / array_prepend: the value (which may be null) added at one end.
ColumnPtr append_kernel(const Args& a, int64_t n, const Signature& sig, bool at_end) {
  const Column& arr = *a[0];
  ColumnPtr both = concat({arr.child(0), a[1]});
  const int32_t shift = static_cast<int32_t>(arr.child(0)->length());
  ListAssembler out(both, n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      out.null_row();
      continue;
    }
    if (!at_end) out.pick(shift + static_cast<int32_t>(i));
    for (int32_t k = o[i]; k < o[i + 1]; ++k) out.pick(k);
    if (at_end) out.pick(shift + static_cast<int32_t>(i));
    out.end_row();
  }
  return out.finish(sig.result_type);
}

Signature array_insert_rule(const Infos& a, const Config& conf) {
  Infos pair = {a[0], a[2]};
  Signature s = array_value_rule("array_insert", pair, conf, true);
  std::vector<TypePtr> types = types_of(a);
  if (!types[1]->is_integral() && types[1]->id() != TypeId::kNull)
    throw_unexpected_input("array_insert", types, 1, "\"INT\"");
  s.arg_types = {s.arg_types[0], DataType::int_(), s.arg_types[1]};
  s.result_type = DataType::array(s.result_type->element_type(), true);
  s.nullable_from = {};
  return s;
}

ColumnPtr array_insert_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  ColumnPtr both = concat({arr.child(0), a[2]});
  const int32_t shift = static_cast<int32_t>(arr.child(0)->length());
  ListAssembler out(both, n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i) || a[1]->is_null(i)) {
      out.null_row();
      continue;
    }
    int64_t size = o[i + 1] - o[i];
    int64_t pos = a[1]->values<int32_t>()[i];
    if (pos == 0) throw_invalid_index_of_zero();
    int32_t value = shift + static_cast<int32_t>(i);
    if (pos > 0) {
      int64_t at = pos - 1;  // 0-based position of the new element
      for (int64_t k = 0; k < std::min(at, size); ++k) out.pick(o[i] + static_cast<int32_t>(k));
      for (int64_t k = size; k < at; ++k) out.pick_null();
      out.pick(value);
      for (int64_t k = at; k < size; ++k) out.pick(o[i] + static_cast<int32_t>(k));
    } else {
      // -1 inserts after the last element; beyond the front pads with nulls.
      int64_t at = size + pos + 1;
      if (at < 0) {
        out.pick(value);
        for (int64_t k = at; k < 0; ++k) out.pick_null();
        for (int64_t k = 0; k < size; ++k) out.pick(o[i] + static_cast<int32_t>(k));
      } else {
        for (int64_t k = 0; k < at; ++k) out.pick(o[i] + static_cast<int32_t>(k));
        out.pick(value);
        for (int64_t k = at; k < size; ++k) out.pick(o[i] + static_cast<int32_t>(k));
      }
    }
    out.end_row();
  }
  return out.finish(sig.result_type);
}

Signature array_repeat_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  if (!types[1]->is_integral() && types[1]->id() != TypeId::kNull)
    throw_unexpected_input("array_repeat", types, 1, "\"INT\"");
  Signature s;
  s.arg_types = {types[0], DataType::int_()};
  s.result_type = DataType::array(types[0], a[0].nullable);
  s.nullable_from = {1};
  return s;
}

ColumnPtr array_repeat_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ListAssembler out(a[0], n);
  for (int64_t i = 0; i < n; ++i) {
    if (a[1]->is_null(i)) {
      out.null_row();
      continue;
    }
    int32_t count = a[1]->values<int32_t>()[i];
    for (int32_t k = 0; k < count; ++k) out.pick(static_cast<int32_t>(i));
    out.end_row();
  }
  return out.finish(sig.result_type);
}

// --- flatten, slice, concat -------------------------------------------------------------------

Signature flatten_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  if (types[0]->id() != TypeId::kArray || types[0]->element_type()->id() != TypeId::kArray)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"ARRAY\" of \"ARRAY\" type, however \"" + types[0]->sql() +
                            "\" has the type \"" + types[0]->sql() + "\".",
                        call_sql("flatten", types));
  Signature s;
  s.arg_types = types;
  s.result_type = types[0]->element_type();
  s.may_introduce_null = types[0]->contains_null();
  return s;
}

ColumnPtr flatten_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& outer = *a[0];
  const Column& inner = *outer.child(0);
  ListAssembler out(inner.child(0), n);
  const int32_t* o = outer.offsets();
  const int32_t* io = inner.offsets();
  for (int64_t i = 0; i < n; ++i) {
    bool null = outer.is_null(i);
    for (int32_t k = o[i]; !null && k < o[i + 1]; ++k) null = inner.is_null(k);
    if (null) {
      out.null_row();
      continue;
    }
    for (int32_t k = o[i]; k < o[i + 1]; ++k)
      for (int32_t p = io[k]; p < io[k + 1]; ++p) out.pick(p);
    out.end_row();
  }
  return out.finish(sig.result_type);
}

Signature slice_rule(const Infos& a, const Config&) {
  std::vector<TypePtr> types = types_of(a);
  require_array("slice", types, 0);
  for (size_t i = 1; i < 3; ++i)
    if (!types[i]->is_integral() && types[i]->id() != TypeId::kNull) throw_unexpected_input("slice", types, i, "\"INT\"");
  Signature s;
  s.arg_types = {types[0], DataType::int_(), DataType::int_()};
  s.result_type = types[0];
  return s;
}

ColumnPtr slice_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  ListAssembler out(arr.child(0), n);
  const int32_t* o = arr.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (any_null(a, i)) {
      out.null_row();
      continue;
    }
    int64_t size = o[i + 1] - o[i];
    int64_t start = a[1]->values<int32_t>()[i];
    int64_t length = a[2]->values<int32_t>()[i];
    if (start == 0)
      throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.START",
                       "The value of parameter(s) `start` in `slice` is invalid: Expects a positive or a negative "
                       "value for `start`, but got 0.",
                       {{"parameter", "`start`"}, {"functionName", "`slice`"}}, "22023");
    if (length < 0)
      throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.LENGTH",
                       "The value of parameter(s) `length` in `slice` is invalid: Expects `length` greater than or "
                       "equal to 0, but got " + std::to_string(length) + ".",
                       {{"parameter", "`length`"}, {"functionName", "`slice`"}}, "22023");
    int64_t from = start > 0 ? start - 1 : size + start;
    if (from >= 0)
      for (int64_t k = from; k < std::min(size, from + length); ++k) out.pick(o[i] + static_cast<int32_t>(k));
    out.end_row();
  }
  return out.finish(sig.result_type);
}

// --- sequence ----------------------------------------------------------------------------------

/// Spark's limit on the elements of one array (ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH).
constexpr int64_t kMaxArrayLength = 2147483632;

[[noreturn]] void throw_sequence_wrong_types(const std::vector<TypePtr>& types) {
  throw_type_mismatch(
      "SEQUENCE_WRONG_INPUT_TYPES",
      "`sequence` uses the wrong parameter type. The parameter type must conform to:\n1. The start and stop "
      "expressions must resolve to the same type.\n2. If start and stop expressions resolve to the (\"TIMESTAMP\" "
      "or \"TIMESTAMP_NTZ\" or \"DATE\") type, then the step expression must resolve to the (\"INTERVAL\" or "
      "\"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\") type.\n3. Otherwise, if start and stop "
      "expressions resolve to the \"INTEGRAL\" type, then the step expression must resolve to the same type.",
      call_sql("sequence", types));
}

[[noreturn]] void throw_sequence_boundaries(const std::string& start, const std::string& stop,
                                            const std::string& step) {
  throw SparkError(ErrorKind::kIllegalArgument, "",
                   "requirement failed: Illegal sequence boundaries: " + start + " to " + stop + " by " + step);
}

[[noreturn]] void throw_sequence_too_long(int64_t count) {
  throw SparkError(ErrorKind::kRuntime, "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER",
                   "Can't create array with " + std::to_string(count) +
                       " elements which exceeding the array size limit 2147483632, the value of parameter(s) "
                       "`count` in the function `sequence` is invalid.",
                   {{"numberOfElements", std::to_string(count)},
                    {"maxRoundedArrayLength", "2147483632"},
                    {"functionName", "`sequence`"},
                    {"parameter", "`count`"}},
                   "54000");
}

/// The number of elements from `start` to `stop` by `step` (Spark's getSequenceLength), after
/// its checks that the step goes towards the stop and that the array is not too long.
int64_t sequence_length(int64_t start, int64_t stop, int64_t step, const std::string& step_text) {
  if (!((step > 0 && start <= stop) || (step < 0 && start >= stop) || (step == 0 && start == stop)))
    throw_sequence_boundaries(std::to_string(start), std::to_string(stop), step_text);
  const int64_t count = start == stop ? 1 : 1 + (stop - start) / step;
  if (count > kMaxArrayLength) throw_sequence_too_long(count);
  return count;
}

bool is_datetime_or_null(const TypePtr& t) { return t->is_datetime() || t->id() == TypeId::kNull; }

bool is_interval(const TypePtr& t) {
  return t->is_ansi_interval() || t->id() == TypeId::kCalendarInterval;
}

Signature sequence_rule(const Infos& a, const Config& conf) {
  std::vector<TypePtr> types = types_of(a);
  const bool datetimes = (is_datetime_or_null(types[0]) || types[0]->id() == TypeId::kString) &&
                         (is_datetime_or_null(types[1]) || types[1]->id() == TypeId::kString) &&
                         (types[0]->is_datetime() || types[1]->is_datetime());
  if (datetimes) {
    // Dates, timestamps and TIMESTAMP_NTZ: start and stop meet at their common type; the step is
    // an interval (one day, or minus one day, when it is left out).
    TypePtr t = wider_common_type(types[0], types[1], conf.ansi_enabled());
    if (!t || !t->is_datetime() || (types.size() > 2 && !is_interval(types[2]))) throw_sequence_wrong_types(types);
    Signature s;
    s.arg_types = {t, t};
    if (types.size() > 2) s.arg_types.push_back(types[2]);
    s.result_type = DataType::array(t, false);
    return s;
  }
  TypePtr t = DataType::null();
  for (size_t i = 0; i < types.size(); ++i) {
    if (i == 2 && is_interval(types[i])) throw_sequence_wrong_types(types);
    if (!types[i]->is_integral() && types[i]->id() != TypeId::kNull)
      throw_unexpected_input("sequence", types, i, "\"INTEGRAL\"");
    t = wider_type(t, types[i], false);
  }
  if (t->id() == TypeId::kNull) t = DataType::int_();
  Signature s;
  s.arg_types.assign(types.size(), t);
  s.result_type = DataType::array(t, false);
  return s;
}

/// sequence over dates and timestamps, as Spark's temporal sequences: each element is the start
/// moved by i times the step's months and days as a local date-time (dates in UTC, TIMESTAMP in
/// the session zone, TIMESTAMP_NTZ as written) and then by i times its microseconds. A day-time
/// interval steps by its whole days and the rest; dates need a step of at least a day.
ColumnPtr temporal_sequence(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const TypePtr& t = sig.result_type->element_type();
  const bool date = t->id() == TypeId::kDate;
  const TimeZone* tz = t->id() == TypeId::kTimestamp ? &TimeZone::get(ctx.time_zone) : nullptr;
  const int64_t scale = date ? kMicrosPerDay : 1;
  const TypeId step_type = a.size() > 2 ? a[2]->type()->id() : TypeId::kNull;
  std::vector<int32_t> offsets = {0};
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  ColumnBuilder values(t);
  auto at = [&](const Column& c, int64_t i) -> int64_t {
    return date ? c.values<int32_t>()[i] : c.values<int64_t>()[i];
  };
  auto append = [&](int64_t v) {
    if (date)
      values.append<int32_t>(static_cast<int32_t>(v));
    else
      values.append<int64_t>(v);
  };
  for (int64_t i = 0; i < n; ++i) {
    if (any_null(a, i)) {
      valid[static_cast<size_t>(i)] = 0;
      offsets.push_back(offsets.back());
      continue;
    }
    const int64_t start = at(*a[0], i), stop = at(*a[1], i);
    int32_t months = 0, days = 0;
    int64_t micros = 0;
    std::string step_text;
    const char* granularity = "";
    switch (step_type) {
      case TypeId::kYearMonthInterval:
        months = a[2]->values<int32_t>()[i];
        step_text = std::to_string(months);
        granularity = "an interval year to month";
        break;
      case TypeId::kDayTimeInterval: {
        const int64_t d = a[2]->values<int64_t>()[i];
        days = static_cast<int32_t>(d / kMicrosPerDay);
        micros = d % kMicrosPerDay;
        step_text = std::to_string(d);
        granularity = "an interval day to second";
        break;
      }
      case TypeId::kCalendarInterval: {
        const CalendarInterval& v = a[2]->values<CalendarInterval>()[i];
        months = v.months;
        days = v.days;
        micros = v.micros;
        step_text = format_calendar_interval(v);
        granularity = "an interval";
        break;
      }
      default:
        days = start <= stop ? 1 : -1;
        step_text = days > 0 ? "1 days" : "-1 days";
        break;
    }
    if (date && months == 0 && days == 0)
      throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3242",
                       std::string("sequence step must be ") + granularity +
                           " of day granularity if start and end values are dates");
    if (months == 0 && (date ? micros == 0 : days == 0)) {
      // A whole number of days between dates, or microseconds between timestamps: a plain
      // arithmetic progression.
      const int64_t step = date ? days : micros;
      const int64_t count = sequence_length(start, stop, step, std::to_string(step));
      for (int64_t k = 0; k < count; ++k) append(start + k * step);
    } else {
      const int64_t from = start * scale, to = stop * scale;
      // The step's length with a month as its shortest, 28 days: the sign and the most elements.
      const int64_t estimate = micros + months * 28 * kMicrosPerDay + days * kMicrosPerDay;
      if (!((estimate > 0 && from <= to) || (estimate < 0 && from >= to) || (estimate == 0 && from == to)))
        throw_sequence_boundaries(std::to_string(from), std::to_string(to), step_text);
      const int64_t most = from == to ? 1 : 1 + (to - from) / estimate;
      if (most > kMaxArrayLength) throw_sequence_too_long(most);
      const int sign = estimate > 0 ? 1 : -1;
      int64_t v = from;
      for (int64_t k = 0; sign > 0 ? v <= to : v >= to - 1;) {
        append(date ? floor_div(v, kMicrosPerDay) : v);
        ++k;
        if (k > most) break;
        if (!timestamp_add_interval(from, static_cast<int32_t>(k * months), static_cast<int32_t>(k * days),
                                    k * micros, tz, &v))
          break;
      }
    }
    offsets.push_back(static_cast<int32_t>(values.length()));
  }
  return make_list(sig.result_type, n, offsets, values.finish(), validity_from(valid));
}

ColumnPtr sequence_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const TypePtr& t = sig.result_type->element_type();
  if (t->is_datetime() && (a.size() > 2 || t->id() != TypeId::kDate)) return temporal_sequence(a, n, sig, ctx);
  return dispatch_fixed(t->id(), [&]<typename T>() -> ColumnPtr {
    std::vector<int32_t> offsets = {0};
    std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
    ColumnBuilder values(t);
    for (int64_t i = 0; i < n; ++i) {
      if (any_null(a, i)) {
        valid[static_cast<size_t>(i)] = 0;
        offsets.push_back(offsets.back());
        continue;
      }
      int64_t start = a[0]->values<T>()[i], stop = a[1]->values<T>()[i];
      int64_t step = a.size() > 2 ? static_cast<int64_t>(a[2]->values<T>()[i]) : (start <= stop ? 1 : -1);
      const int64_t count = sequence_length(start, stop, step, std::to_string(step));
      for (int64_t k = 0; k < count; ++k) values.append<T>(static_cast<T>(start + k * step));
      offsets.push_back(static_cast<int32_t>(values.length()));
    }
    return make_list(sig.result_type, n, offsets, values.finish(), validity_from(valid));
  });
}

}  // namespace

/// concat over arrays (string_basic's concat hands arrays here): the elements of every argument
/// in order; null when any argument is null.
ColumnPtr concat_arrays(const std::vector<ColumnPtr>& a, int64_t n, const TypePtr& type) {
  std::vector<ColumnPtr> parts;
  std::vector<int32_t> shift;
  int32_t total = 0;
  for (auto& c : a) {
    parts.push_back(c->child(0));
    shift.push_back(total);
    total += static_cast<int32_t>(c->child(0)->length());
  }
  ListAssembler out(concat(parts), n);
  for (int64_t i = 0; i < n; ++i) {
    if (any_null(a, i)) {
      out.null_row();
      continue;
    }
    for (size_t k = 0; k < a.size(); ++k) {
      const int32_t* o = a[k]->offsets();
      for (int32_t p = o[i]; p < o[i + 1]; ++p) out.pick(shift[k] + p);
    }
    out.end_row();
  }
  return out.finish(type);
}

void register_array_functions(Registry& r) {
  {
    FunctionDef d = scalar_args(
        "sort_array", 1, 2, [](const Infos& a, const Config& c) { return sort_rule("sort_array", a, c); },
        sort_array_kernel);
    // The defaulted order shows in Spark's name: sort_array(a, true).
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : "true") + ")";
    };
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar_args(
        "array_sort", 1, 2,
        [](const Infos& a, const Config& c) {
          if (a.size() == 1) return sort_rule("array_sort", a, c);
          // With a comparator lambda (given here as its body's type), which must return INT.
          array_sort_params(a);
          if (a[1].type->id() != TypeId::kInt)
            throw_type_mismatch("UNEXPECTED_RETURN_TYPE",
                                "The `lambdafunction` requires return \"INT\" type, but the actual is \"" +
                                    a[1].type->sql() + "\" type.",
                                "array_sort(" + a[0].type->sql() + ", lambdafunction)");
          Signature s;
          s.arg_types = types_of(a);
          s.result_type = a[0].type;
          s.nullable_from = {0};
          return s;
        },
        array_sort_kernel);
    d.lambda_binder = [](const Infos& a, size_t, size_t) { return array_sort_params(a); };
    d.higher_order = array_sort_with_comparator;
    d.first_lambda = 1;
    // Spark names the call with its default comparator written out as a lambda.
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      if (args.size() > 1) return called + "(" + args[0] + ", " + args[1] + ")";
      const std::string v = "namedlambdavariable()";
      return called + "(" + args[0] + ", lambdafunction((IF(((" + v + " IS NULL) AND (" + v + " IS NULL)), 0, (IF((" +
             v + " IS NULL), 1, (IF((" + v + " IS NULL), -1, (IF((" + v + " < " + v + "), -1, (IF((" + v + " > " + v +
             "), 1, 0)))))))))), " + v + ", " + v + "))";
    };
    r.add(std::move(d));
  }
  r.add(scalar_args("array_distinct", 1, 1,
                    [](const Infos& a, const Config& c) { return one_array_rule("array_distinct", a, c); },
                    array_distinct_kernel));
  struct SetFn {
    const char* name;
    SetOp op;
  };
  for (SetFn f : {SetFn{"array_union", SetOp::kUnion}, SetFn{"array_intersect", SetOp::kIntersect},
                  SetFn{"array_except", SetOp::kExcept}}) {
    std::string name = f.name;
    SetOp op = f.op;
    r.add(scalar_args(
        name, 2, 2, [name](const Infos& a, const Config& c) { return two_arrays_rule(name, a, c); },
        [op](const Args& a, int64_t n, const Signature& sig, const EvalContext&) { return set_op_kernel(op, a, n, sig); }));
  }
  r.add(scalar_args(
      "arrays_overlap", 2, 2,
      [](const Infos& a, const Config& c) {
        Signature s = two_arrays_rule("arrays_overlap", a, c, DataType::boolean());
        s.may_introduce_null = s.arg_types[0]->contains_null();
        return s;
      },
      arrays_overlap_kernel));
  r.add(scalar_args("array_join", 2, 3, array_join_rule, array_join_kernel));
  r.add(scalar_args(
      "array_max", 1, 1, [](const Infos& a, const Config& c) { return extreme_rule("array_max", a, c); },
      [](const Args& a, int64_t n, const Signature&, const EvalContext&) { return extreme_kernel(a, n, true); }));
  r.add(scalar_args(
      "array_min", 1, 1, [](const Infos& a, const Config& c) { return extreme_rule("array_min", a, c); },
      [](const Args& a, int64_t n, const Signature&, const EvalContext&) { return extreme_kernel(a, n, false); }));
  r.add(scalar_args("array_remove", 2, 2,
                    [](const Infos& a, const Config& c) { return array_value_rule("array_remove", a, c, false); },
                    array_remove_kernel));
  r.add(scalar_args(
      "array_compact", 1, 1,
      [](const Infos& a, const Config& c) {
        Signature s = one_array_rule("array_compact", a, c);
        s.result_type = DataType::array(s.result_type->element_type(), false);
        return s;
      },
      array_compact_kernel));
  r.add(scalar_args("array_repeat", 2, 2, array_repeat_rule, array_repeat_kernel));
  r.add(scalar_args(
      "array_append", 2, 2, [](const Infos& a, const Config& c) { return array_value_rule("array_append", a, c, true); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) { return append_kernel(a, n, sig, true); }));
  r.add(scalar_args(
      "array_prepend", 2, 2,
      [](const Infos& a, const Config& c) { return array_value_rule("array_prepend", a, c, true); },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) { return append_kernel(a, n, sig, false); }));
  {
    FunctionDef d = scalar_args("array_insert", 3, 3, array_insert_rule, array_insert_kernel);
    d.may_throw = true;
    r.add(std::move(d));
  }
  r.add(scalar_args("flatten", 1, 1, flatten_rule, flatten_kernel));
  {
    FunctionDef d = scalar_args("slice", 3, 3, slice_rule, slice_kernel);
    d.may_throw = true;
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar_args("sequence", 2, 3, sequence_rule, sequence_kernel);
    d.may_throw = true;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
