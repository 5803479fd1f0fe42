#include "gpu/device.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>

namespace ember::gpu {
namespace {

// Holds on every machine: either a device is found and described, or the
// probe says why not. CI machines have no GPU, so there the second branch
// runs, with or without CUDA compiled in.
TEST(ProbeDevice, DescribesTheDeviceOrExplainsItsAbsence) {
  DeviceInfo info = probe_device();
  std::cout << "probe_device: "
            << (info.available ? info.name + " (sm_" + std::to_string(info.major) +
                                     std::to_string(info.minor) + ")"
                               : "unavailable: " + info.reason)
            << "\n";
  if (info.available) {
    EXPECT_FALSE(info.name.empty());
    EXPECT_GE(info.major, 7);
    EXPECT_GT(info.total_memory, size_t{0});
  } else {
    EXPECT_FALSE(info.reason.empty());
  }
}

#if !defined(EMBER_WITH_CUDA)
TEST(ProbeDevice, ReportsBuildWithoutCuda) {
  DeviceInfo info = probe_device();
  EXPECT_FALSE(info.available);
  EXPECT_EQ(info.reason, "built without CUDA");
}
#endif

// On a GPU host, EMBER_EXPECT_GPU=1 turns a missing device into a failure
// instead of a pass through the "explains its absence" branch.
TEST(ProbeDevice, FindsTheGpuWhenOneIsExpected) {
  const char* expect = std::getenv("EMBER_EXPECT_GPU");
  if (expect == nullptr || std::string(expect) != "1") {
    GTEST_SKIP() << "EMBER_EXPECT_GPU is not 1";
  }
  DeviceInfo info = probe_device();
  EXPECT_TRUE(info.available) << info.reason;
}

// The probe is safe to call repeatedly (it is called by the planner and by
// `ember doctor`).
TEST(ProbeDevice, IsRepeatable) {
  DeviceInfo first = probe_device();
  DeviceInfo second = probe_device();
  EXPECT_EQ(first.available, second.available);
  EXPECT_EQ(first.name, second.name);
}

}  // namespace
}  // namespace ember::gpu
