#include "functions/sketch_theta.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/murmur3_128.h"

namespace ember::functions::sketch {
namespace {

constexpr uint8_t kSerialVersion = 3;
constexpr uint8_t kCompressedSerialVersion = 4;
// Flag bits of byte 5.
constexpr uint8_t kFlagReadOnly = 1 << 1;
constexpr uint8_t kFlagEmpty = 1 << 2;
constexpr uint8_t kFlagCompact = 1 << 3;
constexpr uint8_t kFlagOrdered = 1 << 4;
constexpr uint8_t kFlagSingleItem = 1 << 5;

uint64_t to_sketch_hash(const void* data, size_t len) {
  return murmur3_x64_128(data, len, kDefaultSeed).h1 >> 1;
}

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_le(std::string_view b, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[pos + static_cast<size_t>(i)]);
  return v;
}

/// Writes values of a fixed bit width into `out` (sized beforehand) as one bit stream, most
/// significant bit first, a byte at a time.
class BitWriter {
 public:
  explicit BitWriter(uint8_t* out) : out_(out) {}
  void write(uint64_t v, int bits) {
    while (bits > 0) {
      const int space = 8 - used_;
      const int take = bits < space ? bits : space;
      const auto chunk = static_cast<uint8_t>((v >> (bits - take)) & ((1u << take) - 1));
      *out_ = static_cast<uint8_t>(*out_ | (chunk << (space - take)));
      bits -= take;
      used_ += take;
      if (used_ == 8) {
        ++out_;
        used_ = 0;
      }
    }
  }

 private:
  uint8_t* out_;
  int used_ = 0;
};

/// Reads what BitWriter wrote.
class BitReader {
 public:
  explicit BitReader(const uint8_t* in) : in_(in) {}
  uint64_t read(int bits) {
    uint64_t v = 0;
    while (bits > 0) {
      const int avail = 8 - used_;
      const int take = bits < avail ? bits : avail;
      v = (v << take) | ((static_cast<uint64_t>(*in_) >> (avail - take)) & ((1u << take) - 1));
      bits -= take;
      used_ += take;
      if (used_ == 8) {
        ++in_;
        used_ = 0;
      }
    }
    return v;
  }

 private:
  const uint8_t* in_;
  int used_ = 0;
};

bool known_family(uint8_t id) { return id >= 1 && id <= 20; }

}  // namespace

uint16_t seed_hash() {
  static const uint16_t h = [] {
    uint8_t seed[8];
    for (int i = 0; i < 8; ++i) seed[i] = static_cast<uint8_t>((kDefaultSeed >> (8 * i)) & 0xff);
    return static_cast<uint16_t>(murmur3_x64_128(seed, 8, 0).h1 & 0xffff);
  }();
  return h;
}

uint64_t hash_long(int64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
  return to_sketch_hash(b, 8);
}

uint64_t hash_double(double v) {
  if (v == 0.0) v = 0.0;  // -0.0 as 0.0
  uint64_t bits;
  if (v != v) {
    bits = 0x7ff8000000000000ULL;  // Java's canonical NaN
  } else {
    std::memcpy(&bits, &v, 8);
  }
  return hash_long(static_cast<int64_t>(bits));
}

uint64_t hash_bytes(std::string_view b) { return b.empty() ? 0 : to_sketch_hash(b.data(), b.size()); }

uint64_t hash_ints(const int32_t* v, size_t n) {
  if (n == 0) return 0;
  std::string b;
  b.reserve(n * 4);
  for (size_t i = 0; i < n; ++i) put_le(b, static_cast<uint32_t>(v[i]), 4);
  return to_sketch_hash(b.data(), b.size());
}

uint64_t hash_longs(const int64_t* v, size_t n) {
  if (n == 0) return 0;
  std::string b;
  b.reserve(n * 8);
  for (size_t i = 0; i < n; ++i) put_le(b, static_cast<uint64_t>(v[i]), 8);
  return to_sketch_hash(b.data(), b.size());
}

std::string family_name(uint8_t id) {
  static const char* names[] = {"",       "ALPHA", "QUICKSELECT", "COMPACT",  "UNION",  "INTERSECTION", "A_NOT_B",
                                "HLL",    "QUANTILES", "TUPLE",   "FREQUENCY", "RESERVOIR", "RESERVOIR_UNION",
                                "VAROPT", "VAROPT_UNION", "KLL",  "CPC",      "REQ",    "COUNTMIN",    "EBPPS",
                                "TDIGEST"};
  return id < sizeof(names) / sizeof(names[0]) ? names[id] : "UNKNOWN";
}

uint64_t select_rank(std::vector<uint64_t>& v, size_t rank) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
  return v[rank];
}

double CompactTheta::estimate() const {
  if (!estimation_mode()) return static_cast<double>(entries.size());
  return static_cast<double>(entries.size()) * (9223372036854775807.0 / static_cast<double>(theta));
}

