// `ember sql`: the interactive SQL shell and its -e / -f modes.

#include "sql/shell.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/error.h"
#include "exec/show_string.h"
#include "sql/line_editor.h"
#include "sql/parse_error.h"
#include "sql/parser.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

constexpr const char* kPrompt = "ember-sql> ";
constexpr const char* kContinuation = "         > ";

void usage(std::ostream& os) {
  os << "Usage: ember sql [options]\n"
        "  -e \"<statements>\"  run the statements and exit\n"
        "  -f <file>          run the statements of a file and exit\n"
        "  --conf key=value   set a session configuration (repeatable)\n"
        "  -S, --silent       do not print timing lines\n"
        "  --output table|tsv aligned tables (default), or tab-separated rows without a header\n"
        "  -h, --help         show this help\n"
        "Without -e or -f, statements are read from the terminal or standard input; end each\n"
        "with ';'. Type exit or quit to leave.\n";
}

/// Whether `text` ends a statement: its last character outside quotes and comments is `;`.
bool ends_statement(const std::string& text) {
  char last = 0;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '\'' || c == '"' || c == '`') {
      size_t j = i + 1;
      while (j < n && text[j] != c) {
        if (text[j] == '\\' && c != '`') ++j;
        ++j;
      }
      if (j >= n) return false;  // an open quote: more lines to come
      last = c;
      i = j + 1;
    } else if (c == '-' && i + 1 < n && text[i + 1] == '-') {
      size_t nl = text.find('\n', i);
      i = nl == std::string::npos ? n : nl;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      if (end == std::string::npos) return false;
      i = end + 2;
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) last = c;
      ++i;
    }
  }
  return last == ';';
}

std::string error_text(const std::exception& ex, const std::string& statement) {
  if (const auto* e = dynamic_cast<const SparkError*>(&ex)) {
    if (e->line >= 1 || e->error_class() == "UNCLOSED_BRACKETED_COMMENT")
      return format_parse_error(*e, statement);
    std::string out = format_error(e->error_class(), e->message());
    if (!e->sql_state().empty()) out += " SQLSTATE: " + e->sql_state();
    return out;
  }
  return format_error("INTERNAL_ERROR", ex.what());
}

/// Rows as spark-sql prints them: fields separated by tabs, one line per row, no header.
void print_tsv(const plan::QueryResult& r, std::ostream& out, const std::string& time_zone) {
  std::string line;
  for (const Batch& b : r.batches) {
    for (int64_t row = 0; row < b.num_rows; ++row) {
      line.clear();
      for (size_t c = 0; c < b.columns.size(); ++c) {
        if (c) line += '\t';
        line += exec::show_cell(*b.columns[c], row, time_zone);
      }
      line += '\n';
      out << line;
    }
  }
  out.flush();
}

bool run_one(plan::Session& session, const std::string& statement, std::ostream& out,
             std::ostream& err, bool timing, OutputFormat format) {
  auto start = std::chrono::steady_clock::now();
  try {
    Statement s = parse_statement(statement, ParseOptions::for_session(session));
    plan::QueryResult r = execute_statement(session, s);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int64_t rows = r.num_rows();
    if (s.kind == StatementKind::kExplain && r.num_rows() == 1) {
      // Plans read better as text than as a one-cell table.
      out << r.batches[0].columns[0]->value_at(0).as_bytes();
      out.flush();
    } else if (!r.schema.empty() && format == OutputFormat::kTsv) {
      print_tsv(r, out, session.config().session_time_zone());
    } else if (!r.schema.empty()) {
      out << exec::show_string(r.schema, r.batches,
                               static_cast<int>(std::min<int64_t>(rows, INT32_MAX - 1)), 0, false,
                               session.config().session_time_zone());
      out.flush();
    }
    if (timing) {
      char line[128];
      if (r.schema.empty())
        std::snprintf(line, sizeof line, "Time taken: %.3f seconds", secs);
      else
        std::snprintf(line, sizeof line, "Time taken: %.3f seconds, Fetched %lld row(s)", secs,
                      static_cast<long long>(rows));
      err << line << "\n";
    }
    return true;
  } catch (const std::exception& e) {
    err << error_text(e, statement) << "\n";
    return false;
  }
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return "";
  return std::string(home) + "/.ember_sql_history";
}

