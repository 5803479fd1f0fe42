#include "gpu/aggregate_layout.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "common/error.h"

namespace ember::gpu {
namespace {

int slots_of(AccOp op) {
  switch (op) {
    case AccOp::kSumInt:
      return 2;
    case AccOp::kMoments:
      return 3;
    default:
      return 1;
  }
}

double as_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

/// Appends an int64 register value as the Spark type's storage.
void append_integral(ColumnBuilder& b, VType t, int64_t v) {
  switch (t) {
    case VType::kBool:
      b.append_bool(v != 0);
      break;
    case VType::kI8:
      b.append<int8_t>(static_cast<int8_t>(v));
      break;
    case VType::kI16:
      b.append<int16_t>(static_cast<int16_t>(v));
      break;
    case VType::kI32:
      b.append<int32_t>(static_cast<int32_t>(v));
      break;
    default:
      b.append<int64_t>(v);
      break;
  }
}

}  // namespace

int64_t encode_ordered(double v) {
  int64_t i = std::isnan(v) ? 0x7ff8000000000000LL : static_cast<int64_t>(bits_of(v));
  return i >= 0 ? i : i ^ 0x7fffffffffffffffLL;
}

double decode_ordered(int64_t v) {
  int64_t i = v >= 0 ? v : v ^ 0x7fffffffffffffffLL;
  return as_double(static_cast<uint64_t>(i));
}

int AggregateLayout::accumulator(AccOp op, VType type, int reg, int mask) {
  for (auto& a : accs_)
    if (a.op == op && a.type == type && a.reg == reg && a.mask == mask) return a.slot;
  if (static_cast<int>(accs_.size()) >= kMaxAccumulators || slots_ + slots_of(op) > kMaxSlots)
    throw Unsupported("more than " + std::to_string(kMaxAccumulators) +
                      " aggregate accumulators are not supported");
  AccSpec a{};
  a.op = op;
  a.type = type;
  a.reg = static_cast<uint8_t>(reg);
  a.mask = static_cast<uint8_t>(mask);
  a.slot = static_cast<uint16_t>(slots_);
  slots_ += slots_of(op);
  accs_.push_back(a);
  return a.slot;
}

AggregateLayout::AggregateLayout(ProgramBuilder& b, const std::vector<exec::PhysExprPtr>& keys,
                                 const std::vector<exec::AggregateCall>& calls, bool ansi,
                                 bool legacy_statistics)
    : ansi_(ansi), legacy_(legacy_statistics) {
  if (keys.size() > static_cast<size_t>(kMaxKeys))
    throw Unsupported("grouping by more than " + std::to_string(kMaxKeys) +
                      " keys is not supported");
  for (auto& k : keys) {
    VType t;
    if (!device_type(*k->type, &t))
      throw Unsupported("grouping by type " + k->type->simple_string() + " is not supported");
    if (is_floating(t))
      throw Unsupported("grouping by type " + k->type->simple_string() + " is not supported");
    int reg = b.expression(*k);
    int source = -1;
    if (t == VType::kStr) {
      // Only a column load makes a string value; its bytes are in that column.
      for (const Instr& in : b.program().code)
        if (in.dst == reg && in.op == OpCode::kLoadColumn)
          source = b.program().columns[static_cast<size_t>(in.imm)];
      if (source < 0)
        throw Unsupported("grouping by a computed " + k->type->simple_string() +
                          " is not supported");
    }
    key_sources_.push_back(source);
    key_regs_.push_back(static_cast<uint8_t>(reg));
    key_vtypes_.push_back(t);
    key_types_.push_back(k->type);
  }
  // First the inputs of every call, so that accumulators can be shared across calls.
  struct Input {
    std::string name;
    int mask = kNoRegister;
    std::vector<int> args;
    bool null_input = false;
  };
  std::vector<Input> inputs;
  for (auto& call : calls) {
    Input in;
    in.name = call.function->name;
    if (call.distinct)
      throw Unsupported("aggregate function " + in.name + " with DISTINCT is not supported");
    if (call.filter) in.mask = b.expression(*call.filter);
    for (auto& a : call.args) {
      if (a->type->id() != TypeId::kNull) {
        VType t;
        if (!device_type(*a->type, &t))
          throw Unsupported("aggregate function " + in.name + " over type " +
                            a->type->simple_string() + " is not supported");
      }
      in.args.push_back(b.expression(*a));
    }
    in.null_input = !call.args.empty() && call.args[0]->type->id() == TypeId::kNull;
    inputs.push_back(std::move(in));
  }
  auto is_moments = [](const std::string& n) {
    return n == "stddev" || n == "std" || n == "stddev_samp" || n == "stddev_pop" ||
           n == "variance" || n == "var_samp" || n == "var_pop";
  };
  for (size_t c = 0; c < calls.size(); ++c) {
    const Input& in = inputs[c];
    const std::string& name = in.name;
    Recipe r;
    r.out_type = calls[c].signature.result_type;
    if (name == "count") {
      r.kind = Recipe::kCount;
      r.count_slot = accumulator(AccOp::kCount, VType::kI64, b.all_valid(in.args), in.mask);
      recipes_.push_back(r);
      continue;
    }
    if (in.args.size() != 1) throw Unsupported("aggregate function " + name + " is not supported");
    int x = in.args[0];
    r.in = b.type_of(x);
    if (r.in == VType::kStr)
      throw Unsupported("aggregate function " + name + " over type " +
                        calls[c].args[0]->type->simple_string() + " is not supported");
    // Rows where the input is valid (a null-typed input is a null constant: never valid).
    r.count_slot = accumulator(AccOp::kCount, VType::kI64,
                               b.may_be_null(x) || in.null_input ? x : kNoRegister, in.mask);
    if (name == "sum" || name == "avg") {
      if (r.in == VType::kBool)
        throw Unsupported("aggregate function " + name + " over type boolean is not supported");
      r.integral = is_integral(r.in);
      r.kind = name == "sum" ? Recipe::kSum : Recipe::kAvg;
      bool exact = name == "sum" && r.integral;
      bool shared = false;
      if (name == "avg") {
        // avg = K + S1 / n when a variance of the same input is computed anyway.
        for (size_t o = 0; o < calls.size(); ++o)
          shared |= is_moments(inputs[o].name) && inputs[o].args.size() == 1 &&
                    inputs[o].args[0] == x && inputs[o].mask == in.mask;
      }
      if (shared) {
        r.from_moments = true;
        r.slot = accumulator(AccOp::kMoments, r.in, x, in.mask);
      } else {
        r.slot = accumulator(exact ? AccOp::kSumInt : AccOp::kSumFloat, r.in, x, in.mask);
      }
    } else if (name == "min" || name == "max") {
      r.kind = name == "min" ? Recipe::kMin : Recipe::kMax;
      r.slot = accumulator(name == "min" ? AccOp::kMin : AccOp::kMax, r.in, x, in.mask);
    } else if (is_moments(name)) {
      r.kind = Recipe::kMoments;
      r.sample = name != "stddev_pop" && name != "var_pop";
      r.sqrt = name.rfind("std", 0) == 0;
      r.slot = accumulator(AccOp::kMoments, r.in, x, in.mask);
    } else {
      throw Unsupported("aggregate function " + name + " is not supported");
    }
    recipes_.push_back(r);
  }
}

bool AggregateLayout::has_string_keys() const {
  for (int s : key_sources_)
    if (s >= 0) return true;
  return false;
}

std::vector<int> AggregateLayout::live_values() const {
  std::vector<int> live(key_regs_.begin(), key_regs_.end());
  for (auto& a : accs_) {
    live.push_back(a.reg);
    live.push_back(a.mask);
  }
  return live;
}

void AggregateLayout::remap(const std::vector<uint8_t>& registers) {
  for (auto& k : key_regs_) k = registers.at(k);
  for (auto& a : accs_) {
    if (a.reg != kNoRegister) a.reg = registers.at(a.reg);
    if (a.mask != kNoRegister) a.mask = registers.at(a.mask);
  }
}

std::vector<uint64_t> AggregateLayout::initial_slots() const {
  std::vector<uint64_t> init(static_cast<size_t>(slots_), 0);
  for (auto& a : accs_) {
    if (a.op == AccOp::kMin)
      init[a.slot] = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (a.op == AccOp::kMax)
      init[a.slot] = static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
    if (a.op == AccOp::kMoments) init[a.slot + 2u] = kMomentsUnset;
  }
  return init;
}

bool AggregateLayout::build_output(const TableRows& rows, std::vector<Batch>& out) const {
  int64_t n = rows.count;
  std::vector<uint64_t> synthetic;
  const uint64_t* slot_data = rows.slots.data();
  // A global aggregate produces one row even for empty input.
  if (key_regs_.empty() && n == 0) {
    synthetic = initial_slots();
    slot_data = synthetic.data();
    n = 1;
  }
  auto slot = [&](int s, int64_t row) {
    return slot_data[static_cast<size_t>(s) * static_cast<size_t>(n) + static_cast<size_t>(row)];
  };
  for (int64_t off = 0; off < n; off += exec::kBatchRows) {
    int64_t len = std::min<int64_t>(exec::kBatchRows, n - off);
    Batch b;
    b.num_rows = len;
    for (size_t k = 0; k < key_regs_.size(); ++k) {
      ColumnBuilder col(key_types_[k], len);
      for (int64_t i = off; i < off + len; ++i) {
        size_t at = k * static_cast<size_t>(n) + static_cast<size_t>(i);
        if ((rows.nulls[static_cast<size_t>(i)] >> k) & 1) {
          col.append_null();
        } else if (key_vtypes_[k] == VType::kStr) {
          uint64_t ref = rows.string_refs[at];
          col.append_bytes(std::string_view(
              reinterpret_cast<const char*>(rows.heap.data()) + (ref >> 32), ref & 0xffffffffu));
        } else {
          append_integral(col, key_vtypes_[k], static_cast<int64_t>(rows.keys[at]));
        }
      }
      b.columns.push_back(col.finish());
    }
    for (const Recipe& r : recipes_) {
      ColumnBuilder col(r.out_type, len);
      for (int64_t i = off; i < off + len; ++i) {
        int64_t count = static_cast<int64_t>(slot(r.count_slot, i));
        if (r.kind == Recipe::kCount) {
          col.append<int64_t>(count);
          continue;
        }
        if (count == 0) {
          col.append_null();
          continue;
        }
        switch (r.kind) {
          case Recipe::kSum:
            if (r.integral) {
              uint64_t lo = slot(r.slot, i), hi = slot(r.slot + 1, i);
              bool fits = (hi == 0 && static_cast<int64_t>(lo) >= 0) ||
                          (hi == ~uint64_t{0} && static_cast<int64_t>(lo) < 0);
              if (!fits && ansi_) return false;
              col.append<int64_t>(static_cast<int64_t>(lo));
            } else {
              col.append<double>(as_double(slot(r.slot, i)));
            }
            break;
          case Recipe::kAvg:
            if (r.from_moments) {
              col.append<double>(as_double(slot(r.slot + 2, i)) +
                                 as_double(slot(r.slot, i)) / static_cast<double>(count));
            } else {
              col.append<double>(as_double(slot(r.slot, i)) / static_cast<double>(count));
            }
            break;
          case Recipe::kMin:
          case Recipe::kMax: {
            int64_t v = static_cast<int64_t>(slot(r.slot, i));
            if (r.in == VType::kF64)
              col.append<double>(decode_ordered(v));
            else if (r.in == VType::kF32)
              col.append<float>(static_cast<float>(decode_ordered(v)));
            else
              append_integral(col, r.in, v);
            break;
          }
          case Recipe::kMoments: {
            double cnt = static_cast<double>(count);
            double s1 = as_double(slot(r.slot, i)), s2 = as_double(slot(r.slot + 1, i));
            double m2 = s2 - s1 * s1 / cnt;
            if (m2 < 0) m2 = 0;
            double v;
            if (r.sample) {
              if (count == 1) {
                if (!legacy_) {
                  col.append_null();
                  break;
                }
                v = NAN;
              } else {
                v = m2 / (cnt - 1);
              }
            } else {
              v = m2 / cnt;
            }
            col.append<double>(r.sqrt ? std::sqrt(v) : v);
            break;
          }
          default:
            EMBER_UNREACHABLE("gpu aggregate: unexpected recipe");
        }
      }
      b.columns.push_back(col.finish());
    }
    out.push_back(std::move(b));
  }
  return true;
}

}  // namespace ember::gpu
