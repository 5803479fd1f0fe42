#include "functions/xpath.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "common/number_format.h"
#include "common/utf8.h"

namespace ember::functions::xpath {

using xml::Node;
using xml::NodeKind;

// ---- conversions ----------------------------------------------------------------------------

namespace {

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// UTF-8 to UTF-16 code units (XPath's string functions count and index these).
std::u16string to_utf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp;
    size_t n;
    if (c < 0x80) cp = c, n = 1;
    else if (c < 0xE0) cp = c & 0x1F, n = 2;
    else if (c < 0xF0) cp = c & 0x0F, n = 3;
    else cp = c & 0x07, n = 4;
    for (size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

/// UTF-16 back to UTF-8; a lone surrogate becomes '?', as Java's UTF-8 encoder writes it.
std::string from_utf16(std::u16string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t cp = s[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = '?';
    }
    append_utf8(out, static_cast<uint32_t>(cp));
  }
  return out;
}

const char* type_word(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNumber: return "#NUMBER";
    case Value::Kind::kString: return "#STRING";
    case Value::Kind::kBoolean: return "#BOOLEAN";
    default: return "#NODESET";
  }
}

Value number_value(double d) {
  Value v;
  v.kind = Value::Kind::kNumber;
  v.number = d;
  return v;
}
Value string_value(std::string s) {
  Value v;
  v.kind = Value::Kind::kString;
  v.str = std::move(s);
  return v;
}
Value bool_value(bool b) {
  Value v;
  v.kind = Value::Kind::kBoolean;
  v.boolean = b;
  return v;
}
Value node_value(NodeSet nodes) {
  Value v;
  v.kind = Value::Kind::kNodeSet;
  v.nodes = std::move(nodes);
  return v;
}

/// XPath's round: the closest integer, halves toward positive infinity.
double xpath_round(double d) {
  if (std::isnan(d) || std::isinf(d)) return d;
  return std::floor(d + 0.5);
}

}  // namespace

double string_to_number(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_xml_space(s[b])) ++b;
  while (e > b && is_xml_space(s[e - 1])) --e;
  std::string_view t = s.substr(b, e - b);
  size_t i = 0;
  if (i < t.size() && t[i] == '-') ++i;
  size_t int_digits = 0, frac_digits = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++int_digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++frac_digits;
  }
  if (i != t.size() || int_digits + frac_digits == 0) return std::nan("");
  return std::strtod(std::string(t).c_str(), nullptr);
}

std::string number_to_string(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return "0";
  // Java's Double.toString digits, written out without an exponent.
  std::string j = java_double_string(d);
  std::string sign;
  if (j[0] == '-') sign = "-", j = j.substr(1);
  int exp = 0;
  size_t epos = j.find('E');
  if (epos != std::string::npos) {
    exp = std::atoi(j.c_str() + epos + 1);
    j = j.substr(0, epos);
  }
  size_t dot = j.find('.');
  std::string digits = j.substr(0, dot) + j.substr(dot + 1);
  int point = static_cast<int>(dot) + exp;  // digits before the decimal point
  size_t lead = 0;
  while (lead + 1 < digits.size() && digits[lead] == '0') ++lead;
  digits = digits.substr(lead);
  point -= static_cast<int>(lead);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int n = static_cast<int>(digits.size());
  if (point >= n) return sign + digits + std::string(static_cast<size_t>(point - n), '0');
  if (point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  return sign + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}

std::string to_string(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNodeSet: return v.nodes.empty() ? std::string() : xml::string_value(v.nodes.front());
    case Value::Kind::kNumber: return number_to_string(v.number);
    case Value::Kind::kString: return v.str;
    case Value::Kind::kBoolean: return v.boolean ? "true" : "false";
  }
  return {};
}

double to_number(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNodeSet: return string_to_number(to_string(v));
    case Value::Kind::kNumber: return v.number;
    case Value::Kind::kString: return string_to_number(v.str);
    case Value::Kind::kBoolean: return v.boolean ? 1 : 0;
  }
  return 0;
}

bool to_boolean(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNodeSet: return !v.nodes.empty();
    case Value::Kind::kNumber: return v.number != 0 && !std::isnan(v.number);
    case Value::Kind::kString: return !v.str.empty();
    case Value::Kind::kBoolean: return v.boolean;
  }
  return false;
}

// ---- the expression tree --------------------------------------------------------------------

enum class Axis {
  kChild, kDescendant, kDescendantOrSelf, kParent, kAncestor, kAncestorOrSelf, kFollowingSibling,
  kPrecedingSibling, kFollowing, kPreceding, kAttribute, kSelf
};

enum class Test { kName, kAnyName, kNever, kNode, kText, kComment, kPi };

struct Step {
  Axis axis = Axis::kChild;
  Test test = Test::kNode;
  std::string name;  // kName: the local name; kPi: the target ("" for any)
  std::vector<std::unique_ptr<Expr>> predicates;
};

enum class Fn {
  kLast, kPosition, kCount, kId, kLocalName, kNamespaceUri, kName, kString, kConcat, kStartsWith, kContains,
  kSubstringBefore, kSubstringAfter, kSubstring, kStringLength, kNormalizeSpace, kTranslate, kBoolean, kNot,
  kTrue, kFalse, kLang, kNumber, kSum, kFloor, kCeiling, kRound, kUnbound
};

