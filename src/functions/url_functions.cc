// URL functions: parse_url and try_parse_url (java.net.URI's parse of RFC 2396, as Spark uses
// it), url_encode (URLEncoder), url_decode and try_url_decode (URLDecoder), all over UTF-8.

#include <optional>

#include "common/error.h"
#include "functions/regexp_util.h"
#include "functions/string_util.h"
#include "functions/url_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;

// ---- java.net.URI ---------------------------------------------------------------------------

/// The raw components of a URI; absent ones are nullopt, as java.net.URI's getters give null.
struct UriParts {
  std::optional<std::string_view> scheme, authority, user_info, host, path, query, fragment;
};

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_unreserved(char c) { return is_alpha(c) || is_digit(c) || std::string_view("-_.!~*'()").find(c) != std::string_view::npos; }

/// Whether s[from, to) consists of the allowed ASCII characters `extra`, unreserved characters,
/// %XX escapes and (when `other`) non-ASCII characters.
bool scan_ok(std::string_view s, size_t from, size_t to, std::string_view extra, bool other) {
  for (size_t i = from; i < to; ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      if (!other) return false;
      continue;
    }
    if (c == '%') {
      if (i + 2 >= to || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
      i += 2;
      continue;
    }
    if (!is_unreserved(c) && extra.find(c) == std::string_view::npos) return false;
  }
  return true;
}

constexpr std::string_view kPathExtra = ":@&=+$,;/";
constexpr std::string_view kUricExtra = ";/?:@&=+$,[]";
constexpr std::string_view kUserInfoExtra = ";:&=+$,";
constexpr std::string_view kRegNameExtra = "$,;:@&=+";

/// A server-based authority `[userinfo@]host[:port]`; false when it is not one.
bool parse_server(std::string_view a, UriParts* u) {
  size_t at = a.rfind('@');
  std::string_view host_port = a;
  if (at != std::string_view::npos) {
    if (!scan_ok(a, 0, at, kUserInfoExtra, true)) return false;
    u->user_info = a.substr(0, at);
    host_port = a.substr(at + 1);
  }
  std::string_view host = host_port, port;
  bool has_port = false;
  if (!host_port.empty() && host_port[0] == '[') {
    size_t close = host_port.find(']');
    if (close == std::string_view::npos) return false;
    for (size_t i = 1; i < close; ++i)
      if (!is_hex(host_port[i]) && host_port[i] != ':' && host_port[i] != '.') return false;
    host = host_port.substr(0, close + 1);
    if (close + 1 < host_port.size()) {
      if (host_port[close + 1] != ':') return false;
      has_port = true;
      port = host_port.substr(close + 2);
    }
  } else {
    size_t colon = host_port.rfind(':');
    if (colon != std::string_view::npos) {
      host = host_port.substr(0, colon);
      port = host_port.substr(colon + 1);
      has_port = true;
    }
    if (host.empty()) return false;
    // Host names: labels of letters, digits and '-' that neither start nor end with '-',
    // the last one starting with a letter unless the whole name is an IPv4 address.
    bool all_numeric = true;
    size_t label_start = 0;
    for (size_t i = 0; i <= host.size(); ++i) {
      if (i == host.size() || host[i] == '.') {
        if (i == label_start) {
          if (i != host.size() || i == 0) return false;
          break;  // a trailing dot
        }
        if (host[label_start] == '-' || host[i - 1] == '-') return false;
        label_start = i + 1;
        continue;
      }
      const char c = host[i];
      if (!is_alpha(c) && !is_digit(c) && c != '-') return false;
      if (!is_digit(c)) all_numeric = false;
    }
    if (!all_numeric) {
      size_t last = host.find_last_of('.', host.size() >= 2 && host.back() == '.' ? host.size() - 2 : std::string_view::npos);
      size_t first_of_last = last == std::string_view::npos ? 0 : last + 1;
      if (!is_alpha(host[first_of_last])) return false;
    }
  }
  if (has_port)
    for (char c : port)
      if (!is_digit(c)) return false;
  u->host = host;
  return true;
}

