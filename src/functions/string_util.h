#pragma once

// Helpers for the string function families: UTF-8 code point handling (Spark counts lengths and
// positions in code points), row-wise kernels with null propagation, and the type rules that
// apply Spark's implicit casts to string and integer arguments.

#include <string>
#include <string_view>
#include <vector>

#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {

/// Number of code points in a UTF-8 string (continuation bytes are not counted).
inline int64_t utf8_length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

/// Byte offset of code point `k` (clamped to the end of the string).
inline size_t utf8_offset(std::string_view s, int64_t k) {
  size_t i = 0;
  while (i < s.size() && k > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    --k;
  }
  return i;
}

/// Decodes UTF-8 into code points; invalid bytes become U+FFFD.
std::u32string utf8_decode(std::string_view s);
/// Appends the UTF-8 encoding of `cp` to `out`.
void utf8_append(std::string& out, char32_t cp);
std::string utf8_encode(std::u32string_view s);
/// Java's Character.toUpperCase / toLowerCase for one code point (simple case mapping).
char32_t to_upper_cp(char32_t c);
char32_t to_lower_cp(char32_t c);
/// Java's Character.isUpperCase / isLowerCase (a title-case letter such as ǅ is neither).
bool is_upper_cp(char32_t c);
bool is_lower_cp(char32_t c);
/// Whether `c` is a title-case letter (ǅ, ǈ, ǋ, ǲ and the Greek ones with prosgegrammeni).
bool is_title_cp(char32_t c);
/// Append the upper / title case of `c` as Java's full case mapping gives it: one code point
/// (ǆ → Ǆ / ǅ, a → A) or several (ß → SS / Ss, the ligature ﬁ → FI / Fi).
void append_upper_case(std::string& out, char32_t c);
void append_title_case(std::string& out, char32_t c);
/// Java's Character.isLetter / isDigit.
bool is_letter_cp(char32_t c);
bool is_digit_cp(char32_t c);

/// Spark's UTF8String.substringSQL: 1-based `pos` (negative counts from the end, 0 acts as 1),
/// `len` code points.
std::string_view substring_sql(std::string_view s, int64_t pos, int64_t len);

/// Applies `op(i, builder)` to every row where no argument is null; `op` appends exactly one
/// value (or a null) to the builder. Other rows are null.
template <typename Op>
ColumnPtr map_rows(const std::vector<ColumnPtr>& args, int64_t n, const TypePtr& rtype, Op op) {
  ColumnBuilder b(rtype, n);
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (const ColumnPtr& a : args) {
      if (a->is_null(i)) {
        null = true;
        break;
      }
    }
    if (null)
      b.append_null();
    else
      op(i, b);
  }
  return b.finish();
}

/// "name(T1, T2)" with the argument types, for type mismatch messages.
std::string call_sql(const std::string& name, const std::vector<TypePtr>& args);

/// The common type of arguments `which` (Spark's wider type, or STRING beside a string), or a
/// DATATYPE_MISMATCH.DATA_DIFF_TYPES error naming `fn`.
TypePtr common_type(const std::string& fn, const std::vector<TypePtr>& args, const std::vector<size_t>& which,
                    const Config& conf);

/// Signature for a function whose argument i is coerced according to spec[i]:
///   'S' string (atomic types cast to string), 'B' binary (strings cast to binary),
///   'I' int (any numeric type narrows to it), 'i' int from the smaller integral types only,
///   'L' long, 'D' double, 'b' boolean, 'd' date, 't' timestamp (TIMESTAMP_NTZ kept), 'T'
///   timestamp (TIMESTAMP_NTZ cast to it, a local time in the session zone, as Spark's
///   implicit cast does),
///   '*' any (unchanged).
/// Arguments past the end of `spec` use its last letter.
Signature coerce_args(const std::string& fn, const std::vector<TypePtr>& args,
                      const std::string& spec, TypePtr result);

/// The value of argument `k` at row i, for the storage types coerce_args produces.
inline std::string_view str_arg(const std::vector<ColumnPtr>& a, size_t k, int64_t i) {
  return a[k]->string_at(i);
}
inline int32_t int_arg(const std::vector<ColumnPtr>& a, size_t k, int64_t i) {
  return a[k]->values<int32_t>()[i];
}
inline int64_t long_arg(const std::vector<ColumnPtr>& a, size_t k, int64_t i) {
  return a[k]->values<int64_t>()[i];
}

/// Spark's text of a year-month interval value with fields start..end (YEAR=0, MONTH=1), as
/// messages and CSV output show it: INTERVAL '-1-2' YEAR TO MONTH, INTERVAL '3' MONTH (the
/// day-time counterpart is common/datetime.h's format_day_time_interval).
std::string year_month_interval_text(int64_t months, int start, int end);

/// The value of a base64 alphabet character (A-Z a-z 0-9 + /), or -1.
int base64_sextet(char c);

/// Decodes base64 as Java's MIME decoder does (unbase64, to_binary): bytes outside the alphabet
/// are skipped, padding is optional; '=' must end a unit of two or three characters (two '=' after
/// two), and only bytes outside the alphabet may follow it. Returns "", or the message of the
/// decoder's IllegalArgumentException ("Last unit does not have enough valid bits").
std::string java_mime_unbase64(std::string_view s, std::string* out);

/// Builds a scalar FunctionDef in one expression, for the one-line registrations.
FunctionDef scalar(std::string name, int min_args, int max_args, TypeRule rule, ScalarKernel kernel,
                   std::vector<std::string> aliases = {});

}  // namespace ember::functions
