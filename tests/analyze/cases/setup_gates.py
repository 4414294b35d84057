# A setup.py that decides the CUDA build the NVIDIA way in every manner the
# BUILD gate findings know: CUDA_HOME as a path or from the environment, nvcc
# run for its version, torch.version.cuda parsed and compared, compute
# capabilities compared (also combined into one number), nvcc flags and
# architectures. CUDA_HOME's value is used as a path, so no fix is
# offered for its tests. Statements in a ROCm branch at the end stay quiet.
import os
import subprocess

import torch
from packaging.version import parse
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension


def nvcc_version(cuda_dir):
    raw = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)  # expect: BUILD-012
    release = raw.split().index("release") + 1
    return parse(raw.split()[release].split(",")[0])


if CUDA_HOME is None or not os.path.isdir(os.path.join(CUDA_HOME, "include")):  # expect: BUILD-011
    raise RuntimeError("this extension needs the CUDA toolkit")
have_nvcc = os.path.exists(CUDA_HOME + "/bin/nvcc")  # expect: BUILD-011
if not os.environ.get("CUDA_HOME"):  # expect: BUILD-011
    print("CUDA_HOME is not set; using", CUDA_HOME)
use_cuda = "CUDA_HOME" in os.environ or os.getenv("CUDA_HOME") is not None  # expect: BUILD-011
toolkit = os.environ.get("CUDA_HOME", "/usr/local/cuda")
print("nvcc:", subprocess.getoutput("nvcc --version"))  # expect: BUILD-012
print("torch built with CUDA", torch.version.cuda)

nvcc_flags = ["-O3", "--expt-extended-lambda", "-Xnvlink=--verbose", "--threads", "4"]  # expect: BUILD-009
nvcc_flags += ["-gencode", "arch=compute_80,code=sm_80"]  # expect: BUILD-010
if parse(torch.version.cuda) >= parse("11.8"):  # expect: BUILD-013
    nvcc_flags += ["-gencode", "arch=compute_90,code=sm_90"]  # expect: BUILD-010
cuda_major = int(torch.version.cuda.split(".")[0])  # expect: BUILD-013
if torch.version.cuda is not None:  # expect: BUILD-013
    nvcc_flags.append("-DWITH_CUDA")

if torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0):  # expect: BUILD-014
    nvcc_flags.append("-DENABLE_BF16")
major, minor = torch.cuda.get_device_capability()
sm = major * 10 + minor
if sm >= 90:  # expect: BUILD-014
    nvcc_flags.append("-DSM90")
if major * 10 + minor < 75:  # expect: BUILD-014
    raise RuntimeError("needs Turing or newer")
if major >= 9:  # expect: BUILD-014
    nvcc_flags.append("-DENABLE_FP8")
props = torch.cuda.get_device_properties(0)
if props.major < 7:  # expect: BUILD-014
    raise RuntimeError("needs Volta or newer")
if torch.cuda.get_device_capability(0)[0] == 9:  # expect: BUILD-014
    nvcc_flags.append("-DHOPPER")

# The same questions asked with a ROCm branch: nothing to report.
IS_ROCM = torch.version.hip is not None
if IS_ROCM:
    arch_flags = []
elif torch.cuda.get_device_capability()[0] >= 8:
    arch_flags = ["-gencode=arch=compute_80,code=sm_80", "--use_fast_math"]
else:
    arch_flags = ["-arch=sm_70"]
cc = major * 10 + minor
if not IS_ROCM and cc >= 80:
    arch_flags.append("-DSM80")
if IS_ROCM or "CUDA_HOME" in os.environ:
    arch_flags.append("-DGPU")
if not IS_ROCM and torch.version.cuda >= "12.0":
    arch_flags.append("-DCUDA12")
home = CUDA_HOME if CUDA_HOME is not None else os.environ.get("ROCM_HOME")

setup(
    name="gates",
    ext_modules=[
        CUDAExtension(  # expect: BUILD-008
            "gates._C",
            ["csrc/gates.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags + arch_flags},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
