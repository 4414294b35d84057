#include <cuda_runtime.h>

__constant__ float coef[16];
__device__ float result[16];

// Graph nodes that copy to and from a symbol: the symbol argument is wrapped
// in HIP_SYMBOL, at its place in each call, as for cudaMemcpyToSymbol.
void build(cudaGraph_t graph, cudaGraphExec_t exec, cudaGraphNode_t *to, cudaGraphNode_t *from,
           const float *host, float *back)
{
    cudaGraphAddMemcpyNodeToSymbol(to, graph, nullptr, 0, coef, host, sizeof(coef), 0, cudaMemcpyHostToDevice);
    cudaGraphAddMemcpyNodeFromSymbol(from, graph, to, 1, back, result, sizeof(result), 0, cudaMemcpyDeviceToHost);
    cudaGraphMemcpyNodeSetParamsToSymbol(*to, coef, host, sizeof(coef), 0, cudaMemcpyHostToDevice);
    cudaGraphMemcpyNodeSetParamsFromSymbol(*from, back, result, sizeof(result), 0, cudaMemcpyDeviceToHost);
    cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, *to, coef, host, sizeof(coef), 0, cudaMemcpyHostToDevice);
    cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, *from, back, result, sizeof(result), 0, cudaMemcpyDeviceToHost);
}
