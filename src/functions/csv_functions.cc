// CSV functions: schema_of_csv, from_csv and to_csv, on the CSV source's own tokenizer, option
// parsing, value conversion and type inference (io/csv_*) and the CSV writer's quoting
// (io/csv_write_format), so a line reads and writes here as it does in a file.

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <vector>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "functions/cast.h"
#include "functions/collection_util.h"
#include "functions/json_options.h"
#include "functions/string_util.h"
#include "io/column_writer.h"
#include "io/csv_infer.h"
#include "io/csv_options.h"
#include "io/csv_tokenizer.h"
#include "io/csv_values.h"
#include "io/csv_write_format.h"
#include "io/datetime_format.h"
#include "io/value_text.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Infos = std::vector<ArgInfo>;

/// The options as the CSV option parser reads them. The functions read and write strings, not
/// bytes, so an encoding the source accepts but does not decode (UTF-16, UTF-32) is no concern
/// of theirs, nor is the line separator of the one record they read; an unknown encoding is
/// still an error.
io::Options csv_io_options(const std::string& fn, const FunctionOptions& opts) {
  std::map<std::string, std::string> m = opts.io_options().all();
  for (const char* key : {"encoding", "charset"}) {
    auto it = m.find(key);
    if (it == m.end()) continue;
    const std::string e = ascii_lower(it->second);
    if (e == "utf-16" || e == "utf-16be" || e == "utf-16le" || e == "utf-32") m.erase(it);
  }
  auto line_sep = m.find("linesep");
  if (line_sep != m.end()) {
    if (fn == "to_csv" && line_sep->second.empty()) io::throw_empty_line_separator();
    m.erase(line_sep);
  }
  return io::Options(m);
}

/// Splits one CSV line. The parser's own failure (an unescaped quote with
/// unescapedQuoteHandling=RAISE_ERROR) reaches the query as Spark's parser exception does,
/// without an error class.
int split_csv_line(const io::CsvTokenizer& tokenizer, std::string_view line, io::CsvField* out,
                   int capacity, int limit) {
  try {
    return tokenizer.split_line(line.data(), line.data() + line.size(), out, capacity, limit);
  } catch (const io::CsvSyntaxError& e) {
    throw SparkError(ErrorKind::kRuntime, "", e.what());
  }
}

