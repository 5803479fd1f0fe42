// Quoted CSV fields with an unescaped quote inside, read as Spark's parser reads them for each
// `unescapedQuoteHandling`. Only malformed fields come here: the tokenizer's fast path reads
// well-formed ones, and STOP_AT_DELIMITER's raw text, itself.
//
// The rules are those of a character-at-a-time state machine: `ch` is the character under the
// cursor and `prev` the one read before it (or '\0' after an escape was consumed), and
// several decisions look at both. Whitespace is any character <= ' '. Reaching the end of the
// input ends the field wherever the machine is.

#include <deque>
#include <exception>

#include "common/error.h"
#include "io/csv_tokenizer.h"

namespace ember::io {

namespace {

// Values built here, per thread. A record's values stay until the thread splits its next one.
thread_local std::deque<std::string> t_values;

}  // namespace

/// A field read by the rules for unescaped quotes, and whether the record ends after it.
struct CarriedField {
  std::string text;
  bool null = false;
  bool ends_record = false;
};

namespace {

// Fields a record left to the next one: they start the record split at `resume`.
struct Carry {
  const char* resume = nullptr;
  std::vector<CarriedField> fields;
  size_t next = 0;
};
thread_local Carry t_carry;

// Appends fields from `fields[*next]` on up to one that ends the record; returns whether one
// did.
bool append_fields(std::vector<CarriedField>& fields, size_t* next, CsvField* out, int capacity,
                   int* n) {
  while (*next < fields.size()) {
    CarriedField& c = fields[(*next)++];
    CsvField f;
    if (c.null || c.text.empty()) {
      f.flags = CsvField::kNull;
    } else {
      t_values.push_back(std::move(c.text));
      f.data = t_values.back().data();
      f.size = static_cast<uint32_t>(t_values.back().size());
    }
    if (*n < capacity) out[*n] = f;
    ++*n;
    if (c.ends_record) return true;
  }
  return false;
}

}  // namespace

class UnescapedQuoteReader {
 public:
  UnescapedQuoteReader(const CsvTokenizer& t, const char* p, const char* end, Newline nl,
                       bool multi_line)
      : t_(t), end_(end), nl_(nl), multi_line_(multi_line), next_(p) {
    escape_ = t.escape_;
    // An escape character also escapes itself, unless it is the quote.
    escape_escape_ = t.escape_ == t.quote_ ? '\0' : t.escape_;
    mode_ = t.unescaped_;
  }

  /// Reads the field whose opening quote is at the start. Returns where it stopped.
  const char* read() {
    try {
      advance();  // the opening quote
      prev_ = '\0';
      quoted();
      stop_ = pos_;
    } catch (const AtEnd&) {
      if (ch_ == t_.quote_ && kind_ == kChar && prev_ != t_.quote_ && !unescaped_)
        value_ += t_.quote_;
      stop_ = end_;
    }
    if (trim_ && t_.trim_trailing_) {
      while (!value_.empty() && static_cast<unsigned char>(value_.back()) <= ' ') value_.pop_back();
    }
    return stop_;
  }

  std::string& value() { return value_; }
  bool skipped() const { return skipped_; }
  /// Fields BACK_TO_DELIMITER split off before the value.
  std::vector<CarriedField>& pieces() { return pieces_; }

 private:
  struct AtEnd {};
  enum Kind : uint8_t { kChar, kDelimiter, kNewline };

