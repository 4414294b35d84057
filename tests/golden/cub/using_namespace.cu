#include <cub/cub.cuh>

using namespace cub;

// Warp-level sum; the names come in through the using-directive.
__global__ void warp_sums(const float *in, float *out)
{
    typedef WarpReduce<float> WarpReduceT;
    __shared__ typename WarpReduceT::TempStorage tmp[4];
    int warp = threadIdx.x / 32;
    float s = WarpReduceT(tmp[warp]).Sum(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0)
        out[warp] = s;
}
