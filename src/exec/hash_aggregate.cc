// Hash aggregation: per-thread tables of encoded group keys and fixed-size aggregate states,
// merged at combine.

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/thread_pool.h"
#include "exec/distinct_aggregate.h"
#include "exec/group_keys.h"
#include "exec/group_storage.h"
#include "exec/operators.h"
#include "functions/aggregate_scope.h"

namespace ember::exec {

/// A hash table from encoded group key to a group number, with each group's key bytes and
/// aggregate states. Open addressing with linear probing over a power-of-two slot array. Packed
/// keys live in their slots beside the group number, so that finding a group touches one cache
/// line, which `prefetch` can ask for ahead of time; a byte-key slot holds the upper half of
/// its group's hash beside the group number, so that a probe compares key bytes (through the
/// per-group key array) only for a slot whose hash matches. Slot arrays and per-group storage
/// are BlockCache blocks: growing moves no group, and memory freed by one table (or query) is
/// reused by the next without new page faults.
struct HashAggregate::Table {
  explicit Table(size_t state_size) : state_size(state_size), states(state_size) {
    slots = empty_slots<ByteSlot>(kInitialSlots);
    packed_slots = empty_slots<PackedSlot>(kInitialSlots);
  }

  static constexpr size_t kInitialSlots = 1024;

  struct ByteSlot {
    uint32_t tag = 0;    // the upper 32 bits of the group's hash
    int32_t group = -1;  // -1: empty
  };

  struct PackedSlot {
    PackedKey key = 0;
    int32_t group = -1;  // -1: empty
  };

  template <typename Slot>
  static BlockArray<Slot> empty_slots(size_t n) {
    BlockArray<Slot> a(n);
    std::fill_n(a.data(), n, Slot{});
    return a;
  }

  size_t state_size;
  BlockArray<ByteSlot> slots;                 // byte keys
  BlockArray<PackedSlot> packed_slots;        // packed keys
  GroupArray<uint64_t> hashes;                // per group
  /// Stable storage of the key bytes this table copied in, and of other tables whose keys it
  /// took over as they were when merging (a merge leaves the bytes of a group new to this table
  /// where they are, and keeps their storage alive).
  std::shared_ptr<KeyBytes> key_bytes = std::make_shared<KeyBytes>();
  std::vector<std::shared_ptr<KeyBytes>> adopted;
  GroupArray<std::string_view> keys;          // per group (byte keys)
  GroupArray<PackedKey> packed;               // per group (packed keys)
  GroupColumn states;                         // state_size bytes a group
  /// Which keys the table holds: packed (fixed-width keys, or strings short enough so far) or
  /// byte-encoded. A packed table turns into a byte one when a longer string arrives.
  bool byte_keys = false;

  size_t groups() const { return hashes.size(); }
  uint8_t* state(size_t g) { return states.at(g); }

  /// Asks for the slot a key of hash `h` probes first (of the table's key form).
  void prefetch(uint64_t h) const {
    if (byte_keys) __builtin_prefetch(&slots[h & (slots.size() - 1)]);
    else __builtin_prefetch(&packed_slots[h & (packed_slots.size() - 1)]);
  }

  /// A new group's state, zeroed then initialised by `init`.
  template <typename Init>
  void add_state(Init& init) {
    uint8_t* s = states.append();
    std::memset(s, 0, state_size);
    init(s);
  }

  /// The group of a packed key (a table holds either packed or byte keys, never both).
  template <typename Init>
  int32_t find_or_insert_packed(PackedKey key, uint64_t h, Init&& init) {
    size_t mask = packed_slots.size() - 1;
    size_t pos = h & mask;
    for (;;) {
      const PackedSlot& slot = packed_slots[pos];
      if (slot.group < 0) break;
      if (slot.key == key) return slot.group;
      pos = (pos + 1) & mask;
    }
    int32_t g = static_cast<int32_t>(packed.size());
    packed_slots[pos] = PackedSlot{key, g};
    hashes.push_back(h);
    packed.push_back(key);
    add_state(init);
    if (packed.size() * 2 > packed_slots.size()) grow();
    return g;
  }

