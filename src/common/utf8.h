#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ember {

/// Appends code point `cp` (at most 0x10FFFF) to `out` as UTF-8.
inline void append_utf8(std::string& out, uint32_t cp) {
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

/// The length of UTF-8 text in UTF-16 code units, as Java counts a string's characters: one
/// per code point, two for those above U+FFFF.
inline int64_t utf16_length(std::string_view s) {
  int64_t n = 0;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    n += (c & 0xC0) != 0x80;
    n += c >= 0xF0;
  }
  return n;
}

}  // namespace ember
