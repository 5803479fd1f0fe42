#pragma once

// The CPU physical operators. Each is declared here and implemented in the file named after it.

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/expression.h"
#include "exec/operator.h"
#include "io/data_source.h"

namespace ember::exec {

/// Batch indices: the morsel number in the high bits and the batch within the morsel below, so
/// that ordering by index restores source order.
constexpr int kSubBatchBits = 24;
inline int64_t batch_index(int64_t morsel, int64_t sub) { return (morsel << kSubBatchBits) | sub; }

/// Rows per batch the sources produce.
constexpr int64_t kBatchRows = 1 << 16;

class RangeScan final : public PhysicalOperator {
 public:
  /// `partitions`: Spark's slices of the range (numPartitions, or the leaf default); partition
  /// i holds rows [i * n / partitions, (i + 1) * n / partitions), as Spark's RangeExec cuts them.
  RangeScan(int64_t start, int64_t end, int64_t step, int64_t partitions);
  std::string name() const override { return "Range"; }
  std::string details() const override;
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;
  int64_t output_partitions() const override { return partitions_; }
  /// The first row of partition `i` (i <= partitions).
  uint64_t partition_start(int64_t i) const;

 private:
  int64_t start_, end_, step_;
  uint64_t count_;
  int64_t partitions_;
  uint64_t chunks_per_partition_;  // morsels of at most kBatchRows rows per partition
};

class LocalScan final : public PhysicalOperator {
 public:
  /// `checkpoint`: the rows of a checkpointed DataFrame, named as Spark names their scan.
  LocalScan(std::vector<Batch> batches, std::vector<int> projection, bool checkpoint = false);
  std::string name() const override {
    return checkpoint_ ? "Scan ExistingRDD" : "LocalTableScan";
  }
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState& state) const override {
    return state.whole_partitions ? 1 : batches_.size();
  }

 private:
  std::vector<Batch> batches_;
  std::vector<int64_t> starts_;  // the position of each batch's first row (one partition)
  std::vector<int> projection_;
  bool checkpoint_;
};

class FileScan final : public PhysicalOperator {
 public:
  /// `config`: the session's, for Spark's packing of splits into partitions.
  FileScan(std::shared_ptr<const io::DataSourceReader> reader, std::string format,
           std::vector<int> projection, const Config* config);
  std::string name() const override { return "FileScan"; }
  std::string details() const override;
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState& state) const override {
    return state.whole_partitions ? partition_splits_.size() - 1 : order_.size();
  }
  int64_t output_partitions() const override {
    return std::max<int64_t>(1, static_cast<int64_t>(partition_splits_.size()) - 1);
  }
  bool knows_positions() const override { return false; }
  /// Conjuncts of the filter above this scan; splits that cannot match them are skipped.
  void set_predicates(std::vector<io::ScanPredicate> predicates) { predicates_ = std::move(predicates); }
  /// Splits skipped so far by predicates (for tests and metrics).
  uint64_t skipped_splits() const { return skipped_.load(); }

 private:
  std::shared_ptr<const io::DataSourceReader> reader_;
  std::string format_;
  std::vector<int> projection_;
  std::vector<io::ScanPredicate> predicates_;
  mutable std::atomic<uint64_t> skipped_{0};
  /// The reader's splits in Spark's order: partition by partition (Spark packs its file splits
  /// into partitions, io::spark_file_partitions; the reader's splits never straddle one), each
  /// partition's in packing order. Partition p is order_[partition_splits_[p] ..
  /// partition_splits_[p + 1]).
  std::vector<size_t> order_;
  std::vector<size_t> partition_splits_;
  /// Reads the split at `position` of order_ as rows of `partition`.
  void read(size_t position, int64_t partition, ExecContext& ctx, const Emit& emit) const;
};

class Project final : public PhysicalOperator {
 public:
  explicit Project(std::vector<PhysExprPtr> exprs) : exprs_(std::move(exprs)) {}
  std::string name() const override { return "Project"; }
  std::string details() const override;
  void execute(Batch& batch, ExecContext& ctx) const override;
  bool keeps_rows() const override { return true; }
  bool numbers_rows() const override;

 private:
  std::vector<PhysExprPtr> exprs_;
};

