// Number format strings: to_number / try_to_number (text → decimal) and to_char / to_varchar
// (decimal → text), with Spark's format language:
//   [MI|S] [$] [0|9|G|,]* [.|D] [0|9]* [$] [PR|MI|S]
// A run of 0/9 is a digit group; before the decimal point a run starting with 0 must match
// exactly as many digits, any other run at most as many. Thousands separators split the digits
// into groups that the input's own separators must respect (compared from the right). The result
// type of to_number is DECIMAL(digits in the format, digits after its decimal point).
// to_char of a date, timestamp or binary is rewritten by the analyzer (date_format, base64, hex,
// decode); here it formats numbers.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "functions/collection_util.h"
#include "functions/decimal_util.h"
#include "functions/function.h"

namespace ember::functions {
namespace {

/// One element of a parsed format string.
struct Token {
  enum Kind { kDigits, kSeparator, kPoint, kDollar, kSign, kMinus, kOpenBracket, kCloseBracket, kInvalid, kGroups };
  Kind kind;
  int digits = 0;          // kDigits: the run's length
  bool exactly = false;    // kDigits: a run starting with 0 before the point matches exactly
  char invalid = 0;        // kInvalid: the character
  std::vector<Token> parts;  // kGroups: digit runs and separators, in format order

  std::string name() const {
    switch (kind) {
      case kDigits:
      case kGroups: return "digit sequence";
      case kSeparator: return ", or G";
      case kPoint: return ". or D";
      case kDollar: return "$";
      case kSign: return "S";
      case kMinus: return "MI";
      case kOpenBracket:
      case kCloseBracket: return "PR";
      case kInvalid: return std::string("character '") + invalid + "''";
    }
    return "";
  }
  bool same_kind(const Token& o) const { return kind == o.kind; }
};

[[noreturn]] void invalid_format(const std::string& sub_class, const std::string& format, const std::string& detail) {
  throw SparkError(ErrorKind::kAnalysis, "INVALID_FORMAT." + sub_class,
                   "The format is invalid: '" + format + "'. " + detail, {{"format", "'" + format + "'"}}, "42601");
}

/// A validated format string.
class NumberFormat {
 public:
  explicit NumberFormat(const std::string& original) : original_(original) {
    format_.reserve(original.size());
    for (char c : original) format_.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    tokenize();
    validate();
    for (const Token& t : tokens_) {
      if (t.kind == Token::kPoint) after_point_ = true;
      if (t.kind != Token::kGroups) continue;
      for (const Token& p : t.parts) {
        if (p.kind != Token::kDigits) continue;
        (after_point_ ? digits_after_ : digits_before_) += p.digits;
      }
    }
  }

  int precision() const { return digits_before_ + digits_after_; }
  int scale() const { return digits_after_; }

  /// The unscaled value of `input` at scale(), or nullopt when it does not match.
  std::optional<int128_t> parse(std::string_view input) const {
    std::string before, after;
    bool reached_point = false, opened = false, closed = false, negate = false;
    size_t at = 0;
    for (const Token& t : tokens_) {
      const bool more = at < input.size();
      const char c = more ? input[at] : '\0';
      switch (t.kind) {
        case Token::kGroups:
          if (!parse_groups(t, input, at, reached_point ? after : before)) return std::nullopt;
          break;
        case Token::kPoint:
          if (more && c == '.') {
            reached_point = true;
            ++at;
          }
          break;
        case Token::kDollar:
          if (more) {
            if (c != '$') return std::nullopt;
            ++at;
          }
          break;
        case Token::kSign:
          if (more && (c == '+' || c == '-')) {
            if (c == '-') negate = !negate;
            ++at;
          }
          break;
        case Token::kMinus:
          if (more && c == '-') {
            negate = !negate;
            ++at;
          }
          break;
        case Token::kOpenBracket:
          if (more && c == '<') {
            if (opened) return std::nullopt;
            opened = true;
            ++at;
          }
          break;
        case Token::kCloseBracket:
          if (more && c == '>') {
            if (!opened) return std::nullopt;
            closed = true;
            negate = !negate;
            ++at;
          }
          break;
        default: return std::nullopt;
      }
    }
    if (at < input.size() || opened != closed || (before.empty() && after.empty())) return std::nullopt;
    after.resize(static_cast<size_t>(scale()), '0');
    int128_t v = 0;
    for (char d : before + after) v = v * 10 + (d - '0');
    return negate ? -v : v;
  }

