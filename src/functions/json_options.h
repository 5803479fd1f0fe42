#pragma once

// Options of the JSON and CSV functions (from_json's `options` map and friends): read from the
// constant map argument, looked up case-insensitively as Spark's option maps are.

#include <map>
#include <string>

#include "column/column.h"
#include "common/json.h"
#include "io/data_source.h"

namespace ember::functions {

class FunctionOptions {
 public:
  FunctionOptions() = default;
  /// The entries of the first row of `map_column` (a constant map<string, string>).
  explicit FunctionOptions(const Column& map_column);

  bool has(const std::string& key) const;
  std::string get(const std::string& key, const std::string& fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;

  /// The parser relaxations Spark's JSON options name, with Spark's defaults (single quotes and
  /// NaN / Infinity allowed, the rest off).
  JsonParseOptions json_parse_options() const;
  /// The options as a data source reads them (for the CSV options parser).
  io::Options io_options() const { return io::Options(entries_); }

 private:
  std::map<std::string, std::string> entries_;  // keys lower case
};

}  // namespace ember::functions
