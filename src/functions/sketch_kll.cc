#include "functions/sketch_kll.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>

#include "common/number_format.h"

namespace ember::functions::kll {
namespace {

constexpr uint8_t kFamily = 15;
constexpr uint8_t kM = 8;
constexpr uint8_t kFlagEmpty = 1;
constexpr uint8_t kFlagLevelZeroSorted = 2;
constexpr uint8_t kFlagSingleItem = 4;
constexpr uint8_t kSerialVersionFull = 1;
constexpr uint8_t kSerialVersionSingle = 2;
constexpr size_t kShortPreamble = 8;
constexpr size_t kFullPreamble = 20;
/// More levels than this would mean more than 2^61 input values.
constexpr int kMaxLevels = 61;
/// Natural ranks of sketches up to this size are rounded to 1e-7 before the ceiling, so that
/// rank * n lands on the integer it means despite binary fractions.
constexpr double kTailRounding = 1e7;

template <typename V>
V load(std::string_view b, size_t at) {
  V v;
  std::memcpy(&v, b.data() + at, sizeof(V));
  return v;
}

template <typename V>
void store(std::string& out, V v) {
  char bytes[sizeof(V)];
  std::memcpy(bytes, &v, sizeof(V));
  out.append(bytes, sizeof(V));
}

/// k * (2/3)^depth rounded to the nearest integer, as the level capacities scale.
uint32_t scaled_capacity(uint64_t k, int depth) {
  static constexpr auto kPowersOfThree = [] {
    std::array<uint64_t, 31> p{};
    p[0] = 1;
    for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 3;
    return p;
  }();
  auto one = [](uint64_t kk, int d) {
    return static_cast<uint32_t>((((kk << 1) << d) / kPowersOfThree[d] + 1) >> 1);
  };
  if (depth <= 30) return one(k, depth);
  const int half = depth / 2;
  return one(one(k, half), depth - half);
}

uint32_t level_capacity(int k, int num_levels, int level) {
  return std::max<uint32_t>(kM, scaled_capacity(static_cast<uint64_t>(k), num_levels - level - 1));
}

/// Java's Math.min / Math.max: -0.0 orders below 0.0 (NaN never reaches a sketch).
template <typename T>
bool before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a == b) return std::signbit(a) && !std::signbit(b);
  }
  return a < b;
}

/// Seeds for the compaction coin flips: each sketch gets its own stream.
uint64_t next_seed() {
  static std::atomic<uint64_t> counter{std::random_device{}() |
                                       (static_cast<uint64_t>(std::random_device{}()) << 32)};
  return counter.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed);
}

/// Keeps one of every two items of buf[start, start + length) (length even), from a random
/// offset, packed at the low end of the range.
template <typename T>
void halve_down(T* buf, uint32_t start, uint32_t length, uint64_t bit) {
  const uint32_t half = length / 2;
  uint32_t j = start + static_cast<uint32_t>(bit);
  for (uint32_t i = start; i < start + half; ++i, j += 2) buf[i] = buf[j];
}

/// The same, packed at the high end of the range.
template <typename T>
void halve_up(T* buf, uint32_t start, uint32_t length, uint64_t bit) {
  const uint32_t half = length / 2;
  int64_t j = static_cast<int64_t>(start) + length - 1 - static_cast<int64_t>(bit);
  for (int64_t i = static_cast<int64_t>(start) + length - 1;
       i >= static_cast<int64_t>(start + half); --i, j -= 2)
    buf[i] = buf[j];
}

/// Merges sorted a[0, na) and b[0, nb) into out; out may overlap the inputs as long as it
/// never passes an unread item (the compactions merge in place).
template <typename T>
void merge_sorted(const T* a, uint32_t na, const T* b, uint32_t nb, T* out) {
  uint32_t i = 0, j = 0;
  for (uint32_t c = 0; c < na + nb; ++c) {
    if (i == na)
      out[c] = b[j++];
    else if (j == nb)
      out[c] = a[i++];
    else if (a[i] < b[j])
      out[c] = a[i++];
    else
      out[c] = b[j++];
  }
}

template <typename T>
void sort_items(T* begin, T* end) {
  std::sort(begin, end, [](T x, T y) { return before(x, y); });
}

