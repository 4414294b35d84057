#!/bin/sh
# The compiler a recorded program's own build calls (docs/checks.md, record
# and compare). record.sh puts a directory first in PATH whose nvcc and hipcc
# run this script, so that the program's Makefile or CMake builds each side
# for the GPU that runs it, with the program's own flags:
#   compiler.sh ref NVCC ARCH ARG...
#       the original: nvcc, every GPU architecture flag (-arch, -gencode,
#       -code, --gpu-architecture, ...) replaced by one -arch=ARCH (sm_90),
#       since a Makefile's sm_60 is not what the machine has;
#   compiler.sh proxy NVCC ARCH INCLUDE ARG...
#       the port on NVIDIA: hipcc's flags taken as nvcc's (--offload-arch
#       dropped, -W/-f/-m host flags through -Xcompiler, -fgpu-rdc as -rdc,
#       -gline-tables-only as -lineinfo),
#       the HIP sources compiled as CUDA through INCLUDE/hip_compat.h;
#   compiler.sh amd HIPCC ARCH ARG...
#       the port on AMD: hipcc, every --offload-arch replaced by one for ARCH.
set -u
[ $# -ge 3 ] || { echo "compiler.sh: usage: compiler.sh ref|proxy|amd COMPILER ARCH [INCLUDE] ARG..." >&2; exit 2; }
mode=$1 cc=$2 arch=$3
shift 3
include=
if [ "$mode" = proxy ]; then
	include=$1
	shift
fi

# q WORD: WORD quoted for eval
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

args= skip= sources=0 objects=0 lang= output= device= host=
for a in "$@"; do
	if [ -n "$skip" ]; then
		skip=
		continue
	fi
	if [ -n "$output" ]; then # -o FILE names what is made, not an input
		output=
		args="$args $(q "$a")"
		continue
	fi
	if [ -n "$host" ]; then # the value of -Xcompiler and its kin: the host compiler's
		# hipcc is the host compiler too: the flags given directly (nvcc
		# splits the value at commas)
		case $host in
		cc) for f in $(printf '%s' "$a" | tr ',' ' '); do args="$args $(q "$f")"; done ;;
		*) args="$args $(q "$a")" ;;
		esac
		host=
		continue
	fi
	case $mode:$a in
	# nvcc's options whose value is another tool's flags (the LSTM sample's
	# -Xcompiler -fpermissive): passed as they are to nvcc; hipcc takes the
	# host compiler's directly, the linker's as clang does, and has no ptxas or cudafe
	ref:-Xcompiler | ref:--compiler-options | ref:-Xlinker | ref:--linker-options | ref:-Xptxas | \
		ref:--ptxas-options | ref:-Xcudafe | ref:-Xnvlink | ref:--nvlink-options | \
		proxy:-Xcompiler | proxy:--compiler-options | proxy:-Xlinker | proxy:--linker-options | proxy:-Xptxas | \
		proxy:--ptxas-options | proxy:-Xcudafe | proxy:-Xnvlink | proxy:--nvlink-options | \
		amd:-Xlinker)
		args="$args $(q "$a")"; host=as-is; continue ;;
	amd:-Xcompiler | amd:--compiler-options)
		host=cc; continue ;;
	amd:-Xcompiler=* | amd:--compiler-options=*)
		for f in $(printf '%s' "${a#*=}" | tr ',' ' '); do args="$args $(q "$f")"; done
		continue ;;
	amd:--linker-options)
		args="$args -Xlinker"; host=as-is; continue ;;
	amd:-Xptxas | amd:--ptxas-options | amd:-Xcudafe | amd:-Xnvlink | amd:--nvlink-options)
		skip=1; continue ;;
	amd:-Xptxas=* | amd:--ptxas-options=* | amd:-Xcudafe=* | amd:-Xnvlink=* | amd:--nvlink-options=*)
		continue ;;
	# GPU architectures: the machine's, given once below
	*:-arch | *:--gpu-architecture | *:-gencode | *:--generate-code | *:-code | *:--gpu-code | \
		*:--offload-arch | *:-offload-arch | *:--amdgpu-target)
		skip=1; continue ;;
	*:-arch=* | *:--gpu-architecture=* | *:-gencode=* | *:--generate-code=* | *:-code=* | *:--gpu-code=* | \
		*:--offload-arch=* | *:-offload-arch=* | *:--amdgpu-target=* | *:--cuda-gpu-arch=*)
		continue ;;
	# the recording's launcher takes the kernel's arguments through a generic
	# lambda, which C++14 has: an older standard (NVIDIA's cuda-vmm samples
	# build with -std=c++11) is raised to it, the nearest that builds
	*:-std=c++11 | *:-std=c++0x | *:--std=c++11 | *:-std=c++03 | *:-std=c++98 | *:--std=c++03)
		args="$args -std=c++14"; continue ;;
	*:-std=gnu++11 | *:-std=gnu++0x | *:-std=gnu++03 | *:-std=gnu++98)
		args="$args -std=gnu++14"; continue ;;
	proxy:-x)
		args="$args -x"; lang=next; continue ;;
	proxy:-xhip)
		args="$args -x cu"; lang=cu; continue ;;
	proxy:--hip-link | proxy:-fno-gpu-rdc | proxy:-munsafe-fp-atomics | proxy:-mno-unsafe-fp-atomics | \
		proxy:-mcumode | proxy:-mno-cumode | proxy:-mwavefrontsize64 | proxy:-mno-wavefrontsize64 | \
		proxy:-lamdhip64 | proxy:-Wno-unused-result | proxy:--rocm-path=* | proxy:-fopenmp-targets=*)
		continue ;;
	proxy:-fgpu-rdc)
		args="$args -rdc=true"; continue ;;
	proxy:-ffast-math)
		args="$args --use_fast_math"; continue ;;
	proxy:-gline-tables-only)
		args="$args -lineinfo"; continue ;; # what the port made of nvcc's -lineinfo
	proxy:-lhipblas) args="$args -lcublas"; continue ;;
	proxy:-lhipsparse) args="$args -lcusparse"; continue ;;
	proxy:-lhiprand) args="$args -lcurand"; continue ;;
	proxy:-lhipfft) args="$args -lcufft"; continue ;;
	proxy:-lhipsolver) args="$args -lcusolver"; continue ;;
	proxy:-lhipblaslt) args="$args -lcublasLt"; continue ;;
	proxy:-lrocblas) args="$args -lcublas"; continue ;;
	proxy:-lrocrand) args="$args -lcurand"; continue ;;
	proxy:-lhiprtc) args="$args -lnvrtc"; continue ;;
	proxy:-lMIOpen) args="$args -lcudnn"; continue ;;
	proxy:-Wl,*)
		args="$args -Xlinker $(q "${a#-Wl,}")"; continue ;;
	proxy:-W* | proxy:-f* | proxy:-m* | proxy:-pthread | proxy:-rdynamic)
		args="$args -Xcompiler $(q "$a")"; continue ;;
	esac
	if [ "$lang" = next ]; then
		[ "$a" = hip ] && a=cu
		lang=$a
	fi
	case $a in
	-o) output=1 ;;
	-*) ;;
	*.cu) sources=$((sources + 1)) ;;
	*.hip) sources=$((sources + 1)) device=1 ;;
	*.cpp | *.cc | *.cxx | *.c | *.C)
		sources=$((sources + 1))
		# device code in a C++ file: HIP code, as hipcc takes it
		grep -qE '__global__|__device__|<<<|hipLaunchKernelGGL' "$a" 2>/dev/null && device=1 ;;
	*.o | *.a | *.so) objects=$((objects + 1)) ;;
	esac
	args="$args $(q "$a")"
