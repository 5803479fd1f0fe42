#include "io/file_metadata.h"

#include <sys/stat.h>

#include "common/ascii.h"
#include "io/read_errors.h"

namespace ember::io {

namespace {

/// The built-in source `format` names, lower case, without the package prefix Spark also accepts.
std::string format_name(const std::string& format) {
  std::string name = ascii_lower(format);
  const std::string prefix = "org.apache.spark.sql.execution.datasources.";
  if (name.rfind(prefix, 0) == 0) {
    name = name.substr(prefix.size());
    name = name.substr(0, name.find('.'));
  }
  return name;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The text of a URI part with its %-escapes decoded.
std::string unescape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

/// The local path of a file URI made by file_uri (`file:///abs/path`, %-escaped).
std::string path_of_uri(const std::string& uri) {
  std::string rest = uri;
  if (rest.rfind("file://", 0) == 0)
    rest = rest.substr(7);
  else if (rest.rfind("file:", 0) == 0)
    rest = rest.substr(5);
  return unescape(rest);
}

/// Spark's file_path: the URI as Hadoop's Path prints it (`file:/abs/path`, still %-escaped),
/// where input_file_name() gives `file:///abs/path`.
std::string metadata_path(const std::string& uri) {
  if (uri.rfind("file://", 0) == 0) return "file:" + uri.substr(7);
  return uri;
}

ColumnPtr constant_long(int64_t v, int64_t rows) {
  return Column::constant(DataType::long_(), Value::integer(v), rows);
}

}  // namespace

bool has_file_metadata(const std::string& format) {
  const std::string name = format_name(format);
  return name == "parquet" || name == "orc" || name == "csv" || name == "json" || name == "text";
}

bool has_row_index(const std::string& format) { return format_name(format) == "parquet"; }

TypePtr file_metadata_type(const std::string& format) {
  std::vector<StructField> fields = {
      {"file_path", DataType::string(), false, "{}"},
      {"file_name", DataType::string(), false, "{}"},
      {"file_size", DataType::long_(), false, "{}"},
      {"file_block_start", DataType::long_(), false, "{}"},
      {"file_block_length", DataType::long_(), false, "{}"},
      {"file_modification_time", DataType::timestamp(), false, "{}"},
  };
  if (has_row_index(format)) fields.push_back({"row_index", DataType::long_(), false, "{}"});
  return DataType::struct_(std::move(fields));
}

FileFacts file_facts(const InputFileBlock& block) {
  const std::string path = path_of_uri(block.uri);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw_read_failed(
        path, "FILE_NOT_EXIST",
        "File does not exist. It is possible the underlying files have been updated. You can "
        "explicitly invalidate the cache in Spark by running 'REFRESH TABLE tableName' command "
        "in SQL or by recreating the Dataset/DataFrame involved.",
        ErrorKind::kFileNotFound);
  FileFacts f;
  const size_t slash = block.uri.rfind('/');
  f.name = slash == std::string::npos ? block.uri : block.uri.substr(slash + 1);
  f.size = static_cast<int64_t>(st.st_size);
  // Java reports modification times in whole milliseconds.
  const int64_t millis =
      static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  f.modification_time = millis * 1000;
  return f;
}

ColumnPtr file_metadata_column(const TypePtr& type, const InputFileBlock& block,
                               const FileFacts& facts, int64_t rows, const ColumnPtr& row_index) {
  std::vector<ColumnPtr> children = {
      Column::constant(DataType::string(), Value::bytes(metadata_path(block.uri)), rows),
      Column::constant(DataType::string(), Value::bytes(facts.name), rows),
      constant_long(facts.size, rows),
      constant_long(block.start, rows),
      constant_long(block.length, rows),
      Column::constant(DataType::timestamp(), Value::integer(facts.modification_time), rows),
  };
  if (type->fields().size() > children.size()) children.push_back(row_index);
  return Column::make(type, rows, nullptr, nullptr, nullptr, std::move(children));
}

}  // namespace ember::io
