#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include <arrow/io/compressed.h>
#include <arrow/io/file.h>
#include <arrow/util/compression.h>

#include "io/read_errors.h"

namespace ember::io {

// The compression Hadoop's codec factory infers from a file name, as Spark reads
// `data.csv.gz` transparently; UNCOMPRESSED when none.
inline arrow::Compression::type compression_of(const std::string& path) {
  auto ends_with = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
  };
  if (ends_with(".gz")) return arrow::Compression::GZIP;
  if (ends_with(".bz2")) return arrow::Compression::BZ2;
  if (ends_with(".zst")) return arrow::Compression::ZSTD;
  return arrow::Compression::UNCOMPRESSED;
}

/// A whole file's bytes for the text formats: mapped when they can be used as they are,
/// decompressed (by file name suffix, see compression_of) or decoded from ISO-8859-1 to UTF-8 in
/// memory otherwise. Missing or unreadable files raise FAILED_READ_FILE errors.
class FileBytes {
 public:
  FileBytes(const std::string& path, const std::string& encoding) {
    const arrow::Compression::type compression = compression_of(path);
    if (compression != arrow::Compression::UNCOMPRESSED) {
      decompress(path, compression);
    } else {
      map(path);
    }
    if (encoding == "iso-8859-1") {
      std::string utf8;
      utf8.reserve(size_ + size_ / 8);
      for (size_t i = 0; i < size_; ++i) {
        const unsigned char c = static_cast<unsigned char>(data_[i]);
        if (c < 0x80) {
          utf8 += static_cast<char>(c);
        } else {
          utf8 += static_cast<char>(0xC0 | (c >> 6));
          utf8 += static_cast<char>(0x80 | (c & 0x3F));
        }
      }
      unmap();
      decoded_ = std::move(utf8);
      data_ = decoded_.data();
      size_ = decoded_.size();
    }
  }
  ~FileBytes() { unmap(); }
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  const char* begin() const { return data_; }
  const char* end() const { return data_ + size_; }
  size_t size() const { return size_; }
  /// Where content starts: after a UTF-8 byte order mark, which Hadoop's line reader skips.
  const char* content_begin() const {
    if (size_ >= 3 && std::memcmp(data_, "\xEF\xBB\xBF", 3) == 0) return data_ + 3;
    return data_;
  }

 private:
  void map(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw_read_failed(path, "FILE_NOT_EXIST",
                  "File does not exist. It is possible the underlying files have been updated. "
                  "You can explicitly invalidate the cache in Spark by running 'REFRESH TABLE "
                  "tableName' command in SQL or by recreating the Dataset/DataFrame involved.",
                  ErrorKind::kFileNotFound);
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw_read_failed(path, "NO_HINT", "", ErrorKind::kRuntime);
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        throw_read_failed(path, "NO_HINT", "", ErrorKind::kRuntime);
      }
      ::madvise(p, size_, MADV_SEQUENTIAL);
      map_ = p;
      map_size_ = size_;
      data_ = static_cast<const char*>(p);
    }
    ::close(fd);
  }

  void decompress(const std::string& path, arrow::Compression::type compression) {
    auto fail = [&](const arrow::Status&) { throw_read_failed(path, "NO_HINT", "", ErrorKind::kRuntime); };
    auto codec = arrow::util::Codec::Create(compression);
    if (!codec.ok()) fail(codec.status());
    auto file = arrow::io::ReadableFile::Open(path);
    if (!file.ok()) {
      throw_read_failed(path, "FILE_NOT_EXIST",
                  "File does not exist. It is possible the underlying files have been updated. "
                  "You can explicitly invalidate the cache in Spark by running 'REFRESH TABLE "
                  "tableName' command in SQL or by recreating the Dataset/DataFrame involved.",
                  ErrorKind::kFileNotFound);
    }
    auto stream = arrow::io::CompressedInputStream::Make(codec->get(), *file);
    if (!stream.ok()) fail(stream.status());
    constexpr int64_t kChunk = 4 << 20;
    for (;;) {
      const size_t old = decoded_.size();
      decoded_.resize(old + kChunk);
      auto n = (*stream)->Read(kChunk, decoded_.data() + old);
      if (!n.ok()) fail(n.status());
      decoded_.resize(old + static_cast<size_t>(*n));
      if (*n == 0) break;
    }
    data_ = decoded_.data();
    size_ = decoded_.size();
  }

  void unmap() {
    if (map_) ::munmap(map_, map_size_);
    map_ = nullptr;
  }
  void* map_ = nullptr;
  size_t map_size_ = 0;
  const char* data_ = "";
  size_t size_ = 0;
  std::string decoded_;
};

}  // namespace ember::io