  /// `unscaled` at `in_scale` as the format shows it ('#' in every digit place on overflow).
  std::string format(int128_t unscaled, int in_scale) const {
    const bool negative = unscaled < 0;
    std::string plain = decimal_to_string(negative ? -unscaled : unscaled, in_scale);
    size_t dot = plain.find('.');
    std::string before = plain.substr(0, dot), after = dot == std::string::npos ? "" : plain.substr(dot + 1);
    before.erase(0, std::min(before.find_first_not_of('0'), before.size()));
    while (!after.empty() && after.back() == '0') after.pop_back();
    if (static_cast<int>(before.size()) > digits_before_ || static_cast<int>(after.size()) > digits_after_) {
      before.assign(static_cast<size_t>(digits_before_), '#');
      after.assign(static_cast<size_t>(digits_after_), '#');
    }
    before.insert(0, static_cast<size_t>(digits_before_) - before.size(), ' ');
    after.append(static_cast<size_t>(digits_after_) - after.size(), '0');

    std::string out;
    size_t bi = 0, ai = 0;
    bool reached_point = false;
    for (const Token& t : tokens_) {
      switch (t.kind) {
        case Token::kGroups:
          for (const Token& p : t.parts) {
            if (p.kind == Token::kSeparator) {
              if (!out.empty() && std::isdigit(static_cast<unsigned char>(out.back()))) out.push_back(',');
              else push_space(out);
              continue;
            }
            for (int k = 0; k < p.digits; ++k) {
              if (reached_point) {
                out.push_back(after[ai++]);
              } else {
                char d = before[bi++];
                if (d != ' ') out.push_back(d);
                else if (p.exactly) out.push_back('0');
                else push_space(out);
              }
            }
          }
          break;
        case Token::kPoint:
          // No integral digits shown: the place before the point becomes a zero.
          if (!out.empty() && out.back() == ' ') out.back() = '0';
          out.push_back('.');
          reached_point = true;
          break;
        case Token::kDollar: out.push_back('$'); break;
        case Token::kSign:
          strip_lone_point(out);
          push_floating(out, negative ? '-' : '+');
          break;
        case Token::kMinus:
          if (negative) {
            strip_lone_point(out);
            push_floating(out, '-');
          } else {
            out.push_back(' ');
          }
          break;
        case Token::kOpenBracket:
          if (negative) out.push_back('<');
          break;
        case Token::kCloseBracket:
          strip_lone_point(out);
          if (negative) push_floating(out, '>');
          else out.append("  ");
          break;
        default: break;
      }
    }
    strip_lone_point(out);
    if (out.empty() || out == "+" || out == "-") return "0";
    return out;
  }

  const std::string& original() const { return original_; }

 private:
  void tokenize() {
    std::vector<Token> raw;
    bool reached_point = false;
    const size_t len = format_.size();
    for (size_t i = 0; i < len;) {
      const char c = format_[i];
      if (c == '0' || c == '9') {
        size_t start = i;
        while (i < len && (format_[i] == '0' || format_[i] == '9')) ++i;
        Token t{Token::kDigits};
        t.digits = static_cast<int>(i - start);
        t.exactly = c == '0' && !reached_point;
        raw.push_back(t);
        continue;
      }
      if (c == '.' || c == 'D') {
        raw.push_back({Token::kPoint});
        reached_point = true;
      } else if (c == ',' || c == 'G') {
        raw.push_back({Token::kSeparator});
      } else if (c == '$') {
        raw.push_back({Token::kDollar});
      } else if (c == 'S') {
        raw.push_back({Token::kSign});
      } else if (c == 'M' && i + 1 < len && format_[i + 1] == 'I') {
        raw.push_back({Token::kMinus});
        ++i;
      } else if (c == 'P' && i + 1 < len && format_[i + 1] == 'R') {
        // PR wraps the whole number: an opening bracket first, a closing one here.
        raw.insert(raw.begin(), Token{Token::kOpenBracket});
        raw.push_back({Token::kCloseBracket});
        ++i;
      } else {
        Token t{Token::kInvalid};
        t.invalid = c;
        raw.push_back(t);
      }
      ++i;
    }
    // Consecutive digit runs and separators form one digit-groups token.
    for (const Token& t : raw) {
      if (t.kind == Token::kDigits || t.kind == Token::kSeparator) {
        if (tokens_.empty() || tokens_.back().kind != Token::kGroups) tokens_.push_back({Token::kGroups});
        tokens_.back().parts.push_back(t);
      } else {
        tokens_.push_back(t);
      }
    }
  }

