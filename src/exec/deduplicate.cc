#include "exec/deduplicate.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "exec/group_keys.h"
#include "exec/operators.h"

namespace ember::exec {

namespace {
struct Local : LocalSinkState {
  std::vector<Batch> batches;
};
}  // namespace

std::string Deduplicate::details() const {
  std::string s = "[";
  for (size_t i = 0; i < keys_.size(); ++i) s += (i ? ", " : "") + keys_[i]->to_string();
  return s + "]";
}

std::unique_ptr<LocalSinkState> Deduplicate::open_local(ExecContext&) { return std::make_unique<Local>(); }

void Deduplicate::sink(LocalSinkState& l, Batch b, ExecContext&) {
  if (b.num_rows > 0) static_cast<Local&>(l).batches.push_back(std::move(b));
}

void Deduplicate::combine(LocalSinkState& l, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& b : static_cast<Local&>(l).batches) input_.push_back(std::move(b));
}

void Deduplicate::finalize(ExecContext& ctx) {
  std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
  std::vector<TypePtr> types;
  for (auto& k : keys_) types.push_back(k->type);
  KeyEncoder encoder(types);
  // Keys live in per-batch arenas that stay alive until the end, so views stay valid.
  std::vector<std::string> arenas(input_.size());
  std::unordered_set<std::string_view> seen;
  int64_t out_index = 0;
  for (size_t bi = 0; bi < input_.size(); ++bi) {
    const Batch& b = input_[bi];
    std::vector<ColumnPtr> cols;
    for (auto& k : keys_) cols.push_back(evaluate(*k, b, ctx.eval));
    std::vector<uint32_t> offsets, lengths;
    encoder.encode(cols, b.num_rows, arenas[bi], offsets, lengths);
    std::vector<int32_t> keep;
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string_view key(arenas[bi].data() + offsets[static_cast<size_t>(i)], lengths[static_cast<size_t>(i)]);
      if (seen.insert(key).second) keep.push_back(static_cast<int32_t>(i));
    }
    if (keep.empty()) continue;
    Batch out = static_cast<int64_t>(keep.size()) == b.num_rows ? b : gather_batch(b, keep.data(), static_cast<int64_t>(keep.size()));
    out.index = batch_index(out_index++, 0);
    output_.push_back(std::move(out));
  }
  input_.clear();
}

std::unique_ptr<SourceState> Deduplicate::open_source(ExecContext&) const { return std::make_unique<BatchListSource>(); }

bool Deduplicate::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t Deduplicate::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

}  // namespace ember::exec
