#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ember::sql {

enum class TokenKind {
  kWord,              // unquoted identifier or keyword: `text` as written, `upper` for matching
  kQuotedIdentifier,  // `back quoted`: `value` holds the name with `` unescaped
  kString,            // 'single' or "double" quoted (or r'raw'): `value` holds the unescaped text
  kNumber,            // a numeric literal: `number` says which form, `text` is as written
  kOperator,          // punctuation and operators: `text` is the symbol (`<=>`, `::`, `(` ...)
  kPositionalParam,   // `?`
  kHint,              // `/*+ ... */`: `value` holds the hint text
  kEnd,               // end of input
};

/// The forms of numeric literals Spark's lexer tells apart.
enum class NumberKind {
  kInteger,     // 123
  kBigint,      // 123L
  kSmallint,    // 123S
  kTinyint,     // 123Y
  kDecimal,     // 1.5  .5  1.   (no exponent)
  kExponent,    // 1e3  1.5E-2   (a double)
  kDouble,      // 1D  1.5D  1e3D
  kFloat,       // 1F  1.5F
  kBigDecimal,  // 1BD  1.5BD  1E10BD
};

/// One token of SQL text. Offsets are byte offsets into the text; `stop` is inclusive, as in
/// Spark's error contexts. `line` is 1-based and `column` 0-based, counted in characters.
struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::string upper;  // kWord only
  std::string value;
  NumberKind number = NumberKind::kInteger;
  int begin = 0, stop = -1;
  int line = 1, column = 0;
  bool raw = false;  // r'...' string

  bool is_word(std::string_view keyword_upper) const {
    return kind == TokenKind::kWord && upper == keyword_upper;
  }
  bool is_op(std::string_view symbol) const {
    return kind == TokenKind::kOperator && text == symbol;
  }
};

/// Splits SQL text into tokens, dropping whitespace and comments. The last token is kEnd.
/// Raises Spark's lexer errors: UNCLOSED_BRACKETED_COMMENT, and PARSE_SYNTAX_ERROR at an
/// unterminated quote or a character that starts no token; INVALID_IDENTIFIER for unquoted
/// identifiers with non-ASCII letters.
std::vector<Token> tokenize(std::string_view sql);

/// Spark's unescaping of a string literal body (`\n`, `\t`, `\'`, `\uXXXX`, octal `\101` ...).
std::string unescape_string(std::string_view body);

}  // namespace ember::sql
