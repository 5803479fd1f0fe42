#pragma once

// A small, strict XML 1.0 parser building a read-only tree in the shape the XPath 1.0 data
// model sees: a document node, elements with attributes, text (CDATA sections and adjacent text
// merged into one node), comments and processing instructions. Names are kept as written, a
// prefix included (`x:a`), as a DOM built without namespace processing keeps them; namespace
// declarations (`xmlns`, `xmlns:p`) are not attributes of the tree.
//
// A document type declaration may carry an internal subset of element declarations, comments,
// processing instructions and internal general entities with text values; anything that would
// change the tree beyond that (attribute defaults, external or parameter entities, entities with
// markup) is reported as unsupported rather than parsed differently from a validating parser.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace ember::xml {

enum class NodeKind : uint8_t { kDocument, kElement, kAttribute, kText, kComment, kProcessingInstruction };

struct Node {
  NodeKind kind = NodeKind::kDocument;
  /// Element and attribute names as written (prefix included); a processing instruction's target.
  std::string name;
  /// Text, comment, processing instruction data and attribute values (entities expanded,
  /// line ends and attribute whitespace normalized).
  std::string value;
  /// A text node's length in bytes of its first piece: the text before its first CDATA section
  /// boundary, which is all a DOM's first text node holds (the value Spark's xpath returns).
  size_t first_piece = 0;
  const Node* parent = nullptr;
  std::vector<const Node*> children;
  std::vector<const Node*> attributes;
  /// Position in document order: a node precedes its attributes, which precede its children.
  uint32_t order = 0;

  /// The part of `name` after its prefix.
  std::string_view local_name() const;
};

/// Variations of the tree a reader needs.
struct ParseOptions {
  /// Keep namespace declarations (`xmlns`, `xmlns:p`) as attributes, as a streaming reader
  /// without namespace processing reports them.
  bool keep_namespace_declarations = false;
  /// Stop after the root element's end tag, ignoring whatever follows (a streaming reader that
  /// reads one record does not look further).
  bool stop_after_root = false;
  /// Define the entities an internal document type subset declares; when false a reference to
  /// one is undeclared (a reader with document type support switched off).
  bool declared_entities = true;
};

/// The outcome of a parse that did not give a document.
enum class ParseStatus { kOk, kMalformed, kUnsupported };

/// A parsed document; nodes live as long as it does and never move.
class Document {
 public:
  Document() = default;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// Parses `text` (UTF-8). On failure returns kMalformed or kUnsupported and sets `error` to a
  /// description with the position; the document is then unusable.
  ParseStatus parse(std::string_view text, std::string* error, const ParseOptions& options = {});

  const Node* root() const { return &nodes_.front(); }

  Node* new_node(NodeKind kind);

 private:
  std::deque<Node> nodes_;
};

/// Whether `name` is an XML 1.0 Name (prefixes allowed).
bool is_xml_name(std::string_view name);

/// The XPath string-value of a node: the concatenated text of an element's or the document's
/// descendants, the value of any other node.
std::string string_value(const Node* n);
void append_string_value(const Node* n, std::string& out);

}  // namespace ember::xml