/// Text of a summary percentage: three decimals, halves rounded up on the shortest decimal form
/// of the value (java.util.Formatter's "%.3f").
std::string percent3(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string s(buf, r.ptr);
  const size_t e = s.find('e');
  const int exp10 = std::stoi(s.substr(e + 1));
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') digits += s[i];
  int point = exp10 + 1;  // digits before the decimal point
  if (point <= 0) {
    digits.insert(0, static_cast<size_t>(1 - point), '0');
    point = 1;
  }
  const size_t keep = static_cast<size_t>(point) + 3;
  if (digits.size() > keep) {
    const bool up = digits[keep] >= '5';
    digits.resize(keep);
    if (up) {
      size_t i = keep;
      while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
      if (i == 0) {
        digits.insert(0, "1");
        ++point;
      } else {
        ++digits[i - 1];
      }
    }
  }
  digits.resize(static_cast<size_t>(point) + 3, '0');
  std::string whole = digits.substr(0, static_cast<size_t>(point));
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size() - 1));
  return whole + "." + digits.substr(static_cast<size_t>(point), 3);
}

template <typename T>
std::string item_text(T v) {
  if constexpr (std::is_same_v<T, int64_t>)
    return std::to_string(v);
  else if constexpr (std::is_same_v<T, float>)
    return java_float_string(v);
  else
    return java_double_string(v);
}

template <typename T>
constexpr const char* kSketchName = std::is_same_v<T, int64_t> ? "KllLongsSketch"
                                    : std::is_same_v<T, float> ? "KllFloatsSketch"
                                                               : "KllDoublesSketch";

}  // namespace

template <typename T>
uint32_t KllSketch<T>::total_capacity(int k, int num_levels) {
  uint32_t total = 0;
  for (int h = 0; h < num_levels; ++h) total += level_capacity(k, num_levels, h);
  return total;
}

template <typename T>
KllSketch<T>::KllSketch(int k)
    : k_(static_cast<uint16_t>(k)),
      min_k_(static_cast<uint16_t>(k)),
      levels_{static_cast<uint32_t>(k), static_cast<uint32_t>(k)},
      items_(static_cast<size_t>(k)),
      rng_(next_seed()) {}

template <typename T>
uint64_t KllSketch<T>::random_bit() {
  // splitmix64
  uint64_t z = (rng_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) >> 63;
}

template <typename T>
std::optional<KllSketch<T>> KllSketch<T>::deserialize(std::string_view b) {
  if (b.size() < kShortPreamble) return std::nullopt;
  const auto pre_ints = static_cast<uint8_t>(b[0]);
  const auto version = static_cast<uint8_t>(b[1]);
  const auto family = static_cast<uint8_t>(b[2]);
  const auto flags = static_cast<uint8_t>(b[3]);
  const auto k = load<uint16_t>(b, 4);
  const auto m = static_cast<uint8_t>(b[6]);
  if (family != kFamily || k < kMinK || m != kM) return std::nullopt;
  KllSketch s(k);
  if (flags & kFlagEmpty) {
    if (pre_ints != 2) return std::nullopt;
    return s;
  }
  if (flags & kFlagSingleItem) {
    if (pre_ints != 2 || version != kSerialVersionSingle || b.size() < kShortPreamble + sizeof(T))
      return std::nullopt;
    const T v = load<T>(b, kShortPreamble);
    s.n_ = 1;
    s.min_ = s.max_ = v;
    s.levels_[0] = s.capacity() - 1;
    s.items_[s.levels_[0]] = v;
    return s;
  }
  if (pre_ints != 5 || version != kSerialVersionFull || b.size() < kFullPreamble)
    return std::nullopt;
  s.n_ = load<int64_t>(b, 8);
  s.min_k_ = load<uint16_t>(b, 16);
  const int num_levels = static_cast<uint8_t>(b[18]);
  if (s.n_ < 1 || num_levels == 0 || num_levels > kMaxLevels) return std::nullopt;
  const uint32_t capacity = total_capacity(k, num_levels);
  const size_t items_at = kFullPreamble + 4 * static_cast<size_t>(num_levels) + 2 * sizeof(T);
  if (b.size() < items_at) return std::nullopt;
  s.levels_.assign(static_cast<size_t>(num_levels) + 1, capacity);
  for (int i = 0; i < num_levels; ++i)
    s.levels_[i] = load<uint32_t>(b, kFullPreamble + 4 * static_cast<size_t>(i));
  // The weights must add up to n (in 128 bits: garbage levels must not overflow).
  unsigned __int128 total = 0;
  for (int h = 0; h < num_levels; ++h) {
    if (s.levels_[h + 1] < s.levels_[h]) return std::nullopt;
    total += static_cast<unsigned __int128>(s.levels_[h + 1] - s.levels_[h]) << h;
  }
  if (total != static_cast<unsigned __int128>(s.n_) ||
      b.size() < items_at + sizeof(T) * s.retained())
    return std::nullopt;
  s.items_.assign(capacity, T{});
  std::memcpy(s.items_.data() + s.levels_[0], b.data() + items_at, sizeof(T) * s.retained());
  s.min_ = load<T>(b, items_at - 2 * sizeof(T));
  s.max_ = load<T>(b, items_at - sizeof(T));
  s.level0_sorted_ = (flags & kFlagLevelZeroSorted) != 0;
  return s;
}

