#include "io/csv_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include <arrow/io/compressed.h>
#include <arrow/io/file.h>
#include <arrow/util/compression.h>

#include "common/ascii.h"
#include "common/error.h"
#include "common/thread_pool.h"
#include "common/timezone.h"
#include "io/column_writer.h"
#include "io/csv_infer.h"
#include "io/csv_options.h"
#include "io/csv_tokenizer.h"
#include "io/csv_values.h"
#include "io/file_bytes.h"
#include "io/file_listing.h"
#include "io/line_splits.h"

namespace ember::io {

namespace {

constexpr int64_t kBatchRows = 65536;
constexpr int64_t kBatchStringBytes = 64 << 20;

// Spark's CSVUtils.makeSafeHeader: empty or null names become _c<i>; duplicate names
// (case-insensitively unless spark.sql.caseSensitive) get their index appended.
std::vector<std::string> safe_header(const std::vector<std::optional<std::string>>& row,
                                     const CsvOptions& o) {
  std::vector<std::string> out;
  auto key = [&](const std::string& n) { return o.case_sensitive ? n : ascii_lower(n); };
  std::map<std::string, int> seen;
  for (const auto& v : row)
    if (v) ++seen[key(*v)];
  for (size_t i = 0; i < row.size(); ++i) {
    const auto& v = row[i];
    if (!v || v->empty() || *v == o.null_value) {
      out.push_back("_c" + std::to_string(i));
    } else if (seen[key(*v)] > 1) {
      out.push_back(*v + std::to_string(i));
    } else {
      out.push_back(*v);
    }
  }
  return out;
}

uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class CsvReader final : public DataSourceReader {
 public:
  explicit CsvReader(const ReadRequest& request);

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    return line_split_block(files_, splits_[i], splittable_, spark_split_);
  }
  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override;
  std::vector<std::string> input_files() const override { return input_file_uris(files_); }
  double estimated_rows() const override { return estimated_text_rows(files_, schema_.size()); }

 private:
  // A split's end for a file read as one split, whose text may be longer than the file
  // (decompressed, or decoded to UTF-8).
  static constexpr int64_t kWholeFile = -1;
  using Split = LineSplit;
  struct OutColumn {
    CsvValueConverter::Target target;
    int token;  // field index in the record (-1 for the corrupt-record column)
  };

  void scan_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const;
  void plan_splits(const ReadRequest& request);
  void infer_schema();
  template <typename F>
  void walk_split(const Split& s, const FileBytes& bytes, bool skip_header, CsvField* fields,
                  int capacity, int limit, bool tokenize, F&& on_record) const;

