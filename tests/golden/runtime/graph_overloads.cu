// Calls whose HIP form depends on the arguments given (hipify-clang's
// overloads and argument tables).
#include <cuda_runtime.h>

cudaError_t instantiate(cudaGraph_t graph, cudaGraphExec_t *exec, cudaGraphNode_t *bad, char *log)
{
    cudaError_t e = cudaGraphInstantiate(exec, graph, 0, log, 256); // CUDA 11
    if (e != cudaSuccess)
        return e;
    e = cudaGraphInstantiate(exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch);
    if (e != cudaSuccess)
        return e;
    return cudaGraphInstantiate( exec, graph );
}

typedef cudaError_t (*malloc_fn)(void **, size_t);

malloc_fn driver_malloc(void)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;

    if (cudaGetDriverEntryPoint("cuMemAlloc", &fn, 0, &found) != cudaSuccess)
        return nullptr;
    if (cudaGetDriverEntryPoint("cuMemFree", &fn, 0) != cudaSuccess)
        return nullptr;
    return found == cudaDriverEntryPointSuccess ? (malloc_fn)fn : nullptr;
}
