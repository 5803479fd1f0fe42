#include "io/parquet_reader.h"

#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/statistics.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "common/error.h"
#include "common/thread_pool.h"
#include "io/arrow_bridge.h"
#include "io/arrow_memory.h"
#include "io/file_listing.h"
#include "io/file_schema.h"
#include "io/parquet_page_decoder.h"
#include "io/read_errors.h"
#include "io/spark_splits.h"

namespace ember::io {

namespace {

constexpr int64_t kBatchRows = 65536;

[[noreturn]] void footer_failed(const std::string& path) {
  throw_read_failed(path, "CANNOT_READ_FILE_FOOTER",
                    "Could not read footer. Please ensure that the file is in either ORC or "
                    "Parquet format. If not, please convert it to a valid format. If the file is "
                    "in the valid format, please check if it is corrupt. If it is, you can choose "
                    "to either ignore it or fix the corruption.");
}

struct TypeContext {
  const parquet::SchemaDescriptor* descr;
  bool binary_as_string;
};

/// The Spark type of a Parquet column as Arrow reads it (`SchemaField` keeps the leaf index,
/// which tells INT96 timestamps from TIMESTAMP ones).
TypePtr spark_type(const parquet::arrow::SchemaField& f, const TypeContext& ctx,
                   const std::string& path) {
  const arrow::DataType& t = *f.field->type();
  auto unsupported = [&]() -> TypePtr {
    throw SparkError(ErrorKind::kAnalysis, "PARQUET_TYPE_NOT_SUPPORTED",
                     "Parquet type not supported: " + t.ToString() + " (column " +
                         f.field->name() + " of " + file_uri(path) + ").",
                     {{"parquetType", t.ToString()}});
  };
  switch (t.id()) {
    case arrow::Type::NA: return DataType::null();
    case arrow::Type::BOOL: return DataType::boolean();
    case arrow::Type::INT8: return DataType::byte();
    case arrow::Type::INT16: return DataType::short_();
    case arrow::Type::INT32: return DataType::int_();
    case arrow::Type::INT64: return DataType::long_();
    case arrow::Type::UINT8: return DataType::short_();
    case arrow::Type::UINT16: return DataType::int_();
    case arrow::Type::UINT32: return DataType::long_();
    case arrow::Type::UINT64: return DataType::decimal(20, 0);
    case arrow::Type::FLOAT: return DataType::float_();
    case arrow::Type::DOUBLE: return DataType::double_();
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW: return DataType::string();
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::FIXED_SIZE_BINARY:
      return ctx.binary_as_string ? DataType::string() : DataType::binary();
    case arrow::Type::DATE32: return DataType::date();
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(t);
      bool int96 = f.column_index >= 0 &&
                   ctx.descr->Column(f.column_index)->physical_type() == parquet::Type::INT96;
      if (!int96 && ts.unit() == arrow::TimeUnit::NANO) {
        // Spark reads neither TIMESTAMP(NANOS) nor other units it has no type for.
        const std::string shown = std::string("INT64 (TIMESTAMP(NANOS,") +
                                  (ts.timezone().empty() ? "false" : "true") + "))";
        throw SparkError(ErrorKind::kAnalysis, "PARQUET_TYPE_ILLEGAL",
                         "Illegal Parquet type: " + shown + ".", {{"parquetType", shown}}, "42846");
      }
      return int96 || !ts.timezone().empty() ? DataType::timestamp() : DataType::timestamp_ntz();
    }
    case arrow::Type::TIME32:
    case arrow::Type::TIME64: {
      // Spark reads TIME(MICROS) and TIME(NANOS), the units it writes; others are illegal to it.
      const auto unit = static_cast<const arrow::TimeType&>(t).unit();
      if (unit == arrow::TimeUnit::MICRO) return DataType::time();
      if (unit == arrow::TimeUnit::NANO) return DataType::time(DataType::kMaxTimePrecision);
      const std::string shown = std::string(t.id() == arrow::Type::TIME32 ? "INT32" : "INT64") + " (TIME(" +
                                (unit == arrow::TimeUnit::MILLI ? "MILLIS" : unit == arrow::TimeUnit::NANO ? "NANOS" : "SECONDS") +
                                ",false))";
      throw SparkError(ErrorKind::kAnalysis, "PARQUET_TYPE_ILLEGAL", "Illegal Parquet type: " + shown + ".",
                       {{"parquetType", shown}}, "42846");
    }
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::DecimalType&>(t);
      return DataType::decimal(d.precision(), d.scale());
    }
    case arrow::Type::DICTIONARY: {
      const auto& d = static_cast<const arrow::DictionaryType&>(t);
      parquet::arrow::SchemaField value = f;
      value.field = arrow::field(f.field->name(), d.value_type());
      return spark_type(value, ctx, path);
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST: {
      if (f.children.size() != 1) return unsupported();
      return DataType::array(spark_type(f.children[0], ctx, path), true);
    }
    case arrow::Type::MAP: {
      // children: the key_value struct, whose children are key and value.
      if (f.children.size() != 1 || f.children[0].children.size() != 2) return unsupported();
      const auto& kv = f.children[0].children;
      return DataType::map(spark_type(kv[0], ctx, path), spark_type(kv[1], ctx, path), true);
    }
    case arrow::Type::STRUCT: {
      std::vector<StructField> fields;
      for (const auto& c : f.children)
        fields.push_back({c.field->name(), spark_type(c, ctx, path), true, "{}"});
      return DataType::struct_(std::move(fields));
    }
    default: return unsupported();
  }
}

/// Leaf column indices under a schema field, for projection.
void collect_leaves(const parquet::arrow::SchemaField& f, std::vector<int>& out) {
  if (f.column_index >= 0) out.push_back(f.column_index);
  for (const auto& c : f.children) collect_leaves(c, out);
}

/// Whether every data page of a column chunk is dictionary-encoded, as far as the footer says
/// (a chunk without page encoding statistics counts as such). A writer whose dictionary grew
/// past its size limit writes the remaining pages plain; Arrow reads such a chunk as a
/// dictionary only by hashing every plain value into a new one, far slower than reading the
/// chunk as plain strings.
bool all_dictionary_pages(const parquet::ColumnChunkMetaData& chunk) {
  for (const parquet::PageEncodingStats& s : chunk.encoding_stats()) {
    const bool data_page = s.page_type == parquet::PageType::DATA_PAGE || s.page_type == parquet::PageType::DATA_PAGE_V2;
    if (data_page && s.count > 0 && s.encoding != parquet::Encoding::RLE_DICTIONARY &&
        s.encoding != parquet::Encoding::PLAIN_DICTIONARY) {
      return false;
    }
  }
  return true;
}

/// A Parquet file: its footer, read once when the relation opens.
struct ParquetFile {
  std::string path;
  int64_t size = 0;
  std::shared_ptr<parquet::FileMetaData> metadata;
  Schema schema;             // Spark view of the file's top-level fields
  std::vector<int> leaf;     // leaf column of each top-level field; -1 when it is nested
};

/// Opens `path` for reading with cached metadata. Arrow's FileReader owns the file, which is
/// memory-mapped: the column chunks Arrow reads are then views of the page cache, where a read
/// would copy each one into a freshly allocated buffer (a copy and a page fault per page, about
/// a tenth of a scan's time over snappy pages).
/// `dictionary_leaves` are read as Arrow dictionary arrays (string columns, which Parquet
/// writers dictionary-encode: decoding them to indices skips building every value).
/// `parallel_columns` decodes the columns of a row group on Arrow's threads, for scans with
/// fewer row groups than Ember has threads (otherwise row groups already run in parallel).
std::unique_ptr<parquet::arrow::FileReader> open_file(const std::string& path,
                                                      std::shared_ptr<parquet::FileMetaData> md,
                                                      const std::vector<int>& dictionary_leaves = {},
                                                      bool parallel_columns = false) {
  auto file = arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ);
  if (!file.ok()) {
    throw_read_failed(path, "FILE_NOT_EXIST",
                      "File does not exist. It is possible the underlying files have been "
                      "updated. You can explicitly invalidate the cache in Spark by running "
                      "'REFRESH TABLE tableName' command in SQL or by recreating the "
                      "Dataset/DataFrame involved.",
                      ErrorKind::kFileNotFound);
  }
  parquet::ArrowReaderProperties props;
  props.set_batch_size(kBatchRows);
  props.set_use_threads(parallel_columns);
  props.set_coerce_int96_timestamp_unit(arrow::TimeUnit::MICRO);
  for (int leaf : dictionary_leaves) props.set_read_dictionary(leaf, true);
  std::unique_ptr<parquet::ParquetFileReader> pq;
  try {
    pq = parquet::ParquetFileReader::Open(*file, parquet::ReaderProperties(arrow_pool()), std::move(md));
  } catch (const std::exception&) {
    footer_failed(path);
  }
  auto reader = parquet::arrow::FileReader::Make(arrow_pool(), std::move(pq), props);
  if (!reader.ok()) footer_failed(path);
  return std::move(*reader);
}

