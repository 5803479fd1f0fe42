// Fuzz target: the ORC reading path (file tail, schema and type attributes, stripe decoding
// through Arrow's ORC adapter, the conversion into Ember columns) on arbitrary bytes; the corpus
// starts from valid files.

#include "common/config.h"
#include "fuzz_input.h"
#include "io/orc_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember;
  static const Config conf;
  io::ReadRequest request;
  request.format = "orc";
  request.config = &conf;
  request.paths = {fuzz::write_input(data, size, "orc")};
  fuzz::read_all(request, io::open_orc_reader);
  return 0;
}
