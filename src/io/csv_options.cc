#include "io/csv_options.h"

#include <algorithm>
#include <cctype>

#include "common/ascii.h"
#include "common/error.h"
#include "io/line_splits.h"

namespace ember::io {

namespace {

[[noreturn]] void invalid_delimiter(const std::string& sub, const std::string& message,
                                    const std::string& str = "") {
  std::map<std::string, std::string> params;
  if (!str.empty()) params["str"] = str;
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DELIMITER_VALUE." + sub,
                   "Invalid value for delimiter. " + message, params, "42602");
}

// One delimiter character from a chunk of the option: a plain character or a backslash
// escape, as Spark's CSVExprUtils.toChar reads it.
char delimiter_char(const std::string& chunk) {
  if (chunk.empty()) invalid_delimiter("EMPTY_STRING", "Delimiter cannot be empty string.");
  if (chunk == "\\") {
    invalid_delimiter("SINGLE_BACKSLASH",
                      "Single backslash is prohibited. It has special meaning as beginning of an "
                      "escape sequence. To get the backslash character, pass a string with two "
                      "backslashes as the delimiter.");
  }
  if (chunk.size() == 1) return chunk[0];
  if (chunk[0] == '\\') {
    switch (chunk[1]) {
      case 't': return '\t';
      case 'r': return '\r';
      case 'b': return '\b';
      case 'f': return '\f';
      case '"': return '"';
      case '\'': return '\'';
      case 'n': return '\n';
      case '\\': return '\\';
      default: break;
    }
    if (chunk == "\\u0000") return '\0';
    invalid_delimiter("UNSUPPORTED_SPECIAL_CHARACTER",
                      "Unsupported special character for delimiter: " + chunk + ".", chunk);
  }
  invalid_delimiter("DELIMITER_LONGER_THAN_EXPECTED",
                    "Delimiter cannot be more than one character: " + chunk + ".", chunk);
}

std::string delimiter_string(const std::string& option) {
  if (option.empty()) return std::string(1, delimiter_char(option));
  std::string out;
  size_t i = 0;
  while (i < option.size()) {
    const size_t len = option[i] == '\\' ? 2 : 1;
    const std::string chunk = option.substr(i, len);
    out += delimiter_char(chunk);
    i += chunk.size();
  }
  return out;
}

// A single-character option: unset → fallback, "" → '\0' (off), one character → it.
char char_option(const Options& o, const std::string& key, char fallback) {
  if (!o.has(key)) return fallback;
  const std::string v = o.get(key);
  if (v.empty()) return '\0';
  if (v.size() == 1) return v[0];
  throw SparkError(ErrorKind::kRuntime, "OPTION_VALUE_EXCEEDS_ONE_CHARACTER",
                   "The value of " + key + " cannot be more than one character, but got " + v + ".",
                   {{"optionName", key}, {"optionValue", v}}, "22023");
}

std::optional<std::string> optional_option(const Options& o, const std::string& key) {
  if (!o.has(key)) return std::nullopt;
  return o.get(key);
}

}  // namespace

void throw_empty_line_separator() {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_LINE_SEPARATOR.EMPTY",
                   "Invalid line separator configuration. The 'lineSep' option cannot be an empty "
                   "string.",
                   {}, "22023");
}

void throw_malformed_csv_record(std::string_view record) {
  const std::string text(record);
  throw SparkError(ErrorKind::kRuntime, "MALFORMED_CSV_RECORD", "Malformed CSV record: " + text,
                   {{"badRecord", text}}, "KD000");
}

