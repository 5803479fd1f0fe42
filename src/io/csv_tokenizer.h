#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "io/csv_options.h"

namespace ember::io {

/// One field of a CSV record, pointing into the file's bytes (or into the options, for a
/// quoted empty field that reads as `emptyValue`).
struct CsvField {
  const char* data = nullptr;
  uint32_t size = 0;
  uint32_t aux = 0;  // kRaw: offset of the closing quote from `data`
  uint8_t flags = 0;

  static constexpr uint8_t kNull = 1;      // an unquoted empty field
  static constexpr uint8_t kEscaped = 2;   // quoted content with escapes to resolve
  static constexpr uint8_t kRaw = 4;       // text after the closing quote (see CsvTokenizer)
  static constexpr uint8_t kNormCrLf = 8;  // "\r\n" inside quotes reads as "\n"
  static constexpr uint8_t kNormCr = 16;   // '\r' inside quotes reads as '\n'
  static constexpr uint8_t kQuoteAppended = 32;  // reads with one more quote at the end
};

/// A record the parser cannot read at all (an unescaped quote with
/// `unescapedQuoteHandling=RAISE_ERROR`). Readers report it as Spark does for the context:
/// FAILED_READ_FILE while scanning a file.
class UnescapedQuoteReader;

class CsvSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What ends a record. Line mode accepts `\n`, `\r\n` and `\r` (Hadoop's line reader);
/// multiLine mode uses the first line ending found in the file, as the parser Spark uses
/// detects it (`\n`, `\r\n`, or `\r` which also takes a `\n` after it), other line-end
/// characters being ordinary ones, and reads that ending inside quotes as `\n`; `lineSep`
/// is exact in both.
enum class Newline : uint8_t { kAny, kLf, kCrLf, kCr, kCustom };

/// Splits CSV text into records and fields with the rules of the parser Spark uses:
///  - a field is quoted only when the quote is its first character (after leading
///    whitespace with `ignoreLeadingWhiteSpace`); inside quotes the escape character escapes
///    a quote or itself (other escapes stay as they are); when escape == quote a doubled
///    quote is one quote; otherwise a run of quotes followed by the end of the field closes
///    it, all but the last being part of the value;
///  - whitespace between a closing quote and the delimiter is skipped; any other text there
///    makes the value `quote + content + quote + text up to the next delimiter`;
///  - a quote left open runs to the end of the record (of the line, or in multiLine mode to
///    the end of the file);
///  - text after a closing quote other than whitespace and a separator is an unescaped quote,
///    handled as `unescapedQuoteHandling` says (see csv_unescaped_quotes.cc); fields read that
///    way point into storage of the calling thread, valid until its next call that splits;
///  - an unquoted empty field is null; a quoted empty one reads as `emptyValue`;
///  - with a delimiter of several characters, the last field of a record is not trimmed
///    and, unquoted and ending with a quote, reads with one quote more, and SKIP_VALUE skips
///    to the end of the line rather than to the next delimiter (quirks of that parser).
class CsvTokenizer {
 public:
  explicit CsvTokenizer(const CsvOptions& options);

  /// Line mode: the end of the line starting at `p` (the terminator, or `end`); `*next`
  /// receives the start of the following line. `may_have_cr` false promises that no '\r'
  /// occurs in [p, end), which lets the search look for '\n' alone.
  const char* line_end(const char* p, const char* end, const char** next,
                       bool may_have_cr = true) const;
  /// The same for multiLine mode's record terminator.
  const char* line_end(const char* p, const char* end, const char** next, Newline nl) const;

  /// multiLine mode: the newline convention of a file's text (kCustom with `lineSep`).
  Newline detect_newline(const char* p, const char* end) const;

  /// Splits one line [p, end) (no terminator inside) into fields. Stores fields with index
  /// < `capacity` in `out`; stops after `limit` fields. Returns the number of fields seen
  /// (at most `limit`).
  int split_line(const char* p, const char* end, CsvField* out, int capacity, int limit) const;

  /// multiLine mode: splits the record starting at `p` (quoted fields may span lines) into
  /// fields, returning a pointer past the record's terminator. `*count` receives the number
  /// of fields and `*record_end` the end of the record's text.
  const char* split_record(const char* p, const char* end, Newline nl, CsvField* out,
                           int capacity, int* count, const char** record_end) const;

  /// multiLine mode: whether the record at `p` starts with fields the previous record left
  /// (so `p`, where a field ended, is not the start of a line).
  bool resumes_at(const char* p) const;
  /// Drops fields left to a next record that will not be read (call before a walk).
  void forget_carried_fields() const;

  /// The field's text: its bytes, or the resolved text in `scratch`.
  std::string_view text(const CsvField& f, std::string& scratch) const {
    constexpr uint8_t kResolve = CsvField::kEscaped | CsvField::kRaw | CsvField::kNormCrLf |
                                 CsvField::kNormCr | CsvField::kQuoteAppended;
    if (!(f.flags & kResolve)) return {f.data, f.size};
    return resolve(f, scratch);
  }

  /// True when the line [p, end) has only characters <= ' ' (Spark skips such lines).
  static bool blank(const char* p, const char* end) {
    for (; p < end; ++p)
      if (static_cast<unsigned char>(*p) > ' ') return false;
    return true;
  }

 private:
  template <bool kMultiLine>
  const char* split(const char* p, const char* end, Newline nl, CsvField* out, int capacity,
                    int limit, int* count, const char** record_end) const;
  std::string_view resolve(const CsvField& f, std::string& scratch) const;
  /// Reads the quoted field opening at `p` by the rules of `unescapedQuoteHandling`, once the
  /// fast path has met an unescaped quote (or the end of the input) in it. Appends the fields
  /// it yields to `out` (BACK_TO_DELIMITER splits fields off the text read so far) and sets
  /// `*stop` to where the last one ends: a delimiter, a record terminator or `end`. Returns
  /// true when a line end among the split text ended the record (multiLine mode); the
  /// fields after it wait for the next record (see resumes_at). `new_record` says that no
  /// earlier field of the record was read that way.
  bool read_unescaped(const char* p, const char* end, Newline nl, bool multi_line, CsvField* out,
                      int capacity, int* n, bool new_record, const char** stop) const;
  /// Appends the fields a record left to the next (see read_unescaped) up to the next record
  /// end among them; returns true when there is one.
  bool resume_fields(CsvField* out, int capacity, int* n) const;
  friend class UnescapedQuoteReader;
  void unescape_into(const char* d, size_t n, uint8_t flags, std::string& out) const;
  bool delimiter_at(const char* p, const char* end) const {
    if (*p != delim0_) return false;
    if (delim_.size() == 1) return true;
    return static_cast<size_t>(end - p) >= delim_.size() &&
           std::string_view(p, delim_.size()) == delim_;
  }
  bool terminator_at(const char* p, const char* end, Newline nl) const;
  const char* skip_terminator(const char* p, const char* end, Newline nl) const;

  std::string delim_;
  char delim0_;
  char quote_;
  char escape_;
  bool quoting_;
  bool trim_leading_, trim_trailing_;
  UnescapedQuotes unescaped_;
  // A delimiter of several characters with STOP_AT_DELIMITER: malformed quoted fields read
  // as the raw text to the delimiter (a run of quotes before it closing the value, all but
  // the last being text), an open quote runs to the end of the record.
  bool legacy_quotes_;
  std::string line_sep_;  // empty: \n, \r\n and \r
  std::string empty_value_;
};

}  // namespace ember::io
