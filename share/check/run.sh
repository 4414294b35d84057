#!/bin/sh
# Kernel checks of a hipport bundle: builds each check's harness as the
# reference (the original CUDA source, nvcc) and as the port (the proposed
# HIP source: hipcc for an AMD GPU, else nvcc through proxy/include/hip_compat.h),
# runs both, compares the outputs and writes results.json next to this script.
# Needs a POSIX shell and hipcc and/or nvcc; nothing else (docs/checks.md).
#
# Environment: NVCC, HIPCC (compilers), COMPUTE_SANITIZER (none: not used), PORT_PLATFORM=amd|nvidia-proxy,
# OFFLOAD_ARCH (gfx90a, ...), NVCC_ARCH (sm_90, ...), REFERENCE=golden (compare
# with golden/ even where nvcc runs), CHECK_TIMEOUT and BUILD_TIMEOUT (seconds),
# BUILD_ONLY=1 (build, do not run: the checks' harnesses and the record runs'
# programs, kept in work/), PREBUILT=1 (run what BUILD_ONLY=1 built, on a machine
# that sees this bundle at the same path: build on a login node, run on a GPU
# node; no compiler needed), EXTRA_FLAGS (both compilers), NVCC_FLAGS,
# HIPCC_FLAGS, PYTHON (the one whose torch a PyTorch extension builds with), JOBS,
# RECORD=0 (skip the record-and-compare runs of records.list) (checks side by side; default: the
# number of processors). Exit 0 when every check ran (whatever it
# found), 2 when the bundle itself is unusable.
#
# A Slurm array task (slurm/*.sbatch, docs/checks.md "Slurm") runs a part of
# the bundle in one phase: HIPPORT_PHASE=ref builds and runs the references
# only, into HIPPORT_REFS/NAME (a failure's reason in NAME.why, a second run
# that differs from the first marked NAME.nondet); HIPPORT_PHASE=port builds
# and runs the ports against what the ref phase left there. HIPPORT_ITEMS=A-B
# picks items A..B (0-based, the lines of checks.list, then of records.list);
# HIPPORT_WORK and HIPPORT_RESULTS name this task's own work directory and
# results file, so that tasks side by side write nothing in common.
set -u
cd "$(dirname "$0")" || exit 2
[ -f bundle.conf ] && [ -f checks.list ] || { echo "run.sh: bundle.conf or checks.list missing" >&2; exit 2; }
. ./bundle.conf
work=${HIPPORT_WORK:-work}
results=${HIPPORT_RESULTS:-results.json}
phase=${HIPPORT_PHASE:-}
refs=${HIPPORT_REFS:-}
case $phase in
'') ;;
ref | port) [ -n "$refs" ] || { echo "run.sh: HIPPORT_PHASE=$phase needs HIPPORT_REFS" >&2; exit 2; }
	mkdir -p "$refs" || exit 2 ;;
*) echo "run.sh: HIPPORT_PHASE must be ref or port" >&2; exit 2 ;;
esac
items_from=0 items_to=-1
case ${HIPPORT_ITEMS:-} in
'') items_to=999999999 ;;
*[!0-9-]* | -* | *-*-*) echo "run.sh: HIPPORT_ITEMS must be FROM-TO" >&2; exit 2 ;;
*-*) items_from=${HIPPORT_ITEMS%-*} items_to=${HIPPORT_ITEMS#*-} ;;
*) items_from=$HIPPORT_ITEMS items_to=$HIPPORT_ITEMS ;;
esac
# in_items INDEX: whether the item of that index is this run's
in_items() {
	[ "$1" -ge "$items_from" ] && [ "$1" -le "$items_to" ]
}
prebuilt=${PREBUILT:-}
if [ "$prebuilt" = 1 ]; then
	[ -z "$phase" ] && [ -f "$work/built" ] ||
		{ echo "run.sh: PREBUILT=1: nothing built in $work (BUILD_ONLY=1 builds it)" >&2; exit 2; }
	rm -rf "$work/ref" "$work/ref2" "$work/port" "$work/sanitizer" "$work"/*.json "$work"/*.result "$work"/record.*.out &&
		mkdir -p "$work/ref" "$work/port" || exit 2
else
	rm -rf "$work" && mkdir -p "$work/bin" "$work/ref" "$work/port" "$work/log" || exit 2
fi

# --- tools ---------------------------------------------------------------
nvcc=${NVCC:-}
[ -z "$nvcc" ] && nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
# compute-sanitizer names the argument when a reference crashes
sanitizer=${COMPUTE_SANITIZER:-}
[ "$sanitizer" = none ] && sanitizer= && no_sanitizer=1
[ -z "$sanitizer" ] && [ -z "${no_sanitizer:-}" ] && sanitizer=$(command -v compute-sanitizer 2>/dev/null)
[ -z "$sanitizer" ] && [ -z "${no_sanitizer:-}" ] && [ -n "$nvcc" ] && [ -x "$(dirname "$nvcc")/compute-sanitizer" ] &&
	sanitizer=$(dirname "$nvcc")/compute-sanitizer
hipcc=${HIPCC:-}
[ -z "$hipcc" ] && hipcc=$(command -v hipcc 2>/dev/null)
[ -z "$hipcc" ] && [ -x /opt/rocm/bin/hipcc ] && hipcc=/opt/rocm/bin/hipcc
port_platform=${PORT_PLATFORM:-}
# PREBUILT=1: the platform and architectures the build was for
if [ "$prebuilt" = 1 ]; then
	read -r port_platform nvcc_arch offload_arch <"$work/built"
	[ "$nvcc_arch" = - ] && nvcc_arch=
	[ "$offload_arch" = - ] && offload_arch=
fi
if [ -z "$port_platform" ]; then
	if [ -n "$hipcc" ]; then port_platform=amd
	elif [ -n "$nvcc" ]; then port_platform=nvidia-proxy
	else port_platform=none
	fi
fi
case $prebuilt:$port_platform in
1:*) ;;
*:amd) [ -n "$hipcc" ] || { echo "run.sh: PORT_PLATFORM=amd needs hipcc" >&2; exit 2; } ;;
*:nvidia-proxy) [ -n "$nvcc" ] || { echo "run.sh: PORT_PLATFORM=nvidia-proxy needs nvcc" >&2; exit 2; } ;;
*:none) ;;
*) echo "run.sh: PORT_PLATFORM must be amd or nvidia-proxy" >&2; exit 2 ;;
esac
[ "$prebuilt" = 1 ] || offload_arch=${OFFLOAD_ARCH:-}
if [ -z "$offload_arch" ] && [ "$port_platform" = amd ] && command -v rocminfo >/dev/null 2>&1; then
	offload_arch=$(rocminfo 2>/dev/null | sed -n 's/^ *Name: *\(gfx[0-9a-f]*\).*/\1/p' | head -n 1)
