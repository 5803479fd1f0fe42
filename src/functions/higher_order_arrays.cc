// Higher-order array functions: transform, filter, exists, forall, aggregate / reduce and
// zip_with. Each evaluates its lambda once per batch over the flattened elements of all rows
// (aggregate once per element position, since each step needs the previous accumulator).
// array_sort with a comparator lives in higher_order_sort.cc.

#include <algorithm>

#include "common/error.h"
#include "functions/collection_util.h"
#include "functions/kernel_util.h"
#include "functions/lambda.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;
using Lambdas = std::vector<const LambdaFunction*>;

void require_array(const std::string& fn, const Infos& a, size_t i) {
  if (!a[i].type || a[i].type->id() != TypeId::kArray) throw_lambda_input_type(fn, a, i, "ARRAY");
}

/// A lambda's result must be boolean (a NULL literal body is cast to it).
TypePtr require_boolean_lambda(const std::string& fn, const Infos& a, size_t i) {
  TypeId id = a[i].type->id();
  if (id != TypeId::kBoolean && id != TypeId::kNull) throw_lambda_input_type(fn, a, i, "BOOLEAN");
  return DataType::boolean();
}

/// `t` with every nested field, element and value nullable (Spark's asNullable): the type of
/// aggregate's accumulator and result.
TypePtr as_nullable(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kArray: return DataType::array(as_nullable(t->element_type()), true);
    case TypeId::kMap: return DataType::map(as_nullable(t->key_type()), as_nullable(t->value_type()), true);
    case TypeId::kStruct: {
      std::vector<StructField> fields = t->fields();
      for (auto& f : fields) {
        f.type = as_nullable(f.type);
        f.nullable = true;
      }
      return DataType::struct_(std::move(fields));
    }
    default: return t;
  }
}

/// transform and filter pass the element, and its index to a two-parameter lambda.
LambdaBinder element_binder(const std::string& fn) {
  return [fn](const Infos& a, size_t, size_t num_params) {
    require_array(fn, a, 0);
    std::vector<LambdaParam> p{{a[0].type->element_type(), a[0].type->contains_null()}};
    if (num_params == 2) p.push_back({DataType::int_(), false});
    return p;
  };
}

/// The element bindings of transform / filter / exists / forall: the element, and its index
/// when the lambda takes two parameters.
std::vector<ColumnPtr> element_params(const Column& arr, const FlatElements& flat, const LambdaFunction& f) {
  std::vector<ColumnPtr> params{elements_at(arr.child(0), flat)};
  if (f.num_params() == 2) params.push_back(element_indexes(flat));
  return params;
}

// --- transform --------------------------------------------------------------------------------

ColumnPtr transform_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  FlatElements flat = flatten_elements(arr, n);
  ColumnPtr values = l[0]->call(element_params(arr, flat, *l[0]), flat.rows);
  return make_list(sig.result_type, n, flat.offsets, with_type(values, sig.result_type->element_type()),
                   arr.validity_buffer());
}

// --- filter -----------------------------------------------------------------------------------

ColumnPtr filter_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  FlatElements flat = flatten_elements(arr, n);
  ColumnPtr keep = l[0]->call(element_params(arr, flat, *l[0]), flat.rows);
  std::vector<int32_t> picks, offsets(static_cast<size_t>(n) + 1, 0);
  picks.reserve(flat.positions.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int32_t k = flat.offsets[static_cast<size_t>(i)]; k < flat.offsets[static_cast<size_t>(i) + 1]; ++k)
      if (keep->is_valid(k) && keep->bool_at(k)) picks.push_back(flat.positions[static_cast<size_t>(k)]);
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(picks.size());
  }
  return gather_list(sig.result_type, arr, offsets, picks, arr.validity_buffer());
}

// --- exists / forall --------------------------------------------------------------------------

/// exists (any) and forall (all) under three-valued logic: a deciding value (true for exists,
/// false for forall) decides; otherwise a null predicate makes the row null (for exists only
/// while spark.sql.legacy.followThreeValuedLogicInArrayExists is true, the default).
ColumnPtr quantifier_kernel(const Args& a, const Lambdas& l, int64_t n, bool any, bool three_valued) {
  const Column& arr = *a[0];
  FlatElements flat = flatten_elements(arr, n);
  ColumnPtr pred = l[0]->call(element_params(arr, flat, *l[0]), flat.rows);
  std::vector<uint8_t> value(static_cast<size_t>(n), 0), valid(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      valid[static_cast<size_t>(i)] = 0;
      continue;
    }
    bool decided = false, saw_null = false;
    for (int32_t k = flat.offsets[static_cast<size_t>(i)]; k < flat.offsets[static_cast<size_t>(i) + 1] && !decided; ++k) {
      if (pred->is_null(k)) saw_null = true;
      else decided = pred->bool_at(k) == any;
    }
    if (decided) value[static_cast<size_t>(i)] = any;
    else if (saw_null && three_valued) valid[static_cast<size_t>(i)] = 0;
    else value[static_cast<size_t>(i)] = !any;
  }
  return make_bool_column(value, validity_from(valid), n);
}

