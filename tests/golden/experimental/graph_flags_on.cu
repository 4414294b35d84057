#include <cuda_runtime.h>

// Re-launch an instantiated graph with updated kernel parameters.
cudaError_t relaunch(cudaGraphExec_t exec, cudaGraphNode_t node,
                     cudaKernelNodeParams *params, cudaStream_t s)
{
    unsigned long long flags = 0;
    cudaGraphExecGetFlags(exec, &flags);
    cudaGraphExecKernelNodeSetParams(exec, node, params);
    return cudaGraphLaunch(exec, s);
}
