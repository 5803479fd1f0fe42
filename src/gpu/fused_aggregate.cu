// The fused aggregation kernel: expression program interpreter + shared/global group tables.
// See fused_aggregate.h for the design, program.h for the program's semantics.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "functions/rand.h"
#include "gpu/cuda_check.cuh"
#include "gpu/device_column.h"
#include "gpu/error.h"
#include "gpu/fused_aggregate.h"
#include "gpu/launch.cuh"
#include "gpu/rand_jump.h"
#include "gpu/runtime.h"

namespace ember::gpu {
namespace {

constexpr uint32_t kEmpty = 0, kBusy = 1, kReady = 2;
constexpr uint32_t kNoGlobalSlot = 0xffffffffu;

struct ColumnArg {
  const void* data;
  const uint8_t* validity;
  const int32_t* offsets;  // strings
  const int32_t* codes;    // a dictionary column's strings: the row's entry in `offsets`
};

struct TableArg {
  uint32_t* states;
  uint32_t* nulls;
  uint64_t* keys;
  uint64_t* slots;
  uint32_t* size;
  uint64_t capacity;  // power of two
  uint64_t max_fill;
  // String keys (bit k of string_keys: key k is a string): per key and slot, the bytes' place
  // in the heap (offset << 32 | length); the key word holds their hash.
  uint32_t string_keys;
  uint64_t* refs;
  uint8_t* heap;
  uint64_t heap_capacity;
  unsigned long long* heap_used;
};

/// A string key of the row being inserted: its bytes, and their heap reference when they are
/// in the heap already (merging tables), else kNoRef.
constexpr uint64_t kNoRef = ~0ULL;
struct KeyBytes {
  const uint8_t* ptr;
  uint32_t len;
  uint64_t ref;
};

TableArg table_arg(const GroupTable& t) {
  uint32_t strings = 0;
  const std::vector<int>& sources = t.layout().key_string_sources();
  for (size_t i = 0; i < sources.size(); ++i)
    if (sources[i] >= 0) strings |= 1u << i;
  return TableArg{
      t.states(),       t.nulls(),         t.keys(),
      t.slots(),        t.counters(),      t.capacity(),
      t.capacity() / 2, strings,           t.refs(),
      t.heap(),         t.heap_capacity(), reinterpret_cast<unsigned long long*>(t.heap_used())};
}

/// Everything the kernel needs; passed by value (param space).
struct Params {
  const Instr* code;
  const AccSpec* accs;
  const uint64_t* init_slots;
  ColumnArg columns[kMaxKernelColumns];  // in the parameters: no upload per batch
  const uint64_t* jump;  // kJumpTables matrices
  uint32_t* flags;
  TableArg table;
  int num_instrs, num_regs, num_accs, num_slots, num_keys, num_columns;
  uint8_t key_regs[kMaxKeys];
  int64_t seeds[kMaxRandGenerators];
  int num_rand;
  bool range;
  int64_t range_start, range_step;
  int64_t rows;
  int64_t partitions;             // range: Spark's slices (partition i starts at i * rows / partitions)
  int64_t partition, row_offset;  // batch
  int64_t chunk_rows;
  const uint8_t* key_chars[kMaxKeys];  // string keys: the bytes of their column
  int local_capacity;                  // shared-table slots (power of two, or 0)
  int local_limit;                     // groups a block keeps in shared memory
};

// ---- Range partitions ------------------------------------------------------------------------

/// The first row of Spark's range partition `i` of `partitions` over `rows` rows.
__device__ __forceinline__ int64_t range_partition_start(int64_t i, int64_t rows, int64_t partitions) {
  return static_cast<int64_t>(static_cast<unsigned __int128>(i) * static_cast<uint64_t>(rows) /
                              static_cast<uint64_t>(partitions));
}

/// The partition holding `row`: the largest i with i * rows / partitions <= row.
__device__ __forceinline__ int64_t range_partition_of(int64_t row, int64_t rows, int64_t partitions) {
  return static_cast<int64_t>((static_cast<unsigned __int128>(row + 1) * static_cast<uint64_t>(partitions) - 1) /
                              static_cast<uint64_t>(rows));
}

// ---- Values ----------------------------------------------------------------------------------

__device__ __forceinline__ double D(uint64_t b) {
  return __longlong_as_double(static_cast<long long>(b));
}
__device__ __forceinline__ uint64_t B(double d) {
  return static_cast<uint64_t>(__double_as_longlong(d));
}
__device__ __forceinline__ int64_t I(uint64_t b) { return static_cast<int64_t>(b); }
__device__ __forceinline__ uint64_t U(int64_t v) { return static_cast<uint64_t>(v); }

__device__ __forceinline__ int64_t wrap(int64_t v, VType t) {
  switch (t) {
    case VType::kI8:
      return static_cast<int8_t>(v);
    case VType::kI16:
      return static_cast<int16_t>(v);
    case VType::kI32:
      return static_cast<int32_t>(v);
    default:
      return v;
  }
}

__device__ __forceinline__ int64_t type_min(VType t) {
  switch (t) {
    case VType::kI8:
      return -128;
    case VType::kI16:
      return -32768;
    case VType::kI32:
      return -2147483648LL;
    default:
      return static_cast<int64_t>(0x8000000000000000ULL);
  }
}

__device__ __forceinline__ double round_to(double d, VType t) {
  return t == VType::kF32 ? static_cast<double>(static_cast<float>(d)) : d;
}

/// Spark's ordering of floating values: NaN equals NaN and is above everything.
__device__ __forceinline__ int compare_floating(double x, double y) {
  bool xn = isnan(x), yn = isnan(y);
  if (xn || yn) return xn && yn ? 0 : (xn ? 1 : -1);
  return x < y ? -1 : (x > y ? 1 : 0);
}

__device__ __forceinline__ int64_t ordered(double v) {
  int64_t i = isnan(v) ? 0x7ff8000000000000LL : __double_as_longlong(v);
  return i >= 0 ? i : i ^ 0x7fffffffffffffffLL;
}

__device__ __forceinline__ uint64_t canonical_bits(double v) {
  return isnan(v) ? 0x7ff8000000000000ULL : B(v);
}

// ---- rand ------------------------------------------------------------------------------------

__device__ __forceinline__ uint64_t apply_matrix(const uint64_t* __restrict__ m, uint64_t v) {
  uint64_t r = 0;
#pragma unroll 16
  for (int b = 0; b < 64; ++b) r ^= __ldg(m + b) & (0ULL - ((v >> b) & 1ULL));
  return r;
}

__device__ uint64_t jump(const uint64_t* __restrict__ tables, uint64_t state, uint64_t steps) {
  for (int j = 0; j < kJumpPowers && steps != 0; ++j, steps >>= 1)
    if (steps & 1) state = apply_matrix(tables + j * 64, state);
  return state;
}

// ---- Hashing ---------------------------------------------------------------------------------

__device__ __forceinline__ uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

__device__ __forceinline__ uint64_t hash_keys(const uint64_t* k, int nk, uint32_t nulls) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ nulls;
  for (int i = 0; i < nk; ++i) h = mix64(h ^ k[i]) + 0x9e3779b97f4a7c15ULL;
  return mix64(h);
}

/// Hash of a string's bytes.
__device__ __forceinline__ uint64_t hash_bytes(const uint8_t* p, uint32_t n) {
  uint64_t h = 0xcbf29ce484222325ULL ^ n;
  uint32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    uint32_t w = static_cast<uint32_t>(p[i]) | static_cast<uint32_t>(p[i + 1]) << 8 |
                 static_cast<uint32_t>(p[i + 2]) << 16 | static_cast<uint32_t>(p[i + 3]) << 24;
    h = (h ^ w) * 0x100000001b3ULL;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return mix64(h);
}

/// Whether the string key `i` of the group at `pos` has the bytes of `kb`. Heap bytes and refs
/// are read through L2 (`ld.cg`): other multiprocessors write them during the kernel.
__device__ bool same_string(const TableArg& t, uint64_t pos, int i, const KeyBytes& kb) {
  uint64_t ref = __ldcg(reinterpret_cast<const unsigned long long*>(t.refs) +
                        static_cast<uint64_t>(i) * t.capacity + pos);
  if (static_cast<uint32_t>(ref & 0xffffffffu) != kb.len) return false;
  const uint8_t* h = t.heap + (ref >> 32);
  if (h == kb.ptr) return true;
  for (uint32_t j = 0; j < kb.len; ++j)
    if (__ldcg(h + j) != kb.ptr[j]) return false;
  return true;
}

/// Whether the group at `pos` (its keys' words and null mask equal the row's) has the row's
/// string bytes too.
__device__ __forceinline__ bool same_strings(const TableArg& t, uint64_t pos, int nk,
                                             uint32_t nulls, const KeyBytes* kb) {
  for (int i = 0; i < nk; ++i)
    if (((t.string_keys & ~nulls) >> i) & 1)
      if (!same_string(t, pos, i, kb[i])) return false;
  return true;
}

__device__ __forceinline__ uint32_t load_volatile(const uint32_t* p) {
  return *reinterpret_cast<const volatile uint32_t*>(p);
}
__device__ __forceinline__ uint64_t load_volatile(const uint64_t* p) {
  return *reinterpret_cast<const volatile uint64_t*>(p);
}

/// Finds or inserts a group in the global table; -1 when no slot (or no heap room for its
/// strings) is free. `kb`: the row's string keys (used where t.string_keys says; kStrings false:
/// the table has no string keys).
template <bool kStrings>
__device__ int64_t global_find_or_insert(const TableArg& t, const uint64_t* k, int nk,
                                         uint32_t nulls, uint64_t h, uint32_t& err,
                                         const KeyBytes* kb) {
  uint64_t mask = t.capacity - 1;
  uint64_t pos = h & mask;
  const uint32_t strings = kStrings ? t.string_keys & ~nulls : 0;
  uint64_t refs[kStrings ? kMaxKeys : 1];
  bool stored = strings == 0;  // the row's strings are in the heap
  for (uint64_t probe = 0; probe < t.capacity; ++probe, pos = (pos + 1) & mask) {
    uint32_t st = load_volatile(t.states + pos);
    if (st == kEmpty) {
      // Past seven eighths full, probes get long: report the table as full instead.
      if (load_volatile(t.size) >= t.capacity - t.capacity / 8) return -1;
      if (kStrings && !stored) {
        // Copy the strings before claiming the slot, so that a full heap never leaves a slot
        // busy; bytes of a row that then loses the slot to an equal key stay unused.
        for (int i = 0; i < nk; ++i) {
          if (!((strings >> i) & 1)) continue;
          if (kb[i].ref != kNoRef) {
            refs[i] = kb[i].ref;
            continue;
          }
          unsigned long long at =
              atomicAdd(t.heap_used, static_cast<unsigned long long>(kb[i].len));
          if (at + kb[i].len > t.heap_capacity) return -1;
          for (uint32_t j = 0; j < kb[i].len; ++j) t.heap[at + j] = kb[i].ptr[j];
          refs[i] = static_cast<uint64_t>(at) << 32 | kb[i].len;
        }
        stored = true;
      }
      if (atomicCAS(t.states + pos, kEmpty, kBusy) == kEmpty) {
        for (int i = 0; i < nk; ++i) t.keys[static_cast<uint64_t>(i) * t.capacity + pos] = k[i];
        if (kStrings)
          for (int i = 0; i < nk; ++i)
            if ((strings >> i) & 1) t.refs[static_cast<uint64_t>(i) * t.capacity + pos] = refs[i];
        t.nulls[pos] = nulls;
        __threadfence();
        atomicExch(t.states + pos, kReady);
        if (atomicAdd(t.size, 1u) + 1 > t.max_fill) err |= kErrorTableFull;
        return static_cast<int64_t>(pos);
      }
      st = load_volatile(t.states + pos);
    }
    while (st == kBusy) {
      __nanosleep(32);  // lets the inserting thread, maybe of this warp, publish
      st = load_volatile(t.states + pos);
    }
    __threadfence();
    bool same = load_volatile(t.nulls + pos) == nulls;
    for (int i = 0; i < nk && same; ++i)
      same = load_volatile(t.keys + static_cast<uint64_t>(i) * t.capacity + pos) == k[i];
    if (kStrings && same && strings != 0) same = same_strings(t, pos, nk, nulls, kb);
    if (same) return static_cast<int64_t>(pos);
  }
  return -1;
}

/// The block's table in shared memory.
struct LocalTable {
  uint32_t* states;
  uint32_t* gslots;
  uint32_t* nulls;
  uint64_t* keys;
  uint64_t* slots;
  uint32_t* size;
  int capacity;
  int limit;
};

/// Finds or inserts a group in the block's table (inserting it in the global table too);
/// -1 when the block's table is at its limit.
template <bool kStrings>
__device__ int local_find_or_insert(const LocalTable& t, const TableArg& g, const uint64_t* k,
                                    int nk, uint32_t nulls, uint64_t h, uint32_t& err,
                                    const KeyBytes* kb) {
  int mask = t.capacity - 1;
  int pos = static_cast<int>(h >> 40) & mask;
  for (int probe = 0; probe < t.capacity; ++probe, pos = (pos + 1) & mask) {
    uint32_t st = load_volatile(t.states + pos);
    if (st == kEmpty) {
      if (load_volatile(t.size) >= static_cast<uint32_t>(t.limit)) return -1;
      if (atomicCAS(t.states + pos, kEmpty, kBusy) == kEmpty) {
        atomicAdd(t.size, 1u);
        int64_t gs = global_find_or_insert<kStrings>(g, k, nk, nulls, h, err, kb);
        if (gs < 0) err |= kErrorRowsDropped;
        for (int i = 0; i < nk; ++i) t.keys[i * t.capacity + pos] = k[i];
        t.nulls[pos] = nulls;
        t.gslots[pos] = gs < 0 ? kNoGlobalSlot : static_cast<uint32_t>(gs);
        __threadfence_block();
        atomicExch(t.states + pos, kReady);
        return pos;
      }
      st = load_volatile(t.states + pos);
    }
    while (st == kBusy) {
      __nanosleep(32);  // lets the inserting thread, maybe of this warp, publish
      st = load_volatile(t.states + pos);
    }
    __threadfence_block();
    bool same = load_volatile(t.nulls + pos) == nulls;
    for (int i = 0; i < nk && same; ++i)
      same = load_volatile(t.keys + i * t.capacity + pos) == k[i];
    if (kStrings && same && (g.string_keys & ~nulls) != 0) {
      // Equal hashes: the bytes decide, through the group's entry in the global table.
      uint32_t gs = load_volatile(t.gslots + pos);
      if (gs != kNoGlobalSlot) same = same_strings(g, gs, nk, nulls, kb);
    }
    if (same) return pos;
  }
  return -1;
}

// ---- Accumulators ----------------------------------------------------------------------------

__device__ __forceinline__ double value_as_double(uint64_t bits, VType t) {
  return is_floating(t) ? D(bits) : static_cast<double>(I(bits));
}

__device__ __forceinline__ int64_t value_ordered(uint64_t bits, VType t) {
  return is_floating(t) ? ordered(D(bits)) : I(bits);
}

/// K of a group for shifted sums: set once per group in the global table; `local_k` caches it.
/// K is the first finite value the group sees (0 when that value is infinite or NaN: the
/// group's results are then infinite or NaN whatever K is, as on the CPU).
__device__ double moments_shift(uint64_t* global_k, uint64_t* local_k, double x) {
  if (!isfinite(x)) x = 0.0;
  uint64_t k = local_k ? *local_k : kMomentsUnset;
  if (k != kMomentsUnset) return D(k);
  if (global_k != nullptr) {
    k = load_volatile(global_k);
    if (k == kMomentsUnset) {
      uint64_t prev = atomicCAS(reinterpret_cast<unsigned long long*>(global_k), kMomentsUnset,
                                canonical_bits(x));
      k = prev == kMomentsUnset ? canonical_bits(x) : prev;
    }
  } else {
    uint64_t prev =
        atomicCAS(reinterpret_cast<unsigned long long*>(local_k), kMomentsUnset, canonical_bits(x));
    return D(prev == kMomentsUnset ? canonical_bits(x) : prev);
  }
  if (local_k) *local_k = k;
  return D(k);
}

/// Adds the row (registers `rg`, validity `valid`) to the group's slots at `slots[s * stride]`.
/// For the block table, `global_slots` points at the group in the global table (K lives there).
__device__ void accumulate(const AccSpec* accs, int num_accs, const uint64_t* rg, uint32_t valid,
                           uint64_t* slots, uint64_t stride, uint64_t* global_slots,
                           uint64_t global_stride) {
  for (int a = 0; a < num_accs; ++a) {
    AccSpec acc = accs[a];
    if (acc.mask != kNoRegister &&
        !(((valid >> acc.mask) & 1) && rg[acc.mask * kBlockThreads] != 0))
      continue;
    bool has = acc.reg == kNoRegister || ((valid >> acc.reg) & 1);
    if (!has) continue;
    uint64_t v = acc.reg == kNoRegister ? 0 : rg[acc.reg * kBlockThreads];
    uint64_t* s = slots + acc.slot * stride;
    switch (acc.op) {
      case AccOp::kCount:
        atomicAdd(reinterpret_cast<unsigned long long*>(s), 1ULL);
        break;
      case AccOp::kSumInt: {
        unsigned long long add = v;
        unsigned long long old = atomicAdd(reinterpret_cast<unsigned long long*>(s), add);
        unsigned long long carry = old + add < old ? 1ULL : 0ULL;
        unsigned long long high = (I(v) < 0 ? ~0ULL : 0ULL) + carry;
        if (high != 0) atomicAdd(reinterpret_cast<unsigned long long*>(s + stride), high);
        break;
      }
      case AccOp::kSumFloat:
        atomicAdd(reinterpret_cast<double*>(s), value_as_double(v, acc.type));
        break;
      case AccOp::kMin:
        atomicMin(reinterpret_cast<long long*>(s), value_ordered(v, acc.type));
        break;
      case AccOp::kMax:
        atomicMax(reinterpret_cast<long long*>(s), value_ordered(v, acc.type));
        break;
      case AccOp::kMoments: {
        double x = value_as_double(v, acc.type);
        uint64_t* gk = global_slots ? global_slots + (acc.slot + 2) * global_stride : nullptr;
        double k = global_slots ? moments_shift(gk, s + 2 * stride, x)
                                : moments_shift(s + 2 * stride, nullptr, x);
        double d = x - k;
        atomicAdd(reinterpret_cast<double*>(s), d);
        atomicAdd(reinterpret_cast<double*>(s + stride), d * d);
        break;
      }
    }
  }
}

/// Merges one group of the block's table into the global table.
__device__ void merge_group(const AccSpec* accs, int num_accs, const uint64_t* init,
                            const uint64_t* local, int local_stride, uint64_t* global,
                            uint64_t global_stride) {
  for (int a = 0; a < num_accs; ++a) {
    AccSpec acc = accs[a];
    const uint64_t* s = local + acc.slot * local_stride;
    uint64_t* d = global + acc.slot * global_stride;
    switch (acc.op) {
      case AccOp::kCount:
        if (s[0] != 0)
          atomicAdd(reinterpret_cast<unsigned long long*>(d),
                    static_cast<unsigned long long>(s[0]));
        break;
      case AccOp::kSumInt: {
        unsigned long long lo = s[0], hi = s[local_stride];
        if (lo == 0 && hi == 0) break;
        unsigned long long old = atomicAdd(reinterpret_cast<unsigned long long*>(d), lo);
        hi += old + lo < old ? 1ULL : 0ULL;
        if (hi != 0) atomicAdd(reinterpret_cast<unsigned long long*>(d + global_stride), hi);
        break;
      }
      case AccOp::kSumFloat:
        if (s[0] != init[acc.slot]) atomicAdd(reinterpret_cast<double*>(d), D(s[0]));
        break;
      case AccOp::kMin:
        if (s[0] != init[acc.slot]) atomicMin(reinterpret_cast<long long*>(d), I(s[0]));
        break;
      case AccOp::kMax:
        if (s[0] != init[acc.slot]) atomicMax(reinterpret_cast<long long*>(d), I(s[0]));
        break;
      case AccOp::kMoments:
        if (s[2 * local_stride] == kMomentsUnset) break;
        atomicAdd(reinterpret_cast<double*>(d), D(s[0]));
        atomicAdd(reinterpret_cast<double*>(d + global_stride), D(s[local_stride]));
        break;
    }
  }
}

// ---- The interpreter -------------------------------------------------------------------------

/// Runs the program for one row. Registers are `rg[r * kBlockThreads]` (the thread's column of
/// the block's register file in shared memory); `valid` gets one bit per register. Returns false
/// when a filter dropped the row.
__device__ bool run_program(const Params& p, const Instr* code, uint64_t* rg, uint32_t& valid,
                            int64_t row, uint64_t* rand_state, uint32_t& err) {
  valid = 0;
  for (int pc = 0; pc < p.num_instrs; ++pc) {
    const Instr in = code[pc];
    bool va = in.a != kNoRegister && ((valid >> in.a) & 1);
    bool vb = in.b != kNoRegister && ((valid >> in.b) & 1);
    uint64_t a = in.a != kNoRegister ? rg[in.a * kBlockThreads] : 0;
    uint64_t b = in.b != kNoRegister ? rg[in.b * kBlockThreads] : 0;
    uint64_t r = 0;
    bool ok = true;  // result valid
    bool strict = in.flags & kStrict;
    switch (in.op) {
      case OpCode::kLoadColumn: {
        const ColumnArg col = p.columns[in.imm];
        ok = col.validity == nullptr || ((col.validity[row >> 3] >> (row & 7)) & 1);
        switch (in.type) {
          case VType::kBool:
            r = (static_cast<const uint8_t*>(col.data)[row >> 3] >> (row & 7)) & 1;
            break;
          case VType::kI8:
            r = U(static_cast<const int8_t*>(col.data)[row]);
            break;
          case VType::kI16:
            r = U(static_cast<const int16_t*>(col.data)[row]);
            break;
          case VType::kI32:
            r = U(static_cast<const int32_t*>(col.data)[row]);
            break;
          case VType::kI64:
            r = static_cast<const uint64_t*>(col.data)[row];
            break;
          case VType::kF32:
            r = B(static_cast<double>(static_cast<const float*>(col.data)[row]));
            break;
          case VType::kF64:
            r = static_cast<const uint64_t*>(col.data)[row];
            break;
          case VType::kStr: {
            int64_t at = row;
            if (col.codes != nullptr) {
              if (!ok) break;  // a null row's code may be anything
              at = col.codes[row];
            }
            uint32_t o0 = static_cast<uint32_t>(col.offsets[at]);
            uint32_t o1 = static_cast<uint32_t>(col.offsets[at + 1]);
            r = static_cast<uint64_t>(o0) << 32 | (o1 - o0);
            break;
          }
        }
        break;
      }
      case OpCode::kRangeId:
        r = U(p.range_start) + static_cast<uint64_t>(row) * U(p.range_step);
        break;
      case OpCode::kConst:
        r = U(in.imm);
        ok = !(in.flags & kNullConst);
        break;
      case OpCode::kAdd:
      case OpCode::kSub:
      case OpCode::kMul: {
        ok = va && vb;
        if (!ok) break;
        if (is_floating(in.type)) {
          double x = D(a), y = D(b);
          double z = in.op == OpCode::kAdd ? x + y : (in.op == OpCode::kSub ? x - y : x * y);
          r = B(round_to(z, in.type));
          break;
        }
        int64_t x = I(a), y = I(b), z;
        bool overflow;
        if (in.type == VType::kI64) {
          if (in.op == OpCode::kAdd) {
            z = I(a + b);
            overflow = ((x ^ z) & (y ^ z)) < 0;
          } else if (in.op == OpCode::kSub) {
            z = I(a - b);
            overflow = ((x ^ y) & (x ^ z)) < 0;
          } else {
            z = I(a * b);
            overflow = __mul64hi(x, y) != (z >> 63);
          }
        } else {
          int64_t exact = in.op == OpCode::kAdd ? x + y : (in.op == OpCode::kSub ? x - y : x * y);
          z = wrap(exact, in.type);
          overflow = z != exact;
        }
        if (overflow && strict) err |= kErrorOverflow;
        r = U(z);
        break;
      }
      case OpCode::kDiv: {
        ok = va && vb;
        if (!ok) break;
        double y = D(b);
        if (y == 0) {
          if (strict) err |= kErrorDivideByZero;
          ok = false;
          break;
        }
        r = B(D(a) / y);
        break;
      }
      case OpCode::kRem:
      case OpCode::kPmod: {
        ok = va && vb;
        if (!ok) break;
        bool pmod = in.op == OpCode::kPmod;
        if (is_floating(in.type)) {
          double x = D(a), y = D(b);
          if (y == 0) {
            if (strict) err |= kErrorDivideByZero;
            ok = false;
            break;
          }
          double z = fmod(x, y);
          if (pmod && z < 0) z = fmod(z + y, y);
          r = B(round_to(z, in.type));
          break;
        }
        int64_t x = I(a), y = I(b);
        if (y == 0) {
          if (strict) err |= kErrorDivideByZero;
          ok = false;
          break;
        }
        int64_t z;
        if (y == -1)
          z = 0;
        else if (x == static_cast<int32_t>(x) &&
                 y == static_cast<int32_t>(y))  // 32-bit division is cheaper
          z = static_cast<int32_t>(x) % static_cast<int32_t>(y);
        else
          z = x % y;
        if (pmod && z < 0) z = I(U(z) + U(y)) % y;
        r = U(wrap(z, in.type));
        break;
      }
      case OpCode::kNeg: {
        ok = va;
        if (!ok) break;
        if (is_floating(in.type)) {
          r = B(-D(a));
          break;
        }
        int64_t x = I(a);
        if (x == type_min(in.type) && strict) err |= kErrorOverflow;
        r = U(wrap(I(0ULL - a), in.type));
        break;
      }
      case OpCode::kEq:
      case OpCode::kLt:
      case OpCode::kLe:
      case OpCode::kGt:
      case OpCode::kGe:
      case OpCode::kNullSafeEq: {
        int c;
        bool eq;
        if (is_floating(in.from)) {
          c = compare_floating(D(a), D(b));
          eq = c == 0;
        } else {
          c = I(a) < I(b) ? -1 : (I(a) > I(b) ? 1 : 0);
          eq = a == b;
        }
        bool t;
        switch (in.op) {
          case OpCode::kLt:
            t = c < 0;
            break;
          case OpCode::kLe:
            t = c <= 0;
            break;
          case OpCode::kGt:
            t = c > 0;
            break;
          case OpCode::kGe:
            t = c >= 0;
            break;
          default:
            t = eq;
            break;
        }
        if (in.op == OpCode::kNullSafeEq) {
          ok = true;
          t = (va && vb) ? eq : (!va && !vb);
        } else {
          ok = va && vb;
        }
        r = t;
        break;
      }
      case OpCode::kAnd:
      case OpCode::kOr: {
        bool dominant = in.op == OpCode::kOr;
        bool x = va && a != 0, y = vb && b != 0;
        if ((va && x == dominant) || (vb && y == dominant)) {
          r = dominant;
        } else if (va && vb) {
          r = !dominant;
        } else {
          ok = false;
        }
        break;
      }
      case OpCode::kNot:
        ok = va;
        r = a == 0;
        break;
      case OpCode::kIsNull:
        r = !va;
        break;
      case OpCode::kIsNotNull:
        r = va;
        break;
      case OpCode::kIsNan:
        r = va && is_floating(in.from) && isnan(D(a));
        break;
      case OpCode::kCast: {
        ok = va;
        if (!ok) break;
        VType f = in.from, t = in.type;
        bool try_cast = in.flags & kTryCast;
        if (t == VType::kBool) {
          r = is_floating(f) ? D(a) != 0.0 : a != 0;
        } else if (f == VType::kBool) {
          r = is_floating(t) ? B(a ? 1.0 : 0.0) : a;
        } else if (is_floating(t)) {
          if (is_floating(f))
            r = B(round_to(D(a), t));
          else
            r = t == VType::kF32 ? B(static_cast<double>(__ll2float_rn(I(a))))
                                 : B(__ll2double_rn(I(a)));
        } else if (is_integral(f)) {
          int64_t x = I(a), z = wrap(x, t);
          if (z != x) {
            if (strict) err |= kErrorOverflow;
            if (try_cast) ok = false;
          }
          r = U(z);
        } else {
          // Floating to integral: truncation; NaN and out-of-range values raise (ANSI), become
          // null (try_cast) or saturate as Java does for int/long and wrap for byte/short.
          double v = D(a);
          double tv = trunc(v);
          double lo = static_cast<double>(type_min(t));
          bool fits = !isnan(v) && tv >= lo && tv < -lo;
          if (!fits) {
            if (strict) err |= kErrorOverflow;
            if (try_cast) {
              ok = false;
              break;
            }
            int64_t sat = isnan(v) ? 0
                                   : (v > 0 ? 0x7fffffffffffffffLL
                                            : static_cast<int64_t>(0x8000000000000000ULL));
            if (t == VType::kI32) sat = isnan(v) ? 0 : (v > 0 ? 2147483647LL : -2147483648LL);
            r = U(wrap(sat, t));
          } else {
            r = U(static_cast<int64_t>(tv));
          }
        }
        break;
      }
      case OpCode::kRand:
        r = B(functions::xorshift::next_double(rand_state[in.c]));
        break;
      case OpCode::kIf: {
        bool cond = va && a != 0;
        int src = cond ? in.b : in.c;
        ok = (valid >> src) & 1;
        r = rg[src * kBlockThreads];
        break;
      }
      case OpCode::kCoalesce:
        if (va) {
          r = a;
        } else {
          ok = vb;
          r = b;
        }
        break;
      case OpCode::kFilter:
        if (!(va && a != 0)) return false;
        break;
    }
    rg[in.dst * kBlockThreads] = r;
    // Registers are reused within a row: the bit is set or cleared on every write.
    valid = ok ? (valid | (1u << in.dst)) : (valid & ~(1u << in.dst));
  }
  return true;
}

// ---- The kernel ------------------------------------------------------------------------------

/// Shared memory: program, accumulators, initial slots, register file, block table.
struct SharedLayout {
  size_t code, accs, init, regs, states, gslots, nulls, keys, slots, size, total;
};

__host__ __device__ inline size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

__host__ __device__ inline SharedLayout shared_layout(int num_instrs, int num_accs, int num_slots,
                                                      int num_regs, int num_keys,
                                                      int local_capacity) {
  SharedLayout l{};
  size_t at = 0;
  l.code = at;
  at = align_up(at + sizeof(Instr) * static_cast<size_t>(num_instrs), 16);
  l.accs = at;
  at = align_up(at + sizeof(AccSpec) * static_cast<size_t>(num_accs), 16);
  l.init = at;
  at = align_up(at + 8 * static_cast<size_t>(num_slots), 16);
  l.regs = at;
  at = align_up(at + 8 * static_cast<size_t>(num_regs) * kBlockThreads, 16);
  size_t cap = static_cast<size_t>(local_capacity);
  l.states = at;
  at = align_up(at + 4 * cap, 16);
  l.gslots = at;
  at = align_up(at + 4 * cap, 16);
  l.nulls = at;
  at = align_up(at + 4 * cap, 16);
  l.keys = at;
  at = align_up(at + 8 * cap * static_cast<size_t>(num_keys), 16);
  l.slots = at;
  at = align_up(at + 8 * cap * static_cast<size_t>(num_slots), 16);
  l.size = at;
  at = align_up(at + 16, 16);
  l.total = at;
  return l;
}

/// kStrings: some group key is a string (a separate instantiation keeps the numeric kernel free
/// of the key bytes' bookkeeping).
template <bool kStrings>
__global__ void __launch_bounds__(kBlockThreads) fused_aggregate_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char smem[];
  SharedLayout L = shared_layout(p.num_instrs, p.num_accs, p.num_slots, p.num_regs, p.num_keys,
                                 p.local_capacity);
  Instr* code = reinterpret_cast<Instr*>(smem + L.code);
  AccSpec* accs = reinterpret_cast<AccSpec*>(smem + L.accs);
  uint64_t* init = reinterpret_cast<uint64_t*>(smem + L.init);
  uint64_t* rg = reinterpret_cast<uint64_t*>(smem + L.regs) + threadIdx.x;
  LocalTable local{reinterpret_cast<uint32_t*>(smem + L.states),
                   reinterpret_cast<uint32_t*>(smem + L.gslots),
                   reinterpret_cast<uint32_t*>(smem + L.nulls),
                   reinterpret_cast<uint64_t*>(smem + L.keys),
                   reinterpret_cast<uint64_t*>(smem + L.slots),
                   reinterpret_cast<uint32_t*>(smem + L.size),
                   p.local_capacity,
                   p.local_limit};