  /// Returns the group of `key`, inserting it (with `init` run on its state) when new; the key's
  /// bytes are copied in unless `stable` (they outlive this table: see `adopt`).
  template <typename Init>
  int32_t find_or_insert(std::string_view key, uint64_t h, Init&& init, bool stable = false) {
    size_t mask = slots.size() - 1;
    size_t pos = h & mask;
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    for (;;) {
      const ByteSlot& slot = slots[pos];
      if (slot.group < 0) break;
      if (slot.tag == tag && keys[static_cast<size_t>(slot.group)] == key) return slot.group;
      pos = (pos + 1) & mask;
    }
    int32_t g = static_cast<int32_t>(keys.size());
    slots[pos] = ByteSlot{tag, g};
    hashes.push_back(h);
    byte_keys = true;
    keys.push_back(stable ? key : key_bytes->add(key));
    add_state(init);
    if (keys.size() * 2 > slots.size()) grow();
    return g;
  }

  /// Re-keys a packed table with byte-encoded keys (same groups, same numbers, same states).
  void to_byte_keys(const KeyEncoder& enc) {
    if (byte_keys) return;
    byte_keys = true;
    const size_t n = packed.size();
    if (n == 0) return;
    for (size_t off = 0; off < n; off += GroupColumn::kBlockGroups) {
      const size_t len = std::min(n - off, GroupColumn::kBlockGroups);
      std::vector<ColumnPtr> cols = enc.decode_packed(packed.run(off), static_cast<int64_t>(len));
      std::string arena;
      std::vector<uint32_t> offs, lens;
      enc.encode(cols, static_cast<int64_t>(len), arena, offs, lens);
      for (size_t i = 0; i < len; ++i) {
        std::string_view key(arena.data() + offs[i], lens[i]);
        keys.push_back(key_bytes->add(key));
        hashes[off + i] = hash_bytes(key.data(), key.size());
      }
    }
    packed.clear();
    const size_t size = packed_slots.size();
    packed_slots.reset();
    rehash(size);
  }

  /// Keeps the key storage of `src` (its own and what it adopted) alive as long as this table.
  void adopt(const Table& src) {
    adopted.push_back(src.key_bytes);
    adopted.insert(adopted.end(), src.adopted.begin(), src.adopted.end());
  }

  /// Doubles the slots of a small table; a large one quadruples them, since a table that
  /// reached that size by growing most likely holds many groups yet to come, and each growth
  /// moves every group (by fours, the moves add up to a third of the groups instead of all).
  void grow() {
    const size_t size = byte_keys ? slots.size() : packed_slots.size();
    rehash(size * (size >= kQuadrupleFrom ? 4 : 2));
  }
  static constexpr size_t kQuadrupleFrom = size_t{1} << 16;

  /// Makes room for `n` groups in all without growing on the way: slots for `slotted` of them
  /// (slots are written when made, so they are what a reservation costs), per-group storage for
  /// all `n` (capacity that is never used is never touched, so costs nothing).
  void reserve(size_t n, size_t slotted) {
    size_t size = byte_keys ? slots.size() : packed_slots.size();
    if (slotted * 2 > size) {
      while (slotted * 2 > size) size *= 2;
      rehash(size);
    }
    hashes.reserve(n);
    if (byte_keys) keys.reserve(n);
    else packed.reserve(n);
    states.reserve(n);
  }

