#pragma once

// The fused GPU aggregation: one kernel generates or reads the rows, runs the expression
// program (filters, projections, key and argument expressions) and updates the group table,
// with no intermediate buffer per operator.
//
// Each block of kBlockThreads threads aggregates into its own table in shared memory while it
// holds few groups, and goes to the global table in device memory for groups beyond that; at
// the end it merges its table into the global one with atomics. Few groups (the common
// `groupBy(small key)`) thus cost shared-memory atomics only; many groups cost one global
// probe per row.

#include <cstdint>
#include <vector>

#include "gpu/aggregate_layout.h"
#include "gpu/memory.h"
#include "gpu/program.h"

namespace ember::gpu {

class Runtime;
struct DeviceColumn;

constexpr int kBlockThreads = 256;
/// Consecutive rows a thread handles per step (rand draws them in sequence).
constexpr int kRowsPerThread = 32;
/// xorshift steps between a thread's runs of rows: two per row over the rest of a step.
constexpr uint64_t kRandStrideSteps =
    2 * (uint64_t{kBlockThreads} * kRowsPerThread - kRowsPerThread);

/// The global group table in device memory: open addressing with linear probing over a
/// power-of-two number of slots; keys, null masks and accumulator slots column-major.
///
/// String keys are hashed on the device: the key word holds the hash of the bytes, and the bytes
/// themselves are copied, once per group, into the table's string heap (a `refs` entry per key
/// points there), so groups compare by bytes and outlive the batches they came from. This keeps
/// the host out of the per-row work and scales to any number of distinct strings, where a host
/// dictionary would cost a CPU hash probe per row (the CPU aggregate's own cost) and a lock or
/// a merge across scan threads.
class GroupTable {
 public:
  GroupTable(const AggregateLayout& layout, uint64_t capacity, DeviceMemoryPool& pool,
             const Stream& stream);
  uint64_t capacity() const { return capacity_; }
  /// Groups inserted so far (synchronizes the stream).
  uint64_t size(const Stream& stream) const;
  /// What the kernels left: groups, error flags and string heap bytes used.
  struct Counters {
    uint64_t size = 0;
    uint32_t flags = 0;
    uint64_t heap_used = 0;
  };
  /// Reads the counters back in one synchronization of `stream` (after a kernel on it). Kernels
  /// on other streams may run meanwhile: their groups count once they are done.
  Counters read_counters(const Stream& stream) const;
  /// Empties the table.
  void reset(const Stream& stream);
  /// Inserts the groups of `other` into this table, which must be empty (for growing); the
  /// string heap moves over from `other`.
  void merge_from(GroupTable& other, const Stream& stream);
  /// Makes room for `bytes` more string key bytes in a heap that holds `used` (as
  /// `read_counters` saw it with no kernel running); true when it queued work on `stream`.
  /// Throws Unsupported past 4 GiB of distinct key bytes.
  bool reserve_strings(uint64_t bytes, uint64_t used, const Stream& stream);
  /// Copies the groups to the host (compacted on the device first).
  TableRows download(const Stream& stream) const;
  /// Device memory the table holds.
  size_t bytes() const;

  // For the kernels.
  uint32_t* states() const { return states_.as<uint32_t>(); }
  uint32_t* nulls() const { return nulls_.as<uint32_t>(); }
  uint64_t* keys() const { return keys_.as<uint64_t>(); }
  uint64_t* slots() const { return slots_.as<uint64_t>(); }
  uint32_t* counters() const {
    return counters_.as<uint32_t>();
  }  // [0] size, [1] flags, [2] scratch
  uint64_t* refs() const { return refs_.as<uint64_t>(); }
  uint8_t* heap() const { return heap_.as<uint8_t>(); }
  uint64_t heap_capacity() const { return heap_.size(); }
  uint64_t* heap_used() const { return heap_used_.as<uint64_t>(); }
  bool string_keys() const { return layout_->has_string_keys(); }
  const AggregateLayout& layout() const { return *layout_; }

 private:
  const AggregateLayout* layout_;
  DeviceMemoryPool* pool_;
  uint64_t capacity_;
  DeviceBuffer states_, nulls_, keys_, slots_, counters_, init_;
  DeviceBuffer refs_, heap_, heap_used_;
};

/// What a query's kernels share: the program's code, accumulators and initial slots, uploaded
/// once (each launch copied them from pageable memory before, and its batch waited for that
/// copy), and the launch shape they need (shared memory, block table, blocks per
/// multiprocessor). Kernels on any stream may use it once it is built: the constructor waits for
/// its upload.
class KernelProgram {
 public:
  KernelProgram(const Program& program, const AggregateLayout& layout, DeviceMemoryPool& pool,
                const Stream& stream);
  const Program& program() const { return *program_; }
  const AggregateLayout& layout() const { return *layout_; }

  // For the launches.
  const void* code() const { return args_.data(); }
  const void* accumulators() const { return args_.as<uint8_t>() + acc_offset_; }
  const uint64_t* initial_slots() const {
    return reinterpret_cast<const uint64_t*>(args_.as<uint8_t>() + init_offset_);
  }
  int block_table_slots() const { return block_table_slots_; }
  size_t shared_bytes() const { return shared_bytes_; }
  int blocks_per_multiprocessor() const { return blocks_per_sm_; }

 private:
  const Program* program_;
  const AggregateLayout* layout_;
  DeviceBuffer args_;
  size_t acc_offset_ = 0, init_offset_ = 0;
  int block_table_slots_ = 0;
  size_t shared_bytes_ = 0;
  int blocks_per_sm_ = 1;
};

/// Source columns a kernel reads at most (their pointers travel as kernel parameters).
constexpr int kMaxKernelColumns = 48;

/// Rows of a range: row i has id start + i * step; rand numbers rows per partition, Spark's
/// `partitions` slices of the range (exec::RangeScan).
struct RangeRows {
  int64_t start = 0;
  int64_t step = 1;
  int64_t rows = 0;
  int64_t partitions = 1;
};

/// Rows of a batch already on the device; for rand, they are rows [row_offset, ...) of
/// partition `partition`.
struct BatchRows {
  std::vector<const DeviceColumn*> columns;  // per Program::columns slot
  int64_t rows = 0;
  int64_t partition = 0;
  int64_t row_offset = 0;
};

/// Runs the fused kernel into `table` on `stream`; returns the table's counters after waiting
/// for it. Their flags (kError*): kErrorTableFull, the table is past its load limit (results
/// are right; grow it before more rows); kErrorRowsDropped, rows found no free slot, the table
/// must grow and the rows be run again. Kernels into one table may run at once on different
/// streams (every update is atomic) as long as none grows it meanwhile.
GroupTable::Counters aggregate_range(const KernelProgram& program, const RangeRows& rows,
                                     GroupTable& table, Runtime& runtime, const Stream& stream);
GroupTable::Counters aggregate_batch(const KernelProgram& program, const BatchRows& rows,
                                     GroupTable& table, Runtime& runtime, const Stream& stream);

/// Measures a device-to-device copy of `bytes` (median of `repeats` timed copies); returns bytes
/// read plus written per second. For the benchmark's bandwidth ceiling.
double measure_copy_bandwidth(size_t bytes, int repeats, Runtime& runtime);
/// Measures host → device copies of `bytes` from page-locked memory (median of `repeats`);
/// returns bytes per second. The ceiling for batches copied in from the CPU.
double measure_upload_bandwidth(size_t bytes, int repeats, Runtime& runtime);

}  // namespace ember::gpu