  void validate() const {
    if (original_.empty()) invalid_format("EMPTY", format_, "The number format string cannot be empty.");
    auto index_of = [&](Token::Kind k) {
      for (size_t i = 0; i < tokens_.size(); ++i)
        if (tokens_[i].kind == k) return static_cast<long>(i);
      return -1L;
    };
    const long first_groups = index_of(Token::kGroups), first_dollar = index_of(Token::kDollar),
               first_point = index_of(Token::kPoint);
    if (first_groups < 0)
      invalid_format("WRONG_NUM_DIGIT", format_, "The format string requires at least one number digit.");
    if (first_groups < first_dollar)
      invalid_format("CUR_MUST_BEFORE_DIGIT", format_, "Currency characters must appear before digits in the number format.");
    if (first_point >= 0 && first_point < first_dollar)
      invalid_format("CUR_MUST_BEFORE_DEC", format_,
                     "Currency characters must appear before any decimal point in the number format.");
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].kind != Token::kGroups) continue;
      const auto& parts = tokens_[i].parts;
      const bool after = first_point >= 0 && static_cast<long>(i) > first_point;
      for (size_t j = 0; j < parts.size(); ++j) {
        if (parts[j].kind != Token::kSeparator) continue;
        if (after)
          invalid_format("THOUSANDS_SEPS_MUST_BEFORE_DEC", format_,
                         "Thousands separators (, or G) may not appear after the decimal point in the number format.");
        if (j == 0 || j + 1 == parts.size() || parts[j - 1].kind == Token::kSeparator ||
            parts[j + 1].kind == Token::kSeparator)
          invalid_format("CONT_THOUSANDS_SEPS", format_,
                         "Thousands separators (, or G) must have digits in between them in the number format.");
      }
    }
    for (Token::Kind k : {Token::kPoint, Token::kSign, Token::kMinus, Token::kDollar, Token::kCloseBracket}) {
      int count = 0;
      for (const Token& t : tokens_) count += t.kind == k;
      if (count > 1)
        invalid_format("WRONG_NUM_TOKEN", format_,
                       "At most one " + Token{k}.name() + " is allowed in the number format.");
    }
    // The order: [<] [MI|S] [$] digits [.] digits [$] [MI|S|>]; each slot takes one token.
    const std::vector<std::vector<Token::Kind>> slots = {
        {Token::kOpenBracket}, {Token::kMinus, Token::kSign}, {Token::kDollar}, {Token::kGroups}, {Token::kPoint},
        {Token::kGroups},      {Token::kDollar},              {Token::kMinus, Token::kSign, Token::kCloseBracket}};
    size_t at = 0;
    for (const auto& slot : slots)
      if (at < tokens_.size() && std::find(slot.begin(), slot.end(), tokens_[at].kind) != slot.end()) ++at;
    if (at < tokens_.size())
      invalid_format("UNEXPECTED_TOKEN", format_,
                     "Found the unexpected " + tokens_[at].name() +
                         " in the format string; the structure of the format string must match: `[MI|S]` `[$]` "
                         "`[0|9|G|,]*` `[.|D]` `[0|9]*` `[$]` `[PR|MI|S]`.");
  }

  /// Consumes digits, separators and blanks from `at`; their group sizes must fit the format's
  /// groups, compared from the right (leading groups of the format are optional).
  static bool parse_groups(const Token& groups, std::string_view input, size_t& at, std::string& digits) {
    std::vector<int> sizes;  // the input's groups, left to right
    int current = 0;
    while (at < input.size()) {
      const char c = input[at];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++at;
      } else if (c >= '0' && c <= '9') {
        ++current;
        digits.push_back(c);
        ++at;
      } else if (c == ',') {
        sizes.push_back(current);
        current = 0;
        ++at;
      } else {
        break;
      }
    }
    sizes.push_back(current);
    std::vector<const Token*> expected;
    for (const Token& p : groups.parts)
      if (p.kind == Token::kDigits) expected.push_back(&p);
    if (sizes.size() > expected.size()) return false;
    for (size_t k = 0; k < expected.size(); ++k) {
      // k-th group from the right.
      const Token& want = *expected[expected.size() - 1 - k];
      const int got = k < sizes.size() ? sizes[sizes.size() - 1 - k] : 0;
      if (want.exactly ? got != want.digits : got > want.digits) return false;
    }
    return true;
  }

  /// A blank that floats left past a sign or opening bracket written before it.
  static void push_space(std::string& out) {
    out.push_back(' ');
    for (size_t i = out.size() - 1; i >= 1 && (out[i - 1] == '+' || out[i - 1] == '-' || out[i - 1] == '<') &&
                                    out[i] == ' ';
         --i)
      std::swap(out[i], out[i - 1]);
  }

  /// A sign or bracket that floats left past the blanks written before it.
  static void push_floating(std::string& out, char c) {
    out.push_back(c);
    for (size_t i = out.size() - 1; i >= 1 && out[i - 1] == ' ' && out[i] == c; --i) std::swap(out[i], out[i - 1]);
  }

  /// A decimal point with no digits after it becomes a blank.
  static void strip_lone_point(std::string& out) {
    size_t i = out.find('.');
    if (i != std::string::npos && (i + 1 == out.size() || out[i + 1] == ' ')) out[i] = ' ';
  }

  std::string original_, format_;
  std::vector<Token> tokens_;
  bool after_point_ = false;
  int digits_before_ = 0, digits_after_ = 0;
};