/// Parses `s` as java.net.URI does; false on a URISyntaxException.
bool parse_uri(std::string_view s, UriParts* u) {
  size_t end = s.size();
  size_t hash = s.find('#');
  if (hash != std::string_view::npos) {
    if (!scan_ok(s, hash + 1, end, kUricExtra, true)) return false;
    u->fragment = s.substr(hash + 1);
    end = hash;
  }
  std::string_view body = s.substr(0, end);
  // A scheme: a letter, then letters, digits, '+', '-', '.', up to a ':' that comes before any
  // '/', '?' or '#'.
  size_t colon = body.find_first_of(":/?");
  size_t start = 0;
  if (colon != std::string_view::npos && body[colon] == ':') {
    if (colon == 0) return false;
    if (!is_alpha(body[0])) return false;
    for (size_t i = 1; i < colon; ++i)
      if (!is_alpha(body[i]) && !is_digit(body[i]) && body[i] != '+' && body[i] != '-' && body[i] != '.') return false;
    u->scheme = body.substr(0, colon);
    start = colon + 1;
    if (start == body.size()) return false;  // expected a scheme-specific part
    if (body[start] != '/') {
      // Opaque: no authority, path or query.
      return scan_ok(body, start, body.size(), kUricExtra, true);
    }
  }
  size_t q = body.find('?', start);
  size_t hier_end = q == std::string_view::npos ? body.size() : q;
  if (q != std::string_view::npos) {
    if (!scan_ok(body, q + 1, body.size(), kUricExtra, true)) return false;
    u->query = body.substr(q + 1);
  }
  size_t p = start;
  if (body.compare(start, 2, "//") == 0) {
    size_t a_end = body.find('/', start + 2);
    if (a_end == std::string_view::npos || a_end > hier_end) a_end = hier_end;
    std::string_view auth = body.substr(start + 2, a_end - start - 2);
    if (auth.empty()) {
      if (a_end == hier_end) return false;  // expected authority
    } else {
      UriParts server;
      if (parse_server(auth, &server)) {
        u->user_info = server.user_info;
        u->host = server.host;
      } else if (!scan_ok(auth, 0, auth.size(), kRegNameExtra, true)) {
        return false;
      }
      u->authority = auth;
    }
    p = a_end;
  }
  if (!scan_ok(body, p, hier_end, kPathExtra, true)) return false;
  u->path = body.substr(p, hier_end - p);
  return true;
}

[[noreturn]] void throw_invalid_url(std::string_view url) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_URL",
                   "The url is invalid: " + std::string(url) +
                       ". Use `try_parse_url` to tolerate invalid URL and return NULL instead.",
                   {{"url", std::string(url)}}, "22P02");
}

std::optional<std::string> url_part(const UriParts& u, std::string_view part) {
  auto str = [](const std::optional<std::string_view>& v) -> std::optional<std::string> {
    if (!v) return std::nullopt;
    return std::string(*v);
  };
  if (part == "HOST") return str(u.host);
  if (part == "PATH") return str(u.path);
  if (part == "QUERY") return str(u.query);
  if (part == "REF") return str(u.fragment);
  if (part == "PROTOCOL") return str(u.scheme);
  if (part == "FILE") {
    if (!u.path) return std::nullopt;
    return u.query ? std::string(*u.path) + "?" + std::string(*u.query) : std::string(*u.path);
  }
  if (part == "AUTHORITY") return str(u.authority);
  if (part == "USERINFO") return str(u.user_info);
  return std::nullopt;
}

