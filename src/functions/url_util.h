#pragma once

// java.net.URLEncoder.encode and URLDecoder.decode with UTF-8, which url_encode / url_decode
// and reflect's java.net methods share.

#include <string>
#include <string_view>

namespace ember::functions {

/// URLEncoder.encode(s, UTF-8): letters, digits and ".-*_" stay, a space becomes '+', every
/// other byte %XX (upper-case hex).
std::string java_url_encode(std::string_view s);

/// URLDecoder.decode(s, UTF-8): '+' is a space, runs of %XX are bytes decoded as UTF-8 with
/// malformed sequences replaced; false on a bad escape.
bool java_url_decode(std::string_view s, std::string* out);

}  // namespace ember::functions
