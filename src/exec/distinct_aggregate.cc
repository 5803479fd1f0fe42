// DISTINCT aggregates: the wrapped function sees each distinct argument row once, in the order
// of first occurrence (so order-dependent functions such as listagg(DISTINCT x) concatenate
// values as they first arrived, and the result does not depend on hashing).

#include "exec/distinct_aggregate.h"

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "exec/group_keys.h"
#include "functions/aggregate_state.h"

namespace ember::exec {
namespace {

/// The distinct encoded rows and the order they first arrived in (pointers into the set's
/// nodes, which stay put while the set grows).
struct Set {
  std::unordered_set<std::string> keys;
  std::vector<const std::string*> order;
  void insert(std::string key) {
    auto [it, added] = keys.insert(std::move(key));
    if (added) order.push_back(&*it);
  }
};

/// State: the group's `Set`, made on its first row or merge.
class DistinctAggregate final : public functions::HeapStateAggregate<Set> {
 public:
  DistinctAggregate(std::unique_ptr<functions::AggregateFunction> inner, std::vector<TypePtr> types)
      : inner_(std::move(inner)), encoder_(types), inner_size_((inner_->state_size() + 15) / 16 * 16) {}

  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    std::string arena;
    std::vector<uint32_t> offs, lens;
    encoder_.encode(args, n, arena, offs, lens);
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      state(states[i]).get_or_create().insert(std::string(arena.data() + offs[i], lens[i]));
    }
  }

  void merge(uint8_t* dst, const uint8_t* src) const override {
    const Set* s = state(src).get();
    if (!s) return;
    Set& d = state(dst).get_or_create();
    for (const std::string* k : s->order) d.insert(*k);
  }

  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    std::vector<uint8_t> scratch(inner_size_ + 16, 0);
    uint8_t* st = scratch.data();
    for (int64_t i = 0; i < n; ++i) {
      const Set* s = state(states[i]).get();
      inner_->init(st);
      if (s && !s->order.empty()) {
        std::vector<std::string_view> keys;
        keys.reserve(s->order.size());
        for (const std::string* k : s->order) keys.emplace_back(*k);
        std::vector<ColumnPtr> cols = encoder_.decode(keys);
        std::vector<uint8_t*> ptrs(keys.size(), st);
        inner_->update(ptrs.data(), cols, static_cast<int64_t>(keys.size()));
      }
      inner_->finalize(&st, 1, out);
      if (inner_->needs_destroy()) inner_->destroy(st);
    }
  }

 private:
  std::unique_ptr<functions::AggregateFunction> inner_;
  KeyEncoder encoder_;
  size_t inner_size_;
};

}  // namespace

std::unique_ptr<functions::AggregateFunction> make_distinct_aggregate(
    std::unique_ptr<functions::AggregateFunction> inner, std::vector<TypePtr> arg_types) {
  return std::make_unique<DistinctAggregate>(std::move(inner), std::move(arg_types));
}

}  // namespace ember::exec