  /// Moves every group to a slot array of `size` slots. Groups go in in order, each to a slot
  /// at random: the slot of the group some rows ahead is asked for while this one goes in.
  void rehash(size_t size) {
    const size_t mask = size - 1;
    const size_t n = hashes.size();
    constexpr size_t kAhead = 16;
    if (byte_keys) {
      BlockArray<ByteSlot> bigger = empty_slots<ByteSlot>(size);
      for (size_t g = 0; g < n; ++g) {
        if (g + kAhead < n) __builtin_prefetch(&bigger[hashes[g + kAhead] & mask], 1);
        const uint64_t h = hashes[g];
        size_t pos = h & mask;
        while (bigger[pos].group >= 0) pos = (pos + 1) & mask;
        bigger[pos] = ByteSlot{static_cast<uint32_t>(h >> 32), static_cast<int32_t>(g)};
      }
      slots = std::move(bigger);
      return;
    }
    BlockArray<PackedSlot> bigger = empty_slots<PackedSlot>(size);
    for (size_t g = 0; g < n; ++g) {
      if (g + kAhead < n) __builtin_prefetch(&bigger[hashes[g + kAhead] & mask], 1);
      size_t pos = hashes[g] & mask;
      while (bigger[pos].group >= 0) pos = (pos + 1) & mask;
      bigger[pos] = PackedSlot{packed[g], static_cast<int32_t>(g)};
    }
    packed_slots = std::move(bigger);
  }
};

namespace {
// Below this many groups in all, one thread merges: partitioning would cost more than it saves.
constexpr size_t kParallelMergeGroups = 1 << 15;
// Partitions use hash bits above those that place a group in its table's slots.
inline size_t partition_of(uint64_t hash, size_t partitions) { return (hash >> 40) & (partitions - 1); }
}  // namespace

/// The tables of one thread: one, or one per hash partition (`partition_of` over all of them)
/// once it holds many groups. A group is named by its table's index (upper 32 bits) and its
/// number in that table.
struct HashAggregate::Groups {
  std::vector<std::unique_ptr<Table>> tables;
  /// Of a table that never split, at a parallel merge: its groups by hash partition, sorted out
  /// in one pass over the table rather than one pass per partition; each partition's task
  /// takes (moves out) its own list.
  std::vector<std::vector<uint32_t>> by_partition;

  bool split() const { return tables.size() > 1; }
  bool byte_keys() const { return tables[0]->byte_keys; }
  size_t groups() const {
    size_t n = 0;
    for (auto& t : tables) n += t->groups();
    return n;
  }
  Table& of(uint64_t h) { return split() ? *tables[partition_of(h, tables.size())] : *tables[0]; }
  void prefetch(uint64_t h) { of(h).prefetch(h); }
  template <typename Init>
  int64_t find_or_insert_packed(PackedKey key, uint64_t h, Init&& init) {
    const size_t t = split() ? partition_of(h, tables.size()) : 0;
    return static_cast<int64_t>(t << 32) | tables[t]->find_or_insert_packed(key, h, init);
  }
  template <typename Init>
  int64_t find_or_insert(std::string_view key, uint64_t h, Init&& init) {
    const size_t t = split() ? partition_of(h, tables.size()) : 0;
    return static_cast<int64_t>(t << 32) | tables[t]->find_or_insert(key, h, init);
  }
  uint8_t* state(int64_t id) { return tables[static_cast<size_t>(id >> 32)]->state(static_cast<size_t>(id & 0xffffffff)); }
};

namespace {
struct LocalTable : LocalSinkState {
  HashAggregate::Groups groups;
};
}  // namespace

HashAggregate::HashAggregate(std::vector<PhysExprPtr> keys, std::vector<AggregateCall> calls)
    : keys_(std::move(keys)), calls_(std::move(calls)) {}

HashAggregate::~HashAggregate() {
  for (auto& l : locals_)
    for (auto& t : l.tables)
      if (t) destroy_states(*t);
  for (auto& t : partitions_)
    if (t) destroy_states(*t);
}

void HashAggregate::destroy_states(Table& t) {
  for (size_t f = 0; f < functions_.size(); ++f) {
    if (!functions_[f]->needs_destroy()) continue;
    for (size_t g = 0; g < t.groups(); ++g) functions_[f]->destroy(t.state(g) + state_offsets_[f]);
  }
}

bool HashAggregate::reads_whole_partitions() const {
  return std::any_of(calls_.begin(), calls_.end(),
                     [](const AggregateCall& c) { return !c.distinct && c.function->follows_partitions; });
}

std::string HashAggregate::details() const {
  std::string s = "(keys=[";
  for (size_t i = 0; i < keys_.size(); ++i) s += (i ? ", " : "") + keys_[i]->to_string();
  s += "], functions=[";
  for (size_t i = 0; i < calls_.size(); ++i) s += (i ? ", " : "") + (calls_[i].display.empty() ? calls_[i].function->name : calls_[i].display);
  return s + "])";
}

void HashAggregate::init(ExecContext& ctx) {
  std::lock_guard<std::mutex> lock(mu_);
  if (initialized_) return;
  state_size_ = 0;
  functions::GroupedAggregationScope grouped(!keys_.empty());
  for (auto& c : calls_) {
    auto fn = c.function->aggregate(c.signature, ctx.eval);
    if (c.distinct) fn = make_distinct_aggregate(std::move(fn), c.signature.arg_types);
    functions_.push_back(std::move(fn));
    state_offsets_.push_back(state_size_);
    state_size_ += (functions_.back()->state_size() + 15) / 16 * 16;
  }
  if (state_size_ == 0) state_size_ = 16;
  partitions_count_ = 1;
  while (partitions_count_ < 4 * ThreadPool::global().size() && partitions_count_ < 256) partitions_count_ <<= 1;
  initialized_ = true;
}

std::unique_ptr<LocalSinkState> HashAggregate::open_local(ExecContext& ctx) {
  init(ctx);
  auto l = std::make_unique<LocalTable>();
  l->groups.tables.push_back(std::make_unique<Table>(state_size_));
  return l;
}

namespace {

/// Finds (inserting when new) the group of each of the `n` rows of `keys` in `t`, into `group`;
/// `to_byte_keys` turns `t` to byte keys when a row's key does not pack.
template <typename Init, typename ToByteKeys>
void find_groups(HashAggregate::Groups& t, const KeyEncoder& enc, const std::vector<ColumnPtr>& keys,
                 int64_t n, int64_t* group, Init&& init_state, ToByteKeys&& to_byte_keys) {
  if (!t.byte_keys() && (enc.can_pack() || enc.can_pack_short_strings())) {
    std::vector<PackedKey> packed(static_cast<size_t>(n));
    if (enc.try_encode_packed(keys, n, packed.data())) {
      std::vector<uint64_t> hashes(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) hashes[i] = hash_packed(packed[i]);
      // Slots are asked for some rows ahead, so that the lookups of several rows wait for
      // memory at once; a row with the key of the row before (clustered input) reuses its group.
      constexpr int64_t kAhead = 16;
      for (int64_t i = 0; i < std::min(n, kAhead); ++i) t.prefetch(hashes[i]);
      for (int64_t i = 0; i < n; ++i) {
        if (i + kAhead < n) t.prefetch(hashes[i + kAhead]);
        group[i] = i > 0 && packed[i] == packed[i - 1] ? group[i - 1]
                                                       : t.find_or_insert_packed(packed[i], hashes[i], init_state);
      }
      return;
    }
    to_byte_keys();  // a string longer than the packed layout holds
  }
  std::string arena;
  std::vector<uint32_t> offs, lens;
  enc.encode(keys, n, arena, offs, lens);
  std::vector<uint64_t> hashes(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) hashes[i] = hash_bytes(arena.data() + offs[i], lens[i]);
  constexpr int64_t kAhead = 16;
  for (int64_t i = 0; i < std::min(n, kAhead); ++i) t.prefetch(hashes[i]);
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n) t.prefetch(hashes[i + kAhead]);
    group[i] = t.find_or_insert(std::string_view(arena.data() + offs[i], lens[i]), hashes[i], init_state);
  }
}

}  // namespace