  for (int i = threadIdx.x; i < p.num_instrs; i += blockDim.x) code[i] = p.code[i];
  for (int i = threadIdx.x; i < p.num_accs; i += blockDim.x) accs[i] = p.accs[i];
  for (int i = threadIdx.x; i < p.num_slots; i += blockDim.x) init[i] = p.init_slots[i];
  for (int i = threadIdx.x; i < p.local_capacity; i += blockDim.x) {
    local.states[i] = kEmpty;
    for (int s = 0; s < p.num_slots; ++s) local.slots[s * p.local_capacity + i] = p.init_slots[s];
  }
  if (threadIdx.x == 0) *local.size = 0;
  __syncthreads();

  uint32_t err = 0;
  const bool has_rand = p.num_rand > 0;
  const int64_t step_rows = static_cast<int64_t>(kBlockThreads) * kRowsPerThread;
  const int64_t chunks = (p.rows + p.chunk_rows - 1) / p.chunk_rows;
  uint64_t rstate[kMaxRandGenerators];
  int64_t partition = 0, partition_end = 0;  // rand: the partition of the thread's rows
  for (int64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    const int64_t c0 = chunk * p.chunk_rows;
    const int64_t c1 = c0 + p.chunk_rows < p.rows ? c0 + p.chunk_rows : p.rows;
    bool first = true;
    for (int64_t base = c0; base < c1; base += step_rows) {
      if (load_volatile(p.flags) & kErrorRowsDropped) goto done;
      const int64_t row0 = base + static_cast<int64_t>(threadIdx.x) * kRowsPerThread;
      if (has_rand) {
        // A thread's rows since its last base may have crossed into another partition.
        if (first || row0 >= partition_end) {
          int64_t position;
          if (p.range) {
            partition = range_partition_of(row0, p.rows, p.partitions);
            position = row0 - range_partition_start(partition, p.rows, p.partitions);
            partition_end = range_partition_start(partition + 1, p.rows, p.partitions);
          } else {
            partition = p.partition;
            position = p.row_offset + row0;
            partition_end = INT64_MAX;
          }
          for (int g = 0; g < p.num_rand; ++g) {
            uint64_t s0 = functions::xorshift::initial_state(
                static_cast<int64_t>(U(p.seeds[g]) + U(partition)));
            rstate[g] = jump(p.jump, s0, 2 * static_cast<uint64_t>(position));
          }
        } else {
          for (int g = 0; g < p.num_rand; ++g)
            rstate[g] = apply_matrix(p.jump + kJumpPowers * 64, rstate[g]);
        }
        first = false;
      }
      for (int r = 0; r < kRowsPerThread; ++r) {
        // With rand, a thread takes consecutive rows (the generator runs in row order);
        // otherwise consecutive threads take consecutive rows (coalesced loads).
        const int64_t row =
            has_rand ? row0 + r : base + static_cast<int64_t>(r) * kBlockThreads + threadIdx.x;
        if (row >= c1) {
          if (has_rand) break;
          continue;
        }
        if (has_rand && row >= partition_end) {
          // A partition starts among this thread's rows: its streams start afresh there, and
          // the next base recomputes where the thread stands.
          while (row >= partition_end) {
            ++partition;
            partition_end = range_partition_start(partition + 1, p.rows, p.partitions);
          }
          for (int g = 0; g < p.num_rand; ++g)
            rstate[g] = functions::xorshift::initial_state(static_cast<int64_t>(U(p.seeds[g]) + U(partition)));
          first = true;
        }
        uint32_t valid;
        if (!run_program(p, code, rg, valid, row, rstate, err)) continue;
        uint64_t k[kMaxKeys];
        KeyBytes kb_storage[kStrings ? kMaxKeys : 1];
        KeyBytes* kb = kStrings ? kb_storage : nullptr;
        uint32_t nulls = 0;
        for (int i = 0; i < p.num_keys; ++i) {
          int reg = p.key_regs[i];
          if ((valid >> reg) & 1) {
            k[i] = rg[reg * kBlockThreads];
            if (kStrings && ((p.table.string_keys >> i) & 1)) {
              kb[i].ptr = p.key_chars[i] + (k[i] >> 32);
              kb[i].len = static_cast<uint32_t>(k[i] & 0xffffffffu);
              kb[i].ref = kNoRef;
              k[i] = hash_bytes(kb[i].ptr, kb[i].len);
            }
          } else {
            k[i] = 0;
            nulls |= 1u << i;
          }
        }
        uint64_t h = hash_keys(k, p.num_keys, nulls);
        int li = p.local_capacity > 0 ? local_find_or_insert<kStrings>(
                                            local, p.table, k, p.num_keys, nulls, h, err, kb)
                                      : -1;
        if (li >= 0) {
          uint32_t gs = local.gslots[li];
          accumulate(accs, p.num_accs, rg, valid, local.slots + li, p.local_capacity,
                     gs == kNoGlobalSlot ? nullptr : p.table.slots + gs, p.table.capacity);
        } else {
          int64_t gi = global_find_or_insert<kStrings>(p.table, k, p.num_keys, nulls, h, err, kb);
          if (gi < 0) {
            err |= kErrorRowsDropped;
            atomicOr(p.flags, kErrorRowsDropped);
            continue;
          }
          accumulate(accs, p.num_accs, rg, valid, p.table.slots + gi, p.table.capacity, nullptr, 0);
        }
      }
    }
  }
done:
  __syncthreads();
  for (int i = threadIdx.x; i < p.local_capacity; i += blockDim.x) {
    if (local.states[i] != kReady || local.gslots[i] == kNoGlobalSlot) continue;
    merge_group(accs, p.num_accs, init, local.slots + i, p.local_capacity,
                p.table.slots + local.gslots[i], p.table.capacity);
  }
  if (err != 0) atomicOr(p.flags, err);
}

