#include "functions/sketch_hll.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/murmur3_128.h"

namespace ember::functions::sketch {
namespace {

#include "functions/sketch_hll_data.inc"

constexpr uint64_t kSeed = 9001;
constexpr int kAddressBits = 26;
constexpr uint32_t kAddressMask = (1u << kAddressBits) - 1;
constexpr int kListLgArr = 3;  // a LIST holds 8 coupons
constexpr int kSetLgArr = 5;   // a SET starts with 32 entries
constexpr int kFamily = 7;
constexpr int kSerialVersion = 1;
// Preamble sizes in 32-bit words, by mode.
constexpr int kListPreInts = 2;
constexpr int kSetPreInts = 3;
constexpr int kHllPreInts = 10;
constexpr size_t kHllHeaderBytes = 40;
// Flag bits of byte 5.
constexpr uint8_t kFlagEmpty = 1 << 2;
constexpr uint8_t kFlagCompact = 1 << 3;
constexpr uint8_t kFlagOutOfOrder = 1 << 4;
// Target register layouts (bits 2-3 of byte 7).
constexpr int kHll4 = 0;
constexpr int kHll6 = 1;
constexpr int kHll8 = 2;

uint32_t coupon_of(const Hash128& h) {
  const auto address = static_cast<uint32_t>(h.h1 & kAddressMask);
  const int lz = std::countl_zero(h.h2);
  const auto value = static_cast<uint32_t>(std::min(lz, 62) + 1);
  return (value << kAddressBits) | address;
}

double inv_pow2(int e) { return std::ldexp(1.0, -e); }

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_le(std::string_view b, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[pos + static_cast<size_t>(i)]);
  return v;
}

void put_double(std::string& out, double d) { put_le(out, std::bit_cast<uint64_t>(d), 8); }
double get_double(std::string_view b, size_t pos) { return std::bit_cast<double>(get_le(b, pos, 8)); }

/// Lagrange interpolation through four points, in the library's order of operations (the
/// images carry estimates computed this way, so the rounding must agree).
double cubic(double x0, double y0, double x1, double y1, double x2, double y2, double x3, double y3, double x) {
  const double l0n = (x - x1) * (x - x2) * (x - x3);
  const double l1n = (x - x0) * (x - x2) * (x - x3);
  const double l2n = (x - x0) * (x - x1) * (x - x3);
  const double l3n = (x - x0) * (x - x1) * (x - x2);
  const double l0d = (x0 - x1) * (x0 - x2) * (x0 - x3);
  const double l1d = (x1 - x0) * (x1 - x2) * (x1 - x3);
  const double l2d = (x2 - x0) * (x2 - x1) * (x2 - x3);
  const double l3d = (x3 - x0) * (x3 - x1) * (x3 - x2);
  return y0 * l0n / l0d + y1 * l1n / l1d + y2 * l2n / l2d + y3 * l3n / l3d;
}

/// The index i with xs[i] <= x < xs[i + 1] (x within the table).
int straddle(const double* xs, int n, double x) {
  int lo = 0, hi = n - 1;
  while (lo + 1 < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (xs[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// The first of the four interpolation points for x in a table of n points.
int window_start(const double* xs, int n, double x) {
  const int i = straddle(xs, n, x);
  if (i == 0) return 0;
  if (i == n - 2) return i - 2;
  return i - 1;
}

double interpolate_xy(const double* xs, const double* ys, int n, double x) {
  if (x == xs[n - 1]) return ys[n - 1];
  const int s = window_start(xs, n, x);
  return cubic(xs[s], ys[s], xs[s + 1], ys[s + 1], xs[s + 2], ys[s + 2], xs[s + 3], ys[s + 3], x);
}

double interpolate_stride(const double* xs, double stride, int n, double x) {
  if (x == xs[n - 1]) return stride * (n - 1);
  const int s = window_start(xs, n, x);
  return cubic(xs[s], stride * s, xs[s + 1], stride * (s + 1), xs[s + 2], stride * (s + 2), xs[s + 3],
               stride * (s + 3), x);
}

double harmonic(int64_t n) {
  if (n < 25) return kHarmonic[n];
  const double x = static_cast<double>(n);
  const double inv_sq = 1.0 / (x * x);
  double sum = std::log(x) + 0.5772156649015329 + 1.0 / (2.0 * x);
  double pow = inv_sq;
  sum -= pow * 0.08333333333333333;
  pow *= inv_sq;
  sum += pow * 0.008333333333333333;
  pow *= inv_sq;
  sum -= pow * 0.003968253968253968;
  pow *= inv_sq;
  sum += pow * 0.004166666666666667;
  return sum;
}

/// Linear counting over the registers: `unhit` slots still at zero out of k.
double bitmap_estimate(int lg_k, int cur_min, int num_at_cur_min) {
  const int k = 1 << lg_k;
  const int unhit = cur_min == 0 ? num_at_cur_min : 0;
  if (unhit == 0) return k * std::log(k / 0.5);
  const int hit = k - unhit;
  return k * (harmonic(k) - harmonic(k - hit));
}

double raw_estimate(int lg_k, double kxq) {
  const int k = 1 << lg_k;
  double alpha;
  if (lg_k == 4)
    alpha = 0.673;
  else if (lg_k == 5)
    alpha = 0.697;
  else if (lg_k == 6)
    alpha = 0.709;
  else
    alpha = 0.7213 / (1.0 + 1.079 / k);
  return alpha * k * k / kxq;
}

}  // namespace

uint32_t hll_coupon_long(int64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
  return coupon_of(murmur3_x64_128(b, 8, kSeed));
}

uint32_t hll_coupon_bytes(std::string_view b) {
  if (b.empty()) return 0;
  return coupon_of(murmur3_x64_128(b.data(), b.size(), kSeed));
}

HllSketch::HllSketch(int lg_k) : lg_k_(lg_k), arr_(1u << kListLgArr, 0) {}

void HllSketch::update(uint32_t coupon) {
  if (coupon == 0) return;
  switch (mode_) {
    case HllMode::kList: list_update(coupon); break;
    case HllMode::kSet: set_update(coupon); break;
    case HllMode::kHll: hll_slot_update(coupon & ((1u << lg_k_) - 1), static_cast<int>(coupon >> kAddressBits)); break;
  }
}

void HllSketch::list_update(uint32_t coupon) {
  const size_t len = arr_.size();
  for (size_t i = 0; i < len; ++i) {
    if (arr_[i] == coupon) return;
    if (arr_[i] != 0) continue;
    arr_[i] = coupon;
    if (static_cast<size_t>(++count_) < len) return;
    // Full: small sketches go straight to registers, others to a hash set.
    if (lg_k_ < 8) {
      promote_to_hll();
      return;
    }
    std::vector<uint32_t> list = std::move(arr_);
    const int n = count_;
    mode_ = HllMode::kSet;
    lg_arr_ = kSetLgArr;
    count_ = 0;
    arr_.assign(1u << kSetLgArr, 0);
    for (int k = 0; k < n; ++k) set_update(list[static_cast<size_t>(k)]);
    ooo_ = true;
    return;
  }
}

bool HllSketch::set_insert(uint32_t coupon) {
  const uint32_t mask = (1u << lg_arr_) - 1;
  uint32_t probe = coupon & mask;
  const uint32_t start = probe;
  do {
    if (arr_[probe] == 0) {
      arr_[probe] = coupon;
      return true;
    }
    if (arr_[probe] == coupon) return false;
    const uint32_t stride = ((coupon & kAddressMask) >> lg_arr_) | 1;
    probe = (probe + stride) & mask;
  } while (probe != start);
  return false;  // unreachable: the set is never full
}

void HllSketch::set_update(uint32_t coupon) {
  if (!set_insert(coupon)) return;
  ++count_;
  if (4 * count_ <= 3 * (1 << lg_arr_)) return;
  if (lg_arr_ == lg_k_ - 3) {
    promote_to_hll();
    return;
  }
  grow_set(lg_arr_ + 1);
}

void HllSketch::grow_set(int lg_arr) {
  std::vector<uint32_t> old = std::move(arr_);
  lg_arr_ = lg_arr;
  arr_.assign(1u << lg_arr, 0);
  for (uint32_t c : old)
    if (c != 0) set_insert(c);
}

void HllSketch::update_from(const HllSketch& src) {
  for (uint32_t c : src.arr_)
    if (c != 0) update(c);
}

std::vector<uint32_t> HllSketch::coupons() const {
  std::vector<uint32_t> out;
  for (uint32_t c : arr_)
    if (c != 0) out.push_back(c);
  return out;
}

void HllSketch::promote_to_hll() {
  const double est = coupon_estimate();
  const std::vector<uint32_t> cs = coupons();
  mode_ = HllMode::kHll;
  arr_.clear();
  arr_.shrink_to_fit();
  count_ = 0;
  lg_arr_ = 0;
  regs_.assign(1u << lg_k_, 0);
  kxq0_ = static_cast<double>(1 << lg_k_);
  kxq1_ = 0;
  hip_ = 0;
  cur_min_ = 0;
  num_at_cur_min_ = 1 << lg_k_;
  rebuild_ = false;
  for (uint32_t c : cs) update(c);
  hip_ = est;
  ooo_ = false;
}

void HllSketch::hll_slot_update(uint32_t slot, int value) {
  const int old = regs_[slot];
  if (value <= old) return;
  regs_[slot] = static_cast<uint8_t>(value);
  const double k = static_cast<double>(1 << lg_k_);
  double q0 = kxq0_, q1 = kxq1_;
  hip_ += k / (q0 + q1);
  if (old < 32)
    kxq0_ = q0 -= inv_pow2(old);
  else
    kxq1_ = q1 -= inv_pow2(old);
  if (value < 32)
    kxq0_ = q0 + inv_pow2(value);
  else
    kxq1_ = q1 + inv_pow2(value);
  if (old == 0) --num_at_cur_min_;
}

void HllSketch::set_out_of_order(bool ooo) {
  ooo_ = ooo;
  if (ooo && mode_ == HllMode::kHll) hip_ = 0;  // the HIP estimate no longer holds
}

void HllSketch::rebuild() {
  if (mode_ != HllMode::kHll || !rebuild_) return;
  int cur_min = 64, at_min = 0;
  double q0 = static_cast<double>(1 << lg_k_), q1 = 0;
  for (uint8_t r : regs_) {
    const int v = r;
    if (v > 0) {
      if (v < 32)
        q0 += inv_pow2(v) - 1.0;
      else
        q1 += inv_pow2(v) - 1.0;
    }
    if (v > cur_min) continue;
    if (v < cur_min) {
      cur_min = v;
      at_min = 1;
    } else {
      ++at_min;
    }
  }
  kxq0_ = q0;
  kxq1_ = q1;
  cur_min_ = cur_min;
  num_at_cur_min_ = at_min;
  rebuild_ = false;
}

double HllSketch::coupon_estimate() const {
  const auto n = static_cast<double>(count_);
  const double est = interpolate_xy(kCouponCounts, kCouponCardinalities,
                                    static_cast<int>(std::size(kCouponCounts)), n);
  return std::max(est, n);
}

double HllSketch::composite_estimate() const {
  HllSketch settled_copy;
  const HllSketch* s = this;
  if (rebuild_) {
    settled_copy = *this;
    settled_copy.rebuild();
    s = &settled_copy;
  }
  const int idx = lg_k_ - kHllMinLgK;
  const double raw = raw_estimate(lg_k_, s->kxq0_ + s->kxq1_);
  const double* xs = kCompositeX[idx];
  const int n = kCompositeXLength[idx];
  const double stride = kCompositeYStrides[idx];
  if (raw < xs[0]) return 0;
  if (raw > xs[n - 1]) return raw * (stride * (n - 1) / xs[n - 1]);
  const double adjusted = interpolate_stride(xs, stride, n, raw);
  if (adjusted > (3 << lg_k_)) return adjusted;
  const double linear = bitmap_estimate(lg_k_, s->cur_min_, s->num_at_cur_min_);
  const double average = (adjusted + linear) / 2.0;
  double crossover = 0.64;
  if (lg_k_ == 4)
    crossover = 0.718;
  else if (lg_k_ == 5)
    crossover = 0.672;
  return average > crossover * (1 << lg_k_) ? adjusted : linear;
}

double HllSketch::estimate() const {
  if (mode_ != HllMode::kHll) return coupon_estimate();
  return ooo_ ? composite_estimate() : hip_;
}

std::string HllSketch::serialize() const {
  std::string out;
  const uint8_t mode_byte = static_cast<uint8_t>(static_cast<int>(mode_) | (kHll8 << 2));
  if (mode_ == HllMode::kHll) {
    // Images carry settled bookkeeping; settle a copy when registers were merged.
    HllSketch settled_copy;
    const HllSketch* s = this;
    if (rebuild_) {
      settled_copy = *this;
      settled_copy.rebuild();
      s = &settled_copy;
    }
    out.reserve(kHllHeaderBytes + regs_.size());
    put_le(out, kHllPreInts, 1);
    put_le(out, kSerialVersion, 1);
    put_le(out, kFamily, 1);
    put_le(out, static_cast<uint64_t>(lg_k_), 1);
    put_le(out, 0, 1);
    put_le(out, ooo_ ? kFlagOutOfOrder : 0, 1);
    put_le(out, static_cast<uint64_t>(s->cur_min_), 1);
    put_le(out, mode_byte, 1);
    put_double(out, s->hip_);
    put_double(out, s->kxq0_);
    put_double(out, s->kxq1_);
    put_le(out, static_cast<uint32_t>(s->num_at_cur_min_), 4);
    put_le(out, 0, 4);  // no auxiliary exceptions in the 8-bit layout
    out.append(reinterpret_cast<const char*>(regs_.data()), regs_.size());
    return out;
  }
  const bool list = mode_ == HllMode::kList;
  put_le(out, list ? kListPreInts : kSetPreInts, 1);
  put_le(out, kSerialVersion, 1);
  put_le(out, kFamily, 1);
  put_le(out, static_cast<uint64_t>(lg_k_), 1);
  put_le(out, static_cast<uint64_t>(lg_arr_), 1);
  put_le(out, empty() ? kFlagEmpty : 0, 1);
  put_le(out, list ? static_cast<uint64_t>(count_) : 0, 1);
  put_le(out, mode_byte, 1);
  if (!list) put_le(out, static_cast<uint32_t>(count_), 4);
  for (uint32_t c : arr_) put_le(out, c, 4);
  return out;
}

bool HllSketch::deserialize(std::string_view b, HllSketch& out) {
  if (b.size() < 8) return false;
  const int pre_ints = static_cast<uint8_t>(b[0]);
  const int ser_ver = static_cast<uint8_t>(b[1]);
  const int family = static_cast<uint8_t>(b[2]);
  const int lg_k = static_cast<uint8_t>(b[3]);
  const int lg_arr = static_cast<uint8_t>(b[4]);
  const uint8_t flags = static_cast<uint8_t>(b[5]);
  const int mode = static_cast<uint8_t>(b[7]) & 3;
  const int layout = (static_cast<uint8_t>(b[7]) >> 2) & 3;
  if (ser_ver != kSerialVersion || family != kFamily || lg_k < kHllMinLgK || lg_k > kHllMaxLgK || mode > 2 ||
      layout > 2)
    return false;
  const bool compact = (flags & kFlagCompact) != 0;
  HllSketch s(lg_k);
  if (mode != static_cast<int>(HllMode::kHll)) {
    const bool list = mode == static_cast<int>(HllMode::kList);
    if (pre_ints != (list ? kListPreInts : kSetPreInts)) return false;
    const size_t header = list ? 8 : 12;
    if (b.size() < header) return false;
    const int count = list ? static_cast<uint8_t>(b[6]) : static_cast<int>(get_le(b, 8, 4));
    if (flags & kFlagEmpty) {
      out = s;
      return true;
    }
    if (list) {
      // The first `count` entries of the list, as the header says.
      if (count > (1 << kListLgArr) || b.size() < header + 4 * static_cast<size_t>(count)) return false;
      for (int i = 0; i < count; ++i) s.arr_[static_cast<size_t>(i)] = static_cast<uint32_t>(get_le(b, header + 4 * static_cast<size_t>(i), 4));
      s.count_ = count;
      out = std::move(s);
      return true;
    }
    if (compact) {
      // Only the coupons: rebuild the set.
      if (b.size() < header + 4 * static_cast<size_t>(count)) return false;
      for (int i = 0; i < count; ++i) s.update(static_cast<uint32_t>(get_le(b, header + 4 * static_cast<size_t>(i), 4)));
      out = std::move(s);
      return true;
    }
    if (lg_arr < kSetLgArr || lg_arr > kHllMaxLgK - 3) return false;
    const size_t len = size_t{1} << lg_arr;
    if (b.size() < header + 4 * len || count < 0 || static_cast<size_t>(count) > len) return false;
    s.mode_ = HllMode::kSet;
    s.lg_arr_ = lg_arr;
    s.arr_.assign(len, 0);
    for (size_t i = 0; i < len; ++i) s.arr_[i] = static_cast<uint32_t>(get_le(b, header + 4 * i, 4));
    s.count_ = count;
    s.ooo_ = (flags & kFlagOutOfOrder) != 0;
    out = std::move(s);
    return true;
  }
  if (pre_ints != kHllPreInts || b.size() < kHllHeaderBytes) return false;
  const size_t k = size_t{1} << lg_k;
  s.mode_ = HllMode::kHll;
  s.arr_.clear();
  s.lg_arr_ = 0;
  s.ooo_ = (flags & kFlagOutOfOrder) != 0;
  s.cur_min_ = static_cast<uint8_t>(b[6]);
  s.hip_ = get_double(b, 8);
  s.kxq0_ = get_double(b, 16);
  s.kxq1_ = get_double(b, 24);
  s.num_at_cur_min_ = static_cast<int>(get_le(b, 32, 4));
  const auto aux_count = static_cast<size_t>(get_le(b, 36, 4));
  s.regs_.assign(k, 0);
  const size_t base = kHllHeaderBytes;
  if (layout == kHll8) {
    if (b.size() < base + k) return false;
    std::memcpy(s.regs_.data(), b.data() + base, k);
  } else if (layout == kHll6) {
    const size_t bytes = (k * 3 >> 2) + 1;
    if (b.size() < base + bytes) return false;
    for (size_t i = 0; i < k; ++i) {
      const size_t bit = i * 6;
      const size_t at = base + (bit >> 3);
      uint32_t two = static_cast<uint8_t>(b[at]);
      if (at + 1 < base + bytes) two |= static_cast<uint32_t>(static_cast<uint8_t>(b[at + 1])) << 8;
      s.regs_[i] = static_cast<uint8_t>((two >> (bit & 7)) & 63);
    }
  } else {
    // Four bits a slot, relative to cur_min; the value 15 defers to the exception list that
    // follows (coupons: value << 26 | slot).
    const size_t bytes = k / 2;
    if (b.size() < base + bytes) return false;
    for (size_t i = 0; i < k; ++i) {
      uint8_t byte = static_cast<uint8_t>(b[base + (i >> 1)]);
      const int nib = (i & 1) ? (byte >> 4) : (byte & 15);
      s.regs_[i] = static_cast<uint8_t>(nib == 15 ? 0 : s.cur_min_ + nib);
    }
    const size_t aux_base = base + bytes;
    const size_t aux_len = compact ? aux_count : (lg_arr > 0 ? size_t{1} << lg_arr : 0);
    if (aux_len > (size_t{1} << 26) || b.size() < aux_base + 4 * aux_len) return false;
    size_t seen = 0;
    for (size_t i = 0; i < aux_len; ++i) {
      const auto pair = static_cast<uint32_t>(get_le(b, aux_base + 4 * i, 4));
      if (pair == 0) continue;
      const uint32_t slot = pair & static_cast<uint32_t>(k - 1);
      s.regs_[slot] = static_cast<uint8_t>(pair >> kAddressBits);
      ++seen;
    }
    if (seen != aux_count) return false;
  }
  out = std::move(s);
  return true;
}

HllSketch HllSketch::downsampled(int lg_k) const {
  HllSketch t(lg_k);
  t.mode_ = HllMode::kHll;
  t.arr_.clear();
  t.lg_arr_ = 0;
  t.regs_.assign(size_t{1} << lg_k, 0);
  t.kxq0_ = static_cast<double>(1 << lg_k);
  t.num_at_cur_min_ = 1 << lg_k;
  const uint32_t mask = (1u << lg_k) - 1;
  for (size_t i = 0; i < regs_.size(); ++i)
    if (regs_[i] != 0) t.hll_slot_update(static_cast<uint32_t>(i) & mask, regs_[i]);
  t.hip_ = hip_;
  t.set_out_of_order(ooo_);
  return t;
}

void HllSketch::merge_registers(const HllSketch& src) {
  const size_t mask = regs_.size() - 1;
  for (size_t i = 0; i < src.regs_.size(); ++i) {
    uint8_t& r = regs_[i & mask];
    r = std::max(r, src.regs_[i]);
  }
  rebuild_ = true;
}

void HllUnion::update(const HllSketch& src, bool wrapped) {
  if (src.empty()) return;
  if (src.mode_ != HllMode::kHll) {
    // Coupon sources: a SET of the gadget's size taken whole into an empty gadget, otherwise
    // every coupon replayed into the gadget.
    if (src.mode_ == HllMode::kSet && gadget_.empty() && src.lg_k_ == gadget_.lg_k_ && !wrapped) {
      gadget_ = src;
      return;
    }
    for (uint32_t c : src.coupons()) gadget_.update(c);
    return;
  }
  const bool src_smaller = src.lg_k_ < gadget_.lg_k_;
  const bool src_too_big = src.lg_k_ > lg_max_k_;
  if (gadget_.empty()) {
    gadget_ = src_too_big ? src.downsampled(lg_max_k_) : src;
    return;
  }
  if (gadget_.mode_ != HllMode::kHll) {
    // Replay the gadget's coupons into (a copy of) the source.
    HllSketch t = src_too_big ? src.downsampled(lg_max_k_) : src;
    for (uint32_t c : gadget_.coupons()) t.update(c);
    gadget_ = std::move(t);
    return;
  }
  if (src_smaller) gadget_ = gadget_.downsampled(src.lg_k_);
  gadget_.merge_registers(src);
  gadget_.set_out_of_order(true);
}

HllSketch HllUnion::result() & {
  gadget_.rebuild();
  return gadget_;
}

HllSketch HllUnion::result() && {
  gadget_.rebuild();
  return std::move(gadget_);
}

}  // namespace ember::functions::sketch
