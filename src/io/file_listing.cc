#include "io/file_listing.h"

#include <fnmatch.h>
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace ember::io {

namespace fs = std::filesystem;

namespace {

bool modified_in_range(const struct stat& st, const ListingOptions& options) {
  const int64_t micros = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000 + st.st_mtim.tv_nsec / 1000;
  return micros < options.modified_before_us && micros > options.modified_after_us;
}

bool is_glob(const std::string& p) { return p.find_first_of("*?[{") != std::string::npos; }

bool hidden_name(const std::string& name) {
  const std::string copying = "._COPYING_";
  return name.empty() || name[0] == '.' || (name[0] == '_' && name.find('=') == std::string::npos) ||
         (name.size() >= copying.size() &&
          name.compare(name.size() - copying.size(), copying.size(), copying) == 0);
}

[[noreturn]] void path_not_found(const std::string& abs) {
  const std::string shown = "file:" + abs;
  throw SparkError(ErrorKind::kAnalysis, "PATH_NOT_FOUND", "Path does not exist: " + shown + ".",
                   {{"path", shown}});
}

void walk_dir(const std::string& dir, const std::string& root, const ListingOptions& options,
              std::vector<InputFile>& files) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (hidden_name(name)) continue;
    struct stat est;
    if (::stat(entry.path().c_str(), &est) != 0) continue;
    if (S_ISDIR(est.st_mode)) {
      if (options.recursive) walk_dir(entry.path().string(), root, options, files);
    } else if (S_ISREG(est.st_mode)) {
      if (!modified_in_range(est, options)) continue;
      if (!options.glob_filter.empty() &&
          ::fnmatch(options.glob_filter.c_str(), name.c_str(), 0) != 0)
        continue;
      files.push_back({entry.path().string(), static_cast<int64_t>(est.st_size), root});
    }
  }
}

void add_path(const std::string& abs, std::vector<InputFile>& out, bool must_exist,
              const ListingOptions& options) {
  struct stat st;
  if (::stat(abs.c_str(), &st) != 0) {
    if (must_exist) path_not_found(abs);
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    std::vector<InputFile> files;
    walk_dir(abs, abs, options, files);
    std::sort(files.begin(), files.end(),
              [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
    out.insert(out.end(), files.begin(), files.end());
  } else if (modified_in_range(st, options)) {
    out.push_back({abs, static_cast<int64_t>(st.st_size), ""});
  }
}

}  // namespace

std::string local_path(const std::string& path) {
  std::string p = path;
  if (p.rfind("file://", 0) == 0) {
    p = p.substr(7);  // file:///abs → /abs (an authority other than empty is not supported)
  } else if (p.rfind("file:", 0) == 0) {
    p = p.substr(5);
  }
  fs::path abs = fs::absolute(fs::path(p)).lexically_normal();
  std::string s = abs.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string file_uri(const std::string& abs_path) {
  // java.net.URI's quoting of a path: ASCII outside its unreserved, punctuation, '@' and '/'
  // characters is %-escaped; other (non-ASCII) characters stay as they are.
  static const char* const kHex = "0123456789ABCDEF";
  std::string out = "file://";
  out.reserve(out.size() + abs_path.size());
  for (const char ch : abs_path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || std::isalnum(c) || (c != 0 && std::strchr("-_.!~*'(),;:$&+=@/", c) != nullptr)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::vector<InputFile> list_input_files(const std::vector<std::string>& paths,
                                        const ListingOptions& options) {
  std::vector<InputFile> out;
  for (const auto& user_path : paths) {
    const std::string abs = local_path(user_path);
    if (!is_glob(abs)) {
      add_path(abs, out, true, options);
      continue;
    }
    glob_t g{};
    const int rc = ::glob(abs.c_str(), GLOB_BRACE | GLOB_NOSORT, nullptr, &g);
    std::vector<std::string> matches;
    if (rc == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) matches.emplace_back(g.gl_pathv[i]);
    }
    ::globfree(&g);
    if (matches.empty()) path_not_found(abs);
    std::sort(matches.begin(), matches.end());
    for (const auto& m : matches) {
      if (!hidden_name(fs::path(m).filename().string())) add_path(m, out, false, options);
    }
  }
  return out;
}

}  // namespace ember::io
