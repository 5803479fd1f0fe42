#pragma once

// How a hash aggregate's keys and aggregate calls map onto the GPU group table: key registers,
// accumulators (8-byte slots per group, updated with atomics), and the finalization of each call
// from its accumulators on the host.
//
// Accumulators are additive or min/max so that per-block tables in shared memory merge into the
// global table with atomics. Variance-like aggregates keep shifted sums: S1 = sum(x - K) and
// S2 = sum((x - K)^2) with K the first value the group saw (set once, per group, by
// compare-and-swap), which keeps the cancellation in M2 = S2 - S1^2 / n as small as when
// summing deviations from the mean.

#include <cstdint>
#include <string>
#include <vector>

#include "exec/operators.h"
#include "gpu/program.h"

namespace ember::gpu {

enum class AccOp : uint8_t {
  kCount,     // 1 slot: rows where the mask passes and `reg` (if any) is valid
  kSumInt,    // 2 slots: exact 128-bit sum (low word, high word) of an integral register
  kSumFloat,  // 1 slot: double sum
  kMin,       // 1 slot: order-preserving int64 encoding (floats: total order, NaN largest)
  kMax,
  kMoments,  // 3 slots: S1, S2 (doubles), K (double; kMomentsUnset until set)
};

/// One accumulator as the kernel sees it (8 bytes).
struct AccSpec {
  AccOp op;
  VType type;    // the register's type
  uint8_t reg;   // value register (kNoRegister: count rows)
  uint8_t mask;  // FILTER register (kNoRegister: none)
  uint16_t slot;
  uint16_t reserved;
};
static_assert(sizeof(AccSpec) == 8, "AccSpec is copied to the device as is");

/// K of a group whose shifted sums have not started (a NaN payload no value carries: values
/// are stored with NaNs made canonical).
constexpr uint64_t kMomentsUnset = 0x7ff4dead0000beefULL;
constexpr int kMaxKeys = 4;
constexpr int kMaxAccumulators = 48;
constexpr int kMaxSlots = 96;

/// Groups copied back from the device table: `count` rows, keys and slots column-major. A string
/// key's word is the hash of its bytes; the bytes are in `heap`, at `string_refs`.
struct TableRows {
  int64_t count = 0;
  std::vector<uint64_t> keys;         // [key * count + row]
  std::vector<uint64_t> string_refs;  // [key * count + row]: offset << 32 | length in `heap`
  std::vector<uint8_t> heap;
  std::vector<uint32_t> nulls;  // per row, bit k: key k is null
  std::vector<uint64_t> slots;  // [slot * count + row]
};

class AggregateLayout {
 public:
  /// Compiles the keys and the calls' arguments and filters into `builder`'s program, over its
  /// current columns. Throws Unsupported.
  AggregateLayout(ProgramBuilder& builder, const std::vector<exec::PhysExprPtr>& keys,
                  const std::vector<exec::AggregateCall>& calls, bool ansi, bool legacy_statistics);

  const std::vector<uint8_t>& key_registers() const { return key_regs_; }
  const std::vector<VType>& key_types() const { return key_vtypes_; }
  /// Per key: the source column (Program::columns value) whose bytes a string key hashes, or -1
  /// for keys that are not strings.
  const std::vector<int>& key_string_sources() const { return key_sources_; }
  bool has_string_keys() const;
  const std::vector<AccSpec>& accumulators() const { return accs_; }
  int slots() const { return slots_; }
  /// The value each slot starts at.
  std::vector<uint64_t> initial_slots() const;

  /// The program values read after the program runs (keys, aggregate inputs and filters).
  std::vector<int> live_values() const;
  /// Rewrites value numbers into registers (from ProgramBuilder::allocate).
  void remap(const std::vector<uint8_t>& registers);

  /// The aggregate's output (keys, then one column per call). Returns false when an exact
  /// integral sum does not fit in a bigint under ANSI mode: the caller reruns on the CPU, which
  /// raises Spark's error.
  bool build_output(const TableRows& rows, std::vector<Batch>& out) const;

 private:
  struct Recipe {
    enum Kind { kCount, kSum, kAvg, kMin, kMax, kMoments } kind;
    int count_slot = -1;        // slot counting the valid inputs
    int slot = -1;              // first slot of the value accumulator
    bool from_moments = false;  // avg read off the shifted sums of a variance of the same input
    VType in = VType::kI64;
    TypePtr out_type;
    bool integral = false;
    bool sample = false, sqrt = false;
  };
  int accumulator(AccOp op, VType type, int reg, int mask);

  std::vector<uint8_t> key_regs_;
  std::vector<VType> key_vtypes_;
  std::vector<TypePtr> key_types_;
  std::vector<int> key_sources_;
  std::vector<AccSpec> accs_;
  std::vector<Recipe> recipes_;
  int slots_ = 0;
  bool ansi_;
  bool legacy_;
};

/// Order-preserving encodings of values as int64 for min/max (doubles: NaN above +Infinity).
int64_t encode_ordered(double v);
double decode_ordered(int64_t v);

}  // namespace ember::gpu
