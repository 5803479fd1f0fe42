// Window function evaluation over sorted partitions (see window_functions.h).

#include "exec/window_functions.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "exec/python_udf.h"
#include "exec/window_counter_diff.h"
#include "functions/kernel_util.h"

namespace ember::exec {
namespace {

/// Each row's peers (the rows of equal order keys) within the partition of `n` rows at `base`
/// of `chunk`: rows [start[i], end[i]) of the partition.
void peer_ranges(const WindowChunk& chunk, int64_t base, int64_t n, std::vector<int64_t>& start,
                 std::vector<int64_t>& end) {
  start.assign(static_cast<size_t>(n), 0);
  end.assign(static_cast<size_t>(n), n);
  for (int64_t i = 0; i < n; ++i) start[i] = (i > 0 && !chunk.peer_break[base + i]) ? start[i - 1] : i;
  for (int64_t i = n - 1; i >= 0; --i) end[i] = (i + 1 < n && !chunk.peer_break[base + i + 1]) ? end[i + 1] : i + 1;
}

int64_t clamp_add(int64_t i, int64_t off, int64_t lo, int64_t hi) {
  int64_t r;
  if (__builtin_add_overflow(i, off, &r)) r = off < 0 ? lo : hi;
  return std::clamp(r, lo, hi);
}

/// The RANGE order key of rows [begin, begin + n) as long doubles (exact for every integral
/// and decimal key Spark allows with value offsets) and their null flags.
void range_keys(const Column& c, int64_t begin, int64_t n, std::vector<long double>& v, std::vector<uint8_t>& null) {
  v.resize(static_cast<size_t>(n));
  null.resize(static_cast<size_t>(n));
  TypeId id = c.type()->id();
  long double scale = 1;
  if (id == TypeId::kDecimal)
    for (int i = 0; i < c.type()->scale(); ++i) scale *= 10;
  for (int64_t i = 0; i < n; ++i) null[i] = id == TypeId::kNull || c.is_null(begin + i);
  if (id == TypeId::kNull) return;
  functions::dispatch_fixed(id, [&]<typename T>() {
    const T* x = c.values<T>();
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<long double>(x[begin + i]) / scale;
  });
}

/// The result column for rows whose value comes from another row of an input (or is null).
/// `src[i]` < 0 means null; `use_default[i]` takes row i of `fallback` instead.
ColumnPtr gather_values(const TypePtr& type, const Column& input, const std::vector<int64_t>& src,
                        const Column* fallback, const std::vector<uint8_t>* use_default) {
  ColumnBuilder b(type, static_cast<int64_t>(src.size()));
  for (size_t i = 0; i < src.size(); ++i) {
    if (use_default && (*use_default)[i]) b.append_from(*fallback, static_cast<int64_t>(i));
    else if (src[i] < 0) b.append_null();
    else b.append_from(input, src[i]);
  }
  return b.finish();
}

/// Aggregate states of a partition's rows, combined over arbitrary frames: one leaf state per
/// row, and a segment tree of merged states built on demand for frames that slide.
class AggregateFrames {
 public:
  AggregateFrames(const functions::AggregateFunction& fn, size_t state_size) : fn_(fn), ss_(state_size) {}
  ~AggregateFrames() { release(); }

  /// Builds the leaf states of `n` rows from the call's arguments (`skip[i]`: FILTER false).
  void build_leaves(const std::vector<ColumnPtr>& args, int64_t n, const std::vector<uint8_t>& skip) {
    leaves_.assign(static_cast<size_t>(n) * ss_ + 16, 0);
    n_ = n;
    std::vector<uint8_t*> ptrs(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      ptrs[i] = leaf(i);
      fn_.init(ptrs[i]);
      if (!skip.empty() && skip[i]) ptrs[i] = nullptr;
    }
    fn_.update(ptrs.data(), args, n);
  }

  uint8_t* leaf(int64_t i) { return leaves_.data() + static_cast<size_t>(i) * ss_; }

  /// Merges the leaves [from, to) into `acc`.
  void merge_leaves(uint8_t* acc, int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) fn_.merge(acc, leaf(i));
  }