enum class Op {
  kOr, kAnd, kEq, kNe, kLt, kLe, kGt, kGe, kAdd, kSub, kMul, kDiv, kMod, kNeg, kUnion, kNumber, kLiteral,
  kCall, kVariable, kPath
};

struct Expr {
  Op op = Op::kNumber;
  std::vector<std::unique_ptr<Expr>> args;  // operands, call arguments
  double number = 0;
  std::string text;  // literal, variable or unbound function name
  Fn fn = Fn::kUnbound;
  // kPath: an optional filter expression (args[0]) with its predicates, then steps; absolute
  // paths start at the document node.
  bool absolute = false;
  std::vector<std::unique_ptr<Expr>> filter_predicates;
  std::vector<Step> steps;
};

namespace {

struct FnInfo {
  const char* name;
  Fn fn;
  int min_args, max_args;  // max -1: any number
  const char* arity;       // as the JDK's message words it
};

constexpr FnInfo kFunctions[] = {
    {"last", Fn::kLast, 0, 0, "0"},
    {"position", Fn::kPosition, 0, 0, "0"},
    {"count", Fn::kCount, 1, 1, "1"},
    {"id", Fn::kId, 1, 1, "1"},
    {"local-name", Fn::kLocalName, 0, 1, "0 or 1"},
    {"namespace-uri", Fn::kNamespaceUri, 0, 1, "0 or 1"},
    {"name", Fn::kName, 0, 1, "0 or 1"},
    {"string", Fn::kString, 0, 1, "0 or 1"},
    {"concat", Fn::kConcat, 2, -1, ">1"},
    {"starts-with", Fn::kStartsWith, 2, 2, "2"},
    {"contains", Fn::kContains, 2, 2, "2"},
    {"substring-before", Fn::kSubstringBefore, 2, 2, "2"},
    {"substring-after", Fn::kSubstringAfter, 2, 2, "2"},
    {"substring", Fn::kSubstring, 2, 3, "2 or 3"},
    {"string-length", Fn::kStringLength, 0, 1, "0 or 1"},
    {"normalize-space", Fn::kNormalizeSpace, 0, 1, "0 or 1"},
    {"translate", Fn::kTranslate, 3, 3, "3"},
    {"boolean", Fn::kBoolean, 1, 1, "1"},
    {"not", Fn::kNot, 1, 1, "1"},
    {"true", Fn::kTrue, 0, 0, "0"},
    {"false", Fn::kFalse, 0, 0, "0"},
    {"lang", Fn::kLang, 1, 1, "1"},
    {"number", Fn::kNumber, 0, 1, "0 or 1"},
    {"sum", Fn::kSum, 1, 1, "1"},
    {"floor", Fn::kFloor, 1, 1, "1"},
    {"ceiling", Fn::kCeiling, 1, 1, "1"},
    {"round", Fn::kRound, 1, 1, "1"},
};

// ---- lexer ----------------------------------------------------------------------------------

enum class Tok {
  kEnd, kNumber, kLiteral, kName, kStar, kOperatorName, kMultiply, kLParen, kRParen, kLBracket, kRBracket, kDot,
  kDotDot, kAt, kComma, kColonColon, kSlash, kSlashSlash, kBar, kPlus, kMinus, kEq, kNe, kLt, kLe, kGt, kGe,
  kDollar
};

struct Token {
  Tok kind;
  std::string text;
  double number = 0;
};

struct CompileError {
  std::string message;
  bool unsupported = false;
};

[[noreturn]] void compile_fail(std::string message, bool unsupported = false) {
  throw CompileError{std::move(message), unsupported};
}

bool is_ncname_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
bool is_ncname_char(unsigned char c) { return is_ncname_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  // After these, '*' is a name test and a name is not an operator (XPath 1.0, 3.7).
  auto operand_expected = [&] {
    if (out.empty()) return true;
    switch (out.back().kind) {
      case Tok::kAt: case Tok::kColonColon: case Tok::kLParen: case Tok::kLBracket: case Tok::kComma:
      case Tok::kOperatorName: case Tok::kMultiply: case Tok::kSlash: case Tok::kSlashSlash: case Tok::kBar:
      case Tok::kPlus: case Tok::kMinus: case Tok::kEq: case Tok::kNe: case Tok::kLt: case Tok::kLe: case Tok::kGt:
      case Tok::kGe: case Tok::kDollar:
        return true;
      default:
        return false;
    }
  };
  auto ncname = [&] {
    size_t start = i;
    while (i < s.size() && is_ncname_char(static_cast<unsigned char>(s[i]))) ++i;
    return std::string(s.substr(start, i - start));
  };
  while (true) {
    while (i < s.size() && is_xml_space(s[i])) ++i;
    if (i >= s.size()) break;
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    Token t{Tok::kEnd, ""};
    if ((c >= '0' && c <= '9') || (c == '.' && next >= '0' && next <= '9')) {
      size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      }
      if (i < s.size() && is_ncname_start(static_cast<unsigned char>(s[i])) && (s[i] == 'e' || s[i] == 'E'))
        compile_fail(std::string(s.substr(start, i + 1 - start)) + " could not be formatted to a number!");
      t.kind = Tok::kNumber;
      t.number = std::strtod(std::string(s.substr(start, i - start)).c_str(), nullptr);
    } else if (c == '"' || c == '\'') {
      size_t end = s.find(c, i + 1);
      if (end == std::string_view::npos)
        compile_fail(std::string("misquoted literal... expected ") + (c == '"' ? "double" : "single") + " quote!");
      t.kind = Tok::kLiteral;
      t.text = std::string(s.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (c == '*') {
      t.kind = operand_expected() ? Tok::kStar : Tok::kMultiply;
      ++i;
    } else if (is_ncname_start(static_cast<unsigned char>(c))) {
      t.text = ncname();
      if (!operand_expected() && (t.text == "and" || t.text == "or" || t.text == "mod" || t.text == "div")) {
        t.kind = Tok::kOperatorName;
      } else {
        t.kind = Tok::kName;
        if (i < s.size() && s[i] == ':' && !(i + 1 < s.size() && s[i + 1] == ':')) {
          ++i;
          if (i < s.size() && s[i] == '*') {
            t.text += ":*";
            ++i;
          } else if (i < s.size() && is_ncname_start(static_cast<unsigned char>(s[i]))) {
            t.text += ":" + ncname();
          } else {
            compile_fail("A node test that matches either NCName:* or QName was expected.");
          }
        }
      }
    } else {
      ++i;
      switch (c) {
        case '(': t.kind = Tok::kLParen; break;
        case ')': t.kind = Tok::kRParen; break;
        case '[': t.kind = Tok::kLBracket; break;
        case ']': t.kind = Tok::kRBracket; break;
        case ',': t.kind = Tok::kComma; break;
        case '@': t.kind = Tok::kAt; break;
        case '|': t.kind = Tok::kBar; break;
        case '+': t.kind = Tok::kPlus; break;
        case '-': t.kind = Tok::kMinus; break;
        case '=': t.kind = Tok::kEq; break;
        case '$': t.kind = Tok::kDollar; break;
        case '.':
          if (next == '.') ++i, t.kind = Tok::kDotDot;
          else t.kind = Tok::kDot;
          break;
        case ':':
          if (next != ':') compile_fail("Extra illegal tokens: ':'");
          ++i;
          t.kind = Tok::kColonColon;
          break;
        case '/':
          if (next == '/') ++i, t.kind = Tok::kSlashSlash;
          else t.kind = Tok::kSlash;
          break;
        case '!':
          if (next != '=') compile_fail("Extra illegal tokens: '!'");
          ++i;
          t.kind = Tok::kNe;
          break;
        case '<':
          if (next == '=') ++i, t.kind = Tok::kLe;
          else t.kind = Tok::kLt;
          break;
        case '>':
          if (next == '=') ++i, t.kind = Tok::kGe;
          else t.kind = Tok::kGt;
          break;
        default:
          compile_fail(std::string("Extra illegal tokens: '") + c + "'");
      }
    }
    out.push_back(std::move(t));
  }
  if (out.empty()) compile_fail("Empty expression!");
  out.push_back(Token{Tok::kEnd, ""});
  return out;
}

// ---- parser ---------------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}

  std::unique_ptr<Expr> parse() {
    auto e = or_expr();
    if (peek().kind != Tok::kEnd) compile_fail("Extra illegal tokens: '" + describe(peek()) + "'");
    return e;
  }

 private:
  const Token& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool accept(Tok k) {
    if (peek().kind != k) return false;
    ++p_;
    return true;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::kNumber: return number_to_string(t.number);
      case Tok::kLiteral: return "\"" + t.text + "\"";
      case Tok::kName: case Tok::kOperatorName: return t.text;
      case Tok::kStar: case Tok::kMultiply: return "*";
      case Tok::kLParen: return "(";
      case Tok::kRParen: return ")";
      case Tok::kLBracket: return "[";
      case Tok::kRBracket: return "]";
      case Tok::kDot: return ".";
      case Tok::kDotDot: return "..";
      case Tok::kAt: return "@";
      case Tok::kComma: return ",";
      case Tok::kColonColon: return "::";
      case Tok::kSlash: return "/";
      case Tok::kSlashSlash: return "//";
      case Tok::kBar: return "|";
      case Tok::kPlus: return "+";
      case Tok::kMinus: return "-";
      case Tok::kEq: return "=";
      case Tok::kNe: return "!=";
      case Tok::kLt: return "<";
      case Tok::kLe: return "<=";
      case Tok::kGt: return ">";
      case Tok::kGe: return ">=";
      case Tok::kDollar: return "$";
      case Tok::kEnd: return "";
    }
    return "";
  }
  [[noreturn]] void expected_path() {
    if (peek().kind == Tok::kEnd)
      compile_fail("A location path was expected, but the end of the XPath expression was found instead.");
    compile_fail("A location path was expected, but the following token was encountered:  " + describe(peek()));
  }

