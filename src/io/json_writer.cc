// The JSON sink: JSON Lines as Spark's JacksonGenerator writes them.

#include <memory>

#include "common/error.h"
#include "common/json.h"
#include "common/number_format.h"
#include "common/timezone.h"
#include "io/datetime_format.h"
#include "io/output_file.h"
#include "io/sink_formats.h"
#include "io/value_text.h"

namespace ember::io {

namespace {

struct JsonWriteOptions {
  bool ignore_null_fields = true;
  std::string line_sep = "\n";
  std::string time_zone = "UTC";
};

void append_json_string(std::string& out, std::string_view s) { json_quote(out, s, /*upper_hex=*/true); }

void append_base64(std::string& out, std::string_view s) {
  static const char* kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out += '"';
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(s[i]) << 16) | (static_cast<uint8_t>(s[i + 1]) << 8) |
                       static_cast<uint8_t>(s[i + 2]);
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += kChars[(v >> 6) & 63];
    out += kChars[v & 63];
  }
  if (i < s.size()) {
    uint32_t v = static_cast<uint8_t>(s[i]) << 16;
    if (i + 1 < s.size()) v |= static_cast<uint8_t>(s[i + 1]) << 8;
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += i + 1 < s.size() ? kChars[(v >> 6) & 63] : '=';
    out += '=';
  }
  out += '"';
}

class JsonFileWriter final : public FileWriter {
 public:
  JsonFileWriter(const std::string& path, arrow::Compression::type codec, const Schema& schema,
                 const JsonWriteOptions& o, const DateTimeFormatter& date,
                 const DateTimeFormatter& ts, const DateTimeFormatter& ntz)
      : out_(path, codec), schema_(schema), o_(o), date_(date), ts_(ts), ntz_(ntz),
        zone_(TimeZone::get(o.time_zone)) {}

  void write(const Batch& batch) override {
    std::string line;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      line.clear();
      append_fields(line, schema_, batch.columns, r);
      line += o_.line_sep;
      out_.write(line);
    }
  }

  void close() override { out_.close(); }

 private:
  void append_fields(std::string& out, const std::vector<StructField>& fields,
                     const std::vector<ColumnPtr>& columns, int64_t r) const {
    out += '{';
    bool first = true;
    for (size_t c = 0; c < fields.size(); ++c) {
      const Column& col = *columns[c];
      if (col.is_null(r) && o_.ignore_null_fields) continue;
      if (!first) out += ',';
      first = false;
      append_json_string(out, fields[c].name);
      out += ':';
      append_value(out, col, r);
    }
    out += '}';
  }

  void append_value(std::string& out, const Column& col, int64_t r) const {
    if (col.is_null(r)) {
      out += "null";
      return;
    }
    switch (col.type()->id()) {
      case TypeId::kString: append_json_string(out, col.string_at(r)); return;
      case TypeId::kBinary: append_base64(out, col.string_at(r)); return;
      case TypeId::kDate: append_json_string(out, date_.format_date(col.values<int32_t>()[r])); return;
      case TypeId::kTimestamp:
        append_json_string(out, ts_.format_timestamp(col.values<int64_t>()[r], zone_));
        return;
      case TypeId::kTimestampNtz:
        append_json_string(out, ntz_.format_timestamp_ntz(col.values<int64_t>()[r]));
        return;
      case TypeId::kFloat:
      case TypeId::kDouble: {
        const std::string t = value_text(col, r, o_.time_zone);
        // Jackson quotes the values JSON has no literal for.
        if (t == "NaN" || t == "Infinity" || t == "-Infinity") append_json_string(out, t);
        else out += t;
        return;
      }
      case TypeId::kArray: {
        const int32_t* off = col.offsets();
        const Column& elems = *col.child(0);
        out += '[';
        for (int32_t i = off[r]; i < off[r + 1]; ++i) {
          if (i != off[r]) out += ',';
          append_value(out, elems, i);
        }
        out += ']';
        return;
      }
      case TypeId::kMap: {
        const int32_t* off = col.offsets();
        const Column& entries = *col.child(0);
        const Column& keys = *entries.child(0);
        const Column& values = *entries.child(1);
        out += '{';
        for (int32_t i = off[r]; i < off[r + 1]; ++i) {
          if (i != off[r]) out += ',';
          append_json_string(out, keys.type()->is_string_like() ? std::string(keys.string_at(i))
                                                                : value_text(keys, i, o_.time_zone));
          out += ':';
          append_value(out, values, i);
        }
        out += '}';
        return;
      }
      case TypeId::kStruct:
        append_fields(out, col.type()->fields(), col.children(), r);
        return;
      default: out += value_text(col, r, o_.time_zone);
    }
  }

  OutputFile out_;
  Schema schema_;
  const JsonWriteOptions& o_;
  const DateTimeFormatter& date_;
  const DateTimeFormatter& ts_;
  const DateTimeFormatter& ntz_;
  const TimeZone& zone_;
};

class JsonSink final : public SinkFormat {
 public:
  JsonSink(const WriteRequest& request, const Schema& schema)
      : compression_(text_compression(request.options)),
        date_(request.options.get("dateFormat", "yyyy-MM-dd")),
        ts_(request.options.get("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")),
        ntz_(request.options.get("timestampNTZFormat", "yyyy-MM-dd'T'HH:mm:ss[.SSS]")) {
    for (const auto& f : schema) {
      if (f.type->id() == TypeId::kYearMonthInterval || f.type->id() == TypeId::kDayTimeInterval)
        unsupported_column_type("JSON", f);
    }
    const bool conf_ignore =
        request.config ? request.config->get_bool("spark.sql.jsonGenerator.ignoreNullFields", true) : true;
    o_.ignore_null_fields = request.options.get_bool("ignoreNullFields", conf_ignore);
    o_.line_sep = request.options.get("lineSep", "\n");
    if (request.config) o_.time_zone = request.config->session_time_zone();
    o_.time_zone = request.options.get("timeZone", o_.time_zone);
  }

  std::string extension() const override { return ".json" + compression_.suffix; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const override {
    return std::make_unique<JsonFileWriter>(path, compression_.codec, schema, o_, date_, ts_, ntz_);
  }

 private:
  JsonWriteOptions o_;
  TextCompression compression_;
  DateTimeFormatter date_, ts_, ntz_;
};

}  // namespace

std::unique_ptr<SinkFormat> make_json_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<JsonSink>(request, schema);
}

}  // namespace ember::io
