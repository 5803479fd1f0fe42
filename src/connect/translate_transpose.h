#pragma once

#include <atomic>
#include <memory>

#include "plan/logical_plan.h"

namespace ember::plan {
class Session;
}

namespace ember::connect {

/// DataFrame.transpose(indexColumn): Spark's TRANSPOSE, which runs the input while planning
/// (as Spark's analyzer does) and gives a local relation. Its first column, `key`, names the
/// non-index columns; one column per non-null index value follows, named by the value as
/// text, in ascending index order, of the non-index columns' least common type. `index` is the
/// index column (null: the first column).
plan::PlanPtr transpose_relation(plan::Session& session, const plan::PlanPtr& input,
                                 const plan::ExprPtr& index,
                                 std::shared_ptr<std::atomic<bool>> cancelled);

}  // namespace ember::connect