std::string CompactTheta::serialize() const {
  std::string out;
  const uint16_t sh = seed_hash();
  auto header = [&](uint8_t pre_longs, uint8_t ser_ver, uint8_t b3, uint8_t b4, uint8_t flags, uint16_t seed) {
    out.push_back(static_cast<char>(pre_longs));
    out.push_back(static_cast<char>(ser_ver));
    out.push_back(static_cast<char>(kFamilyCompact));
    out.push_back(static_cast<char>(b3));
    out.push_back(static_cast<char>(b4));
    out.push_back(static_cast<char>(flags));
    put_le(out, seed, 2);
  };
  const uint8_t base_flags = kFlagReadOnly | kFlagCompact | kFlagOrdered;
  if (empty || (entries.empty() && !estimation_mode())) {
    header(1, kSerialVersion, 0, 0, base_flags | kFlagEmpty, 0);
    return out;
  }
  if (entries.size() == 1 && !estimation_mode()) {
    header(1, kSerialVersion, 0, 0, base_flags | kFlagSingleItem, sh);
    put_le(out, entries[0], 8);
    return out;
  }
  if (entries.empty()) {
    // Nothing retained below a theta: the plain form with its three preamble longs.
    header(3, kSerialVersion, 0, 0, base_flags, sh);
    put_le(out, 0, 4);
    put_le(out, 0x3f800000, 4);  // sampling probability 1.0f
    put_le(out, theta, 8);
    return out;
  }
  // Serial version 4: ascending hashes stored as deltas of a fixed bit width.
  uint64_t ored = 0, prev = 0;
  for (uint64_t e : entries) {
    ored |= e - prev;
    prev = e;
  }
  const int entry_bits = 64 - std::countl_zero(ored);
  const auto n = static_cast<uint32_t>(entries.size());
  const int count_bytes = (32 - std::countl_zero(n) + 7) / 8;
  header(estimation_mode() ? 2 : 1, kCompressedSerialVersion, static_cast<uint8_t>(entry_bits),
         static_cast<uint8_t>(count_bytes), base_flags, sh);
  if (estimation_mode()) put_le(out, theta, 8);
  put_le(out, n, count_bytes);
  const size_t start = out.size();
  out.resize(start + (static_cast<size_t>(entry_bits) * n + 7) / 8, '\0');
  BitWriter w(reinterpret_cast<uint8_t*>(out.data() + start));
  prev = 0;
  for (uint64_t e : entries) {
    w.write(e - prev, entry_bits);
    prev = e;
  }
  return out;
}

ReadStatus read_theta(std::string_view b, CompactTheta& out, uint8_t& family) {
  out = CompactTheta();
  if (b.size() < 8) return ReadStatus::kInvalid;
  const uint8_t pre_longs = static_cast<uint8_t>(b[0]) & 0x3f;
  const uint8_t ser_ver = static_cast<uint8_t>(b[1]);
  family = static_cast<uint8_t>(b[2]);
  const uint8_t flags = static_cast<uint8_t>(b[5]);
  if (family != kFamilyCompact) return known_family(family) ? ReadStatus::kWrongFamily : ReadStatus::kInvalid;
  if ((flags & kFlagCompact) == 0) return ReadStatus::kInvalid;
  const bool seed_ok = get_le(b, 6, 2) == seed_hash();
  if (ser_ver == kSerialVersion) {
    if (flags & kFlagEmpty) return pre_longs >= 1 && pre_longs <= 3 ? ReadStatus::kOk : ReadStatus::kInvalid;
    if (!seed_ok) return ReadStatus::kInvalid;
    size_t count = 0, pos = 0;
    if (pre_longs == 1) {
      count = 1;
      pos = 8;
    } else if (pre_longs == 2 || pre_longs == 3) {
      if (b.size() < 8u * pre_longs) return ReadStatus::kInvalid;
      count = get_le(b, 8, 4);
      if (pre_longs == 3) out.theta = get_le(b, 16, 8);
      pos = 8u * pre_longs;
    } else {
      return ReadStatus::kInvalid;
    }
    if (out.theta == 0 || out.theta > kMaxTheta || count > (b.size() - pos) / 8) return ReadStatus::kInvalid;
    out.entries.reserve(count);
    for (size_t i = 0; i < count; ++i) out.entries.push_back(get_le(b, pos + 8 * i, 8));
  } else if (ser_ver == kCompressedSerialVersion) {
    if (!seed_ok || (pre_longs != 1 && pre_longs != 2)) return ReadStatus::kInvalid;
    const int entry_bits = static_cast<uint8_t>(b[3]);
    const int count_bytes = static_cast<uint8_t>(b[4]);
    if (entry_bits < 1 || entry_bits > 64 || count_bytes < 1 || count_bytes > 4) return ReadStatus::kInvalid;
    size_t pos = 8;
    if (pre_longs == 2) {
      if (b.size() < 16) return ReadStatus::kInvalid;
      out.theta = get_le(b, 8, 8);
      pos = 16;
    }
    if (out.theta == 0 || out.theta > kMaxTheta || b.size() < pos + static_cast<size_t>(count_bytes))
      return ReadStatus::kInvalid;
    const uint64_t count = get_le(b, pos, count_bytes);
    pos += static_cast<size_t>(count_bytes);
    if (count == 0 || (static_cast<uint64_t>(entry_bits) * count + 7) / 8 > b.size() - pos) return ReadStatus::kInvalid;
    out.entries.reserve(count);
    BitReader r(reinterpret_cast<const uint8_t*>(b.data() + pos));
    uint64_t prev = 0;
    for (uint64_t i = 0; i < count; ++i) {
      prev += r.read(entry_bits);
      out.entries.push_back(prev);
    }
  } else {
    return ReadStatus::kInvalid;
  }
  out.empty = false;
  std::sort(out.entries.begin(), out.entries.end());
  for (size_t i = 0; i < out.entries.size(); ++i)
    if (out.entries[i] == 0 || out.entries[i] >= out.theta || (i > 0 && out.entries[i] == out.entries[i - 1]))
      return ReadStatus::kInvalid;
  return ReadStatus::kOk;
}

