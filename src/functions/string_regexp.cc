// Regular expression functions: rlike/regexp/regexp_like, regexp_extract, regexp_extract_all,
// regexp_replace, regexp_count, regexp_substr, regexp_instr and split.
//
// Spark uses java.util.regex; Ember uses RE2, which agrees with it on the common syntax and on
// leftmost-first matching, runs in linear time, and rejects what it cannot do in linear time
// (backreferences, lookaround, possessive quantifiers) with INVALID_PARAMETER_VALUE.PATTERN.
// Iteration follows java.util.regex.Matcher.find: after an empty match the search resumes one
// character further on.

#include "functions/regexp_util.h"
#include "functions/string_util.h"

#ifdef EMBER_HAVE_RE2
#include <re2/re2.h>
#endif

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

TypeRule rule(const std::string& fn, std::string spec, TypePtr result) {
  return [fn, spec, result](const Types& a, const Config&) {
    return coerce_args(fn, a, spec, result);
  };
}

std::string join(const std::vector<std::string>& a) {
  std::string s;
  for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i];
  return s;
}

auto defaults_render(size_t first_default, std::vector<std::string> defaults) {
  return
      [first_default, defaults](const std::string& called, const std::vector<std::string>& args) {
        std::vector<std::string> all = args;
        for (size_t k = all.size(); k < first_default + defaults.size(); ++k)
          if (k >= first_default) all.push_back(defaults[k - first_default]);
        return called + "(" + join(all) + ")";
      };
}

#ifdef EMBER_HAVE_RE2

/// A Java pattern compiled for RE2, with the groups its translation added to mark where a `$`
/// or \Z that matched before a final line terminator ends Java's match (java_regex_to_re2).
struct CompiledPattern {
  std::unique_ptr<RE2> re;
  std::vector<int> end_marks;  // RE2 group numbers, ascending

  /// The pattern's own capturing groups.
  int groups() const { return re->NumberOfCapturingGroups() - static_cast<int>(end_marks.size()); }
};

/// The compiled pattern of the previous row, reused while the pattern stays the same (it is a
/// literal in almost every query).
class PatternCache {
 public:
  explicit PatternCache(std::string fn) : fn_(std::move(fn)) {}

  const CompiledPattern& get(std::string_view pattern) {
    if (!compiled_.re || pattern != last_) {
      RE2::Options opts;
      opts.set_log_errors(false);
      compiled_ = CompiledPattern{};
      last_ = std::string(pattern);
      std::string problem;
      try {
        compiled_.re = std::make_unique<RE2>(java_regex_to_re2(pattern, &compiled_.end_marks), opts);
        if (!compiled_.re->ok()) problem = compiled_.re->error();
      } catch (const JavaRegexError& e) {
        problem = e.what();
      }
      if (!problem.empty()) {
        compiled_.re.reset();
        throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.PATTERN",
                         "The value of parameter(s) `regexp` in `" + fn_ + "` is invalid: '" +
                             last_ + "' (" + problem + ").",
                         {{"parameter", "`regexp`"}, {"functionName", "`" + fn_ + "`"}});
      }
    }
    return compiled_;
  }

 private:
  std::string fn_;
  std::string last_;
  CompiledPattern compiled_;
};

/// The groups of a match as Java reports them: where an end mark took part before a line
/// terminator, the match and every group that reached the end through it end at the mark, and
/// the marks themselves are dropped.
void drop_end_marks(const CompiledPattern& p, std::vector<re2::StringPiece>& g) {
  for (auto it = p.end_marks.rbegin(); it != p.end_marks.rend(); ++it) {
    const re2::StringPiece mark = g[static_cast<size_t>(*it)];
    g.erase(g.begin() + *it);
    if (mark.data() == nullptr) continue;
    const char* input_end = g[0].data() + g[0].size();
    if (mark.data() == input_end) continue;
    for (re2::StringPiece& group : g)
      if (group.data() != nullptr && group.data() <= mark.data() && group.data() + group.size() == input_end)
        group = re2::StringPiece(group.data(), static_cast<size_t>(mark.data() - group.data()));
  }
}

/// Calls `on_match(groups)` for each match of `p` in `s` starting at byte `from`, in the order
/// Java's Matcher.find finds them; `on_match` returns false to stop.
template <typename F>
void for_each_match(const CompiledPattern& p, std::string_view s, size_t from, F on_match) {
  const RE2& re = *p.re;
  int ngroups = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> all(static_cast<size_t>(ngroups));
  std::vector<re2::StringPiece> g;
  re2::StringPiece text(s.data(), s.size());
  size_t pos = from;
  while (pos <= s.size()) {
    if (!re.Match(text, pos, s.size(), RE2::UNANCHORED, all.data(), ngroups)) break;
    g = all;
    drop_end_marks(p, g);
    if (!on_match(g)) break;
    size_t end = static_cast<size_t>(g[0].data() - s.data()) + g[0].size();
    if (g[0].empty()) {
      if (end >= s.size()) break;
      pos = end + utf8_offset(s.substr(end), 1);
    } else {
      pos = end;
    }
  }
}

