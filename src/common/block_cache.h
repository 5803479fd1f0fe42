#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ember {

/// Large blocks of host memory (64 KiB and up, powers of two) whose pages stay mapped after they
/// are freed, for the data structures that grow by whole blocks: hash-aggregate group storage and
/// slot arrays. Each fresh page the kernel hands out costs a fault and a zeroing; a query with
/// millions of groups takes gigabytes of such pages, and glibc maps blocks above its mmap
/// threshold afresh every time (and a thread's arena cannot hold them at all). Freed blocks are
/// kept, per size, up to a cap on the bytes kept (`set_limit`; by default a quarter of the
/// machine's memory, at most 8 GiB; `EMBER_BLOCK_CACHE_BYTES` overrides it), handed out again
/// before any new mapping (a larger one split in halves when none of the size is kept), and
/// returned to the system once idle (`release_idle`). A new mapping gives back as many kept
/// bytes of smaller sizes, so that keeping blocks does not raise what the process maps in all
/// above what it mapped before. Blocks come
/// back dirty: users initialise what they read. Thread-safe; a block is taken and returned under
/// one mutex, which the block sizes keep rare.
class BlockCache {
 public:
  /// The process-wide cache.
  static BlockCache& global();

  /// A block of at least `bytes` (rounded up to its size class, `block_size(bytes)`), aligned to
  /// 4 KiB (2 MiB, in transparent huge pages where the system allows, from 2 MiB up); a request
  /// below kMinBlock is served by malloc (64-byte aligned) and never cached.
  /// Throws a Spark out-of-memory error when the system has none.
  void* allocate(size_t bytes);
  /// Returns a block of `bytes` (as asked of `allocate`) to the cache, or to the system when the
  /// cache is full.
  void free(void* p, size_t bytes);

  /// The size class of a request of at least kMinBlock bytes: the next power of two.
  static size_t block_size(size_t bytes);
  static constexpr size_t kMinBlock = size_t{1} << 16;

  /// Bytes kept at most; lowering it returns the excess to the system.
  void set_limit(size_t bytes);
  size_t limit() const;
  /// Bytes kept now (freed, mapped, not in use).
  size_t cached() const;
  /// Bytes handed out and not yet freed.
  size_t in_use() const;
  /// Returns every kept block to the system.
  void trim();
  /// Returns to the system the kept blocks that no allocation took since the previous call, so
  /// that an idle process gives its cache back within two calls; a server calls it
  /// periodically.
  void release_idle();

 private:
  BlockCache();
  void trim_to(size_t bytes);  // with mu_ held

  static constexpr int kClasses = 48;
  mutable std::mutex mu_;
  std::vector<void*> free_[kClasses];  // by log2 of the size; taken from the back
  /// Per size, the fewest blocks kept since the last release_idle: the blocks below that mark
  /// (the oldest, at the front) sat unused all along.
  size_t idle_[kClasses] = {};
  size_t limit_;
  size_t cached_ = 0;
  size_t in_use_ = 0;
};

/// A fixed-length array of trivially copyable `T` in a BlockCache block: what a hash table's
/// slot array needs (allocated once per size, never resized). Contents are uninitialised.
template <typename T>
class BlockArray {
 public:
  BlockArray() = default;
  explicit BlockArray(size_t n) : n_(n) {
    if (n > 0) data_ = static_cast<T*>(BlockCache::global().allocate(n * sizeof(T)));
  }
  ~BlockArray() { reset(); }
  BlockArray(BlockArray&& o) noexcept : data_(o.data_), n_(o.n_) {
    o.data_ = nullptr;
    o.n_ = 0;
  }
  BlockArray& operator=(BlockArray&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = o.data_;
      n_ = o.n_;
      o.data_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  BlockArray(const BlockArray&) = delete;
  BlockArray& operator=(const BlockArray&) = delete;

  void reset() {
    if (data_ != nullptr) BlockCache::global().free(data_, n_ * sizeof(T));
    data_ = nullptr;
    n_ = 0;
  }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return n_; }

 private:
  T* data_ = nullptr;
  size_t n_ = 0;
};

}  // namespace ember
