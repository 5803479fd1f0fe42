#pragma once

// The hidden `_metadata` column of file sources: where each row was read from. Spark gives every
// file-based relation this struct column; a query that reads it gets, per row, the file's path,
// name, size and modification time, the byte range of Spark's split that held the row, and for
// Parquet the row's position within its file.

#include <cstdint>
#include <string>

#include "column/column.h"
#include "types/data_type.h"

namespace ember::io {

/// The name of the metadata column, as queries reference it.
inline constexpr const char* kFileMetadataColumn = "_metadata";

/// Whether reads of `format` have the metadata column (every built-in file format).
bool has_file_metadata(const std::string& format);

/// The struct type of `format`'s metadata column, its fields all non-nullable: file_path (the
/// file's URI as Spark's file sources print it, `file:/abs/path` %-escaped), file_name (the
/// last part of that URI, still escaped), file_size, file_block_start, file_block_length,
/// file_modification_time, then row_index for Parquet.
TypePtr file_metadata_type(const std::string& format);

/// Whether `format`'s metadata column has `row_index`. Its readers then give, for the projection
/// index one past their schema's last column, each row's position within its file (bigint).
bool has_row_index(const std::string& format);

/// What the metadata column tells of the file a block was read from, besides the block itself.
struct FileFacts {
  std::string name;               // the last part of its URI, %-escaped as there
  int64_t size = 0;               // bytes
  int64_t modification_time = 0;  // microseconds since the epoch, in whole milliseconds
};

/// The facts of `block`'s file, as the file system reports them now (Spark takes them from its
/// listing, which sees the same file unless it changed in between). Throws
/// FAILED_READ_FILE.FILE_NOT_EXIST when the file is gone.
FileFacts file_facts(const InputFileBlock& block);

/// The metadata column of `rows` rows read from `block` of the file `facts` describe (type:
/// file_metadata_type of the read's format). `row_index` is the rows' positions within the file,
/// or null when the type has no row_index.
ColumnPtr file_metadata_column(const TypePtr& type, const InputFileBlock& block,
                               const FileFacts& facts, int64_t rows, const ColumnPtr& row_index);

}  // namespace ember::io
