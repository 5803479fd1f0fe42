#include "exec/operators.h"

namespace ember::exec {

namespace {
struct UnionState : BatchListSource {
  std::vector<Batch> batches;
};
}  // namespace

std::unique_ptr<SourceState> UnionAll::open_source(ExecContext& ctx) const {
  auto s = std::make_unique<UnionState>();
  for (auto& c : children)
    for (auto& b : run_plan(*c, ctx)) s->batches.push_back(std::move(b));
  return s;
}

bool UnionAll::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& s = static_cast<UnionState&>(state);
  return emit_from_list(s.batches, s, emit);
}

size_t UnionAll::max_parallelism(const SourceState& state) const {
  return std::max<size_t>(1, static_cast<const UnionState&>(state).batches.size());
}

}  // namespace ember::exec
