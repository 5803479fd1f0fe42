// Row sampling: Bernoulli without replacement, Poisson with replacement.

#include <cmath>
#include <sstream>

#include "exec/operators.h"

namespace ember::exec {
namespace {

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// A uniform double in [0, 1) from 53 random bits.
double unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

/// A Poisson draw of mean `mean` from the random stream that starts at `state`. Inversion by
/// sequential search, in pieces of mean at most 16 so that exp(-mean) never underflows.
int64_t poisson(double mean, uint64_t state) {
  int64_t total = 0;
  while (mean > 0) {
    double piece = std::min(mean, 16.0);
    mean -= piece;
    state = mix(state);
    double u = unit(state);
    double p = std::exp(-piece), cdf = p;
    int64_t k = 0;
    while (u > cdf && p > 0) {
      ++k;
      p *= piece / static_cast<double>(k);
      cdf += p;
    }
    total += k;
  }
  return total;
}

}  // namespace

std::string Sample::details() const {
  std::ostringstream out;
  out << lower_ << ", " << upper_ << ", " << (with_replacement_ ? "true" : "false") << ", " << seed_;
  return out.str();
}

void Sample::execute(Batch& batch, ExecContext&) const {
  const uint64_t base = mix(static_cast<uint64_t>(seed_) ^ mix(static_cast<uint64_t>(batch.index)));
  std::vector<int32_t> rows;
  rows.reserve(static_cast<size_t>(with_replacement_ ? batch.num_rows : batch.num_rows / 2 + 1));
  const double mean = upper_ - lower_;
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    uint64_t state = mix(base + static_cast<uint64_t>(r) * 0xD1B54A32D192ED03ULL);
    if (with_replacement_) {
      int64_t k = poisson(mean, state);
      for (int64_t i = 0; i < k; ++i) rows.push_back(static_cast<int32_t>(r));
    } else {
      double u = unit(state);
      if (u >= lower_ && u < upper_) rows.push_back(static_cast<int32_t>(r));
    }
  }
  if (!with_replacement_ && static_cast<int64_t>(rows.size()) == batch.num_rows) return;
  batch = gather_batch(batch, rows.data(), static_cast<int64_t>(rows.size()));
}

}  // namespace ember::exec
