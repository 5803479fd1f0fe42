#pragma once

// The writing side of each built-in format; make_sink_format() picks one by name.

#include <memory>

#include "io/data_sink.h"

namespace ember::io {

std::unique_ptr<SinkFormat> make_parquet_sink(const WriteRequest& request, const Schema& schema);
std::unique_ptr<SinkFormat> make_csv_sink(const WriteRequest& request, const Schema& schema);
std::unique_ptr<SinkFormat> make_json_sink(const WriteRequest& request, const Schema& schema);
std::unique_ptr<SinkFormat> make_text_sink(const WriteRequest& request, const Schema& schema);
/// ORC (compression none|uncompressed|snappy|zlib|lz4|zstd); UNSUPPORTED_FEATURE.ORC_UNAVAILABLE in a
/// build without Arrow's ORC adapter.
std::unique_ptr<SinkFormat> make_orc_sink(const WriteRequest& request, const Schema& schema);

/// UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE for a column a format cannot hold.
[[noreturn]] void unsupported_column_type(const std::string& format, const StructField& field);

}  // namespace ember::io
