#pragma once

// What the reader fuzz targets share: the input written to a file the reader can open (one per
// process, under $TMPDIR), a read of every split with every column, and the rule that a reader
// may reject bad input only with a SparkError. Anything else (another exception, a crash, a
// sanitizer report) is a finding.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/config.h"
#include "common/error.h"
#include "io/data_source.h"

namespace ember::fuzz {

/// Writes `size` bytes to this process's input file with the given extension; returns its path.
inline std::string write_input(const uint8_t* data, size_t size, const char* ext) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/ember-fuzz-" +
                     std::to_string(getpid()) + "." + ext;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

/// A read of `format` over the file holding `size` bytes of `data`, under the default
/// configuration and no options.
inline io::ReadRequest request_for(const char* format, const uint8_t* data, size_t size) {
  static const Config conf;
  io::ReadRequest request;
  request.format = format;
  request.config = &conf;
  request.paths = {write_input(data, size, format)};
  return request;
}

/// Opens the source and reads every split with every column; SparkErrors are the reader's
/// legitimate answer to bad input, any other exception aborts (a finding).
template <typename Open>
void read_all(const io::ReadRequest& request, Open&& open) {
  try {
    std::unique_ptr<io::DataSourceReader> reader = open(request);
    std::vector<int> projection;
    for (size_t i = 0; i < reader->schema().size(); ++i) projection.push_back(static_cast<int>(i));
    int64_t rows = 0;
    for (size_t s = 0; s < reader->num_splits(); ++s)
      reader->read_split(s, projection, [&](Batch b) {
        rows += b.num_rows;
        for (auto& c : b.columns)
          for (int64_t r = 0; r < b.num_rows; ++r) (void)c->value_at(r);
      });
    (void)rows;
  } catch (const SparkError&) {
    // Bad input, reported the way Spark reports it.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "non-Spark exception escaped the reader: %s\n", e.what());
    std::abort();
  }
}

/// The whole of a target for a self-describing format (Parquet, ORC): the input is the file,
/// read with no options.
template <typename Open>
int read_file_of_format(const uint8_t* data, size_t size, const char* format, Open&& open) {
  read_all(request_for(format, data, size), open);
  return 0;
}

}  // namespace ember::fuzz
