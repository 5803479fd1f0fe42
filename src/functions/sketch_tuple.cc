#include "functions/sketch_tuple.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

namespace ember::functions::sketch {
namespace {

constexpr uint8_t kTupleSerialVersion = 3;
constexpr uint8_t kCompactSketchType = 1;
constexpr uint8_t kFlagReadOnly = 1 << 1;
constexpr uint8_t kFlagEmpty = 1 << 2;
constexpr uint8_t kFlagCompact = 1 << 3;
constexpr int kLgResizeFactor = 3;
constexpr int kMinLgCapacity = 5;

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_le(std::string_view b, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[pos + static_cast<size_t>(i)]);
  return v;
}

template <typename V>
constexpr int value_bytes() {
  return sizeof(V);
}

template <typename V>
void put_value(std::string& out, V v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(V));
  put_le(out, bits, sizeof(V));
}

template <typename V>
V get_value(std::string_view b, size_t pos) {
  uint64_t bits = get_le(b, pos, sizeof(V));
  V v;
  std::memcpy(&v, &bits, sizeof(V));
  return v;
}

/// The first table size: the nominal target 2k reached from it by whole resize steps.
int starting_lg_capacity(int lg_k) {
  const int target = lg_k + 1;
  return target <= kMinLgCapacity ? kMinLgCapacity : (target - kMinLgCapacity) % kLgResizeFactor + kMinLgCapacity;
}

}  // namespace

bool parse_summary_mode(std::string_view name, SummaryMode& mode) {
  std::string l(name);
  for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "sum") mode = SummaryMode::kSum;
  else if (l == "min") mode = SummaryMode::kMin;
  else if (l == "max") mode = SummaryMode::kMax;
  else if (l == "alwaysone") mode = SummaryMode::kAlwaysOne;
  else return false;
  return true;
}

template <typename V>
Summary<V> new_summary(SummaryMode mode) {
  Summary<V> s;
  s.mode = mode;
  switch (mode) {
    case SummaryMode::kSum: s.value = 0; break;
    case SummaryMode::kMin:
      s.value = std::numeric_limits<V>::has_infinity ? std::numeric_limits<V>::infinity() : std::numeric_limits<V>::max();
      break;
    case SummaryMode::kMax:
      s.value = std::numeric_limits<V>::has_infinity ? -std::numeric_limits<V>::infinity()
                                                     : std::numeric_limits<V>::lowest();
      break;
    case SummaryMode::kAlwaysOne: s.value = 1; break;
  }
  return s;
}

template <typename V>
void update_summary(Summary<V>& s, V x) {
  switch (s.mode) {
    case SummaryMode::kSum:
      if constexpr (std::is_integral_v<V>)
        s.value = static_cast<V>(static_cast<uint32_t>(s.value) + static_cast<uint32_t>(x));
      else
        s.value += x;
      break;
    // Java's Math.min / Math.max: NaN wins, and -0.0 is below 0.0.
    case SummaryMode::kMin:
      if constexpr (std::is_integral_v<V>) {
        s.value = std::min(s.value, x);
      } else {
        if (x != x || s.value != s.value) s.value = std::numeric_limits<V>::quiet_NaN();
        else if (x < s.value || (x == 0 && s.value == 0 && std::signbit(x))) s.value = x;
      }
      break;
    case SummaryMode::kMax:
      if constexpr (std::is_integral_v<V>) {
        s.value = std::max(s.value, x);
      } else {
        if (x != x || s.value != s.value) s.value = std::numeric_limits<V>::quiet_NaN();
        else if (x > s.value || (x == 0 && s.value == 0 && !std::signbit(x))) s.value = x;
      }
      break;
    case SummaryMode::kAlwaysOne: s.value = 1; break;
  }
}

template <typename V>
double CompactTuple<V>::estimate() const {
  if (!estimation_mode()) return static_cast<double>(hashes.size());
  return static_cast<double>(hashes.size()) / theta_fraction();
}

