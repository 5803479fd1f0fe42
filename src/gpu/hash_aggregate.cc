// The GPU hash aggregate: the fused range → filter/project → aggregate pass, with the CPU
// operators as its fallback.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <shared_mutex>

#include "gpu/device_column.h"
#include "gpu/error.h"
#include "gpu/fused_aggregate.h"
#include "gpu/operators.h"
#include "gpu/runtime.h"

namespace ember::gpu {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

/// The shared state of one run over batches: the device pool, program and group table every
/// thread feeds, and the first failure (after which threads stop using the GPU).
///
/// Kernels into the table run side by side, each on its scan thread's stream (their updates are
/// atomic); before launching, a batch reserves room for its rows (each may be a new group) and
/// its string key bytes on top of what the table holds and what the kernels in flight may add.
/// When there is no room, the thread takes the table alone, once the kernels in flight are done,
/// and grows it. One kernel at a time, with a read-back under the lock, took 15 of the 25 ms of
/// the Parquet sales aggregation on the H100.
struct GpuHashAggregate::Batches {
  Runtime* runtime = nullptr;
  std::unique_ptr<Stream> stream;  // the table's
  std::unique_ptr<DeviceMemoryPool> pool;
  std::unique_ptr<KernelProgram> program;
  std::unique_ptr<GroupTable> table;
  std::shared_mutex table_mu;    // kernels share the table; growing it takes it alone
  std::mutex room_mu;            // guards the counts below
  uint64_t table_size = 0;       // groups, as the last kernel to finish (or the last growth) saw
  uint64_t heap_used = 0;        // string key bytes in the heap, likewise
  uint64_t rows_in_flight = 0;   // rows of the kernels running now
  uint64_t bytes_in_flight = 0;  // string key bytes those rows may add
  std::atomic<bool> failed{false};
  std::mutex fail_mu;
  std::string reason;
  std::chrono::steady_clock::time_point begin;
  double kernel_ms = 0;
  int kernels = 0;
  std::atomic<int64_t> uploaded{0};
};

uint64_t FusedAggregatePlan::rows() const {
  __int128 span = static_cast<__int128>(end) - start;
  if (step == 0 || (step > 0 && span <= 0) || (step < 0 && span >= 0)) return 0;
  return static_cast<uint64_t>((span + (step > 0 ? step - 1 : step + 1)) / step);
}

CompiledAggregate::CompiledAggregate(const FusedAggregatePlan& plan, bool ansi,
                                     bool legacy_statistics) {
  ProgramBuilder b(ansi);
  if (plan.range)
    b.start_range();
  else
    b.start_columns(plan.source_types);
  for (auto& s : plan.steps) {
    if (s.filter)
      b.filter(*s.exprs[0]);
    else
      b.project(s.exprs);
  }
  layout = std::make_unique<AggregateLayout>(b, plan.keys, plan.calls, ansi, legacy_statistics);
  layout->remap(b.allocate(layout->live_values()));
  program = b.program();
  // Batches do not carry their position in the partition that rand numbers rows by.
  if (!plan.range && program.rand_generators > 0)
    throw Unsupported("expression rand over host batches is not supported");
}

GpuHashAggregate::GpuHashAggregate(FusedAggregatePlan plan, exec::OperatorPtr cpu,
                                   const GpuSettings& settings, bool ansi, bool legacy_statistics)
    : plan_(std::move(plan)),
      cpu_(std::move(cpu)),
      settings_(settings),
      compiled_(plan_, ansi, legacy_statistics) {
  schema = cpu_->schema;
}

GpuHashAggregate::~GpuHashAggregate() = default;

std::unique_ptr<exec::SourceState> GpuHashAggregate::open_source(exec::ExecContext& ctx) const {
  if (plan_.range) run(ctx);
  return std::make_unique<exec::BatchListSource>();
}

bool GpuHashAggregate::next_morsel(exec::SourceState& state, exec::ExecContext&,
                                   const exec::Emit& emit) const {
  return exec::emit_from_list(output_, state, emit);
}

size_t GpuHashAggregate::max_parallelism(const exec::SourceState&) const {
  return std::max<size_t>(1, output_.size());
}

void GpuHashAggregate::run(exec::ExecContext& ctx) const {
  output_.clear();
  stats_ = GpuRunStats{};
  try {
    run_on_gpu();
    stats_.on_gpu = true;
    return;
  } catch (const GpuOutOfMemory& e) {
    run_on_cpu(ctx, "the GPU ran out of memory (" + e.message() + ")");
  } catch (const GpuError& e) {
    run_on_cpu(ctx, e.message());
  } catch (const Unsupported& e) {
    run_on_cpu(ctx, e.what());
  }
}

void GpuHashAggregate::run_on_cpu(exec::ExecContext& ctx, const std::string& reason) const {
  output_.clear();
  stats_.on_gpu = false;
  stats_.fallback_reason = reason;
  output_ = exec::run_plan(*cpu_, ctx);
}

void GpuHashAggregate::run_on_gpu() const {
  auto begin = std::chrono::steady_clock::now();
  Runtime* runtime = Runtime::get(settings_);
  if (runtime == nullptr) throw Unsupported(Runtime::unavailable_reason());
  GpuTaskPermit permit(*runtime, settings_.concurrent_tasks);
  Stream stream;
  DeviceMemoryPool pool("query", &runtime->device_pool(), settings_.max_query_bytes);
  KernelProgram program(compiled_.program, *compiled_.layout, pool, stream);
  RangeRows rows;
  rows.start = plan_.start;
  rows.step = plan_.step;
  rows.rows = static_cast<int64_t>(plan_.rows());
  rows.partitions = plan_.partitions;
  // Few groups are the common case; the table grows (and the rows run again) when they are not.
  uint64_t limit = 64;
  while (limit < 2 * static_cast<uint64_t>(std::max<int64_t>(rows.rows, 1))) limit *= 2;
  uint64_t capacity = std::min<uint64_t>(uint64_t{1} << 14, limit);
  const AggregateLayout& layout = *compiled_.layout;
  for (;;) {
    ++stats_.attempts;
    GroupTable table(layout, capacity, pool, stream);
    auto kernel_begin = std::chrono::steady_clock::now();
    uint32_t flags = aggregate_range(program, rows, table, *runtime, stream).flags;
    stats_.kernel_ms = elapsed_ms(kernel_begin);
    if (flags & kErrorOverflow)
      throw Unsupported("a row overflowed under ANSI mode; the CPU raises the error");
    if (flags & kErrorDivideByZero)
      throw Unsupported("a row divided by zero under ANSI mode; the CPU raises the error");
    if (flags & kErrorRowsDropped) {
      if (capacity >= limit)
        throw GpuError("aggregate_range", "kErrorRowsDropped", "the group table is full", false);
      capacity = std::min(capacity * 16, limit);
      continue;
    }
    TableRows groups = table.download(stream);
    stats_.groups = groups.count;
    std::vector<Batch> out;
    if (!layout.build_output(groups, out))
      throw Unsupported("an integral sum overflowed under ANSI mode; the CPU raises the error");
    output_ = std::move(out);
    break;
  }
  stats_.device_peak_bytes = pool.peak();
  stats_.total_ms = elapsed_ms(begin);
}

// ---- Over batches ------------------------------------------------------------------------------

namespace {
struct BatchSinkState : exec::LocalSinkState {
  std::unique_ptr<Stream> stream;
};
constexpr int64_t kSmallestSplit = 1024;
}  // namespace

void GpuHashAggregate::fail(const std::string& reason) {
  std::lock_guard<std::mutex> lock(batches_->fail_mu);
  if (!batches_->failed.exchange(true)) batches_->reason = reason;
}

std::unique_ptr<exec::LocalSinkState> GpuHashAggregate::open_local(exec::ExecContext&) {
  {
    static std::mutex init_mu;
    std::lock_guard<std::mutex> lock(init_mu);
    if (!batches_) {
      batches_ = std::make_unique<Batches>();
      batches_->begin = std::chrono::steady_clock::now();
      output_.clear();
      stats_ = GpuRunStats{};
      try {
        batches_->runtime = Runtime::get(settings_);
        if (batches_->runtime == nullptr) throw Unsupported(Runtime::unavailable_reason());
        batches_->stream = std::make_unique<Stream>();
        batches_->pool = std::make_unique<DeviceMemoryPool>(
            "query", &batches_->runtime->device_pool(), settings_.max_query_bytes);
        batches_->program = std::make_unique<KernelProgram>(compiled_.program, *compiled_.layout,
                                                            *batches_->pool, *batches_->stream);
        batches_->table = std::make_unique<GroupTable>(*compiled_.layout, uint64_t{1} << 16,
                                                       *batches_->pool, *batches_->stream);
        // Kernels run on the scan threads' streams, after the table is ready.
        batches_->stream->synchronize();
      } catch (const GpuOutOfMemory& e) {
        fail("the GPU ran out of memory (" + e.message() + ")");
      } catch (const GpuError& e) {
        fail(e.message());
      } catch (const Unsupported& e) {
        fail(e.what());
      }
    }
  }
  auto local = std::make_unique<BatchSinkState>();
  if (!batches_->failed) {
    try {
      local->stream = std::make_unique<Stream>();
    } catch (const GpuError& e) {
      fail(e.message());
    }
  }
  return local;
}

void GpuHashAggregate::sink(exec::LocalSinkState& local, Batch batch, exec::ExecContext&) {
  if (batches_->failed || batch.num_rows == 0) return;
  auto& state = static_cast<BatchSinkState&>(local);
  try {
    // No task slot: a batch holds its own columns on the device for one kernel (a few MB per
    // scan thread; a batch that does not fit is split, then left to the CPU), which is not what
    // spark.rapids.sql.concurrentGpuTasks bounds. With two slots, 14 of 16 scan threads waited
    // for the bus while the other two copied from pageable memory.
    sink_rows(*state.stream, batch, 0, batch.num_rows);
  } catch (const GpuOutOfMemory& e) {
    fail("the GPU ran out of memory (" + e.message() + ")");
  } catch (const GpuError& e) {
    fail(e.message());
  } catch (const Unsupported& e) {
    fail(e.what());
  }
}

void GpuHashAggregate::sink_rows(const Stream& stream, const Batch& batch, int64_t offset,
                                 int64_t length) {
  Batches& b = *batches_;
  const Program& program = compiled_.program;
  std::vector<DeviceColumn> columns;
  try {
    for (int source : program.columns) {
      const ColumnPtr& c = batch.columns[static_cast<size_t>(source)];
      ColumnPtr part = offset == 0 && length == batch.num_rows ? c : slice(c, offset, length);
      columns.push_back(
          to_device_keeping_dictionary(*part, *b.pool, stream, &b.runtime->pinned_pool()));
    }
  } catch (const GpuOutOfMemory&) {
    // Split and retry: halves need half the memory.
    if (length < 2 * kSmallestSplit) throw;
    columns.clear();
    stream.synchronize();
    sink_rows(stream, batch, offset, length / 2);
    sink_rows(stream, batch, offset + length / 2, length - length / 2);
    return;
  }
  BatchRows rows;
  int64_t uploaded = 0;
  for (auto& c : columns) {
    rows.columns.push_back(&c);
    uploaded +=
        static_cast<int64_t>(c.data.size() + c.validity.size() + c.offsets.size() + c.codes.size());
  }
  b.uploaded += uploaded;
  rows.rows = length;
  rows.partition = batch.partition;
  rows.row_offset = batch.partition_row + offset;
  // Each row copies its string keys into the heap at most once.
  uint64_t string_bytes = 0;
  for (size_t k = 0; k < compiled_.layout->key_string_sources().size(); ++k) {
    int source = compiled_.layout->key_string_sources()[k];
    for (size_t slot = 0; slot < program.columns.size(); ++slot)
      if (source >= 0 && program.columns[slot] == source) string_bytes += columns[slot].value_bytes;
  }
  const auto batch_rows = static_cast<uint64_t>(length);
  for (;;) {
    {
      std::shared_lock<std::shared_mutex> shared(b.table_mu);
      if (b.failed) return;
      bool room;
      {
        // Every row may be a new group: the table stays at most half full.
        std::lock_guard<std::mutex> guard(b.room_mu);
        room = 2 * (b.table_size + b.rows_in_flight + batch_rows) <= b.table->capacity() &&
               (string_bytes == 0 ||
                b.heap_used + b.bytes_in_flight + string_bytes <= b.table->heap_capacity());
        if (room) {
          b.rows_in_flight += batch_rows;
          b.bytes_in_flight += string_bytes;
        }
      }
      if (room) {
        // The reservation ends with the kernel, whether it ran or threw.
        struct Release {
          Batches& b;
          uint64_t rows, bytes;
          ~Release() {
            std::lock_guard<std::mutex> guard(b.room_mu);
            b.rows_in_flight -= rows;
            b.bytes_in_flight -= bytes;
          }
        } release{b, batch_rows, string_bytes};
        auto t0 = std::chrono::steady_clock::now();
        GroupTable::Counters counters =
            aggregate_batch(*b.program, rows, *b.table, *b.runtime, stream);
        {
          std::lock_guard<std::mutex> guard(b.room_mu);
          b.table_size = std::max(b.table_size, counters.size);
          b.heap_used = std::max(b.heap_used, counters.heap_used);
          b.kernel_ms += elapsed_ms(t0);
          ++b.kernels;
        }
        if (counters.flags & kErrorOverflow)
          throw Unsupported("a row overflowed under ANSI mode; the CPU raises the error");
        if (counters.flags & kErrorDivideByZero)
          throw Unsupported("a row divided by zero under ANSI mode; the CPU raises the error");
        if (counters.flags & kErrorRowsDropped) throw Unsupported("the group table was full");
        return;
      }
    }
    // No room: grow the table or its heap alone. The kernels in flight are done once this
    // thread holds the lock (each waited for its own before letting go), so the counters read
    // back now are exact.
    std::unique_lock<std::shared_mutex> alone(b.table_mu);
    if (b.failed) return;
    GroupTable::Counters now = b.table->read_counters(*b.stream);
    {
      std::lock_guard<std::mutex> guard(b.room_mu);
      b.table_size = now.size;
      b.heap_used = now.heap_used;
    }
    uint64_t need = 2 * (now.size + batch_rows);
    if (need > b.table->capacity()) {
      uint64_t capacity = b.table->capacity();
      while (capacity < 2 * need) capacity *= 2;
      auto bigger = std::make_unique<GroupTable>(*compiled_.layout, capacity, *b.pool, *b.stream);
      bigger->merge_from(*b.table, *b.stream);
      b.table = std::move(bigger);
    }
    b.table->reserve_strings(string_bytes, now.heap_used, *b.stream);
    // Kernels on the scan threads' streams must see the grown table.
    b.stream->synchronize();
  }
}

void GpuHashAggregate::finalize(exec::ExecContext& ctx) {
  if (!batches_) open_local(ctx);
  Batches& b = *batches_;
  if (!b.failed) {
    try {
      TableRows groups = b.table->download(*b.stream);
      std::vector<Batch> out;
      if (!compiled_.layout->build_output(groups, out)) {
        fail("an integral sum overflowed under ANSI mode; the CPU raises the error");
      } else {
        output_ = std::move(out);
        stats_.on_gpu = true;
        stats_.groups = groups.count;
        stats_.attempts = b.kernels;
        stats_.kernel_ms = b.kernel_ms;
        stats_.device_peak_bytes = b.pool->peak();
        stats_.uploaded_bytes = b.uploaded;
        stats_.total_ms = elapsed_ms(b.begin);
      }
    } catch (const SparkError& e) {
      fail(e.message());
    }
  }
  std::string reason = b.failed ? b.reason : "";
  b.table.reset();
  if (b.stream) b.stream->synchronize();
  batches_.reset();
  if (!reason.empty()) run_on_cpu(ctx, reason);
}

}  // namespace ember::gpu