__global__ void init_table_kernel(uint32_t* states, uint64_t* slots, uint64_t capacity,
                                  const uint64_t* init, int num_slots) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < capacity;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    states[i] = kEmpty;
    for (int s = 0; s < num_slots; ++s) slots[s * capacity + i] = init[s];
  }
}

__global__ void compact_table_kernel(const uint32_t* states, const uint32_t* nulls,
                                     const uint64_t* keys, const uint64_t* slots,
                                     const uint64_t* refs, uint32_t string_keys, uint64_t capacity,
                                     int num_keys, int num_slots, uint32_t* counter, uint64_t count,
                                     uint32_t* out_nulls, uint64_t* out_keys, uint64_t* out_slots,
                                     uint64_t* out_refs) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < capacity;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    if (states[i] != kReady) continue;
    uint64_t j = atomicAdd(counter, 1u);
    if (j >= count) continue;
    out_nulls[j] = nulls[i];
    for (int k = 0; k < num_keys; ++k) out_keys[k * count + j] = keys[k * capacity + i];
    for (int k = 0; k < num_keys; ++k)
      if (((string_keys & ~nulls[i]) >> k) & 1) out_refs[k * count + j] = refs[k * capacity + i];
    for (int s = 0; s < num_slots; ++s) out_slots[s * count + j] = slots[s * capacity + i];
  }
}

