#!/bin/sh
# Record-and-compare runs of a hipport bundle (docs/checks.md): builds the
# program in record/orig (the original, instrumented) and in record/port
# (the port, instrumented), runs each with HIPPORT_RECORD_DIR set so that
# every launch of the repository's kernels is captured, the original twice
# (what differs between its two runs is nondeterministic), and leaves the
# logs in work/record/NAME/ref, ref2 and port (NAME: DIR, slashes made
# dashes, "root" for ".") for
#     hipport check --compare work/record/NAME/ref work/record/NAME/port work/record/NAME/ref2
# (hipport check --import results.json compares every one it finds).
#
# usage: record.sh DIR BUILD RUN
#   DIR: the program's directory, relative to the work tree ("." for the root)
#   BUILD, RUN: shell commands, run in that directory of each tree; BUILD uses
#   $HIPPORT_CXX, the compiler of the side being built, and finds nvcc and
#   hipcc first in PATH as the same: record/compiler.sh with nvcc for the
#   original; with hipcc for the port on AMD, else with nvcc through
#   proxy/include/hip_compat.h (PORT_PLATFORM=amd|nvidia-proxy chooses). Each
#   builds for this machine's GPU whatever architecture the build names.
# A build that names its compiler by path ($(CUDA_DIR)/bin/nvcc, $(ROCM_PATH)/bin/hipcc)
# finds the wrapper too: CUDA_PATH, CUDA_HOME, CUDA_DIR and their kin, and ROCM_PATH and
# HIP_PATH, are set, in the environment and as make's command-line variables
# (MAKEFLAGS), to a root whose bin/ holds the wrappers and whose other
# directories are the toolkit's.
# Environment: NVCC, HIPCC, NVCC_ARCH, OFFLOAD_ARCH, HIPPORT_RECORD_TIMEOUT (seconds a
# run may take, each; a run stopped there keeps the launches it recorded), HIPPORT_RECORD_MAX (bytes of
# an allocation kept whole; above it only hashed), HIPPORT_RECORD_STEP=build (build
# both sides and stop) or run (run what such a step built, here or on another
# machine that sees the bundle at the same path). In a Slurm array task
# HIPPORT_PHASE=ref runs the original's side only (ref, ref2) and
# HIPPORT_PHASE=port the port's, into HIPPORT_RECORD_PORT (default port).
# TUNE=1 runs the port once more with HIPPORT_TUNE_DIR=work/record/NAME/tune:
# each Triton kernel's first launch swept over launch options (tune.json).
# A Python program's Triton kernels are recorded too: RUN has record/triton
# first in PYTHONPATH, whose sitecustomize.py hooks Triton's launches, and
# with PYTHON set (a virtual environment's python, a path from where
# record.sh was started or a command) the python3 and python first in PATH run it.
# Exit 0 when all three runs were recorded, 1 when a build or run failed, 2 on usage.
set -u
case ${PYTHON:-} in
'' | /*) ;;
*/*) PYTHON=$(pwd)/$PYTHON ;;
*) py=$(command -v "$PYTHON") || { echo "record: PYTHON=$PYTHON: not found" >&2; exit 2; }; PYTHON=$py ;;
esac
cd "$(dirname "$0")" || exit 2
[ $# -eq 3 ] || { echo "usage: record.sh DIR BUILD RUN" >&2; exit 2; }
dir=$1 build=$2 run=$3
here=$(pwd)
nvcc=${NVCC:-$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })}
hipcc=${HIPCC:-$(command -v hipcc || { [ -x /opt/rocm/bin/hipcc ] && echo /opt/rocm/bin/hipcc; })}
arch=${NVCC_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .)}
case $arch in '') ;; sm_*) ;; *) arch=sm_$arch ;; esac
port_platform=${PORT_PLATFORM:-$([ -n "$hipcc" ] && echo amd || echo nvidia-proxy)}
name=$(printf '%s' "$dir" | sed 's|^\./||; s|/*$||; s|/|-|g')
[ -z "$name" ] || [ "$name" = . ] && name=root
work=$here/work/record/$name
phase=${HIPPORT_PHASE:-}
port=${HIPPORT_RECORD_PORT:-port}
step=${HIPPORT_RECORD_STEP:-}
case $step in
'' | build) ;;
run) [ -z "$phase" ] && [ -f "$work/built" ] ||
	{ echo "record: HIPPORT_RECORD_STEP=run: no build of $dir here (HIPPORT_RECORD_STEP=build makes one)" >&2; exit 2; } ;;
