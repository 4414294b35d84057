# Architectures in variables, as benchmark suites write them: the variable
# keeps its name, gets the offload arch, and stays overridable.
CC        = nvcc
ARCH      = sm_60
CUDA_ARCH ?= sm_60
SM := 80
GPU_ARCH = -arch=sm_70
CFLAGS := -std=c++17 -Xcompiler -Wall -arch=$(ARCH)
CFLAGS2 := -arch $(ARCH) --gpu-architecture=${CUDA_ARCH}
CFLAGS3 := -arch=sm_$(SM) -arch=compute_$(SM)
NATIVE = -arch=native

main: main.cu
	$(CC) $(CFLAGS) -o $@ $<

sub:
	$(MAKE) -C sub ARCH=sm_80 SM=$(SM)

# not set here, nothing included: the command line gives it (make CC_VER=...)
other: other.cu
	$(CC) -arch=compute_$(CC_VER) -o $@ $<
