#pragma once

// Spark's QuantileSummaries: a Greenwald–Khanna summary of doubles with relative error `eps`, as
// percentile_approx and approxQuantile build it, so that Ember's answers are Spark's to the bit.
//
// Values first collect in a head buffer. When it holds 50000 values they are sorted (Java's
// total order: -0.0 before 0.0, NaN last) and merged into the sorted samples, each new sample
// (value, g = 1, delta = floor(2 eps n)) with delta 0 for a new minimum or maximum; once there
// are 10000 samples or more they are compressed: from the largest down, a sample merges into
// its right neighbour while their g and the neighbour's g + delta stay under 2 eps n (the
// smallest and largest samples always stay). A merge of two compressed summaries interleaves
// their samples, adds floor(2 eps' n') of the other side to the delta of a sample that falls
// inside the other side's range, and compresses the result with the larger error. A query of
// sorted percentiles walks the samples once, each percentile starting where the previous
// one's sample was found.
//
// Like Spark's PercentileDigest, a summary knows whether it is compressed (no head values and
// compressed since the last value): compressing a compressed summary does nothing, and a merge
// or a query needs compressed summaries.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ember::functions {

class QuantileSummary {
 public:
  static constexpr size_t kHeadSize = 50000;
  static constexpr size_t kCompressThreshold = 10000;

  /// One sample: a value, the rank gap to the previous sample (g) and the rank uncertainty
  /// (delta).
  struct Sample {
    double value;
    int64_t g;
    int64_t delta;
    bool operator==(const Sample&) const = default;
  };

  /// An empty, compressed summary.
  explicit QuantileSummary(double relative_error) : error_(relative_error) {}

  /// Adds a value (QuantileSummaries.insert).
  void insert(double x);
  /// Moves the head values into the samples and compresses them, unless the summary is
  /// compressed already.
  void compress();
  /// Merges compressed `other` into this compressed summary (QuantileSummaries.merge): an empty
  /// side leaves the other as it is, with its relative error.
  void merge(const QuantileSummary& other);
  /// The approximate values at `percentiles` (each in [0, 1], any order) of a compressed,
  /// non-empty summary.
  std::vector<double> query(const std::vector<double>& percentiles) const;

  double relative_error() const { return error_; }
  /// Values moved into the samples (head values not counted).
  int64_t count() const { return count_; }
  /// No value at all, in the samples or the head.
  bool empty() const { return count_ == 0 && head_.empty(); }
  bool compressed() const { return compressed_; }
  const std::vector<Sample>& samples() const { return samples_; }
  /// Values added since the head was last moved into the samples, in the order they came.
  const std::vector<double>& head() const { return head_; }

 private:
  void insert_head();
  static std::vector<Sample> compressed_samples(const std::vector<Sample>& in, double threshold);

  double error_;
  std::vector<double> head_;
  std::vector<Sample> samples_;
  int64_t count_ = 0;
  bool compressed_ = true;
};

}  // namespace ember::functions