  static std::unique_ptr<Expr> binary(Op op, std::unique_ptr<Expr> l, std::unique_ptr<Expr> r) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->args.push_back(std::move(l));
    e->args.push_back(std::move(r));
    return e;
  }

  std::unique_ptr<Expr> or_expr() {
    // Parenthesized expressions, predicates and arguments nest through here; bound the depth.
    if (++depth_ > 500) compile_fail("expressions nested deeper than 500 levels are not supported", true);
    auto e = and_expr();
    while (peek().kind == Tok::kOperatorName && peek().text == "or") {
      ++p_;
      e = binary(Op::kOr, std::move(e), and_expr());
    }
    --depth_;
    return e;
  }
  std::unique_ptr<Expr> and_expr() {
    auto e = equality();
    while (peek().kind == Tok::kOperatorName && peek().text == "and") {
      ++p_;
      e = binary(Op::kAnd, std::move(e), equality());
    }
    return e;
  }
  std::unique_ptr<Expr> equality() {
    auto e = relational();
    while (true) {
      if (accept(Tok::kEq)) e = binary(Op::kEq, std::move(e), relational());
      else if (accept(Tok::kNe)) e = binary(Op::kNe, std::move(e), relational());
      else return e;
    }
  }
  std::unique_ptr<Expr> relational() {
    auto e = additive();
    while (true) {
      if (accept(Tok::kLt)) e = binary(Op::kLt, std::move(e), additive());
      else if (accept(Tok::kLe)) e = binary(Op::kLe, std::move(e), additive());
      else if (accept(Tok::kGt)) e = binary(Op::kGt, std::move(e), additive());
      else if (accept(Tok::kGe)) e = binary(Op::kGe, std::move(e), additive());
      else return e;
    }
  }
  std::unique_ptr<Expr> additive() {
    auto e = multiplicative();
    while (true) {
      if (accept(Tok::kPlus)) e = binary(Op::kAdd, std::move(e), multiplicative());
      else if (accept(Tok::kMinus)) e = binary(Op::kSub, std::move(e), multiplicative());
      else return e;
    }
  }
  std::unique_ptr<Expr> multiplicative() {
    auto e = unary();
    while (true) {
      if (accept(Tok::kMultiply)) {
        e = binary(Op::kMul, std::move(e), unary());
      } else if (peek().kind == Tok::kOperatorName && (peek().text == "div" || peek().text == "mod")) {
        Op op = peek().text == "div" ? Op::kDiv : Op::kMod;
        ++p_;
        e = binary(op, std::move(e), unary());
      } else {
        return e;
      }
    }
  }
  std::unique_ptr<Expr> unary() {
    // One minus sign only, as the JDK's parser accepts.
    if (accept(Tok::kMinus)) {
      if (peek().kind == Tok::kMinus) expected_path();
      auto e = std::make_unique<Expr>();
      e->op = Op::kNeg;
      e->args.push_back(union_expr());
      return e;
    }
    return union_expr();
  }
  std::unique_ptr<Expr> union_expr() {
    auto e = path_expr();
    while (accept(Tok::kBar)) e = binary(Op::kUnion, std::move(e), path_expr());
    return e;
  }

  bool starts_filter() const {
    const Token& t = peek();
    if (t.kind == Tok::kNumber || t.kind == Tok::kLiteral || t.kind == Tok::kLParen || t.kind == Tok::kDollar)
      return true;
    if (t.kind == Tok::kName && peek(1).kind == Tok::kLParen)
      return !(t.text == "node" || t.text == "text" || t.text == "comment" || t.text == "processing-instruction");
    return false;
  }

  std::unique_ptr<Expr> path_expr() {
    auto path = std::make_unique<Expr>();
    path->op = Op::kPath;
    if (starts_filter()) {
      const Tok first = peek().kind;
      auto primary = primary_expr();
      const bool has_predicates = peek().kind == Tok::kLBracket;
      const bool has_steps = peek().kind == Tok::kSlash || peek().kind == Tok::kSlashSlash;
      if (!has_predicates && !has_steps) return primary;
      if (first == Tok::kNumber || first == Tok::kLiteral) compile_fail("ERROR! Unknown op code");
      path->args.push_back(std::move(primary));
      while (peek().kind == Tok::kLBracket) path->filter_predicates.push_back(predicate());
      if (accept(Tok::kSlash)) {
        relative_path(path.get());
      } else if (accept(Tok::kSlashSlash)) {
        path->steps.push_back(descendant_or_self());
        relative_path(path.get());
      }
      return path;
    }
    if (accept(Tok::kSlash)) {
      path->absolute = true;
      if (starts_step()) relative_path(path.get());
      return path;
    }
    if (accept(Tok::kSlashSlash)) {
      path->absolute = true;
      path->steps.push_back(descendant_or_self());
      relative_path(path.get());
      return path;
    }
    if (!starts_step()) expected_path();
    relative_path(path.get());
    return path;
  }

  bool starts_step() const {
    switch (peek().kind) {
      case Tok::kDot: case Tok::kDotDot: case Tok::kAt: case Tok::kStar: case Tok::kName: return true;
      default: return false;
    }
  }

  static Step descendant_or_self() {
    Step s;
    s.axis = Axis::kDescendantOrSelf;
    s.test = Test::kNode;
    return s;
  }

  void relative_path(Expr* path) {
    while (true) {
      if (!starts_step()) {
        compile_fail("A location step was expected following the '/' or '//' token.");
      }
      path->steps.push_back(step());
      if (accept(Tok::kSlash)) continue;
      if (accept(Tok::kSlashSlash)) {
        path->steps.push_back(descendant_or_self());
        continue;
      }
      return;
    }
  }

  Step step() {
    Step s;
    if (accept(Tok::kDot)) {
      s.axis = Axis::kSelf;
      return s;
    }
    if (accept(Tok::kDotDot)) {
      s.axis = Axis::kParent;
      return s;
    }
    if (accept(Tok::kAt)) {
      s.axis = Axis::kAttribute;
    } else if (peek().kind == Tok::kName && peek(1).kind == Tok::kColonColon) {
      const std::string& a = peek().text;
      if (a == "child") s.axis = Axis::kChild;
      else if (a == "descendant") s.axis = Axis::kDescendant;
      else if (a == "descendant-or-self") s.axis = Axis::kDescendantOrSelf;
      else if (a == "parent") s.axis = Axis::kParent;
      else if (a == "ancestor") s.axis = Axis::kAncestor;
      else if (a == "ancestor-or-self") s.axis = Axis::kAncestorOrSelf;
      else if (a == "following-sibling") s.axis = Axis::kFollowingSibling;
      else if (a == "preceding-sibling") s.axis = Axis::kPrecedingSibling;
      else if (a == "following") s.axis = Axis::kFollowing;
      else if (a == "preceding") s.axis = Axis::kPreceding;
      else if (a == "attribute") s.axis = Axis::kAttribute;
      else if (a == "self") s.axis = Axis::kSelf;
      else if (a == "namespace") compile_fail("the namespace axis is not supported", true);
      else compile_fail("illegal axis name: " + a);
      p_ += 2;
    }
    node_test(&s);
    while (peek().kind == Tok::kLBracket) s.predicates.push_back(predicate());
    return s;
  }

  void node_test(Step* s) {
    if (accept(Tok::kStar)) {
      s->test = Test::kAnyName;
      return;
    }
    if (peek().kind != Tok::kName) compile_fail("A node test that matches either NCName:* or QName was expected.");
    std::string name = peek().text;
    ++p_;
    if (peek().kind == Tok::kLParen &&
        (name == "node" || name == "text" || name == "comment" || name == "processing-instruction")) {
      ++p_;
      if (name == "processing-instruction") {
        s->test = Test::kPi;
        if (peek().kind == Tok::kLiteral) {
          s->name = peek().text;
          ++p_;
        } else if (peek().kind != Tok::kRParen) {
          compile_fail("Pattern literal (" + describe(peek()) + ") needs to be quoted!");
        }
      } else {
        s->test = name == "node" ? Test::kNode : name == "text" ? Test::kText : Test::kComment;
      }
      if (!accept(Tok::kRParen)) compile_fail("Expected ), but found: " + describe(peek()));
      return;
    }
    // A prefix has no namespace bound to it, so a qualified name test matches nothing.
    if (name.find(':') != std::string::npos) {
      s->test = Test::kNever;
      return;
    }
    s->test = Test::kName;
    s->name = std::move(name);
  }

  std::unique_ptr<Expr> predicate() {
    ++p_;  // [
    auto e = or_expr();
    if (!accept(Tok::kRBracket)) {
      if (peek().kind == Tok::kEnd) expected_path();
      compile_fail("Expected ], but found: " + describe(peek()));
    }
    return e;
  }

  std::unique_ptr<Expr> primary_expr() {
    auto e = std::make_unique<Expr>();
    const Token t = peek();
    ++p_;
    switch (t.kind) {
      case Tok::kNumber:
        e->op = Op::kNumber;
        e->number = t.number;
        return e;
      case Tok::kLiteral:
        e->op = Op::kLiteral;
        e->text = t.text;
        return e;
      case Tok::kDollar:
        if (peek().kind != Tok::kName) compile_fail("Extra illegal tokens: '$'");
        e->op = Op::kVariable;
        e->text = peek().text;
        ++p_;
        return e;
      case Tok::kLParen: {
        e = or_expr();
        if (!accept(Tok::kRParen)) {
          if (peek().kind == Tok::kEnd) expected_path();
          compile_fail("Expected ), but found: " + describe(peek()));
        }
        return e;
      }
      default:
        break;
    }
    // A function call: name '(' args ')'.
    e->op = Op::kCall;
    e->text = t.text;
    ++p_;  // (
    if (peek().kind != Tok::kRParen) {
      while (true) {
        e->args.push_back(or_expr());
        if (accept(Tok::kComma)) continue;
        break;
      }
    }
    if (!accept(Tok::kRParen)) {
      if (peek().kind == Tok::kEnd) expected_path();
      compile_fail("Expected ), but found: " + describe(peek()));
    }
    const FnInfo* info = nullptr;
    for (const FnInfo& f : kFunctions)
      if (t.text == f.name) info = &f;
    if (!info) {
      // A prefixed name is an extension function, which fails only when it is called.
      if (t.text.find(':') == std::string::npos) compile_fail("Could not find function: " + t.text);
      e->fn = Fn::kUnbound;
      return e;
    }
    const int n = static_cast<int>(e->args.size());
    if (n < info->min_args || (info->max_args >= 0 && n > info->max_args))
      compile_fail(std::string("function ") + info->name + " only allows " + info->arity + " arguments");
    e->fn = info->fn;
    return e;
  }

  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;
};

