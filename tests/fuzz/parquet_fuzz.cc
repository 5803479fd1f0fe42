// Fuzz target: the Parquet reading path (footer, schema mapping, decoding through Arrow, the
// conversion into Ember columns) on arbitrary bytes; the corpus starts from valid files.

#include "common/config.h"
#include "fuzz_input.h"
#include "io/parquet_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember;
  static const Config conf;
  io::ReadRequest request;
  request.format = "parquet";
  request.config = &conf;
  request.paths = {fuzz::write_input(data, size, "parquet")};
  fuzz::read_all(request, io::open_parquet_reader);
  return 0;
}
