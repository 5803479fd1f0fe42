// GPU sort and top-N: the device finds the order, the host gathers the rows; the CPU sort is the
// fallback (CPU twin: exec/sort.cc).

#include <algorithm>
#include <chrono>

#include "gpu/error.h"
#include "gpu/operators.h"
#include "gpu/radix_sort.h"
#include "gpu/runtime.h"

namespace ember::gpu {
namespace {

struct LocalBatches : exec::LocalSinkState {
  std::vector<Batch> batches;
};

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

bool sortable_on_device(const DataType& t) {
  // The device normalizes null, boolean, floating and integer keys of up to 64 bits; ANSI
  // interval keys have not been verified there yet.
  switch (t.id()) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kFloat:
    case TypeId::kDouble: return true;
    default: return t.is_integer_valued() && !t.is_ansi_interval();
  }
}

GpuSort::GpuSort(std::vector<exec::SortKey> keys, int64_t limit, const GpuSettings& settings)
    : keys_(std::move(keys)),
      limit_(limit),
      settings_(settings),
      cpu_(std::make_unique<exec::Sort>(keys_, limit_)) {}

GpuSort::~GpuSort() = default;

std::unique_ptr<exec::LocalSinkState> GpuSort::open_local(exec::ExecContext&) {
  return std::make_unique<LocalBatches>();
}

void GpuSort::sink(exec::LocalSinkState& local, Batch batch, exec::ExecContext& ctx) {
  if (batch.num_rows == 0) return;
  for (auto& k : keys_) batch.columns.push_back(exec::evaluate(*k.expr, batch, ctx.eval));
  static_cast<LocalBatches&>(local).batches.push_back(std::move(batch));
}

void GpuSort::combine(exec::LocalSinkState& local, exec::ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<LocalBatches&>(local).batches) input_.push_back(std::move(b));
}

void GpuSort::finalize(exec::ExecContext& ctx) {
  output_.clear();
  on_cpu_ = false;
  stats_ = GpuRunStats{};
  // Source order first, so that ties keep it (as on the CPU).
  std::stable_sort(input_.begin(), input_.end(),
                   [](const Batch& a, const Batch& b) { return a.index < b.index; });
  int64_t rows = 0;
  for (auto& b : input_) rows += b.num_rows;
  if (rows < settings_.min_rows) {
    sort_on_cpu(ctx, "the input has " + std::to_string(rows) +
                         " rows, fewer than spark.ember.gpu.minRows (" +
                         std::to_string(settings_.min_rows) + ")");
    return;
  }
  try {
    sort_on_gpu(ctx);
    stats_.on_gpu = true;
    input_.clear();
  } catch (const GpuOutOfMemory& e) {
    sort_on_cpu(ctx, "the GPU ran out of memory (" + e.message() + ")");
  } catch (const GpuError& e) {
    sort_on_cpu(ctx, e.message());
  } catch (const Unsupported& e) {
    sort_on_cpu(ctx, e.what());
  }
}

void GpuSort::sort_on_gpu(exec::ExecContext& ctx) {
  auto begin = std::chrono::steady_clock::now();
  if (input_.empty()) return;
  Runtime* runtime = Runtime::get(settings_);
  if (runtime == nullptr) throw Unsupported(Runtime::unavailable_reason());
  size_t total = input_[0].columns.size();
  size_t width = total - keys_.size();
  Batch all = concat_batches(input_, total);
  std::vector<SortColumn> columns;
  for (size_t k = 0; k < keys_.size(); ++k)
    columns.push_back({all.columns[width + k].get(), keys_[k].ascending, keys_[k].nulls_first});
  std::vector<int32_t> order;
  {
    GpuTaskPermit permit(*runtime, settings_.concurrent_tasks);
    Stream stream;
    DeviceMemoryPool pool("query", &runtime->device_pool(), settings_.max_query_bytes);
    auto t0 = std::chrono::steady_clock::now();
    order = sort_permutation(columns, all.num_rows, pool, stream);
    stats_.kernel_ms = elapsed_ms(t0);
    stats_.device_peak_bytes = pool.peak();
  }
  ctx.check_cancelled();
  int64_t n = all.num_rows;
  if (limit_ >= 0 && limit_ < n) n = limit_;
  all.columns.resize(width);
  for (int64_t off = 0; off < n; off += exec::kBatchRows) {
    int64_t len = std::min(exec::kBatchRows, n - off);
    output_.push_back(gather_batch(all, order.data() + off, len));
  }
  stats_.total_ms = elapsed_ms(begin);
}

void GpuSort::sort_on_cpu(exec::ExecContext& ctx, const std::string& reason) {
  output_.clear();
  on_cpu_ = true;
  stats_.on_gpu = false;
  stats_.fallback_reason = reason;
  cpu_ = std::make_unique<exec::Sort>(keys_, limit_);
  cpu_->schema = schema;
  auto local = cpu_->open_local(ctx);
  for (auto& b : input_) {
    b.columns.resize(b.columns.size() - keys_.size());
    cpu_->sink(*local, std::move(b), ctx);
  }
  input_.clear();
  cpu_->combine(*local, ctx);
  cpu_->finalize(ctx);
}

std::unique_ptr<exec::SourceState> GpuSort::open_source(exec::ExecContext& ctx) const {
  if (on_cpu_) return cpu_->open_source(ctx);
  return std::make_unique<exec::BatchListSource>();
}

bool GpuSort::next_morsel(exec::SourceState& state, exec::ExecContext& ctx,
                          const exec::Emit& emit) const {
  if (on_cpu_) return cpu_->next_morsel(state, ctx, emit);
  return exec::emit_from_list(output_, state, emit);
}

size_t GpuSort::max_parallelism(const exec::SourceState& state) const {
  if (on_cpu_) return cpu_->max_parallelism(state);
  return std::max<size_t>(1, output_.size());
}

}  // namespace ember::gpu
