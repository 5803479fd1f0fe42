#include "io/orc_reader.h"

#include "common/error.h"

#if EMBER_HAVE_ORC

#include <algorithm>
#include <string_view>

#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>

#include "io/arrow_bridge.h"
#include "io/arrow_memory.h"
#include "io/file_listing.h"
#include "io/file_schema.h"
#include "io/orc_check.h"
#include "io/orc_types.h"
#include "io/read_errors.h"
#include "io/spark_splits.h"

namespace ember::io {

namespace {

namespace orc = arrow::adapters::orc;

constexpr int64_t kBatchRows = 65536;

[[noreturn]] void footer_failed(const std::string& path) {
  throw_read_failed(path, "CANNOT_READ_FILE_FOOTER",
                    "Could not read footer. Please ensure that the file is in either ORC or "
                    "Parquet format. If not, please convert it to a valid format. If the file is "
                    "in the valid format, please check if it is corrupt. If it is, you can choose "
                    "to either ignore it or fix the corruption.");
}

[[noreturn]] void decode_failed(const std::string& path) { throw_read_failed(path, "NO_HINT", ""); }

[[noreturn]] void corrupt_stripe(const std::string& path) {
  throw_read_failed(path, "NO_HINT", "The ORC file is corrupt: a stripe's streams do not fit its data.");
}

/// Opens an ORC file's reader (which reads the file's tail); null when the file is not ORC.
/// The adapter reports most failures as statuses, but its ORC library can throw as well.
/// `input`, when given, receives the file the reader reads.
std::unique_ptr<orc::ORCFileReader> open_orc(const std::string& path,
                                             std::shared_ptr<arrow::io::RandomAccessFile>* input = nullptr) {
  auto file = arrow::io::ReadableFile::Open(path, arrow_pool());
  if (!file.ok()) {
    throw_read_failed(path, "FILE_NOT_EXIST",
                      "File does not exist. It is possible the underlying files have been "
                      "updated. You can explicitly invalidate the cache in Spark by running "
                      "'REFRESH TABLE tableName' command in SQL or by recreating the "
                      "Dataset/DataFrame involved.",
                      ErrorKind::kFileNotFound);
  }
  try {
    auto reader = orc::ORCFileReader::Open(*file, arrow_pool());
    if (!reader.ok() || !orc_adapter_accepts_types((*reader)->GetSerializedFileTail())) return nullptr;
    if (input) *input = *file;
    return std::move(*reader);
  } catch (const std::exception&) {
    return nullptr;
  }
}

/// An ORC file: its schema and stripes, read once when the relation opens. A file whose tail
/// cannot be read under a user schema has no stripes and `broken` set: its read fails then.
struct OrcFile {
  std::string path;
  int64_t size = 0;
  bool broken = false;
  Schema schema;                            // Spark view of the file's top-level fields
  std::vector<orc::StripeInformation> stripes;
  int64_t rows = 0;
};

class OrcReader final : public DataSourceReader {
 public:
  explicit OrcReader(const ReadRequest& request) {
    const Config* config = request.config;
    case_sensitive_ = config && config->case_sensitive();
    const bool merge = request.options.get_bool(
        "mergeSchema", config && config->get_bool("spark.sql.orc.mergeSchema", false));
    const std::vector<InputFile> inputs = list_input_files(request.paths, listing_options(request));
    for (const auto& f : inputs) files_.push_back(open_file(f, request.user_schema != nullptr));
    spark_split_ = spark_split_bytes(request, inputs);
    if (request.user_schema) {
      schema_ = request.user_schema->fields();
    } else {
      std::vector<const Schema*> with_columns;  // Spark infers from the files that have columns
      for (const auto& f : files_)
        if (!f.schema.empty()) with_columns.push_back(&f.schema);
      schema_ = infer_file_schema(with_columns, merge, case_sensitive_, "ORC");
    }
    for (auto& f : schema_) f.nullable = true;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      if (files_[fi].broken) splits_.push_back({fi, -1});
      for (size_t s = 0; s < files_[fi].stripes.size(); ++s) splits_.push_back({fi, static_cast<int64_t>(s)});
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }

  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    const Split& s = splits_[i];
    const OrcFile& f = files_[s.file];
    const int64_t start = s.stripe < 0 ? 0 : f.stripes[static_cast<size_t>(s.stripe)].offset;
    return spark_file_block({f.path, f.size, ""}, start, spark_split_, true);
  }

