// LIMIT, OFFSET and TAIL over input in source order.

#include <algorithm>

#include "exec/operators.h"

namespace ember::exec {

namespace {
struct LocalBatches : LocalSinkState {
  std::vector<Batch> batches;
};
}  // namespace

std::string Limit::details() const {
  return tail_ ? std::to_string(limit_) : std::to_string(limit_) + (offset_ > 0 ? ", " + std::to_string(offset_) : "");
}

std::unique_ptr<LocalSinkState> Limit::open_local(ExecContext&) { return std::make_unique<LocalBatches>(); }

void Limit::sink(LocalSinkState& local, Batch batch, ExecContext&) {
  if (batch.num_rows > 0) static_cast<LocalBatches&>(local).batches.push_back(std::move(batch));
}

void Limit::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<LocalBatches&>(local).batches) input_.push_back(std::move(b));
}

void Limit::finalize(ExecContext&) {
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
  int64_t total = 0;
  for (auto& b : input_) total += b.num_rows;
  int64_t begin = tail_ ? std::max<int64_t>(0, total - limit_) : std::min(offset_, total);
  int64_t end = tail_ ? total : (limit_ < 0 ? total : std::min(total, begin + limit_));
  int64_t pos = 0;
  for (auto& b : input_) {
    int64_t lo = std::max(begin, pos), hi = std::min(end, pos + b.num_rows);
    if (lo < hi) output_.push_back(slice_batch(b, lo - pos, hi - lo));
    pos += b.num_rows;
  }
  input_.clear();
}

std::unique_ptr<SourceState> Limit::open_source(ExecContext&) const { return std::make_unique<BatchListSource>(); }

bool Limit::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t Limit::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

}  // namespace ember::exec
