#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/data_source.h"

namespace ember::io {

/// Hive-style partitions found in the directories between a read's root paths (or `basePath`)
/// and its files: `.../year=2024/region=eu/part-0.parquet`.
struct PartitionSpec {
  struct Group {
    std::vector<Value> values;       // one per column; null for __HIVE_DEFAULT_PARTITION__
    std::vector<std::string> files;  // in listing order
  };
  Schema columns;  // empty when the files are not partitioned
  std::vector<Group> groups;
};

/// Discovers partitions the way Spark's file index does: directory names `k=v` are parsed
/// from each file's directory upwards until the root or a name without `=`; values are
/// unescaped (%XX) and, with spark.sql.sources.partitionColumnTypeInference.enabled, typed as
/// int, bigint, decimal, double, date, timestamp or string (the widest type over all values).
/// User-schema fields named like a partition column give its type. Throws
/// CONFLICTING_DIRECTORY_STRUCTURES when files sit at different partition depths.
PartitionSpec discover_partitions(const std::vector<InputFile>& files, const ReadRequest& request);

/// Opens `request` as partitioned data: one reader of the format per partition directory (over
/// the data columns), each split's batches extended with the partition values; predicates on
/// partition columns prune whole directories.
std::unique_ptr<DataSourceReader> open_partitioned_reader(const ReadRequest& request,
                                                          const ReaderFactory& factory,
                                                          PartitionSpec spec);

}  // namespace ember::io
