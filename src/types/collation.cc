#include "types/collation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/error.h"
#include "types/collation_icu.h"

#ifdef EMBER_HAVE_ICU
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>
#endif

namespace ember {

namespace {

std::string upper_ascii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// The ICU locales that have a collator, named as Spark names them: language, then the script
/// and the ISO 3166 alpha-3 country when the locale has them (en_USA, sr_Cyrl_SRB); UNICODE
/// is the root. Keyed by the upper-cased name.
const std::map<std::string, std::pair<std::string, std::string>>& icu_locales() {
  static const auto* table = [] {
    auto* t = new std::map<std::string, std::pair<std::string, std::string>>();
    (*t)["UNICODE"] = {"UNICODE", ""};
#ifdef EMBER_HAVE_ICU
    const int32_t n = ucol_countAvailable();
    for (int32_t i = 0; i < n; ++i) {
      const char* id = ucol_getAvailable(i);
      UErrorCode status = U_ZERO_ERROR;
      char buf[ULOC_FULLNAME_CAPACITY];
      if (uloc_getVariant(id, buf, sizeof buf, &status) > 0 || U_FAILURE(status)) continue;
      status = U_ZERO_ERROR;
      int32_t len = uloc_getLanguage(id, buf, sizeof buf, &status);
      if (U_FAILURE(status) || len == 0) continue;
      std::string name(buf, static_cast<size_t>(len));
      status = U_ZERO_ERROR;
      len = uloc_getScript(id, buf, sizeof buf, &status);
      if (U_SUCCESS(status) && len > 0) name += "_" + std::string(buf, static_cast<size_t>(len));
      const char* country = uloc_getISO3Country(id);
      if (country && *country) name += "_" + std::string(country);
      t->emplace(upper_ascii(name), std::make_pair(name, std::string(id)));
    }
#endif
    return t;
  }();
  return *table;
}

[[noreturn]] void invalid_name(const std::string& name) {
  // Spark proposes the valid names nearest to the one given.
  std::vector<std::string> candidates = {"UTF8_BINARY", "UTF8_LCASE"};
  for (const auto& [upper, entry] : icu_locales()) candidates.push_back(entry.first);
  const std::string given = upper_ascii(name);
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    size_t d = edit_distance(given, upper_ascii(c));
    if (d < best_distance) best_distance = d, best = c;
  }
  throw SparkError(ErrorKind::kRuntime, "COLLATION_INVALID_NAME",
                   "The value " + name +
                       " does not represent a correct collation name. Suggested valid collation names: [" +
                       best + "].",
                   {{"collationName", name}, {"proposals", best}});
}

/// Parses a collation name (Spark's grammar: a family root, then `_`-separated specifiers).
Collation parse_name(const std::string& name) {
  const std::string u = upper_ascii(name);
  Collation c;
  std::string rest;
  if (u.rfind("UTF8_BINARY", 0) == 0 || u.rfind("UTF8_LCASE", 0) == 0) {
    const bool lcase = u[5] == 'L';
    c.family = lcase ? Collation::Family::kLowercase : Collation::Family::kBinary;
    c.name = lcase ? "UTF8_LCASE" : "UTF8_BINARY";
    rest = u.substr(c.name.size());
    if (rest.empty()) return c;
    if (rest != "_RTRIM") invalid_name(name);
    c.rtrim = true;
    c.name += "_RTRIM";
    return c;
  }
  // The ICU family: the longest locale name that starts the name, then the specifiers.
  const auto& locales = icu_locales();
  size_t best = 0;
  const std::pair<std::string, std::string>* locale = nullptr;
  for (size_t len = 1; len <= u.size(); ++len) {
    auto it = locales.find(u.substr(0, len));
    if (it != locales.end()) best = len, locale = &it->second;
  }
  if (!locale) invalid_name(name);
  c.family = Collation::Family::kIcu;
  c.locale = locale->second;
  if (best < u.size()) {
    if (u[best] != '_') invalid_name(name);
    bool case_set = false, accent_set = false, trim_set = false;
    size_t pos = best + 1;
    while (pos <= u.size()) {
      size_t end = u.find('_', pos);
      if (end == std::string::npos) end = u.size();
      const std::string spec = u.substr(pos, end - pos);
      bool* seen = spec == "CI" || spec == "CS" ? &case_set
                   : spec == "AI" || spec == "AS" ? &accent_set
                   : spec == "RTRIM" ? &trim_set
                                     : nullptr;
      if (!seen || *seen) invalid_name(name);
      *seen = true;
      if (spec == "CI") c.case_insensitive = true;
      if (spec == "AI") c.accent_insensitive = true;
      if (spec == "RTRIM") c.rtrim = true;
      pos = end + 1;
    }
  }
  c.name = locale->first;
  if (c.case_insensitive) c.name += "_CI";
  if (c.accent_insensitive) c.name += "_AI";
  if (c.rtrim) c.name += "_RTRIM";
  return c;
}

struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<Collation>> by_id;
  std::unordered_map<std::string, int> by_name;  // normalized name -> id
  Registry() {
    auto binary = std::make_unique<Collation>();
    binary->name = "UTF8_BINARY";
    by_name[binary->name] = 0;
    by_id.push_back(std::move(binary));
  }
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

size_t rtrimmed_length(const char* s, size_t n) {
  while (n > 0 && s[n - 1] == ' ') --n;
  return n;
}

#ifdef EMBER_HAVE_ICU
/// UTF-16 of UTF-8 text, invalid sequences read as U+FFFD.
void to_utf16(const char* s, size_t n, std::u16string& out) {
  out.resize(n + 1);
  int32_t len = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(reinterpret_cast<UChar*>(out.data()), static_cast<int32_t>(out.size()), &len, s,
                       static_cast<int32_t>(n), 0xFFFD, nullptr, &status);
  EMBER_CHECK(U_SUCCESS(status), "collation: UTF-16 conversion failed");
  out.resize(static_cast<size_t>(len));
}

void append_utf8(UChar32 cp, std::string& out) {
  char buf[4];
  int32_t i = 0;
  UBool error = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), i, 4, cp, error);
  if (error) {  // not a scalar value: U+FFFD
    i = 0;
    U8_APPEND_UNSAFE(reinterpret_cast<uint8_t*>(buf), i, 0xFFFD);
  }
  out.append(buf, static_cast<size_t>(i));
}

}  // namespace

