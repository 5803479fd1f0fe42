#include "exec/show_string.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "common/datetime.h"
#include "common/timezone.h"
#include "common/variant.h"
#include "functions/cast.h"

namespace ember::exec {

namespace {

// ---- Cells ------------------------------------------------------------------------------

struct CellContext {
  const TimeZone* zone;
};

void append_cell(std::string& out, const Column& c, int64_t row, const CellContext& ctx);

/// Spark's ANSI interval text, e.g. INTERVAL '-2-3' YEAR TO MONTH.
std::string year_month_interval(int64_t months, int start, int end) {
  std::string sign = months < 0 ? "-" : "";
  int64_t abs_months = months < 0 ? -months : months;
  std::string year = sign + std::to_string(abs_months / 12);
  std::string body;
  if (start == end) {
    body = start == 0 ? year + "' YEAR" : std::to_string(months) + "' MONTH";
  } else {
    body = year + "-" + std::to_string(abs_months % 12) + "' YEAR TO MONTH";
  }
  return "INTERVAL '" + body;
}

void append_binary(std::string& out, std::string_view bytes) {
  static const char* kHex = "0123456789ABCDEF";
  out += '[';
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += ' ';
    auto b = static_cast<unsigned char>(bytes[i]);
    out += kHex[b >> 4];
    out += kHex[b & 0xF];
  }
  out += ']';
}

void append_cell(std::string& out, const Column& c, int64_t row, const CellContext& ctx) {
  if (c.type()->id() == TypeId::kNull || c.is_null(row)) {
    out += "NULL";
    return;
  }
  const DataType& t = *c.type();
  switch (t.id()) {
    case TypeId::kNull:
      out += "NULL";
      return;
    case TypeId::kBoolean:
      out += c.bool_at(row) ? "true" : "false";
      return;
    case TypeId::kByte:
      out += std::to_string(c.values<int8_t>()[row]);
      return;
    case TypeId::kShort:
      out += std::to_string(c.values<int16_t>()[row]);
      return;
    case TypeId::kInt:
      out += std::to_string(c.values<int32_t>()[row]);
      return;
    case TypeId::kLong:
      out += std::to_string(c.values<int64_t>()[row]);
      return;
    case TypeId::kFloat:
      out += functions::format_float(c.values<float>()[row]);
      return;
    case TypeId::kDouble:
      out += functions::format_double(c.values<double>()[row]);
      return;
    case TypeId::kDecimal:
      out += decimal_to_string(c.values<int128_t>()[row], t.scale());
      return;
    case TypeId::kString:
      out += c.string_at(row);
      return;
    case TypeId::kBinary:
      append_binary(out, c.string_at(row));
      return;
    case TypeId::kDate:
      out += format_date(c.values<int32_t>()[row]);
      return;
    case TypeId::kTimestamp:
      out += format_timestamp(c.values<int64_t>()[row], *ctx.zone);
      return;
    case TypeId::kTimestampNtz:
      out += format_timestamp_ntz(c.values<int64_t>()[row]);
      return;
    case TypeId::kTime:
      out += format_time(c.values<int64_t>()[row]);
      return;
    case TypeId::kYearMonthInterval:
      out += year_month_interval(c.values<int32_t>()[row], t.start_field(), t.end_field());
      return;
    case TypeId::kDayTimeInterval:
      out += format_day_time_interval(c.values<int64_t>()[row], t.start_field(), t.end_field());
      return;
    case TypeId::kCalendarInterval:
      out += format_calendar_interval(c.values<CalendarInterval>()[row]);
      return;
    case TypeId::kArray: {
      const int32_t* o = c.offsets();
      out += '[';
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        if (i != o[row]) out += ", ";
        append_cell(out, *c.child(0), i, ctx);
      }
      out += ']';
      return;
    }
    case TypeId::kMap: {
      const int32_t* o = c.offsets();
      const Column& entries = *c.child(0);
      out += '{';
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        if (i != o[row]) out += ", ";
        append_cell(out, *entries.child(0), i, ctx);
        out += " -> ";
        append_cell(out, *entries.child(1), i, ctx);
      }
      out += '}';
      return;
    }
    case TypeId::kStruct: {
      out += '{';
      for (size_t i = 0; i < c.children().size(); ++i) {
        if (i) out += ", ";
        append_cell(out, *c.child(i), row, ctx);
      }
      out += '}';
      return;
    }
    case TypeId::kVariant:
      variant::to_json(variant::Ref(c.child(1)->string_at(row), c.child(0)->string_at(row)), *ctx.zone, out);
      return;
  }
}

// ---- Text measures, in Java's terms -------------------------------------------------------

