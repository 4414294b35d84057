#!/bin/sh
# Runs an AMD-side test again with HIP 6.4 for gfx942: through the ROCm root
# that tools/rocm-root makes (ROOT, from HIPPORT_ROCM_ROOT at configure time),
# translating for --target-hip=6.4. Tests that read HIPPORT_TEST_AMD_ONLY
# leave out their nvcc halves (the default lane has built them). Exit 77
# (skipped) when no root was given.
# usage: lane-gfx942.sh ROOT COMMAND [ARG...]
root=$1
shift
if [ -z "$root" ] || [ ! -x "$root/bin/hipcc" ]; then
	echo "skipped: no ROCm root for gfx942 (make one with tools/rocm-root, then configure with HIPPORT_ROCM_ROOT set)"
	exit 77
fi
HIPPORT_ROCM_ROOT=$root
PATH=$root/bin:$PATH
HIPPORT_TEST_ARCH=gfx942
HIPPORT_TEST_HIP=6.4
HIPPORT_TEST_AMD_ONLY=1
# HIP 6.2 to 6.4 declare the _sync warp builtins only with it
HIPPORT_TEST_HIPCC_FLAGS=-DHIP_ENABLE_WARP_SYNC_BUILTINS
export HIPPORT_ROCM_ROOT PATH HIPPORT_TEST_ARCH HIPPORT_TEST_HIP HIPPORT_TEST_AMD_ONLY HIPPORT_TEST_HIPCC_FLAGS
exec "$@"
