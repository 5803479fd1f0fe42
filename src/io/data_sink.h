#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "io/data_source.h"

namespace ember::io {

/// DataFrameWriter.mode(...): what to do when the target path exists.
enum class SaveMode { kErrorIfExists, kAppend, kOverwrite, kIgnore };

/// Parses Spark's mode names (error, errorifexists, default, append, overwrite, ignore).
SaveMode parse_save_mode(const std::string& name);

/// What an overwrite replaces of an existing target: everything (the default); only the
/// partition directories the job writes (Spark's dynamic partition overwrite); or the directory
/// of the static partition values of `INSERT OVERWRITE t PARTITION (p=1)`, leaving others.
enum class OverwriteScope { kAll, kWrittenPartitions, kStaticPartition };

/// What `df.write.format(f).mode(m).option(...).partitionBy(...).save(path)` asks for.
struct WriteRequest {
  std::string format;
  std::string path;
  SaveMode mode = SaveMode::kErrorIfExists;
  Options options;
  std::vector<std::string> partition_by;
  const Config* config = nullptr;
  OverwriteScope overwrite_scope = OverwriteScope::kAll;
  std::string static_partition;  // kStaticPartition: `p=1/q=a`, from partition_directory
};

/// The Hive-style directory of one partition value, `name=value` escaped as Spark escapes it;
/// a null or empty value is __HIVE_DEFAULT_PARTITION__.
std::string partition_directory(const std::string& name, const std::optional<std::string>& value);

/// One output file of a format, written batch by batch.
class FileWriter {
 public:
  virtual ~FileWriter() = default;
  /// Appends rows; the batch's columns follow the schema the writer was opened with.
  virtual void write(const Batch& batch) = 0;
  /// Flushes and closes the file; throws when the data could not be written.
  virtual void close() = 0;
};

/// A file format's writing side, configured from the write options once per job.
class SinkFormat {
 public:
  virtual ~SinkFormat() = default;
  /// The part-file suffix Spark uses for this format and compression: ".snappy.parquet",
  /// ".csv", ".json.gz", ".txt".
  virtual std::string extension() const = 0;
  virtual std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema) const = 0;
};

/// The formats: parquet (compression snappy|zstd|gzip|lz4|none), orc (none|snappy|zlib|lz4|zstd),
/// csv, json and text (compression none|gzip|bzip2|zstd). Throws for an unknown format or option value, or a schema the format
/// cannot hold (text needs one string column).
std::unique_ptr<SinkFormat> make_sink_format(const WriteRequest& request, const Schema& schema);

/// Runs a write job the way Spark's file commit protocol does: files are written under a hidden
/// staging directory next to the target, one per Spark partition of the rows (Batch::partition)
/// and partition directory (`part-00003-<job uuid>-c000<extension>`, `.c000` under Hive-style
/// `key=value` directories for partition columns, which leave the data files; partition 0
/// always has a file, holding the schema when it has no rows, as Spark's first task writes
/// one), rolled over at the maxRecordsPerFile option; `_SUCCESS` marks
/// the finished job, and only then does the output move into place (a rename for a new or
/// overwritten path, a move of each file for append). A failed job removes its staging
/// directory and leaves the target as it was. `next_batch` yields the rows (false at the end).
/// Throws PATH_ALREADY_EXISTS in error mode when the target exists; ignore mode then writes
/// nothing.
void write_files(const WriteRequest& request, const Schema& schema,
                 const std::function<bool(Batch*)>& next_batch);

}  // namespace ember::io
