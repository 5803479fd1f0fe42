#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/config.h"
#include "common/locale.h"
#include "common/utf8.h"
#include "io/data_source.h"

namespace ember::io {

/// How a record that does not fit the schema is handled (Spark's `mode` option).
enum class ParseMode { kPermissive, kDropMalformed, kFailFast };

/// What the parser does with a quote inside a quoted value that neither escapes nor closes it
/// (Spark's `unescapedQuoteHandling`, named after the values Spark accepts).
enum class UnescapedQuotes {
  kStopAtDelimiter,     // the value is the raw text, quotes included, up to the delimiter
  kStopAtClosingQuote,  // the quote is text and the value goes on to a closing quote
  kBackToDelimiter,     // the value read so far is split at delimiters; the rest goes on unquoted
  kSkipValue,           // the value is null and the parser moves to the next delimiter
  kRaiseError,          // the file cannot be read
};

/// The CSV options Spark's reader understands, with Spark's names and defaults, validated
/// once per scan.
struct CsvOptions {
  std::string delimiter = ",";  // `sep` / `delimiter`, escapes such as `\t` resolved
  char quote = '"';             // '\0' when quoting is off (`quote` set to "")
  char escape = '\\';
  char comment = '\0';  // '\0' when unset
  bool header = false;
  bool infer_schema = false;
  bool prefer_date = true;
  bool ignore_leading_ws = false;
  bool ignore_trailing_ws = false;
  bool multi_line = false;
  std::string null_value;        // "" by default: empty fields are null
  std::string empty_value;       // what a quoted empty field ("") reads as
  std::string nan_value = "NaN";
  std::string positive_inf = "Inf";
  std::string negative_inf = "-Inf";
  std::optional<std::string> date_format;
  std::optional<std::string> timestamp_format;
  std::optional<std::string> timestamp_ntz_format;
  std::optional<std::string> line_sep;  // unset: \n, \r\n and \r all end a line
  ParseMode mode = ParseMode::kPermissive;
  UnescapedQuotes unescaped_quotes = UnescapedQuotes::kStopAtDelimiter;
  std::string corrupt_column = "_corrupt_record";
  double sampling_ratio = 1.0;
  int64_t max_columns = 20480;
  int64_t max_chars_per_column = -1;  // `maxCharsPerColumn`; negative: unlimited
  std::string time_zone;             // `timeZone` option, else the session's
  bool case_sensitive = false;       // spark.sql.caseSensitive (header de-duplication)
  bool infer_ntz = false;            // spark.sql.timestampType = TIMESTAMP_NTZ
  int64_t split_bytes = 0;           // file split size (spark.ember.io.csv.splitBytes); 0: auto
  std::string encoding = "UTF-8";
  /// `locale`: month and day names and AM/PM markers of date and timestamp patterns, and the
  /// decimal symbols of DECIMAL values (en-US keeps Spark's plain number syntax).
  const LocaleData* locale = &us_locale();

  bool quoting() const { return quote != '\0'; }
  /// Whether a parsed value is longer than maxCharsPerColumn allows (Java characters).
  bool too_long(std::string_view value) const {
    return max_chars_per_column >= 0 && static_cast<int64_t>(value.size()) > max_chars_per_column &&
           utf16_length(value) > max_chars_per_column;
  }
};

/// Spark's error for an empty `lineSep` in the CSV source and the CSV functions.
[[noreturn]] void throw_empty_line_separator();

/// Spark's MALFORMED_CSV_RECORD for a record the parser rejects (too many columns, a value past
/// maxCharsPerColumn).
[[noreturn]] void throw_malformed_csv_record(std::string_view record);

/// Reads and validates the options. Throws Spark's errors for invalid values (a delimiter of
/// more than one character per escape, a non-boolean flag, an unsupported encoding...).
CsvOptions parse_csv_options(const Options& options, const Config* config);

}  // namespace ember::io