bool is_exit(const std::string& buffer) {
  std::string s;
  for (char c : buffer)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != ';')
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "exit" || s == "quit";
}

int interactive(plan::Session& session, bool timing, OutputFormat format) {
  LineEditor editor(isatty(STDIN_FILENO) ? history_path() : "");
  const bool tty = editor.interactive();
  bool ok = true;
  std::string buffer;
  while (true) {
    auto r = editor.read_line(buffer.empty() ? kPrompt : kContinuation);
    if (r.status == LineEditor::Status::kEnd) break;
    if (r.status == LineEditor::Status::kInterrupted) {
      buffer.clear();
      continue;
    }
    if (buffer.empty() && is_exit(r.line)) break;
    buffer += (buffer.empty() ? "" : "\n") + r.line;
    if (!ends_statement(buffer)) continue;
    if (tty) editor.add_history(buffer);
    for (const std::string& statement : split_statements(buffer)) {
      if (!run_one(session, statement, std::cout, std::cerr, timing, format)) {
        ok = false;
        if (!tty) return 1;
        break;
      }
    }
    buffer.clear();
  }
  // Input that ends without a final `;` still runs.
  if (!buffer.empty() && !is_exit(buffer)) {
    for (const std::string& statement : split_statements(buffer))
      if (!run_one(session, statement, std::cout, std::cerr, timing, format)) return 1;
  }
  return tty || ok ? 0 : 1;
}

}  // namespace

bool run_script(plan::Session& session, const std::string& script, std::ostream& out,
                std::ostream& err, bool timing, bool stop_on_error, OutputFormat format) {
  bool ok = true;
  for (const std::string& statement : split_statements(script)) {
    if (!run_one(session, statement, out, err, timing, format)) {
      ok = false;
      if (stop_on_error) return false;
    }
  }
  return ok;
}

int run_shell(int argc, char** argv) {
  std::string script;
  bool have_script = false;
  bool timing = true;
  OutputFormat format = OutputFormat::kTable;
  plan::Session session("ember-sql");
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "ember sql: " << a << " needs " << what << "\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "-e") {
      script += value("statements") + ";\n";
      have_script = true;
    } else if (a == "-f") {
      std::string path = value("a file");
      std::ifstream in(path);
      if (!in) {
        std::cerr << "ember sql: cannot read " << path << "\n";
        return 2;
      }
      std::stringstream ss;
      ss << in.rdbuf();
      script += ss.str() + "\n;\n";
      have_script = true;
    } else if (a == "--conf" || a == "-c" || a.rfind("--conf=", 0) == 0) {
      std::string kv = a.rfind("--conf=", 0) == 0 ? a.substr(7) : value("key=value");
      size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        std::cerr << "ember sql: --conf needs key=value, got " << kv << "\n";
        return 2;
      }
      session.config().set(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (a == "-S" || a == "--silent") {
      timing = false;
    } else if (a == "--output" || a.rfind("--output=", 0) == 0) {
      std::string f = a.rfind("--output=", 0) == 0 ? a.substr(9) : value("table or tsv");
      if (f != "table" && f != "tsv") {
        std::cerr << "ember sql: --output takes table or tsv, got " << f << "\n";
        return 2;
      }
      format = f == "tsv" ? OutputFormat::kTsv : OutputFormat::kTable;
    } else if (a == "-h" || a == "--help") {
      usage(std::cout);
      return 0;
    } else {
      std::cerr << "ember sql: unknown option " << a << "\n";
      usage(std::cerr);
      return 2;
    }
  }
  if (have_script) return run_script(session, script, std::cout, std::cerr, timing, true, format) ? 0 : 1;
  return interactive(session, timing, format);
}

}  // namespace ember::sql
