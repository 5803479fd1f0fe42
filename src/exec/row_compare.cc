// Row comparison in Spark's sort order, shared by Sort and Window.

#include "exec/row_compare.h"


namespace ember::exec {

RowComparator::RowComparator(std::vector<ColumnPtr> keys, std::vector<bool> ascending, std::vector<bool> nulls_first)
    : keys_(std::move(keys)), ascending_(std::move(ascending)), nulls_first_(std::move(nulls_first)) {
  for (auto& k : keys_) {
    cmps_.push_back(value_comparator(k));
    null_type_.push_back(k->type()->id() == TypeId::kNull);
  }
}

int RowComparator::compare(int64_t a, int64_t b) const {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const Column& c = *keys_[k];
    bool an = null_type_[k] || c.is_null(a);
    bool bn = null_type_[k] || c.is_null(b);
    if (an || bn) {
      if (an && bn) continue;
      return an == static_cast<bool>(nulls_first_[k]) ? -1 : 1;
    }
    int r = cmps_[k](a, b);
    if (r != 0) return ascending_[k] ? r : -r;
  }
  return 0;
}

}  // namespace ember::exec
