#include "common/error.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace ember {

namespace {
/// Spark writes a sub-class's message after its class's; where every raiser of a sub-class would
/// repeat the same sentence, it is added here.
std::string with_sub_class_text(const std::string& error_class, std::string message) {
  static const std::string kRefer =
      "Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.";
  if (error_class == "WRONG_NUM_ARGS.WITHOUT_SUGGESTION" && message.find(kRefer) == std::string::npos)
    message += " " + kRefer;
  return message;
}
}  // namespace

SparkError::SparkError(ErrorKind kind, std::string error_class, std::string message,
                       std::map<std::string, std::string> params, std::string sql_state)
    : SparkError(kind, error_class, with_sub_class_text(error_class, std::move(message)), std::move(params),
                 std::move(sql_state), 0) {}

SparkError::SparkError(ErrorKind kind, std::string error_class, std::string message,
                       std::map<std::string, std::string> params, std::string sql_state, int)
    : std::runtime_error(format_error(error_class, message)),
      kind_(kind),
      error_class_(std::move(error_class)),
      message_(std::move(message)),
      params_(std::move(params)),
      sql_state_(sql_state.empty() ? sql_state_for(error_class_) : std::move(sql_state)) {}

std::string format_error(const std::string& error_class, const std::string& message) {
  // Spark shows the message of a legacy error class (_LEGACY_ERROR_TEMP_...) without its class.
  if (error_class.empty() || error_class.rfind("_LEGACY_ERROR_", 0) == 0) return message;
  return "[" + error_class + "] " + message;
}

std::string sql_state_for(const std::string& error_class) {
  static const std::unordered_map<std::string, std::string> kStates = {
      {"UNRESOLVED_COLUMN", "42703"},
      {"UNRESOLVED_ROUTINE", "42883"},
      {"COLLATION_INVALID_NAME", "42704"},
      {"COLLATION_MISMATCH", "42P21"},
      {"INDETERMINATE_COLLATION_IN_EXPRESSION", "42P22"},
      {"PARSE_SYNTAX_ERROR", "42601"},
      {"DIVIDE_BY_ZERO", "22012"},
      {"ARITHMETIC_OVERFLOW", "22003"},
      {"CAST_INVALID_INPUT", "22018"},
      {"CAST_OVERFLOW", "22003"},
      {"NUMERIC_VALUE_OUT_OF_RANGE", "22003"},
      {"DATATYPE_MISMATCH", "42K09"},
      {"MISSING_AGGREGATION", "42803"},
      {"PATH_NOT_FOUND", "42K03"},
      {"TABLE_OR_VIEW_NOT_FOUND", "42P01"},
      {"UNSUPPORTED_FEATURE", "0A000"},
      {"INTERNAL_ERROR", "XX000"},
      {"AMBIGUOUS_REFERENCE", "42704"},
      {"COLUMN_ALREADY_EXISTS", "42711"},
      {"MALFORMED_RECORD_IN_PARSING", "22023"},
      {"INVALID_ARRAY_INDEX", "22003"},
      {"WRONG_NUM_ARGS", "42605"},
      {"OPERATION_CANCELED", "HY008"},
  };
  auto dot = error_class.find('.');
  auto it = kStates.find(error_class.substr(0, dot));
  return it == kStates.end() ? "" : it->second;
}

void throw_internal(const std::string& what, const char* file, int line) {
  throw SparkError(ErrorKind::kInternal, "INTERNAL_ERROR",
                   what + " (at " + file + ":" + std::to_string(line) + ")");
}

std::string quote_id(const std::string& name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += "``";
    else out += c;
  }
  return out + "`";
}

std::string quote_id_if_needed(const std::string& name) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  bool plain = !name.empty() && letter(name[0]);
  for (char c : name) plain = plain && (letter(c) || (c >= '0' && c <= '9'));
  return plain ? name : quote_id(name);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

void SparkError::locate(const SqlOrigin& origin) {
  if (start >= 0 || !origin.known()) return;
  const std::string& text = *origin.text;
  auto is_lead = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  const int end = std::min(static_cast<int>(text.size()), std::max(origin.begin, origin.stop + 1));
  int chars = 0, line_no = 1, column = 0, begin_char = -1;
  for (int i = 0; i < end; ++i) {
    if (i == origin.begin) {
      begin_char = chars;
      line = line_no;
      line_pos = column;
    }
    if (!is_lead(text[static_cast<size_t>(i)])) continue;
    ++chars;
    ++column;
    if (text[static_cast<size_t>(i)] == '\n') {
      ++line_no;
      column = 0;
    }
  }
  if (begin_char < 0) return;
  start = begin_char;
  stop = chars - 1;
  sql_text = origin.text;
}

std::string ordinal_number(size_t index) {
  static const char* const kWords[] = {"first", "second", "third"};
  return index < 3 ? kWords[index] : std::to_string(index + 1) + "th";
}

}  // namespace ember