fi
[ -z "$offload_arch" ] && offload_arch=$DEFAULT_OFFLOAD_ARCH
[ "$prebuilt" = 1 ] || nvcc_arch=${NVCC_ARCH:-}
if [ -z "$nvcc_arch" ] && [ -n "$nvcc" ] && command -v nvidia-smi >/dev/null 2>&1; then
	cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
	case $cc in [0-9][0-9]*) nvcc_arch=sm_$cc ;; esac
fi
nvcc_arch_flag=
[ -n "$nvcc_arch" ] && nvcc_arch_flag=-arch=$nvcc_arch
check_timeout=${CHECK_TIMEOUT:-}
build_timeout=${BUILD_TIMEOUT:-$DEFAULT_BUILD_TIMEOUT}
# the project's flags (check.flags), and each compiler's own (NVCC_FLAGS: say
# --expt-relaxed-constexpr; HIPCC_FLAGS)
flags="${FLAGS:-} ${EXTRA_FLAGS:-}"
# a PyTorch extension's kernels: the installed torch's headers and libraries
# (python's torch.utils.cpp_extension; PYTHON chooses the interpreter)
torch_flags= torch_nvcc_flags= torch_hip_flags=
if [ "$prebuilt" != 1 ] && grep -rqlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](torch|ATen|c10)/' orig 2>/dev/null; then
	# torch/extension.h wants Python.h; a harness is no Python module, so
	# where the interpreter has no headers it gets torch/all.h (everything
	# but the Python bindings) under that name
	mkdir -p "$work/torch-shim/torch"
	printf '#pragma once\n#include <torch/all.h>\n' >"$work/torch-shim/torch/extension.h"
	torch_flags=$("${PYTHON:-python3}" -c '
import os, sys, sysconfig, torch
from torch.utils import cpp_extension as c
lib = os.path.join(os.path.dirname(torch.__file__), "lib")
py = sysconfig.get_paths()["include"]
shim = [py] if os.path.exists(os.path.join(py, "Python.h")) else [sys.argv[1]]
# a source with PYBIND11_MODULE links against libpython where there is one
pylib = sysconfig.get_config_var("LIBDIR") or ""
pylink = ["-L" + pylib, "-Xlinker", "-rpath=" + pylib, "-lpython" + sysconfig.get_config_var("LDVERSION")] if shim == [py] and os.path.exists(
    os.path.join(pylib, sysconfig.get_config_var("LDLIBRARY") or "-")) else []
print(" ".join(["-I" + p for p in shim + c.include_paths()] +
      ["-D_GLIBCXX_USE_CXX11_ABI=%d" % int(torch._C._GLIBCXX_USE_CXX11_ABI), "-L" + lib, "-Xlinker", "-rpath=" + lib,
       "-lc10", "-ltorch_cpu", "-ltorch"] + (["-lc10_cuda", "-ltorch_cuda"] if torch.version.cuda else []) +
      (["-lc10_hip", "-ltorch_hip"] if torch.version.hip else []) + pylink))
# what torch.utils.cpp_extension gives each compiler: without its
# __CUDA_NO_HALF_OPERATORS__ an at::Half comparison is ambiguous
print(" ".join(getattr(c, "COMMON_NVCC_FLAGS", []) + ["-DTORCH_API_INCLUDE_EXTENSION_H"]))
print(" ".join(getattr(c, "COMMON_HIPCC_FLAGS", getattr(c, "COMMON_HIP_FLAGS", [])) + ["-DTORCH_API_INCLUDE_EXTENSION_H"]))' \
		"$(pwd)/$work/torch-shim" 2>/dev/null) ||
		echo "run.sh: the sources use PyTorch, but ${PYTHON:-python3} cannot import torch: its headers are not found" >&2
	torch_nvcc_flags=$(printf '%s\n' "$torch_flags" | sed -n 2p)
	torch_hip_flags=$(printf '%s\n' "$torch_flags" | sed -n 3p)
	torch_flags=$(printf '%s\n' "$torch_flags" | sed -n 1p)
fi
# libs_of TREE HARNESS PATTERN LIB...: the libraries the headers of the file
# a harness compiles stand for (that file and the files it includes by quotes):
# it links what that file's calls need (cuBLAS for llm.c's matmuls), and no
# library another file of the program uses, which may not be installed
libs_of() {
	tree=$1 unit=$(sed -n 's/^#include "\(.*\)"$/\1/p' "$2" | grep -vx 'hipport_harness.h' | head -n 1)
	shift 2
	[ -n "$unit" ] && [ -f "$tree/$unit" ] || return 0
	files="$tree/$unit $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(.*\)".*/\1/p' "$tree/$unit" |
		while read -r f; do [ -f "$(dirname "$tree/$unit")/$f" ] && printf '%s ' "$(dirname "$tree/$unit")/$f"; done)"
	while [ $# -ge 2 ]; do
		# shellcheck disable=SC2086
		grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]$1" $files 2>/dev/null && printf ' %s' "$2"
		shift 2
	done
}
cuda_libs() {
	libs_of orig "$1" 'cublas(_v2|_api)?\.h' -lcublas 'cublasLt\.h' -lcublasLt 'curand' -lcurand 'cusparse' -lcusparse \
		'cufft' -lcufft 'cusolver' -lcusolver 'nvrtc\.h' -lnvrtc 'cuda\.h' -lcuda
}
hip_libs() {
	libs_of port "$1" 'hipblas/hipblas\.h' -lhipblas 'hipblaslt' -lhipblaslt 'hiprand' -lhiprand 'hipsparse' -lhipsparse \
		'hipfft' -lhipfft 'hipsolver' -lhipsolver 'rocblas' -lrocblas 'hip/hiprtc\.h' -lhiprtc
}

