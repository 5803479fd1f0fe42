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
struct CachedCursor : BatchListSource {
  const std::vector<Batch>* batches = nullptr;
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

/// The cached rows keep the partitions of the plan that computed them, as Spark's cache does.
bool InMemoryTableScan::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& cur = static_cast<CachedCursor&>(state);
  return emit_batches(*cur.batches, cur, [&](Batch in) {
    Batch out;
    out.num_rows = in.num_rows;
    out.index = in.index;
    out.partition = in.partition;
    out.partition_row = in.partition_row;
    for (int c : projection_) out.columns.push_back(in.columns[static_cast<size_t>(c)]);
    emit(std::move(out));
  });
}

size_t InMemoryTableScan::max_parallelism(const SourceState& state) const {
  return std::max<size_t>(1, static_cast<const CachedCursor&>(state).batches->size());
}

}  // namespace ember::exec
