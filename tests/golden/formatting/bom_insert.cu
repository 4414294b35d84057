__global__ void k(float *p) { p[threadIdx.x] = 0.0f; }
