#include <algorithm>
#include <cuda_runtime.h>

__global__ void tile(float *m, int w, int h);

static dim3 grid_for(int w, int h) { return dim3((w + 15) / 16, (h + 15) / 16); }

void launch_tiles(float *m, int w, int h)
{
    dim3 grid((w + 15) / 16, (h + 15) / 16), block(16, 16);
    tile<<<grid, block>>>(m, w, h);
    tile<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(m, w, h);
    tile<<<dim3(std::min(w, 1024) / 16, (h + 15) / 16, 1), std::min(w, 256)>>>(m, w, h);
    tile<<<grid_for(w, h), dim3(16, 16, 1)>>>(m, w, h);
    tile<<<std::max<int>(1, w / 256), 256, 16 * 16 * sizeof(float)>>>(m, w, h);
}