  /// Segment tree over the leaves [base, base + m).
  void build_tree(int64_t base, int64_t m) {
    release_tree();
    base_ = base;
    m_ = m;
    inner_.assign(static_cast<size_t>(std::max<int64_t>(m, 1)) * ss_, 0);
    tree_.assign(static_cast<size_t>(2 * m), nullptr);
    for (int64_t i = 0; i < m; ++i) tree_[m + i] = leaf(base + i);
    for (int64_t k = m - 1; k >= 1; --k) {
      tree_[k] = inner_.data() + static_cast<size_t>(k) * ss_;
      fn_.init(tree_[k]);
      fn_.merge(tree_[k], tree_[2 * k]);
      fn_.merge(tree_[k], tree_[2 * k + 1]);
    }
    tree_built_ = true;
  }

  /// Merges the tree's leaves [l, r) (relative to its base) into `acc`, in row order.
  void query(uint8_t* acc, int64_t l, int64_t r) {
    right_.clear();
    for (l += m_, r += m_; l < r; l >>= 1, r >>= 1) {
      if (l & 1) fn_.merge(acc, tree_[l++]);
      if (r & 1) right_.push_back(tree_[--r]);
    }
    for (auto it = right_.rbegin(); it != right_.rend(); ++it) fn_.merge(acc, *it);
  }

  void release() {
    release_tree();
    if (fn_.needs_destroy())
      for (int64_t i = 0; i < n_; ++i) fn_.destroy(leaf(i));
    n_ = 0;
  }

 private:
  void release_tree() {
    if (tree_built_ && fn_.needs_destroy())
      for (int64_t k = 1; k < m_; ++k) fn_.destroy(tree_[k]);
    tree_built_ = false;
  }

  const functions::AggregateFunction& fn_;
  size_t ss_;
  std::vector<uint8_t> leaves_, inner_;
  std::vector<uint8_t*> tree_, right_;
  int64_t n_ = 0, base_ = 0, m_ = 0;
  bool tree_built_ = false;
};

/// A scratch aggregate state.
class ScratchState {
 public:
  ScratchState(const functions::AggregateFunction& fn, size_t ss) : fn_(fn), buf_(ss + 16, 0) { fn_.init(get()); }
  ~ScratchState() {
    if (fn_.needs_destroy()) fn_.destroy(get());
  }
  uint8_t* get() { return buf_.data(); }
  void reset() {
    if (fn_.needs_destroy()) fn_.destroy(get());
    fn_.init(get());
  }

 private:
  const functions::AggregateFunction& fn_;
  std::vector<uint8_t> buf_;
};

ColumnPtr evaluate_aggregate(const WindowCall& call, const std::vector<ColumnPtr>& args, const WindowChunk& chunk,
                             const functions::EvalContext& ctx) {
  std::unique_ptr<functions::AggregateFunction> fn = call.function->aggregate(call.signature, ctx);
  size_t ss = std::max<size_t>(16, (fn->state_size() + 15) / 16 * 16);
  std::vector<ColumnPtr> fargs(args.begin(), args.end() - (call.filter ? 1 : 0));
  std::vector<uint8_t> skip;
  if (call.filter) {
    const Column& f = *args.back();
    skip.resize(static_cast<size_t>(chunk.length));
    for (int64_t i = 0; i < chunk.length; ++i) skip[i] = f.is_null(i) || !f.bool_at(i);
  }
  AggregateFrames frames(*fn, ss);
  frames.build_leaves(fargs, chunk.length, skip);
  ColumnBuilder out(call.type, chunk.length);
  ScratchState acc(*fn, ss);
  std::vector<int64_t> peer_start, peer_end;
  for (size_t p = 0; p + 1 < chunk.partition_starts.size(); ++p) {
    int64_t base = chunk.partition_starts[p];
    int64_t n = chunk.partition_starts[p + 1] - base;
    const FrameBounds& f = call.frame;
    if (f.lower_unbounded() && f.upper_unbounded()) {
      acc.reset();
      frames.merge_leaves(acc.get(), base, base + n);
      std::vector<uint8_t*> same(static_cast<size_t>(n), acc.get());
      fn->finalize(same.data(), n, out);
      continue;
    }
    peer_ranges(chunk, base, n, peer_start, peer_end);
    PartitionFrames fr = compute_frames(f, n, peer_start, peer_end, chunk, base);
    if (f.lower_unbounded()) {
      // Running frames: the frame end never moves back, so one state grows row by row.
      acc.reset();
      int64_t pos = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (fr.end[i] > pos) {
          frames.merge_leaves(acc.get(), base + pos, base + fr.end[i]);
          pos = fr.end[i];
        }
        uint8_t* s = acc.get();
        fn->finalize(&s, 1, out);
      }
      continue;
    }
    frames.build_tree(base, n);
    ScratchState tmp(*fn, ss);
    for (int64_t i = 0; i < n; ++i) {
      tmp.reset();
      if (fr.start[i] < fr.end[i]) frames.query(tmp.get(), fr.start[i], fr.end[i]);
      uint8_t* s = tmp.get();
      fn->finalize(&s, 1, out);
    }
  }
  return out.finish();
}

}  // namespace