/// Whether exists follows three-valued logic (null, not false, when no element satisfies the
/// predicate but some predicate is null).
bool follows_three_valued_logic(const Config* conf) {
  return !conf || conf->get_bool("spark.sql.legacy.followThreeValuedLogicInArrayExists", true);
}

// --- aggregate / reduce -----------------------------------------------------------------------

/// Folds each row's elements into its accumulator one element position at a time: step j
/// evaluates the merge lambda once over the rows that have a j-th element, whose accumulators
/// are kept side by side; a row leaves that set, its final accumulator set aside, after its
/// last element, so the work is proportional to the elements, however skewed the lengths. The
/// finish lambda then runs once over all non-null rows.
ColumnPtr aggregate_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& arr = *a[0];
  const ColumnPtr& elems = arr.child(0);
  const int32_t* o = arr.offsets();
  const TypePtr acc_type = as_nullable(a[1]->type());
  auto length = [o](int32_t i) { return o[i + 1] - o[i]; };
  std::vector<int32_t> valid_rows, active;
  for (int64_t i = 0; i < n; ++i)
    if (arr.is_valid(i)) {
      valid_rows.push_back(static_cast<int32_t>(i));
      if (length(static_cast<int32_t>(i)) > 0) active.push_back(static_cast<int32_t>(i));
    }
  const TypePtr& out = sig.result_type;
  if (valid_rows.empty()) return Column::all_null(out, n);
  // Final accumulators: the zero values of every row, then each step's leavers. `final_at[i]`
  // is row i's position in their concatenation.
  std::vector<ColumnPtr> finals{with_type(a[1], acc_type)};
  int64_t finals_length = n;
  std::vector<int32_t> final_at(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) final_at[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  ColumnPtr acc = gather(*finals[0], active.data(), static_cast<int64_t>(active.size()));
  std::vector<int32_t> positions, stay, leave, next;
  for (int32_t j = 0; !active.empty(); ++j) {
    int64_t m = static_cast<int64_t>(active.size());
    positions.resize(active.size());
    for (size_t k = 0; k < active.size(); ++k) positions[k] = o[active[k]] + j;
    acc = with_type(l[0]->call({acc, gather(*elems, positions.data(), m)}, active), acc_type);
    stay.clear(), leave.clear(), next.clear();
    for (size_t k = 0; k < active.size(); ++k) {
      if (length(active[k]) > j + 1) {
        stay.push_back(static_cast<int32_t>(k));
        next.push_back(active[k]);
      } else {
        final_at[static_cast<size_t>(active[k])] = static_cast<int32_t>(finals_length + static_cast<int64_t>(leave.size()));
        leave.push_back(static_cast<int32_t>(k));
      }
    }
    if (!leave.empty()) {
      finals.push_back(stay.empty() ? acc : gather(*acc, leave.data(), static_cast<int64_t>(leave.size())));
      finals_length += static_cast<int64_t>(leave.size());
    }
    if (!stay.empty() && stay.size() < active.size()) acc = gather(*acc, stay.data(), static_cast<int64_t>(stay.size()));
    active.swap(next);
  }
  ColumnPtr all = concat(finals);
  std::vector<int32_t> pick(valid_rows.size());
  for (size_t k = 0; k < valid_rows.size(); ++k) pick[k] = final_at[static_cast<size_t>(valid_rows[k])];
  ColumnPtr finished = l[1]->call({gather(*all, pick.data(), static_cast<int64_t>(pick.size()))}, valid_rows);
  if (static_cast<int64_t>(valid_rows.size()) == n) return with_type(finished, out);
  std::vector<int32_t> spread(static_cast<size_t>(n), -1);
  for (size_t k = 0; k < valid_rows.size(); ++k) spread[static_cast<size_t>(valid_rows[k])] = static_cast<int32_t>(k);
  return with_type(gather(*finished, spread.data(), n), out);
}

// --- zip_with ---------------------------------------------------------------------------------

/// Pairs the i-th elements of two arrays; the shorter one is padded with nulls. A null array
/// makes the row null.
ColumnPtr zip_with_kernel(const Args& a, const Lambdas& l, int64_t n, const Signature& sig, const EvalContext&) {
  const Column& left = *a[0];
  const Column& right = *a[1];
  const int32_t* lo = left.offsets();
  const int32_t* ro = right.offsets();
  std::vector<int32_t> rows, lpick, rpick, offsets(static_cast<size_t>(n) + 1, 0);
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) {
    if (left.is_null(i) || right.is_null(i)) {
      valid[static_cast<size_t>(i)] = 0;
    } else {
      int32_t ln = lo[i + 1] - lo[i], rn = ro[i + 1] - ro[i];
      for (int32_t j = 0; j < std::max(ln, rn); ++j) {
        rows.push_back(static_cast<int32_t>(i));
        lpick.push_back(j < ln ? lo[i] + j : -1);
        rpick.push_back(j < rn ? ro[i] + j : -1);
      }
    }
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(rows.size());
  }
  int64_t m = static_cast<int64_t>(rows.size());
  ColumnPtr x = gather(*left.child(0), lpick.data(), m);
  ColumnPtr y = gather(*right.child(0), rpick.data(), m);
  ColumnPtr values = l[0]->call({x, y}, rows);
  return make_list(sig.result_type, n, offsets, with_type(values, sig.result_type->element_type()),
                   validity_from(valid));
}

}  // namespace

