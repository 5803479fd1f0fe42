#include "common/xml.h"

#include <map>

#include "common/utf8.h"

namespace ember::xml {
namespace {

/// Decodes the code point at s[i]; malformed UTF-8 reads as U+FFFD one byte long, as a Java
/// string decoded from the same bytes would hold it.
char32_t decode_at(std::string_view s, size_t i, size_t* len) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  *len = 1;
  if (c < 0x80) return c;
  int n = c >= 0xF0 && c <= 0xF4 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 && c < 0xE0 ? 1 : -1;
  if (c >= 0xF5) n = -1;
  if (n < 0 || i + static_cast<size_t>(n) >= s.size()) return 0xFFFD;
  char32_t cp = c & (0x3F >> n);
  for (int k = 1; k <= n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0xFFFD;
  *len = static_cast<size_t>(n) + 1;
  return cp;
}


bool is_char(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_start(char32_t c) {
  return c == ':' || c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= 0xC0 && c <= 0xD6) ||
         (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F) ||
         (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

bool is_name_char(char32_t c) {
  return is_name_start(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7 ||
         (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

/// Normalizes line ends (CR LF and lone CR become LF) and replaces malformed UTF-8.
std::string normalize_input(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    if (c == '\r') {
      out += '\n';
      i += i + 1 < in.size() && in[i + 1] == '\n' ? 2 : 1;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      size_t len;
      char32_t cp = decode_at(in, i, &len);
      if (cp == 0xFFFD && len == 1) append_utf8(out, 0xFFFD);
      else out.append(in.substr(i, len));
      i += len;
    }
  }
  return out;
}

struct ParseError {
  ParseStatus status;
  std::string message;
};

class Parser {
 public:
  Parser(std::string_view s, Document* doc, const ParseOptions& options) : s_(s), doc_(doc), options_(options) {}

  void document(Node* root) {
    if (starts("<?xml") && s_.size() > 5 && (is_space(s_[5]) || s_.compare(5, 2, "?>") == 0)) xml_decl();
    misc(root);
    if (starts("<!DOCTYPE")) {
      doctype();
      misc(root);
    }
    if (!starts("<")) fail(p_ >= s_.size() ? "premature end of file" : "content is not allowed in prolog");
    element(root);
    if (options_.stop_after_root) return;
    misc(root);
    if (p_ < s_.size()) fail("markup after the root element must be well-formed");
  }

 private:
  [[noreturn]] void fail(const std::string& what, ParseStatus status = ParseStatus::kMalformed) {
    throw ParseError{status, "offset " + std::to_string(p_) + ": " + what};
  }
  [[noreturn]] void unsupported(const std::string& what) { fail(what, ParseStatus::kUnsupported); }

  bool starts(std::string_view t) const { return s_.compare(p_, t.size(), t) == 0; }
  bool eat(std::string_view t) {
    if (!starts(t)) return false;
    p_ += t.size();
    return true;
  }
  void expect(std::string_view t, const char* what) {
    if (!eat(t)) fail(std::string("expected ") + what);
  }
  bool skip_space() {
    size_t start = p_;
    while (p_ < s_.size() && is_space(s_[p_])) ++p_;
    return p_ > start;
  }
  char32_t peek_cp(size_t* len) const { return decode_at(s_, p_, len); }

  /// A checked character of content, appended to `out`.
  void take_char(std::string& out) {
    size_t len;
    char32_t cp = peek_cp(&len);
    if (!is_char(cp)) fail("an invalid XML character was found");
    out.append(s_.substr(p_, len));
    p_ += len;
  }

  std::string name() {
    size_t len;
    if (p_ >= s_.size() || !is_name_start(peek_cp(&len))) fail("expected a name");
    size_t start = p_;
    p_ += len;
    while (p_ < s_.size() && is_name_char(peek_cp(&len))) p_ += len;
    return std::string(s_.substr(start, p_ - start));
  }

  void xml_decl() {
    p_ += 5;
    bool first = true;
    bool seen_version = false;
    while (true) {
      bool sp = skip_space();
      if (eat("?>")) break;
      if (!sp) fail("malformed XML declaration");
      std::string key = name();
      skip_space();
      expect("=", "'=' in the XML declaration");
      skip_space();
      if (p_ >= s_.size() || (s_[p_] != '"' && s_[p_] != '\'')) fail("expected a quoted value");
      char q = s_[p_++];
      size_t end = s_.find(q, p_);
      if (end == std::string_view::npos) fail("unterminated value in the XML declaration");
      std::string_view v = s_.substr(p_, end - p_);
      p_ = end + 1;
      if (first && key != "version") fail("the version is required in the XML declaration");
      if (key == "version") {
        if (!first) fail("the version must come first in the XML declaration");
        if (v == "1.1") unsupported("XML 1.1 documents are not supported");
        if (v.size() < 3 || v.substr(0, 2) != "1.") fail("unsupported XML version");
        seen_version = true;
      } else if (key != "encoding" && key != "standalone") {
        fail("unexpected pseudo-attribute in the XML declaration");
      }
      first = false;
    }
    if (!seen_version) fail("the version is required in the XML declaration");
  }

  /// Comments, processing instructions and white space outside the root element.
  void misc(Node* parent) {
    while (true) {
      skip_space();
      if (starts("<!--")) comment(parent);
      else if (starts("<?")) pi(parent);
      else return;
    }
  }

  void comment(Node* parent) {
    p_ += 4;
    std::string text;
    while (true) {
      if (p_ >= s_.size()) fail("unterminated comment");
      if (starts("--")) {
        if (s_.compare(p_, 3, "-->") != 0) fail("'--' is not allowed in comments");
        p_ += 3;
        break;
      }
      take_char(text);
    }
    if (parent) {
      Node* n = doc_->new_node(NodeKind::kComment);
      n->value = std::move(text);
      add_child(parent, n);
    }
  }

  void pi(Node* parent) {
    p_ += 2;
    std::string target = name();
    if (target.size() == 3 && (target[0] | 0x20) == 'x' && (target[1] | 0x20) == 'm' && (target[2] | 0x20) == 'l')
      fail("a processing instruction target matching \"[xX][mM][lL]\" is not allowed");
    std::string data;
    if (!eat("?>")) {
      if (!skip_space()) fail("white space is required after a processing instruction target");
      while (!eat("?>")) {
        if (p_ >= s_.size()) fail("unterminated processing instruction");
        take_char(data);
      }
    }
    if (parent) {
      Node* n = doc_->new_node(NodeKind::kProcessingInstruction);
      n->name = std::move(target);
      n->value = std::move(data);
      add_child(parent, n);
    }
  }

  void doctype() {
    p_ += 9;
    if (!skip_space()) fail("white space is required after <!DOCTYPE");
    name();
    skip_space();
    if (starts("SYSTEM") || starts("PUBLIC")) unsupported("external document type definitions are not supported");
    if (eat("[")) {
      while (true) {
        skip_space();
        if (eat("]")) break;
        if (p_ >= s_.size()) fail("unterminated document type declaration");
        if (starts("<!--")) comment(nullptr);
        else if (starts("<?")) pi(nullptr);
        else if (starts("<!ENTITY")) entity_decl();
        else if (starts("<!ELEMENT")) element_decl();
        else if (starts("<!ATTLIST") || starts("<!NOTATION") || starts("%"))
          unsupported("attribute list, notation and parameter entity declarations are not supported");
        else fail("the markup declarations in the document type declaration must be well-formed");
      }
      skip_space();
    }
    expect(">", "'>' at the end of the document type declaration");
  }

  void element_decl() {
    p_ += 9;
    if (!skip_space()) fail("white space is required in an element declaration");
    name();
    if (!skip_space()) fail("white space is required in an element declaration");
    int depth = 0;
    while (true) {
      if (p_ >= s_.size()) fail("unterminated element declaration");
      char c = s_[p_];
      if (c == '>' && depth == 0) break;
      if (c == '(') ++depth;
      if (c == ')' && --depth < 0) fail("malformed element declaration");
      if (c == '<' || c == '"' || c == '\'' || c == '%') unsupported("this element declaration is not supported");
      ++p_;
    }
    ++p_;
  }

  void entity_decl() {
    p_ += 8;
    if (!skip_space()) fail("white space is required in an entity declaration");
    if (starts("%")) unsupported("parameter entities are not supported");
    std::string key = name();
    if (!skip_space()) fail("white space is required in an entity declaration");
    if (p_ >= s_.size() || (s_[p_] != '"' && s_[p_] != '\'')) unsupported("external entities are not supported");
    char q = s_[p_++];
    std::string value;
    while (p_ < s_.size() && s_[p_] != q) {
      char c = s_[p_];
      if (c == '&' || c == '%' || c == '<') unsupported("entity values with references or markup are not supported");
      take_char(value);
    }
    if (p_ >= s_.size()) fail("unterminated entity value");
    ++p_;
    skip_space();
    expect(">", "'>' at the end of an entity declaration");
    if (options_.declared_entities) entities_.emplace(std::move(key), std::move(value));  // the first binds
  }

  /// A reference after '&': appends its replacement text.
  void reference(std::string& out) {
    ++p_;
    if (eat("#")) {
      uint32_t v = 0;
      bool hex = eat("x");
      size_t digits = 0;
      while (p_ < s_.size() && s_[p_] != ';') {
        char c = s_[p_];
        int d = c >= '0' && c <= '9' ? c - '0'
                : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
        if (d < 0) fail("malformed character reference");
        v = v * (hex ? 16 : 10) + static_cast<uint32_t>(d);
        if (v > 0x10FFFF) v = 0x110000;
        ++digits;
        ++p_;
      }
      if (digits == 0 || !eat(";")) fail("malformed character reference");
      if (!is_char(v)) fail("a character reference to an invalid XML character");
      append_utf8(out, v);
      return;
    }
    std::string key = name();
    if (!eat(";")) fail("the entity reference must end with ';'");
    if (key == "lt") out += '<';
    else if (key == "gt") out += '>';
    else if (key == "amp") out += '&';
    else if (key == "apos") out += '\'';
    else if (key == "quot") out += '"';
    else {
      auto it = entities_.find(key);
      if (it == entities_.end()) fail("the entity \"" + key + "\" was referenced, but not declared");
      out += it->second;
    }
  }

  void add_child(Node* parent, Node* child) {
    child->parent = parent;
    parent->children.push_back(child);
  }

  void element(Node* parent) {
    // The tree is walked recursively here and by its readers; a limit keeps the stack bounded.
    if (++depth_ > kMaxDepth) unsupported("elements nested deeper than " + std::to_string(kMaxDepth) + " levels");
    ++p_;
    Node* e = doc_->new_node(NodeKind::kElement);
    e->name = name();
    add_child(parent, e);
    std::vector<std::string> seen;
    while (true) {
      bool sp = skip_space();
      if (eat("/>")) {
        --depth_;
        return;
      }
      if (eat(">")) break;
      if (p_ >= s_.size()) fail("premature end of file in a start tag");
      if (!sp) fail("attributes must be separated by white space");
      std::string key = name();
      skip_space();
      expect("=", "'=' after an attribute name");
      skip_space();
      if (p_ >= s_.size() || (s_[p_] != '"' && s_[p_] != '\'')) fail("attribute values must be quoted");
      char q = s_[p_++];
      std::string value;
      while (true) {
        if (p_ >= s_.size()) fail("unterminated attribute value");
        char c = s_[p_];
        if (c == q) break;
        if (c == '<') fail("'<' is not allowed in attribute values");
        if (c == '&') {
          // The replacement text of a named entity is normalized too; a character reference is not.
          const bool char_ref = p_ + 1 < s_.size() && s_[p_ + 1] == '#';
          std::string rep;
          reference(rep);
          if (!char_ref)
            for (char& r : rep)
              if (r == '\t' || r == '\n' || r == '\r') r = ' ';
          value += rep;
          continue;
        }
        if (c == '\t' || c == '\n') {
          value += ' ';
          ++p_;
          continue;
        }
        take_char(value);
      }
      ++p_;
      for (const std::string& k : seen)
        if (k == key) fail("attribute \"" + key + "\" was already specified for element \"" + e->name + "\"");
      seen.push_back(key);
      if (!options_.keep_namespace_declarations && (key == "xmlns" || key.compare(0, 6, "xmlns:") == 0)) continue;
      Node* a = doc_->new_node(NodeKind::kAttribute);
      a->name = std::move(key);
      a->value = std::move(value);
      a->parent = e;
      e->attributes.push_back(a);
    }
    content(e);
    --depth_;
  }

  void content(Node* e) {
    std::string text;
    size_t first_piece = std::string::npos;
    auto flush = [&] {
      if (text.empty()) return;
      Node* t = doc_->new_node(NodeKind::kText);
      t->first_piece = first_piece == std::string::npos ? text.size() : first_piece;
      first_piece = std::string::npos;
      t->value = std::move(text);
      text.clear();
      add_child(e, t);
    };
    while (true) {
      if (p_ >= s_.size()) fail("XML document structures must start and end within the same entity");
      char c = s_[p_];
      if (c == '<') {
        if (starts("</")) {
          flush();
          p_ += 2;
          std::string end = name();
          if (end != e->name)
            fail("the element type \"" + e->name + "\" must be terminated by the matching end-tag");
          skip_space();
          expect(">", "'>' at the end of an end tag");
          return;
        }
        if (starts("<![CDATA[")) {
          p_ += 9;
          if (!text.empty() && first_piece == std::string::npos) first_piece = text.size();
          while (!eat("]]>")) {
            if (p_ >= s_.size()) fail("unterminated CDATA section");
            take_char(text);
          }
          if (first_piece == std::string::npos) first_piece = text.size();
          continue;
        }
        flush();
        if (starts("<!--")) comment(e);
        else if (starts("<?")) pi(e);
        else if (starts("<!")) fail("the markup in the document must be well-formed");
        else element(e);
        continue;
      }
      if (c == '&') {
        reference(text);
        continue;
      }
      if (c == ']' && starts("]]>")) fail("the character sequence \"]]>\" must not appear in content");
      take_char(text);
    }
  }

  static constexpr int kMaxDepth = 2000;

  std::string_view s_;
  size_t p_ = 0;
  int depth_ = 0;
  Document* doc_;
  ParseOptions options_;
  std::map<std::string, std::string> entities_;
};

uint32_t number_nodes(Node* n, uint32_t next) {
  n->order = next++;
  for (const Node* a : n->attributes) const_cast<Node*>(a)->order = next++;
  for (const Node* c : n->children) next = number_nodes(const_cast<Node*>(c), next);
  return next;
}

}  // namespace

bool is_xml_name(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size();) {
    size_t len;
    const char32_t cp = decode_at(name, i, &len);
    if (cp == 0xFFFD && len == 1 && static_cast<unsigned char>(name[i]) >= 0x80) return false;
    if (i == 0 ? !is_name_start(cp) : !is_name_char(cp)) return false;
    i += len;
  }
  return true;
}

std::string_view Node::local_name() const {
  size_t colon = name.find(':');
  return colon == std::string::npos ? std::string_view(name) : std::string_view(name).substr(colon + 1);
}

Node* Document::new_node(NodeKind kind) {
  nodes_.emplace_back();
  nodes_.back().kind = kind;
  return &nodes_.back();
}

ParseStatus Document::parse(std::string_view text, std::string* error, const ParseOptions& options) {
  nodes_.clear();
  Node* root = new_node(NodeKind::kDocument);
  const std::string input = normalize_input(text);
  try {
    Parser(input, this, options).document(root);
  } catch (const ParseError& e) {
    if (error) *error = e.message;
    return e.status;
  }
  number_nodes(root, 0);
  return ParseStatus::kOk;
}

void append_string_value(const Node* n, std::string& out) {
  if (n->kind == NodeKind::kElement || n->kind == NodeKind::kDocument) {
    for (const Node* c : n->children)
      if (c->kind == NodeKind::kText) out += c->value;
      else if (c->kind == NodeKind::kElement) append_string_value(c, out);
    return;
  }
  out += n->value;
}

std::string string_value(const Node* n) {
  std::string out;
  append_string_value(n, out);
  return out;
}

}  // namespace ember::xml