/// Keeps the rows where `condition` is true. `outputs` (input column ordinals, in output order)
/// names the columns that operators above read, when they read fewer than all: only those are
/// gathered and passed on, so a column read only by the condition is never copied. Empty: every
/// column passes.
class Filter final : public PhysicalOperator {
 public:
  explicit Filter(PhysExprPtr condition, std::vector<int> outputs = {})
      : condition_(std::move(condition)), outputs_(std::move(outputs)) {}
  std::string name() const override { return "Filter"; }
  std::string details() const override { return condition_->to_string(); }
  void execute(Batch& batch, ExecContext& ctx) const override;
  bool numbers_rows() const override { return exec::numbers_rows(*condition_); }

 private:
  PhysExprPtr condition_;
  std::vector<int> outputs_;
};

class KeyEncoder;

/// One aggregate call of a hash aggregate: the function, its bound arguments, and its FILTER.
struct AggregateCall {
  const functions::FunctionDef* function;
  functions::Signature signature;
  std::vector<PhysExprPtr> args;
  PhysExprPtr filter;
  bool distinct = false;
  std::string display;  // for plans: sum(amount#3)
};

/// Hash aggregation: output = grouping keys then one column per aggregate call. Each thread
/// aggregates into its own table and hands it over at combine; a thread's table that reaches
/// many groups splits into one table per hash partition and keeps its groups split from then
/// on. Finalize merges the tables: with many groups in parallel, each task merging the groups
/// of one hash partition from every table (so no two tasks touch one group) into a thread's
/// table of that partition, which stays as it is, then materializes each partition's groups.
class HashAggregate final : public PhysicalOperator {
 public:
  HashAggregate(std::vector<PhysExprPtr> keys, std::vector<AggregateCall> calls);
  ~HashAggregate() override;
  std::string name() const override { return "HashAggregate"; }
  std::string details() const override;
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  /// When a call follows partitions (FunctionDef::follows_partitions).
  bool reads_whole_partitions() const override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

  /// A thread's table splits into hash partitions once it holds this many groups (by default
  /// kDefaultSplitGroups). Every row after a split pays for finding its partition's table, and
  /// the merge saves one thread's share of the groups, so the default waits for shares large
  /// enough to pay; tests lower it to exercise splits on small inputs. Set before any sink.
  void set_split_groups(size_t groups) { split_groups_ = groups; }
  static constexpr size_t kDefaultSplitGroups = size_t{1} << 18;

  struct Table;
  struct Groups;

 private:
  std::vector<PhysExprPtr> keys_;
  std::vector<AggregateCall> calls_;
  std::vector<std::unique_ptr<functions::AggregateFunction>> functions_;
  std::vector<size_t> state_offsets_;
  size_t state_size_ = 0;
  std::mutex mu_;
  size_t partitions_count_ = 1;                     // hash partitions of a split thread's groups
  size_t split_groups_ = kDefaultSplitGroups;
  std::vector<Groups> locals_;                      // handed over at combine
  std::vector<std::unique_ptr<Table>> partitions_;  // merged at finalize, disjoint groups
  std::vector<Batch> output_;
  bool initialized_ = false;
  void init(ExecContext& ctx);
  static std::vector<uint32_t> groups_of_partition(const Table& src, size_t partitions, size_t partition);
  void merge_into(Table& dst, Table& src, const std::vector<uint32_t>& groups);
  std::unique_ptr<Table> merge_partition(size_t partitions, size_t partition, bool byte_keys);
  void split(Groups& g);
  void groups_to_byte_keys(Groups& g, const KeyEncoder& enc);
  std::vector<Batch> materialize(Table& t) const;
  void destroy_states(Table& t);
};

struct SortKey {
  PhysExprPtr expr;
  bool ascending = true;
  bool nulls_first = true;
};

/// Full sort (or top-N when limit >= 0). Collects all input, sorts once, emits in order the
/// rows [offset, offset + limit) of the order (limit < 0: all from offset), gathering no other.
/// Within partitions (Spark's Sort with global = false, no limit): each input partition's rows
/// are sorted on their own, partitions in parallel, and leave as that partition, in order.
class Sort final : public PhysicalOperator {
 public:
  Sort(std::vector<SortKey> keys, int64_t limit = -1, int64_t offset = 0, bool within_partitions = false)
      : keys_(std::move(keys)), limit_(limit), offset_(offset), within_partitions_(within_partitions) {}
  std::string name() const override { return limit_ >= 0 ? "TakeOrderedAndProject" : "Sort"; }
  std::string details() const override;
  bool within_partitions() const { return within_partitions_; }
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;
  int64_t output_partitions() const override;

