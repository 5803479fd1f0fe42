// Leaf operators: range, local relation and file scans.

#include <algorithm>
#include <atomic>
#include <numeric>

#include "common/error.h"
#include "exec/operators.h"
#include "io/file_metadata.h"
#include "io/spark_splits.h"

namespace ember::exec {

namespace {
struct MorselCursor : SourceState {
  std::atomic<uint64_t> next{0};
};
}  // namespace

namespace {

/// The morsel of batches [first, last) the calling thread claims from `state`: the next batch,
/// or under whole_partitions the next batch and those after it in the same partition.
std::pair<size_t, size_t> claim(const std::vector<Batch>& batches, BatchListSource& state) {
  if (!state.whole_partitions) {
    size_t i = state.next.fetch_add(1);
    return {i, i + 1};
  }
  std::lock_guard<std::mutex> lock(state.claim_mu);
  size_t first = state.next.load(), last = first;
  while (last < batches.size() && batches[last].partition == batches[first].partition) ++last;
  state.next.store(last);
  return {first, last};
}

}  // namespace

bool emit_from_list(const std::vector<Batch>& batches, SourceState& state, const Emit& emit) {
  auto& s = static_cast<BatchListSource&>(state);
  std::call_once(s.numbered, [&] {
    s.starts.reserve(batches.size());
    int64_t rows = 0;
    for (const Batch& b : batches) {
      s.starts.push_back(rows);
      rows += b.num_rows;
    }
  });
  // One partition: a whole-partition claim takes every batch.
  size_t first = s.whole_partitions ? s.next.exchange(batches.size()) : s.next.fetch_add(1);
  size_t last = s.whole_partitions ? batches.size() : first + 1;
  if (first >= batches.size()) return false;
  for (size_t i = first; i < last; ++i) {
    Batch b = batches[i];
    b.index = batch_index(static_cast<int64_t>(i), 0);
    b.partition = 0;
    b.partition_row = s.starts[i];
    emit(std::move(b));
  }
  return true;
}

bool emit_batches(const std::vector<Batch>& batches, SourceState& state, const Emit& emit) {
  auto [first, last] = claim(batches, static_cast<BatchListSource&>(state));
  if (first >= batches.size()) return false;
  for (size_t i = first; i < last; ++i) {
    Batch b = batches[i];
    b.index = batch_index(static_cast<int64_t>(i), 0);
    emit(std::move(b));
  }
  return true;
}

// ---- Range ----------------------------------------------------------------------------------

RangeScan::RangeScan(int64_t start, int64_t end, int64_t step, int64_t partitions)
    : start_(start), end_(end), step_(step), partitions_(std::max<int64_t>(1, partitions)) {
  if (step == 0)
    throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.RANGE_STEP",
                     "The value of parameter(s) `step` in `range` is invalid: step cannot be 0.");
  // Number of elements, computed without overflow.
  __int128 span = static_cast<__int128>(end) - start;
  if ((step > 0 && span <= 0) || (step < 0 && span >= 0)) {
    count_ = 0;
  } else {
    __int128 c = (span + (step > 0 ? step - 1 : step + 1)) / step;
    count_ = static_cast<uint64_t>(c);
  }
  // The largest partition has ceil(count / partitions) rows.
  uint64_t largest = (count_ + static_cast<uint64_t>(partitions_) - 1) / static_cast<uint64_t>(partitions_);
  chunks_per_partition_ = std::max<uint64_t>(1, (largest + kBatchRows - 1) / kBatchRows);
  schema = {{"id", DataType::long_(), false, "{}"}};
}

uint64_t RangeScan::partition_start(int64_t i) const {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(i) * count_ / static_cast<uint64_t>(partitions_));
}

std::string RangeScan::details() const {
  return "(" + std::to_string(start_) + ", " + std::to_string(end_) + ", step=" + std::to_string(step_) +
         ", splits=" + std::to_string(partitions_) + ")";
}

std::unique_ptr<SourceState> RangeScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

size_t RangeScan::max_parallelism(const SourceState& state) const {
  uint64_t morsels = static_cast<uint64_t>(partitions_) * (state.whole_partitions ? 1 : chunks_per_partition_);
  return static_cast<size_t>(std::min<uint64_t>(morsels, uint64_t{1} << 30));
}

