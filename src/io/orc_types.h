#pragma once

// How Spark types live in ORC files as Arrow's ORC adapter reads and writes them.
//
// Spark writes most types as the ORC type of the same name and marks the ones ORC has no type
// for with the ORC type attribute `spark.sql.catalyst.type` (which the adapter exposes as Arrow
// field metadata): timestamp_ntz is an ORC bigint of microseconds marked "timestamp_ntz", the
// year-month and day-time intervals are an int and a bigint marked "interval year to month" and
// "interval day to second". Timestamps (local time zone) are ORC timestamps: instants, whatever
// the session time zone of the writer or the reader. The adapter reads ORC timestamps as
// nanoseconds, so it reads only instants between the years 1677 and 2262 correctly.

#include <memory>
#include <string>

#include <arrow/api.h>

#include "types/data_type.h"

namespace ember::io {

/// The ORC type attribute in which Spark records a Spark type.
inline constexpr const char* kCatalystTypeAttribute = "spark.sql.catalyst.type";

/// The Spark type of a top-level field of an ORC file as the adapter reads it. Throws
/// UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE for a type Spark cannot read (a union).
TypePtr spark_type_of_orc(const arrow::Field& field);

/// The Arrow field the adapter writes for a Spark column; null when ORC cannot hold the type.
std::shared_ptr<arrow::Field> orc_field(const StructField& field);

/// The type `file_type` (a column as the adapter decoded it) takes so that Arrow's casts can
/// bring it to Ember's Arrow type for `spark_type`: integers that Spark's type attribute marks
/// as timestamp_ntz or an interval are relabelled; everything else is left to the casts.
std::shared_ptr<arrow::DataType> orc_read_type(const std::shared_ptr<arrow::DataType>& file_type,
                                               const DataType& spark_type);

/// `data` with its type, and its children's, replaced by `type`: a zero-copy relabelling
/// between Arrow types of the same physical layout (timestamp and int64, month_interval and
/// int32, a list and a list of relabelled elements...).
std::shared_ptr<arrow::ArrayData> relabel(const std::shared_ptr<arrow::ArrayData>& data,
                                          const std::shared_ptr<arrow::DataType>& type);

}  // namespace ember::io
