#include <cub/cub.cuh>

// One partial sum per block with cub::BlockReduce.
template <int BLOCK_THREADS>
__global__ void block_sums(const float *in, float *out, int n)
{
    typedef cub::BlockReduce<float, BLOCK_THREADS> BlockReduceT;
    __shared__ typename BlockReduceT::TempStorage temp_storage;
    int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float sum = BlockReduceT(temp_storage).Sum(v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

template <int BLOCK_THREADS>
__global__ void block_max(const int *in, int *out)
{
    using Reduce = cub::BlockReduce<int, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename Reduce::TempStorage tmp;
    int m = Reduce(tmp).Reduce(in[threadIdx.x], cub::Max());
    if (threadIdx.x == 0)
        *out = m;
}

template __global__ void block_sums<256>(const float *, float *, int);