*) echo "record: HIPPORT_RECORD_STEP must be build or run" >&2; exit 2 ;;
esac
case $phase:$step in
:run) rm -rf "$work/ref" "$work/ref2" "$work/port" "$work"/*.run.log && mkdir -p "$work/ref" "$work/ref2" "$work/port" || exit 2 ;;
:*) rm -rf "$work" && mkdir -p "$work/ref" "$work/ref2" "$work/port" || exit 2 ;;
ref) rm -rf "$work/ref" "$work/ref2" && mkdir -p "$work/ref" "$work/ref2" || exit 2 ;;
port) rm -rf "${work:?}/$port" && mkdir -p "$work/$port" || exit 2 ;;
*) echo "record: HIPPORT_PHASE must be ref or port" >&2; exit 2 ;;
esac
# builds write into their tree: each run builds in a fresh copy (an array
# task under HIPPORT_WORK), so that no build reuses what another left and
# tasks side by side never share one
trees=$work/trees
if [ -n "$phase" ] && [ -n "${HIPPORT_WORK:-}" ]; then
	case $HIPPORT_WORK in /*) trees=$HIPPORT_WORK/trees/$name ;; *) trees=$here/$HIPPORT_WORK/trees/$name ;; esac
fi
case $phase in ref) sides=orig ;; port) sides=port ;; *) sides="orig port" ;; esac
# proxy_host_macros TREE: USE_ROCM in the host C++ of the port's own files
# is HIPPORT_PROXY_USE_ROCM, which the proxy's C++ compiler defines for a
# torch extension (toolkit); device code (.cu, .cuh) keeps its CUDA branch,
# as the proxy runs it on NVIDIA's 32-lane warps
proxy_host_macros() {
	find "$1" -type f \( -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' -o -name '*.h' -o -name '*.hpp' \) \
		-exec grep -l 'USE_ROCM' {} + 2>/dev/null | while IFS= read -r f; do
		sed -e 's/\([^A-Za-z0-9_]\)USE_ROCM$/\1HIPPORT_PROXY_USE_ROCM/' \
			-e 's/\([^A-Za-z0-9_]\)USE_ROCM\([^A-Za-z0-9_]\)/\1HIPPORT_PROXY_USE_ROCM\2/g' "$f" >"$f.proxy" &&
			mv "$f.proxy" "$f"
	done
}
if [ "$step" != run ]; then
	rm -rf "$trees" && mkdir -p "$trees" && cp record/hipport_record.h "$trees/" || exit 2
	for s in $sides; do
		cp -r "record/$s" "$trees/" || exit 2
	done
	if [ -d "$trees/port" ] && [ "$port_platform" != amd ]; then
		case $build in *setup.py* | *pip* | *python*) proxy_host_macros "$trees/port" ;; esac
	fi
fi

# a run's time limit, where timeout(1) is there to keep it
limit=
case ${HIPPORT_RECORD_TIMEOUT:-} in
'') ;;
*[!0-9]*) echo "record: HIPPORT_RECORD_TIMEOUT must be seconds" >&2; exit 2 ;;
*) command -v timeout >/dev/null 2>&1 && limit="timeout -k 5 $HIPPORT_RECORD_TIMEOUT" ;;
esac

# the variables a build may name its compiler's root by
toolkit_vars="CUDA_PATH CUDA_HOME CUDA_DIR CUDA_ROOT CUDA_INSTALL_PATH CUDA_TOOLKIT_ROOT_DIR CUDA_TOOLKIT_PATH ROCM_PATH ROCM_HOME HIP_PATH"

# nvcc_stub NVCC: the flag that keeps template kernels' stubs external, where NVCC has it
nvcc_stub() {
	"$1" --help 2>/dev/null | grep -q -- '--static-global-template-stub' && echo -static-global-template-stub=false
}

# wrappers BIN MODE COMPILER [INCLUDE]: BIN/nvcc and BIN/hipcc run
# compiler.sh in MODE, so that the program's own build, whatever compiler and
# architecture flags it names, builds for this machine's GPU
wrappers() {
	mkdir -p "$1" || return 1
	# whether this nvcc has CUDA 13's template stubs, asked once here, not per compile
	stub_=
	[ "$2" != amd ] && stub_="export HIPPORT_NVCC_STUB=$(q "$(nvcc_stub "$3")")"
	for c in nvcc hipcc; do
		{
			echo '#!/bin/sh'
			# the compiler itself sees the toolkit paths as they were (hipcc finds clang by them)
			for v in $toolkit_vars; do
				eval "set_=\${$v+x} val_=\${$v:-}"
				if [ -n "$set_" ]; then echo "export $v=$(q "$val_")"; else echo "unset $v"; fi
			done
			[ -n "$stub_" ] && echo "$stub_"
			printf 'exec sh %s %s %s %s' "$(q "$here/record/compiler.sh")" "$2" "$(q "$3")" "$(q "$arch_of_side")"
			[ $# -ge 4 ] && printf ' %s' "$(q "$4")"
			echo ' "$@"'
		} >"$1/$c" && chmod +x "$1/$c" || return 1
	done
}
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# the same wall clock on every run (record/hipport_clock.c), preloaded, so
# that inputs seeded from the time are the same in each run; built with the
# machine's C compiler with the programs (HIPPORT_RECORD_STEP=run takes it
# as built), left out (and said) where there is none
clock_so=$work/hipport_clock.so
if [ "${HIPPORT_RECORD_CLOCK:-1}" != 0 ] && [ "$step" != run ] && [ ! -f "$clock_so" ] && [ -f record/hipport_clock.c ]; then
	${CC:-cc} -shared -fPIC -O2 -o "$clock_so" record/hipport_clock.c -ldl >"$work/clock.build.log" 2>&1 ||
		{ rm -f "$clock_so"; echo "record: the fixed clock did not build (see $work/clock.build.log): runs read the real time" >&2; }
fi
preload=
[ "${HIPPORT_RECORD_CLOCK:-1}" != 0 ] && [ -f "$clock_so" ] && preload="LD_PRELOAD=$(q "$clock_so")\${LD_PRELOAD:+:\$LD_PRELOAD} "

# pythons BIN: BIN/python3 and BIN/python run $PYTHON where it is set
pythons() {
	rm -f "$1/python3" "$1/python"
	[ -n "${PYTHON:-}" ] || return 0
	for p in python3 python; do
		printf '#!/bin/sh\nexec %s "$@"\n' "$(q "$PYTHON")" >"$1/$p" && chmod +x "$1/$p" || return 1
	done
}

# root DIR REAL BIN: DIR is a toolkit root: its bin/ holds BIN's wrappers,
# its other entries (include, lib64, ...) are REAL's
root() {
	mkdir -p "$1/bin" || return 1
	for e in "$2"/*; do
		[ -e "$e" ] && [ "$e" != "$2/bin" ] || continue
		ln -s "$e" "$1/${e##*/}" || return 1
	done
	for c in "$3"/*; do
		ln -s "$c" "$1/bin/${c##*/}" || return 1
	done
}