template <typename T>
std::string KllSketch<T>::serialize() const {
  std::string out;
  const bool single = n_ == 1;
  const uint8_t flags = empty()  ? kFlagEmpty
                        : single ? kFlagSingleItem
                                 : (level0_sorted_ ? kFlagLevelZeroSorted : 0);
  out.push_back(static_cast<char>(empty() || single ? 2 : 5));
  out.push_back(static_cast<char>(single ? kSerialVersionSingle : kSerialVersionFull));
  out.push_back(static_cast<char>(kFamily));
  out.push_back(static_cast<char>(flags));
  store<uint16_t>(out, k_);
  out.push_back(static_cast<char>(kM));
  out.push_back(0);
  if (empty()) return out;
  if (single) {
    store<T>(out, items_[levels_[0]]);
    return out;
  }
  store<int64_t>(out, n_);
  store<uint16_t>(out, min_k_);
  out.push_back(static_cast<char>(num_levels()));
  out.push_back(0);
  for (int h = 0; h < num_levels(); ++h) store<uint32_t>(out, levels_[h]);
  store<T>(out, min_);
  store<T>(out, max_);
  const size_t at = out.size();
  out.resize(at + sizeof(T) * retained());
  std::memcpy(out.data() + at, items_.data() + levels_[0], sizeof(T) * retained());
  return out;
}

template <typename T>
void KllSketch<T>::update(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return;
  }
  if (empty()) {
    min_ = max_ = v;
  } else {
    if (before(v, min_)) min_ = v;
    if (before(max_, v)) max_ = v;
  }
  if (levels_[0] == 0) compress_while_updating();
  ++n_;
  level0_sorted_ = false;
  items_[--levels_[0]] = v;
  view_.reset();
}

template <typename T>
void KllSketch<T>::add_empty_top_level() {
  const uint32_t delta = level_capacity(k_, num_levels() + 1, 0);
  items_.insert(items_.begin(), delta, T{});
  for (auto& l : levels_) l += delta;
  levels_.push_back(levels_.back());
}

template <typename T>
void KllSketch<T>::compress_while_updating() {
  int level = 0;
  while (levels_[level + 1] - levels_[level] < level_capacity(k_, num_levels(), level)) ++level;
  if (level == num_levels() - 1) add_empty_top_level();
  T* buf = items_.data();
  const uint32_t raw_beg = levels_[level];
  const uint32_t raw_end = levels_[level + 1];
  const uint32_t pop_above = levels_[level + 2] - raw_end;
  const uint32_t raw_pop = raw_end - raw_beg;
  const uint32_t odd = raw_pop & 1;
  const uint32_t adj_beg = raw_beg + odd;
  const uint32_t adj_pop = raw_pop - odd;
  const uint32_t half = adj_pop / 2;
  if (level == 0) sort_items(buf + adj_beg, buf + adj_beg + adj_pop);
  if (pop_above == 0) {
    halve_up(buf, adj_beg, adj_pop, random_bit());
  } else {
    halve_down(buf, adj_beg, adj_pop, random_bit());
    merge_sorted(buf + adj_beg, half, buf + raw_end, pop_above, buf + adj_beg + half);
  }
  levels_[level + 1] -= half;
  if (odd) {
    levels_[level] = levels_[level + 1] - 1;
    if (levels_[level] != raw_beg) buf[levels_[level]] = buf[raw_beg];
  } else {
    levels_[level] = levels_[level + 1];
  }
  // The levels below move up into the freed slots, leaving them to level 0.
  if (level > 0) {
    std::memmove(buf + levels_[0] + half, buf + levels_[0], sizeof(T) * (raw_beg - levels_[0]));
    for (int h = 0; h < level; ++h) levels_[h] += half;
  }
}

