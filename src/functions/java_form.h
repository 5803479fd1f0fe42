#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "types/data_type.h"

namespace ember::functions {

/// A call as Spark's Scala toString shows it, which is how the column name of a Python function
/// shows its arguments (`my_udf(hour(ts, Some(UTC)))`).
struct JavaFormCall {
  std::string called;              // the name the function was called by
  std::vector<std::string> args;   // the arguments, each in its toString form
  std::vector<TypePtr> arg_types;  // their types, after the function's implicit casts
  std::string time_zone;           // the session time zone
  bool ansi = true;                // the session's ANSI mode
};

/// The toString form of a function's calls where it shows more than the call's SQL text: the
/// parameters Spark's expression keeps beyond the arguments written (defaults such as
/// `hash(a, 42)` and `first(a, false)`, the session time zone as `Some(zone)`, the ANSI flag),
/// or its class name (`StartsWith(s, x)`). Returns "" for a call it does not describe, which then
/// shows as `name(args)`.
using JavaForm = std::function<std::string(const JavaFormCall&)>;

/// Declares the form of the function registered as `function` (its canonical name); a family
/// declares it where it registers the function.
void set_java_form(const std::string& function, JavaForm form);
/// The form declared for `function`, or null.
const JavaForm* java_form(const std::string& function);

/// `called(args, extra...)`: parameters with fixed values after the arguments (hash's seed).
JavaForm java_form_appending(std::vector<std::string> extra);
/// A call with `written` arguments is shown with `shown` after them: defaulted trailing
/// parameters (`first(a)` is `first(a, false)`); other arities show as written.
JavaForm java_form_defaults(size_t written, std::vector<std::string> shown);
/// A function of the session time zone: `called(args, Some(zone))`.
JavaForm java_form_zoned();
/// `Class(args)`: expressions whose toString is their class name.
JavaForm java_form_class(std::string class_name);

}  // namespace ember::functions
