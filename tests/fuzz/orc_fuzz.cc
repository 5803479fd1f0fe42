// Fuzz target: the ORC reading path (file tail, schema and type attributes, stripe decoding
// through Arrow's ORC adapter, the conversion into Ember columns) on arbitrary bytes; the corpus
// starts from valid files.

#include "fuzz_input.h"
#include "io/orc_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ember::fuzz::read_file_of_format(data, size, "orc", ember::io::open_orc_reader);
}
