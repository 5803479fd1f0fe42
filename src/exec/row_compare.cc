// Row comparison in Spark's sort order, shared by Sort and Window.

#include "exec/row_compare.h"

#include <algorithm>
#include <cmath>

#include "functions/kernel_util.h"

namespace ember::exec {

namespace {
template <typename T>
int cmp_values(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn || yn) return xn && yn ? 0 : (xn ? 1 : -1);
    // -0.0 and 0.0 are equal in Spark's ordering.
  }
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace

ValueCompare value_comparator(const ColumnPtr& c) {
  switch (c->type()->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      return [c](int64_t a, int64_t b) { return c->string_at(a).compare(c->string_at(b)); };
    case TypeId::kBoolean:
      return [c](int64_t a, int64_t b) { return static_cast<int>(c->bool_at(a)) - static_cast<int>(c->bool_at(b)); };
    case TypeId::kNull: return [](int64_t, int64_t) { return 0; };
    case TypeId::kStruct: {
      std::vector<ValueCompare> fields;
      std::vector<ColumnPtr> kids = c->children();
      for (auto& k : kids) fields.push_back(value_comparator(k));
      return [fields, kids](int64_t a, int64_t b) {
        for (size_t f = 0; f < fields.size(); ++f) {
          bool an = kids[f]->is_null(a), bn = kids[f]->is_null(b);
          if (an || bn) {
            if (an && bn) continue;
            return an ? -1 : 1;
          }
          int r = fields[f](a, b);
          if (r) return r;
        }
        return 0;
      };
    }
    case TypeId::kArray: {
      ColumnPtr elems = c->child(0);
      ValueCompare ec = value_comparator(elems);
      return [c, elems, ec](int64_t a, int64_t b) {
        const int32_t* o = c->offsets();
        int32_t la = o[a + 1] - o[a], lb = o[b + 1] - o[b];
        for (int32_t k = 0; k < std::min(la, lb); ++k) {
          int64_t x = o[a] + k, y = o[b] + k;
          bool xn = elems->is_null(x), yn = elems->is_null(y);
          if (xn || yn) {
            if (xn && yn) continue;
            return xn ? -1 : 1;
          }
          int r = ec(x, y);
          if (r) return r;
        }
        return la < lb ? -1 : (la > lb ? 1 : 0);
      };
    }
    default:
      return functions::dispatch_fixed(c->type()->id(), [&]<typename T>() -> ValueCompare {
        const T* v = c->values<T>();
        return [c, v](int64_t a, int64_t b) { return cmp_values(v[a], v[b]); };
      });
  }
}

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
