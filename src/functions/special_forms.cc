// The names Spark lists as functions that Ember resolves outside the registry: the analyzer's
// lazily evaluated conditionals, casts by type name, generators, window functions and grouping
// markers, session windows, and the parser's syntax (CASE, BETWEEN, IN, ||, EXTRACT). They are registered here
// only so that SHOW FUNCTIONS lists them and DESCRIBE FUNCTION describes them, as Spark does.

#include "functions/function.h"

#include <map>

namespace ember::functions {

namespace {

struct Form {
  const char* name;
  const char* usage;
  std::vector<std::pair<std::string, std::string>> examples = {};
  const char* since = "";
  /// Pure syntax (CASE, `||`, `<>`, `!=`): Spark describes it without a `Class:` line.
  bool syntax = false;
};

}  // namespace

void register_special_forms(Registry& r) {
  std::vector<Form> forms = {
      {"!=",
       "expr1 != expr2 - Returns true if `expr1` is not equal to `expr2`, or false otherwise.",
       {},
       "",
       true},
      {"<>",
       "expr1 <> expr2 - Returns true if `expr1` is not equal to `expr2`, or false otherwise.",
       {},
       "",
       true},
      {"||", "expr1 || expr2 - Returns the concatenation of `expr1` and `expr2`.", {}, "", true},
      {"between",
       "input [NOT] between lower AND upper - evaluate if `input` is [not] in between `lower` and "
       "`upper`"},
      {"in",
       "expr1 in(expr2, expr3, ...) - Returns true if `expr1` equals any of the other arguments."},
      {"case",
       "CASE expr1 WHEN expr2 THEN expr3 [WHEN expr4 THEN expr5]* [ELSE expr6] END - When `expr1` "
       "= `expr2`, "
       "returns `expr3`; when `expr1` = `expr4`, return `expr5`; else return `expr6`.",
       {},
       "",
       true},
      {"when",
       "CASE WHEN expr1 THEN expr2 [WHEN expr3 THEN expr4]* [ELSE expr5] END - When `expr1` = "
       "true, returns "
       "`expr2`; else when `expr3` = true, returns `expr4`; else returns `expr5`."},
      {"if",
       "if(expr1, expr2, expr3) - If `expr1` evaluates to true, then returns `expr2`; otherwise "
       "returns `expr3`.",
       {{"SELECT if(1 < 2, 'a', 'b')", "a"}},
       "1.0.0"},
      {"coalesce",
       "coalesce(expr1, expr2, ...) - Returns the first non-null argument if exists. Otherwise, "
       "null.",
       {{"SELECT coalesce(NULL, 1, NULL)", "1"}},
       "1.0.0"},
      {"ifnull",
       "ifnull(expr1, expr2) - Returns `expr2` if `expr1` is null, or `expr1` otherwise.",
       {{"SELECT ifnull(NULL, array('2'))", "[\"2\"]"}},
       "2.0.0"},
      {"nvl",
       "nvl(expr1, expr2) - Returns `expr2` if `expr1` is null, or `expr1` otherwise.",
       {{"SELECT nvl(NULL, array('2'))", "[\"2\"]"}},
       "2.0.0"},
      {"cast",
       "cast(expr AS type) - Casts the value `expr` to the target data type `type`.",
       {{"SELECT cast('10' as int)", "10"}}},
      {"extract",
       "extract(field FROM source) - Extracts a part of the date/timestamp or interval source.",
       {{"SELECT extract(YEAR FROM TIMESTAMP '2019-08-12 01:00:00.123456')", "2019"}},
       "3.0.0"},
      {"date_part",
       "date_part(field, source) - Extracts a part of the date/timestamp or interval source.",
       {{"SELECT date_part('YEAR', TIMESTAMP '2019-08-12 01:00:00.123456')", "2019"}},
       "3.0.0"},
      {"datepart",
       "datepart(field, source) - Extracts a part of the date, time, timestamp, or interval "
       "source.",
       {{"SELECT datepart('YEAR', TIMESTAMP '2019-08-12 01:00:00.123456')", "2019"},
        {"SELECT datepart('doy', DATE'2019-08-12')", "224"}},
       "3.4.0"},
      {"struct", "struct(col1, col2, col3, ...) - Creates a struct with the given field values."},
      {"window",
       "window(time_column, window_duration[, slide_duration[, start_time]]) - Bucketize rows into "
       "one or more "
       "time windows given a timestamp specifying column."},
      {"session_window",
       "session_window(time_column, gap_duration) - Generates session window given a timestamp "
       "specifying column "
       "and gap duration.",
       {},
       "3.2.0"},
      {"range",
       "range(start[, end[, step[, numSlices]]]) / range(end) - Returns a table of values within a "
       "specified range."},
      {"explode",
       "explode(expr) - Separates the elements of array `expr` into multiple rows, or the elements "
       "of map "
       "`expr` into multiple rows and columns.",
       {{"SELECT explode(array(10, 20))", "10\n20"}},
       "1.0.0"},
      {"explode_outer",
       "explode_outer(expr) - Separates the elements of array `expr` into multiple rows, or the "
       "elements of map "
       "`expr` into multiple rows and columns; a null or empty `expr` gives one row of nulls."},
      {"posexplode",
       "posexplode(expr) - Separates the elements of array `expr` into multiple rows with "
       "positions, "
       "or the elements of map `expr` into multiple rows and columns with positions.",
       {{"SELECT posexplode(array(10, 20))", "0\t10\n1\t20"}},
       "2.0.0"},
      {"posexplode_outer",
       "posexplode_outer(expr) - Separates the elements of array `expr` into multiple rows with "
       "positions; a null "
       "or empty `expr` gives one row of nulls."},
      {"inline",
       "inline(expr) - Explodes an array of structs into a table.",
       {{"SELECT inline(array(struct(1, 'a'), struct(2, 'b')))", "1\ta\n2\tb"}},
       "2.0.0"},
      {"inline_outer",
       "inline_outer(expr) - Explodes an array of structs into a table; a null or empty `expr` "
       "gives one row of "
       "nulls."},
      {"stack",
       "stack(n, expr1, ..., exprk) - Separates `expr1`, ..., `exprk` into `n` rows.",
       {{"SELECT stack(2, 1, 2, 3)", "1\t2\n3\tNULL"}},
       "2.0.0"},
      {"variant_explode",
       "variant_explode(expr) - Separates a variant object into one row per field (its position, "
       "key and "
       "value) or a variant array into one row per element (its position and value, no key); other "
       "variants "
       "give no rows. A table-valued function."},
      {"variant_explode_outer",
       "variant_explode_outer(expr) - As variant_explode, but a null variant, or one that is not "
       "an object or an "
       "array, gives one row of nulls."},
      {"sql_keywords",
       "sql_keywords() - Lists the keywords of Spark SQL and whether each is reserved. A "
       "table-valued function."},
      {"collations",
       "collations() - Lists the supported collations with their locale, sensitivities and pad "
       "attribute. A table-valued function."},
      {"json_tuple",
       "json_tuple(jsonStr, p1, p2, ..., pn) - Returns a tuple like the function get_json_object, "
       "but it takes multiple names. All the input parameters and output column types are string."},
      {"current_catalog",
       "current_catalog() - Returns the current catalog.",
       {{"SELECT current_catalog()", "spark_catalog"}},
       "3.1.0"},
      {"current_database",
       "current_database() - Returns the current database.",
       {{"SELECT current_database()", "default"}},
       "1.6.0"},
      {"current_schema",
       "current_schema() - Returns the current database.",
       {{"SELECT current_schema()", "default"}},
       "3.4.0"},
      {"grouping",
       "grouping(col) - indicates whether a specified column in a GROUP BY is aggregated or not, "
       "returns "
       "1 for aggregated or 0 for not aggregated in the result set."},
      {"grouping_id", "grouping_id([col1[, col2 ..]]) - returns the level of grouping."},
      {"row_number",
       "row_number() - Assigns a unique, sequential number to each row, starting with one, "
       "according "
       "to the ordering of rows within the window partition."},
      {"rank",
       "rank() - Computes the rank of a value in a group of values. Rows that tie share a rank, "
       "and the "
       "ranks after them skip."},
      {"dense_rank",
       "dense_rank() - Computes the rank of a value in a group of values, without gaps after "
       "ties."},
      {"percent_rank",
       "percent_rank() - Computes the percentage ranking of a value in a group of values."},
      {"cume_dist",
       "cume_dist() - Computes the position of a value relative to all values in the partition."},
      {"ntile",
       "ntile(n) - Divides the rows for each window partition into `n` buckets ranging from 1 to "
       "at most "
       "`n`."},
      {"lag",
       "lag(input[, offset[, default]]) - Returns the value of `input` at the `offset`th row "
       "before the "
       "current row in the window, or `default` when there is no such row."},
      {"lead",
       "lead(input[, offset[, default]]) - Returns the value of `input` at the `offset`th row "
       "after the "
       "current row in the window, or `default` when there is no such row."},
      {"nth_value",
       "nth_value(input[, offset]) - Returns the value of `input` at the row that is the "
       "`offset`th row "
       "from beginning of the window frame."},
      {"counter_diff",
       "counter_diff(value [, start_time]) - Computes the differences between consecutive "
       "cumulative "
       "counter values in a time series, thereby converting the counter from the cumulative to the "
       "delta format."},
  };
  const std::pair<const char*, const char*> casts[] = {
      {"bigint", "BIGINT"}, {"binary", "BINARY"}, {"boolean", "BOOLEAN"}, {"date", "DATE"},
      {"decimal", "DECIMAL"}, {"double", "DOUBLE"}, {"float", "FLOAT"}, {"int", "INT"},
      {"smallint", "SMALLINT"}, {"string", "STRING"}, {"time", "TIME"}, {"timestamp", "TIMESTAMP"},
      {"tinyint", "TINYINT"}};
  // The special forms whose Spark signatures take named arguments.
  const std::map<std::string, std::vector<Parameter>> parameters = {
      {"explode", {{"collection"}}},     {"explode_outer", {{"collection"}}},
      {"posexplode", {{"collection"}}},  {"posexplode_outer", {{"collection"}}},
      {"inline", {{"input"}}},           {"inline_outer", {{"input"}}},
      {"counter_diff", {{"value"}, {"start_time", Value(), DataType::null()}}}};
  for (const Form& f : forms) {
    FunctionDef d;
    d.name = f.name;
    if (auto it = parameters.find(f.name); it != parameters.end()) d.parameters = it->second;
    d.usage = f.usage;
    d.examples = f.examples;
    d.since = f.since;
    if (!f.syntax) d.family = "analyzer";
    d.special_form = true;
    r.add(std::move(d));
  }
  for (const auto& [name, type] : casts) {
    FunctionDef d;
    d.name = name;
    d.usage = std::string(name) + "(expr) - Casts the value `expr` to the target data type `" + type + "`.";
    d.family = "analyzer";
    d.special_form = true;
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
