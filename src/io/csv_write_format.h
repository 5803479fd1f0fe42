#pragma once

#include <string>
#include <string_view>

#include "common/config.h"
#include "common/locale.h"
#include "io/data_source.h"

namespace ember::io {

/// The options of Spark's CSV writer (the CSV sink and to_csv), with the writer's defaults:
/// surrounding whitespace trimmed, an empty string written as `""`, nulls as `nullValue`.
struct CsvWriteOptions {
  std::string sep = ",";
  char quote = '"';      // an empty option quotes with '\0', as Spark's writer does
  char escape = '\\';
  char escape_escape = '\\';  // charToEscapeQuoteEscaping: what precedes an escape character
  bool quote_all = false;
  bool escape_quotes = true;
  bool header = false;
  bool trim_leading = true;
  bool trim_trailing = true;
  std::string null_value;
  std::string empty_value = "\"\"";
  std::string line_sep = "\n";
  std::string time_zone = "UTC";
  std::string date_format = "yyyy-MM-dd";
  std::string timestamp_format = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
  std::string timestamp_ntz_format = "yyyy-MM-dd'T'HH:mm:ss[.SSS]";
  const LocaleData* locale = nullptr;  // names in date and timestamp patterns; null: en-US
};

/// Reads and validates the writer's options (the separator, quote and escape as the reader
/// validates them; flags must be true or false).
CsvWriteOptions parse_csv_write_options(const Options& options, const Config* config);

/// Appends the text of one non-null field as the writer puts it in a record: trimmed as the
/// options say, `emptyValue` when nothing is left, and quoted when quoteAll is set or the text
/// holds the separator, a line break or (with escapeQuotes, or at its start) the quote
/// character. Inside quotes the quote character is preceded by `escape` and the escape
/// character by charToEscapeQuoteEscaping.
void append_csv_field(std::string& line, std::string_view v, const CsvWriteOptions& o);

/// Appends a null field: `nullValue`, quoted when quoteAll is set.
void append_csv_null(std::string& line, const CsvWriteOptions& o);

}  // namespace ember::io
