// Memory kinds: managed memory (allocated and __managed__), float atomics on
// it, plain device memory, pinned staging buffers, and peer copies.
#include <cuda_runtime.h>
#include <cstdio>

__device__ __managed__ float g_last_loss; // expect: MEM-001
__device__ __managed__ int g_steps; // expect: MEM-001

// Records the loss of the last sample and counts steps in managed variables.
__global__ void record_loss(const float *__restrict__ loss, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == n - 1) atomicExch(&g_last_loss, loss[i]); // expect: ATOM-004
  if (i == 0) atomicAdd(&g_steps, 1);
}

// Drains a managed accumulator that the host also reads between launches.
__global__ void drain_pending(float *pending, float *drained, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) drained[i] += atomicExch(&pending[i], 0.0f); // expect: ATOM-004
}

// Gradient accumulation into a managed buffer that the optimizer reads on the
// host: the managed-memory warning replaces the fp-atomic note.
__global__ void accumulate_grad(const float *__restrict__ grad, const int *__restrict__ slot,
                                float *grad_acc, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&grad_acc[slot[i]], grad[i]); // expect: ATOM-004
}

// Sum of squares into plain device memory (cudaMalloc): only the fp note.
__global__ void sum_squares(const float *__restrict__ x, float *dev_sum, int n)
{
  __shared__ float s_part[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s_part[threadIdx.x] = i < n ? x[i] * x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) s_part[threadIdx.x] += s_part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(dev_sum, s_part[0]); // expect: ATOM-005
}

int run_step(const float *h_x, int n)
{
  const size_t bytes = n * sizeof(float);
  float *pending = nullptr;
  float *drained = nullptr;
  float *d_x = nullptr;
  float *dev_sum = nullptr;
  float *h_staging = nullptr;
  float *grad_acc = nullptr;
  int *d_slot = nullptr;
  cudaMallocManaged(&pending, bytes); // expect: MEM-001
  cudaMallocManaged(&grad_acc, 64 * sizeof(float)); // expect: MEM-001
  cudaMalloc(&d_slot, n * sizeof(int));
  cudaMemset(d_slot, 0, n * sizeof(int));
  cudaMalloc(&drained, bytes);
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&dev_sum, sizeof(float));
  cudaMallocHost(&h_staging, bytes);
  for (int i = 0; i < n; ++i) h_staging[i] = h_x[i];
  cudaMemcpy(d_x, h_staging, bytes, cudaMemcpyHostToDevice);
  cudaMemset(drained, 0, bytes);
  cudaMemset(dev_sum, 0, sizeof(float));
  for (int i = 0; i < n; ++i) pending[i] = 1.0f;

  const int blocks = (n + 255) / 256;
  record_loss<<<blocks, 256>>>(d_x, n);
  drain_pending<<<blocks, 256>>>(pending, drained, n);
  sum_squares<<<blocks, 256>>>(d_x, dev_sum, n);
  accumulate_grad<<<blocks, 256>>>(d_x, d_slot, grad_acc, n);
  cudaDeviceSynchronize();
  printf("steps %d, last loss %f, pending[0] %f, grad %f\n", g_steps, g_last_loss, pending[0], grad_acc[0]);

  cudaFree(pending);
  cudaFree(drained);
  cudaFree(d_x);
  cudaFree(dev_sum);
  cudaFree(grad_acc);
  cudaFree(d_slot);
  cudaFreeHost(h_staging);
  return 0;
}

// Copies a shard from device 0 to device 1 over the peer link.
int copy_shard_to_peer(const float *src_dev0, float *dst_dev1, size_t bytes, cudaStream_t stream)
{
  cudaSetDevice(1);
  if (cudaDeviceEnablePeerAccess(0, 0) == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError(); // expect: MEM-003
  cudaSetDevice(0);
  cudaMemcpyPeerAsync(dst_dev1, 1, src_dev0, 0, bytes, stream); // expect: MEM-003
  cudaStreamSynchronize(stream);
  cudaMemcpyPeer(dst_dev1, 1, src_dev0, 0, bytes); // expect: MEM-003
  return 0;
}