// ---- evaluation -----------------------------------------------------------------------------

struct Context {
  const Node* node;
  int64_t position;
  int64_t size;
};

void sort_unique(NodeSet& s) {
  std::sort(s.begin(), s.end(), [](const Node* a, const Node* b) { return a->order < b->order; });
  s.erase(std::unique(s.begin(), s.end()), s.end());
}

void add_descendants(const Node* n, NodeSet& out) {
  for (const Node* c : n->children) {
    out.push_back(c);
    add_descendants(c, out);
  }
}

/// The nodes of `axis` from `n`, in the axis's own order (reverse axes nearest first).
void axis_nodes(Axis axis, const Node* n, NodeSet& out) {
  switch (axis) {
    case Axis::kChild:
      out.insert(out.end(), n->children.begin(), n->children.end());
      return;
    case Axis::kDescendantOrSelf:
      out.push_back(n);
      [[fallthrough]];
    case Axis::kDescendant:
      add_descendants(n, out);
      return;
    case Axis::kParent:
      if (n->parent) out.push_back(n->parent);
      return;
    case Axis::kAncestorOrSelf:
      out.push_back(n);
      [[fallthrough]];
    case Axis::kAncestor:
      for (const Node* p = n->parent; p; p = p->parent) out.push_back(p);
      return;
    case Axis::kFollowingSibling:
    case Axis::kPrecedingSibling: {
      if (n->kind == NodeKind::kAttribute || !n->parent) return;
      const auto& sib = n->parent->children;
      auto it = std::find(sib.begin(), sib.end(), n);
      if (axis == Axis::kFollowingSibling) out.insert(out.end(), it + 1, sib.end());
      else
        for (auto r = std::make_reverse_iterator(it); r != sib.rend(); ++r) out.push_back(*r);
      return;
    }
    case Axis::kFollowing:
    case Axis::kPreceding: {
      if (n->kind == NodeKind::kAttribute)
        throw EvalError{"the following and preceding axes of an attribute node are not supported", true};
      NodeSet all;
      add_descendants(n, all);  // excluded from following
      NodeSet doc;
      const Node* root = n;
      while (root->parent) root = root->parent;
      add_descendants(root, doc);
      if (axis == Axis::kFollowing) {
        const Node* last = all.empty() ? n : all.back();
        for (const Node* d : doc)
          if (d->order > last->order) out.push_back(d);
      } else {
        NodeSet anc;
        for (const Node* p = n->parent; p; p = p->parent) anc.push_back(p);
        for (auto r = doc.rbegin(); r != doc.rend(); ++r)
          if ((*r)->order < n->order && std::find(anc.begin(), anc.end(), *r) == anc.end()) out.push_back(*r);
      }
      return;
    }
    case Axis::kAttribute:
      out.insert(out.end(), n->attributes.begin(), n->attributes.end());
      return;
    case Axis::kSelf:
      out.push_back(n);
      return;
  }
}

