NVCC = nvcc
CUDA_HOME ?= /usr/local/cuda
NVFLAGS = -arch=sm_80 -Xcompiler=-fPIC,-O2 \
	-lineinfo -rdc=true -maxrregcount=64
LIBS = -L$(CUDA_HOME)/lib64/stubs -lcuda -lcufft -lcusparse
%.o: %.cu
	$(NVCC) $(NVFLAGS) -c $< -o $@ # built by \#nvcc
