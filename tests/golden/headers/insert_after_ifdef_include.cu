#ifdef USE_MPI
#include <mpi.h>
#endif
#include <cstdio>

__global__ void mark(int *flags, int rank) { flags[threadIdx.x] = rank; }
