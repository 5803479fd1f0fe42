#include "exec/operators.h"

namespace ember::exec {

namespace {
struct UnionState : BatchListSource {
  std::vector<Batch> batches;
};
}  // namespace

std::unique_ptr<SourceState> UnionAll::open_source(ExecContext& ctx) const {
  auto s = std::make_unique<UnionState>();
  // Spark's union numbers the partitions of its children one after another.
  int64_t partitions = 0;
  for (auto& c : children) {
    for (auto& b : run_plan(*c, ctx)) {
      b.partition += partitions;
      s->batches.push_back(std::move(b));
    }
    partitions += c->output_partitions();
  }
  return s;
}

bool UnionAll::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  auto& s = static_cast<UnionState&>(state);
  return emit_batches(s.batches, s, emit);
}

int64_t UnionAll::output_partitions() const {
  int64_t partitions = 0;
  for (auto& c : children) partitions += c->output_partitions();
  return partitions;
}

size_t UnionAll::max_parallelism(const SourceState& state) const {
  return std::max<size_t>(1, static_cast<const UnionState&>(state).batches.size());
}

}  // namespace ember::exec