/// Whether `p` matches the whole of `s` (Matcher.matches): a match that Java would end before a
/// final line terminator does not.
bool full_match(const CompiledPattern& p, std::string_view s) {
  const RE2& re = *p.re;
  int ngroups = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> g(static_cast<size_t>(ngroups));
  if (!re.Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::ANCHOR_BOTH, g.data(), ngroups))
    return false;
  drop_end_marks(p, g);
  return g[0].size() == s.size();
}

size_t offset_of(std::string_view s, const re2::StringPiece& p) {
  return static_cast<size_t>(p.data() - s.data());
}

/// Java's Pattern.split(input, limit) with limit != 0: trailing empty strings are kept.
std::vector<std::string_view> java_split(const CompiledPattern& re, std::string_view s, int64_t limit) {
  std::vector<std::string_view> parts;
  size_t index = 0;
  bool limited = limit > 0;
  for_each_match(re, s, 0, [&](const std::vector<re2::StringPiece>& m) {
    size_t ms = offset_of(s, m[0]), me = ms + m[0].size();
    if (!limited || static_cast<int64_t>(parts.size()) < limit - 1) {
      if (index == 0 && ms == 0 && me == 0) return true;
      parts.push_back(s.substr(index, ms - index));
      index = me;
      return true;
    }
    return false;
  });
  if (index == 0 && parts.empty())
    parts.push_back(s);
  else
    parts.push_back(s.substr(index));
  return parts;
}

/// Spark's UTF8String.split: an empty pattern splits into code points (the last piece taking
/// the rest when `limit` is reached, no trailing empty string); otherwise Java's split.
std::vector<std::string_view> spark_split(PatternCache& cache, std::string_view pattern, std::string_view s,
                                          int64_t limit) {
  if (!pattern.empty()) return java_split(cache.get(pattern), s, limit);
  std::vector<std::string_view> parts;
  if (s.empty()) parts.push_back(s);
  for (size_t at = 0; at < s.size();) {
    size_t len = utf8_offset(s.substr(at), 1);
    if (limit > 0 && static_cast<int64_t>(parts.size()) == limit - 1) len = s.size() - at;
    parts.push_back(s.substr(at, len));
    at += len;
  }
  return parts;
}

[[noreturn]] void bad_group(const std::string& fn, int64_t idx, int groups) {
  throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
                   "The value of parameter(s) `idx` in `" + fn +
                       "` is invalid: Expects group index between 0 and " + std::to_string(groups) +
                       ", but got " + std::to_string(idx) + ".",
                   {{"parameter", "`idx`"}, {"functionName", "`" + fn + "`"}});
}

int group_index(const std::string& fn, const CompiledPattern& re, const Args& a, size_t k, int64_t i) {
  int64_t idx = a.size() > k ? int_arg(a, k, i) : 1;
  int groups = re.groups();
  if (idx < 0 || idx > groups) bad_group(fn, idx, groups);
  return static_cast<int>(idx);
}

ScalarKernel rlike_kernel() {
  return [](const Args& a, int64_t n, const Signature&, const EvalContext&) {
    PatternCache cache("rlike");
    std::vector<uint8_t> out(static_cast<size_t>(n));
    BufferPtr validity = and_validity({a[0].get(), a[1].get()}, n);
    for (int64_t i = 0; i < n; ++i) {
      if (a[0]->is_null(i) || a[1]->is_null(i)) continue;
      std::string_view s = a[0]->string_at(i);
      out[static_cast<size_t>(i)] =
          RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *cache.get(a[1]->string_at(i)).re);
    }
    return make_bool_column(out, validity, n);
  };
}

ColumnPtr extract_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  PatternCache cache("regexp_extract");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const CompiledPattern& re = cache.get(a[1]->string_at(i));
    int g = group_index("regexp_extract", re, a, 2, i);
    std::string_view s = a[0]->string_at(i);
    std::string_view found;
    for_each_match(re, s, 0, [&](const std::vector<re2::StringPiece>& m) {
      if (m[static_cast<size_t>(g)].data())
        found =
            std::string_view(m[static_cast<size_t>(g)].data(), m[static_cast<size_t>(g)].size());
      return false;
    });
    b.append_bytes(found);
  });
}

