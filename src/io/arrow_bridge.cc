#include "io/arrow_bridge.h"

#include <climits>
#include <cstring>
#include <vector>

#include <arrow/array.h>
#include <arrow/c/bridge.h>
#include <arrow/compute/api.h>

#include "column/arrow_c.h"
#include "io/arrow_memory.h"
#include "common/error.h"

namespace ember::io {

void check_arrow(const arrow::Status& status, const char* what) {
  if (!status.ok()) {
    throw SparkError(ErrorKind::kInternal, "INTERNAL_ERROR",
                     std::string(what) + ": " + status.ToString());
  }
}

std::shared_ptr<arrow::DataType> to_arrow_type(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull: return arrow::null();
    case TypeId::kBoolean: return arrow::boolean();
    case TypeId::kByte: return arrow::int8();
    case TypeId::kShort: return arrow::int16();
    case TypeId::kInt: return arrow::int32();
    case TypeId::kLong: return arrow::int64();
    case TypeId::kFloat: return arrow::float32();
    case TypeId::kDouble: return arrow::float64();
    case TypeId::kDecimal: return arrow::decimal128(t.precision(), t.scale());
    case TypeId::kString: return arrow::utf8();
    case TypeId::kBinary: return arrow::binary();
    case TypeId::kDate: return arrow::date32();
    case TypeId::kTimestamp: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case TypeId::kTimestampNtz: return arrow::timestamp(arrow::TimeUnit::MICRO);
    case TypeId::kTime: return arrow::time64(arrow::TimeUnit::NANO);
    case TypeId::kYearMonthInterval: return arrow::month_interval();
    case TypeId::kDayTimeInterval: return arrow::duration(arrow::TimeUnit::MICRO);
    case TypeId::kArray:
      return arrow::list(arrow::field("element", to_arrow_type(*t.element_type()), t.contains_null()));
    case TypeId::kMap:
      return arrow::map(to_arrow_type(*t.key_type()),
                        arrow::field("value", to_arrow_type(*t.value_type()), t.value_contains_null()));
    case TypeId::kStruct: {
      arrow::FieldVector fields;
      for (const auto& f : t.fields())
        fields.push_back(arrow::field(f.name, to_arrow_type(*f.type), f.nullable));
      return arrow::struct_(std::move(fields));
    }
    case TypeId::kCalendarInterval:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: writing INTERVAL columns to Parquet.", {}, "0A000");
    case TypeId::kVariant:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: writing VARIANT columns to Parquet (Ember writes them only "
                       "as JSON text, with the JSON source).",
                       {}, "0A000");
  }
  EMBER_CHECK(false, "unknown type id");
  return nullptr;
}

std::shared_ptr<arrow::Schema> to_arrow_schema(const Schema& schema) {
  arrow::FieldVector fields;
  for (const auto& f : schema) fields.push_back(arrow::field(f.name, to_arrow_type(*f.type), f.nullable));
  return arrow::schema(std::move(fields));
}