// ---- schema_of_csv --------------------------------------------------------------------------

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
  const FunctionOptions opts = options_at(a, 1);
  const io::CsvOptions co = io::parse_csv_options(csv_io_options("schema_of_csv", opts), ctx.config);
  const io::CsvTokenizer tokenizer(co);
  const TimeZone& zone = TimeZone::get(co.time_zone.empty() ? ctx.time_zone : co.time_zone);
  const io::CsvTypeInference inference(co, zone);
  const std::string_view line = n > 0 && a[0]->is_valid(0) ? a[0]->string_at(0) : std::string_view();
  const int limit = static_cast<int>(co.max_columns);
  std::vector<io::CsvField> fields(64);
  int count = split_csv_line(tokenizer, line, fields.data(),
                                   static_cast<int>(fields.size()), limit);
  if (count > static_cast<int>(fields.size())) {
    fields.resize(static_cast<size_t>(count));
    count = split_csv_line(tokenizer, line, fields.data(), count, limit);
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

// ---- from_csv -------------------------------------------------------------------------------

Signature from_csv_rule(const Infos& a, const Config&) {
  const TypeId id = a[0].type->id();
  if (id != TypeId::kString && id != TypeId::kNull) throw_unexpected_input("from_csv", types_of(a), 0, "\"STRING\"");
  const ArgInfo& s = a[1];
  TypePtr schema = schema_argument(s);
  if (schema->id() != TypeId::kStruct) {
    throw SparkError(ErrorKind::kAnalysis, "INVALID_SCHEMA.NON_STRUCT_TYPE",
                     "The input schema \"" + s.literal->as_bytes() +
                         "\" is not a valid schema string. The input expression should be evaluated to struct type, "
                         "but got \"" + schema->sql() + "\".",
                     {{"inputSchema", "\"" + s.literal->as_bytes() + "\""}, {"dataType", "\"" + schema->sql() + "\""}},
                     "42K07");
  }
  require_options_map(a, 2);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = as_nullable(schema);
  return sig;
}

/// What Spark shows of a record FAILFAST rejects: the values parsed so far, as its row prints.
std::string partial_row_text(const std::vector<ColumnPtr>& done) {
  std::string out = "[";
  for (size_t j = 0; j < done.size(); ++j) {
    if (j) out += ',';
    const Column& c = *done[j];
    if (c.is_null(0)) {
      out += "null";
    } else if (c.type()->id() == TypeId::kDate || c.type()->id() == TypeId::kTimestamp ||
               c.type()->id() == TypeId::kTimestampNtz) {
      out += std::to_string(c.value_at(0).as_int());
    } else {
      out += io::value_text(c, 0, "UTC");
    }
  }
  return out + "]";
}

ColumnPtr from_csv_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const FunctionOptions opts = options_at(a, 2);
  const io::CsvOptions co = io::parse_csv_options(csv_io_options("from_csv", opts), ctx.config);
  if (co.mode == io::ParseMode::kDropMalformed) throw_parse_mode_unsupported("from_csv", "DROPMALFORMED");
  const bool failfast = co.mode == io::ParseMode::kFailFast;
  const TypePtr& type = sig.result_type;
  const auto& fields = type->fields();

  // The corrupt-record column takes no field of the record; the others take them in order.
  std::vector<int> token_of(fields.size(), -1);
  std::vector<io::CsvValueConverter::Target> targets(fields.size());
  int corrupt = -1, num_data = 0;
  for (size_t j = 0; j < fields.size(); ++j) {
    const StructField& f = fields[j];
    if (f.name == co.corrupt_column) {
      if (f.type->id() != TypeId::kString)
        throw SparkError(ErrorKind::kAnalysis, "INVALID_CORRUPT_RECORD_TYPE",
                         "The column " + quote_id(f.name) + " for corrupt records must have the nullable STRING type, "
                         "but got \"" + f.type->sql() + "\".",
                         {{"columnName", quote_id(f.name)}, {"actualType", "\"" + f.type->sql() + "\""}}, "42804");
      corrupt = static_cast<int>(j);
      continue;
    }
    if (!io::CsvValueConverter::supports(*f.type))
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_DATATYPE",
                       "Unsupported data type \"" + f.type->sql() + "\".",
                       {{"typeName", "\"" + f.type->sql() + "\""}}, "0A000");
    targets[j] = io::CsvValueConverter::target_of(f);
    token_of[j] = num_data++;
  }

  const io::CsvTokenizer tokenizer(co);
  const TimeZone& zone = TimeZone::get(co.time_zone.empty() ? ctx.time_zone : co.time_zone);
  const io::CsvValueConverter converter(co, zone);
  const int limit = co.max_columns >= INT_MAX ? INT_MAX : static_cast<int>(co.max_columns) + 1;
  std::vector<io::ColumnWriter> writers;
  writers.reserve(fields.size());
  for (const auto& f : fields) writers.emplace_back(f.type, n);
  std::vector<io::CsvField> tokens(static_cast<size_t>(std::max(num_data, 1)));
  std::string scratch;
  const Column& in = *a[0];
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i)) {
      for (auto& w : writers) w.append_null();
      continue;
    }
    const std::string_view line = in.string_at(i);
    // An empty string and a comment line hold no record: a malformed one whose fields are all
    // null, with no text for the corrupt-record column.
    if (line.empty() || (co.comment != '\0' && line.front() == co.comment)) {
      if (failfast) {
        std::string nulls;
        for (int k = 0; k < num_data; ++k) nulls += k ? ",null" : "null";
        throw_failfast("[" + nulls + "]");
      }
      for (auto& w : writers) w.append_null();
      continue;
    }
    int count = split_csv_line(tokenizer, line, tokens.data(),
                                     static_cast<int>(tokens.size()), limit);
    if (count > co.max_columns) io::throw_malformed_csv_record(line);
    bool bad = count != num_data;
    for (size_t j = 0; j < fields.size(); ++j) {
      const int t = token_of[j];
      io::ColumnWriter& w = writers[j];
      if (t < 0) continue;
      if (t >= count) {
        w.append_null();
        continue;
      }
      const io::CsvField& f = tokens[static_cast<size_t>(t)];
      if (f.flags & io::CsvField::kNull) {
        w.append_null();
        continue;
      }
      const std::string_view v = tokenizer.text(f, scratch);
      if (co.too_long(v)) io::throw_malformed_csv_record(line);
      if (converter.is_null_text(v)) {
        w.append_null();
      } else if (!converter.convert(targets[j], v, w)) {
        w.append_null();
        bad = true;
      }
    }
    if (bad && failfast) {
      std::vector<ColumnPtr> row;
      for (size_t j = 0; j < fields.size(); ++j) {
        if (static_cast<int>(j) == corrupt) continue;
        row.push_back(slice(writers[j].finish(), i, 1));
      }
      throw_failfast(partial_row_text(row));
    }
    if (corrupt >= 0) {
      if (bad) writers[static_cast<size_t>(corrupt)].append_string(line);
      else writers[static_cast<size_t>(corrupt)].append_null();
    }
  }
  std::vector<ColumnPtr> children;
  children.reserve(writers.size());
  for (auto& w : writers) children.push_back(w.finish());
  BufferPtr validity = in.may_have_nulls() ? in.validity_buffer() : nullptr;
  if (in.type()->id() == TypeId::kNull) validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  return Column::make(type, n, validity, nullptr, nullptr, std::move(children));
}