template <typename T>
void KllSketch<T>::merge(const KllSketch& other) {
  if (&other == this) {
    const KllSketch copy = other;
    merge(copy);
    return;
  }
  if (other.empty()) return;
  const bool was_empty = empty();
  const T my_min = min_, my_max = max_;
  const uint16_t my_min_k = min_k_;
  const int64_t final_n = n_ + other.n_;
  for (uint32_t i = other.levels_[0]; i < other.levels_[1]; ++i) update(other.items_[i]);
  if (other.num_levels() > 1) {
    // Every level above 0, the sum of both sketches' levels, goes through one compaction pass
    // from the bottom up, which compacts a level only while the total is over capacity.
    const int my_levels = num_levels(), their_levels = other.num_levels();
    int levels = std::max(my_levels, their_levels);
    auto pop = [](const KllSketch& s, int h) {
      return h < s.num_levels() ? s.levels_[h + 1] - s.levels_[h] : 0u;
    };
    std::vector<T> work(retained() + other.retained() - pop(other, 0));
    std::vector<uint32_t> in(kMaxLevels + 3, 0), out(kMaxLevels + 3, 0);
    in[1] = pop(*this, 0);
    std::copy_n(items_.begin() + levels_[0], in[1], work.begin());
    for (int h = 1; h < levels; ++h) {
      const uint32_t mine = pop(*this, h), theirs = pop(other, h);
      in[h + 1] = in[h] + mine + theirs;
      if (mine > 0 && theirs > 0)
        merge_sorted(items_.data() + levels_[h], mine, other.items_.data() + other.levels_[h],
                     theirs, work.data() + in[h]);
      else if (mine > 0)
        std::copy_n(items_.begin() + levels_[h], mine, work.begin() + in[h]);
      else if (theirs > 0)
        std::copy_n(other.items_.begin() + other.levels_[h], theirs, work.begin() + in[h]);
    }
    T* buf = work.data();
    uint32_t count = in[levels] - in[0];
    uint32_t target = total_capacity(k_, levels);
    for (int h = 0; h < levels; ++h) {
      if (h == levels - 1) in[h + 2] = in[h + 1];
      const uint32_t raw_beg = in[h], raw_lim = in[h + 1], raw_pop = raw_lim - raw_beg;
      if (count < target || raw_pop < level_capacity(k_, levels, h)) {
        std::copy(buf + raw_beg, buf + raw_lim, buf + out[h]);
        out[h + 1] = out[h] + raw_pop;
        continue;
      }
      const uint32_t pop_above = in[h + 2] - raw_lim;
      const uint32_t odd = raw_pop & 1;
      const uint32_t adj_beg = raw_beg + odd, adj_pop = raw_pop - odd, half = adj_pop / 2;
      if (odd) buf[out[h]] = buf[raw_beg];
      out[h + 1] = out[h] + odd;
      if (h == 0 && !level0_sorted_) sort_items(buf + adj_beg, buf + adj_beg + adj_pop);
      if (pop_above == 0) {
        halve_up(buf, adj_beg, adj_pop, random_bit());
      } else {
        halve_down(buf, adj_beg, adj_pop, random_bit());
        merge_sorted(buf + adj_beg, half, buf + raw_lim, pop_above, buf + adj_beg + half);
      }
      count -= half;
      in[h + 1] -= half;
      if (h == levels - 1) {
        ++levels;
        target += level_capacity(k_, levels, 0);
      }
    }
    std::vector<T> items(target);
    const uint32_t free = target - count;
    std::copy_n(work.begin() + out[0], count, items.begin() + free);
    levels_.assign(static_cast<size_t>(levels) + 1, 0);
    for (int h = 0; h <= levels; ++h) levels_[h] = out[h] - out[0] + free;
    items_ = std::move(items);
  }
  n_ = final_n;
  if (other.estimation_mode()) min_k_ = std::min(my_min_k, other.min_k_);
  if (was_empty) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = before(other.min_, my_min) ? other.min_ : my_min;
    max_ = before(my_max, other.max_) ? other.max_ : my_max;
  }
  view_.reset();
}

