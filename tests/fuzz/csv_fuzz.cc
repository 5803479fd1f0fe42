// Fuzz target: the CSV reader (tokenizer, schema inference, value parsing, modes) on arbitrary
// bytes. The first two bytes choose the options; the rest is the file.

#include "fuzz_input.h"
#include "io/csv_reader.h"
#include "types/data_type.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember;
  if (size < 2) return 0;
  const uint8_t a = data[0], b = data[1];
  io::ReadRequest request = fuzz::request_for("csv", data + 2, size - 2);
  io::Options& o = request.options;
  o.set("header", a & 1 ? "true" : "false");
  o.set("multiLine", a & 2 ? "true" : "false");
  static const char* kModes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST", "PERMISSIVE"};
  o.set("mode", kModes[(a >> 2) & 3]);
  static const char* kSeps[] = {",", ";", "\t", "|", "ab", ",", ",", "::"};
  o.set("sep", kSeps[(a >> 4) & 7]);
  if (a & 0x80) o.set("escape", "'");
  if (b & 1) o.set("quote", "'");
  if (b & 2) o.set("nullValue", "NA");
  if (b & 4) o.set("comment", "#");
  static const char* kEncodings[] = {"UTF-8", "UTF-8", "ISO-8859-1", "UTF-16"};
  o.set("encoding", kEncodings[(b >> 3) & 3]);
  if (b & 0x20) o.set("ignoreLeadingWhiteSpace", "true");
  if (b & 0x40) {
    o.set("columnNameOfCorruptRecord", "_corrupt_record");
    request.user_schema = parse_ddl_schema(
        "a INT, b DOUBLE, c STRING, d DATE, e TIMESTAMP, f DECIMAL(10,2), _corrupt_record STRING");
  } else {
    o.set("inferSchema", b & 0x80 ? "true" : "false");
  }
  fuzz::read_all(request, io::open_csv_reader);
  return 0;
}
