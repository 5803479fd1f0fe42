#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/config.h"
#include "common/thread_pool.h"
#include "io/file_bytes.h"
#include "io/file_listing.h"
#include "io/spark_splits.h"

namespace ember::io {

/// A byte range of a line-oriented file. A split owns the records that start in (begin, end]
/// (and the one at 0), as Hadoop's line reader assigns lines to Spark's splits: a range past
/// the start skips the line its first byte is in, even one starting right there, and reads on
/// through the line that starts at `end`. `end == -1` stands for the whole file, which is how
/// compressed files and whole-file modes are read.
struct LineSplit {
  size_t file = 0;
  int64_t begin = 0;
  int64_t end = -1;
};

/// Orders files as Spark packs them into partitions, largest first, so that an unordered
/// scan yields rows in Spark's order.
inline void sort_like_spark(std::vector<InputFile>& files) {
  std::stable_sort(files.begin(), files.end(),
                   [](const InputFile& a, const InputFile& b) { return a.size > b.size; });
}

/// The size of the ranges line-oriented files are read in, spark.ember.io.splitBytes (0:
/// automatic).
inline int64_t configured_split_bytes(const Config* config) {
  return config ? config->get_int("spark.ember.io.splitBytes", 0) : 0;
}

/// Splits files for parallel reading: ranges of `split` bytes (automatic when 0: enough for
/// every thread, between 1 and 32 MiB) for uncompressed files when `splittable`, one whole-file
/// split otherwise. Ranges are also cut where Spark's splits of `spark_split` bytes
/// (spark_splits.h) begin, so that each holds rows of one Spark split.
inline std::vector<LineSplit> plan_line_splits(const std::vector<InputFile>& files, bool splittable,
                                               int64_t split, int64_t spark_split) {
  if (split <= 0) {
    int64_t total = 0;
    for (const auto& f : files) total += f.size;
    const int64_t threads = static_cast<int64_t>(std::max<size_t>(1, ThreadPool::global().size()));
    split = std::clamp<int64_t>(total / (4 * threads), 1 << 20, 32 << 20);
  }
  std::vector<LineSplit> out;
  for (size_t i = 0; i < files.size(); ++i) {
    const int64_t size = files[i].size;
    if (!splittable || compression_of(files[i].path) != arrow::Compression::UNCOMPRESSED ||
        (size <= split && size <= spark_split)) {
      out.push_back({i, 0, -1});
      continue;
    }
    const std::vector<int64_t> cuts = split_cuts(size, split, spark_split);
    for (size_t k = 0; k + 1 < cuts.size(); ++k) out.push_back({i, cuts[k], cuts[k + 1]});
  }
  return out;
}

/// The file block of a split made by plan_line_splits(files, splittable, ..., spark_split):
/// compressed files are whole blocks, as Spark reads them whole too.
inline std::shared_ptr<const InputFileBlock> line_split_block(const std::vector<InputFile>& files,
                                                              const LineSplit& s, bool splittable,
                                                              int64_t spark_split) {
  const InputFile& f = files[s.file];
  return spark_file_block(f, s.begin, spark_split,
                          splittable && compression_of(f.path) == arrow::Compression::UNCOMPRESSED);
}

/// The part of a file's bytes holding the lines a split owns.
inline void split_range(const FileBytes& bytes, const LineSplit& s, const char** begin,
                        const char** end) {
  const char* data = bytes.begin();
  const char* limit = bytes.end();
  if (s.end < 0) {
    *begin = bytes.content_begin();
    *end = limit;
    return;
  }
  // Past the start, skip through the first '\n' at or after `begin`; read through the first
  // '\n' at or after `end`.
  auto after_newline = [&](const char* p) {
    const void* nl = p < limit ? std::memchr(p, '\n', static_cast<size_t>(limit - p)) : nullptr;
    return nl ? static_cast<const char*>(nl) + 1 : limit;
  };
  const char* b = s.begin == 0 ? bytes.content_begin() : after_newline(data + std::min<int64_t>(s.begin, limit - data));
  const char* e = after_newline(data + std::min<int64_t>(s.end, limit - data));
  *begin = b;
  *end = std::max(b, e);
}

}  // namespace ember::io
