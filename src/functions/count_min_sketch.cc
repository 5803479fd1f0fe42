#include "functions/count_min_sketch.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "functions/digest.h"
#include "functions/java_random.h"

namespace ember::functions::cms {
namespace {

constexpr int64_t kPrimeModulus = (int64_t{1} << 31) - 1;
constexpr int32_t kVersion = 1;

void put_be(std::string& out, uint64_t v, int bytes) {
  for (int k = bytes - 1; k >= 0; --k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}

}  // namespace

CountMinSketch::CountMinSketch(int32_t depth, int32_t width, int32_t seed)
    : depth_(depth), width_(width), hash_a_(static_cast<size_t>(depth)),
      table_(static_cast<size_t>(depth) * static_cast<size_t>(width), 0) {
  JavaRandom r(seed);
  for (auto& a : hash_a_) a = r.next_int(INT32_MAX);
}

int32_t CountMinSketch::width_for(double eps) { return static_cast<int32_t>(std::ceil(2 / eps)); }

int32_t CountMinSketch::depth_for(double confidence) {
  return static_cast<int32_t>(std::ceil(-std::log(1 - confidence) / std::log(2.0)));
}

size_t CountMinSketch::long_cell(int32_t row, int64_t item) const {
  // (a * x) mod 2^31 - 1 by folding the high half onto the low one, in Java's wrapping longs.
  auto h = static_cast<int64_t>(static_cast<uint64_t>(hash_a_[static_cast<size_t>(row)]) * static_cast<uint64_t>(item));
  h = static_cast<int64_t>(static_cast<uint64_t>(h) + static_cast<uint64_t>(h >> 32));
  h &= kPrimeModulus;
  return static_cast<size_t>(row) * static_cast<size_t>(width_) + static_cast<size_t>(static_cast<int32_t>(h) % width_);
}

void CountMinSketch::add_long(int64_t item) {
  for (int32_t i = 0; i < depth_; ++i) table_[long_cell(i, item)]++;
  ++total_;
}

void CountMinSketch::add_bytes(std::string_view item) {
  const int32_t h1 = digest::murmur3_bytes(item, 0);
  const int32_t h2 = digest::murmur3_bytes(item, h1);
  for (int32_t i = 0; i < depth_; ++i) {
    auto combined = static_cast<int32_t>(static_cast<uint32_t>(h1) + static_cast<uint32_t>(i) * static_cast<uint32_t>(h2));
    int32_t col = std::abs(combined % width_);
    table_[static_cast<size_t>(i) * static_cast<size_t>(width_) + static_cast<size_t>(col)]++;
  }
  ++total_;
}

void CountMinSketch::merge(const CountMinSketch& other) {
  for (size_t k = 0; k < table_.size(); ++k) table_[k] += other.table_[k];
  total_ += other.total_;
}

int64_t CountMinSketch::estimate_long(int64_t item) const {
  int64_t best = INT64_MAX;
  for (int32_t i = 0; i < depth_; ++i) best = std::min(best, table_[long_cell(i, item)]);
  return best;
}

std::string CountMinSketch::serialize() const {
  std::string out;
  out.reserve(24 + 8 * (hash_a_.size() + table_.size()));
  put_be(out, static_cast<uint32_t>(kVersion), 4);
  put_be(out, static_cast<uint64_t>(total_), 8);
  put_be(out, static_cast<uint32_t>(depth_), 4);
  put_be(out, static_cast<uint32_t>(width_), 4);
  for (int64_t a : hash_a_) put_be(out, static_cast<uint64_t>(a), 8);
  for (int64_t c : table_) put_be(out, static_cast<uint64_t>(c), 8);
  return out;
}

}  // namespace ember::functions::cms
