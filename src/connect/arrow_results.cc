#include "connect/arrow_results.h"

#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "column/arrow_c.h"
#include "common/error.h"
#include "connect/errors.h"

namespace ember::connect {

namespace {

[[noreturn]] void arrow_failure(const arrow::Status& st, const char* what) {
  throw SparkError(ErrorKind::kInternal, "INTERNAL_ERROR", std::string(what) + ": " + st.ToString(),
                   {{"message", st.ToString()}}, "XX000");
}

template <typename T>
T value_or_throw(arrow::Result<T> r, const char* what) {
  if (!r.ok()) arrow_failure(r.status(), what);
  return std::move(r).ValueUnsafe();
}

void check(const arrow::Status& st, const char* what) {
  if (!st.ok()) arrow_failure(st, what);
}

[[noreturn]] void bad_input(const std::string& detail) {
  throw_invalid_plan("ASSERTION_FAILURE",
                     "Cannot read the Arrow data of a LocalRelation: " + detail,
                     {{"message", "Cannot read the Arrow data of a LocalRelation: " + detail}});
}

/// The Arrow type Spark would use for `t`, for the Arrow types that have several encodings of
/// one Spark type. Returns `t` itself when it is already canonical.
std::shared_ptr<arrow::DataType> canonical_type(const std::shared_ptr<arrow::DataType>& t) {
  using arrow::Type;
  switch (t->id()) {
    case Type::LARGE_STRING:
    case Type::STRING_VIEW:
      return arrow::utf8();
    case Type::LARGE_BINARY:
    case Type::BINARY_VIEW:
    case Type::FIXED_SIZE_BINARY:
      return arrow::binary();
    case Type::DICTIONARY:
      return canonical_type(static_cast<const arrow::DictionaryType&>(*t).value_type());
    case Type::DATE64:
      return arrow::date32();
    case Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(*t);
      if (ts.unit() == arrow::TimeUnit::MICRO) return t;
      return arrow::timestamp(arrow::TimeUnit::MICRO, ts.timezone());
    }
    case Type::DURATION: {
      const auto& d = static_cast<const arrow::DurationType&>(*t);
      if (d.unit() == arrow::TimeUnit::MICRO) return t;
      return arrow::duration(arrow::TimeUnit::MICRO);
    }
    case Type::LIST:
    case Type::LARGE_LIST:
    case Type::LIST_VIEW:
    case Type::LARGE_LIST_VIEW:
    case Type::FIXED_SIZE_LIST: {
      const auto& value_field = t->field(0);
      auto v = canonical_type(value_field->type());
      if (t->id() == Type::LIST && v == value_field->type()) return t;
      return arrow::list(value_field->WithType(v));
    }
    case Type::MAP: {
      const auto& m = static_cast<const arrow::MapType&>(*t);
      auto k = canonical_type(m.key_type());
      auto v = canonical_type(m.item_type());
      if (k == m.key_type() && v == m.item_type()) return t;
      return std::make_shared<arrow::MapType>(m.key_field()->WithType(k),
                                              m.item_field()->WithType(v), m.keys_sorted());
    }
    case Type::STRUCT: {
      bool changed = false;
      arrow::FieldVector fields;
      for (const auto& f : t->fields()) {
        auto c = canonical_type(f->type());
        changed |= c != f->type();
        fields.push_back(f->WithType(c));
      }
      return changed ? arrow::struct_(fields) : t;
    }
    default:
      return t;
  }
}

std::shared_ptr<arrow::RecordBatch> canonical_batch(const std::shared_ptr<arrow::RecordBatch>& rb,
                                                    const std::shared_ptr<arrow::Schema>& target) {
  if (rb->schema()->Equals(*target, /*check_metadata=*/false)) return rb;
  static std::once_flag init;
  std::call_once(init, [] { (void)arrow::compute::Initialize(); });
  arrow::ArrayVector columns;
  for (int i = 0; i < rb->num_columns(); ++i) {
    const auto& to = target->field(i)->type();
    if (rb->column(i)->type()->Equals(*to)) {
      columns.push_back(rb->column(i));
      continue;
    }
    auto cast = arrow::compute::Cast(*rb->column(i), to, arrow::compute::CastOptions::Safe());
    if (!cast.ok()) {
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_ARROWTYPE",
                       "Unsupported arrow type " + rb->column(i)->type()->ToString() + ".",
                       {{"typeName", rb->column(i)->type()->ToString()}}, "0A000");
    }
    columns.push_back(*cast);
  }
  return arrow::RecordBatch::Make(target, rb->num_rows(), std::move(columns));
}

/// Owns a C schema until it is released.
struct CSchema {
  ArrowSchema s{};
  ~CSchema() {
    if (s.release) s.release(&s);
  }
};

struct CArray {
  ArrowArray a{};
  ~CArray() {
    if (a.release) a.release(&a);
  }
};

/// The type with every struct's fields under distinct names, as Spark's Connect server sends
/// results: the fields of a name that several fields of one struct share become name_0,
/// name_1, ... in order (Arrow consumers such as pyarrow's to_pylist cannot take duplicates).
/// The schema message of the response keeps the real names, which the client puts back.
std::shared_ptr<arrow::DataType> unique_field_names(const std::shared_ptr<arrow::DataType>& t) {
  using arrow::Type;
  switch (t->id()) {
    case Type::LIST: {
      const auto& value_field = t->field(0);
      auto v = unique_field_names(value_field->type());
      return v == value_field->type() ? t : arrow::list(value_field->WithType(v));
    }
    case Type::MAP: {
      const auto& m = static_cast<const arrow::MapType&>(*t);
      auto k = unique_field_names(m.key_type());
      auto v = unique_field_names(m.item_type());
      if (k == m.key_type() && v == m.item_type()) return t;
      return std::make_shared<arrow::MapType>(m.key_field()->WithType(k),
                                              m.item_field()->WithType(v), m.keys_sorted());
    }
    case Type::STRUCT: {
      std::map<std::string, int> count, seen;
      for (const auto& f : t->fields()) ++count[f->name()];
      bool changed = false;
      arrow::FieldVector fields;
      for (const auto& f : t->fields()) {
        auto c = unique_field_names(f->type());
        auto field = c == f->type() ? f : f->WithType(c);
        if (count[f->name()] > 1) field = field->WithName(f->name() + "_" + std::to_string(seen[f->name()]++));
        changed |= field != f;
        fields.push_back(field);
      }
      return changed ? arrow::struct_(fields) : t;
    }
    default:
      return t;
  }
}

}  // namespace