# link_units SIDE FLAG: the program's files the check at hand links beside
# its harness (harness/NAME.link: they define __device__ functions its file
# declares), from SIDE's tree, after FLAG (relocatable device code)
link_units() {
	[ -f "harness/$name.link" ] || return 0
	printf '%s' "$2"
	while IFS= read -r u; do
		case $u in *[!A-Za-z0-9._/+-]*) ;; *) printf ' %s/%s' "$1" "$u" ;; esac
	done <"harness/$name.link"
}

# checks built and run side by side (each compiler run is one process)
jobs=${JOBS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac

# --- helpers -------------------------------------------------------------
# limit SECONDS COMMAND...: runs COMMAND, killed after SECONDS (exit 124).
limit() {
	secs=$1
	shift
	if command -v timeout >/dev/null 2>&1; then
		timeout -k 5 "$secs" "$@"
		return $?
	fi
	flag=$work/timed-out.$name
	rm -f "$flag"
	"$@" &
	pid=$!
	(sleep "$secs" && kill -9 "$pid" 2>/dev/null && : >"$flag") >/dev/null 2>&1 &
	watch=$!
	wait "$pid"
	rc=$?
	kill "$watch" 2>/dev/null
	if [ -f "$flag" ]; then
		rm -f "$flag"
		return 124
	fi
	return $rc
}

# includes TREE: -I flags of a source tree (orig or port)
includes() {
	flags="-I$1"
	for d in $INCLUDES; do flags="$flags -I$1/$d"; done
	echo "$flags"
}

# json TEXT: TEXT as a JSON string (control characters dropped)
json() {
	printf '"%s"' "$(printf '%s' "$1" | tr '\t\n\r' '   ' | tr -d '\000-\037' |
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# tail_of LOG: what a log says, for a message: its first errors, else its last lines
tail_of() {
	{ grep 'error' "$1" 2>/dev/null | head -n 3 | grep . ||
		grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 4; } | tr '\n' ' ' | cut -c1-600
}

# why RC SECONDS: what an exit status means
why() {
	case $1 in
	124 | 137 | 142) echo "timed out after $2 s" ;;
	*) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1"; fi ;;
	esac
}

# emit NAME SOURCE KERNEL STATUS MESSAGE: a result hipport's harness could not write
emit() {
	printf '{"name": %s, "source": %s, "kernel": %s, "status": "%s", "platform": "%s", "arch": "", "device": "", "reference": {"platform": "%s", "arch": ""}, "message": %s, "errors": []}\n' \
		"$(json "$1")" "$(json "$2")" "$(json "$3")" "$4" "$port_platform" "$ref_platform" "$(json "$5")" \
		>"$work/$1.json"
}

