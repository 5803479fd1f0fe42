// Generate: explode, posexplode, inline and stack over whole batches.

#include "exec/generate.h"

#include <limits>

#include "common/error.h"
#include "functions/json_functions.h"
#include "functions/variant_util.h"

namespace ember::exec {
namespace {

using Kind = GeneratorSpec::Kind;

/// For every output row: the input row it repeats and the element (child index) it takes, -1
/// for the row of nulls an outer generator emits for a null or empty input.
struct Expansion {
  std::vector<int32_t> rows;
  std::vector<int32_t> elements;
  bool has_null_rows = false;
};

/// Counts each row's elements from the offsets of an array or map column, then lays out the
/// output rows; `outer` keeps one row for inputs without elements.
Expansion expand(const Column& in, bool outer) {
  const int64_t n = in.length();
  const int32_t* offsets = in.offsets();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t count = in.is_valid(i) ? offsets[i + 1] - offsets[i] : 0;
    total += count == 0 && outer ? 1 : count;
  }
  if (total > std::numeric_limits<int32_t>::max())
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                     "Generate: one batch would produce " + std::to_string(total) + " rows, more than 2^31 - 1.");
  Expansion x;
  x.rows.resize(static_cast<size_t>(total));
  x.elements.resize(static_cast<size_t>(total));
  size_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    int32_t begin = offsets[i], end = in.is_valid(i) ? offsets[i + 1] : begin;
    if (begin == end) {
      if (!outer) continue;
      x.rows[k] = static_cast<int32_t>(i);
      x.elements[k++] = -1;
      x.has_null_rows = true;
      continue;
    }
    for (int32_t e = begin; e < end; ++e) {
      x.rows[k] = static_cast<int32_t>(i);
      x.elements[k++] = e;
    }
  }
  return x;
}

/// posexplode's `pos`: the element's index within its row; null on an outer row of nulls.
ColumnPtr positions(const Column& in, const Expansion& x) {
  const int64_t n = static_cast<int64_t>(x.rows.size());
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
  int32_t* out = data->mutable_as<int32_t>();
  BufferPtr validity = x.has_null_rows ? Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n))) : nullptr;
  const int32_t* offsets = in.offsets();
  for (int64_t k = 0; k < n; ++k) {
    int32_t e = x.elements[static_cast<size_t>(k)];
    out[k] = e < 0 ? 0 : e - offsets[x.rows[static_cast<size_t>(k)]];
    if (validity && e >= 0) set_bit(validity->mutable_data(), k);
  }
  return Column::make(DataType::int_(), n, validity, data);
}

/// stack(n, ...): output row i * n + r holds the r-th group of arguments of input row i. Each
/// generated column concatenates its n argument columns and gathers them row-interleaved.
void stack(const GeneratorSpec& spec, const std::vector<ColumnPtr>& args, int64_t input_rows, Expansion& x,
           std::vector<ColumnPtr>& out) {
  const int64_t n = spec.stack_rows;
  const size_t cols = spec.output_types.size();
  const int64_t total = input_rows * n;
  if (total > std::numeric_limits<int32_t>::max())
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                     "Generate: one batch would produce " + std::to_string(total) + " rows, more than 2^31 - 1.");
  x.rows.resize(static_cast<size_t>(total));
  std::vector<int32_t> interleaved(static_cast<size_t>(total));
  for (int64_t i = 0; i < input_rows; ++i)
    for (int64_t r = 0; r < n; ++r) {
      x.rows[static_cast<size_t>(i * n + r)] = static_cast<int32_t>(i);
      interleaved[static_cast<size_t>(i * n + r)] = static_cast<int32_t>(r * input_rows + i);
    }
  for (size_t j = 0; j < cols; ++j) {
    std::vector<ColumnPtr> parts;
    for (int64_t r = 0; r < n; ++r) {
      size_t a = static_cast<size_t>(r) * cols + j;
      parts.push_back(a < args.size() ? args[a] : Column::all_null(spec.output_types[j], input_rows));
    }
    ColumnPtr all = parts.size() == 1 ? parts[0] : concat(parts);
    out.push_back(gather(*all, interleaved.data(), total));
  }
}

