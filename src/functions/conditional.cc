// Null and conditional functions that are plain functions of their arguments: nvl2, nullif,
// nanvl, typeof, assert_true and raise_error. (nvl/ifnull/coalesce, if and CASE are expressions of their
// own in the analyzer; equal_null is `<=>`; isnan lives with the predicates.)

#include <cmath>

#include "functions/cast.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

ColumnPtr nvl2_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) b.append_from(a[0]->is_valid(i) ? *a[1] : *a[2], i);
  return b.finish();
}

ColumnPtr nullif_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  static const FunctionDef* eq = Registry::instance().find("==");
  Signature es = eq->type_rule({a[0]->type(), a[1]->type()}, ctx.config ? *ctx.config : Config());
  // The operands compare in their common type; the result is the first one as it is.
  Args cast;
  for (size_t k = 0; k < 2; ++k)
    cast.push_back(a[k]->type()->equals(*es.arg_types[k]) ? a[k] : cast_column(a[k], es.arg_types[k], ctx));
  ColumnPtr same = eq->kernel(cast, n, es, ctx);
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (same->is_valid(i) && same->bool_at(i))
      b.append_null();
    else
      b.append_from(*a[0], i);
  }
  return b.finish();
}

template <typename T>
ColumnPtr nanvl_typed(const Args& a, int64_t n, const Signature& sig) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (a[0]->is_null(i)) {
      b.append_null();
      continue;
    }
    T x = a[0]->values<T>()[i];
    if (!std::isnan(x))
      b.append<T>(x);
    else if (a[1]->is_null(i))
      b.append_null();
    else
      b.append<T>(a[1]->values<T>()[i]);
  }
  return b.finish();
}

/// Spark's USER_RAISED_EXCEPTION (SQLSTATE P0001) with the message of row i of `msg`, or
/// `if_null` when there is no message or it is null: what raise_error and a failed assert_true
/// throw.
[[noreturn]] void raise_user_error(const Column* msg, int64_t i, const std::string& if_null) {
  std::string text = msg && msg->is_valid(i) ? std::string(msg->string_at(i)) : if_null;
  throw SparkError(ErrorKind::kRuntime, "USER_RAISED_EXCEPTION", text, {{"errorMessage", text}});
}

}  // namespace

void register_conditional(Registry& r) {
  {
    FunctionDef d = scalar(
        "nvl2", 3, 3,
        [](const Types& a, const Config& conf) {
          // nvl2(a, b, c) is if(a IS NOT NULL, b, c): its branches meet as if's do.
          TypePtr t = wider_common_type(a[1], a[2], conf.ansi_enabled());
          if (!t)
            throw_type_mismatch("DATA_DIFF_TYPES",
                                "Input to `if` should all be the same type, but it's [\"" + a[1]->sql() + "\", \"" +
                                    a[2]->sql() + "\"].",
                                call_sql("nvl2", a));
          Signature s;
          s.arg_types = {a[0], t, t};
          s.result_type = t;
          s.null_if_any_arg_null = false;
          s.nullable_from = {1, 2};
          return s;
        },
        nvl2_kernel);
    r.add(std::move(d));
  }
  r.add(scalar(
      "nullif", 2, 2,
      [](const Types& a, const Config& conf) {
        TypePtr t = common_type("nullif", a, {0, 1}, conf);
        Signature s;
        // Spark's nullif is If(left = right, NULL, left): of the first operand's type.
        const TypePtr& first = a[0]->id() == TypeId::kNull ? t : a[0];
        s.arg_types = {first, a[1]->id() == TypeId::kNull ? t : a[1]};
        s.result_type = first;
        s.null_if_any_arg_null = false;
        s.may_introduce_null = true;
        return s;
      },
      nullif_kernel));
  r.add(scalar(
      "nanvl", 2, 2,
      [](const Types& a, const Config&) {
        for (size_t i = 0; i < 2; ++i)
          if (!a[i]->is_numeric() && a[i]->id() != TypeId::kNull && a[i]->id() != TypeId::kString)
            throw_type_mismatch(
                "UNEXPECTED_INPUT_TYPE",
                std::string("The ") + (i ? "second" : "first") +
                    " parameter requires the (\"DOUBLE\" or \"FLOAT\") type, however \"" +
                    a[i]->sql() + "\" has the type \"" + a[i]->sql() + "\".",
                call_sql("nanvl", a));
        bool flt = a[0]->id() == TypeId::kFloat && a[1]->id() == TypeId::kFloat;
        Signature s;
        TypePtr t = flt ? DataType::float_() : DataType::double_();
        s.arg_types = {t, t};
        s.result_type = t;
        s.null_if_any_arg_null = false;
        return s;
      },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return sig.result_type->id() == TypeId::kFloat ? nanvl_typed<float>(a, n, sig)
                                                       : nanvl_typed<double>(a, n, sig);
      }));
  r.add(scalar(
      "typeof", 1, 1,
      [](const Types& a, const Config&) {
        Signature s;
        s.arg_types = {a[0]};
        s.result_type = DataType::string();
        s.never_null = true;
        s.null_if_any_arg_null = false;
        return s;
      },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return Column::constant(sig.result_type, Value::bytes(a[0]->type()->simple_string()), n);
      }));
  {
    FunctionDef d = scalar(
        "assert_true", 1, 2,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("assert_true", a, "bS", DataType::null());
          s.null_if_any_arg_null = false;
          s.may_introduce_null = true;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          for (int64_t i = 0; i < n; ++i)
            if (!a[0]->is_valid(i) || !a[0]->bool_at(i))
              raise_user_error(a.size() > 1 ? a[1].get() : nullptr, i, "null");
          return Column::all_null(sig.result_type, n);
        });
    d.deterministic = false;
    d.may_throw = true;
    r.add(std::move(d));
  }
  {
    // raise_error(msg): throws on the first row that reaches it; Spark shows the call as the
    // error it raises. Nondeterministic, so that it is never folded before a row reaches it.
    FunctionDef d = scalar(
        "raise_error", 1, 1,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("raise_error", a, "S", DataType::null());
          s.null_if_any_arg_null = false;
          s.may_introduce_null = true;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          if (n > 0) raise_user_error(a[0].get(), 0, "null");
          return Column::all_null(sig.result_type, n);
        });
    d.deterministic = false;
    d.may_throw = true;
    d.render = [](const std::string& called, const std::vector<std::string>& a) {
      return called + "(USER_RAISED_EXCEPTION, map(errorMessage, " + a[0] + "))";
    };
    d.usage = "raise_error( expr ) - Throws a USER_RAISED_EXCEPTION with `expr` as message.";
    d.since = "3.1.0";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
