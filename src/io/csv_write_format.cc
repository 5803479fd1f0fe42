#include "io/csv_write_format.h"

#include "common/error.h"
#include "io/csv_options.h"

namespace ember::io {

CsvWriteOptions parse_csv_write_options(const Options& opt, const Config* config) {
  const CsvOptions read = parse_csv_options(opt, config);
  CsvWriteOptions o;
  o.sep = read.delimiter;
  o.quote = read.quote;
  o.escape = read.escape;
  o.escape_escape = o.escape;
  if (opt.has("charToEscapeQuoteEscaping")) {
    const std::string v = opt.get("charToEscapeQuoteEscaping");
    if (v.size() > 1) {
      throw SparkError(ErrorKind::kRuntime, "OPTION_VALUE_EXCEEDS_ONE_CHARACTER",
                       "The value of charToEscapeQuoteEscaping cannot be more than one character, but got " +
                           v + ".",
                       {{"optionName", "charToEscapeQuoteEscaping"}, {"optionValue", v}}, "22023");
    }
    o.escape_escape = v.empty() ? '\0' : v[0];
  }
  o.quote_all = opt.get_bool("quoteAll", false);
  o.escape_quotes = opt.get_bool("escapeQuotes", true);
  o.header = opt.get_bool("header", false);
  o.trim_leading = opt.get_bool("ignoreLeadingWhiteSpace", true);
  o.trim_trailing = opt.get_bool("ignoreTrailingWhiteSpace", true);
  o.null_value = read.null_value;
  o.empty_value = opt.get("emptyValue", "\"\"");
  if (read.line_sep) o.line_sep = *read.line_sep;
  o.time_zone = read.time_zone;
  o.locale = read.locale;
  o.date_format = opt.get("dateFormat", o.date_format);
  o.timestamp_format = opt.get("timestampFormat", o.timestamp_format);
  o.timestamp_ntz_format = opt.get("timestampNTZFormat", o.timestamp_ntz_format);
  return o;
}

void append_csv_field(std::string& line, std::string_view v, const CsvWriteOptions& o) {
  if (o.trim_leading)
    while (!v.empty() && static_cast<unsigned char>(v.front()) <= ' ') v.remove_prefix(1);
  if (o.trim_trailing)
    while (!v.empty() && static_cast<unsigned char>(v.back()) <= ' ') v.remove_suffix(1);
  if (v.empty()) {
    line += o.empty_value;
    return;
  }
  // An empty quote option makes the writer quote with the NUL character, as Spark's does.
  bool quote = o.quote_all;
  if (!quote) {
    quote = v.find(o.sep) != std::string_view::npos || v.find_first_of("\r\n") != std::string_view::npos ||
            v.front() == o.quote || (o.escape_quotes && v.find(o.quote) != std::string_view::npos);
  }
  if (!quote) {
    line.append(v);
    return;
  }
  line += o.quote;
  for (char ch : v) {
    if (ch == o.quote) {
      line += o.escape;
    } else if (ch == o.escape && o.escape_escape != '\0') {
      line += o.escape_escape;
    }
    line += ch;
  }
  line += o.quote;
}

void append_csv_null(std::string& line, const CsvWriteOptions& o) {
  if (o.quote_all) line += o.quote;
  line += o.null_value;
  if (o.quote_all) line += o.quote;
}

}  // namespace ember::io
