#include "io/json_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/datetime_pattern.h"
#include "common/error.h"
#include "common/json.h"
#include "common/timezone.h"
#include "io/csv_options.h"
#include "io/file_bytes.h"
#include "io/json_values.h"
#include "io/file_listing.h"
#include "io/line_splits.h"
#include "io/read_errors.h"
#include "io/text_parse.h"

namespace ember::io {

namespace {

constexpr int64_t kBatchRows = 16384;

// ---- The reader -----------------------------------------------------------------------------

class JsonReader final : public DataSourceReader {
 public:
  explicit JsonReader(const ReadRequest& request) {
    const Options& o = request.options;
    const Config* config = request.config;
    files_ = list_input_files(request.paths, listing_options(request));
    sort_like_spark(files_);
    multi_line_ = o.get_bool("multiLine", false);
    spark_split_ = spark_split_bytes(request, files_);
    splits_ = plan_line_splits(files_, !multi_line_, configured_split_bytes(config), spark_split_);
    primitives_as_string_ = o.get_bool("primitivesAsString", false);
    const std::string mode = ascii_lower(o.get("mode", "PERMISSIVE"));
    if (mode == "dropmalformed") mode_ = ParseMode::kDropMalformed;
    else if (mode == "failfast") mode_ = ParseMode::kFailFast;
    corrupt_ = o.get("columnNameOfCorruptRecord",
                     config ? config->get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record")
                            : "_corrupt_record");
    ctx_.zone = &TimeZone::get(o.get("timeZone", config ? config->session_time_zone() : "UTC"));
    ctx_.case_sensitive = config && config->case_sensitive();
    ctx_.locale = locale_option(o);
    if (o.has("dateFormat")) ctx_.date_format.emplace(o.get("dateFormat"), ctx_.locale);
    if (o.has("timestampFormat")) ctx_.timestamp_format.emplace(o.get("timestampFormat"), ctx_.locale);
    if (request.user_schema) {
      schema_ = request.user_schema->fields();
    } else {
      infer_schema();
    }
    for (size_t i = 0; i < schema_.size(); ++i) {
      if (schema_[i].name == corrupt_ && schema_[i].type->id() == TypeId::kString)
        corrupt_index_ = static_cast<int>(i);
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    return line_split_block(files_, splits_[i], !multi_line_, spark_split_);
  }
  double estimated_rows() const override { return estimated_text_rows(files_, schema_.size()); }
  std::vector<std::string> input_files() const override { return input_file_uris(files_); }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    const std::string& path = files_[splits_[i].file].path;
    std::vector<std::unique_ptr<ColumnBuilder>> builders;
    for (int c : projection)
      builders.push_back(std::make_unique<ColumnBuilder>(schema_[static_cast<size_t>(c)].type));
    int64_t rows = 0;
    auto flush = [&]() {
      if (rows == 0) return;
      std::vector<ColumnPtr> cols;
      for (auto& b : builders) cols.push_back(b->finish());
      emit(Batch(std::move(cols), rows));
      rows = 0;
      builders.clear();
      for (int c : projection)
        builders.push_back(std::make_unique<ColumnBuilder>(schema_[static_cast<size_t>(c)].type));
    };
    std::vector<Value> values(schema_.size());
    auto add_record = [&](const JsonValue* record, std::string_view text) {
      bool bad = record == nullptr || record->kind != JsonValue::Kind::kObject;
      std::fill(values.begin(), values.end(), Value());
      if (!bad) {
        for (const auto& [name, item] : record->members) {
          for (size_t f = 0; f < schema_.size(); ++f) {
            if (static_cast<int>(f) == corrupt_index_) continue;
            const std::string& fname = schema_[f].name;
            if (fname == name || (!ctx_.case_sensitive && ascii_lower(fname) == ascii_lower(name))) {
              if (!convert_json_value(item, *schema_[f].type, ctx_, &values[f])) {
                values[f] = Value();
                bad = true;
              }
              break;
            }
          }
        }
      }
      if (bad) {
        if (mode_ == ParseMode::kDropMalformed) return;
        if (mode_ == ParseMode::kFailFast) throw_read_failed(path, "NO_HINT", "");
        if (corrupt_index_ >= 0) values[static_cast<size_t>(corrupt_index_)] = Value::bytes(std::string(text));
      }
      for (size_t k = 0; k < projection.size(); ++k)
        builders[k]->append_value(values[static_cast<size_t>(projection[k])]);
      if (++rows == kBatchRows) flush();
    };
    for_each_record(splits_[i], [&](const JsonValue* v, std::string_view text) {
      if (v && v->kind == JsonValue::Kind::kArray) {
        // A top-level array holds one record per element.
        for (const auto& item : v->items) add_record(&item, text);
      } else {
        add_record(v, text);
      }
    });
    flush();
  }