# A harness includes the file that compiles its kernel, whose other host
# functions may call into the program's other files; the harness never runs
# them, so the linker drops what main does not reach instead of failing on it
nvcc_harness="-Xcompiler -ffunction-sections -Xlinker --gc-sections"
# HIP's clang reads a constexpr function as __host__ __device__; nvcc does
# with this flag, which programs that call std::max in kernels build with
# (HeCBench's topk): the reference then builds what the port's compiler takes
nvcc_harness="$nvcc_harness --expt-relaxed-constexpr"
hipcc_gc="-ffunction-sections -Wl,--gc-sections"
# HIP 6.2 to 6.4 declare the _sync warp builtins a port calls only with it (7.0 always)
hipcc_sync=-DHIP_ENABLE_WARP_SYNC_BUILTINS

# --- the checks ----------------------------------------------------------
if [ "$port_platform" = amd ]; then port_cc=$hipcc; else port_cc=$nvcc; fi
echo "hipport bundle $BUNDLE_ID: reference ${nvcc:-none (nvcc not found)}, port $port_platform" \
	"($port_cc)${nvcc_arch:+, nvcc arch $nvcc_arch}"
[ "$port_platform" = amd ] && echo "offload arch $offload_arch"
# check_one NAME SOURCE KERNEL TIMEOUT ORIG_BLOB PORT_BLOB: builds and runs one
# check; it writes only files of its own name, so checks run side by side
# nondeterministic NAME: whether a second run of the reference differs from
# its first (run when the port's outputs differed)
nondeterministic() {
	mkdir -p "$work/ref2/$1"
	limit "$timeout" "$work/bin/ref.$1" "$work/ref2/$1" "$work/ref/$1" "$work/$1.ref2.json" </dev/null \
		>"$work/log/$1.ref2-run" 2>&1
	[ $? = 1 ]
}

# first_error LOG: the text of a build log's first error, without where it
# is (orig/ and port/ number their lines apart)
first_error() {
	sed -n 's/^.*[0-9])*:* *\(fatal \)*error[: ]*//p' "$1" 2>/dev/null | head -n 1
}

# sanitizer_errors LOG: the count of errors compute-sanitizer's summary gives
# ("ERROR SUMMARY: 3073 errors"; not its "N errors were not printed"), or
# nothing when the log has none (it timed out, or did not run)
sanitizer_errors() {
	sed -n 's/^=* *ERROR SUMMARY: \([0-9,]*\) errors*[[:space:]]*$/\1/p' "$1" 2>/dev/null | tail -n 1 | tr -d ,
}

# sanitize NAME: the reference of a check run again under compute-sanitizer's
# memcheck (where it is installed): what it found, first an invalid access,
# told as the argument whose buffer the address is in or nearest past
# (compute-sanitizer 12 says "Address 0x...", 13 "Access to 0x..."), else a
# CUDA call that failed ("Program hit cudaError..."), else the first error it
# counted (a warp's assert); nothing when it found none or cannot run
sanitize() {
	[ -n "$sanitizer" ] && [ -x "$work/bin/ref.$1" ] || return 0
	rm -f "$log.args" && mkdir -p "$work/sanitizer/$1" || return 0
	HIPPORT_ARGS_MAP=$log.args limit "$timeout" "$sanitizer" --tool memcheck --print-limit 4 \
		"$work/bin/ref.$1" "$work/sanitizer/$1" </dev/null >"$log.ref-sanitizer" 2>&1
	san=$log.ref-sanitizer
	access=$(grep -o 'Invalid [_a-z]* *\(read\|write\|atomic\)[a-z ]* of size [0-9]* bytes*' "$san" | head -n 1)
	addr=$(grep -oE '(Address|Access to) 0x[0-9a-fA-F]+' "$san" | head -n 1 | sed 's/.* //')
	errors=$(sanitizer_errors "$san")
	if [ -n "$access" ] && [ -n "$addr" ]; then
		case $access in
		*__shared__*)
			# an offset into the block's shared memory, not a buffer of the spec's
			echo "compute-sanitizer: $access at shared address $addr, out of the block's shared memory: the spec's block size or dynamic shared memory is suspect"
			return 0 ;;
		esac
		a=$((addr)) best= best_base=-1 best_size=0
		while read -r n b size; do
			if [ "$b" -le "$a" ] && [ "$b" -gt "$best_base" ]; then
				best=$n best_base=$b best_size=$size
			fi
		done 2>/dev/null <"$log.args"
		if [ -z "$best" ]; then
			echo "compute-sanitizer: $access at $addr, in no buffer the spec gives: a pointer the kernel reaches otherwise (a scalar, a struct, a global)"
		elif [ $((a - best_base)) -ge "$best_size" ]; then
			echo "compute-sanitizer: $access at byte $((a - best_base)) of argument $best, which the spec sizes at $best_size bytes: its count is suspect"
		else
			echo "compute-sanitizer: $access at byte $((a - best_base)) of argument $best ($best_size bytes)"
		fi
		return 0
	fi
	hit=$(grep -o 'Program hit .*' "$san" | head -n 1 | sed 's/\.$//')
	if [ -n "$hit" ]; then
		echo "compute-sanitizer: the program hit ${hit#Program hit }"
	elif [ "${errors:-0}" -gt 0 ] || [ -n "$access" ]; then
		# another error it counts: its first report's first line
		first=$(grep '^========= [^ ]' "$san" | sed 's/^========= //' |
			grep -v '^\(COMPUTE-SANITIZER\|ERROR SUMMARY\|Target application\|Saved host backtrace\)' | head -n 1)
		echo "compute-sanitizer: ${first:-an error} (${errors:-some} errors in all)"
	fi
}

