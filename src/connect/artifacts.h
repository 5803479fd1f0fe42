#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ember::connect {

/// CRC-32 (the zlib / IEEE 802.3 polynomial) of `data`, as the client computes for each
/// artifact chunk.
uint32_t crc32(std::string_view data, uint32_t crc = 0);

}  // namespace ember::connect
