#include "io/output_file.h"

#include <algorithm>
#include <cctype>

#include <arrow/io/compressed.h>
#include <arrow/io/file.h>

#include "common/error.h"
#include "io/file_listing.h"

namespace ember::io {

std::string lower_codec_name(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

void codec_not_available(const std::string& name, const std::string& available) {
  throw SparkError(ErrorKind::kIllegalArgument, "CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION",
                   "The codec " + name + " is not available. Available codecs are " + available + ".",
                   {{"codecName", name}, {"availableCodecs", available}}, "56038");
}

void write_failed(const std::string& path, const std::string& detail) {
  throw SparkError(ErrorKind::kRuntime, "TASK_WRITE_FAILED",
                   "Task failed while writing rows to " + file_uri(path) + ". " + detail,
                   {{"path", file_uri(path)}});
}

TextCompression text_compression(const Options& options) {
  const std::string name = lower_codec_name(options.get("compression", options.get("codec", "none")));
  TextCompression c;
  if (name == "none" || name == "uncompressed") return c;
  if (name == "gzip") {
    c = {arrow::Compression::GZIP, ".gz"};
  } else if (name == "bzip2") {
    c = {arrow::Compression::BZ2, ".bz2"};
  } else if (name == "zstd") {
    c = {arrow::Compression::ZSTD, ".zst"};
  } else {
    c.codec = arrow::Compression::LZ4;  // not writable here (Hadoop's framing)
  }
  if (c.suffix.empty() || !arrow::util::Codec::IsAvailable(c.codec)) {
    codec_not_available(name, "none, uncompressed, gzip, bzip2, zstd");
  }
  return c;
}

OutputFile::OutputFile(const std::string& path, arrow::Compression::type codec) : path_(path) {
  auto file = arrow::io::FileOutputStream::Open(path);
  if (!file.ok()) write_failed(path, file.status().ToString());
  raw_ = *file;
  out_ = raw_;
  if (codec != arrow::Compression::UNCOMPRESSED) {
    auto c = arrow::util::Codec::Create(codec);
    if (!c.ok()) write_failed(path, c.status().ToString());
    codec_ = std::move(*c);
    auto stream = arrow::io::CompressedOutputStream::Make(codec_.get(), raw_);
    if (!stream.ok()) write_failed(path, stream.status().ToString());
    out_ = *stream;
  }
  buffer_.reserve(1 << 20);
}

void OutputFile::write(std::string_view bytes) {
  buffer_.append(bytes);
  if (buffer_.size() >= (1 << 20)) flush();
}

void OutputFile::flush() {
  if (buffer_.empty()) return;
  arrow::Status st = out_->Write(buffer_.data(), static_cast<int64_t>(buffer_.size()));
  if (!st.ok()) write_failed(path_, st.ToString());
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  arrow::Status st = out_->Close();
  if (st.ok() && out_ != raw_) st = raw_->Close();
  if (!st.ok()) write_failed(path_, st.ToString());
}

}  // namespace ember::io
