// Value ordering of column rows, shared by sorting and the collection functions.

#include "column/compare.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace ember {

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

template <typename T>
ValueCompare fixed(const ColumnPtr& a, const ColumnPtr& b) {
  const T* x = a->values<T>();
  const T* y = b->values<T>();
  return [a, b, x, y](int64_t i, int64_t j) { return cmp_values(x[i], y[j]); };
}

/// Compares possibly-null rows i of `a` and j of `b`, nulls first.
int compare_nullable(const Column& a, const Column& b, const ValueCompare& cmp, int64_t i, int64_t j) {
  bool an = a.is_null(i), bn = b.is_null(j);
  if (an || bn) return an && bn ? 0 : (an ? -1 : 1);
  return cmp(i, j);
}
}  // namespace

ValueCompare value_comparator(const ColumnPtr& a, const ColumnPtr& b) {
  switch (a->type()->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      return [a, b](int64_t i, int64_t j) {
        int r = a->string_at(i).compare(b->string_at(j));
        return r < 0 ? -1 : (r > 0 ? 1 : 0);
      };
    case TypeId::kBoolean:
      return [a, b](int64_t i, int64_t j) { return static_cast<int>(a->bool_at(i)) - static_cast<int>(b->bool_at(j)); };
    case TypeId::kNull: return [](int64_t, int64_t) { return 0; };
    case TypeId::kByte: return fixed<int8_t>(a, b);
    case TypeId::kShort: return fixed<int16_t>(a, b);
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kYearMonthInterval: return fixed<int32_t>(a, b);
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kDayTimeInterval: return fixed<int64_t>(a, b);
    case TypeId::kFloat: return fixed<float>(a, b);
    case TypeId::kDouble: return fixed<double>(a, b);
    case TypeId::kDecimal: return fixed<int128_t>(a, b);
    case TypeId::kCalendarInterval: {
      // Not orderable in Spark (the analyzer refuses); months, days, microseconds in turn serve
      // equality, which is all the engine asks of it.
      const CalendarInterval* x = a->values<CalendarInterval>();
      const CalendarInterval* y = b->values<CalendarInterval>();
      return [a, b, x, y](int64_t i, int64_t j) {
        if (int r = cmp_values(x[i].months, y[j].months)) return r;
        if (int r = cmp_values(x[i].days, y[j].days)) return r;
        return cmp_values(x[i].micros, y[j].micros);
      };
    }
    case TypeId::kVariant:  // not orderable in Spark (the analyzer refuses); its two binaries
    case TypeId::kStruct: {
      std::vector<ValueCompare> fields;
      for (size_t f = 0; f < a->children().size(); ++f) fields.push_back(value_comparator(a->child(f), b->child(f)));
      return [a, b, fields](int64_t i, int64_t j) {
        for (size_t f = 0; f < fields.size(); ++f) {
          int r = compare_nullable(*a->child(f), *b->child(f), fields[f], i, j);
          if (r) return r;
        }
        return 0;
      };
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      // Maps are not orderable in Spark; comparing their entries in order serves equality of
      // identical layouts only, which is all the engine asks of them.
      ColumnPtr ea = a->child(0), eb = b->child(0);
      ValueCompare ec = value_comparator(ea, eb);
      return [a, b, ea, eb, ec](int64_t i, int64_t j) {
        const int32_t* oa = a->offsets();
        const int32_t* ob = b->offsets();
        int32_t la = oa[i + 1] - oa[i], lb = ob[j + 1] - ob[j];
        for (int32_t k = 0; k < std::min(la, lb); ++k) {
          int r = compare_nullable(*ea, *eb, ec, oa[i] + k, ob[j] + k);
          if (r) return r;
        }
        return la < lb ? -1 : (la > lb ? 1 : 0);
      };
    }
  }
  EMBER_UNREACHABLE("value_comparator: unknown type");
}

bool orderable(const DataType& type) {
  switch (type.id()) {
    case TypeId::kMap:
    case TypeId::kCalendarInterval:
    case TypeId::kVariant: return false;
    case TypeId::kStruct:
    case TypeId::kArray:
      for (const auto& f : type.fields())
        if (!orderable(*f.type)) return false;
      return true;
    default: return true;
  }
}

int compare_values(const Value& a, const Value& b, const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool());
    case TypeId::kFloat:
    case TypeId::kDouble: return cmp_values(a.as_double(), b.as_double());
    case TypeId::kDecimal: return cmp_values(a.as_decimal(), b.as_decimal());
    case TypeId::kString:
    case TypeId::kBinary: {
      int r = a.as_bytes().compare(b.as_bytes());
      return r < 0 ? -1 : (r > 0 ? 1 : 0);
    }
    case TypeId::kStruct:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kCalendarInterval:
    case TypeId::kVariant: {
      // Lists: struct fields, array elements, map entries ([key, value] lists), interval parts.
      const Value::List& x = a.as_list();
      const Value::List& y = b.as_list();
      const auto& fields = type.fields();
      for (size_t k = 0; k < std::min(x.size(), y.size()); ++k) {
        bool xn = x[k].is_null(), yn = y[k].is_null();
        if (xn || yn) {
          if (xn && yn) continue;
          return xn ? -1 : 1;
        }
        int r = 0;
        if (type.id() == TypeId::kStruct || type.id() == TypeId::kVariant) r = compare_values(x[k], y[k], *fields[k].type);
        else if (type.id() == TypeId::kArray) r = compare_values(x[k], y[k], *fields[0].type);
        else if (type.id() == TypeId::kMap) r = compare_values(x[k], y[k], *DataType::struct_(fields));
        else r = cmp_values(x[k].as_int(), y[k].as_int());
        if (r) return r;
      }
      return cmp_values(x.size(), y.size());
    }
    default: return cmp_values(a.as_int(), b.as_int());
  }
}

}  // namespace ember
