#include "io/parquet_page_decoder.h"

#include <arrow/type.h>
#include <parquet/exception.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "common/error.h"

namespace ember::io {

using parquet::Encoding;

namespace {

[[noreturn]] void corrupt(const char* what) {
  throw parquet::ParquetException(std::string("Corrupt Parquet page: ") + what);
}

int physical_width(NativeValueKind kind) {
  switch (kind) {
    case NativeValueKind::kInt64:
    case NativeValueKind::kMillisToMicros:
    case NativeValueKind::kDouble:
      return 8;
    default:
      return 4;
  }
}

int output_width(NativeValueKind kind) {
  switch (kind) {
    case NativeValueKind::kInt8:
      return 1;
    case NativeValueKind::kInt16:
      return 2;
    default:
      return physical_width(kind);
  }
}

uint32_t read_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// `count` PLAIN values of a fixed-width kind at `src` as output values at `dst`.
void plain_to_output(NativeValueKind kind, const uint8_t* src, int64_t count, uint8_t* dst) {
  switch (kind) {
    case NativeValueKind::kInt8: {
      auto* out = reinterpret_cast<int8_t*>(dst);
      for (int64_t i = 0; i < count; ++i)
        out[i] = static_cast<int8_t>(static_cast<int32_t>(read_le32(src + 4 * i)));
      return;
    }
    case NativeValueKind::kInt16: {
      auto* out = reinterpret_cast<int16_t*>(dst);
      for (int64_t i = 0; i < count; ++i)
        out[i] = static_cast<int16_t>(static_cast<int32_t>(read_le32(src + 4 * i)));
      return;
    }
    case NativeValueKind::kMillisToMicros: {
      auto* out = reinterpret_cast<int64_t*>(dst);
      bool overflow = false;
      for (int64_t i = 0; i < count; ++i) {
        int64_t v;
        std::memcpy(&v, src + 8 * i, 8);
        overflow |= __builtin_mul_overflow(v, int64_t{1000}, &out[i]);
      }
      if (overflow) {
        // What the cast of Arrow's milliseconds to Ember's microseconds reports.
        throw SparkError(ErrorKind::kInternal, "INTERNAL_ERROR",
                         "converting a column read through Arrow: Invalid: Casting from "
                         "timestamp[ms] to timestamp[us] would result in out of bounds timestamp");
      }
      return;
    }
    default:
      std::memcpy(dst, src, static_cast<size_t>(count * physical_width(kind)));
      return;
  }
}

/// Moves the `valid` values at the start of `values[0, n)` to the rows whose bits are set in
/// `bits` from bit `offset` (in order), zeroing the null rows. Runs backwards, so a value is read
/// before its slot is overwritten.
template <typename T>
void spread(T* values, int64_t n, int64_t valid, const uint8_t* bits, int64_t offset) {
  int64_t j = valid;
  for (int64_t i = n - 1; i >= 0 && j <= i; --i) {
    if (get_bit(bits, offset + i)) {
      values[i] = values[--j];
    } else {
      values[i] = T{};
    }
  }
}

void spread_bits(uint8_t* data, int64_t at, int64_t n, int64_t valid, const uint8_t* bits) {
  int64_t j = valid;
  for (int64_t i = n - 1; i >= 0 && j <= i; --i) {
    if (get_bit(bits, at + i)) {
      --j;
      put_bit(data, at + i, get_bit(data, at + j));
    } else {
      clear_bit(data, at + i);
    }
  }
}

}  // namespace

std::optional<NativeValueKind> native_value_kind(const parquet::ColumnDescriptor& descr,
                                                 const parquet::ColumnChunkMetaData& chunk,
                                                 const arrow::DataType& arrow_type,
                                                 const DataType& type) {
  if (descr.max_repetition_level() != 0 || descr.max_definition_level() > 1) return std::nullopt;
  if (chunk.crypto_metadata() != nullptr) return std::nullopt;
  for (Encoding::type e : chunk.encodings()) {
    if (e != Encoding::PLAIN && e != Encoding::RLE && e != Encoding::RLE_DICTIONARY &&
        e != Encoding::PLAIN_DICTIONARY) {
      return std::nullopt;
    }
  }
  const arrow::DataType* t = &arrow_type;
  if (t->id() == arrow::Type::DICTIONARY)
    t = static_cast<const arrow::DictionaryType&>(arrow_type).value_type().get();
  const TypeId id = type.id();
  switch (descr.physical_type()) {
    case parquet::Type::BOOLEAN:
      if (t->id() == arrow::Type::BOOL && id == TypeId::kBoolean) return NativeValueKind::kBoolean;
      break;
    case parquet::Type::INT32:
      if ((t->id() == arrow::Type::INT32 && id == TypeId::kInt) ||
          (t->id() == arrow::Type::DATE32 && id == TypeId::kDate)) {
        return NativeValueKind::kInt32;
      }
      if (t->id() == arrow::Type::INT8 && id == TypeId::kByte) return NativeValueKind::kInt8;
      if (t->id() == arrow::Type::INT16 && id == TypeId::kShort) return NativeValueKind::kInt16;
      break;
    case parquet::Type::INT64: {
      if (t->id() == arrow::Type::INT64 && id == TypeId::kLong) return NativeValueKind::kInt64;
      if (t->id() != arrow::Type::TIMESTAMP ||
          (id != TypeId::kTimestamp && id != TypeId::kTimestampNtz)) {
        break;
      }
      // The unit Arrow reads must be the one the file stores.
      const parquet::LogicalType& logical = *descr.logical_type();
      if (!logical.is_timestamp()) break;
      const auto unit = static_cast<const parquet::TimestampLogicalType&>(logical).time_unit();
      const auto arrow_unit = static_cast<const arrow::TimestampType&>(*t).unit();
      if (unit == parquet::LogicalType::TimeUnit::MICROS && arrow_unit == arrow::TimeUnit::MICRO)
        return NativeValueKind::kInt64;
      if (unit == parquet::LogicalType::TimeUnit::MILLIS && arrow_unit == arrow::TimeUnit::MILLI)
        return NativeValueKind::kMillisToMicros;
      break;
    }
    case parquet::Type::FLOAT:
      if (t->id() == arrow::Type::FLOAT && id == TypeId::kFloat) return NativeValueKind::kFloat;
      break;
    case parquet::Type::DOUBLE:
      if (t->id() == arrow::Type::DOUBLE && id == TypeId::kDouble) return NativeValueKind::kDouble;
      break;
    case parquet::Type::BYTE_ARRAY: {
      // Binary read as strings (spark.sql.parquet.binaryAsString) goes through Arrow's cast,
      // which checks UTF-8; it is left to Arrow.
      const bool text = t->id() == arrow::Type::STRING || t->id() == arrow::Type::LARGE_STRING;
      const bool bytes = t->id() == arrow::Type::BINARY || t->id() == arrow::Type::LARGE_BINARY;
      if ((text && id == TypeId::kString) || (bytes && id == TypeId::kBinary))
        return NativeValueKind::kBytes;
      break;
    }
    default:
      break;
  }
  return std::nullopt;
}

/// One batch being decoded. Strings are either codes into the chunk's dictionary or plain
/// offsets and bytes.
struct ParquetChunkDecoder::Output {
  int64_t rows = 0;
  BufferPtr validity;  // cleared bitmap when the column has definition levels
  BufferPtr values;    // fixed-width values or the boolean bitmap
  bool codes_mode = false;
  BufferPtr codes;
  BufferPtr offsets;
  BufferPtr data;
  int64_t data_size = 0;

