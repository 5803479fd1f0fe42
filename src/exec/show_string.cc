#include "exec/show_string.h"

#include <algorithm>
#include <cstdint>
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

}  // namespace

std::string show_cell(const Column& column, int64_t row, const std::string& time_zone) {
  CellContext ctx{&TimeZone::get(time_zone)};
  std::string out;
  append_cell(out, column, row, ctx);
  return out;
}

std::string show_string(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                        int truncate, bool vertical, const std::string& time_zone) {
  num_rows = std::max(0, num_rows);
  CellContext ctx{&TimeZone::get(time_zone)};
  const size_t num_cols = schema.size();

  std::vector<std::string> header;
  header.reserve(num_cols);
  for (const auto& f : schema) header.push_back(escape_meta(f.name));

  // Rows beyond num_rows only tell that there is more data.
  std::vector<std::vector<std::string>> rows;
  bool has_more = false;
  for (const Batch& b : batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) {
      if (static_cast<int64_t>(rows.size()) >= num_rows) {
        has_more = true;
        break;
      }
      std::vector<std::string> cells;
      cells.reserve(num_cols);
      for (size_t c = 0; c < num_cols; ++c) {
        std::string text;
        append_cell(text, *b.column(c), r, ctx);
        cells.push_back(truncated(escape_meta(text), truncate));
      }
      rows.push_back(std::move(cells));
    }
    if (has_more) break;
  }

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
    out += "only showing top " + std::to_string(num_rows) + (num_rows == 1 ? " row" : " rows");
  }
  return out;
}

}  // namespace ember::exec
