#!/usr/bin/env python3
"""Generates a deterministic corpus of CUDA projects for tools/bench-scan.

The corpus is a git repository of several made-up projects (kernels, host
code, headers, cuBLAS/cuRAND/cuFFT/cuSPARSE/cuSOLVER/CUB/driver/NVRTC users),
built from the templates in tools/bench/snippets/ and from the functions of
share/examples/fastops/src/*.cu, renamed per file so that no two files are
alike. The same seed and line target always give the same files.

usage: gen_corpus.py [--out DIR] [--seed N] [--lines N] [--force]
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SNIPPETS = os.path.join(HERE, "snippets")
FASTOPS = os.path.join(ROOT, "share", "examples", "fastops", "src")

# Extensions hipport scans (vcs_walk_is_candidate_name).
CANDIDATE_EXTS = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hip")

PROJECTS = ["lattice", "nbody", "tensorlite", "sparsekit", "imgproc", "quantsim", "fluxcfd",
            "genomix", "raytrace"]
MODULES = ["core", "kernels", "ops", "io", "solver", "util", "linalg", "sim", "math", "backend",
           "detail", "pipeline"]
VERBS = ["scatter", "gather", "reduce", "scale", "update", "advect", "integrate", "project",
         "filter", "smooth", "pack", "unpack", "normalize", "accumulate", "resample", "blend",
         "transform", "compact", "score", "relax", "assemble", "predict", "correct", "warp"]
NOUNS = ["Particles", "Cells", "Weights", "Rows", "Tiles", "Pixels", "Spins", "Fluxes", "Reads",
         "Rays", "Nodes", "Edges", "Blocks", "Samples", "Voxels", "Points", "Charges", "Bins",
         "Faces", "Bonds", "Grads", "States", "Moments", "Halos"]

# Headers a snippet needs, beyond cuda_runtime.h.
SNIPPET_HEADERS = {
    "kernel_half": ["<cuda_fp16.h>"],
    "kernel_cg": ["<cooperative_groups.h>"],
    "kernel_arch": ["<cmath>"],
    "host_buffers": [],
    "host_device_query": ["<cstdio>"],
    "host_unified": ["<cstdio>"],
    "host_texture": ["<cstring>"],
    "host_plain": ["<algorithm>", "<cstdio>", "<cstdlib>", "<string>", "<vector>"],
    "host_verify": ["<cmath>", "<cstdio>", "<vector>"],
    "blas_gemm": ["<cublas_v2.h>"],
    "blas_level1": ["<cublas_v2.h>"],
    "blas_gemv": ["<cublas_v2.h>", "<cstdio>"],
    "rand_host": ["<curand.h>"],
    "rand_device": ["<curand_kernel.h>"],
    "fft_plan": ["<cufft.h>"],
    "fft_r2c": ["<cufft.h>"],
    "sparse_spmv": ["<cusparse.h>"],
    "solver_lu": ["<cusolverDn.h>", "<cublas_v2.h>"],
    "cub_reduce": ["<cub/cub.cuh>"],
    "driver_module": ["<cuda.h>", "<cstdio>"],
    "rtc_program": ["<nvrtc.h>", "<cstdio>", "<string>"],
}

# What goes into each kind of file: (snippet name prefixes, share of fastops pieces).
FILE_KINDS = [
    # kind, weight, extension, snippet prefixes, fastops share
    ("kernels", 32, ".cu", ["kernel_", "misc_"], 0.25),
    ("host", 14, ".cu", ["host_", "misc_", "kernel_saxpy"], 0.15),
    ("library", 20, ".cu", ["blas_", "rand_", "fft_", "sparse_", "solver_", "cub_", "driver_", "rtc_"],
     0.05),
    ("header", 12, ".cuh", ["header_", "kernel_ballot", "kernel_scan", "kernel_half"], 0.0),
    ("decl", 8, ".h", ["decl_"], 0.0),
    ("plain", 6, ".cpp", ["host_plain", "host_verify", "blas_gemv", "rand_host"], 0.0),
    ("test", 8, ".cu", ["kernel_", "host_verify", "misc_", "blas_", "host_buffers"], 0.2),
]

LICENSES = [
    """/*
 * Copyright (c) {year} The {Proj} Authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
""",
    """// Copyright {year} {Proj} contributors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
""",
    """/**
 * @file {file}
 * @brief {brief}
 *
 * Part of {Proj}. SPDX-License-Identifier: MIT
 */
