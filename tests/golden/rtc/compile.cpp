#include <nvrtc.h>
#include <cstdio>
#include <string>
#include <vector>

static const char *kSource = R"(
extern "C" __global__ void saxpy(float a, float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

// Runtime compilation: program, options, log, PTX, lowered names.
bool compile_saxpy(std::string &code)
{
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, kSource, "saxpy.cu", 0, NULL, NULL);
    const char *opts[] = { "--gpu-architecture=compute_80", "-default-device" };
    nvrtcResult res = nvrtcCompileProgram(prog, 2, opts);
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::vector<char> log(log_size);
    nvrtcGetProgramLog(prog, log.data());
    if (res != NVRTC_SUCCESS) {
        std::fprintf(stderr, "%s\n%s\n", nvrtcGetErrorString(res), log.data());
        nvrtcDestroyProgram(&prog);
        return false;
    }
    size_t size = 0;
    nvrtcGetPTXSize(prog, &size);
    code.resize(size);
    nvrtcGetPTX(prog, &code[0]);
    return nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS;
}
