#pragma once

#include <string>
#include <utility>
#include <vector>

#include "column/column.h"
#include "plan/session.h"

namespace ember::sql {

/// A command's small local result, built row by row.
class ResultBuilder {
 public:
  void column(std::string name, TypePtr type, bool nullable) {
    schema_.push_back({std::move(name), std::move(type), nullable, "{}"});
  }
  void row(std::vector<Value> values) { rows_.push_back(std::move(values)); }

  plan::QueryResult finish() {
    plan::QueryResult r;
    r.schema = schema_;
    if (schema_.empty()) return r;
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < schema_.size(); ++c) {
      ColumnBuilder b(schema_[c].type, static_cast<int64_t>(rows_.size()));
      for (auto& row : rows_) {
        if (row[c].is_null())
          b.append_null();
        else
          b.append_value(row[c]);
      }
      columns.push_back(b.finish());
    }
    r.batches.push_back(Batch(std::move(columns), static_cast<int64_t>(rows_.size())));
    return r;
  }

 private:
  Schema schema_;
  std::vector<std::vector<Value>> rows_;
};

}  // namespace ember::sql
