#pragma once

#include <string>

#include "common/error.h"
#include "io/file_listing.h"

namespace ember::io {

/// Spark's FAILED_READ_FILE.<sub> error for a file that could not be read.
[[noreturn]] inline void throw_read_failed(const std::string& path, const std::string& sub,
                                           const std::string& detail,
                                           ErrorKind kind = ErrorKind::kRuntime) {
  const std::string uri = file_uri(path);
  throw SparkError(kind, "FAILED_READ_FILE." + sub,
                   "Encountered error while reading file " + uri + ". " + detail, {{"path", uri}},
                   "KD001");
}

}  // namespace ember::io