PartitionFrames compute_frames(const FrameBounds& frame, int64_t n, const std::vector<int64_t>& peer_start,
                               const std::vector<int64_t>& peer_end, const WindowChunk& chunk, int64_t key_offset) {
  PartitionFrames fr;
  fr.start.resize(static_cast<size_t>(n));
  fr.end.resize(static_cast<size_t>(n));
  bool range_values = !frame.rows && ((frame.lower != 0 && !frame.lower_unbounded()) ||
                                      (frame.upper != 0 && !frame.upper_unbounded()));
  std::vector<long double> key;
  std::vector<uint8_t> null;
  int64_t nn_begin = 0, nn_end = n;  // the rows with a non-null key
  if (range_values) {
    EMBER_CHECK(chunk.range_key != nullptr, "RANGE frame without an order key");
    range_keys(*chunk.range_key, key_offset, n, key, null);
    while (nn_begin < n && null[nn_begin]) ++nn_begin;
    while (nn_end > nn_begin && null[nn_end - 1]) --nn_end;
  }
  const bool asc = chunk.range_ascending;
  auto kbegin = key.begin();
  for (int64_t i = 0; i < n; ++i) {
    int64_t s, e;
    if (frame.rows) {
      s = frame.lower_unbounded() ? 0 : clamp_add(i, frame.lower, 0, n);
      e = frame.upper_unbounded() ? n : clamp_add(i, frame.upper, -1, n - 1) + 1;
    } else {
      if (frame.lower_unbounded()) s = 0;
      else if (frame.lower == 0) s = peer_start[i];
      else if (null[i]) s = peer_start[i];
      else {
        long double target = key[i] + (asc ? 1 : -1) * static_cast<long double>(frame.lower);
        s = asc ? std::lower_bound(kbegin + nn_begin, kbegin + nn_end, target) - kbegin
                : std::lower_bound(kbegin + nn_begin, kbegin + nn_end, target, std::greater<long double>()) - kbegin;
      }
      if (frame.upper_unbounded()) e = n;
      else if (frame.upper == 0) e = peer_end[i];
      else if (null[i]) e = peer_end[i];
      else {
        long double target = key[i] + (asc ? 1 : -1) * static_cast<long double>(frame.upper);
        e = asc ? std::upper_bound(kbegin + nn_begin, kbegin + nn_end, target) - kbegin
                : std::upper_bound(kbegin + nn_begin, kbegin + nn_end, target, std::greater<long double>()) - kbegin;
      }
    }
    fr.start[i] = s;
    fr.end[i] = std::max(s, e);
  }
  return fr;
}