bool matches(const Step& s, const Node* n) {
  const NodeKind principal = s.axis == Axis::kAttribute ? NodeKind::kAttribute : NodeKind::kElement;
  switch (s.test) {
    case Test::kNode: return true;
    case Test::kNever: return false;
    case Test::kAnyName: return n->kind == principal;
    case Test::kName:
      if (n->kind != principal || n->local_name() != s.name) return false;
      // The JDK matches a prefixed name (`x:b`, parsed without namespace processing) by its
      // local part in some paths and not in others (`//b`); no answer here would be reliable.
      if (n->name.size() != s.name.size())
        throw EvalError{"a name test matching the prefixed name " + n->name + " is not supported", true};
      return true;
    case Test::kText: return n->kind == NodeKind::kText;
    case Test::kComment: return n->kind == NodeKind::kComment;
    case Test::kPi: return n->kind == NodeKind::kProcessingInstruction && (s.name.empty() || n->name == s.name);
  }
  return false;
}

class Evaluator {
 public:
  Value eval(const Expr& e, const Context& c) {
    switch (e.op) {
      case Op::kNumber: return number_value(e.number);
      case Op::kLiteral: return string_value(e.text);
      case Op::kVariable:
        throw EvalError{"the variable $" + e.text + " is not bound: there is no variable resolver"};
      case Op::kOr: return bool_value(to_boolean(eval(*e.args[0], c)) || to_boolean(eval(*e.args[1], c)));
      case Op::kAnd: return bool_value(to_boolean(eval(*e.args[0], c)) && to_boolean(eval(*e.args[1], c)));
      case Op::kEq: case Op::kNe: case Op::kLt: case Op::kLe: case Op::kGt: case Op::kGe:
        return bool_value(compare(e.op, eval(*e.args[0], c), eval(*e.args[1], c)));
      case Op::kAdd: return number_value(num(*e.args[0], c) + num(*e.args[1], c));
      case Op::kSub: return number_value(num(*e.args[0], c) - num(*e.args[1], c));
      case Op::kMul: return number_value(num(*e.args[0], c) * num(*e.args[1], c));
      case Op::kDiv: return number_value(num(*e.args[0], c) / num(*e.args[1], c));
      case Op::kMod: return number_value(std::fmod(num(*e.args[0], c), num(*e.args[1], c)));
      case Op::kNeg: return number_value(-num(*e.args[0], c));
      case Op::kUnion: {
        NodeSet a = nodes(eval(*e.args[0], c));
        NodeSet b = nodes(eval(*e.args[1], c));
        a.insert(a.end(), b.begin(), b.end());
        sort_unique(a);
        return node_value(std::move(a));
      }
      case Op::kCall: return call(e, c);
      case Op::kPath: return node_value(path(e, c));
    }
    return {};
  }

