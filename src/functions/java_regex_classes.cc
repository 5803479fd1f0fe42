// The character classes of Java's regular expressions in RE2's syntax (java_regex_classes.h):
// Java's property names, Unicode's blocks, the tables generated from the JDK for the
// properties RE2 has no name for, and sets of code points for the class operations RE2 lacks.

#include "functions/java_regex_classes.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

#include "functions/regexp_util.h"
#include "functions/string_util.h"

#ifdef EMBER_HAVE_RE2
#include <re2/re2.h>
#endif

namespace ember::functions::java_regex {
namespace {

/// The code points of one of Java's property classes that RE2 has no name for.
struct JavaProperty {
  const char* name;  // a java* name as written, or a binary property's key (see upper_squeezed)
  const CodePointRange* ranges;
  size_t count;
};

#include "functions/java_regex_properties.inc"


struct Block {
  const char* name;  // upper case, without spaces, hyphens and underscores
  char32_t first;
  char32_t last;
};

/// Unicode's blocks (Blocks.txt), by the names Java's UnicodeBlock.forName accepts.
const Block kBlocks[] = {
    {"BASICLATIN", 0x0000, 0x007F}, {"LATIN1SUPPLEMENT", 0x0080, 0x00FF}, {"LATINEXTENDEDA", 0x0100, 0x017F},
    {"LATINEXTENDEDB", 0x0180, 0x024F}, {"IPAEXTENSIONS", 0x0250, 0x02AF},
    {"SPACINGMODIFIERLETTERS", 0x02B0, 0x02FF}, {"COMBININGDIACRITICALMARKS", 0x0300, 0x036F},
    {"GREEKANDCOPTIC", 0x0370, 0x03FF}, {"CYRILLIC", 0x0400, 0x04FF}, {"CYRILLICSUPPLEMENT", 0x0500, 0x052F},
    {"ARMENIAN", 0x0530, 0x058F}, {"HEBREW", 0x0590, 0x05FF}, {"ARABIC", 0x0600, 0x06FF},
    {"SYRIAC", 0x0700, 0x074F}, {"ARABICSUPPLEMENT", 0x0750, 0x077F}, {"THAANA", 0x0780, 0x07BF},
    {"NKO", 0x07C0, 0x07FF}, {"SAMARITAN", 0x0800, 0x083F}, {"MANDAIC", 0x0840, 0x085F},
    {"SYRIACSUPPLEMENT", 0x0860, 0x086F}, {"ARABICEXTENDEDB", 0x0870, 0x089F},
    {"ARABICEXTENDEDA", 0x08A0, 0x08FF}, {"DEVANAGARI", 0x0900, 0x097F}, {"BENGALI", 0x0980, 0x09FF},
    {"GURMUKHI", 0x0A00, 0x0A7F}, {"GUJARATI", 0x0A80, 0x0AFF}, {"ORIYA", 0x0B00, 0x0B7F},
    {"TAMIL", 0x0B80, 0x0BFF}, {"TELUGU", 0x0C00, 0x0C7F}, {"KANNADA", 0x0C80, 0x0CFF},
    {"MALAYALAM", 0x0D00, 0x0D7F}, {"SINHALA", 0x0D80, 0x0DFF}, {"THAI", 0x0E00, 0x0E7F},
    {"LAO", 0x0E80, 0x0EFF}, {"TIBETAN", 0x0F00, 0x0FFF}, {"MYANMAR", 0x1000, 0x109F},
    {"GEORGIAN", 0x10A0, 0x10FF}, {"HANGULJAMO", 0x1100, 0x11FF}, {"ETHIOPIC", 0x1200, 0x137F},
    {"ETHIOPICSUPPLEMENT", 0x1380, 0x139F}, {"CHEROKEE", 0x13A0, 0x13FF},
    {"UNIFIEDCANADIANABORIGINALSYLLABICS", 0x1400, 0x167F}, {"OGHAM", 0x1680, 0x169F},
    {"RUNIC", 0x16A0, 0x16FF}, {"TAGALOG", 0x1700, 0x171F}, {"HANUNOO", 0x1720, 0x173F},
    {"BUHID", 0x1740, 0x175F}, {"TAGBANWA", 0x1760, 0x177F}, {"KHMER", 0x1780, 0x17FF},
    {"MONGOLIAN", 0x1800, 0x18AF}, {"UNIFIEDCANADIANABORIGINALSYLLABICSEXTENDED", 0x18B0, 0x18FF},
    {"LIMBU", 0x1900, 0x194F}, {"TAILE", 0x1950, 0x197F}, {"NEWTAILUE", 0x1980, 0x19DF},
    {"KHMERSYMBOLS", 0x19E0, 0x19FF}, {"BUGINESE", 0x1A00, 0x1A1F}, {"TAITHAM", 0x1A20, 0x1AAF},
    {"COMBININGDIACRITICALMARKSEXTENDED", 0x1AB0, 0x1AFF}, {"BALINESE", 0x1B00, 0x1B7F},
    {"SUNDANESE", 0x1B80, 0x1BBF}, {"BATAK", 0x1BC0, 0x1BFF}, {"LEPCHA", 0x1C00, 0x1C4F},
    {"OLCHIKI", 0x1C50, 0x1C7F}, {"CYRILLICEXTENDEDC", 0x1C80, 0x1C8F}, {"GEORGIANEXTENDED", 0x1C90, 0x1CBF},
    {"SUNDANESESUPPLEMENT", 0x1CC0, 0x1CCF}, {"VEDICEXTENSIONS", 0x1CD0, 0x1CFF},
    {"PHONETICEXTENSIONS", 0x1D00, 0x1D7F}, {"PHONETICEXTENSIONSSUPPLEMENT", 0x1D80, 0x1DBF},
    {"COMBININGDIACRITICALMARKSSUPPLEMENT", 0x1DC0, 0x1DFF}, {"LATINEXTENDEDADDITIONAL", 0x1E00, 0x1EFF},
    {"GREEKEXTENDED", 0x1F00, 0x1FFF}, {"GENERALPUNCTUATION", 0x2000, 0x206F},
    {"SUPERSCRIPTSANDSUBSCRIPTS", 0x2070, 0x209F}, {"CURRENCYSYMBOLS", 0x20A0, 0x20CF},
    {"COMBININGDIACRITICALMARKSFORSYMBOLS", 0x20D0, 0x20FF}, {"LETTERLIKESYMBOLS", 0x2100, 0x214F},
    {"NUMBERFORMS", 0x2150, 0x218F}, {"ARROWS", 0x2190, 0x21FF}, {"MATHEMATICALOPERATORS", 0x2200, 0x22FF},
    {"MISCELLANEOUSTECHNICAL", 0x2300, 0x23FF}, {"CONTROLPICTURES", 0x2400, 0x243F},
    {"OPTICALCHARACTERRECOGNITION", 0x2440, 0x245F}, {"ENCLOSEDALPHANUMERICS", 0x2460, 0x24FF},
    {"BOXDRAWING", 0x2500, 0x257F}, {"BLOCKELEMENTS", 0x2580, 0x259F}, {"GEOMETRICSHAPES", 0x25A0, 0x25FF},
    {"MISCELLANEOUSSYMBOLS", 0x2600, 0x26FF}, {"DINGBATS", 0x2700, 0x27BF},
    {"MISCELLANEOUSMATHEMATICALSYMBOLSA", 0x27C0, 0x27EF}, {"SUPPLEMENTALARROWSA", 0x27F0, 0x27FF},
    {"BRAILLEPATTERNS", 0x2800, 0x28FF}, {"SUPPLEMENTALARROWSB", 0x2900, 0x297F},
    {"MISCELLANEOUSMATHEMATICALSYMBOLSB", 0x2980, 0x29FF},
    {"SUPPLEMENTALMATHEMATICALOPERATORS", 0x2A00, 0x2AFF}, {"MISCELLANEOUSSYMBOLSANDARROWS", 0x2B00, 0x2BFF},
    {"GLAGOLITIC", 0x2C00, 0x2C5F}, {"LATINEXTENDEDC", 0x2C60, 0x2C7F}, {"COPTIC", 0x2C80, 0x2CFF},
    {"GEORGIANSUPPLEMENT", 0x2D00, 0x2D2F}, {"TIFINAGH", 0x2D30, 0x2D7F},
    {"ETHIOPICEXTENDED", 0x2D80, 0x2DDF}, {"CYRILLICEXTENDEDA", 0x2DE0, 0x2DFF},
    {"SUPPLEMENTALPUNCTUATION", 0x2E00, 0x2E7F}, {"CJKRADICALSSUPPLEMENT", 0x2E80, 0x2EFF},
    {"KANGXIRADICALS", 0x2F00, 0x2FDF}, {"IDEOGRAPHICDESCRIPTIONCHARACTERS", 0x2FF0, 0x2FFF},
    {"CJKSYMBOLSANDPUNCTUATION", 0x3000, 0x303F}, {"HIRAGANA", 0x3040, 0x309F}, {"KATAKANA", 0x30A0, 0x30FF},
    {"BOPOMOFO", 0x3100, 0x312F}, {"HANGULCOMPATIBILITYJAMO", 0x3130, 0x318F}, {"KANBUN", 0x3190, 0x319F},
    {"BOPOMOFOEXTENDED", 0x31A0, 0x31BF}, {"CJKSTROKES", 0x31C0, 0x31EF},
    {"KATAKANAPHONETICEXTENSIONS", 0x31F0, 0x31FF}, {"ENCLOSEDCJKLETTERSANDMONTHS", 0x3200, 0x32FF},
    {"CJKCOMPATIBILITY", 0x3300, 0x33FF}, {"CJKUNIFIEDIDEOGRAPHSEXTENSIONA", 0x3400, 0x4DBF},
    {"YIJINGHEXAGRAMSYMBOLS", 0x4DC0, 0x4DFF}, {"CJKUNIFIEDIDEOGRAPHS", 0x4E00, 0x9FFF},
    {"YISYLLABLES", 0xA000, 0xA48F}, {"YIRADICALS", 0xA490, 0xA4CF}, {"LISU", 0xA4D0, 0xA4FF},
    {"VAI", 0xA500, 0xA63F}, {"CYRILLICEXTENDEDB", 0xA640, 0xA69F}, {"BAMUM", 0xA6A0, 0xA6FF},
    {"MODIFIERTONELETTERS", 0xA700, 0xA71F}, {"LATINEXTENDEDD", 0xA720, 0xA7FF},
    {"SYLOTINAGRI", 0xA800, 0xA82F}, {"COMMONINDICNUMBERFORMS", 0xA830, 0xA83F}, {"PHAGSPA", 0xA840, 0xA87F},
    {"SAURASHTRA", 0xA880, 0xA8DF}, {"DEVANAGARIEXTENDED", 0xA8E0, 0xA8FF}, {"KAYAHLI", 0xA900, 0xA92F},
    {"REJANG", 0xA930, 0xA95F}, {"HANGULJAMOEXTENDEDA", 0xA960, 0xA97F}, {"JAVANESE", 0xA980, 0xA9DF},
    {"MYANMAREXTENDEDB", 0xA9E0, 0xA9FF}, {"CHAM", 0xAA00, 0xAA5F}, {"MYANMAREXTENDEDA", 0xAA60, 0xAA7F},
    {"TAIVIET", 0xAA80, 0xAADF}, {"MEETEIMAYEKEXTENSIONS", 0xAAE0, 0xAAFF},
    {"ETHIOPICEXTENDEDA", 0xAB00, 0xAB2F}, {"LATINEXTENDEDE", 0xAB30, 0xAB6F},
    {"CHEROKEESUPPLEMENT", 0xAB70, 0xABBF}, {"MEETEIMAYEK", 0xABC0, 0xABFF},
    {"HANGULSYLLABLES", 0xAC00, 0xD7AF}, {"HANGULJAMOEXTENDEDB", 0xD7B0, 0xD7FF},
    {"HIGHSURROGATES", 0xD800, 0xDB7F}, {"HIGHPRIVATEUSESURROGATES", 0xDB80, 0xDBFF},
    {"LOWSURROGATES", 0xDC00, 0xDFFF}, {"PRIVATEUSEAREA", 0xE000, 0xF8FF},
    {"CJKCOMPATIBILITYIDEOGRAPHS", 0xF900, 0xFAFF}, {"ALPHABETICPRESENTATIONFORMS", 0xFB00, 0xFB4F},
    {"ARABICPRESENTATIONFORMSA", 0xFB50, 0xFDFF}, {"VARIATIONSELECTORS", 0xFE00, 0xFE0F},
    {"VERTICALFORMS", 0xFE10, 0xFE1F}, {"COMBININGHALFMARKS", 0xFE20, 0xFE2F},
    {"CJKCOMPATIBILITYFORMS", 0xFE30, 0xFE4F}, {"SMALLFORMVARIANTS", 0xFE50, 0xFE6F},
    {"ARABICPRESENTATIONFORMSB", 0xFE70, 0xFEFF}, {"HALFWIDTHANDFULLWIDTHFORMS", 0xFF00, 0xFFEF},
    {"SPECIALS", 0xFFF0, 0xFFFF}, {"LINEARBSYLLABARY", 0x10000, 0x1007F},
    {"LINEARBIDEOGRAMS", 0x10080, 0x100FF}, {"AEGEANNUMBERS", 0x10100, 0x1013F},
    {"ANCIENTGREEKNUMBERS", 0x10140, 0x1018F}, {"ANCIENTSYMBOLS", 0x10190, 0x101CF},
    {"PHAISTOSDISC", 0x101D0, 0x101FF}, {"LYCIAN", 0x10280, 0x1029F}, {"CARIAN", 0x102A0, 0x102DF},
    {"COPTICEPACTNUMBERS", 0x102E0, 0x102FF}, {"OLDITALIC", 0x10300, 0x1032F}, {"GOTHIC", 0x10330, 0x1034F},
    {"OLDPERMIC", 0x10350, 0x1037F}, {"UGARITIC", 0x10380, 0x1039F}, {"OLDPERSIAN", 0x103A0, 0x103DF},
    {"DESERET", 0x10400, 0x1044F}, {"SHAVIAN", 0x10450, 0x1047F}, {"OSMANYA", 0x10480, 0x104AF},
    {"OSAGE", 0x104B0, 0x104FF}, {"ELBASAN", 0x10500, 0x1052F}, {"CAUCASIANALBANIAN", 0x10530, 0x1056F},
    {"VITHKUQI", 0x10570, 0x105BF}, {"LINEARA", 0x10600, 0x1077F}, {"LATINEXTENDEDF", 0x10780, 0x107BF},
    {"CYPRIOTSYLLABARY", 0x10800, 0x1083F}, {"IMPERIALARAMAIC", 0x10840, 0x1085F},
    {"PALMYRENE", 0x10860, 0x1087F}, {"NABATAEAN", 0x10880, 0x108AF}, {"HATRAN", 0x108E0, 0x108FF},
    {"PHOENICIAN", 0x10900, 0x1091F}, {"LYDIAN", 0x10920, 0x1093F},
    {"MEROITICHIEROGLYPHS", 0x10980, 0x1099F}, {"MEROITICCURSIVE", 0x109A0, 0x109FF},
    {"KHAROSHTHI", 0x10A00, 0x10A5F}, {"OLDSOUTHARABIAN", 0x10A60, 0x10A7F},
    {"OLDNORTHARABIAN", 0x10A80, 0x10A9F}, {"MANICHAEAN", 0x10AC0, 0x10AFF}, {"AVESTAN", 0x10B00, 0x10B3F},
    {"INSCRIPTIONALPARTHIAN", 0x10B40, 0x10B5F}, {"INSCRIPTIONALPAHLAVI", 0x10B60, 0x10B7F},
    {"PSALTERPAHLAVI", 0x10B80, 0x10BAF}, {"OLDTURKIC", 0x10C00, 0x10C4F},
    {"OLDHUNGARIAN", 0x10C80, 0x10CFF}, {"HANIFIROHINGYA", 0x10D00, 0x10D3F},
    {"RUMINUMERALSYMBOLS", 0x10E60, 0x10E7F}, {"YEZIDI", 0x10E80, 0x10EBF}, {"OLDSOGDIAN", 0x10F00, 0x10F2F},
    {"SOGDIAN", 0x10F30, 0x10F6F}, {"OLDUYGHUR", 0x10F70, 0x10FAF}, {"CHORASMIAN", 0x10FB0, 0x10FDF},
    {"ELYMAIC", 0x10FE0, 0x10FFF}, {"BRAHMI", 0x11000, 0x1107F}, {"KAITHI", 0x11080, 0x110CF},
    {"SORASOMPENG", 0x110D0, 0x110FF}, {"CHAKMA", 0x11100, 0x1114F}, {"MAHAJANI", 0x11150, 0x1117F},
    {"SHARADA", 0x11180, 0x111DF}, {"SINHALAARCHAICNUMBERS", 0x111E0, 0x111FF}, {"KHOJKI", 0x11200, 0x1124F},
    {"MULTANI", 0x11280, 0x112AF}, {"KHUDAWADI", 0x112B0, 0x112FF}, {"GRANTHA", 0x11300, 0x1137F},
    {"NEWA", 0x11400, 0x1147F}, {"TIRHUTA", 0x11480, 0x114DF}, {"SIDDHAM", 0x11580, 0x115FF},
    {"MODI", 0x11600, 0x1165F}, {"MONGOLIANSUPPLEMENT", 0x11660, 0x1167F}, {"TAKRI", 0x11680, 0x116CF},
    {"AHOM", 0x11700, 0x1174F}, {"DOGRA", 0x11800, 0x1184F}, {"WARANGCITI", 0x118A0, 0x118FF},
    {"DIVESAKURU", 0x11900, 0x1195F}, {"NANDINAGARI", 0x119A0, 0x119FF},
    {"ZANABAZARSQUARE", 0x11A00, 0x11A4F}, {"SOYOMBO", 0x11A50, 0x11AAF},
    {"UNIFIEDCANADIANABORIGINALSYLLABICSEXTENDEDA", 0x11AB0, 0x11ABF}, {"PAUCINHAU", 0x11AC0, 0x11AFF},
    {"BHAIKSUKI", 0x11C00, 0x11C6F}, {"MARCHEN", 0x11C70, 0x11CBF}, {"MASARAMGONDI", 0x11D00, 0x11D5F},
    {"GUNJALAGONDI", 0x11D60, 0x11DAF}, {"MAKASAR", 0x11EE0, 0x11EFF}, {"LISUSUPPLEMENT", 0x11FB0, 0x11FBF},
    {"TAMILSUPPLEMENT", 0x11FC0, 0x11FFF}, {"CUNEIFORM", 0x12000, 0x123FF},
    {"CUNEIFORMNUMBERSANDPUNCTUATION", 0x12400, 0x1247F}, {"EARLYDYNASTICCUNEIFORM", 0x12480, 0x1254F},
    {"CYPROMINOAN", 0x12F90, 0x12FFF}, {"EGYPTIANHIEROGLYPHS", 0x13000, 0x1342F},
    {"EGYPTIANHIEROGLYPHFORMATCONTROLS", 0x13430, 0x1343F}, {"ANATOLIANHIEROGLYPHS", 0x14400, 0x1467F},
    {"BAMUMSUPPLEMENT", 0x16800, 0x16A3F}, {"MRO", 0x16A40, 0x16A6F}, {"TANGSA", 0x16A70, 0x16ACF},
    {"BASSAVAH", 0x16AD0, 0x16AFF}, {"PAHAWHHMONG", 0x16B00, 0x16B8F}, {"MEDEFAIDRIN", 0x16E40, 0x16E9F},
    {"MIAO", 0x16F00, 0x16F9F}, {"IDEOGRAPHICSYMBOLSANDPUNCTUATION", 0x16FE0, 0x16FFF},
    {"TANGUT", 0x17000, 0x187FF}, {"TANGUTCOMPONENTS", 0x18800, 0x18AFF},
    {"KHITANSMALLSCRIPT", 0x18B00, 0x18CFF}, {"TANGUTSUPPLEMENT", 0x18D00, 0x18D7F},
    {"KANAEXTENDEDB", 0x1AFF0, 0x1AFFF}, {"KANASUPPLEMENT", 0x1B000, 0x1B0FF},
    {"KANAEXTENDEDA", 0x1B100, 0x1B12F}, {"SMALLKANAEXTENSION", 0x1B130, 0x1B16F},
    {"NUSHU", 0x1B170, 0x1B2FF}, {"DUPLOYAN", 0x1BC00, 0x1BC9F},
    {"SHORTHANDFORMATCONTROLS", 0x1BCA0, 0x1BCAF}, {"ZNAMENNYMUSICALNOTATION", 0x1CF00, 0x1CFCF},
    {"BYZANTINEMUSICALSYMBOLS", 0x1D000, 0x1D0FF}, {"MUSICALSYMBOLS", 0x1D100, 0x1D1FF},
    {"ANCIENTGREEKMUSICALNOTATION", 0x1D200, 0x1D24F}, {"MAYANNUMERALS", 0x1D2E0, 0x1D2FF},
    {"TAIXUANJINGSYMBOLS", 0x1D300, 0x1D35F}, {"COUNTINGRODNUMERALS", 0x1D360, 0x1D37F},
    {"MATHEMATICALALPHANUMERICSYMBOLS", 0x1D400, 0x1D7FF}, {"SUTTONSIGNWRITING", 0x1D800, 0x1DAAF},
    {"LATINEXTENDEDG", 0x1DF00, 0x1DFFF}, {"GLAGOLITICSUPPLEMENT", 0x1E000, 0x1E02F},
    {"NYIAKENGPUACHUEHMONG", 0x1E100, 0x1E14F}, {"TOTO", 0x1E290, 0x1E2BF}, {"WANCHO", 0x1E2C0, 0x1E2FF},
    {"ETHIOPICEXTENDEDB", 0x1E7E0, 0x1E7FF}, {"MENDEKIKAKUI", 0x1E800, 0x1E8DF}, {"ADLAM", 0x1E900, 0x1E95F},
    {"INDICSIYAQNUMBERS", 0x1EC70, 0x1ECBF}, {"OTTOMANSIYAQNUMBERS", 0x1ED00, 0x1ED4F},
    {"ARABICMATHEMATICALALPHABETICSYMBOLS", 0x1EE00, 0x1EEFF}, {"MAHJONGTILES", 0x1F000, 0x1F02F},
    {"DOMINOTILES", 0x1F030, 0x1F09F}, {"PLAYINGCARDS", 0x1F0A0, 0x1F0FF},
    {"ENCLOSEDALPHANUMERICSUPPLEMENT", 0x1F100, 0x1F1FF},
    {"ENCLOSEDIDEOGRAPHICSUPPLEMENT", 0x1F200, 0x1F2FF},
    {"MISCELLANEOUSSYMBOLSANDPICTOGRAPHS", 0x1F300, 0x1F5FF}, {"EMOTICONS", 0x1F600, 0x1F64F},
    {"ORNAMENTALDINGBATS", 0x1F650, 0x1F67F}, {"TRANSPORTANDMAPSYMBOLS", 0x1F680, 0x1F6FF},
    {"ALCHEMICALSYMBOLS", 0x1F700, 0x1F77F}, {"GEOMETRICSHAPESEXTENDED", 0x1F780, 0x1F7FF},
    {"SUPPLEMENTALARROWSC", 0x1F800, 0x1F8FF}, {"SUPPLEMENTALSYMBOLSANDPICTOGRAPHS", 0x1F900, 0x1F9FF},
    {"CHESSSYMBOLS", 0x1FA00, 0x1FA6F}, {"SYMBOLSANDPICTOGRAPHSEXTENDEDA", 0x1FA70, 0x1FAFF},
    {"SYMBOLSFORLEGACYCOMPUTING", 0x1FB00, 0x1FBFF}, {"CJKUNIFIEDIDEOGRAPHSEXTENSIONB", 0x20000, 0x2A6DF},
    {"CJKUNIFIEDIDEOGRAPHSEXTENSIONC", 0x2A700, 0x2B73F},
    {"CJKUNIFIEDIDEOGRAPHSEXTENSIOND", 0x2B740, 0x2B81F},
    {"CJKUNIFIEDIDEOGRAPHSEXTENSIONE", 0x2B820, 0x2CEAF},
    {"CJKUNIFIEDIDEOGRAPHSEXTENSIONF", 0x2CEB0, 0x2EBEF},
    {"CJKCOMPATIBILITYIDEOGRAPHSSUPPLEMENT", 0x2F800, 0x2FA1F},
    {"CJKUNIFIEDIDEOGRAPHSEXTENSIONG", 0x30000, 0x3134F}, {"TAGS", 0xE0000, 0xE007F},
    {"VARIATIONSELECTORSSUPPLEMENT", 0xE0100, 0xE01EF}, {"SUPPLEMENTARYPRIVATEUSEAREAA", 0xF0000, 0xFFFFF},
    {"SUPPLEMENTARYPRIVATEUSEAREAB", 0x100000, 0x10FFFF},
};

/// Blocks Java also knows by an older name.
const std::pair<const char*, const char*> kBlockAliases[] = {
    {"GREEK", "GREEKANDCOPTIC"},
    {"CYRILLICSUPPLEMENTARY", "CYRILLICSUPPLEMENT"},
    {"COMBININGMARKSFORSYMBOLS", "COMBININGDIACRITICALMARKSFORSYMBOLS"},
};

}  // namespace

/// Java's \h: horizontal white space.
const char* const kHorizontalSpace =
    "\\t\\x{20}\\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}";

namespace {

const char* const kCategories[] = {"C",  "Cc", "Cf", "Co", "Cs", "L",  "Ll", "Lm", "Lo", "Lt", "Lu", "M",
                                   "Mc", "Me", "Mn", "N",  "Nd", "Nl", "No", "P",  "Pc", "Pd", "Pe", "Pf",
                                   "Pi", "Po", "Ps", "S",  "Sc", "Sk", "Sm", "So", "Z",  "Zl", "Zp", "Zs"};

std::string upper_squeezed(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '_' && c != '-') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string code_point(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned>(c));
  return buf;
}

namespace {

std::optional<ClassText> category(std::string_view name) {
  for (const char* c : kCategories)
    if (name == c) return ClassText{"\\p{" + std::string(name) + "}", "\\P{" + std::string(name) + "}"};
  if (name == "LC") return ClassText{"\\p{Lu}\\p{Ll}\\p{Lt}", ""};
  return std::nullopt;
}

std::optional<ClassText> block(std::string_view name) {
  std::string key = upper_squeezed(name);
  for (const auto& [alias, target] : kBlockAliases)
    if (key == alias) key = target;
  for (const Block& b : kBlocks) {
    if (key != b.name) continue;
    ClassText t{code_point(b.first) + "-" + code_point(b.last), ""};
    if (b.first > 0) t.negated_body += code_point(0) + "-" + code_point(b.first - 1);
    if (b.last < 0x10FFFF) t.negated_body += code_point(b.last + 1) + "-" + code_point(0x10FFFF);
    return t;
  }
  return std::nullopt;
}

/// A script by a name Java's UnicodeScript.forName accepts (any case), as RE2 names it.
std::optional<ClassText> script(std::string_view name) {
  if (name.empty()) return std::nullopt;
  std::string re2_name;
  bool word_start = true;
  for (char c : name) {
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
    re2_name += static_cast<char>(word_start ? std::toupper(static_cast<unsigned char>(c))
                                             : std::tolower(static_cast<unsigned char>(c)));
    word_start = c == '_';
  }
  return ClassText{"\\p{" + re2_name + "}", "\\P{" + re2_name + "}"};
}

std::optional<ClassText> binary_property(std::string_view name) {
  const std::string key = upper_squeezed(name);
  if (auto t = java_table(key)) return t;
  if (key == "LETTER") return ClassText{"\\p{L}", "\\P{L}"};
  if (key == "TITLECASE") return ClassText{"\\p{Lt}", "\\P{Lt}"};
  if (key == "CONTROL") return ClassText{"\\p{Cc}", "\\P{Cc}"};
  if (key == "PUNCTUATION") return ClassText{"\\p{P}", "\\P{P}"};
  if (key == "DIGIT") return ClassText{"\\p{Nd}", "\\P{Nd}"};
  return std::nullopt;
}

}  // namespace

std::optional<ClassText> property(std::string_view name, bool unicode_classes) {
  if (unicode_classes) {
    static const std::pair<const char*, const char*> kUnicodePosix[] = {
        {"Lower", "LOWERCASE"}, {"Upper", "UPPERCASE"}, {"Alpha", "ALPHABETIC"}, {"Alnum", "ALNUM"},
        {"Graph", "GRAPH"}, {"Print", "PRINT"}, {"Blank", "BLANK"}, {"XDigit", "HEXDIGIT"},
        {"Space", "WHITESPACE"}};
    for (const auto& [posix, key] : kUnicodePosix)
      if (name == posix) return java_table(key);
    if (name == "Digit") return ClassText{"\\p{Nd}", "\\P{Nd}"};
    if (name == "Punct") return ClassText{"\\p{P}", "\\P{P}"};
    if (name == "Cntrl") return ClassText{"\\p{Cc}", "\\P{Cc}"};
  }
  static const std::pair<const char*, const char*> kPosix[] = {
      {"Lower", "lower"}, {"Upper", "upper"}, {"ASCII", "ascii"}, {"Alpha", "alpha"},
      {"Digit", "digit"}, {"Alnum", "alnum"}, {"Punct", "punct"}, {"Graph", "graph"},
      {"Print", "print"}, {"Blank", "blank"}, {"Cntrl", "cntrl"}, {"XDigit", "xdigit"},
      {"Space", "space"}};
  for (const auto& [java, posix] : kPosix)
    if (name == java) return ClassText{std::string("[:") + posix + ":]", std::string("[:^") + posix + ":]"};
  if (name.substr(0, 4) == "java")
    if (auto t = java_table(name)) return t;
  if (name == "javaTitleCase") return binary_property("TITLECASE");
  if (name == "javaDigit") return binary_property("DIGIT");
  if (name == "javaLetter") return binary_property("LETTER");
  if (name == "javaLetterOrDigit") return ClassText{"\\p{L}\\p{Nd}", ""};
  if (name == "javaSpaceChar") return ClassText{"\\p{Z}", "\\P{Z}"};
  if (name == "javaISOControl") return ClassText{"\\x{0}-\\x{1F}\\x{7F}-\\x{9F}", ""};
  const size_t eq = name.find('=');
  if (eq != std::string_view::npos) {
    const std::string key = upper_squeezed(name.substr(0, eq));
    const std::string_view value = name.substr(eq + 1);
    if (key == "SCRIPT" || key == "SC") return script(value);
    if (key == "BLOCK" || key == "BLK") return block(value);
    if (key == "GENERALCATEGORY" || key == "GC") return category(value);
    return std::nullopt;
  }
  if (name.size() > 2 && name.substr(0, 2) == "In") return block(name.substr(2));
  if (name.size() > 2 && name.substr(0, 2) == "Is") {
    const std::string_view rest = name.substr(2);
    if (auto p = binary_property(rest)) return p;
    if (auto c = category(rest)) return c;
    return script(rest);
  }
  return category(name);
}

// ---- Sets of code points ---------------------------------------------------------------------

RangeSet normalized(RangeSet r) {
  std::sort(r.begin(), r.end(), [](const CodePointRange& a, const CodePointRange& b) { return a.first < b.first; });
  RangeSet out;
  for (const CodePointRange& x : r) {
    if (!out.empty() && x.first <= out.back().last + 1)
      out.back().last = std::max(out.back().last, x.last);
    else
      out.push_back(x);
  }
  return out;
}

RangeSet complement(const RangeSet& r) {
  RangeSet out;
  char32_t next = 0;
  for (const CodePointRange& x : r) {
    if (x.first > next) out.push_back({next, x.first - 1});
    next = x.last + 1;
  }
  if (next <= kMaxCodePoint) out.push_back({next, kMaxCodePoint});
  return out;
}

RangeSet intersection(const RangeSet& a, const RangeSet& b) {
  RangeSet out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const char32_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].last, b[j].last);
    if (lo <= hi) out.push_back({lo, hi});
    (a[i].last < b[j].last ? i : j) += 1;
  }
  return out;
}