 private:
  /// The rows of `input` (batches in input order, the key columns after the others) in the
  /// sort's order, from offset to limit, in batches of kBatchRows at most.
  std::vector<Batch> sort_rows(std::vector<Batch> input, ExecContext& ctx) const;

  std::vector<SortKey> keys_;
  int64_t limit_;
  int64_t offset_;
  bool within_partitions_;
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> output_;
};

/// LIMIT / OFFSET / TAIL over ordered input: keeps the rows [offset, offset + limit) of the
/// input in source order (limit < 0: no limit); tail keeps the last `limit` rows.
class Limit final : public PhysicalOperator {
 public:
  /// `local`: the plan's LocalLimit (Spark's per-partition limit), which runs as a limit over
  /// all the input and is named as Spark names it.
  Limit(int64_t limit, int64_t offset, bool tail, bool local = false)
      : limit_(limit), offset_(offset), tail_(tail), local_(local) {}
  std::string name() const override {
    if (tail_) return "Tail";
    if (offset_ > 0) return "GlobalLimitAndOffset";
    return local_ ? "LocalLimit" : "GlobalLimit";
  }
  std::string details() const override;
  bool is_sink() const override { return true; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

 private:
  int64_t limit_, offset_;
  bool tail_;
  bool local_;
  std::mutex mu_;
  std::vector<Batch> input_;
  std::vector<Batch> output_;
};

/// Random sampling of rows (DataFrame.sample, randomSplit, TABLESAMPLE). Without replacement a
/// row is kept when its uniform draw falls in [lower, upper) (Bernoulli; randomSplit's splits
/// are disjoint ranges over the same draws); with replacement it appears k times, k drawn from
/// a Poisson distribution of mean upper - lower. A row's draw depends only on the seed, the
/// batch's index and the row's place in it, so the same seed over the same input keeps the
/// same rows, whatever the number of threads.
/// A repartitioning (Spark's Exchange or Coalesce), named and detailed as Spark shows it.
/// Ember runs all of a query's rows through one set of pipelines, so how Spark would split
/// them into partitions never changes a result: batches pass through as they are, except that
/// rows past an Exchange (a shuffle in Spark) no longer report the file they were read from.
/// An exchange whose partition count Spark leaves to adaptive execution (repartition by columns
/// alone, rebalance): its rows become the one partition Ember's exchanges stand for (what
/// adaptive execution makes of a shuffle that fits one partition), shown as Spark's Exchange line.
class Repartition final : public PhysicalOperator {
 public:
  explicit Repartition(std::string details) : details_(std::move(details)) {}
  std::string name() const override { return "Exchange"; }
  std::string details() const override { return details_; }
  /// Rows after the exchange are one partition and come from no file.
  void execute(Batch& batch, ExecContext&) const override {
    batch.file.reset();
    batch.partition = 0;
  }
  int64_t output_partitions() const override { return 1; }

 private:
  std::string details_;
};

/// Spark's coalesce(n): partition p of the P input partitions joins output partition i when
/// i * P / n <= p < (i + 1) * P / n (CoalescedRDD's grouping of partitions without preferred
/// locations); with n >= P the partitions stay as they are.
class Coalesce final : public PhysicalOperator {
 public:
  explicit Coalesce(int64_t partitions) : partitions_(partitions) {}
  std::string name() const override { return "Coalesce"; }
  std::string details() const override { return std::to_string(partitions_); }
  void execute(Batch& batch, ExecContext&) const override;
  int64_t output_partitions() const override;

