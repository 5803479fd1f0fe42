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
  /// Reads the counters back in one synchronization of the stream (after a kernel) and keeps
  /// them for `reserve_strings` and `last_counters`.
  Counters read_counters(const Stream& stream);
  /// The counters the last `read_counters` saw.
  const Counters& last_counters() const { return last_; }
  /// Empties the table.
  void reset(const Stream& stream);
  /// Inserts the groups of `other` into this table, which must be empty (for growing); the
  /// string heap moves over from `other`.
  void merge_from(GroupTable& other, const Stream& stream);
  /// Makes room for `bytes` more string key bytes in the heap (reading the bytes used back unless
  /// `read_counters` saw them since the last change); true when it queued work on `stream`.
  /// Throws Unsupported past 4 GiB of distinct key bytes.
  bool reserve_strings(uint64_t bytes, const Stream& stream);
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
  Counters last_;
  bool counters_known_ = false;  // `last_` is what the device holds
};

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

/// Runs the fused kernel into `table`; returns the error flags (kError*) after synchronizing.
/// kErrorTableFull: the table is past its load limit (results are right; grow it before more
/// rows); kErrorRowsDropped: rows found no free slot, the table must grow and the rows be run
/// again.
uint32_t aggregate_range(const Program& program, const RangeRows& rows, GroupTable& table,
                         Runtime& runtime, const Stream& stream);
uint32_t aggregate_batch(const Program& program, const BatchRows& rows, GroupTable& table,
                         Runtime& runtime, const Stream& stream);

/// Measures a device-to-device copy of `bytes` (median of `repeats` timed copies); returns bytes
/// read plus written per second. For the benchmark's bandwidth ceiling.
double measure_copy_bandwidth(size_t bytes, int repeats, Runtime& runtime);
/// Measures host → device copies of `bytes` from page-locked memory (median of `repeats`);
/// returns bytes per second. The ceiling for batches copied in from the CPU.
double measure_upload_bandwidth(size_t bytes, int repeats, Runtime& runtime);

}  // namespace ember::gpu
