// CSV functions: schema_of_csv, on the CSV source's own tokenizer, option parsing and type
// inference (io/csv_*), so a line reads here as it reads from a file.

#include <vector>

#include "common/error.h"
#include "common/timezone.h"
#include "functions/collection_util.h"
#include "functions/json_options.h"
#include "io/csv_infer.h"
#include "io/csv_options.h"
#include "io/csv_tokenizer.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

Signature schema_of_csv_rule(const Infos& a, const Config&) {
  const TypeId id = a[0].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input("schema_of_csv", types_of(a), 0, "\"STRING\"");
  const std::string sql = "schema_of_csv(" + a[0].type->sql() + ")";
  if (!a[0].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `csv` should be a foldable \"STRING\" expression; however, got \"" +
                            a[0].type->sql() + "\".",
                        sql);
  if (a[0].literal->is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The csv must not be null.", sql);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.never_null = true;
  sig.null_if_any_arg_null = false;
  return sig;
}

/// The STRUCT<_c0: T0, ...> Spark infers for one CSV line, every field's type inferred alone.
ColumnPtr schema_of_csv_kernel(const Args& a, int64_t n, const Signature&, const EvalContext& ctx) {
  const FunctionOptions opts = a.size() > 1 ? FunctionOptions(*a[1]) : FunctionOptions();
  const io::CsvOptions co = io::parse_csv_options(opts.io_options(), ctx.config);
  const io::CsvTokenizer tokenizer(co);
  const TimeZone& zone = TimeZone::get(co.time_zone.empty() ? ctx.time_zone : co.time_zone);
  const io::CsvTypeInference inference(co, zone);
  const std::string_view line = n > 0 && a[0]->is_valid(0) ? a[0]->string_at(0) : std::string_view();
  const int limit = static_cast<int>(co.max_columns);
  std::vector<io::CsvField> fields(64);
  int count = tokenizer.split_line(line.data(), line.data() + line.size(), fields.data(),
                                   static_cast<int>(fields.size()), limit);
  if (count > static_cast<int>(fields.size())) {
    fields.resize(static_cast<size_t>(count));
    count = tokenizer.split_line(line.data(), line.data() + line.size(), fields.data(), count, limit);
  }
  std::vector<StructField> out;
  std::string scratch;
  for (int i = 0; i < count; ++i) {
    const io::CsvField& f = fields[static_cast<size_t>(i)];
    io::InferredType t;
    if (!(f.flags & io::CsvField::kNull)) t = inference.infer(t, tokenizer.text(f, scratch));
    out.push_back({"_c" + std::to_string(i), t.to_type(), true, "{}"});
  }
  return Column::constant(DataType::string(), Value::bytes(DataType::struct_(std::move(out))->sql()), n);
}

}  // namespace

void register_csv_functions(Registry& r) {
  FunctionDef d = scalar_args("schema_of_csv", 1, 2, schema_of_csv_rule, schema_of_csv_kernel);
  d.constant_args = {0};
  d.may_throw = true;
  d.render = [](const std::string&, const std::vector<std::string>& args) { return "schema_of_csv(" + args[0] + ")"; };
  r.add(std::move(d));
}

}  // namespace ember::functions
