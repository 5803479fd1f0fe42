#pragma once

// What an aggregate function may need to know of the aggregation that makes it, beyond its
// signature: set by the operator around its factory calls, read by the factories.

namespace ember::functions {

namespace detail {
inline thread_local bool t_grouped_aggregation = false;
}  // namespace detail

/// Whether the aggregate functions made on this thread now belong to an aggregation with
/// grouping keys. Spark keeps the states of such an aggregation in fixed-width rows, so a value
/// that leaves its type there is lost at once (a decimal sum becomes null); without keys, and
/// in windows, its states are objects that hold any value until the end.
inline bool grouped_aggregation() { return detail::t_grouped_aggregation; }

/// Marks the aggregate functions made on this thread during its lifetime as grouped or not.
class GroupedAggregationScope {
 public:
  explicit GroupedAggregationScope(bool grouped) : saved_(detail::t_grouped_aggregation) {
    detail::t_grouped_aggregation = grouped;
  }
  ~GroupedAggregationScope() { detail::t_grouped_aggregation = saved_; }
  GroupedAggregationScope(const GroupedAggregationScope&) = delete;
  GroupedAggregationScope& operator=(const GroupedAggregationScope&) = delete;

 private:
  bool saved_;
};

}  // namespace ember::functions