namespace {

std::string body_of(const RangeSet& r) {
  std::string out;
  for (const CodePointRange& x : r) {
    out += code_point(x.first);
    if (x.last > x.first) out += "-" + code_point(x.last);
  }
  return out;
}

}  // namespace

ClassText text_of(const RangeSet& r) { return ClassText{body_of(r), body_of(complement(r))}; }

#ifdef EMBER_HAVE_RE2
namespace {

/// Every Unicode scalar value in order, as UTF-8: the text a class is run over to list the code
/// points it holds.
const std::string& all_code_points() {
  static const std::string text = [] {
    std::string t;
    t.reserve(4400000);
    for (char32_t c = 0; c <= kMaxCodePoint; ++c)
      if (c < 0xD800 || c > 0xDFFF) utf8_append(t, c);
    return t;
  }();
  return text;
}

char32_t decode_at(std::string_view s, size_t at) {
  const unsigned char b = static_cast<unsigned char>(s[at]);
  if (b < 0x80) return b;
  const int n = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : 1;
  char32_t c = b & (0x3F >> n);
  for (int k = 1; k <= n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[at + k]) & 0x3F);
  return c;
}

}  // namespace
#endif

RangeSet set_of(const std::string& body, bool fold_case) {
  if (body.empty()) return {};
#ifdef EMBER_HAVE_RE2
  static std::mutex mu;
  static std::map<std::pair<std::string, bool>, RangeSet> cache;
  const auto key = std::make_pair(body, fold_case);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  RE2::Options opts;
  opts.set_log_errors(false);
  opts.set_case_sensitive(!fold_case);
  RE2 re("[" + body + "]+", opts);
  if (!re.ok()) throw JavaRegexError("a character class RE2 rejects (" + re.error() + ")");
  const std::string& text = all_code_points();
  re2::StringPiece all(text), m;
  RangeSet out;
  size_t pos = 0;
  while (pos < text.size() && re.Match(all, pos, text.size(), RE2::UNANCHORED, &m, 1)) {
    const size_t first = static_cast<size_t>(m.data() - text.data());
    const size_t end = first + m.size();
    size_t last = end - 1;
    while ((static_cast<unsigned char>(text[last]) & 0xC0) == 0x80) --last;
    out.push_back({decode_at(text, first), decode_at(text, last)});
    pos = end;
  }
  out = normalized(std::move(out));
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(key, out);
  return out;
#else
  throw JavaRegexError("character class set operations need RE2, which this build lacks");
#endif
}

