#include <cuda_runtime.h>

// The C++ overload cudaEventCreate(event, flags) is cudaEventCreateWithFlags.
void make_events(cudaEvent_t *timing, cudaEvent_t *sync_only)
{
    cudaEventCreate(timing);
    cudaEventCreate(sync_only, cudaEventDisableTiming);
}
