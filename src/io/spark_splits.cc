#include "io/spark_splits.h"

#include <algorithm>


namespace ember::io {

int64_t spark_split_bytes(const std::vector<InputFile>& files, const Config* config) {
  const int64_t max_bytes = config ? config->get_bytes("spark.sql.files.maxPartitionBytes", 128 << 20) : 128 << 20;
  const int64_t open_cost = config ? config->get_bytes("spark.sql.files.openCostInBytes", 4 << 20) : 4 << 20;
  int64_t partitions = leaf_node_default_parallelism(config);
  if (config) partitions = config->get_int("spark.sql.files.minPartitionNum", partitions);
  int64_t total = 0;
  for (const auto& f : files) total += f.size + open_cost;
  const int64_t per_partition = total / std::max<int64_t>(1, partitions);
  return std::max<int64_t>(1, std::min(max_bytes, std::max(open_cost, per_partition)));
}

std::shared_ptr<const InputFileBlock> spark_file_block(const InputFile& file, int64_t begin,
                                                       int64_t split_bytes, bool splittable) {
  auto b = std::make_shared<InputFileBlock>();
  b->uri = file_uri(file.path);
  if (!splittable || split_bytes <= 0) {
    b->start = 0;
    b->length = file.size;
  } else {
    b->start = std::max<int64_t>(0, begin) / split_bytes * split_bytes;
    b->length = std::min(split_bytes, file.size - b->start);
  }
  return b;
}

std::vector<int64_t> split_cuts(int64_t size, int64_t target, int64_t split_bytes) {
  std::vector<int64_t> cuts;
  int64_t a = 0, b = 0;
  while (true) {
    const int64_t next = std::min(a, b);
    if (next >= size) break;
    if (cuts.empty() || cuts.back() != next) cuts.push_back(next);
    if (a == next) a += target;
    if (b == next) b += split_bytes;
  }
  cuts.push_back(size);
  return cuts;
}

}  // namespace ember::io
