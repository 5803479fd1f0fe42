#include "common/locale.h"

#include <cstring>

namespace ember {

namespace {

const LocaleData kLocales[] = {
#include "common/locale_data.inc"
};

bool same_tag(std::string_view a, const char* b) {
  if (a.size() != std::strlen(b)) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
    char d = b[i];
    if (d >= 'A' && d <= 'Z') d = static_cast<char>(d | 0x20);
    if (c != d) return false;
  }
  return true;
}

}  // namespace

bool LocaleData::is_us() const { return this == &kLocales[0]; }

const LocaleData* find_locale(std::string_view tag) {
  for (const LocaleData& l : kLocales)
    if (same_tag(tag, l.tag)) return &l;
  return nullptr;
}

const LocaleData& us_locale() { return kLocales[0]; }

}  // namespace ember