template <typename V>
std::string CompactTuple<V>::serialize() const {
  const size_t n = hashes.size();
  const bool single = n == 1 && !estimation_mode();
  const uint8_t pre_longs = empty || single ? 1 : estimation_mode() ? 3 : 2;
  std::string out;
  out.reserve(24 + n * (8 + value_bytes<V>() + 1));
  out.push_back(static_cast<char>(pre_longs));
  out.push_back(static_cast<char>(kTupleSerialVersion));
  out.push_back(static_cast<char>(kFamilyTuple));
  out.push_back(static_cast<char>(kCompactSketchType));
  out.push_back('\0');
  out.push_back(static_cast<char>(kFlagCompact | kFlagReadOnly | (empty ? kFlagEmpty : 0)));
  put_le(out, seed_hash(), 2);
  if (empty) return out;
  if (!single) {
    put_le(out, n, 4);
    put_le(out, 0, 4);
    if (estimation_mode()) put_le(out, theta, 8);
  }
  for (size_t i = 0; i < n; ++i) {
    put_le(out, hashes[i], 8);
    put_value<V>(out, summaries[i].value);
    out.push_back(static_cast<char>(summaries[i].mode));
  }
  return out;
}

template <typename V>
ReadStatus read_tuple(std::string_view b, CompactTuple<V>& out, uint8_t& family) {
  out = CompactTuple<V>();
  if (b.size() < 8) return ReadStatus::kInvalid;
  const uint8_t pre_longs = static_cast<uint8_t>(b[0]);
  family = static_cast<uint8_t>(b[2]);
  if (family != kFamilyTuple) return family >= 1 && family <= 20 ? ReadStatus::kWrongFamily : ReadStatus::kInvalid;
  if (static_cast<uint8_t>(b[1]) != kTupleSerialVersion || static_cast<uint8_t>(b[3]) != kCompactSketchType)
    return ReadStatus::kInvalid;
  const uint8_t flags = static_cast<uint8_t>(b[5]);
  if (flags & kFlagEmpty) return ReadStatus::kOk;
  if (get_le(b, 6, 2) != seed_hash()) return ReadStatus::kInvalid;
  size_t pos = 8, count = 1;
  if (pre_longs == 2 || pre_longs == 3) {
    if (b.size() < 8u * pre_longs) return ReadStatus::kInvalid;
    count = get_le(b, 8, 4);
    if (pre_longs == 3) out.theta = get_le(b, 16, 8);
    pos = 8u * pre_longs;
  } else if (pre_longs != 1) {
    return ReadStatus::kInvalid;
  }
  if (out.theta == 0 || out.theta > kMaxTheta) return ReadStatus::kInvalid;
  const size_t entry_bytes = 8 + value_bytes<V>() + 1;
  if (count > (b.size() - pos) / entry_bytes) return ReadStatus::kInvalid;
  out.empty = false;
  out.hashes.reserve(count);
  out.summaries.reserve(count);
  for (size_t i = 0; i < count; ++i, pos += entry_bytes) {
    const uint64_t h = get_le(b, pos, 8);
    const auto mode = static_cast<uint8_t>(b[pos + 8 + value_bytes<V>()]);
    if (h == 0 || h >= out.theta || mode > 3) return ReadStatus::kInvalid;
    out.hashes.push_back(h);
    out.summaries.push_back({get_value<V>(b, pos + 8), static_cast<SummaryMode>(mode)});
  }
  return ReadStatus::kOk;
}

// The table's arrays are allocated at the first insertion: a group-by holds one table per
// group and partial state, most of them small.
template <typename V>
TupleTable<V>::TupleTable(int lg_k) : lg_k_(lg_k), lg_cur_(starting_lg_capacity(lg_k)) {}

template <typename V>
uint64_t TupleTable<V>::threshold() const {
  const double cap = static_cast<double>(uint64_t{1} << lg_cur_);
  return static_cast<uint64_t>(cap * (lg_cur_ > lg_k_ ? 15.0 / 16.0 : 0.5));
}