void ThetaAccumulator::update_hash(uint64_t hash) {
  if (hash == 0) return;
  empty_ = false;
  if (hash >= theta_) return;
  pending_.push_back(hash);
  if (pending_.size() >= (size_t{2} << lg_k_)) compact(false);
}

void ThetaAccumulator::merge(const CompactTheta& s) {
  if (s.empty) return;
  empty_ = false;
  theta_ = std::min(theta_, s.theta);
  for (uint64_t h : s.entries) {
    if (h >= theta_) break;  // entries are ascending
    pending_.push_back(h);
  }
  if (pending_.size() >= (size_t{2} << lg_k_)) compact(false);
}

void ThetaAccumulator::merge(const ThetaAccumulator& o) {
  if (o.empty_) return;
  empty_ = false;
  theta_ = std::min(theta_, o.theta_);
  for (uint64_t h : o.retained_)
    if (h < theta_) pending_.push_back(h);
  for (uint64_t h : o.pending_)
    if (h < theta_) pending_.push_back(h);
  if (pending_.size() >= (size_t{2} << lg_k_)) compact(false);
}

void ThetaAccumulator::compact(bool /*final_trim*/) {
  std::sort(pending_.begin(), pending_.end());
  std::vector<uint64_t> merged;
  merged.reserve(retained_.size() + pending_.size());
  std::merge(retained_.begin(), retained_.end(), pending_.begin(), pending_.end(), std::back_inserter(merged));
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  merged.erase(std::lower_bound(merged.begin(), merged.end(), theta_), merged.end());
  pending_.clear();
  // Keeping the k smallest with theta at the (k+1)-th is what the final result does; doing it
  // early only drops hashes the result could never keep.
  const size_t k = size_t{1} << lg_k_;
  if (merged.size() > k) {
    theta_ = merged[k];
    merged.resize(k);
  }
  retained_ = std::move(merged);
}

CompactTheta ThetaAccumulator::result() const {
  CompactTheta r;
  if (empty_) return r;
  ThetaAccumulator copy = *this;
  copy.compact(true);
  r.empty = false;
  r.theta = copy.theta_;
  r.entries = std::move(copy.retained_);
  if (r.entries.empty() && !r.estimation_mode()) r.empty = true;
  return r;
}

void ThetaIntersection::update(const CompactTheta& s) {
  if (!started_) {
    started_ = true;
    cur_ = s;
    if (cur_.empty) cur_ = CompactTheta();
    return;
  }
  if (cur_.empty || s.empty) {
    cur_ = CompactTheta();
    return;
  }
  const uint64_t theta = std::min(cur_.theta, s.theta);
  std::vector<uint64_t> both;
  std::set_intersection(cur_.entries.begin(), cur_.entries.end(), s.entries.begin(), s.entries.end(),
                        std::back_inserter(both));
  both.erase(std::lower_bound(both.begin(), both.end(), theta), both.end());
  cur_.theta = theta;
  cur_.entries = std::move(both);
}

CompactTheta ThetaIntersection::result() const {
  CompactTheta r = started_ ? cur_ : CompactTheta();
  if (r.entries.empty() && !r.estimation_mode()) r = CompactTheta();
  return r;
}

CompactTheta theta_a_not_b(const CompactTheta& a, const CompactTheta& b) {
  if (a.empty) return CompactTheta();
  if (b.empty) return a;
  CompactTheta r;
  r.empty = false;
  r.theta = std::min(a.theta, b.theta);
  std::set_difference(a.entries.begin(), a.entries.end(), b.entries.begin(), b.entries.end(),
                      std::back_inserter(r.entries));
  r.entries.erase(std::lower_bound(r.entries.begin(), r.entries.end(), r.theta), r.entries.end());
  if (r.entries.empty() && !r.estimation_mode()) return CompactTheta();
  return r;
}

}  // namespace ember::functions::sketch