// One collator per collation and thread: ICU collators are not shared between threads here.
UCollator* icu_collator(const Collation& c) {
  struct Owned {
    std::unordered_map<int, UCollator*> map;
    ~Owned() {
      for (auto& [k, v] : map) ucol_close(v);
    }
  };
  thread_local Owned owned;
  auto it = owned.map.find(c.id);
  if (it != owned.map.end()) return it->second;
  UErrorCode status = U_ZERO_ERROR;
  UCollator* coll = ucol_open(c.locale.c_str(), &status);
  EMBER_CHECK(U_SUCCESS(status), "collation: cannot open the ICU collator of " + c.name);
  // Spark's strengths: tertiary (CS_AS), secondary (CI_AS), primary (CI_AI), and primary with
  // the case level (CS_AI).
  UColAttributeValue strength = UCOL_TERTIARY;
  if (c.case_insensitive && !c.accent_insensitive) strength = UCOL_SECONDARY;
  if (c.accent_insensitive) strength = UCOL_PRIMARY;
  ucol_setStrength(coll, strength);
  if (c.accent_insensitive && !c.case_insensitive) ucol_setAttribute(coll, UCOL_CASE_LEVEL, UCOL_ON, &status);
  EMBER_CHECK(U_SUCCESS(status), "collation: cannot set up the ICU collator of " + c.name);
  owned.map[c.id] = coll;
  return coll;
}

namespace {
#endif

bool is_ascii(const char* s, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) return false;
  return true;
}

}  // namespace

int collation_id(const std::string& name) {
  Collation c = parse_name(name);
  if (c.family == Collation::Family::kIcu && !collations_have_icu())
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "The feature is not supported: collation " + c.name + " (this build of Ember has no ICU).");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_name.find(c.name);
  if (it != r.by_name.end()) return it->second;
  const int id = static_cast<int>(r.by_id.size());
  c.id = id;
  r.by_name[c.name] = id;
  r.by_id.push_back(std::make_unique<Collation>(std::move(c)));
  return id;
}

const Collation& collation(int id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  EMBER_CHECK(id >= 0 && static_cast<size_t>(id) < r.by_id.size(), "unknown collation id");
  return *r.by_id[static_cast<size_t>(id)];  // entries never move: they are owned by pointer
}

std::string collation_full_name(int id) { return "SYSTEM.BUILTIN." + collation(id).name; }

namespace {

#ifdef EMBER_HAVE_ICU
/// A display name of the locale in English (`getter` is uloc_getDisplayLanguage or
/// uloc_getDisplayCountry); empty when the locale has none.
std::string english_name(int32_t (*getter)(const char*, const char*, UChar*, int32_t, UErrorCode*),
                         const std::string& locale) {
  UChar buf[256];
  UErrorCode status = U_ZERO_ERROR;
  const int32_t len = getter(locale.c_str(), "en", buf, 256, &status);
  if (U_FAILURE(status) || len <= 0) return "";
  char out[1024];
  int32_t out_len = 0;
  status = U_ZERO_ERROR;
  u_strToUTF8(out, sizeof out, &out_len, buf, len, &status);
  return U_SUCCESS(status) ? std::string(out, static_cast<size_t>(out_len)) : "";
}
#endif

}  // namespace

