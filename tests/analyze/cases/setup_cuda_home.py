# A PyTorch extension's setup.py that picks CUDA by CUDA_HOME, as most
# single-platform extensions do: on ROCm CUDA_HOME is None, so without a fix
# the extension quietly builds CPU-only. Every use of CUDA_HOME here is a
# test, so the fix (test ROCM_HOME too, import it) is offered.
import glob
import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import (
    CUDA_HOME,
    BuildExtension,
    CppExtension,
    CUDAExtension,
)

library_name = "lltm_ext"


def get_extensions():
    debug_mode = os.getenv("DEBUG", "0") == "1"
    use_cuda = os.getenv("USE_CUDA", "1") == "1"
    use_cuda = use_cuda and torch.cuda.is_available() and CUDA_HOME is not None  # expect: BUILD-011
    extension = CUDAExtension if use_cuda else CppExtension  # expect: BUILD-008

    extra_compile_args = {
        "cxx": ["-O3" if not debug_mode else "-O0"],
        "nvcc": ["-O3" if not debug_mode else "-O0"],
    }
    here = os.path.dirname(os.path.abspath(__file__))
    sources = glob.glob(os.path.join(here, library_name, "csrc", "*.cpp"))
    if use_cuda:
        sources += glob.glob(os.path.join(here, library_name, "csrc", "cuda", "*.cu"))
    return [extension(f"{library_name}._C", sources, extra_compile_args=extra_compile_args)]


if os.getenv("REQUIRE_CUDA") == "1" and CUDA_HOME is None:  # expect: BUILD-011
    raise RuntimeError("REQUIRE_CUDA=1 but no CUDA toolkit was found")

if not CUDA_HOME:  # expect: BUILD-011
    print("building the CPU kernels only")

setup(
    name=library_name,
    version="0.1.0",
    packages=find_packages(),
    ext_modules=get_extensions(),
    install_requires=["torch"],
    cmdclass={"build_ext": BuildExtension},
)
