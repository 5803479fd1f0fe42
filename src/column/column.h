#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "column/value.h"
#include "common/memory.h"
#include "types/data_type.h"

namespace ember {

class Column;
using ColumnPtr = std::shared_ptr<const Column>;

/// Bit helpers for Arrow validity bitmaps and boolean data (LSB-first).
inline bool get_bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void set_bit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void clear_bit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void put_bit(uint8_t* bits, int64_t i, bool v) { v ? set_bit(bits, i) : clear_bit(bits, i); }
inline int64_t bitmap_bytes(int64_t bits) { return (bits + 7) / 8; }
int64_t count_set_bits(const uint8_t* bits, int64_t n);

/// The dictionary codes of a string or binary column decoded from dictionary-encoded data
/// (Parquet's dictionary pages): one int32 per row, in [0, cardinality) for every valid row
/// (a null row's code is unspecified), and valid rows of equal codes hold equal values. Rows of
/// different codes may still hold equal values (a dictionary may repeat one). Operators may group
/// rows by their codes instead of their values; a column built anew from another drops them.
struct DictionaryCodes {
  BufferPtr codes;
  int32_t cardinality = 0;
};

/// An immutable column of values in Arrow layout, always starting at offset 0:
///  - `validity`: bitmap, one bit per row, 1 = valid; null pointer when no row is null;
///  - `data`: fixed-width values, boolean bitmap, or the bytes of strings/binary;
///  - `offsets`: n+1 int32 offsets into `data` (string, binary) or into the child (array, map);
///  - `children`: array → [elements]; map → [struct<key, value> entries]; struct → fields.
/// Struct columns have no data buffer; their children have the struct's length.
///
/// A string or binary column made by `from_dictionary` holds a dictionary and one code per row
/// instead of its bytes: `string_at` reads the dictionary, and the bytes and offsets are made
/// once, the first time a reader asks for them (thread-safe). Operators that only compare or
/// group rows (by the codes) and those that move rows (gather, slice, concat keep the codes) never
/// make them; a query that groups a Parquet string column by its dictionary reads no string.
class Column {
  /// The dictionary behind a column made by `from_dictionary`, and its bytes once made.
  struct DictionaryStrings {
    ColumnPtr dictionary;
    std::once_flag once;
    std::atomic<bool> made{false};
    BufferPtr data;
    BufferPtr offsets;
  };

 public:
  Column(TypePtr type, int64_t length, BufferPtr validity, BufferPtr data, BufferPtr offsets,
         std::vector<ColumnPtr> children, int64_t null_count = -1);

  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const;
  bool may_have_nulls() const { return validity_ != nullptr; }

  bool is_valid(int64_t i) const { return !validity_ || get_bit(validity_->data(), i); }
  bool is_null(int64_t i) const { return !is_valid(i); }
  const uint8_t* validity_bits() const { return validity_ ? validity_->data() : nullptr; }

