// The text sink: one line per row of a single string column.

#include <memory>

#include "common/error.h"
#include "io/output_file.h"
#include "io/sink_formats.h"

namespace ember::io {

namespace {

class TextFileWriter final : public FileWriter {
 public:
  TextFileWriter(const std::string& path, arrow::Compression::type codec, std::string line_sep)
      : out_(path, codec), line_sep_(std::move(line_sep)) {}

  void write(const Batch& batch) override {
    const Column& col = *batch.columns[0];
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      if (!col.is_null(r)) out_.write(col.string_at(r));  // a null row is an empty line
      out_.write(line_sep_);
    }
  }

  void close() override { out_.close(); }

 private:
  OutputFile out_;
  std::string line_sep_;
};

class TextSink final : public SinkFormat {
 public:
  TextSink(const WriteRequest& request, const Schema& schema)
      : compression_(text_compression(request.options)),
        line_sep_(request.options.get("lineSep", "\n")) {
    for (const auto& f : schema)
      if (f.type->id() != TypeId::kString) unsupported_column_type("Text", f);
    if (schema.size() != 1) {
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1130",
                       "Text data source supports only a single column, and you have " +
                           std::to_string(schema.size()) + " columns.",
                       {{"schemaSize", std::to_string(schema.size())}});
    }
  }

  std::string extension() const override { return ".txt" + compression_.suffix; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema&) const override {
    return std::make_unique<TextFileWriter>(path, compression_.codec, line_sep_);
  }

 private:
  TextCompression compression_;
  std::string line_sep_;
};

}  // namespace

std::unique_ptr<SinkFormat> make_text_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<TextSink>(request, schema);
}

}  // namespace ember::io
