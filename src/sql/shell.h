#pragma once

#include <iosfwd>
#include <string>

#include "plan/session.h"

namespace ember::sql {

/// `ember sql`: a SQL shell on an embedded engine session. `argv` holds the options (as the
/// other subcommands receive them, without the program and command names):
///   -e "<statements>"   run the statements and exit
///   -f <file>           run the statements of a file and exit
///   --conf key=value    set a session configuration (repeatable)
///   -S, --silent        no timing lines
///   --output table|tsv  results as aligned tables (default), or as spark-sql prints them: one
///                       line per row, fields separated by tabs, no header, NULL as "NULL"
///   -h, --help
/// Without -e or -f it reads statements from the terminal (prompt `ember-sql> `, continuation
/// `         > `, history in ~/.ember_sql_history) or, when input is not a terminal, from
/// standard input. Statements end with `;` outside quotes and comments. Results print as
/// aligned tables on standard output; "Time taken: ..., Fetched N row(s)" and errors go to
/// standard error. Returns the process exit status: 0, or 1 when a statement of -e / -f /
/// piped input failed, 2 for bad options.
int run_shell(int argc, char** argv);

/// How result rows are printed.
enum class OutputFormat { kTable, kTsv };

/// Runs the statements of `script` one after another, printing as the shell does. Stops at the
/// first failing statement when `stop_on_error`; returns whether all succeeded.
bool run_script(plan::Session& session, const std::string& script, std::ostream& out,
                std::ostream& err, bool timing, bool stop_on_error,
                OutputFormat format = OutputFormat::kTable);

}  // namespace ember::sql