# sanitizer_none: why sanitize found nothing, from the check's log: only a
# summary of 0 errors is memcheck finding none; without one it did not finish
sanitizer_none() {
	errors=$(sanitizer_errors "$log.ref-sanitizer")
	case $errors in
	0) echo "compute-sanitizer's memcheck found no invalid access" ;;
	'') echo "compute-sanitizer's memcheck did not finish (no error summary in $log.ref-sanitizer: timed out or failed to start)" ;;
	*) echo "compute-sanitizer's memcheck counted $errors errors it did not name: see $log.ref-sanitizer" ;;
	esac
}

# spec_suspect NAME RC: why the reference of a check failed, said as the
# spec's fault: the original is the reference, so a crash there means the
# spec's sizes or values are wrong, not the port
spec_suspect() {
	# a spec with no output stops before any launch is judged: said as it is
	if [ "$2" = 2 ] && grep -q 'error: nothing to compare' "$log.ref-run" 2>/dev/null; then
		echo "the kernel has nothing to compare: $(tail_of "$log.ref-run" | sed 's/^.*error: nothing to compare: //')"
		return
	fi
	what="the spec is the suspect, not the port: the reference (the original CUDA, nvcc) failed ($(why "$2" "$timeout")): $(tail_of "$log.ref-run")"
	found=$(sanitize "$1")
	if [ -n "$found" ]; then
		echo "$what; $found"
	elif [ -n "$sanitizer" ]; then
		echo "$what; $(sanitizer_none)"
	else
		echo "$what; compute-sanitizer is not installed here: run the reference under its memcheck to name the argument"
	fi
}

# ref_phase NAME: the reference of a check alone (HIPPORT_PHASE=ref): its
# outputs in HIPPORT_REFS/NAME, run twice (NAME.nondet when the runs differ),
# or the reason there are none in NAME.why
ref_phase() {
	rm -rf "$refs/$1" "$refs/$1.why" "$refs/$1.nondet" "$refs/$1.harness" "$refs/$1.host-free"
	if [ -z "$ref_platform" ]; then
		printf '%s\n' "$ref_why" >"$refs/$1.why"
		return
	fi
	# the harness the reference built from, for the port task to build the same
	printf '%s\n' "$harness" >"$refs/$1.harness"
	[ -f "$log.host-free" ] && cp "$log.host-free" "$refs/$1.host-free"
	[ "${BUILD_ONLY:-}" = 1 ] && return
	mkdir -p "$work/ref/$1"
	limit "$timeout" "$work/bin/ref.$1" "$work/ref/$1" </dev/null >"$log.ref-run" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		nondeterministic "$1" && : >"$refs/$1.nondet"
		# whole: the port task reads it only once meta.txt is there
		cp -r "$work/ref/$1" "$refs/$1.tmp" && mv "$refs/$1.tmp" "$refs/$1"
	elif [ $rc = 3 ]; then
		sed -n "s/^.*: no-device: //p" "$log.ref-run" | head -n 1 >"$refs/$1.why"
	else
		spec_suspect "$1" $rc >"$refs/$1.why"
	fi
}

# build_ref HARNESS: the reference of the check check_one is at, from HARNESS
build_ref() {
	# shellcheck disable=SC2046
	limit "$build_timeout" "$nvcc" -std=c++17 $nvcc_arch_flag -DHIPPORT_PLATFORM_ID=0 -include record/cuda_legacy.h \
		-include proxy/include/hip_compat.h -Iproxy/include $(includes orig) $flags ${NVCC_FLAGS:-} $nvcc_harness \
		-o "$work/bin/ref.$name" "$1" $(link_units orig -rdc=true) $torch_flags $torch_nvcc_flags $(cuda_libs "$1") \
		</dev/null >"$log.ref-build" 2>&1
}

