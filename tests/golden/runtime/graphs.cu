#include <cuda_runtime.h>

__global__ void step(float *state, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        state[i] += 0.5f * state[i];
}

// Captures ten steps into a graph once and replays it.
void run_graph(float *d_state, int n, int iters)
{
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaGraph_t graph;
    cudaGraphExec_t instance;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    for (int k = 0; k < 10; ++k)
        step<<<(n + 127) / 128, 128, 0, stream>>>(d_state, n);
    cudaStreamEndCapture(stream, &graph);
    size_t num_nodes = 0;
    cudaGraphGetNodes(graph, NULL, &num_nodes);
    cudaGraphInstantiate(&instance, graph, NULL, NULL, 0);
    for (int it = 0; it < iters; ++it)
        cudaGraphLaunch(instance, stream);
    cudaStreamSynchronize(stream);
    cudaGraphExecDestroy(instance);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
}
