#pragma once

// What the self-describing file formats (Parquet, ORC) share about their schemas: matching a
// relation's columns to a file's by name, merging the schemas of several files (mergeSchema),
// and the type conversions a user schema may ask of a file's column.

#include <string>
#include <vector>

#include "types/data_type.h"

namespace ember::io {

/// Whether two column names are the same under spark.sql.caseSensitive.
bool same_column_name(const std::string& a, const std::string& b, bool case_sensitive);

/// The index of the field named `name` in `schema`, or -1.
int find_column(const Schema& schema, const std::string& name, bool case_sensitive);

/// Adds the fields of `file` missing from `merged` (by name) to its end, as Spark merges the
/// schemas of a relation's files; a field present in both with another type is
/// CANNOT_MERGE_SCHEMAS.
void merge_file_schema(Schema& merged, const Schema& file, bool case_sensitive);

/// The schema of a scan without a user schema, from its files' schemas in listing order: the
/// first one's, or with `merge` (mergeSchema) all of them merged; UNABLE_TO_INFER_SCHEMA naming
/// `format` ("Parquet", "ORC") when there is none.
Schema infer_file_schema(const std::vector<const Schema*>& files, bool merge, bool case_sensitive,
                         const std::string& format);

/// Whether a column stored as `file_type` reads as `want` (a user schema's type): the widenings
/// Spark's file readers perform (integral to a wider integral, float and int to double, date to
/// timestamp_ntz, string and binary either way, decimal to a decimal that holds every value).
bool readable_as(const DataType& file_type, const DataType& want);

}  // namespace ember::io
