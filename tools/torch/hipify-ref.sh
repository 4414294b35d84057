#!/bin/sh
# Real hipify outputs of extensions, for tools/torch-agree --reference.
# Runs PyTorch's own torch.utils.hipify (extension mode, as BuildExtension runs it on
# ROCm) on each project under CORPUS (a directory of projects, each with the
# MANIFEST.tsv tools/torch-agree reads), and writes each source listed in the
# project's MANIFEST.tsv, hipified, at its original path:
#   OUT/hipify-ref.tar  ->  <convention>/<project>/<path>   (+ <convention>/VERSION)
# The convention is v2 when torch.utils.hipify.__version__ is 2.x, else v1.
# Any machine with a PyTorch will do (a CUDA build has torch.utils.hipify too).
# usage: OUT=DIR sh tools/torch/hipify-ref.sh CORPUS [PYTHON]   (default python3)
set -eu
[ $# -ge 1 ] || { echo "usage: OUT=DIR sh $0 CORPUS [PYTHON]" >&2; exit 2; }
corpus=$(cd "$1" && pwd) || { echo "$0: $1: no such directory" >&2; exit 2; }
py=${2:-python3}
out=${OUT:?OUT must name the output folder}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" - "$corpus" "$work" <<'PY'
import os, shutil, subprocess, sys
corpus, work = sys.argv[1], sys.argv[2]
import torch, torch.utils.hipify as th
version = getattr(th, "__version__", "1.0.0")
conv = "v2" if version.split(".")[0] == "2" else "v1"
dest = os.path.join(work, "tree", conv)
os.makedirs(dest)
with open(os.path.join(dest, "VERSION"), "w") as f:
    f.write("torch %s, torch.utils.hipify %s\n" % (torch.__version__, version))
# One process per project: hipify keeps its results in a module-level table.
child = r'''
import os, shutil, sys
from torch.utils.hipify import hipify_python
src, out, dest, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
res = hipify_python.hipify(project_directory=src, output_directory=out, is_pytorch_extension=True,
                           show_progress=False)
for rel in files:
    r = res.get(os.path.abspath(os.path.join(out, rel)))
    hp = (r.get("hipified_path") if isinstance(r, dict) else getattr(r, "hipified_path", None)) if r else None
    target = os.path.join(dest, rel)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(hp if hp else os.path.join(src, rel), target)
    print("%s -> %s" % (rel, os.path.relpath(hp, out) if hp else "(unchanged)"))
'''
exts = (".cu", ".cuh", ".c", ".cc", ".cpp", ".h", ".hpp")
for proj in sorted(os.listdir(corpus)):
    src = os.path.join(corpus, proj)
    man = os.path.join(src, "MANIFEST.tsv")
    if not os.path.isfile(man):
        continue
    files = [l.split("\t")[1] for l in open(man, encoding="utf-8").read().splitlines()
             if l.strip() and not l.startswith("#") and l.split("\t")[1].endswith(exts)]
    tmp_src = os.path.join(work, "in", proj)
    shutil.copytree(src, tmp_src)
    print("==", proj, conv, flush=True)
    subprocess.run([sys.executable, "-c", child, tmp_src, os.path.join(work, "out", proj),
                    os.path.join(dest, proj)] + files, check=True)
PY
tar -C "$work/tree" -cf "$out/hipify-ref.tar" .
echo "wrote $out/hipify-ref.tar"
