#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::io {

/// A file to read, by absolute local path.
struct InputFile {
  std::string path;
  int64_t size = 0;
  /// The directory named by the user (or matched by a glob) that the file was found under;
  /// empty for a file named directly. Partition discovery parses the directories in between.
  std::string root;
};

/// Options of the generic file sources that shape listing.
struct ListingOptions {
  /// pathGlobFilter: only files whose names match this glob are read.
  std::string glob_filter;
  /// Whether directories are descended (recursiveFileLookup, and partition discovery, which
  /// then keeps the files of partition directories); otherwise only their direct files count.
  bool recursive = false;
  /// modifiedBefore / modifiedAfter: only files last modified strictly between these instants
  /// (microseconds since the epoch) are read.
  int64_t modified_before_us = INT64_MAX;
  int64_t modified_after_us = INT64_MIN;
};

/// Resolves the paths given to `spark.read...load(paths)` the way Spark's file sources do:
///  - a `file:` URI or a plain path, relative paths against the working directory;
///  - a glob pattern (`*`, `?`, `[...]`, `{a,b}`) expands to what it matches;
///  - a directory stands for the files directly inside it (at any depth when
///    `options.recursive`), except names starting with `.`, or with `_` unless they hold `=`
///    (Spark's hidden and metadata files; `_x=1` is a partition directory); glob matches with
///    such names are skipped too;
///  - a file stands for itself.
/// Files appear in the order of `paths`, each directory's or glob's files sorted by name.
/// Throws AnalysisException PATH_NOT_FOUND ("Path does not exist: file:/abs/path.") for a
/// path that does not exist or a glob that matches nothing.
std::vector<InputFile> list_input_files(const std::vector<std::string>& paths,
                                        const ListingOptions& options = {});

/// The absolute, normalised local path of a user path (strips `file:` / `file://`).
std::string local_path(const std::string& path);

/// The URI form Spark shows for a local file: `file:///abs/path` (as in `inputFiles` and
/// input_file_name()), the path quoted as java.net.URI quotes it (`a b#1` → `a%20b%231`).
std::string file_uri(const std::string& abs_path);

}  // namespace ember::io