template <typename T>
const typename KllSketch<T>::SortedView& KllSketch<T>::view() const {
  if (view_) return *view_;
  SortedView v;
  std::vector<std::pair<T, int64_t>> weighted;
  for (int h = 0; h < num_levels(); ++h)
    for (uint32_t i = levels_[h]; i < levels_[h + 1]; ++i)
      weighted.emplace_back(items_[i], int64_t{1} << h);
  std::stable_sort(weighted.begin(), weighted.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  int64_t running = 0;
  for (auto& [item, weight] : weighted) {
    running += weight;
    v.items.push_back(item);
    v.cumulative.push_back(running);
  }
  // Compaction may have dropped the true extremes. The sorted view then gives each a weight of
  // one taken from its neighbour: the minimum in front with cumulative weight 1, the maximum at
  // the end with n, its predecessor lowered to n - 1.
  if (!v.items.empty()) {
    if (min_ < v.items.front()) {
      v.items.insert(v.items.begin(), min_);
      v.cumulative.insert(v.cumulative.begin(), 1);
    }
    if (max_ > v.items.back()) {
      v.cumulative.back() = n_ - 1;
      v.items.push_back(max_);
      v.cumulative.push_back(n_);
    }
  }
  view_ = std::move(v);
  return *view_;
}

template <typename T>
double KllSketch<T>::rank(T v) const {
  const SortedView& s = view();
  auto end = std::upper_bound(s.items.begin(), s.items.end(), v);
  if (end == s.items.begin()) return 0.0;
  return static_cast<double>(s.cumulative[static_cast<size_t>(end - s.items.begin() - 1)]) /
         static_cast<double>(n_);
}

template <typename T>
T KllSketch<T>::quantile(double rank) const {
  const SortedView& s = view();
  double natural = rank * static_cast<double>(n_);
  if (static_cast<double>(n_) <= kTailRounding)
    natural = std::floor(natural * kTailRounding + 0.5) / kTailRounding;
  const auto target = static_cast<int64_t>(std::ceil(natural));
  auto it = std::lower_bound(s.cumulative.begin(), s.cumulative.end(), target);
  if (it == s.cumulative.end()) return s.items.back();
  return s.items[static_cast<size_t>(it - s.cumulative.begin())];
}

template <typename T>
std::string KllSketch<T>::summary() const {
  const double eps = 2.296 / std::pow(static_cast<double>(min_k_), 0.9723);
  const double eps_pmf = 2.446 / std::pow(static_cast<double>(min_k_), 0.9433);
  const size_t width = sizeof(T);
  const size_t updatable =
      kFullPreamble + 4 * (static_cast<size_t>(num_levels()) + 1) + width * (2 + capacity());
  const size_t compact =
      empty()   ? kShortPreamble
      : n_ == 1 ? kShortPreamble + width
                : kFullPreamble + 4 * static_cast<size_t>(num_levels()) + width * (2 + retained());
  auto line = [](const char* label, const std::string& value) {
    return std::string("   ") + label + ": " + value + "\n";
  };
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  std::string s = std::string("\n### Kll") + kSketchName<T> + " Summary:\n";
  s += line("K                      ", std::to_string(k_));
  s += line("Dynamic min K          ", std::to_string(min_k_));
  s += line("M                      ", std::to_string(kM));
  s += line("N                      ", std::to_string(n_));
  s += line("Epsilon                ", percent3(eps * 100) + "%");
  s += line("Epsilon PMF            ", percent3(eps_pmf * 100) + "%");
  s += line("Empty                  ", flag(empty()));
  s += line("Estimation Mode        ", flag(estimation_mode()));
  s += line("Levels                 ", std::to_string(num_levels()));
  s += line("Level 0 Sorted         ", flag(level0_sorted_));
  s += line("Capacity Items         ", std::to_string(capacity()));
  s += line("Retained Items         ", std::to_string(retained()));
  s += line("Free Space             ", std::to_string(levels_[0]));
  s += line("ReadOnly               ", "false");
  s += line("Updatable Storage Bytes", std::to_string(updatable));
  s += line("Compact Storage Bytes  ", std::to_string(compact));
  s += line("Min Item               ", empty() ? "NaN" : item_text(min_));
  s += line("Max Item               ", empty() ? "NaN" : item_text(max_));
  return s + "### End sketch summary\n";
}

template class KllSketch<int64_t>;
template class KllSketch<float>;
template class KllSketch<double>;

}  // namespace ember::functions::kll