# toolkit CXX: the environment a side builds and runs in: CXX's directory
# first in PATH, the toolkit roots a build may name its compiler by (the
# root of hipcc for the port on AMD, else of nvcc), CUDACXX for CMake (not
# HIPCXX: CMake refuses a HIP compiler named hipcc)
toolkit() {
	bin=$(dirname "$1")
	tk=$bin.root
	real=$nvcc
	[ "$bin" = "$work/bin/port" ] && [ "$port_platform" = amd ] && real=$hipcc
	real=$(dirname "$(dirname "$(readlink -f "$real" 2>/dev/null || echo "$real")")")
	[ -d "$tk/bin" ] || { [ -n "$real" ] && [ "$real" != / ] && root "$tk" "$real" "$bin"; } || return 1
	pythons "$bin" || return 1
	make_vars=
	for v in $toolkit_vars; do
		make_vars="$make_vars $v=$tk"
	done
	# the port through the proxy, built by torch's cpp_extension: its C++
	# files go to the host compiler ($CXX), not to the wrappers; they see the
	# proxy's headers (c10/hip/HIPGuard.h) and their USE_ROCM, which torch's
	# ROCm build defines for them (COMMON_HIP_FLAGS), under another name
	# (proxy_host_macros): torch's CUDA headers would take their ROCm branches
	cxx_proxy=
	if [ "$bin" = "$work/bin/port" ] && [ "$port_platform" != amd ]; then
		case $build in
		*setup.py* | *pip* | *python*)
			mkdir -p "$bin/cxx" &&
				printf '#!/bin/sh\nexec %s -DHIPPORT_PROXY_USE_ROCM=1 -I%s "$@"\n' \
					"$(q "$(command -v "${CXX:-c++}" || echo c++)")" "$(q "$here/proxy/include")" \
					>"$bin/cxx/c++" && chmod +x "$bin/cxx/c++" || return 1
			cxx_proxy="CXX=$(q "$bin/cxx/c++")" ;;
		esac
	fi
	echo "PATH=$(q "$bin"):\$PATH HIPPORT_CXX=$(q "$1") CUDACXX=$(q "$bin/nvcc")" \
		"MAKEFLAGS=$(q "${MAKEFLAGS:-}$make_vars") CUDA_PATH=$(q "$tk") CUDA_HOME=$(q "$tk") ROCM_PATH=$(q "$tk")" \
		"HIP_PATH=$(q "$tk") $cxx_proxy"
}