/// Decodes one UTF-8 sequence at s[i]; invalid bytes decode as U+FFFD, one byte each.
char32_t decode_utf8(std::string_view s, size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + static_cast<size_t>(len) > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? b : b & (0xFF >> (len + 1));
  for (int k = 1; k < len; ++k) {
    auto cb = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((cb & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cb & 0x3F);
  }
  i += static_cast<size_t>(len);
  return cp;
}

/// Characters that take two columns in a terminal, as Spark's show counts them.
bool is_full_width(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE10 && cp <= 0xFE19) || (cp >= 0xFE30 && cp <= 0xFE6F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6);
}

/// The length of a string in UTF-16 code units (Java's String.length).
int64_t java_length(std::string_view s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size();) n += decode_utf8(s, i) > 0xFFFF ? 2 : 1;
  return n;
}

/// Spark's stringHalfWidth: the Java length plus one for each full-width character.
int64_t display_width(std::string_view s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size();) {
    char32_t cp = decode_utf8(s, i);
    n += cp > 0xFFFF ? 2 : (is_full_width(cp) ? 2 : 1);
  }
  return n;
}

/// The first `units` UTF-16 code units of `s` (Java's substring(0, units)). A surrogate pair
/// cut in half leaves a lone surrogate, which Java encodes as '?'.
std::string java_prefix(std::string_view s, int64_t units) {
  std::string out;
  int64_t n = 0;
  for (size_t i = 0; i < s.size() && n < units;) {
    size_t start = i;
    char32_t cp = decode_utf8(s, i);
    int64_t w = cp > 0xFFFF ? 2 : 1;
    if (n + w > units) {
      out += '?';
      break;
    }
    out.append(s.substr(start, i - start));
    n += w;
  }
  return out;
}

