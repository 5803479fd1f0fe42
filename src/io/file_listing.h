#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::io {

/// A file to read, by absolute local path.
struct InputFile {
  std::string path;
  int64_t size = 0;
};

/// Resolves the paths given to `spark.read...load(paths)` the way Spark's file sources do:
///  - a `file:` URI or a plain path, relative paths against the working directory;
///  - a glob pattern (`*`, `?`, `[...]`, `{a,b}`) expands to what it matches;
///  - a directory stands for the files directly inside it, except names starting with `_`
///    or `.` (Spark's hidden and metadata files); subdirectories are not descended;
///  - a file stands for itself.
/// Files appear in the order of `paths`, each directory's or glob's files sorted by name.
/// Throws AnalysisException PATH_NOT_FOUND ("Path does not exist: file:/abs/path.") for a
/// path that does not exist or a glob that matches nothing.
std::vector<InputFile> list_input_files(const std::vector<std::string>& paths);

/// The absolute, normalised local path of a user path (strips `file:` / `file://`).
std::string local_path(const std::string& path);

/// The URI form Spark shows for a local file: `file:///abs/path` (as in `inputFiles`).
std::string file_uri(const std::string& abs_path);

}  // namespace ember::io