  // Moves to the next character (a delimiter or record terminator counts as one).
  void advance() {
    pos_ = next_;
    if (pos_ >= end_) throw AtEnd{};
    if (t_.delimiter_at(pos_, end_)) {
      kind_ = kDelimiter;
      ch_ = t_.delim0_;
      next_ = pos_ + t_.delim_.size();
    } else if (multi_line_ && t_.terminator_at(pos_, end_, nl_)) {
      kind_ = kNewline;
      ch_ = '\n';
      next_ = t_.skip_terminator(pos_, end_, nl_);
    } else {
      kind_ = kChar;
      ch_ = *pos_;
      next_ = pos_ + 1;
    }
  }
  bool separator() const { return kind_ != kChar; }
  bool blank() const { return static_cast<unsigned char>(ch_) <= ' '; }
  bool is(char c) const { return kind_ == kChar && ch_ == c; }
  // The text of the character under the cursor: a terminator other than `lineSep` reads as \n.
  void append_current() {
    if ((kind_ == kNewline && nl_ == Newline::kCustom) || kind_ == kDelimiter) {
      value_.append(pos_, static_cast<size_t>(next_ - pos_));
    } else {
      value_ += ch_;
    }
  }
  // Appends characters until one of the quote, escape or escape-escape characters, which
  // becomes the current one.
  void append_until_quote_or_escape() {
    const Scan scan(*this);
    while (!(is(t_.quote_) || is(escape_) || (escape_escape_ != '\0' && is(escape_escape_)))) {
      append_current();
      advance();
    }
  }
  // Appends characters until a delimiter or terminator.
  void append_until_separator() {
    const Scan scan(*this);
    while (!separator()) {
      append_current();
      advance();
    }
  }
  // Spark's parser skips a value to the next delimiter when the delimiter is one character,
  // but to the end of the line when it has several; when such a skip passes a delimiter and a
  // line end stops it (multiLine), the record ends there and an empty record (a row of nulls)
  // follows.
  void skip_to_separator() {
    value_.clear();
    skipped_ = true;
    const Scan scan(*this);
    if (t_.delim_.size() == 1) {
      while (!separator()) advance();
      return;
    }
    bool passed_delimiter = false;
    while (kind_ != kNewline) {
      passed_delimiter |= kind_ == kDelimiter;
      advance();
    }
    if (passed_delimiter && !ended_) {
      pieces_.push_back({std::string(), true, true});
      ended_ = true;
    }
  }
  // The scans above look ahead of the machine's `ch`: when the input ends inside one, the
  // machine's current character is still the one the scan began at (which decides whether
  // a quote is added at the end).
  class Scan {
   public:
    explicit Scan(UnescapedQuoteReader& r)
        : r_(r), ch_(r.ch_), kind_(r.kind_), unwinding_(std::uncaught_exceptions()) {}
    ~Scan() {
      if (std::uncaught_exceptions() > unwinding_) {
        r_.ch_ = ch_;
        r_.kind_ = kind_;
      }
    }

   private:
    UnescapedQuoteReader& r_;
    char ch_;
    Kind kind_;
    int unwinding_;
  };
  bool until_delimiter() const {
    return mode_ == UnescapedQuotes::kStopAtDelimiter || mode_ == UnescapedQuotes::kSkipValue ||
           mode_ == UnescapedQuotes::kBackToDelimiter;
  }
  [[noreturn]] void raise(bool in_quotes) const {
    throw CsvSyntaxError(std::string("Unescaped quote character '") + t_.quote_ + "' inside " +
                         (in_quotes ? "quoted" : "") +
                         " value of CSV field. To allow unescaped quotes, set "
                         "'parseUnescapedQuotes' to 'true' in the CSV parser settings. Cannot "
                         "parse CSV input.");
  }

  // The value goes on after an unescaped quote met while reading escapes (`prev` is the quote).
  void unescaped_in_value() {
    switch (mode_) {
      case UnescapedQuotes::kSkipValue:
        skip_to_separator();
        return;
      case UnescapedQuotes::kRaiseError:
        raise(false);
      default:
        value_ += t_.quote_;
        prev_ = ch_;
        unquoted_with_escapes();
        return;
    }
  }

  // An unquoted value whose escapes are resolved, up to a separator.
  void unquoted_with_escapes() {
    while (!separator()) {
      if (!is(t_.quote_) && !is(escape_)) {
        if (prev_ == t_.quote_) {
          unescaped_in_value();
          return;
        }
        value_ += ch_;
      } else {
        quote_or_escape();
      }
      prev_ = ch_;
      advance();
    }
  }

  // The current character is the quote or the escape character.
  void quote_or_escape() {
    if (escape_escape_ != '\0' && ch_ == escape_ && prev_ == escape_escape_) {
      value_ += escape_;
      ch_ = '\0';
    } else if (prev_ == escape_) {
      if (ch_ == t_.quote_) {
        value_ += t_.quote_;
        ch_ = '\0';
      } else {
        value_ += prev_;
      }
    } else if (ch_ == t_.quote_ && prev_ == t_.quote_) {
      value_ += t_.quote_;
    } else if (prev_ == t_.quote_) {
      unescaped_in_value();
    }
  }

