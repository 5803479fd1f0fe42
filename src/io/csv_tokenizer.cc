#include "io/csv_tokenizer.h"

#include <climits>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ember::io {

namespace {

inline bool space(char c) { return static_cast<unsigned char>(c) <= ' '; }

// The first `c` in [p, end), or end. Fields and lines are short, so an inlined 16-byte scan
// beats a call to memchr; it never reads past `end` (the input may end at a page boundary).
inline const char* find_char(const char* p, const char* end, char c) {
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  while (end - p >= 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, needle));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
  for (; p < end; ++p)
    if (*p == c) return p;
  return end;
#else
  const void* hit = std::memchr(p, c, static_cast<size_t>(end - p));
  return hit ? static_cast<const char*>(hit) : end;
#endif
}

}  // namespace

CsvTokenizer::CsvTokenizer(const CsvOptions& o)
    : delim_(o.delimiter),
      delim0_(o.delimiter.empty() ? ',' : o.delimiter[0]),
      quote_(o.quote),
      escape_(o.escape),
      quoting_(o.quoting()),
      trim_leading_(o.ignore_leading_ws),
      trim_trailing_(o.ignore_trailing_ws),
      unescaped_(o.unescaped_quotes),
      legacy_quotes_(o.delimiter.size() > 1 && o.unescaped_quotes == UnescapedQuotes::kStopAtDelimiter),
      line_sep_(o.line_sep.value_or("")),
      empty_value_(o.empty_value) {
  if (delim_.empty()) delim_.assign(1, ',');
}

bool CsvTokenizer::terminator_at(const char* p, const char* end, Newline nl) const {
  switch (nl) {
    case Newline::kLf: return *p == '\n';
    case Newline::kCr: return *p == '\r';
    case Newline::kCrLf: return *p == '\r' && p + 1 < end && p[1] == '\n';
    case Newline::kAny: return *p == '\n' || *p == '\r';
    case Newline::kCustom: break;
  }
  return *p == line_sep_[0] && static_cast<size_t>(end - p) >= line_sep_.size() &&
         std::memcmp(p, line_sep_.data(), line_sep_.size()) == 0;
}

const char* CsvTokenizer::skip_terminator(const char* p, const char* end, Newline nl) const {
  if (nl == Newline::kCustom) return p + line_sep_.size();
  if (*p == '\r' && p + 1 < end && p[1] == '\n') return p + 2;
  return p + 1;
}

Newline CsvTokenizer::detect_newline(const char* p, const char* end) const {
  if (!line_sep_.empty()) return Newline::kCustom;
  for (; p < end; ++p) {
    if (*p == '\n') return Newline::kLf;
    if (*p == '\r') return p + 1 < end && p[1] == '\n' ? Newline::kCrLf : Newline::kCr;
  }
  return Newline::kLf;
}

const char* CsvTokenizer::line_end(const char* p, const char* end, const char** next,
                                   bool may_have_cr) const {
  if (line_sep_.empty()) {
    const char* nl = find_char(p, end, '\n');
    // Any '\r' before the first '\n': "\r\n" (the usual case) or a lone '\r'.
    const char* cr = may_have_cr ? find_char(p, nl, '\r') : nl;
    if (cr == nl) {
      *next = nl < end ? nl + 1 : end;
      return nl;
    }
    *next = cr + 1 == nl ? nl + 1 : cr + 1;
    return cr;
  }
  return line_end(p, end, next, Newline::kCustom);
}

const char* CsvTokenizer::line_end(const char* p, const char* end, const char** next,
                                   Newline nl) const {
  if (nl == Newline::kAny) return line_end(p, end, next, true);
  const char first = nl == Newline::kCustom ? line_sep_[0] : nl == Newline::kLf ? '\n' : '\r';
  for (const char* q = p; q < end; ++q) {
    q = find_char(q, end, first);
    if (q == end) break;
    if (terminator_at(q, end, nl)) {
      *next = skip_terminator(q, end, nl);
      return q;
    }
  }
  *next = end;
  return end;
}

