#include "io/data_sink.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <unordered_map>

#include "common/ascii.h"
#include "common/error.h"
#include "io/file_listing.h"
#include "io/sink_formats.h"
#include "io/value_text.h"

namespace ember::io {

namespace fs = std::filesystem;

namespace {

std::string random_uuid() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng(), b = rng();
  a = (a & ~0xF000ull) | 0x4000ull;                              // version 4
  b = (b & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;      // IETF variant
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFFF),
                static_cast<unsigned>(b >> 48),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
  return buf;
}

/// Hive's path escaping of partition values (ExternalCatalogUtils.escapePathName).
std::string escape_path_name(const std::string& s) {
  static const std::string kSpecial = "\"#%'*/:=?\\\x7f{[]^";
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || kSpecial.find(static_cast<char>(c)) != std::string::npos) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool exists(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;
}

/// Moves every file under `from` into the same place under `to`, creating directories.
void move_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    const fs::path target = to / entry.path().filename();
    if (entry.is_directory()) {
      move_tree(entry.path(), target);
    } else {
      std::error_code ec;
      fs::remove(target, ec);
      fs::rename(entry.path(), target);
    }
  }
}

/// The open files of a job: one per Spark partition of the rows written and partition
/// directory, rolled over at maxRecordsPerFile (`c000`, `c001`, ...). A file is named after its
/// Spark partition (`part-00003-...`), as Spark names it after the task that wrote it. The files
/// of a partition close when rows of another partition arrive (rows come partition by
/// partition), as a Spark task closes its writers when it ends.
class JobFiles {
 public:
  JobFiles(const SinkFormat& format, std::string staging, Schema data_schema, int64_t max_records)
      : format_(format), staging_(std::move(staging)), schema_(std::move(data_schema)),
        job_id_(random_uuid()), max_records_(max_records) {}

  void write(const std::string& dir, int64_t partition, const Batch& batch) {
    if (partition != current_) close_partition();
    current_ = partition;
    int64_t done = 0;
    while (done < batch.num_rows) {
      Open& f = file_for(dir, partition);
      int64_t n = batch.num_rows - done;
      if (max_records_ > 0) n = std::min(n, max_records_ - f.rows);
      f.writer->write(done == 0 && n == batch.num_rows ? batch : slice_batch(batch, done, n));
      f.rows += n;
      done += n;
      if (max_records_ > 0 && f.rows >= max_records_) {
        f.writer->close();
        f.writer.reset();
      }
    }
  }

  /// Creates a file for `dir` and `partition` when no row went there: Spark's first task
  /// writes a file holding the schema whether or not it has rows.
  void ensure(const std::string& dir, int64_t partition) {
    if (open_.count({dir, partition}) == 0) file_for(dir, partition);
  }

  void close_all() {
    for (auto& [key, f] : open_)
      if (f.writer) f.writer->close();
    open_.clear();
  }

 private:
  struct Open {
    std::unique_ptr<FileWriter> writer;
    int64_t rows = 0;
    int file_count = 0;
  };

  void close_partition() {
    for (auto& [key, f] : open_) {
      if (key.second == current_ && f.writer) {
        f.writer->close();
        f.writer.reset();
      }
    }
  }

  Open& file_for(const std::string& dir, int64_t partition) {
    Open& f = open_[{dir, partition}];
    if (!f.writer) {
      const fs::path d = dir.empty() ? fs::path(staging_) : fs::path(staging_) / dir;
      fs::create_directories(d);
      char name[64];
      std::snprintf(name, sizeof name, "part-%05lld-", static_cast<long long>(partition));
      // Spark's writer of one directory counts files as `-c000`, its partitioned writer `.c000`.
      char counter[16];
      std::snprintf(counter, sizeof counter, dir.empty() ? "-c%03d" : ".c%03d", f.file_count++);
      const std::string file = (d / (name + job_id_ + counter + format_.extension())).string();
      f.writer = format_.open(file, schema_);
      f.rows = 0;
    }
    return f;
  }

  const SinkFormat& format_;
  std::string staging_;
  Schema schema_;
  std::string job_id_;
  int64_t max_records_;
  int64_t current_ = 0;
  std::map<std::pair<std::string, int64_t>, Open> open_;
};

}  // namespace

std::string partition_directory(const std::string& name, const std::optional<std::string>& value) {
  return escape_path_name(name) + "=" +
         (!value || value->empty() ? "__HIVE_DEFAULT_PARTITION__" : escape_path_name(*value));
}

