#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "types/data_type.h"

namespace ember::functions {

/// What a kernel may read while it runs: ANSI mode, the session time zone, the query's time.
struct EvalContext {
  bool ansi = true;
  std::string time_zone = "UTC";
  const Config* config = nullptr;
  /// When the query started, in microseconds since the epoch; 0 outside a query.
  int64_t query_start_micros = 0;
  /// The current instant as the query sees it: the time it started, so that current_timestamp,
  /// now, current_date and current_time give one value everywhere in a query, as in Spark; the
  /// clock's time outside a query.
  int64_t now() const;
};

/// The outcome of a function's type rule for concrete argument types: the types the analyzer
/// must cast each argument to, and the result type.
struct Signature {
  std::vector<TypePtr> arg_types;
  TypePtr result_type;
  /// Result is null only when some argument is null (true for most functions).
  bool null_if_any_arg_null = true;
  /// Result may be null even for non-null arguments (e.g. division by zero in non-ANSI mode).
  bool may_introduce_null = false;
  /// Result is never null (count, <=>, isnull ...).
  bool never_null = false;
  /// Result is null only when every argument is null (greatest, least): nullable only when
  /// all arguments are.
  bool null_if_all_args_null = false;
  /// When not empty: the result is nullable only when one of these arguments is (concat_ws and
  /// its separator, nvl2 and its two values).
  std::vector<int> nullable_from;
  /// Values an aggregate's type rule read from its constant arguments, for an aggregate that
  /// needs them before it sees any row (count_min_sketch answers an empty input with the empty
  /// sketch of its parameters).
  std::vector<double> parameters;
};

/// A scalar kernel: evaluates the function over whole columns (already cast to the signature's
/// argument types) and returns a column of `num_rows` values of the result type.
using ScalarKernel = std::function<ColumnPtr(const std::vector<ColumnPtr>& args, int64_t num_rows,
                                             const Signature& sig, const EvalContext& ctx)>;

/// An aggregate function over one group's values. States live in fixed-size slots that the
/// hash aggregate allocates per group; `update` and `merge` receive one state pointer per input
/// row, so a batch is processed in one call without per-row virtual dispatch.
class AggregateFunction {
 public:
  virtual ~AggregateFunction() = default;
  virtual size_t state_size() const = 0;
  virtual void init(uint8_t* state) const = 0;
  /// Adds row i of `args` to `states[i]` for i in [0, n); rows whose state pointer is null are
  /// skipped (used for FILTER clauses).
  virtual void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const = 0;
  /// Merges partial state `src` into `dst`.
  virtual void merge(uint8_t* dst, const uint8_t* src) const = 0;
  /// Appends the final value of each state to `out` (of the signature's result type).
  virtual void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const = 0;
  /// Releases what a state owns (only for states holding heap memory).
  virtual void destroy(uint8_t* /*state*/) const {}
  virtual bool needs_destroy() const { return false; }
};

/// The min (max) aggregate over values of `sig.arg_types[0]`, nulls skipped. bool_and and
/// bool_or are min and max over booleans.
std::unique_ptr<AggregateFunction> make_min_max(const Signature& sig, bool max);

using AggregateFactory =
    std::function<std::unique_ptr<AggregateFunction>(const Signature& sig, const EvalContext& ctx)>;

enum class FunctionKind { kScalar, kAggregate };

/// How `Expr::to_string` renders a call, which is how Spark names result columns.
enum class Display {
  kCall,     // name(a, b)
  kInfix,    // (a op b)
  kPrefix,   // (op a) e.g. (- a), (NOT a)
  kPostfix,  // (a IS NULL)
};

/// Type rule: returns the signature for the given argument types, or throws a
/// `DATATYPE_MISMATCH.*` SparkError naming the function (`sql_name`) and the bad argument.
using TypeRule = std::function<Signature(const std::vector<TypePtr>& args, const Config& conf)>;

/// What a type rule may know of an argument beyond its type: whether it may be null and, for a
/// literal, its value. Constructors need both: `array(a, b)` contains nulls only when an element
/// may be null, and `named_struct('x', v)` takes its field names from literals.
struct ArgInfo {
  TypePtr type;
  bool nullable = true;
  const Value* literal = nullptr;  // set only for literal arguments
  /// The name of an argument that is a column reference or an alias (arrays_zip names its
  /// struct fields after them); empty otherwise.
  std::string name;
};
using ArgTypeRule = std::function<Signature(const std::vector<ArgInfo>& args, const Config& conf)>;

class LambdaFunction;  // functions/lambda.h

/// The type and nullability of one lambda parameter.
struct LambdaParam {
  TypePtr type;
  bool nullable = true;
};

/// A higher-order function's binding of its lambda arguments: the parameters it passes to the
/// lambda at argument `lambda_arg` when that lambda declares `num_params` of them (transform
/// passes the element, and the index too to a two-parameter lambda). `args` are the call's
/// arguments (lambda arguments have a null type here). Throws DATATYPE_MISMATCH errors for
/// inputs of the wrong type; the analyzer compares the count with the lambda's.
using LambdaBinder =
    std::function<std::vector<LambdaParam>(const std::vector<ArgInfo>& args, size_t lambda_arg, size_t num_params)>;

/// A higher-order function's kernel: `args` are the evaluated arguments (null at lambda
/// positions), `lambdas` the lambda arguments in order, evaluated on demand over many bindings.
using HigherOrderKernel =
    std::function<ColumnPtr(const std::vector<ColumnPtr>& args, const std::vector<const LambdaFunction*>& lambdas,
                            int64_t num_rows, const Signature& sig, const EvalContext& ctx)>;

/// One Spark function: everything the engine needs to know about it, in one place.
/// A parameter of a function that takes arguments by name as well as by position
/// (`mask(s, digitChar => 'D')`), as Spark's signature of the function declares it.
struct Parameter {
  std::string name;
  /// The value Spark fills in for an optional parameter a call skips while naming a later one
  /// (null type: the parameter is required).
  Value default_value;
  TypePtr default_type;
  bool required() const { return default_type == nullptr; }
};

struct FunctionDef {
  std::string name;                  // canonical lower-case name (or operator symbol)
  std::vector<std::string> aliases;  // other names it is called by
  FunctionKind kind = FunctionKind::kScalar;
  int min_args = 0;
  int max_args = 0;  // -1 = variadic
  TypeRule type_rule;
  ArgTypeRule arg_type_rule;     // used instead of type_rule when set
  ScalarKernel kernel;           // scalar functions
  /// Higher-order functions (functions/lambda.h): how lambda arguments bind, and the kernel used
  /// when the call has lambda arguments (array_sort has both forms). Their type rule receives a
  /// lambda argument as the type and nullability of its body.
  LambdaBinder lambda_binder;
  HigherOrderKernel higher_order;
  /// Higher-order functions: arguments from this position on are lambdas (an expression given
  /// there is a lambda that ignores its parameters); lambdas missing from a call with fewer than
  /// `max_args` arguments are the identity (aggregate's finish).
  int first_lambda = -1;
  AggregateFactory aggregate;    // aggregate functions
  bool deterministic = true;
  /// The kernel reads where its rows sit in their Spark partition (functions/rand.h's
  /// PartitionContext): spark_partition_id, monotonically_increasing_id, rand and its kin.
  bool numbers_rows = false;
  /// An aggregate whose result depends on how Spark's tasks split its input: its state keeps
  /// one partial result per partition (read from the PartitionContext while it updates) and
  /// combines them as Spark's final aggregation does (percentile_approx). The engine runs each
  /// partition of its input whole on one thread, in order, as a Spark task reads it.
  bool follows_partitions = false;
  bool gpu_supported = false;    // a GPU kernel exists (the planner reads this)
  /// The kernel may raise a runtime error for some values (element_at out of bounds in ANSI
  /// mode), so conditional expressions must evaluate it only on the rows that reach it.
  bool may_throw = false;
  Display display = Display::kCall;
  /// Internal: reached only through the analyzer's rewrites (find_internal), never by name from
  /// SQL or the DataFrame API, and not listed by SHOW FUNCTIONS.
  bool internal = false;
  /// Arguments Spark requires to be constant (from_json's schema): the analyzer folds them to
  /// literals first, so an arg_type_rule sees their values.
  std::vector<int> constant_args;
  std::string display_name;      // name shown in column names: "+", "=", "AND", "sum"
  /// What DESCRIBE FUNCTION and Catalog.listFunctions show: the one-line description
  /// (`f(expr) - Returns ...`, written with the canonical name, which the text for an alias
  /// replaces), examples (a query and the result it shows, rows separated by newlines, columns
  /// by tabs) and the Spark version that introduced the function, for the extended form.
  std::string usage;
  std::vector<std::pair<std::string, std::string>> examples;
  std::string since;
  /// The family that registered the function (`string_basic`: the register_<family> entry
  /// point), set by the registry; DESCRIBE FUNCTION's `Class:` line names it.
  std::string family;
  /// Resolved by the analyzer or the parser before the registry is consulted (coalesce, if,
  /// CASE, casts by type name, generators, window functions): such a definition has no kernel;
  /// it exists so that SHOW FUNCTIONS lists the name and DESCRIBE FUNCTION describes it, as
  /// Spark does. `find` never returns it.
  bool special_form = false;
  /// Callable by name but not listed by SHOW FUNCTIONS, as in Spark: product (reached from the
  /// DataFrame API only), the subscript `[]`, and names Spark parses as syntax (timestampadd).
  bool unlisted = false;
  /// Spark's text for a call where it is not `name(a, b)`: special syntax (`s LIKE p`,
  /// `TRIM(BOTH c FROM s)`) or defaulted arguments it shows (`substring(s, 2, 2147483647)`).
  /// Receives the name the function was called by and the rendered arguments.
  std::function<std::string(const std::string& called, const std::vector<std::string>& args)>
      render;
  /// The parameters of a function whose Spark signature takes named arguments, required ones
  /// first; empty for the others (a named argument is then NAMED_PARAMETERS_NOT_SUPPORTED).
  std::vector<Parameter> parameters;
};

/// DESCRIBE FUNCTION's rows for `def` called `called`: `Function:`, `Class:` and `Usage:` lines
/// and, when `extended`, the `Extended Usage:` block (examples and version), in Spark's layout.
std::vector<std::string> describe_function(const FunctionDef& def, const std::string& called, bool extended);
/// The class name the catalog reports for a function: `ember.functions.<family>`, with
/// `aggregate.` before the family for aggregates, and `ember.plan.analyzer` for special forms.
std::string function_class_name(const FunctionDef& def);

/// UNRESOLVED_ROUTINE for a function name no catalog knows, as Spark words it.
[[noreturn]] void throw_unresolved_routine(const std::string& name);

/// Every function Ember knows, by name and alias (case-insensitive).
class Registry {
 public:
  static Registry& instance();
  void add(FunctionDef def);
  const FunctionDef* find(const std::string& name) const;
  /// An internal function (FunctionDef::internal) by name.
  const FunctionDef* find_internal(const std::string& name) const;
  /// The functions callable by name (internal ones and special forms left out).
  std::vector<const FunctionDef*> all() const;
  /// A function as the catalog knows it (DESCRIBE FUNCTION, Catalog.getFunction and
  /// functionExists): what `find` returns, and special forms too.
  const FunctionDef* find_listed(const std::string& name) const;
  /// The names and aliases of functions and special forms, unlisted ones left out, sorted: what
  /// SHOW FUNCTIONS and Catalog.listFunctions list.
  std::vector<std::string> names() const;
  /// Names close to `name`, for UNRESOLVED_ROUTINE suggestions.
  std::vector<std::string> similar(const std::string& name, size_t max = 5) const;