 private:
  int64_t partitions_;
};

/// Spark's shuffle exchange into a number of partitions the program fixed (repartition(n),
/// repartition(n, cols), repartitionByRange(n, cols) and the REPARTITION hints with a number).
/// It collects its input and emits the rows of each output partition together, numbered as
/// Spark numbers them:
/// - round robin: the rows of input partition p go to partitions s+1, s+2, ... (mod n) from
///   s = XORShiftRandom(p).nextInt(n), in the order they arrive (Spark sorts them first, which
///   changes which rows go where but not how many);
/// - hash: `keys[0]` is the partition id, pmod(hash(cols), n) (Spark's Murmur3 hash
///   partitioning); with `rows_per_partition` > 0, `partitions` is the most there may be and
///   `keys[0]` is the rows' hash: once every row is in, the count is one partition per
///   `rows_per_partition` rows (at least one, at most `partitions`), and the rows of each hash
///   value go together to one partition, the largest groups first, each to the partition with
///   the fewest rows so far (so that few values still spread evenly);
/// - range: `keys` are sort orders; the bounds split the sorted rows into n equal runs, a bound
///   never equal to the one before (RangePartitioner.determineBounds over all rows, which is
///   Spark's sample whenever it samples every row), and a row goes to the first partition whose
///   bound is not below it.
class ShuffleExchange final : public PhysicalOperator {
 public:
  enum class Kind { kRoundRobin, kHash, kRange };
  ShuffleExchange(Kind kind, int64_t partitions, std::vector<SortKey> keys, std::string details,
                  int64_t rows_per_partition = 0)
      : kind_(kind),
        partitions_(partitions),
        keys_(std::move(keys)),
        details_(std::move(details)),
        rows_per_partition_(rows_per_partition) {}
  std::string name() const override { return "Exchange"; }
  std::string details() const override { return details_; }
  bool is_sink() const override { return true; }
  bool numbers_rows() const override { return kind_ == Kind::kRoundRobin; }
  int64_t output_partitions() const override { return partitions_; }
  std::unique_ptr<LocalSinkState> open_local(ExecContext& ctx) override;
  void sink(LocalSinkState& local, Batch batch, ExecContext& ctx) override;
  void combine(LocalSinkState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState&) const override;

  /// The output partition before the first row of input partition `p` under round robin:
  /// XORShiftRandom(p).nextInt(n), as java.util.Random draws a bounded int.
  static int64_t round_robin_start(int64_t p, int64_t n);

 private:
  /// The output partition of each row of `batch` (range: computed in finalize).
  std::vector<int32_t> targets(const Batch& batch, ExecContext& ctx) const;

  Kind kind_;
  int64_t partitions_;
  std::vector<SortKey> keys_;
  std::string details_;
  int64_t rows_per_partition_;
  std::mutex mu_;
  std::vector<Batch> input_;                   // range: with the key columns appended
  std::vector<std::vector<int32_t>> targets_;  // per input batch (round robin, hash)
  std::vector<Batch> output_;
};

class Sample final : public PhysicalOperator {
 public:
  Sample(double lower, double upper, bool with_replacement, int64_t seed)
      : lower_(lower), upper_(upper), with_replacement_(with_replacement), seed_(seed) {}
  std::string name() const override { return "Sample"; }
  std::string details() const override;
  void execute(Batch& batch, ExecContext& ctx) const override;

 private:
  double lower_, upper_;
  bool with_replacement_;
  int64_t seed_;
};

/// Hands out a list of finished batches as morsels: one batch per morsel, or under
/// `whole_partitions` the consecutive batches of one partition.
struct BatchListSource : SourceState {
  std::atomic<size_t> next{0};
  std::mutex claim_mu;  // claims of whole partitions
  std::once_flag numbered;
  std::vector<int64_t> starts;  // emit_from_list: the position of each batch's first row
};
/// Emits the output of a sink: one partition (Spark's partitioning after an exchange that
/// adaptive execution coalesced), its rows numbered in the list's order.
bool emit_from_list(const std::vector<Batch>& batches, SourceState& state, const Emit& emit);
/// Emits batches that keep the partitions and positions they were produced with (the rows of a
/// union's children, of a shared or cached plan); a partition's batches are consecutive.
bool emit_batches(const std::vector<Batch>& batches, SourceState& state, const Emit& emit);

}  // namespace ember::exec

namespace ember::exec {

/// UNION ALL of its children (same column types): runs each child to completion and emits
/// their batches in child order.
class UnionAll final : public PhysicalOperator {
 public:
  std::string name() const override { return "Union"; }
  bool is_source() const override { return true; }
  std::unique_ptr<SourceState> open_source(ExecContext& ctx) const override;
  bool next_morsel(SourceState& state, ExecContext& ctx, const Emit& emit) const override;
  size_t max_parallelism(const SourceState& state) const override;
  int64_t output_partitions() const override;
};

}  // namespace ember::exec