// ---- to_csv ---------------------------------------------------------------------------------

bool has_variant(const DataType& t) {
  switch (t.id()) {
    case TypeId::kVariant: return true;
    case TypeId::kArray: return has_variant(*t.element_type());
    case TypeId::kMap: return has_variant(*t.key_type()) || has_variant(*t.value_type());
    case TypeId::kStruct:
      for (const auto& f : t.fields())
        if (has_variant(*f.type)) return true;
      return false;
    default: return false;
  }
}

Signature to_csv_rule(const Infos& a, const Config&) {
  const TypePtr& t = a[0].type;
  if ((t->id() != TypeId::kStruct && t->id() != TypeId::kNull) || has_variant(*t))
    throw_type_mismatch("UNSUPPORTED_INPUT_TYPE", "The input of `to_csv` can't be \"" + t->sql() + "\" type data.",
                        "to_csv(" + t->sql() + ")");
  require_options_map(a, 1);
  Signature sig;
  for (auto& i : a) sig.arg_types.push_back(i.type);
  sig.result_type = DataType::string();
  sig.may_introduce_null = true;
  return sig;
}

/// Writes values as the CSV writer shows them: dates and timestamps with its formats,
/// binary as hex bytes, and nested values in Spark's string form with nulls left empty.
class CsvValueText {
 public:
  explicit CsvValueText(const io::CsvWriteOptions& o)
      : date_(o.date_format, o.locale), ts_(o.timestamp_format, o.locale), ntz_(o.timestamp_ntz_format, o.locale),
        zone_(TimeZone::get(o.time_zone)) {}

