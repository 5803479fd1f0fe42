#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/config.h"
#include "common/thread_pool.h"
#include "io/file_bytes.h"
#include "io/file_listing.h"

namespace ember::io {

/// A byte range of a line-oriented file. A split owns the lines that start in [begin, end)
/// (a line starts at 0 or after a '\n'); `end == -1` stands for the whole file, which is how
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

/// Splits files for parallel reading: ranges of spark.ember.io.splitBytes bytes (automatic
/// when 0: enough for every thread, between 1 and 32 MiB) for uncompressed files when
/// `splittable`, one whole-file split otherwise.
inline std::vector<LineSplit> plan_line_splits(const std::vector<InputFile>& files, bool splittable,
                                               const Config* config) {
  int64_t split = config ? config->get_int("spark.ember.io.splitBytes", 0) : 0;
  if (split <= 0) {
    int64_t total = 0;
    for (const auto& f : files) total += f.size;
    const int64_t threads = static_cast<int64_t>(std::max<size_t>(1, ThreadPool::global().size()));
    split = std::clamp<int64_t>(total / (4 * threads), 1 << 20, 32 << 20);
  }
  std::vector<LineSplit> out;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!splittable || compression_of(files[i].path) != arrow::Compression::UNCOMPRESSED ||
        files[i].size <= split) {
      out.push_back({i, 0, -1});
      continue;
    }
    for (int64_t off = 0; off < files[i].size; off += split)
      out.push_back({i, off, std::min(files[i].size, off + split)});
  }
  return out;
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
  const char* b = s.begin == 0 ? bytes.content_begin() : data + s.begin;
  if (s.begin > 0 && b[-1] != '\n') {
    while (b < limit && *b != '\n') ++b;  // the line started in the previous split
    if (b < limit) ++b;
  }
  // The last owned line may run past the range: extend to its end.
  const char* e = data + std::min<int64_t>(s.end, limit - data);
  if (e > b && e[-1] != '\n') {
    while (e < limit && *e != '\n') ++e;
    if (e < limit) ++e;
  }
  *begin = b;
  *end = std::max(b, e);
}

}  // namespace ember::io