template <bool kMultiLine>
const char* CsvTokenizer::split(const char* p, const char* end, Newline nl, CsvField* out,
                                int capacity, int limit, int* count,
                                const char** record_end) const {
  int n = 0;
  bool unescaped_seen = false;
  const bool single = delim_.size() == 1;
  // The end of an unquoted field: the next delimiter, or (multiLine) record terminator.
  auto field_end = [&](const char* q) -> const char* {
    if (!kMultiLine) {
      if (single) return find_char(q, end, delim0_);
      while (q < end) {
        q = find_char(q, end, delim0_);
        if (q == end || delimiter_at(q, end)) return q;
        ++q;
      }
      return end;
    }
    while (q < end && !delimiter_at(q, end) && !terminator_at(q, end, nl)) ++q;
    return q;
  };
  auto separator_at = [&](const char* q) {
    return delimiter_at(q, end) || (kMultiLine && terminator_at(q, end, nl));
  };
  uint8_t norm = 0;
  if (kMultiLine) {
    norm = nl == Newline::kCrLf ? CsvField::kNormCrLf : nl == Newline::kCr ? CsvField::kNormCr : 0;
  }
  // multiLine mode: a record that ended inside a field (BACK_TO_DELIMITER met a line end in
  // the text it split) leaves the rest of its fields to the next record, which starts with
  // them where that field ended.
  bool resume = false;
  if (kMultiLine && resumes_at(p)) {
    unescaped_seen = true;
    if (resume_fields(out, capacity, &n)) {
      *count = n;
      if (record_end) *record_end = p;
      return p;
    }
    resume = true;
  }
  // The record that goes on after such a break reads its first terminator as a delimiter.
  bool join_next_line = resume;
  for (;;) {
    CsvField f;
    const char* after = p;
    bool appended = resume;  // the field (or fields) went to `out` already
    if (resume) {
      resume = false;
    } else {
    if (trim_leading_) {
      while (p < end && space(*p) && !separator_at(p)) ++p;
    }
    if (quoting_ && p < end && *p == quote_) {
      // The fast path reads a well-formed quoted field: escaped quotes and escapes, then a
      // quote followed by whitespace and a separator. Anything else (text after a quote, an
      // open quote at the end of the input) goes to read_unescaped.
      const char* q = p + 1;
      uint8_t flags = 0;
      for (;;) {
        if (q >= end) {
          if (!legacy_quotes_) {
            if (read_unescaped(p, end, nl, kMultiLine, out, capacity, &n, !unescaped_seen, &after)) {
              *count = n;
              if (record_end) *record_end = after;
              return after;
            }
            appended = unescaped_seen = true;
            break;
          }
          // An open quote runs to the end of the input.
          f = {p + 1, static_cast<uint32_t>(end - p - 1), 0, flags};
          if (n < capacity) out[n] = f;
          *count = n + 1;
          if (record_end) *record_end = end;
          return end;
        }
        const char c = *q;
        if (c == escape_ && escape_ != quote_) {
          if (q + 1 < end && (q[1] == quote_ || q[1] == escape_)) {
            flags |= CsvField::kEscaped;
            q += 2;
          } else {
            ++q;
          }
          continue;
        }
        if (c == quote_) {
          const char* close = q;
          const char* run_end = q + 1;
          if (escape_ == quote_) {
            if (q + 1 < end && q[1] == quote_) {
              flags |= CsvField::kEscaped;
              q += 2;
              continue;
            }
          } else if (legacy_quotes_) {
            while (run_end < end && *run_end == quote_) ++run_end;
            close = run_end - 1;  // the quotes before the last one are text
          }
          const char* w = run_end;
          while (w < end && space(*w) && !separator_at(w)) ++w;
          if (w == end || separator_at(w)) {
            if (close == p + 1) {
              f = {empty_value_.data(), static_cast<uint32_t>(empty_value_.size()), 0, 0};
            } else {
              f = {p + 1, static_cast<uint32_t>(close - p - 1), 0, flags};
            }
            after = w;
          } else if (!legacy_quotes_) {
            if (read_unescaped(p, end, nl, kMultiLine, out, capacity, &n, !unescaped_seen, &after)) {
              *count = n;
              if (record_end) *record_end = after;
              return after;
            }
            appended = unescaped_seen = true;
          } else {
            // Text after the closing quote: quote + content + quote + text to the delimiter.
            const char* e = field_end(q + 1);
            const char* fe = e;
            if (trim_trailing_) {
              while (fe > p && space(fe[-1])) --fe;
            }
            // Without escapes in the content, that is exactly the text from the open quote.
            f = {p, static_cast<uint32_t>(fe - p), static_cast<uint32_t>(q - p),
                 static_cast<uint8_t>(flags ? (flags | CsvField::kRaw) : 0)};
            after = e;
          }
          break;
        }
        if (kMultiLine && norm != 0 && c == '\r') flags |= norm;
        ++q;
      }
    } else {
      const char* e = field_end(p);
      const char* fe = e;
      // Spark's parser leaves the last field of a record untrimmed when the delimiter has
      // more than one character, and doubles a quote that ends it.
      const bool last = !single && !(e < end && delimiter_at(e, end));
      if (trim_trailing_ && !last) {
        while (fe > p && space(fe[-1])) --fe;
      }
      uint8_t flags = fe == p ? CsvField::kNull : uint8_t{0};
      if (last && quoting_ && fe > p && fe[-1] == quote_) flags = CsvField::kQuoteAppended;
      f = {p, static_cast<uint32_t>(fe - p), 0, flags};
      after = e;
    }
    }
    if (!appended) {
      if (n < capacity) out[n] = f;
      ++n;
    }
    p = after;
    if (p >= end) {
      if (record_end) *record_end = end;
      break;
    }
    if (kMultiLine && terminator_at(p, end, nl)) {
      if (join_next_line) {
        join_next_line = false;
        p = skip_terminator(p, end, nl);
        continue;
      }
      if (record_end) *record_end = p;
      p = skip_terminator(p, end, nl);
      break;
    }
    p += delim_.size();
    if (!kMultiLine && n >= limit) break;
  }
  *count = n;
  return p;
}