SaveMode parse_save_mode(const std::string& name) {
  const std::string m = ascii_lower(name);
  if (m == "error" || m == "errorifexists" || m == "default") return SaveMode::kErrorIfExists;
  if (m == "append") return SaveMode::kAppend;
  if (m == "overwrite") return SaveMode::kOverwrite;
  if (m == "ignore") return SaveMode::kIgnore;
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_SAVE_MODE",
                   "The specified save mode \"" + name + "\" is invalid. Valid save modes include "
                   "\"append\", \"overwrite\", \"ignore\", \"error\", \"errorifexists\", and "
                   "\"default\".",
                   {{"mode", "\"" + name + "\""}});
}

std::unique_ptr<SinkFormat> make_sink_format(const WriteRequest& request, const Schema& schema) {
  std::string name = ascii_lower(request.format);
  const std::string prefix = "org.apache.spark.sql.execution.datasources.";
  if (name.rfind(prefix, 0) == 0) {
    name = name.substr(prefix.size());
    name = name.substr(0, name.find('.'));
  }
  if (name == "parquet") return make_parquet_sink(request, schema);
  if (name == "csv") return make_csv_sink(request, schema);
  if (name == "json") return make_json_sink(request, schema);
  if (name == "text") return make_text_sink(request, schema);
  if (name == "orc") return make_orc_sink(request, schema);
  throw SparkError(ErrorKind::kAnalysis, "DATA_SOURCE_NOT_FOUND",
                   "Failed to find the data source: " + request.format +
                       ". Make sure the provider name is correct and the package is properly "
                       "registered and compatible with your Spark version.",
                   {{"provider", request.format}}, "42K02");
}

