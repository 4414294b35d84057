# A PyTorch extension's setup.py as NVIDIA users write it: nvcc flags and
# architectures inline. Flags hipcc takes as well need nothing.
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "8.0;9.0")  # expect: BUILD-010

setup(
    name="fastops",
    ext_modules=[
        CUDAExtension(  # expect: BUILD-008
            name="fastops._C",
            sources=["csrc/bindings.cpp", "csrc/scaled_add.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": [
                    "-O3",
                    "--use_fast_math",  # expect: BUILD-009
                    "--expt-relaxed-constexpr",  # expect: BUILD-009
                    "-gencode=arch=compute_80,code=sm_80",  # expect: BUILD-010
                    "-std=c++17",
                ],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
