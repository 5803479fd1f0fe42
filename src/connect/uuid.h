#pragma once

#include <string>

namespace ember::connect {

/// A random (version 4) UUID in its canonical 36-character form. Thread-safe.
std::string new_uuid();

/// Whether `s` has the canonical 8-4-4-4-12 hexadecimal form Spark requires of handles.
bool is_uuid(const std::string& s);

}  // namespace ember::connect
