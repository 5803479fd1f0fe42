#pragma once

// An XPath 1.0 evaluator over common/xml documents, with the behaviour of the JDK's
// javax.xml.xpath implementation that Spark's xpath functions run on: a node-set that contains
// no names bound to namespaces (no namespace context), no variables, the core function library,
// numbers written as its number-to-string conversion writes them, strings measured in UTF-16
// code units, and a numeric predicate compared with the position after truncation to an integer.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/xml.h"

namespace ember::functions::xpath {

using NodeSet = std::vector<const xml::Node*>;  // in document order, without duplicates

/// The value of an expression: one of XPath's four types.
struct Value {
  enum class Kind { kNodeSet, kNumber, kString, kBoolean };
  Kind kind = Kind::kNodeSet;
  NodeSet nodes;
  double number = 0;
  std::string str;
  bool boolean = false;
};

/// A run-time failure (a function given a value of the wrong type, an unbound variable).
struct EvalError {
  std::string message;
  /// The failure is a case this evaluator does not reproduce rather than an error of the JDK's.
  bool unsupported = false;
};

double to_number(const Value& v);
std::string to_string(const Value& v);
bool to_boolean(const Value& v);

/// XPath's number(string): optional white space around an optionally negative decimal without
/// exponent; NaN otherwise.
double string_to_number(std::string_view s);
/// XPath's string(number): NaN, Infinity, -Infinity, integers without a fraction, other values
/// in plain decimal notation with the shortest digits that read back to the value.
std::string number_to_string(double d);

struct Expr;

/// A compiled expression, evaluated against any number of documents.
class Path {
 public:
  /// Compiles `text`; on a syntax error (or an unsupported construct, `unsupported` set) returns
  /// null and sets `error`.
  static std::unique_ptr<Path> compile(std::string_view text, std::string* error, bool* unsupported);
  ~Path();

  /// Evaluates with the document node of `doc` as the context node. Throws EvalError.
  Value evaluate(const xml::Document& doc) const;

 private:
  Path() = default;
  std::unique_ptr<Expr> root_;
};

}  // namespace ember::functions::xpath