  void append(std::string& out, const Value& v, const DataType& t) const {
    if (v.is_null()) return;
    switch (t.id()) {
      case TypeId::kBoolean: out += v.as_bool() ? "true" : "false"; return;
      case TypeId::kByte:
      case TypeId::kShort:
      case TypeId::kInt:
      case TypeId::kLong: out += std::to_string(v.as_int()); return;
      case TypeId::kFloat: out += format_float(static_cast<float>(v.as_double())); return;
      case TypeId::kDouble: out += format_double(v.as_double()); return;
      case TypeId::kDecimal: out += decimal_to_string(v.as_decimal(), t.scale()); return;
      case TypeId::kString: out += v.as_bytes(); return;
      case TypeId::kBinary: {
        static const char* kHex = "0123456789ABCDEF";
        out += '[';
        const std::string& b = v.as_bytes();
        for (size_t i = 0; i < b.size(); ++i) {
          if (i) out += ' ';
          const auto c = static_cast<unsigned char>(b[i]);
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        }
        out += ']';
        return;
      }
      case TypeId::kDate: out += date_.format_date(static_cast<int32_t>(v.as_int())); return;
      case TypeId::kTimestamp: out += ts_.format_timestamp(v.as_int(), zone_); return;
      case TypeId::kTimestampNtz: out += ntz_.format_timestamp_ntz(v.as_int()); return;
      case TypeId::kTime: out += format_time(v.as_int()); return;
      case TypeId::kDayTimeInterval: out += format_day_time_interval(v.as_int(), t.start_field(), t.end_field()); return;
      case TypeId::kYearMonthInterval: out += year_month_interval_text(v.as_int(), t.start_field(), t.end_field()); return;
      case TypeId::kArray: {
        out += '[';
        const auto& items = v.as_list();
        for (size_t i = 0; i < items.size(); ++i) separated(out, i, items[i], *t.element_type());
        out += ']';
        return;
      }
      case TypeId::kMap: {
        out += '{';
        const auto& entries = v.as_list();
        for (size_t i = 0; i < entries.size(); ++i) {
          if (i) out += ", ";
          const auto& kv = entries[i].as_list();
          append(out, kv[0], *t.key_type());
          out += " ->";
          if (!kv[1].is_null()) out += ' ';
          append(out, kv[1], *t.value_type());
        }
        out += '}';
        return;
      }
      case TypeId::kStruct: {
        out += '{';
        const auto& items = v.as_list();
        for (size_t i = 0; i < items.size(); ++i) separated(out, i, items[i], *t.fields()[i].type);
        out += '}';
        return;
      }
      default: break;
    }
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_DATATYPE",
                     "Unsupported data type \"" + t.sql() + "\".", {{"typeName", "\"" + t.sql() + "\""}}, "0A000");
  }

 private:
  /// Element i of an array or struct: after the first, a comma and, unless null, a space.
  void separated(std::string& out, size_t i, const Value& v, const DataType& t) const {
    if (i) out += v.is_null() ? "," : ", ";
    append(out, v, t);
  }

  io::DateTimeFormatter date_, ts_, ntz_;
  const TimeZone& zone_;
};

ColumnPtr to_csv_kernel(const Args& a, int64_t n, const Signature&, const EvalContext& ctx) {
  const FunctionOptions opts = options_at(a, 1);
  const io::CsvWriteOptions o = io::parse_csv_write_options(csv_io_options("to_csv", opts), ctx.config);
  const CsvValueText text(o);
  const Column& in = *a[0];
  ColumnBuilder b(DataType::string(), n);
  if (in.type()->id() == TypeId::kNull) {
    for (int64_t i = 0; i < n; ++i) b.append_null();
    return b.finish();
  }
  const auto& children = in.children();
  const auto& fields = in.type()->fields();
  std::string line, value;
  for (int64_t i = 0; i < n; ++i) {
    if (in.is_null(i)) {
      b.append_null();
      continue;
    }
    line.clear();
    for (size_t c = 0; c < children.size(); ++c) {
      if (c) line += o.sep;
      const Column& col = *children[c];
      if (fields[c].type->id() == TypeId::kNull || col.is_null(i)) {
        io::append_csv_null(line, o);
        continue;
      }
      value.clear();
      text.append(value, col.value_at(i), *fields[c].type);
      io::append_csv_field(line, value, o);
    }
    b.append_bytes(line);
  }
  return b.finish();
}

std::string render_first(const std::string& name, const std::vector<std::string>& args) {
  return name + "(" + args[0] + ")";
}

}  // namespace

void register_csv_functions(Registry& r) {
  FunctionDef d = scalar_args("schema_of_csv", 1, 2, schema_of_csv_rule, schema_of_csv_kernel);
  d.constant_args = {0};
  d.may_throw = true;
  d.render = [](const std::string&, const std::vector<std::string>& args) { return render_first("schema_of_csv", args); };
  r.add(std::move(d));

  FunctionDef from_csv = scalar_args("from_csv", 2, 3, from_csv_rule, from_csv_kernel);
  from_csv.constant_args = {1};
  from_csv.may_throw = true;
  from_csv.render = [](const std::string&, const std::vector<std::string>& args) { return render_first("from_csv", args); };
  r.add(std::move(from_csv));

  FunctionDef to_csv = scalar_args("to_csv", 1, 2, to_csv_rule, to_csv_kernel);
  to_csv.may_throw = true;
  to_csv.render = [](const std::string&, const std::vector<std::string>& args) { return render_first("to_csv", args); };
  r.add(std::move(to_csv));
}

}  // namespace ember::functions
