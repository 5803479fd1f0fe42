#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <arrow/io/interfaces.h>
#include <arrow/util/compression.h>

#include "io/data_source.h"

namespace ember::io {

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