  void start_plain() {
    offsets = Buffer::allocate(static_cast<size_t>(rows + 1) * sizeof(int32_t));
    offsets->mutable_as<int32_t>()[0] = 0;
    data = Buffer::allocate(static_cast<size_t>(std::max<int64_t>(rows * 8, 64)));
    data_size = 0;
  }
  /// Sets row `i`'s string (rows are appended in order).
  void put_string(int64_t i, const uint8_t* bytes, int64_t len) {
    const int64_t need = data_size + len;
    if (need > INT32_MAX) corrupt("string data of a batch past 2 GiB");
    if (static_cast<size_t>(need) > data->size())
      data->resize(std::max(static_cast<size_t>(need), data->size() * 2));
    if (len > 0) std::memcpy(data->mutable_data() + data_size, bytes, static_cast<size_t>(len));
    data_size = need;
    offsets->mutable_as<int32_t>()[i + 1] = static_cast<int32_t>(need);
  }
  void put_null_string(int64_t i) {
    int32_t* o = offsets->mutable_as<int32_t>();
    o[i + 1] = o[i];
  }
};

ParquetChunkDecoder::ParquetChunkDecoder(std::unique_ptr<parquet::PageReader> pages,
                                         const parquet::ColumnDescriptor& descr,
                                         NativeValueKind kind, TypePtr type,
                                         bool dictionary_strings)
    : pages_(std::move(pages)),
      max_def_(descr.max_definition_level()),
      physical_(descr.physical_type()),
      kind_(kind),
      type_(std::move(type)),
      dictionary_strings_(dictionary_strings && kind == NativeValueKind::kBytes) {}

ParquetChunkDecoder::~ParquetChunkDecoder() = default;

ColumnPtr ParquetChunkDecoder::next(int64_t rows) {
  Output out;
  out.rows = rows;
  if (max_def_ > 0) out.validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(rows)));
  if (kind_ == NativeValueKind::kBoolean) {
    out.values = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(rows)));
  } else if (kind_ == NativeValueKind::kBytes) {
    out.codes_mode = dictionary_strings_;
    if (out.codes_mode) {
      out.codes = Buffer::allocate(static_cast<size_t>(rows) * sizeof(int32_t));
    } else {
      out.start_plain();
    }
  } else {
    out.values = Buffer::allocate(static_cast<size_t>(rows * output_width(kind_)));
  }
  int64_t filled = 0;
  int64_t valid_rows = 0;
  while (filled < rows) {
    if (page_rows_left_ == 0 && !next_data_page()) corrupt("a column chunk ends before its rows");
    const int64_t take = std::min(rows - filled, page_rows_left_);
    int64_t valid = take;
    if (max_def_ > 0 &&
        def_levels_.decode_bits(out.validity->mutable_data(), filled, take, &valid) != take) {
      corrupt("short definition levels");
    }
    decode_values(out, filled, take, valid);
    valid_rows += valid;
    page_rows_left_ -= take;
    filled += take;
  }
  const int64_t nulls = rows - valid_rows;
  BufferPtr validity = nulls > 0 ? out.validity : nullptr;
  if (kind_ != NativeValueKind::kBytes)
    return Column::make(type_, rows, validity, out.values, nullptr, {}, nulls);
  if (out.codes_mode) {
    if (!dictionary_strings_column_) {
      // A chunk without a dictionary page holds only nulls here.
      auto offsets = Buffer::zeroed(sizeof(int32_t));
      dictionary_strings_column_ = Column::make(type_, 0, nullptr, Buffer::allocate(0), offsets);
    }
    auto codes = std::make_shared<DictionaryCodes>();
    codes->codes = out.codes;
    codes->cardinality = static_cast<int32_t>(dictionary_size_);
    return Column::from_dictionary(type_, rows, validity, dictionary_strings_column_,
                                   std::move(codes), nulls);
  }
  out.data->resize(static_cast<size_t>(out.data_size));
  return Column::make(type_, rows, validity, out.data, out.offsets, {}, nulls);
}