/// A morsel is a chunk of at most kBatchRows rows of one partition, or under whole_partitions
/// a whole partition emitted chunk by chunk.
bool RangeScan::next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  const uint64_t per_morsel = state.whole_partitions ? 1 : chunks_per_partition_;
  uint64_t m = cur.next.fetch_add(1);
  if (m >= static_cast<uint64_t>(partitions_) * per_morsel) return false;
  const int64_t partition = static_cast<int64_t>(m / per_morsel);
  const uint64_t begin = partition_start(partition), end = partition_start(partition + 1);
  uint64_t chunk = state.whole_partitions ? 0 : m % per_morsel;
  for (uint64_t first = begin + chunk * kBatchRows; first < end; first += kBatchRows, ++chunk) {
    ctx.check_cancelled();
    int64_t n = static_cast<int64_t>(std::min<uint64_t>(kBatchRows, end - first));
    auto data = Buffer::allocate(static_cast<size_t>(n) * 8);
    int64_t* out = data->mutable_as<int64_t>();
    // Values wrap like Java longs when start + i * step overflows.
    uint64_t v = static_cast<uint64_t>(start_) + first * static_cast<uint64_t>(step_);
    for (int64_t i = 0; i < n; ++i, v += static_cast<uint64_t>(step_)) out[i] = static_cast<int64_t>(v);
    // Indices follow the rows' order: partition, then chunk.
    Batch b({Column::make(DataType::long_(), n, nullptr, data)}, n,
            batch_index(partition * static_cast<int64_t>(chunks_per_partition_) + static_cast<int64_t>(chunk), 0));
    b.partition = partition;
    b.partition_row = static_cast<int64_t>(first - begin);
    emit(std::move(b));
    if (!state.whole_partitions) break;
  }
  return true;
}

// ---- Local relation -------------------------------------------------------------------------

LocalScan::LocalScan(std::vector<Batch> batches, std::vector<int> projection, bool checkpoint)
    : batches_(std::move(batches)), projection_(std::move(projection)), checkpoint_(checkpoint) {
  int64_t rows = 0;
  for (const Batch& b : batches_) {
    starts_.push_back(rows);
    rows += b.num_rows;
  }
}

std::unique_ptr<SourceState> LocalScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

/// Spark Connect runs a local relation as one partition: a morsel is one batch of it, or under
/// whole_partitions all of them.
bool LocalScan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  uint64_t first = state.whole_partitions ? cur.next.exchange(batches_.size()) : cur.next.fetch_add(1);
  uint64_t last = state.whole_partitions ? batches_.size() : first + 1;
  if (first >= batches_.size()) return false;
  for (uint64_t m = first; m < last; ++m) {
    const Batch& in = batches_[m];
    Batch out;
    out.num_rows = in.num_rows;
    out.index = batch_index(static_cast<int64_t>(m), 0);
    out.partition_row = starts_[m];
    for (int c : projection_) out.columns.push_back(in.columns[static_cast<size_t>(c)]);
    emit(std::move(out));
  }
  return true;
}

// ---- Files ----------------------------------------------------------------------------------

FileScan::FileScan(std::shared_ptr<const io::DataSourceReader> reader, std::string format,
                   std::vector<int> projection, const Config* config)
    : reader_(std::move(reader)), format_(std::move(format)), projection_(std::move(projection)) {
  // Spark's splits (blocks): consecutive reader splits of one block belong together.
  std::vector<InputFileBlock> blocks;
  std::vector<size_t> block_of(reader_->num_splits());
  std::shared_ptr<const InputFileBlock> last;
  for (size_t m = 0; m < reader_->num_splits(); ++m) {
    auto block = reader_->split_block(m);
    if (blocks.empty() || !last || !block || block->uri != last->uri || block->start != last->start)
      blocks.push_back(block ? *block : InputFileBlock{});
    block_of[m] = blocks.size() - 1;
    last = block;
  }
  const std::vector<int64_t> partition = io::spark_file_partitions(blocks, config);
  // Blocks partition by partition in packing order (largest first, as the packing took them).
  std::vector<size_t> block_order(blocks.size());
  std::iota(block_order.begin(), block_order.end(), 0);
  std::stable_sort(block_order.begin(), block_order.end(), [&](size_t a, size_t b) {
    if (partition[a] != partition[b]) return partition[a] < partition[b];
    return blocks[a].length > blocks[b].length;
  });
  std::vector<std::vector<size_t>> splits_of(blocks.size());
  for (size_t m = 0; m < block_of.size(); ++m) splits_of[block_of[m]].push_back(m);
  int64_t current = -1;
  for (size_t b : block_order) {
    if (partition[b] != current) {
      partition_splits_.push_back(order_.size());
      current = partition[b];
    }
    order_.insert(order_.end(), splits_of[b].begin(), splits_of[b].end());
  }
  partition_splits_.push_back(order_.size());
}