  template <typename T>
  /// The fixed-width values (null for a column without a data buffer, e.g. an empty child).
  const T* values() const {
    const BufferPtr& d = data_buffer();
    return d ? reinterpret_cast<const T*>(d->data()) : nullptr;
  }
  bool bool_at(int64_t i) const { return get_bit(data_->data(), i); }
  const int32_t* offsets() const { return offsets_buffer()->as<int32_t>(); }
  std::string_view string_at(int64_t i) const {
    if (!offsets_ && dictionary_strings_) return dictionary_string_at(i);
    const int32_t* o = offsets_->as<int32_t>();
    return {reinterpret_cast<const char*>(data_->data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
  }
  const ColumnPtr& child(size_t i) const { return children_[i]; }
  const std::vector<ColumnPtr>& children() const { return children_; }

  const BufferPtr& validity_buffer() const { return validity_; }
  /// The data and offsets buffers; those of a column made by `from_dictionary` are made here
  /// the first time they are asked for.
  const BufferPtr& data_buffer() const { return data_ || !dictionary_strings_ ? data_ : made_strings().data; }
  const BufferPtr& offsets_buffer() const {
    return offsets_ || !dictionary_strings_ ? offsets_ : made_strings().offsets;
  }

  /// The codes this column's values were decoded from, or null.
  const DictionaryCodes* dictionary_codes() const { return dictionary_codes_.get(); }
  /// The same column (buffers shared) carrying `codes`, which must describe its values.
  ColumnPtr with_dictionary_codes(std::shared_ptr<const DictionaryCodes> codes) const;

  /// A string or binary column whose valid row i holds row `codes[i]` of `dictionary` (a column
  /// of the same type without nulls); a null row's code is ignored. Its bytes are made only when
  /// a reader asks for its data or offsets buffers.
  static ColumnPtr from_dictionary(TypePtr type, int64_t length, BufferPtr validity, ColumnPtr dictionary,
                                   std::shared_ptr<const DictionaryCodes> codes, int64_t null_count = -1);
  /// The dictionary of a column made by `from_dictionary` (whose codes are `dictionary_codes()`),
  /// or null.
  const ColumnPtr& dictionary() const;
  /// Whether this column's bytes are in its data buffer (false for a column made by
  /// `from_dictionary` whose bytes were not asked for yet).
  bool strings_made() const;

  /// The value at row i (slow path).
  Value value_at(int64_t i) const;
  /// Bytes held by this column's buffers (children included).
  int64_t memory_size() const;

  // Construction helpers.
  static ColumnPtr make(TypePtr type, int64_t length, BufferPtr validity, BufferPtr data,
                        BufferPtr offsets = nullptr, std::vector<ColumnPtr> children = {},
                        int64_t null_count = -1);
  static ColumnPtr all_null(const TypePtr& type, int64_t length);
  static ColumnPtr constant(const TypePtr& type, const Value& v, int64_t length);
  /// Same data, replaced validity (used by kernels that only change nullness).
  ColumnPtr with_validity(BufferPtr validity) const;

 private:
  TypePtr type_;
  int64_t length_;
  mutable int64_t null_count_;
  BufferPtr validity_;
  BufferPtr data_;
  BufferPtr offsets_;
  std::vector<ColumnPtr> children_;
  std::shared_ptr<const DictionaryCodes> dictionary_codes_;
  std::shared_ptr<DictionaryStrings> dictionary_strings_;

  const DictionaryStrings& made_strings() const;
  std::string_view dictionary_string_at(int64_t i) const;
};

/// The smallest and largest value among the first `n` valid rows of an integer-valued column
/// (DataType::is_integer_valued); false when none of them is valid.
bool integer_range(const Column& c, int64_t n, int64_t& lo, int64_t& hi);

/// Rows gathered by index: out[k] = in[indices[k]]; an index of -1 produces a null.
ColumnPtr gather(const Column& in, const int32_t* indices, int64_t n);
/// Rows [offset, offset + length) as a new column.
ColumnPtr slice(const ColumnPtr& in, int64_t offset, int64_t length);
/// Whether `a` and `b` are codes over one dictionary whose strings neither made (their
/// concatenation stays codes).
bool same_dictionary(const Column& a, const Column& b);
/// Concatenation of columns of the same type.
ColumnPtr concat(const std::vector<ColumnPtr>& parts);

/// The part of a file that rows were read from, as input_file_name(), input_file_block_start()
/// and input_file_block_length() report it: the file's URI as Spark prints it and the byte range
/// of Spark's file split that holds the rows.
struct InputFileBlock {
  std::string uri;
  int64_t start = 0;
  int64_t length = 0;
};

/// A horizontal slice of a relation: columns of equal length. `index` orders batches of one
/// pipeline (a morsel's sequence number) so that order-preserving sinks can restore the order
/// in which the source produced them, whatever thread processed them. `file` is the file block
/// the rows come straight from: set by file scans, kept by the operators that transform rows
/// one batch at a time, and null for rows of any other origin (a sink's output, ranges, local
/// data), as Spark reports no file for rows after an exchange.
///
/// `partition` is the Spark partition the rows belong to (spark_partition_id(), the seed of
/// rand) and `partition_row` the position of the first row within it, both as the source
/// produced the rows: sources number partitions as Spark does (exec/README.md), slices keep the
/// position of their first row, and operators that drop or add rows leave the position to the
/// executor's per-partition counters.
struct Batch {
  std::vector<ColumnPtr> columns;
  int64_t num_rows = 0;
  int64_t index = 0;
  std::shared_ptr<const InputFileBlock> file;
  int64_t partition = 0;
  int64_t partition_row = 0;

  Batch() = default;
  Batch(std::vector<ColumnPtr> cols, int64_t rows, int64_t idx = 0)
      : columns(std::move(cols)), num_rows(rows), index(idx) {}
  const ColumnPtr& column(size_t i) const { return columns[i]; }
  size_t num_columns() const { return columns.size(); }
  int64_t memory_size() const;
};

Batch gather_batch(const Batch& in, const int32_t* indices, int64_t n);
Batch slice_batch(const Batch& in, int64_t offset, int64_t length);
Batch concat_batches(const std::vector<Batch>& parts, size_t num_columns);

/// Appends values of one type to build a column. Typed appends are the fast path; appending a
/// `Value` or another column's row works for every type, nested ones included.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(TypePtr type, int64_t capacity = 0);
  ~ColumnBuilder();
  ColumnBuilder(const ColumnBuilder&) = delete;
  ColumnBuilder& operator=(const ColumnBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }

  void append_null();
  void append_bool(bool v);
  template <typename T>
  void append(T v) {
    ensure_data((length_ + 1) * static_cast<int64_t>(sizeof(T)));
    reinterpret_cast<T*>(data_->mutable_data())[length_] = v;
    mark_valid();
  }
  void append_bytes(std::string_view v);
  void append_value(const Value& v);
  void append_from(const Column& c, int64_t row);
  /// For array/map builders: the child builder, then `close_list()` once the elements of one
  /// row are appended.
  ColumnBuilder& child(size_t i) { return *children_[i]; }
  void close_list();
  /// For struct builders: after appending one row to every child.
  void close_struct(bool valid);

  ColumnPtr finish();

 private:
  void init(int64_t capacity);
  void ensure_data(int64_t bytes);
  void mark_valid();
  void push_validity(bool valid);

  TypePtr type_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  BufferPtr validity_;  // allocated at the first null
  BufferPtr data_;
  BufferPtr offsets_;
  int64_t data_bytes_ = 0;  // used bytes of data_ for strings
  std::vector<std::unique_ptr<ColumnBuilder>> children_;
};

}  // namespace ember
