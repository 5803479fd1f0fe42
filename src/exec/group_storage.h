#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "common/block_cache.h"

namespace ember::exec {

/// Per-group values of a hash table (hashes, keys, aggregate states), `width` bytes a group, in
/// blocks of kBlockGroups groups taken from the BlockCache. Appending never moves a group: the
/// table grows without copying what it holds, and each page is touched once (a vector doubling
/// copies everything and faults in twice the memory). The first block grows by doubling up to
/// its full size, so a table of a few groups stays small. Groups [k * kBlockGroups, (k + 1) *
/// kBlockGroups) lie in block k, contiguously.
class GroupColumn {
 public:
  static constexpr int kShift = 16;
  static constexpr size_t kBlockGroups = size_t{1} << kShift;

  explicit GroupColumn(size_t width) : width_(width) {}
  ~GroupColumn() { clear(); }
  GroupColumn(GroupColumn&& o) noexcept { *this = std::move(o); }
  GroupColumn& operator=(GroupColumn&& o) noexcept {
    if (this != &o) {
      clear();
      width_ = o.width_;
      size_ = o.size_;
      first_ = o.first_;
      blocks_ = std::move(o.blocks_);
      o.blocks_.clear();
      o.size_ = o.first_ = 0;
    }
    return *this;
  }
  GroupColumn(const GroupColumn&) = delete;
  GroupColumn& operator=(const GroupColumn&) = delete;

  size_t size() const { return size_; }
  size_t width() const { return width_; }
  uint8_t* at(size_t g) { return blocks_[g >> kShift] + (g & (kBlockGroups - 1)) * width_; }
  const uint8_t* at(size_t g) const { return blocks_[g >> kShift] + (g & (kBlockGroups - 1)) * width_; }
  /// Room for one more group at the end; its bytes are unspecified.
  uint8_t* append() {
    if (size_ == capacity()) grow(size_ + 1);
    return at(size_++);
  }
  /// Room for `n` groups in all, so that appending up to there takes no block.
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }
  void clear() {
    for (size_t b = 0; b < blocks_.size(); ++b) BlockCache::global().free(blocks_[b], block_bytes(b));
    blocks_.clear();
    size_ = first_ = 0;
  }

 private:
  size_t capacity() const { return blocks_.empty() ? 0 : (blocks_.size() - 1) * kBlockGroups + first_cap(); }
  size_t first_cap() const { return blocks_.size() > 1 ? kBlockGroups : first_; }
  size_t block_bytes(size_t b) const { return (b == 0 ? first_ : kBlockGroups) * width_; }
  void grow(size_t n) {
    if (blocks_.size() <= 1 && first_ < kBlockGroups) {
      size_t cap = std::max<size_t>(first_ * 2, 1024);
      while (cap < n && cap < kBlockGroups) cap *= 2;
      cap = std::min(cap, kBlockGroups);
      auto* block = static_cast<uint8_t*>(BlockCache::global().allocate(cap * width_));
      if (!blocks_.empty()) {
        std::memcpy(block, blocks_[0], size_ * width_);
        BlockCache::global().free(blocks_[0], first_ * width_);
        blocks_[0] = block;
      } else {
        blocks_.push_back(block);
      }
      first_ = cap;
    }
    while (capacity() < n)
      blocks_.push_back(static_cast<uint8_t*>(BlockCache::global().allocate(kBlockGroups * width_)));
  }

  size_t width_;
  size_t size_ = 0;
  size_t first_ = 0;  // groups block 0 holds
  std::vector<uint8_t*> blocks_;
};

/// A GroupColumn of one trivially copyable `T` per group.
template <typename T>
class GroupArray {
 public:
  GroupArray() : c_(sizeof(T)) {}
  size_t size() const { return c_.size(); }
  T& operator[](size_t g) { return *reinterpret_cast<T*>(c_.at(g)); }
  const T& operator[](size_t g) const { return *reinterpret_cast<const T*>(c_.at(g)); }
  void push_back(const T& v) { std::memcpy(c_.append(), &v, sizeof(T)); }
  void reserve(size_t n) { c_.reserve(n); }
  void clear() { c_.clear(); }
  /// Groups [from, from + n) when they lie in one block (see GroupColumn).
  const T* run(size_t from) const { return reinterpret_cast<const T*>(c_.at(from)); }

 private:
  GroupColumn c_;
};

/// Append-only storage of key bytes in BlockCache chunks (64 KiB growing to 1 MiB), so that a
/// key's bytes never move once stored.
class KeyBytes {
 public:
  KeyBytes() = default;
  ~KeyBytes() { clear(); }
  KeyBytes(KeyBytes&& o) noexcept { *this = std::move(o); }
  KeyBytes& operator=(KeyBytes&& o) noexcept {
    if (this != &o) {
      clear();
      chunks_ = std::move(o.chunks_);
      used_ = o.used_;
      o.chunks_.clear();
      o.used_ = 0;
    }
    return *this;
  }
  KeyBytes(const KeyBytes&) = delete;
  KeyBytes& operator=(const KeyBytes&) = delete;

  std::string_view add(std::string_view key) {
    if (chunks_.empty() || chunks_.back().size - used_ < key.size()) {
      const size_t last = chunks_.empty() ? 0 : chunks_.back().size;
      const size_t size = BlockCache::block_size(std::max({key.size(), std::min(last * 2, kMaxChunk), BlockCache::kMinBlock}));
      chunks_.push_back(Chunk{static_cast<char*>(BlockCache::global().allocate(size)), size});
      used_ = 0;
    }
    char* at = chunks_.back().data + used_;
    if (!key.empty()) std::memcpy(at, key.data(), key.size());
    used_ += key.size();
    return std::string_view(at, key.size());
  }
  void clear() {
    for (auto& c : chunks_) BlockCache::global().free(c.data, c.size);
    chunks_.clear();
    used_ = 0;
  }

 private:
  static constexpr size_t kMaxChunk = size_t{1} << 20;
  struct Chunk {
    char* data;
    size_t size;
  };
  std::vector<Chunk> chunks_;
  size_t used_ = 0;  // bytes of the last chunk in use
};

}  // namespace ember::exec