__global__ void merge_table_kernel(TableArg to, const uint32_t* states, const uint32_t* nulls,
                                   const uint64_t* keys, const uint64_t* slots,
                                   const uint64_t* refs, uint64_t capacity, int num_keys,
                                   int num_slots, uint32_t* flags) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < capacity;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    if (states[i] != kReady) continue;
    uint64_t k[kMaxKeys];
    KeyBytes kb[kMaxKeys];
    for (int j = 0; j < num_keys; ++j) {
      k[j] = keys[j * capacity + i];
      if (((to.string_keys & ~nulls[i]) >> j) & 1) {
        // The heap moved over with its groups: the strings stay where they are.
        uint64_t ref = refs[j * capacity + i];
        kb[j] = KeyBytes{to.heap + (ref >> 32), static_cast<uint32_t>(ref & 0xffffffffu), ref};
      }
    }
    uint32_t err = 0;
    int64_t pos = global_find_or_insert<true>(to, k, num_keys, nulls[i],
                                              hash_keys(k, num_keys, nulls[i]), err, kb);
    if (pos < 0) {
      atomicOr(flags, kErrorRowsDropped);
      continue;
    }
    // Keys are unique in `from` and `to` starts empty: each group lands in a fresh slot.
    for (int s = 0; s < num_slots; ++s) to.slots[s * to.capacity + pos] = slots[s * capacity + i];
  }
}