""",
]

BRIEFS = ["device kernels and their launchers", "host-side helpers", "library bindings",
          "tests for the device code", "shared declarations", "numerical building blocks"]


def load_snippets():
    snippets = {}
    for name in sorted(os.listdir(SNIPPETS)):
        if name.endswith(".in"):
            with open(os.path.join(SNIPPETS, name), encoding="utf-8") as f:
                snippets[name.split(".")[0]] = f.read()
    return snippets


def split_top_level(text):
    """Cuts a fastops source into top-level pieces (functions, classes, kernels)
    with balanced braces, dropping includes and namespace lines."""
    lines = []
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("#include") or re.match(r"^(namespace\s+\w*\s*\{|\}\s*//\s*namespace)", s):
            continue
        lines.append(line)
    pieces, cur, depth = [], [], 0
    for line in lines:
        code = re.sub(r'"([^"\\]|\\.)*"', '""', line.split("//")[0])
        cur.append(line)
        depth += code.count("{") - code.count("}")
        if depth == 0 and line.strip() == "" and any(x.strip() for x in cur):
            piece = "\n".join(cur).strip("\n")
            if "{" in piece or ";" in piece:
                pieces.append(piece + "\n")
            cur = []
    piece = "\n".join(cur).strip("\n")
    if piece.strip():
        pieces.append(piece + "\n")
    # drop leading file comments that are not followed by code
    return [p for p in pieces if re.search(r"[;{]", p) and p.count("{") == p.count("}")]


def load_fastops():
    pieces = []
    for name in sorted(os.listdir(FASTOPS)):
        if name.endswith(".cu") and name != "main.cu":
            with open(os.path.join(FASTOPS, name), encoding="utf-8") as f:
                pieces.extend(split_top_level(f.read()))
    names = set()
    for p in pieces:
        for m in re.finditer(r"(?:\b(?:void|float|int|bool|class|struct)\s+|\)\s*\n\s*)(\w+)\s*[(<{]", p):
            if not m.group(1).startswith(("__", "cuda", "cublas")) and m.group(1) not in ("if", "for", "while"):
                names.add(m.group(1))
    return pieces, sorted(names)


def fingerprint(seed, lines):
    h = hashlib.sha256()
    h.update(("%d %d\n" % (seed, lines)).encode())
    for path in [os.path.abspath(__file__)] + \
            [os.path.join(SNIPPETS, n) for n in sorted(os.listdir(SNIPPETS))] + \
            [os.path.join(FASTOPS, n) for n in sorted(os.listdir(FASTOPS))]:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


class Project:
    def __init__(self, rng, name):
        self.name = name
        self.up = name.upper()
        self.rng = rng
        self.year = rng.choice([2016, 2018, 2019, 2020, 2021, 2022, 2023])
        self.license = rng.randrange(len(LICENSES))
        self.modules = rng.sample(MODULES, rng.randint(3, 6))
        self.macros = {
            "@CHECK@": self.up + "_CUDA_CHECK",
            "@BLASCHECK@": self.up + "_CUBLAS_CHECK",
            "@RANDCHECK@": self.up + "_CURAND_CHECK",
            "@FFTCHECK@": self.up + "_CUFFT_CHECK",
            "@SPARSECHECK@": self.up + "_CUSPARSE_CHECK",
            "@SOLVERCHECK@": self.up + "_CUSOLVER_CHECK",
        }
        self.used = set()

    def fresh_name(self):
        for _ in range(1000):
            n = self.rng.choice(VERBS) + self.rng.choice(NOUNS)
            if self.rng.random() < 0.5:
                n += str(self.rng.randint(2, 99))
            if n not in self.used:
                self.used.add(n)
                return n
        n = "fn%d" % len(self.used)
        self.used.add(n)
        return n

    def license_text(self, path):
        return LICENSES[self.license].format(year=self.year, Proj=self.name.capitalize(),
                                             file=os.path.basename(path),
                                             brief=self.rng.choice(BRIEFS))

    def common_header(self):
        """include/<proj>/common.cuh: the project's error-check macros."""
        up = self.up
        out = [self.license_text("common.cuh"), "#pragma once\n\n",
               "#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n\n",
               "#include <cuda_runtime.h>\n\n"]
        checks = [("CUDA", "cudaError_t", "cudaSuccess", "cudaGetErrorString(s_)"),
                  ("CUBLAS", "cublasStatus_t", "CUBLAS_STATUS_SUCCESS", "\"cuBLAS error\""),
                  ("CURAND", "curandStatus_t", "CURAND_STATUS_SUCCESS", "\"cuRAND error\""),
                  ("CUFFT", "cufftResult", "CUFFT_SUCCESS", "\"cuFFT error\""),
                  ("CUSPARSE", "cusparseStatus_t", "CUSPARSE_STATUS_SUCCESS", "cusparseGetErrorString(s_)"),
                  ("CUSOLVER", "cusolverStatus_t", "CUSOLVER_STATUS_SUCCESS", "\"cuSOLVER error\"")]
        for lib, typ, ok, msg in checks:
            body = [
                "#define %s_%s_CHECK(expr)" % (up, lib),
                "  do {",
                "    const %s s_ = (expr);" % typ,
                "    if (s_ != %s) {" % ok,
                "      std::fprintf(stderr, \"%%s:%%d: %%s failed: %%s\\n\", __FILE__, __LINE__, #expr, %s);" % msg,
                "      std::abort();",
                "    }",
                "  } while (0)",
            ]
            width = max(len(b) for b in body) + 2
            out.append("".join(b.ljust(width) + "\\\n" for b in body[:-1]) + body[-1] + "\n\n")
        out.append("#define %s_WARP_SIZE 32\n\nnamespace %s {\n\n" % (up, self.name))
        out.append("template <typename T>\n__host__ __device__ constexpr T ceil_div(T a, T b) {\n"
                   "  return (a + b - 1) / b;\n}\n\n")
        out.append("inline int grid_size(int64_t n, int block, int max_blocks = 4096) {\n"
                   "  const int64_t blocks = ceil_div<int64_t>(n, block);\n"
                   "  return static_cast<int>(blocks < max_blocks ? blocks : max_blocks);\n}\n\n")
        out.append("}  // namespace %s\n" % self.name)
        return "".join(out)