void write_files(const WriteRequest& request, const Schema& schema,
                 const std::function<bool(Batch*)>& next_batch) {
  if (request.path.empty()) {
    throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3098",
                     "'path' is not specified.");
  }
  const std::string target = local_path(request.path);
  const bool target_exists = exists(target);
  if (target_exists && request.mode == SaveMode::kErrorIfExists) {
    const std::string shown = "file:" + target;
    throw SparkError(ErrorKind::kAnalysis, "PATH_ALREADY_EXISTS",
                     "Path " + shown + " already exists. Set mode as \"overwrite\" to overwrite the "
                     "existing path.",
                     {{"outputPath", shown}}, "42K04");
  }
  if (target_exists && request.mode == SaveMode::kIgnore) return;

  // Partition columns (resolved case-insensitively, as Spark does by default) leave the data.
  const bool case_sensitive = request.config && request.config->case_sensitive();
  for (size_t i = 0; i < schema.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (case_sensitive ? schema[i].name == schema[j].name
                         : ascii_lower(schema[i].name) == ascii_lower(schema[j].name)) {
        throw SparkError(ErrorKind::kAnalysis, "COLUMN_ALREADY_EXISTS",
                         "The column " + quote_id(ascii_lower(schema[i].name)) +
                             " already exists. Choose another name or rename the existing column.",
                         {{"columnName", quote_id(ascii_lower(schema[i].name))}}, "42711");
      }
    }
  }
  std::vector<int> part_cols;
  for (const auto& name : request.partition_by) {
    int found = -1;
    for (size_t i = 0; i < schema.size(); ++i)
      if (case_sensitive ? schema[i].name == name : ascii_lower(schema[i].name) == ascii_lower(name))
        found = static_cast<int>(i);
    if (found < 0) {
      std::string cols;
      for (const auto& f : schema) cols += (cols.empty() ? "" : ", ") + f.name;
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1166",
                       "Partition column `" + name + "` not found in schema " +
                           DataType::struct_(schema)->simple_string(),
                       {{"partColumn", name}, {"schemaCatalog", cols}});
    }
    if (schema[static_cast<size_t>(found)].type->is_nested()) {
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1153",
                       "Cannot use " + schema[static_cast<size_t>(found)].type->simple_string() +
                           " for partition column",
                       {{"field", name}});
    }
    part_cols.push_back(found);
  }
  if (!part_cols.empty() && part_cols.size() == schema.size()) {
    throw SparkError(ErrorKind::kAnalysis, "ALL_PARTITION_COLUMNS_NOT_ALLOWED",
                     "Cannot use all columns for partition columns.", {}, "KD005");
  }
  std::vector<int> data_cols;
  Schema data_schema;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (std::find(part_cols.begin(), part_cols.end(), static_cast<int>(i)) != part_cols.end())
      continue;
    data_cols.push_back(static_cast<int>(i));
    data_schema.push_back(schema[i]);
  }

  std::unique_ptr<SinkFormat> format = make_sink_format(request, data_schema);
  const fs::path target_path(target);
  const fs::path parent = target_path.parent_path();
  const std::string staging =
      (parent / ("." + target_path.filename().string() + "-staging-" + random_uuid())).string();
  const std::string time_zone = request.config ? request.config->session_time_zone() : "UTC";

  try {
    fs::create_directories(staging);
    JobFiles files(*format, staging, data_schema, request.options.get_int("maxRecordsPerFile", 0));
    Batch batch;
    while (next_batch(&batch)) {
      if (batch.num_rows == 0) continue;
      Batch data;
      data.num_rows = batch.num_rows;
      for (int c : data_cols) data.columns.push_back(batch.columns[static_cast<size_t>(c)]);
      if (part_cols.empty()) {
        files.write("", batch.partition, data);
        continue;
      }
      // Rows grouped by their partition directory, in first-seen order.
      std::unordered_map<std::string, size_t> slot;
      std::vector<std::string> dirs;
      std::vector<std::vector<int32_t>> rows;
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        std::string dir;
        for (int c : part_cols) {
          const Column& col = *batch.columns[static_cast<size_t>(c)];
          std::string v = col.is_null(r) ? "" : value_text(col, r, time_zone);
          if (!dir.empty()) dir += '/';
          dir += partition_directory(schema[static_cast<size_t>(c)].name, v);
        }
        auto [it, inserted] = slot.emplace(dir, dirs.size());
        if (inserted) {
          dirs.push_back(dir);
          rows.emplace_back();
        }
        rows[it->second].push_back(static_cast<int32_t>(r));
      }
      for (size_t k = 0; k < dirs.size(); ++k) {
        const auto& idx = rows[k];
        files.write(dirs[k], batch.partition, gather_batch(data, idx.data(), static_cast<int64_t>(idx.size())));
      }
    }
    // Spark's first task writes a file even without rows (the schema of an empty result);
    // without partition columns, so does Ember's partition 0.
    if (part_cols.empty()) files.ensure("", 0);
    files.close_all();
    std::ofstream(fs::path(staging) / "_SUCCESS").close();

    // Commit.
    if (!target_exists) {
      fs::create_directories(parent);
      fs::rename(staging, target_path);
    } else if (request.mode == SaveMode::kOverwrite &&
               request.overwrite_scope == OverwriteScope::kWrittenPartitions && !part_cols.empty()) {
      // Each partition the job wrote replaces the existing one; the others stay.
      std::function<void(const fs::path&, size_t)> replace = [&](const fs::path& rel, size_t depth) {
        if (depth == part_cols.size()) {
          std::error_code ec;
          fs::remove_all(target_path / rel, ec);
          move_tree(fs::path(staging) / rel, target_path / rel);
          return;
        }
        for (const auto& entry : fs::directory_iterator(fs::path(staging) / rel))
          if (entry.is_directory()) replace(rel / entry.path().filename(), depth + 1);
      };
      replace(fs::path(), 0);
      std::ofstream(target_path / "_SUCCESS").close();
      fs::remove_all(staging);
    } else if (request.mode == SaveMode::kOverwrite &&
               request.overwrite_scope == OverwriteScope::kStaticPartition &&
               !request.static_partition.empty()) {
      std::error_code ec;
      fs::remove_all(target_path / request.static_partition, ec);
      move_tree(staging, target_path);
      fs::remove_all(staging);
    } else if (request.mode == SaveMode::kOverwrite) {
      const fs::path trash = parent / ("." + target_path.filename().string() + "-old-" + random_uuid());
      fs::rename(target_path, trash);
      fs::rename(staging, target_path);
      fs::remove_all(trash);
    } else {  // append
      if (!fs::is_directory(target_path)) {
        throw SparkError(ErrorKind::kRuntime, "_LEGACY_ERROR_TEMP_2096",
                         "Cannot append to " + file_uri(target) + ": it is not a directory.");
      }
      move_tree(staging, target_path);
      fs::remove_all(staging);
    }
  } catch (const fs::filesystem_error& e) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw SparkError(ErrorKind::kRuntime, "TASK_WRITE_FAILED",
                     "Task failed while writing rows to " + file_uri(target) + ". " + e.what(),
                     {{"path", file_uri(target)}});
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw;
  }
}

}  // namespace ember::io
