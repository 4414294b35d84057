# A setup.py written for both platforms: every CUDA question has a ROCm
# branch (IS_HIP_EXTENSION, torch.version.hip, ROCM_HOME), nvcc flags and
# architectures are chosen per platform, PYTORCH_ROCM_ARCH is set next to
# TORCH_CUDA_ARCH_LIST. Only the CUDAExtension note is expected.
import os
import subprocess

import torch
from setuptools import setup
from torch.utils.cpp_extension import (
    CUDA_HOME,
    IS_HIP_EXTENSION,
    ROCM_HOME,
    BuildExtension,
    CppExtension,
    CUDAExtension,
)

use_gpu = torch.cuda.is_available() and (CUDA_HOME is not None or ROCM_HOME is not None)

if IS_HIP_EXTENSION:
    os.environ.setdefault("PYTORCH_ROCM_ARCH", "gfx90a;gfx942")
else:
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "8.0;9.0")


def cuda_version():
    if torch.version.hip is not None:
        return None
    out = subprocess.check_output([os.path.join(CUDA_HOME, "bin", "nvcc"), "-V"], text=True)
    return out.rsplit("release ", 1)[1].split(",")[0]


if IS_HIP_EXTENSION:
    gpu_flags = ["-O3", "-ffast-math", "-DUSE_ROCM"]
    bf16 = True
else:
    if CUDA_HOME is None:
        raise RuntimeError("no CUDA toolkit found")
    gpu_flags = ["-O3", "--use_fast_math", "--expt-relaxed-constexpr", "-gencode=arch=compute_80,code=sm_80"]
    if torch.version.cuda >= "12.0":
        gpu_flags += ["-gencode=arch=compute_90,code=sm_90"]
    bf16 = torch.cuda.get_device_capability() >= (8, 0)

is_rocm = torch.version.hip is not None
major, minor = torch.cuda.get_device_capability()
fp8 = major >= 9 if not is_rocm else (major, minor) == (9, 4)

extension = CUDAExtension if use_gpu else CppExtension  # expect: BUILD-008
setup(
    name="dual",
    ext_modules=[
        extension(
            "dual._C",
            ["csrc/dual.cpp", "csrc/dual_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": gpu_flags},
            define_macros=[("WITH_BF16", "1" if bf16 else "0")],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
