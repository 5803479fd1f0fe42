// Statements: a query, or one of the commands a SQL session runs (SET, RESET, CREATE TEMP
// VIEW, DROP VIEW, SHOW ..., DESCRIBE ..., EXPLAIN, USE, CACHE / UNCACHE TABLE, TRUNCATE,
// ALTER TABLE RENAME; CREATE TABLE, INSERT and databases in parse_table_statement.cc). Commands
// Ember does not run are recognised, so that they fail with UNSUPPORTED_FEATURE rather than a
// syntax error.

#include <cctype>

#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && (std::isspace(static_cast<unsigned char>(s[e - 1])) || s[e - 1] == ';')) --e;
  return std::string(s.substr(b, e - b));
}

std::string unquote_key(std::string k) {
  if (k.size() >= 2 && k.front() == '`' && k.back() == '`') return k.substr(1, k.size() - 2);
  return k;
}

/// Words that start a command Ember knows of but does not run.
bool is_unsupported_command(const Token& t) {
  static const char* const kWords[] = {"MERGE",   "UPDATE", "DELETE",   "ALTER",
                                       "ANALYZE", "ADD",    "LIST",     "LOAD",
                                       "MSCK",    "REPAIR", "DECLARE",  "EXECUTE", "CALL",
                                       "BEGIN",   "COMMIT", "ROLLBACK", "COMMENT", "REPLACE"};
  for (const char* w : kWords)
    if (t.is_word(w)) return true;
  return false;
}

}  // namespace

void Parser::options_list(io::ReadRequest& read) {
  // OPTIONS (key value, ...): keys are identifiers (dotted) or strings, values literals; `path`
  // names the data (a comma inside it is part of the name, as Spark reads it).
  expect_op("(");
  if (!at_op(")")) {
    do {
      std::string key;
      if (peek().kind == TokenKind::kString) {
        key = next().value;
      } else {
        key = identifier();
        while (accept_op(".")) key += "." + identifier();
      }
      accept_op("=");
      const Token& v = peek();
      std::string value;
      if (v.kind == TokenKind::kString) {
        value = v.value;
      } else if (v.kind == TokenKind::kNumber || v.is_word("TRUE") || v.is_word("FALSE")) {
        value = v.kind == TokenKind::kNumber ? v.text : (v.is_word("TRUE") ? "true" : "false");
      } else {
        fail_here();
      }
      next();
      std::string lower = key;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "path") read.paths.push_back(value);
      else read.options.set(key, value);
    } while (accept_op(","));
  }
  expect_op(")");
}

