#include "exec/hash_join.h"

#include <algorithm>

#include "common/error.h"

namespace ember::exec {

class HashJoin::Build final : public PhysicalOperator {
 public:
  Build(const HashJoin& join, std::vector<PhysExprPtr> keys, std::vector<bool> null_safe, std::vector<TypePtr> types)
      : join_(join), keys_(std::move(keys)), null_safe_(std::move(null_safe)), types_(std::move(types)) {}
  std::string name() const override { return "HashJoinBuild"; }
  bool is_sink() const override { return true; }
  struct Local : LocalSinkState {
    std::vector<Batch> batches;
  };
  std::unique_ptr<LocalSinkState> open_local(ExecContext&) override { return std::make_unique<Local>(); }
  void sink(LocalSinkState& l, Batch b, ExecContext&) override {
    if (b.num_rows > 0) static_cast<Local&>(l).batches.push_back(std::move(b));
  }
  void combine(LocalSinkState& l, ExecContext&) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& b : static_cast<Local&>(l).batches) input_.push_back(std::move(b));
  }
  void finalize(ExecContext& ctx) override {
    // Build order follows the source order, so results do not depend on thread timing.
    std::stable_sort(input_.begin(), input_.end(), [](const Batch& a, const Batch& b) { return a.index < b.index; });
    Batch all;
    if (input_.empty()) {
      for (auto& t : types_) all.columns.push_back(Column::all_null(t, 0));
    } else {
      all = input_.size() == 1 ? std::move(input_[0]) : concat_batches(input_, types_.size());
    }
    input_.clear();
    std::vector<ColumnPtr> key_cols;
    for (auto& k : keys_) key_cols.push_back(evaluate(*k, all, ctx.eval));
    // Rows of distinct keys may be stored in another order unless the join emits unmatched
    // build rows, which leave in build order.
    const bool may_reorder = join_.kind_ != HashJoinKind::kRightOuter && join_.kind_ != HashJoinKind::kFullOuter;
    table.build(std::move(all), key_cols, null_safe_, may_reorder);
    matched = std::make_unique<std::atomic<uint8_t>[]>(static_cast<size_t>(table.size()) + 1);
    for (int64_t i = 0; i < table.size(); ++i) matched[static_cast<size_t>(i)].store(0, std::memory_order_relaxed);
    offloaded = join_.offload_ != nullptr && join_.offload_->prepare(table);
  }

  JoinHashTable table;
  std::unique_ptr<std::atomic<uint8_t>[]> matched;
  bool offloaded = false;  // the offload probes this table

 private:
  const HashJoin& join_;
  std::vector<PhysExprPtr> keys_;
  std::vector<bool> null_safe_;
  std::vector<TypePtr> types_;
  std::mutex mu_;
  std::vector<Batch> input_;
};

HashJoin::HashJoin(HashJoinKind kind, std::vector<PhysExprPtr> probe_keys, std::vector<PhysExprPtr> build_keys,
                   std::vector<bool> null_safe, PhysExprPtr condition, std::vector<TypePtr> probe_types,
                   std::vector<TypePtr> build_types)
    : kind_(kind),
      probe_keys_(std::move(probe_keys)),
      build_keys_(std::move(build_keys)),
      null_safe_(std::move(null_safe)),
      condition_(std::move(condition)),
      probe_types_(std::move(probe_types)) {
  build_ = std::make_unique<Build>(*this, build_keys_, null_safe_, std::move(build_types));
}

HashJoin::~HashJoin() = default;

PhysicalOperator* HashJoin::build_sink() { return build_.get(); }

std::string HashJoin::name() const {
  return probe_keys_.empty() ? "BroadcastNestedLoopJoin" : "BroadcastHashJoin";
}

std::string HashJoin::details() const {
  static const char* kNames[] = {"Inner", "LeftOuter", "RightOuter", "FullOuter", "LeftSemi", "LeftAnti", "ExistenceJoin"};
  std::string s = "[";
  for (size_t i = 0; i < probe_keys_.size(); ++i) s += (i ? ", " : "") + probe_keys_[i]->to_string();
  s += "], [";
  for (size_t i = 0; i < build_keys_.size(); ++i) s += (i ? ", " : "") + build_keys_[i]->to_string();
  s += "], ";
  s += kNames[static_cast<int>(kind_)];
  if (condition_) s += ", " + condition_->to_string();
  return s;
}