void HashAggregate::sink(LocalSinkState& local, Batch batch, ExecContext& ctx) {
  Groups& t = static_cast<LocalTable&>(local).groups;
  int64_t n = batch.num_rows;
  if (n == 0) return;
  std::vector<ColumnPtr> key_cols;
  std::vector<TypePtr> key_types;
  for (auto& k : keys_) {
    key_cols.push_back(evaluate(*k, batch, ctx.eval));
    key_types.push_back(k->type);
  }
  KeyEncoder enc(key_types);
  auto init_state = [this](uint8_t* s) {
    for (size_t f = 0; f < functions_.size(); ++f) functions_[f]->init(s + state_offsets_[f]);
  };
  auto to_byte_keys = [&] { groups_to_byte_keys(t, enc); };
  // Each row's state (of the first function; the others lie at their offsets from it).
  std::unique_ptr<uint8_t*[]> base(new uint8_t*[static_cast<size_t>(n)]);
  std::vector<uint32_t> codes;
  uint32_t domain = 0;
  // Keys of a small domain (dictionary-coded strings, narrow integers; a domain no larger than
  // the batch) are neither encoded nor hashed per row: the first row of each code finds its
  // group, and every row takes the state of its code.
  if (!key_cols.empty() &&
      small_domain_codes(key_cols, n, static_cast<uint32_t>(std::min<int64_t>(n, kBatchRows)), codes, &domain)) {
    std::vector<int32_t> local_of(domain, -1);
    std::vector<int32_t> firsts;
    for (int64_t i = 0; i < n; ++i) {
      int32_t& l = local_of[codes[i]];
      if (l < 0) {
        l = static_cast<int32_t>(firsts.size());
        firsts.push_back(static_cast<int32_t>(i));
      }
    }
    const int64_t m = static_cast<int64_t>(firsts.size());
    std::vector<ColumnPtr> first_keys;
    for (const ColumnPtr& k : key_cols) first_keys.push_back(gather(*k, firsts.data(), m));
    std::vector<int64_t> first_group(static_cast<size_t>(m));
    find_groups(t, enc, first_keys, m, first_group.data(), init_state, to_byte_keys);
    // States never move once made, so a code's state is looked up once.
    std::vector<uint8_t*> state_of(domain, nullptr);
    for (uint32_t c = 0; c < domain; ++c)
      if (local_of[c] >= 0) state_of[c] = t.state(first_group[static_cast<size_t>(local_of[c])]);
    for (int64_t i = 0; i < n; ++i) base[i] = state_of[codes[i]];
  } else {
    std::vector<int64_t> group(static_cast<size_t>(n));
    find_groups(t, enc, key_cols, n, group.data(), init_state, to_byte_keys);
    for (int64_t i = 0; i < n; ++i) base[i] = t.state(group[i]);
  }
  std::unique_ptr<uint8_t*[]> ptrs(new uint8_t*[static_cast<size_t>(n)]);
  for (size_t f = 0; f < functions_.size(); ++f) {
    const AggregateCall& call = calls_[f];
    std::vector<ColumnPtr> args;
    for (auto& a : call.args) args.push_back(evaluate(*a, batch, ctx.eval));
    const size_t offset = state_offsets_[f];
    for (int64_t i = 0; i < n; ++i) ptrs[i] = base[i] + offset;
    if (call.filter) {
      ColumnPtr keep = evaluate(*call.filter, batch, ctx.eval);
      for (int64_t i = 0; i < n; ++i)
        if (!(keep->is_valid(i) && keep->bool_at(i))) ptrs[i] = nullptr;
    }
    functions_[f]->update(ptrs.get(), args, n);
  }
  // A thread that finds many groups keeps them in hash partitions from here on, so that the
  // final merge can take each partition's table of one thread as it is and merge only the
  // other threads' groups into it.
  if (!t.split() && partitions_count_ > 1 && t.tables[0]->groups() >= split_groups_) split(t);
}