/// The constant format argument, checked for being a literal (nullopt: a NULL format).
std::optional<std::string> constant_format(const std::string& fn, const std::vector<ArgInfo>& a,
                                           const std::string& param) {
  if (!a[1].literal) {
    std::string sql = fn + "(";
    for (size_t i = 0; i < a.size(); ++i) sql += (i ? ", " : "") + a[i].type->sql();
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `" + param + "` should be a foldable \"STRING\" expression; however, got \"" +
                            a[1].type->sql() + "\".",
                        sql + ")");
  }
  if (a[1].literal->is_null()) return std::nullopt;
  return a[1].literal->as_bytes();
}

void register_to_number(Registry& r, bool try_) {
  FunctionDef d;
  d.name = try_ ? "try_to_number" : "to_number";
  d.min_args = d.max_args = 2;
  d.constant_args = {1};
  const std::string name = d.name;
  d.arg_type_rule = [name, try_](const std::vector<ArgInfo>& a, const Config&) {
    const TypeId in = a[0].type->id();
    if (in == TypeId::kBinary || in == TypeId::kArray || in == TypeId::kMap || in == TypeId::kStruct)
      throw_unexpected_input(name, types_of(a), 0, "\"STRING\"");
    Signature s;
    s.arg_types = {DataType::string(), DataType::string()};
    auto fmt = constant_format(name, a, "format");
    s.result_type = fmt ? DataType::decimal(NumberFormat(*fmt).precision(), NumberFormat(*fmt).scale())
                        : DataType::decimal(10, 0);
    if (fmt && NumberFormat(*fmt).precision() > DataType::kMaxDecimalPrecision)
      throw SparkError(ErrorKind::kArithmetic, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                       "Decimal precision " + std::to_string(NumberFormat(*fmt).precision()) +
                           " exceeds max precision 38.",
                       {{"precision", std::to_string(NumberFormat(*fmt).precision())}, {"maxPrecision", "38"}},
                       "22003");
    if (try_) s.may_introduce_null = true;
    return s;
  };
  const bool is_try = try_;
  d.kernel = [is_try](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                      const EvalContext&) -> ColumnPtr {
    if (n == 0 || !args[1]->is_valid(0)) return Column::all_null(sig.result_type, n);
    const NumberFormat fmt(std::string(args[1]->string_at(0)));
    const Column& in = *args[0];
    ColumnBuilder b(sig.result_type, n);
    for (int64_t i = 0; i < n; ++i) {
      if (!in.is_valid(i)) {
        b.append_null();
        continue;
      }
      std::string_view text = in.string_at(i);
      if (auto v = fmt.parse(text)) {
        b.append<int128_t>(*v);
      } else if (is_try) {
        b.append_null();
      } else {
        throw SparkError(ErrorKind::kIllegalArgument, "INVALID_FORMAT.MISMATCH_INPUT",
                         "The format is invalid: " + fmt.original() + ". The input \"STRING\" " + std::string(text) +
                             " does not match the format.",
                         {{"inputType", "\"STRING\""}, {"input", std::string(text)}, {"format", fmt.original()}},
                         "42601");
      }
    }
    return b.finish();
  };
  d.usage = name + "(expr, fmt) - Converts the string expr to a decimal by the number format fmt" +
            (try_ ? ", NULL when it does not match." : ".");
  r.add(std::move(d));
}

