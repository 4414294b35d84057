// A kernel shipped as a string for runtime compilation is data, not code:
// nothing in it is renamed and no runtime header is inserted.
const char *kKernel =
    "#include <cuda_fp16.h>\n"
    "__global__ void k(__half *p) {\n"
    "    p[threadIdx.x] = __float2half(1.0f);\n"
    "    __syncthreads();\n"
    "}\n";

const char kMaskChar = '\x7f';
const char *kPath = "/usr/local/cuda/include/cuda_runtime.h";
