# A small table in the shape of hipify_torch's v2 (written for this test):
# plain strings, no annotations.
import collections

CUDA_IDENTIFIER_MAP = collections.OrderedDict([
    ("cudaMalloc", "hipMalloc"),
    ("cudaSomethingNew", "hipSomethingNew"),
])
CUDA_TYPE_NAME_MAP = collections.OrderedDict([
    ("cudaStream_t", "hipStream_t"),
])
CUDA_INCLUDE_MAP = collections.OrderedDict([
    ("include <cuda.h", "include <hip/hip_runtime.h"),
    ("cub/warp/warp_reduce.cuh", "hipcub/hipcub.hpp"),
])
CUDA_SPECIAL_MAP = collections.OrderedDict([])
C10_MAPPINGS = collections.OrderedDict([
    ("c10/cuda/CUDAGuard.h", "c10/hip/HIPGuard.h"),
    ("CUDA_LAUNCH_BLOCKING=1", "AMD_SERIALIZE_KERNEL=3"),
])
PYTORCH_SPECIFIC_MAPPINGS = collections.OrderedDict([
    ("gloo/cuda.h", "gloo/hip.h"),
])
