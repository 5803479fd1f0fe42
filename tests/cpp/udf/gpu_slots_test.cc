#include "udf/gpu_slots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "common/error.h"

namespace ember::udf {
namespace {

/// Runs `tasks` tasks on `threads` threads, each holding a slot for a moment; returns the most
/// tasks that held slots at once, and per address the most tasks that held it at once.
std::pair<int, std::map<std::string, int>> run_tasks(GpuSlots& slots, double amount,
                                                     const std::vector<std::string>& addresses, int threads,
                                                     int tasks) {
  std::mutex mu;
  int now = 0, most = 0;
  std::map<std::string, int> on, most_on;
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      while (next.fetch_add(1) < tasks) {
        GpuSlots::Lease lease = slots.acquire(amount, addresses);
        {
          std::lock_guard<std::mutex> lock(mu);
          most = std::max(most, ++now);
          for (auto& a : lease.addresses()) most_on[a] = std::max(most_on[a], ++on[a]);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        std::lock_guard<std::mutex> lock(mu);
        --now;
        for (auto& a : lease.addresses()) --on[a];
      }
    });
  for (auto& t : pool) t.join();
  return {most, most_on};
}

TEST(GpuSlots, AQuarterOfAGpuRunsFourTasksAtOnce) {
  GpuSlots slots;
  auto [most, per_gpu] = run_tasks(slots, 0.25, {"0"}, 12, 120);
  EXPECT_EQ(most, 4);
  EXPECT_EQ(per_gpu["0"], 4);
  EXPECT_EQ(slots.running(), 0);
}

TEST(GpuSlots, FractionsSpreadOverTheGpus) {
  GpuSlots slots;
  auto [most, per_gpu] = run_tasks(slots, 0.5, {"0", "1"}, 10, 100);
  EXPECT_EQ(most, 4);
  EXPECT_EQ(per_gpu["0"], 2);
  EXPECT_EQ(per_gpu["1"], 2);
}

TEST(GpuSlots, WholeAmountsTakeSeveralGpus) {
  GpuSlots slots;
  {
    GpuSlots::Lease lease = slots.acquire(2, {"0", "1", "2"});
    EXPECT_EQ(lease.addresses().size(), 2u);
  }
  auto [most, per_gpu] = run_tasks(slots, 2, {"0", "1", "2", "3"}, 6, 40);
  EXPECT_EQ(most, 2);
  for (auto& [address, n] : per_gpu) EXPECT_EQ(n, 1) << address;
}

TEST(GpuSlots, ALeaseMovesAndReleasesOnce) {
  GpuSlots slots;
  GpuSlots::Lease a = slots.acquire(1, {"0"});
  GpuSlots::Lease b = std::move(a);
  EXPECT_EQ(slots.running(), 1);
  EXPECT_EQ(b.addresses(), std::vector<std::string>{"0"});
  b = GpuSlots::Lease();
  EXPECT_EQ(slots.running(), 0);
  GpuSlots::Lease c = slots.acquire(1, {"0"});  // free again: does not wait
  EXPECT_EQ(slots.running(), 1);
}

TEST(GpuSlots, AmountsSparkRejectsAreErrors) {
  for (double bad : {0.0, -1.0, 0.3, 0.7, 1.5}) {
    try {
      GpuSlots::validate(bad, 4);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const SparkError& e) {
      EXPECT_EQ(e.error_class(), "INVALID_CONF_VALUE") << bad;
    }
  }
  EXPECT_THROW(GpuSlots::validate(3, 2), SparkError);  // more GPUs than there are
  EXPECT_NO_THROW(GpuSlots::validate(0.125, 1));
  EXPECT_NO_THROW(GpuSlots::validate(1, 1));
  EXPECT_NO_THROW(GpuSlots::validate(2, 2));
}

}  // namespace
}  // namespace ember::udf