void HashJoin::execute(Batch& batch, ExecContext& ctx) const {
  const JoinHashTable& table = build_->table;
  const int64_t n = batch.num_rows;
  JoinProbeResult pairs;
  std::vector<int32_t>& probe_rows = pairs.probe_rows;
  std::vector<int32_t>& build_rows = pairs.build_rows;
  // Inner and right outer joins without a condition output exactly the pairs, so an offload
  // may hand back the build columns already gathered for them.
  const bool pairs_are_output =
      !condition_ && (kind_ == HashJoinKind::kInner || kind_ == HashJoinKind::kRightOuter);
  if (probe_keys_.empty()) {
    // Nested loop: every build row is a candidate.
    const int64_t m = table.size();
    probe_rows.reserve(static_cast<size_t>(n * m));
    build_rows.reserve(static_cast<size_t>(n * m));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) {
        probe_rows.push_back(static_cast<int32_t>(i));
        build_rows.push_back(static_cast<int32_t>(j));
      }
  } else {
    std::vector<ColumnPtr> keys;
    for (auto& k : probe_keys_) keys.push_back(evaluate(*k, batch, ctx.eval));
    // Whether a probe row matches is all a semi, anti or existence join without a residual
    // condition asks: its first build row answers it.
    JoinProbeRequest request;
    request.first_only = !condition_ && (kind_ == HashJoinKind::kLeftSemi || kind_ == HashJoinKind::kLeftAnti ||
                                         kind_ == HashJoinKind::kExistence);
    request.gather_build = pairs_are_output;
    // Semi, anti and existence joins without a condition read only the probe rows.
    request.need_build_rows = condition_ != nullptr || kind_ == HashJoinKind::kLeftOuter ||
                              kind_ == HashJoinKind::kRightOuter || kind_ == HashJoinKind::kFullOuter;
    if (!build_->offloaded || !offload_->probe(table, keys, n, request, pairs)) {
      pairs = JoinProbeResult{};
      table.probe(keys, null_safe_, n, probe_rows, build_rows, request.first_only);
      // At most one pair per probe row, in probe order: as many pairs as rows is every row.
      pairs.probe_identity = (request.first_only || table.unique_keys()) && static_cast<int64_t>(probe_rows.size()) == n;
    }
  }
  // `identity`: `pr` is 0..n-1, so the probe columns need no gather. `gathered`: the offload's
  // answer, whose gathered build columns stand for gathers here. `all`: every column (the
  // candidates a condition reads), else the columns of `outputs_`.
  auto pair_batch = [&](const std::vector<int32_t>& pr, const std::vector<int32_t>& br, bool identity,
                        const JoinProbeResult* gathered, bool all = false) {
    Batch out;
    out.num_rows = static_cast<int64_t>(pr.size());
    out.index = batch.index;
    // Joined rows keep the probe side's file and partition, as the streamed side of Spark's
    // broadcast join.
    out.file = batch.file;
    out.partition = batch.partition;
    const std::vector<ColumnPtr>& build_columns = table.rows().columns;
    const size_t probe_width = batch.columns.size();
    auto column = [&](size_t c) -> ColumnPtr {
      if (c < probe_width) return identity ? batch.columns[c] : gather(*batch.columns[c], pr.data(), out.num_rows);
      const size_t i = c - probe_width;
      if (gathered != nullptr && i < gathered->build_columns.size() && gathered->build_columns[i] != nullptr)
        return gathered->build_columns[i];
      return gather(*build_columns[i], br.data(), out.num_rows);
    };
    if (all || outputs_.empty()) {
      for (size_t c = 0; c < probe_width + build_columns.size(); ++c) out.columns.push_back(column(c));
    } else {
      for (int c : outputs_) out.columns.push_back(column(static_cast<size_t>(c)));
    }
    return out;
  };
  if (condition_ && !probe_rows.empty()) {
    Batch candidates = pair_batch(probe_rows, build_rows, pairs.probe_identity, nullptr, true);
    std::vector<int32_t> keep = true_rows(*evaluate(*condition_, candidates, ctx.eval));
    std::vector<int32_t> pr, br;
    pr.reserve(keep.size());
    br.reserve(keep.size());
    for (int32_t k : keep) {
      pr.push_back(probe_rows[static_cast<size_t>(k)]);
      br.push_back(build_rows[static_cast<size_t>(k)]);
    }
    probe_rows.swap(pr);
    build_rows.swap(br);
    pairs.probe_identity = pairs.probe_identity && static_cast<int64_t>(probe_rows.size()) == n;
  }
  if (kind_ == HashJoinKind::kRightOuter || kind_ == HashJoinKind::kFullOuter)
    for (int32_t b : build_rows) build_->matched[static_cast<size_t>(b)].store(1, std::memory_order_relaxed);
  switch (kind_) {
    case HashJoinKind::kInner:
    case HashJoinKind::kRightOuter:
      batch = pair_batch(probe_rows, build_rows, pairs.probe_identity, pairs_are_output ? &pairs : nullptr);
      return;
    case HashJoinKind::kExistence: {
      std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
      for (int32_t p : probe_rows) hit[static_cast<size_t>(p)] = 1;
      ColumnBuilder flag(DataType::boolean(), n);
      for (int64_t i = 0; i < n; ++i) flag.append_bool(hit[static_cast<size_t>(i)] != 0);
      batch.columns.push_back(flag.finish());
      return;
    }
    case HashJoinKind::kLeftSemi:
    case HashJoinKind::kLeftAnti: {
      std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
      for (int32_t p : probe_rows) hit[static_cast<size_t>(p)] = 1;
      std::vector<int32_t> rows;
      const uint8_t want = kind_ == HashJoinKind::kLeftSemi ? 1 : 0;
      for (int64_t i = 0; i < n; ++i)
        if (hit[static_cast<size_t>(i)] == want) rows.push_back(static_cast<int32_t>(i));
      if (!outputs_.empty()) {
        std::vector<ColumnPtr> kept;
        for (int c : outputs_) kept.push_back(batch.columns[static_cast<size_t>(c)]);
        batch.columns = std::move(kept);
      }
      if (static_cast<int64_t>(rows.size()) != n) batch = gather_batch(batch, rows.data(), static_cast<int64_t>(rows.size()));
      return;
    }
    case HashJoinKind::kLeftOuter:
    case HashJoinKind::kFullOuter: {
      // Matched pairs in probe order, each unmatched probe row once with a null build side.
      std::vector<int32_t> pr, br;
      pr.reserve(probe_rows.size() + static_cast<size_t>(n));
      br.reserve(probe_rows.size() + static_cast<size_t>(n));
      size_t k = 0;
      for (int64_t i = 0; i < n; ++i) {
        bool any = false;
        while (k < probe_rows.size() && probe_rows[k] == i) {
          if (any && single_match_)
            throw SparkError(ErrorKind::kRuntime, "SCALAR_SUBQUERY_TOO_MANY_ROWS",
                             "More than one row returned by a subquery used as an expression.", {}, "21000");
          pr.push_back(probe_rows[k]);
          br.push_back(build_rows[k]);
          ++k;
          any = true;
        }
        if (!any) {
          pr.push_back(static_cast<int32_t>(i));
          br.push_back(-1);
        }
      }
      // Each probe row appears at least once, so as many rows as the batch's is each once.
      batch = pair_batch(pr, br, static_cast<int64_t>(pr.size()) == n, nullptr);
      return;
    }
  }
}

bool HashJoin::finish_output(Batch& out, ExecContext&) const {
  if (kind_ != HashJoinKind::kRightOuter && kind_ != HashJoinKind::kFullOuter) return false;
  const JoinHashTable& table = build_->table;
  std::vector<int32_t> rows;
  for (int64_t i = 0; i < table.size(); ++i)
    if (!build_->matched[static_cast<size_t>(i)].load(std::memory_order_relaxed)) rows.push_back(static_cast<int32_t>(i));
  if (rows.empty()) return false;
  const int64_t m = static_cast<int64_t>(rows.size());
  out.num_rows = m;
  const std::vector<ColumnPtr>& build_columns = table.rows().columns;
  auto column = [&](size_t c) {
    return c < probe_types_.size() ? Column::all_null(probe_types_[c], m)
                                   : gather(*build_columns[c - probe_types_.size()], rows.data(), m);
  };
  if (outputs_.empty()) {
    for (size_t c = 0; c < probe_types_.size() + build_columns.size(); ++c) out.columns.push_back(column(c));
  } else {
    for (int c : outputs_) out.columns.push_back(column(static_cast<size_t>(c)));
  }
  return true;
}

}  // namespace ember::exec
