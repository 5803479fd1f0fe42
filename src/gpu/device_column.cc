#include "gpu/device_column.h"

#include <cstring>

#include "common/error.h"

namespace ember::gpu {
namespace {

size_t data_bytes(const Column& c) {
  const DataType& t = *c.type();
  if (t.id() == TypeId::kBoolean) return static_cast<size_t>(bitmap_bytes(c.length()));
  if (t.is_string_like()) return c.length() == 0 ? 0 : static_cast<size_t>(c.offsets()[c.length()]);
  return static_cast<size_t>(c.length()) * static_cast<size_t>(t.byte_width());
}

/// One host → device copy, through pinned memory when the pool has room for it (the staging
/// block is released once the copy completed).
void upload(void* dst, const void* src, size_t bytes, const Stream& stream, PinnedPool* pinned) {
  if (bytes == 0) return;
  void* stage = pinned ? pinned->allocate(bytes) : nullptr;
  if (stage == nullptr) {
    copy_to_device(dst, src, bytes, stream);
    return;
  }
  std::memcpy(stage, src, bytes);
  try {
    copy_to_device(dst, stage, bytes, stream);
    stream.synchronize();
  } catch (...) {
    pinned->free(stage);
    throw;
  }
  pinned->free(stage);
}

}  // namespace

bool has_device_layout(const DataType& type) {
  return type.id() != TypeId::kNull && !type.is_nested() &&
         (type.is_fixed_width() || type.id() == TypeId::kBoolean || type.is_string_like());
}

DeviceColumn to_device(const Column& column, DeviceMemoryPool& pool, const Stream& stream,
                       PinnedPool* pinned) {
  if (!has_device_layout(*column.type()))
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "Columns of type " + column.type()->sql() + " cannot be copied to the GPU.");
  DeviceColumn d;
  d.type = column.type();
  d.length = column.length();
  d.null_count = column.null_count();
  size_t bytes = data_bytes(column);
  d.value_bytes = column.type()->is_string_like() ? bytes : 0;
  d.data = DeviceBuffer(bytes, pool, stream);
  if (column.data_buffer())
    upload(d.data.data(), column.data_buffer()->data(), bytes, stream, pinned);
  else
    fill_device(d.data.data(), 0, bytes, stream);
  if (column.may_have_nulls() && d.null_count > 0) {
    size_t vb = static_cast<size_t>(bitmap_bytes(column.length()));
    d.validity = DeviceBuffer(vb, pool, stream);
    upload(d.validity.data(), column.validity_bits(), vb, stream, pinned);
  }
  if (column.type()->is_string_like()) {
    size_t ob = static_cast<size_t>(column.length() + 1) * sizeof(int32_t);
    d.offsets = DeviceBuffer(ob, pool, stream);
    if (column.length() > 0 || column.offsets_buffer()) {
      upload(d.offsets.data(), column.offsets(), ob, stream, pinned);
    } else {
      int32_t zero = 0;
      upload(d.offsets.data(), &zero, sizeof zero, stream, nullptr);
      stream.synchronize();
    }
  }
  return d;
}

DeviceColumn to_device_keeping_dictionary(const Column& column, DeviceMemoryPool& pool, const Stream& stream,
                                          PinnedPool* pinned) {
  const ColumnPtr& dictionary = column.dictionary();
  if (!dictionary || column.strings_made() || !column.dictionary_codes())
    return to_device(column, pool, stream, pinned);
  const int64_t n = column.length();
  const int32_t* codes = column.dictionary_codes()->codes->as<int32_t>();
  const int32_t* dict_offsets = dictionary->offsets();
  const uint8_t* valid = column.may_have_nulls() ? column.validity_bits() : nullptr;
  uint64_t value_bytes = 0;
  for (int64_t i = 0; i < n; ++i)
    if (valid == nullptr || ((valid[i >> 3] >> (i & 7)) & 1))
      value_bytes += static_cast<uint64_t>(dict_offsets[codes[i] + 1] - dict_offsets[codes[i]]);
  const uint64_t dictionary_bytes = static_cast<uint64_t>(dict_offsets[dictionary->length()]);
  const uint64_t dictionary_size =
      dictionary_bytes + static_cast<uint64_t>(dictionary->length() + 1) * sizeof(int32_t) + n * sizeof(int32_t);
  if (dictionary_size >= value_bytes + static_cast<uint64_t>(n + 1) * sizeof(int32_t))
    return to_device(column, pool, stream, pinned);
  DeviceColumn d = to_device(*dictionary, pool, stream, pinned);
  d.length = n;
  d.null_count = column.null_count();
  d.value_bytes = value_bytes;
  d.validity = DeviceBuffer();
  if (valid != nullptr && d.null_count > 0) {
    size_t vb = static_cast<size_t>(bitmap_bytes(n));
    d.validity = DeviceBuffer(vb, pool, stream);
    upload(d.validity.data(), valid, vb, stream, pinned);
  }
  d.codes = DeviceBuffer(static_cast<size_t>(n) * sizeof(int32_t), pool, stream);
  upload(d.codes.data(), codes, static_cast<size_t>(n) * sizeof(int32_t), stream, pinned);
  return d;
}

ColumnPtr to_host(const DeviceColumn& column, const Stream& stream, MemoryPool* pool) {
  const DataType& t = *column.type;
  int64_t n = column.length;
  BufferPtr validity, data, offsets;
  if (column.validity) {
    validity = Buffer::allocate(static_cast<size_t>(bitmap_bytes(n)), pool);
    copy_to_host(validity->mutable_data(), column.validity.data(),
                 static_cast<size_t>(bitmap_bytes(n)), stream);
  }
  if (t.is_string_like()) {
    offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int32_t), pool);
    copy_to_host(offsets->mutable_data(), column.offsets.data(),
                 static_cast<size_t>(n + 1) * sizeof(int32_t), stream);
    stream.synchronize();
    size_t bytes = static_cast<size_t>(offsets->as<int32_t>()[n]);
    data = Buffer::allocate(bytes, pool);
    copy_to_host(data->mutable_data(), column.data.data(), bytes, stream);
  } else {
    size_t bytes = t.id() == TypeId::kBoolean
                       ? static_cast<size_t>(bitmap_bytes(n))
                       : static_cast<size_t>(n) * static_cast<size_t>(t.byte_width());
    data = Buffer::allocate(bytes, pool);
    copy_to_host(data->mutable_data(), column.data.data(), bytes, stream);
  }
  stream.synchronize();
  return Column::make(column.type, n, validity, data, offsets, {},
                      column.validity ? column.null_count : 0);
}

std::vector<DeviceColumn> to_device(const Batch& batch, DeviceMemoryPool& pool,
                                    const Stream& stream, PinnedPool* pinned) {
  std::vector<DeviceColumn> out;
  out.reserve(batch.columns.size());
  for (auto& c : batch.columns) out.push_back(to_device(*c, pool, stream, pinned));
  return out;
}

Batch to_host(const std::vector<DeviceColumn>& columns, int64_t num_rows, const Stream& stream,
              MemoryPool* pool) {
  Batch b;
  b.num_rows = num_rows;
  for (auto& c : columns) b.columns.push_back(to_host(c, stream, pool));
  return b;
}

}  // namespace ember::gpu