  double estimated_rows() const override {
    double rows = 0;
    for (const auto& f : files_) rows += static_cast<double>(f.rows);
    return rows;
  }

  std::vector<std::string> input_files() const override { return input_file_uris(files_); }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    const Split& s = splits_[i];
    const OrcFile& file = files_[s.file];
    if (s.stripe < 0) decode_failed(file.path);
    const orc::StripeInformation& stripe = file.stripes[static_cast<size_t>(s.stripe)];
    if (stripe.num_rows == 0) return;
    // Which file field feeds each projected column (-1: absent from this file).
    Schema target;
    std::vector<int> source(projection.size(), -1);
    std::vector<int> include;
    for (size_t k = 0; k < projection.size(); ++k) {
      const StructField& f = schema_.at(static_cast<size_t>(projection[k]));
      target.push_back(f);
      const int fi = find_column(file.schema, f.name, case_sensitive_);
      if (fi < 0) continue;
      if (!readable_as(*file.schema[static_cast<size_t>(fi)].type, *f.type)) type_mismatch(file, f, fi);
      source[k] = fi;
      include.push_back(fi);
    }
    if (include.empty()) {
      for (int64_t done = 0; done < stripe.num_rows; done += kBatchRows) {
        const int64_t n = std::min(kBatchRows, stripe.num_rows - done);
        emit(batch_from_arrow(std::vector<std::shared_ptr<arrow::Array>>(target.size()), n, target));
      }
      return;
    }
    std::sort(include.begin(), include.end());
    include.erase(std::unique(include.begin(), include.end()), include.end());
    // The decoded batches hold the included fields in file order.
    std::vector<int> column(projection.size(), -1);
    for (size_t k = 0; k < projection.size(); ++k)
      if (source[k] >= 0)
        column[k] = static_cast<int>(std::lower_bound(include.begin(), include.end(), source[k]) - include.begin());

    // The stripe is decoded whole, by byte range: the adapter's streaming stripe reader seeks to
    // the stripe's first row through the row index, and ORC's reader crashes on a corrupt row
    // index (a fuzz finding); a range read never touches the index. Memory per split is one
    // decoded stripe of the projected columns; batches are slices of it.
    std::shared_ptr<arrow::io::RandomAccessFile> input;
    std::unique_ptr<orc::ORCFileReader> reader = open_orc(file.path, &input);
    if (!reader) decode_failed(file.path);
    // ORC's decoder crashes on some corrupt stripes instead of failing (orc_check.h).
    if (!orc_stripe_is_sound(*input, reader->GetSerializedFileTail(), s.stripe, include)) corrupt_stripe(file.path);
    std::shared_ptr<arrow::RecordBatch> decoded;
    try {
      auto read = reader->ReadStripe(s.stripe, include);
      if (!read.ok() || !*read) decode_failed(file.path);
      decoded = *read;
    } catch (const SparkError&) {
      throw;
    } catch (const std::exception&) {
      decode_failed(file.path);
    }
    reader.reset();
    if (decoded->num_columns() != static_cast<int>(include.size()) || decoded->num_rows() != stripe.num_rows)
      decode_failed(file.path);
    for (int64_t done = 0; done < decoded->num_rows(); done += kBatchRows) {
      auto slice = decoded->Slice(done, std::min(kBatchRows, decoded->num_rows() - done));
      emit(to_batch(*slice, target, source, column, file));
    }
  }

