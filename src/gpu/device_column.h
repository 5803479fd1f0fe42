#pragma once

// Columns in device memory, in the same Arrow layout as ember::Column, so that host <-> device
// transfers are whole-buffer copies: fixed-width values (booleans as a bitmap), an optional
// validity bitmap, and for strings and binary int32 offsets plus the bytes.

#include <cstdint>

#include "column/column.h"
#include "gpu/memory.h"

namespace ember::gpu {

struct DeviceColumn {
  TypePtr type;
  int64_t length = 0;
  int64_t null_count = 0;
  DeviceBuffer data;      // values, boolean bitmap, or string bytes
  DeviceBuffer validity;  // empty when no value is null
  DeviceBuffer offsets;   // strings / binary: length + 1 int32 offsets
  /// A dictionary column (to_device_keeping_dictionary): one int32 per row, the row's entry in
  /// the dictionary whose strings `offsets` and `data` hold (a null row's code is unspecified).
  DeviceBuffer codes;
  /// Strings: the bytes of all the rows' values together (the size of `data` unless the column
  /// keeps its dictionary).
  uint64_t value_bytes = 0;
};

/// Whether `type` has a device layout (fixed width, boolean, string, binary).
bool has_device_layout(const DataType& type);

/// Copies a host column to the device (stream-ordered; `column` must stay alive until the
/// stream is synchronized). Staged through `pinned` when it has room. Throws GpuOutOfMemory,
/// or UNSUPPORTED_FEATURE for nested types.
DeviceColumn to_device(const Column& column, DeviceMemoryPool& pool, const Stream& stream,
                       PinnedPool* pinned = nullptr);

/// As `to_device`, but a string column made by `Column::from_dictionary` whose bytes were never
/// made goes as its dictionary and one code per row when that is smaller than its bytes: its
/// strings are not made on the host. Only readers that follow codes (the fused aggregation)
/// take such columns.
DeviceColumn to_device_keeping_dictionary(const Column& column, DeviceMemoryPool& pool, const Stream& stream,
                                          PinnedPool* pinned = nullptr);

/// Copies a device column back into a host Column (synchronizes the stream).
ColumnPtr to_host(const DeviceColumn& column, const Stream& stream, MemoryPool* pool = nullptr);

/// A batch's columns to the device and back.
std::vector<DeviceColumn> to_device(const Batch& batch, DeviceMemoryPool& pool,
                                    const Stream& stream, PinnedPool* pinned = nullptr);
Batch to_host(const std::vector<DeviceColumn>& columns, int64_t num_rows, const Stream& stream,
              MemoryPool* pool = nullptr);

}  // namespace ember::gpu
