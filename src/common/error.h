#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace ember {

/// The family of a user-facing error, mirroring the exception class Spark raises. The connect
/// layer turns it into the JVM class name that PySpark maps to its own exception types.
enum class ErrorKind {
  kAnalysis,              // org.apache.spark.sql.AnalysisException
  kParse,                 // org.apache.spark.sql.catalyst.parser.ParseException
  kArithmetic,            // org.apache.spark.SparkArithmeticException
  kNumberFormat,          // org.apache.spark.SparkNumberFormatException
  kDateTime,              // org.apache.spark.SparkDateTimeException
  kIllegalArgument,       // org.apache.spark.SparkIllegalArgumentException
  kUnsupportedOperation,  // org.apache.spark.SparkUnsupportedOperationException
  kRuntime,               // org.apache.spark.SparkRuntimeException
  kFileNotFound,          // org.apache.spark.SparkFileNotFoundException
  kPython,                // a Python worker failed: org.apache.spark.api.python.PythonException
  kInterrupted,           // the operation was interrupted by the client
  kInternal,              // a bug in Ember: org.apache.spark.SparkException [INTERNAL_ERROR]
};

/// Where an expression or relation was written in a SQL statement: bytes [begin, stop] of
/// `text` (Spark's Origin). Empty for what no SQL text produced.
struct SqlOrigin {
  std::shared_ptr<const std::string> text;
  int begin = -1, stop = -1;
  bool known() const { return text != nullptr && begin >= 0; }
};

/// A Spark-style error: an error class (`UNRESOLVED_COLUMN.WITH_SUGGESTION`), its message
/// parameters and the rendered message. User errors and internal errors share this type; the
/// kind tells them apart. Message text follows Spark's error-class templates so that the client
/// shows what Apache Spark would show.
class SparkError : public std::runtime_error {
 public:
  SparkError(ErrorKind kind, std::string error_class, std::string message,
             std::map<std::string, std::string> params = {}, std::string sql_state = "");

  ErrorKind kind() const { return kind_; }
  const std::string& error_class() const { return error_class_; }
  const std::map<std::string, std::string>& params() const { return params_; }
  const std::string& sql_state() const { return sql_state_; }
  /// The message without the `[ERROR_CLASS] ` prefix.
  const std::string& message() const { return message_; }
  /// Position in the SQL text (0-based char offset), or -1.
  int start = -1, stop = -1, line = -1, line_pos = -1;
  /// The statement the position points into, when the error arose from an expression or
  /// relation written in SQL (Spark's query context); null for syntax errors, whose text the
  /// parser's caller holds.
  std::shared_ptr<const std::string> sql_text;
  /// Places the error where `origin` was written, unless it has a place already.
  void locate(const SqlOrigin& origin);

 private:
  SparkError(ErrorKind kind, std::string error_class, std::string message,
             std::map<std::string, std::string> params, std::string sql_state, int);
  ErrorKind kind_;
  std::string error_class_;
  std::string message_;
  std::map<std::string, std::string> params_;
  std::string sql_state_;
};

/// Renders `[CLASS] message` as Spark does (the message alone for a legacy error class).
std::string format_error(const std::string& error_class, const std::string& message);

/// Default SQLSTATE for the error classes Ember raises; "" when unknown.
std::string sql_state_for(const std::string& error_class);

[[noreturn]] void throw_internal(const std::string& what, const char* file, int line);

/// Quotes an identifier the way Spark shows it in messages: `a`.`b`.
std::string quote_id(const std::string& name);

/// Quotes an identifier only where Spark's quoteIfNeeded does: a name that is not a letter or
/// `_` followed by letters, digits and `_` (`x y`, `1x`, `a.b`, `é` are quoted; `_a`, `X1` not).
std::string quote_id_if_needed(const std::string& name);

/// The Levenshtein distance between `a` and `b`, byte by byte: what Spark's "Did you mean"
/// suggestions order candidates by.
size_t edit_distance(const std::string& a, const std::string& b);

/// How Spark's messages number a position from 0: first, second, third, then 4th, 5th ...
std::string ordinal_number(size_t index);

}  // namespace ember

/// Invariant checks: a failure is a bug in Ember, never a user error.
#define EMBER_CHECK(cond, what)                                     \
  do {                                                              \
    if (!(cond)) ::ember::throw_internal((what), __FILE__, __LINE__); \
  } while (0)

#define EMBER_UNREACHABLE(what) ::ember::throw_internal((what), __FILE__, __LINE__)
