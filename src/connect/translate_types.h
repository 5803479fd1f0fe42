#pragma once

#include "plan/cache_manager.h"
#include "spark/connect/common.pb.h"
#include "spark/connect/types.pb.h"
#include "types/data_type.h"

namespace ember::connect {

/// Converts a protocol data type to an Ember type. CHAR/VARCHAR become STRING (as Spark does in
/// query results), `unparsed` type strings are parsed as DDL. Types Ember does not have
/// (CALENDAR INTERVAL, TIME, VARIANT, UDT, geospatial) raise an UNSUPPORTED_DATA_TYPE error.
TypePtr type_from_proto(const spark::connect::DataType& proto);

/// Converts an Ember type to the protocol form Spark sends: decimals carry precision and scale,
/// intervals their start and end fields, struct fields their nullability and (when not empty)
/// their metadata JSON.
void type_to_proto(const DataType& type, spark::connect::DataType* out);
spark::connect::DataType type_to_proto(const DataType& type);

/// A relation schema as a protocol struct type, and back.
spark::connect::DataType schema_to_proto(const Schema& schema);
Schema schema_from_proto(const spark::connect::DataType& proto);

/// A protocol StorageLevel (persist, cacheTable, storageLevel) and back.
plan::StorageLevel storage_level_from_proto(const spark::connect::StorageLevel& proto);
void storage_level_to_proto(const plan::StorageLevel& level, spark::connect::StorageLevel* out);

/// A type as Scala prints Spark's DataType (`IntegerType`, `ArrayType(IntegerType,false)`),
/// as some of Spark's messages show it.
std::string scala_type_string(const DataType& t);

}  // namespace ember::connect