ArrowResultEncoder::ArrowResultEncoder(const Schema& schema, const std::string& time_zone,
                                       int64_t max_rows, int64_t max_bytes)
    : max_rows_(std::max<int64_t>(1, max_rows)), max_bytes_(std::max<int64_t>(1, max_bytes)) {
  CSchema c;
  export_schema(schema, time_zone, &c.s);
  auto imported = value_or_throw(arrow::ImportSchema(&c.s), "importing the result schema");
  arrow::FieldVector fields;
  for (const auto& f : imported->fields()) fields.push_back(f->WithType(unique_field_names(f->type())));
  schema_ = arrow::schema(fields, imported->metadata());
}

ArrowResultEncoder::~ArrowResultEncoder() = default;

namespace {

/// An Arrow output stream that appends to a string reserved up front, so that an encoded chunk
/// is written once and handed to the response as it is (no growth copies, no final copy).
class StringOutputStream : public arrow::io::OutputStream {
 public:
  explicit StringOutputStream(size_t reserve) { out_.reserve(reserve); }
  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return static_cast<int64_t>(out_.size()); }
  arrow::Status Write(const void* data, int64_t nbytes) override {
    out_.append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return arrow::Status::OK();
  }
  using arrow::io::OutputStream::Write;
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  bool closed_ = false;
};

/// One IPC stream of `rb`; `expected_bytes` (its buffers' size) sizes the output up front.
std::string ipc_stream(const std::shared_ptr<arrow::Schema>& schema, const arrow::RecordBatch& rb,
                       int64_t expected_bytes) {
  // Metadata: the schema and batch messages, padding of each buffer, the end marker.
  const size_t reserve = static_cast<size_t>(expected_bytes) + 1024 + 256 * static_cast<size_t>(schema->num_fields());
  auto sink = std::make_shared<StringOutputStream>(reserve);
  auto writer = value_or_throw(arrow::ipc::MakeStreamWriter(sink, schema), "opening an IPC stream");
  check(writer->WriteRecordBatch(rb), "writing an IPC record batch");
  check(writer->Close(), "closing an IPC stream");
  return sink->take();
}

}  // namespace

void ArrowResultEncoder::add(const Batch& batch, std::vector<ArrowChunk>* out) const {
  if (batch.num_rows == 0) return;
  CArray c;
  export_batch(batch, &c.a);
  auto rb = value_or_throw(arrow::ImportRecordBatch(&c.a, schema_), "importing a result batch");
  int64_t bytes_per_row = std::max<int64_t>(1, batch.memory_size() / batch.num_rows);
  int64_t rows_per_chunk = std::max<int64_t>(1, std::min(max_rows_, max_bytes_ / bytes_per_row));
  for (int64_t off = 0; off < batch.num_rows; off += rows_per_chunk) {
    int64_t n = std::min(rows_per_chunk, batch.num_rows - off);
    auto slice = rb->Slice(off, n);
    out->push_back(ArrowChunk{n, ipc_stream(schema_, *slice, bytes_per_row * n)});
  }
}

ArrowChunk ArrowResultEncoder::empty() const {
  auto rb = value_or_throw(arrow::RecordBatch::MakeEmpty(schema_), "creating an empty batch");
  return ArrowChunk{0, ipc_stream(schema_, *rb, 0)};
}

DecodedArrow decode_arrow_stream(const std::string& bytes) {
  // The batches keep slices of this buffer, so it owns a copy of the bytes.
  std::shared_ptr<arrow::Buffer> buffer = arrow::Buffer::FromString(bytes);
  auto source = std::make_shared<arrow::io::BufferReader>(buffer);
  auto opened = arrow::ipc::RecordBatchStreamReader::Open(source);
  if (!opened.ok()) bad_input(opened.status().ToString());
  auto reader = *opened;

  // The canonical schema: what Spark's types map to.
  auto in_schema = reader->schema();
  arrow::FieldVector fields;
  for (const auto& f : in_schema->fields())
    fields.push_back(f->WithType(canonical_type(f->type())));
  auto schema = arrow::schema(fields);

  CSchema c_schema;
  check(arrow::ExportSchema(*schema, &c_schema.s), "exporting an Arrow schema");
  DecodedArrow out;
  out.schema = import_schema(c_schema.s);

  while (true) {
    auto next = reader->Next();
    if (!next.ok()) bad_input(next.status().ToString());
    std::shared_ptr<arrow::RecordBatch> rb = *next;
    if (!rb) break;
    // Validation catches offsets and lengths that point outside the buffers before any kernel
    // reads them.
    auto valid = rb->ValidateFull();
    if (!valid.ok()) bad_input(valid.ToString());
    rb = canonical_batch(rb, schema);
    CArray c_array;
    check(arrow::ExportRecordBatch(*rb, &c_array.a), "exporting an Arrow batch");
    out.batches.push_back(import_batch(&c_array.a, c_schema.s, out.schema));
  }
  return out;
}

}  // namespace ember::connect