 private:
  double num(const Expr& e, const Context& c) { return to_number(eval(e, c)); }

  static NodeSet nodes(Value v) {
    if (v.kind != Value::Kind::kNodeSet)
      throw EvalError{std::string("Can not convert ") + type_word(v.kind) + " to a NodeList!"};
    return std::move(v.nodes);
  }

  static bool compare_atoms(Op op, const Value& a, const Value& b) {
    if (op == Op::kEq || op == Op::kNe) {
      bool eq;
      if (a.kind == Value::Kind::kBoolean || b.kind == Value::Kind::kBoolean) eq = to_boolean(a) == to_boolean(b);
      else if (a.kind == Value::Kind::kNumber || b.kind == Value::Kind::kNumber) eq = to_number(a) == to_number(b);
      else eq = to_string(a) == to_string(b);
      return op == Op::kEq ? eq : !eq;
    }
    const double x = to_number(a), y = to_number(b);
    switch (op) {
      case Op::kLt: return x < y;
      case Op::kLe: return x <= y;
      case Op::kGt: return x > y;
      default: return x >= y;
    }
  }

  static Op flip(Op op) {
    switch (op) {
      case Op::kLt: return Op::kGt;
      case Op::kLe: return Op::kGe;
      case Op::kGt: return Op::kLt;
      case Op::kGe: return Op::kLe;
      default: return op;
    }
  }