std::string FileScan::details() const {
  std::string s = format_ + " [";
  for (size_t i = 0; i < projection_.size(); ++i) {
    const auto c = static_cast<size_t>(projection_[i]);
    s += (i ? "," : "") +
         (c < reader_->schema().size() ? reader_->schema()[c].name : io::kFileMetadataColumn);
  }
  s += "]";
  if (!predicates_.empty()) s += ", " + std::to_string(predicates_.size()) + " pushed filter(s)";
  return s;
}

std::unique_ptr<SourceState> FileScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

/// A morsel is one of the reader's splits, or under whole_partitions every split of a partition.
/// Batch indices follow Spark's order of the splits (order_).
bool FileScan::next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  uint64_t m = cur.next.fetch_add(1);
  if (state.whole_partitions) {
    if (m + 1 >= partition_splits_.size()) return false;
    for (size_t k = partition_splits_[m]; k < partition_splits_[m + 1]; ++k)
      read(k, static_cast<int64_t>(m), ctx, emit);
    return true;
  }
  if (m >= order_.size()) return false;
  auto p = std::upper_bound(partition_splits_.begin(), partition_splits_.end(), m) - partition_splits_.begin() - 1;
  read(static_cast<size_t>(m), static_cast<int64_t>(p), ctx, emit);
  return true;
}

void FileScan::read(size_t position, int64_t partition, ExecContext& ctx, const Emit& emit) const {
  const size_t split = order_[position];
  if (!predicates_.empty() && !reader_->split_may_match(split, predicates_)) {
    skipped_.fetch_add(1);
    return;
  }
  int64_t sub = 0;
  const std::shared_ptr<const InputFileBlock> file = reader_->split_block(split);
  // The `_metadata` column, asked for by the projection index past the reader's schema, is made
  // here from the split's file block; a Parquet reader gives each row's index within its file
  // in its place (io/file_metadata.h).
  const int metadata = static_cast<int>(reader_->schema().size());
  const auto metadata_at = std::find(projection_.begin(), projection_.end(), metadata);
  if (metadata_at == projection_.end()) {
    reader_->read_split(split, projection_, [&](Batch b) {
      ctx.check_cancelled();
      b.index = batch_index(static_cast<int64_t>(position), sub++);
      b.file = file;
      b.partition = partition;
      emit(std::move(b));
    });
    return;
  }
  const auto at = static_cast<size_t>(metadata_at - projection_.begin());
  const bool row_index = io::has_row_index(format_);
  const TypePtr type = io::file_metadata_type(format_);
  std::vector<int> projection = projection_;
  if (!row_index) projection.erase(projection.begin() + static_cast<std::ptrdiff_t>(at));
  const InputFileBlock block = file ? *file : InputFileBlock{};
  const io::FileFacts facts = io::file_facts(block);
  reader_->read_split(split, projection, [&](Batch b) {
    ctx.check_cancelled();
    ColumnPtr column = io::file_metadata_column(type, block, facts, b.num_rows,
                                                row_index ? b.columns[at] : nullptr);
    if (row_index)
      b.columns[at] = std::move(column);
    else
      b.columns.insert(b.columns.begin() + static_cast<std::ptrdiff_t>(at), std::move(column));
    b.index = batch_index(static_cast<int64_t>(position), sub++);
    b.file = file;
    b.partition = partition;
    emit(std::move(b));
  });
}

}  // namespace ember::exec