bool ParquetChunkDecoder::next_data_page() {
  for (;;) {
    page_ = pages_->NextPage();
    if (!page_) return false;
    const uint8_t* data = page_->data();
    int64_t size = page_->size();
    int64_t rows = 0;
    Encoding::type encoding;
    switch (page_->type()) {
      case parquet::PageType::DICTIONARY_PAGE:
        read_dictionary(static_cast<const parquet::DictionaryPage&>(*page_));
        continue;
      case parquet::PageType::DATA_PAGE: {
        const auto& p = static_cast<const parquet::DataPageV1&>(*page_);
        rows = p.num_values();
        encoding = p.encoding();
        if (max_def_ > 0) {
          if (p.definition_level_encoding() != Encoding::RLE) corrupt("unsupported level encoding");
          if (size < 4) corrupt("short definition levels");
          const uint32_t len = read_le32(data);
          if (len > static_cast<uint64_t>(size - 4)) corrupt("short definition levels");
          def_levels_ = RleBitPackedDecoder(data + 4, len, 1);
          data += 4 + len;
          size -= 4 + static_cast<int64_t>(len);
        }
        break;
      }
      case parquet::PageType::DATA_PAGE_V2: {
        const auto& p = static_cast<const parquet::DataPageV2&>(*page_);
        rows = p.num_rows();
        encoding = p.encoding();
        const int64_t rep = p.repetition_levels_byte_length();
        const int64_t def = p.definition_levels_byte_length();
        if (rep < 0 || def < 0 || rep + def > size) corrupt("short levels");
        if (max_def_ > 0) def_levels_ = RleBitPackedDecoder(data + rep, def, 1);
        data += rep + def;
        size -= rep + def;
        break;
      }
      default:
        continue;  // index pages
    }
    if (rows <= 0) continue;
    encoding_ = encoding;
    switch (encoding) {
      case Encoding::PLAIN:
        values_ = data;
        values_end_ = data + size;
        bool_bit_ = 0;
        break;
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if (size < 1) {
          rle_values_ = RleBitPackedDecoder();
        } else {
          if (data[0] > 32) corrupt("dictionary index bit width past 32");
          rle_values_ = RleBitPackedDecoder(data + 1, size - 1, data[0]);
        }
        break;
      case Encoding::RLE: {
        if (physical_ != parquet::Type::BOOLEAN || size < 4) corrupt("unexpected RLE values");
        const uint32_t len = read_le32(data);
        if (len > static_cast<uint64_t>(size - 4)) corrupt("short RLE values");
        rle_values_ = RleBitPackedDecoder(data + 4, len, 1);
        break;
      }
      default:
        corrupt("unsupported value encoding");
    }
    page_rows_left_ = rows;
    return true;
  }
}

