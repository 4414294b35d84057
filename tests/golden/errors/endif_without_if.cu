#include <cuda_runtime.h>
void sync() { cudaDeviceSynchronize(); }
#endif
