#pragma once

// The Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html):
// a stable C ABI through which columns cross to Arrow C++ (IPC, Parquet) and to Python without
// copying. The struct definitions follow the specification and share its include guard, so
// they coexist with Arrow's own header.

#include <cstdint>
#include <string>
#include <vector>

#include "column/column.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

extern "C" {
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
}

#endif  // ARROW_C_DATA_INTERFACE

namespace ember {

/// Exports a relation's schema as an Arrow struct schema. `time_zone` is attached to timestamp
/// (LTZ) fields, as Spark does when it sends Arrow batches to clients.
void export_schema(const Schema& schema, const std::string& time_zone, ArrowSchema* out);
/// Exports a batch as an Arrow struct array; the batch's buffers stay alive until release.
void export_batch(const Batch& batch, ArrowArray* out);

/// Imports an Arrow struct array with the given Arrow struct schema, converting to the Spark
/// types of `schema` (which must correspond field by field). Takes ownership of `array`.
Batch import_batch(ArrowArray* array, const ArrowSchema& arrow_schema, const Schema& schema);
/// Maps an Arrow schema (struct) to Spark fields; throws for Arrow types Spark does not have.
Schema import_schema(const ArrowSchema& arrow_schema);

}  // namespace ember