 private:
  Registry();
  std::vector<std::unique_ptr<FunctionDef>> defs_;
  std::string family_;  // the family being registered, copied into each FunctionDef::family
  std::vector<std::pair<std::string, const FunctionDef*>> index_;  // sorted by lower-case name
};

// Registration entry points, one per family (each in its own file).
void register_arithmetic(Registry& r);
void register_datetime_operators(Registry& r);
void register_comparison(Registry& r);
void register_logical(Registry& r);
void register_aggregates(Registry& r);
void register_misc(Registry& r);
void register_crypto(Registry& r);
void register_math(Registry& r);
void register_rand(Registry& r);
void register_statistical_aggregates(Registry& r);
void register_value_aggregates(Registry& r);
void register_logical_aggregates(Registry& r);
void register_regression_aggregates(Registry& r);
void register_percentile_aggregates(Registry& r);
void register_approx_percentile(Registry& r);
void register_string_basic(Registry& r);
void register_string_regexp(Registry& r);
void register_string_format(Registry& r);
void register_string_encode(Registry& r);
void register_string_misc(Registry& r);
void register_hash(Registry& r);
void register_conditional(Registry& r);
void register_datetime_fields(Registry& r);
void register_datetime_arith(Registry& r);
void register_datetime_format(Registry& r);
void register_datetime_time(Registry& r);
void register_collection_constructors(Registry& r);
void register_collection_access(Registry& r);
void register_array_functions(Registry& r);
void register_map_functions(Registry& r);
void register_arrays_zip(Registry& r);
void register_vector_functions(Registry& r);
void register_collect_aggregates(Registry& r);
void register_higher_order_arrays(Registry& r);
void register_higher_order_maps(Registry& r);
void register_json_functions(Registry& r);
void register_variant_functions(Registry& r);
void register_url_functions(Registry& r);
void register_reflect(Registry& r);
void register_csv_functions(Registry& r);
void register_input_file_functions(Registry& r);
void register_udt(Registry& r);
void register_special_forms(Registry& r);

/// A nondeterministic function of no arguments whose never-null value depends on where the
/// row is (its partition, its place there, the file it was read from), named `name()`.
FunctionDef row_numbering(const char* name, TypePtr type, ScalarKernel kernel, const char* usage);

/// Spark's implicit type widening for arithmetic and comparison (`findWiderTypeForTwo`); nullptr
/// when there is no common type. `ansi` selects ANSI mode's rules, which widen FLOAT beside an
/// integral type to DOUBLE (the legacy rules keep FLOAT).
TypePtr wider_type(const TypePtr& a, const TypePtr& b, bool ansi);
/// The common type Spark gives the branches of CASE WHEN, if, coalesce and the values of IN
/// (`findWiderCommonType`, one pair at a time): wider_type, then a STRING beside another atomic
/// type. ANSI mode casts the string to the other side (BIGINT beside an integral type, DOUBLE
/// beside a fractional one, the type itself otherwise, none beside an ANSI interval); the legacy
/// rules cast the other side to STRING (none beside BOOLEAN or BINARY). Arrays and maps apply
/// the rule to their elements, keys and values; nullptr when there is no common type.
TypePtr wider_common_type(const TypePtr& a, const TypePtr& b, bool ansi);
/// The SQL text of a call whose argument types are being checked, as Spark shows it in
/// DATATYPE_MISMATCH messages (`"bool_and(v)"`, `however "v" has the type "INT"`): the call as
/// its column would be named, and each argument's text. The analyzer sets it around a type rule
/// (CallTextScope); rules that only see types name them by their types otherwise.
struct CallText {
  std::string name;  // the function's canonical name
  std::string call;
  std::vector<std::string> args;
  std::vector<std::string> types_sql;  // each argument's type, as rules name it
  std::vector<bool> literal;
};

/// Makes `text` the current call text on this thread for the scope's lifetime.
class CallTextScope {
 public:
  explicit CallTextScope(const CallText* text);
  ~CallTextScope();
  CallTextScope(const CallTextScope&) = delete;
  CallTextScope& operator=(const CallTextScope&) = delete;
  static const CallText* current();

 private:
  const CallText* previous_;
};

/// A `DATATYPE_MISMATCH` error for a function call. Under a CallTextScope, the call named by its
/// argument types (`f(INT, STRING)`) and the type standing for an argument in `however "<T>" has
/// the type` / `however, got "<T>"` become the call's and the argument's SQL text, as in Spark.
[[noreturn]] void throw_type_mismatch(const std::string& sub_class, const std::string& message,
                                      const std::string& sql_expr);

}  // namespace ember::functions