ColumnPtr extract_all_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  PatternCache cache("regexp_extract_all");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const CompiledPattern& re = cache.get(a[1]->string_at(i));
    int g = group_index("regexp_extract_all", re, a, 2, i);
    std::string_view s = a[0]->string_at(i);
    ColumnBuilder& items = b.child(0);
    for_each_match(re, s, 0, [&](const std::vector<re2::StringPiece>& m) {
      const re2::StringPiece& p = m[static_cast<size_t>(g)];
      items.append_bytes(p.data() ? std::string_view(p.data(), p.size()) : std::string_view());
      return true;
    });
    b.close_list();
  });
}

ColumnPtr count_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  PatternCache cache("regexp_count");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int32_t count = 0;
    for_each_match(cache.get(a[1]->string_at(i)), a[0]->string_at(i), 0, [&](const auto&) {
      ++count;
      return true;
    });
    b.append<int32_t>(count);
  });
}

ColumnPtr substr_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // regexp_substr: the first match, or NULL when there is none or it is empty.
  PatternCache cache("regexp_substr");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    bool found = false;
    std::string_view s = a[0]->string_at(i);
    for_each_match(cache.get(a[1]->string_at(i)), s, 0,
                   [&](const std::vector<re2::StringPiece>& m) {
                     if (m[0].size() > 0) {
                       b.append_bytes(std::string_view(m[0].data(), m[0].size()));
                       found = true;
                     }
                     return false;
                   });
    if (!found) b.append_null();
  });
}

ColumnPtr instr_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  // regexp_instr: 1-based code point position of the first match, 0 when none. Spark reports
  // where the whole match starts whatever group the third argument names, and does not check it.
  PatternCache cache("regexp_instr");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const CompiledPattern& re = cache.get(a[1]->string_at(i));
    std::string_view s = a[0]->string_at(i);
    int32_t at = 0;
    for_each_match(re, s, 0, [&](const std::vector<re2::StringPiece>& m) {
      const re2::StringPiece& p = m[0];
      if (p.data()) at = static_cast<int32_t>(utf8_length(s.substr(0, offset_of(s, p))) + 1);
      return false;
    });
    b.append<int32_t>(at);
  });
}

/// Appends Java's Matcher.appendReplacement expansion of `rep` for match groups `m`.
void expand_replacement(std::string& out, std::string_view rep,
                        const std::vector<re2::StringPiece>& m) {
  for (size_t k = 0; k < rep.size(); ++k) {
    char c = rep[k];
    if (c == '\\') {
      if (k + 1 >= rep.size())
        throw SparkError(
            ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.PATTERN",
            "The value of parameter(s) `rep` in `regexp_replace` is invalid: character to be "
            "escaped is missing.");
      out += rep[++k];
    } else if (c == '$') {
      if (k + 1 >= rep.size() || rep[k + 1] < '0' || rep[k + 1] > '9')
        throw SparkError(
            ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.PATTERN",
            "The value of parameter(s) `rep` in `regexp_replace` is invalid: Illegal group "
            "reference.");
      // Java takes as many digits as still name an existing group.
      size_t g = static_cast<size_t>(rep[++k] - '0');
      if (g >= m.size())
        throw SparkError(
            ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.PATTERN",
            "The value of parameter(s) `rep` in `regexp_replace` is invalid: No group " +
                std::to_string(g) + ".");
      while (k + 1 < rep.size() && rep[k + 1] >= '0' && rep[k + 1] <= '9' &&
             g * 10 + static_cast<size_t>(rep[k + 1] - '0') < m.size())
        g = g * 10 + static_cast<size_t>(rep[++k] - '0');
      if (m[g].data()) out.append(m[g].data(), m[g].size());
    } else {
      out += c;
    }
  }
}

ColumnPtr replace_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  PatternCache cache("regexp_replace");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i), rep = a[2]->string_at(i);
    int64_t pos = a.size() > 3 ? int_arg(a, 3, i) : 1;
    if (pos <= 0)
      throw SparkError(
          ErrorKind::kAnalysis, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
          "Cannot resolve regexp_replace due to data type mismatch: The `position` must be "
          "greater than 0, but got " +
              std::to_string(pos) + ".");
    const CompiledPattern& re = cache.get(a[1]->string_at(i));
    size_t start = utf8_offset(s, pos - 1);
    if (static_cast<int64_t>(utf8_length(s)) < pos - 1) {
      b.append_bytes(s);
      return;
    }
    std::string out(s.substr(0, start));
    size_t copied = start;
    for_each_match(re, s, start, [&](const std::vector<re2::StringPiece>& m) {
      size_t ms = offset_of(s, m[0]);
      out.append(s.substr(copied, ms - copied));
      expand_replacement(out, rep, m);
      copied = ms + m[0].size();
      return true;
    });
    out.append(s.substr(copied));
    b.append_bytes(out);
  });
}