 private:
  struct Split {
    size_t file;
    int64_t stripe;  // -1: the file could not be opened
  };

  static OrcFile open_file(const InputFile& input, bool defer_errors) {
    OrcFile f;
    f.path = input.path;
    f.size = input.size;
    std::unique_ptr<orc::ORCFileReader> reader = open_orc(input.path);
    try {
      if (reader) {
        auto schema = reader->ReadSchema();
        if (!schema.ok()) throw_unreadable(input.path, defer_errors, f);
        if (!f.broken) {
          for (const auto& field : (*schema)->fields()) {
            f.schema.push_back({field->name(), spark_type_of_orc(*field), true, "{}"});
          }
          const int64_t n = reader->NumberOfStripes();
          int64_t first_row = 0;
          for (int64_t s = 0; s < n; ++s) {
            orc::StripeInformation info = reader->GetStripeInformation(s);
            // The adapter numbers rows from stripe sizes; a damaged tail could disagree.
            if (info.num_rows < 0 || info.first_row_id != first_row) throw_unreadable(input.path, defer_errors, f);
            first_row += info.num_rows;
            f.stripes.push_back(info);
          }
          f.rows = first_row;
        }
      } else {
        throw_unreadable(input.path, defer_errors, f);
      }
    } catch (const SparkError&) {
      throw;
    } catch (const std::exception&) {
      throw_unreadable(input.path, defer_errors, f);
    }
    if (f.broken) {
      f.schema.clear();
      f.stripes.clear();
    }
    return f;
  }

  /// A file whose tail is unreadable: an error now while inferring the schema, or a broken file
  /// whose read fails later under a user schema (as Spark fails then).
  static void throw_unreadable(const std::string& path, bool defer, OrcFile& f) {
    if (!defer) footer_failed(path);
    f.broken = true;
  }

  Batch to_batch(const arrow::RecordBatch& rb, const Schema& target, const std::vector<int>& source,
                 const std::vector<int>& column, const OrcFile& file) const {
    std::vector<std::shared_ptr<arrow::Array>> arrays(target.size());
    for (size_t k = 0; k < target.size(); ++k) {
      if (source[k] < 0) continue;
      const auto& data = rb.column(column[k])->data();
      auto want = orc_read_type(data->type, *file.schema[static_cast<size_t>(source[k])].type);
      arrays[k] = arrow::MakeArray(relabel(data, want));
    }
    return batch_from_arrow(arrays, rb.num_rows(), target);
  }

  [[noreturn]] static void type_mismatch(const OrcFile& file, const StructField& f, int fi) {
    throw_read_failed(file.path, "NO_HINT",
                      "Column " + quote_id(f.name) + " is " +
                          file.schema[static_cast<size_t>(fi)].type->sql() +
                          " in the file and cannot be read as " + f.type->sql() + ".");
  }

  bool case_sensitive_ = false;
  std::vector<OrcFile> files_;
  Schema schema_;
  std::vector<Split> splits_;
  int64_t spark_split_ = 0;
};

}  // namespace

std::unique_ptr<DataSourceReader> open_orc_reader(const ReadRequest& request) {
  return std::make_unique<OrcReader>(request);
}

bool orc_available() { return true; }

}  // namespace ember::io

#else  // !EMBER_HAVE_ORC

namespace ember::io {

std::unique_ptr<DataSourceReader> open_orc_reader(const ReadRequest&) { throw_orc_unavailable(); }

bool orc_available() { return false; }

}  // namespace ember::io

#endif

namespace ember::io {

void throw_orc_unavailable() {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE.ORC_UNAVAILABLE",
                   "The feature is not supported: the ORC data source. This build's Arrow library "
                   "has no ORC adapter; build Ember against a pyarrow that includes it.",
                   {}, "0A000");
}

}  // namespace ember::io
