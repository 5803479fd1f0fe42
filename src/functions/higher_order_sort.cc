// array_sort(expr, comparator): sorts each row's elements with a comparator lambda.
//
// Spark sorts with java.util.Arrays.sort (TimSort). For fewer than 32 elements TimSort finds the
// leading run (reversing it when strictly descending) and binary-inserts the rest, and which
// comparisons it makes is visible to a comparator that returns null for some pairs (an error)
// or that is not a consistent order. Each row runs exactly that algorithm, for every length (a
// stable sort, so a consistent comparator gives Spark's order for long arrays too), as a small
// state machine that asks for one comparison at a time: every round gathers the pending
// comparison of every row and evaluates the comparator once over all of them.

#include <algorithm>

#include "common/error.h"
#include "functions/cast.h"
#include "functions/collection_util.h"
#include "functions/lambda.h"

namespace ember::functions {
namespace {

/// One row's sort: run detection, then binary insertion, one comparison at a time.
class RowSort {
 public:
  RowSort(int32_t row, std::vector<int32_t> order) : row_(row), a_(std::move(order)) {
    phase_ = a_.size() < 2 ? Phase::kDone : Phase::kFirst;
  }
  int32_t row() const { return row_; }
  bool done() const { return phase_ == Phase::kDone; }
  const std::vector<int32_t>& order() const { return a_; }

  /// The pending comparison compare(x, y), as element positions.
  std::pair<int32_t, int32_t> pending() const {
    switch (phase_) {
      case Phase::kFirst: return {a_[1], a_[0]};
      case Phase::kAscending:
      case Phase::kDescending: return {a_[run_hi_], a_[run_hi_ - 1]};
      default: return {pivot_, a_[(left_ + right_) >> 1]};
    }
  }

  /// Takes the comparator's answer to the pending comparison.
  void answer(int32_t c) {
    switch (phase_) {
      case Phase::kFirst:
        run_hi_ = 2;
        phase_ = c < 0 ? Phase::kDescending : Phase::kAscending;
        break;
      case Phase::kDescending:
        if (c < 0) ++run_hi_;
        else end_run();
        break;
      case Phase::kAscending:
        if (c >= 0) ++run_hi_;
        else end_run();
        break;
      case Phase::kInsert: {
        size_t mid = (left_ + right_) >> 1;
        if (c < 0) right_ = mid;
        else left_ = mid + 1;
        break;
      }
      case Phase::kDone: break;
    }
    settle();
  }

 private:
  enum class Phase { kFirst, kAscending, kDescending, kInsert, kDone };

  void settle() {
    if ((phase_ == Phase::kAscending || phase_ == Phase::kDescending) && run_hi_ == a_.size()) end_run();
    while (phase_ == Phase::kInsert && left_ >= right_) {
      std::rotate(a_.begin() + static_cast<std::ptrdiff_t>(left_), a_.begin() + static_cast<std::ptrdiff_t>(start_),
                  a_.begin() + static_cast<std::ptrdiff_t>(start_) + 1);
      ++start_;
      next_pivot();
    }
  }
  void end_run() {
    if (phase_ == Phase::kDescending) std::reverse(a_.begin(), a_.begin() + static_cast<std::ptrdiff_t>(run_hi_));
    start_ = run_hi_;
    phase_ = Phase::kInsert;
    next_pivot();
  }
  void next_pivot() {
    if (start_ >= a_.size()) {
      phase_ = Phase::kDone;
      return;
    }
    pivot_ = a_[start_];
    left_ = 0;
    right_ = start_;
  }

