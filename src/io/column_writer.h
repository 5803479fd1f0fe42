#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "column/column.h"
#include "common/error.h"

namespace ember::io {

/// An append-only builder for one column of a batch whose row count is bounded in advance,
/// for readers that parse straight into columns: fixed-width values are stored without
/// capacity checks, the validity bitmap is kept as values arrive (and dropped at the end if
/// no row was null), and the last rows can be taken back (a record dropped as malformed).
/// After finish() the writer starts an empty batch of the same capacity.
class ColumnWriter {
 public:
  ColumnWriter(TypePtr type, int64_t capacity) : type_(std::move(type)), capacity_(capacity) {
    width_ = type_->id() == TypeId::kBoolean ? 0 : type_->byte_width();
    is_string_ = type_->is_string_like();
    reset();
  }

  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t string_bytes() const { return bytes_; }

  void append_null() {
    if (is_string_) offsets_[length_ + 1] = static_cast<int32_t>(bytes_);
    else if (width_ > 0) std::memset(data_ + length_ * width_, 0, static_cast<size_t>(width_));
    ++nulls_;
    ++length_;
  }
  template <typename T>
  void append(T v) {
    std::memcpy(data_ + length_ * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
    set_bit(valid_, length_++);
  }
  void append_bool(bool v) {
    if (v) set_bit(data_, length_);
    set_bit(valid_, length_++);
  }
  void append_string(std::string_view s) {
    const int64_t need = bytes_ + static_cast<int64_t>(s.size());
    if (need > static_cast<int64_t>(data_buf_->size())) grow(need);
    if (!s.empty()) std::memcpy(data_ + bytes_, s.data(), s.size());
    bytes_ = need;
    if (bytes_ > INT32_MAX) {
      throw SparkError(ErrorKind::kInternal, "INTERNAL_ERROR",
                       "a string column exceeds 2 GiB in one batch");
    }
    offsets_[length_ + 1] = static_cast<int32_t>(bytes_);
    set_bit(valid_, length_++);
  }

  bool is_null(int64_t row) const { return !get_bit(valid_, row); }

  /// Drops rows [n, length()).
  void truncate(int64_t n) {
    for (int64_t r = n; r < length_; ++r) {
      if (get_bit(valid_, r)) clear_bit(valid_, r);
      else --nulls_;
      if (width_ == 0 && !is_string_) clear_bit(data_, r);
    }
    if (is_string_) bytes_ = offsets_[n];
    length_ = n;
  }

  ColumnPtr finish() {
    BufferPtr validity = nulls_ > 0 ? valid_buf_ : nullptr;
    if (validity) validity->resize(static_cast<size_t>(bitmap_bytes(length_)));
    BufferPtr offsets;
    if (is_string_) {
      offsets = offsets_buf_;
      offsets->resize(static_cast<size_t>((length_ + 1) * 4));
      data_buf_->resize(static_cast<size_t>(bytes_));
    } else if (width_ > 0) {
      data_buf_->resize(static_cast<size_t>(length_ * width_));
    } else {
      data_buf_->resize(static_cast<size_t>(bitmap_bytes(length_)));
    }
    ColumnPtr col = Column::make(type_, length_, validity, data_buf_, offsets, {}, nulls_);
    reset();
    return col;
  }

 private:
  void reset() {
    length_ = 0;
    nulls_ = 0;
    bytes_ = 0;
    valid_buf_ = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(capacity_)));
    valid_ = valid_buf_->mutable_data();
    if (is_string_) {
      offsets_buf_ = Buffer::allocate(static_cast<size_t>((capacity_ + 1) * 4));
      offsets_ = offsets_buf_->mutable_as<int32_t>();
      offsets_[0] = 0;
      data_buf_ = Buffer::allocate(static_cast<size_t>(std::max<int64_t>(capacity_ * 8, 4096)));
    } else if (width_ > 0) {
      data_buf_ = Buffer::allocate(static_cast<size_t>(capacity_ * width_));
    } else {
      data_buf_ = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(capacity_)));
    }
    data_ = data_buf_->mutable_data();
  }
  void grow(int64_t need) {
    data_buf_->resize(static_cast<size_t>(std::max<int64_t>(need, 2 * static_cast<int64_t>(data_buf_->size()))));
    data_ = data_buf_->mutable_data();
  }

  TypePtr type_;
  int64_t capacity_;
  int width_ = 0;
  bool is_string_ = false;
  int64_t length_ = 0, nulls_ = 0, bytes_ = 0;
  BufferPtr valid_buf_, data_buf_, offsets_buf_;
  uint8_t* valid_ = nullptr;
  uint8_t* data_ = nullptr;
  int32_t* offsets_ = nullptr;
};

}  // namespace ember::io
