#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/error.h"
#include "sql/lexer.h"

namespace ember::sql {

/// A SparkError positioned in the SQL text: `start`/`stop` are character offsets of the bytes
/// [begin, stop] (stop inclusive), `line` is 1-based and `line_pos` the 0-based character column
/// of `begin`, as Spark's ParseException origin reports them.
SparkError positioned_error(ErrorKind kind, const std::string& error_class,
                            const std::string& message, std::map<std::string, std::string> params,
                            std::string_view sql, int begin, int stop);

/// Spark's PARSE_SYNTAX_ERROR at `token`: "Syntax error at or near 'tok'" (or "end of input"),
/// followed by `hint` (such as ": extra input 'x'").
[[noreturn]] void throw_syntax_error(std::string_view sql, const Token& token,
                                     const std::string& hint = "");

/// The text Spark's ParseException / positioned AnalysisException prints after the message:
/// " (line 1, pos 7)\n\n== SQL ==\n<text>\n-------^^^\n" for syntax errors, or
/// "\n== SQL (line 1, position 8) ==\n<line>\n       ^^^^\n" for errors about a fragment. Empty
/// when the error carries no position.
std::string error_context(const SparkError& error, std::string_view sql);

/// The whole message as Spark's `getMessage` renders a parse error of `sql`:
/// "[CLASS] message SQLSTATE: xxxxx" followed by `error_context`.
std::string format_parse_error(const SparkError& error, std::string_view sql);

}  // namespace ember::sql
