# Variables the port cannot follow: the flag stays, a finding says why.
include ../common.mk

# set in ../common.mk, perhaps to sm_80
F1 = -arch=$(ARCH)
# used for more than the arch
USED = 80
F2 = -arch=sm_$(USED) -DUSED=$(USED)
# detected at build time
DETECTED := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader | tr -d .)
F3 = -gencode arch=compute_$(DETECTED),code=sm_$(DETECTED)
# the host compiler's -arch (macOS), not a GPU
HOST_ARCH := $(shell uname -m)
F4 = -arch $(HOST_ARCH)
# a value the port cannot read
F5 = -arch=$(firstword $(ARCHS))
# names of files as well as architectures
SM_VERSIONS := sm_10 sm_13
define SM_template
%.cu_$(1)_o: %.cu
	$(NVCC) -o $$@ -c $$< -arch $(1)
endef
$(foreach smver,$(SM_VERSIONS),$(eval $(call SM_template,$(smver))))
# a loop over a list ../common.mk may set
GENCODE = $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))