__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

/// Launches the fused kernel over `rows` rows described by `p` (source fields and columns set
/// by the caller) and reads the table's counters back.
GroupTable::Counters launch(const KernelProgram& kp, Params p, GroupTable& table,
                            Runtime& runtime, const Stream& stream) {
  const AggregateLayout& layout = kp.layout();
  const Program& program = kp.program();
  if (p.rows <= 0) return table.read_counters(stream);
  p.code = static_cast<const Instr*>(kp.code());
  p.accs = static_cast<const AccSpec*>(kp.accumulators());
  p.init_slots = kp.initial_slots();
  p.jump = static_cast<const uint64_t*>(runtime.rand_jump_tables());
  p.flags = table.counters() + 1;
  p.table = table_arg(table);
  p.num_instrs = static_cast<int>(program.code.size());
  p.num_regs = program.registers;
  p.num_accs = static_cast<int>(layout.accumulators().size());
  p.num_slots = layout.slots();
  p.num_keys = static_cast<int>(layout.key_registers().size());
  for (int i = 0; i < p.num_keys; ++i)
    p.key_regs[i] = layout.key_registers()[static_cast<size_t>(i)];
  p.num_rand = program.rand_generators;
  for (const Instr& in : program.code)
    if (in.op == OpCode::kRand) p.seeds[in.c] = in.imm;
  p.local_capacity = kp.block_table_slots();
  p.local_limit = kp.block_table_slots() / 2;
  void (*kernel)(const Params) =
      p.table.string_keys != 0 ? fused_aggregate_kernel<true> : fused_aggregate_kernel<false>;
  int64_t chunks = (p.rows + p.chunk_rows - 1) / p.chunk_rows;
  int grid = static_cast<int>(std::min<int64_t>(
      chunks, static_cast<int64_t>(device_info().multiprocessors) * kp.blocks_per_multiprocessor()));
  kernel<<<grid, kBlockThreads, kp.shared_bytes(), raw(stream)>>>(p);
  EMBER_CUDA_CHECK_LAUNCH("fused_aggregate_kernel");
  return table.read_counters(stream);
}