ColumnPtr split_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  PatternCache cache("split");
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t limit = a.size() > 2 ? int_arg(a, 2, i) : -1;
    if (limit == 0) limit = -1;
    ColumnBuilder& items = b.child(0);
    std::string_view pattern = a[1]->string_at(i);
    for (auto p : spark_split(cache, pattern, s, limit)) items.append_bytes(p);
    b.close_list();
  });
}

#else

ScalarKernel unsupported(const std::string& fn) {
  return [fn](const Args&, int64_t, const Signature&, const EvalContext&) -> ColumnPtr {
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     "The function " + fn + " needs RE2, which this build of Ember lacks.");
  };
}
ScalarKernel rlike_kernel() { return unsupported("rlike"); }
#define extract_kernel unsupported("regexp_extract")
#define extract_all_kernel unsupported("regexp_extract_all")
#define count_kernel unsupported("regexp_count")
#define substr_kernel unsupported("regexp_substr")
#define instr_kernel unsupported("regexp_instr")
#define replace_kernel unsupported("regexp_replace")
#define split_kernel unsupported("split")

#endif

}  // namespace

#ifdef EMBER_HAVE_RE2
struct JavaRegex::Impl {
  explicit Impl(std::string fn) : cache(std::move(fn)) {}
  PatternCache cache;
};

JavaRegex::JavaRegex(std::string fn) : impl_(std::make_unique<Impl>(std::move(fn))) {}
JavaRegex::~JavaRegex() = default;

std::vector<std::string_view> JavaRegex::split(std::string_view pattern, std::string_view s, int64_t limit) {
  return spark_split(impl_->cache, pattern, s, limit);
}

std::optional<std::string_view> JavaRegex::find_group(std::string_view pattern, std::string_view s, int group) {
  std::optional<std::string_view> out;
  for_each_match(impl_->cache.get(pattern), s, 0, [&](const std::vector<re2::StringPiece>& m) {
    const re2::StringPiece& g = m[static_cast<size_t>(group)];
    if (g.data() != nullptr) out = std::string_view(g.data(), g.size());
    else out = std::string_view();
    return false;
  });
  return out;
}

bool JavaRegex::matches(std::string_view pattern, std::string_view s) {
  return full_match(impl_->cache.get(pattern), s);
}
#else
struct JavaRegex::Impl {
  std::string fn;
};

JavaRegex::JavaRegex(std::string fn) : impl_(std::make_unique<Impl>(Impl{std::move(fn)})) {}
JavaRegex::~JavaRegex() = default;

std::vector<std::string_view> JavaRegex::split(std::string_view, std::string_view, int64_t) {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The function " + impl_->fn + " needs RE2, which this build of Ember lacks.");
}

std::optional<std::string_view> JavaRegex::find_group(std::string_view, std::string_view, int) {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The function " + impl_->fn + " needs RE2, which this build of Ember lacks.");
}

bool JavaRegex::matches(std::string_view, std::string_view) {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The function " + impl_->fn + " needs RE2, which this build of Ember lacks.");
}
#endif

void register_string_regexp(Registry& r) {
  {
    FunctionDef d = scalar("rlike", 2, 2, rule("rlike", "S", DataType::boolean()), rlike_kernel(),
                           {"regexp", "regexp_like"});
    d.render = [](const std::string& called, const std::vector<std::string>& a) {
      std::string up = called;
      for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return up + "(" + a[0] + ", " + a[1] + ")";
    };
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar("regexp_extract", 2, 3,
                           rule("regexp_extract", "SSI", DataType::string()), extract_kernel);
    d.render = defaults_render(2, {"1"});
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar("regexp_extract_all", 2, 3,
                           rule("regexp_extract_all", "SSI", DataType::array(DataType::string())),
                           extract_all_kernel);
    d.render = defaults_render(2, {"1"});
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar("regexp_replace", 3, 4,
                           rule("regexp_replace", "SSSI", DataType::string()), replace_kernel);
    d.render = defaults_render(3, {"1"});
    r.add(std::move(d));
  }
  r.add(scalar("regexp_count", 2, 2, rule("regexp_count", "S", DataType::int_()), count_kernel));
  {
    FunctionDef d = scalar("regexp_substr", 2, 2, rule("regexp_substr", "S", DataType::string()),
                           substr_kernel);
    d.type_rule = [](const Types& a, const Config&) {
      Signature s = coerce_args("regexp_substr", a, "S", DataType::string());
      s.may_introduce_null = true;
      return s;
    };
    r.add(std::move(d));
  }
  {
    FunctionDef d =
        scalar("regexp_instr", 2, 3, rule("regexp_instr", "SSI", DataType::int_()), instr_kernel);
    d.render = defaults_render(2, {"0"});
    r.add(std::move(d));
  }
  {
    FunctionDef d =
        scalar("split", 2, 3, rule("split", "SSI", DataType::array(DataType::string(), false)),
               split_kernel);
    d.render = defaults_render(2, {"-1"});
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