def instantiate(rng, proj, text):
    fname = proj.fresh_name()
    t = rng.choice(["float", "float", "float", "double"])
    values = dict(proj.macros)
    values.update({
        "@F@": fname,
        "@T@": t,
        "@BLAS_T@": "S" if t == "float" else "D",
        "@BLAS_t@": "s" if t == "float" else "d",
        "@B@": str(rng.choice([128, 256, 256, 512])),
        "@TILE@": str(rng.choice([16, 32])),
        "@K@": str(rng.randint(1, 4)),
    })
    return re.sub(r"@[A-Za-z_]+@", lambda m: values.get(m.group(0), m.group(0)), text)


def rename_fastops(rng, proj, piece, names, tag):
    piece = re.sub(r"\bCUDA_CHECK\b", proj.macros["@CHECK@"], piece)
    piece = re.sub(r"\bCUBLAS_CHECK\b", proj.macros["@BLASCHECK@"], piece)
    piece = re.sub(r"\bWARP_SIZE\b", proj.up + "_WARP_SIZE", piece)
    piece = re.sub(r"\bfastops\b", proj.name, piece)
    for n in names:
        piece = re.sub(r"\b%s\b" % re.escape(n), "%s_%s" % (n, tag), piece)
    return piece


def comment_block(rng, proj):
    lines = rng.choice([
        ["Implementation notes.", "", "Launch bounds are chosen for sm_70 and newer; on older parts the",
         "occupancy calculator picks a smaller block.  Streams are never the legacy default stream."],
        ["TODO(%s): fuse the two passes once the scratch buffer is pooled." % rng.choice(["ana", "kj", "mr", "tl"])],
        ["The following helpers are shared by the forward and backward passes.",
         "They must not allocate: they run inside captured graphs."],
        ["Numerics: accumulation is in the input type unless noted; double", "inputs are slow on consumer GPUs."],
    ])
    return "".join("// " + l + "\n" if l else "//\n" for l in lines)


