// Coalesce and the shuffle exchange into a fixed number of partitions.

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "exec/operators.h"
#include "exec/row_compare.h"
#include "exec/sort_keys.h"
#include "functions/rand.h"

namespace ember::exec {

// ---- Coalesce -------------------------------------------------------------------------------

void Coalesce::execute(Batch& batch, ExecContext&) const {
  const int64_t inputs = children[0]->output_partitions();
  if (partitions_ >= inputs) return;
  // The group i holding p: the largest i with i * inputs / partitions <= p.
  int64_t i = (batch.partition * partitions_) / inputs;
  while (i + 1 < partitions_ && (i + 1) * inputs / partitions_ <= batch.partition) ++i;
  while (i > 0 && i * inputs / partitions_ > batch.partition) --i;
  batch.partition = i;
}

int64_t Coalesce::output_partitions() const {
  return std::min(partitions_, children[0]->output_partitions());
}

// ---- ShuffleExchange ------------------------------------------------------------------------

namespace {

struct LocalInput : LocalSinkState {
  std::vector<Batch> batches;
  std::vector<std::vector<int32_t>> targets;
};

}  // namespace

int64_t ShuffleExchange::round_robin_start(int64_t p, int64_t n) {
  uint64_t state = functions::xorshift::initial_state(p);
  auto next31 = [&] {
    state = functions::xorshift::step(state);
    return static_cast<int32_t>(state & ((uint64_t{1} << 31) - 1));
  };
  const int32_t bound = static_cast<int32_t>(n);
  int32_t r = next31();
  const int32_t m = bound - 1;
  if ((bound & m) == 0) return static_cast<int64_t>((static_cast<int64_t>(bound) * r) >> 31);
  // java.util.Random.nextInt(bound): redraw while the draw falls in the last partial range.
  for (int32_t u = r; static_cast<int32_t>(static_cast<uint32_t>(u) - static_cast<uint32_t>(r = u % bound) +
                                           static_cast<uint32_t>(m)) < 0;
       u = next31()) {
  }
  return r;
}

std::vector<int32_t> ShuffleExchange::targets(const Batch& batch, ExecContext& ctx) const {
  std::vector<int32_t> out(static_cast<size_t>(batch.num_rows));
  if (kind_ == Kind::kRoundRobin) {
    const functions::PartitionContext where = functions::current_partition();
    const int64_t first = round_robin_start(where.partition, partitions_) + where.row_offset + 1;
    for (int64_t r = 0; r < batch.num_rows; ++r)
      out[static_cast<size_t>(r)] = static_cast<int32_t>((first + r) % partitions_);
    return out;
  }
  // Hash: the partition id expression, pmod(hash(cols), n), is never null.
  const ColumnPtr ids = evaluate(*keys_[0].expr, batch, ctx.eval);
  const int32_t* v = ids->values<int32_t>();
  std::copy(v, v + batch.num_rows, out.begin());
  return out;
}

std::unique_ptr<LocalSinkState> ShuffleExchange::open_local(ExecContext&) {
  return std::make_unique<LocalInput>();
}

void ShuffleExchange::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  if (batch.num_rows == 0) return;
  batch.file.reset();
  auto& l = static_cast<LocalInput&>(local);
  if (kind_ == Kind::kRange) {
    for (auto& k : keys_) batch.columns.push_back(evaluate(*k.expr, batch, ctx.eval));
  } else {
    l.targets.push_back(targets(batch, ctx));
  }
  l.batches.push_back(std::move(batch));
}

void ShuffleExchange::combine(LocalSinkState& local, ExecContext&) {
  auto& l = static_cast<LocalInput&>(local);
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < l.batches.size(); ++i) {
    input_.push_back(std::move(l.batches[i]));
    if (kind_ != Kind::kRange) targets_.push_back(std::move(l.targets[i]));
  }
}

