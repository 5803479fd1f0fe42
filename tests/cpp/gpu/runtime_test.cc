// The device runtime: memory pools and their accounting, pinned staging, host <-> device column
// copies, the task semaphore and `ember doctor`'s report.

#include "gpu/runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "gpu/device_column.h"
#include "gpu/error.h"
#include "gpu/memory.h"
#include "gpu_test_util.h"

namespace ember::gpu {
namespace {

TEST(DoctorReport, DescribesTheGpuOrWhyNot) {
  std::string report = doctor_report();
  EXPECT_NE(report.find("build:"), std::string::npos) << report;
  EXPECT_NE(report.find("status:"), std::string::npos) << report;
  if (!device_info().available) {
    EXPECT_NE(report.find("not usable"), std::string::npos) << report;
  }
}

TEST(TaskSemaphore, AdmitsUpToTheLimit) {
  TaskSemaphore s;
  s.acquire(2);
  s.acquire(2);
  EXPECT_EQ(s.active(), 2);
  std::atomic<bool> third{false};
  std::thread t([&] {
    s.acquire(2);
    third = true;
    s.release();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(third.load());
  s.release();
  t.join();
  EXPECT_TRUE(third.load());
  s.release();
  EXPECT_EQ(s.active(), 0);
}

TEST(TaskSemaphore, TryAcquireTakesOnlyAFreePermit) {
  TaskSemaphore s;
  EXPECT_TRUE(s.try_acquire(2));
  EXPECT_TRUE(s.try_acquire(2));
  EXPECT_FALSE(s.try_acquire(2));
  EXPECT_EQ(s.active(), 2);
  s.release();
  EXPECT_TRUE(s.try_acquire(2));
  s.release();
  s.release();
  EXPECT_EQ(s.active(), 0);
}

TEST(DeviceMemoryPool, AccountsAndRefusesPastItsLimit) {
  EMBER_REQUIRE_GPU();
  Runtime* rt = Runtime::get(read_settings(Config()));
  ASSERT_NE(rt, nullptr);
  Stream stream;
  int64_t before = rt->device_pool().used();
  {
    DeviceMemoryPool query("query", &rt->device_pool(), 1 << 20);
    DeviceBuffer a(1000, query, stream);
    EXPECT_EQ(query.used(), 1024);  // 256-byte granules
    EXPECT_EQ(rt->device_pool().used(), before + 1024);
    {
      DeviceBuffer b(512 << 10, query, stream);
      EXPECT_EQ(query.used(), 1024 + (512 << 10));
      EXPECT_THROW(DeviceBuffer(600 << 10, query, stream), GpuOutOfMemory);
      EXPECT_EQ(query.used(), 1024 + (512 << 10));  // a refused allocation leaves no trace
    }
    EXPECT_EQ(query.used(), 1024);
    EXPECT_EQ(query.peak(), 1024 + (512 << 10));
    DeviceBuffer moved = std::move(a);
    EXPECT_EQ(query.used(), 1024);
  }
  stream.synchronize();
  EXPECT_EQ(rt->device_pool().used(), before);
}

// More than the device holds fails cleanly, without disabling the GPU. (compute-sanitizer
// reports the refused cudaMallocAsync as an API error, so its run leaves this test out.)
TEST(DeviceMemoryPool, DeviceExhaustionIsAnError) {
  EMBER_REQUIRE_GPU();
  ASSERT_NE(Runtime::get(read_settings(Config())), nullptr);
  Stream stream;
  DeviceMemoryPool unlimited("huge", nullptr, 0);
  EXPECT_THROW(DeviceBuffer(size_t{1} << 50, unlimited, stream), GpuOutOfMemory);
  EXPECT_EQ(Runtime::unavailable_reason(), "");
}

TEST(PinnedPool, HandsOutAndCoalescesBlocks) {
  EMBER_REQUIRE_GPU();
  PinnedPool pool(1 << 20);
  void* a = pool.allocate(1000);
  void* b = pool.allocate(300 << 10);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(pool.used(), 1024u + (300u << 10));
  EXPECT_EQ(pool.allocate(1 << 20), nullptr);  // does not fit: callers copy from pageable memory
  pool.free(a);
  pool.free(b);
  EXPECT_EQ(pool.used(), 0u);
  void* all = pool.allocate(1 << 20);
  EXPECT_NE(all, nullptr);
  pool.free(all);
  PinnedPool none(0);
  EXPECT_EQ(none.allocate(16), nullptr);
}

ColumnPtr random_column(const TypePtr& type, int64_t n, std::mt19937_64& rng, bool nulls) {
  ColumnBuilder b(type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && rng() % 5 == 0) {
      b.append_null();
      continue;
    }
    int64_t r = static_cast<int64_t>(rng());
    switch (type->id()) {
      case TypeId::kBoolean:
        b.append_bool(r & 1);
        break;
      case TypeId::kByte:
        b.append<int8_t>(static_cast<int8_t>(r));
        break;
      case TypeId::kShort:
        b.append<int16_t>(static_cast<int16_t>(r));
        break;
      case TypeId::kInt:
      case TypeId::kDate:
        b.append<int32_t>(static_cast<int32_t>(r));
        break;
      case TypeId::kLong:
      case TypeId::kTimestamp:
        b.append<int64_t>(r);
        break;
      case TypeId::kFloat:
        b.append<float>(static_cast<float>(r) / 3.0f);
        break;
      case TypeId::kDouble:
        b.append<double>(i % 17 == 0 ? NAN : static_cast<double>(r) / 7.0);
        break;
      case TypeId::kString:
        b.append_bytes(
            std::string(static_cast<size_t>(r & 15), static_cast<char>('a' + (r >> 8) % 26)));
        break;
      default:
        break;
    }
  }
  return b.finish();
}

TEST(DeviceColumn, RoundTripsEveryLayout) {
  EMBER_REQUIRE_GPU();
  Runtime* rt = Runtime::get(read_settings(Config()));
  ASSERT_NE(rt, nullptr);
  Stream stream;
  PinnedPool pinned(4 << 20);
  std::mt19937_64 rng(11);
  for (TypePtr type : {DataType::boolean(), DataType::byte(), DataType::short_(), DataType::int_(),
                       DataType::long_(), DataType::float_(), DataType::double_(), DataType::date(),
                       DataType::timestamp(), DataType::string()}) {
    for (int64_t n : {0, 1, 7, 64, 1000, 70000}) {
      for (bool nulls : {false, true}) {
        SCOPED_TRACE(type->simple_string() + " rows=" + std::to_string(n) +
                     " nulls=" + std::to_string(nulls));
        ColumnPtr in = random_column(type, n, rng, nulls);
        DeviceColumn d = to_device(*in, rt->device_pool(), stream, n % 2 ? &pinned : nullptr);
        ColumnPtr out = to_host(d, stream);
        ASSERT_EQ(out->length(), n);
        EXPECT_EQ(out->null_count(), in->null_count());
        for (int64_t i = 0; i < n; ++i)
          ASSERT_TRUE(out->value_at(i) == in->value_at(i) ||
                      (type->id() == TypeId::kDouble && std::isnan(in->values<double>()[i])))
              << i;
      }
    }
  }
  EXPECT_EQ(pinned.used(), 0u);
  ColumnBuilder nested(DataType::array(DataType::int_()), 0);
  EXPECT_THROW(to_device(*nested.finish(), rt->device_pool(), stream), SparkError);
}

}  // namespace
}  // namespace ember::gpu