std::vector<CollationListing> list_collations() {
  std::vector<CollationListing> out;
  for (bool rtrim : {false, true}) {
    for (const char* name : {"UTF8_BINARY", "UTF8_LCASE"}) {
      CollationListing c;
      c.name = std::string(name) + (rtrim ? "_RTRIM" : "");
      c.case_sensitive = std::string(name) == "UTF8_BINARY";
      c.pad_attribute = rtrim ? "RTRIM" : "NO_PAD";
      out.push_back(c);
    }
  }
#ifdef EMBER_HAVE_ICU
  // Every locale (the root, UNICODE, among them) with each combination of the case, accent and
  // trimming specifiers, sorted by name as Spark lists them. Spark's ICU version has four parts.
  UVersionInfo v;
  u_getVersion(v);
  const std::string version = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." +
                              std::to_string(v[2]) + "." + std::to_string(v[3]);
  std::vector<CollationListing> icu;
  for (const auto& [upper, entry] : icu_locales()) {
    const std::string& id = entry.second;
    const std::string language = id.empty() ? "" : english_name(uloc_getDisplayLanguage, id);
    const std::string country = id.empty() ? "" : english_name(uloc_getDisplayCountry, id);
    for (bool case_sensitive : {true, false}) {
      for (bool accent_sensitive : {true, false}) {
        for (bool rtrim : {false, true}) {
          CollationListing c;
          c.name = entry.first + (case_sensitive ? "" : "_CI") + (accent_sensitive ? "" : "_AI") +
                   (rtrim ? "_RTRIM" : "");
          c.language = language;
          c.country = country;
          c.case_sensitive = case_sensitive;
          c.accent_sensitive = accent_sensitive;
          c.pad_attribute = rtrim ? "RTRIM" : "NO_PAD";
          c.icu_version = version;
          icu.push_back(std::move(c));
        }
      }
    }
  }
  std::sort(icu.begin(), icu.end(),
            [](const CollationListing& a, const CollationListing& b) { return a.name < b.name; });
  out.insert(out.end(), icu.begin(), icu.end());
#endif
  return out;
}

bool collations_have_icu() {
#ifdef EMBER_HAVE_ICU
  return true;
#else
  return false;
#endif
}

char32_t lowercase_code_point(char32_t cp) {
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
  if (cp == 0x0130) return kLowercaseDottedI;
  if (cp == 0x03C2) return 0x03C3;
#ifdef EMBER_HAVE_ICU
  return static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp)));
#else
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: UTF8_LCASE comparison of non-ASCII text (this "
                   "build of Ember has no ICU).");
#endif
}

void append_collation_key(const Collation& c, const char* s, size_t n, std::string& out) {
  if (c.rtrim) n = rtrimmed_length(s, n);
  switch (c.family) {
    case Collation::Family::kBinary: out.append(s, n); return;
    case Collation::Family::kLowercase: {
      if (is_ascii(s, n)) {
        for (size_t i = 0; i < n; ++i)
          out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s[i]))));
        return;
      }
#ifdef EMBER_HAVE_ICU
      // Code point by code point, without context: U+0130 (İ) becomes i and a combining dot,
      // the final sigma is the sigma, everything else takes its simple lower-case mapping.
      int32_t i = 0;
      const auto* bytes = reinterpret_cast<const uint8_t*>(s);
      while (i < static_cast<int32_t>(n)) {
        UChar32 cp;
        U8_NEXT(bytes, i, static_cast<int32_t>(n), cp);
        if (cp < 0) cp = 0xFFFD;
        if (cp == 0x0130) {
          out.push_back('i');
          append_utf8(0x0307, out);
        } else {
          append_utf8(cp == 0x03C2 ? 0x03C3 : u_tolower(cp), out);
        }
      }
      return;
#else
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: UTF8_LCASE comparison of non-ASCII text (this "
                       "build of Ember has no ICU).");
#endif
    }
    case Collation::Family::kIcu: {
#ifdef EMBER_HAVE_ICU
      thread_local std::u16string utf16;
      to_utf16(s, n, utf16);
      UCollator* coll = icu_collator(c);
      const auto* src = reinterpret_cast<const UChar*>(utf16.data());
      const auto len = static_cast<int32_t>(utf16.size());
      const size_t start = out.size();
      out.resize(start + 3 * utf16.size() + 16);
      int32_t need = ucol_getSortKey(coll, src, len, reinterpret_cast<uint8_t*>(out.data() + start),
                                     static_cast<int32_t>(out.size() - start));
      if (static_cast<size_t>(need) > out.size() - start) {
        out.resize(start + static_cast<size_t>(need));
        need = ucol_getSortKey(coll, src, len, reinterpret_cast<uint8_t*>(out.data() + start), need);
      }
      // The key ends in a zero byte that byte comparison does not need.
      out.resize(start + static_cast<size_t>(need > 0 ? need - 1 : 0));
      return;
#else
      EMBER_UNREACHABLE("ICU collation without ICU");
#endif
    }
  }
}

}  // namespace ember