void ShuffleExchange::finalize(ExecContext& ctx) {
  output_.clear();
  if (input_.empty()) return;
  // Rows in source order, whatever thread saw them.
  std::vector<size_t> order(input_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return input_[a].index < input_[b].index; });
  std::vector<Batch> sorted;
  std::vector<int32_t> target;
  for (size_t i : order) {
    sorted.push_back(std::move(input_[i]));
    if (kind_ != Kind::kRange) target.insert(target.end(), targets_[i].begin(), targets_[i].end());
  }
  input_.clear();
  targets_.clear();
  const size_t width = sorted[0].columns.size() - (kind_ == Kind::kRange ? keys_.size() : 0);
  Batch all = concat_batches(sorted, sorted[0].columns.size());
  sorted.clear();
  const int64_t n = all.num_rows;

  if (kind_ == Kind::kRange) {
    std::vector<ColumnPtr> key_cols(all.columns.begin() + static_cast<std::ptrdiff_t>(width), all.columns.end());
    std::vector<NormalizedKeySpec> specs;
    std::vector<bool> asc, nulls_first;
    for (size_t k = 0; k < keys_.size(); ++k) {
      specs.push_back({key_cols[k]->type(), keys_[k].ascending, keys_[k].nulls_first});
      asc.push_back(keys_[k].ascending);
      nulls_first.push_back(keys_[k].nulls_first);
    }
    const std::vector<int32_t> rows = stable_sort_order(specs, key_cols, n);
    const RowComparator cmp(key_cols, asc, nulls_first);
    // RangePartitioner.determineBounds with every row a candidate of weight one.
    std::vector<int32_t> bounds;
    const double step = static_cast<double>(n) / static_cast<double>(partitions_);
    double target_weight = step;
    for (int64_t i = 0; i < n && static_cast<int64_t>(bounds.size()) < partitions_ - 1; ++i) {
      if (static_cast<double>(i + 1) < target_weight) continue;
      const int32_t row = rows[static_cast<size_t>(i)];
      if (bounds.empty() || cmp.compare(row, bounds.back()) > 0) {
        bounds.push_back(row);
        target_weight += step;
      }
    }
    target.assign(static_cast<size_t>(n), 0);
    size_t partition = 0;
    for (int32_t row : rows) {
      while (partition < bounds.size() && cmp.compare(row, bounds[partition]) > 0) ++partition;
      target[static_cast<size_t>(row)] = static_cast<int32_t>(partition);
    }
    all.columns.resize(width);
  }
  int64_t partitions = partitions_;
  if (kind_ == Kind::kHash && rows_per_partition_ > 0) {
    // As many partitions as the rows fill; the rows of one hash value stay together.
    partitions = std::clamp<int64_t>((n + rows_per_partition_ - 1) / rows_per_partition_, 1, partitions_);
    std::unordered_map<int32_t, int64_t> group_rows;
    for (int32_t h : target) ++group_rows[h];
    std::vector<std::pair<int64_t, int32_t>> groups;  // (rows, hash), largest first
    for (auto& [h, rows] : group_rows) groups.emplace_back(rows, h);
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<int64_t> load(static_cast<size_t>(partitions), 0);
    std::unordered_map<int32_t, int32_t> partition_of;
    for (auto& [rows, h] : groups) {
      const auto least = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      partition_of[h] = static_cast<int32_t>(least);
      load[least] += rows;
    }
    for (int32_t& t : target) t = partition_of[t];
  }
  ctx.check_cancelled();

  // The rows of each partition, in source order, cut into batches.
  std::vector<std::vector<int32_t>> members(static_cast<size_t>(partitions));
  for (int64_t r = 0; r < n; ++r) members[static_cast<size_t>(target[static_cast<size_t>(r)])].push_back(static_cast<int32_t>(r));
  for (int64_t p = 0; p < partitions; ++p) {
    const auto& idx = members[static_cast<size_t>(p)];
    for (size_t off = 0; off < idx.size(); off += static_cast<size_t>(kBatchRows)) {
      const int64_t len = std::min<int64_t>(kBatchRows, static_cast<int64_t>(idx.size() - off));
      Batch b = gather_batch(all, idx.data() + off, len);
      b.partition = p;
      b.partition_row = static_cast<int64_t>(off);
      output_.push_back(std::move(b));
    }
  }
}

std::unique_ptr<SourceState> ShuffleExchange::open_source(ExecContext&) const {
  return std::make_unique<BatchListSource>();
}

bool ShuffleExchange::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_batches(output_, state, emit);
}

size_t ShuffleExchange::max_parallelism(const SourceState&) const {
  return std::max<size_t>(1, output_.size());
}

}  // namespace ember::exec
