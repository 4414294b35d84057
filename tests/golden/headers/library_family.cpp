// Math-library headers: hipBLAS, hipBLASLt, hipRAND, hipFFT, hipSPARSE,
// hipSOLVER, hipDNN, hipRTC and hipCUB, in the per-library folders.
#include <cublas_v2.h>
#include <cublasLt.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cufft.h>
#include <cufftXt.h>
#include <cusparse.h>
#include <cusolverDn.h>
#include <cudnn.h>
#include <nvrtc.h>
#include <cub/cub.cuh>
#include "my_project/cuda_helpers.h"

int library_count() { return 11; }