template <typename V>
size_t TupleTable<V>::find_or_insert(uint64_t hash, bool& inserted) {
  if (hashes_.empty()) {
    hashes_.assign(size_t{1} << lg_cur_, 0);
    summaries_.resize(hashes_.size());
  }
  const uint64_t mask = (uint64_t{1} << lg_cur_) - 1;
  const uint64_t stride = 2 * ((hash >> lg_cur_) & 127) + 1;
  uint64_t probe = hash & mask;
  for (;;) {
    if (hashes_[probe] == 0) {
      hashes_[probe] = hash;
      ++count_;
      inserted = true;
      return probe;
    }
    if (hashes_[probe] == hash) {
      inserted = false;
      return probe;
    }
    probe = (probe + stride) & mask;
  }
}

template <typename V>
void TupleTable<V>::rebuild(int lg_capacity) {
  std::vector<uint64_t> old_hashes = std::move(hashes_);
  std::vector<Summary<V>> old_summaries = std::move(summaries_);
  lg_cur_ = lg_capacity;
  hashes_.assign(size_t{1} << lg_cur_, 0);
  summaries_.assign(hashes_.size(), Summary<V>());
  count_ = 0;
  for (size_t i = 0; i < old_hashes.size(); ++i) {
    if (old_hashes[i] == 0 || old_hashes[i] >= theta_) continue;
    bool inserted;
    summaries_[find_or_insert(old_hashes[i], inserted)] = old_summaries[i];
  }
}

template <typename V>
void TupleTable<V>::rebuild_if_needed() {
  if (count_ <= threshold()) return;
  if (lg_cur_ > lg_k_) {
    // Full: theta becomes the (k+1)-th smallest hash and the table keeps the k below it.
    std::vector<uint64_t> live;
    live.reserve(count_);
    for (uint64_t h : hashes_)
      if (h) live.push_back(h);
    theta_ = select_rank(live, size_t{1} << lg_k_);
    rebuild(lg_cur_);
  } else {
    rebuild(std::min(lg_cur_ + kLgResizeFactor, lg_k_ + 1));
  }
}

template <typename V>
void TupleTable<V>::update(uint64_t hash, V value, SummaryMode mode) {
  if (hash == 0) return;
  empty_ = false;
  if (hash >= theta_) return;
  bool inserted;
  const size_t i = find_or_insert(hash, inserted);
  if (inserted) summaries_[i] = new_summary<V>(mode);
  update_summary(summaries_[i], value);
  rebuild_if_needed();
}

template <typename V>
void TupleTable<V>::merge_entry(uint64_t hash, const Summary<V>& s, SummaryMode mode) {
  if (hash >= theta_) return;
  bool inserted;
  const size_t i = find_or_insert(hash, inserted);
  if (inserted) {
    summaries_[i] = s;
  } else {
    Summary<V> r = new_summary<V>(mode);
    update_summary(r, summaries_[i].value);
    update_summary(r, s.value);
    summaries_[i] = r;
  }
  rebuild_if_needed();
}

template <typename V>
void TupleTable<V>::merge(const CompactTuple<V>& s, SummaryMode mode) {
  if (s.empty) return;
  empty_ = false;
  input_theta_ = std::min(input_theta_, s.theta);
  for (size_t i = 0; i < s.hashes.size(); ++i) merge_entry(s.hashes[i], s.summaries[i], mode);
}

template <typename V>
void TupleTable<V>::merge_theta(const CompactTheta& s, SummaryMode mode) {
  if (s.empty) return;
  empty_ = false;
  input_theta_ = std::min(input_theta_, s.theta);
  const Summary<V> fresh = new_summary<V>(mode);
  for (uint64_t h : s.entries) merge_entry(h, fresh, mode);
}

template <typename V>
void TupleTable<V>::merge(const TupleTable& o, SummaryMode mode) {
  if (o.empty_) return;
  empty_ = false;
  input_theta_ = std::min({input_theta_, o.input_theta_, o.theta_});
  for (size_t i = 0; i < o.hashes_.size(); ++i)
    if (o.hashes_[i]) merge_entry(o.hashes_[i], o.summaries_[i], mode);
}

