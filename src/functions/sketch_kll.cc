#include "functions/sketch_kll.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>

namespace ember::functions::kll {
namespace {

constexpr uint8_t kFamily = 15;
constexpr uint8_t kFlagEmpty = 1;
constexpr uint8_t kFlagSingleItem = 4;
constexpr size_t kShortPreamble = 8;
constexpr size_t kFullPreamble = 20;
/// Natural ranks of sketches up to this size are rounded to 1e-7 before the ceiling, so that
/// rank * n lands on the integer it means despite binary fractions.
constexpr double kTailRounding = 1e7;

template <typename V>
V load(std::string_view b, size_t at) {
  V v;
  std::memcpy(&v, b.data() + at, sizeof(V));
  return v;
}

}  // namespace

template <typename T>
std::optional<KllSketch<T>> KllSketch<T>::deserialize(std::string_view b) {
  if (b.size() < kShortPreamble) return std::nullopt;
  const auto pre_ints = static_cast<uint8_t>(b[0]);
  const auto version = static_cast<uint8_t>(b[1]);
  const auto family = static_cast<uint8_t>(b[2]);
  const auto flags = static_cast<uint8_t>(b[3]);
  const auto k = load<uint16_t>(b, 4);
  if (family != kFamily || k < 8) return std::nullopt;
  KllSketch s;
  if (flags & kFlagEmpty) {
    if (pre_ints != 2 || b.size() != kShortPreamble) return std::nullopt;
    return s;
  }
  if (flags & kFlagSingleItem) {
    if (pre_ints != 2 || version != 2 || b.size() != kShortPreamble + sizeof(T)) return std::nullopt;
    s.n_ = 1;
    s.sorted_ = {load<T>(b, kShortPreamble)};
    s.cumulative_ = {1};
    return s;
  }
  if (pre_ints != 5 || version != 1 || b.size() < kFullPreamble) return std::nullopt;
  s.n_ = load<int64_t>(b, 8);
  const auto num_levels = static_cast<uint8_t>(b[18]);
  if (s.n_ <= 1 || num_levels == 0 || num_levels > 61) return std::nullopt;
  const size_t items_at = kFullPreamble + 4 * size_t{num_levels} + 2 * sizeof(T);
  if (b.size() < items_at || (b.size() - items_at) % sizeof(T) != 0) return std::nullopt;
  std::vector<uint32_t> levels(num_levels + 1);
  for (size_t i = 0; i < num_levels; ++i) levels[i] = load<uint32_t>(b, kFullPreamble + 4 * i);
  levels[num_levels] = levels[0] + static_cast<uint32_t>((b.size() - items_at) / sizeof(T));
  std::vector<std::pair<T, int64_t>> weighted;
  int64_t total = 0;
  for (size_t level = 0; level < num_levels; ++level) {
    if (levels[level + 1] < levels[level]) return std::nullopt;
    for (uint32_t off = levels[level]; off < levels[level + 1]; ++off) {
      weighted.emplace_back(load<T>(b, items_at + sizeof(T) * (off - levels[0])), int64_t{1} << level);
      total += int64_t{1} << level;
    }
  }
  if (total != s.n_) return std::nullopt;
  std::stable_sort(weighted.begin(), weighted.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  int64_t running = 0;
  for (auto& [item, weight] : weighted) {
    running += weight;
    s.sorted_.push_back(item);
    s.cumulative_.push_back(running);
  }
  // Compaction may have dropped the true extremes. The sorted view then gives each a weight of
  // one taken from its neighbour: the minimum in front with cumulative weight 1, the maximum at
  // the end with n, its predecessor lowered to n - 1.
  const T min_item = load<T>(b, items_at - 2 * sizeof(T));
  const T max_item = load<T>(b, items_at - sizeof(T));
  if (min_item < s.sorted_.front()) {
    s.sorted_.insert(s.sorted_.begin(), min_item);
    s.cumulative_.insert(s.cumulative_.begin(), 1);
  }
  if (max_item > s.sorted_.back()) {
    s.cumulative_.back() = s.n_ - 1;
    s.sorted_.push_back(max_item);
    s.cumulative_.push_back(s.n_);
  }
  return s;
}

template <typename T>
double KllSketch<T>::rank(T v) const {
  auto end = std::upper_bound(sorted_.begin(), sorted_.end(), v);
  if (end == sorted_.begin()) return 0.0;
  return static_cast<double>(cumulative_[static_cast<size_t>(end - sorted_.begin() - 1)]) / static_cast<double>(n_);
}

template <typename T>
T KllSketch<T>::quantile(double rank) const {
  double natural = rank * static_cast<double>(n_);
  if (static_cast<double>(n_) <= kTailRounding) natural = std::floor(natural * kTailRounding + 0.5) / kTailRounding;
  const auto target = static_cast<int64_t>(std::ceil(natural));
  auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), target);
  if (it == cumulative_.end()) return sorted_.back();
  return sorted_[static_cast<size_t>(it - cumulative_.begin())];
}

template class KllSketch<int64_t>;
template class KllSketch<float>;
template class KllSketch<double>;

}  // namespace ember::functions::kll