  static bool compare(Op op, const Value& a, const Value& b) {
    const bool an = a.kind == Value::Kind::kNodeSet, bn = b.kind == Value::Kind::kNodeSet;
    if (an && bn) {
      for (const Node* x : a.nodes) {
        Value xs = string_value(xml::string_value(x));
        for (const Node* y : b.nodes)
          if (compare_atoms(op, xs, string_value(xml::string_value(y)))) return true;
      }
      return false;
    }
    if (an || bn) {
      const Value& set = an ? a : b;
      const Value& other = an ? b : a;
      const Op o = an ? op : flip(op);
      if (other.kind == Value::Kind::kBoolean) {
        Value sb = bool_value(!set.nodes.empty());
        return compare_atoms(o, sb, other);
      }
      for (const Node* x : set.nodes) {
        Value xs = other.kind == Value::Kind::kNumber ? number_value(string_to_number(xml::string_value(x)))
                                                      : string_value(xml::string_value(x));
        if (compare_atoms(o, xs, other)) return true;
      }
      return false;
    }
    return compare_atoms(op, a, b);
  }

  /// Filters `cand` (in axis order) by a predicate: a number selects the position it truncates
  /// to, anything else by its boolean value.
  void filter(NodeSet& cand, const Expr& pred) {
    NodeSet kept;
    const int64_t size = static_cast<int64_t>(cand.size());
    for (int64_t i = 0; i < size; ++i) {
      Value v = eval(pred, Context{cand[static_cast<size_t>(i)], i + 1, size});
      bool keep;
      if (v.kind == Value::Kind::kNumber) {
        const double d = v.number;
        const int64_t pos = std::isnan(d) ? 0 : d >= 2147483647.0 ? 2147483647 : d <= -2147483648.0 ? -2147483648 : static_cast<int64_t>(d);
        keep = pos == i + 1;
      } else {
        keep = to_boolean(v);
      }
      if (keep) kept.push_back(cand[static_cast<size_t>(i)]);
    }
    cand = std::move(kept);
  }

  NodeSet path(const Expr& e, const Context& c) {
    NodeSet current;
    if (!e.args.empty()) {
      current = nodes(eval(*e.args[0], c));
      for (const auto& p : e.filter_predicates) filter(current, *p);
    } else if (e.absolute) {
      const Node* root = c.node;
      while (root->parent) root = root->parent;
      current.push_back(root);
    } else {
      current.push_back(c.node);
    }
    for (const Step& s : e.steps) {
      NodeSet next;
      NodeSet cand;
      for (const Node* n : current) {
        cand.clear();
        NodeSet axis;
        axis_nodes(s.axis, n, axis);
        for (const Node* a : axis)
          if (matches(s, a)) cand.push_back(a);
        for (const auto& p : s.predicates) filter(cand, *p);
        next.insert(next.end(), cand.begin(), cand.end());
      }
      sort_unique(next);
      current = std::move(next);
    }
    return current;
  }

  std::string str_arg(const Expr& e, size_t k, const Context& c) {
    return k < e.args.size() ? to_string(eval(*e.args[k], c)) : xml::string_value(c.node);
  }

  const Node* first_node_arg(const Expr& e, const Context& c) {
    if (e.args.empty()) return c.node;
    NodeSet s = nodes(eval(*e.args[0], c));
    return s.empty() ? nullptr : s.front();
  }