class ParquetReader final : public DataSourceReader {
 public:
  explicit ParquetReader(const ReadRequest& request) {
    const Config* config = request.config;
    case_sensitive_ = config && config->case_sensitive();
    binary_as_string_ = config && config->get_bool("spark.sql.parquet.binaryAsString", false);
    native_decoder_ = !config || config->get_bool("spark.ember.parquet.nativeDecoder", true);
    const bool merge = request.options.get_bool(
        "mergeSchema", config && config->get_bool("spark.sql.parquet.mergeSchema", false));
    const std::vector<InputFile> inputs = list_input_files(request.paths, listing_options(request));
    for (const auto& f : inputs) {
      open_footer(f.path);
      files_.back().size = f.size;
    }
    spark_split_ = spark_split_bytes(request, inputs);
    if (request.user_schema) {
      schema_ = request.user_schema->fields();
    } else {
      std::vector<const Schema*> schemas;
      for (const auto& f : files_) schemas.push_back(&f.schema);
      schema_ = infer_file_schema(schemas, merge, case_sensitive_, "Parquet");
    }
    for (auto& f : schema_) f.nullable = true;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      const int groups = files_[fi].metadata->num_row_groups();
      for (int g = 0; g < groups; ++g) splits_.push_back({fi, g});
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  /// A row group belongs to the Spark split that holds its midpoint (Parquet's rule for
  /// assigning row groups to byte ranges).
  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    const Split& s = splits_[i];
    const ParquetFile& f = files_[s.file];
    const auto group = f.metadata->RowGroup(s.group);
    int64_t start = 0, bytes = 0;
    for (int c = 0; c < group->num_columns(); ++c) {
      const auto chunk = group->ColumnChunk(c);
      bytes += chunk->total_compressed_size();
      if (c == 0) {
        start = chunk->data_page_offset();
        if (chunk->has_dictionary_page() && chunk->dictionary_page_offset() > 0)
          start = std::min(start, chunk->dictionary_page_offset());
      }
    }
    return spark_file_block({f.path, f.size, ""}, start + bytes / 2, spark_split_, true);
  }
  double estimated_rows() const override {
    double rows = 0;
    for (const auto& f : files_) rows += static_cast<double>(f.metadata->num_rows());
    return rows;
  }
  std::vector<std::string> input_files() const override { return input_file_uris(files_); }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    const Split& s = splits_[i];
    const ParquetFile& file = files_[s.file];
    // The projection index past the schema asks for each row's position within its file, the
    // row_index of the `_metadata` column (io/file_metadata.h): the rows of the row groups
    // before this one, then the rows emitted before each batch (a row group's rows are all
    // emitted, in order).
    const auto row_index_at =
        std::find(projection.begin(), projection.end(), static_cast<int>(schema_.size()));
    if (row_index_at != projection.end()) {
      const auto at = row_index_at - projection.begin();
      std::vector<int> columns = projection;
      columns.erase(columns.begin() + at);
      int64_t next = 0;
      for (int g = 0; g < s.group; ++g) next += file.metadata->RowGroup(g)->num_rows();
      read_split(i, columns, [&](Batch b) {
        auto data = Buffer::allocate(static_cast<size_t>(b.num_rows) * sizeof(int64_t));
        int64_t* out = data->mutable_as<int64_t>();
        for (int64_t r = 0; r < b.num_rows; ++r) out[r] = next + r;
        next += b.num_rows;
        b.columns.insert(b.columns.begin() + at,
                         Column::make(DataType::long_(), b.num_rows, nullptr, data));
        emit(std::move(b));
      });
      return;
    }
    const int64_t group_rows = file.metadata->RowGroup(s.group)->num_rows();
    if (projection.empty()) {
      for (int64_t done = 0; done < group_rows; done += kBatchRows)
        emit(Batch({}, std::min(kBatchRows, group_rows - done)));
      return;
    }
    std::vector<int> dictionary_leaves;
    const auto group = file.metadata->RowGroup(s.group);
    for (int idx : projection) {
      const int fi = find_field(file, schema_.at(static_cast<size_t>(idx)).name);
      if (fi < 0) continue;
      const int leaf = file.leaf[static_cast<size_t>(fi)];
      const TypeId id = file.schema[static_cast<size_t>(fi)].type->id();
      if (leaf >= 0 && (id == TypeId::kString || id == TypeId::kBinary) &&
          file.metadata->schema()->Column(leaf)->physical_type() == parquet::Type::BYTE_ARRAY &&
          all_dictionary_pages(*group->ColumnChunk(leaf))) {
        dictionary_leaves.push_back(leaf);
      }
    }
    const bool parallel_columns =
        splits_.size() < ThreadPool::global().size() && projection.size() > 1;
    auto reader = open_file(file.path, file.metadata, dictionary_leaves, parallel_columns);
    // Which file field feeds each projected column (-1: absent from this file).
    Schema target;
    std::vector<int> source(projection.size(), -1);
    std::vector<int> fields_read;
    for (size_t k = 0; k < projection.size(); ++k) {
      const StructField& f = schema_.at(static_cast<size_t>(projection[k]));
      target.push_back(f);
      const int fi = find_field(file, f.name);
      if (fi < 0) continue;
      if (!readable_as(*file.schema[static_cast<size_t>(fi)].type, *f.type)) {
        schema_mismatch(file, f, *file.schema[static_cast<size_t>(fi)].type);
      }
      source[k] = fi;
      if (std::find(fields_read.begin(), fields_read.end(), fi) == fields_read.end())
        fields_read.push_back(fi);
    }
    try {
      read_row_group(file, s.group, *reader, fields_read, source, target, dictionary_leaves,
                     parallel_columns, emit);
    } catch (const parquet::ParquetException& e) {
      decode_failed(file.path, e.what());
    }
  }

  bool split_may_match(size_t i, const std::vector<ScanPredicate>& predicates) const override {
    const Split& s = splits_[i];
    const ParquetFile& file = files_[s.file];
    auto group = file.metadata->RowGroup(s.group);
    for (const auto& p : predicates) {
      const StructField& f = schema_.at(static_cast<size_t>(p.column));
      const int fi = find_field(file, f.name);
      if (fi < 0) {
        // The column reads as all nulls in this file.
        if (p.op != ScanPredicate::Op::kIsNull) return false;
        continue;
      }
      if (!file.schema[static_cast<size_t>(fi)].type->equals(*f.type)) continue;
      const int leaf = file.leaf[static_cast<size_t>(fi)];
      if (leaf < 0) continue;
      if (!chunk_may_match(*group->ColumnChunk(leaf), *file.metadata->schema()->Column(leaf),
                           group->num_rows(), *f.type, p))
        return false;
    }
    return true;
  }

 private:
  struct Split {
    size_t file;
    int group;
  };

  void open_footer(const std::string& path) {
    ParquetFile f;
    f.path = path;
    auto file = arrow::io::ReadableFile::Open(path);
    if (!file.ok()) footer_failed(path);
    try {
      auto pq = parquet::ParquetFileReader::Open(*file);
      f.metadata = pq->metadata();
      std::shared_ptr<arrow::Schema> arrow_schema;
      parquet::ArrowReaderProperties props;
      props.set_coerce_int96_timestamp_unit(arrow::TimeUnit::MICRO);
      parquet::arrow::SchemaManifest manifest;
      arrow::Status st = parquet::arrow::SchemaManifest::Make(
          f.metadata->schema(), f.metadata->key_value_metadata(), props, &manifest);
      if (!st.ok()) footer_failed(path);
      TypeContext ctx{f.metadata->schema(), binary_as_string_};
      for (const auto& sf : manifest.schema_fields) {
        f.schema.push_back({sf.field->name(), spark_type(sf, ctx, path), true, "{}"});
        f.leaf.push_back(sf.children.empty() ? sf.column_index : -1);
      }
    } catch (const parquet::ParquetException&) {
      footer_failed(path);
    }
    files_.push_back(std::move(f));
  }

  /// Decodes row group `group` of `file` into batches of kBatchRows rows (the last one shorter):
  /// the column chunks Ember's decoder takes (parquet_page_decoder.h) through it, the others
  /// through Arrow's record reader, whose batches have the same boundaries. `source[k]` is the
  /// file field of projected column k (-1 when the file lacks it); `fields_read` the distinct
  /// ones.
  void read_row_group(const ParquetFile& file, int group, parquet::arrow::FileReader& reader,
                      const std::vector<int>& fields_read, const std::vector<int>& source,
                      const Schema& target, const std::vector<int>& dictionary_leaves,
                      bool parallel_columns, const std::function<void(Batch)>& emit) const {
    const auto& manifest = reader.manifest();
    const auto group_md = file.metadata->RowGroup(group);
    const int64_t group_rows = group_md->num_rows();
    std::shared_ptr<parquet::RowGroupReader> pages;
    // The decoder of each field Ember decodes itself; the others' leaves go to Arrow.
    std::map<int, std::unique_ptr<ParquetChunkDecoder>> decoders;
    std::vector<int> leaves;
    for (int fi : fields_read) {
      const auto& sf = manifest.schema_fields[static_cast<size_t>(fi)];
      const int leaf = file.leaf[static_cast<size_t>(fi)];
      std::optional<NativeValueKind> kind;
      if (native_decoder_ && leaf >= 0) {
        const TypePtr& file_type = file.schema[static_cast<size_t>(fi)].type;
        bool same_type = true;
        for (size_t k = 0; k < source.size(); ++k)
          if (source[k] == fi && !target[k].type->equals(*file_type)) same_type = false;
        if (same_type) {
          kind = native_value_kind(*file.metadata->schema()->Column(leaf),
                                   *group_md->ColumnChunk(leaf), *sf.field->type(), *file_type);
        }
      }
      if (!kind) {
        collect_leaves(sf, leaves);
        continue;
      }
      if (!pages) pages = reader.parquet_reader()->RowGroup(group);
      const bool dictionary = std::find(dictionary_leaves.begin(), dictionary_leaves.end(), leaf) !=
                              dictionary_leaves.end();
      decoders[fi] = std::make_unique<ParquetChunkDecoder>(
          pages->GetColumnPageReader(leaf), *file.metadata->schema()->Column(leaf), *kind,
          file.schema[static_cast<size_t>(fi)].type, dictionary);
    }
    // Arrow converts the columns it read and makes all-null ones for absent fields; the decoded
    // columns take their places.
    std::vector<size_t> from_arrow;
    Schema arrow_target;
    for (size_t k = 0; k < target.size(); ++k) {
      if (source[k] >= 0 && decoders.count(source[k])) continue;
      from_arrow.push_back(k);
      arrow_target.push_back(target[k]);
    }
    std::vector<std::pair<int, ParquetChunkDecoder*>> native(decoders.size());
    size_t d = 0;
    for (auto& [fi, decoder] : decoders) native[d++] = {fi, decoder.get()};
    auto make_batch = [&](const std::shared_ptr<arrow::RecordBatch>& rb, int64_t rows) {
      std::vector<ColumnPtr> decoded(native.size());
      auto decode = [&](size_t i) { decoded[i] = native[i].second->next(rows); };
      if (parallel_columns && native.size() > 1) {
        ThreadPool::global().parallel_run(native.size(), decode);
      } else {
        for (size_t i = 0; i < native.size(); ++i) decode(i);
      }
      std::vector<std::shared_ptr<arrow::Array>> arrays(from_arrow.size());
      for (size_t a = 0; a < from_arrow.size(); ++a) {
        const int fi = source[from_arrow[a]];
        if (fi < 0 || !rb) continue;
        const std::string& name = manifest.schema_fields[static_cast<size_t>(fi)].field->name();
        arrays[a] = rb->GetColumnByName(name);
        EMBER_CHECK(arrays[a] != nullptr, "parquet column missing from a decoded batch");
      }
      Batch converted = batch_from_arrow(arrays, rows, arrow_target);
      Batch out({}, rows);
      out.columns.resize(target.size());
      for (size_t a = 0; a < from_arrow.size(); ++a)
        out.columns[from_arrow[a]] = converted.columns[a];
      for (size_t k = 0; k < target.size(); ++k) {
        if (out.columns[k]) continue;
        for (size_t i = 0; i < native.size(); ++i)
          if (native[i].first == source[k]) out.columns[k] = decoded[i];
      }
      return out;
    };
    if (leaves.empty()) {
      for (int64_t done = 0; done < group_rows; done += kBatchRows)
        emit(make_batch(nullptr, std::min(kBatchRows, group_rows - done)));
      return;
    }
    std::sort(leaves.begin(), leaves.end());
    auto batches = reader.GetRecordBatchReader({group}, leaves);
    if (!batches.ok()) decode_failed(file.path, batches.status().ToString());
    for (;;) {
      std::shared_ptr<arrow::RecordBatch> rb;
      arrow::Status st = (*batches)->ReadNext(&rb);
      if (!st.ok()) decode_failed(file.path, st.ToString());
      if (!rb) break;
      emit(make_batch(rb, rb->num_rows()));
    }
  }

  int find_field(const ParquetFile& file, const std::string& name) const {
    return find_column(file.schema, name, case_sensitive_);
  }

  [[noreturn]] static void schema_mismatch(const ParquetFile& file, const StructField& f,
                                           const DataType& actual) {
    const std::string uri = file_uri(file.path);
    throw SparkError(ErrorKind::kRuntime, "FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH",
                     "Encountered error while reading file " + uri +
                         ". Data type mismatches when reading Parquet column [" + f.name +
                         "]. Expected Spark type " + f.type->sql() + ", actual Parquet type " +
                         actual.sql() + ".",
                     {{"path", uri}, {"column", "[" + f.name + "]"},
                      {"expectedType", f.type->sql()}, {"actualType", actual.sql()}},
                     "KD001");
  }

  [[noreturn]] static void decode_failed(const std::string& path, const std::string&) {
    throw_read_failed(path, "NO_HINT", "");
  }

  /// Whether a column chunk's statistics allow a row satisfying `p`.
  static bool chunk_may_match(const parquet::ColumnChunkMetaData& chunk,
                              const parquet::ColumnDescriptor& descr, int64_t rows,
                              const DataType& type, const ScanPredicate& p) {
    std::shared_ptr<parquet::Statistics> stats;
    try {
      if (!chunk.is_stats_set()) return true;
      stats = chunk.statistics();
    } catch (const std::exception&) {
      return true;
    }
    if (!stats) return true;
    const bool has_nulls = stats->HasNullCount();
    if (p.op == ScanPredicate::Op::kIsNull) return !has_nulls || stats->null_count() > 0;
    if (has_nulls && stats->null_count() >= rows) return false;  // all null: no comparison holds
    if (p.op == ScanPredicate::Op::kIsNotNull) return true;
    if (!stats->HasMinMax() || p.value.is_null()) return true;
    int c_min = 0, c_max = 0;  // sign of (min - literal), (max - literal)
    const parquet::LogicalType& logical = *descr.logical_type();
    switch (stats->physical_type()) {
      case parquet::Type::INT32: {
        if (!(type.is_integral() || type.id() == TypeId::kDate) || logical.is_decimal()) return true;
        if (logical.is_int() && !static_cast<const parquet::IntLogicalType&>(logical).is_signed())
          return true;
        auto& s = static_cast<parquet::Int32Statistics&>(*stats);
        const int64_t v = p.value.as_int();
        c_min = (s.min() > v) - (s.min() < v);
        c_max = (s.max() > v) - (s.max() < v);
        break;
      }
      case parquet::Type::INT64: {
        bool ok = type.id() == TypeId::kLong && !logical.is_decimal() &&
                  !(logical.is_int() && !static_cast<const parquet::IntLogicalType&>(logical).is_signed());
        if ((type.id() == TypeId::kTimestamp || type.id() == TypeId::kTimestampNtz) &&
            logical.is_timestamp() &&
            static_cast<const parquet::TimestampLogicalType&>(logical).time_unit() ==
                parquet::LogicalType::TimeUnit::MICROS)
          ok = true;
        if (!ok) return true;
        auto& s = static_cast<parquet::Int64Statistics&>(*stats);
        const int64_t v = p.value.as_int();
        c_min = (s.min() > v) - (s.min() < v);
        c_max = (s.max() > v) - (s.max() < v);
        break;
      }
      case parquet::Type::BYTE_ARRAY: {
        if (type.id() != TypeId::kString && type.id() != TypeId::kBinary) return true;
        auto& s = static_cast<parquet::ByteArrayStatistics&>(*stats);
        const std::string& v = p.value.as_bytes();
        auto cmp = [&](const parquet::ByteArray& a) {
          const size_t n = std::min<size_t>(a.len, v.size());
          int r = n ? std::memcmp(a.ptr, v.data(), n) : 0;
          if (r == 0) r = (a.len > v.size()) - (a.len < v.size());
          return (r > 0) - (r < 0);
        };
        c_min = cmp(s.min());
        c_max = cmp(s.max());
        break;
      }
      default: return true;  // floating point (NaN is outside the statistics), boolean, INT96
    }
    switch (p.op) {
      case ScanPredicate::Op::kEq: return c_min <= 0 && c_max >= 0;
      case ScanPredicate::Op::kLt: return c_min < 0;
      case ScanPredicate::Op::kLe: return c_min <= 0;
      case ScanPredicate::Op::kGt: return c_max > 0;
      case ScanPredicate::Op::kGe: return c_max >= 0;
      default: return true;
    }
  }

  bool case_sensitive_ = false;
  bool binary_as_string_ = false;
  // Whether flat column chunks are decoded by Ember (parquet_page_decoder.h) rather than Arrow.
  bool native_decoder_ = true;
  std::vector<ParquetFile> files_;
  Schema schema_;
  std::vector<Split> splits_;
  int64_t spark_split_ = 0;
};

}  // namespace

std::unique_ptr<DataSourceReader> open_parquet_reader(const ReadRequest& request) {
  return std::make_unique<ParquetReader>(request);
}

}  // namespace ember::io
