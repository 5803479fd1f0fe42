#pragma once

// How Spark cuts files into splits, which input_file_block_start() and
// input_file_block_length() report for the rows of each split.

#include <cstdint>
#include <memory>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "io/file_listing.h"

namespace ember::io {

/// The size of the splits Spark cuts splittable files into when it reads `files`
/// (FilePartition.maxSplitBytes): spark.sql.files.maxPartitionBytes, but no less than
/// spark.sql.files.openCostInBytes when the files, each counted with that open cost, spread over
/// spark.sql.files.minPartitionNum (by default leaf_node_default_parallelism, common/config.h)
/// come to less per partition. Exact whenever
/// maxPartitionBytes <= openCostInBytes, or a file is no larger than openCostInBytes.
int64_t spark_split_bytes(const std::vector<InputFile>& files, const Config* config);

/// The block of Spark's split of `file` that holds the records owned by a range starting at
/// byte `begin` (a record belongs to the split its first byte follows, as Hadoop's line reader
/// assigns lines; see line_splits.h): [k * split_bytes, +split_bytes) clipped to the file, or the
/// whole file when it is not `splittable` (compressed, or read as one record).
std::shared_ptr<const InputFileBlock> spark_file_block(const InputFile& file, int64_t begin,
                                                       int64_t split_bytes, bool splittable);

/// Cut points for reading a file of `size` bytes in ranges of about `target` bytes that never
/// straddle one of Spark's splits of `split_bytes`: the union of both grids, ascending, from 0
/// to `size`.
std::vector<int64_t> split_cuts(int64_t size, int64_t target, int64_t split_bytes);

/// The Spark partition of each of a scan's file splits (`blocks`, whole files or Spark's
/// splits of them): Spark's FilePartition packing, which takes the splits largest first and
/// starts a new partition when the next would pass the split size, each split counting its
/// length plus spark.sql.files.openCostInBytes. The split size is spark_split_bytes of the
/// files the blocks cover. Partitions are numbered in packing order.
std::vector<int64_t> spark_file_partitions(const std::vector<InputFileBlock>& blocks, const Config* config);

}  // namespace ember::io