void ParquetChunkDecoder::read_dictionary(const parquet::DictionaryPage& page) {
  if (page.encoding() != Encoding::PLAIN && page.encoding() != Encoding::PLAIN_DICTIONARY)
    corrupt("unsupported dictionary encoding");
  if (kind_ == NativeValueKind::kBoolean) corrupt("a dictionary of booleans");
  const int64_t n = page.num_values();
  if (n < 0) corrupt("negative dictionary size");
  const uint8_t* p = page.data();
  const uint8_t* end = p + page.size();
  if (kind_ == NativeValueKind::kBytes) {
    auto offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int32_t));
    int32_t* o = offsets->mutable_as<int32_t>();
    o[0] = 0;
    // The page holds a 4-byte length per value besides the bytes.
    const int64_t bytes = std::max<int64_t>(0, page.size() - 4 * n);
    auto data = Buffer::allocate(static_cast<size_t>(bytes));
    int64_t used = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (end - p < 4) corrupt("short dictionary page");
      const uint32_t len = read_le32(p);
      p += 4;
      if (len > static_cast<uint64_t>(end - p) || used + len > bytes)
        corrupt("short dictionary page");
      std::memcpy(data->mutable_data() + used, p, len);
      p += len;
      used += len;
      o[i + 1] = static_cast<int32_t>(used);
    }
    data->resize(static_cast<size_t>(used));
    dictionary_strings_column_ = Column::make(type_, n, nullptr, data, offsets);
  } else {
    if (end - p < n * physical_width(kind_)) corrupt("short dictionary page");
    dictionary_values_ = Buffer::allocate(static_cast<size_t>(n * output_width(kind_)));
    plain_to_output(kind_, p, n, dictionary_values_->mutable_data());
  }
  dictionary_size_ = n;
  has_dictionary_ = true;
}

void ParquetChunkDecoder::decode_values(Output& out, int64_t at, int64_t n, int64_t valid) {
  const bool dictionary =
      encoding_ == Encoding::PLAIN_DICTIONARY || encoding_ == Encoding::RLE_DICTIONARY;
  if (kind_ == NativeValueKind::kBytes) {
    if (dictionary) {
      decode_dictionary_bytes(out, at, n, valid);
    } else {
      decode_plain_bytes(out, at, n, valid < n);
    }
    return;
  }
  if (valid > 0) {
    if (dictionary) {
      decode_dictionary(out, at, valid);
    } else {
      decode_plain(out, at, valid);
    }
  }
  if (valid == n) return;
  const uint8_t* bits = out.validity->data();
  uint8_t* values = out.values->mutable_data();
  switch (output_width(kind_)) {
    case 1:
      spread(reinterpret_cast<int8_t*>(values) + at, n, valid, bits, at);
      break;
    case 2:
      spread(reinterpret_cast<int16_t*>(values) + at, n, valid, bits, at);
      break;
    case 4:
      if (kind_ == NativeValueKind::kBoolean) {
        spread_bits(values, at, n, valid, bits);
      } else {
        spread(reinterpret_cast<int32_t*>(values) + at, n, valid, bits, at);
      }
      break;
    default:
      spread(reinterpret_cast<int64_t*>(values) + at, n, valid, bits, at);
      break;
  }
}

void ParquetChunkDecoder::decode_plain(Output& out, int64_t at, int64_t n) {
  uint8_t* dst = out.values->mutable_data();
  if (kind_ == NativeValueKind::kBoolean) {
    if (encoding_ == Encoding::RLE) {
      int64_t ones;
      if (rle_values_.decode_bits(dst, at, n, &ones) != n) corrupt("short RLE booleans");
      return;
    }
    if ((bool_bit_ + n + 7) / 8 > values_end_ - values_) corrupt("short PLAIN booleans");
    copy_bits(values_, bool_bit_, dst, at, n);
    bool_bit_ += n;
    return;
  }
  const int64_t bytes = n * physical_width(kind_);
  if (values_end_ - values_ < bytes) corrupt("short PLAIN values");
  plain_to_output(kind_, values_, n, dst + at * output_width(kind_));
  values_ += bytes;
}