ClassText complement_of(const ClassText& t) {
  if (t.body.empty()) return ClassText{code_point(0) + "-" + code_point(kMaxCodePoint), ""};
  if (!t.negated_body.empty()) return ClassText{t.negated_body, t.body};
  return text_of(complement(set_of(t.body)));
}

ClassText union_of(const ClassText& a, const ClassText& b) { return ClassText{a.body + b.body, ""}; }

ClassText intersection_of(const ClassText& a, const ClassText& b) {
  return text_of(intersection(set_of(a.body), set_of(b.body)));
}

ClassText folded_range(char32_t lo, char32_t hi, bool unicode_case) {
  const std::string body = code_point(lo) + (hi > lo ? "-" + code_point(hi) : "");
  if (unicode_case) return text_of(set_of(body, true));
  RangeSet r = {{lo, hi}};
  for (const auto& [from, to] : {std::pair<char32_t, char32_t>{'a', 'A'}, {'A', 'a'}}) {
    const char32_t a = std::max(lo, from), b = std::min(hi, static_cast<char32_t>(from + 25));
    if (a <= b) r.push_back({a - from + to, b - from + to});
  }
  return text_of(normalized(std::move(r)));
}

std::optional<ClassText> java_table(std::string_view key) {
  for (const JavaProperty& p : kJavaProperties)
    if (key == p.name) return text_of(RangeSet(p.ranges, p.ranges + p.count));
  return std::nullopt;
}

}  // namespace ember::functions::java_regex
