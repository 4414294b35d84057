#include <cuda_runtime.h>

// Experimental is decided first: without --experimental that is what is reported,
// even for a target older than the mapping.
void flags_of(cudaGraphExec_t exec, unsigned long long *flags)
{
    cudaGraphExecGetFlags(exec, flags);
}