  // An unescaped quote: the current character follows a quote that did not close the value.
  void unescaped_quote() {
    unescaped_ = true;
    switch (mode_) {
      case UnescapedQuotes::kBackToDelimiter: {
        // The text read so far splits at delimiters; its last part goes on as a quoted value.
        size_t start = 0;
        const size_t width = t_.delim_.size();
        for (size_t i = 0; i < value_.size(); ++i) {
          const bool line_end = multi_line_ && value_[i] == '\n';
          const bool delimiter = value_.compare(i, width, t_.delim_) == 0;
          if (delimiter || line_end) {
            // Spark's parser ends a record at the first line end only; later ones separate
            // fields.
            pieces_.push_back({value_.substr(start, i - start), false, line_end && !ended_});
            ended_ |= line_end;
            start = i + (line_end ? 1 : width);
            i = start - 1;
          }
        }
        value_.erase(0, start);
        append_current();
        prev_ = '\0';
        quoted();
        return;
      }
      case UnescapedQuotes::kStopAtClosingQuote:
      case UnescapedQuotes::kStopAtDelimiter:
        value_ += t_.quote_;
        append_current();
        prev_ = ch_;
        quoted();
        return;
      case UnescapedQuotes::kSkipValue:
        skip_to_separator();
        return;
      case UnescapedQuotes::kRaiseError:
        raise(true);
    }
  }

  // Reads a quoted value from the character after the current one. Entered with `prev` set
  // (not '\0') after an unescaped quote, the value continues unquoted in the modes that stop
  // at the delimiter.
  void quoted() {
    if (prev_ != '\0' && until_delimiter()) {
      if (mode_ == UnescapedQuotes::kSkipValue) {
        skip_to_separator();
        return;
      }
      value_.insert(value_.begin(), t_.quote_);
      advance();
      trim_ = true;
      append_until_separator();
      return;
    }
    advance();
    for (;;) {
      if (prev_ == t_.quote_ && (blank() || separator())) break;
      if (!is(t_.quote_) && !is(escape_)) {
        if (prev_ == t_.quote_) {
          unescaped_quote();
          return;
        }
        if (prev_ == escape_ && escape_ != '\0') value_ += escape_;
        append_until_quote_or_escape();
        prev_ = ch_;
        advance();
      } else {
        quote_or_escape();
        prev_ = ch_;
        advance();
        if (unescaped_ && separator()) return;
      }
    }
    // Whitespace after the closing quote; more text after it is an unescaped quote as well.
    if (!separator() && blank()) {
      std::string spaces;
      do {
        spaces += ch_;
        advance();
        if (kind_ == kNewline) return;
      } while (blank());
      if (kind_ != kDelimiter && mode_ != UnescapedQuotes::kRaiseError) {
        value_ += t_.quote_;
        value_ += spaces;
        if (until_delimiter() || (!is(t_.quote_) && !is(escape_))) append_current();
        prev_ = ch_;
        quoted();
      }
    }
    if (!separator()) {
      throw CsvSyntaxError(std::string("Unexpected character '") + ch_ +
                           "' following quoted value of CSV field. Expecting '" + t_.delim0_ +
                           "'. Cannot parse CSV input.");
    }
  }

  const CsvTokenizer& t_;
  const char* end_;
  Newline nl_;
  bool multi_line_;
  char escape_ = '\0';
  char escape_escape_ = '\0';
  UnescapedQuotes mode_ = UnescapedQuotes::kStopAtDelimiter;
  const char* next_;
  const char* pos_ = nullptr;
  const char* stop_ = nullptr;
  Kind kind_ = kChar;
  char ch_ = '\0';
  char prev_ = '\0';
  bool unescaped_ = false;
  bool skipped_ = false;
  bool ended_ = false;  // a line end in split text ended the record
  bool trim_ = false;  // the value ended unquoted, so ignoreTrailingWhiteSpace applies
  std::string value_;
  std::vector<CarriedField> pieces_;
};

bool CsvTokenizer::read_unescaped(const char* p, const char* end, Newline nl, bool multi_line,
                                  CsvField* out, int capacity, int* n, bool new_record,
                                  const char** stop) const {
  if (new_record) t_values.clear();
  UnescapedQuoteReader reader(*this, p, end, nl, multi_line);
  *stop = reader.read();
  std::vector<CarriedField>& fields = reader.pieces();
  fields.push_back({std::move(reader.value()), reader.skipped(), false});
  size_t next = 0;
  if (!append_fields(fields, &next, out, capacity, n)) return false;
  t_carry.resume = *stop;
  t_carry.fields = std::move(fields);
  t_carry.next = next;
  return true;
}

bool CsvTokenizer::resumes_at(const char* p) const {
  return t_carry.resume == p && t_carry.next < t_carry.fields.size();
}

void CsvTokenizer::forget_carried_fields() const { t_carry = Carry{}; }

bool CsvTokenizer::resume_fields(CsvField* out, int capacity, int* n) const {
  t_values.clear();
  const bool ended = append_fields(t_carry.fields, &t_carry.next, out, capacity, n);
  if (!ended) t_carry = Carry{};
  return ended;
}

}  // namespace ember::io
