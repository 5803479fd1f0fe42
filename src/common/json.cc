#include "common/json.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/utf8.h"

namespace ember {

const JsonValue* JsonValue::find(const std::string& key) const {
  for (auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

std::string JsonValue::get_string(const std::string& key, const std::string& fallback) const {
  auto* v = find(key);
  return v && v->kind == Kind::kString ? v->text : fallback;
}

bool JsonValue::get_bool(const std::string& key, bool fallback) const {
  auto* v = find(key);
  return v && v->kind == Kind::kBool ? v->boolean : fallback;
}

namespace {

class Parser {
 public:
  Parser(std::string_view s, const JsonParseOptions& o) : s_(s), o_(o) {}

  JsonValue parse_document() {
    JsonValue v = parse_value();
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

  JsonValue parse_value() {
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end");
    JsonValue v;
    char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = JsonValue::Kind::kObject;
      if (consume('}')) return v;
      do {
        skip_ws();
        std::string key = parse_name();
        expect(':');
        v.members.emplace_back(std::move(key), parse_value());
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.kind = JsonValue::Kind::kArray;
      if (consume(']')) return v;
      do {
        v.items.push_back(parse_value());
      } while (consume(','));
      expect(']');
    } else if (c == '"' || (c == '\'' && o_.allow_single_quotes)) {
      v.kind = JsonValue::Kind::kString;
      v.text = parse_string();
    } else if (keyword("true")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
    } else if (keyword("false")) {
      v.kind = JsonValue::Kind::kBool;
    } else if (keyword("null")) {
    } else {
      v.kind = JsonValue::Kind::kNumber;
      v.text = parse_number();
      v.number = std::strtod(v.text.c_str(), nullptr);
    }
    return v;
  }

  size_t pos() const { return pos_; }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::invalid_argument(std::string("invalid JSON at offset ") + std::to_string(pos_) +
                                ": " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '/' && o_.allow_comments && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        size_t e = s_.find("*/", pos_ + 2);
        if (e == std::string_view::npos) fail("unterminated comment");
        pos_ = e + 2;
      } else if (c == '/' && o_.allow_comments && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
      } else {
        break;
      }
    }
  }
  bool consume(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) fail("unexpected character");
  }
  static bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  }
  /// A literal word, which must not run on into more identifier characters (`truex`).
  bool keyword(std::string_view w) {
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    if (pos_ + w.size() < s_.size() && ident_char(s_[pos_ + w.size()])) fail("unrecognized token");
    pos_ += w.size();
    return true;
  }


  uint32_t hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else fail("bad \\u escape");
    }
    return v;
  }

  /// An object member name: a string, or with allow_unquoted_field_names an identifier.
  std::string parse_name() {
    if (pos_ < s_.size() && (s_[pos_] == '"' || (s_[pos_] == '\'' && o_.allow_single_quotes)))
      return parse_string();
    if (!o_.allow_unquoted_field_names || pos_ >= s_.size() || !ident_char(s_[pos_]))
      fail("expected a field name");
    size_t start = pos_;
    while (pos_ < s_.size() && ident_char(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  std::string parse_string() {
    const char quote = s_[pos_++];
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      char c = s_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20 && !o_.allow_unquoted_control_chars)
        fail("unescaped control character");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("bad escape");
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 6 <= s_.size() && s_[pos_] == '\\' &&
              s_[pos_ + 1] == 'u') {
            pos_ += 2;
            uint32_t lo = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          if (!o_.allow_backslash_escaping_any) fail("bad escape");
          out += e;
      }
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }

  /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, or NaN / Infinity when allowed.
  std::string parse_number() {
    const size_t start = pos_;
    auto digits = [&]() {
      size_t d = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return pos_ - d;
    };
    if (o_.allow_non_numeric_numbers) {
      size_t p = pos_ + (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+') ? 1 : 0);
      for (std::string_view w : {std::string_view("NaN"), std::string_view("Infinity")}) {
        if (s_.compare(p, w.size(), w) == 0 && (w[0] == 'I' || p == pos_)) {
          pos_ = p;
          keyword(w);
          return std::string(s_.substr(start, pos_ - start));
        }
      }
    }
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    const size_t int_start = pos_;
    const size_t n = digits();
    if (n == 0) fail("unexpected character");
    if (n > 1 && s_[int_start] == '0' && !o_.allow_numeric_leading_zeros) fail("leading zero");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) fail("bad fraction");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("bad exponent");
    }
    if (pos_ < s_.size() && ident_char(s_[pos_])) fail("bad number");
    std::string t(s_.substr(start, pos_ - start));
    if (n > 1 && o_.allow_numeric_leading_zeros) {
      // Leading zeros are dropped from the literal, as the value they spell.
      size_t first = int_start - start, z = first;
      while (z + 1 < first + n && t[z] == '0') ++z;
      t.erase(first, z - first);
    }
    return t;
  }

  std::string_view s_;
  const JsonParseOptions& o_;
  size_t pos_ = 0;
};

}  // namespace

JsonValue parse_json(const std::string& text) {
  static const JsonParseOptions kStrict;
  return Parser(text, kStrict).parse_document();
}

size_t parse_json_prefix(std::string_view text, const JsonParseOptions& options, JsonValue* out) {
  Parser p(text, options);
  *out = p.parse_value();
  return p.pos();
}

bool json_number_is_integral(const JsonValue& v) {
  if (v.kind != JsonValue::Kind::kNumber) return false;
  for (char c : v.text)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-')) return false;
  return !v.text.empty();
}

void json_quote(std::string& out, std::string_view s, bool upper_hex) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, upper_hex ? "\\u%04X" : "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

std::string json_quote(const std::string& s) {
  std::string out;
  json_quote(out, s);
  return out;
}

std::string json_text(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: return "null";
    case JsonValue::Kind::kBool: return v.boolean ? "true" : "false";
    case JsonValue::Kind::kNumber: return v.text;
    case JsonValue::Kind::kString: return json_quote(v.text);
    case JsonValue::Kind::kArray: {
      std::string s = "[";
      for (size_t i = 0; i < v.items.size(); ++i) s += (i ? "," : "") + json_text(v.items[i]);
      return s + "]";
    }
    case JsonValue::Kind::kObject: {
      std::string s = "{";
      for (size_t i = 0; i < v.members.size(); ++i)
        s += (i ? "," : "") + json_quote(v.members[i].first) + ":" + json_text(v.members[i].second);
      return s + "}";
    }
  }
  return "null";
}

}  // namespace ember