# side TREE NAME CXX: build in TREE/DIR with CXX (HIPPORT_RECORD_STEP=build:
# only that), run into work/record/NAME (HIPPORT_RECORD_STEP=run: only that)
side() {
	env=$(toolkit "$3") || { echo "record: $2: cannot make the toolkit root" >&2; return 1; }
	if [ "$step" != run ]; then
		rm -f "$work/$2.built"
		(cd "$1/$dir" && eval "$env"' sh -c "$build"') >"$work/$2.build.log" 2>&1 && : >"$work/$2.built"
	fi
	[ -f "$work/$2.built" ] || { echo "record: $2: the build failed: $(tail -n 5 "$work/$2.build.log")" >&2; return 1; }
	[ "$step" = build ] && return 0
	record_run "$1" "$2" ||
		echo "record: $2: the run exited non-zero$([ -n "$limit" ] && echo " or ran past HIPPORT_RECORD_TIMEOUT") (its launches up to then are recorded)" >&2
	[ -f "$work/$2/launches.log" ] || { echo "record: $2: no launch recorded$(usage_line "$work/$2.run.log")" >&2; return 1; }
}

# usage_line LOG: where a run that launched nothing printed its usage line
# (`usage: ./matrix N`), what to do about it; nothing otherwise
usage_line() {
	u=$(grep -i -m 1 '^[[:space:]]*usage:' "$1" 2>/dev/null | cut -c 1-120) || return 0
	[ -n "$u" ] && printf ': the program stopped at its usage line (%s): give the run command its arguments in .hipport/config, [record "%s"] run = ...' "$u" "$dir"
}

