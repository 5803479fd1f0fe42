// Spark's QuantileSummaries (see quantile_summary.h).

#include "functions/quantile_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "common/error.h"

namespace ember::functions {
namespace {

/// Java's total order of doubles (Double.compare), as Spark sorts values and percentiles:
/// -0.0 before 0.0, NaN after +Infinity.
bool java_less(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
  if (a == b) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

}  // namespace

void QuantileSummary::insert(double x) {
  head_.push_back(x);
  compressed_ = false;
  if (head_.size() < kHeadSize) return;
  insert_head();
  if (samples_.size() >= kCompressThreshold) {
    samples_ = compressed_samples(samples_, 2 * error_ * static_cast<double>(count_));
    compressed_ = true;
  }
}

void QuantileSummary::compress() {
  if (compressed_) return;
  insert_head();
  samples_ = compressed_samples(samples_, 2 * error_ * static_cast<double>(count_));
  compressed_ = true;
}

void QuantileSummary::merge(const QuantileSummary& other) {
  EMBER_CHECK(compressed_ && other.compressed_, "quantile summaries merge only when compressed");
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  // A sample from one side that falls after the first sample of the other side may have come
  // anywhere between two of that side's samples: its uncertainty grows by that side's bound
  // on g + delta, floor(2 eps n).
  const int64_t self_extra =
      static_cast<int64_t>(std::floor(2 * other.error_ * static_cast<double>(other.count_)));
  const int64_t other_extra =
      static_cast<int64_t>(std::floor(2 * error_ * static_cast<double>(count_)));
  const std::vector<Sample>& a = samples_;
  const std::vector<Sample>& b = other.samples_;
  std::vector<Sample> merged;
  merged.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].value < b[j].value) {
      Sample s = a[i++];
      if (j > 0) s.delta += self_extra;
      merged.push_back(s);
    } else {
      Sample s = b[j++];
      if (i > 0) s.delta += other_extra;
      merged.push_back(s);
    }
  }
  merged.insert(merged.end(), a.begin() + static_cast<std::ptrdiff_t>(i), a.end());
  merged.insert(merged.end(), b.begin() + static_cast<std::ptrdiff_t>(j), b.end());
  error_ = std::max(error_, other.error_);
  count_ += other.count_;
  samples_ = compressed_samples(merged, 2 * error_ * static_cast<double>(count_));
  compressed_ = true;
}

std::vector<double> QuantileSummary::query(const std::vector<double>& percentiles) const {
  EMBER_CHECK(compressed_ && !samples_.empty(),
              "quantile summaries answer only when compressed and not empty");
  int64_t max_span = std::numeric_limits<int64_t>::min();
  for (const Sample& s : samples_) max_span = std::max(max_span, s.g + s.delta);
  const double target_error = static_cast<double>(max_span / 2);
  std::vector<size_t> order(percentiles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return java_less(percentiles[x], percentiles[y]); });
  std::vector<double> out(percentiles.size());
  // Where the previous percentile's sample was found, and the minimum rank there.
  size_t index = 0;
  int64_t min_rank = samples_[0].g;
  for (size_t k : order) {
    const double p = percentiles[k];
    if (p <= error_) {
      out[k] = samples_.front().value;
      continue;
    }
    if (p >= 1 - error_) {
      out[k] = samples_.back().value;
      continue;
    }
    const auto rank =
        static_cast<double>(static_cast<int64_t>(std::ceil(p * static_cast<double>(count_))));
    size_t i = index;
    int64_t rank_at = min_rank;
    bool found = false;
    while (i + 1 < samples_.size()) {
      const auto max_rank = static_cast<double>(rank_at + samples_[i].delta);
      if (max_rank - target_error <= rank && rank <= static_cast<double>(rank_at) + target_error) {
        found = true;
        break;
      }
      ++i;
      rank_at += samples_[i].g;
    }
    if (!found) {
      i = samples_.size() - 1;
      rank_at = 0;
    }
    index = i;
    min_rank = rank_at;
    out[k] = samples_[i].value;
  }
  return out;
}

void QuantileSummary::insert_head() {
  if (head_.empty()) return;
  std::sort(head_.begin(), head_.end(), java_less);
  std::vector<Sample> out;
  out.reserve(samples_.size() + head_.size());
  size_t s = 0;
  int64_t count = count_;
  for (size_t k = 0; k < head_.size(); ++k) {
    const double x = head_[k];
    while (s < samples_.size() && samples_[s].value <= x) out.push_back(samples_[s++]);
    ++count;
    // A new minimum, or the new maximum, is known exactly.
    const bool extreme = out.empty() || (s == samples_.size() && k == head_.size() - 1);
    const int64_t delta =
        extreme ? 0 : static_cast<int64_t>(std::floor(2 * error_ * static_cast<double>(count)));
    out.push_back({x, 1, delta});
  }
  out.insert(out.end(), samples_.begin() + static_cast<std::ptrdiff_t>(s), samples_.end());
  samples_ = std::move(out);
  count_ = count;
  head_.clear();
}

/// Merges neighbouring samples, from the largest down, while their combined gap and
/// uncertainty stay under `threshold`; the smallest and largest samples are kept.
std::vector<QuantileSummary::Sample> QuantileSummary::compressed_samples(
    const std::vector<Sample>& in, double threshold) {
  if (in.empty()) return {};
  std::vector<Sample> rev;
  Sample head = in.back();
  for (size_t i = in.size() - 1; i-- > 1;) {
    const Sample& s = in[i];
    if (static_cast<double>(s.g + head.g + head.delta) < threshold) {
      head.g += s.g;
    } else {
      rev.push_back(head);
      head = s;
    }
  }
  rev.push_back(head);
  if (in.size() > 1 && in.front().value <= head.value) rev.push_back(in.front());
  std::reverse(rev.begin(), rev.end());
  return rev;
}

}  // namespace ember::functions