  int32_t row_;
  std::vector<int32_t> a_;
  Phase phase_;
  size_t run_hi_ = 0, start_ = 0, left_ = 0, right_ = 0;
  int32_t pivot_ = 0;
};

[[noreturn]] void throw_comparator_returns_null(const Column& elems, int32_t x, int32_t y) {
  auto text = [&](int32_t at) -> std::string {
    if (elems.is_null(at)) return "null";
    ColumnPtr one = cast_column(gather(elems, &at, 1), DataType::string(), EvalContext{}, false);
    return std::string(one->string_at(0));
  };
  std::string first = text(x), second = text(y);
  throw SparkError(ErrorKind::kRuntime, "COMPARATOR_RETURNS_NULL",
                   "The comparator has returned a NULL for a comparison between " + first + " and " + second +
                       ". It should return a positive integer for \"greater than\", 0 for \"equal\" and a negative "
                       "integer for \"less than\". To revert to deprecated behavior where NULL is treated as 0 "
                       "(equal), you must set \"spark.sql.legacy.allowNullComparisonResultInArraySort\" to \"true\".",
                   {{"firstValue", first}, {"secondValue", second}}, "22004");
}

}  // namespace

std::vector<LambdaParam> array_sort_params(const std::vector<ArgInfo>& a) {
  if (!a[0].type || a[0].type->id() != TypeId::kArray) throw_lambda_input_type("array_sort", a, 0, "ARRAY");
  LambdaParam elem{a[0].type->element_type(), a[0].type->contains_null()};
  return {elem, elem};
}

ColumnPtr array_sort_with_comparator(const std::vector<ColumnPtr>& args,
                                     const std::vector<const LambdaFunction*>& lambdas, int64_t n,
                                     const Signature& sig, const EvalContext& ctx) {
  const Column& arr = *args[0];
  const ColumnPtr& elems = arr.child(0);
  const int32_t* o = arr.offsets();
  bool null_is_equal = ctx.config &&
                       ctx.config->get_or("spark.sql.legacy.allowNullComparisonResultInArraySort", "false") == "true";
  std::vector<RowSort> sorts;
  if (elems->type()->id() != TypeId::kNull) {
    for (int64_t i = 0; i < n; ++i) {
      if (arr.is_null(i) || o[i + 1] - o[i] < 2) continue;
      std::vector<int32_t> order(static_cast<size_t>(o[i + 1] - o[i]));
      for (size_t k = 0; k < order.size(); ++k) order[k] = o[i] + static_cast<int32_t>(k);
      sorts.emplace_back(static_cast<int32_t>(i), std::move(order));
    }
  }
  std::vector<size_t> active;
  for (size_t s = 0; s < sorts.size(); ++s)
    if (!sorts[s].done()) active.push_back(s);
  std::vector<int32_t> xs, ys, rows;
  while (!active.empty()) {
    xs.clear(), ys.clear(), rows.clear();
    for (size_t s : active) {
      auto [x, y] = sorts[s].pending();
      xs.push_back(x);
      ys.push_back(y);
      rows.push_back(sorts[s].row());
    }
    int64_t m = static_cast<int64_t>(rows.size());
    ColumnPtr c = lambdas[0]->call({gather(*elems, xs.data(), m), gather(*elems, ys.data(), m)}, rows);
    const int32_t* cv = c->values<int32_t>();
    std::vector<size_t> still;
    for (size_t k = 0; k < active.size(); ++k) {
      RowSort& s = sorts[active[k]];
      if (c->is_null(static_cast<int64_t>(k)) && !null_is_equal) throw_comparator_returns_null(*elems, xs[k], ys[k]);
      s.answer(c->is_null(static_cast<int64_t>(k)) ? 0 : cv[k]);
      if (!s.done()) still.push_back(active[k]);
    }
    active = std::move(still);
  }
  // Rows that needed no sorting keep their order.
  std::vector<int32_t> picks, offsets(static_cast<size_t>(n) + 1, 0);
  size_t next = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (next < sorts.size() && sorts[next].row() == i) {
      const auto& order = sorts[next++].order();
      picks.insert(picks.end(), order.begin(), order.end());
    } else if (arr.is_valid(i)) {
      for (int32_t p = o[i]; p < o[i + 1]; ++p) picks.push_back(p);
    }
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(picks.size());
  }
  return gather_list(sig.result_type, arr, offsets, picks, arr.validity_buffer());
}

}  // namespace ember::functions
