// Fuzz target: the Parquet reading path (footer, schema mapping, decoding through Arrow, the
// conversion into Ember columns) on arbitrary bytes; the corpus starts from valid files.

#include "fuzz_input.h"
#include "io/parquet_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ember::fuzz::read_file_of_format(data, size, "parquet", ember::io::open_parquet_reader);
}
