// What tests of several layers share: columns built from literal values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "column/column.h"

namespace ember::test_util {

/// A column of `type`, an integral type of any width (byte to long, date, timestamp), holding
/// `values`; nullopt is a null.
inline ColumnPtr integral_column(const TypePtr& type,
                                 const std::vector<std::optional<int64_t>>& values) {
  ColumnBuilder b(type);
  for (const auto& v : values) {
    if (!v)
      b.append_null();
    else if (type->byte_width() == 1)
      b.append<int8_t>(static_cast<int8_t>(*v));
    else if (type->byte_width() == 2)
      b.append<int16_t>(static_cast<int16_t>(*v));
    else if (type->byte_width() == 4)
      b.append<int32_t>(static_cast<int32_t>(*v));
    else
      b.append<int64_t>(*v);
  }
  return b.finish();
}

/// A string column holding `values`, none null.
inline ColumnPtr string_column(const std::vector<std::string>& values) {
  ColumnBuilder b(DataType::string());
  for (const auto& v : values) b.append_bytes(v);
  return b.finish();
}

}  // namespace ember::test_util
