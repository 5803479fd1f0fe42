#pragma once

// Spark SQL's keywords: the words of its grammar, and how reserved each is. The parser asks
// here which words may not name a table (the strict non-reserved ones), and sql_keywords()
// lists them.

#include <string_view>
#include <vector>

namespace ember::sql {

/// One keyword, in upper case.
///  - ansi_reserved: reserved when the parser enforces ANSI's reserved words
///    (spark.sql.ansi.enabled and spark.sql.ansi.enforceReservedKeywords): it may then not be
///    an identifier.
///  - strict_non_reserved: never a table alias, whatever the mode (`FROM t JOIN u`: JOIN
///    starts a join, not an alias of t).
struct Keyword {
  const char* word;
  bool ansi_reserved;
  bool strict_non_reserved;
};

/// Every keyword of Spark's grammar, in alphabetical order.
const std::vector<Keyword>& keywords();

/// Whether `upper` (an upper-cased word) is a strict non-reserved keyword.
bool is_strict_non_reserved(std::string_view upper);

}  // namespace ember::sql
