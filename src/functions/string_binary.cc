// to_binary(str[, fmt]) and try_to_binary: a string's bytes read in the format `fmt`, a
// case-insensitive literal 'hex' (the default: hexadecimal digits, an odd count read as if it
// had a leading 0), 'utf-8' or 'utf8' (the string's own bytes). Malformed input raises
// CONVERSION_INVALID_INPUT (null for try_to_binary). The 'base64' format raises
// UNSUPPORTED_FEATURE.

#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool decode_hex(std::string_view s, std::string* out) {
  out->clear();
  size_t i = 0;
  if (s.size() % 2) {
    int d = hex_digit(s[0]);
    if (d < 0) return false;
    out->push_back(static_cast<char>(d));
    i = 1;
  }
  for (; i < s.size(); i += 2) {
    int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

std::string lower_ascii(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

FunctionDef to_binary_def(const std::string& fn, bool try_form) {
  FunctionDef d;
  d.name = fn;
  d.min_args = 1;
  d.max_args = 2;
  d.arg_type_rule = [fn, try_form](const std::vector<ArgInfo>& a, const Config&) {
    std::vector<TypePtr> types;
    for (auto& x : a) types.push_back(x.type);
    Signature s = coerce_args(fn, types, "SS", DataType::binary());
    if (a.size() > 1) {
      if (!a[1].literal)
        throw_type_mismatch("NON_FOLDABLE_INPUT",
                            "the input `fmt` should be a foldable \"STRING\" expression; however, got \"" +
                                a[1].type->sql() + "\".",
                            call_sql(fn, types));
      std::string f = a[1].literal->is_null() ? "" : lower_ascii(a[1].literal->as_bytes());
      bool known = f == "hex" || f == "utf-8" || f == "utf8" || f == "base64";
      if (!known && !try_form && !a[1].literal->is_null())
        throw_type_mismatch("INVALID_ARG_VALUE",
                            "The fmt value must to be a case-insensitive \"STRING\" literal of 'hex', 'utf-8', "
                            "'utf8', or 'base64', but got '" + a[1].literal->as_bytes() + "'.",
                            call_sql(fn, types));
      if (f == "base64")
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "The feature is not supported: " + fn + " with the 'base64' format.", {});
    }
    s.may_introduce_null = try_form;
    return s;
  };
  d.kernel = [fn, try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    std::string f = "hex";
    if (a.size() > 1 && a[1]->length() > 0 && a[1]->is_valid(0)) f = lower_ascii(a[1]->string_at(0));
    bool utf8 = f == "utf-8" || f == "utf8";
    bool known = utf8 || f == "hex";
    std::string bytes;
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      if (!known) {  // try_to_binary with a format it does not know
        b.append_null();
        return;
      }
      std::string_view s = a[0]->string_at(i);
      if (utf8) {
        b.append_bytes(s);
        return;
      }
      if (decode_hex(s, &bytes)) {
        b.append_bytes(bytes);
        return;
      }
      if (try_form) {
        b.append_null();
        return;
      }
      throw SparkError(ErrorKind::kIllegalArgument, "CONVERSION_INVALID_INPUT",
                       "The value '" + std::string(s) +
                           "' ('HEX') cannot be converted to \"BINARY\" because it is malformed. Correct the value "
                           "as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed "
                           "input and return NULL instead.",
                       {{"str", "'" + std::string(s) + "'"}, {"fmt", "'HEX'"}, {"targetType", "\"BINARY\""},
                        {"suggestion", "`try_to_binary`"}});
    });
  };
  d.may_throw = !try_form;
  d.usage = fn + "(str[, fmt]) - Converts the input `str` to a binary value based on the supplied `fmt`.";
  return d;
}

}  // namespace

void register_string_binary(Registry& r) {
  r.add(to_binary_def("to_binary", false));
  r.add(to_binary_def("try_to_binary", true));
}

}  // namespace ember::functions