# judge_port: runs the port of the check check_one is at, against ref_dir
# (or alone), and writes its result
judge_port() {
	mkdir -p "$work/port/$name"
	if [ -n "$ref_dir" ]; then
		limit "$timeout" "$port_bin" "$work/port/$name" "$ref_dir" "$work/$name.json" </dev/null \
			>"$log.port-run" 2>&1
	else
		limit "$timeout" "$port_bin" "$work/port/$name" </dev/null >"$log.port-run" 2>&1
	fi
	rc=$?
	if [ $rc = 3 ] && [ -z "$ref_dir" ]; then
		emit "$name" "$source" "$kernel" no-device "$(sed -n "s/^.*: no-device: //p" "$log.port-run" | head -n 1)"
	elif [ -z "$ref_dir" ] && [ $rc = 0 ]; then
		emit "$name" "$source" "$kernel" skipped "no reference outputs: $ref_why; and no golden/$name (hipport check --record on an NVIDIA machine)"
	elif [ $rc = 1 ] && [ -f "$work/$name.json" ] && { { [ "$ref_dir" = "$work/ref/$name" ] &&
		nondeterministic "$name"; } || { [ "$ref_dir" = "$refs/$name" ] && [ -f "$refs/$name.nondet" ]; }; }; then
		# the original disagrees with itself: the port's difference is not
		# judged; a read past a buffer the spec sized is the spec's fault
		found=
		[ "$ref_dir" = "$work/ref/$name" ] && found=$(sanitize "$name")
		if [ -n "$found" ]; then
			emit "$name" "$source" "$kernel" error "the spec is the suspect, not the port: a second run of the original differs from its first, and the original under compute-sanitizer's memcheck reaches past what the spec gives; $found"
		else
			sed 's/"status": "fail"/"status": "error"/; s/"message": "/"message": "nondeterministic: a second run of the original differs from its first too (atomics, races or uninitialised memory), so the port is not judged; /' \
				"$work/$name.json" >"$work/$name.json.nd" && mv "$work/$name.json.nd" "$work/$name.json"
		fi
	elif [ $rc = 1 ] && [ -f "$work/$name.json" ] && [ "$kernel_same" = 1 ] && [ "$port_platform" = nvidia-proxy ]; then
		# one compiler, one GPU, the kernel and its device functions as the
		# original has them: still a failure (a macro the port changed reaches
		# the kernel too), but one whose first suspects are elsewhere
		sed 's/"message": "/"message": "(the kernel and its device functions are the original'"'"'s, unchanged by the port, and one compiler built both for one GPU: look first for a race the original'"'"'s second run did not show, a macro the port changed, or the harness) /' \
			"$work/$name.json" >"$work/$name.json.cp" && mv "$work/$name.json.cp" "$work/$name.json"
	elif [ $rc -le 4 ] && [ -f "$work/$name.json" ]; then
		: # the harness wrote the result
	else
		found=
		[ -n "$ref_dir" ] && [ "$ref_platform" = nvidia ] && found=$(sanitize "$name")
		if [ -n "$found" ]; then
			# the reference survived an invalid access by luck: the spec's sizes are wrong
			emit "$name" "$source" "$kernel" error "the spec is the suspect, not the port: the port's run failed ($(why $rc "$timeout")), and the reference fails too when checked under compute-sanitizer's memcheck; $found"
		elif [ "$kernel_same" = 1 ] && [ -n "$ref_dir" ]; then
			# the reference ran: the same kernel failing in the port is the check's problem
			emit "$name" "$source" "$kernel" error "a check problem, not the port: the kernel's source is the original's, unchanged by the port, and the reference ran, but the port's run failed ($(why $rc "$timeout")) through the harness or the proxy: $(tail_of "$log.port-run")"
		else
			emit "$name" "$source" "$kernel" error "port run failed ($(why $rc "$timeout")): $(tail_of "$log.port-run")"
		fi
	fi
}

