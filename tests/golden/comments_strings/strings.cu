#include "cuda_runtime.h"
#include <cstdio>

static const char *kBanner = "cudaMalloc/cudaFree wrapper (cuda_runtime.h)";
static const char kSep = '<';
static const char *kLaunch = "k<<<1, 1>>>()";
static const wchar_t *kWide = L"cudaStream_t";
static const char *kUtf8 = u8"cudaEvent_t \u00b5s";
static const char *kRaw = R"cuda(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost);
"quoted" cudaSuccess)cuda";

void report(cudaError_t e)
{
    if (e != cudaSuccess)
        printf("%s: cudaGetLastError() said %s%c\n", kBanner, cudaGetErrorString(e), kSep);
    printf("%s %ls %s %s\n", kLaunch, kWide, kUtf8, kRaw);
}
