#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "io/file_listing.h"
#include "types/data_type.h"

namespace ember {
struct LocaleData;
}  // namespace ember

namespace ember::io {

/// Options of `spark.read.format(...).option(k, v)`: keys are case-insensitive, as in Spark.
class Options {
 public:
  Options() = default;
  explicit Options(const std::map<std::string, std::string>& raw);
  void set(const std::string& key, const std::string& value);
  bool has(const std::string& key) const;
  std::string get(const std::string& key, const std::string& fallback = "") const;
  bool get_bool(const std::string& key, bool fallback) const;
  int64_t get_int(const std::string& key, int64_t fallback) const;
  double get_double(const std::string& key, double fallback) const;
  const std::map<std::string, std::string>& all() const { return values_; }  // lower-case keys

 private:
  std::map<std::string, std::string> values_;
};

/// The `locale` option of the text formats (CSV, JSON): the locale of month and day names,
/// AM/PM markers and decimal symbols; en-US when unset. A locale Ember has no data for is
/// UNSUPPORTED_FEATURE.
const LocaleData* locale_option(const Options& options);

/// What a scan asks of a source: the file list and options given by the user, the session
/// configuration (time zone, ANSI), and optionally a user-specified schema.
struct ReadRequest {
  std::string format;               // "csv", "parquet", "json", "text" ...
  std::vector<std::string> paths;
  Options options;
  TypePtr user_schema;              // struct type, or null when the source infers it
  const Config* config = nullptr;
  /// The size of Spark's splits of the relation's files (spark_splits.h); 0 when the reader
  /// computes it from its own files. A partitioned relation sets it from all its files.
  int64_t spark_split_bytes = 0;
};

/// The size of Spark's splits for a request reading `files`: the request's own when set.
int64_t spark_split_bytes(const ReadRequest& request, const std::vector<InputFile>& files);

/// One conjunct of a filter above a scan, in a form sources can test against what they know
/// about a split without reading it (Parquet row-group statistics, partition values). A source
/// uses predicates only to skip splits that cannot hold a matching row; the filter itself still
/// runs above the scan, so ignoring a predicate is always correct.
struct ScanPredicate {
  enum class Op : uint8_t { kEq, kLt, kLe, kGt, kGe, kIsNull, kIsNotNull };
  int column = 0;  // index into the reader's schema()
  Op op = Op::kEq;
  Value value;     // of the column's type; unused for the null tests
};

/// A readable relation split into independent pieces (file ranges, row groups) that scan
/// threads read in parallel. Batches of split i are emitted in order; the engine orders
/// splits by index, so a scan yields rows in file order as Spark does.
class DataSourceReader {
 public:
  virtual ~DataSourceReader() = default;
  /// The relation's output schema (after inference, or the user's schema).
  virtual const Schema& schema() const = 0;
  virtual size_t num_splits() const = 0;
  /// Reads split `i`, producing only the columns in `projection` (indices into schema(), in
  /// that order), calling `emit` for each batch. Must be safe to call concurrently for
  /// different splits.
  virtual void read_split(size_t i, const std::vector<int>& projection,
                          const std::function<void(Batch)>& emit) const = 0;
  /// False when split `i` provably holds no row satisfying all of `predicates`, so the scan
  /// may skip it. The default knows nothing and says true.
  virtual bool split_may_match(size_t /*i*/, const std::vector<ScanPredicate>& /*predicates*/) const {
    return true;
  }
  /// The file block of split `i`'s rows (input_file_name() and the block functions report it),
  /// shared by all batches of the split: each split holds rows of one of Spark's file splits.
  virtual std::shared_ptr<const InputFileBlock> split_block(size_t i) const = 0;
  /// Files this relation reads (for `inputFiles`).
  virtual std::vector<std::string> input_files() const = 0;
  /// How many rows the relation holds, for the planner's choices (which side of a join to
  /// build, the order of joins): exact where the format records it (Parquet footers), a
  /// guess from the files' sizes otherwise. Never used for results.
  virtual double estimated_rows() const = 0;
};

/// What a reader over `files` (anything with the local `path` of each) reports as its
/// `inputFiles`: the files' URIs, sorted, each once.
template <typename File>
std::vector<std::string> input_file_uris(const std::vector<File>& files) {
  std::vector<std::string> out;
  out.reserve(files.size());
  for (const auto& f : files) out.push_back(file_uri(f.path));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// A guess at the rows of text files (CSV, JSON, text): their bytes over a typical row's
/// width, taken as 8 bytes per column.
double estimated_text_rows(const std::vector<InputFile>& files, size_t columns);

/// Opens a data source: resolves paths (globs, directories), infers the schema when needed.
/// Throws Spark errors: PATH_NOT_FOUND, UNABLE_TO_INFER_SCHEMA, ...
std::unique_ptr<DataSourceReader> open_reader(const ReadRequest& request);

/// The listing options of a read: pathGlobFilter, recursiveFileLookup, and modifiedBefore /
/// modifiedAfter (`YYYY-MM-DDTHH:mm:ss` in the session time zone or the `timeZone` option).
ListingOptions listing_options(const ReadRequest& request);

/// Whether `name` is a registered format (for SQL on files: parquet.`/path`).
bool has_format(const std::string& name);

/// Registered formats.
using ReaderFactory = std::function<std::unique_ptr<DataSourceReader>(const ReadRequest&)>;
void register_format(const std::string& name, ReaderFactory factory);

}  // namespace ember::io
