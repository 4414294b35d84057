#!/bin/sh
# hipport query: text and JSON, reverse lookups, unknown names.
# usage: test-query.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"

check "function" 0 "$hipport" query --target-hip=6.2 cudaMalloc
expect "function text" "$tmp/out" "cudaMalloc -> hipMalloc (function, runtime, HIP added 1.5)"
check "unsupported" 0 "$hipport" query --target-hip=6.2 cudaDeviceFlushGPUDirectRDMAWrites
expect "unsupported text" "$tmp/out" "cudaDeviceFlushGPUDirectRDMAWrites -> unsupported"
check "header" 0 "$hipport" query cuda_runtime.h
expect "header text" "$tmp/out" "cuda_runtime.h -> hip/hip_runtime.h (header"
check "roc" 0 "$hipport" query cublasSgemm
expect "roc text" "$tmp/out" "ROC: rocblas_sgemm"
check "warp, old target" 0 "$hipport" query --target-hip=5.2 __shfl_down_sync
expect "warp fallback" "$tmp/out" "for HIP 5.2: fallback -> __shfl_down(\$2-)"
check "reverse" 0 "$hipport" query hipMalloc
expect "reverse text" "$tmp/out" "hipMalloc is the HIP name of cudaMalloc"
check "unknown" 1 "$hipport" query cudaNoSuchThing
expect "unknown text" "$tmp/out" "cudaNoSuchThing: not a known CUDA or HIP name"
check "bad format" 2 "$hipport" query --format=xml cudaMalloc
check "json" 1 "$hipport" query --format json --target-hip=6.2 cudaMalloc __shfl_down_sync cudaNoSuchThing
truth "json parses" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["results"]
assert doc["version"] == 1 and doc["target_hip"] == "6.2"
assert r[0]["hip"] == "hipMalloc" and r[0]["hip_versions"]["added"] == "1.5" and r[0]["for_target"] == "converted"
assert r[1]["kind"] == "warp_sync" and r[1]["for_target"] == "converted"
assert r[2]["found"] is False
' "$tmp/out"

# explain: every id scan can emit has an entry (API-001..012 by family, API-099)
check "explain list" 0 "$hipport" explain
for id in 001 002 003 004 005 006 007 008 009 010 011 012 099; do
	expect "explain lists API-$id" "$tmp/out" "API-$id "
done
# ... and every id the analyzer's sources can emit
for id in $(grep -oh '"[A-Z]*-[0-9][0-9][0-9]"' "$src"/src/analyze/*.c | tr -d '"' | sort -u); do
	check "explain $id" 0 "$hipport" explain "$id"
done
check "explain one" 0 "$hipport" explain API-005
expect "explain title" "$tmp/out" "API-005 (error): cuBLAS API without a HIP equivalent for the target"
expect "explain action" "$tmp/out" "What to do: Look the name up with"
check "explain unknown" 2 "$hipport" explain WARP-999
expect "explain unknown message" "$tmp/err" "'WARP-999' is not a finding id"

finish
