// Scoped atomics (_block, _system) and libcu++ atomics: counters, host
// signalling, ticket locks.
#include <cuda_runtime.h>
#include <cuda/atomic>

// Per-block hit counts with block-scoped atomics on shared memory.
__global__ void count_matches(const int *__restrict__ keys, int key, int *block_hits,
                              int *block_max, int n)
{
  __shared__ int s_hits;
  __shared__ int s_max;
  if (threadIdx.x == 0) {
    s_hits = 0;
    s_max = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (keys[i] == key) {
      atomicAdd_block(&s_hits, 1); // expect: ATOM-003
      atomicMax_block(&s_max, i); // expect: ATOM-003
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    block_hits[blockIdx.x] = s_hits;
    block_max[blockIdx.x] = s_max;
  }
}

// Signals the host through mapped pinned memory (system scope).
__global__ void signal_host(int *host_flag, unsigned int *host_done)
{
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    __threadfence_system();
    atomicExch_system(host_flag, 1); // expect: ATOM-003
  }
  if (threadIdx.x == 0) atomicInc_system(host_done, 0xffffffffu); // expect: ATOM-003
}

// Work distribution with a libcu++ atomic reference on a plain int.
__global__ void take_tickets(int *counter, int *tickets, int n)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> next(*counter); // expect: ATOM-006
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    tickets[i] = next.fetch_add(1);
}

// A device-scope atomic object in global memory, passed by pointer.
__global__ void bump_generation(cuda::atomic<unsigned, cuda::thread_scope_device> *generation) // expect: ATOM-006
{
  if (blockIdx.x == 0 && threadIdx.x == 0) generation->fetch_add(1u);
}

// The same ticket counter with a plain int atomic: no finding.
__global__ void take_tickets_plain(int *counter, int *tickets, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    tickets[i] = atomicAdd(counter, 1);
}
