// Kernel file with Windows line endings and no runtime header.
#include <cstdio>

__global__ void k(float *p) { p[0] = 1.0f; }