check_one() {
	name=$1 source=$2 kernel=$3 timeout=$4 orig_blob=$5 port_blob=$6 kernel_same=${7:-0}
	harness=harness/$name.cu
	timeout=${check_timeout:-$timeout}
	HIPPORT_TIMEOUT=$timeout
	export HIPPORT_TIMEOUT
	log=$work/log/$name
	ref_platform=
	ref_dir=
	ref_why=
	if [ "$phase" = port ]; then
		# the ref phase's array task ran the reference (or said why not)
		if [ -f "$refs/$name/meta.txt" ]; then
			ref_platform=nvidia
			[ -f "$refs/$name.harness" ] && harness=$(cat "$refs/$name.harness")
			[ -f "$refs/$name.host-free" ] && cp "$refs/$name.host-free" "$log.host-free"
		elif [ -f "$refs/$name.why" ]; then
			ref_why=$(cat "$refs/$name.why")
		else
			ref_why="the reference task left no outputs"
		fi
	elif [ "$prebuilt" = 1 ] && [ "${REFERENCE:-}" != golden ]; then
		# what the BUILD_ONLY=1 run built, or why it could not
		if [ -x "$work/bin/ref.$name" ]; then
			ref_platform=nvidia
		else
			ref_why=$(cat "$log.ref-why" 2>/dev/null || echo "the build left no reference")
		fi
	elif [ -n "$nvcc" ] && [ "${REFERENCE:-}" != golden ]; then
		build_ref "$harness"
		rc=$?
		if [ $rc != 0 ] && [ -f "harness/$name.alone.cu" ]; then
			# the file that includes the kernel's does not build: the kernel's file alone, both sides
			mv "$log.ref-build" "$log.ref-build.unit"
			build_ref "harness/$name.alone.cu"
			rc=$?
			[ $rc = 0 ] && harness=harness/$name.alone.cu
		fi
		if [ $rc != 0 ] && [ -f "harness/$name.kernels.cu" ]; then
			# the kernel's file does not build as written (host code: an API the
			# toolkit removed, a host compiler's error): the file without its host
			# functions, both sides, and the result says so
			mv "$log.ref-build" "$log.ref-build.file"
			build_ref "harness/$name.kernels.cu"
			rc=$?
			if [ $rc = 0 ]; then
				harness=harness/$name.kernels.cu
				printf '%s\n' "$(first_error "$log.ref-build.file")" >"$log.host-free"
			else
				mv "$log.ref-build.file" "$log.ref-build"
			fi
		fi
		if [ $rc = 0 ]; then
			ref_platform=nvidia
		else
			ref_why="reference build failed ($(why $rc "$build_timeout")): $(tail_of "$log.ref-build")"
			printf '%s\n' "$ref_why" >"$log.ref-why"
		fi
	else
		ref_why="nvcc not found"
		[ "${REFERENCE:-}" = golden ] && ref_why="REFERENCE=golden"
	fi
	if [ "$phase" = ref ]; then
		ref_phase "$name"
		return
	fi
	port_bin=
	case $prebuilt:$port_platform in
	1:*)
		if [ -x "$work/bin/port.$name" ]; then
			port_bin=$work/bin/port.$name
		else
			port_why=$(cat "$log.port-why" 2>/dev/null || echo "port build failed: the build left no port")
		fi ;;
	*:amd)
		# shellcheck disable=SC2046
		if limit "$build_timeout" "$hipcc" -std=c++17 --offload-arch="$offload_arch" -DHIPPORT_PLATFORM_ID=2 \
			$(includes port) $flags ${HIPCC_FLAGS:-} $hipcc_gc $hipcc_sync -o "$work/bin/port.$name" -x hip "$harness" \
			$(link_units port -fgpu-rdc) \
			$torch_flags $torch_hip_flags $(hip_libs "$harness") </dev/null >"$log.port-build" 2>&1; then
			port_bin=$work/bin/port.$name
		else
			port_why="port build failed ($(why $? "$build_timeout")): $(tail_of "$log.port-build")"
		fi ;;
	*:nvidia-proxy)
		# shellcheck disable=SC2046
		if limit "$build_timeout" "$nvcc" -std=c++17 $nvcc_arch_flag -DHIPPORT_PLATFORM_ID=1 \
			-include proxy/include/hip_compat.h -Iproxy/include $(includes port) $flags ${NVCC_FLAGS:-} $nvcc_harness \
			-o "$work/bin/port.$name" "$harness" $(link_units port -rdc=true) $torch_flags $torch_nvcc_flags \
			$(cuda_libs "$harness") </dev/null >"$log.port-build" 2>&1; then
			port_bin=$work/bin/port.$name
		else
			port_why="port build failed ($(why $? "$build_timeout")): $(tail_of "$log.port-build")"
		fi ;;
	*) port_why="neither hipcc nor nvcc found" ;;
	esac
	if [ -z "$port_bin" ]; then
		printf '%s\n' "$port_why" >"$log.port-why"
		case $port_why:$ref_why in
		"neither"*) emit "$name" "$source" "$kernel" skipped "$port_why" ;;
		*:"reference build failed"*)
			ref_first=$(first_error "$log.ref-build")
			if [ -n "$ref_first" ] && [ "$ref_first" = "$(first_error "$log.port-build")" ]; then
				# the same error on both sides: the spec's or the program's, not the port's
				emit "$name" "$source" "$kernel" error "the spec or the program's build, not the port: the original does not build with it either, with the same first error; $ref_why"
			else
				emit "$name" "$source" "$kernel" error "$port_why"
			fi ;;
		*) emit "$name" "$source" "$kernel" error "$port_why" ;;
		esac
	elif [ "${BUILD_ONLY:-}" = 1 ]; then
		if [ -z "$ref_platform" ] && [ -f "$log.ref-build" ]; then
			emit "$name" "$source" "$kernel" error "$ref_why"
		else
			emit "$name" "$source" "$kernel" skipped "built, not run (BUILD_ONLY=1)"
		fi
	else
		if [ "$phase" = port ] && [ -n "$ref_platform" ]; then
			ref_dir=$refs/$name
		elif [ -n "$ref_platform" ]; then
			mkdir -p "$work/ref/$name"
			limit "$timeout" "$work/bin/ref.$name" "$work/ref/$name" </dev/null >"$log.ref-run" 2>&1
			rc=$?
			if [ $rc = 0 ]; then
				ref_dir=$work/ref/$name
			elif [ $rc = 3 ]; then
				ref_why=$(sed -n "s/^.*: no-device: //p" "$log.ref-run" | head -n 1)
			else
				ref_why=$(spec_suspect "$name" $rc)
			fi
		fi
		case $ref_why in
		"the spec is the suspect"* | "the kernel has nothing to compare"*)
			# the port is not judged against a reference that crashed, or that had nothing to compare
			emit "$name" "$source" "$kernel" error "$ref_why; the port was not run"
			ref_dir=crashed ;;
		esac
		if [ "$ref_dir" = crashed ]; then
			:
		elif [ -z "$ref_dir" ] && [ -f "golden/$name/meta.txt" ]; then
			ref_dir=golden/$name
			ref_platform=golden
		fi
		[ "$ref_dir" = crashed ] || judge_port
	fi
	if [ -f "$log.host-free" ] && [ -f "$work/$name.json" ]; then
		note="(checked from $source without its host functions: the file as written does not build with nvcc: $(cat "$log.host-free")) "
		note=$(json "$note" | sed -e 's/^"//' -e 's/"$//' -e 's/[\\/&]/\\&/g')
		sed "s/\"message\": \"/\"message\": \"$note/" "$work/$name.json" >"$work/$name.json.hf" &&
			mv "$work/$name.json.hf" "$work/$name.json"
	fi
	# what hipport needs to record the result against the sources checked
	sed "s/}\$/, \"orig_blob\": \"$orig_blob\", \"port_blob\": \"$port_blob\", \"target\": \"$( [ "$port_platform" = amd ] && echo "$offload_arch" || echo "$nvcc_arch")\"}/" \
		"$work/$name.json" >"$work/$name.result" || exit 2
}

