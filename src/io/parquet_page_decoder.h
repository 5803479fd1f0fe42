#pragma once

// Ember's own decoding of flat Parquet column chunks, straight into Ember columns. Arrow's
// parquet library still parses the footer and the page headers and decompresses the pages
// (parquet::PageReader); this decoder reads the definition levels and the values of each page.
// The Parquet reader uses it for the column chunks `native_value_kind` accepts and Arrow's
// record reader for every other one; both give equal columns (tests/cpp/io).

#include <arrow/type_fwd.h>
#include <parquet/column_page.h>
#include <parquet/column_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "column/column.h"
#include "io/rle_bitpacked.h"

namespace ember::io {

/// How the values of a column chunk become Ember values.
enum class NativeValueKind {
  kBoolean,         // BOOLEAN → boolean bitmap
  kInt32,           // INT32 → int32 (int, date)
  kInt8,            // INT32 holding INT(8) → int8 (byte), truncated as Arrow does
  kInt16,           // INT32 holding INT(16) → int16 (short)
  kInt64,           // INT64 → int64 (long, timestamps in microseconds)
  kMillisToMicros,  // INT64 TIMESTAMP(MILLIS) → microseconds
  kFloat,
  kDouble,
  kBytes,  // BYTE_ARRAY → string or binary
};

/// The kind of a column chunk when this decoder reads it exactly as Arrow's reader and the
/// conversion to Ember would, else nullopt (the chunk is left to Arrow): a top-level column
/// (no repetition, at most one definition level), not encrypted, whose data pages use only PLAIN,
/// the dictionary encodings and RLE (levels; values of booleans), read as `type`, which must be
/// the Spark type of the file's column. `arrow_type` is the type Arrow's reader gives the column
/// (a dictionary for string columns read as dictionaries); it tells the logical types apart as
/// Arrow does (unsigned integers, decimals, times and INT96 are left to Arrow).
std::optional<NativeValueKind> native_value_kind(const parquet::ColumnDescriptor& descr,
                                                 const parquet::ColumnChunkMetaData& chunk,
                                                 const arrow::DataType& arrow_type,
                                                 const DataType& type);

/// Decodes the pages of one column chunk, in order, into columns of a given number of rows.
/// Errors in the data (a short page, an index past the dictionary, an unexpected encoding) throw
/// parquet::ParquetException, as Arrow's reader does.
///
/// A string or binary chunk decodes as dictionary-coded columns (Column::from_dictionary, all
/// sharing one dictionary column) when `dictionary_strings` is set; a batch that meets a plain
/// page (a writer's dictionary overflowed) is then made of plain strings. Without the flag every
/// batch holds plain strings.
class ParquetChunkDecoder {
 public:
  ParquetChunkDecoder(std::unique_ptr<parquet::PageReader> pages,
                      const parquet::ColumnDescriptor& descr, NativeValueKind kind, TypePtr type,
                      bool dictionary_strings);
  ~ParquetChunkDecoder();

  /// The next `rows` rows of the chunk; throws when the chunk holds fewer.
  ColumnPtr next(int64_t rows);

 private:
  struct Output;

  /// Reads pages until a data page with rows; false at the end of the chunk.
  bool next_data_page();
  void read_dictionary(const parquet::DictionaryPage& page);
  /// Decodes `n` rows of the current page into `out` from row `at`, `valid` of them not null.
  void decode_values(Output& out, int64_t at, int64_t n, int64_t valid);
  void decode_plain(Output& out, int64_t at, int64_t n);
  void decode_dictionary(Output& out, int64_t at, int64_t n);
  void decode_plain_bytes(Output& out, int64_t at, int64_t n, bool spaced);
  void decode_dictionary_bytes(Output& out, int64_t at, int64_t n, int64_t valid);

  std::unique_ptr<parquet::PageReader> pages_;
  const int max_def_;
  const parquet::Type::type physical_;
  const NativeValueKind kind_;
  const TypePtr type_;
  const bool dictionary_strings_;

  // The current data page: its buffer (alive until the next page is read), the decoders of its
  // levels and values, and the rows left in it.
  std::shared_ptr<parquet::Page> page_;
  int64_t page_rows_left_ = 0;
  RleBitPackedDecoder def_levels_;
  parquet::Encoding::type encoding_ = parquet::Encoding::PLAIN;
  const uint8_t* values_ = nullptr;  // plain values not yet read
  const uint8_t* values_end_ = nullptr;
  int64_t bool_bit_ = 0;            // next bit of plain booleans
  RleBitPackedDecoder rle_values_;  // dictionary indices or RLE booleans

  // The dictionary page, decoded: fixed-width values in the output's width, or for strings a
  // column of them.
  bool has_dictionary_ = false;
  int64_t dictionary_size_ = 0;
  BufferPtr dictionary_values_;
  ColumnPtr dictionary_strings_column_;

  std::vector<uint32_t> indices_;  // scratch for dictionary indices
};

}  // namespace ember::io