def dead_block(rng, proj):
    return ("#if 0\n// Old version, kept for reference until the new path is validated.\n"
            "__global__ void legacy_%s(float* p, int n) {\n"
            "  int i = threadIdx.x + blockIdx.x * blockDim.x;\n"
            "  if (i < n) p[i] = __fdividef(p[i], 3.0f);\n"
            "}\n#endif\n" % proj.fresh_name())


def make_file(rng, proj, kind_spec, path, target_lines, snippets, fastops, fastops_names, tag):
    kind, _, ext, prefixes, fastops_share = kind_spec
    pool = sorted(n for n in snippets if any(n.startswith(p) for p in prefixes))
    if kind == "header" or kind == "decl":
        pool = [n for n in pool if not n.startswith("kernel_") or rng.random() < 0.5] or pool
    body, headers, used_pieces, lines = [], set(), set(), 0
    header_lines = 40
    guard = None
    while lines + header_lines < target_lines or not body:
        r = rng.random()
        if fastops_share and r < fastops_share and len(used_pieces) < len(fastops):
            i = rng.randrange(len(fastops))
            if i in used_pieces:
                continue
            used_pieces.add(i)
            text = rename_fastops(rng, proj, fastops[i], fastops_names, tag)
            if "__shfl" in text or "__ballot" in text:
                pass
        else:
            name = rng.choice(pool)
            text = instantiate(rng, proj, snippets[name])
            headers.update(SNIPPET_HEADERS.get(name, []))
            if name == "kernel_cg":
                headers.add("namespace cg")
        extra = rng.random()
        if extra < 0.06:
            text = "#ifdef %s_ENABLE_%s\n%s#endif  // %s_ENABLE_%s\n" % (
                proj.up, kind.upper(), text, proj.up, kind.upper())
        elif extra < 0.10:
            text = comment_block(rng, proj) + "\n" + text
        elif extra < 0.12:
            text = dead_block(rng, proj) + "\n" + text
        body.append(text)
        lines += text.count("\n") + 1

    out = [proj.license_text(path)]
    if ext in (".cuh", ".h"):
        if rng.random() < 0.5:
            out.append("#pragma once\n")
        else:
            guard = re.sub(r"[^A-Z0-9]", "_", (proj.name + "/" + path).upper()) + "_"
            out.append("#ifndef %s\n#define %s\n" % (guard, guard))
    out.append("\n")
    system = sorted(h for h in headers if h.startswith("<") and not h.startswith("<cu") and
                    not h.startswith("<nvrtc") and not h.startswith("<coop"))
    cuda = sorted(h for h in headers if h.startswith("<") and h not in system)
    if system:
        out.append("".join("#include %s\n" % h for h in system) + "\n")
    if kind != "plain" or cuda:
        out.append("#include <cuda_runtime.h>\n")
    out.append("".join("#include %s\n" % h for h in cuda))
    out.append("\n#include \"%s/common.cuh\"\n" % proj.name)
    if kind in ("kernels", "host", "library", "test") and rng.random() < 0.4:
        out.append("#include \"%s/%s.h\"\n" % (proj.name, rng.choice(proj.modules)))
    out.append("\n")
    if "namespace cg" in headers:
        out.append("namespace cg = cooperative_groups;\n\n")
    out.append("namespace %s {\n" % proj.name)
    inner = None
    if kind in ("kernels", "header") and rng.random() < 0.3:
        inner = rng.choice(["detail", "kernels", "impl"])
        out.append("namespace %s {\n" % inner)
    out.append("\n")
    out.append("\n".join(body))
    out.append("\n")
    if inner:
        out.append("}  // namespace %s\n" % inner)
    out.append("}  // namespace %s\n" % proj.name)
    if guard:
        out.append("\n#endif  // %s\n" % guard)
    text = "".join(out)
    if rng.random() < 0.03:
        text = text.replace("\n", "\r\n")
    return text