ScalarKernel parse_url_kernel(bool try_form) {
  return [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
    JavaRegex regex("parse_url");
    std::string pattern;
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      const std::string_view url = a[0]->string_at(i);
      UriParts u;
      if (!parse_uri(url, &u)) {
        if (!try_form && ctx.ansi) throw_invalid_url(url);
        b.append_null();
        return;
      }
      const std::string_view part = a[1]->string_at(i);
      if (a.size() > 2) {
        if (part != "QUERY" || !u.query) {
          b.append_null();
          return;
        }
        // The key is a regular expression, as in Spark: `(&|^)key=([^&]*)`.
        pattern = "(&|^)" + std::string(a[2]->string_at(i)) + "=([^&]*)";
        auto v = regex.find_group(pattern, *u.query, 2);
        if (v) b.append_bytes(*v);
        else b.append_null();
        return;
      }
      auto v = url_part(u, part);
      if (v) b.append_bytes(*v);
      else b.append_null();
    });
  };
}

// ---- URLEncoder / URLDecoder ----------------------------------------------------------------

ColumnPtr url_encode_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type,
                  [&](int64_t i, ColumnBuilder& b) { b.append_bytes(java_url_encode(a[0]->string_at(i))); });
}

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string java_url_encode(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (is_alpha(static_cast<char>(c)) || is_digit(static_cast<char>(c)) || c == '.' || c == '-' || c == '*' ||
        c == '_') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

bool java_url_decode(std::string_view s, std::string* out) {
  std::string bytes;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '+') {
      *out += ' ';
      ++i;
    } else if (c == '%') {
      bytes.clear();
      while (i < s.size() && s[i] == '%') {
        if (i + 2 >= s.size()) return false;
        // Integer.parseInt(xx, 16) also takes a sign; a negative value is an error.
        const char h = s[i + 1], l = s[i + 2];
        int v;
        if (h == '+' && hex_value(l) >= 0) v = hex_value(l);
        else if (hex_value(h) >= 0 && hex_value(l) >= 0) v = hex_value(h) * 16 + hex_value(l);
        else return false;
        bytes += static_cast<char>(v);
        i += 3;
      }
      *out += utf8_encode(utf8_decode(bytes));
    } else {
      *out += c;
      ++i;
    }
  }
  return true;
}

namespace {

ScalarKernel url_decode_kernel(bool try_form) {
  return [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      const std::string_view s = a[0]->string_at(i);
      std::string out;
      if (java_url_decode(s, &out)) {
        b.append_bytes(out);
        return;
      }
      if (try_form) {
        b.append_null();
        return;
      }
      throw SparkError(ErrorKind::kIllegalArgument, "CANNOT_DECODE_URL",
                       "The provided URL cannot be decoded: " + std::string(s) +
                           ". Please ensure that the URL is properly formatted and try again.",
                       {{"url", std::string(s)}}, "22546");
    });
  };
}

TypeRule string_rule(const std::string& fn, bool may_introduce_null) {
  return [fn, may_introduce_null](const std::vector<TypePtr>& t, const Config&) {
    Signature s = coerce_args(fn, t, "S", DataType::string());
    s.may_introduce_null = may_introduce_null;
    return s;
  };
}

}  // namespace

void register_url_functions(Registry& r) {
  FunctionDef parse_url = scalar("parse_url", 2, 3, string_rule("parse_url", true), parse_url_kernel(false));
  parse_url.may_throw = true;
  r.add(std::move(parse_url));
  r.add(scalar("try_parse_url", 2, 3, string_rule("try_parse_url", true), parse_url_kernel(true)));
  r.add(scalar("url_encode", 1, 1, string_rule("url_encode", false), url_encode_kernel));
  FunctionDef url_decode = scalar("url_decode", 1, 1, string_rule("url_decode", false), url_decode_kernel(false));
  url_decode.may_throw = true;
  r.add(std::move(url_decode));
  r.add(scalar("try_url_decode", 1, 1, string_rule("try_url_decode", true), url_decode_kernel(true)));
}

}  // namespace ember::functions
