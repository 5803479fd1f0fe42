#pragma once

// Java's StrictMath: the fdlibm 5.3 algorithms, whose results every Java runtime reproduces bit
// for bit. Spark computes exp, expm1, ln, log10, log1p, log2, log(base, x), pow and the
// compositions behind asinh, acosh and atanh with StrictMath, and its asin, acos, atan, atan2,
// sinh, cosh, tanh, cbrt and hypot with java.lang.Math, which delegates those to StrictMath.
// The C library's versions of these functions differ from fdlibm's in the last bit for some
// inputs (exp(1): 2.718281828459045 here, 2.7182818284590455 in Java).
//
// Every function gives the double StrictMath gives for every input, NaNs aside: a NaN result is
// a NaN, but its payload bits may differ. The algorithms need IEEE double arithmetic rounded to
// nearest, operation by operation: the file is compiled without contracting a*b+c into fused
// multiply-adds, which would round once where fdlibm rounds twice.

namespace ember::functions::strict_math {

double exp(double x);
double expm1(double x);
double log(double x);
double log10(double x);
double log1p(double x);

double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
/// The angle of the point (x, y), in (-pi, pi]; note the argument order, y first, as in Java.
double atan2(double y, double x);

double sinh(double x);
double cosh(double x);
double tanh(double x);

double cbrt(double x);
double pow(double x, double y);
double hypot(double x, double y);

}  // namespace ember::functions::strict_math