namespace {

/// A group aggregate pandas UDF over each row's frame (PySpark's window protocol): each
/// partition is one group. A frame of the whole partition is "unbounded": the group holds the
/// arguments and the function runs once per partition. Any other frame is "bounded": the group
/// starts with two int32 columns, each row's frame as [begin, end) within the partition, and the
/// function runs once per row over its slice.
ColumnPtr evaluate_python(const WindowCall& call, const std::vector<ColumnPtr>& args, const WindowChunk& chunk) {
  const FrameBounds& f = call.frame;
  const bool unbounded = f.lower_unbounded() && f.upper_unbounded();
  std::vector<Batch> groups;
  std::vector<int64_t> peer_start, peer_end;
  for (size_t p = 0; p + 1 < chunk.partition_starts.size(); ++p) {
    const int64_t base = chunk.partition_starts[p];
    const int64_t n = chunk.partition_starts[p + 1] - base;
    Batch g;
    g.num_rows = n;
    if (!unbounded) {
      peer_ranges(chunk, base, n, peer_start, peer_end);
      PartitionFrames fr = compute_frames(f, n, peer_start, peer_end, chunk, base);
      ColumnBuilder begin(DataType::int_(), n), end(DataType::int_(), n);
      for (int64_t i = 0; i < n; ++i) {
        begin.append<int32_t>(static_cast<int32_t>(fr.start[i]));
        end.append<int32_t>(static_cast<int32_t>(fr.end[i]));
      }
      g.columns.push_back(begin.finish());
      g.columns.push_back(end.finish());
    }
    for (auto& a : args) g.columns.push_back(slice(a, base, n));
    groups.push_back(std::move(g));
  }
  Schema schema;
  std::vector<int> offsets;
  if (!unbounded) {
    schema.push_back({"_begin", DataType::int_(), false, "{}"});
    schema.push_back({"_end", DataType::int_(), false, "{}"});
  }
  for (size_t i = 0; i < args.size(); ++i)
    schema.push_back({"_" + std::to_string(i), args[i]->type(), true, "{}"});
  for (size_t i = 0; i < schema.size(); ++i) offsets.push_back(static_cast<int>(i));
  PythonSettings settings = *call.python_settings;
  settings.runner_conf["window_bound_types"] = unbounded ? "unbounded" : "bounded";
  PythonTask task;
  task.eval_type = call.python->eval_type == static_cast<int>(PythonEvalType::kGroupedAggArrowUdf)
                       ? static_cast<int>(PythonEvalType::kWindowAggArrowUdf)
                       : static_cast<int>(PythonEvalType::kWindowAggPandasUdf);
  task.row_per_row = false;
  task.calls.push_back({call.python, std::move(offsets)});
  task.groups = &groups;
  task.input_schema = std::move(schema);
  task.settings = &settings;
  std::vector<ColumnPtr> result = python_runner().run(task);
  if (result[0]->length() != chunk.length)
    EMBER_UNREACHABLE("Python worker protocol: " + std::to_string(result[0]->length()) + " window results for " +
                      std::to_string(chunk.length) + " rows");
  return result[0];
}

}  // namespace