names=
running=0
index=-1
tab=$(printf '\t')
while IFS="$tab" read -r name source kernel timeout orig_blob port_blob kernel_same; do
	[ -n "$name" ] || continue
	index=$((index + 1))
	in_items "$index" || continue
	names="$names $name"
	check_one "$name" "$source" "$kernel" "$timeout" "$orig_blob" "$port_blob" "$kernel_same" </dev/null &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done <checks.list
wait
nchecks=$((index + 1))
[ "$phase" = ref ] && names=
for name in $names; do
	[ -f "$work/$name.result" ] || { echo "run.sh: check $name left no result" >&2; exit 2; }
done

# --- results.json and a summary ------------------------------------------
{
	printf '{"schema": "hipport-check-results", "version": 1, "bundle": "%s", "port_platform": "%s", "checks": [\n' \
		"$BUNDLE_ID" "$port_platform"
	sep=
	for name in $names; do
		printf '%s' "$sep"
		cat "$work/$name.result"
		sep=','
	done
	printf ']}\n'
} >"$results.tmp" && mv "$results.tmp" "$results" || exit 2
printf '\n%-44s %-10s %-13s %s\n' CHECK STATUS PLATFORM MESSAGE
for name in $names; do
	line=$(cat "$work/$name.result")
	status=$(printf '%s' "$line" | sed -n 's/^[^}]*"status": "\([a-z-]*\)", "platform".*/\1/p')
	platform=$(printf '%s' "$line" | sed -n 's/^[^}]*"status": "[a-z-]*", "platform": "\([a-z-]*\)".*/\1/p')
	message=$(printf '%s' "$line" | sed -n 's/.*"message": "\(\([^"\\]\|\\.\)*\)".*/\1/p' | cut -c1-100)
	printf '%-44s %-10s %-13s %s\n' "$name" "$status" "$platform" "$message"
done
echo "results: $(pwd)/$results"

# --- record and compare: the programs of records.list, run on both sides --
# BUILD_ONLY=1 builds both sides of each and PREBUILT=1 runs them
record_step=
[ "${BUILD_ONLY:-}" = 1 ] && record_step=build
[ "$prebuilt" = 1 ] && record_step=run
if [ -s records.list ] && [ "${RECORD:-1}" != 0 ] && { [ -n "$nvcc" ] || [ -n "$phase$prebuilt" ]; } &&
	{ [ -z "$record_step" ] || [ -z "$phase" ]; }; then
	# programs side by side, like the checks; each one's messages kept together
	n=0 running=0 index=$((nchecks - 1))
	while IFS="$tab" read -r dir build run origin; do
		[ -n "$dir" ] || continue
		index=$((index + 1))
		in_items "$index" || continue
		n=$((n + 1))
		{ echo "record: $dir"; HIPPORT_RECORD_STEP=$record_step sh ./record.sh "$dir" "$build" "$run"; } </dev/null \
			>"$work/record.$n.out" 2>&1 &
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then
			wait
			running=0
		fi
	done <records.list
	wait
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		cat "$work/record.$i.out"
	done
	echo "records: $(pwd)/work/record (hipport check --import results.json compares them)"
fi
# what PREBUILT=1 runs: the platform and architectures built for
[ "${BUILD_ONLY:-}" = 1 ] && [ -z "$phase" ] &&
	echo "$port_platform ${nvcc_arch:--} ${offload_arch:--}" >"$work/built" &&
	echo "built: run them with PREBUILT=1 sh $(pwd)/run.sh"
exit 0