/// A thread's page-locked landing place for counter read-backs (copies into pageable memory
/// each wait for themselves; these share one wait).
struct CounterScratch {
  uint64_t* words = static_cast<uint64_t*>(detail::alloc_pinned(4 * sizeof(uint64_t)));
  ~CounterScratch() { detail::free_pinned(words); }
};

}  // namespace

// ---- GroupTable ------------------------------------------------------------------------------

GroupTable::GroupTable(const AggregateLayout& layout, uint64_t capacity, DeviceMemoryPool& pool,
                       const Stream& stream)
    : layout_(&layout), pool_(&pool) {
  uint64_t c = 64;
  while (c < capacity) c *= 2;
  capacity_ = c;
  size_t nk = layout.key_registers().size();
  size_t ns = static_cast<size_t>(layout.slots());
  states_ = DeviceBuffer(c * 4, pool, stream);
  nulls_ = DeviceBuffer(c * 4, pool, stream);
  keys_ = DeviceBuffer(std::max<size_t>(c * 8 * nk, 8), pool, stream);
  slots_ = DeviceBuffer(std::max<size_t>(c * 8 * ns, 8), pool, stream);
  counters_ = DeviceBuffer(16, pool, stream);
  refs_ = DeviceBuffer(layout.has_string_keys() ? c * 8 * nk : 8, pool, stream);
  heap_used_ = DeviceBuffer(8, pool, stream);
  fill_device(heap_used_.data(), 0, 8, stream);
  std::vector<uint64_t> init = layout.initial_slots();
  init_ = DeviceBuffer(std::max<size_t>(init.size() * 8, 8), pool, stream);
  copy_to_device(init_.data(), init.data(), init.size() * 8, stream);
  reset(stream);
}