/// Replaces control characters that would break the table with their escapes, as Spark's
/// SchemaUtils.escapeMetaCharacters does.
std::string escape_meta(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\a':
        out += "\\a";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string truncated(std::string s, int truncate) {
  if (truncate <= 0 || java_length(s) <= truncate) return s;
  if (truncate < 4) return java_prefix(s, truncate);
  return java_prefix(s, truncate - 3) + "...";
}

/// Pads `s` with spaces to `width` display columns, on the left or the right.
std::string pad(const std::string& s, int64_t width, bool left) {
  int64_t missing = width - display_width(s);
  if (missing <= 0) return s;
  std::string spaces(static_cast<size_t>(missing), ' ');
  return left ? spaces + s : s + spaces;
}


// ---- HTML ----------------------------------------------------------------------------------

/// HTML 4.0's named character entities for U+00A0..U+00FF (ISO 8859-1), in code point order.
constexpr const char* kLatin1Entities[96] = {
    "nbsp",   "iexcl",  "cent",   "pound",  "curren", "yen",    "brvbar", "sect",
    "uml",    "copy",   "ordf",   "laquo",  "not",    "shy",    "reg",    "macr",
    "deg",    "plusmn", "sup2",   "sup3",   "acute",  "micro",  "para",   "middot",
    "cedil",  "sup1",   "ordm",   "raquo",  "frac14", "frac12", "frac34", "iquest",
    "Agrave", "Aacute", "Acirc",  "Atilde", "Auml",   "Aring",  "AElig",  "Ccedil",
    "Egrave", "Eacute", "Ecirc",  "Euml",   "Igrave", "Iacute", "Icirc",  "Iuml",
    "ETH",    "Ntilde", "Ograve", "Oacute", "Ocirc",  "Otilde", "Ouml",   "times",
    "Oslash", "Ugrave", "Uacute", "Ucirc",  "Uuml",   "Yacute", "THORN",  "szlig",
    "agrave", "aacute", "acirc",  "atilde", "auml",   "aring",  "aelig",  "ccedil",
    "egrave", "eacute", "ecirc",  "euml",   "igrave", "iacute", "icirc",  "iuml",
    "eth",    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",   "divide",
    "oslash", "ugrave", "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml"};

struct NamedEntity {
  char32_t code_point;
  const char* name;
};

/// HTML 4.0's other named entities (symbols, Greek letters, special characters), sorted by
/// code point.
constexpr NamedEntity kOtherEntities[] = {
    {338, "OElig"},     {339, "oelig"},    {352, "Scaron"},   {353, "scaron"},
    {376, "Yuml"},      {402, "fnof"},     {710, "circ"},     {732, "tilde"},
    {913, "Alpha"},     {914, "Beta"},     {915, "Gamma"},    {916, "Delta"},
    {917, "Epsilon"},   {918, "Zeta"},     {919, "Eta"},      {920, "Theta"},
    {921, "Iota"},      {922, "Kappa"},    {923, "Lambda"},   {924, "Mu"},
    {925, "Nu"},        {926, "Xi"},       {927, "Omicron"},  {928, "Pi"},
    {929, "Rho"},       {931, "Sigma"},    {932, "Tau"},      {933, "Upsilon"},
    {934, "Phi"},       {935, "Chi"},      {936, "Psi"},      {937, "Omega"},
    {945, "alpha"},     {946, "beta"},     {947, "gamma"},    {948, "delta"},
    {949, "epsilon"},   {950, "zeta"},     {951, "eta"},      {952, "theta"},
    {953, "iota"},      {954, "kappa"},    {955, "lambda"},   {956, "mu"},
    {957, "nu"},        {958, "xi"},       {959, "omicron"},  {960, "pi"},
    {961, "rho"},       {962, "sigmaf"},   {963, "sigma"},    {964, "tau"},
    {965, "upsilon"},   {966, "phi"},      {967, "chi"},      {968, "psi"},
    {969, "omega"},     {977, "thetasym"}, {978, "upsih"},    {982, "piv"},
    {8194, "ensp"},     {8195, "emsp"},    {8201, "thinsp"},  {8204, "zwnj"},
    {8205, "zwj"},      {8206, "lrm"},     {8207, "rlm"},     {8211, "ndash"},
    {8212, "mdash"},    {8216, "lsquo"},   {8217, "rsquo"},   {8218, "sbquo"},
    {8220, "ldquo"},    {8221, "rdquo"},   {8222, "bdquo"},   {8224, "dagger"},
    {8225, "Dagger"},   {8226, "bull"},    {8230, "hellip"},  {8240, "permil"},
    {8242, "prime"},    {8243, "Prime"},   {8249, "lsaquo"},  {8250, "rsaquo"},
    {8254, "oline"},    {8260, "frasl"},   {8364, "euro"},    {8465, "image"},
    {8472, "weierp"},   {8476, "real"},    {8482, "trade"},   {8501, "alefsym"},
    {8592, "larr"},     {8593, "uarr"},    {8594, "rarr"},    {8595, "darr"},
    {8596, "harr"},     {8629, "crarr"},   {8656, "lArr"},    {8657, "uArr"},
    {8658, "rArr"},     {8659, "dArr"},    {8660, "hArr"},    {8704, "forall"},
    {8706, "part"},     {8707, "exist"},   {8709, "empty"},   {8711, "nabla"},
    {8712, "isin"},     {8713, "notin"},   {8715, "ni"},      {8719, "prod"},
    {8721, "sum"},      {8722, "minus"},   {8727, "lowast"},  {8730, "radic"},
    {8733, "prop"},     {8734, "infin"},   {8736, "ang"},     {8743, "and"},
    {8744, "or"},       {8745, "cap"},     {8746, "cup"},     {8747, "int"},
    {8756, "there4"},   {8764, "sim"},     {8773, "cong"},    {8776, "asymp"},
    {8800, "ne"},       {8801, "equiv"},   {8804, "le"},      {8805, "ge"},
    {8834, "sub"},      {8835, "sup"},     {8836, "nsub"},    {8838, "sube"},
    {8839, "supe"},     {8853, "oplus"},   {8855, "otimes"},  {8869, "perp"},
    {8901, "sdot"},     {8968, "lceil"},   {8969, "rceil"},   {8970, "lfloor"},
    {8971, "rfloor"},   {9001, "lang"},    {9002, "rang"},    {9674, "loz"},
    {9824, "spades"},   {9827, "clubs"},   {9829, "hearts"},  {9830, "diams"}};

/// The name of the HTML 4.0 entity for `cp`, or null.
const char* html4_entity(char32_t cp) {
  switch (cp) {
    case '"': return "quot";
    case '&': return "amp";
    case '<': return "lt";
    case '>': return "gt";
    default: break;
  }
  if (cp >= 0xA0 && cp <= 0xFF) return kLatin1Entities[cp - 0xA0];
  const auto* end = std::end(kOtherEntities);
  const auto* it = std::lower_bound(std::begin(kOtherEntities), end, cp,
                                    [](const NamedEntity& e, char32_t c) { return e.code_point < c; });
  return it != end && it->code_point == cp ? it->name : nullptr;
}

/// Escapes `s` for HTML with HTML 4.0's named entities (as Commons Text's escapeHtml4 does,
/// which Spark's htmlString uses); other characters stay as they are.
std::string escape_html4(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    const char* name = html4_entity(decode_utf8(s, i));
    if (name == nullptr) {
      out.append(s.substr(start, i - start));
    } else {
      out += '&';
      out += name;
      out += ';';
    }
  }
  return out;
}

}  // namespace

