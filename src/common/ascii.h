#pragma once

// Case mapping of ASCII letters only, for keywords, option names, identifiers and format
// codes: the rules Spark applies with Locale.ROOT to such names. Data strings use the
// Unicode-aware functions of src/functions instead.

#include <string>
#include <string_view>

namespace ember {

inline std::string ascii_lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

inline std::string ascii_upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return r;
}

}  // namespace ember