void HashAggregate::split(Groups& g) {
  std::unique_ptr<Table> whole = std::move(g.tables[0]);
  g.tables.clear();
  for (size_t p = 0; p < partitions_count_; ++p) {
    auto part = std::make_unique<Table>(state_size_);
    part->byte_keys = whole->byte_keys;
    std::vector<uint32_t> mine = groups_of_partition(*whole, partitions_count_, p);
    part->reserve(mine.size(), mine.size());
    merge_into(*part, *whole, mine);
    g.tables.push_back(std::move(part));
  }
}

void HashAggregate::groups_to_byte_keys(Groups& g, const KeyEncoder& enc) {
  if (g.byte_keys()) return;
  for (auto& t : g.tables) t->to_byte_keys(enc);
  if (!g.split()) return;
  // Byte keys hash differently: the groups move to the partitions of their new hashes.
  Groups old;
  old.tables.swap(g.tables);
  g.tables.push_back(std::make_unique<Table>(state_size_));
  g.tables[0]->byte_keys = true;
  for (auto& t : old.tables) {
    std::vector<uint32_t> all = groups_of_partition(*t, 1, 0);
    merge_into(*g.tables[0], *t, all);
  }
  split(g);
}

void HashAggregate::combine(LocalSinkState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  Groups& g = static_cast<LocalTable&>(local).groups;
  if (g.groups() > 0) locals_.push_back(std::move(g));
}

