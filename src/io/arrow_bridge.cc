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

// A dictionary-encoded string or binary array (as Parquet string columns decode) as a
// dictionary-coded column (Column::from_dictionary): the dictionary's bytes and the indices are
// shared with Arrow, and the rows' bytes are made only if a reader asks for them. Null when `a`
// is not such an array; Arrow's cast does the rest.
ColumnPtr strings_from_dictionary(const std::shared_ptr<arrow::Array>& array, const TypePtr& type) {
  if (array->type_id() != arrow::Type::DICTIONARY) return nullptr;
  const auto& a = static_cast<const arrow::DictionaryArray&>(*array);
  const arrow::Type::type value_type = a.dictionary()->type_id();
  if ((value_type != arrow::Type::STRING && value_type != arrow::Type::BINARY) ||
      a.indices()->type_id() != arrow::Type::INT32 ||
      (type->id() != TypeId::kString && type->id() != TypeId::kBinary)) {
    return nullptr;
  }
  const std::shared_ptr<arrow::Array>& dict_array = a.dictionary();
  const auto& dict = static_cast<const arrow::BinaryArray&>(*dict_array);
  const int64_t n = a.length();
  const int64_t dict_n = dict.length();
  EMBER_CHECK(dict.null_count() == 0, "a Parquet dictionary holds a null");

  // The dictionary as a column: Arrow's buffers as they are when its offsets start at 0 (as a
  // decoded dictionary page's do), else rebased.
  const int32_t* doff = dict.raw_value_offsets();
  const int32_t base = doff[0];
  const size_t bytes = static_cast<size_t>(doff[dict_n] - base);
  BufferPtr dict_offsets;
  BufferPtr dict_data;
  if (base == 0) {
    dict_offsets = Buffer::wrap(doff, static_cast<size_t>(dict_n + 1) * sizeof(int32_t), dict_array);
    dict_data = Buffer::wrap(dict.raw_data(), bytes, dict_array);
  } else {
    dict_offsets = Buffer::allocate(static_cast<size_t>(dict_n + 1) * sizeof(int32_t));
    for (int64_t k = 0; k <= dict_n; ++k) dict_offsets->mutable_as<int32_t>()[k] = doff[k] - base;
    dict_data = Buffer::allocate(bytes);
    if (bytes > 0) std::memcpy(dict_data->mutable_data(), dict.raw_data() + base, bytes);
  }
  ColumnPtr dictionary = Column::make(type, dict_n, nullptr, dict_data, dict_offsets);

  BufferPtr validity;
  const uint8_t* bits = a.null_count() > 0 ? a.null_bitmap_data() : nullptr;
  const int64_t bit_offset = a.offset();
  if (bits) {
    validity = Buffer::zeroed(static_cast<size_t>((n + 7) / 8));
    uint8_t* v = validity->mutable_data();
    if (bit_offset % 8 == 0) {
      // Byte-aligned: the bitmap copies as bytes; bits past the last row stay clear.
      std::memcpy(v, bits + bit_offset / 8, static_cast<size_t>((n + 7) / 8));
      if (n % 8 != 0) v[n / 8] &= static_cast<uint8_t>((1u << (n % 8)) - 1);
    } else {
      for (int64_t i = 0; i < n; ++i)
        if (get_bit(bits, bit_offset + i)) set_bit(v, i);
    }
  }
  // Every valid row's index must name a dictionary value; a null row's index is ignored.
  const int32_t* idx = static_cast<const arrow::Int32Array&>(*a.indices()).raw_values();
  bool in_range = true;
  for (int64_t i = 0; i < n; ++i)
    in_range &= (static_cast<uint32_t>(idx[i]) < static_cast<uint64_t>(dict_n)) || (validity && !get_bit(validity->data(), i));
  EMBER_CHECK(in_range, "dictionary index out of range in a decoded Parquet column");
  auto codes = std::make_shared<DictionaryCodes>();
  codes->codes = Buffer::wrap(idx, static_cast<size_t>(n) * sizeof(int32_t), a.indices());
  codes->cardinality = static_cast<int32_t>(dict_n);
  return Column::from_dictionary(type, n, std::move(validity), std::move(dictionary), std::move(codes));
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
    if (ColumnPtr c = strings_from_dictionary(arrays[i], target[i].type)) {
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
