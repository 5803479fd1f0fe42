// The ORC sink, through Arrow C++'s ORC adapter.

#include <algorithm>

#include "common/error.h"
#include "io/orc_reader.h"
#include "io/sink_formats.h"

#if EMBER_HAVE_ORC

#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>
#include <arrow/util/bit_util.h>

#include "io/arrow_bridge.h"
#include "io/file_listing.h"
#include "io/orc_types.h"
#include "io/output_file.h"

namespace ember::io {

namespace {

namespace orc = arrow::adapters::orc;

class OrcFileWriter final : public FileWriter {
 public:
  OrcFileWriter(const std::string& path, const Schema& schema, std::shared_ptr<arrow::Schema> orc_schema,
                const orc::WriteOptions& options)
      : path_(path), schema_(schema), orc_schema_(std::move(orc_schema)) {
    auto out = arrow::io::FileOutputStream::Open(path);
    if (!out.ok()) write_failed(path, out.status().ToString());
    out_ = *out;
    auto writer = orc::ORCFileWriter::Open(out_.get(), options);
    if (!writer.ok()) write_failed(path, writer.status().ToString());
    writer_ = std::move(*writer);
  }

  void write(const Batch& batch) override {
    if (batch.num_rows == 0) return;
    auto rb = batch_to_arrow(batch, schema_);
    arrow::ArrayVector columns;
    for (int i = 0; i < rb->num_columns(); ++i) {
      columns.push_back(arrow::MakeArray(relabel(rb->column(i)->data(), orc_schema_->field(i)->type())));
      check_timestamps(*columns.back()->data(), schema_[static_cast<size_t>(i)].name);
    }
    put(*arrow::RecordBatch::Make(orc_schema_, rb->num_rows(), std::move(columns)));
  }

  void close() override {
    // The adapter creates the file's ORC writer with the first batch: an empty file gets an
    // empty batch, so that it still records the schema (as Spark's empty files do).
    if (!wrote_) {
      auto empty = arrow::RecordBatch::MakeEmpty(orc_schema_);
      if (!empty.ok()) write_failed(path_, empty.status().ToString());
      put(**empty);
    }
    arrow::Status st = writer_->Close();
    if (st.ok()) st = out_->Close();
    if (!st.ok()) write_failed(path_, st.ToString());
  }

 private:
  void put(const arrow::RecordBatch& rb) {
    arrow::Status st;
    try {
      st = writer_->Write(rb);
    } catch (const std::exception& e) {
      write_failed(path_, e.what());
    }
    if (!st.ok()) write_failed(path_, st.ToString());
    wrote_ = true;
  }

  /// Arrow's ORC writer splits a timestamp into seconds and nanoseconds by truncating
  /// division, which gives an instant before 1970 with a fraction of a second negative
  /// nanoseconds, a file ORC's other readers (Spark's among them) refuse. Rather than write
  /// such a file, the job fails.
  void check_timestamps(const arrow::ArrayData& data, const std::string& column) const {
    if (data.type->id() == arrow::Type::TIMESTAMP) {
      const int64_t* v = data.GetValues<int64_t>(1);
      const uint8_t* valid = data.buffers[0] ? data.buffers[0]->data() : nullptr;
      for (int64_t r = 0; r < data.length; ++r) {
        if (v[r] >= 0 || v[r] % 1000000 == 0) continue;
        if (valid && !arrow::bit_util::GetBit(valid, data.offset + r)) continue;
        write_failed(path_, "The ORC writer cannot store the timestamp before 1970 with a fraction "
                            "of a second in column " + quote_id(column) + " (" +
                            std::to_string(v[r]) + " microseconds since the epoch).");
      }
    }
    for (const auto& child : data.child_data) check_timestamps(*child, column);
  }

  std::string path_;
  Schema schema_;
  std::shared_ptr<arrow::Schema> orc_schema_;
  std::shared_ptr<arrow::io::FileOutputStream> out_;
  std::unique_ptr<orc::ORCFileWriter> writer_;
  bool wrote_ = false;
};

class OrcSink final : public SinkFormat {
 public:
  OrcSink(const WriteRequest& request, const Schema& schema) {
    const Config* config = request.config;
    const std::string fallback = config ? config->get_or("spark.sql.orc.compression.codec", "zstd") : "zstd";
    const std::string codec =
        lower_codec_name(request.options.get("compression", request.options.get("orc.compress", fallback)));
    if (codec == "none" || codec == "uncompressed") {
      options_.compression = arrow::Compression::UNCOMPRESSED;
      extension_ = ".orc";
    } else if (codec == "snappy") {
      options_.compression = arrow::Compression::SNAPPY;
      extension_ = ".snappy.orc";
    } else if (codec == "zlib") {
      options_.compression = arrow::Compression::GZIP;  // ORC's ZLIB
      extension_ = ".zlib.orc";
    } else if (codec == "lz4") {
      options_.compression = arrow::Compression::LZ4;
      extension_ = ".lz4.orc";
    } else if (codec == "zstd") {
      options_.compression = arrow::Compression::ZSTD;
      extension_ = ".zstd.orc";
    } else {
      // Spark also names lzo and brotli, which Arrow's ORC writer does not write.
      codec_not_available(codec, "uncompressed, lz4, snappy, zlib, none, zstd");
    }
    arrow::FieldVector fields;
    for (const auto& f : schema) {
      auto field = orc_field(f);
      if (!field) unsupported_column_type("ORC", f);
      fields.push_back(std::move(field));
    }
    orc_schema_ = arrow::schema(std::move(fields));
  }

  std::string extension() const override { return extension_; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const override {
    return std::make_unique<OrcFileWriter>(path, schema, orc_schema_, options_);
  }

 private:
  std::string extension_;
  orc::WriteOptions options_;
  std::shared_ptr<arrow::Schema> orc_schema_;
};

}  // namespace

std::unique_ptr<SinkFormat> make_orc_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<OrcSink>(request, schema);
}

}  // namespace ember::io

#else  // !EMBER_HAVE_ORC

namespace ember::io {

std::unique_ptr<SinkFormat> make_orc_sink(const WriteRequest&, const Schema&) { throw_orc_unavailable(); }

}  // namespace ember::io

#endif
