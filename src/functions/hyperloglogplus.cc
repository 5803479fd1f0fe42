#include "functions/hyperloglogplus.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>

namespace ember::functions::hllpp {
namespace {
#include "functions/hyperloglogplus_data.inc"

/// Bias estimates average the biases of this many nearest measured raw estimates.
constexpr int kNeighbours = 6;
constexpr int kMinTablePrecision = 4;
constexpr int kMaxTablePrecision = 18;
}  // namespace

int precision_for(double rsd) {
  return static_cast<int>(std::ceil(2.0 * std::log(1.106 / rsd) / std::log(2.0)));
}

HyperLogLogPlusPlus::HyperLogLogPlusPlus(int precision)
    : p_(precision), registers_(size_t{1} << precision, 0) {}

void HyperLogLogPlusPlus::add_hash(uint64_t hash) {
  size_t idx = static_cast<size_t>(hash >> (64 - p_));
  // The bit below the remaining 64 - p bits bounds the rank at 64 - p + 1.
  uint64_t rest = (hash << p_) | (uint64_t{1} << (p_ - 1));
  auto rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  if (rank > registers_[idx]) registers_[idx] = rank;
}

void HyperLogLogPlusPlus::merge(const HyperLogLogPlusPlus& other) {
  for (size_t i = 0; i < registers_.size(); ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
}

double HyperLogLogPlusPlus::estimate_bias(double e) const {
  const double* raw = kRawEstimateByPrecision[p_ - kMinTablePrecision];
  const double* bias = kBiasByPrecision[p_ - kMinTablePrecision];
  const auto n = static_cast<ptrdiff_t>(kTableSizeByPrecision[p_ - kMinTablePrecision]);
  // The first measured estimate not below e, then the window of kNeighbours entries around it
  // slid upwards while the entry past its end is closer to e than its first one.
  ptrdiff_t nearest = std::lower_bound(raw, raw + n, e) - raw;
  auto distance = [&](ptrdiff_t i) {
    double d = e - raw[i];
    return d * d;
  };
  ptrdiff_t low = std::max<ptrdiff_t>(nearest - kNeighbours + 1, 0);
  ptrdiff_t high = std::min<ptrdiff_t>(low + kNeighbours, n);
  while (high < n && distance(high) < distance(low)) {
    ++low;
    ++high;
  }
  double sum = 0.0;
  for (ptrdiff_t i = low; i < high; ++i) sum += bias[i];
  return sum / static_cast<double>(high - low);
}

int64_t HyperLogLogPlusPlus::estimate() const {
  const auto m = static_cast<double>(registers_.size());
  double alpha_m2;
  switch (p_) {
    case 4: alpha_m2 = 0.673 * m * m; break;
    case 5: alpha_m2 = 0.697 * m * m; break;
    case 6: alpha_m2 = 0.709 * m * m; break;
    default: alpha_m2 = (0.7213 / (1.0 + 1.079 / m)) * m * m; break;
  }
  double z_inverse = 0.0;
  double zeros = 0.0;
  for (uint8_t r : registers_) {
    z_inverse += 1.0 / static_cast<double>(uint64_t{1} << r);
    if (r == 0) zeros += 1.0;
  }
  const double e = alpha_m2 / z_inverse;
  const bool tabled = p_ <= kMaxTablePrecision;
  const double e_corrected = tabled && e < 5.0 * m ? e - estimate_bias(e) : e;
  double result = e_corrected;
  if (zeros > 0) {
    const double h = m * std::log(m / zeros);
    if ((tabled && h <= kLinearCountingThreshold[p_ - kMinTablePrecision]) || e <= 2.5 * m) result = h;
  }
  return static_cast<int64_t>(std::floor(result + 0.5));  // half up, as Math.round
}

}  // namespace ember::functions::hllpp
