// Leaf operators: range, local relation and file scans.

#include <atomic>

#include "common/error.h"
#include "exec/operators.h"

namespace ember::exec {

namespace {
struct MorselCursor : SourceState {
  std::atomic<uint64_t> next{0};
};
}  // namespace

bool emit_from_list(const std::vector<Batch>& batches, SourceState& state, const Emit& emit) {
  auto& s = static_cast<BatchListSource&>(state);
  size_t i = s.next.fetch_add(1);
  if (i >= batches.size()) return false;
  Batch b = batches[i];
  b.index = batch_index(static_cast<int64_t>(i), 0);
  emit(std::move(b));
  return true;
}

// ---- Range ----------------------------------------------------------------------------------

RangeScan::RangeScan(int64_t start, int64_t end, int64_t step) : start_(start), end_(end), step_(step) {
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
  schema = {{"id", DataType::long_(), false, "{}"}};
}

std::string RangeScan::details() const {
  return "(" + std::to_string(start_) + ", " + std::to_string(end_) + ", step=" + std::to_string(step_) + ")";
}

std::unique_ptr<SourceState> RangeScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

size_t RangeScan::max_parallelism(const SourceState&) const {
  return static_cast<size_t>((count_ + kBatchRows - 1) / kBatchRows);
}

bool RangeScan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  uint64_t m = cur.next.fetch_add(1);
  uint64_t first = m * kBatchRows;
  if (first >= count_) return false;
  int64_t n = static_cast<int64_t>(std::min<uint64_t>(kBatchRows, count_ - first));
  auto data = Buffer::allocate(static_cast<size_t>(n) * 8);
  int64_t* out = data->mutable_as<int64_t>();
  // Values wrap like Java longs when start + i * step overflows.
  uint64_t v = static_cast<uint64_t>(start_) + first * static_cast<uint64_t>(step_);
  for (int64_t i = 0; i < n; ++i, v += static_cast<uint64_t>(step_)) out[i] = static_cast<int64_t>(v);
  emit(Batch({Column::make(DataType::long_(), n, nullptr, data)}, n, batch_index(static_cast<int64_t>(m), 0)));
  return true;
}

// ---- Local relation -------------------------------------------------------------------------

LocalScan::LocalScan(std::vector<Batch> batches, std::vector<int> projection, bool checkpoint)
    : batches_(std::move(batches)), projection_(std::move(projection)), checkpoint_(checkpoint) {}

std::unique_ptr<SourceState> LocalScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

bool LocalScan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  uint64_t m = cur.next.fetch_add(1);
  if (m >= batches_.size()) return false;
  const Batch& in = batches_[m];
  Batch out;
  out.num_rows = in.num_rows;
  out.index = batch_index(static_cast<int64_t>(m), 0);
  for (int c : projection_) out.columns.push_back(in.columns[static_cast<size_t>(c)]);
  emit(std::move(out));
  return true;
}

// ---- Files ----------------------------------------------------------------------------------

FileScan::FileScan(std::shared_ptr<const io::DataSourceReader> reader, std::string format,
                   std::vector<int> projection)
    : reader_(std::move(reader)), format_(std::move(format)), projection_(std::move(projection)) {}

std::string FileScan::details() const {
  std::string s = format_ + " [";
  for (size_t i = 0; i < projection_.size(); ++i)
    s += (i ? "," : "") + reader_->schema()[static_cast<size_t>(projection_[i])].name;
  s += "]";
  if (!predicates_.empty()) s += ", " + std::to_string(predicates_.size()) + " pushed filter(s)";
  return s;
}

std::unique_ptr<SourceState> FileScan::open_source(ExecContext&) const {
  return std::make_unique<MorselCursor>();
}

bool FileScan::next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const {
  auto& cur = static_cast<MorselCursor&>(state);
  uint64_t m = cur.next.fetch_add(1);
  if (m >= reader_->num_splits()) return false;
  if (!predicates_.empty() && !reader_->split_may_match(static_cast<size_t>(m), predicates_)) {
    skipped_.fetch_add(1);
    return true;
  }
  int64_t sub = 0;
  const std::shared_ptr<const InputFileBlock> file = reader_->split_block(static_cast<size_t>(m));
  reader_->read_split(static_cast<size_t>(m), projection_, [&](Batch b) {
    ctx.check_cancelled();
    b.index = batch_index(static_cast<int64_t>(m), sub++);
    b.file = file;
    emit(std::move(b));
  });
  return true;
}

}  // namespace ember::exec
