#!/usr/bin/env python3
"""The BUILD-011 fix on setup.py cases: after `translate --fix=BUILD-011` the
file is still Python (py_compile), imports ROCM_HOME once, tests it, and a
new scan reports no CUDA_HOME gate; a file that takes paths from CUDA_HOME
gets no fix and is left as it is.

usage: setup_fix.py HIPPORT CASES_DIR        exit 0 good, 1 a failure
"""

import json
import os
import subprocess
import sys
import tempfile

IMPORT = "from torch.utils.cpp_extension import ROCM_HOME\n"


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def fixed(hipport, case, tmp):
    out = os.path.join(tmp, os.path.basename(case))
    code, _, err = run([hipport, "translate", "--fix=BUILD-011", case, "-o", out])
    if code not in (0, 1) or not os.path.isfile(out):
        raise SystemExit("%s: translate --fix=BUILD-011 failed (%d): %s" % (case, code, err.strip()))
    with open(out, encoding="utf-8") as f:
        return out, f.read()


def build_011(hipport, path):
    code, out, err = run([hipport, "scan", "--no-cache", "--format", "json", path])
    if code not in (0, 1):
        raise SystemExit("%s: scan failed (%d): %s" % (path, code, err.strip()))
    return [f for entry in json.loads(out)["files"] for f in entry.get("findings") or []
            if f.get("id") == "BUILD-011"]


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    hipport, cases = os.path.abspath(sys.argv[1]), sys.argv[2]
    problems = []
    with tempfile.TemporaryDirectory(prefix="hipport-setup-fix-") as tmp:
        case = os.path.join(cases, "setup_cuda_home.py")
        out, text = fixed(hipport, case, tmp)
        code, _, err = run([sys.executable, "-m", "py_compile", out])
        if code != 0:
            problems.append("%s: not Python after the fix:\n%s" % (case, err.strip()))
        if text.count(IMPORT) != 1:
            problems.append("%s: the fix imports ROCM_HOME %d times, not once" % (case, text.count(IMPORT)))
        for test in ("(CUDA_HOME is not None or ROCM_HOME is not None)", "(CUDA_HOME is None and ROCM_HOME is None)"):
            if test not in text:
                problems.append("%s: the fixed file lacks %s" % (case, test))
        left = build_011(hipport, out)
        if left:
            problems.append("%s: BUILD-011 still reported after the fix, line %s" %
                            (case, ", ".join(str(f.get("line")) for f in left)))
        # paths taken from CUDA_HOME: reported, never rewritten
        case = os.path.join(cases, "setup_gates.py")
        _, text = fixed(hipport, case, tmp)
        with open(case, encoding="utf-8") as f:
            if f.read() != text:
                problems.append("%s: changed by --fix=BUILD-011, though it takes paths from CUDA_HOME" % case)
    for p in problems:
        print(p)
    print("setup fix: %s" % ("failed" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