template <typename V>
CompactTuple<V> TupleTable<V>::result() const {
  CompactTuple<V> r;
  if (empty_) return r;
  r.empty = false;
  r.theta = std::min(theta_, input_theta_);
  std::vector<uint64_t> live;
  for (uint64_t h : hashes_)
    if (h && h < r.theta) live.push_back(h);
  const size_t k = size_t{1} << lg_k_;
  if (live.size() > k) r.theta = select_rank(live, k);
  for (size_t i = 0; i < hashes_.size(); ++i) {
    if (hashes_[i] == 0 || hashes_[i] >= r.theta) continue;
    r.hashes.push_back(hashes_[i]);
    r.summaries.push_back(summaries_[i]);
  }
  return r;
}

template <typename V>
void TupleIntersection<V>::update(const CompactTuple<V>& s) {
  const bool first = !started_;
  started_ = true;
  if ((!first && cur_.empty) || s.empty) {
    cur_ = CompactTuple<V>();
    return;
  }
  const uint64_t theta = std::min(first ? kMaxTheta : cur_.theta, s.theta);
  CompactTuple<V> next;
  next.empty = false;
  next.theta = theta;
  if (first) {
    for (size_t i = 0; i < s.hashes.size(); ++i) {
      if (s.hashes[i] >= theta) continue;
      next.hashes.push_back(s.hashes[i]);
      next.summaries.push_back(s.summaries[i]);
    }
  } else {
    // Keys of the incoming sketch, in its order, that the current result holds.
    std::vector<std::pair<uint64_t, size_t>> index;
    index.reserve(cur_.hashes.size());
    for (size_t i = 0; i < cur_.hashes.size(); ++i) index.emplace_back(cur_.hashes[i], i);
    std::sort(index.begin(), index.end());
    for (size_t i = 0; i < s.hashes.size(); ++i) {
      if (s.hashes[i] >= theta) continue;
      auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(s.hashes[i], size_t{0}));
      if (it == index.end() || it->first != s.hashes[i]) continue;
      Summary<V> r = new_summary<V>(mode_);
      update_summary(r, cur_.summaries[it->second].value);
      update_summary(r, s.summaries[i].value);
      next.hashes.push_back(s.hashes[i]);
      next.summaries.push_back(r);
    }
  }
  cur_ = std::move(next);
}

template <typename V>
void TupleIntersection<V>::update_theta(const CompactTheta& s) {
  CompactTuple<V> t;
  t.empty = s.empty;
  t.theta = s.theta;
  t.hashes = s.entries;
  t.summaries.assign(s.entries.size(), new_summary<V>(mode_));
  update(t);
}

template <typename V>
CompactTuple<V> TupleIntersection<V>::result() const {
  return started_ ? cur_ : CompactTuple<V>();
}

template <typename V>
CompactTuple<V> tuple_a_not_b(const CompactTuple<V>& a, bool b_empty, uint64_t b_theta,
                              const std::vector<uint64_t>& b_hashes) {
  if (a.empty) return CompactTuple<V>();
  if (b_empty) return a;
  CompactTuple<V> r;
  r.empty = false;
  r.theta = std::min(a.theta, b_theta);
  for (size_t i = 0; i < a.hashes.size(); ++i) {
    if (a.hashes[i] >= r.theta || std::binary_search(b_hashes.begin(), b_hashes.end(), a.hashes[i])) continue;
    r.hashes.push_back(a.hashes[i]);
    r.summaries.push_back(a.summaries[i]);
  }
  if (r.hashes.empty() && !r.estimation_mode()) return CompactTuple<V>();
  return r;
}

#define EMBER_TUPLE_INSTANTIATE(V)                                                                     \
  template Summary<V> new_summary<V>(SummaryMode);                                                    \
  template void update_summary<V>(Summary<V>&, V);                                                    \
  template struct CompactTuple<V>;                                                                    \
  template ReadStatus read_tuple<V>(std::string_view, CompactTuple<V>&, uint8_t&);                    \
  template class TupleTable<V>;                                                                       \
  template class TupleIntersection<V>;                                                                \
  template CompactTuple<V> tuple_a_not_b<V>(const CompactTuple<V>&, bool, uint64_t, const std::vector<uint64_t>&);

EMBER_TUPLE_INSTANTIATE(double)
EMBER_TUPLE_INSTANTIATE(int32_t)

}  // namespace ember::functions::sketch
