#include <cuda_runtime.h>

template <typename T, int ROWS, int COLS> struct Tile {
    static constexpr int kBlocks = 8;
    static constexpr int kThreads = ROWS * COLS;
};

template <typename T> __global__ void tiled(T *p);

// Commas inside template arguments are not launch-configuration separators.
void run(float *p, cudaStream_t s)
{
    tiled<float><<<Tile<float, 4, 32>::kBlocks, Tile<float, 4, 32>::kThreads, 0, s>>>(p);
}