  CsvOptions options_;
  const TimeZone* zone_ = nullptr;
  std::unique_ptr<CsvTokenizer> tokenizer_;
  std::unique_ptr<CsvValueConverter> converter_;
  std::vector<InputFile> files_;
  std::vector<Split> splits_;
  int64_t spark_split_ = 0;
  bool splittable_ = false;
  Schema schema_;
  std::vector<int> token_of_;  // schema index → field index, -1 for the corrupt column
  int num_data_columns_ = 0;
  std::string header_line_;  // the dataset's first line, filtered from inference with `header`
};

CsvReader::CsvReader(const ReadRequest& request) {
  options_ = parse_csv_options(request.options, request.config);
  zone_ = &TimeZone::get(options_.time_zone);
  tokenizer_ = std::make_unique<CsvTokenizer>(options_);
  converter_ = std::make_unique<CsvValueConverter>(options_, *zone_);
  files_ = list_input_files(request.paths, listing_options(request));
  // Spark packs files into partitions largest first; reading in that order keeps the row
  // order of an unordered scan the same as Spark's.
  sort_like_spark(files_);
  plan_splits(request);
  if (request.user_schema) {
    for (const auto& f : request.user_schema->fields()) {
      schema_.push_back({f.name, f.type, true, f.metadata_json.empty() ? "{}" : f.metadata_json});
    }
  } else {
    if (files_.empty()) {
      throw SparkError(ErrorKind::kAnalysis, "UNABLE_TO_INFER_SCHEMA",
                       "Unable to infer schema for CSV. It must be specified manually.",
                       {{"format", "CSV"}}, "42KD9");
    }
    infer_schema();
  }
  for (const auto& f : schema_) {
    if (f.name == options_.corrupt_column && request.user_schema) {
      if (f.type->id() != TypeId::kString) {
        throw SparkError(ErrorKind::kAnalysis, "INVALID_CORRUPT_RECORD_TYPE",
                         "The column " + quote_id(f.name) +
                             " for corrupt records must have the nullable STRING type, but got " +
                             f.type->sql() + ".",
                         {{"columnName", quote_id(f.name)}, {"actualType", f.type->sql()}},
                         "42804");
      }
      token_of_.push_back(-1);
    } else {
      CsvValueConverter::target_of(f);  // rejects unsupported types now, not at the first read
      token_of_.push_back(num_data_columns_++);
    }
  }
}

void CsvReader::plan_splits(const ReadRequest& request) {
  splittable_ = !options_.multi_line && options_.encoding != "iso-8859-1";
  spark_split_ = spark_split_bytes(request, files_);
  for (const LineSplit& s : plan_line_splits(files_, splittable_, options_.split_bytes, spark_split_))
    if (files_[s.file].size > 0) splits_.push_back(s);
}

// Visits the records of a split. In line mode a split owns the lines starting in
// (begin, end] (and the one at 0). Blank lines (in multiLine mode: empty lines) and comment
// lines are skipped, and with `skip_header` so is the first remaining line of the file.
// `on_record(begin, end, count)` receives each record's text and, when `tokenize`, its field
// count with the fields in `fields` (the first `capacity` of them; at most `limit` in line
// mode), and returns false to stop the walk.
template <typename F>
void CsvReader::walk_split(const Split& s, const FileBytes& bytes, bool skip_header,
                           CsvField* fields, int capacity, int limit, bool tokenize,
                           F&& on_record) const {
  const CsvTokenizer& tok = *tokenizer_;
  const char* const file_end = bytes.end();
  const char comment = options_.comment;
  const char* p;
  if (s.begin == 0) {
    p = bytes.content_begin();
  } else {
    // Hadoop's rule: a split not at the start of the file skips to the first line that
    // starts after its first byte.
    const char* next;
    tok.line_end(bytes.begin() + s.begin, file_end, &next);
    p = next;
  }
  bool header_pending = skip_header && s.begin == 0;
  if (options_.multi_line) {
    const Newline nl = tok.detect_newline(p, file_end);
    tok.forget_carried_fields();
    while (p < file_end || tok.resumes_at(p)) {
      const char* next_line;
      const char* le = tok.line_end(p, file_end, &next_line, nl);
      // The multiLine parser skips empty lines only; a line of spaces or tabs is a record,
      // unless ignoreLeadingWhiteSpace empties it.
      if (!tok.resumes_at(p) &&
          (p == le || (options_.ignore_leading_ws && CsvTokenizer::blank(p, le)) ||
           (comment != '\0' && *p == comment))) {
        p = next_line;
        continue;
      }
      int count = 0;
      const char* record_end;
      const char* next = tok.split_record(p, file_end, nl, fields, capacity, &count, &record_end);
      if (header_pending) {
        header_pending = false;
      } else if (!on_record(p, record_end, count)) {
        return;
      }
      p = next;
    }
    return;
  }
  const char* const limit_ptr = s.end == kWholeFile ? file_end : bytes.begin() + s.end;
  // Without any '\r' in the split, lines end at '\n' alone and memchr finds them fastest.
  const int64_t scan = std::max<int64_t>(0, std::min(limit_ptr, file_end) - p);
  const bool may_have_cr = std::memchr(p, '\r', static_cast<size_t>(scan)) != nullptr;
  while (p < file_end && p <= limit_ptr) {
    const char* next;
    const char* le = tok.line_end(p, file_end, &next, may_have_cr);
    if (!may_have_cr && le > limit_ptr) le = tok.line_end(p, file_end, &next, true);
    if ((static_cast<unsigned char>(*p) <= ' ' && CsvTokenizer::blank(p, le)) ||
        (comment != '\0' && *p == comment)) {
      p = next;
      continue;
    }
    if (header_pending) {
      header_pending = false;
      p = next;
      continue;
    }
    const int count = tokenize ? tok.split_line(p, le, fields, capacity, limit) : 0;
    if (!on_record(p, le, count)) return;
    p = next;
  }
}

void CsvReader::infer_schema() {
  // The dataset's first record (files in read order) gives the number of columns and, with
  // `header`, their names.
  std::vector<std::optional<std::string>> first;
  std::string scratch;
  for (size_t fi = 0; fi < files_.size() && first.empty(); ++fi) {
    if (files_[fi].size == 0) continue;
    FileBytes bytes(files_[fi].path, options_.encoding);
    const Split whole{fi, 0, kWholeFile};
    const Newline first_nl = tokenizer_->detect_newline(bytes.content_begin(), bytes.end());
    // Spark parses the first line itself, and in multiLine mode the first record in a job.
    try {
      walk_split(whole, bytes, false, nullptr, 0, INT_MAX, false,
                 [&](const char* b, const char* e, int) {
                   std::vector<CsvField> fields;
                   int count = 0;
                   for (int pass = 0; pass < 2; ++pass) {
                     fields.resize(static_cast<size_t>(count));
                     const char* end_of_record;
                     if (options_.multi_line) {
                       tokenizer_->split_record(b, bytes.end(), first_nl, fields.data(), count,
                                                &count, &end_of_record);
                     } else {
                       count = tokenizer_->split_line(b, e, fields.data(), count, INT_MAX);
                     }
                   }
                   for (const auto& f : fields) {
                     if (f.flags & CsvField::kNull) {
                       first.emplace_back(std::nullopt);
                     } else {
                       first.emplace_back(std::string(tokenizer_->text(f, scratch)));
                       if (options_.too_long(*first.back()))
                         throw_malformed_csv_record({b, static_cast<size_t>(e - b)});
                     }
                   }
                   header_line_.assign(b, e);
                   return false;
                 });
    } catch (const CsvSyntaxError& e) {
      if (options_.multi_line)
        throw_read_failed(files_[fi].path, "NO_HINT", "", ErrorKind::kRuntime);
      throw SparkError(ErrorKind::kRuntime, "", e.what());
    }
  }
  if (first.empty()) return;  // no data at all: an empty schema, as Spark gives
  const size_t ncols = first.size();
  std::vector<std::string> names;
  if (options_.header) {
    names = safe_header(first, options_);
  } else {
    for (size_t i = 0; i < ncols; ++i) names.push_back("_c" + std::to_string(i));
  }
  std::vector<InferredType> types(ncols);
  if (options_.infer_schema) {
    CsvTypeInference inference(options_, *zone_);
    std::vector<std::vector<InferredType>> per_split(splits_.size());
    const bool filter_header = options_.header && !options_.multi_line;
    const double ratio = options_.sampling_ratio;
    ThreadPool::global().parallel_run(splits_.size(), [&](size_t si) {
      const Split& s = splits_[si];
      FileBytes bytes(files_[s.file].path, options_.encoding);
      try {
        std::vector<InferredType> local(ncols);
        std::vector<CsvField> fields(ncols);
        std::string tmp;
        uint64_t line_no = 0;
        const int cap = static_cast<int>(ncols);
        walk_split(s, bytes, options_.header && options_.multi_line, fields.data(), cap,
                   options_.multi_line ? INT_MAX : cap, true,
                   [&](const char* b, const char* e, int count) {
                     ++line_no;
                     if (filter_header && static_cast<size_t>(e - b) == header_line_.size() &&
                         std::memcmp(b, header_line_.data(), header_line_.size()) == 0) {
                       return true;
                     }
                     if (ratio < 0.99) {
                       const uint64_t h = mix64((static_cast<uint64_t>(si) << 40) ^ line_no);
                       if (static_cast<double>(h >> 11) * 0x1.0p-53 >= ratio) return true;
                     }
                     const int n = std::min(count, cap);
                     for (int k = 0; k < n; ++k) {
                       const CsvField& f = fields[static_cast<size_t>(k)];
                       if (f.flags & CsvField::kNull) continue;
                       const std::string_view v = tokenizer_->text(f, tmp);
                       if (options_.too_long(v))
                         throw_malformed_csv_record({b, static_cast<size_t>(e - b)});
                       local[static_cast<size_t>(k)] =
                           inference.infer(local[static_cast<size_t>(k)], v);
                     }
                     return true;
                   });
        per_split[si] = std::move(local);
      } catch (const CsvSyntaxError&) {
        throw_read_failed(files_[s.file].path, "NO_HINT", "", ErrorKind::kRuntime);
      }
    });
    for (const auto& local : per_split) {
      for (size_t k = 0; k < ncols && k < local.size(); ++k) {
        types[k] = CsvTypeInference::merge(types[k], local[k]);
      }
    }
  }
  for (size_t i = 0; i < ncols; ++i) {
    schema_.push_back({names[i], options_.infer_schema ? types[i].to_type() : DataType::string(),
                       true, "{}"});
  }
}

void CsvReader::read_split(size_t split_index, const std::vector<int>& projection,
                           const std::function<void(Batch)>& emit) const {
  try {
    scan_split(split_index, projection, emit);
  } catch (const CsvSyntaxError&) {
    throw_read_failed(files_[splits_.at(split_index).file].path, "NO_HINT", "",
                      ErrorKind::kRuntime);
  }
}

void CsvReader::scan_split(size_t split_index, const std::vector<int>& projection,
                           const std::function<void(Batch)>& emit) const {
  const Split& s = splits_.at(split_index);
  const std::string& path = files_[s.file].path;
  FileBytes bytes(path, options_.encoding);
  int64_t batch_index = 0;

  if (projection.empty()) {
    // Nothing to convert: only the number of records matters, so lines are not parsed
    // (malformed ones are counted too, as in Spark).
    int64_t rows = 0;
    std::vector<CsvField> fields(options_.multi_line ? 1 : 0);
    walk_split(s, bytes, options_.header, fields.data(), static_cast<int>(fields.size()),
               INT_MAX, options_.multi_line, [&](const char*, const char*, int) {
                 if (++rows == kBatchRows) {
                   emit(Batch({}, rows, batch_index++));
                   rows = 0;
                 }
                 return true;
               });
    if (rows > 0) emit(Batch({}, rows, batch_index++));
    return;
  }

  std::vector<OutColumn> cols;
  std::vector<ColumnWriter> writers;
  cols.reserve(projection.size());
  writers.reserve(projection.size());
  int max_token = -1;
  std::vector<bool> data_seen(static_cast<size_t>(num_data_columns_), false);
  int data_projected = 0;
  int corrupt_col = -1;
  for (int idx : projection) {
    const StructField& f = schema_.at(static_cast<size_t>(idx));
    const int token = token_of_[static_cast<size_t>(idx)];
    OutColumn c{token < 0 ? CsvValueConverter::Target{} : CsvValueConverter::target_of(f), token};
    if (token < 0) {
      corrupt_col = static_cast<int>(cols.size());
    } else {
      max_token = std::max(max_token, token);
      if (!data_seen[static_cast<size_t>(token)]) {
        data_seen[static_cast<size_t>(token)] = true;
        ++data_projected;
      }
    }
    cols.push_back(c);
    writers.emplace_back(f.type, kBatchRows);
  }
  // Spark checks the number of fields only when every data column is read; otherwise the
  // parser is asked for the selected columns alone and never sees the others.
  const bool check_count = data_projected == num_data_columns_;
  const int capacity = check_count ? num_data_columns_ : max_token + 1;
  const int limit = check_count ? INT_MAX : max_token + 1;
  std::vector<CsvField> fields(static_cast<size_t>(std::max(capacity, 1)));
  const ParseMode mode = options_.mode;
  std::string scratch;
  int64_t rows = 0;

  auto flush = [&]() {
    std::vector<ColumnPtr> out;
    out.reserve(writers.size());
    for (auto& w : writers) out.push_back(w.finish());
    emit(Batch(std::move(out), rows, batch_index++));
    rows = 0;
  };

  walk_split(s, bytes, options_.header, fields.data(), capacity, limit, true,
             [&](const char* rb, const char* re, int count) {
               bool bad = check_count && count != num_data_columns_;
               const size_t ncols = cols.size();
               for (size_t j = 0; j < ncols; ++j) {
                 const OutColumn& c = cols[j];
                 ColumnWriter& w = writers[j];
                 if (c.token < 0) continue;
                 if (c.token >= count) {
                   w.append_null();
                   continue;
                 }
                 const CsvField& f = fields[static_cast<size_t>(c.token)];
                 if (f.flags & CsvField::kNull) {
                   w.append_null();
                   continue;
                 }
                 const std::string_view v = tokenizer_->text(f, scratch);
                 // Spark's parser fails on a value past maxCharsPerColumn, whatever the mode.
                 if (options_.too_long(v)) throw_read_failed(path, "NO_HINT", "", ErrorKind::kRuntime);
                 if (converter_->is_null_text(v)) {
                   w.append_null();
                   continue;
                 }
                 if (!converter_->convert(c.target, v, w)) {
                   w.append_null();
                   bad = true;
                 }
               }
               if (bad) {
                 if (mode == ParseMode::kDropMalformed) {
                   for (auto& w : writers) w.truncate(rows);
                   return true;
                 }
                 if (mode == ParseMode::kFailFast) {
                   throw_read_failed(path, "NO_HINT", "", ErrorKind::kRuntime);
                 }
                 if (corrupt_col >= 0) {
                   writers[static_cast<size_t>(corrupt_col)].append_string(
                       std::string_view(rb, static_cast<size_t>(re - rb)));
                 }
               } else if (corrupt_col >= 0) {
                 writers[static_cast<size_t>(corrupt_col)].append_null();
               }
               ++rows;
               if (rows == kBatchRows) {
                 flush();
               } else if ((rows & 1023) == 0) {
                 int64_t bytes_held = 0;
                 for (auto& w : writers) bytes_held += w.string_bytes();
                 if (bytes_held > kBatchStringBytes) flush();
               }
               return true;
             });
  if (rows > 0) flush();
}

}  // namespace

std::unique_ptr<DataSourceReader> open_csv_reader(const ReadRequest& request) {
  return std::make_unique<CsvReader>(request);
}

}  // namespace ember::io
