#include "common/xml.h"

#include <gtest/gtest.h>

namespace ember::xml {
namespace {

ParseStatus parse(Document& d, const std::string& text) {
  std::string error;
  return d.parse(text, &error);
}

TEST(XmlParseTest, TreeShapeAndDocumentOrder) {
  Document d;
  ASSERT_EQ(parse(d, "<?xml version='1.0'?><!--c--><a x=\"1\" y='2'>t<b/><?p  data ?></a> "), ParseStatus::kOk);
  const Node* root = d.root();
  ASSERT_EQ(root->children.size(), 2u);
  EXPECT_EQ(root->children[0]->kind, NodeKind::kComment);
  const Node* a = root->children[1];
  EXPECT_EQ(a->name, "a");
  ASSERT_EQ(a->attributes.size(), 2u);
  EXPECT_EQ(a->attributes[1]->value, "2");
  ASSERT_EQ(a->children.size(), 3u);
  EXPECT_EQ(a->children[0]->value, "t");
  EXPECT_EQ(a->children[2]->name, "p");
  EXPECT_EQ(a->children[2]->value, "data ");
  EXPECT_LT(a->order, a->attributes[0]->order);
  EXPECT_LT(a->attributes[1]->order, a->children[0]->order);
}

TEST(XmlParseTest, EntitiesCdataAndLineEnds) {
  Document d;
  ASSERT_EQ(parse(d, "<a>&lt;&#65;&#x42;&amp;<![CDATA[<x>]]>y\r\nz</a>"), ParseStatus::kOk);
  const Node* t = d.root()->children[0]->children[0];
  EXPECT_EQ(t->value, "<AB&<x>y\nz");
  EXPECT_EQ(t->first_piece, 4u);  // the text before the CDATA section
  ASSERT_EQ(parse(d, "<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ENTITY e \"E\">]><a b='x&#10;y\tz'>&e;</a>"),
            ParseStatus::kOk);
  const Node* a = d.root()->children[0];
  EXPECT_EQ(a->attributes[0]->value, "x\ny z");
  EXPECT_EQ(string_value(a), "E");
}

TEST(XmlParseTest, NamespaceDeclarationsAreNotAttributes) {
  Document d;
  ASSERT_EQ(parse(d, "<x:a xmlns:x='u' xmlns='v' k='1'/>"), ParseStatus::kOk);
  const Node* a = d.root()->children[0];
  EXPECT_EQ(a->name, "x:a");
  EXPECT_EQ(a->local_name(), "a");
  ASSERT_EQ(a->attributes.size(), 1u);
}

TEST(XmlParseTest, MalformedDocuments) {
  for (const char* bad : {"", "  ", "text", "<a>", "<a></b>", "<a x=1/>", "<a x='1' x='2'/>", "<a>&foo;</a>",
                          "<a>]]></a>", "<a>&#0;</a>", "<a/><b/>", "<a/>x", "<a><!-- -- --></a>", "<a <b/>",
                          " <?xml version='1.0'?><a/>", "<?xml?><a/>", "<a>\x01</a>", "<a b='<'/>"}) {
    Document d;
    EXPECT_EQ(parse(d, bad), ParseStatus::kMalformed) << bad;
  }
}

TEST(XmlParseTest, UnsupportedDeclarations) {
  for (const char* doc : {"<!DOCTYPE a SYSTEM 'a.dtd'><a/>", "<!DOCTYPE a [<!ATTLIST a b CDATA 'x'>]><a/>",
                          "<!DOCTYPE a [<!ENTITY e '<b/>'>]><a>&e;</a>", "<?xml version='1.1'?><a/>"}) {
    Document d;
    EXPECT_EQ(parse(d, doc), ParseStatus::kUnsupported) << doc;
  }
}

TEST(XmlParseTest, DeepNestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  for (int i = 0; i < 100000; ++i) deep += "</a>";
  Document d;
  EXPECT_EQ(parse(d, deep), ParseStatus::kUnsupported);
  std::string ok;
  for (int i = 0; i < 1000; ++i) ok += "<a>";
  for (int i = 0; i < 1000; ++i) ok += "</a>";
  EXPECT_EQ(parse(d, ok), ParseStatus::kOk);
}

TEST(XmlParseTest, MultiByteText) {
  Document d;
  ASSERT_EQ(parse(d, "<日本 é='ü'>😀</日本>"), ParseStatus::kOk);
  const Node* a = d.root()->children[0];
  EXPECT_EQ(a->name, "日本");
  EXPECT_EQ(a->attributes[0]->value, "ü");
  EXPECT_EQ(string_value(a), "😀");
}

}  // namespace
}  // namespace ember::xml
