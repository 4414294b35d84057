#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup_states(curandState *states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

// Monte Carlo estimate of pi: one state per thread, copied to registers.
__global__ void count_inside(curandState *states, int samples, unsigned int *hits)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int inside = 0;
    for (int s = 0; s < samples; ++s) {
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        if (x * x + y * y <= 1.0f)
            ++inside;
    }
    float jitter = curand_normal(&local);
    (void)jitter;
    unsigned int raw = curand(&local);
    (void)raw;
    states[id] = local;
    atomicAdd(hits, inside);
}

void estimate(curandState_t *d_states, unsigned int *d_hits)
{
    setup_states<<<64, 128>>>(d_states, 1234ULL);
    count_inside<<<64, 128>>>(d_states, 1000, d_hits);
}