/// The groups of `src` that fall in `partition` (of `partitions`, a power of two).
std::vector<uint32_t> HashAggregate::groups_of_partition(const Table& src, size_t partitions, size_t partition) {
  std::vector<uint32_t> mine;
  mine.reserve(src.groups() / partitions + 1);
  for (size_t g = 0; g < src.groups(); ++g)
    if (partitions == 1 || partition_of(src.hashes[g], partitions) == partition) mine.push_back(static_cast<uint32_t>(g));
  return mine;
}

/// Merges the groups `mine` of `src` into `dst`, destroying their states in `src`. A group new
/// to `dst` takes its state from `src` as it is when no state owns memory (the state it would
/// have merged into one table of its own), else merges into a fresh one.
void HashAggregate::merge_into(Table& dst, Table& src, const std::vector<uint32_t>& mine) {
  bool fresh = false;
  auto mark_fresh = [&fresh](uint8_t*) { fresh = true; };
  const bool owning =
      std::any_of(functions_.begin(), functions_.end(), [](const auto& f) { return f->needs_destroy(); });
  const bool packed = !src.byte_keys;
  // Byte keys new to `dst` stay in `src`'s storage, which `dst` keeps.
  if (!packed && !mine.empty()) dst.adopt(src);
  constexpr size_t kAhead = 16;
  for (size_t k = 0; k < mine.size(); ++k) {
    const size_t g = mine[k];
    if (k + kAhead < mine.size()) dst.prefetch(src.hashes[mine[k + kAhead]]);
    fresh = false;
    int32_t to = packed ? dst.find_or_insert_packed(src.packed[g], src.hashes[g], mark_fresh)
                        : dst.find_or_insert(src.keys[g], src.hashes[g], mark_fresh, true);
    uint8_t* d = dst.state(static_cast<size_t>(to));
    uint8_t* from = src.state(g);
    if (fresh && !owning) {
      std::memcpy(d, from, state_size_);
      continue;
    }
    for (size_t f = 0; f < functions_.size(); ++f) {
      if (fresh) functions_[f]->init(d + state_offsets_[f]);
      functions_[f]->merge(d + state_offsets_[f], from + state_offsets_[f]);
      if (functions_[f]->needs_destroy()) functions_[f]->destroy(from + state_offsets_[f]);
    }
  }
}

/// Merges the groups of every handed-over table that fall in `partition` (of `partitions`)
/// into one table. A thread's table of that very partition (one split into `partitions`) is
/// the destination, the largest such when there are several; else a new table. It is sized up
/// front so that it never grows while merging when the tables share no groups (many groups,
/// each seen by one thread), yet with slots for at most four times the largest share when many
/// tables could each hold the same groups.
std::unique_ptr<HashAggregate::Table> HashAggregate::merge_partition(size_t partitions, size_t partition,
                                                                     bool byte_keys) {
  std::vector<Table*> sources;
  std::vector<std::vector<uint32_t>> shares;
  std::unique_ptr<Table>* own = nullptr;  // the destination's place in locals_, when taken
  size_t largest = 0, sum = 0;
  for (auto& l : locals_) {
    if (l.split() && l.tables.size() == partitions) {
      std::unique_ptr<Table>& t = l.tables[partition];
      if (!own || t->groups() > (*own)->groups()) own = &t;
      sources.push_back(t.get());
      shares.push_back(groups_of_partition(*t, 1, 0));
    } else if (l.by_partition.size() == partitions) {
      sources.push_back(l.tables[0].get());
      shares.push_back(std::move(l.by_partition[partition]));
    } else {
      for (auto& t : l.tables) {
        sources.push_back(t.get());
        shares.push_back(groups_of_partition(*t, partitions, partition));
      }
    }
    largest = std::max(largest, shares.back().size());
    sum += shares.back().size();
  }
  std::unique_ptr<Table> part;
  if (own) {
    part = std::move(*own);
  } else {
    part = std::make_unique<Table>(state_size_);
    part->byte_keys = byte_keys;
  }
  part->reserve(sum, std::min(sum, 4 * largest));
  for (size_t i = 0; i < sources.size(); ++i)
    if (sources[i] != part.get()) merge_into(*part, *sources[i], shares[i]);
  return part;
}

