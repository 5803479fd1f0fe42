#include "gpu/program.h"

#include <cstring>
#include <functional>
#include <map>

#include "common/error.h"

namespace ember::gpu {
namespace {

const char* vtype_name(VType t) {
  switch (t) {
    case VType::kBool:
      return "bool";
    case VType::kI8:
      return "i8";
    case VType::kI16:
      return "i16";
    case VType::kI32:
      return "i32";
    case VType::kI64:
      return "i64";
    case VType::kF32:
      return "f32";
    case VType::kF64:
      return "f64";
    case VType::kStr:
      return "str";
  }
  return "?";
}

const std::map<std::string, OpCode>& scalar_ops() {
  static const std::map<std::string, OpCode> ops = {
      {"+", OpCode::kAdd},          {"-", OpCode::kSub},         {"*", OpCode::kMul},
      {"/", OpCode::kDiv},          {"%", OpCode::kRem},         {"pmod", OpCode::kPmod},
      {"negative", OpCode::kNeg},   {"==", OpCode::kEq},         {"<", OpCode::kLt},
      {"<=", OpCode::kLe},          {">", OpCode::kGt},          {">=", OpCode::kGe},
      {"<=>", OpCode::kNullSafeEq}, {"and", OpCode::kAnd},       {"or", OpCode::kOr},
      {"not", OpCode::kNot},        {"isnull", OpCode::kIsNull}, {"isnotnull", OpCode::kIsNotNull},
      {"isnan", OpCode::kIsNan},    {"rand", OpCode::kRand},
  };
  return ops;
}

std::string type_reason(const DataType& t) {
  return "type " + t.simple_string() + " is not supported";
}

VType require_type(const DataType& t) {
  VType v;
  if (!device_type(t, &v)) throw Unsupported(type_reason(t));
  return v;
}

/// A type `expression` can compute on the device (strings are only loaded and compared as keys).
VType require_scalar(const DataType& t, const std::string& expression) {
  VType v = require_type(t);
  if (v == VType::kStr)
    throw Unsupported("expression " + expression + " over type " + t.simple_string() +
                      " is not supported");
  return v;
}

}  // namespace

bool device_type(const DataType& t, VType* out) {
  switch (t.id()) {
    case TypeId::kBoolean:
      *out = VType::kBool;
      return true;
    case TypeId::kByte:
      *out = VType::kI8;
      return true;
    case TypeId::kShort:
      *out = VType::kI16;
      return true;
    case TypeId::kInt:
    case TypeId::kDate:
      *out = VType::kI32;
      return true;
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
      *out = VType::kI64;
      return true;
    case TypeId::kFloat:
      *out = VType::kF32;
      return true;
    case TypeId::kDouble:
      *out = VType::kF64;
      return true;
    case TypeId::kString:
    case TypeId::kBinary:
      *out = VType::kStr;
      return true;
    default:
      return false;
  }
}

int value_bytes(VType t) {
  switch (t) {
    case VType::kBool:
    case VType::kStr:
      return 0;
    case VType::kI8:
      return 1;
    case VType::kI16:
      return 2;
    case VType::kI32:
    case VType::kF32:
      return 4;
    default:
      return 8;
  }
}

std::string Program::to_string() const {
  std::string s;
  for (auto& in : code) {
    s += "r" + std::to_string(in.dst) + " = op" + std::to_string(static_cast<int>(in.op)) + "<" +
         vtype_name(in.type) + "," + vtype_name(in.from) + ">(" + std::to_string(in.a) + ", " +
         std::to_string(in.b) + ", " + std::to_string(in.c) + ") imm=" + std::to_string(in.imm) +
         "\n";
  }
  return s;
}

int ProgramBuilder::emit(Instr in, VType type, bool nullable) {
  if (program_.registers >= kMaxValues)
    throw Unsupported("the expressions need more than " + std::to_string(kMaxValues) + " values");
  if (static_cast<int>(program_.code.size()) >= kMaxInstructions)
    throw Unsupported("the expressions need more than " + std::to_string(kMaxInstructions) +
                      " instructions");
  int r = program_.registers++;
  in.dst = static_cast<uint8_t>(r);
  in.type = type;
  program_.code.push_back(in);
  types_.push_back(type);
  nullable_.push_back(nullable);
  return r;
}

int ProgramBuilder::constant(const Value& v, VType type, bool is_null) {
  Instr in{};
  in.op = OpCode::kConst;
  in.a = in.b = in.c = kNoRegister;
  if (is_null || v.is_null()) {
    in.flags = kNullConst;
  } else if (type == VType::kBool) {
    in.imm = v.as_bool() ? 1 : 0;
  } else if (is_floating(type)) {
    double d = v.as_double();
    if (type == VType::kF32) d = static_cast<double>(static_cast<float>(d));
    std::memcpy(&in.imm, &d, sizeof d);
  } else {
    in.imm = v.as_int();
  }
  return emit(in, type, is_null || v.is_null());
}

void ProgramBuilder::start_range() {
  Instr in{};
  in.op = OpCode::kRangeId;
  in.a = in.b = in.c = kNoRegister;
  level_ = {emit(in, VType::kI64, false)};
}

void ProgramBuilder::start_columns(const std::vector<TypePtr>& types) {
  source_types_ = types;
  loaded_.assign(types.size(), -1);
  level_.clear();
  for (size_t i = 0; i < types.size(); ++i) level_.push_back(-static_cast<int>(i) - 1);
}

int ProgramBuilder::column(int slot) {
  int r = level_.at(static_cast<size_t>(slot));
  if (r >= 0) return r;
  size_t source = static_cast<size_t>(-r - 1);
  if (loaded_[source] >= 0) return loaded_[source];
  VType t = require_type(*source_types_[source]);
  Instr in{};
  in.op = OpCode::kLoadColumn;
  in.a = in.b = in.c = kNoRegister;
  in.imm = static_cast<int64_t>(program_.columns.size());
  program_.columns.push_back(static_cast<int>(source));
  program_.column_types.push_back(t);
  int reg = emit(in, t, true);
  loaded_[source] = reg;
  return reg;
}

void ProgramBuilder::project(const std::vector<exec::PhysExprPtr>& exprs) {
  std::vector<int> next;
  for (auto& e : exprs) next.push_back(expression(*e));
  level_ = std::move(next);
}

void ProgramBuilder::filter(const exec::PhysExpr& condition) {
  if (condition.type->id() != TypeId::kBoolean) throw Unsupported(type_reason(*condition.type));
  int r = expression(condition);
  Instr in{};
  in.op = OpCode::kFilter;
  in.a = static_cast<uint8_t>(r);
  in.b = in.c = kNoRegister;
  // The filter's own register is unused; it keeps one instruction per register.
  emit(in, VType::kBool, false);
  program_.has_filter = true;
}

int ProgramBuilder::all_valid(const std::vector<int>& regs) {
  std::vector<int> nullable;
  for (int r : regs)
    if (may_be_null(r)) nullable.push_back(r);
  if (nullable.empty()) return kNoRegister;
  if (nullable.size() == 1) return nullable[0];
  // Valid exactly where every input is: if(all not null, true, null).
  int all = -1;
  for (int r : nullable) {
    Instr in{};
    in.op = OpCode::kIsNotNull;
    in.a = static_cast<uint8_t>(r);
    in.b = in.c = kNoRegister;
    int v = emit(in, VType::kBool, false);
    if (all < 0) {
      all = v;
    } else {
      Instr both{};
      both.op = OpCode::kAnd;
      both.a = static_cast<uint8_t>(all);
      both.b = static_cast<uint8_t>(v);
      both.c = kNoRegister;
      all = emit(both, VType::kBool, false);
    }
  }
  Instr pick{};
  pick.op = OpCode::kIf;
  pick.a = static_cast<uint8_t>(all);
  pick.b = static_cast<uint8_t>(constant(Value::boolean(true), VType::kBool, false));
  pick.c = static_cast<uint8_t>(constant(Value(), VType::kBool, true));
  return emit(pick, VType::kBool, true);
}

int ProgramBuilder::cast(int reg, const DataType& from, const DataType& to, bool try_cast) {
  if (from.id() == TypeId::kNull) return constant(Value(), require_type(to), true);
  if (from.equals(to)) return reg;
  VType f = require_type(from), t = require_type(to);
  bool datetime = from.is_datetime() || to.is_datetime();
  if (datetime || f == VType::kStr || t == VType::kStr)
    throw Unsupported("cast from " + from.simple_string() + " to " + to.simple_string() +
                      " is not supported");
  Instr in{};
  in.op = OpCode::kCast;
  in.from = f;
  in.a = static_cast<uint8_t>(reg);
  in.b = in.c = kNoRegister;
  in.flags = static_cast<uint8_t>((ansi_ && !try_cast ? kStrict : 0) | (try_cast ? kTryCast : 0));
  // Casts that can fail make a row null under try_cast or non-ANSI float → int... see kernel.
  return emit(in, t, may_be_null(reg) || try_cast);
}

int ProgramBuilder::expression(const exec::PhysExpr& e) {
  using K = exec::PhysExpr::Kind;
  switch (e.kind) {
    case K::kColumn:
      return column(e.column);
    case K::kLiteral: {
      if (e.type->id() == TypeId::kNull) return constant(Value(), VType::kI64, true);
      if (e.type->is_string_like())
        throw Unsupported("literals of type " + e.type->simple_string() + " are not supported");
      return constant(e.value, require_type(*e.type), e.value.is_null());
    }
    case K::kCast: {
      int r = expression(*e.children[0]);
      return cast(r, *e.children[0]->type, *e.type, e.try_cast);
    }
    case K::kCall:
      return call(e);
    case K::kIf:
    case K::kCaseWhen: {
      VType t = require_scalar(*e.type, e.kind == K::kIf ? "if" : "case when");
      size_t pairs = e.kind == K::kIf ? 1 : (e.children.size() - (e.has_else ? 1 : 0)) / 2;
      bool has_else = e.kind == K::kIf || e.has_else;
      int result = has_else ? expression(*e.children.back()) : constant(Value(), t, true);
      // Branches are all computed; a condition selects per row. An error flagged by a branch a
      // row does not take only costs a rerun on the CPU.
      std::vector<std::pair<int, int>> arms;
      for (size_t i = 0; i < pairs; ++i)
        arms.emplace_back(expression(*e.children[2 * i]), expression(*e.children[2 * i + 1]));
      for (size_t i = pairs; i-- > 0;) {
        Instr in{};
        in.op = OpCode::kIf;
        in.a = static_cast<uint8_t>(arms[i].first);
        in.b = static_cast<uint8_t>(arms[i].second);
        in.c = static_cast<uint8_t>(result);
        result = emit(in, t, may_be_null(arms[i].second) || may_be_null(result));
      }
      return result;
    }
    case K::kCoalesce: {
      VType t = require_scalar(*e.type, "coalesce");
      int result = expression(*e.children.back());
      for (size_t i = e.children.size() - 1; i-- > 0;) {
        int r = expression(*e.children[i]);
        Instr in{};
        in.op = OpCode::kCoalesce;
        in.a = static_cast<uint8_t>(r);
        in.b = static_cast<uint8_t>(result);
        in.c = kNoRegister;
        result = emit(in, t, may_be_null(r) && may_be_null(result));
      }
      return result;
    }
    case K::kGetField:
      throw Unsupported("expression struct field access is not supported");
    case K::kLambda:
      throw Unsupported("lambda functions are not supported");
  }
  EMBER_UNREACHABLE("gpu program: unknown expression kind");
}

int ProgramBuilder::call(const exec::PhysExpr& e) {
  const std::string& name = e.function->name;
  auto it = scalar_ops().find(name);
  if (it == scalar_ops().end() || e.function->kind != functions::FunctionKind::kScalar)
    throw Unsupported("expression " + name + " is not supported");
  OpCode op = it->second;
  Instr in{};
  in.op = op;
  in.a = in.b = in.c = kNoRegister;
  if (op == OpCode::kRand) {
    if (program_.has_filter) throw Unsupported("expression rand after a filter is not supported");
    if (program_.rand_generators >= kMaxRandGenerators)
      throw Unsupported("more than " + std::to_string(kMaxRandGenerators) +
                        " rand calls are not supported");
    int64_t seed = 0;
    if (!e.children.empty()) {
      const exec::PhysExpr& s = *e.children[0];
      if (s.kind != exec::PhysExpr::Kind::kLiteral)
        throw Unsupported("expression rand with a non-literal seed is not supported");
      if (!s.value.is_null() && s.type->id() != TypeId::kNull) seed = s.value.as_int();
    } else {
      throw Unsupported("expression rand without a seed is not supported");
    }
    in.imm = seed;
    in.c = static_cast<uint8_t>(program_.rand_generators++);
    return emit(in, VType::kF64, false);
  }
  const bool null_test = op == OpCode::kIsNull || op == OpCode::kIsNotNull;
  VType result = require_scalar(*e.type, name);
  std::vector<int> args;
  for (auto& c : e.children) {
    if (c->type->id() != TypeId::kNull) {
      if (null_test)
        require_type(*c->type);
      else
        require_scalar(*c->type, name);
    } else if (op != OpCode::kIsNull && op != OpCode::kIsNotNull && op != OpCode::kAnd &&
               op != OpCode::kOr && op != OpCode::kNullSafeEq && op != OpCode::kNot) {
      return constant(Value(), result, true);  // null in, null out
    }
    args.push_back(expression(*c));
  }
  if (args.size() > 0) in.a = static_cast<uint8_t>(args[0]);
  if (args.size() > 1) in.b = static_cast<uint8_t>(args[1]);
  bool any_null = false;
  for (int r : args) any_null |= may_be_null(r);
  switch (op) {
    case OpCode::kAdd:
    case OpCode::kSub:
    case OpCode::kMul:
    case OpCode::kRem:
    case OpCode::kPmod:
    case OpCode::kNeg:
      for (auto& c : e.children)
        if (!c->type->equals(*e.type))
          throw Unsupported("expression " + name + " over mixed types is not supported");
      if (e.type->is_datetime() || e.type->id() == TypeId::kBoolean)
        throw Unsupported(type_reason(*e.type));
      in.from = result;
      in.flags = ansi_ ? kStrict : 0;
      return emit(in, result, any_null || (!ansi_ && (op == OpCode::kRem || op == OpCode::kPmod)));
    case OpCode::kDiv:
      if (result != VType::kF64)
        throw Unsupported("expression / of " + e.type->simple_string() + " is not supported");
      in.from = VType::kF64;
      in.flags = ansi_ ? kStrict : 0;
      return emit(in, result, any_null || !ansi_);
    case OpCode::kEq:
    case OpCode::kLt:
    case OpCode::kLe:
    case OpCode::kGt:
    case OpCode::kGe:
    case OpCode::kNullSafeEq:
      if (!e.children[0]->type->equals(*e.children[1]->type))
        throw Unsupported("expression " + name + " over mixed types is not supported");
      in.from = require_type(*e.children[0]->type);
      return emit(in, VType::kBool, op != OpCode::kNullSafeEq && any_null);
    case OpCode::kAnd:
    case OpCode::kOr:
    case OpCode::kNot:
      return emit(in, VType::kBool, any_null);
    case OpCode::kIsNull:
    case OpCode::kIsNotNull:
      if (e.children[0]->type->id() == TypeId::kNull)
        return constant(Value::boolean(op == OpCode::kIsNull), VType::kBool, false);
      return emit(in, VType::kBool, false);
    case OpCode::kIsNan:
      in.from = require_type(*e.children[0]->type);
      return emit(in, VType::kBool, false);
    default:
      break;
  }
  throw Unsupported("expression " + name + " is not supported");
}

std::vector<uint8_t> ProgramBuilder::allocate(const std::vector<int>& live_out) {
  // Dead code first: results nothing reads (filters and rand, which advances its stream, stay).
  {
    std::vector<bool> needed(static_cast<size_t>(program_.registers), false);
    for (int v : live_out)
      if (v != kNoRegister) needed[static_cast<size_t>(v)] = true;
    std::vector<Instr> kept;
    for (size_t i = program_.code.size(); i-- > 0;) {
      const Instr& in = program_.code[i];
      if (!needed[in.dst] && in.op != OpCode::kFilter && in.op != OpCode::kRand) continue;
      for (uint8_t o : {in.a, in.b, in.c})
        if (o != kNoRegister) needed[o] = true;
      kept.push_back(in);
    }
    program_.code.assign(kept.rbegin(), kept.rend());
    // Columns nothing loads any more are not copied to the device.
    std::vector<int> columns;
    std::vector<VType> column_types;
    for (Instr& in : program_.code) {
      if (in.op != OpCode::kLoadColumn) continue;
      columns.push_back(program_.columns[static_cast<size_t>(in.imm)]);
      column_types.push_back(program_.column_types[static_cast<size_t>(in.imm)]);
      in.imm = static_cast<int64_t>(columns.size() - 1);
    }
    program_.columns = std::move(columns);
    program_.column_types = std::move(column_types);
  }
  const int n = static_cast<int>(program_.code.size());
  const int values = program_.registers;
  constexpr int kForever = 1 << 30;
  std::vector<int> last_use(static_cast<size_t>(values), -1);
  for (int i = 0; i < n; ++i) {
    const Instr& in = program_.code[static_cast<size_t>(i)];
    last_use[in.dst] = std::max(last_use[in.dst], i);
    for (uint8_t o : {in.a, in.b, in.c})
      if (o != kNoRegister) last_use[o] = i;
  }
  for (int v : live_out)
    if (v != kNoRegister) last_use[static_cast<size_t>(v)] = kForever;
  std::vector<uint8_t> map(static_cast<size_t>(values), kNoRegister);
  std::vector<bool> busy(kMaxRegisters, false);
  int used = 0;
  for (int i = 0; i < n; ++i) {
    Instr& in = program_.code[static_cast<size_t>(i)];
    uint8_t* operands[] = {&in.a, &in.b, &in.c};
    std::vector<uint8_t> dying;
    for (uint8_t* o : operands) {
      if (*o == kNoRegister) continue;
      if (last_use[*o] == i) dying.push_back(map[*o]);
      *o = map[*o];
    }
    // An instruction reads its operands before it writes: its result may take a register one of
    // them frees.
    for (uint8_t r : dying) busy[r] = false;
    int r = 0;
    while (r < kMaxRegisters && busy[static_cast<size_t>(r)]) ++r;
    if (r == kMaxRegisters)
      throw Unsupported("the expressions need more than " + std::to_string(kMaxRegisters) +
                        " live values");
    map[in.dst] = static_cast<uint8_t>(r);
    busy[static_cast<size_t>(r)] = last_use[in.dst] > i;
    in.dst = static_cast<uint8_t>(r);
    used = std::max(used, r + 1);
  }
  for (int v = 0; v < values; ++v)
    if (last_use[static_cast<size_t>(v)] != kForever) map[static_cast<size_t>(v)] = kNoRegister;
  program_.registers = used;
  return map;
}

std::string unsupported_reason(const exec::PhysExpr& e, bool ansi) {
  std::vector<TypePtr> types;
  std::function<void(const exec::PhysExpr&)> collect = [&](const exec::PhysExpr& x) {
    if (x.kind == exec::PhysExpr::Kind::kColumn) {
      if (types.size() <= static_cast<size_t>(x.column))
        types.resize(static_cast<size_t>(x.column) + 1, DataType::long_());
      types[static_cast<size_t>(x.column)] = x.type;
    }
    for (auto& c : x.children) collect(*c);
  };
  collect(e);
  try {
    ProgramBuilder b(ansi);
    b.start_columns(types);
    b.expression(e);
    return "";
  } catch (const Unsupported& u) {
    return u.what();
  }
}

}  // namespace ember::gpu