/// variant_explode: the fields of each object or the elements of each array, with their position,
/// their key (null for an element) and their value (the value's own bytes over the row's
/// metadata, as a variant of its own). Rows whose variant is neither produce nothing, or, when
/// `outer`, one row of nulls.
void variant_explode(const Column& in, bool outer, Expansion& x, std::vector<ColumnPtr>& out) {
  ColumnBuilder pos(DataType::int_()), key(DataType::string()), value(DataType::variant());
  auto null_row = [&](int64_t row) {
    x.rows.push_back(static_cast<int32_t>(row));
    pos.append_null();
    key.append_null();
    value.append_null();
  };
  for (int64_t i = 0; i < in.length(); ++i) {
    if (in.is_null(i)) {
      if (outer) null_row(i);
      continue;
    }
    try {
      const variant::Ref v = functions::variant_at(in, i);
      const variant::Kind kind = v.kind();
      const uint32_t n =
          kind == variant::Kind::kObject || kind == variant::Kind::kArray ? v.size() : 0;
      if (n == 0 && outer) null_row(i);
      for (uint32_t e = 0; e < n; ++e) {
        x.rows.push_back(static_cast<int32_t>(i));
        pos.append(static_cast<int32_t>(e));
        variant::Ref element = v;
        if (kind == variant::Kind::kObject) {
          std::string_view name;
          element = v.field_at(e, &name);
          key.append_bytes(name);
        } else {
          element = v.element(e);
          key.append_null();
        }
        value.child(0).append_bytes(element.bytes());
        value.child(1).append_bytes(v.metadata());
        value.close_struct(true);
      }
    } catch (const variant::MalformedVariant&) {
      functions::throw_malformed_variant();
    }
  }
  if (x.rows.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                     "Generate: one batch would produce more than 2^31 - 1 rows.");
  out.push_back(pos.finish());
  out.push_back(key.finish());
  out.push_back(value.finish());
}

}  // namespace

void Generate::execute(Batch& batch, ExecContext& ctx) const {
  std::vector<ColumnPtr> args;
  for (auto& a : spec_.args) args.push_back(evaluate(*a, batch, ctx.eval));
  Expansion x;
  std::vector<ColumnPtr> generated;
  if (spec_.kind == Kind::kStack) {
    stack(spec_, args, batch.num_rows, x, generated);
  } else if (spec_.kind == Kind::kJsonTuple) {
    x.rows.resize(static_cast<size_t>(batch.num_rows));
    for (int64_t i = 0; i < batch.num_rows; ++i) x.rows[static_cast<size_t>(i)] = static_cast<int32_t>(i);
    generated = functions::json_tuple_columns(*args[0], std::vector<ColumnPtr>(args.begin() + 1, args.end()),
                                              batch.num_rows);
  } else if (spec_.kind == Kind::kVariantExplode) {
    variant_explode(*args[0], spec_.outer, x, generated);
  } else {
    const Column& in = *args[0];
    x = expand(in, spec_.outer);
    const int64_t n = static_cast<int64_t>(x.rows.size());
    if (spec_.kind == Kind::kPosExplode) generated.push_back(positions(in, x));
    const ColumnPtr& elements = in.child(0);
    if (spec_.kind == Kind::kInline) {
      // A null struct element is a row of nulls.
      if (elements->may_have_nulls())
        for (auto& e : x.elements)
          if (e >= 0 && elements->is_null(e)) e = -1;
      for (auto& field : elements->children()) generated.push_back(gather(*field, x.elements.data(), n));
    } else if (in.type()->id() == TypeId::kMap) {
      generated.push_back(gather(*elements->child(0), x.elements.data(), n));
      generated.push_back(gather(*elements->child(1), x.elements.data(), n));
    } else {
      generated.push_back(gather(*elements, x.elements.data(), n));
    }
  }
  const int64_t n = static_cast<int64_t>(x.rows.size());
  std::vector<ColumnPtr> cols;
  cols.reserve(kept_.size() + generated.size());
  for (int k : kept_) cols.push_back(gather(*batch.columns[static_cast<size_t>(k)], x.rows.data(), n));
  for (auto& g : generated) cols.push_back(std::move(g));
  batch.columns = std::move(cols);
  batch.num_rows = n;
}

}  // namespace ember::exec