std::string show_cell(const Column& column, int64_t row, const std::string& time_zone) {
  CellContext ctx{&TimeZone::get(time_zone)};
  std::string out;
  append_cell(out, column, row, ctx);
  return out;
}

namespace {

/// The header and the cells `show` prints: names and cells with their control characters
/// escaped, cells truncated; `has_more` when a row beyond `num_rows` exists.
struct ShownRows {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  bool has_more = false;
};

ShownRows shown_rows(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                     int truncate, const std::string& time_zone) {
  CellContext ctx{&TimeZone::get(time_zone)};
  const size_t num_cols = schema.size();
  ShownRows out;
  out.header.reserve(num_cols);
  for (const auto& f : schema) out.header.push_back(escape_meta(f.name));
  // Rows beyond num_rows only tell that there is more data.
  for (const Batch& b : batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) {
      if (static_cast<int64_t>(out.rows.size()) >= num_rows) {
        out.has_more = true;
        return out;
      }
      std::vector<std::string> cells;
      cells.reserve(num_cols);
      for (size_t c = 0; c < num_cols; ++c) {
        std::string text;
        append_cell(text, *b.column(c), r, ctx);
        cells.push_back(truncated(escape_meta(text), truncate));
      }
      out.rows.push_back(std::move(cells));
    }
  }
  return out;
}

std::string rows_footer(int num_rows) {
  return "only showing top " + std::to_string(num_rows) + (num_rows == 1 ? " row" : " rows");
}

}  // namespace

std::string show_string(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                        int truncate, bool vertical, const std::string& time_zone) {
  num_rows = std::max(0, num_rows);
  ShownRows shown = shown_rows(schema, batches, num_rows, truncate, time_zone);
  const std::vector<std::string>& header = shown.header;
  const std::vector<std::vector<std::string>>& rows = shown.rows;
  const bool has_more = shown.has_more;
  const size_t num_cols = schema.size();

  constexpr int64_t kMinWidth = 3;
  std::string out;
  if (!vertical) {
    std::vector<int64_t> widths(num_cols, kMinWidth);
    for (size_t c = 0; c < num_cols; ++c) {
      widths[c] = std::max(widths[c], display_width(header[c]));
      for (const auto& row : rows) widths[c] = std::max(widths[c], display_width(row[c]));
    }
    std::string sep = "+";
    for (int64_t w : widths) sep += std::string(static_cast<size_t>(w), '-') + "+";
    sep += "\n";
    const bool right_align = truncate > 0;
    auto line = [&](const std::vector<std::string>& cells) {
      out += '|';
      for (size_t c = 0; c < num_cols; ++c) out += pad(cells[c], widths[c], right_align) + "|";
      out += '\n';
    };
    out += sep;
    line(header);
    out += sep;
    for (const auto& row : rows) line(row);
    out += sep;
  } else {
    int64_t name_width = kMinWidth;
    for (const auto& h : header) name_width = std::max(name_width, display_width(h));
    int64_t data_width = kMinWidth;
    for (const auto& row : rows) {
      for (const auto& cell : row) data_width = std::max(data_width, display_width(cell));
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string record = "-RECORD " + std::to_string(i);
      const auto total = static_cast<size_t>(name_width + data_width + 5);
      if (record.size() < total) record += std::string(total - record.size(), '-');
      out += record + "\n";
      for (size_t c = 0; c < num_cols; ++c) {
        out += " " + pad(header[c], name_width, false) + " | " +
               pad(rows[i][c], data_width, false) + " \n";
      }
    }
  }
  if (vertical && rows.empty()) {
    out += "(0 rows)";
  } else if (has_more) {
    out += rows_footer(num_rows);
  }
  return out;
}

std::string html_string(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                        int truncate, const std::string& time_zone) {
  num_rows = std::max(0, num_rows);
  ShownRows shown = shown_rows(schema, batches, num_rows, truncate, time_zone);
  std::string out = "<table border='1'>\n<tr>";
  for (const auto& h : shown.header) out += "<th>" + escape_html4(h) + "</th>";
  out += "</tr>\n";
  for (const auto& row : shown.rows) {
    out += "<tr>";
    for (const auto& cell : row) out += "<td>" + escape_html4(cell) + "</td>";
    out += "</tr>\n";
  }
  out += "</table>\n";
  if (shown.has_more) out += rows_footer(num_rows) + "\n";
  return out;
}

}  // namespace ember::exec
