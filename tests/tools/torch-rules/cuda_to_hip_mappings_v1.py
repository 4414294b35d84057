# A small table in the shape of hipify_torch's (written for this test).
import collections
from .constants import API_PYTORCH, API_C10, API_CAFFE2, API_RUNTIME, CONV_TYPE, CONV_INCLUDE, HIP_UNSUPPORTED

rocm_version = (0, 0, 0)

CUDA_IDENTIFIER_MAP = collections.OrderedDict([
    ("cudaMalloc", ("hipMalloc", API_RUNTIME)),
    ("cudaSomethingNew", ("hipSomethingNew", API_RUNTIME)),
    ("cudaNotThere", ("hipNotThere", API_RUNTIME, HIP_UNSUPPORTED)),
])
CUDA_TYPE_NAME_MAP = collections.OrderedDict([
    ("cudaStream_t", ("hipStream_t", CONV_TYPE, API_RUNTIME)),
])
CUDA_INCLUDE_MAP = collections.OrderedDict([
    ("include <cuda.h", ("include <hip/hip_runtime.h", CONV_INCLUDE, API_RUNTIME)),
    ("cub/warp/warp_reduce.cuh", ("hipcub/hipcub.hpp", CONV_INCLUDE, API_RUNTIME)),
    ("cublas_v2.h", ("rocblas.h" if rocm_version < (5, 2, 0) else "hipblas/hipblas.h", CONV_INCLUDE, API_RUNTIME)),
])
CUDA_SPECIAL_MAP = collections.OrderedDict([])
C10_MAPPINGS = collections.OrderedDict([
    ("C10_CUDA_CHECK", ("C10_HIP_CHECK", API_C10)),
    ("c10/cuda/CUDAGuard.h", ("c10/hip/HIPGuard.h", API_C10)),
    ("CUDA_LAUNCH_BLOCKING=1", ("AMD_SERIALIZE_KERNEL=3", API_C10)),
])
PYTORCH_SPECIFIC_MAPPINGS = collections.OrderedDict([
    ("cuda::getCurrentCUDAStream", ("hip::getCurrentHIPStreamMasqueradingAsCUDA", API_PYTORCH)),
    ("getCurrentCUDAStream", ("getCurrentHIPStreamMasqueradingAsCUDA", API_PYTORCH)),
    ("c10/cuda/CUDAGuard.h", ("ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h", API_PYTORCH)),
    ("CUDAContext", ("HIPContext", API_CAFFE2)),
])