  Value call(const Expr& e, const Context& c) {
    switch (e.fn) {
      case Fn::kUnbound: throw EvalError{"the extension function " + e.text + " cannot be called"};
      case Fn::kLast: return number_value(static_cast<double>(c.size));
      case Fn::kPosition: return number_value(static_cast<double>(c.position));
      case Fn::kCount: return number_value(static_cast<double>(nodes(eval(*e.args[0], c)).size()));
      case Fn::kId: {
        // Without a document type declaration of ID attributes no element has an ID.
        Value v = eval(*e.args[0], c);
        return node_value({});
      }
      case Fn::kLocalName: {
        const Node* n = first_node_arg(e, c);
        if (!n) return string_value("");
        if (n->kind == NodeKind::kElement || n->kind == NodeKind::kAttribute) return string_value(std::string(n->local_name()));
        if (n->kind == NodeKind::kProcessingInstruction) return string_value(n->name);
        return string_value("");
      }
      case Fn::kNamespaceUri:
        first_node_arg(e, c);
        return string_value("");
      case Fn::kName: {
        const Node* n = first_node_arg(e, c);
        if (!n) return string_value("");
        if (n->kind == NodeKind::kElement || n->kind == NodeKind::kAttribute ||
            n->kind == NodeKind::kProcessingInstruction)
          return string_value(n->name);
        return string_value("");
      }
      case Fn::kString: return string_value(str_arg(e, 0, c));
      case Fn::kConcat: {
        std::string out;
        for (size_t k = 0; k < e.args.size(); ++k) out += str_arg(e, k, c);
        return string_value(std::move(out));
      }
      case Fn::kStartsWith: {
        std::string a = str_arg(e, 0, c), b = str_arg(e, 1, c);
        return bool_value(a.compare(0, b.size(), b) == 0);
      }
      case Fn::kContains: {
        std::string a = str_arg(e, 0, c), b = str_arg(e, 1, c);
        return bool_value(a.find(b) != std::string::npos);
      }
      case Fn::kSubstringBefore: {
        std::string a = str_arg(e, 0, c), b = str_arg(e, 1, c);
        size_t k = a.find(b);
        return string_value(k == std::string::npos ? "" : a.substr(0, k));
      }
      case Fn::kSubstringAfter: {
        std::string a = str_arg(e, 0, c), b = str_arg(e, 1, c);
        size_t k = a.find(b);
        return string_value(k == std::string::npos ? "" : a.substr(k + b.size()));
      }
      case Fn::kSubstring: {
        std::u16string s = to_utf16(str_arg(e, 0, c));
        const double start = xpath_round(num(*e.args[1], c));
        const double len = e.args.size() > 2 ? xpath_round(num(*e.args[2], c)) : INFINITY;
        const double end = start + len;
        std::u16string out;
        for (size_t i = 0; i < s.size(); ++i) {
          const double p = static_cast<double>(i + 1);
          if (p >= start && p < end) out += s[i];
        }
        return string_value(from_utf16(out));
      }
      case Fn::kStringLength:
        return number_value(static_cast<double>(to_utf16(str_arg(e, 0, c)).size()));
      case Fn::kNormalizeSpace: {
        std::string s = str_arg(e, 0, c), out;
        bool pending = false;
        for (char ch : s) {
          if (is_xml_space(ch)) {
            pending = !out.empty();
            continue;
          }
          if (pending) out += ' ';
          pending = false;
          out += ch;
        }
        return string_value(std::move(out));
      }
      case Fn::kTranslate: {
        std::u16string s = to_utf16(str_arg(e, 0, c)), from = to_utf16(str_arg(e, 1, c)),
                       to = to_utf16(str_arg(e, 2, c)), out;
        for (char16_t ch : s) {
          size_t k = from.find(ch);
          if (k == std::u16string::npos) out += ch;
          else if (k < to.size()) out += to[k];
        }
        return string_value(from_utf16(out));
      }
      case Fn::kBoolean: return bool_value(to_boolean(eval(*e.args[0], c)));
      case Fn::kNot: return bool_value(!to_boolean(eval(*e.args[0], c)));
      case Fn::kTrue: return bool_value(true);
      case Fn::kFalse: return bool_value(false);
      case Fn::kLang: {
        std::string want = str_arg(e, 0, c);
        for (const Node* n = c.node; n; n = n->parent) {
          for (const Node* a : n->attributes) {
            if (a->name != "xml:lang") continue;
            const std::string& have = a->value;
            if (have.size() < want.size()) return bool_value(false);
            for (size_t i = 0; i < want.size(); ++i)
              if (std::tolower(static_cast<unsigned char>(have[i])) != std::tolower(static_cast<unsigned char>(want[i])))
                return bool_value(false);
            return bool_value(have.size() == want.size() || have[want.size()] == '-');
          }
        }
        return bool_value(false);
      }
      case Fn::kNumber:
        return number_value(e.args.empty() ? string_to_number(xml::string_value(c.node)) : num(*e.args[0], c));
      case Fn::kSum: {
        double sum = 0;
        for (const Node* n : nodes(eval(*e.args[0], c))) sum += string_to_number(xml::string_value(n));
        return number_value(sum);
      }
      case Fn::kFloor: return number_value(std::floor(num(*e.args[0], c)));
      case Fn::kCeiling: return number_value(std::ceil(num(*e.args[0], c)));
      case Fn::kRound: return number_value(xpath_round(num(*e.args[0], c)));
    }
    return {};
  }
};

}  // namespace

Path::~Path() = default;

std::unique_ptr<Path> Path::compile(std::string_view text, std::string* error, bool* unsupported) {
  *unsupported = false;
  try {
    std::unique_ptr<Path> p(new Path());
    p->root_ = Parser(tokenize(text)).parse();
    return p;
  } catch (const CompileError& e) {
    *error = e.message;
    *unsupported = e.unsupported;
    return nullptr;
  }
}

Value Path::evaluate(const xml::Document& doc) const {
  // The top-level context has no position or size, which the JDK reports as -1 and 0.
  return Evaluator().eval(*root_, Context{doc.root(), -1, 0});
}

}  // namespace ember::functions::xpath
