// The driver's error strings, as NVIDIA's cuda-vmm sample checks its calls:
// HIP 5.2 has no hipDrvGetErrorString, so the runtime's string is written
// through the pointer the driver call takes.
#include <cuda.h>
#include <iostream>

static void check(CUresult res, const char *what)
{
    if (res != CUDA_SUCCESS) {
        const char *name = NULL, *text = NULL;
        (void)cuGetErrorName(res, &name);
        cuGetErrorString(res, &text);
        std::cerr << what << " failed: " << name << ": " << text << std::endl;
    }
}

int main()
{
    check(cuInit(0), "cuInit");
    return 0;
}
