#include "exec/in_memory_scan.h"

#include "common/error.h"
#include "exec/operators.h"

namespace ember::exec {

bool CachedBatches::materialized() const {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

const std::vector<Batch>& CachedBatches::get(const std::function<std::vector<Batch>()>& compute) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!done_) {
    std::vector<Batch> batches = compute();
    int64_t bytes = 0, rows = 0;
    for (const Batch& b : batches) {
      bytes += b.memory_size();
      rows += b.num_rows;
    }
    batches_ = std::move(batches);
    bytes_.store(bytes);
    rows_.store(rows);
    materializations_.fetch_add(1);
    done_ = true;
  }
  return batches_;
}

namespace {
/// The scan's cursor over the store's batches, which stay alive and unchanged once computed.
struct CachedCursor : SourceState {
  const std::vector<Batch>* batches = nullptr;
  std::atomic<size_t> next{0};
};
}  // namespace

InMemoryTableScan::InMemoryTableScan(std::shared_ptr<CachedBatches> store,
                                     std::vector<int> projection, std::string columns,
                                     OperatorPtr relation)
    : store_(std::move(store)), projection_(std::move(projection)), columns_(std::move(columns)) {
  children.push_back(std::move(relation));
}

std::unique_ptr<SourceState> InMemoryTableScan::open_source(ExecContext& ctx) const {
  auto cursor = std::make_unique<CachedCursor>();
  cursor->batches = &store_->get([&] {
    EMBER_CHECK(!children.empty(), "InMemoryTableScan without its relation");
    return run_plan(*children[0], ctx);
  });
  return cursor;
}

bool InMemoryTableScan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& cur = static_cast<CachedCursor&>(state);
  size_t m = cur.next.fetch_add(1);
  if (m >= cur.batches->size()) return false;
  const Batch& in = (*cur.batches)[m];
  Batch out;
  out.num_rows = in.num_rows;
  out.index = batch_index(static_cast<int64_t>(m), 0);
  for (int c : projection_) out.columns.push_back(in.columns[static_cast<size_t>(c)]);
  emit(std::move(out));
  return true;
}

size_t InMemoryTableScan::max_parallelism(const SourceState& state) const {
  return std::max<size_t>(1, static_cast<const CachedCursor&>(state).batches->size());
}

}  // namespace ember::exec
