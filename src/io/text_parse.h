#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/locale.h"

namespace ember::io {

using int128_t = __int128;

/// Text-to-value conversions with the exact syntax of the JVM methods Spark's text sources
/// (CSV, JSON) call, so that the same strings are accepted and rejected. None allocates.

/// java.lang.Long.parseLong restricted to [min, max]: `[+-]?[0-9]+`, no whitespace.
/// (Java also accepts non-ASCII Unicode digits; these are rejected here.)
bool parse_java_integer(std::string_view s, int64_t min, int64_t max, int64_t* out);

/// java.lang.Double.parseDouble: surrounding characters <= ' ' are ignored; `NaN`,
/// `Infinity` (optionally signed), decimal (`1`, `1.`, `.5`, `1e-3`) and hexadecimal
/// (`0x1.8p3`) forms, optionally followed by one of `fFdD`. Correctly rounded.
bool parse_java_double(std::string_view s, double* out);
/// java.lang.Float.parseFloat: the same syntax, rounded once to float.
bool parse_java_float(std::string_view s, float* out);

/// Scala's String.toBoolean: `true` or `false`, any case, nothing else.
bool parse_java_boolean(std::string_view s, bool* out);

/// What java.math.BigDecimal(String) makes of a string: `[+-]?(digits[.digits]|.digits)
/// ([eE][+-]?digits)?`. `precision` is the number of digits of the unscaled value (leading
/// zeros dropped, at least 1), `scale` the number of fraction digits minus the exponent.
struct DecimalText {
  bool negative = false;
  std::string_view digits;  // the significand's digits, '.' removed logically (see below)
  int int_digits = 0;       // digits before the point in `digits` (the rest follow it)
  int64_t exponent = 0;
  int precision = 0;
  int64_t scale = 0;
};
bool parse_big_decimal(std::string_view s, DecimalText* out);

/// The unscaled value of `s` at `scale`, rounded HALF_UP as Spark's Decimal.set does; false
/// when `s` is not a BigDecimal string or the result needs more than `precision` digits.
/// With `strip_commas` (Spark's default-locale decimal parser) ',' characters are ignored.
bool parse_decimal(std::string_view s, int precision, int scale, bool strip_commas, int128_t* out);

/// Rewrites a number written with a locale's symbols (java.text.DecimalFormat's parsing: an
/// optional minus sign, digits with grouping separators, one decimal separator, an optional
/// exponent) as plain `[-]digits[.digits][E[-]digits]`; false when `s` is not such a number.
bool locale_number_text(std::string_view s, const LocaleData& locale, std::string* out);
/// A DECIMAL(precision, scale) from text as Spark's decimal parser for a `locale` option reads
/// it (ExprUtils.getDecimalParser): en-US drops grouping commas, other locales read their own
/// grouping and decimal separators.
bool parse_locale_decimal(std::string_view s, const LocaleData& locale, int precision, int scale, int128_t* out);

}  // namespace ember::io
