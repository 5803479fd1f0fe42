// The CSV sink: Spark's CSV writer options and quoting.

#include <memory>

#include "common/error.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "io/csv_write_format.h"
#include "io/datetime_format.h"
#include "io/output_file.h"
#include "io/sink_formats.h"
#include "io/value_text.h"

namespace ember::io {

namespace {

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
        append_csv_field(line, schema[i].name, o_);
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
          append_csv_null(line, o_);
          continue;
        }
        append_csv_field(line, text(col, r), o_);
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
      : o_(parse_csv_write_options(request.options, request.config)),
        compression_(text_compression(request.options)),
        date_(o_.date_format, o_.locale),
        ts_(o_.timestamp_format, o_.locale),
        ntz_(o_.timestamp_ntz_format, o_.locale) {
    for (const auto& f : schema) {
      if (f.type->is_nested() || f.type->id() == TypeId::kBinary || f.type->id() == TypeId::kNull ||
          f.type->id() == TypeId::kYearMonthInterval || f.type->id() == TypeId::kDayTimeInterval)
        unsupported_column_type("CSV", f);
    }
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