done

# CUDA 13 gives a __global__ template's host stub internal linkage (without
# -rdc): a program that instantiates its kernels in one file and launches
# them from another, as CUDA 12 let it, no longer links; both NVIDIA sides
# are built as the CUDA the program was written for (record.sh's wrappers
# say it in HIPPORT_NVCC_STUB, asked once)
stub=
if [ "$mode" != amd ]; then
	if [ -n "${HIPPORT_NVCC_STUB+x}" ]; then
		stub=$HIPPORT_NVCC_STUB
	elif "$cc" --help 2>/dev/null | grep -q -- '--static-global-template-stub'; then
		stub=-static-global-template-stub=false
	fi
fi

case $mode in
ref)
	# runtime calls CUDA 12 removed, as their replacements (an older program builds as written)
	legacy=
	[ "$sources" -gt 0 ] && legacy="-include $(q "$(dirname "$0")/cuda_legacy.h")"
	eval "exec \"\$cc\" \${arch:+-arch=\"\$arch\"} \$stub $args $legacy" ;;
amd)
	# HIP 6.2 to 6.4 declare the _sync warp builtins a port calls only with it (7.0 always)
	eval "exec \"\$cc\" --offload-arch=\"\$arch\" -DHIP_ENABLE_WARP_SYNC_BUILTINS $args" ;;
proxy)
	# hipcc compiles every source as HIP; nvcc only .cu, unless told: a .hip
	# or a C++ file with device code is told, a command of .cu and host C++
	# files is not (nvcc's device math functions, umin and the like, would
	# meet a host file's own)
	# (and as HIP's clang does, constexpr functions are __host__ __device__:
	# a port's Makefile drops nvcc's --expt-relaxed-constexpr, hipcc needs none)
	x=
	[ -z "$lang" ] && [ -n "$device" ] && [ "$objects" -eq 0 ] && x="-x cu"
	[ "$sources" -gt 0 ] && x="$x --expt-relaxed-constexpr"
	eval "exec \"\$cc\" \${arch:+-arch=\"\$arch\"} \$stub -include \"\$include/hip_compat.h\" -I\"\$include\" $x $args" ;;
*)
	echo "compiler.sh: mode must be ref, proxy or amd, not $mode" >&2
	exit 2 ;;
esac
