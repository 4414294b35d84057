// LAUNCH-001: kernels launched from device code (dynamic parallelism, as the
// CUDA books' quicksort and recursion samples do); host launches are fine.
__global__ void child(int *data, int n)
{
  if (threadIdx.x < n)
    data[threadIdx.x] += 1;
}

__global__ void parent(int *data, int n)
{
  child<<<1, n>>>(data, n); // expect: LAUNCH-001
  cudaDeviceSynchronize();
}

template <int depth>
__device__ void recurse(int *data)
{
  if (depth > 0)
    child<<<1, 32, 0, cudaStreamTailLaunch>>>(data, 32); // expect: LAUNCH-001
}

__host__ __device__ int twice(int x) { return 2 * x; }

void host_launch(int *data)
{
  parent<<<1, 1>>>(data, 32);
  cudaDeviceSynchronize();
}
