#include <cuda.h>
#include <stdio.h>

static int check(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return 0;
    const char *msg = NULL;
    cuGetErrorString(r, &msg);
    fprintf(stderr, "%s: %s\n", what, msg ? msg : "unknown");
    return r == CUDA_ERROR_NOT_INITIALIZED ? 2 : 1;
}

int copy_back(CUdeviceptr src, float *dst, size_t bytes)
{
    CUstream stream;
    CUevent begin, end;
    float ms;
    if (check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "stream"))
        return 1;
    cuEventCreate(&begin, CU_EVENT_DEFAULT);
    cuEventCreate(&end, CU_EVENT_DEFAULT);
    cuEventRecord(begin, stream);
    cuMemsetD32(src, 0, bytes / 4);
    cuMemcpyDtoHAsync(dst, src, bytes, stream);
    cuEventRecord(end, stream);
    cuStreamSynchronize(stream);
    cuEventElapsedTime(&ms, begin, end);
    printf("copy took %.3f ms\n", ms);
    return check(cuStreamDestroy(stream), "destroy");
}