# record_run TREE NAME [VAR]: RUN in TREE/DIR into work/NAME (named by VAR,
# default HIPPORT_RECORD_DIR), in $env; its status. A run timeout(1) stopped
# leaves NAME/cut, so that the comparison lines up the launches both runs
# made instead of their counts.
# PyTorch's caching allocator is off: each tensor is an allocation of its
# own, not a part of a segment that holds others and bytes never written
# (which differ from run to run); ROCm's torch reads either name
nocache='PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTORCH_NO_HIP_MEMORY_CACHING=1'
record_run() {
	rm -f "$work/$2/cut"
	run_rc=0
	(cd "$1/$dir" && eval "$env"" $preload$nocache ${3:-HIPPORT_RECORD_DIR}"'=$work/$2 PYTHONPATH=$here/record/triton${PYTHONPATH:+:$PYTHONPATH} $limit sh -c "$run"') \
		>"$work/$2.run.log" 2>&1 || run_rc=$?
	case $run_rc in
	124|137) [ -n "$limit" ] && [ -d "$work/$2" ] && echo "HIPPORT_RECORD_TIMEOUT=$HIPPORT_RECORD_TIMEOUT" >"$work/$2/cut" ;;
	esac
	return $run_rc
}

# again: the original's second run (what differs between its runs is nondeterministic)
again() {
	[ "$step" = build ] && return 0
	env=$(toolkit "$ref_cxx") || return 0
	record_run "$trees/orig" ref2 || :
}

[ -n "$nvcc" ] || [ "$phase" = port ] || [ "$step" = run ] ||
	{ echo "record: nvcc not found: the original cannot be built" >&2; exit 1; }
arch_of_side=$arch
if [ "$phase" != port ] && [ "$step" != run ]; then
	wrappers "$work/bin/ref" ref "$nvcc" || exit 2
fi
ref_cxx=$work/bin/ref/nvcc
if [ "$phase" = ref ]; then
	rc=0
	side "$trees/orig" ref "$ref_cxx" || rc=1
	[ $rc = 0 ] && again
	echo "record: $(grep -c '^launch' "$work/ref/launches.log" 2>/dev/null || echo 0) launches of the original in $work"
	exit $rc
fi
if [ "$step" = run ]; then
	port_platform=$(cat "$work/built")
elif [ "$port_platform" = amd ]; then
	arch_of_side=${OFFLOAD_ARCH:-gfx90a}
	wrappers "$work/bin/port" amd "$hipcc" || exit 2
else
	wrappers "$work/bin/port" proxy "$nvcc" "$here/proxy/include" || exit 2
fi
port_cxx=$work/bin/port/hipcc
rc=0
if [ "$phase" != port ]; then
	side "$trees/orig" ref "$ref_cxx" || rc=1
	[ $rc = 0 ] && again
fi
side "$trees/port" "$port" "$port_cxx" || rc=1
if [ "$step" = build ]; then
	echo "$port_platform" >"$work/built"
	echo "record: built in $trees (HIPPORT_RECORD_STEP=run runs them)"
	exit $rc
fi
echo "$port_platform" >"$work/$port/platform"
# TUNE=1 (hipport check tune): the port once more, the first launch of each
# Triton kernel swept over launch options (record/triton/hipport_tune.py)
if [ "${TUNE:-0}" = 1 ] && [ -f "$work/$port.built" ]; then
	rm -rf "$work/tune"
	record_run "$trees/port" tune HIPPORT_TUNE_DIR ||
		echo "record: tune: the run exited non-zero (the kernels tuned up to then are kept)" >&2
	echo "record: tune: $(grep -c '"kernel": ' "$work/tune/tune.json" 2>/dev/null || echo 0) kernels swept in $work/tune"
fi
echo "record: $(grep -c '^launch' "$work/ref/launches.log" 2>/dev/null || echo 0) launches of the original," \
	"$(grep -c '^launch' "$work/$port/launches.log" 2>/dev/null || echo 0) of the port ($port_platform) in $work"
exit $rc
