// The Parquet sink, through Arrow C++'s Parquet writer.

#include <algorithm>
#include <functional>

#include <arrow/compute/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>

#include "common/error.h"
#include "io/arrow_bridge.h"
#include "io/arrow_memory.h"
#include "io/file_listing.h"
#include "io/output_file.h"
#include "io/sink_formats.h"

namespace ember::io {

namespace {

class ParquetFileWriter final : public FileWriter {
 public:
  ParquetFileWriter(const std::string& path, const Schema& schema,
                    std::shared_ptr<arrow::Schema> arrow_schema,
                    std::shared_ptr<parquet::WriterProperties> props,
                    std::shared_ptr<parquet::ArrowWriterProperties> arrow_props)
      : path_(path), schema_(schema) {
    auto out = arrow::io::FileOutputStream::Open(path);
    if (!out.ok()) write_failed(path, out.status().ToString());
    auto writer = parquet::arrow::FileWriter::Open(*arrow_schema, arrow_pool(), *out,
                                                   std::move(props), std::move(arrow_props));
    if (!writer.ok()) write_failed(path, writer.status().ToString());
    writer_ = std::move(*writer);
  }

  void write(const Batch& batch) override {
    try {
      auto rb = batch_to_arrow(batch, schema_);
      rb = time_as_micros(rb);
      arrow::Status st = writer_->WriteRecordBatch(*rb);
      if (!st.ok()) write_failed(path_, st.ToString());
    } catch (const parquet::ParquetException& e) {
      write_failed(path_, e.what());
    }
  }

  /// TIME columns of up to 6 fraction digits go to Parquet as TIME(MICROS), as Spark writes
  /// them (their nanoseconds truncated); finer ones stay TIME(NANOS).
  std::shared_ptr<arrow::RecordBatch> time_as_micros(const std::shared_ptr<arrow::RecordBatch>& rb) {
    std::shared_ptr<arrow::RecordBatch> out = rb;
    for (int i = 0; i < rb->num_columns(); ++i) {
      const DataType& t = *schema_[static_cast<size_t>(i)].type;
      if (t.id() != TypeId::kTime || t.time_precision() > 6) continue;
      arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(arrow::time64(arrow::TimeUnit::MICRO));
      options.allow_time_truncate = true;
      arrow::compute::ExecContext ctx(arrow_pool());
      auto cast = arrow::compute::Cast(*rb->column(i), options.to_type, options, &ctx);
      if (!cast.ok()) write_failed(path_, cast.status().ToString());
      auto set = out->SetColumn(i, arrow::field(rb->schema()->field(i)->name(), options.to_type.GetSharedPtr(),
                                                rb->schema()->field(i)->nullable()),
                                *cast);
      if (!set.ok()) write_failed(path_, set.status().ToString());
      out = *set;
    }
    return out;
  }

  void close() override {
    arrow::Status st = writer_->Close();
    if (!st.ok()) write_failed(path_, st.ToString());
  }

 private:
  std::string path_;
  Schema schema_;
  std::unique_ptr<parquet::arrow::FileWriter> writer_;
};

class ParquetSink final : public SinkFormat {
 public:
  ParquetSink(const WriteRequest& request, const Schema& schema) {
    const Config* config = request.config;
    const std::string codec = lower_codec_name(request.options.get(
        "compression", request.options.get(
                           "parquet.compression",
                           config ? config->get_or("spark.sql.parquet.compression.codec", "snappy")
                                  : "snappy")));
    parquet::WriterProperties::Builder builder;
    builder.max_row_group_length(1 << 20);
    builder.memory_pool(arrow_pool());
    builder.enable_store_decimal_as_integer();
    if (codec == "none" || codec == "uncompressed") {
      builder.compression(arrow::Compression::UNCOMPRESSED);
      extension_ = ".parquet";
    } else if (codec == "snappy") {
      builder.compression(arrow::Compression::SNAPPY);
      extension_ = ".snappy.parquet";
    } else if (codec == "gzip") {
      builder.compression(arrow::Compression::GZIP);
      extension_ = ".gz.parquet";
    } else if (codec == "zstd") {
      builder.compression(arrow::Compression::ZSTD);
      extension_ = ".zstd.parquet";
    } else if (codec == "lz4_raw") {
      builder.compression(arrow::Compression::LZ4);
      extension_ = ".lz4raw.parquet";
    } else if (codec == "brotli") {
      builder.compression(arrow::Compression::BROTLI);
      extension_ = ".br.parquet";
    } else {
      codec_not_available(codec, "brotli, uncompressed, lz4_raw, gzip, snappy, none, zstd");
    }
    props_ = builder.build();
    // Timestamps follow spark.sql.parquet.outputTimestampType (INT96 by default, as in Spark).
    const std::string ts = config ? config->get_or("spark.sql.parquet.outputTimestampType", "INT96")
                                  : "INT96";
    parquet::ArrowWriterProperties::Builder arrow_builder;
    if (ts == "INT96") arrow_builder.enable_deprecated_int96_timestamps();
    else if (ts == "TIMESTAMP_MILLIS")
      arrow_builder.coerce_timestamps(arrow::TimeUnit::MILLI)->allow_truncated_timestamps();
    arrow_props_ = arrow_builder.build();
    std::function<bool(const DataType&)> has_time = [&](const DataType& t) {
      if (t.id() == TypeId::kTime) return true;
      for (const auto& c : t.fields())
        if (has_time(*c.type)) return true;
      return false;
    };
    arrow::FieldVector fields;
    for (const auto& f : schema) {
      if (f.type->id() == TypeId::kYearMonthInterval || f.type->id() == TypeId::kDayTimeInterval ||
          f.type->id() == TypeId::kNull)
        unsupported_column_type("Parquet", f);
      // TIME inside arrays, maps and structs is not written (top-level columns are).
      if (f.type->id() != TypeId::kTime && has_time(*f.type)) unsupported_column_type("Parquet", f);
      fields.push_back(arrow::field(f.name,
                                    f.type->id() == TypeId::kTime && f.type->time_precision() <= 6
                                        ? arrow::time64(arrow::TimeUnit::MICRO)
                                        : to_arrow_type(*f.type),
                                    f.nullable));
    }
    // Spark records its own schema in the footer, so that readers recover types Parquet
    // annotates loosely.
    arrow_schema_ = arrow::schema(std::move(fields))->WithMetadata(arrow::key_value_metadata(
        {"org.apache.spark.sql.parquet.row.metadata"}, {DataType::struct_(schema)->json()}));
  }

  std::string extension() const override { return extension_; }

  std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const override {
    return std::make_unique<ParquetFileWriter>(path, schema, arrow_schema_, props_, arrow_props_);
  }

 private:
  std::string extension_;
  std::shared_ptr<arrow::Schema> arrow_schema_;
  std::shared_ptr<parquet::WriterProperties> props_;
  std::shared_ptr<parquet::ArrowWriterProperties> arrow_props_;
};

}  // namespace

std::unique_ptr<SinkFormat> make_parquet_sink(const WriteRequest& request, const Schema& schema) {
  return std::make_unique<ParquetSink>(request, schema);
}

}  // namespace ember::io
