#include "udf/gpu_slots.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace ember::udf {
namespace {

bool whole(double v) { return std::fabs(v - std::round(v)) < 1e-9; }

/// Slots per GPU for tasks asking for `amount` (< 1: 1 / amount; >= 1: one, and the task takes
/// `amount` GPUs).
int slots_per_gpu(double amount) { return amount < 1 ? static_cast<int>(std::round(1 / amount)) : 1; }

}  // namespace

void GpuSlots::validate(double amount, size_t gpus) {
  auto bad = [&](const std::string& why) {
    throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE",
                     "The value '" + std::to_string(amount) + "' in the config \"spark.task.resource.gpu.amount\" is invalid. " + why,
                     {{"confValue", std::to_string(amount)}, {"confName", "spark.task.resource.gpu.amount"}}, "22022");
  };
  if (!(amount > 0)) bad("It must be greater than 0.");
  if (amount < 1 && !whole(1 / amount)) bad("A fraction must divide 1 (0.5, 0.25, ...).");
  if (amount > 1 && !whole(amount)) bad("An amount above 1 must be a whole number of GPUs.");
  if (amount > 1 && static_cast<size_t>(std::round(amount)) > gpus)
    bad("Each task would need " + std::to_string(static_cast<int>(std::round(amount))) + " GPUs, but there are " +
        std::to_string(gpus) + ".");
}

GpuSlots::Lease::Lease(Lease&& other) noexcept { *this = std::move(other); }

GpuSlots::Lease& GpuSlots::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    if (owner_) owner_->release(*this);
    owner_ = other.owner_;
    taken_ = std::move(other.taken_);
    addresses_ = std::move(other.addresses_);
    other.owner_ = nullptr;
  }
  return *this;
}

GpuSlots::Lease::~Lease() {
  if (owner_) owner_->release(*this);
}

GpuSlots::Lease GpuSlots::acquire(double amount, const std::vector<std::string>& addresses) {
  validate(amount, addresses.size());
  const int per_gpu = slots_per_gpu(amount);
  const size_t gpus_needed = amount > 1 ? static_cast<size_t>(std::round(amount)) : 1;
  std::unique_lock<std::mutex> lock(mu_);
  if (addresses != addresses_ || per_gpu != per_gpu_) {
    // New settings: wait for the tasks of the old ones to finish, then switch.
    freed_.wait(lock, [&] { return running_ == 0; });
    addresses_ = addresses;
    per_gpu_ = per_gpu;
    used_.assign(addresses.size(), 0);
  }
  Lease lease;
  freed_.wait(lock, [&] {
    if (addresses != addresses_ || per_gpu != per_gpu_) return running_ == 0;
    size_t free_gpus = 0;
    for (int u : used_) free_gpus += u < per_gpu_ ? 1 : 0;
    return free_gpus >= gpus_needed;
  });
  if (addresses != addresses_ || per_gpu != per_gpu_) {
    addresses_ = addresses;
    per_gpu_ = per_gpu;
    used_.assign(addresses.size(), 0);
  }
  // The least used GPUs first, so that fractional tasks spread over the devices.
  std::vector<size_t> order(used_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return used_[a] < used_[b]; });
  for (size_t i : order) {
    if (lease.taken_.size() == gpus_needed) break;
    if (used_[i] >= per_gpu_) continue;
    ++used_[i];
    lease.taken_.push_back(i);
    lease.addresses_.push_back(addresses_[i]);
  }
  lease.owner_ = this;
  ++running_;
  return lease;
}

void GpuSlots::release(Lease& lease) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i : lease.taken_)
      if (i < used_.size()) --used_[i];
    --running_;
  }
  lease.owner_ = nullptr;
  freed_.notify_all();
}

int GpuSlots::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

GpuSlots& process_gpu_slots() {
  static GpuSlots slots;
  return slots;
}

}  // namespace ember::udf
