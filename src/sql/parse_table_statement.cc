// Statements over persistent tables and databases: CREATE TABLE [AS SELECT], INSERT INTO /
// OVERWRITE, CREATE / DROP DATABASE. TRUNCATE, ALTER TABLE RENAME and SHOW PARTITIONS / CREATE
// TABLE are short enough to stay in parse_statement.cc.

#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

Schema Parser::column_definitions() {
  Schema schema;
  expect_op("(");
  do {
    StructField f;
    f.name = identifier();
    f.type = data_type();
    f.nullable = true;
    f.metadata_json = "{}";
    for (;;) {
      if (at_word("NOT") && at_word("NULL", 1)) {
        pos_ += 2;
        f.nullable = false;
      } else if (accept_word("COMMENT")) {
        if (peek().kind != TokenKind::kString) fail_here();
        next();
      } else {
        break;
      }
    }
    schema.push_back(f);
  } while (accept_op(","));
  expect_op(")");
  return schema;
}

Statement Parser::create_table(Statement s) {
  // After CREATE [OR REPLACE]; at TABLE.
  expect_word("TABLE");
  if (at_word("IF")) {
    next();
    expect_word("NOT");
    expect_word("EXISTS");
    s.if_not_exists = true;
  }
  s.kind = StatementKind::kCreateTable;
  s.name = multipart_identifier();
  if (at_op("(") && !at_query_start(1)) s.table_schema = column_definitions();
  for (;;) {
    if (accept_word("USING")) {
      s.provider = identifier();
      while (accept_op(".")) s.provider += "." + identifier();
    } else if (at_word("PARTITIONED") && at_word("BY", 1)) {
      pos_ += 2;
      s.partition_by = identifier_list();
    } else if (accept_word("OPTIONS")) {
      io::ReadRequest read;
      options_list(read);
      for (const auto& [k, v] : read.options.all()) s.table_options[k] = v;
      if (!read.paths.empty()) {
        s.kind = StatementKind::kUnsupported;
        s.feature = "CREATE TABLE with a path (external tables)";
      }
    } else if (accept_word("COMMENT")) {
      if (peek().kind != TokenKind::kString) fail_here();
      s.comment = next().value;
    } else if (accept_word("TBLPROPERTIES")) {
      expect_op("(");
      int depth = 1;
      while (depth > 0 && peek().kind != TokenKind::kEnd) {
        if (at_op("(")) ++depth;
        if (at_op(")")) --depth;
        next();
      }
    } else if (at_word("LOCATION") || at_word("CLUSTERED") || at_word("ROW") || at_word("STORED")) {
      const std::string what = peek().upper;
      while (peek().kind != TokenKind::kEnd) next();
      s.kind = StatementKind::kUnsupported;
      s.feature = "CREATE TABLE ... " + what;
      return s;
    } else {
      break;
    }
  }
  if (at_word("LIKE")) {
    while (peek().kind != TokenKind::kEnd) next();
    s.kind = StatementKind::kUnsupported;
    s.feature = "CREATE TABLE ... LIKE";
    return s;
  }
  if (accept_word("AS") || at_query_start()) {
    if (!s.table_schema.empty()) {
      throw SparkError(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0035",
                       "Operation not allowed: Schema may not be specified in a Create Table As "
                       "Select (CTAS) statement.",
                       {{"message", "Schema may not be specified in a Create Table As Select (CTAS) statement"}},
                       "0A000");
    }
    s.query = query();
  }
  return s;
}

Statement Parser::create_namespace(Statement s) {
  next();  // DATABASE | SCHEMA | NAMESPACE
  if (at_word("IF")) {
    next();
    expect_word("NOT");
    expect_word("EXISTS");
    s.if_not_exists = true;
  }
  s.kind = StatementKind::kCreateNamespace;
  s.name = multipart_identifier();
  for (;;) {
    if (accept_word("COMMENT")) {
      if (peek().kind != TokenKind::kString) fail_here();
      s.comment = next().value;
    } else if (at_word("WITH") && (at_word("DBPROPERTIES", 1) || at_word("PROPERTIES", 1))) {
      pos_ += 2;
      io::ReadRequest ignored;
      options_list(ignored);
    } else if (at_word("LOCATION")) {
      while (peek().kind != TokenKind::kEnd) next();
      s.kind = StatementKind::kUnsupported;
      s.feature = "CREATE DATABASE ... LOCATION";
      return s;
    } else {
      break;
    }
  }
  return s;
}

Statement Parser::drop_namespace(Statement s) {
  next();  // DATABASE | SCHEMA | NAMESPACE
  if (at_word("IF") && at_word("EXISTS", 1)) {
    pos_ += 2;
    s.if_exists = true;
  }
  s.kind = StatementKind::kDropNamespace;
  s.name = multipart_identifier();
  if (accept_word("CASCADE")) s.cascade = true;
  else accept_word("RESTRICT");
  return s;
}

Statement Parser::insert(Statement s) {
  // After INSERT.
  if (accept_word("OVERWRITE")) {
    s.overwrite = true;
  } else {
    expect_word("INTO");
  }
  accept_word("TABLE");
  s.kind = StatementKind::kInsert;
  s.name = multipart_identifier();
  if (accept_word("PARTITION")) {
    expect_op("(");
    do {
      plan::PartitionValue v;
      v.column = identifier();
      if (accept_op("=")) v.value = expression();
      s.partition.push_back(std::move(v));
    } while (accept_op(","));
    expect_op(")");
  }
  if (at_word("IF") && at_word("NOT", 1) && at_word("EXISTS", 2)) pos_ += 3;
  if (at_word("BY") && at_word("NAME", 1)) {
    pos_ += 2;
    s.by_name = true;
  } else if (at_op("(") && !at_query_start(1)) {
    s.column_names = identifier_list();
  }
  s.query = query();
  return s;
}

}  // namespace ember::sql