 private:
  /// Calls `fn` with each record of a split (nullptr when it does not parse) and its text.
  template <typename Fn>
  void for_each_record(const LineSplit& split, const Fn& fn) const {
    FileBytes bytes(files_[split.file].path, "utf-8");
    const char* p;
    const char* end;
    split_range(bytes, split, &p, &end);
    auto one = [&](std::string_view text) {
      JsonValue v;
      try {
        v = parse_json(std::string(text));
      } catch (const std::invalid_argument&) {
        fn(nullptr, text);
        return;
      }
      fn(&v, text);
    };
    if (multi_line_) {
      std::string_view all(p, static_cast<size_t>(end - p));
      if (all.find_first_not_of(" \t\r\n") != std::string_view::npos) one(all);
      return;
    }
    while (p < end) {
      const char* e = p;
      while (e < end && *e != '\n' && *e != '\r') ++e;
      std::string_view line(p, static_cast<size_t>(e - p));
      if (line.find_first_not_of(" \t") != std::string_view::npos) one(line);
      p = e;
      while (p < end && (*p == '\n' || *p == '\r')) ++p;
    }
  }

  void infer_schema() {
    TypePtr root = DataType::struct_({});
    bool corrupt_seen = false;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      for_each_record(LineSplit{fi, 0, -1}, [&](const JsonValue* v, std::string_view) {
        auto take = [&](const JsonValue& r) {
          if (r.kind == JsonValue::Kind::kObject) {
            root = merge_json_types(root, infer_json_type(r, primitives_as_string_));
          } else {
            corrupt_seen = true;
          }
        };
        if (!v) {
          corrupt_seen = true;
        } else if (v->kind == JsonValue::Kind::kArray) {
          for (const auto& item : v->items) take(item);
        } else {
          take(*v);
        }
        if (corrupt_seen && mode_ == ParseMode::kFailFast) {
          throw SparkError(ErrorKind::kRuntime, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                           "Malformed records are detected in record parsing: [null]. Parse Mode: "
                           "FAILFAST. To process malformed records as null result, try setting "
                           "the option 'mode' as 'PERMISSIVE'.",
                           {{"badRecord", "[null]"}, {"failFastMode", "FAILFAST"}}, "22023");
        }
      });
    }
    std::vector<StructField> fields;
    if (auto c = canonical_json_type(root)) fields = (*c)->fields();
    if (corrupt_seen && mode_ == ParseMode::kPermissive &&
        std::none_of(fields.begin(), fields.end(), [&](const StructField& f) { return f.name == corrupt_; })) {
      fields.push_back({corrupt_, DataType::string(), true, "{}"});
      std::sort(fields.begin(), fields.end(),
                [](const StructField& x, const StructField& y) { return x.name < y.name; });
    }
    schema_ = std::move(fields);
  }

  std::vector<InputFile> files_;
  std::vector<LineSplit> splits_;
  int64_t spark_split_ = 0;
  Schema schema_;
  bool multi_line_ = false;
  bool primitives_as_string_ = false;
  ParseMode mode_ = ParseMode::kPermissive;
  std::string corrupt_;
  int corrupt_index_ = -1;
  JsonConvertContext ctx_;
};

}  // namespace

std::unique_ptr<DataSourceReader> open_json_reader(const ReadRequest& request) {
  return std::make_unique<JsonReader>(request);
}

}  // namespace ember::io
