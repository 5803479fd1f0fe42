#pragma once

// The device expression program: bound expressions (exec::PhysExpr) of a chain of
// range/scan → filter/project → aggregate operators compiled into one flat list of register
// instructions, which the fused kernel interprets row by row without intermediate buffers.
//
// Values live in 64-bit registers: integral types sign-extended to int64 and wrapped to their
// width after each operation, float and double as double (float results rounded to float after
// each operation, which is exact for + - * / and fmod), booleans as 0/1. Each register has a
// validity bit. Errors that Spark raises (ANSI overflow, division by zero, cast overflow) set
// flags instead; the operator then reruns the query on the CPU, which raises the exact error.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/expression.h"

namespace ember::gpu {

/// Physical value types of device registers and columns. A string (or binary) register holds
/// the row's value as a reference into its column's bytes, `offset << 32 | length`; strings are
/// read only by null tests, count and group keys (which hash and compare the bytes).
enum class VType : uint8_t { kBool, kI8, kI16, kI32, kI64, kF32, kF64, kStr };

/// The device type holding values of `t`; false for types the GPU does not handle.
bool device_type(const DataType& t, VType* out);
constexpr bool is_floating(VType t) { return t == VType::kF32 || t == VType::kF64; }
constexpr bool is_integral(VType t) { return t >= VType::kI8 && t <= VType::kI64; }
/// Bytes per value in a column (0 for booleans, a bitmap, and strings, offsets and bytes).
int value_bytes(VType t);

enum class OpCode : uint8_t {
  kLoadColumn,  // dst = input column imm at the row
  kRangeId,     // dst = range start + row * step (imm = start, b-th... see kernel)
  kConst,       // dst = imm bits (null when flags & kNullConst)
  kAdd,
  kSub,
  kMul,
  kDiv,  // doubles
  kRem,
  kPmod,
  kNeg,
  kEq,  // comparisons compare registers of type `from`
  kLt,
  kLe,
  kGt,
  kGe,
  kNullSafeEq,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kIsNotNull,
  kIsNan,
  kCast,      // from `from` to `type`
  kRand,      // rand(seed = imm), generator number c
  kIf,        // a ? b : c (a null or false: c)
  kCoalesce,  // a if valid, else b
  kFilter,    // rows where a is null or false stop here
};

/// One instruction (16 bytes, copied as is to the device).
struct Instr {
  OpCode op;
  VType type;  // result type
  VType from;  // operand type for comparisons and casts
  uint8_t dst;
  uint8_t a, b, c;
  uint8_t flags;
  int64_t imm;
};
static_assert(sizeof(Instr) == 16, "Instr is copied to the device as is");

/// Instr::flags.
constexpr uint8_t kStrict = 1;     // ANSI: raise (flag) instead of returning null / wrapping
constexpr uint8_t kTryCast = 2;    // try_cast: null on failure even in ANSI mode
constexpr uint8_t kNullConst = 4;  // kConst is null

/// Registers the kernel holds per row (one validity bit each in a 32-bit mask); values are
/// numbered freely while compiling and mapped onto these by `ProgramBuilder::allocate`.
constexpr int kMaxRegisters = 32;
constexpr int kMaxValues = 250;
constexpr int kMaxInstructions = 250;
constexpr int kMaxRandGenerators = 4;
constexpr uint8_t kNoRegister = 255;

/// Error flags the kernel reports.
constexpr uint32_t kErrorOverflow = 1;           // ANSI integral overflow (arithmetic or cast)
constexpr uint32_t kErrorDivideByZero = 2;       // ANSI division or remainder by zero
constexpr uint32_t kErrorTableFull = 1u << 8;    // the group table is past its load limit
constexpr uint32_t kErrorRowsDropped = 1u << 9;  // a row found no free slot: run again, larger

struct Program {
  std::vector<Instr> code;
  int registers = 0;
  /// For each input column slot the kernel reads (Instr::imm of kLoadColumn): the source column.
  std::vector<int> columns;
  std::vector<VType> column_types;
  int rand_generators = 0;
  /// Rows are numbered for rand only while no filter ran before it.
  bool has_filter = false;
  std::string to_string() const;
};

/// A piece of the plan the GPU cannot run, and why ("expression rlike is not supported").
class Unsupported : public std::runtime_error {
 public:
  explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

/// Compiles a chain bottom-up: start at a source, apply filters and projections, then compile
/// the expressions of the operator on top (aggregate keys and arguments). Every method throws
/// Unsupported with a reason for what the GPU cannot run.
class ProgramBuilder {
 public:
  explicit ProgramBuilder(bool ansi) : ansi_(ansi) {}

  /// The source is a range: one column, `id` (bigint).
  void start_range();
  /// The source is a batch with columns of these types (loaded when first used).
  void start_columns(const std::vector<TypePtr>& types);
  /// The current columns become the values of `exprs` over them.
  void project(const std::vector<exec::PhysExprPtr>& exprs);
  /// Rows where `condition` is not true are dropped.
  void filter(const exec::PhysExpr& condition);
  /// Compiles `e` over the current columns; returns its register.
  int expression(const exec::PhysExpr& e);
  /// A register valid exactly where every register in `regs` is (for count); kNoRegister when
  /// none of them can be null.
  int all_valid(const std::vector<int>& regs);
  VType type_of(int reg) const { return types_[static_cast<size_t>(reg)]; }
  bool may_be_null(int reg) const { return nullable_[static_cast<size_t>(reg)]; }
  const Program& program() const { return program_; }

  /// Maps the program's values onto at most kMaxRegisters registers, reusing a register once
  /// its value is dead; `live_out` are read after the program (keys, aggregate inputs). Returns
  /// the register of each value (kNoRegister for values dead at the end). Throws Unsupported.
  std::vector<uint8_t> allocate(const std::vector<int>& live_out);

 private:
  int emit(Instr in, VType type, bool nullable);
  int constant(const Value& v, VType type, bool is_null);
  int column(int slot);
  int call(const exec::PhysExpr& e);
  int cast(int reg, const DataType& from, const DataType& to, bool try_cast);

  bool ansi_;
  Program program_;
  std::vector<VType> types_;
  std::vector<bool> nullable_;
  /// Registers of the current columns; -(i + 1) for source column i not loaded yet.
  std::vector<int> level_;
  std::vector<TypePtr> source_types_;
  std::vector<int> loaded_;  // per source column: its register, or -1
};

/// Checks whether one expression could run on the GPU (types and functions), without a chain;
/// returns "" or the reason. Used to explain operators that stay on the CPU.
std::string unsupported_reason(const exec::PhysExpr& e, bool ansi);

}  // namespace ember::gpu