size_t GroupTable::bytes() const {
  return states_.size() + nulls_.size() + keys_.size() + slots_.size() + counters_.size() +
         init_.size() + refs_.size() + heap_.size() + heap_used_.size();
}

void GroupTable::reset(const Stream& stream) {
  fill_device(counters_.data(), 0, counters_.size(), stream);
  init_table_kernel<<<grid_for(capacity_), 256, 0, raw(stream)>>>(
      states(), slots(), capacity_, init_.as<uint64_t>(), layout_->slots());
  EMBER_CUDA_CHECK_LAUNCH("init_table_kernel");
}

uint64_t GroupTable::size(const Stream& stream) const {
  uint32_t n = 0;
  copy_to_host(&n, counters(), sizeof n, stream);
  stream.synchronize();
  return n;
}

GroupTable::Counters GroupTable::read_counters(const Stream& stream) const {
  static thread_local CounterScratch scratch;
  uint64_t words[2] = {0, 0};
  uint64_t* to = scratch.words != nullptr ? scratch.words : words;
  copy_to_host(to, counters(), 2 * sizeof(uint32_t), stream);
  if (string_keys()) copy_to_host(to + 1, heap_used(), sizeof(uint64_t), stream);
  stream.synchronize();
  uint32_t c[2];
  std::memcpy(c, to, sizeof c);
  Counters counters;
  counters.size = c[0];
  counters.flags = c[1];
  counters.heap_used = string_keys() ? to[1] : 0;
  return counters;
}

void GroupTable::merge_from(GroupTable& other, const Stream& stream) {
  heap_ = std::move(other.heap_);
  heap_used_ = std::move(other.heap_used_);
  other.heap_used_ = DeviceBuffer(8, *pool_, stream);
  fill_device(other.heap_used_.data(), 0, 8, stream);
  TableArg to = table_arg(*this);
  merge_table_kernel<<<grid_for(other.capacity()), 256, 0, raw(stream)>>>(
      to, other.states(), other.nulls(), other.keys(), other.slots(), other.refs(),
      other.capacity(), static_cast<int>(layout_->key_registers().size()), layout_->slots(),
      counters() + 1);
  EMBER_CUDA_CHECK_LAUNCH("merge_table_kernel");
  uint32_t flags = 0;
  copy_to_host(&flags, counters() + 1, sizeof flags, stream);
  stream.synchronize();
  if (flags & kErrorRowsDropped)
    throw GpuError("merge_table_kernel", "kErrorRowsDropped", "the larger table is full", false);
}

bool GroupTable::reserve_strings(uint64_t bytes, uint64_t used, const Stream& stream) {
  if (!layout_->has_string_keys() || bytes == 0) return false;
  uint64_t need = used + bytes;
  if (need <= heap_.size()) return false;
  // Heap references hold 32-bit offsets.
  if (need > 0xffffffffULL)
    throw Unsupported("grouping by more than 4 GiB of distinct string key bytes is not supported");
  uint64_t capacity = std::max<uint64_t>(uint64_t{1} << 20, 2 * heap_.size());
  while (capacity < need) capacity *= 2;
  capacity = std::min<uint64_t>(capacity, 0xffffffffULL);
  DeviceBuffer bigger(capacity, *pool_, stream);
  // A failed insert may have counted past the end of the heap.
  uint64_t live = std::min<uint64_t>(used, heap_.size());
  if (live > 0)
    EMBER_CUDA_CHECK(
        cudaMemcpyAsync(bigger.data(), heap_.data(), live, cudaMemcpyDeviceToDevice, raw(stream)));
  heap_ = std::move(bigger);
  return true;
}

TableRows GroupTable::download(const Stream& stream) const {
  TableRows rows;
  uint64_t n = std::min<uint64_t>(size(stream), capacity_);
  rows.count = static_cast<int64_t>(n);
  size_t nk = layout_->key_registers().size();
  size_t ns = static_cast<size_t>(layout_->slots());
  rows.nulls.resize(n);
  rows.keys.resize(n * nk);
  rows.slots.resize(n * ns);
  if (n == 0) return rows;
  const bool strings = layout_->has_string_keys();
  DeviceBuffer out_nulls(n * 4, *pool_, stream),
      out_keys(std::max<size_t>(n * 8 * nk, 8), *pool_, stream),
      out_slots(std::max<size_t>(n * 8 * ns, 8), *pool_, stream),
      out_refs(strings ? n * 8 * nk : 8, *pool_, stream);
  fill_device(counters() + 2, 0, 4, stream);
  compact_table_kernel<<<grid_for(capacity_), 256, 0, raw(stream)>>>(
      states(), nulls(), keys(), slots(), refs(), table_arg(*this).string_keys, capacity_,
      static_cast<int>(nk), static_cast<int>(ns), counters() + 2, n, out_nulls.as<uint32_t>(),
      out_keys.as<uint64_t>(), out_slots.as<uint64_t>(), out_refs.as<uint64_t>());
  EMBER_CUDA_CHECK_LAUNCH("compact_table_kernel");
  copy_to_host(rows.nulls.data(), out_nulls.data(), n * 4, stream);
  copy_to_host(rows.keys.data(), out_keys.data(), n * 8 * nk, stream);
  copy_to_host(rows.slots.data(), out_slots.data(), n * 8 * ns, stream);
  uint64_t heap_bytes = 0;
  if (strings) {
    rows.string_refs.resize(n * nk);
    copy_to_host(rows.string_refs.data(), out_refs.data(), n * 8 * nk, stream);
    copy_to_host(&heap_bytes, heap_used(), sizeof heap_bytes, stream);
  }
  stream.synchronize();
  if (strings) {
    // The heap's used bytes (a failed insert may have counted past the end).
    heap_bytes = std::min<uint64_t>(heap_bytes, heap_.size());
    rows.heap.resize(heap_bytes);
    copy_to_host(rows.heap.data(), heap_.data(), heap_bytes, stream);
    stream.synchronize();
  }
  return rows;
}

// ---- KernelProgram ---------------------------------------------------------------------------

