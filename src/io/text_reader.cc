#include "io/text_reader.h"

#include <algorithm>

#include "common/error.h"
#include "io/column_writer.h"
#include "io/file_bytes.h"
#include "io/file_listing.h"
#include "io/line_splits.h"

namespace ember::io {

namespace {

constexpr int64_t kBatchRows = 65536;
constexpr int64_t kBatchBytes = 64 << 20;

class TextReader final : public DataSourceReader {
 public:
  explicit TextReader(const ReadRequest& request) {
    files_ = list_input_files(request.paths, listing_options(request));
    sort_like_spark(files_);
    wholetext_ = request.options.get_bool("wholetext", false);
    line_sep_ = request.options.get("lineSep", "");
    // Byte ranges align to '\n', so only the default separators split.
    splittable_ = !wholetext_ && (line_sep_.empty() || line_sep_ == "\n");
    spark_split_ = spark_split_bytes(request, files_);
    splits_ = plan_line_splits(files_, splittable_, configured_split_bytes(request.config), spark_split_);
    if (request.options.has("lineSep") && line_sep_.empty()) {
      throw SparkError(ErrorKind::kIllegalArgument, "_LEGACY_ERROR_TEMP_3150",
                       "requirement failed: 'lineSep' cannot be an empty string.");
    }
    if (request.user_schema) {
      const auto& fields = request.user_schema->fields();
      if (fields.size() != 1 || fields[0].type->id() != TypeId::kString) {
        throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1130",
                         "Text data source supports only a single column, and you have " +
                             std::to_string(fields.size()) + " columns.",
                         {{"schemaSize", std::to_string(fields.size())}});
      }
      schema_ = fields;
    } else {
      schema_ = {{"value", DataType::string(), true, "{}"}};
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    return line_split_block(files_, splits_[i], splittable_, spark_split_);
  }
  double estimated_rows() const override { return estimated_text_rows(files_, schema_.size()); }
  std::vector<std::string> input_files() const override { return input_file_uris(files_); }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    FileBytes bytes(files_[splits_[i].file].path, "utf-8");
    const char* p;
    const char* end;
    if (wholetext_) {
      p = bytes.begin();
      end = bytes.end();
    } else {
      split_range(bytes, splits_[i], &p, &end);
    }
    const bool want = !projection.empty();
    ColumnWriter w(DataType::string(), kBatchRows);
    int64_t rows = 0;
    auto flush = [&]() {
      if (rows == 0) return;
      std::vector<ColumnPtr> cols;
      if (want) {
        ColumnPtr c = w.finish();
        for (size_t k = 0; k < projection.size(); ++k) cols.push_back(c);
      }
      emit(Batch(std::move(cols), rows));
      rows = 0;
    };
    auto add = [&](const char* b, const char* e) {
      if (want) w.append_string(std::string_view(b, static_cast<size_t>(e - b)));
      if (++rows == kBatchRows || (want && w.string_bytes() > kBatchBytes)) flush();
    };
    if (wholetext_) {
      add(p, end);
      flush();
      return;
    }
    while (p < end) {
      const char* line_end;
      const char* next;
      if (line_sep_.empty()) {
        line_end = p;
        while (line_end < end && *line_end != '\n' && *line_end != '\r') ++line_end;
        next = line_end;
        if (next < end) next += (*next == '\r' && next + 1 < end && next[1] == '\n') ? 2 : 1;
      } else {
        line_end = std::search(p, end, line_sep_.begin(), line_sep_.end());
        next = line_end == end ? end : line_end + line_sep_.size();
      }
      add(p, line_end);
      p = next;
    }
    flush();
  }

 private:
  std::vector<InputFile> files_;
  std::vector<LineSplit> splits_;
  int64_t spark_split_ = 0;
  bool splittable_ = false;
  Schema schema_;
  bool wholetext_ = false;
  std::string line_sep_;
};

}  // namespace

std::unique_ptr<DataSourceReader> open_text_reader(const ReadRequest& request) {
  return std::make_unique<TextReader>(request);
}

}  // namespace ember::io