namespace {

std::shared_ptr<arrow::Array> conform(const std::shared_ptr<arrow::Array>& array,
                                      const std::shared_ptr<arrow::DataType>& want) {
  if (array->type()->Equals(*want)) return array;
  arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(want);
  // Nanosecond timestamps (INT96 or TIMESTAMP(NANOS)) lose their sub-microsecond digits, as
  // Spark truncates them.
  options.allow_time_truncate = true;
  arrow::compute::ExecContext ctx(arrow_pool());
  auto cast = arrow::compute::Cast(*array, want, options, &ctx);
  check_arrow(cast.status(), "converting a column read through Arrow");
  return *cast;
}

// A dictionary-encoded string or binary array (as Parquet string columns decode) as a plain
// column: values gathered by index into fresh offsets and bytes. Null when `a` is not such an
// array; Arrow's cast does the rest.
ColumnPtr strings_from_dictionary(const arrow::Array& array, const TypePtr& type) {
  if (array.type_id() != arrow::Type::DICTIONARY) return nullptr;
  const auto& a = static_cast<const arrow::DictionaryArray&>(array);
  const arrow::Type::type value_type = a.dictionary()->type_id();
  if ((value_type != arrow::Type::STRING && value_type != arrow::Type::BINARY) ||
      a.indices()->type_id() != arrow::Type::INT32 ||
      (type->id() != TypeId::kString && type->id() != TypeId::kBinary)) {
    return nullptr;
  }
  const auto& dict = static_cast<const arrow::BinaryArray&>(*a.dictionary());
  const int32_t* idx = static_cast<const arrow::Int32Array&>(*a.indices()).raw_values();
  const int64_t n = a.length();
  const int64_t dict_n = dict.length();
  // The dictionary's values, padded so that a short value copies as one 16-byte move.
  const int32_t* doff = dict.raw_value_offsets();
  const int32_t dict_base = doff[0];
  std::vector<uint8_t> dict_bytes(static_cast<size_t>(doff[dict_n] - dict_base) + 16);
  if (doff[dict_n] > dict_base)
    std::memcpy(dict_bytes.data(), dict.raw_data() + dict_base,
                static_cast<size_t>(doff[dict_n] - dict_base));

  BufferPtr validity;
  const uint8_t* bits = a.null_count() > 0 ? a.null_bitmap_data() : nullptr;
  const int64_t bit_offset = a.offset();
  auto valid = [&](int64_t i) {
    return !bits || (bits[(bit_offset + i) >> 3] >> ((bit_offset + i) & 7) & 1);
  };
  if (bits) {
    validity = Buffer::zeroed(static_cast<size_t>((n + 7) / 8));
    uint8_t* v = validity->mutable_data();
    if (bit_offset % 8 == 0) {
      // Byte-aligned: the bitmap copies as bytes; bits past the last row stay clear.
      std::memcpy(v, bits + bit_offset / 8, static_cast<size_t>((n + 7) / 8));
      if (n % 8 != 0) v[n / 8] &= static_cast<uint8_t>((1u << (n % 8)) - 1);
    } else {
      for (int64_t i = 0; i < n; ++i)
        if (valid(i)) v[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
  }
  auto offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int32_t));
  int32_t* off = offsets->mutable_as<int32_t>();
  int64_t total = 0;
  off[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (valid(i)) {
      const int32_t k = idx[i];
      EMBER_CHECK(k >= 0 && k < dict_n,
                  "dictionary index out of range in a decoded Parquet column");
      total += doff[k + 1] - doff[k];
      EMBER_CHECK(total <= INT32_MAX, "string column past 2 GiB in one Parquet batch");
    }
    off[i + 1] = static_cast<int32_t>(total);
  }
  auto data = Buffer::allocate(static_cast<size_t>(total) + 16);
  uint8_t* out = data->mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    const int32_t len = off[i + 1] - off[i];
    if (len == 0) continue;
    const uint8_t* src = dict_bytes.data() + (doff[idx[i]] - dict_base);
    if (len <= 16) {
      std::memcpy(out + off[i], src, 16);  // both sides have 16 bytes of room
    } else {
      std::memcpy(out + off[i], src, static_cast<size_t>(len));
    }
  }
  // The indices stay with the strings (column/column.h), so that an aggregation may group rows
  // by them without reading the strings.
  auto codes = std::make_shared<DictionaryCodes>();
  codes->codes = Buffer::wrap(idx, static_cast<size_t>(n) * sizeof(int32_t), a.indices());
  codes->cardinality = static_cast<int32_t>(dict_n);
  return Column::make(type, n, validity, data, offsets)->with_dictionary_codes(std::move(codes));
}

}  // namespace

Batch batch_from_arrow(const std::vector<std::shared_ptr<arrow::Array>>& arrays, int64_t num_rows,
                       const Schema& target) {
  EMBER_CHECK(arrays.size() == target.size(), "batch_from_arrow: arity mismatch");
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  std::vector<size_t> present;
  Schema present_schema;
  Batch out;
  out.num_rows = num_rows;
  out.columns.resize(target.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i]) continue;
    if (ColumnPtr c = strings_from_dictionary(*arrays[i], target[i].type)) {
      out.columns[i] = std::move(c);
      continue;
    }
    auto want = to_arrow_type(*target[i].type);
    columns.push_back(conform(arrays[i], want));
    fields.push_back(arrow::field(target[i].name, want, true));
    present.push_back(i);
    present_schema.push_back(target[i]);
  }
  if (!present.empty()) {
    auto rb = arrow::RecordBatch::Make(arrow::schema(fields), num_rows, columns);
    ArrowArray c_array;
    ArrowSchema c_schema;
    check_arrow(arrow::ExportRecordBatch(*rb, &c_array, &c_schema), "exporting an Arrow batch");
    Batch imported;
    try {
      imported = import_batch(&c_array, c_schema, present_schema);
    } catch (...) {
      if (c_array.release) c_array.release(&c_array);
      c_schema.release(&c_schema);
      throw;
    }
    c_schema.release(&c_schema);
    for (size_t k = 0; k < present.size(); ++k) out.columns[present[k]] = imported.columns[k];
  }
  for (size_t i = 0; i < target.size(); ++i)
    if (!out.columns[i]) out.columns[i] = Column::all_null(target[i].type, num_rows);
  return out;
}

std::shared_ptr<arrow::RecordBatch> batch_to_arrow(const Batch& batch, const Schema& schema) {
  ArrowArray c_array;
  ArrowSchema c_schema;
  export_batch(batch, &c_array);
  export_schema(schema, "UTC", &c_schema);
  auto rb = arrow::ImportRecordBatch(&c_array, &c_schema);
  check_arrow(rb.status(), "importing an Arrow batch");
  return *rb;
}

}  // namespace ember::io