void ParquetChunkDecoder::decode_dictionary(Output& out, int64_t at, int64_t n) {
  if (!has_dictionary_) corrupt("dictionary indices without a dictionary page");
  indices_.resize(static_cast<size_t>(n));
  uint32_t* idx = indices_.data();
  if (rle_values_.decode(idx, n) != n) corrupt("short dictionary indices");
  uint32_t largest = 0;
  for (int64_t i = 0; i < n; ++i) largest = std::max(largest, idx[i]);
  if (largest >= dictionary_size_) corrupt("dictionary index out of range");
  const uint8_t* dict = dictionary_values_->data();
  uint8_t* dst = out.values->mutable_data();
  auto gather = [&](auto* typed_dst, const auto* typed_dict) {
    for (int64_t i = 0; i < n; ++i) typed_dst[i] = typed_dict[idx[i]];
  };
  switch (output_width(kind_)) {
    case 1:
      gather(reinterpret_cast<int8_t*>(dst) + at, reinterpret_cast<const int8_t*>(dict));
      break;
    case 2:
      gather(reinterpret_cast<int16_t*>(dst) + at, reinterpret_cast<const int16_t*>(dict));
      break;
    case 4:
      gather(reinterpret_cast<int32_t*>(dst) + at, reinterpret_cast<const int32_t*>(dict));
      break;
    default:
      gather(reinterpret_cast<int64_t*>(dst) + at, reinterpret_cast<const int64_t*>(dict));
      break;
  }
}

void ParquetChunkDecoder::decode_plain_bytes(Output& out, int64_t at, int64_t n, bool spaced) {
  if (out.codes_mode) {
    // A plain page in a chunk read as a dictionary: this batch becomes plain strings, the rows
    // decoded so far written out from the dictionary.
    const int32_t* codes = out.codes->as<int32_t>();
    out.codes_mode = false;
    out.start_plain();
    const uint8_t* bits = out.validity ? out.validity->data() : nullptr;
    const int32_t* doff =
        dictionary_strings_column_ ? dictionary_strings_column_->offsets() : nullptr;
    const uint8_t* dbytes =
        dictionary_strings_column_ ? dictionary_strings_column_->data_buffer()->data() : nullptr;
    for (int64_t i = 0; i < at; ++i) {
      if (bits && !get_bit(bits, i)) {
        out.put_null_string(i);
      } else {
        out.put_string(i, dbytes + doff[codes[i]], doff[codes[i] + 1] - doff[codes[i]]);
      }
    }
  }
  const uint8_t* bits = spaced ? out.validity->data() : nullptr;
  for (int64_t i = at; i < at + n; ++i) {
    if (bits && !get_bit(bits, i)) {
      out.put_null_string(i);
      continue;
    }
    if (values_end_ - values_ < 4) corrupt("short PLAIN strings");
    const uint32_t len = read_le32(values_);
    values_ += 4;
    if (len > static_cast<uint64_t>(values_end_ - values_)) corrupt("short PLAIN strings");
    out.put_string(i, values_, len);
    values_ += len;
  }
}

void ParquetChunkDecoder::decode_dictionary_bytes(Output& out, int64_t at, int64_t n,
                                                  int64_t valid) {
  if (valid > 0 && !has_dictionary_) corrupt("dictionary indices without a dictionary page");
  uint32_t* idx;
  if (out.codes_mode) {
    idx = reinterpret_cast<uint32_t*>(out.codes->mutable_as<int32_t>() + at);
  } else {
    indices_.resize(static_cast<size_t>(valid));
    idx = indices_.data();
  }
  if (valid > 0 && rle_values_.decode(idx, valid) != valid) corrupt("short dictionary indices");
  uint32_t largest = 0;
  for (int64_t i = 0; i < valid; ++i) largest = std::max(largest, idx[i]);
  if (valid > 0 && largest >= dictionary_size_) corrupt("dictionary index out of range");
  if (out.codes_mode) {
    if (valid < n) spread(reinterpret_cast<int32_t*>(idx), n, valid, out.validity->data(), at);
    return;
  }
  const uint8_t* bits = valid < n ? out.validity->data() : nullptr;
  const int32_t* doff = valid > 0 ? dictionary_strings_column_->offsets() : nullptr;
  const uint8_t* dbytes = valid > 0 ? dictionary_strings_column_->data_buffer()->data() : nullptr;
  int64_t j = 0;
  for (int64_t i = at; i < at + n; ++i) {
    if (bits && !get_bit(bits, i)) {
      out.put_null_string(i);
      continue;
    }
    const uint32_t c = idx[j++];
    out.put_string(i, dbytes + doff[c], doff[c + 1] - doff[c]);
  }
}

}  // namespace ember::io
