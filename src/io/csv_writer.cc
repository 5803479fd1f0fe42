// The CSV sink: Spark's CSV writer options and quoting.

#include <memory>

#include "common/error.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "io/datetime_format.h"
#include "io/output_file.h"
#include "io/sink_formats.h"
#include "io/value_text.h"

namespace ember::io {

namespace {

struct CsvWriteOptions {
  std::string sep = ",";
  char quote = '"';
  char escape = '\\';
  bool quote_all = false;
  bool escape_quotes = true;
  bool header = false;
  bool trim_leading = true;   // ignoreLeadingWhiteSpace: true when writing
  bool trim_trailing = true;  // ignoreTrailingWhiteSpace: true when writing
  std::string null_value;
  std::string empty_value;    // emptyValue: `""` (two quote characters) when writing
  std::string line_sep = "\n";
  std::string time_zone = "UTC";
};

char single_char(const Options& o, const std::string& key, char fallback) {
  if (!o.has(key)) return fallback;
  const std::string v = o.get(key);
  if (v.empty()) return '\0';
  if (v.size() == 1) return v[0];
  if (v == "\\t") return '\t';
  throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3011",
                   "Unsupported special character for delimiter: " + v, {{"str", v}});
}

class CsvFileWriter final : public FileWriter {
 public:
  CsvFileWriter(const std::string& path, arrow::Compression::type codec, const Schema& schema,
                const CsvWriteOptions& o, const DateTimeFormatter& date,
                const DateTimeFormatter& ts, const DateTimeFormatter& ntz)
      : out_(path, codec), schema_(schema), o_(o), date_(date), ts_(ts), ntz_(ntz),
        zone_(TimeZone::get(o.time_zone)) {
    if (o_.header) {
      std::string line;
      for (size_t i = 0; i < schema.size(); ++i) {
        if (i) line += o_.sep;
        append_field(line, schema[i].name);
      }
      line += o_.line_sep;
      out_.write(line);
    }
  }

  void write(const Batch& batch) override {
    std::string line;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      line.clear();
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        if (c) line += o_.sep;
        const Column& col = *batch.columns[c];
        if (col.is_null(r)) {
          if (o_.quote_all) line += o_.quote;
          line += o_.null_value;
          if (o_.quote_all) line += o_.quote;
          continue;
        }
        append_field(line, text(col, r));
      }
      line += o_.line_sep;
      out_.write(line);
    }
  }

  void close() override { out_.close(); }

 private:
  std::string text(const Column& col, int64_t r) const {
    switch (col.type()->id()) {
      case TypeId::kDate: return date_.format_date(col.values<int32_t>()[r]);
      case TypeId::kTimestamp: return ts_.format_timestamp(col.values<int64_t>()[r], zone_);
      case TypeId::kTimestampNtz: return ntz_.format_timestamp_ntz(col.values<int64_t>()[r]);
      default: return value_text(col, r, o_.time_zone);
    }
  }

  void append_field(std::string& line, std::string_view v) const {
    if (o_.trim_leading)
      while (!v.empty() && static_cast<unsigned char>(v.front()) <= ' ') v.remove_prefix(1);
    if (o_.trim_trailing)
      while (!v.empty() && static_cast<unsigned char>(v.back()) <= ' ') v.remove_suffix(1);
    if (v.empty()) {
      line += o_.empty_value;
      return;
    }
    bool quote = o_.quote_all;
    if (!quote && o_.quote != '\0') {
      for (char ch : v) {
        if (ch == o_.quote || ch == '\n' || ch == '\r' ||
            (!o_.sep.empty() && ch == o_.sep[0])) {
          quote = true;
          break;
        }
      }
    }
    if (!quote) {
      line.append(v);
      return;
    }
    line += o_.quote;
    for (char ch : v) {
      if (ch == o_.quote && o_.escape_quotes) line += o_.escape;
      line += ch;
    }
    line += o_.quote;
  }

  OutputFile out_;
  Schema schema_;
  const CsvWriteOptions& o_;
  const DateTimeFormatter& date_;
  const DateTimeFormatter& ts_;
  const DateTimeFormatter& ntz_;
  const TimeZone& zone_;
};

class CsvSink final : public SinkFormat {
 public:
  CsvSink(const WriteRequest& request, const Schema& schema)
      : compression_(text_compression(request.options)),
        date_(request.options.get("dateFormat", "yyyy-MM-dd")),
        ts_(request.options.get("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")),
        ntz_(request.options.get("timestampNTZFormat", "yyyy-MM-dd'T'HH:mm:ss[.SSS]")) {
    const Options& opt = request.options;
    for (const auto& f : schema) {
      if (f.type->is_nested() || f.type->id() == TypeId::kBinary || f.type->id() == TypeId::kNull ||
          f.type->id() == TypeId::kYearMonthInterval || f.type->id() == TypeId::kDayTimeInterval)
        unsupported_column_type("CSV", f);
    }
    if (opt.has("sep") || opt.has("delimiter")) {
      o_.sep = opt.get("sep", opt.get("delimiter"));
      if (o_.sep == "\\t") o_.sep = "\t";
      if (o_.sep.empty()) {
        throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3012",
                         "Delimiter cannot be empty string");
      }
    }
    o_.quote = single_char(opt, "quote", '"');
    o_.escape = single_char(opt, "escape", '\\');
    o_.quote_all = opt.get_bool("quoteAll", false);
    o_.escape_quotes = opt.get_bool("escapeQuotes", true);
    o_.header = opt.get_bool("header", false);
    o_.trim_leading = opt.get_bool("ignoreLeadingWhiteSpace", true);
    o_.trim_trailing = opt.get_bool("ignoreTrailingWhiteSpace", true);
    o_.null_value = opt.get("nullValue", "");
    o_.empty_value = opt.get("emptyValue", std::string(2, o_.quote));
    o_.line_sep = opt.get("lineSep", "\n");
    if (request.config) o_.time_zone = request.config->session_time_zone();
    o_.time_zone = opt.get("timeZone", o_.time_zone);
  }

  std::string extension() const override { return ".csv" + compression_.suffix; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const override {
    return std::make_unique<CsvFileWriter>(path, compression_.codec, schema, o_, date_, ts_, ntz_);
  }

 private:
  CsvWriteOptions o_;
  TextCompression compression_;
  DateTimeFormatter date_, ts_, ntz_;
};

}  // namespace

void unsupported_column_type(const std::string& format, const StructField& field) {
  throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                   "The " + format + " datasource doesn't support the column " + quote_id(field.name) +
                       " of the type \"" + field.type->sql() + "\".",
                   {{"format", format}, {"columnName", quote_id(field.name)},
                    {"columnType", "\"" + field.type->sql() + "\""}},
                   "0A000");
}

std::unique_ptr<SinkFormat> make_csv_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<CsvSink>(request, schema);
}

}  // namespace ember::io