ColumnPtr evaluate_window_call(const WindowCall& call, const std::vector<ColumnPtr>& args, const WindowChunk& chunk,
                               const functions::EvalContext& ctx) {
  using K = WindowCall::Kind;
  if (call.kind == K::kAggregate) return evaluate_aggregate(call, args, chunk, ctx);
  if (call.kind == K::kPython) return evaluate_python(call, args, chunk);
  if (call.kind == K::kCounterDiff)
    return evaluate_counter_diff(call.type, args[0], args.size() > 1 ? args[1] : nullptr, chunk, ctx);
  const int64_t total = chunk.length;
  ColumnBuilder ranks(call.type, total);
  std::vector<int64_t> src;       // value functions: source row per row (-1: null)
  std::vector<uint8_t> use_default;
  bool value_fn = call.kind == K::kLag || call.kind == K::kLead || call.kind == K::kFirst || call.kind == K::kLast ||
                  call.kind == K::kNthValue;
  if (value_fn) src.assign(static_cast<size_t>(total), -1);
  if (call.kind == K::kLag || call.kind == K::kLead) use_default.assign(static_cast<size_t>(total), 0);
  std::vector<int64_t> peer_start, peer_end, non_null;
  for (size_t p = 0; p + 1 < chunk.partition_starts.size(); ++p) {
    const int64_t base = chunk.partition_starts[p];
    const int64_t n = chunk.partition_starts[p + 1] - base;
    peer_ranges(chunk, base, n, peer_start, peer_end);
    if (value_fn && call.ignore_nulls) {
      non_null.clear();
      const Column& in = *args[0];
      for (int64_t i = 0; i < n; ++i)
        if (in.type()->id() != TypeId::kNull && in.is_valid(base + i)) non_null.push_back(i);
    }
    switch (call.kind) {
      case K::kRowNumber:
        for (int64_t i = 0; i < n; ++i) ranks.append<int32_t>(static_cast<int32_t>(i + 1));
        break;
      case K::kRank:
        for (int64_t i = 0; i < n; ++i) ranks.append<int32_t>(static_cast<int32_t>(peer_start[i] + 1));
        break;
      case K::kDenseRank: {
        int32_t r = 0;
        for (int64_t i = 0; i < n; ++i) {
          if (peer_start[i] == i) ++r;
          ranks.append<int32_t>(r);
        }
        break;
      }
      case K::kPercentRank:
        for (int64_t i = 0; i < n; ++i)
          ranks.append<double>(n > 1 ? static_cast<double>(peer_start[i]) / static_cast<double>(n - 1) : 0.0);
        break;
      case K::kCumeDist:
        for (int64_t i = 0; i < n; ++i) ranks.append<double>(static_cast<double>(peer_end[i]) / static_cast<double>(n));
        break;
      case K::kNtile: {
        // The first n % buckets buckets hold one row more than the others.
        int64_t buckets = call.offset, size = n / buckets, extra = n % buckets;
        int64_t big = extra * (size + 1);
        for (int64_t i = 0; i < n; ++i) {
          int64_t b = i < big ? i / (size + 1) : extra + (i - big) / std::max<int64_t>(size, 1);
          ranks.append<int32_t>(static_cast<int32_t>(b + 1));
        }
        break;
      }
      case K::kLag:
      case K::kLead: {
        int64_t off = call.kind == K::kLag ? -call.offset : call.offset;
        for (int64_t i = 0; i < n; ++i) {
          int64_t t = -1;
          if (!call.ignore_nulls || off == 0) {
            t = clamp_add(i, off, -1, n);
            if (t >= n) t = -1;
          } else if (off < 0) {
            int64_t j = (std::lower_bound(non_null.begin(), non_null.end(), i) - non_null.begin()) + off;
            t = j >= 0 ? non_null[j] : -1;
          } else {
            int64_t j = (std::upper_bound(non_null.begin(), non_null.end(), i) - non_null.begin()) + off - 1;
            t = j < static_cast<int64_t>(non_null.size()) ? non_null[j] : -1;
          }
          if (t < 0) use_default[base + i] = 1;
          else src[base + i] = base + t;
        }
        break;
      }
      case K::kFirst:
      case K::kLast:
      case K::kNthValue: {
        PartitionFrames fr = compute_frames(call.frame, n, peer_start, peer_end, chunk, base);
        for (int64_t i = 0; i < n; ++i) {
          int64_t s = fr.start[i], e = fr.end[i], t = -1;
          if (s >= e) continue;
          if (!call.ignore_nulls) {
            if (call.kind == K::kFirst) t = s;
            else if (call.kind == K::kLast) t = e - 1;
            else if (call.offset <= e - s) t = s + call.offset - 1;
          } else {
            auto lo = std::lower_bound(non_null.begin(), non_null.end(), s);
            auto hi = std::lower_bound(non_null.begin(), non_null.end(), e);
            int64_t cnt = hi - lo;
            if (call.kind == K::kFirst && cnt > 0) t = *lo;
            else if (call.kind == K::kLast && cnt > 0) t = *(hi - 1);
            else if (call.kind == K::kNthValue && call.offset <= cnt) t = *(lo + (call.offset - 1));
          }
          if (t >= 0) src[base + i] = base + t;
        }
        break;
      }
      case K::kAggregate:
      case K::kPython:
      case K::kCounterDiff: break;  // evaluated by evaluate_aggregate, evaluate_python, evaluate_counter_diff
    }
  }
  if (!value_fn) return ranks.finish();
  if (call.kind == K::kLag || call.kind == K::kLead)
    return gather_values(call.type, *args[0], src, args[1].get(), &use_default);
  return gather_values(call.type, *args[0], src, nullptr, nullptr);
}

}  // namespace ember::exec
