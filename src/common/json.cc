#include "common/json.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

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
  explicit Parser(const std::string& s) : s_(s) {}

  JsonValue parse_document() {
    JsonValue v = parse_value();
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::invalid_argument(std::string("invalid JSON at offset ") + std::to_string(pos_) +
                                ": " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' ||
                                s_[pos_] == '\r'))
      ++pos_;
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

  static void put_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
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

  std::string parse_string() {
    expect('"');
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
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
          put_utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
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
        std::string key = parse_string();
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
    } else if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      v.text = parse_string();
    } else if (s_.compare(pos_, 4, "true") == 0) {
      pos_ += 4;
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
    } else if (s_.compare(pos_, 5, "false") == 0) {
      pos_ += 5;
      v.kind = JsonValue::Kind::kBool;
    } else if (s_.compare(pos_, 4, "null") == 0) {
      pos_ += 4;
    } else {
      size_t start = pos_;
      while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                  s_[pos_] == '-' || s_[pos_] == '+' || s_[pos_] == '.' ||
                                  s_[pos_] == 'e' || s_[pos_] == 'E'))
        ++pos_;
      if (start == pos_) fail("unexpected character");
      v.kind = JsonValue::Kind::kNumber;
      v.text = s_.substr(start, pos_ - start);
      v.number = std::strtod(v.text.c_str(), nullptr);
    }
    return v;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

}  // namespace

JsonValue parse_json(const std::string& text) { return Parser(text).parse_document(); }

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
