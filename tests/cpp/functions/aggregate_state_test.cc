// HeapState and HeapStateAggregate (functions/aggregate_state.h): a slot makes its object once,
// copies into an empty slot, and releases exactly what it made.

#include "functions/aggregate_state.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ember::functions {
namespace {

/// Counts the objects alive, so that a test sees every object made released exactly once.
struct Counted {
  static inline int alive = 0;
  int value = 0;
  explicit Counted(int v = 0) : value(v) { ++alive; }
  Counted(const Counted& o) : value(o.value) { ++alive; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --alive; }
};

TEST(AggregateStateTest, GetOrCreateMakesTheObjectOnce) {
  HeapState<Counted> s;
  s.init();
  EXPECT_FALSE(s);
  EXPECT_EQ(s.get(), nullptr);
  EXPECT_EQ(s.get_or_create(7).value, 7);
  EXPECT_EQ(s.get_or_create(8).value, 7);  // made already: the arguments are unused
  EXPECT_EQ(Counted::alive, 1);
  s.destroy();
  EXPECT_FALSE(s);
  EXPECT_EQ(Counted::alive, 0);
  s.destroy();  // an empty slot releases nothing
  EXPECT_EQ(Counted::alive, 0);
}

TEST(AggregateStateTest, AssignCopiesIntoAnEmptySlotAndOverAnObject) {
  HeapState<Counted> src, dst;
  src.init();
  dst.init();
  src.create(3);
  dst.assign(*src);
  EXPECT_EQ(dst->value, 3);
  EXPECT_NE(dst.get(), src.get());
  EXPECT_EQ(Counted::alive, 2);
  Counted* held = dst.get();
  dst.assign(Counted(5));
  EXPECT_EQ(dst.get(), held);  // assigned in place, not made again
  EXPECT_EQ(dst->value, 5);
  EXPECT_EQ(Counted::alive, 2);
  src.destroy();
  dst.destroy();
  EXPECT_EQ(Counted::alive, 0);
}

/// An aggregate summing into a `Counted` made on the first row.
class CountedSum final : public HeapStateAggregate<Counted> {
 public:
  void update(uint8_t** states, const std::vector<ColumnPtr>&, int64_t n) const override {
    for (int64_t i = 0; i < n; ++i)
      if (states[i]) state(states[i]).get_or_create().value += 1;
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const Counted* s = state(src).get();
    if (!s) return;
    HeapState<Counted>& d = state(dst);
    if (!d)
      d.assign(*s);
    else
      d->value += s->value;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const Counted* c = state(states[i]).get();
      out.append<int64_t>(c ? c->value : 0);
    }
  }
};

TEST(AggregateStateTest, HeapStateAggregateStartsEmptyAndReleasesItsStates) {
  CountedSum fn;
  EXPECT_EQ(fn.state_size(), sizeof(void*));
  EXPECT_TRUE(fn.needs_destroy());
  std::vector<uint8_t> a(fn.state_size()), b(fn.state_size()), c(fn.state_size());
  fn.init(a.data());
  fn.init(b.data());
  fn.init(c.data());
  std::vector<uint8_t*> rows = {a.data(), b.data(), nullptr, b.data()};
  fn.update(rows.data(), {}, 4);
  EXPECT_EQ(Counted::alive, 2);
  fn.merge(c.data(), b.data());  // into an empty state: a copy
  fn.merge(a.data(), b.data());
  fn.merge(a.data(), c.data());
  EXPECT_EQ(Counted::alive, 3);
  ColumnBuilder out(DataType::long_());
  uint8_t* finals[] = {a.data(), c.data()};
  fn.finalize(finals, 2, out);
  ColumnPtr r = out.finish();
  EXPECT_EQ(r->values<int64_t>()[0], 5);
  EXPECT_EQ(r->values<int64_t>()[1], 2);
  for (auto* s : {a.data(), b.data(), c.data()}) fn.destroy(s);
  EXPECT_EQ(Counted::alive, 0);
}

}  // namespace
}  // namespace ember::functions