std::vector<Batch> HashAggregate::materialize(Table& t) const {
  std::vector<TypePtr> key_types;
  for (auto& k : keys_) key_types.push_back(k->type);
  KeyEncoder enc(key_types);
  std::vector<Batch> out;
  size_t total = t.groups();
  // Each output batch is one block of the table's per-group storage.
  static_assert(static_cast<size_t>(kBatchRows) == GroupColumn::kBlockGroups);
  for (size_t off = 0; off < total; off += static_cast<size_t>(kBatchRows)) {
    size_t len = std::min(total - off, static_cast<size_t>(kBatchRows));
    Batch b;
    b.num_rows = static_cast<int64_t>(len);
    if (!t.byte_keys) {
      b.columns = enc.decode_packed(t.packed.run(off), static_cast<int64_t>(len));
    } else {
      std::vector<std::string_view> keys(t.keys.run(off), t.keys.run(off) + len);
      b.columns = enc.decode(keys);
    }
    std::vector<uint8_t*> ptrs(len);
    for (size_t f = 0; f < functions_.size(); ++f) {
      for (size_t i = 0; i < len; ++i) ptrs[i] = t.state(off + i) + state_offsets_[f];
      ColumnBuilder col(calls_[f].signature.result_type, static_cast<int64_t>(len));
      functions_[f]->finalize(ptrs.data(), static_cast<int64_t>(len), col);
      b.columns.push_back(col.finish());
    }
    out.push_back(std::move(b));
  }
  return out;
}

void HashAggregate::finalize(ExecContext& ctx) {
  init(ctx);
  size_t total = 0;
  for (auto& l : locals_) total += l.groups();
  // Tables merge only with tables of the same key form: when one thread saw a long string, all
  // take byte keys.
  const bool byte_keys =
      std::any_of(locals_.begin(), locals_.end(), [](const Groups& l) { return l.byte_keys(); });
  if (byte_keys) {
    std::vector<TypePtr> key_types;
    for (auto& k : keys_) key_types.push_back(k->type);
    KeyEncoder enc(key_types);
    for (auto& l : locals_) groups_to_byte_keys(l, enc);
  }
  if (locals_.size() == 1) {
    // One thread's groups: its tables hold disjoint groups already.
    for (auto& t : locals_[0].tables) partitions_.push_back(std::move(t));
  } else if (total < kParallelMergeGroups) {
    partitions_.push_back(merge_partition(1, 0, byte_keys));
  } else {
    const size_t partitions = partitions_count_;
    ThreadPool::global().parallel_run(locals_.size(), [&](size_t i) {
      Groups& l = locals_[i];
      if (l.split()) return;
      const Table& t = *l.tables[0];
      l.by_partition.resize(partitions);
      for (auto& share : l.by_partition) share.reserve(t.groups() / partitions * 5 / 4 + 16);
      for (size_t g = 0; g < t.groups(); ++g)
        l.by_partition[partition_of(t.hashes[g], partitions)].push_back(static_cast<uint32_t>(g));
    });
    partitions_.resize(partitions);
    ThreadPool::global().parallel_run(partitions, [&](size_t p) { partitions_[p] = merge_partition(partitions, p, byte_keys); });
  }
  // Every state of the handed-over tables was merged (and destroyed) or moved.
  locals_.clear();
  if (partitions_.empty()) partitions_.push_back(std::make_unique<Table>(state_size_));
  // A global aggregate (no keys) produces one row even for empty input.
  if (keys_.empty() && partitions_[0]->groups() == 0) {
    partitions_[0]->find_or_insert_packed(PackedKey{0}, hash_packed(PackedKey{0}), [this](uint8_t* s) {
      for (size_t f = 0; f < functions_.size(); ++f) functions_[f]->init(s + state_offsets_[f]);
    });
  }
  std::vector<std::vector<Batch>> parts(partitions_.size());
  ThreadPool::global().parallel_run(partitions_.size(), [&](size_t p) { parts[p] = materialize(*partitions_[p]); });
  for (auto& part : parts)
    for (auto& b : part) output_.push_back(std::move(b));
}

std::unique_ptr<SourceState> HashAggregate::open_source(ExecContext&) const {
  return std::make_unique<BatchListSource>();
}

bool HashAggregate::next_morsel(SourceState& state, ExecContext&, const Emit& emit) const {
  return emit_from_list(output_, state, emit);
}

size_t HashAggregate::max_parallelism(const SourceState&) const { return std::max<size_t>(1, output_.size()); }

}  // namespace ember::exec
