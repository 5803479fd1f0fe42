#include "io/spark_splits.h"

#include <algorithm>
#include <map>
#include <numeric>

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

std::vector<int64_t> spark_file_partitions(const std::vector<InputFileBlock>& blocks, const Config* config) {
  // The files, sized by the blocks that cover them.
  std::map<std::string, int64_t> sizes;
  for (const auto& b : blocks) sizes[b.uri] += b.length;
  std::vector<InputFile> files;
  for (const auto& [uri, size] : sizes) {
    InputFile f;
    f.path = uri;
    f.size = size;
    files.push_back(f);
  }
  const int64_t split_bytes = spark_split_bytes(files, config);
  const int64_t open_cost = config ? config->get_bytes("spark.sql.files.openCostInBytes", 4 << 20) : 4 << 20;
  std::vector<size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return blocks[a].length > blocks[b].length; });
  std::vector<int64_t> partition(blocks.size(), 0);
  int64_t current = 0, size = 0;
  bool open = false;
  for (size_t i : order) {
    if (open && size + blocks[i].length > split_bytes) {
      ++current;
      size = 0;
    }
    size += blocks[i].length + open_cost;
    partition[i] = current;
    open = true;
  }
  return partition;
}

}  // namespace ember::io
