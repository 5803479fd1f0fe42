#pragma once

// The ICU collators behind the ICU family of collations (types/collation.h), for code that
// searches text with them (usearch). Only builds with ICU (EMBER_HAVE_ICU) declare them.

#ifdef EMBER_HAVE_ICU
#include <unicode/ucol.h>

#include "types/collation.h"

namespace ember {

/// The collator of an ICU-family collation, set to the collation's strength (tertiary, secondary
/// for _CI, primary for _AI, with the case level for _CS_AI). One collator per collation and
/// thread, owned by the thread: callers must not close it nor share it with another thread.
UCollator* icu_collator(const Collation& c);

}  // namespace ember
#endif