CsvOptions parse_csv_options(const Options& o, const Config* config) {
  CsvOptions c;
  if (o.has("sep")) {
    c.delimiter = delimiter_string(o.get("sep"));
  } else if (o.has("delimiter")) {
    c.delimiter = delimiter_string(o.get("delimiter"));
  }
  c.quote = char_option(o, "quote", '"');
  c.escape = char_option(o, "escape", '\\');
  c.comment = char_option(o, "comment", '\0');
  c.header = o.get_bool("header", false);
  c.infer_schema = o.get_bool("inferSchema", false);
  c.prefer_date = o.get_bool("preferDate", true);
  c.ignore_leading_ws = o.get_bool("ignoreLeadingWhiteSpace", false);
  c.ignore_trailing_ws = o.get_bool("ignoreTrailingWhiteSpace", false);
  c.multi_line = o.get_bool("multiLine", false);
  c.null_value = o.get("nullValue", "");
  c.empty_value = o.get("emptyValue", "");
  c.nan_value = o.get("nanValue", "NaN");
  c.positive_inf = o.get("positiveInf", "Inf");
  c.negative_inf = o.get("negativeInf", "-Inf");
  c.date_format = optional_option(o, "dateFormat");
  c.timestamp_format = optional_option(o, "timestampFormat");
  c.timestamp_ntz_format = optional_option(o, "timestampNTZFormat");
  if (o.has("lineSep")) {
    const std::string sep = o.get("lineSep");
    if (sep.empty()) throw_empty_line_separator();
    c.line_sep = sep;
  }
  const std::string mode = ascii_lower(o.get("mode", "PERMISSIVE"));
  if (mode == "dropmalformed") {
    c.mode = ParseMode::kDropMalformed;
  } else if (mode == "failfast") {
    c.mode = ParseMode::kFailFast;
  } else {
    c.mode = ParseMode::kPermissive;  // Spark warns and falls back for unknown modes
  }
  const std::string quotes = o.get("unescapedQuoteHandling", "STOP_AT_DELIMITER");
  const std::string upper_quotes = ascii_upper(quotes);
  static const std::pair<const char*, UnescapedQuotes> kQuoteHandling[] = {
      {"STOP_AT_DELIMITER", UnescapedQuotes::kStopAtDelimiter},
      {"STOP_AT_CLOSING_QUOTE", UnescapedQuotes::kStopAtClosingQuote},
      {"BACK_TO_DELIMITER", UnescapedQuotes::kBackToDelimiter},
      {"SKIP_VALUE", UnescapedQuotes::kSkipValue},
      {"RAISE_ERROR", UnescapedQuotes::kRaiseError}};
  bool known_quotes = false;
  for (const auto& [name, value] : kQuoteHandling) {
    if (upper_quotes == name) {
      c.unescaped_quotes = value;
      known_quotes = true;
    }
  }
  if (!known_quotes) {
    // Spark looks the name up in the parser's enum and lets its lookup failure through.
    throw SparkError(ErrorKind::kIllegalArgument, "",
                     "No enum constant com.univocity.parsers.csv.UnescapedQuoteHandling." +
                         upper_quotes);
  }
  c.locale = locale_option(o);
  const std::string default_corrupt =
      config ? config->get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record")
             : "_corrupt_record";
  c.corrupt_column = o.get("columnNameOfCorruptRecord", default_corrupt);
  c.sampling_ratio = o.get_double("samplingRatio", 1.0);
  if (!(c.sampling_ratio > 0)) {
    throw SparkError(ErrorKind::kIllegalArgument, "",
                     "requirement failed: samplingRatio (" + o.get("samplingRatio") +
                         ") should be greater than 0");
  }
  c.max_columns = o.get_int("maxColumns", 20480);
  c.max_chars_per_column = o.get_int("maxCharsPerColumn", -1);
  c.time_zone = o.get("timeZone", config ? config->session_time_zone() : "UTC");
  if (config) {
    c.case_sensitive = config->case_sensitive();
    c.infer_ntz = ascii_lower(config->get_or("spark.sql.timestampType", "TIMESTAMP_LTZ")) == "timestamp_ntz";
    c.split_bytes = config->get_int("spark.ember.io.csv.splitBytes", configured_split_bytes(config));
    if (c.split_bytes > 0 && c.split_bytes < 4096) c.split_bytes = 4096;
  }

  const std::string enc = o.has("encoding") ? o.get("encoding") : o.get("charset", "UTF-8");
  const std::string e = ascii_lower(enc);
  static const char* kAccepted[] = {"iso-8859-1", "us-ascii", "utf-16", "utf-16be",
                                    "utf-16le",   "utf-32",   "utf-8"};
  bool accepted = false;
  for (const char* a : kAccepted) accepted |= e == a;
  if (!accepted) {
    throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.CHARSET",
                     "The value of parameter(s) `charset` in `CSVOptions` is invalid: expects one "
                     "of the iso-8859-1, us-ascii, utf-16, utf-16be, utf-16le, utf-32, utf-8, "
                     "but got " + enc + ".",
                     {{"parameter", "`charset`"}, {"functionName", "`CSVOptions`"},
                      {"charset", enc}},
                     "22023");
  }
  if (e != "utf-8" && e != "us-ascii" && e != "iso-8859-1") {
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "The feature is not supported: CSV files in " + enc +
                         " (Ember reads UTF-8, US-ASCII and ISO-8859-1).",
                     {}, "0A000");
  }
  c.encoding = e;
  return c;
}

}  // namespace ember::io
