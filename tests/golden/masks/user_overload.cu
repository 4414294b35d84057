// A library's own overload of a shuffle intrinsic for a type of its own
// (pytorch_scatter's utils.cuh does this for at::Half): its name is the
// user's and stays; the CUDA calls inside it and elsewhere are ported.
struct Pair {
    float a, b;
};

__device__ __inline__ Pair __shfl_down_sync(const unsigned mask, const Pair var, const unsigned int delta) {
    return Pair{__shfl_down_sync(mask, var.a, delta), __shfl_down_sync(mask, var.b, delta)};
}

__global__ void reduce(float *f) {
    f[threadIdx.x] += __shfl_down_sync(0xffffffffu, f[threadIdx.x], 1);
}