int CsvTokenizer::split_line(const char* p, const char* end, CsvField* out, int capacity,
                             int limit) const {
  int count = 0;
  split<false>(p, end, Newline::kAny, out, capacity, limit, &count, nullptr);
  return count;
}

const char* CsvTokenizer::split_record(const char* p, const char* end, Newline nl, CsvField* out,
                                       int capacity, int* count, const char** record_end) const {
  return split<true>(p, end, nl, out, capacity, INT_MAX, count, record_end);
}

void CsvTokenizer::unescape_into(const char* d, size_t n, uint8_t flags, std::string& out) const {
  for (size_t i = 0; i < n; ++i) {
    const char c = d[i];
    if (i + 1 < n && (flags & CsvField::kEscaped)) {
      if (c == escape_ && escape_ != quote_ && (d[i + 1] == quote_ || d[i + 1] == escape_)) {
        out += d[++i];
        continue;
      }
      if (c == quote_ && escape_ == quote_ && d[i + 1] == quote_) {
        out += d[++i];
        continue;
      }
    }
    if (c == '\r' && (flags & CsvField::kNormCrLf) && i + 1 < n && d[i + 1] == '\n') {
      out += '\n';
      ++i;
      continue;
    }
    if (c == '\r' && (flags & CsvField::kNormCr)) {
      out += '\n';
      continue;
    }
    out += c;
  }
}

std::string_view CsvTokenizer::resolve(const CsvField& f, std::string& scratch) const {
  scratch.clear();
  if (f.flags & CsvField::kRaw) {
    scratch += quote_;
    unescape_into(f.data + 1, f.aux - 1, f.flags, scratch);
    scratch += quote_;
    scratch.append(f.data + f.aux + 1, f.size - f.aux - 1);
  } else {
    unescape_into(f.data, f.size, f.flags, scratch);
  }
  if (f.flags & CsvField::kQuoteAppended) scratch += quote_;
  return scratch;
}

}  // namespace ember::io