Statement Parser::statement() {
  Statement s;
  const Token& first = peek();
  auto rest_of_text = [&]() {
    // The raw text after the current token (SET and RESET read their operands verbatim).
    int from = peek().kind == TokenKind::kEnd ? static_cast<int>(sql_.size()) : peek().begin;
    while (peek().kind != TokenKind::kEnd) next();
    return trim(sql_.substr(static_cast<size_t>(from)));
  };
  auto unsupported = [&](std::string feature) {
    s.kind = StatementKind::kUnsupported;
    s.feature = std::move(feature);
    while (peek().kind != TokenKind::kEnd) next();
    return s;
  };

  if (at_query_start()) {
    s.kind = StatementKind::kQuery;
    s.query = query();
    return s;
  }
  if (first.is_word("SET") && !at_op("(", 1)) {
    next();
    s.kind = StatementKind::kSet;
    if (at_word("TIME") && at_word("ZONE", 1)) {
      pos_ += 2;
      s.key = "spark.sql.session.timeZone";
      s.has_value = true;
      if (accept_word("LOCAL")) {
        s.value = "";
      } else if (peek().kind == TokenKind::kString) {
        s.value = next().value;
      } else {
        return unsupported("SET TIME ZONE with an interval");
      }
      return s;
    }
    if (at_word("VAR") || at_word("VARIABLE")) return unsupported("SET VARIABLE");
    if (at_op("-") && at_word("v", 1) && at_end_of_statement(2)) {
      pos_ += 2;
      s.verbose = true;
      return s;
    }
    std::string text = rest_of_text();
    size_t eq = text.find('=');
    if (eq == std::string::npos) {
      s.key = unquote_key(trim(text));
    } else {
      s.key = unquote_key(trim(text.substr(0, eq)));
      s.value = trim(text.substr(eq + 1));
      s.has_value = true;
      if (s.key.empty()) fail(first);
    }
    return s;
  }
  if (first.is_word("RESET")) {
    next();
    s.kind = StatementKind::kReset;
    s.key = unquote_key(rest_of_text());
    return s;
  }
  if (first.is_word("CREATE")) {
    next();
    if (accept_word("OR")) {
      expect_word("REPLACE");
      s.replace = true;
    }
    if (!s.global && at_word("TABLE")) return create_table(s);
    if (!s.replace && (at_word("DATABASE") || at_word("SCHEMA") || at_word("NAMESPACE")))
      return create_namespace(s);
    if (accept_word("GLOBAL")) s.global = true;
    bool temp = accept_word("TEMP") || accept_word("TEMPORARY");
    if (!at_word("VIEW")) {
      std::string what = at_identifier() ? peek().upper : "";
      return unsupported("CREATE " + (what.empty() ? std::string("statements") : what));
    }
    next();
    if (!temp) return unsupported("CREATE VIEW (persistent views)");
    if (at_word("IF")) {
      next();
      expect_word("NOT");
      expect_word("EXISTS");
      s.if_not_exists = true;
    }
    s.kind = StatementKind::kCreateView;
    s.name = multipart_identifier();
    std::vector<StructField> typed;  // (a INT, b STRING) of the USING form
    if (at_op("(")) {
      next();
      do {
        s.column_names.push_back(identifier());
        if (!at_op(",") && !at_op(")") && !at_word("COMMENT"))
          typed.push_back({s.column_names.back(), data_type(), true, "{}"});
        if (accept_word("COMMENT")) {
          if (peek().kind != TokenKind::kString) fail_here();
          next();
        }
      } while (accept_op(","));
      expect_op(")");
      if (!typed.empty() && typed.size() != s.column_names.size()) fail_here();
    }
    if (accept_word("USING")) {
      // CREATE TEMPORARY VIEW v [(a INT, ...)] USING csv OPTIONS (path '...', header 'true'):
      // the view reads the data source, as spark.read.format(...).options(...).load() does.
      auto read = new_node(plan::PlanKind::kRead);
      read->read.format = identifier();
      if (accept_word("OPTIONS")) options_list(read->read);
      if (!typed.empty()) read->read.user_schema = DataType::struct_(std::move(typed));
      s.column_names.clear();
      s.query = read;
      return s;
    }
    while (!at_word("AS") && peek().kind != TokenKind::kEnd) {
      if (accept_word("COMMENT")) {
        if (peek().kind != TokenKind::kString) fail_here();
        next();
      } else if (accept_word("TBLPROPERTIES")) {
        expect_op("(");
        int depth = 1;
        while (depth > 0 && peek().kind != TokenKind::kEnd) {
          if (at_op("(")) ++depth;
          if (at_op(")")) --depth;
          next();
        }
      } else {
        fail_here();
      }
    }
    expect_word("AS");
    s.query = query();
    return s;
  }
  if (first.is_word("DROP")) {
    next();
    if (at_word("VIEW") || at_word("TABLE")) {
      s.is_view = next().upper == "VIEW";
      if (at_word("IF") && at_word("EXISTS", 1)) {
        pos_ += 2;
        s.if_exists = true;
      }
      s.kind = StatementKind::kDropView;
      s.name = multipart_identifier();
      accept_word("PURGE");
      return s;
    }
    if (at_word("DATABASE") || at_word("SCHEMA") || at_word("NAMESPACE")) return drop_namespace(s);
    if (((at_word("TEMPORARY") || at_word("TEMP")) && at_word("FUNCTION", 1)) ||
        at_word("FUNCTION")) {
      s.temporary = !at_word("FUNCTION");
      pos_ += s.temporary ? 2 : 1;
      if (at_word("IF") && at_word("EXISTS", 1)) {
        pos_ += 2;
        s.if_exists = true;
      }
      s.kind = StatementKind::kDropFunction;
      s.name = multipart_identifier();
      return s;
    }
    return unsupported("DROP " + (at_identifier() ? peek().upper : std::string("statements")));
  }
  if (first.is_word("SHOW")) {
    next();
    auto pattern = [&]() {
      bool like = accept_word("LIKE");
      if (peek().kind == TokenKind::kString) {
        s.pattern = next().value;
        s.has_pattern = true;
      } else if (like) {
        fail_here();
      }
    };
    if (at_word("TABLES") || at_word("VIEWS")) {
      s.is_view = next().upper == "VIEWS";
      s.kind = StatementKind::kShowTables;
      if (accept_word("FROM") || accept_word("IN")) s.name = multipart_identifier();
      pattern();
      return s;
    }
    if (at_word("FUNCTIONS") ||
        ((at_word("USER") || at_word("SYSTEM") || at_word("ALL")) && at_word("FUNCTIONS", 1))) {
      if (!at_word("FUNCTIONS")) s.key = next().upper;
      next();
      s.kind = StatementKind::kShowFunctions;
      if (accept_word("FROM") || accept_word("IN")) s.name = multipart_identifier();
      pattern();
      if (!s.has_pattern && at_identifier()) {
        s.pattern = multipart_identifier().back();
        s.has_pattern = true;
      }
      return s;
    }
    if (at_word("DATABASES") || at_word("SCHEMAS") || at_word("NAMESPACES")) {
      next();
      s.kind = StatementKind::kShowNamespaces;
      if (accept_word("FROM") || accept_word("IN")) s.name = multipart_identifier();
      pattern();
      return s;
    }
    if (at_word("CURRENT") &&
        (at_word("NAMESPACE", 1) || at_word("SCHEMA", 1) || at_word("DATABASE", 1))) {
      pos_ += 2;
      s.kind = StatementKind::kShowCurrentNamespace;
      return s;
    }
    if (at_word("PARTITIONS")) {
      next();
      s.kind = StatementKind::kShowPartitions;
      s.name = multipart_identifier();
      if (at_word("PARTITION")) return unsupported("SHOW PARTITIONS with a partition specification");
      return s;
    }
    if (at_word("CREATE") && at_word("TABLE", 1)) {
      pos_ += 2;
      s.kind = StatementKind::kShowCreateTable;
      s.name = multipart_identifier();
      if (at_word("AS")) return unsupported("SHOW CREATE TABLE AS SERDE");
      return s;
    }
    if (at_word("COLUMNS")) {
      next();
      if (!accept_word("FROM")) expect_word("IN");
      s.kind = StatementKind::kShowColumns;
      s.name = multipart_identifier();
      if (accept_word("FROM") || accept_word("IN")) {
        std::vector<std::string> ns = multipart_identifier();
        ns.insert(ns.end(), s.name.begin(), s.name.end());
        s.name = ns;
      }
      return s;
    }
    return unsupported("SHOW " + (at_identifier() ? peek().upper : std::string("statements")));
  }
  if (first.is_word("DESCRIBE") || first.is_word("DESC")) {
    next();
    if (at_word("FUNCTION")) {
      next();
      s.verbose = accept_word("EXTENDED");
      s.kind = StatementKind::kDescribeFunction;
      if (peek().kind == TokenKind::kString)
        s.key = next().value;
      else if (at_identifier())
        s.key = multipart_identifier().back();
      else
        s.key = next().text;  // operators: DESCRIBE FUNCTION +
      return s;
    }
    if (at_word("QUERY") && at_query_start(1)) next();
    // DESCRIBE TABLE [EXTENDED] name, not the query `TABLE name`.
    const bool table_keyword = at_word("TABLE") && !at_word("QUERY");
    if (!table_keyword && at_query_start()) {
      s.kind = StatementKind::kDescribe;
      s.query = query();
      return s;
    }
    if (at_word("DATABASE") || at_word("SCHEMA") || at_word("NAMESPACE") || at_word("CATALOG"))
      return unsupported("DESCRIBE " + peek().upper);
    accept_word("TABLE");
    if ((at_word("EXTENDED") || at_word("FORMATTED")) && at_identifier(1)) {
      next();
      s.verbose = true;
    }
    s.kind = StatementKind::kDescribe;
    s.name = multipart_identifier();
    if (!at_end_of_statement()) return unsupported("DESCRIBE of a partition or a column");
    return s;
  }
  if (first.is_word("EXPLAIN")) {
    next();
    if (accept_word("EXTENDED"))
      s.explain_mode = plan::ExplainMode::kExtended;
    else if (accept_word("FORMATTED"))
      s.explain_mode = plan::ExplainMode::kFormatted;
    else if (accept_word("COST"))
      s.explain_mode = plan::ExplainMode::kCost;
    else if (accept_word("CODEGEN"))
      s.explain_mode = plan::ExplainMode::kCodegen;
    else if (accept_word("LOGICAL"))
      s.explain_mode = plan::ExplainMode::kExtended;
    if (!at_query_start()) return unsupported("EXPLAIN of a command");
    s.kind = StatementKind::kExplain;
    s.query = query();
    return s;
  }
  if (first.is_word("USE")) {
    next();
    if ((at_word("NAMESPACE") || at_word("DATABASE") || at_word("SCHEMA")) && at_identifier(1))
      next();
    s.kind = StatementKind::kUse;
    s.name = multipart_identifier();
    return s;
  }
  if (first.is_word("CACHE")) {
    next();
    s.lazy = accept_word("LAZY");
    expect_word("TABLE");
    s.kind = StatementKind::kCacheTable;
    s.name = multipart_identifier();
    if (accept_word("OPTIONS")) {
      io::ReadRequest read;
      options_list(read);
      for (const auto& [k, v] : read.options.all()) s.table_options[k] = v;
    }
    accept_word("AS");
    if (at_query_start()) s.query = query();
    return s;
  }
  if (first.is_word("UNCACHE")) {
    next();
    expect_word("TABLE");
    if (at_word("IF") && at_word("EXISTS", 1)) {
      pos_ += 2;
      s.if_exists = true;
    }
    s.kind = StatementKind::kUncacheTable;
    s.name = multipart_identifier();
    return s;
  }
  if (first.is_word("CLEAR") && at_word("CACHE", 1)) {
    pos_ += 2;
    s.kind = StatementKind::kClearCache;
    return s;
  }
  if (first.is_word("REFRESH")) {
    next();
    if (!accept_word("TABLE") && !at_identifier()) return unsupported("REFRESH");
    s.kind = StatementKind::kRefreshTable;
    s.name = multipart_identifier();
    return s;
  }
  if (first.is_word("INSERT")) {
    next();
    return insert(s);
  }
  if (first.is_word("TRUNCATE") && at_word("TABLE", 1)) {
    pos_ += 2;
    s.kind = StatementKind::kTruncateTable;
    s.name = multipart_identifier();
    if (at_word("PARTITION")) return unsupported("TRUNCATE TABLE ... PARTITION");
    return s;
  }
  if (first.is_word("ALTER") && at_word("TABLE", 1)) {
    const size_t start = pos_;
    pos_ += 2;
    std::vector<std::string> name = multipart_identifier();
    if (at_word("RENAME") && at_word("TO", 1)) {
      pos_ += 2;
      s.kind = StatementKind::kRenameTable;
      s.name = std::move(name);
      s.new_name = multipart_identifier();
      return s;
    }
    pos_ = start;
  }
  if (is_unsupported_command(first)) return unsupported(first.upper);
  // Anything else must be a query; a misspelt keyword fails here with Spark's syntax error.
  s.kind = StatementKind::kQuery;
  s.query = query();
  return s;
}

}  // namespace ember::sql
