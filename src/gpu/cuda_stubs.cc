// The CUDA-dependent entry points of the gpu layer for builds without CUDA: nothing can run, and
// the runtime reports why. The planner never places work on the GPU in such a build.

#if !defined(EMBER_WITH_CUDA)

#include "gpu/error.h"
#include "gpu/fused_aggregate.h"
#include "gpu/join_probe.h"
#include "gpu/memory.h"
#include "gpu/radix_sort.h"
#include "gpu/runtime.h"

namespace ember::gpu {
namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw GpuError(what, "cudaErrorNoDevice", "built without CUDA", false);
}
}  // namespace

Stream::Stream() { no_cuda("cudaStreamCreate"); }
Stream::~Stream() = default;
void Stream::synchronize() const { no_cuda("cudaStreamSynchronize"); }

void* DeviceMemoryPool::allocate(size_t, const Stream&) { no_cuda("cudaMallocAsync"); }
void DeviceMemoryPool::free(void*, size_t, const Stream&) {}

namespace detail {
void* alloc_pinned(size_t) { return nullptr; }
void free_pinned(void*) {}
}  // namespace detail

void copy_to_device(void*, const void*, size_t, const Stream&) { no_cuda("cudaMemcpyAsync"); }
void copy_to_host(void*, const void*, size_t, const Stream&) { no_cuda("cudaMemcpyAsync"); }
void fill_device(void*, int, size_t, const Stream&) { no_cuda("cudaMemsetAsync"); }

Runtime* Runtime::get(const GpuSettings&) { return nullptr; }
Runtime* Runtime::started() { return nullptr; }
std::string Runtime::unavailable_reason() { return device_info().reason; }
void Runtime::disable(const std::string&) {}

GroupTable::GroupTable(const AggregateLayout&, uint64_t, DeviceMemoryPool&, const Stream&) {
  no_cuda("GroupTable");
}
uint64_t GroupTable::size(const Stream&) const { return 0; }
void GroupTable::reset(const Stream&) {}
void GroupTable::merge_from(GroupTable&, const Stream&) {}
bool GroupTable::reserve_strings(uint64_t, uint64_t, const Stream&) { return false; }
GroupTable::Counters GroupTable::read_counters(const Stream&) const { return {}; }
TableRows GroupTable::download(const Stream&) const { return {}; }
size_t GroupTable::bytes() const { return 0; }

KernelProgram::KernelProgram(const Program&, const AggregateLayout&, DeviceMemoryPool&,
                             const Stream&) {
  no_cuda("KernelProgram");
}
GroupTable::Counters aggregate_range(const KernelProgram&, const RangeRows&, GroupTable&, Runtime&,
                                     const Stream&) {
  no_cuda("aggregate_range");
}
GroupTable::Counters aggregate_batch(const KernelProgram&, const BatchRows&, GroupTable&, Runtime&,
                                     const Stream&) {
  no_cuda("aggregate_batch");
}
double measure_copy_bandwidth(size_t, int, Runtime&) { no_cuda("measure_copy_bandwidth"); }
double measure_upload_bandwidth(size_t, int, Runtime&) { no_cuda("measure_upload_bandwidth"); }
std::vector<int32_t> sort_permutation(const std::vector<SortColumn>&, int64_t, DeviceMemoryPool&,
                                      const Stream&) {
  no_cuda("sort_permutation");
}

DeviceJoinIndex::DeviceJoinIndex(const exec::JoinHashTable::IntIndex&, DeviceMemoryPool&,
                                 const Stream&) {
  no_cuda("DeviceJoinIndex");
}
DeviceJoinIndex::~DeviceJoinIndex() = default;
bool DeviceJoinIndex::gathers(const DataType&) { return false; }
void DeviceJoinIndex::probe(const int64_t*, int64_t, const exec::JoinProbeRequest&,
                            const std::vector<const DeviceColumn*>&, DeviceMemoryPool&,
                            const Stream&, exec::JoinProbeResult&, PinnedPool*) const {
  no_cuda("DeviceJoinIndex::probe");
}

}  // namespace ember::gpu

#endif  // !defined(EMBER_WITH_CUDA)
