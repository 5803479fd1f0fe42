// Fuzz target: the JSON reader (JSON Lines and multiLine, schema inference, modes) on arbitrary
// bytes. The first byte chooses the options; the rest is the file.

#include "fuzz_input.h"
#include "io/json_reader.h"
#include "types/data_type.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember;
  if (size < 1) return 0;
  const uint8_t a = data[0];
  io::ReadRequest request = fuzz::request_for("json", data + 1, size - 1);
  io::Options& o = request.options;
  o.set("multiLine", a & 1 ? "true" : "false");
  static const char* kModes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST", "PERMISSIVE"};
  o.set("mode", kModes[(a >> 1) & 3]);
  if (a & 8) o.set("primitivesAsString", "true");
  if (a & 16) o.set("allowComments", "true");
  if (a & 32) o.set("allowSingleQuotes", "false");
  if (a & 64) {
    o.set("columnNameOfCorruptRecord", "_corrupt_record");
    request.user_schema = parse_ddl_schema(
        "a INT, b DOUBLE, c STRING, d ARRAY<BIGINT>, e STRUCT<x: STRING, y: BOOLEAN>, "
        "f MAP<STRING, INT>, g TIMESTAMP, _corrupt_record STRING");
  }
  fuzz::read_all(request, io::open_json_reader);
  return 0;
}