/// The decimal type a number takes before formatting, as Spark casts it.
TypePtr number_as_decimal(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kDecimal: return t;
    case TypeId::kByte: return DataType::decimal(3, 0);
    case TypeId::kShort: return DataType::decimal(5, 0);
    case TypeId::kInt: return DataType::decimal(10, 0);
    case TypeId::kLong: return DataType::decimal(20, 0);
    case TypeId::kFloat: return DataType::decimal(14, 7);
    case TypeId::kDouble: return DataType::decimal(30, 15);
    case TypeId::kString:
    case TypeId::kNull: return DataType::decimal(38, 18);
    default: return nullptr;
  }
}

void register_to_char(Registry& r) {
  FunctionDef d;
  d.name = "to_char";
  d.aliases = {"to_varchar"};
  d.min_args = d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    TypePtr in = number_as_decimal(a[0].type);
    if (!in) throw_unexpected_input("to_char", types_of(a), 0, "\"DECIMAL\"");
    Signature s;
    s.arg_types = {in, DataType::string()};
    auto fmt = constant_format("to_char", a, "format");
    if (fmt) (void)NumberFormat(*fmt);  // an invalid format is an analysis error
    s.result_type = DataType::string();
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                const EvalContext&) -> ColumnPtr {
    if (n == 0 || !args[1]->is_valid(0)) return Column::all_null(sig.result_type, n);
    const NumberFormat fmt(std::string(args[1]->string_at(0)));
    const Column& in = *args[0];
    const int scale = in.type()->scale();
    const int128_t* v = in.values<int128_t>();
    ColumnBuilder b(DataType::string(), n);
    for (int64_t i = 0; i < n; ++i) {
      if (!in.is_valid(i)) b.append_null();
      else b.append_bytes(fmt.format(v[i], scale));
    }
    return b.finish();
  };
  d.render = [](const std::string&, const std::vector<std::string>& a) {
    return "to_char(" + a[0] + ", " + a[1] + ")";  // to_varchar too, as Spark names it
  };
  d.usage =
      "to_char(expr, fmt) - Formats the number expr by the number format fmt (dates and timestamps by a datetime "
      "pattern, binary as 'base64', 'hex' or 'utf-8').";
  r.add(std::move(d));
}

}  // namespace

void register_number_format(Registry& r) {
  register_to_number(r, false);
  register_to_number(r, true);
  register_to_char(r);
}

}  // namespace ember::functions
