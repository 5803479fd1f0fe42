#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <arrow/io/interfaces.h>
#include <arrow/util/compression.h>

#include "io/data_source.h"

namespace ember::io {

/// A codec name as the sinks compare them: ASCII letters lower-cased.
std::string lower_codec_name(std::string name);

/// CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION for a `compression` option a sink cannot
/// write; `available` lists the names it can, as Spark lists them.
[[noreturn]] void codec_not_available(const std::string& name, const std::string& available);

/// TASK_WRITE_FAILED for a file a sink could not write, with the cause in `detail`.
[[noreturn]] void write_failed(const std::string& path, const std::string& detail);

/// The `compression` (or `codec`) option of the text formats (csv, json, text): the codec and
/// the suffix Hadoop's codecs give file names (".gz", ".bz2", ".zst"). Throws
/// CODEC_NOT_AVAILABLE for names Ember cannot write.
struct TextCompression {
  arrow::Compression::type codec = arrow::Compression::UNCOMPRESSED;
  std::string suffix;
};
TextCompression text_compression(const Options& options);

/// A file being written, compressed with `codec`; bytes are buffered and written in chunks.
class OutputFile {
 public:
  OutputFile(const std::string& path, arrow::Compression::type codec);
  void write(std::string_view bytes);
  void close();

 private:
  void flush();
  std::string path_;
  std::unique_ptr<arrow::util::Codec> codec_;  // outlives the stream that uses it
  std::shared_ptr<arrow::io::OutputStream> raw_;
  std::shared_ptr<arrow::io::OutputStream> out_;
  std::string buffer_;
};

}  // namespace ember::io
