// The JSON sink: JSON Lines as Spark's JacksonGenerator writes them.

#include <memory>

#include "common/error.h"
#include "common/json.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "io/json_values.h"
#include "io/output_file.h"
#include "io/sink_formats.h"
#include "io/value_text.h"

namespace ember::io {

namespace {

class JsonFileWriter final : public FileWriter {
 public:
  JsonFileWriter(const std::string& path, arrow::Compression::type codec, const Schema& schema,
                 const JsonValueWriter::Options& o, std::string line_sep)
      : out_(path, codec), schema_(schema), writer_(o), line_sep_(std::move(line_sep)) {}

  void write(const Batch& batch) override {
    std::string line;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      line.clear();
      writer_.append_fields(line, schema_, batch.columns, r);
      line += line_sep_;
      out_.write(line);
    }
  }

  void close() override { out_.close(); }

 private:
  OutputFile out_;
  Schema schema_;
  JsonValueWriter writer_;
  std::string line_sep_;
};

class JsonSink final : public SinkFormat {
 public:
  JsonSink(const WriteRequest& request, const Schema& schema) : compression_(text_compression(request.options)) {
    for (const auto& f : schema) {
      if (f.type->id() == TypeId::kYearMonthInterval || f.type->id() == TypeId::kDayTimeInterval)
        unsupported_column_type("JSON", f);
    }
    const bool conf_ignore =
        request.config ? request.config->get_bool("spark.sql.jsonGenerator.ignoreNullFields", true) : true;
    o_.ignore_null_fields = request.options.get_bool("ignoreNullFields", conf_ignore);
    o_.date_format = request.options.get("dateFormat", o_.date_format);
    o_.timestamp_format = request.options.get("timestampFormat", o_.timestamp_format);
    o_.timestamp_ntz_format = request.options.get("timestampNTZFormat", o_.timestamp_ntz_format);
    o_.locale = locale_option(request.options);
    line_sep_ = request.options.get("lineSep", "\n");
    if (request.config) o_.time_zone = request.config->session_time_zone();
    o_.time_zone = request.options.get("timeZone", o_.time_zone);
    JsonValueWriter check(o_);  // bad patterns fail here, before any file is opened
  }

  std::string extension() const override { return ".json" + compression_.suffix; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const override {
    return std::make_unique<JsonFileWriter>(path, compression_.codec, schema, o_, line_sep_);
  }

 private:
  JsonValueWriter::Options o_;
  std::string line_sep_;
  TextCompression compression_;
};

}  // namespace

std::unique_ptr<SinkFormat> make_json_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<JsonSink>(request, schema);
}

}  // namespace ember::io
