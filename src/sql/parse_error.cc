#include "sql/parse_error.h"

#include <algorithm>

namespace ember::sql {
namespace {

/// Characters (UTF-8 code points) in sql[0, byte).
int char_offset(std::string_view sql, int byte) {
  int n = 0;
  for (int i = 0; i < byte && i < static_cast<int>(sql.size()); ++i)
    if ((static_cast<unsigned char>(sql[static_cast<size_t>(i)]) & 0xC0) != 0x80) ++n;
  return n;
}

void line_and_column(std::string_view sql, int byte, int* line, int* column) {
  *line = 1;
  int line_start = 0;
  for (int i = 0; i < byte && i < static_cast<int>(sql.size()); ++i) {
    if (sql[static_cast<size_t>(i)] == '\n') {
      ++*line;
      line_start = i + 1;
    }
  }
  *column = char_offset(sql.substr(static_cast<size_t>(line_start)), byte - line_start);
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
}

/// Errors whose position Spark reports as "(line l, pos p)" with the whole statement under
/// "== SQL ==", rather than as a fragment context.
bool is_syntax_style(const std::string& error_class) {
  return error_class == "PARSE_SYNTAX_ERROR" || error_class == "INVALID_IDENTIFIER" ||
         error_class.rfind("PARSE_", 0) == 0;
}

/// SQLSTATEs of the error classes the parser raises that the common table does not know.
std::string state_of(const std::string& error_class) {
  static const std::map<std::string, std::string> kStates = {
      {"UNCLOSED_BRACKETED_COMMENT", "42601"},
      {"INVALID_IDENTIFIER", "42602"},
      {"INVALID_NUMERIC_LITERAL_RANGE", "22003"},
      {"INVALID_TYPED_LITERAL", "42604"},
      {"UNSUPPORTED_DATATYPE", "0A000"},
      {"UNBOUND_SQL_PARAMETER", "42P02"},
      {"GROUP_BY_POS_OUT_OF_RANGE", "42805"},
      {"ORDER_BY_POS_OUT_OF_RANGE", "42805"},
      {"GROUP_BY_POS_AGGREGATE", "42903"},
      {"INVALID_SQL_SYNTAX", "42000"},
      {"TRAILING_COMMA_IN_SELECT", "42601"},
      {"DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "22003"},
      {"UNRESOLVABLE_TABLE_VALUED_FUNCTION", "42883"},
      {"INVALID_LIMIT_LIKE_EXPRESSION", "42K0E"},
      {"INVALID_PARAMETER_MARKER_VALUE", "22023"},
      {"PARSE_EMPTY_STATEMENT", "42617"},
  };
  auto it = kStates.find(error_class.substr(0, error_class.find('.')));
  return it == kStates.end() ? "" : it->second;
}

}  // namespace

SparkError positioned_error(ErrorKind kind, const std::string& error_class,
                            const std::string& message, std::map<std::string, std::string> params,
                            std::string_view sql, int begin, int stop) {
  SparkError e(kind, error_class, message, std::move(params), state_of(error_class));
  begin = std::clamp(begin, 0, static_cast<int>(sql.size()));
  e.start = char_offset(sql, begin);
  e.stop = stop < begin ? e.start - 1 : char_offset(sql, stop);
  line_and_column(sql, begin, &e.line, &e.line_pos);
  return e;
}

void throw_syntax_error(std::string_view sql, const Token& token, const std::string& hint) {
  std::string near = token.kind == TokenKind::kEnd ? "end of input" : "'" + token.text + "'";
  throw positioned_error(ErrorKind::kParse, "PARSE_SYNTAX_ERROR",
                         "Syntax error at or near " + near + hint + ".",
                         {{"error", near}, {"hint", hint}}, sql, token.begin, token.stop);
}

std::string error_context(const SparkError& e, std::string_view sql) {
  if (e.error_class() == "UNCLOSED_BRACKETED_COMMENT") return "\n== SQL ==\n" + std::string(sql);
  if (e.line < 1) return "";
  std::vector<std::string_view> lines = split_lines(sql);
  std::string out;
  if (is_syntax_style(e.error_class())) {
    out += " (line " + std::to_string(e.line) + ", pos " + std::to_string(e.line_pos) +
           ")\n\n== SQL ==\n";
    for (size_t i = 0; i < lines.size(); ++i) {
      out += std::string(lines[i]) + "\n";
      if (static_cast<int>(i) + 1 == e.line)
        out += std::string(static_cast<size_t>(e.line_pos), '-') + "^^^\n";
    }
    return out;
  }
  out += "\n== SQL (line " + std::to_string(e.line) + ", position " +
         std::to_string(e.line_pos + 1) + ") ==\n";
  if (e.line <= static_cast<int>(lines.size())) {
    std::string_view l = lines[static_cast<size_t>(e.line - 1)];
    out += std::string(l) + "\n";
    int line_chars = char_offset(l, static_cast<int>(l.size()));
    int width = std::max(1, std::min(e.stop - e.start + 1, line_chars - e.line_pos));
    out += std::string(static_cast<size_t>(e.line_pos), ' ') +
           std::string(static_cast<size_t>(width), '^') + "\n";
  }
  return out;
}

std::string format_parse_error(const SparkError& e, std::string_view sql) {
  std::string out = format_error(e.error_class(), e.message());
  if (!e.sql_state().empty()) out += " SQLSTATE: " + e.sql_state();
  return out + error_context(e, sql);
}

}  // namespace ember::sql