void register_higher_order_arrays(Registry& r) {
  r.add(higher_order(
      "transform", 1, 2, 2, element_binder("transform"),
      [](const Infos& a, const Config&) {
        require_array("transform", a, 0);
        return higher_order_signature(a, DataType::array(a[1].type, a[1].nullable), {0});
      },
      transform_kernel, "transform(expr, func) - Transforms elements in an array using the function."));
  r.add(higher_order(
      "filter", 1, 2, 2, element_binder("filter"),
      [](const Infos& a, const Config&) {
        require_array("filter", a, 0);
        Signature s = higher_order_signature(a, a[0].type, {0});
        s.arg_types[1] = require_boolean_lambda("filter", a, 1);
        return s;
      },
      filter_kernel, "filter(expr, func) - Filters the input array using the given predicate."));
  for (bool any : {true, false}) {
    std::string name = any ? "exists" : "forall";
    r.add(higher_order(
        name, 1, 2, 2,
        [name](const Infos& a, size_t, size_t) {
          require_array(name, a, 0);
          return std::vector<LambdaParam>{{a[0].type->element_type(), a[0].type->contains_null()}};
        },
        [name, any](const Infos& a, const Config& conf) {
          require_array(name, a, 0);
          bool three_valued = !any || follows_three_valued_logic(&conf);
          Signature s = higher_order_signature(a, DataType::boolean(), three_valued ? std::vector<int>{0, 1} : std::vector<int>{0});
          s.arg_types[1] = require_boolean_lambda(name, a, 1);
          return s;
        },
        [any](const Args& args, const Lambdas& l, int64_t n, const Signature&, const EvalContext& ctx) {
          return quantifier_kernel(args, l, n, any, !any || follows_three_valued_logic(ctx.config));
        },
        any ? "exists(expr, pred) - Tests whether a predicate holds for one or more elements in the array."
            : "forall(expr, pred) - Tests whether a predicate holds for all elements in the array."));
  }
  for (const char* fn : {"aggregate", "reduce"}) {
    std::string name = fn;
    r.add(higher_order(
        name, 2, 3, 4,
        // The accumulator has the zero value's type; the merge lambda's result may be null.
        [name](const Infos& a, size_t lambda_arg, size_t) {
          require_array(name, a, 0);
          if (lambda_arg == 2)
            return std::vector<LambdaParam>{{as_nullable(a[1].type), true},
                                            {a[0].type->element_type(), a[0].type->contains_null()}};
          return std::vector<LambdaParam>{{as_nullable(a[1].type), a[2].type ? a[2].nullable : true}};
        },
        [name](const Infos& a, const Config&) {
          require_array(name, a, 0);
          // The merge must return the accumulator's type; a NULL merge is cast to it.
          bool null_merge = a[2].type->id() == TypeId::kNull;
          if (!null_merge && !a[2].type->same_type(*a[1].type)) throw_lambda_input_type(name, a, 2, a[1].type->sql());
          Signature s = higher_order_signature(a, as_nullable(a[3].type), {0, 3});
          if (null_merge) s.arg_types[2] = as_nullable(a[1].type);
          return s;
        },
        aggregate_kernel,
        name + "(expr, start, merge, finish) - Applies a binary operator to an initial state and all elements in "
               "the array, and reduces this to a single state. The final state is converted into the final result "
               "by applying a finish function."));
  }
  r.add(higher_order(
      "zip_with", 2, 3, 3,
      [](const Infos& a, size_t, size_t) {
        require_array("zip_with", a, 0);
        require_array("zip_with", a, 1);
        return std::vector<LambdaParam>{{a[0].type->element_type(), true}, {a[1].type->element_type(), true}};
      },
      [](const Infos& a, const Config&) {
        require_array("zip_with", a, 0);
        require_array("zip_with", a, 1);
        return higher_order_signature(a, DataType::array(a[2].type, a[2].nullable), {0, 1});
      },
      zip_with_kernel,
      "zip_with(left, right, func) - Merges the two given arrays, element-wise, into a single array using "
      "function. If one array is shorter, nulls are appended at the end to match the length of the longer "
      "array, before applying function."));
}

}  // namespace ember::functions
