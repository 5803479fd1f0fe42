#pragma once

#include <string>

namespace ember {

/// Java's Double.toString / Float.toString, the text Spark writes for floating point values in
/// CSV and JSON files: the shortest digits that read back to the same value (but at least two:
/// the nearest two-digit decimal where one digit would do, 4.9E-324), in plain notation
/// for magnitudes in [1e-3, 1e7) ("0.001", "1234567.0") and scientific otherwise ("1.0E7",
/// "1.5E-4"); "NaN", "Infinity", "-Infinity", "-0.0".
std::string java_double_string(double v);
std::string java_float_string(float v);

}  // namespace ember