def generate(out_dir, seed, total_lines, force=False, quiet=False):
    """Creates (or reuses) the corpus; returns (files, lines) of scanned files."""
    stamp_path = os.path.join(out_dir, ".git", "hipport-bench-stamp")
    stamp = fingerprint(seed, total_lines)
    if not force and os.path.isfile(stamp_path):
        with open(stamp_path) as f:
            old = f.read().split()
        if old and old[0] == stamp:
            return int(old[1]), int(old[2])
    if os.path.exists(out_dir):
        if not os.path.isdir(os.path.join(out_dir, ".git")) or \
                not os.path.isfile(stamp_path):
            if os.listdir(out_dir):
                sys.exit("gen_corpus: %s exists and is not a corpus made by this script; "
                         "remove it or pick another --corpus" % out_dir)
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)

    rng = random.Random(seed)
    snippets = load_snippets()
    fastops, fastops_names = load_fastops()
    projects = [Project(rng, p) for p in PROJECTS]
    weights = [k[1] for k in FILE_KINDS]
    files = {}
    lines = 0
    for p in projects:
        files["%s/include/%s/common.cuh" % (p.name, p.name)] = p.common_header()
        for m in p.modules:
            files["%s/include/%s/%s.h" % (p.name, p.name, m)] = None  # filled below
        files["%s/CMakeLists.txt" % p.name] = (
            "cmake_minimum_required(VERSION 3.18)\nproject(%s LANGUAGES CXX CUDA)\n"
            "file(GLOB_RECURSE SOURCES src/*.cu src/*.cpp)\nadd_library(%s ${SOURCES})\n"
            "target_include_directories(%s PUBLIC include)\n" % (p.name, p.name, p.name))
        files["%s/README.md" % p.name] = "# %s\n\nGPU code for %s.\n" % (p.name, p.name)
    for p in projects:
        for m in p.modules:
            path = "%s/include/%s/%s.h" % (p.name, p.name, m)
            files[path] = make_file(rng, p, FILE_KINDS[4], path, rng.randint(40, 160), snippets, fastops,
                                    fastops_names, "h%d" % len(files))
    for text in files.values():
        lines += text.count("\n") if text else 0
    for p in projects:
        lines -= files["%s/CMakeLists.txt" % p.name].count("\n") + files["%s/README.md" % p.name].count("\n")
    counter = 0
    while lines < total_lines:
        p = rng.choice(projects)
        spec = rng.choices(FILE_KINDS, weights)[0]
        kind, ext = spec[0], spec[2]
        if kind == "header":
            ext = rng.choice([".cuh", ".cuh", ".hpp"])
        if kind == "plain":
            ext = rng.choice([".cpp", ".cc", ".cpp"])
        base = rng.choice(VERBS) + "_" + rng.choice(NOUNS).lower()
        sub = {"test": "tests", "header": "include/" + p.name, "decl": "include/" + p.name}.get(
            kind, "src/" + rng.choice(p.modules))
        path = "%s/%s/%s_%d%s" % (p.name, sub, base, counter, ext)
        counter += 1
        target = int(min(2500, max(40, rng.lognormvariate(5.35, 0.8))))
        text = make_file(rng, p, spec, path, target, snippets, fastops, fastops_names, "f%d" % counter)
        files[path] = text
        lines += text.count("\n")

    nfiles = lines = 0
    for path in sorted(files):
        full = os.path.join(out_dir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="") as f:
            f.write(files[path])
        if path.endswith(CANDIDATE_EXTS):
            nfiles += 1
            lines += files[path].count("\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid",
               GIT_AUTHOR_DATE="2024-01-01T00:00:00Z", GIT_COMMITTER_DATE="2024-01-01T00:00:00Z")
    run = lambda *a: subprocess.run(["git", "-C", out_dir] + list(a), check=True, env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run("init", "-q")
    run("add", "-A")
    run("commit", "-q", "--no-gpg-sign", "-m", "corpus seed %d" % seed)
    with open(stamp_path, "w") as f:
        f.write("%s %d %d\n" % (stamp, nfiles, lines))
    return nfiles, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/hipport-bench")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lines", type=int, default=270000)
    ap.add_argument("--force", action="store_true", help="regenerate even if the corpus is current")
    args = ap.parse_args()
    files, lines = generate(args.out, args.seed, args.lines, args.force)
    print("%s: %d files, %d lines" % (args.out, files, lines))


if __name__ == "__main__":
    main()