KernelProgram::KernelProgram(const Program& program, const AggregateLayout& layout,
                             DeviceMemoryPool& pool, const Stream& stream)
    : program_(&program), layout_(&layout) {
  if (program.columns.size() > static_cast<size_t>(kMaxKernelColumns))
    throw Unsupported("the aggregation reads more than " + std::to_string(kMaxKernelColumns) +
                      " columns");
  std::vector<uint64_t> init = layout.initial_slots();
  size_t code_bytes = align_up(program.code.size() * sizeof(Instr), 16);
  size_t acc_bytes = align_up(layout.accumulators().size() * sizeof(AccSpec), 16);
  size_t init_bytes = align_up(init.size() * 8, 16);
  acc_offset_ = code_bytes;
  init_offset_ = code_bytes + acc_bytes;
  std::vector<uint8_t> host(code_bytes + acc_bytes + init_bytes + 16, 0);
  std::memcpy(host.data(), program.code.data(), program.code.size() * sizeof(Instr));
  std::memcpy(host.data() + acc_offset_, layout.accumulators().data(),
              layout.accumulators().size() * sizeof(AccSpec));
  std::memcpy(host.data() + init_offset_, init.data(), init.size() * 8);
  args_ = DeviceBuffer(host.size(), pool, stream);
  copy_to_device(args_.data(), host.data(), host.size(), stream);

  const int num_instrs = static_cast<int>(program.code.size());
  const int num_accs = static_cast<int>(layout.accumulators().size());
  const int num_keys = static_cast<int>(layout.key_registers().size());
  const DeviceInfo& info = device_info();
  // The block table: as many slots as fit beside the register file in the shared memory
  // budget, half of them usable (linear probing stays short).
  // 48 KB keeps four blocks on a multiprocessor (registers allow four); a table of 512 slots
  // (256 groups) fits beside the headline query's registers.
  size_t budget = std::min<size_t>(info.shared_memory_per_block, 48 * 1024);
  int capacity = 1024;
  while (capacity > 0 && shared_layout(num_instrs, num_accs, layout.slots(), program.registers,
                                       num_keys, capacity)
                                 .total > budget)
    capacity /= 2;
  if (capacity < 32) capacity = 0;
  // EMBER_GPU_BLOCK_TABLE=0 sends every row to the global table (for measurements).
  if (const char* knob = std::getenv("EMBER_GPU_BLOCK_TABLE");
      knob != nullptr && std::string(knob) == "0")
    capacity = 0;
  block_table_slots_ = capacity;
  shared_bytes_ =
      shared_layout(num_instrs, num_accs, layout.slots(), program.registers, num_keys, capacity)
          .total;
  if (shared_bytes_ > info.shared_memory_per_block)
    throw Unsupported("the expressions need more shared memory than the device has");
  void (*kernel)(const Params) =
      layout.has_string_keys() ? fused_aggregate_kernel<true> : fused_aggregate_kernel<false>;
  // The device's whole limit, the same for every query, so that queries running side by side
  // never lower it under one another's launches.
  EMBER_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(info.shared_memory_per_block)));
  int per_sm = 0;
  EMBER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockThreads,
                                                                 shared_bytes_));
  blocks_per_sm_ = std::max(per_sm, 1);
  // Kernels on other streams read the arguments: the upload completes here.
  stream.synchronize();
}

// ---- Entry points ----------------------------------------------------------------------------

GroupTable::Counters aggregate_range(const KernelProgram& program, const RangeRows& rows,
                                     GroupTable& table, Runtime& runtime, const Stream& stream) {
  Params p{};
  p.range = true;
  p.range_start = rows.start;
  p.range_step = rows.step;
  p.rows = rows.rows;
  p.partitions = std::max<int64_t>(1, rows.partitions);
  // Threads follow partition boundaries themselves (see the kernel), so chunks need not.
  p.chunk_rows = int64_t{1} << 16;
  return launch(program, p, table, runtime, stream);
}

GroupTable::Counters aggregate_batch(const KernelProgram& kernel_program, const BatchRows& rows,
                                     GroupTable& table, Runtime& runtime, const Stream& stream) {
  const Program& program = kernel_program.program();
  Params p{};
  p.range = false;
  p.rows = rows.rows;
  p.partition = rows.partition;
  p.row_offset = rows.row_offset;
  // Rows of a batch are striped across a block's threads, so a chunk may be any multiple of
  // the block size: enough chunks to give every multiprocessor several blocks, even for the
  // 64K-row batches of a scan (v1 used chunks of at least 8K rows: 8 blocks on 132 SMs).
  const int64_t sms = device_info().multiprocessors;
  int64_t per_block = (rows.rows + 4 * sms - 1) / (4 * sms);
  p.chunk_rows = std::max<int64_t>(kBlockThreads,
                                   (per_block + kBlockThreads - 1) / kBlockThreads * kBlockThreads);
  if (program.rand_generators > 0)  // rand draws a thread's rows in sequence (see the kernel)
    p.chunk_rows = static_cast<int64_t>(kBlockThreads) * kRowsPerThread;
  if (rows.columns.size() > static_cast<size_t>(kMaxKernelColumns))
    throw Unsupported("the aggregation reads more than " + std::to_string(kMaxKernelColumns) +
                      " columns");
  p.num_columns = static_cast<int>(rows.columns.size());
  for (size_t i = 0; i < rows.columns.size(); ++i) {
    const DeviceColumn* c = rows.columns[i];
    p.columns[i] = {c->data.data(), c->validity.as<uint8_t>(), c->offsets.as<int32_t>(),
                    c->codes.as<int32_t>()};
  }
  // A string key reads the bytes of the column it was loaded from.
  const std::vector<int>& sources = table.layout().key_string_sources();
  for (size_t k = 0; k < sources.size(); ++k) {
    if (sources[k] < 0) continue;
    bool found = false;
    for (size_t slot = 0; slot < program.columns.size(); ++slot)
      if (program.columns[slot] == sources[k]) {
        p.key_chars[k] = rows.columns[slot]->data.as<uint8_t>();
        found = true;
      }
    if (!found)
      throw GpuError("aggregate_batch", "no column", "a string key's column is not loaded", false);
  }
  return launch(kernel_program, p, table, runtime, stream);
}

double measure_copy_bandwidth(size_t bytes, int repeats, Runtime& runtime) {
  Stream stream;
  bytes = bytes / 16 * 16;
  DeviceBuffer a(bytes, runtime.device_pool(), stream), b(bytes, runtime.device_pool(), stream);
  fill_device(a.data(), 1, bytes, stream);
  cudaEvent_t start, stop;
  EMBER_CUDA_CHECK(cudaEventCreate(&start));
  EMBER_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  int grid = device_info().multiprocessors * 8;
  for (int i = 0; i < repeats + 2; ++i) {
    EMBER_CUDA_CHECK(cudaEventRecord(start, raw(stream)));
    copy_kernel<<<grid, 256, 0, raw(stream)>>>(a.as<uint4>(), b.as<uint4>(), bytes / 16);
    EMBER_CUDA_CHECK_LAUNCH("copy_kernel");
    EMBER_CUDA_CHECK(cudaEventRecord(stop, raw(stream)));
    EMBER_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    EMBER_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (i >= 2) ms.push_back(t);
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  double median = ms[ms.size() / 2] * 1e-3;
  return 2.0 * static_cast<double>(bytes) / median;
}

double measure_upload_bandwidth(size_t bytes, int repeats, Runtime& runtime) {
  Stream stream;
  void* host = detail::alloc_pinned(bytes);
  if (host == nullptr) throw GpuOutOfMemory(bytes, "cudaHostAlloc failed");
  std::memset(host, 1, bytes);
  std::vector<float> ms;
  cudaEvent_t start = nullptr, stop = nullptr;
  try {
    DeviceBuffer dev(bytes, runtime.device_pool(), stream);
    EMBER_CUDA_CHECK(cudaEventCreate(&start));
    EMBER_CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < repeats + 2; ++i) {
      EMBER_CUDA_CHECK(cudaEventRecord(start, raw(stream)));
      copy_to_device(dev.data(), host, bytes, stream);
      EMBER_CUDA_CHECK(cudaEventRecord(stop, raw(stream)));
      EMBER_CUDA_CHECK(cudaEventSynchronize(stop));
      float t = 0;
      EMBER_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
      if (i >= 2) ms.push_back(t);
    }
  } catch (...) {
    stream.synchronize();
    detail::free_pinned(host);
    throw;
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  stream.synchronize();
  detail::free_pinned(host);
  std::sort(ms.begin(), ms.end());
  return static_cast<double>(bytes) / (ms[ms.size() / 2] * 1e-3);
}

}  // namespace ember::gpu
