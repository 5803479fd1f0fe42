#include "io/file_schema.h"

#include <algorithm>
#include <cctype>

#include "common/ascii.h"
#include "common/error.h"

namespace ember::io {

namespace {

int integral_rank(TypeId id) {
  switch (id) {
    case TypeId::kByte: return 1;
    case TypeId::kShort: return 2;
    case TypeId::kInt: return 3;
    case TypeId::kLong: return 4;
    default: return 0;
  }
}

}  // namespace

bool same_column_name(const std::string& a, const std::string& b, bool case_sensitive) {
  return case_sensitive ? a == b : ascii_lower(a) == ascii_lower(b);
}

int find_column(const Schema& schema, const std::string& name, bool case_sensitive) {
  for (size_t i = 0; i < schema.size(); ++i)
    if (same_column_name(schema[i].name, name, case_sensitive)) return static_cast<int>(i);
  return -1;
}

void merge_file_schema(Schema& merged, const Schema& file, bool case_sensitive) {
  for (const auto& f : file) {
    const int at = find_column(merged, f.name, case_sensitive);
    if (at < 0) {
      merged.push_back(f);
    } else if (!merged[static_cast<size_t>(at)].type->same_type(*f.type)) {
      throw SparkError(ErrorKind::kRuntime, "CANNOT_MERGE_SCHEMAS",
                       "Failed merging schemas:\nInitial schema:\n" + schema_tree_string(merged) +
                           "\nSchema that cannot be merged with the initial schema:\n" +
                           schema_tree_string(file) + ".",
                       {{"left", schema_tree_string(merged)}, {"right", schema_tree_string(file)}},
                       "42KD9");
    }
  }
}

Schema infer_file_schema(const std::vector<const Schema*>& files, bool merge, bool case_sensitive,
                         const std::string& format) {
  if (files.empty()) {
    throw SparkError(ErrorKind::kAnalysis, "UNABLE_TO_INFER_SCHEMA",
                     "Unable to infer schema for " + format + ". It must be specified manually.",
                     {{"format", format}}, "42KD9");
  }
  Schema schema = *files[0];
  if (merge)
    for (size_t i = 1; i < files.size(); ++i) merge_file_schema(schema, *files[i], case_sensitive);
  return schema;
}

bool readable_as(const DataType& file_type, const DataType& want) {
  if (file_type.same_type(want)) return true;
  const int from = integral_rank(file_type.id()), to = integral_rank(want.id());
  if (from && to) return from <= to;
  if (file_type.id() == TypeId::kFloat && want.id() == TypeId::kDouble) return true;
  if (file_type.id() == TypeId::kInt && want.id() == TypeId::kDouble) return true;
  if (file_type.id() == TypeId::kDate && want.id() == TypeId::kTimestampNtz) return true;
  if (file_type.id() == TypeId::kBinary && want.id() == TypeId::kString) return true;
  if (file_type.id() == TypeId::kString && want.id() == TypeId::kBinary) return true;
  if (file_type.id() == TypeId::kDecimal && want.id() == TypeId::kDecimal)
    return want.scale() >= file_type.scale() &&
           want.precision() - want.scale() >= file_type.precision() - file_type.scale();
  return false;
}

}  // namespace ember::io
