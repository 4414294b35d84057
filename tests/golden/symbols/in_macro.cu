#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess)                                              \
            fprintf(stderr, "%s\n", cudaGetErrorString(e_));                \
    } while (0)

struct Params { int n; float scale; };
__constant__ Params c_params;
namespace cfg { __constant__ int c_mode; }

void set_params(int n, float scale, int mode)
{
    Params p = { n, scale };
    CHECK(cudaMemcpyToSymbol(c_params, &p, sizeof(Params)));
    CHECK(cudaMemcpyToSymbol(cfg::c_mode, &mode, sizeof(int)));
    Params back;
    CHECK(cudaMemcpyFromSymbol(&back, c_params, sizeof(back)));
}
