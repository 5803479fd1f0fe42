#include "connect/artifacts.h"

#include <array>

namespace ember::connect {

namespace {

std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

}  // namespace

uint32_t crc32(std::string_view data, uint32_t crc) {
  static const std::array<uint32_t, 256> kTable = make_table();
  crc = ~crc;
  for (char ch : data) crc = kTable[(crc ^ static_cast<uint8_t>(ch)) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

}  // namespace ember::connect
