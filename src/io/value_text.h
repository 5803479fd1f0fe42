#pragma once

#include <string>

#include "column/column.h"

namespace ember::io {

/// The text of a non-null primitive value as Spark's CAST(... AS STRING) writes it (Java's
/// floating point notation, `yyyy-MM-dd HH:mm:ss[.ffffff]` timestamps in `time_zone`), which is
/// also how partition directory values and text output print values.
std::string value_text(const Column& column, int64_t row, const std::string& time_zone);

}  // namespace ember::io
