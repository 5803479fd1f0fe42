#include "exec/expression.h"

#include <cstring>

#include "common/error.h"
#include "exec/lambda.h"
#include "functions/cast.h"

namespace ember::exec {

bool PhysExpr::may_throw() const {
  if (kind == Kind::kCast) return true;
  if (kind == Kind::kCall && function && function->kind == functions::FunctionKind::kScalar) {
    const std::string& n = function->name;
    if (function->may_throw || n == "+" || n == "-" || n == "*" || n == "/" || n == "%" || n == "pmod" ||
        n == "negative")
      return true;
  }
  for (auto& c : children)
    if (c->may_throw()) return true;
  return false;
}

bool numbers_rows(const PhysExpr& e) {
  if (e.kind == PhysExpr::Kind::kCall && e.function && e.function->numbers_rows) return true;
  for (auto& c : e.children)
    if (numbers_rows(*c)) return true;
  return false;
}

std::string PhysExpr::to_string() const {
  if (!display.empty()) return display;
  switch (kind) {
    case Kind::kColumn: return "#" + std::to_string(column);
    case Kind::kLiteral: return "lit";
    case Kind::kCall: {
      std::string s = function->name + "(";
      for (size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + children[i]->to_string();
      return s + ")";
    }
    case Kind::kCast: return "cast(" + children[0]->to_string() + " as " + type->simple_string() + ")";
    default: return "expr";
  }
}

std::vector<int32_t> true_rows(const Column& p) {
  const int64_t n = p.length();
  if (p.type()->id() == TypeId::kNull) return {};
  std::vector<int32_t> rows(static_cast<size_t>(n));
  const uint8_t* d = p.data_buffer()->data();
  const uint8_t* v = p.validity_bits();
  int32_t* out = rows.data();
  int64_t count = 0;
  // 64 rows at a time: the set bits of (value AND valid), lowest first.
  const int64_t words = n / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t bits, valid = ~uint64_t{0};
    std::memcpy(&bits, d + w * 8, 8);
    if (v) std::memcpy(&valid, v + w * 8, 8);
    bits &= valid;
    while (bits) {
      out[count++] = static_cast<int32_t>(w * 64 + __builtin_ctzll(bits));
      bits &= bits - 1;
    }
  }
  for (int64_t i = words * 64; i < n; ++i)
    if (get_bit(d, i) && (!v || get_bit(v, i))) out[count++] = static_cast<int32_t>(i);
  rows.resize(static_cast<size_t>(count));
  return rows;
}

namespace {

/// Evaluates `e` on the given rows only, returning a column of rows.size() values.
ColumnPtr evaluate_rows(const PhysExpr& e, const Batch& batch, const std::vector<int32_t>& rows,
                        const functions::EvalContext& ctx) {
  if (static_cast<int64_t>(rows.size()) == batch.num_rows) return evaluate(e, batch, ctx);
  Batch sub = gather_batch(batch, rows.data(), static_cast<int64_t>(rows.size()));
  return evaluate(e, sub, ctx);
}

/// Places `part` (values for `rows`) into `dest` positions: out[rows[k]] = part[k].
void scatter(std::vector<int32_t>& source_of, int part_id, const std::vector<int32_t>& rows,
             std::vector<int32_t>& index_in_part) {
  for (size_t k = 0; k < rows.size(); ++k) {
    source_of[rows[k]] = part_id;
    index_in_part[rows[k]] = static_cast<int32_t>(k);
  }
}

ColumnPtr assemble(const TypePtr& type, int64_t n, const std::vector<ColumnPtr>& parts,
                   const std::vector<int32_t>& source_of, const std::vector<int32_t>& index_in_part) {
  ColumnBuilder b(type, n);
  for (int64_t i = 0; i < n; ++i) {
    int p = source_of[i];
    if (p < 0) b.append_null();
    else b.append_from(*parts[p], index_in_part[i]);
  }
  return b.finish();
}

ColumnPtr eval_case(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx) {
  int64_t n = batch.num_rows;
  size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
  std::vector<int32_t> remaining(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) remaining[i] = static_cast<int32_t>(i);
  std::vector<ColumnPtr> parts;
  std::vector<int32_t> source_of(static_cast<size_t>(n), -1), index_in_part(static_cast<size_t>(n), 0);
  for (size_t p = 0; p < pairs && !remaining.empty(); ++p) {
    ColumnPtr cond = evaluate_rows(*e.children[2 * p], batch, remaining, ctx);
    std::vector<int32_t> hit, miss;
    for (size_t k = 0; k < remaining.size(); ++k) {
      bool t = cond->type()->id() != TypeId::kNull && cond->is_valid(static_cast<int64_t>(k)) &&
               cond->bool_at(static_cast<int64_t>(k));
      (t ? hit : miss).push_back(remaining[k]);
    }
    if (!hit.empty()) {
      parts.push_back(evaluate_rows(*e.children[2 * p + 1], batch, hit, ctx));
      scatter(source_of, static_cast<int>(parts.size() - 1), hit, index_in_part);
    }
    remaining = std::move(miss);
  }
  if (e.has_else && !remaining.empty()) {
    parts.push_back(evaluate_rows(*e.children.back(), batch, remaining, ctx));
    scatter(source_of, static_cast<int>(parts.size() - 1), remaining, index_in_part);
  }
  return assemble(e.type, n, parts, source_of, index_in_part);
}

ColumnPtr eval_coalesce(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx) {
  int64_t n = batch.num_rows;
  std::vector<int32_t> remaining(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) remaining[i] = static_cast<int32_t>(i);
  std::vector<ColumnPtr> parts;
  std::vector<int32_t> source_of(static_cast<size_t>(n), -1), index_in_part(static_cast<size_t>(n), 0);
  for (auto& c : e.children) {
    if (remaining.empty()) break;
    ColumnPtr v = evaluate_rows(*c, batch, remaining, ctx);
    std::vector<int32_t> hit, miss;
    for (size_t k = 0; k < remaining.size(); ++k)
      (v->is_valid(static_cast<int64_t>(k)) && v->type()->id() != TypeId::kNull ? hit : miss).push_back(remaining[k]);
    parts.push_back(v);
    int pid = static_cast<int>(parts.size() - 1);
    size_t h = 0;
    for (size_t k = 0; k < remaining.size(); ++k) {
      if (h < hit.size() && hit[h] == remaining[k]) {
        source_of[remaining[k]] = pid;
        index_in_part[remaining[k]] = static_cast<int32_t>(k);
        ++h;
      }
    }
    remaining = std::move(miss);
  }
  return assemble(e.type, n, parts, source_of, index_in_part);
}

}  // namespace

ColumnPtr ConstantCache::get(const TypePtr& type, const Value& value, int64_t length) const {
  ColumnPtr cached = column_.load(std::memory_order_acquire);
  if (cached && cached->length() >= length) return slice(cached, 0, length);
  ColumnPtr fresh = Column::constant(type, value, length);
  column_.store(fresh, std::memory_order_release);
  return fresh;
}

namespace {

std::vector<ColumnPtr> evaluate_all(const std::vector<PhysExprPtr>& exprs, const Batch& batch,
                                    const functions::EvalContext& ctx) {
  std::vector<ColumnPtr> cols;
  cols.reserve(exprs.size());
  for (const PhysExprPtr& e : exprs) cols.push_back(evaluate(*e, batch, ctx));
  return cols;
}

/// Raises the error of the first row in [begin, end) of `batch` whose evaluation fails; returns
/// when none fails on its own.
void raise_first_row_error(const std::vector<PhysExprPtr>& exprs, const Batch& batch, int64_t begin, int64_t end,
                           const functions::EvalContext& ctx) {
  if (end - begin == 1) {
    evaluate_all(exprs, slice_batch(batch, begin, 1), ctx);
    return;
  }
  const int64_t mid = begin + (end - begin) / 2;
  try {
    evaluate_all(exprs, slice_batch(batch, begin, mid - begin), ctx);
  } catch (const SparkError&) {
    raise_first_row_error(exprs, batch, begin, mid, ctx);
    throw;
  }
  raise_first_row_error(exprs, batch, mid, end, ctx);
}

}  // namespace

std::vector<ColumnPtr> evaluate_in_row_order(const std::vector<PhysExprPtr>& exprs, const Batch& batch,
                                             const functions::EvalContext& ctx) {
  try {
    return evaluate_all(exprs, batch, ctx);
  } catch (const SparkError&) {
    if (batch.num_rows > 1) raise_first_row_error(exprs, batch, 0, batch.num_rows, ctx);
    throw;
  }
}

ColumnPtr evaluate(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx) {
  switch (e.kind) {
    case PhysExpr::Kind::kColumn: return batch.columns[static_cast<size_t>(e.column)];
    case PhysExpr::Kind::kLiteral: return e.constant.get(e.type, e.value, batch.num_rows);
    case PhysExpr::Kind::kCast:
      return functions::cast_column(evaluate(*e.children[0], batch, ctx), e.type, ctx, e.try_cast);
    case PhysExpr::Kind::kCall: {
      if (e.function->higher_order && is_higher_order_call(e)) return evaluate_higher_order(e, batch, ctx);
      const std::string& n = e.function->name;
      // AND / OR evaluate the right side only where the left does not decide, when the right
      // side could raise an error (Spark short-circuits them).
      if ((n == "and" || n == "or") && e.children[1]->may_throw()) {
        ColumnPtr left = evaluate(*e.children[0], batch, ctx);
        bool dominant = n == "or";
        std::vector<int32_t> undecided;
        for (int64_t i = 0; i < batch.num_rows; ++i)
          if (!(left->is_valid(i) && left->bool_at(i) == dominant)) undecided.push_back(static_cast<int32_t>(i));
        ColumnPtr right_part = evaluate_rows(*e.children[1], batch, undecided, ctx);
        ColumnBuilder b(DataType::boolean(), batch.num_rows);
        size_t k = 0;
        for (int64_t i = 0; i < batch.num_rows; ++i) {
          if (k < undecided.size() && undecided[k] == i) {
            bool lv = left->is_valid(i), rv = right_part->is_valid(static_cast<int64_t>(k));
            bool r = rv && right_part->bool_at(static_cast<int64_t>(k));
            if (rv && r == dominant) b.append_bool(dominant);
            else if (lv && rv) b.append_bool(!dominant);
            else b.append_null();
            ++k;
          } else {
            b.append_bool(dominant);
          }
        }
        return b.finish();
      }
      std::vector<ColumnPtr> args;
      args.reserve(e.children.size());
      for (auto& c : e.children) args.push_back(evaluate(*c, batch, ctx));
      return e.function->kernel(args, batch.num_rows, e.signature, ctx);
    }
    case PhysExpr::Kind::kCaseWhen: return eval_case(e, batch, ctx);
    case PhysExpr::Kind::kIf: {
      PhysExpr c = e;
      c.kind = PhysExpr::Kind::kCaseWhen;
      c.has_else = true;
      return eval_case(c, batch, ctx);
    }
    case PhysExpr::Kind::kCoalesce: return eval_coalesce(e, batch, ctx);
    case PhysExpr::Kind::kLambda: EMBER_UNREACHABLE("evaluate: a lambda outside a higher-order call");
    case PhysExpr::Kind::kGetField: {
      ColumnPtr s = evaluate(*e.children[0], batch, ctx);
      ColumnPtr f = s->child(static_cast<size_t>(e.ordinal));
      if (!s->may_have_nulls()) return f;
      // A null struct makes its fields null.
      ColumnBuilder b(f->type(), s->length());
      for (int64_t i = 0; i < s->length(); ++i) {
        if (s->is_null(i)) b.append_null();
        else b.append_from(*f, i);
      }
      return b.finish();
    }
  }
  EMBER_UNREACHABLE("evaluate: unknown expression kind");
}

}  // namespace ember::exec
